//! The searches a course teaches before IDA* with pattern databases: breadth-first,
//! depth-first (depth-limited), greedy best-first, A* (weighted or not) and a textbook
//! IDA*, each generic over an estimate ([`Heuristic`]: Hamming, Manhattan, linear
//! conflict, the pattern databases), each counting exactly what it did ([`Counts`]) and
//! ending at a node, memory or time limit with the counts so far instead of running out of
//! memory.
//!
//! The rules, so that a course can predict every count:
//! - **Successors** are generated in the order `U D L R` (the blank's moves,
//!   [`Dir::ALL`]); *generated* counts the start plus every successor made, before any
//!   duplicate detection. The graph searches generate every legal move, the move back to
//!   the parent included (duplicate detection throws it away); the tree searches (DFS,
//!   IDA*) never generate the move that undoes the last one.
//! - **Expanded** counts the nodes whose successors were generated.
//! - **Goal test**: breadth-first search tests each successor as it is generated (so the
//!   goal's layer is never expanded); every other search tests a node when it is taken
//!   from the frontier (popped), before expanding it.
//! - **Duplicate detection**: BFS and greedy best-first keep every board met (frontier and
//!   closed together) and drop a successor met before. A* keeps the best `g` of every board
//!   met and drops a successor unless its `g` is smaller; a board reached by a shorter path
//!   goes back on the frontier (*reopened*, even when closed; with a consistent estimate
//!   and weight 1 that never happens to a closed board). Depth-first search drops a
//!   successor already on the current path (no cycles); IDA* only the move back.
//! - **Tie-breaking**: BFS is first in, first out. Greedy takes the lowest `h`, then the
//!   highest `g`, then the earliest inserted (A*'s order with `f` replaced by `h`). A* takes the lowest `f = g + W*h`, then the highest `g`, then the
//!   earliest inserted. DFS and IDA* go depth-first in successor order.
//! - **Frontier**: the open list (BFS queue, priority queue, DFS stack; for IDA*, the
//!   current path). *Peak frontier* is its largest size; for A*, entries superseded by a
//!   shorter path are not counted. *Closed* is the number of distinct boards expanded
//!   (graph searches only).
//! - **Memory** is the bytes the search's own tables hold (frontier, closed set, the boards
//!   kept to rebuild the path), at their peak, counted from their allocated capacity; a
//!   graph search stops *before* a growth would pass [`Classic::max_memory`].
//!
//! [`classic_solve`] runs any of them on a [`Board`] with a [`Solver`]'s estimate (tables
//! included); [`run`] on a packed board with any estimate. [`course`] reads and writes the
//! weighted A* course's problem files.

pub mod course;
mod graph;
mod tree;

use std::fmt;
use std::time::Instant;

use crate::board::{Board, Dir, Goal};
use crate::error::BoardError;
use crate::search::{Geometry, Heuristic, Limits, StopReason, Tiles, Weight};
use crate::solver::{HeuristicKind, SearchJob, Solver};

/// A search algorithm of [`crate::classic`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search: optimal in moves, blind (no estimate).
    Bfs,
    /// Depth-first search to a depth limit: blind, any solution within the limit.
    Dfs,
    /// Greedy best-first search: always the board of lowest estimate; fast, not optimal.
    Greedy,
    /// A* (weighted when [`Classic::weight`] is above one): optimal with an admissible
    /// estimate and weight one.
    Astar,
    /// Iterative-deepening A*, textbook: A*'s answer in a depth-first search's memory.
    Ida,
}

impl Algorithm {
    /// Every algorithm, in the order a comparison lists them.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Greedy,
        Algorithm::Astar,
        Algorithm::Ida,
    ];

    /// The name on the command line and in JSON: `bfs`, `dfs`, `greedy`, `astar`, `ida`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::Greedy => "greedy",
            Algorithm::Astar => "astar",
            Algorithm::Ida => "ida",
        }
    }

    /// Whether the algorithm reads an estimate (BFS and DFS are blind).
    pub fn informed(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Dfs)
    }

    /// Whether it keeps every board it meets (a graph search) rather than one path.
    pub fn graph(self) -> bool {
        matches!(self, Algorithm::Bfs | Algorithm::Greedy | Algorithm::Astar)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rows of a side-by-side comparison (`fifteen compare`, Python's `compare`): the
/// blind searches, then greedy, A* and IDA* with each estimate a course compares, weakest
/// first, the pattern databases last.
pub const COMPARISON: [(Algorithm, Option<HeuristicKind>); 14] = {
    use Algorithm::{Astar, Bfs, Dfs, Greedy, Ida};
    use HeuristicKind::{Hamming, LinearConflict, Manhattan, Pdb};
    [
        (Bfs, None),
        (Dfs, None),
        (Greedy, Some(Hamming)),
        (Greedy, Some(Manhattan)),
        (Greedy, Some(LinearConflict)),
        (Greedy, Some(Pdb)),
        (Astar, Some(Hamming)),
        (Astar, Some(Manhattan)),
        (Astar, Some(LinearConflict)),
        (Astar, Some(Pdb)),
        (Ida, Some(Hamming)),
        (Ida, Some(Manhattan)),
        (Ida, Some(LinearConflict)),
        (Ida, Some(Pdb)),
    ]
};

/// The memory limit of a graph search when none is given: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

/// How one classic search runs.
#[derive(Clone, Copy, Debug)]
pub struct Classic<'a> {
    /// Which search.
    pub algorithm: Algorithm,
    /// `f = W.g * g + W.h * h` for A* and IDA*; ignored by the others.
    pub weight: Weight,
    /// The deepest a depth-first search goes (`None`: [`default_depth_limit`]).
    pub depth_limit: Option<u32>,
    /// Nodes generated, deadline, stop flag ([`Limits`]).
    pub limits: Limits<'a>,
    /// The most bytes a graph search's tables may hold ([`DEFAULT_MAX_MEMORY`] by
    /// default); a tree search holds one path and ignores it.
    pub max_memory: Option<u64>,
}

impl Classic<'_> {
    /// `algorithm` with weight one, the default depth and memory limits, no node limit.
    pub fn new(algorithm: Algorithm) -> Classic<'static> {
        Classic {
            algorithm,
            weight: Weight::ONE,
            depth_limit: None,
            limits: Limits::default(),
            max_memory: None,
        }
    }
}

/// The depth limit of a depth-first search when none is given: the largest optimal length
/// of the shape where it is known (6 on 2x2, 21 on 2x3, 31 on 3x3, 80 on 4x4), otherwise
/// 200.
pub fn default_depth_limit(cells: usize, rows: usize) -> u32 {
    match (cells, rows) {
        (4, _) => 6,
        (6, _) => 21,
        (9, 3) => 31,
        (16, 4) => 80,
        _ => 200,
    }
}

/// What a search did, counted exactly (see the module's rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// The start plus every successor generated.
    pub generated: u64,
    /// The largest size of the frontier (open list, stack or path).
    pub peak_frontier: u64,
    /// Distinct boards expanded (graph searches only).
    pub closed: Option<u64>,
    /// Peak bytes of the search's own tables.
    pub memory: u64,
}

/// One node of a solution path: moves made and estimate (`f = W.g * g + W.h * h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Moves from the start.
    pub g: u32,
    /// The estimate of the board (for the blind searches too: the estimate they were
    /// given, read only for this report, never during the search).
    pub h: u32,
}

/// What a classic search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The blank's moves from the start to the goal.
    pub moves: Vec<Dir>,
    /// `g` and `h` of every board on the path, the start and the goal included.
    pub path: Vec<Step>,
    /// What the search did.
    pub counts: Counts,
    /// Whether the length is proven optimal: BFS; A* and IDA* with weight one (every
    /// estimate here is admissible).
    pub optimal: bool,
    /// For weighted A* and IDA*: the length is at most this factor times optimal.
    pub bound: Option<f64>,
    /// Wall time, in milliseconds.
    pub millis: f64,
}

/// Why a classic search gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClassicError {
    /// The board does not fit the goal (found before any search).
    #[error("{0}")]
    Board(#[from] BoardError),
    /// A limit ended the search; the counts are those so far.
    #[error("search stopped ({}) after {} nodes generated, {} expanded", reason_text(*.reason), .counts.generated, .counts.expanded)]
    Stopped {
        /// Which limit.
        reason: StopReason,
        /// The counts when it stopped.
        counts: Counts,
    },
    /// The whole space within the depth limit was searched without reaching the goal.
    #[error("no solution within the depth limit of {limit} moves ({} nodes generated, {} expanded)", .counts.generated, .counts.expanded)]
    DepthLimit {
        /// The limit.
        limit: u32,
        /// The counts of the whole search.
        counts: Counts,
    },
}

impl ClassicError {
    /// The counts of a search that ran, if it did.
    pub fn counts(&self) -> Option<&Counts> {
        match self {
            ClassicError::Board(_) => None,
            ClassicError::Stopped { counts, .. } | ClassicError::DepthLimit { counts, .. } => {
                Some(counts)
            }
        }
    }
}

/// How a stop reason reads in a message.
pub fn reason_text(r: StopReason) -> &'static str {
    match r {
        StopReason::MaxNodes => "node limit reached",
        StopReason::Timeout => "time limit reached",
        StopReason::MaxMemory => "memory limit reached",
        StopReason::Interrupted => "interrupted",
    }
}

/// The search's result before the moves go back to the user's frame.
pub type Outcome = Result<Answer, ClassicError>;

/// Runs `c` from `start` (labelled for `geo`'s goal) with the estimate `h`.
pub fn run<H: Heuristic, T: Tiles + Eq + std::hash::Hash>(
    geo: &Geometry,
    h: &H,
    start: T,
    c: &Classic,
) -> Outcome {
    let t0 = Instant::now();
    let mut answer = match c.algorithm {
        Algorithm::Bfs | Algorithm::Greedy | Algorithm::Astar => graph::run(geo, h, start, c)?,
        Algorithm::Dfs | Algorithm::Ida => tree::run(geo, h, start, c)?,
    };
    let weighted = matches!(c.algorithm, Algorithm::Astar | Algorithm::Ida) && !c.weight.is_one();
    answer.optimal = match c.algorithm {
        Algorithm::Bfs => true,
        Algorithm::Astar | Algorithm::Ida => !weighted,
        Algorithm::Dfs | Algorithm::Greedy => false,
    };
    answer.bound = weighted.then(|| c.weight.factor());
    answer.millis = t0.elapsed().as_secs_f64() * 1000.0;
    Ok(answer)
}

/// The counters and limit checks every search shares.
pub(crate) struct Meter<'a> {
    pub counts: Counts,
    limits: Limits<'a>,
    max_memory: u64,
}

impl<'a> Meter<'a> {
    pub(crate) fn new(c: &Classic<'a>) -> Meter<'a> {
        Meter {
            counts: Counts::default(),
            limits: c.limits,
            max_memory: c.max_memory.unwrap_or(DEFAULT_MAX_MEMORY),
        }
    }

    /// Lifts the memory limit (a tree search holds one path).
    pub(crate) fn ignore_memory(&mut self) {
        self.max_memory = u64::MAX;
    }

    /// Checked before each expansion: `projected` is the bytes the tables would hold if
    /// this expansion made every one of them grow.
    pub(crate) fn check(&self, projected: u64) -> Result<(), ClassicError> {
        let stop = |reason| {
            Err(ClassicError::Stopped {
                reason,
                counts: self.counts,
            })
        };
        if self
            .limits
            .max_nodes
            .is_some_and(|m| self.counts.generated >= m)
        {
            return stop(StopReason::MaxNodes);
        }
        if projected > self.max_memory {
            return stop(StopReason::MaxMemory);
        }
        if self.counts.expanded.is_multiple_of(4096) {
            if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return stop(StopReason::Timeout);
            }
            if self
                .limits
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                return stop(StopReason::Interrupted);
            }
        }
        Ok(())
    }
}

/// A classic search as a [`SearchJob`], so that it runs with whatever estimate and packing
/// a [`Solver`] picks.
struct Job<'c, 'a>(&'c Classic<'a>);

impl SearchJob for Job<'_, '_> {
    type Output = Outcome;
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Outcome {
        // Both packings are `Eq + Hash`; the trait does not promise it, so go through a
        // fingerprinted wrapper.
        run(geo, h, Key(start), self.0)
    }
}

/// A board as a hash key: equal boards, equal fingerprints.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key<T>(T);

impl<T: PartialEq> Eq for Key<T> {}

impl<T: Tiles> std::hash::Hash for Key<T> {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        state.write_u64(self.0.fingerprint());
    }
}

impl<T: Tiles> Tiles for Key<T> {
    const CAPACITY: usize = T::CAPACITY;
    fn from_fn(cells: usize, blank: usize, label_at: impl Fn(usize) -> usize) -> Self {
        Key(T::from_fn(cells, blank, label_at))
    }
    #[inline(always)]
    fn get(&self, cell: usize) -> usize {
        self.0.get(cell)
    }
    #[inline(always)]
    fn blank(&self) -> usize {
        self.0.blank()
    }
    #[inline(always)]
    fn slide(&self, to: usize, label: usize, blank_label: usize) -> Self {
        Key(self.0.slide(to, label, blank_label))
    }
    fn fingerprint(&self) -> u64 {
        self.0.fingerprint()
    }
}

/// Runs the classic search `c` on `board` with `solver`'s estimate (its tables where they
/// fit, linear conflict where a `pdb` solver has none), and maps the moves back to the
/// user's coordinates. Returns the estimate actually used too.
///
/// # Errors
/// A board that does not fit the goal, a limit, or (DFS) no solution within the depth
/// limit.
///
/// # Examples
/// ```
/// use fifteen::classic::{classic_solve, Algorithm, Classic};
/// use fifteen::{Board, Goal, HeuristicKind, Solver};
///
/// let board = Board::parse("1 2 3 0 4 6 7 5 8").unwrap();
/// let goal = Goal::standard(board.shape());
/// let solver = Solver::new(HeuristicKind::Manhattan);
/// let (answer, _) = classic_solve(&solver, &board, &goal, &Classic::new(Algorithm::Astar)).unwrap();
/// assert_eq!((answer.moves.len(), answer.optimal), (3, true));
/// assert_eq!((answer.counts.expanded, answer.counts.generated), (3, 11));
/// ```
pub fn classic_solve(
    solver: &Solver,
    board: &Board,
    goal: &Goal,
    c: &Classic,
) -> Result<(Answer, HeuristicKind), ClassicError> {
    let (out, frame) = solver.run_job(board, goal, Job(c))?;
    let mut answer = out?;
    answer.moves = frame.to_user(&answer.moves);
    Ok((answer, frame.heuristic))
}

/// The search's moves from the nodes' cells of the blank: the move from `a` to `b`.
pub(crate) fn dir_between(geo: &Geometry, a: usize, b: usize) -> Dir {
    Dir::ALL
        .into_iter()
        .find(|&d| geo.neighbor[a][d as usize] as usize == b)
        .expect("neighbouring cells")
}

/// Bytes of a vector of `cap` elements of type `E`.
pub(crate) fn vec_bytes<E>(cap: usize) -> u64 {
    (cap * std::mem::size_of::<E>()) as u64
}

/// Bytes of a hash map holding `cap` entries of type `E` (Swiss table: buckets a power of
/// two at 7/8 load, one control byte each).
pub(crate) fn map_bytes<E>(cap: usize) -> u64 {
    if cap == 0 {
        return 0;
    }
    let buckets = (cap * 8 / 7).next_power_of_two() as u64;
    buckets * (std::mem::size_of::<E>() as u64 + 1)
}
