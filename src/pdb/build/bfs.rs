//! The backward breadth-first search itself, one block of placements at a time.
//!
//! A layer's states are, per placement, the set of blank regions reached (a bit each, the
//! regions numbered per block as [`Layout`] lists them). A layer is built by pulling: each
//! block gathers, from the blocks its moves come from, the regions their current layer
//! reached, and closes its own part of the next layer at once. Every write stays inside the
//! one block a task owns (40,320 placements for an 8-tile 4x4 pattern, which fit the core's
//! cache); the reads run through whole blocks in order. The entries too are written in
//! block order, in the block's own bytes, and put in the file's order once at the end: a
//! random write per entry during the search (an atomic one, as two entries share a byte)
//! waited for its cache miss each time and took half the time.

use std::ops::{BitAnd, BitOr, BitOrAssign, Not};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::pdb::partition::PatternSpec;
use crate::rank::Ranker;

use super::layout::Layout;
use super::{BuildEvent, Built};

/// A set of a block's blank regions, a bit each: as wide as the most regions a block has.
pub(super) trait Regions:
    Copy
    + Default
    + Eq
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + Not<Output = Self>
{
    fn bit(i: u8) -> Self;
    fn bits(self) -> u32;
}

macro_rules! regions {
    ($t:ty) => {
        impl Regions for $t {
            #[inline(always)]
            fn bit(i: u8) -> $t {
                1 << i
            }
            #[inline(always)]
            fn bits(self) -> u32 {
                self as u32
            }
        }
    };
}
regions!(u8);
regions!(u16);
regions!(u32);

/// A zeroed array for the search, its pages asked for as 2 MB huge pages (fewer TLB misses
/// for the blocks read from all over the array).
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

/// Runs `f` compiled for AVX2, BMI2 and POPCNT when `FAST` says the CPU has them: the
/// scans over a block's placements are then 32 at a time, the counts single instructions.
#[inline(always)]
fn with_fast<const FAST: bool, R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        #[target_feature(enable = "avx2,bmi2,popcnt")]
        unsafe fn run<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        // SAFETY: FAST is only true when the CPU was checked to have them.
        return unsafe { run(f) };
    }
    f()
}

/// What a block needs to write its placements' entries: per tile and covered cell (counted
/// from the lowest), what the tile there adds to the file's rank and to the Manhattan
/// distance.
struct Entries {
    rank: [[u64; 32]; 32],
    md: [[u8; 32]; 32],
}

struct Search<'a> {
    layout: &'a Layout,
    /// The file's index of placements.
    ranker: Ranker,
    k: usize,
    /// Placements per block (orders of the tiles).
    per: usize,
    /// `home[i][c]`: how far tile `i` is from its goal cell when on cell `c`.
    home: [[u8; 32]; 32],
    /// `lehmer[q]`: what order `q` takes off the file's rank (see [`Search::entries`]).
    lehmer: Vec<u64>,
    clamped: AtomicU64,
}

impl Search<'_> {
    /// The file's rank of a placement is `sum weight(i) * (cell(i) - tiles before i on
    /// lower cells)`: a part from the cells, per tile and covered cell, less a part from
    /// the order alone (`lehmer`).
    fn entries(&self, mask: u64) -> Entries {
        let mut e = Entries {
            rank: [[0; 32]; 32],
            md: [[0; 32]; 32],
        };
        let mut rest = mask;
        let mut j = 0;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for i in 0..self.k {
                e.rank[i][j] = self.ranker.weight(i) * c as u64;
                e.md[i][j] = self.home[i][c];
            }
            j += 1;
        }
        e
    }

    /// Builds the next layer's part of block `b`: gathers what the moves into it bring
    /// from the current layer (`cur`, `live`), keeps what is new as `acc` (the next layer)
    /// and adds it to `seen`, and writes the entries of placements reached for the first
    /// time into `ent` (the block's, two a byte). Returns the states new, the placements
    /// first reached, the regions of the new layer and whether every state of the block is
    /// now seen.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pull<R: Regions>(
        &self,
        b: usize,
        depth: u32,
        cur: &[R],
        live: &[R],
        seen: &mut [R],
        acc: &mut [R],
        ent: &mut [u8],
    ) -> (u64, u64, R, bool) {
        let layout = self.layout;
        let per = self.per;
        let none = R::default();
        let moves = layout.moves(b);
        if !moves
            .iter()
            .any(|m| live[m.src as usize] & R::bit(m.need) != none)
        {
            return (0, 0, none, false);
        }
        acc.fill(none);
        for m in moves {
            let need = R::bit(m.need);
            if live[m.src as usize] & need == none {
                continue;
            }
            let give = R::bit(m.give);
            let src = &cur[m.src as usize * per..][..per];
            if m.a == m.b {
                for (x, &c) in acc.iter_mut().zip(src) {
                    let hit = (c & need) != none;
                    *x |= if hit { give } else { none };
                }
                continue;
            }
            let map = layout.map(m.a, m.b);
            for (base, chunk) in src.chunks(64).enumerate() {
                let mut hits = 0u64;
                for (j, &c) in chunk.iter().enumerate() {
                    hits |= (((c & need) != none) as u64) << j;
                }
                while hits != 0 {
                    let q = base * 64 + hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    let to = match map {
                        Some(map) => map[q] as usize,
                        None => layout.rearranged(q, m.a, m.b),
                    };
                    acc[to] |= give;
                }
            }
        }
        // Close the block's part of the layer.
        let regions = layout.regions(b);
        let all = (0..regions.len() as u8).fold(none, |a, r| a | R::bit(r));
        let mut states = 0u64;
        let mut firsts = 0u64;
        let mut live_here = none;
        let mut md: Option<[[u8; 32]; 32]> = None;
        let mut scratch = [0u8; 32];
        let mut incomplete = false;
        // The cells of each set of regions, when there are few: counted once per block
        // rather than once per placement with new regions.
        let sizes: Option<Vec<u16>> = (regions.len() <= 8).then(|| {
            (0..1u32 << regions.len())
                .map(|set| cells_of(set, regions) as u16)
                .collect()
        });
        for (c, (seen, acc)) in seen.chunks_mut(64).zip(acc.chunks_mut(64)).enumerate() {
            // A pass the compiler can run 32 placements at a time: the new regions, and
            // which placements have any and which were never reached before.
            let (mut news, mut fresh) = (0u64, 0u64);
            for (j, (s, x)) in seen.iter_mut().zip(acc.iter_mut()).enumerate() {
                let old = *s;
                let new = *x & !old;
                *x = new;
                *s = old | new;
                live_here |= new;
                incomplete |= (old | new) != all;
                news |= ((new != none) as u64) << j;
                fresh |= (((old == none) & (new != none)) as u64) << j;
            }
            while news != 0 {
                let bits = acc[news.trailing_zeros() as usize].bits();
                news &= news - 1;
                states += match &sizes {
                    Some(sizes) => sizes[bits as usize] as u64,
                    None => cells_of(bits, regions),
                };
            }
            firsts += fresh.count_ones() as u64;
            while fresh != 0 {
                let q = c * 64 + fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let md = md.get_or_insert_with(|| self.entries(layout.masks[b]).md);
                let v = self.entry(md, layout.order(q, &mut scratch), depth);
                ent[q / 2] |= v << (4 * (q & 1));
            }
        }
        let complete = !incomplete;
        (states, firsts, live_here, complete)
    }

    /// The entry of a placement (the tiles' `order` on a block whose distances are `md`)
    /// reached first at `depth`: half the moves over the Manhattan distance.
    #[inline(always)]
    fn entry(&self, md: &[[u8; 32]; 32], order: &[u8], depth: u32) -> u8 {
        let md: u32 = order
            .iter()
            .enumerate()
            .map(|(i, &o)| md[i][o as usize] as u32)
            .sum();
        let excess = (depth - md) / 2;
        if excess > 15 {
            self.clamped.fetch_add(1, Ordering::Relaxed);
            15
        } else {
            excess as u8
        }
    }

    /// The entries, from block order (two a byte, each block in whole bytes) to the file's;
    /// `None` when `stop` was set before it was done.
    fn file_order(&self, ent: &[u8], count: usize, stop: &AtomicBool) -> Option<Vec<u8>> {
        let per_bytes = self.per.div_ceil(2);
        // One byte an entry first, so that no two tasks share a byte; then two a byte.
        let mut wide: Vec<u8> = zeroed(count);
        // SAFETY: AtomicU8 has the size, alignment and bit validity of u8; the exclusive
        // borrow of `wide` lasts as long as the view. Each entry is written by one task,
        // as a plain store.
        let atomic: &[AtomicU8] =
            unsafe { std::slice::from_raw_parts(wide.as_mut_ptr() as *const AtomicU8, count) };
        ent.par_chunks(per_bytes)
            .enumerate()
            .for_each(|(b, bytes)| {
                if bytes.iter().all(|&x| x == 0) {
                    return;
                }
                let rank = self.entries(self.layout.masks[b]).rank;
                let mut scratch = [0u8; 32];
                for q in 0..self.per {
                    let v = bytes[q / 2] >> (4 * (q & 1)) & 15;
                    if v == 0 {
                        continue;
                    }
                    let order = self.layout.order(q, &mut scratch);
                    let idx: u64 = order
                        .iter()
                        .enumerate()
                        .map(|(i, &o)| rank[i][o as usize])
                        .sum::<u64>()
                        - self.lehmer[q];
                    atomic[idx as usize].store(v, Ordering::Relaxed);
                }
            });
        let mut payload: Vec<u8> = zeroed(count.div_ceil(2));
        payload
            .par_iter_mut()
            .zip(wide.par_chunks(2))
            .for_each(|(p, w)| *p = w[0] | w.get(1).map_or(0, |&x| x << 4));
        (!stop.load(Ordering::Relaxed)).then_some(payload)
    }
}

/// The cells of a set of regions (bits indexing `regions`).
#[inline(always)]
fn cells_of(set: u32, regions: &[u64]) -> u64 {
    let mut bits = set;
    let mut cells = 0;
    while bits != 0 {
        cells += regions[bits.trailing_zeros() as usize].count_ones() as u64;
        bits &= bits - 1;
    }
    cells
}

/// How many blocks a layer's progress is reported in.
const REPORTS: usize = 128;

/// The whole search; `None` when `stop` was set before it was done.
pub(super) fn bfs<R: Regions, const FAST: bool>(
    spec: &PatternSpec,
    layout: &Layout,
    progress: &(dyn Fn(BuildEvent) + Sync),
    stop: &AtomicBool,
) -> Option<Built> {
    let n = spec.shape.cells();
    let k = spec.tiles.len();
    let per = layout.orders.count() as usize;
    let blocks = layout.masks.len();
    let count = per * blocks;
    let ranker = Ranker::new(n, k);
    debug_assert_eq!(ranker.count() as usize, count);
    progress(BuildEvent::Start {
        pattern: 0,
        placements: count as u64,
    });
    let mut home = [[0u8; 32]; 32];
    for (row, &t) in home.iter_mut().zip(&spec.tiles) {
        for (c, d) in row.iter_mut().enumerate().take(n) {
            *d = spec.shape.distance(c, t as usize) as u8;
        }
    }
    // What an order takes off the file's rank: tile i's digit there counts the free cells
    // below it, that is its cell less the tiles before it on lower cells.
    let lehmer: Vec<u64> = (0..per)
        .into_par_iter()
        .map(|q| {
            let mut scratch = [0u8; 32];
            let o = layout.order(q, &mut scratch);
            (0..k)
                .map(|i| {
                    let lower = o[..i].iter().filter(|&&x| x < o[i]).count() as u64;
                    ranker.weight(i) * lower
                })
                .sum()
        })
        .collect();
    let search = Search {
        layout,
        ranker: ranker.clone(),
        k,
        per,
        home,
        lehmer,
        clamped: AtomicU64::new(0),
    };

    let mut seen: Vec<R> = zeroed(count);
    let mut cur: Vec<R> = zeroed(count);
    let mut next: Vec<R> = zeroed(count);
    let mut live: Vec<R> = vec![R::default(); blocks];
    let mut live_next: Vec<R> = vec![R::default(); blocks];
    let mut full: Vec<bool> = vec![false; blocks];
    // The entries in block order, each block in whole bytes.
    let per_bytes = per.div_ceil(2);
    let mut ent: Vec<u8> = zeroed(blocks * per_bytes);

    // The goal: tiles home, the blank anywhere it can reach from its own cell.
    let home_mask: u64 = spec.tiles.iter().fold(0, |m, &t| m | 1 << t);
    let b0 = layout.block_of(home_mask);
    let order: Vec<u8> = spec
        .tiles
        .iter()
        .map(|&t| (home_mask & ((1u64 << t) - 1)).count_ones() as u8)
        .collect();
    let start = b0 * per + layout.orders.rank(&order) as usize;
    let r0 = layout.region_of(b0, spec.blank as usize);
    seen[start] = R::bit(r0);
    cur[start] = R::bit(r0);
    live[b0] = R::bit(r0);
    let mut layers = vec![1u64];
    let total_states = (count * (n - k)) as u64;
    let mut expanded = 0u64;
    let mut layer_states = layout.regions(b0)[r0 as usize].count_ones() as u64;
    progress(BuildEvent::Layer {
        depth: 0,
        placements: 1,
    });

    let report_every = blocks.div_ceil(REPORTS).max(1) as u64;
    let mut depth = 0u32;
    loop {
        let d1 = depth + 1;
        let done = AtomicU64::new(0);
        let (cur_ref, live_ref) = (&cur[..], &live[..]);
        let (states, firsts) = seen
            .par_chunks_mut(per)
            .zip(next.par_chunks_mut(per))
            .zip(live_next.par_iter_mut())
            .zip(full.par_iter_mut())
            .zip(ent.par_chunks_mut(per_bytes))
            .enumerate()
            .map(|(b, ((((seen, acc), live_b), full_b), ent))| {
                *live_b = R::default();
                let mut out = (0, 0);
                // Skipping the remaining blocks is enough: the half-built layer is thrown
                // away.
                if !*full_b && !stop.load(Ordering::Relaxed) {
                    let (states, firsts, here, complete) = with_fast::<FAST, _>(|| {
                        search.pull::<R>(b, d1, cur_ref, live_ref, seen, acc, ent)
                    });
                    *live_b = here;
                    *full_b = complete;
                    out = (states, firsts);
                }
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if d.is_multiple_of(report_every) || d == blocks as u64 {
                    progress(BuildEvent::Expanded {
                        depth: d1,
                        done: d,
                        total: blocks as u64,
                    });
                    progress(BuildEvent::Work {
                        done: expanded + layer_states * d / blocks as u64,
                        total: total_states,
                    });
                }
                out
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if states == 0 {
            break;
        }
        std::mem::swap(&mut cur, &mut next);
        std::mem::swap(&mut live, &mut live_next);
        depth = d1;
        expanded += layer_states;
        layer_states = states;
        layers.push(firsts);
        progress(BuildEvent::Layer {
            depth,
            placements: firsts,
        });
    }
    drop((seen, cur, next));
    Some(Built {
        payload: search.file_order(&ent, count, stop)?,
        layers,
        clamped: search.clamped.load(Ordering::Relaxed),
    })
}
