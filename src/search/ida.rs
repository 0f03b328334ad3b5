//! IDA*, the one search: [`ida_star`] runs it with the options of a [`Search`] (weight,
//! limits, progress hook, a thread pool to split one instance over, books that survive a
//! stop). Serially it runs one depth-first search a threshold, each threshold higher;
//! split, each iteration goes through the parallel driver of `parallel.rs`, which keeps
//! the same books whether or not the caller saves them. [`Deepening`] keeps what both
//! share between iterations.

use std::sync::Mutex;
use std::time::Duration;

use super::books::Books;
use super::dfs::{Dfs, ROOT};
use super::parallel;
use super::{
    Found, Geometry, Heuristic, Iteration, IterationHook, Limits, Seen, StopReason, Stopped, Tiles,
    Weight,
};
use crate::board::Dir;

/// How one search runs. Every field has a default (`Search::default()` is the plain
/// optimal search on the calling thread, without limits), so a caller names only what it
/// changes, and a new option is a new field rather than a new function.
///
/// # Examples
/// ```
/// use fifteen::search::{ida_star, Geometry, Limits, LinearConflict, Packed, Search};
/// use fifteen::{Board, Goal};
///
/// let board = Board::parse("8 6 7 2 5 4 3 0 1").unwrap(); // a hardest 3x3 board
/// let labels = Goal::standard(board.shape()).labels(&board).unwrap();
/// let geo = Geometry::new(labels.shape, labels.blank_label);
/// let start = geo.load::<Packed>(&labels);
///
/// let found = ida_star(&geo, &LinearConflict, start, &Search::default()).unwrap();
/// assert_eq!((found.moves.len(), found.lower_bound), (31, 31));
///
/// // The same search on two threads, stopped after 1,000 nodes.
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let search = Search {
///     pool: Some(&pool),
///     limits: Limits { max_nodes: Some(1000), ..Limits::default() },
///     ..Search::default()
/// };
/// assert!(ida_star(&geo, &LinearConflict, start, &search).is_err());
/// ```
#[derive(Clone, Copy, Default)]
pub struct Search<'a> {
    /// [`Weight::ONE`] (the default) for a proven optimal answer; a larger weight trades
    /// optimality for speed, within a proven factor.
    pub weight: Weight,
    /// When to give up: nodes, a deadline, a stop flag (Ctrl-C). None by default.
    pub limits: Limits<'a>,
    /// Called after each finished iteration, for progress reports.
    pub on_iteration: Option<IterationHook<'a>>,
    /// Split one instance over every thread of this pool (the top of the tree alone, its
    /// subtrees taken in order by the threads). `None`: the calling thread alone. A
    /// weighted search without books runs on the calling thread all the same: its table
    /// of boards met (see [`Seen`]) saves more than a second thread would.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Keep books that survive a stop (see [`Checkpointing`]); needs `pool`.
    pub checkpoint: Option<Checkpointing<'a>>,
}

/// The books of a search that can stop at any moment and resume where it was: the caller
/// owns them (fresh, or loaded from a checkpoint file), the search updates them and calls
/// `save` after each finished iteration, at most every `every` after finished subtrees,
/// and when it stops.
#[derive(Clone, Copy)]
pub struct Checkpointing<'a> {
    /// Where the search is; read on starting (to resume), updated as it goes.
    pub books: &'a Mutex<Books>,
    /// Called with the books when they are worth saving.
    pub save: SaveHook<'a>,
    /// How often finished subtrees are saved, at most.
    pub every: Duration,
}

/// How a search with books hands them over to be saved.
pub type SaveHook<'a> = &'a (dyn Fn(&Books) + Sync);

/// Why a search ended without a solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// A limit ended the search first; holds what it proved.
    #[error("search stopped after {} nodes", .0.nodes)]
    Stopped(Stopped),
    /// The books do not fit this search: they were written for another board, estimate or
    /// table set.
    #[error("{0}")]
    Mismatch(#[from] BooksMismatch),
    /// An answer of `length` moves came out of an iteration that proved none shorter than
    /// `bound`, with books this search wrote alone: the estimate called some board farther
    /// than it is (a damaged table whose checksum was made to match, a table of another
    /// goal renamed). No answer is given.
    #[error("the estimate is not admissible: an answer of {length} moves was found after the iterations below {bound} were searched without it (a damaged table?)")]
    Overestimate {
        /// The answer's moves.
        length: usize,
        /// The bound the iterations before it proved.
        bound: u32,
    },
}

/// Books that do not fit the search given them: the top of the iteration under way reached
/// another number of subtrees than the books say, or the same number in another order, or
/// a subtree's stop point (see [`super::PartSubtree`]) is not in the tree below it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the books do not fit this search: {}",
    match (.unsound, .lost) {
        (Some(why), _) => format!("they contradict themselves: {why}"),
        (None, Some(i)) => format!("subtree {i} of its iteration under threshold {threshold} stopped at a node this search does not reach"),
        (None, None) => format!("its iteration under threshold {threshold} had {expected} subtrees, this search has {found}{}",
            if *.reordered { " in another order" } else { "" }),
    }
)]
pub struct BooksMismatch {
    /// The threshold of the iteration under way.
    pub threshold: u32,
    /// Subtrees the books record.
    pub expected: u64,
    /// Subtrees this search's top reached.
    pub found: u64,
    /// As many, but their moves in another order than the books' digest says.
    pub reordered: bool,
    /// The subtree whose stop point the search does not reach, if that is the misfit.
    pub lost: Option<u64>,
    /// Books that no search writes (an index past the subtrees, thresholds that do not
    /// rise): what is wrong with them, if that is the misfit. They were edited, or
    /// damaged with their checksum worked out again; believed, they could skip work and
    /// call a longer answer optimal.
    pub unsound: Option<String>,
}

impl From<Stopped> for SearchError {
    fn from(s: Stopped) -> Self {
        SearchError::Stopped(s)
    }
}

/// Finds a shortest path from `start` to the goal with iterative-deepening A*, as `search`
/// says (see [`Search`]).
///
/// Optimal whenever `h` is admissible and the weight is one: each iteration explores every
/// path with `g + h <= threshold`, and the threshold rises to the smallest `f` that
/// exceeded it, so the first solution found is no longer than any other. With a larger
/// weight (`f = weight.g * g + weight.h * h`) the solution is at most `weight.factor()`
/// times optimal (see [`Weight`]).
///
/// # Errors
/// [`SearchError::Stopped`] when a limit is reached first (books saved first, if kept);
/// [`SearchError::Mismatch`] when the books belong to another search.
pub fn ida_star<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    search: &Search,
) -> Result<Found, SearchError> {
    match (search.pool, search.checkpoint) {
        (Some(pool), Some(c)) => parallel::run(geo, h, start, search, pool, c),
        (Some(pool), None) if search.weight.is_one() => {
            let books = Mutex::new(Books::default());
            let quiet = |_: &Books| {};
            let c = Checkpointing {
                books: &books,
                save: &quiet,
                every: Duration::MAX,
            };
            parallel::run(geo, h, start, search, pool, c)
        }
        (None, Some(c)) => {
            // Books need the parallel driver; one thread runs it as the serial search would.
            let one = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a one-thread pool");
            // Waited for from a thread of no pool: a worker of another pool (a batch's)
            // that waits on this one takes that pool's jobs meanwhile, and this search's
            // clock ran on while the worker solved other instances (`--checkpoints` with
            // `--timeout` gave the first instances of a batch a few nodes each).
            std::thread::scope(|s| {
                s.spawn(|| parallel::run(geo, h, start, search, &one, c))
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        }
        _ => serial(geo, h, start, search).map_err(SearchError::Stopped),
    }
}

/// IDA* on the calling thread, with the weighted search's table of boards met.
fn serial<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    search: &Search,
) -> Result<Found, Stopped> {
    let weight = search.weight;
    let (mut run, st, threshold) = Deepening::new(geo, h, &start, weight, search.on_iteration);
    let mut dfs = Dfs::new(
        geo,
        h,
        weight,
        threshold,
        search.limits,
        Vec::with_capacity(128),
    );
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
        let found = dfs.go(&start, &st, 0, ROOT);
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
        let search = Search {
            weight,
            limits,
            ..Search::default()
        };
        ida_star(&geo, &LinearConflict, start, &search).map_err(|e| match e {
            SearchError::Stopped(s) => s,
            e => panic!("{e}"),
        })
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
