//! The books of a split search: what it has finished, kept so that a stopped search goes
//! on where it was (see [`super::parallel`], which keeps them, and
//! [`super::Checkpointing`], which saves them), and the checks that refuse books no search
//! could have written before a search believes them.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::Iteration;

/// A finished subtree of the current iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneSubtree {
    /// Its place among the nodes the top reached at the split, in search order.
    pub index: u64,
    /// Nodes generated below it.
    pub nodes: u64,
    /// The smallest `f` over the threshold met below it (`u32::MAX`: none).
    pub next: u32,
}

/// A subtree of the current iteration that a stop caught partway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartSubtree {
    /// Its place among the nodes the top reached at the split, in search order.
    pub index: u64,
    /// Nodes generated below it before the stop.
    pub nodes: u64,
    /// The smallest `f` over the threshold met below it before the stop (`u32::MAX`: none).
    pub next: u32,
    /// The blank's moves (`U`, `D`, `L`, `R`, in the search's frame) from its root to the
    /// node the search was at: everything before that node in the search's order is
    /// searched, and so are that node's and its ancestors' children.
    pub at: String,
}

/// Where a split search is: what it needs to go on after a stop, and what a checkpoint
/// file holds besides the instance (see [`super::Checkpointing`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Books {
    /// The finished iterations, in order.
    pub iterations: Vec<Iteration>,
    /// The threshold of the iteration under way (0: not started yet, or, with iterations
    /// done, books saved on finding the answer by versions before 2026-11-28: see `run`).
    pub threshold: u32,
    /// The split depth of the iteration under way, when it was split by depth (as
    /// checkpoints written before 2026-11-27 were): kept so that a resumed iteration
    /// numbers its subtrees as before.
    pub depth: Option<u32>,
    /// The split's slack of the iteration under way, once chosen (see `Split::Slack` in `parallel.rs`):
    /// kept so that a resumed iteration numbers its subtrees as before.
    #[serde(default)]
    pub slack: Option<u32>,
    /// How many subtrees the top of the current iteration reached (a check on resuming).
    pub subtrees: Option<u64>,
    /// A digest of those subtrees' moves in the order they are numbered (a check on
    /// resuming: a search that reaches the same subtrees in another order, such as one
    /// that orders children otherwise, would number other subtrees as done).
    pub order: Option<String>,
    /// The finished subtrees of the current iteration.
    pub done: Vec<DoneSubtree>,
    /// The subtrees of the current iteration that a stop caught partway (none in the
    /// checkpoints of versions before 2026-11-28, whose stops lost them).
    #[serde(default)]
    pub partial: Vec<PartSubtree>,
    /// Nodes generated over every run so far, the work lost to stops included when known:
    /// the cost of stopping and resuming, beside the search's own count.
    pub spent: u64,
    /// How many runs have worked on this search.
    pub runs: u32,
}

impl Books {
    /// Closes the iteration under `threshold` and opens the one under `next`.
    pub(super) fn finish_iteration(&mut self, threshold: u32, nodes: u64, next: u32) {
        self.iterations.push(Iteration { threshold, nodes });
        self.threshold = next;
        self.depth = None;
        self.slack = None;
        self.subtrees = None;
        self.order = None;
        self.done.clear();
        self.partial.clear();
    }
}

impl Books {
    /// What makes these books impossible for any search to have written, if anything:
    /// checked before a search believes them, since every subtree they call done is
    /// skipped. (Books true to their form can still lie; a checksum is not a signature.)
    pub fn contradiction(&self) -> Option<String> {
        if let Some(w) = self
            .iterations
            .windows(2)
            .find(|w| w[1].threshold <= w[0].threshold)
        {
            return Some(format!(
                "a finished iteration under threshold {} comes after one under {}",
                w[1].threshold, w[0].threshold
            ));
        }
        if let Some(w) = self.iterations.windows(2).find(|w| w[1].nodes < w[0].nodes) {
            return Some(format!(
                "the node count falls from {} to {} between finished iterations",
                w[0].nodes, w[1].nodes
            ));
        }
        let last = self.iterations.last().map(|it| it.threshold);
        if let Some(last) = last.filter(|&l| self.threshold != 0 && self.threshold <= l) {
            return Some(format!(
                "the iteration under way, under threshold {}, is not above the last finished one, under {last}",
                self.threshold
            ));
        }
        let indices = self
            .done
            .iter()
            .map(|d| (d.index, d.next, "finished"))
            .chain(self.partial.iter().map(|p| (p.index, p.next, "partway")));
        let mut seen = HashSet::new();
        for (index, next, how) in indices {
            match self.subtrees {
                None => {
                    return Some(format!(
                        "subtree {index} is booked {how}, but no subtrees are"
                    ))
                }
                Some(n) if index >= n => {
                    return Some(format!("subtree {index} is booked {how}, of {n} subtrees"))
                }
                _ => {}
            }
            if next <= self.threshold {
                return Some(format!(
                    "subtree {index}, booked {how}, met {next} over threshold {}",
                    self.threshold
                ));
            }
            if !seen.insert((how, index)) {
                return Some(format!("subtree {index} is booked {how} twice"));
            }
        }
        None
    }
}
