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
    /// The current layer's mask, stored apart and read in order.
    type Cur: Copy + Send + Sync + Default + Into<u64>;
    const BITS: u32;
    fn zeroed(n: usize) -> Vec<Self>;
    fn get(&self) -> u64;
    fn set(&self, v: u64);
    fn or(&self, v: u64);
    fn cur(v: u64) -> Self::Cur;
}

macro_rules! slot {
    ($a:ty, $t:ty, $c:ty, $bits:expr) => {
        impl Slot for $a {
            type Cur = $c;
            const BITS: u32 = $bits;
            fn zeroed(n: usize) -> Vec<Self> {
                (0..n).map(|_| <$a>::new(0)).collect()
            }
            #[inline(always)]
            fn get(&self) -> u64 {
                self.load(Ordering::Relaxed) as u64
            }
            #[inline(always)]
            fn set(&self, v: u64) {
                self.store(v as $t, Ordering::Relaxed)
            }
            #[inline(always)]
            fn or(&self, v: u64) {
                self.fetch_or(v as $t, Ordering::Relaxed);
            }
            #[inline(always)]
            fn cur(v: u64) -> $c {
                v as $c
            }
        }
    };
}
slot!(AtomicU16, u16, u8, 8);
slot!(AtomicU32, u32, u16, 16);
slot!(AtomicU64, u64, u32, 32);

/// Walks placements in rank order without a division per placement: nearby ranks are
/// reached by stepping the digits, far ones by decomposing the rank.
struct Cursor<'a> {
    ranker: &'a Ranker,
    k: usize,
    all: u64,
    at: u64,
    digits: [u8; 32],
}

impl<'a> Cursor<'a> {
    fn new(ranker: &'a Ranker, all: u64) -> Cursor<'a> {
        Cursor {
            ranker,
            k: ranker.tiles(),
            all,
            at: u64::MAX,
            digits: [0; 32],
        }
    }

    /// Writes the placement of rank `idx` into `pos`.
    #[inline(always)]
    fn seek<const PEXT: bool>(&mut self, idx: u64, pos: &mut [u8]) {
        let k = self.k;
        if self.at <= idx && idx - self.at <= 16 {
            while self.at < idx {
                self.ranker.next_digits(&mut self.digits[..k]);
                self.at += 1;
            }
        } else {
            self.ranker.digits(idx, &mut self.digits[..k]);
            self.at = idx;
        }
        let mut used = 0u64;
        for i in 0..k {
            let bit = expand::<PEXT>(1u64 << self.digits[i], self.all & !used);
            pos[i] = bit.trailing_zeros() as u8;
            used |= bit;
        }
    }
}

/// What every task of one BFS shares.
struct Bfs<'a, S: Slot> {
    spec: &'a PatternSpec,
    ranker: Ranker,
    grid: Grid,
    count: usize,
    slots: Vec<S>,
    /// Which chunks hold any state of the next layer: sparse layers skip the rest.
    next_active: Vec<AtomicU8>,
    clamped: AtomicU64,
}

const CHUNK: usize = 1 << 14;

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

impl<S: Slot> Bfs<'_, S> {
    /// Expands the current layer's states in one chunk: every pattern tile next to the
    /// blank's region slides into it, and the blank cells reachable afterwards are marked
    /// in the successor's next-layer mask.
    #[inline(always)]
    fn expand_chunk<const PEXT: bool>(&self, cur: &[S::Cur], ci: usize) {
        let k = self.spec.tiles.len();
        let grid = &self.grid;
        let lo = ci * CHUNK;
        let hi = (lo + CHUNK).min(self.count);
        let mut pos = [0u8; 32];
        let mut cursor = Cursor::new(&self.ranker, grid.all);
        // Per cell, the pattern tile on it (`NONE` if none): ranks of successors are
        // derived from the current rank by looking only at the cells a move jumps over.
        const NONE: u8 = u8::MAX;
        let mut tile_at = [NONE; 64];
        // A move takes a tile to a free cell next to it: at most 4 * min(tiles, free cells)
        // of them, and at most 64 on boards of up to 32 cells.
        let mut succ = [(0usize, 0usize, 0u64); 64];
        for idx in lo..hi {
            let m: u64 = cur[idx].into();
            if m == 0 {
                continue;
            }
            let pos = &mut pos[..k];
            cursor.seek::<PEXT>(idx as u64, pos);
            let mut occ = 0u64;
            for (i, &p) in pos.iter().enumerate() {
                occ |= 1 << p;
                tile_at[p as usize] = i as u8;
            }
            let region = expand::<PEXT>(m, grid.all & !occ);
            // Gather the successors, prefetching their slots and blank regions, so that
            // the cache misses overlap instead of following one another.
            let mut ns = 0;
            for i in 0..k {
                let from = pos[i] as usize;
                for &to in &grid.neighbors[from] {
                    if region & (1 << to) == 0 {
                        continue;
                    }
                    // The tile slides into the blank's cell; the blank takes its place.
                    let free2 = grid.all & !(occ ^ (1 << from) ^ (1 << to));
                    grid.prefetch_region(from, free2);
                    let (a, b) = (from.min(to), from.max(to));
                    let mut delta = (b - a) as u64 * self.ranker.weight(i);
                    for &t in &tile_at[a + 1..b] {
                        if t != NONE {
                            if (t as usize) < i {
                                delta -= self.ranker.weight(i);
                            } else {
                                delta += self.ranker.weight(t as usize);
                            }
                        }
                    }
                    let j = if to > from {
                        idx + delta as usize
                    } else {
                        idx - delta as usize
                    };
                    debug_assert_eq!(j as u64, {
                        pos[i] = to as u8;
                        let r = self.ranker.rank(pos);
                        pos[i] = from as u8;
                        r
                    });
                    prefetch_slot(&self.slots[j]);
                    succ[ns] = (j, from, free2);
                    ns += 1;
                }
            }
            for &p in pos.iter() {
                tile_at[p as usize] = NONE;
            }
            self.mark::<PEXT>(&succ[..ns]);
        }
    }

    /// Adds the blank cells each successor reaches to its next-layer mask (when new).
    #[inline(always)]
    fn mark<const PEXT: bool>(&self, succ: &[(usize, usize, u64)]) {
        for &(j, from, free2) in succ {
            let reach = compress::<PEXT>(self.grid.region(from, free2), free2);
            let s = self.slots[j].get();
            if (s | (s >> S::BITS)) & reach != reach {
                self.slots[j].or(reach << S::BITS);
                let a = &self.next_active[j / CHUNK];
                if a.load(Ordering::Relaxed) == 0 {
                    a.store(1, Ordering::Relaxed);
                }
            }
        }
    }

    /// Closes one chunk's layer: keeps only the newly reached blank cells as the next
    /// current layer and writes the entries of placements reached for the first time.
    /// Returns (anything new, placements first reached).
    #[inline(always)]
    fn merge_chunk<const PEXT: bool>(
        &self,
        ci: usize,
        depth: u32,
        bytes: &mut [u8],
        cur: &mut [S::Cur],
    ) -> (bool, u64) {
        let k = self.spec.tiles.len();
        let low: u64 = (1u64 << S::BITS) - 1;
        let lo = ci * CHUNK;
        let mut pos = [0u8; 32];
        let mut firsts = 0;
        let mut anything = false;
        let mut cursor = Cursor::new(&self.ranker, self.grid.all);
        for (off, c) in cur.iter_mut().enumerate() {
            let idx = lo + off;
            let s = self.slots[idx].get();
            let nx = s >> S::BITS;
            let seen = s & low;
            let new = nx & !seen;
            *c = S::cur(new);
            if nx == 0 {
                continue;
            }
            self.slots[idx].set(seen | new);
            if new == 0 {
                continue;
            }
            anything = true;
            if seen == 0 {
                firsts += 1;
                let pos = &mut pos[..k];
                cursor.seek::<PEXT>(idx as u64, pos);
                let md: u32 = pos
                    .iter()
                    .zip(&self.spec.tiles)
                    .map(|(&p, &t)| self.spec.shape.distance(p as usize, t as usize) as u32)
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
        (anything, firsts)
    }
}

/// The whole search; `None` when `stop` was set before it was done.
pub(super) fn bfs<S: Slot, const PEXT: bool>(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
    stop: &AtomicBool,
) -> Option<Built> {
    let n = spec.shape.cells();
    let ranker = Ranker::new(n, spec.tiles.len());
    let count = ranker.count() as usize;
    let chunks = count.div_ceil(CHUNK);
    progress(BuildEvent::Start {
        pattern: 0,
        placements: count as u64,
    });
    let b = Bfs::<S> {
        spec,
        ranker,
        grid: Grid::new(spec.shape),
        count,
        slots: S::zeroed(count),
        next_active: (0..chunks).map(|_| AtomicU8::new(0)).collect(),
        clamped: AtomicU64::new(0),
    };
    let mut cur: Vec<S::Cur> = vec![S::Cur::default(); count];
    let mut cur_active: Vec<bool> = vec![false; chunks];
    // Two entries a byte; a pair is always handled by one task.
    let mut payload = vec![0u8; count.div_ceil(2)];

    // The goal: tiles home, the blank anywhere it can reach from its own cell.
    let home: Vec<u8> = spec.tiles.clone();
    let occ: u64 = home.iter().fold(0, |m, &p| m | 1 << p);
    let free = b.grid.all & !occ;
    let start = b.ranker.rank(&home) as usize;
    let region = compress::<PEXT>(b.grid.region(spec.blank as usize, free), free);
    b.slots[start].set(region);
    cur[start] = S::cur(region);
    cur_active[start / CHUNK] = true;
    let mut layers = vec![1u64];
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
        active.par_iter().for_each(|&ci| {
            // Skipping the remaining chunks is enough: the half-done layer is thrown away.
            if stop.load(Ordering::Relaxed) {
                return;
            }
            with_bmi2::<PEXT, _>(|| b.expand_chunk::<PEXT>(&cur, ci));
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if d.is_multiple_of(64) || d == total {
                progress(BuildEvent::Expanded {
                    depth: depth + 1,
                    done: d,
                    total,
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // Keep only what is new; record the placements reached for the first time.
        let d1 = depth + 1;
        let first = AtomicU64::new(0);
        let was_active = std::mem::take(&mut cur_active);
        cur_active = payload
            .par_chunks_mut(CHUNK / 2)
            .zip(cur.par_chunks_mut(CHUNK))
            .enumerate()
            .map(|(ci, (bytes, cur))| {
                if b.next_active[ci].load(Ordering::Relaxed) == 0 {
                    if was_active[ci] {
                        cur.fill(S::Cur::default());
                    }
                    return false;
                }
                b.next_active[ci].store(0, Ordering::Relaxed);
                let (anything, firsts) =
                    with_bmi2::<PEXT, _>(|| b.merge_chunk::<PEXT>(ci, d1, bytes, cur));
                first.fetch_add(firsts, Ordering::Relaxed);
                anything
            })
            .collect();
        if !cur_active.iter().any(|&a| a) {
            break;
        }
        depth = d1;
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
