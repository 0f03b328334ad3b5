//! IDA* for one long instance that can stop at any moment and resume where it was: the
//! parallel search of `parallel.rs`, with its books kept in a [`Progress`] that the caller
//! saves (see [`crate::cluster::Checkpoint`]) after each finished iteration and, at most
//! every `every`, after finished subtrees of the current one.
//!
//! A resumed search skips the iterations already finished, re-runs the cheap top of the
//! current iteration at the split depth it used before (so the subtrees are numbered as
//! they were), and searches only the subtrees not yet finished. Its node count is the
//! straight run's (the finished parts are counted from the books); the work lost to a stop
//! is the subtrees that were under way, which [`Progress::spent`] counts when the stop was
//! orderly (a stop flag) and cannot count after a kill.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::dfs::{Dfs, Frontier, ROOT};
use super::ida::Deepening;
use super::parallel::{each_in_order, gather, SubtreeResult, Subtrees};
use super::{Found, Geometry, Heuristic, Iteration, IterationHook, Limits, Stopped, Tiles, Weight};

/// A finished iteration, as the books keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneIteration {
    /// The iteration's threshold.
    pub threshold: u32,
    /// Nodes of the search up to and including this iteration.
    pub nodes: u64,
}

/// A finished subtree of the current iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneSubtree {
    /// Its place among the nodes the top reached at the split depth, in search order.
    pub index: u64,
    /// Nodes generated below it.
    pub nodes: u64,
    /// The smallest `f` over the threshold met below it (`u32::MAX`: none).
    pub next: u32,
}

/// Where a resumable search is: what [`ida_star_resumable`] needs to go on, and what a
/// checkpoint file holds besides the instance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The finished iterations, in order.
    pub iterations: Vec<DoneIteration>,
    /// The threshold of the iteration under way (0: not started yet).
    pub threshold: u32,
    /// The split depth of the iteration under way, once chosen: kept so that a resumed
    /// iteration numbers its subtrees as before.
    pub depth: Option<u32>,
    /// How many subtrees the top of the current iteration reached (a check on resuming).
    pub subtrees: Option<u64>,
    /// The finished subtrees of the current iteration.
    pub done: Vec<DoneSubtree>,
    /// Nodes generated over every run so far, the work lost to stops included when known:
    /// the cost of stopping and resuming, beside the search's own count.
    pub spent: u64,
    /// How many runs have worked on this search.
    pub runs: u32,
}

/// Why a resumable search ended without a solution.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResumeError {
    /// A limit ended the search; the progress saved last is where to go on from.
    #[error("search stopped after {} nodes", .0.nodes)]
    Stopped(Stopped),
    /// The books do not fit this search (the top reached another number of subtrees than
    /// the books say): they were written for another board, estimate or table set.
    #[error("the checkpoint does not fit this search: its iteration under threshold {threshold} had {expected} subtrees, this search has {found}")]
    Mismatch {
        /// The threshold of the iteration under way.
        threshold: u32,
        /// Subtrees the books record.
        expected: u64,
        /// Subtrees this search's top reached.
        found: u64,
    },
}

/// How a resumable search reports its books: called with the progress after each finished
/// iteration, after finished subtrees (at most every `every`), and when it stops.
pub type SaveHook<'a> = &'a (dyn Fn(&Progress) + Sync);

/// [`ida_star_parallel_weighted`](super::ida_star_parallel_weighted) from `progress`,
/// saving as it goes (see the module). The split depth of each iteration is chosen as the
/// parallel search chooses it, then kept. Subtrees are searched without the weighted
/// search's table of met boards (as in the parallel search).
///
/// # Errors
/// [`ResumeError::Stopped`] when a limit is reached (`progress` is saved first);
/// [`ResumeError::Mismatch`] when `progress` belongs to another search.
#[allow(clippy::too_many_arguments)]
pub fn ida_star_resumable<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
    progress: Progress,
    save: SaveHook,
    every: Duration,
) -> (Result<Found, ResumeError>, Progress) {
    let books = Mutex::new(progress);
    let result = run(
        geo, h, start, weight, limits, hook, pool, &books, save, every,
    );
    let progress = books.into_inner().unwrap_or_else(|e| e.into_inner());
    (result, progress)
}

#[allow(clippy::too_many_arguments)]
fn run<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
    books: &Mutex<Progress>,
    save: SaveHook,
    every: Duration,
) -> Result<Found, ResumeError> {
    let lock = || books.lock().unwrap_or_else(|e| e.into_inner());
    let (mut run, st, first) = Deepening::new(geo, h, &start, weight, hook);
    {
        let mut b = lock();
        b.runs += 1;
        if b.threshold == 0 {
            b.threshold = first;
        }
        for it in &b.iterations {
            run.record(it.threshold, it.nodes);
        }
    }
    let want = 64 * pool.current_num_threads().max(1);
    let shared = AtomicU64::new(0);
    loop {
        let (threshold, known_depth, before) = {
            let b = lock();
            let before = b.iterations.last().map_or(0, |it| it.nodes);
            (b.threshold, b.depth, before)
        };
        let mut nodes = before + 1;
        if start == geo.goal() {
            lock().spent += 1;
            return Ok(run.at_goal(nodes));
        }
        // The top of the tree, alone, at the depth the books say, or deepened until there
        // is enough work to share (as the parallel search does).
        let mut depth = known_depth.unwrap_or(4);
        let (mut dfs, found) = loop {
            let mut dfs = Dfs::new(geo, h, weight, threshold, limits, Vec::with_capacity(128));
            dfs.collect_at = depth;
            let found = dfs.go(start, st, 0, ROOT);
            lock().spent += dfs.nodes + 1;
            if let Some(reason) = dfs.stopped {
                save(&lock());
                return Err(ResumeError::Stopped(run.stopped(
                    reason,
                    threshold,
                    nodes + dfs.nodes,
                )));
            }
            if known_depth.is_some()
                || found
                || dfs.frontier.len() >= want
                || weight.g * depth >= threshold
            {
                break (dfs, found);
            }
            depth += 2;
        };
        nodes += dfs.nodes;
        if found {
            run.finished(threshold, nodes);
            finish_iteration(&mut lock(), threshold, nodes, 0);
            save(&lock());
            return Ok(run.found(dfs.path, threshold, nodes));
        }
        let frontier = std::mem::take(&mut dfs.frontier);
        let reached = frontier.len() as u64;
        let mut next = dfs.next;
        let done: std::collections::HashSet<u64> = {
            let mut b = lock();
            if let Some(expected) = b.subtrees.filter(|&n| n != reached) {
                return Err(ResumeError::Mismatch {
                    threshold,
                    expected,
                    found: reached,
                });
            }
            b.depth = Some(depth);
            b.subtrees = Some(reached);
            for s in &b.done {
                nodes += s.nodes;
                next = next.min(s.next);
            }
            b.done.iter().map(|s| s.index).collect()
        };
        save(&lock());
        shared.store(nodes, Ordering::Relaxed);
        let halt = AtomicBool::new(false);
        let last_save = Mutex::new(Instant::now());
        // Each subtree: (nodes, smallest f over the threshold, solution, stop reason).
        let todo: Vec<(usize, &Frontier<T, H::State>)> = frontier
            .iter()
            .enumerate()
            .filter(|(i, _)| !done.contains(&(*i as u64)))
            .collect();
        let sub = Subtrees {
            geo,
            h,
            weight,
            threshold,
            limits,
            halt: &halt,
            shared: &shared,
        };
        let results: Vec<SubtreeResult> = each_in_order(pool, &todo, |&(i, f)| {
            let r = sub.search(f);
            let mut b = lock();
            b.spent += r.0;
            if r.2.is_none() && r.3.is_none() {
                b.done.push(DoneSubtree {
                    index: i as u64,
                    nodes: r.0,
                    next: r.1,
                });
                let mut last = last_save.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() >= every {
                    save(&b);
                    *last = Instant::now();
                }
            }
            r
        });
        let (solution, stop) = gather(results, &mut nodes, &mut next);
        if let Some(moves) = solution {
            run.finished(threshold, nodes);
            finish_iteration(&mut lock(), threshold, nodes, 0);
            save(&lock());
            return Ok(run.found(moves, threshold, nodes));
        }
        if let Some(reason) = stop {
            save(&lock());
            return Err(ResumeError::Stopped(run.stopped(reason, threshold, nodes)));
        }
        run.finished(threshold, nodes);
        let following = run
            .next_threshold(next, threshold, nodes)
            .map_err(ResumeError::Stopped)?;
        finish_iteration(&mut lock(), threshold, nodes, following);
        save(&lock());
    }
}

/// Closes the iteration under `threshold` in the books and opens the one under `next`.
fn finish_iteration(b: &mut Progress, threshold: u32, nodes: u64, next: u32) {
    b.iterations.push(DoneIteration { threshold, nodes });
    b.threshold = next;
    b.depth = None;
    b.subtrees = None;
    b.done.clear();
}

impl From<Iteration> for DoneIteration {
    fn from(it: Iteration) -> Self {
        DoneIteration {
            threshold: it.threshold,
            nodes: it.nodes,
        }
    }
}
