//! The backward breadth-first search itself: per placement of the pattern's tiles, a mask
//! of the blank cells reached, one layer at a time, in parallel over chunks of placements.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::rank::Ranker;

use super::grid::{compress, expand, prefetch_slot, Grid};
use super::{BuildEvent, Built};
use crate::pdb::partition::PatternSpec;

/// Per placement: the blank cells seen so far and those reached in the layer being built,
/// side by side in one atomic word so that a successor costs one cache miss. Masks are
/// compressed to the cells the pattern leaves free (8 bits for an 8-tile 4x4 pattern).
pub(super) trait Slot: Send + Sync + Sized {
    /// The plain integer of the same size, which the arrays are allocated as.
    type Raw: Copy + Send + Sync + Default;
    /// The current layer's mask, stored apart and read in order.
    type Cur: Copy + Send + Sync + Default + Into<u64>;
    const BITS: u32;
    /// The slots of `raw`, seen as atomics for the expansion, when any task may add to
    /// any slot.
    fn atomic(raw: &mut [Self::Raw]) -> &[Self];
    fn get(&self) -> u64;
    fn or(&self, v: u64);
    /// A slot as a plain word, and back: for the closing pass, which owns its chunk.
    fn widen(raw: Self::Raw) -> u64;
    fn narrow(v: u64) -> Self::Raw;
    fn cur(v: u64) -> Self::Cur;
    /// Which of up to 64 entries of `cur` are not empty, as bits.
    fn nonzero(cur: &[Self::Cur]) -> u64;
    /// Closes up to 64 slots of a layer (no other task touches them): the newly reached
    /// cells become the current layer and join the seen ones. Returns the entries reached
    /// for the first time, as bits, and how many cells were new.
    fn close(raw: &mut [Self::Raw], cur: &mut [Self::Cur]) -> (u64, u64);
}

macro_rules! slot {
    ($a:ty, $t:ty, $c:ty, $bits:expr) => {
        impl Slot for $a {
            type Raw = $t;
            type Cur = $c;
            const BITS: u32 = $bits;
            fn atomic(raw: &mut [$t]) -> &[$a] {
                // SAFETY: the atomic has the size, alignment and bit validity of the
                // integer; the exclusive borrow of `raw` lasts as long as the view.
                unsafe { std::slice::from_raw_parts(raw.as_mut_ptr() as *const $a, raw.len()) }
            }
            #[inline(always)]
            fn get(&self) -> u64 {
                self.load(Ordering::Relaxed) as u64
            }
            #[inline(always)]
            fn or(&self, v: u64) {
                self.fetch_or(v as $t, Ordering::Relaxed);
            }
            #[inline(always)]
            fn widen(raw: $t) -> u64 {
                raw as u64
            }
            #[inline(always)]
            fn narrow(v: u64) -> $t {
                v as $t
            }
            #[inline(always)]
            fn cur(v: u64) -> $c {
                v as $c
            }
            #[inline(always)]
            fn nonzero(cur: &[$c]) -> u64 {
                let mut bits = 0u64;
                for (i, &c) in cur.iter().enumerate() {
                    bits |= ((c != 0) as u64) << i;
                }
                bits
            }
            #[inline(always)]
            fn close(raw: &mut [$t], cur: &mut [$c]) -> (u64, u64) {
                // Blocks with nothing reached keep their cache lines clean.
                if raw.iter().fold(0, |a, &s| a | s >> $bits) == 0 {
                    if cur.iter().fold(0, |a, &c| a | c) != 0 {
                        cur.fill(0);
                    }
                    return (0, 0);
                }
                let mut firsts = 0u64;
                let mut cells = 0u32;
                for (i, (r, c)) in raw.iter_mut().zip(cur.iter_mut()).enumerate() {
                    let seen = *r as $c;
                    let new = (*r >> $bits) as $c & !seen;
                    *c = new;
                    *r = (seen | new) as $t;
                    cells += new.count_ones();
                    firsts |= (((seen == 0) & (new != 0)) as u64) << i;
                }
                (firsts, cells as u64)
            }
        }
    };
}
slot!(AtomicU16, u16, u8, 8);
slot!(AtomicU32, u32, u16, 16);
slot!(AtomicU64, u64, u32, 32);

/// A zeroed array for the search, its pages asked for as 2 MB huge pages: the expansion
/// reads and writes it at random, and with 4 kB pages nearly every access missed the TLB.
fn zeroed<T: Copy + Default>(n: usize) -> Vec<T> {
    // `vec!` of zeros is calloc, whose large blocks are fresh untouched pages: the advice
    // comes before any page exists.
    let v = vec![T::default(); n];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (v.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (v.as_ptr() as usize + std::mem::size_of_val(&v[..])) & !(HUGE - 1);
        if end > start {
            // SAFETY: advice only, on whole pages inside our own allocation.
            unsafe { libc::madvise(start as *mut _, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    v
}

/// Walks placements in rank order and keeps what the expansion reads of the current one
/// (each tile's cell, the occupied cells, the tile on each cell) up to date: stepping to
/// the next rank usually moves the last tile only, and nearby ranks are reached by
/// stepping, far ones by decomposing the rank.
struct Cursor<'a> {
    ranker: &'a Ranker,
    k: usize,
    /// The board's cells.
    n: usize,
    all: u64,
    /// The rank the fields describe; `u64::MAX` before the first seek.
    at: u64,
    digits: [u8; 32],
    /// Each tile's cell.
    pos: [u8; 32],
    /// `used[i]`: the cells of tiles `0..i`; `used[k]` is every tile's.
    used: [u64; 33],
    /// Per cell, the tile on it, or `k` (no tile).
    tile_at: [u8; 64],
}

impl<'a> Cursor<'a> {
    fn new(ranker: &'a Ranker, all: u64) -> Cursor<'a> {
        Cursor {
            ranker,
            k: ranker.tiles(),
            n: all.count_ones() as usize,
            all,
            at: u64::MAX,
            digits: [0; 32],
            pos: [0; 32],
            used: [0; 33],
            tile_at: [ranker.tiles() as u8; 64],
        }
    }

    /// The cells of every tile.
    #[inline(always)]
    fn occupied(&self) -> u64 {
        self.used[self.k]
    }

    /// Places tiles `from..k` from their digits.
    #[inline(always)]
    fn place<const PEXT: bool>(&mut self, from: usize) {
        if self.at != u64::MAX {
            for i in from..self.k {
                self.tile_at[self.pos[i] as usize] = self.k as u8;
            }
        }
        for i in from..self.k {
            let bit = expand::<PEXT>(1u64 << self.digits[i], self.all & !self.used[i]);
            self.pos[i] = bit.trailing_zeros() as u8;
            self.tile_at[self.pos[i] as usize] = i as u8;
            self.used[i + 1] = self.used[i] | bit;
        }
    }

    /// Moves to the placement of rank `idx`.
    #[inline(always)]
    fn seek<const PEXT: bool>(&mut self, idx: u64) {
        let k = self.k;
        if self.at != u64::MAX && self.at <= idx && idx - self.at <= 16 {
            let last = k - 1;
            let room = (self.n - last) as u64 - self.digits[last] as u64;
            if idx - self.at < room {
                // Only the last tile moves.
                self.digits[last] += (idx - self.at) as u8;
                self.place::<PEXT>(last);
            } else {
                while self.at < idx {
                    // The next rank: the last digit steps, with carries (digit `i` counts
                    // the cells tiles `0..i` leave, `n - i` of them).
                    let mut i = last;
                    loop {
                        self.digits[i] += 1;
                        if (self.digits[i] as usize) < self.n - i || i == 0 {
                            break;
                        }
                        self.digits[i] = 0;
                        i -= 1;
                    }
                    self.place::<PEXT>(i);
                    self.at += 1;
                }
            }
        } else {
            self.ranker.digits(idx, &mut self.digits[..k]);
            self.place::<PEXT>(0);
        }
        self.at = idx;
    }
}

/// What every task of one BFS shares.
struct Bfs<'a> {
    spec: &'a PatternSpec,
    ranker: Ranker,
    grid: Grid,
    count: usize,
    /// Which chunks hold any state of the next layer: sparse layers skip the rest.
    next_active: Vec<AtomicU8>,
    clamped: AtomicU64,
    /// Per tile, its Manhattan distance from each cell.
    home: [[u8; 32]; 32],
    /// The pattern's tiles.
    k: usize,
    /// Successors mark the blank's cell only, not its region (no region table: boards
    /// over 16 cells); the closing pass fills the regions in.
    cells_only: bool,
    /// `step[i][t]`: what tile `i` jumping over tile `t` adds to the rank (wrapping): the
    /// weight of `t` for a later tile, minus `i`'s own for an earlier one; `step[i][k]`
    /// (no tile there) is 0 and `step[i][i]` is `i`'s weight.
    step: [[u64; 33]; 32],
}

const CHUNK: usize = 1 << 14;

/// Successors waiting for their slot's cache line: each is marked this many successors
/// after it was found (and its line prefetched), so that some twenty misses overlap
/// instead of the few of one placement.
const IN_FLIGHT: usize = 24;
const RING: usize = 32;

/// Runs `f` compiled for BMI2 and POPCNT when `PEXT` says the CPU has them: the ranks'
/// population counts and the masks' pext/pdep are then single instructions.
#[inline(always)]
fn with_bmi2<const PEXT: bool, R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        #[target_feature(enable = "bmi2,popcnt")]
        unsafe fn run<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        // SAFETY: PEXT is only true when the CPU was checked to have BMI2 and POPCNT.
        return unsafe { run(f) };
    }
    f()
}

/// A successor found but not marked yet: its slot, the cell the blank took, the free cells.
#[derive(Clone, Copy, Default)]
struct Pending {
    slot: usize,
    from: usize,
    free: u64,
}

impl Bfs<'_> {
    /// Expands the current layer's states in one chunk: every pattern tile next to the
    /// blank's region slides into it, and the blank cells reachable afterwards are marked
    /// in the successor's next-layer mask.
    #[inline(always)]
    fn expand_chunk<S: Slot, const PEXT: bool>(&self, slots: &[S], cur: &[S::Cur], ci: usize) {
        let grid = &self.grid;
        let cols = grid.cols;
        let lo = ci * CHUNK;
        let hi = (lo + CHUNK).min(self.count);
        let mut cursor = Cursor::new(&self.ranker, grid.all);
        let mut ring = [Pending::default(); RING];
        let (mut found, mut marked) = (0usize, 0usize);
        // Hands a successor to the ring, marking the one found `IN_FLIGHT` before it. A
        // macro rather than a closure: a closure is compiled apart, without the BMI2 and
        // POPCNT of the function it sits in, and then calls `pext` and counts bits by hand.
        macro_rules! push {
            ($slot:expr, $from:expr, $free:expr) => {{
                let (slot, from, free) = ($slot, $from, $free);
                prefetch_slot(&slots[slot]);
                ring[found % RING] = Pending { slot, from, free };
                found += 1;
                if found - marked > IN_FLIGHT {
                    self.mark::<S, PEXT>(slots, ring[marked % RING]);
                    marked += 1;
                }
            }};
        }
        for block in (lo..hi).step_by(64) {
            let end = (block + 64).min(hi);
            let mut live = S::nonzero(&cur[block..end]);
            while live != 0 {
                let idx = block + live.trailing_zeros() as usize;
                live &= live - 1;
                let m: u64 = cur[idx].into();
                cursor.seek::<PEXT>(idx as u64);
                let occ = cursor.occupied();
                let free = grid.all & !occ;
                let region = expand::<PEXT>(m, free);
                // The pattern tiles next to the blank's region slide into it; the blank
                // takes their cell. A move along a row changes the rank by the tile's
                // weight, up or down.
                let left = occ & (region << 1) & grid.not_first_col;
                let right = occ & (region >> 1) & grid.not_last_col;
                let mut along = left | right << 32;
                while along != 0 {
                    let bit = along.trailing_zeros() as usize;
                    along &= along - 1;
                    let from = bit & 31;
                    let to = if bit < 32 { from - 1 } else { from + 1 };
                    let i = cursor.tile_at[from] as usize;
                    let w = self.step[i][i] as usize;
                    let j = if bit < 32 { idx - w } else { idx + w };
                    let free2 = free ^ (1 << from) ^ (1 << to);
                    grid.prefetch_region(from, free2);
                    push!(j, from, free2);
                }
                // A move along a column also jumps over the cells between: one more step
                // in the digit of each later tile there, one step less of the tile's own
                // for each earlier tile (`step` holds both).
                let up = occ & (region << cols) & grid.all;
                let down = occ & (region >> cols);
                let mut across = up | down << 32;
                while across != 0 {
                    let bit = across.trailing_zeros() as usize;
                    across &= across - 1;
                    let from = bit & 31;
                    let (to, a) = if bit < 32 {
                        (from - cols, from - cols)
                    } else {
                        (from + cols, from)
                    };
                    let i = cursor.tile_at[from] as usize;
                    let step = &self.step[i];
                    let mut delta = cols as u64 * step[i];
                    for c in a + 1..a + cols {
                        delta = delta.wrapping_add(step[cursor.tile_at[c] as usize]);
                    }
                    let j = if bit < 32 {
                        idx - delta as usize
                    } else {
                        idx + delta as usize
                    };
                    debug_assert_eq!(j as u64, {
                        let mut pos = cursor.pos;
                        pos[i] = to as u8;
                        self.ranker.rank(&pos[..self.k])
                    });
                    let free2 = free ^ (1 << from) ^ (1 << to);
                    grid.prefetch_region(from, free2);
                    push!(j, from, free2);
                }
            }
        }
        while marked < found {
            self.mark::<S, PEXT>(slots, ring[marked % RING]);
            marked += 1;
        }
    }

    /// Adds the blank cells a successor reaches to its next-layer mask (when new).
    #[inline(always)]
    fn mark<S: Slot, const PEXT: bool>(&self, slots: &[S], p: Pending) {
        let reach = if self.cells_only {
            // The cell alone: its region is filled in when the layer is closed, once per
            // placement rather than once per successor.
            1u64 << (p.free & ((1u64 << p.from) - 1)).count_ones()
        } else {
            compress::<PEXT>(self.grid.region(p.from, p.free), p.free)
        };
        let slot = &slots[p.slot];
        let s = slot.get();
        if (s | (s >> S::BITS)) & reach != reach {
            slot.or(reach << S::BITS);
            let a = &self.next_active[p.slot / CHUNK];
            if a.load(Ordering::Relaxed) == 0 {
                a.store(1, Ordering::Relaxed);
            }
        }
    }

    /// Closes one chunk's layer: keeps only the newly reached blank cells as the next
    /// current layer and writes the entries of placements reached for the first time.
    /// Returns (states new, placements first reached).
    #[inline(always)]
    fn merge_chunk<S: Slot, const PEXT: bool>(
        &self,
        ci: usize,
        depth: u32,
        bytes: &mut [u8],
        slots: &mut [S::Raw],
        cur: &mut [S::Cur],
    ) -> (u64, u64) {
        let k = self.spec.tiles.len();
        let lo = ci * CHUNK;
        let mut firsts = 0;
        let mut states = 0;
        let mut cursor = Cursor::new(&self.ranker, self.grid.all);
        let mut filler = Cursor::new(&self.ranker, self.grid.all);
        for (b, (raw, cur)) in slots.chunks_mut(64).zip(cur.chunks_mut(64)).enumerate() {
            if self.cells_only {
                // The successors marked single cells: grow them to their regions (the
                // seen cells are whole regions already, so a new cell's region is new).
                for (i, r) in raw.iter_mut().enumerate() {
                    let v = S::widen(*r);
                    let seen = v & ((1u64 << S::BITS) - 1);
                    let new = (v >> S::BITS) & !seen;
                    if new == 0 {
                        continue;
                    }
                    filler.seek::<PEXT>((lo + b * 64 + i) as u64);
                    let free = self.grid.all & !filler.occupied();
                    let region = self.grid.flood(expand::<PEXT>(new, free), free);
                    *r = S::narrow(seen | compress::<PEXT>(region, free) << S::BITS);
                }
            }
            let (mut first, new) = S::close(raw, cur);
            states += new;
            firsts += first.count_ones() as u64;
            while first != 0 {
                let off = b * 64 + first.trailing_zeros() as usize;
                first &= first - 1;
                let idx = lo + off;
                cursor.seek::<PEXT>(idx as u64);
                let md: u32 = (0..k)
                    .map(|i| self.home[i][cursor.pos[i] as usize] as u32)
                    .sum();
                let excess = (depth - md) / 2;
                let v = if excess > 15 {
                    self.clamped.fetch_add(1, Ordering::Relaxed);
                    15
                } else {
                    excess as u8
                };
                bytes[off / 2] |= v << (4 * (idx & 1));
            }
        }
        (states, firsts)
    }
}

/// The whole search; `None` when `stop` was set before it was done.
///
/// `cells_only` makes successors mark the blank's cell alone even where the region table
/// exists (boards over 16 cells always do): slower there, but the tests use it to run that
/// path on every small shape the reference covers.
pub(super) fn bfs<S: Slot, const PEXT: bool>(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
    stop: &AtomicBool,
    cells_only: bool,
) -> Option<Built> {
    let n = spec.shape.cells();
    let ranker = Ranker::new(n, spec.tiles.len());
    let count = ranker.count() as usize;
    let chunks = count.div_ceil(CHUNK);
    progress(BuildEvent::Start {
        pattern: 0,
        placements: count as u64,
    });
    let mut b = Bfs {
        spec,
        ranker,
        grid: Grid::new(spec.shape),
        count,
        next_active: (0..chunks).map(|_| AtomicU8::new(0)).collect(),
        clamped: AtomicU64::new(0),
        home: [[0; 32]; 32],
        k: spec.tiles.len(),
        step: [[0; 33]; 32],
        cells_only: false,
    };
    b.cells_only = cells_only || !b.grid.has_table();
    for i in 0..b.k {
        for t in 0..b.k {
            b.step[i][t] = match t.cmp(&i) {
                std::cmp::Ordering::Less => b.ranker.weight(i).wrapping_neg(),
                _ => b.ranker.weight(t),
            };
        }
    }
    for (row, &t) in b.home.iter_mut().zip(&spec.tiles) {
        for (c, d) in row.iter_mut().enumerate().take(n) {
            *d = spec.shape.distance(c, t as usize) as u8;
        }
    }
    let mut slots: Vec<S::Raw> = zeroed(count);
    let mut cur: Vec<S::Cur> = zeroed(count);
    let mut cur_active: Vec<bool> = vec![false; chunks];
    // Two entries a byte; a pair is always handled by one task.
    let mut payload: Vec<u8> = zeroed(count.div_ceil(2));

    // The goal: tiles home, the blank anywhere it can reach from its own cell.
    let home: Vec<u8> = spec.tiles.clone();
    let occ: u64 = home.iter().fold(0, |m, &p| m | 1 << p);
    let free = b.grid.all & !occ;
    let start = b.ranker.rank(&home) as usize;
    let region = compress::<PEXT>(b.grid.region(spec.blank as usize, free), free);
    S::atomic(&mut slots)[start].or(region);
    cur[start] = S::cur(region);
    cur_active[start / CHUNK] = true;
    let mut layers = vec![1u64];
    let total_states = (count * (n - spec.tiles.len())) as u64;
    // States expanded before the current layer, and the current layer's.
    let mut expanded = 0u64;
    let mut layer_states = region.count_ones() as u64;
    progress(BuildEvent::Layer {
        depth: 0,
        placements: 1,
    });

    let mut depth = 0u32;
    loop {
        // Expand every state of the current layer.
        let done = AtomicU64::new(0);
        let active: Vec<usize> = (0..chunks).filter(|&c| cur_active[c]).collect();
        let total = active.len() as u64;
        let atomic = S::atomic(&mut slots);
        active.par_iter().for_each(|&ci| {
            // Skipping the remaining chunks is enough: the half-done layer is thrown away.
            if stop.load(Ordering::Relaxed) {
                return;
            }
            with_bmi2::<PEXT, _>(|| b.expand_chunk::<S, PEXT>(atomic, &cur, ci));
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if d.is_multiple_of(64) || d == total {
                progress(BuildEvent::Expanded {
                    depth: depth + 1,
                    done: d,
                    total,
                });
                progress(BuildEvent::Work {
                    done: expanded + layer_states * d / total,
                    total: total_states,
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // Keep only what is new; record the placements reached for the first time.
        let d1 = depth + 1;
        let first = AtomicU64::new(0);
        let new_states = AtomicU64::new(0);
        let was_active = std::mem::take(&mut cur_active);
        cur_active = payload
            .par_chunks_mut(CHUNK / 2)
            .zip(slots.par_chunks_mut(CHUNK))
            .zip(cur.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(ci, ((bytes, slots), cur))| {
                if b.next_active[ci].load(Ordering::Relaxed) == 0 {
                    if was_active[ci] {
                        cur.fill(S::Cur::default());
                    }
                    return false;
                }
                b.next_active[ci].store(0, Ordering::Relaxed);
                let (states, firsts) =
                    with_bmi2::<PEXT, _>(|| b.merge_chunk::<S, PEXT>(ci, d1, bytes, slots, cur));
                first.fetch_add(firsts, Ordering::Relaxed);
                new_states.fetch_add(states, Ordering::Relaxed);
                states != 0
            })
            .collect();
        if !cur_active.iter().any(|&a| a) {
            break;
        }
        depth = d1;
        expanded += layer_states;
        layer_states = new_states.load(Ordering::Relaxed);
        let f = first.load(Ordering::Relaxed);
        layers.push(f);
        progress(BuildEvent::Layer {
            depth,
            placements: f,
        });
    }
    Some(Built {
        payload,
        layers,
        clamped: b.clamped.load(Ordering::Relaxed),
    })
}
