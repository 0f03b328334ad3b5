//! IDA* over a bit-packed board, generic over the heuristic and the board's packing.
//!
//! Boards up to 16 cells pack into one `u64`, four bits a cell ([`Packed`]); larger ones
//! (5x5, 6x6) keep a byte a cell ([`Wide`]). Each cell holds the *label* of its tile (the
//! tile's goal cell, see [`crate::board::Labels`]). The goal is then the same arrangement
//! for every goal, and a move is two cell writes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::board::{Dir, Labels, Shape, MAX_CELLS};

/// Cells a [`Packed`] board can hold.
pub const PACKED_CELLS: usize = 16;

/// How the search holds a board. Moving the blank is the hot operation, so each packing
/// makes it a couple of writes into a value that is copied, never shared.
pub trait Tiles: Copy + Send + Sync + PartialEq + std::fmt::Debug {
    /// The most cells this packing holds.
    const CAPACITY: usize;
    /// The board whose cell `c` holds `label_at(c)`, the blank in cell `blank`.
    fn from_fn(cells: usize, blank: usize, label_at: impl Fn(usize) -> usize) -> Self;
    /// The label in `cell`.
    fn get(&self, cell: usize) -> usize;
    /// The blank's cell.
    fn blank(&self) -> usize;
    /// The board after the blank (label `blank_label`) swaps with `label` in cell `to`.
    fn slide(&self, to: usize, label: usize, blank_label: usize) -> Self;
    /// A well-mixed hash of the board, to pick its slot in a [`Seen`] table.
    fn fingerprint(&self) -> u64;
}

/// Mixes 64 bits so that nearby boards land far apart (the finalizer of SplitMix64).
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A board of at most 16 cells in one word, with the blank's cell kept beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packed {
    pub cells: u64,
    pub blank: u8,
}

impl Packed {
    #[inline(always)]
    pub fn get(&self, cell: usize) -> usize {
        ((self.cells >> (4 * cell)) & 15) as usize
    }
}

impl Tiles for Packed {
    const CAPACITY: usize = PACKED_CELLS;
    fn from_fn(cells: usize, blank: usize, label_at: impl Fn(usize) -> usize) -> Packed {
        let mut w = 0u64;
        for c in 0..cells {
            w |= (label_at(c) as u64) << (4 * c);
        }
        Packed {
            cells: w,
            blank: blank as u8,
        }
    }
    #[inline(always)]
    fn get(&self, cell: usize) -> usize {
        Packed::get(self, cell)
    }
    #[inline(always)]
    fn blank(&self) -> usize {
        self.blank as usize
    }
    fn fingerprint(&self) -> u64 {
        mix(self.cells)
    }
    #[inline(always)]
    fn slide(&self, to: usize, label: usize, blank_label: usize) -> Packed {
        let x = (label ^ blank_label) as u64;
        Packed {
            cells: self.cells ^ (x << (4 * self.blank as usize)) ^ (x << (4 * to)),
            blank: to as u8,
        }
    }
}

/// A board of up to [`MAX_CELLS`] cells, a byte a cell. On 4x4 boards it runs as fast as
/// [`Packed`] (the `packing` benchmark); 4x4 keeps the one-word board, against which this
/// one is tested node for node (tests/large.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide {
    pub cells: [u8; MAX_CELLS],
    pub blank: u8,
}

impl Tiles for Wide {
    const CAPACITY: usize = MAX_CELLS;
    fn from_fn(cells: usize, blank: usize, label_at: impl Fn(usize) -> usize) -> Wide {
        let mut w = [0u8; MAX_CELLS];
        for (c, x) in w.iter_mut().enumerate().take(cells) {
            *x = label_at(c) as u8;
        }
        Wide {
            cells: w,
            blank: blank as u8,
        }
    }
    #[inline(always)]
    fn get(&self, cell: usize) -> usize {
        self.cells[cell] as usize
    }
    #[inline(always)]
    fn blank(&self) -> usize {
        self.blank as usize
    }
    /// For boards of up to 16 cells, the same as [`Packed`]'s: both packings then run the
    /// same search, down to the slots of a weighted search's [`Seen`] table.
    fn fingerprint(&self) -> u64 {
        let (first, rest) = self.cells.split_at(PACKED_CELLS);
        let lo = first
            .iter()
            .enumerate()
            .fold(0u64, |w, (c, &l)| w ^ (l as u64).rotate_left(4 * c as u32));
        let hi = rest
            .iter()
            .fold(0u64, |w, &l| w.wrapping_mul(37).wrapping_add(l as u64));
        if hi == 0 {
            mix(lo)
        } else {
            mix(lo ^ mix(hi))
        }
    }
    #[inline(always)]
    fn slide(&self, to: usize, label: usize, blank_label: usize) -> Wide {
        let mut w = *self;
        w.cells[self.blank as usize] = label as u8;
        w.cells[to] = blank_label as u8;
        w.blank = to as u8;
        w
    }
}

/// Fixed facts about a shape and goal blank that every move and heuristic needs.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub shape: Shape,
    pub cells: usize,
    pub blank_label: u8,
    /// `neighbor[cell][dir]`: the cell the blank reaches, or `NONE`.
    pub neighbor: [[u8; 4]; MAX_CELLS],
    /// `md[label][cell]`: Manhattan distance of that label at that cell (0 for the blank).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS],
}

pub const NONE: u8 = 255;

/// Rows plus columns of the longest-sided board (2x18).
const MAX_LINES: usize = 20;
/// The longest row or column.
const MAX_LINE: usize = 18;

impl Geometry {
    pub fn new(shape: Shape, blank_label: u8) -> Geometry {
        let cells = shape.cells();
        let mut neighbor = [[NONE; 4]; MAX_CELLS];
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        for c in 0..cells {
            for d in Dir::ALL {
                if let Some(n) = shape.step(c, d) {
                    neighbor[c][d as usize] = n as u8;
                }
            }
            for l in 0..cells {
                if l != blank_label as usize {
                    md[l][c] = shape.distance(l, c) as u8;
                }
            }
        }
        Geometry {
            shape,
            cells,
            blank_label,
            neighbor,
            md,
        }
    }

    /// The board in the packing `T`.
    ///
    /// # Panics
    /// If `T` cannot hold the shape.
    pub fn load<T: Tiles>(&self, l: &Labels) -> T {
        assert!(
            self.cells <= T::CAPACITY,
            "board too large for this packing"
        );
        T::from_fn(self.cells, l.blank_cell(), |c| l.cells[c] as usize)
    }

    /// The goal: cell `c` holds label `c`.
    pub fn goal<T: Tiles>(&self) -> T {
        T::from_fn(self.cells, self.blank_label as usize, |c| c)
    }

    /// Manhattan distance of a whole board.
    pub fn manhattan<T: Tiles>(&self, p: &T) -> u32 {
        (0..self.cells).map(|c| self.md[p.get(c)][c] as u32).sum()
    }

    /// Linear conflicts of one row (`is_row`) or column `line`: 2 for every tile that must
    /// leave the line so that the rest, all at home in this line, can pass each other.
    pub fn line_conflicts<T: Tiles>(&self, p: &T, is_row: bool, line: usize) -> u32 {
        let (rows, cols) = (self.shape.rows as usize, self.shape.cols as usize);
        let len = if is_row { cols } else { rows };
        // Goal positions along the line of the tiles that belong to it, in board order.
        let mut seq = [0u8; MAX_LINE];
        let mut k = 0;
        for i in 0..len {
            let cell = if is_row {
                line * cols + i
            } else {
                i * cols + line
            };
            let l = p.get(cell);
            if l == self.blank_label as usize {
                continue;
            }
            let (lr, lc) = (l / cols, l % cols);
            if is_row && lr == line {
                seq[k] = lc as u8;
                k += 1;
            } else if !is_row && lc == line {
                seq[k] = lr as u8;
                k += 1;
            }
        }
        // Longest increasing subsequence: those tiles may stay.
        let mut best = [0u8; MAX_LINE];
        let mut lis = 0;
        for i in 0..k {
            best[i] = 1;
            for j in 0..i {
                if seq[j] < seq[i] && best[j] + 1 > best[i] {
                    best[i] = best[j] + 1;
                }
            }
            lis = lis.max(best[i]);
        }
        2 * (k as u32 - lis as u32)
    }

    /// Linear conflict total of a whole board (without Manhattan distance).
    pub fn linear_conflict<T: Tiles>(&self, p: &T) -> u32 {
        let r: u32 = (0..self.shape.rows as usize)
            .map(|i| self.line_conflicts(p, true, i))
            .sum();
        let c: u32 = (0..self.shape.cols as usize)
            .map(|i| self.line_conflicts(p, false, i))
            .sum();
        r + c
    }
}

/// An admissible estimate of the moves left, updated incrementally along a path.
///
/// IDA* stays optimal only if `h` never overestimates the true distance to the goal; every
/// implementation here is a sum of lower bounds on disjoint sets of moves, or a max of such.
pub trait Heuristic: Sync {
    /// What a node carries so that a child's estimate costs little.
    type State: Copy + Send;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State;
    /// `p` is the board after `label` slid from cell `from` to cell `to`. May prefetch the
    /// memory that [`Heuristic::h`] will read.
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        parent: &Self::State,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> Self::State;
    fn h(&self, st: &mut Self::State) -> u32;
}

/// Manhattan distance, updated by one table lookup a move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Manhattan;

impl Heuristic for Manhattan {
    type State = u32;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        geo.manhattan(p)
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        md: &u32,
        _p: &T,
        l: usize,
        from: usize,
        to: usize,
    ) -> u32 {
        md + geo.md[l][to] as u32 - geo.md[l][from] as u32
    }
    fn h(&self, st: &mut u32) -> u32 {
        *st
    }
}

/// Manhattan distance plus linear conflicts; a move changes two lines, only those are
/// recounted.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinearConflict;

#[derive(Clone, Copy, Debug)]
pub struct LcState {
    md: u32,
    lc: u32,
    /// Conflicts of each row, then each column.
    lines: [u8; MAX_LINES],
}

impl Heuristic for LinearConflict {
    type State = LcState;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> LcState {
        let mut lines = [0u8; MAX_LINES];
        let rows = geo.shape.rows as usize;
        for r in 0..rows {
            lines[r] = geo.line_conflicts(p, true, r) as u8;
        }
        for c in 0..geo.shape.cols as usize {
            lines[rows + c] = geo.line_conflicts(p, false, c) as u8;
        }
        LcState {
            md: geo.manhattan(p),
            lc: lines.iter().map(|&x| x as u32).sum(),
            lines,
        }
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &LcState,
        p: &T,
        l: usize,
        from: usize,
        to: usize,
    ) -> LcState {
        let mut out = *s;
        out.md = s.md + geo.md[l][to] as u32 - geo.md[l][from] as u32;
        let rows = geo.shape.rows as usize;
        let (is_row, a, b) = if geo.shape.row(from) == geo.shape.row(to) {
            // Sideways: the tile changed column; its row keeps the same order.
            (false, geo.shape.col(from), geo.shape.col(to))
        } else {
            (true, geo.shape.row(from), geo.shape.row(to))
        };
        let off = if is_row { 0 } else { rows };
        for line in [a, b] {
            let v = geo.line_conflicts(p, is_row, line) as u8;
            out.lc = out.lc + v as u32 - out.lines[off + line] as u32;
            out.lines[off + line] = v;
        }
        out
    }
    fn h(&self, s: &mut LcState) -> u32 {
        s.md + s.lc
    }
}

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

/// How IDA* weighs the moves made against the estimate: `f = g_weight * g + h_weight * h`.
///
/// `Weight::ONE` is plain IDA*, optimal. With `h_weight > g_weight` (weighted IDA*) the
/// search dives towards the goal and may return a longer solution, but never longer than
/// `h_weight / g_weight` times the optimal length: along an optimal path every node has
/// `g + h <= C*` (h is admissible), so `f <= h_weight * C*`; the threshold therefore never
/// passes `h_weight * C*` without the search finding a solution, and a solution found under
/// threshold `T` has `g_weight * length <= T`. Integer weights keep that argument exact.
///
/// The same argument gives a lower bound after each iteration: the optimal length is at
/// least `ceil(next / h_weight)` (`next`: the smallest `f` over the threshold), rounded up to
/// the parity every solution shares. The next threshold is `h_weight` times that bound,
/// never beyond `h_weight * C*`, so the bound still holds; for plain IDA* this is the usual
/// `next`, while weighted thresholds climb by two moves at a time instead of by one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    pub g: u32,
    pub h: u32,
}

impl Weight {
    pub const ONE: Weight = Weight { g: 1, h: 1 };

    /// The largest fraction `h/g <= w` with `g <= 1000`, in lowest terms: rounding down only
    /// tightens the promise. `None` unless `1 <= w <= 100`.
    pub fn from_factor(w: f64) -> Option<Weight> {
        if !(1.0..=100.0).contains(&w) {
            return None;
        }
        let g = 1000u32;
        let h = ((w * g as f64).floor() as u32).max(g);
        let mut h = h;
        // Multiplying by 1000 may round up; the factor must not exceed w.
        while h > g && h as f64 / g as f64 > w {
            h -= 1;
        }
        let d = gcd(g, h);
        Some(Weight { g: g / d, h: h / d })
    }

    /// The factor `h/g`: solutions are at most this many times the optimal length.
    pub fn factor(self) -> f64 {
        self.h as f64 / self.g as f64
    }

    /// Whether this is plain, optimal IDA*.
    pub fn is_one(self) -> bool {
        self.g == self.h
    }

    /// The fewest moves an optimal solution can have once a threshold is known not to be
    /// exceeded by some node of every optimal path: `ceil(threshold / h_weight)`.
    pub fn moves_at_least(self, threshold: u32) -> u32 {
        threshold.div_ceil(self.h)
    }

    /// The threshold after an iteration whose smallest `f` over the threshold was `next`,
    /// for a start whose solutions all have length of parity `parity` (see above).
    pub fn next_threshold(self, next: u32, parity: u32) -> u32 {
        let mut moves = self.moves_at_least(next);
        if moves % 2 != parity {
            moves += 1;
        }
        moves * self.h
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Boards met so far in one IDA* iteration, with the fewest moves each was reached in.
///
/// Weighted IDA* leaves much room between `f` and the threshold, so it reaches the same
/// board along many paths and searches below it each time. A board met again with at least
/// as many moves has nothing new below it: every path on from it was, or is being, searched
/// from the earlier visit with more room. Cutting it keeps both promises of [`Weight`]: a
/// board on an optimal path, at its optimal distance, is never met with fewer moves, so it
/// is searched or cut in favour of an equal visit. One board a slot; a newer board takes
/// the slot, which only forgets.
pub struct Seen<T> {
    /// (board, moves, iteration stamp); stamp 0 marks an empty slot.
    slots: Vec<(T, u32, u32)>,
    stamp: u32,
    /// Boards recorded since the table last grew.
    recorded: usize,
}

impl<T: Tiles> Seen<T> {
    /// A small table: it grows with the search, so that easy searches never pay for a
    /// large one.
    pub fn new(empty: T) -> Seen<T> {
        Seen {
            slots: vec![(empty, 0, 0); 1 << SEEN_MIN_BITS],
            stamp: 1,
            recorded: 0,
        }
    }

    /// Forgets every board (a new iteration, with a new threshold).
    fn next_iteration(&mut self) {
        self.stamp += 1;
    }

    /// Records `p` at `g` moves; false if it was already met with `g` moves or fewer.
    #[inline]
    fn first_visit(&mut self, p: &T, g: u32) -> bool {
        let i = (p.fingerprint() as usize) & (self.slots.len() - 1);
        let slot = &mut self.slots[i];
        if slot.2 == self.stamp && slot.0 == *p && slot.1 <= g {
            return false;
        }
        *slot = (*p, g, self.stamp);
        self.recorded += 1;
        if self.recorded > 2 * self.slots.len() && self.slots.len() < 1 << SEEN_MAX_BITS {
            self.grow();
        }
        true
    }

    /// Doubles the table, keeping this iteration's boards.
    fn grow(&mut self) {
        let empty = (self.slots[0].0, 0, 0);
        let bigger = vec![empty; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for e in old.into_iter().filter(|e| e.2 == self.stamp) {
            self.slots[(e.0.fingerprint() as usize) & mask] = e;
        }
        self.recorded = 0;
    }
}

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

/// Finds a shortest path from `start` to the goal with iterative-deepening A*.
///
/// Optimal whenever `h` is admissible: each iteration explores every path with
/// `g + h <= threshold`, and the threshold rises to the smallest `f` that exceeded it, so
/// the first solution found is no longer than any other.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    ida_star_weighted(geo, h, start, Weight::ONE, limits, hook)
}

/// IDA* on `f = weight.g * g + weight.h * h`: with [`Weight::ONE`] the optimal search of
/// [`ida_star`]; with a larger `h` weight a faster one whose solution is at most
/// `weight.factor()` times optimal (see [`Weight`]).
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_weighted<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    let mut st = h.root(geo, &start);
    // Every move changes the Manhattan distance by one: all solutions share its parity.
    let parity = geo.manhattan(&start) % 2;
    let mut dfs = Dfs::new(geo, h, 0, limits, Vec::with_capacity(128));
    dfs.weight = weight;
    if !weight.is_one() {
        dfs.seen = Some(Seen::new(start));
    }
    dfs.threshold = weight.h * h.h(&mut st);
    let mut iterations = Vec::new();
    loop {
        dfs.next = u32::MAX;
        if let Some(seen) = &mut dfs.seen {
            seen.next_iteration();
        }
        dfs.nodes += 1;
        if start == geo.goal() {
            return Ok(Found {
                moves: vec![],
                lower_bound: 0,
                nodes: dfs.nodes,
                iterations,
            });
        }
        let found = dfs.go(start, st, 0, 4);
        if let Some(reason) = dfs.stopped {
            return Err(Stopped {
                reason,
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
            });
        }
        let it = Iteration {
            threshold: dfs.threshold,
            nodes: dfs.nodes,
        };
        iterations.push(it);
        if let Some(hook) = hook {
            hook(it);
        }
        if found {
            return Ok(Found {
                moves: dfs.path.clone(),
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
                iterations,
            });
        }
        if dfs.next == u32::MAX {
            // No node exceeded the threshold: the goal is unreachable (cannot happen for
            // checked boards, but never loop forever).
            return Err(Stopped {
                reason: StopReason::Interrupted,
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
            });
        }
        dfs.threshold = weight.next_threshold(dfs.next, parity);
    }
}

/// Slots of a weighted search's [`Seen`] table: from 2^12 up to 2^20 (40 MB for the
/// widest boards).
const SEEN_MIN_BITS: u32 = 12;
const SEEN_MAX_BITS: u32 = 20;

struct Dfs<'a, H: Heuristic, T: Tiles> {
    /// The goal board, compared against every child.
    goal: T,
    geo: &'a Geometry,
    h: &'a H,
    weight: Weight,
    threshold: u32,
    next: u32,
    nodes: u64,
    path: Vec<Dir>,
    limits: Limits<'a>,
    stopped: Option<StopReason>,
    /// Set by a parallel sibling that found the goal: stop without a result.
    halt: Option<&'a AtomicBool>,
    /// Nodes of all parallel siblings, for the node limit; `reported` is our share so far.
    shared: Option<&'a AtomicU64>,
    reported: u64,
    /// Limits are checked when `nodes` reaches this (every 65,536 nodes, or sooner when
    /// the node limit is nearer).
    next_check: u64,
    /// When splitting: nodes at this depth are collected instead of searched.
    collect_at: u32,
    /// Boards met in this iteration (weighted searches only).
    seen: Option<Seen<T>>,
    frontier: Vec<Frontier<T, H::State>>,
}

/// One subtree's search: nodes, smallest `f` over the threshold, solution, stop reason.
type SubtreeResult = (u64, u32, Option<Vec<Dir>>, Option<StopReason>);

/// A node at the split depth, with the moves that reach it.
struct Frontier<T, S> {
    p: T,
    st: S,
    g: u32,
    prev: u8,
    path: Vec<Dir>,
}

#[derive(Clone, Copy)]
struct Child<T, S> {
    p: T,
    st: S,
    dir: u8,
    h: u32,
}

impl<'a, H: Heuristic, T: Tiles> Dfs<'a, H, T> {
    fn new(
        geo: &'a Geometry,
        h: &'a H,
        threshold: u32,
        limits: Limits<'a>,
        path: Vec<Dir>,
    ) -> Self {
        Dfs {
            goal: geo.goal(),
            geo,
            h,
            weight: Weight::ONE,
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
            seen: None,
            frontier: Vec::new(),
        }
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

    /// Searches below `p` (reached with `g` moves, last move `prev`, 4 at the root).
    fn go(&mut self, p: T, st: H::State, g: u32, prev: u8) -> bool {
        if let Some(seen) = &mut self.seen {
            if !seen.first_visit(&p, g) {
                return false;
            }
        }
        if g == self.collect_at {
            self.frontier.push(Frontier {
                p,
                st,
                g,
                prev,
                path: self.path.clone(),
            });
            return false;
        }
        let geo = self.geo;
        let mut kids: [std::mem::MaybeUninit<Child<T, H::State>>; 4] =
            [std::mem::MaybeUninit::uninit(); 4];
        let mut n = 0;
        let b = p.blank();
        // Generate every child first so that their table entries are fetched together.
        for d in 0..4u8 {
            if d ^ 1 == prev {
                continue; // undoing the last move never helps
            }
            let to = geo.neighbor[b][d as usize];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let label = p.get(to);
            let cp = p.slide(to, label, geo.blank_label as usize);
            let cst = self.h.child(geo, &st, &cp, label, to, b);
            kids[n].write(Child {
                p: cp,
                st: cst,
                dir: d,
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
        for k in kids.iter_mut() {
            k.h = self.h.h(&mut k.st);
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
        let mut live = 0;
        for i in 0..n {
            let k = kids[i];
            let f = self.weight.g * (g + 1) + self.weight.h * k.h;
            if f > self.threshold {
                self.next = self.next.min(f);
                continue;
            }
            if k.p == self.goal {
                self.path.push(dir_of(k.dir));
                return true;
            }
            kids[live] = k;
            live += 1;
        }
        // Most promising first: only the last iteration's order matters, and there it
        // decides how soon the goal is met.
        let kids = &mut kids[..live];
        for i in 1..kids.len() {
            let mut j = i;
            while j > 0 && kids[j].h < kids[j - 1].h {
                kids.swap(j, j - 1);
                j -= 1;
            }
        }
        if self.nodes >= self.next_check && self.check_limits() {
            return false;
        }
        for k in kids.iter() {
            self.path.push(dir_of(k.dir));
            if self.go(k.p, k.st, g + 1, k.dir) {
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

#[inline(always)]
fn dir_of(d: u8) -> Dir {
    Dir::ALL[d as usize]
}

/// IDA* for one instance on every thread of `pool`.
///
/// Each iteration searches the top of the tree alone down to a depth that yields many more
/// subtrees than threads, then hands the subtrees to Rayon, whose work stealing balances
/// them. When a subtree holds a solution within the threshold, the others stop: it is
/// optimal, as every smaller threshold was exhausted. Every iteration but the last counts
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

/// [`ida_star_weighted`] on every thread of `pool`, split as [`ida_star_parallel`] does. A
/// subtree's solution within the threshold is within the weight's bound, whichever it is.
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
    use rayon::prelude::*;
    let mut st = h.root(geo, &start);
    let mut threshold = weight.h * h.h(&mut st);
    let parity = geo.manhattan(&start) % 2;
    let mut nodes = 0u64;
    let mut iterations = Vec::new();
    let shared = AtomicU64::new(0);
    let want = 64 * pool.current_num_threads().max(1);
    loop {
        nodes += 1;
        if start == geo.goal() {
            return Ok(Found {
                moves: vec![],
                lower_bound: 0,
                nodes,
                iterations,
            });
        }
        // The top of the tree, alone: deepen the split until there is enough work to share.
        let mut depth = 4;
        let mut top = loop {
            let mut dfs = Dfs {
                collect_at: depth,
                weight,
                ..Dfs::new(geo, h, threshold, limits, Vec::with_capacity(128))
            };
            let found = dfs.go(start, st, 0, 4);
            if let Some(reason) = dfs.stopped {
                return Err(Stopped {
                    reason,
                    lower_bound: weight.moves_at_least(threshold),
                    nodes: nodes + dfs.nodes,
                });
            }
            if found || dfs.frontier.len() >= want || weight.g * depth >= threshold {
                break (dfs, found);
            }
            depth += 2;
        };
        let (ref mut dfs, found) = top;
        nodes += dfs.nodes;
        shared.store(nodes, Ordering::Relaxed);
        if found {
            iterations.push(Iteration { threshold, nodes });
            return Ok(Found {
                moves: dfs.path.clone(),
                lower_bound: weight.moves_at_least(threshold),
                nodes,
                iterations,
            });
        }
        let halt = AtomicBool::new(false);
        let frontier = std::mem::take(&mut dfs.frontier);
        let mut next = dfs.next;
        // Each subtree: (nodes, smallest f over the threshold, solution, stop reason).
        let results: Vec<SubtreeResult> = pool.install(|| {
            frontier
                .into_par_iter()
                .map(|f| {
                    if halt.load(Ordering::Relaxed) {
                        return (0, u32::MAX, None, None);
                    }
                    let mut d = Dfs {
                        halt: Some(&halt),
                        shared: Some(&shared),
                        weight,
                        ..Dfs::new(geo, h, threshold, limits, f.path)
                    };
                    let found = d.go(f.p, f.st, f.g, f.prev);
                    if found {
                        halt.store(true, Ordering::Relaxed);
                        return (d.nodes, d.next, Some(d.path), None);
                    }
                    (d.nodes, d.next, None, d.stopped)
                })
                .collect()
        });
        let mut solution = None;
        let mut stop = None;
        for (n, nx, sol, stopped) in results {
            nodes += n;
            next = next.min(nx);
            if solution.is_none() {
                solution = sol;
            }
            // A sibling halted by another's limit says "interrupted"; the limit is the news.
            if stopped.is_some() && (stop.is_none() || stop == Some(StopReason::Interrupted)) {
                stop = stopped;
            }
        }
        if let Some(moves) = solution {
            let it = Iteration { threshold, nodes };
            iterations.push(it);
            if let Some(hook) = hook {
                hook(it);
            }
            return Ok(Found {
                moves,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
                iterations,
            });
        }
        if let Some(reason) = stop {
            return Err(Stopped {
                reason,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
            });
        }
        let it = Iteration { threshold, nodes };
        iterations.push(it);
        if let Some(hook) = hook {
            hook(it);
        }
        if next == u32::MAX {
            return Err(Stopped {
                reason: StopReason::Interrupted,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
            });
        }
        threshold = weight.next_threshold(next, parity);
    }
}
