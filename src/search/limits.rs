//! When a search gives up, and why it says it did.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Why a search stopped before proving an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    MaxNodes,
    Timeout,
    Interrupted,
}

/// When to give up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    pub max_nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
}
