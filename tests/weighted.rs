//! Bounded-suboptimal search (`--weight W`): every solution replays to the goal and is at
//! most W times the optimal length, where the optimal length comes from an independent
//! source (a breadth-first search of the 8-puzzle written in these tests, or the Korf 100
//! lengths in data/korf100.txt).

use fifteen::check::check_solution;
use fifteen::pdb::{self, Partition};
use fifteen::search::Search;
use fifteen::search::Weight;
use fifteen::{Board, Goal, HeuristicKind, Shape, Solution, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, korf_easiest, tables};

const WEIGHTS: [f64; 6] = [1.0, 1.2, 1.5, 2.0, 3.0, 7.25];

/// Solves, replays, and checks the promise against the known optimal length.
fn check(solver: &Solver, search: &Search, board: &Board, goal: &Goal, optimal: u32) -> Solution {
    let sol = solver
        .solve(board, goal, search)
        .unwrap_or_else(|e| panic!("{board:?}: {e}"));
    check_solution(board, goal, &sol.moves).unwrap_or_else(|e| panic!("{board:?}: {e}"));
    let len = sol.moves.len() as u32;
    let w = search.weight;
    assert_eq!(sol.weight, w);
    // len <= (h/g) * optimal, in integers.
    assert!(
        len as u64 * w.g as u64 <= w.h as u64 * optimal as u64,
        "{board:?}: length {len} > {} x {optimal}",
        w.factor()
    );
    assert!(len >= optimal, "{board:?}: shorter than optimal?");
    assert!(
        sol.lower_bound <= optimal,
        "{board:?}: claimed lower bound {} > optimal {optimal}",
        sol.lower_bound
    );
    assert_eq!((len - sol.lower_bound) % 2, 0, "{board:?}: bound parity");
    if w.is_one() {
        assert_eq!(len, optimal, "{board:?}");
        assert_eq!(sol.lower_bound, len);
    }
    sol
}

#[test]
fn weight_from_factor_rounds_down_and_refuses_below_one() {
    for w in [f64::NAN, 0.0, 0.5, 0.999, -2.0, 100.5, f64::INFINITY] {
        assert_eq!(Weight::from_factor(w), None, "{w}");
    }
    assert_eq!(Weight::from_factor(1.0), Some(Weight::ONE));
    assert_eq!(Weight::from_factor(1.5), Some(Weight { g: 2, h: 3 }));
    assert_eq!(Weight::from_factor(2.0), Some(Weight { g: 1, h: 2 }));
    for i in 0..5000 {
        let w = 1.0 + i as f64 * 0.0173;
        let x = Weight::from_factor(w).unwrap();
        assert!(x.factor() <= w && w - x.factor() < 0.001, "{w} -> {x:?}");
        assert!(x.h >= x.g);
    }
}

#[test]
fn weighted_8_puzzle_within_bound_for_every_heuristic_and_both_goals() {
    let shape = Shape::new(3, 3).unwrap();
    let partition = Partition::default_for(shape, pdb::canonical_blank(shape, 0));
    let (_tmp, h) = tables(&partition);
    for goal in [Goal::standard(shape), Goal::blank_first(shape)] {
        let (order, dist, layers) = bfs(&goal);
        assert_eq!(order.len(), 181_440);
        // A spread of boards over every distance, the 31-move ones (last in BFS order)
        // included.
        let sample: Vec<&Board> = order
            .iter()
            .step_by(151)
            .chain(order.iter().rev().take(layers[31] as usize))
            .collect();
        for w in WEIGHTS {
            let weight = Weight::from_factor(w).unwrap();
            let solvers = [
                Solver::new(HeuristicKind::Manhattan),
                Solver::new(HeuristicKind::LinearConflict),
                Solver::with_pdb(h.clone()),
            ];
            let search = Search {
                weight,
                ..Search::default()
            };
            for solver in solvers {
                let longer = sample
                    .par_iter()
                    .filter(|b| {
                        let sol = check(&solver, &search, b, &goal, dist[**b]);
                        sol.moves.len() as u32 > dist[**b]
                    })
                    .count();
                // Weighting is not a no-op: with W of 1.5 or more and an inexact estimate,
                // some solutions do come out longer than optimal.
                if w >= 1.5 && solver.kind() != HeuristicKind::Pdb {
                    assert!(longer > 0, "weight {w}, {:?}", solver.kind());
                }
            }
        }
    }
}

#[test]
fn weighted_korf_instances_within_bound_of_known_lengths() {
    let easy = korf_easiest(10);
    let pool = std::sync::Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    let mut nodes = Vec::new();
    for w in [1.0, 1.2, 1.5, 2.0, 3.0] {
        let weight = Weight::from_factor(w).unwrap();
        let solver = Solver::new(HeuristicKind::LinearConflict);
        let serial = Search {
            weight,
            ..Search::default()
        };
        let split = Search {
            pool: Some(&pool),
            ..serial
        };
        let total: u64 = easy
            .par_iter()
            .map(|inst| {
                let known = inst.known.unwrap();
                let a = check(&solver, &serial, &inst.board, &inst.goal, known);
                check(&solver, &split, &inst.board, &inst.goal, known);
                a.nodes
            })
            .sum();
        nodes.push(total);
    }
    // The point of the option: at W = 2 these take a tenth of the nodes or fewer than the optimal search.
    assert!(
        nodes[3] * 10 < nodes[0],
        "nodes by weight 1, 1.2, 1.5, 2, 3: {nodes:?}"
    );
}

/// A heavy weight on a random 6x6 board goes thousands of moves deep, one call of the
/// search deeper a move: at `--weight 30` that overflowed a 2 MiB thread stack and aborted
/// the process. Run here on threads of 256 kB, the tuned search and the textbook IDA*
/// each end with a solution that replays to the goal, thousands of moves long.
#[test]
fn a_heavy_weight_goes_thousands_of_moves_deep_on_a_small_stack() {
    use fifteen::classic::{classic_solve, Algorithm, Classic};
    use fifteen::random::{random_board, Rng};
    let goal = Goal::standard(Shape::new(6, 6).unwrap());
    let weight = Weight::from_factor(20.0).unwrap();
    let solver = Solver::new(HeuristicKind::LinearConflict);
    for seed in [1, 2] {
        let board = random_board(&mut Rng::new(seed), &goal);
        // `f` on a thread of 256 kB, its answer's moves.
        let on_small_stack = |f: &(dyn Fn() -> Vec<fifteen::Dir> + Sync)| {
            std::thread::scope(|s| {
                std::thread::Builder::new()
                    .stack_size(256 << 10)
                    .spawn_scoped(s, f)
                    .unwrap()
                    .join()
                    .expect("the search ends")
            })
        };
        let search = Search {
            weight,
            ..Search::default()
        };
        let tuned = on_small_stack(&|| solver.solve(&board, &goal, &search).unwrap().moves);
        let c = Classic {
            weight,
            ..Classic::new(Algorithm::Ida)
        };
        let textbook =
            on_small_stack(&|| classic_solve(&solver, &board, &goal, &c).unwrap().0.moves);
        for moves in [tuned, textbook] {
            check_solution(&board, &goal, &moves).unwrap();
            assert!(moves.len() > 2000, "{board:?}: {} moves", moves.len());
        }
    }
}
