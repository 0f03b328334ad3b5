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
//! yet finished, those a stop caught partway from the node each was at ([`PartSubtree`]:
//! a depth-first search in a fixed order is where it is by the path it is on). Its node
//! count is the straight run's (the finished parts are counted from the books). An orderly
//! stop (a limit, a stop flag) loses nothing but the path retraced; a kill loses what was
//! searched since the last save, which [`Books::spent`] cannot count.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::books::{Books, DoneSubtree, PartSubtree};
use super::dfs::{Dfs, Frontier, ROOT};
use super::ida::{BooksMismatch, Checkpointing, Deepening, Search, SearchError};
use super::{Found, Geometry, Heuristic, Limits, StopReason, Tiles, Weight};
use crate::board::{moves_to_string, parse_moves, Dir};

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
    // Books with nothing done in them: every iteration is this run's own.
    let fresh;
    {
        let mut b = lock();
        if let Some(why) = b.contradiction() {
            return Err(BooksMismatch {
                threshold: b.threshold,
                expected: b.subtrees.unwrap_or(0),
                found: 0,
                reordered: false,
                lost: None,
                unsound: Some(why),
            }
            .into());
        }
        fresh = b.iterations.is_empty() && b.done.is_empty() && b.partial.is_empty();
        b.runs += 1;
        if b.threshold == 0 {
            // Every iteration done and no iteration under way: books that versions before
            // 2026-11-28 saved on finding the answer, before the answer itself. Searching
            // from the first threshold would count every iteration twice: the last one,
            // which found the answer, is searched again instead.
            match b.iterations.pop() {
                Some(last) => b.threshold = last.threshold,
                None => b.threshold = first,
            }
        }
        for it in &b.iterations {
            run.record(it.threshold, it.nodes);
        }
    }
    let want = 64 * pool.current_num_threads().max(1);
    let shared = AtomicU64::new(0);
    loop {
        let (threshold, known, before, booked) = {
            let b = lock();
            let before = b.iterations.last().map_or(0, |it| it.nodes);
            // The nodes of this iteration's subtrees searched before, done or partway.
            let booked = b.done.iter().map(|s| s.nodes).sum::<u64>()
                + b.partial.iter().map(|p| p.nodes).sum::<u64>();
            (b.threshold, b.split(), before, booked)
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
            // The node limit counts what came before the top too.
            shared.store(nodes + booked, Ordering::Relaxed);
            dfs.shared = Some(&shared);
            let found = dfs.go(&start, &st, 0, ROOT);
            lock().spent += dfs.nodes + 1;
            if let Some(reason) = dfs.stopped {
                save(&lock());
                return Err(run
                    .stopped(reason, threshold, nodes + booked + dfs.nodes)
                    .into());
            }
            let finer = split.finer(weight, threshold);
            match finer {
                Some(f) if known.is_none() && !found && dfs.frontier.len() < want => split = f,
                _ => break (dfs, found),
            }
        };
        nodes += dfs.nodes;
        if found {
            // Not saved here: books of every iteration done and none under way, with no
            // answer, are a stop that loses the whole search. The caller saves them with
            // the answer, or the last save stays, with this iteration under way.
            run.finished(threshold, nodes);
            lock().finish_iteration(threshold, nodes, 0);
            return proven(run, dfs.path, threshold, nodes, fresh);
        }
        let frontier = std::mem::take(&mut dfs.frontier);
        let reached = frontier.len() as u64;
        let mut next = dfs.next;
        let (done, partial): (HashSet<u64>, HashMap<u64, PartSubtree>) = {
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
                    lost: None,
                    unsound: None,
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
            let done: HashSet<u64> = b.done.iter().map(|s| s.index).collect();
            // A subtree booked both ways was finished after it was caught partway.
            b.partial.retain(|p| !done.contains(&p.index));
            let partial: HashMap<u64, PartSubtree> =
                b.partial.iter().map(|p| (p.index, p.clone())).collect();
            (done, partial)
        };
        let sub = Subtrees {
            geo,
            h,
            weight,
            threshold,
            limits,
            halt: &AtomicBool::new(false),
            shared: &shared,
        };
        // Books whose stop points are not in the tree are refused before they are saved.
        for (i, f) in frontier.iter().enumerate() {
            let i = i as u64;
            match partial.get(&i) {
                Some(p) if !done.contains(&i) && !sub.reaches(f, p) => {
                    return Err(BooksMismatch {
                        threshold,
                        expected: reached,
                        found: reached,
                        reordered: false,
                        lost: Some(i),
                        unsound: None,
                    }
                    .into());
                }
                _ => {}
            }
        }
        save(&lock());
        // (The node limit counts the stopped runs' nodes of subtrees caught partway too.)
        shared.store(
            nodes + partial.values().map(|p| p.nodes).sum::<u64>(),
            Ordering::Relaxed,
        );
        let halt = AtomicBool::new(false);
        let misfit = AtomicBool::new(false);
        let last_save = Mutex::new(Instant::now());
        let todo: Vec<(usize, &Frontier<T, H::State>)> = frontier
            .iter()
            .enumerate()
            .filter(|(i, _)| !done.contains(&(*i as u64)))
            .collect();
        let sub = Subtrees { halt: &halt, ..sub };
        let results: Vec<SubtreeResult> = each_in_order(pool, &todo, |&(i, f)| {
            let index = i as u64;
            let r = sub.search(f, partial.get(&index));
            if r.lost {
                // Books that do not fit: the search ends and they are not saved again.
                misfit.store(true, Ordering::Relaxed);
                halt.store(true, Ordering::Relaxed);
                return r;
            }
            let mut b = lock();
            b.spent += r.fresh;
            b.partial.retain(|p| p.index != index);
            if r.solution.is_none() && r.stopped.is_none() {
                b.done.push(DoneSubtree {
                    index,
                    nodes: r.nodes,
                    next: r.next,
                });
                let mut last = last_save.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() >= c.every && !misfit.load(Ordering::Relaxed) {
                    save(&b);
                    *last = Instant::now();
                }
            } else if let Some(at) = &r.at {
                b.partial.push(PartSubtree {
                    index,
                    nodes: r.nodes,
                    next: r.next,
                    at: moves_to_string(at),
                });
            }
            r
        });
        if let Some(place) = results.iter().position(|r| r.lost) {
            return Err(BooksMismatch {
                threshold,
                expected: reached,
                found: reached,
                reordered: false,
                lost: Some(todo[place].0 as u64),
                unsound: None,
            }
            .into());
        }
        let (solution, stop) = gather(results, &mut nodes, &mut next);
        if let Some(moves) = solution {
            // Not saved here, as above.
            run.finished(threshold, nodes);
            lock().finish_iteration(threshold, nodes, 0);
            return proven(run, moves, threshold, nodes, fresh);
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

/// The answer found under `threshold`, unless it is shorter than the bound that threshold
/// proves: no search with an admissible estimate finds that, since every iteration below a
/// solution's length is exhausted before the threshold passes it. Books whose threshold
/// was raised by hand would have the first path found within it called optimal; with
/// `fresh` books (this run's alone) the estimate overestimated.
fn proven(
    run: Deepening<'_>,
    moves: Vec<Dir>,
    threshold: u32,
    nodes: u64,
    fresh: bool,
) -> Result<Found, SearchError> {
    let found = run.found(moves, threshold, nodes);
    if fresh && found.lower_bound as usize > found.moves.len() {
        return Err(SearchError::Overestimate {
            length: found.moves.len(),
            bound: found.lower_bound,
        });
    }
    if found.lower_bound as usize > found.moves.len() {
        return Err(BooksMismatch {
            threshold,
            expected: 0,
            found: 0,
            reordered: false,
            lost: None,
            unsound: Some(format!(
                "an answer of {} moves was found under threshold {threshold}, which proves none is shorter than {}: the iterations below it were not all searched",
                found.moves.len(),
                found.lower_bound
            )),
        }
        .into());
    }
    Ok(found)
}

/// One subtree's search under a threshold.
pub(super) struct SubtreeResult {
    /// Nodes generated below it, a stopped run's included when it was resumed: the count
    /// of a search that never stopped, once it is finished.
    nodes: u64,
    /// Nodes this run generated.
    fresh: u64,
    /// The least `f` over the threshold met below it.
    next: u32,
    /// The moves to the goal, if it reached it.
    solution: Option<Vec<Dir>>,
    /// Why it stopped early, if it did.
    stopped: Option<StopReason>,
    /// Where a limit stopped it: the moves from its root to the node it was at.
    at: Option<Vec<Dir>>,
    /// The stop point it was to resume from is not in its tree.
    lost: bool,
}

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
    for r in results {
        *nodes += r.nodes;
        *next = (*next).min(r.next);
        if solution.is_none() {
            solution = r.solution;
        }
        // A sibling halted by another's limit says "interrupted"; the limit is the news.
        if r.stopped.is_some() && (stop.is_none() || stop == Some(StopReason::Interrupted)) {
            stop = r.stopped;
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
    /// Whether the search below `f` reaches the node where `part` says a stop caught it
    /// (retracing the path there, searching nothing).
    fn reaches<T: Tiles>(&self, f: &Frontier<T, H::State>, part: &PartSubtree) -> bool {
        let Ok(at) = parse_moves(&part.at) else {
            return false;
        };
        let none = Limits {
            max_nodes: Some(0),
            ..Limits::default()
        };
        let mut d = Dfs::new(
            self.geo,
            self.h,
            self.weight,
            self.threshold,
            none,
            Vec::new(),
        );
        d.resume(&at);
        d.go(&f.p, &f.st, f.g, f.state);
        !d.lost && !d.retracing()
    }

    /// Searches the subtree below one frontier entry, from where a stop caught it when
    /// `part` says so, and when it reaches the goal, stops the siblings. Once a sibling
    /// has, nothing is searched: the subtree says it was interrupted, as one stopped
    /// halfway does, so that no books count it as done.
    pub(super) fn search<T: Tiles>(
        &self,
        f: &Frontier<T, H::State>,
        part: Option<&PartSubtree>,
    ) -> SubtreeResult {
        let (before, before_next) = part.map_or((0, u32::MAX), |p| (p.nodes, p.next));
        let mut r = SubtreeResult {
            nodes: before,
            fresh: 0,
            next: before_next,
            solution: None,
            stopped: Some(StopReason::Interrupted),
            // A subtree not started keeps the stop point it had.
            at: part.and_then(|p| parse_moves(&p.at).ok()),
            lost: false,
        };
        if self.halt.load(Ordering::Relaxed) {
            return r;
        }
        let mut d = Dfs::new(
            self.geo,
            self.h,
            self.weight,
            self.threshold,
            self.limits,
            f.path.clone(),
        );
        d.halt = Some(self.halt);
        d.shared = Some(self.shared);
        if let Some(p) = part {
            match parse_moves(&p.at) {
                Ok(at) => d.resume(&at),
                Err(_) => {
                    r.lost = true;
                    return r;
                }
            }
        }
        let found = d.go(&f.p, &f.st, f.g, f.state);
        d.settle();
        r.nodes += d.nodes;
        r.fresh = d.nodes + d.retraced;
        r.next = r.next.min(d.next);
        r.stopped = d.stopped;
        r.at = None;
        if d.lost || d.retracing() {
            // (A path cut at the subtree's root leaves it retracing.)
            r.lost = true;
            r.stopped = Some(StopReason::Interrupted);
            return r;
        }
        if found {
            self.halt.store(true, Ordering::Relaxed);
            r.solution = Some(d.path);
        } else if d.stopped.is_some() {
            // A limit (or Ctrl-C) ends the iteration: the subtrees after this one are not
            // started. Small ones would otherwise run to their end before any limit check
            // and be booked as done, and a resumed search would count work the straight
            // search never does (those after the one holding the goal).
            self.halt.store(true, Ordering::Relaxed);
            r.at = Some(d.path[f.path.len()..].to_vec());
        }
        r
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
    if pool.current_thread_index().is_none() && rayon::current_thread_index().is_some() {
        // Called on a worker of another pool (a caller's own `par_iter` over boards): while
        // Rayon waits for `pool` there, it runs that other pool's pending jobs on this
        // stack, and each of them, another board's search, waits here in turn. Hundreds of
        // boards deep, that overflowed the stack (a test's 8-puzzle boards, in CI). A plain
        // thread waits without taking other work.
        return std::thread::scope(|s| {
            s.spawn(|| in_order_on(pool, items, &search))
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
    }
    in_order_on(pool, items, search)
}

/// [`each_in_order`], waiting in Rayon's way: a worker of `pool` runs other jobs of `pool`
/// while it waits.
fn in_order_on<F: Sync, R: Send>(
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
#[path = "parallel_tests.rs"]
mod tests;
