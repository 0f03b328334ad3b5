//! What a search returns: a solution ([`Found`]) or what it proved before a limit
//! ([`Stopped`]), with the iterations it went through.

use super::StopReason;
use crate::board::Dir;

/// One finished IDA* iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The `f` limit of the iteration, in units of the search's [`Weight`] (moves, for
    /// plain IDA*).
    pub threshold: u32,
    pub nodes: u64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub moves: Vec<Dir>,
    /// The optimal length is at least this: the length itself for plain IDA*, less for a
    /// weighted search.
    pub lower_bound: u32,
    /// Nodes generated (heuristic evaluated) over all iterations, roots included.
    pub nodes: u64,
    pub iterations: Vec<Iteration>,
}

/// A search that stopped early, with what it proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub reason: StopReason,
    /// No solution is shorter than this.
    pub lower_bound: u32,
    pub nodes: u64,
}

/// Reports each finished iteration (threshold, nodes so far) while a search runs.
pub type IterationHook<'a> = &'a (dyn Fn(Iteration) + Sync);
