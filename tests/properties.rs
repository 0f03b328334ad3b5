//! Property tests on the library, over random boards and random goals:
//! - a walk of k moves from the goal has an optimal length of at most k, of k's parity;
//! - a board and its reflection in the main diagonal (goal reflected too) are equally far
//!   from their goals, and the reflected moves solve the reflected board;
//! - every solution found replays to the goal, in as many moves as it says.
//!
//! Each property runs every heuristic: on 3x3 Manhattan, linear conflict and the exact
//! pattern database; on 4x4 linear conflict and a 5-5-5 pattern database (both small
//! enough to build in a moment into a temporary directory, then read into memory).

use fifteen::search::Search;
use std::sync::{Arc, OnceLock};

use fifteen::check::check_solution;
use fifteen::pdb::{canonical_blank, Partition, PdbHeuristic, TableDir};

use fifteen::{Board, Dir, Goal, HeuristicKind, Shape, Solver, Symmetry};
use proptest::prelude::*;

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

fn shape4() -> Shape {
    Shape::new(4, 4).unwrap()
}

/// The partition's tables, built into a temporary directory that is gone once they are
/// read into memory.
fn build(partition: &Partition) -> Arc<PdbHeuristic> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    dir.build_missing(partition, &|_, _, _| {}).unwrap();
    dir.read(partition).unwrap()
}

/// The exact 3x3 tables for every class of goal blank cell (corner, edge, centre), so any
/// 3x3 goal is served by a table.
fn tables3() -> &'static [Arc<PdbHeuristic>] {
    static T: OnceLock<Vec<Arc<PdbHeuristic>>> = OnceLock::new();
    T.get_or_init(|| {
        let mut blanks: Vec<u8> = (0..9).map(|c| canonical_blank(shape3(), c)).collect();
        blanks.sort();
        blanks.dedup();
        assert_eq!(blanks, [0, 1, 4]);
        blanks
            .iter()
            .map(|&b| build(&Partition::default_for(shape3(), b)))
            .collect()
    })
}

/// 5-5-5 tables for a goal blank in a corner of the 4x4 board.
fn tables4() -> Arc<PdbHeuristic> {
    static T: OnceLock<Arc<PdbHeuristic>> = OnceLock::new();
    T.get_or_init(|| build(&Partition::parse(shape4(), 0, "5-5-5").unwrap()))
        .clone()
}

/// Every solver for this goal; the pattern-database one only where its tables fit.
fn solvers(goal: &Goal) -> Vec<Solver> {
    let mut out = vec![Solver::new(HeuristicKind::LinearConflict)];
    let shape = goal.shape();
    if shape == shape3() {
        out.push(Solver::new(HeuristicKind::Manhattan));
        let b = canonical_blank(shape, goal.blank());
        let t = tables3().iter().find(|t| t.partition.blank == b).unwrap();
        out.push(Solver::with_pdb(t.clone()));
    } else if canonical_blank(shape, goal.blank()) == 0 {
        out.push(Solver::with_pdb(tables4()));
    }
    out
}

/// Solves with every solver, replays each solution, and returns the one optimal length
/// they all agree on.
fn optimal(board: &Board, goal: &Goal) -> Result<usize, TestCaseError> {
    let mut length = None;
    for s in solvers(goal) {
        let sol = s
            .solve(board, goal, &Search::default())
            .map_err(|e| TestCaseError::fail(format!("{board:?}: {e}")))?;
        // The heuristic asked for is the one used: no silent fallback.
        prop_assert_eq!(sol.heuristic, s.kind());
        let replayed = check_solution(board, goal, &sol.moves);
        prop_assert_eq!(replayed, Ok(sol.moves.len()), "{:?} {:?}", board, s.kind());
        match length {
            None => length = Some(sol.moves.len()),
            Some(l) => prop_assert_eq!(l, sol.moves.len(), "{:?} {:?}", board, s.kind()),
        }
    }
    Ok(length.unwrap())
}

/// A goal: any arrangement of the cells.
fn any_goal(cells: usize) -> impl Strategy<Value = Vec<u8>> {
    Just((0..cells as u8).collect::<Vec<u8>>()).prop_shuffle()
}

fn goal_of(shape: Shape, tiles: &[u8]) -> Goal {
    Goal::from_board(Board::new(shape, tiles).unwrap())
}

/// Walks the blank from the goal, taking each direction that stays on the board (undoing
/// moves is allowed: it is still a walk). Returns the board and the moves made.
fn walk(goal: &Goal, dirs: &[u8]) -> (Board, usize) {
    let mut b = *goal.board();
    let mut k = 0;
    for &d in dirs {
        if let Some(n) = b.apply(Dir::ALL[d as usize]) {
            b = n;
            k += 1;
        }
    }
    (b, k)
}

/// Any board that can reach `goal`: a shuffle, with two tiles swapped if its parity is
/// the wrong one (a swap of two tiles flips it).
fn reachable(goal: &Goal, mut tiles: Vec<u8>) -> Board {
    let shape = goal.shape();
    let b = Board::new(shape, &tiles).unwrap();
    if goal.labels(&b).is_ok() {
        return b;
    }
    let (i, j) = {
        let mut nonblank = (0..tiles.len()).filter(|&c| tiles[c] != 0);
        (nonblank.next().unwrap(), nonblank.next().unwrap())
    };
    tiles.swap(i, j);
    let b = Board::new(shape, &tiles).unwrap();
    assert!(goal.labels(&b).is_ok());
    b
}

const TRANSPOSE: Symmetry = Symmetry {
    transpose: true,
    flip_rows: false,
    flip_cols: false,
};

/// The board reflected in its main diagonal: the tile in row r, column c goes to row c,
/// column r.
fn transposed(b: &Board) -> Board {
    let shape = b.shape();
    let mut tiles = vec![0u8; shape.cells()];
    for (c, &t) in b.tiles().iter().enumerate() {
        let (r, col) = (shape.row(c), shape.col(c));
        tiles[col * shape.cols as usize + r] = t;
    }
    // The symmetry type agrees with the hand-written reflection.
    for c in 0..shape.cells() {
        assert_eq!(tiles[TRANSPOSE.cell(shape, c)], b.tiles()[c]);
    }
    Board::new(shape, &tiles).unwrap()
}

/// A board and its reflection need the same number of moves, and reflecting the moves
/// (U <-> L, D <-> R) of one's solution solves the other.
fn reflection_holds(board: &Board, goal: &Goal) -> Result<(), TestCaseError> {
    let rb = transposed(board);
    let rg = Goal::from_board(transposed(goal.board()));
    let n = optimal(board, goal)?;
    prop_assert_eq!(optimal(&rb, &rg)?, n, "{:?} reflected", board);
    let sol = Solver::new(HeuristicKind::LinearConflict)
        .solve(board, goal, &Search::default())
        .unwrap();
    let reflected: Vec<Dir> = sol
        .moves
        .iter()
        .map(|&d| match d {
            Dir::Up => Dir::Left,
            Dir::Left => Dir::Up,
            Dir::Down => Dir::Right,
            Dir::Right => Dir::Down,
        })
        .collect();
    for (&d, &r) in sol.moves.iter().zip(&reflected) {
        prop_assert_eq!(TRANSPOSE.dir(d), r);
    }
    prop_assert_eq!(check_solution(&rb, &rg, &reflected), Ok(n));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn walk_bounds_the_optimal_length_3x3(
        goal in any_goal(9),
        dirs in prop::collection::vec(0u8..4, 0..40),
    ) {
        let goal = goal_of(shape3(), &goal);
        let (board, k) = walk(&goal, &dirs);
        let n = optimal(&board, &goal)?;
        prop_assert!(n <= k, "{:?}: {} > {}", board, n, k);
        prop_assert_eq!(n % 2, k % 2, "{:?}: {} vs {}", board, n, k);
    }

    #[test]
    fn reflection_keeps_the_optimal_length_3x3(
        goal in any_goal(9),
        tiles in any_goal(9),
    ) {
        let goal = goal_of(shape3(), &goal);
        let board = reachable(&goal, tiles);
        reflection_holds(&board, &goal)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn walk_bounds_the_optimal_length_4x4(
        goal in prop_oneof![
            Just((1..16).chain([0]).collect::<Vec<u8>>()),
            Just((0..16).collect::<Vec<u8>>()),
            any_goal(16),
        ],
        dirs in prop::collection::vec(0u8..4, 0..50),
    ) {
        let goal = goal_of(shape4(), &goal);
        let (board, k) = walk(&goal, &dirs);
        let n = optimal(&board, &goal)?;
        prop_assert!(n <= k, "{:?}: {} > {}", board, n, k);
        prop_assert_eq!(n % 2, k % 2, "{:?}: {} vs {}", board, n, k);
    }

    #[test]
    fn reflection_keeps_the_optimal_length_4x4(
        goal in prop_oneof![
            Just((1..16).chain([0]).collect::<Vec<u8>>()),
            any_goal(16),
        ],
        dirs in prop::collection::vec(0u8..4, 0..50),
    ) {
        let goal = goal_of(shape4(), &goal);
        let (board, _) = walk(&goal, &dirs);
        reflection_holds(&board, &goal)?;
    }
}

#[test]
fn every_heuristic_is_exercised() {
    // The properties above would pass vacuously if `solvers` left some out.
    let g3 = Goal::standard(shape3());
    let kinds: Vec<HeuristicKind> = solvers(&g3).iter().map(|s| s.kind()).collect();
    assert_eq!(kinds.len(), 3);
    for goal in [Goal::standard(shape4()), Goal::blank_first(shape4())] {
        let kinds: Vec<HeuristicKind> = solvers(&goal).iter().map(|s| s.kind()).collect();
        assert_eq!(kinds, [HeuristicKind::LinearConflict, HeuristicKind::Pdb]);
    }
    // A 3x3 goal with its blank in the centre or on an edge has its own tables.
    for blank in [1, 4] {
        let mut tiles: Vec<u8> = (1..9).collect();
        tiles.insert(blank, 0);
        let goal = goal_of(shape3(), &tiles);
        assert!(solvers(&goal)
            .iter()
            .any(|s| s.kind() == HeuristicKind::Pdb));
    }
}
