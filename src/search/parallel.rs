//! Parallel IDA* for one instance: the top of the tree alone, its subtrees on Rayon.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::dfs::{Dfs, Frontier, ROOT};
use super::ida::Deepening;
use super::{
    Found, Geometry, Heuristic, IterationHook, Limits, StopReason, Stopped, Tiles, Weight,
};
use crate::board::Dir;

/// One subtree's search under a threshold: nodes, the least f over it, the path if it
/// reached the goal, and why it stopped early, if it did.
pub(super) type SubtreeResult = (u64, u32, Option<Vec<Dir>>, Option<StopReason>);

/// The subtrees of one iteration added into `nodes` and `next`; returns the first
/// solution in frontier order and why the iteration stopped, if it did. Shared by the
/// parallel search and its resumable form, so that both count an iteration alike.
pub(super) fn gather(
    results: Vec<SubtreeResult>,
    nodes: &mut u64,
    next: &mut u32,
) -> (Option<Vec<Dir>>, Option<StopReason>) {
    let mut solution = None;
    let mut stop = None;
    for (n, nx, sol, stopped) in results {
        *nodes += n;
        *next = (*next).min(nx);
        if solution.is_none() {
            solution = sol;
        }
        // A sibling halted by another's limit says "interrupted"; the limit is the news.
        if stopped.is_some() && (stop.is_none() || stop == Some(StopReason::Interrupted)) {
            stop = stopped;
        }
    }
    (solution, stop)
}

/// What the subtrees of one iteration share: the search's settings, the flag that stops
/// them all once one reaches the goal, and the node count the node limit reads.
pub(super) struct Subtrees<'a, H> {
    pub(super) geo: &'a Geometry,
    pub(super) h: &'a H,
    pub(super) weight: Weight,
    pub(super) threshold: u32,
    pub(super) limits: Limits<'a>,
    pub(super) halt: &'a AtomicBool,
    pub(super) shared: &'a AtomicU64,
}

impl<H: Heuristic> Subtrees<'_, H> {
    /// Searches the subtree below one frontier entry, and when it reaches the goal, stops
    /// the siblings. Once a sibling has, nothing is searched: the subtree says it was
    /// interrupted, as one stopped halfway does, so that no books count it as done.
    pub(super) fn search<T: Tiles>(&self, f: &Frontier<T, H::State>) -> SubtreeResult {
        if self.halt.load(Ordering::Relaxed) {
            return (0, u32::MAX, None, Some(StopReason::Interrupted));
        }
        let path = f.path.clone();
        let mut d = Dfs::new(
            self.geo,
            self.h,
            self.weight,
            self.threshold,
            self.limits,
            path,
        );
        d.halt = Some(self.halt);
        d.shared = Some(self.shared);
        if d.go(f.p, f.st, f.g, f.prev) {
            self.halt.store(true, Ordering::Relaxed);
            return (d.nodes, d.next, Some(d.path), None);
        }
        (d.nodes, d.next, None, d.stopped)
    }
}

/// Runs `search` on every item on every thread of `pool`, the items taken in their order:
/// each thread, when free, takes the first item no thread has taken. Returns the results in
/// item order.
///
/// The order is the point. The subtrees of an iteration come in the order the serial
/// search would visit them, most promising first, and in the last iteration the goal lies
/// early in that order. Rayon's splitting would give the second thread the second half of
/// the list, work the serial search never does: measured, a 69-move position then took
/// 202 M nodes and 7.4 s on 2 threads against 128 M nodes and 9.0 s on one.
pub(super) fn each_in_order<F: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    items: &[F],
    search: impl Fn(&F) -> R + Sync,
) -> Vec<R> {
    let taken = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(items.len()));
    pool.scope(|s| {
        for _ in 0..pool.current_num_threads().max(1) {
            s.spawn(|_| loop {
                let i = taken.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = search(item);
                done.lock().unwrap_or_else(|e| e.into_inner()).push((i, r));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// IDA* for one instance on every thread of `pool`.
///
/// Each iteration searches the top of the tree alone down to a depth that yields many more
/// subtrees than threads, then hands the subtrees to the threads in their order (see
/// [`each_in_order`]), each thread taking the next when it is free. When a subtree holds a
/// solution within the threshold, the others stop: it is optimal, as every smaller
/// threshold was exhausted. Every iteration but the last counts
/// exactly the nodes the serial search counts; the last stops early in a different place.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_parallel<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
) -> Result<Found, Stopped> {
    ida_star_parallel_weighted(geo, h, start, Weight::ONE, limits, hook, pool)
}

/// [`ida_star_weighted`](super::ida_star_weighted) on every thread of `pool`, split as
/// [`ida_star_parallel`] does. A subtree's solution within the threshold is within the
/// weight's bound, whichever it is.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_parallel_weighted<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
) -> Result<Found, Stopped> {
    let (mut run, st, mut threshold) = Deepening::new(geo, h, &start, weight, hook);
    let mut nodes = 0u64;
    let shared = AtomicU64::new(0);
    let want = 64 * pool.current_num_threads().max(1);
    loop {
        nodes += 1;
        if start == geo.goal() {
            return Ok(run.at_goal(nodes));
        }
        // The top of the tree, alone: deepen the split until there is enough work to share.
        let mut depth = 4;
        let (mut dfs, found) = loop {
            let mut dfs = Dfs::new(geo, h, weight, threshold, limits, Vec::with_capacity(128));
            dfs.collect_at = depth;
            let found = dfs.go(start, st, 0, ROOT);
            if let Some(reason) = dfs.stopped {
                return Err(run.stopped(reason, threshold, nodes + dfs.nodes));
            }
            if found || dfs.frontier.len() >= want || weight.g * depth >= threshold {
                break (dfs, found);
            }
            depth += 2;
        };
        nodes += dfs.nodes;
        shared.store(nodes, Ordering::Relaxed);
        if found {
            // The hook does not hear of this last iteration, unlike one that ends in a
            // subtree.
            run.record(threshold, nodes);
            return Ok(run.found(dfs.path, threshold, nodes));
        }
        let halt = AtomicBool::new(false);
        let frontier = std::mem::take(&mut dfs.frontier);
        let mut next = dfs.next;
        // Each subtree: (nodes, smallest f over the threshold, solution, stop reason).
        let sub = Subtrees {
            geo,
            h,
            weight,
            threshold,
            limits,
            halt: &halt,
            shared: &shared,
        };
        let results: Vec<SubtreeResult> = each_in_order(pool, &frontier, |f| sub.search(f));
        let (solution, stop) = gather(results, &mut nodes, &mut next);
        if let Some(moves) = solution {
            run.finished(threshold, nodes);
            return Ok(run.found(moves, threshold, nodes));
        }
        if let Some(reason) = stop {
            return Err(run.stopped(reason, threshold, nodes));
        }
        run.finished(threshold, nodes);
        threshold = run.next_threshold(next, threshold, nodes)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal, Shape};
    use crate::search::{ida_star, LinearConflict, Packed};

    #[test]
    fn the_parallel_search_counts_the_serial_nodes_until_the_last_iteration() {
        let shape = Shape::new(3, 3).unwrap();
        let board = Board::new(shape, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        let labels = Goal::standard(shape).labels(&board).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        let start = geo.load::<Packed>(&labels);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let lc = LinearConflict;
        let serial = ida_star(&geo, &lc, start, Limits::default(), None).unwrap();
        let par = ida_star_parallel(&geo, &lc, start, Limits::default(), None, &pool).unwrap();
        assert_eq!(par.moves.len(), 31);
        assert_eq!(par.lower_bound, 31);
        let n = serial.iterations.len();
        assert_eq!(par.iterations.len(), n);
        assert_eq!(par.iterations[..n - 1], serial.iterations[..n - 1]);
    }
}
