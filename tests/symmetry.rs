//! Boards that are their own mirror image: the search keeps one root move of each mirrored
//! pair (`Geometry::mirrored_moves`). Checked against facts computed here, without the
//! library's symmetry code: which boards are symmetric and how the root moves pair up, from
//! cell coordinates and `Board::apply`; and their lengths, from a plain BFS of the 8-puzzle.

use fifteen::search::Search;
use std::sync::Arc;

use fifteen::check::check_solution;
use fifteen::search::{Geometry, Packed};
use fifteen::{Board, Dir, Goal, HeuristicKind, Shape, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, goals};

/// The eight symmetries of an `n` x `n` square, as maps of cells.
fn square_maps(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for k in 0..8 {
        let map = (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
                let r = if k & 2 != 0 { n - 1 - r } else { r };
                let c = if k & 1 != 0 { n - 1 - c } else { c };
                r * n + c
            })
            .collect();
        out.push(map);
    }
    out
}

/// `board` under the symmetry `map` of the goal's frame: the tile at cell `c`, whose goal
/// cell is `g`, becomes the tile whose goal cell is `map[g]`, at cell `map[c]`.
fn mirror(board: &Board, goal: &Goal, map: &[usize]) -> Board {
    let g = goal.board().tiles();
    let mut home = vec![0; g.len()];
    for (cell, &t) in g.iter().enumerate() {
        home[t as usize] = cell;
    }
    let mut out = vec![0u8; g.len()];
    for (c, &t) in board.tiles().iter().enumerate() {
        out[map[c]] = g[map[home[t as usize]]];
    }
    Board::new(board.shape(), &out).unwrap()
}

/// The symmetries (other than the identity) that keep the goal and `board`.
fn stabilizer(board: &Board, goal: &Goal) -> Vec<Vec<usize>> {
    let n = board.shape().cols as usize;
    square_maps(n)
        .into_iter()
        .skip(1)
        .filter(|m| m[goal.blank()] == goal.blank() && mirror(board, goal, m) == *board)
        .collect()
}

/// How many root moves a search needs: the blank's moves, counted once for each class of
/// children that the stabilizer maps onto each other.
fn root_classes(board: &Board, goal: &Goal, stab: &[Vec<usize>]) -> usize {
    let kids: Vec<Board> = Dir::ALL.iter().filter_map(|&d| board.apply(d)).collect();
    let mut classes = 0;
    for (i, k) in kids.iter().enumerate() {
        let earlier = kids[..i]
            .iter()
            .any(|e| stab.iter().any(|m| mirror(e, goal, m) == *k));
        if !earlier {
            classes += 1;
        }
    }
    classes
}

#[test]
fn symmetric_8_puzzle_boards_keep_one_root_move_of_each_mirrored_pair_and_their_length() {
    let shape = Shape::new(3, 3).unwrap();
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    for goal in goals(shape) {
        let (order, dist, _) = bfs(&goal);
        let symmetric: Vec<&Board> = order
            .iter()
            .filter(|b| !stabilizer(b, &goal).is_empty())
            .collect();
        // Every goal here has its blank on an axis of some symmetry of the square, so the
        // class is never empty: the corners lie on a diagonal, the centre on all four axes.
        assert!(
            symmetric.len() >= 20,
            "{}: {}",
            goal.name(),
            symmetric.len()
        );
        let mut pruned = 0;
        for b in &symmetric {
            let labels = goal.labels(b).unwrap();
            let geo = Geometry::new(shape, labels.blank_label);
            let p: Packed = geo.load(&labels);
            let skip = geo.mirrored_moves(&p);
            let legal = |d: &&Dir| b.apply(**d).is_some();
            let kept = Dir::ALL
                .iter()
                .filter(legal)
                .filter(|&&d| skip & (1 << d as u8) == 0)
                .count();
            let stab = stabilizer(b, &goal);
            assert_eq!(
                kept,
                root_classes(b, &goal, &stab),
                "{}: {b:?}",
                goal.name()
            );
            pruned += Dir::ALL.iter().filter(legal).count() - kept;
        }
        assert!(pruned > 0, "{}", goal.name());
        // Boards with no symmetry lose no root move.
        for b in order.iter().step_by(97) {
            if stabilizer(b, &goal).is_empty() {
                let labels = goal.labels(b).unwrap();
                let geo = Geometry::new(shape, labels.blank_label);
                let skip = geo.mirrored_moves(&geo.load::<Packed>(&labels));
                assert_eq!(skip, 0, "{}: {b:?}", goal.name());
            }
        }
        for kind in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
            let solver = Solver::new(kind);
            let split = Search {
                pool: Some(&pool),
                ..Search::default()
            };
            symmetric.par_iter().for_each(|b| {
                for search in [&Search::default(), &split] {
                    let sol = solver
                        .solve(b, &goal, search)
                        .unwrap_or_else(|e| panic!("{b:?}: {e}"));
                    check_solution(b, &goal, &sol.moves).unwrap();
                    assert_eq!(sol.moves.len() as u32, dist[*b], "{}: {b:?}", goal.name());
                }
            });
        }
    }
}
