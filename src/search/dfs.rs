//! One IDA* iteration: the depth-first search below a threshold, the hot loop of the
//! solver, shared by the serial and the parallel search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::automaton::{step, MoveAutomaton, DEAD, START};
use super::{Geometry, Heuristic, Limits, Seen, StopReason, Tiles, Weight, NONE};
use crate::board::Dir;

pub(crate) struct Dfs<'a, H: Heuristic, T: Tiles> {
    /// The goal board, compared against every child.
    goal: T,
    geo: &'a Geometry,
    h: &'a H,
    /// The moves allowed after the moves made: the rows of a [`MoveAutomaton`].
    fsm: &'a [u16],
    weight: Weight,
    pub(crate) threshold: u32,
    pub(crate) next: u32,
    pub(crate) nodes: u64,
    pub(crate) path: Vec<Dir>,
    limits: Limits<'a>,
    pub(crate) stopped: Option<StopReason>,
    /// Set by a parallel sibling that found the goal: stop without a result.
    pub(crate) halt: Option<&'a AtomicBool>,
    /// Nodes of all parallel siblings, for the node limit; `reported` is our share so far.
    pub(crate) shared: Option<&'a AtomicU64>,
    reported: u64,
    /// Limits are checked when `nodes` reaches this (every 65,536 nodes, or sooner when
    /// the node limit is nearer).
    next_check: u64,
    /// When splitting: nodes from this depth on are collected instead of searched, ...
    pub(crate) collect_at: u32,
    /// ... once their slack (the threshold less their `f`) is at most this (`u32::MAX`:
    /// at `collect_at` whatever their slack).
    pub(crate) collect_slack: u32,
    /// Boards met in this iteration (weighted searches only).
    pub(crate) seen: Option<Seen<T>>,
    pub(crate) frontier: Vec<Frontier<T, H::State>>,
    /// Resuming a subtree stopped partway (see [`Dfs::resume`]): the moves still to retrace
    /// from here to the node where it stopped, the next last.
    cursor: Vec<Dir>,
    /// Whether the node being searched is on that path (the search is retracing it).
    retracing: bool,
    /// Nodes generated again while retracing: counted before the stop, so not in `nodes`.
    pub(crate) retraced: u64,
    /// Set when the path to retrace leaves the tree this search reaches: the books that
    /// gave it do not fit the search.
    pub(crate) lost: bool,
}

/// How a node on the path being retraced goes on (see [`Dfs::resume`]).
enum Retraced {
    /// Its children from this place in their order are still to search.
    From(usize),
    /// The goal was reached below it.
    Found,
    /// The search stopped below it (a limit, or a path that leaves the tree).
    Stopped,
}

/// A node at the split depth, with the moves that reach it.
pub(crate) struct Frontier<T, S> {
    pub(crate) p: T,
    pub(crate) st: S,
    pub(crate) g: u32,
    /// The move automaton's state after `path`.
    pub(crate) state: u32,
    pub(crate) path: Vec<Dir>,
}

/// The automaton state of [`Dfs::go`] at the root: no move made. No other node has it:
/// every move begins a forbidden string (the move and its reverse).
pub(crate) const ROOT: u32 = START;

#[derive(Clone, Copy)]
struct Child<T, S> {
    p: T,
    st: S,
    dir: u8,
    state: u32,
    h: u32,
}

impl<'a, H: Heuristic, T: Tiles> Dfs<'a, H, T> {
    pub(crate) fn new(
        geo: &'a Geometry,
        h: &'a H,
        weight: Weight,
        threshold: u32,
        limits: Limits<'a>,
        path: Vec<Dir>,
    ) -> Self {
        Dfs {
            goal: geo.goal(),
            geo,
            h,
            fsm: MoveAutomaton::for_weight(weight).rows(),
            weight,
            threshold,
            next: u32::MAX,
            nodes: 0,
            path,
            limits,
            stopped: None,
            halt: None,
            shared: None,
            reported: 0,
            next_check: 0,
            collect_at: u32::MAX,
            collect_slack: u32::MAX,
            seen: None,
            frontier: Vec::new(),
            cursor: Vec::new(),
            retracing: false,
            retraced: 0,
            lost: false,
        }
    }

    /// Resumes a subtree whose search stopped partway, at the node the moves `at` reach
    /// from it (the part of [`Dfs::path`] below the subtree's root at the stop): the next
    /// [`Dfs::go`] on the subtree's root retraces them, and searches only what the stopped
    /// search had not. Every node before that one in the search's order was searched, and
    /// the children of the nodes on the path were generated, so `nodes` counts neither
    /// again: the stopped search's count plus this one's is the count of a search that
    /// never stopped. The least `f` over the threshold met before the stop is the caller's
    /// to keep. A path that leaves the tree this search reaches (books of another search)
    /// stops it with [`Dfs::lost`] set.
    pub(crate) fn resume(&mut self, at: &[Dir]) {
        self.cursor = at.iter().rev().copied().collect();
        self.retracing = true;
    }

    /// A node on the retraced path, its live children in `order`: the children the
    /// stopped search had not reached are searched from the returned place on. At the node
    /// where it stopped, all of them; above it, those after the path's next move, once the
    /// subtree below that move has been resumed in turn.
    #[cold]
    #[inline(never)]
    fn retrace(
        &mut self,
        kids: &[Child<T, H::State>],
        order: &[u8],
        g: u32,
        generated: u64,
    ) -> Retraced {
        self.nodes -= generated;
        self.retraced += generated;
        let Some(d) = self.cursor.pop() else {
            self.retracing = false;
            return Retraced::From(0);
        };
        let Some(place) = order
            .iter()
            .position(|&i| dir_of(kids[i as usize].dir) == d)
        else {
            return self.lose();
        };
        let k = &kids[order[place] as usize];
        self.path.push(d);
        if self.go(&k.p, &k.st, g + 1, k.state) {
            return Retraced::Found;
        }
        if self.stopped.is_some() {
            return Retraced::Stopped;
        }
        if self.retracing {
            // The move's subtree was cut before the path's end was reached.
            return self.lose();
        }
        self.path.pop();
        Retraced::From(place + 1)
    }

    /// Whether a resumed search has not yet reached the node where it stopped.
    pub(crate) fn retracing(&self) -> bool {
        self.retracing
    }

    fn lose(&mut self) -> Retraced {
        self.lost = true;
        self.retracing = false;
        self.stopped = Some(StopReason::Interrupted);
        Retraced::Stopped
    }

    fn check_limits(&mut self) -> bool {
        let mut total = self.nodes;
        if let Some(sh) = self.shared {
            total = sh.fetch_add(self.nodes - self.reported, Ordering::Relaxed) + self.nodes
                - self.reported;
            self.reported = self.nodes;
        }
        if let Some(h) = self.halt {
            if h.load(Ordering::Relaxed) {
                self.stopped = Some(StopReason::Interrupted);
            }
        }
        self.next_check = self.nodes + 0x10000;
        if let Some(m) = self.limits.max_nodes {
            self.next_check = self
                .next_check
                .min(self.nodes + m.saturating_sub(total).max(1));
            if total >= m {
                self.stopped = Some(StopReason::MaxNodes);
            }
        }
        if let Some(d) = self.limits.deadline {
            if Instant::now() >= d {
                self.stopped = Some(StopReason::Timeout);
            }
        }
        if let Some(s) = self.limits.stop {
            if s.load(Ordering::Relaxed) {
                self.stopped = Some(StopReason::Interrupted);
            }
        }
        self.stopped.is_some()
    }

    /// Adds the nodes not yet reported to the parallel siblings' count: a search that ends
    /// between two checks of the limits would otherwise leave them out, and the node limit
    /// of a split search would let through every small subtree's nodes.
    pub(crate) fn settle(&mut self) {
        if let Some(sh) = self.shared {
            sh.fetch_add(self.nodes - self.reported, Ordering::Relaxed);
            self.reported = self.nodes;
        }
    }

    /// Whether a node `g` moves deep, at or below `collect_at`, is a subtree of the split.
    /// Only the top of a split asks (its estimate is read again, in full), so the cost is
    /// not the search's.
    fn collects(&self, p: &T, st: &H::State, g: u32) -> bool {
        if self.collect_slack == u32::MAX {
            return true;
        }
        let mut st = *st;
        self.h.prepare(&mut st, p, u32::MAX);
        let f = self.weight.g * g + self.weight.h * self.h.h(&mut st);
        self.threshold.saturating_sub(f) <= self.collect_slack
    }

    /// Searches below `p` (reached with `g` moves, leaving the move automaton in `state`,
    /// [`ROOT`] at the root). By reference: a child's board and state stay in its parent's
    /// frame while it is searched, and copying them into each call cost 2 to 3% of the
    /// time on 5x5 (their states are the largest).
    pub(crate) fn go(&mut self, p: &T, st: &H::State, g: u32, state: u32) -> bool {
        if let Some(seen) = &mut self.seen {
            if !seen.first_visit(p, g) {
                return false;
            }
        }
        if g >= self.collect_at && self.collects(p, st, g) {
            self.frontier.push(Frontier {
                p: *p,
                st: *st,
                g,
                state,
                path: self.path.clone(),
            });
            return false;
        }
        let geo = self.geo;
        let mut kids: [std::mem::MaybeUninit<Child<T, H::State>>; 4] =
            [std::mem::MaybeUninit::uninit(); 4];
        let mut n = 0;
        let b = p.blank();
        // At the root (no last move), the moves whose subtrees mirror another's.
        let skip = if state == ROOT {
            geo.mirrored_moves(p)
        } else {
            0
        };
        // Generate every child first so that their table entries are fetched together.
        for d in 0..4u8 {
            let next = step(self.fsm, state, d);
            if next == DEAD || skip & (1 << d) != 0 {
                continue; // a duplicate path (undoing the last move, ...), or a mirror image
            }
            let to = geo.neighbor[b][d as usize];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let label = p.get(to);
            let cp = p.slide(to, label, geo.blank_label as usize);
            let cst = self.h.child(geo, st, &cp, label, to, b);
            kids[n].write(Child {
                p: cp,
                st: cst,
                dir: d,
                state: next,
                h: 0,
            });
            n += 1;
        }
        // SAFETY: the first `n` entries were written above.
        let kids: &mut [Child<T, H::State>] = unsafe {
            std::slice::from_raw_parts_mut(kids.as_mut_ptr() as *mut Child<T, H::State>, n)
        };
        self.nodes += n as u64;
        let mut hmax = 0;
        // A child whose estimate exceeds this is cut; past it, a lazy estimate may stop.
        let bound = self.threshold.saturating_sub(self.weight.g * (g + 1)) / self.weight.h;
        if H::PREPARES {
            for k in kids.iter_mut() {
                self.h.prepare(&mut k.st, &k.p, bound);
            }
        }
        for k in kids.iter_mut() {
            k.h = self.h.h_within(&mut k.st, bound);
            hmax = hmax.max(k.h);
        }
        // Bidirectional pathmax: this node is at least `hmax - 1` from the goal. Pattern
        // databases that take the least value over blank places (and the dual lookup) are
        // not consistent, so a child may know more than its parent: then the whole node
        // is cut, and `f` still bounds the optimal length (see `Weight`).
        if hmax > 0 {
            let f = self.weight.g * g + self.weight.h * (hmax - 1);
            if f > self.threshold {
                self.next = self.next.min(f);
                return false;
            }
        }
        // The live children's places in `kids`, most promising first: only the last
        // iteration's order matters, and there it decides how soon the goal is met. The
        // children stay where they are (sorting their places, not their states, which are
        // large to copy).
        let mut order = [0u8; 4];
        let mut live = 0;
        for (i, k) in kids.iter().enumerate() {
            let f = self.weight.g * (g + 1) + self.weight.h * k.h;
            if f > self.threshold {
                self.next = self.next.min(f);
                continue;
            }
            if k.p == self.goal {
                self.path.push(dir_of(k.dir));
                return true;
            }
            order[live] = i as u8;
            live += 1;
        }
        let order = &mut order[..live];
        if H::RANKS && !H::TIES && live > 1 {
            // Ties broken by the estimate's rank, smaller first: the value kept in `h`
            // becomes (h, rank), compared as one number.
            for &i in order.iter() {
                let k = &mut kids[i as usize];
                k.h = (k.h << 8) | self.h.rank(&mut k.st).min(255);
            }
        }
        if H::TIES && live > 1 {
            // Ties broken by the estimate's own order, larger `tie` first: the value kept in
            // `h` becomes (h, 255 - tie), compared as one number, and is not used again.
            for &i in order.iter() {
                let k = &mut kids[i as usize];
                k.h = (k.h << 8) | (255 - self.h.tie(geo, &k.p).min(255));
            }
        }
        for i in 1..live {
            let mut j = i;
            while j > 0 && kids[order[j] as usize].h < kids[order[j - 1] as usize].h {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        let mut first = 0;
        if self.retracing {
            match self.retrace(kids, order, g, n as u64) {
                Retraced::From(k) => first = k,
                Retraced::Found => return true,
                Retraced::Stopped => return false,
            }
        }
        if self.nodes >= self.next_check && self.check_limits() {
            return false;
        }
        for &i in order[first..].iter() {
            let k = &kids[i as usize];
            self.path.push(dir_of(k.dir));
            if deeper(g + 1, || self.go(&k.p, &k.st, g + 1, k.state)) {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
            self.path.pop();
        }
        false
    }
}

/// The search goes one call deeper a move, and a weighted search's path has no bound but
/// its threshold: at `--weight 30` a 6x6 board's path was thousands of moves deep and
/// overflowed a 2 MiB thread stack (the process aborted). So every this many moves the
/// stack is checked, and when less than [`STACK_RED_ZONE`] is left the search goes on in a
/// fresh segment of [`STACK_SEGMENT`]. Only nodes at these depths pay for the check: a
/// few nanoseconds, on a small share of the nodes.
const STACK_CHECKED_EVERY: u32 = 32;
/// Room for [`STACK_CHECKED_EVERY`] frames of the largest board, with a margin: a frame
/// holds four children's boards and estimate states, a few kB at most.
const STACK_RED_ZONE: usize = 1 << 20;
const STACK_SEGMENT: usize = 16 << 20;

/// Runs `search`, a recursive call for a node `g` moves deep, with room on the stack
/// (see [`STACK_CHECKED_EVERY`]).
#[inline(always)]
pub(crate) fn deeper<R>(g: u32, search: impl FnOnce() -> R) -> R {
    if g.is_multiple_of(STACK_CHECKED_EVERY) {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, search)
    } else {
        search()
    }
}

#[inline(always)]
fn dir_of(d: u8) -> Dir {
    Dir::ALL[d as usize]
}
