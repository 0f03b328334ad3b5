//! The classic searches (`fifteen::classic`) against facts that do not depend on them:
//! exhaustive breadth-first distances of the 3x3 (tests/common), a second A* written here
//! from the documented rules (node counts), replays of every answer.

mod common;

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use fifteen::check::check_solution;
use fifteen::classic::{classic_solve, Algorithm, Classic, ClassicError};
use fifteen::pdb::{self, Partition};
use fifteen::search::{Limits, StopReason, Weight};
use fifteen::{Board, Dir, Goal, HeuristicKind, Shape, Solver};
use rayon::prelude::*;

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

fn classic(algorithm: Algorithm) -> Classic<'static> {
    Classic::new(algorithm)
}

/// Runs `c` and checks that the answer replays to the goal; returns it.
fn run(solver: &Solver, b: &Board, goal: &Goal, c: &Classic) -> fifteen::classic::Answer {
    let (a, _) = classic_solve(solver, b, goal, c).unwrap_or_else(|e| panic!("{b:?}: {e}"));
    assert_eq!(
        check_solution(b, goal, &a.moves),
        Ok(a.moves.len()),
        "{b:?}"
    );
    assert_eq!(a.path.len(), a.moves.len() + 1);
    a
}

/// The optimal-claiming searches with the estimates that make them cheap, on every one of
/// the 181,440 boards: lengths equal to BFS distances, answers replay, optimal claimed.
#[test]
fn every_8_puzzle_board_astar_and_ida_agree_with_bfs() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = common::bfs(&goal);
    assert_eq!(order.len(), 181_440);
    let partition = Partition::default_for(shape3(), pdb::canonical_blank(shape3(), 8));
    let (_tmp, tables) = common::tables(&partition);
    let pdb = Solver::with_pdb(tables);
    let lc = Solver::new(HeuristicKind::LinearConflict);
    let runs: [(&Solver, Algorithm); 3] = [
        (&pdb, Algorithm::Astar),
        (&pdb, Algorithm::Ida),
        (&lc, Algorithm::Ida),
    ];
    order.par_iter().enumerate().for_each(|(i, b)| {
        // A* with linear conflict on every 7th board (it keeps a table a board: the
        // slowest of the four here).
        let lc_astar = (i % 7 == 0).then_some((&lc, Algorithm::Astar));
        for (solver, algo) in runs.into_iter().chain(lc_astar) {
            let a = run(solver, b, &goal, &classic(algo));
            assert_eq!(a.moves.len() as u32, dist[b], "{algo} {b:?}");
            assert!(a.optimal);
        }
    });
}

/// The weaker estimates and BFS itself, on a spread of boards of every distance.
#[test]
fn weaker_estimates_and_bfs_agree_with_bfs_on_a_sample() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = common::bfs(&goal);
    let solvers = [HeuristicKind::Hamming, HeuristicKind::Manhattan].map(Solver::new);
    order.par_iter().step_by(61).enumerate().for_each(|(i, b)| {
        // A* with Hamming (up to 120,000 expansions a board) on every 4th of these.
        let astar = if i % 4 == 0 {
            &solvers[..]
        } else {
            &solvers[1..]
        };
        for s in astar {
            let a = run(s, b, &goal, &classic(Algorithm::Astar));
            assert_eq!(a.moves.len() as u32, dist[b], "astar {b:?}");
        }
        let a = run(&solvers[1], b, &goal, &classic(Algorithm::Ida));
        assert_eq!(a.moves.len() as u32, dist[b], "ida {b:?}");
    });
    order.par_iter().step_by(3001).for_each(|b| {
        let a = run(&solvers[0], b, &goal, &classic(Algorithm::Bfs));
        assert_eq!(a.moves.len() as u32, dist[b], "bfs {b:?}");
        assert!(a.optimal);
        assert!(a.counts.closed.is_some());
    });
}

/// Hamming distance is admissible: never above the distance, on every board.
#[test]
fn hamming_never_overestimates() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = common::bfs(&goal);
    let hamming = Solver::new(HeuristicKind::Hamming);
    let md = Solver::new(HeuristicKind::Manhattan);
    order.par_iter().for_each(|b| {
        let h = hamming.estimate(b, &goal);
        assert!(h <= dist[b] && h <= md.estimate(b, &goal), "{b:?}");
    });
}

/// Greedy, weighted A* and IDA*, and depth-limited DFS: valid answers, within their bounds,
/// never claimed optimal.
#[test]
fn suboptimal_answers_are_valid_and_within_bounds() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = common::bfs(&goal);
    let md = Solver::new(HeuristicKind::Manhattan);
    let w = Weight::from_factor(1.5).unwrap();
    order.par_iter().skip(1).step_by(101).for_each(|b| {
        let d = dist[b] as usize;
        let a = run(&md, b, &goal, &classic(Algorithm::Greedy));
        assert!(!a.optimal && a.bound.is_none() && a.moves.len() >= d);
        for algo in [Algorithm::Astar, Algorithm::Ida] {
            let c = Classic {
                weight: w,
                ..classic(algo)
            };
            let a = run(&md, b, &goal, &c);
            assert!(!a.optimal, "{algo}");
            assert_eq!(a.bound, Some(1.5));
            assert!(
                a.moves.len() >= d && 2 * a.moves.len() <= 3 * d,
                "{algo} {b:?}"
            );
        }
    });
    // DFS within a limit: any answer is at most the limit; none below the distance.
    for b in order.iter().step_by(7001) {
        let d = dist[b];
        let c = Classic {
            depth_limit: Some(d + 2),
            ..classic(Algorithm::Dfs)
        };
        let a = run(&md, b, &goal, &c);
        assert!(!a.optimal && a.moves.len() as u32 >= d && a.moves.len() as u32 <= d + 2);
        if d > 0 {
            let c = Classic {
                depth_limit: Some(d - 1),
                ..classic(Algorithm::Dfs)
            };
            match classic_solve(&md, b, &goal, &c) {
                Err(ClassicError::DepthLimit { limit, .. }) => assert_eq!(limit, d - 1),
                other => panic!("{b:?}: {other:?}"),
            }
        }
    }
}

/// Limits end a search with its counts so far.
#[test]
fn limits_stop_with_counts() {
    let goal = Goal::blank_first(Shape::new(4, 4).unwrap());
    // Korf's instance 1 (57 moves): far beyond 20,000 nodes or 1 MB for BFS.
    let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
    let s = Solver::new(HeuristicKind::Manhattan);
    let c = Classic {
        limits: Limits {
            max_nodes: Some(20_000),
            ..Limits::default()
        },
        ..classic(Algorithm::Astar)
    };
    match classic_solve(&s, &b, &goal, &c) {
        Err(ClassicError::Stopped { reason, counts }) => {
            assert_eq!(reason, StopReason::MaxNodes);
            assert!(counts.generated >= 20_000 && counts.generated < 20_004);
            assert!(counts.expanded > 0 && counts.peak_frontier > 0);
        }
        other => panic!("{other:?}"),
    }
    let c = Classic {
        max_memory: Some(1 << 20),
        ..classic(Algorithm::Bfs)
    };
    match classic_solve(&s, &b, &goal, &c) {
        Err(ClassicError::Stopped { reason, counts }) => {
            assert_eq!(reason, StopReason::MaxMemory);
            assert!(counts.memory <= 1 << 20, "{counts:?}");
            assert!(counts.expanded > 1000);
        }
        other => panic!("{other:?}"),
    }
}

/// IDA* stopped inside its first iteration says what it held: the path to its deepest
/// node, at least a byte a board (it said 0 bytes, counted only when an iteration ended).
#[test]
fn a_stopped_ida_counts_the_path_it_held() {
    let goal = Goal::blank_first(Shape::new(4, 4).unwrap());
    let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
    let s = Solver::new(HeuristicKind::Manhattan);
    for max_nodes in [10, 1_000, 20_000] {
        let c = Classic {
            limits: Limits {
                max_nodes: Some(max_nodes),
                ..Limits::default()
            },
            ..classic(Algorithm::Ida)
        };
        match classic_solve(&s, &b, &goal, &c) {
            Err(ClassicError::Stopped { counts, .. }) => {
                assert!(counts.peak_frontier > 1, "{counts:?}");
                assert!(counts.memory >= counts.peak_frontier, "{counts:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}

/// The estimates of the independent A*, computed from the tiles alone.
fn hamming(b: &Board, goal: &Board) -> u32 {
    let t = b.tiles();
    let g = goal.tiles();
    (0..t.len()).filter(|&i| t[i] != 0 && t[i] != g[i]).count() as u32
}

fn manhattan(b: &Board, goal: &Board) -> u32 {
    let n = b.shape().cols as usize;
    let mut home = HashMap::new();
    for (i, &t) in goal.tiles().iter().enumerate() {
        home.insert(t, i);
    }
    let mut s = 0;
    for (i, &t) in b.tiles().iter().enumerate() {
        if t != 0 {
            let j = home[&t];
            s += (i / n).abs_diff(j / n) + (i % n).abs_diff(j % n);
        }
    }
    s as u32
}

/// A second A*, written from the documented rules only: an ordered set of
/// (f, highest g first, insertion order) with true removal of superseded entries; all four
/// moves generated, the start counted; a successor kept only with a smaller g than any met;
/// the goal tested when taken. Returns (length, expanded, generated).
fn independent_astar(b: &Board, goal: &Goal, h: fn(&Board, &Board) -> u32) -> (u32, u64, u64) {
    let gb = goal.board();
    let mut open: BTreeMap<(u32, Reverse<u32>, u64), Board> = BTreeMap::new();
    let mut best: HashMap<Board, (u32, u32, u64)> = HashMap::new(); // g, f, seq
    let mut seq = 0;
    let f0 = h(b, gb);
    open.insert((f0, Reverse(0), 0), *b);
    best.insert(*b, (0, f0, 0));
    let (mut expanded, mut generated) = (0u64, 1u64);
    while let Some(((_, Reverse(g), _), board)) = open.pop_first() {
        if &board == gb {
            return (g, expanded, generated);
        }
        expanded += 1;
        for d in Dir::ALL {
            let Some(c) = board.apply(d) else { continue };
            generated += 1;
            let cg = g + 1;
            if let Some(&(og, of, os)) = best.get(&c) {
                if cg >= og {
                    continue;
                }
                open.remove(&(of, Reverse(og), os));
            }
            seq += 1;
            let f = cg + h(&c, gb);
            open.insert((f, Reverse(cg), seq), c);
            best.insert(c, (cg, f, seq));
        }
    }
    panic!("unreachable goal");
}

/// Expanded and generated counts of A* with Manhattan and Hamming match the second A*, on
/// a few hundred boards of two goals.
#[test]
fn astar_counts_match_an_independent_astar() {
    for goal in [Goal::standard(shape3()), common::custom(shape3())] {
        let (order, dist, _) = common::bfs(&goal);
        let boards: Vec<&Board> = order.iter().step_by(600).collect();
        assert!(boards.len() > 300);
        boards.par_iter().for_each(|b| {
            let md: fn(&Board, &Board) -> u32 = manhattan;
            let mut runs = vec![(HeuristicKind::Manhattan, md)];
            // Hamming's A* grows fast with the distance: up to 24 moves (most of these).
            if dist[*b] <= 24 {
                runs.push((HeuristicKind::Hamming, hamming));
            }
            for (kind, h) in runs {
                let a = run(&Solver::new(kind), b, &goal, &classic(Algorithm::Astar));
                let (len, expanded, generated) = independent_astar(b, &goal, h);
                assert_eq!(
                    (a.moves.len() as u32, a.counts.expanded, a.counts.generated),
                    (len, expanded, generated),
                    "{kind:?} {b:?}"
                );
            }
        });
    }
}
