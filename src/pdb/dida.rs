//! Dual search (DIDA*: Zahavi, Felner, Holte and Schaeffer, "Duality in permutation state
//! spaces and the dual search algorithm", AIJ 2008) over a partition's tables and their
//! dual tables ([`DualTables`]).
//!
//! Why it works here. A node is what is left of the problem: a board `A` (cell to label)
//! that must reach the identity, its blank being the label `β`. The dual of that problem
//! (see `dual.rs`) is the board `A⁻¹` (label to cell, read as a board) whose blank is the
//! label `c`, the cell `A`'s blank is on, and which must reach the identity too; both need
//! the same moves. Moving the blank of `A` grows the solution at its front; moving the
//! blank of `A⁻¹` grows it at its back (the same cells swapped, so the last move of the
//! solution, blank moving the other way). Every solution of the node starts with a move
//! of `A` and ends with a move of `A⁻¹`, so expanding either board's children misses no
//! solution: the search picks, at each node, the side whose estimate is larger, whose
//! children tend to have larger estimates too.
//!
//! A node keeps both boards; switching sides swaps them (and `β` with `c`), so it costs
//! nothing. The estimate of a side is the tables read for a goal blank `β` anywhere: the
//! pattern's own table when `β` is in its region, the dual tables otherwise
//! ([`DualTables`] already holds one for every cell), plus Manhattan distance. It is read
//! for both sides and their mirror images (four sums, each kept a nibble a pattern in one
//! word and updated only for the patterns a move touches), and the largest is the node's.
//!
//! The goal blank moves with the back of the solution, so the label the goal's blank had
//! at the start may be a tile of a node; it is in no pattern, so only its Manhattan
//! distance counts it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::board::{Dir, MAX_CELLS};
use crate::search::{Found, Iteration, Limits, Search, StopReason, Stopped, Tiles, NONE};

use super::heuristic::{nibble, nibble_sum, prefetch, set_nibble};
use super::DualTables;

/// No last move on a side yet.
const NO_MOVE: u8 = 4;

/// The dual search over one set of tables and their dual tables.
pub struct DualSearch<'a> {
    t: &'a DualTables,
    cells: usize,
    neighbor: [[u8; 4]; MAX_CELLS],
    dist: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The mirror (cell and label map), when the tables are read for the mirror image.
    mirror: Option<[u8; MAX_CELLS]>,
}

/// One node: both boards of the problem left, the blank label of the first, which side
/// the first is (0: the start's), the sums read so far and the last move on each side.
#[derive(Clone, Copy)]
struct Node {
    a: [u8; MAX_CELLS],
    w: [u8; MAX_CELLS],
    beta: u8,
    side: u8,
    md: u16,
    /// Nibble words: this side, its mirror image, the other side, its mirror image.
    q: [u32; 4],
    prev: [u8; 2],
}

impl Node {
    /// The blank's cell on this side.
    #[inline(always)]
    fn blank(&self) -> usize {
        self.w[self.beta as usize] as usize
    }

    /// The same node seen from the other side.
    #[inline(always)]
    fn flip(&mut self) {
        let c = self.blank() as u8;
        std::mem::swap(&mut self.a, &mut self.w);
        self.beta = c;
        self.side ^= 1;
        self.q = [self.q[2], self.q[3], self.q[0], self.q[1]];
    }
}

impl<'a> DualSearch<'a> {
    /// The search over `t` (its partition's tables and dual tables).
    pub fn new(t: &'a DualTables) -> DualSearch<'a> {
        let part = &t.pdb.partition;
        let shape = part.shape;
        let cells = shape.cells();
        let mut neighbor = [[NONE; 4]; MAX_CELLS];
        let mut dist = [[0u8; MAX_CELLS]; MAX_CELLS];
        for c in 0..cells {
            for d in Dir::ALL {
                if let Some(n) = shape.step(c, d) {
                    neighbor[c][d as usize] = n as u8;
                }
            }
            for (l, x) in dist.iter_mut().enumerate().take(cells) {
                x[c] = shape.distance(l, c) as u8;
            }
        }
        let mirror = t.pdb.use_mirror.then_some(t.pdb.mirror_map);
        DualSearch {
            t,
            cells,
            neighbor,
            dist,
            mirror,
        }
    }

    /// The entry of pattern `k` for the problem whose goal blank is `gb` and whose tile
    /// `l` sits on `pos(l)`; 0 when no table serves that goal blank.
    #[inline(always)]
    fn entry(&self, k: usize, gb: usize, pos: impl Fn(usize) -> u8) -> u32 {
        let src = self.t.src[k][gb];
        if src == 255 {
            return 0;
        }
        let h = &*self.t.pdb;
        let tiles = &h.partition.patterns[k];
        let mut buf = [0u8; MAX_CELLS];
        let mut len = 0;
        for &t in tiles {
            if t as usize != gb {
                buf[len] = pos(t as usize);
                len += 1;
            }
        }
        let ranker = if len == tiles.len() {
            &h.rankers[k]
        } else {
            &self.t.short[k]
        };
        let idx = ranker.rank(&buf[..len]) as u32;
        let bytes = self.t.payload(k, gb);
        prefetch(bytes, idx);
        nibble(bytes, idx)
    }

    /// Re-reads, in quadrant `q` of `n`, the patterns in `pats` (bits).
    #[inline(always)]
    fn update(&self, n: &mut Node, q: usize, mut pats: u32) {
        while pats != 0 {
            let k = pats.trailing_zeros() as usize;
            pats &= pats - 1;
            let v = match (q, &self.mirror) {
                (0, _) => self.entry(k, n.beta as usize, |l| n.w[l]),
                (2, _) => {
                    let c = n.blank();
                    self.entry(k, c, |l| n.a[l])
                }
                (1, Some(m)) => self.entry(k, m[n.beta as usize] as usize, |l| {
                    m[n.w[m[l] as usize] as usize]
                }),
                (3, Some(m)) => {
                    let c = n.blank();
                    self.entry(k, m[c] as usize, |l| m[n.a[m[l] as usize] as usize])
                }
                _ => 0,
            };
            n.q[q] = set_nibble(n.q[q], k, v);
        }
    }

    /// The pattern of label `l`, as a bit (0 for none).
    #[inline(always)]
    fn bit(&self, l: usize) -> u32 {
        match self.t.pdb.pat_of[l] {
            255 => 0,
            k => 1 << k,
        }
    }

    /// The mirror image of cell or label `x` (itself without a mirror).
    #[inline(always)]
    fn m(&self, x: usize) -> usize {
        self.mirror.map_or(x, |m| m[x] as usize)
    }

    /// The estimate of this side, of the other side.
    #[inline(always)]
    fn sides(n: &Node) -> (u32, u32) {
        let s0 = nibble_sum(n.q[0]).max(nibble_sum(n.q[1]));
        let s1 = nibble_sum(n.q[2]).max(nibble_sum(n.q[3]));
        (n.md as u32 + 2 * s0, n.md as u32 + 2 * s1)
    }

    /// The four estimates of `start` (labels on cells, the goal's blank labelled
    /// `blank_label`): the tables for the board, for its mirror image, for its dual and
    /// for the dual's mirror image (each with Manhattan distance; the mirror's are the
    /// plain ones' without a mirror). The search takes the largest; tests compare them
    /// with [`super::Patterns`] and [`super::Dual`].
    pub fn estimates<T: Tiles>(&self, start: &T, blank_label: usize) -> [u32; 4] {
        let n = self.root(start, blank_label);
        n.q.map(|w| n.md as u32 + 2 * nibble_sum(w))
    }

    /// The root node of `start` (labels on cells, the goal blank `blank_label`).
    fn root<T: Tiles>(&self, start: &T, blank_label: usize) -> Node {
        let mut n = Node {
            a: [0; MAX_CELLS],
            w: [0; MAX_CELLS],
            beta: blank_label as u8,
            side: 0,
            md: 0,
            q: [0; 4],
            prev: [NO_MOVE; 2],
        };
        for c in 0..self.cells {
            let l = start.get(c);
            n.a[c] = l as u8;
            n.w[l] = c as u8;
            if l != blank_label {
                n.md += self.dist[l][c] as u16;
            }
        }
        let all = (1u32 << self.t.pdb.tables.len()) - 1;
        for q in 0..4 {
            self.update(&mut n, q, all);
        }
        n
    }

    /// The child of `n` with the blank moved in direction `d` to cell `to`, its estimate of
    /// this side read (the other side's is read by [`DualSearch::finish`]).
    #[inline(always)]
    fn child(&self, n: &Node, d: u8, to: usize) -> Node {
        let mut k = *n;
        let c = n.blank();
        let l = n.a[to] as usize;
        k.a[c] = l as u8;
        k.a[to] = n.beta;
        k.w[l] = c as u8;
        k.w[n.beta as usize] = to as u8;
        k.md = (n.md as u32 + self.dist[l][c] as u32 - self.dist[l][to] as u32) as u16;
        k.prev[n.side as usize] = d;
        self.update(&mut k, 0, self.bit(l));
        if self.mirror.is_some() {
            self.update(&mut k, 1, self.bit(self.m(l)));
        }
        k
    }

    /// Reads the other side's entries that the move into `k` changed (cells `from`, `to`).
    #[inline(always)]
    fn finish(&self, k: &mut Node, from: usize, to: usize) {
        self.update(k, 2, self.bit(from) | self.bit(to));
        if self.mirror.is_some() {
            self.update(k, 3, self.bit(self.m(from)) | self.bit(self.m(to)));
        }
    }
}

/// The moves of a solution so far: those of the start's side, and those of the other
/// (the end of the solution, last first, as the other board's blank moved).
#[derive(Clone, Default)]
struct Path {
    front: Vec<u8>,
    back: Vec<u8>,
}

impl Path {
    fn push(&mut self, side: u8, d: u8) {
        if side == 0 {
            self.front.push(d)
        } else {
            self.back.push(d)
        }
    }
    fn pop(&mut self, side: u8) {
        if side == 0 {
            self.front.pop();
        } else {
            self.back.pop();
        }
    }
    /// The solution: the front, then the back read backwards with each move reversed.
    fn moves(&self) -> Vec<Dir> {
        let back = self.back.iter().rev().map(|&d| d ^ 1);
        self.front
            .iter()
            .copied()
            .chain(back)
            .map(|d| Dir::ALL[d as usize])
            .collect()
    }
}

/// One iteration's depth-first search on one thread.
struct Dfs<'s> {
    s: &'s DualSearch<'s>,
    threshold: u32,
    next: u32,
    nodes: u64,
    path: Path,
    limits: Limits<'s>,
    halt: &'s AtomicBool,
    shared: &'s AtomicU64,
    reported: u64,
    next_check: u64,
    stopped: Option<StopReason>,
    /// When collecting the top of the tree: nodes at this depth are kept, not searched.
    collect_at: u32,
    frontier: Vec<(Node, u32, Path)>,
}

impl Dfs<'_> {
    fn check_limits(&mut self) -> bool {
        let total = self
            .shared
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed)
            + self.nodes
            - self.reported;
        self.reported = self.nodes;
        self.next_check = self.nodes + 0x10000;
        if self.halt.load(Ordering::Relaxed) {
            self.stopped = Some(StopReason::Interrupted);
        }
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

    /// Searches below `n` (reached with `g` moves); true when the goal was met.
    fn go(&mut self, mut n: Node, g: u32) -> bool {
        if g == self.collect_at {
            self.frontier.push((n, g, self.path.clone()));
            return false;
        }
        let (h0, h1) = DualSearch::sides(&n);
        if h1 > h0 {
            n.flip();
        }
        let s = self.s;
        let side = n.side as usize;
        let b = n.blank();
        let mut kids: [(Node, u32); 4] = [(n, 0); 4];
        let mut count = 0;
        for d in 0..4u8 {
            if n.prev[side] != NO_MOVE && d ^ 1 == n.prev[side] {
                continue;
            }
            let to = s.neighbor[b][d as usize];
            if to == NONE {
                continue;
            }
            kids[count] = (s.child(&n, d, to as usize), d as u32);
            count += 1;
        }
        self.nodes += count as u64;
        let kids = &mut kids[..count];
        let mut hmax = 0;
        let mut live = 0;
        for i in 0..kids.len() {
            let (mut k, d) = kids[i];
            let (h, _) = DualSearch::sides(&k);
            let mut h = h;
            if g + 1 + h <= self.threshold {
                s.finish(&mut k, b, s.neighbor[b][d as usize] as usize);
                let (h0, h1) = DualSearch::sides(&k);
                h = h0.max(h1);
            }
            hmax = hmax.max(h);
            if g + 1 + h > self.threshold {
                self.next = self.next.min(g + 1 + h);
                continue;
            }
            if k.md == 0 {
                self.path.push(n.side, d as u8);
                return true;
            }
            kids[live] = (k, h);
            live += 1;
        }
        // Bidirectional pathmax: a child proves this node at least `hmax - 1` away.
        if hmax > 0 && g + hmax - 1 > self.threshold {
            self.next = self.next.min(g + hmax - 1);
            return false;
        }
        let kids = &mut kids[..live];
        kids.sort_by_key(|k| k.1);
        if self.nodes >= self.next_check && self.check_limits() {
            return false;
        }
        for &(k, _) in kids.iter() {
            let d = k.prev[side];
            self.path.push(n.side, d);
            if self.go(k, g + 1) {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
            self.path.pop(n.side);
        }
        false
    }
}

/// How many subtrees the top of each iteration is cut into, at least, per thread.
const SUBTREES_PER_THREAD: usize = 64;

/// What one iteration ends with: the solution, the next threshold, why it stopped, and
/// the nodes it generated.
type Ended = (Option<Vec<Dir>>, u32, Option<StopReason>, u64);

/// What the threads of one split iteration gather: the earliest subtree's solution (its
/// place in the serial order with it), the next threshold, a stop, and their nodes.
type Gathered = (Option<(usize, Vec<Dir>)>, u32, Option<StopReason>, u64);

impl DualSearch<'_> {
    /// Finds an optimal solution from `start` (labels on cells, the goal's blank labelled
    /// `blank_label`) with the dual search, as `search` says for limits, progress and
    /// threads (its pool: each iteration's subtrees taken in the serial order; its weight
    /// and checkpoints are not used).
    ///
    /// # Errors
    /// A limit reached first, with the lower bound proven.
    pub fn solve<T: Tiles>(
        &self,
        start: &T,
        blank_label: usize,
        search: &Search,
    ) -> Result<Found, Stopped> {
        let root = self.root(start, blank_label);
        let (h0, h1) = DualSearch::sides(&root);
        let mut threshold = h0.max(h1);
        let mut iterations = Vec::new();
        let shared = AtomicU64::new(0);
        let mut nodes = 1u64;
        if root.md == 0 {
            return Ok(Found {
                moves: Vec::new(),
                lower_bound: 0,
                nodes,
                iterations,
            });
        }
        let threads = search.pool.map_or(1, |p| p.current_num_threads());
        let mut depth;
        loop {
            // The top is cut afresh each iteration, at the first depth that gives enough
            // subtrees: a depth kept from a narrow iteration would make the next one's top
            // (searched whole, while the last iteration stops at its first solution) most
            // of the tree.
            depth = 1;
            let halt = AtomicBool::new(false);
            let (found, next, stopped, it_nodes) = if threads == 1 {
                let mut dfs = self.dfs(threshold, search, &halt, &shared, u32::MAX);
                let f = dfs.go(root, 0);
                (
                    f.then(|| dfs.path.moves()),
                    dfs.next,
                    dfs.stopped,
                    dfs.nodes,
                )
            } else {
                self.parallel(root, threshold, threads, search, &halt, &shared, &mut depth)
            };
            nodes += it_nodes;
            let it = Iteration { threshold, nodes };
            if let Some(moves) = found {
                iterations.push(it);
                if let Some(hook) = search.on_iteration {
                    hook(it);
                }
                return Ok(Found {
                    moves,
                    lower_bound: threshold,
                    nodes,
                    iterations,
                });
            }
            if let Some(reason) = stopped {
                return Err(Stopped {
                    reason,
                    lower_bound: threshold,
                    nodes,
                });
            }
            if next == u32::MAX {
                // Nothing left below any threshold: the goal is out of reach.
                return Err(Stopped {
                    reason: StopReason::Interrupted,
                    lower_bound: threshold,
                    nodes,
                });
            }
            iterations.push(it);
            if let Some(hook) = search.on_iteration {
                hook(it);
            }
            threshold = next;
        }
    }

    fn dfs<'s>(
        &'s self,
        threshold: u32,
        search: &Search<'s>,
        halt: &'s AtomicBool,
        shared: &'s AtomicU64,
        collect_at: u32,
    ) -> Dfs<'s> {
        Dfs {
            s: self,
            threshold,
            next: u32::MAX,
            nodes: 0,
            path: Path::default(),
            limits: search.limits,
            halt,
            shared,
            reported: 0,
            next_check: 0,
            stopped: None,
            collect_at,
            frontier: Vec::new(),
        }
    }

    /// One iteration on the pool's threads: the top of the tree cut at the first depth
    /// (from `depth` on) that gives enough subtrees, each thread taking the next one in the
    /// serial order when free.
    #[allow(clippy::too_many_arguments)]
    fn parallel(
        &self,
        root: Node,
        threshold: u32,
        threads: usize,
        search: &Search,
        halt: &AtomicBool,
        shared: &AtomicU64,
        depth: &mut u32,
    ) -> Ended {
        let mut nodes = 0;
        let mut next = u32::MAX;
        let frontier = loop {
            let mut top = self.dfs(threshold, search, halt, shared, *depth);
            let found = top.go(root, 0);
            nodes += top.nodes;
            if found || top.stopped.is_some() {
                return (
                    found.then(|| top.path.moves()),
                    top.next,
                    top.stopped,
                    nodes,
                );
            }
            if top.frontier.len() >= threads * SUBTREES_PER_THREAD
                || top.frontier.is_empty()
                || *depth >= threshold
            {
                next = next.min(top.next);
                break top.frontier;
            }
            *depth += 1;
        };
        let taken = AtomicUsize::new(0);
        let out: Mutex<Gathered> = Mutex::new((None, next, None, nodes));
        let pool = search.pool.expect("a pool when threads > 1");
        pool.scope(|sc| {
            for _ in 0..threads {
                sc.spawn(|_| {
                    let mut dfs = self.dfs(threshold, search, halt, shared, u32::MAX);
                    let mut found = None;
                    loop {
                        let i = taken.fetch_add(1, Ordering::Relaxed);
                        if i >= frontier.len() || dfs.stopped.is_some() {
                            break;
                        }
                        let (n, g, path) = &frontier[i];
                        dfs.path = path.clone();
                        if dfs.go(*n, *g) {
                            found = Some((i, dfs.path.moves()));
                            halt.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    let mut o = out.lock().expect("no thread panics holding it");
                    if let Some((i, m)) = found {
                        if o.0.as_ref().is_none_or(|(j, _)| i < *j) {
                            o.0 = Some((i, m));
                        }
                    }
                    o.1 = o.1.min(dfs.next);
                    if dfs.stopped != Some(StopReason::Interrupted) || !halt.load(Ordering::Relaxed)
                    {
                        o.2 = o.2.or(dfs.stopped);
                    }
                    o.3 += dfs.nodes;
                });
            }
        });
        let (found, next, stopped, nodes) = out.into_inner().expect("no thread panics holding it");
        match found {
            Some((_, m)) => (Some(m), next, None, nodes),
            None => (None, next, stopped, nodes),
        }
    }
}
