//! Rectangular boards (2x3, 3x2, 2x4, 4x2, 2x5, 3x4, 4x3) with every goal kind: the standard
//! goal, blank-first, and a custom goal with the blank inside the board and the tiles in
//! reverse order. Solutions replay to the goal and their lengths match an independent
//! search: a breadth-first search written in the tests (the whole space up to 10 cells, a
//! ball around the goal for 12), and Manhattan-distance IDA* on longer scrambles.

use fifteen::search::Search;
use std::io::Cursor;

use fifteen::check::check_solution;
use fifteen::instances::Reader;
use fifteen::pdb::{self, Partition};
use fifteen::random::{random_board, random_walk, Rng};

use fifteen::{Board, BoardError, Goal, GoalSpec, HeuristicKind, Shape, SolveError, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, bfs_within, custom, goals, tables};

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

/// The three solvers: linear conflict, and pattern databases built for this goal's blank
/// (kept alive by the returned directory).
fn solvers(goal: &Goal) -> (tempfile::TempDir, Vec<Solver>) {
    let s = goal.shape();
    let partition = Partition::default_for(s, pdb::canonical_blank(s, goal.blank()));
    let (tmp, h) = tables(&partition);
    (
        tmp,
        vec![
            Solver::new(HeuristicKind::LinearConflict),
            Solver::with_pdb(h),
        ],
    )
}

fn solve_len(solver: &Solver, b: &Board, goal: &Goal) -> u32 {
    let sol = solver
        .solve(b, goal, &Search::default())
        .unwrap_or_else(|e| panic!("{b:?} to {goal:?}: {e}"));
    if solver.kind() == HeuristicKind::Pdb {
        assert_eq!(
            sol.heuristic,
            HeuristicKind::Pdb,
            "tables not used for {b:?}"
        );
    }
    check_solution(b, goal, &sol.moves).unwrap_or_else(|e| panic!("{b:?}: {e}"));
    sol.moves.len() as u32
}

#[test]
fn small_rectangles_match_bfs_for_every_goal_kind() {
    for s in [
        shape(2, 3),
        shape(3, 2),
        shape(2, 4),
        shape(4, 2),
        shape(2, 5),
    ] {
        for goal in goals(s) {
            let (order, dist, _) = bfs(&goal);
            // Half of all arrangements can reach the goal.
            let all: u64 = (1..=s.cells() as u64).product();
            assert_eq!(order.len() as u64, all / 2, "{s}");
            let (_tmp, solvers) = solvers(&goal);
            let step = (order.len() / 3000).max(1);
            let sample: Vec<&Board> = order
                .iter()
                .step_by(step)
                .chain(order.iter().rev().take(20))
                .collect();
            sample.par_iter().enumerate().for_each(|(i, b)| {
                assert_eq!(solve_len(&solvers[1], b, &goal), dist[*b], "{s} {b:?}");
                // Linear conflict is slow on 2x5 (about 100,000 nodes a board): a tenth.
                if s.cells() < 10 || i % 10 == 0 {
                    assert_eq!(solve_len(&solvers[0], b, &goal), dist[*b], "{s} {b:?}");
                }
            });
        }
    }
}

#[test]
fn twelve_cell_boards_match_bfs_near_the_goal_and_manhattan_beyond() {
    let manhattan = Solver::new(HeuristicKind::Manhattan);
    for s in [shape(3, 4), shape(4, 3)] {
        for goal in goals(s) {
            let (_tmp, solvers) = solvers(&goal);
            // Every board within 16 moves of the goal, with its exact distance.
            let (order, dist, layers) = bfs_within(&goal, 16);
            assert_eq!(layers.len(), 17);
            let sample: Vec<&Board> = order.iter().step_by(97).collect();
            assert!(sample.len() > 500, "{}", sample.len());
            sample.par_iter().for_each(|b| {
                for solver in &solvers {
                    assert_eq!(solve_len(solver, b, &goal), dist[*b], "{s} {b:?}");
                }
            });
            // Longer random walks: the three heuristics must agree.
            let mut rng = Rng::new(s.rows as u64 * 100 + goal.blank() as u64);
            let walks: Vec<Board> = (0..40)
                .map(|i| random_walk(&mut rng, &goal, 20 + i % 20))
                .collect();
            walks.par_iter().for_each(|b| {
                let m = solve_len(&manhattan, b, &goal);
                for solver in &solvers {
                    assert_eq!(solve_len(solver, b, &goal), m, "{s} {b:?}");
                }
            });
            // Uniformly random boards (far from the goal): the pattern databases and
            // linear conflict agree.
            let boards: Vec<Board> = (0..6).map(|_| random_board(&mut rng, &goal)).collect();
            boards.par_iter().for_each(|b| {
                let a = solve_len(&solvers[0], b, &goal);
                assert_eq!(solve_len(&solvers[1], b, &goal), a, "{s} {b:?}");
            });
        }
    }
}

#[test]
fn unsolvable_boards_for_a_custom_goal_are_refused() {
    for s in [
        shape(2, 3),
        shape(2, 4),
        shape(3, 4),
        shape(4, 3),
        shape(2, 5),
    ] {
        let goal = custom(s);
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let b = random_board(&mut rng, &goal);
            // Swapping two tiles (not the blank) flips solvability.
            let mut t = b.tiles().to_vec();
            let (i, j) = {
                let nz: Vec<usize> = (0..t.len()).filter(|&c| t[c] != 0).collect();
                (nz[0], nz[1])
            };
            t.swap(i, j);
            let bad = Board::new(s, &t).unwrap();
            assert_eq!(
                goal.labels(&bad).unwrap_err(),
                BoardError::Unsolvable { other: None }
            );
            let err = Solver::new(HeuristicKind::LinearConflict)
                .solve(&bad, &goal, &Search::default())
                .unwrap_err();
            assert_eq!(
                err,
                SolveError::Board(BoardError::Unsolvable { other: None })
            );
            // Through an instance file too, without searching.
            let text = format!("size: {s}\ngoal: {}\n{bad}\n{b}\n", goal.board());
            let got: Vec<_> = Reader::new(Cursor::new(text), GoalSpec::Standard).collect();
            assert_eq!(
                got[0].as_ref().unwrap_err().error,
                BoardError::Unsolvable { other: None }
            );
            assert_eq!(got[1].as_ref().unwrap().board, b);
        }
    }
    // And the whole space, for one shape: a board is refused exactly when BFS cannot
    // reach it from the goal.
    let s = shape(2, 3);
    let goal = custom(s);
    let (_, dist, _) = bfs(&goal);
    let mut tiles: Vec<u8> = (0..6).collect();
    let mut count = 0;
    permutations(&mut tiles, 0, &mut |t| {
        let b = Board::new(s, t).unwrap();
        assert_eq!(goal.labels(&b).is_ok(), dist.contains_key(&b), "{b:?}");
        count += 1;
    });
    assert_eq!(count, 720);
}

fn permutations(t: &mut Vec<u8>, k: usize, f: &mut dyn FnMut(&[u8])) {
    if k == t.len() {
        f(t);
        return;
    }
    for i in k..t.len() {
        t.swap(k, i);
        permutations(t, k + 1, f);
        t.swap(k, i);
    }
}

#[test]
fn instance_files_say_the_shape_with_size_lines() {
    let text = "\
# a 2x4 board on one line, one in rows, one with an id and a length
size: 2x4
1 2 3 4 5 6 0 7
1 2 3 4
5 6 0 7
a 1 1 2 3 4 5 6 0 7
size: 4x2
1 2 3 4 5 6 0 7
size: auto
1 2 3 4 5 6 7 0 8
size: 3x4
goal: 0 1 2 3 4 5 6 7 8 9 10 11
1 0 2 3 4 5 6 7 8 9 10 11
size: 2x4
1 2 3 4 5 6 7 8 0
size: 7
size: 1x9
";
    let got: Vec<_> = Reader::new(Cursor::new(text), GoalSpec::Standard).collect();
    assert_eq!(got.len(), 9, "{got:?}");
    let ok = |i: usize| got[i].as_ref().unwrap();
    for i in 0..3 {
        assert_eq!(ok(i).board.shape(), shape(2, 4));
        assert_eq!(ok(i).board.tiles(), &[1, 2, 3, 4, 5, 6, 0, 7]);
        assert_eq!(ok(i).goal, Goal::standard(shape(2, 4)));
    }
    assert_eq!(ok(2).id, "a");
    assert_eq!(ok(2).known, Some(1));
    assert_eq!(ok(3).board.shape(), shape(4, 2));
    assert_eq!(ok(4).board.shape(), shape(3, 3));
    assert_eq!(ok(5).board.shape(), shape(3, 4));
    assert_eq!(ok(5).goal, Goal::blank_first(shape(3, 4)));
    // Wrong count for the size, a size of more cells than boards have, a bad size.
    let e = |i: usize| got[i].as_ref().unwrap_err().error.clone();
    assert_eq!(
        e(6),
        BoardError::WrongCount {
            count: 9,
            expected: 8
        }
    );
    assert!(matches!(e(7), BoardError::BadSize(_)), "{:?}", e(7));
    assert!(matches!(e(8), BoardError::BadSize(_)), "{:?}", e(8));
    for i in 0..6 {
        let inst = ok(i);
        let sol = Solver::new(HeuristicKind::LinearConflict)
            .solve(&inst.board, &inst.goal, &Search::default())
            .unwrap();
        check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
    }
}

#[test]
fn an_explicit_goal_serves_every_shape_of_its_cell_count() {
    let spec = GoalSpec::parse("11 10 9 8 7 6 0 5 4 3 2 1").unwrap();
    let a = spec.for_shape(shape(3, 4)).unwrap();
    let b = spec.for_shape(shape(4, 3)).unwrap();
    assert_eq!(a.blank(), 6);
    assert_eq!(b.blank(), 6);
    assert_eq!(a.shape(), shape(3, 4));
    assert_eq!(
        spec.for_shape(shape(3, 3)).unwrap_err(),
        BoardError::GoalSize { board: 9, goal: 12 }
    );
    assert_eq!(
        GoalSpec::parse("1 2 3 4 5 1").unwrap_err(),
        BoardError::Repeated(1)
    );
    assert!(matches!(
        GoalSpec::parse("1 2 3 4 5 6").unwrap_err(),
        BoardError::OutOfRange { value, .. } if value == "6"
    ));
}
