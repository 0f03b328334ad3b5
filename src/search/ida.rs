//! Serial IDA*: [`ida_star`] and [`ida_star_weighted`] run one depth-first search a
//! threshold, each threshold higher; [`Deepening`] keeps the books between iterations for
//! them and for the parallel search.

use super::dfs::{Dfs, ROOT};
use super::{
    Found, Geometry, Heuristic, Iteration, IterationHook, Limits, Seen, StopReason, Stopped, Tiles,
    Weight,
};
use crate::board::Dir;

/// Finds a shortest path from `start` to the goal with iterative-deepening A*.
///
/// Optimal whenever `h` is admissible: each iteration explores every path with
/// `g + h <= threshold`, and the threshold rises to the smallest `f` that exceeded it, so
/// the first solution found is no longer than any other.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    ida_star_weighted(geo, h, start, Weight::ONE, limits, hook)
}

/// IDA* on `f = weight.g * g + weight.h * h`: with [`Weight::ONE`] the optimal search of
/// [`ida_star`]; with a larger `h` weight a faster one whose solution is at most
/// `weight.factor()` times optimal (see [`Weight`]).
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_weighted<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    let (mut run, st, threshold) = Deepening::new(geo, h, &start, weight, hook);
    let mut dfs = Dfs::new(geo, h, weight, threshold, limits, Vec::with_capacity(128));
    if !weight.is_one() {
        dfs.seen = Some(Seen::new(start));
    }
    loop {
        dfs.next = u32::MAX;
        if let Some(seen) = &mut dfs.seen {
            seen.next_iteration();
        }
        dfs.nodes += 1;
        if start == geo.goal() {
            return Ok(run.at_goal(dfs.nodes));
        }
        let found = dfs.go(start, st, 0, ROOT);
        if let Some(reason) = dfs.stopped {
            return Err(run.stopped(reason, dfs.threshold, dfs.nodes));
        }
        run.finished(dfs.threshold, dfs.nodes);
        if found {
            return Ok(run.found(dfs.path, dfs.threshold, dfs.nodes));
        }
        dfs.threshold = run.next_threshold(dfs.next, dfs.threshold, dfs.nodes)?;
    }
}

/// The books an IDA* search keeps from one iteration to the next, the same for the serial
/// and the parallel search: the finished iterations, who hears of each, and what sets the
/// next threshold and the lower bound.
pub(super) struct Deepening<'a> {
    weight: Weight,
    /// Every move changes the Manhattan distance by one: all solutions share its parity.
    parity: u32,
    iterations: Vec<Iteration>,
    hook: Option<IterationHook<'a>>,
}

impl<'a> Deepening<'a> {
    /// Starts the search from `start`: the books, the root's heuristic state and the first
    /// threshold.
    pub(super) fn new<H: Heuristic, T: Tiles>(
        geo: &Geometry,
        h: &H,
        start: &T,
        weight: Weight,
        hook: Option<IterationHook<'a>>,
    ) -> (Self, H::State, u32) {
        let mut st = h.root(geo, start);
        let threshold = weight.h * h.h(&mut st);
        let run = Deepening {
            weight,
            parity: geo.manhattan(start) % 2,
            iterations: Vec::new(),
            hook,
        };
        (run, st, threshold)
    }

    /// The answer when the start is the goal: no moves, after `nodes` nodes.
    pub(super) fn at_goal(self, nodes: u64) -> Found {
        Found {
            moves: vec![],
            lower_bound: 0,
            nodes,
            iterations: self.iterations,
        }
    }

    /// Records an iteration under `threshold`, done after `nodes` nodes in all, without
    /// telling the hook.
    pub(super) fn record(&mut self, threshold: u32, nodes: u64) -> Iteration {
        let it = Iteration { threshold, nodes };
        self.iterations.push(it);
        it
    }

    /// Records an iteration (see [`Deepening::record`]) and tells the hook.
    pub(super) fn finished(&mut self, threshold: u32, nodes: u64) {
        let it = self.record(threshold, nodes);
        if let Some(hook) = self.hook {
            hook(it);
        }
    }

    /// The answer: `moves`, found within `threshold`, after `nodes` nodes in all.
    pub(super) fn found(self, moves: Vec<Dir>, threshold: u32, nodes: u64) -> Found {
        Found {
            moves,
            lower_bound: self.weight.moves_at_least(threshold),
            nodes,
            iterations: self.iterations,
        }
    }

    /// A stop for `reason` during the iteration under `threshold`, which every shorter
    /// solution would have met.
    pub(super) fn stopped(&self, reason: StopReason, threshold: u32, nodes: u64) -> Stopped {
        Stopped {
            reason,
            lower_bound: self.weight.moves_at_least(threshold),
            nodes,
        }
    }

    /// The threshold after the iteration under `threshold` whose smallest `f` over it was
    /// `next`.
    ///
    /// # Errors
    /// [`StopReason::Interrupted`] when no node exceeded the threshold: the goal is
    /// unreachable (cannot happen for checked boards, but never loop forever).
    pub(super) fn next_threshold(
        &self,
        next: u32,
        threshold: u32,
        nodes: u64,
    ) -> Result<u32, Stopped> {
        if next == u32::MAX {
            return Err(self.stopped(StopReason::Interrupted, threshold, nodes));
        }
        Ok(self.weight.next_threshold(next, self.parity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal, Shape};
    use crate::search::{LinearConflict, Packed};

    /// One of the two hardest 3x3 boards: 31 moves, the 8-puzzle's diameter.
    fn hardest() -> (Board, Goal) {
        let shape = Shape::new(3, 3).unwrap();
        let board = Board::new(shape, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        (board, Goal::standard(shape))
    }

    fn solve(board: &Board, goal: &Goal, weight: Weight, limits: Limits) -> Result<Found, Stopped> {
        let labels = goal.labels(board).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        let start = geo.load::<Packed>(&labels);
        ida_star_weighted(&geo, &LinearConflict, start, weight, limits, None)
    }

    #[test]
    fn the_goal_takes_no_moves_and_one_node() {
        let (_, goal) = hardest();
        let found = solve(goal.board(), &goal, Weight::ONE, Limits::default()).unwrap();
        assert_eq!((found.moves.len(), found.nodes), (0, 1));
        assert!(found.iterations.is_empty());
    }

    #[test]
    fn the_hardest_3x3_board_takes_31_moves() {
        let (board, goal) = hardest();
        let found = solve(&board, &goal, Weight::ONE, Limits::default()).unwrap();
        assert_eq!(found.moves.len(), 31);
        assert_eq!(found.lower_bound, 31);
        assert_eq!(board.apply_all(&found.moves).as_ref(), Ok(goal.board()));
        let thresholds: Vec<u32> = found.iterations.iter().map(|it| it.threshold).collect();
        assert_eq!(thresholds.last(), Some(&31));
        assert!(
            thresholds.windows(2).all(|w| w[1] == w[0] + 2),
            "{thresholds:?}"
        );
        assert_eq!(found.iterations.last().unwrap().nodes, found.nodes);
    }

    #[test]
    fn a_weighted_search_keeps_both_promises() {
        let (board, goal) = hardest();
        let w = Weight::from_factor(1.5).unwrap();
        let found = solve(&board, &goal, w, Limits::default()).unwrap();
        let len = found.moves.len();
        assert!((31..=46).contains(&len) && len % 2 == 1, "length {len}");
        assert!(found.lower_bound <= 31);
        assert_eq!(board.apply_all(&found.moves).as_ref(), Ok(goal.board()));
    }

    #[test]
    fn a_node_limit_stops_the_search_with_a_lower_bound() {
        let (board, goal) = hardest();
        let limits = Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        };
        let stopped = solve(&board, &goal, Weight::ONE, limits).unwrap_err();
        assert_eq!(stopped.reason, StopReason::MaxNodes);
        assert!(stopped.nodes >= 1000);
        assert!(stopped.lower_bound <= 31);
    }
}
