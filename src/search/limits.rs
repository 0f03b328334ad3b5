//! When a search gives up, and why it says it did.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Why a search stopped before proving an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The search generated [`Limits::max_nodes`] nodes.
    MaxNodes,
    /// The clock passed [`Limits::deadline`].
    Timeout,
    /// The search's memory reached its limit (the breadth-first, best-first and A*
    /// searches of [`crate::classic`], which keep every board they meet).
    MaxMemory,
    /// [`Limits::stop`] was raised (Ctrl-C, say), or the goal proved unreachable.
    Interrupted,
}

/// When to give up. The default has no limit. Limits are checked every 65,536 nodes (sooner
/// near the node limit), so a search may run a little past a deadline or a stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop after this many nodes, counted over all threads of a parallel search.
    pub max_nodes: Option<u64>,
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop once another thread sets this flag, e.g. on Ctrl-C.
    pub stop: Option<&'a AtomicBool>,
}
