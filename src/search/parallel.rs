//! IDA* for one instance on every thread of a pool, with books that survive a stop.
//!
//! Each iteration searches the top of the tree alone down to where it splits ([`Split`]: at
//! one depth, or, when the books are saved, where subtrees are of a size), into many more
//! subtrees than threads, then hands the subtrees to the threads in their order (see
//! [`each_in_order`]), each thread taking the next when it is free. When a subtree holds a
//! solution within the threshold, the others stop: it is optimal, as every smaller
//! threshold was exhausted. Every iteration but the last counts exactly the nodes the
//! serial search counts; the last stops early in a different place.
//!
//! The driver keeps its books ([`Books`]: finished iterations, the split, finished
//! subtrees) whether or not the caller saves them, so the plain parallel search and the
//! checkpointed one are the same code. A resumed search skips the iterations already
//! finished, re-runs the cheap top of the current iteration with the split it used
//! before (so the subtrees are numbered as they were), and searches only the subtrees not
//! yet finished. Its node count is the straight run's (the finished parts are counted from
//! the books); the work lost to a stop is the subtrees that were under way, which
//! [`Books::spent`] counts when the stop was orderly (a stop flag) and cannot count after
//! a kill.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::dfs::{Dfs, Frontier, ROOT};
use super::ida::{BooksMismatch, Checkpointing, Deepening, Search, SearchError};
use super::{Found, Geometry, Heuristic, Iteration, Limits, StopReason, Tiles, Weight};
use crate::board::Dir;

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

/// Where a split search is: what it needs to go on after a stop, and what a checkpoint
/// file holds besides the instance (see [`super::Checkpointing`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Books {
    /// The finished iterations, in order.
    pub iterations: Vec<Iteration>,
    /// The threshold of the iteration under way (0: not started yet).
    pub threshold: u32,
    /// The split depth of the iteration under way, when it was split by depth (as
    /// checkpoints written before 2026-11-27 were): kept so that a resumed iteration
    /// numbers its subtrees as before.
    pub depth: Option<u32>,
    /// The split's slack of the iteration under way, once chosen (see [`Split::Slack`]):
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
    /// Nodes generated over every run so far, the work lost to stops included when known:
    /// the cost of stopping and resuming, beside the search's own count.
    pub spent: u64,
    /// How many runs have worked on this search.
    pub runs: u32,
}

impl Books {
    /// Closes the iteration under `threshold` and opens the one under `next`.
    fn finish_iteration(&mut self, threshold: u32, nodes: u64, next: u32) {
        self.iterations.push(Iteration { threshold, nodes });
        self.threshold = next;
        self.depth = None;
        self.slack = None;
        self.subtrees = None;
        self.order = None;
        self.done.clear();
    }
}

impl Books {
    /// How the iteration under way was split, once it was.
    fn split(&self) -> Option<Split> {
        match (self.slack, self.depth) {
            (Some(s), _) => Some(Split::Slack(s)),
            (None, Some(d)) => Some(Split::Depth(d)),
            (None, None) => None,
        }
    }

    fn set_split(&mut self, split: Split) {
        (self.depth, self.slack) = match split {
            Split::Depth(d) => (Some(d), None),
            Split::Slack(s) => (None, Some(s)),
        };
    }
}

/// Where the top of an iteration stops and its subtrees begin: by slack when the books
/// are saved (a checkpointed search), by depth when they are not.
///
/// By slack: a node is a subtree once the threshold less its `f` is at most the slack
/// (searched from the first move down). A subtree's size grows about geometrically with
/// its slack, so subtrees cut this way are of a size, where subtrees cut at one depth are
/// not: the first ones, most promising, hold most of the iteration. Measured on the
/// 24-puzzle (Korf and Felner's id 25, 2 threads, its last two iterations), the largest of
/// 216 subtrees at depth 6 held 15% and 50% of the iteration (20 M nodes, four seconds),
/// the largest of 171 by slack 9% and 8%. That is what a stop loses (the subtrees under
/// way), and in the last iteration it is the serial search's prefix that both threads
/// share, in small pieces, instead of one thread taking a large subtree while the other
/// searches past the solution.
///
/// Yet a search whose books are not saved splits by depth, which was faster: medians of
/// three interleaved runs on two threads, by depth against by slack, 4.19 s against 4.70 s
/// for id 25, 4.74 s against 5.35 s for id 44, 15.6 s for both for id 1, and 26.6 s against
/// 28.7 s for the hard 4x4 set (docs/records/2026-11-27-split-by-slack.md). The first
/// subtrees of one depth are the largest, so taken first they balance the threads' load
/// (a largest-first schedule); subtrees by slack come in any order of size, and one large
/// subtree taken last leaves a thread idle. Only a stop makes the size of the largest
/// subtree matter more than that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Split {
    /// Nodes this many moves from the start (a search without saved books, and the
    /// checkpoints of earlier versions).
    Depth(u32),
    /// Nodes whose slack is at most this.
    Slack(u32),
}

impl Split {
    fn apply<H: Heuristic, T: Tiles>(self, dfs: &mut Dfs<'_, H, T>) {
        match self {
            Split::Depth(d) => dfs.collect_at = d,
            Split::Slack(s) => (dfs.collect_at, dfs.collect_slack) = (1, s),
        }
    }

    /// The next finer split, if there is one short of searching the whole iteration at the
    /// top (slack 0, or the depth of the threshold).
    fn finer(self, weight: Weight, threshold: u32) -> Option<Split> {
        match self {
            Split::Depth(d) => (weight.g * d < threshold).then_some(Split::Depth(d + 2)),
            // A move changes f by g - h or g + h weights (the estimate changes by one).
            Split::Slack(s) => s.checked_sub(weight.g + weight.h).map(Split::Slack),
        }
    }
}

/// The split search from the books in `c`, saving as it goes (see the module). The split
/// of each iteration ([`Split`]) is chosen once, then kept. Subtrees are searched without the
/// weighted search's table of met boards.
pub(super) fn run<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    search: &Search,
    pool: &rayon::ThreadPool,
    c: Checkpointing,
) -> Result<Found, SearchError> {
    let (weight, limits, save) = (search.weight, search.limits, c.save);
    let lock = || c.books.lock().unwrap_or_else(|e| e.into_inner());
    let (mut run, st, first) = Deepening::new(geo, h, &start, weight, search.on_iteration);
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
        let (threshold, known, before) = {
            let b = lock();
            let before = b.iterations.last().map_or(0, |it| it.nodes);
            (b.threshold, b.split(), before)
        };
        let mut nodes = before + 1;
        if start == geo.goal() {
            lock().spent += 1;
            return Ok(run.at_goal(nodes));
        }
        // The top of the tree, alone, split where the books say, or (a new iteration) by
        // slack from the root's down, or by depth from 4 down, until there is enough work
        // to share.
        let mut split = known.unwrap_or_else(|| {
            if c.every == Duration::MAX {
                return Split::Depth(4);
            }
            let mut root = st;
            h.prepare(&mut root, &start, u32::MAX);
            Split::Slack(threshold.saturating_sub(weight.h * h.h(&mut root)))
        });
        let (mut dfs, found) = loop {
            let mut dfs = Dfs::new(geo, h, weight, threshold, limits, Vec::with_capacity(128));
            split.apply(&mut dfs);
            let found = dfs.go(&start, &st, 0, ROOT);
            lock().spent += dfs.nodes + 1;
            if let Some(reason) = dfs.stopped {
                save(&lock());
                return Err(run.stopped(reason, threshold, nodes + dfs.nodes).into());
            }
            let finer = split.finer(weight, threshold);
            match finer {
                Some(f) if known.is_none() && !found && dfs.frontier.len() < want => split = f,
                _ => break (dfs, found),
            }
        };
        nodes += dfs.nodes;
        if found {
            run.finished(threshold, nodes);
            lock().finish_iteration(threshold, nodes, 0);
            save(&lock());
            return Ok(run.found(dfs.path, threshold, nodes));
        }
        let frontier = std::mem::take(&mut dfs.frontier);
        let reached = frontier.len() as u64;
        let mut next = dfs.next;
        let done: HashSet<u64> = {
            let mut b = lock();
            let order = order_digest(&frontier);
            // (Said only of as many subtrees: a count that differs says it all.)
            let reordered =
                b.order.as_ref().is_some_and(|o| *o != order) && b.subtrees == Some(reached);
            if let Some(expected) = b.subtrees.filter(|&n| n != reached || reordered) {
                return Err(BooksMismatch {
                    threshold,
                    expected,
                    found: reached,
                    reordered,
                }
                .into());
            }
            b.set_split(split);
            b.subtrees = Some(reached);
            b.order = Some(order);
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
                if last.elapsed() >= c.every {
                    save(&b);
                    *last = Instant::now();
                }
            }
            r
        });
        let (solution, stop) = gather(results, &mut nodes, &mut next);
        if let Some(moves) = solution {
            run.finished(threshold, nodes);
            lock().finish_iteration(threshold, nodes, 0);
            save(&lock());
            return Ok(run.found(moves, threshold, nodes));
        }
        if let Some(reason) = stop {
            save(&lock());
            return Err(run.stopped(reason, threshold, nodes).into());
        }
        run.finished(threshold, nodes);
        let following = run.next_threshold(next, threshold, nodes)?;
        lock().finish_iteration(threshold, nodes, following);
        save(&lock());
    }
}

/// One subtree's search under a threshold: nodes, the least f over it, the path if it
/// reached the goal, and why it stopped early, if it did.
pub(super) type SubtreeResult = (u64, u32, Option<Vec<Dir>>, Option<StopReason>);

/// [`Books::order`] for these subtrees: xxh3-64 of their moves, in order, in 16 hex digits.
fn order_digest<T, S>(frontier: &[Frontier<T, S>]) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for f in frontier {
        h.update(&f.path.iter().map(|&d| d as u8).collect::<Vec<u8>>());
        h.update(&[u8::MAX]);
    }
    format!("{:016x}", h.digest())
}

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
        if d.go(&f.p, &f.st, f.g, f.state) {
            self.halt.store(true, Ordering::Relaxed);
            return (d.nodes, d.next, Some(d.path), None);
        }
        if d.stopped.is_some() {
            // A limit (or Ctrl-C) ends the iteration: the subtrees after this one are not
            // started. Small ones would otherwise run to their end before any limit check
            // and be booked as done, and a resumed search would count work the straight
            // search never does (those after the one holding the goal).
            self.halt.store(true, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal, Shape};
    use crate::search::{ida_star, LinearConflict, Packed};

    /// Korf's instance 20 (52 moves, about 2 M nodes under linear conflict).
    const BOARD: [u8; 16] = [6, 12, 11, 3, 13, 7, 9, 15, 2, 14, 8, 10, 4, 1, 5, 0];

    /// The search's frame for `tiles` (a square board) and `goal`, and a pool of two threads.
    fn two_threads(tiles: &[u8], goal: fn(Shape) -> Goal) -> (Geometry, Packed, rayon::ThreadPool) {
        let side = (tiles.len() as f64).sqrt() as usize;
        let shape = Shape::new(side, side).unwrap();
        let board = Board::new(shape, tiles).unwrap();
        let labels = goal(shape).labels(&board).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        let start = geo.load::<Packed>(&labels);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        (geo, start, pool)
    }

    #[test]
    fn the_parallel_search_counts_the_serial_nodes_until_the_last_iteration() {
        let (geo, start, pool) = two_threads(&[8, 6, 7, 2, 5, 4, 3, 0, 1], Goal::standard);
        let lc = LinearConflict;
        let serial = ida_star(&geo, &lc, start, &Search::default()).unwrap();
        let split = Search {
            pool: Some(&pool),
            ..Search::default()
        };
        let par = ida_star(&geo, &lc, start, &split).unwrap();
        assert_eq!(par.moves.len(), 31);
        assert_eq!(par.lower_bound, 31);
        let n = serial.iterations.len();
        assert_eq!(par.iterations.len(), n);
        assert_eq!(par.iterations[..n - 1], serial.iterations[..n - 1]);
    }

    /// Subtrees cut by slack are of a size: in every long iteration the largest holds a
    /// small share of the nodes, which bounds what a stop loses (the subtrees under way).
    /// Cut at one depth, the first, most promising subtrees held much of it: on this board,
    /// under linear conflict, 12% of the iteration under 48 (26,042 of 212,796 nodes,
    /// against 5,609 by slack), and half of the 24-puzzle's last iteration (see [`Split`]).
    #[test]
    fn no_subtree_of_a_split_holds_much_of_its_iteration() {
        let (geo, start, pool) = two_threads(&BOARD, Goal::blank_first);
        // The largest subtree of each iteration, as the books saw it before it closed.
        let largest = Mutex::new(std::collections::HashMap::<u32, u64>::new());
        let save = |b: &Books| {
            let most = b.done.iter().map(|d| d.nodes).max().unwrap_or(0);
            let mut l = largest.lock().unwrap();
            let e = l.entry(b.threshold).or_default();
            *e = (*e).max(most);
        };
        let books = Mutex::new(Books::default());
        let c = Checkpointing {
            books: &books,
            save: &save,
            every: std::time::Duration::ZERO,
        };
        let search = Search {
            pool: Some(&pool),
            checkpoint: Some(c),
            ..Search::default()
        };
        let found = ida_star(&geo, &LinearConflict, start, &search).unwrap();
        let largest = largest.into_inner().unwrap();
        let mut before = 0;
        let mut long = 0;
        for it in &found.iterations[..found.iterations.len() - 1] {
            let nodes = it.nodes - before;
            before = it.nodes;
            if nodes < 200_000 {
                continue;
            }
            long += 1;
            let most = largest[&it.threshold];
            eprintln!(
                "threshold {}: {nodes} nodes, largest subtree {most}",
                it.threshold
            );
            assert!(
                most * 10 <= nodes,
                "threshold {}: a subtree of {most} of {nodes} nodes",
                it.threshold
            );
        }
        assert!(long >= 2, "{:?}", found.iterations);
    }
}
