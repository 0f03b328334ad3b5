//! Additive disjoint pattern databases: built by backward breadth-first search, stored as
//! checksummed files, mapped back in and used as an IDA* heuristic.
//!
//! Tables work in goal-cell labels (see [`crate::board::Labels`]): a pattern is a set of
//! labels, and a table depends only on the board shape, the goal's blank cell and the
//! pattern. Any goal with its blank in that cell (or in a mirror image of it) uses the same
//! files.
//!
//! Each entry is the least number of moves of the pattern's own tiles that bring them home
//! (other tiles are indistinct, the blank is tracked), stored as its excess over the
//! pattern's Manhattan distance, halved (the excess is always even), in four bits. Halving
//! the bytes halves the cache misses of the search.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::board::MAX_CELLS;
use crate::board::{Labels, Shape, Symmetry};
use crate::error::TableError;
use crate::rank::Ranker;
use crate::search::{Geometry, Heuristic, Tiles};

/// Bumped whenever the file layout or the meaning of an entry changes. Version 2: the
/// checksum covers the header's fields as well as the payload.
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: [u8; 8] = *b"15PDB\0\r\n";
const ENDIAN_CHECK: u32 = 0x0102_0304;
/// The payload starts at this offset so that it is page-aligned when mapped.
pub const PAYLOAD_OFFSET: u64 = 4096;
/// Entry encoding: four bits, excess over Manhattan distance divided by two.
pub const ENCODING_NIBBLE_EXCESS: u8 = 1;

/// The fixed-size header at the start of every table file.
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct Header {
    pub magic: [u8; 8],
    pub endian_check: u32,
    pub version: u32,
    pub rows: u8,
    pub cols: u8,
    /// The goal's blank cell: labels are goal cells, so this fixes the goal.
    pub blank: u8,
    pub encoding: u8,
    pub tile_count: u8,
    /// The pattern's labels; the first `tile_count` are used, the rest zero.
    pub tiles: [u8; 32],
    pub entries: u64,
    pub payload_offset: u64,
    pub payload_len: u64,
    /// xxh3-64 of the payload, seeded with the xxh3-64 of the other header fields (see
    /// [`Header::sum`]), so that no bit of either can change unnoticed.
    pub checksum: u64,
    /// Entries that did not fit four bits and were lowered to 15 (still admissible).
    pub clamped: u64,
}

impl Header {
    /// The checksum this header and payload should carry: the payload's xxh3-64, seeded
    /// with the xxh3-64 of the encoded header whose `checksum` is zero.
    pub fn sum(&self, payload: &[u8]) -> u64 {
        let mut fields = self.clone();
        fields.checksum = 0;
        let bytes = bincode::encode_to_vec(&fields, bincode_config())
            .expect("a fixed-size header always encodes");
        xxhash_rust::xxh3::xxh3_64_with_seed(payload, xxhash_rust::xxh3::xxh3_64(&bytes))
    }
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

/// What one table is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    pub shape: Shape,
    pub blank: u8,
    pub tiles: Vec<u8>,
}

impl PatternSpec {
    /// The file name inside a table directory, e.g. `4x4-b0-1.2.3.4.5.6.7.pdb`.
    pub fn file_name(&self) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        format!(
            "{}x{}-b{}-{}.pdb",
            self.shape.rows,
            self.shape.cols,
            self.blank,
            tiles.join(".")
        )
    }

    /// The table a file name such as `4x4-b0-1.2.3.4.5.6.7.pdb` stands for: the inverse of
    /// [`PatternSpec::file_name`], so that a file whose header is unreadable can still be
    /// named with its exact rebuild command. `None` for any other name.
    pub fn from_file_name(name: &str) -> Option<PatternSpec> {
        let stem = name.strip_suffix(".pdb")?;
        let mut parts = stem.splitn(3, '-');
        let shape = parts.next()?;
        let blank = parts.next()?.strip_prefix('b')?;
        let tiles = parts.next()?;
        let (rows, cols) = shape.split_once('x')?;
        let shape = Shape::new(rows.parse().ok()?, cols.parse().ok()?)?;
        let blank: u8 = blank.parse().ok()?;
        let tiles: Vec<u8> = tiles
            .split('.')
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?;
        let n = shape.cells();
        let mut seen = [false; crate::board::MAX_CELLS];
        if blank as usize >= n || tiles.is_empty() || tiles.len() >= n {
            return None;
        }
        for &t in &tiles {
            if t as usize >= n || t == blank || std::mem::replace(&mut seen[t as usize], true) {
                return None;
            }
        }
        let spec = PatternSpec {
            shape,
            blank,
            tiles,
        };
        // Only the canonical spelling (no leading zeros, no signs) is a table's name.
        (spec.file_name() == name).then_some(spec)
    }

    pub fn entries(&self) -> u64 {
        Ranker::new(self.shape.cells(), self.tiles.len()).count()
    }

    fn header(&self, payload: &[u8], clamped: u64) -> Header {
        let mut tiles = [0u8; 32];
        tiles[..self.tiles.len()].copy_from_slice(&self.tiles);
        let mut h = Header {
            magic: MAGIC,
            endian_check: ENDIAN_CHECK,
            version: FORMAT_VERSION,
            rows: self.shape.rows,
            cols: self.shape.cols,
            blank: self.blank,
            encoding: ENCODING_NIBBLE_EXCESS,
            tile_count: self.tiles.len() as u8,
            tiles,
            entries: self.entries(),
            payload_offset: PAYLOAD_OFFSET,
            payload_len: payload.len() as u64,
            checksum: 0,
            clamped,
        };
        h.checksum = h.sum(payload);
        h
    }
}

/// A set of disjoint patterns covering every tile but the blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    pub shape: Shape,
    pub blank: u8,
    pub patterns: Vec<Vec<u8>>,
}

impl Partition {
    /// Splits the non-blank labels, in order, into groups of the given sizes: for the 4x4
    /// puzzle with its blank in a corner, `[7, 8]` gives rows 1-2 and rows 3-4. Boards wider
    /// than tall are read column by column instead, so that groups are blocks across the
    /// short side: tiles of one column get in each other's way, and a group that holds
    /// them counts it (2x5 boards: 10 times fewer nodes than with one group per row).
    ///
    /// # Errors
    /// Sizes that do not add up to the number of tiles.
    pub fn by_sizes(shape: Shape, blank: u8, sizes: &[usize]) -> Result<Partition, TableError> {
        let (rows, cols) = (shape.rows as usize, shape.cols as usize);
        let order: Vec<u8> = if cols > rows {
            (0..cols)
                .flat_map(|c| (0..rows).map(move |r| (r * cols + c) as u8))
                .collect()
        } else {
            (0..shape.cells() as u8).collect()
        };
        let labels: Vec<u8> = order.into_iter().filter(|&l| l != blank).collect();
        // Checked: the sizes come from user text, and a sum that wraps could match.
        let total = sizes.iter().try_fold(0usize, |a, &s| a.checked_add(s));
        if total != Some(labels.len()) || sizes.contains(&0) {
            return Err(TableError::Unsupported(format!(
                "pattern sizes {:?} must add up to {} for a {} board",
                sizes,
                labels.len(),
                shape
            )));
        }
        let mut patterns = Vec::new();
        let mut at = 0;
        for &s in sizes {
            patterns.push(labels[at..at + s].to_vec());
            at += s;
        }
        Ok(Partition {
            shape,
            blank,
            patterns,
        })
    }

    /// Parses `7-8`-style sizes, or explicit groups `1,2,3/4,5,6/...`.
    ///
    /// # Errors
    /// Text that is neither, or groups that are not a partition of the tiles.
    pub fn parse(shape: Shape, blank: u8, text: &str) -> Result<Partition, TableError> {
        let bad = || {
            TableError::Unsupported(format!(
                "bad partition '{text}' (use e.g. 7-8 or 1,2,3/4,5,6/7,8)"
            ))
        };
        if text.contains('/') || text.contains(',') {
            let mut patterns = Vec::new();
            let mut seen = vec![false; shape.cells()];
            for group in text.split('/') {
                let mut g = Vec::new();
                for t in group.split(',') {
                    let l: u8 = t.trim().parse().map_err(|_| bad())?;
                    if l as usize >= shape.cells() || l == blank || seen[l as usize] {
                        return Err(bad());
                    }
                    seen[l as usize] = true;
                    g.push(l);
                }
                patterns.push(g);
            }
            if seen.iter().filter(|&&s| s).count() != shape.cells() - 1 {
                return Err(TableError::Unsupported(format!(
                    "partition '{text}' must name every tile except the blank once"
                )));
            }
            return Ok(Partition {
                shape,
                blank,
                patterns,
            });
        }
        let sizes: Result<Vec<usize>, _> = text.split('-').map(|s| s.trim().parse()).collect();
        Partition::by_sizes(shape, blank, &sizes.map_err(|_| bad())?)
    }

    /// The partition used when none is asked for.
    pub fn default_for(shape: Shape, blank: u8) -> Partition {
        if shape == Shape::new(5, 5).expect("5x5") && blank == 0 {
            // Korf and Felner's 24-puzzle partition: four compact blocks, so that most
            // interactions between tiles stay inside one pattern.
            return Partition::parse(
                shape,
                blank,
                "1,2,5,6,7,12/3,4,8,9,13,14/10,11,15,16,20,21/17,18,19,22,23,24",
            )
            .expect("a partition of the 5x5 tiles");
        }
        let tiles = shape.cells() - 1;
        let sizes: Vec<usize> = match tiles {
            // Up to 8 tiles a single pattern is exact and small (3x3: 181,440 states).
            0..=8 => vec![tiles],
            15 => vec![7, 8],
            _ => {
                let groups = tiles.div_ceil(6);
                let mut v = vec![tiles / groups; groups];
                for x in v.iter_mut().take(tiles % groups) {
                    *x += 1;
                }
                v
            }
        };
        Partition::by_sizes(shape, blank, &sizes).expect("sizes add up")
    }

    pub fn specs(&self) -> Vec<PatternSpec> {
        self.patterns
            .iter()
            .map(|t| PatternSpec {
                shape: self.shape,
                blank: self.blank,
                tiles: t.clone(),
            })
            .collect()
    }

    /// A short name such as `7-8`.
    pub fn name(&self) -> String {
        let sizes: Vec<String> = self.patterns.iter().map(|p| p.len().to_string()).collect();
        sizes.join("-")
    }
}

/// The blank cell whose tables serve a goal with its blank at `blank`: the smallest cell
/// any symmetry of the board maps it to.
pub fn canonical_blank(shape: Shape, blank: usize) -> u8 {
    Symmetry::all(shape)
        .into_iter()
        .map(|s| s.cell(shape, blank))
        .min()
        .unwrap() as u8
}

/// The most cells a table's board may have: the BFS keeps a board's free cells as a bit
/// mask in half of a 64-bit word.
pub const MAX_TABLE_CELLS: usize = 32;

/// Progress of a build, reported through a callback (the library never draws).
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A pattern's search starts: how many placements it has.
    Start { pattern: usize, placements: u64 },
    /// Part of a layer was expanded.
    Expanded { depth: u32, done: u64, total: u64 },
    /// A layer is complete: `placements` were first reached at `depth`.
    Layer { depth: u32, placements: u64 },
    /// The table is written.
    Saved { path: PathBuf },
}

/// One pattern's table in memory, and the BFS facts about it.
#[derive(Clone, Debug)]
pub struct Built {
    pub payload: Vec<u8>,
    /// Placements first reached at each depth (pattern moves).
    pub layers: Vec<u64>,
    pub clamped: u64,
}

/// Per placement: the blank cells seen so far and those reached in the layer being built,
/// side by side in one atomic word so that a successor costs one cache miss. Masks are
/// compressed to the cells the pattern leaves free (8 bits for an 8-tile 4x4 pattern).
trait Slot: Send + Sync + Sized {
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

/// Builds one pattern's table in memory.
///
/// The search runs backwards from the goal over abstract states (where the pattern's tiles
/// are, which cells the blank can reach). Moving the blank among the free cells costs 0,
/// moving a pattern tile costs 1, so each layer is closed under blank moves: a layer's
/// states are, per placement, a mask of reachable blank cells. Two arrays of such masks
/// (seen and next side by side, and the current layer) are all the memory it needs:
/// 3 bytes a placement for an 8-tile 4x4 pattern.
///
/// # Errors
/// A pattern that is empty, repeats a label, holds the blank, or is too large.
pub fn build(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Built, TableError> {
    let n = spec.shape.cells();
    let k = spec.tiles.len();
    let mut seen = vec![false; n];
    for &t in &spec.tiles {
        if t as usize >= n || t == spec.blank || seen[t as usize] {
            return Err(TableError::Unsupported(format!(
                "bad pattern {:?}",
                spec.tiles
            )));
        }
        seen[t as usize] = true;
    }
    if k == 0 || n > MAX_TABLE_CELLS || Ranker::checked_count(n, k).is_none_or(|c| c > 1u64 << 32) {
        return Err(TableError::Unsupported(format!(
            "pattern of {k} tiles on {n} cells is too large to build"
        )));
    }
    let free = n - k;
    let bmi2 = has_bmi2();
    Ok(match (free <= 8, free <= 16, bmi2) {
        (true, _, true) => bfs::<AtomicU16, true>(spec, progress),
        (true, _, false) => bfs::<AtomicU16, false>(spec, progress),
        (false, true, true) => bfs::<AtomicU32, true>(spec, progress),
        (false, true, false) => bfs::<AtomicU32, false>(spec, progress),
        (false, false, true) => bfs::<AtomicU64, true>(spec, progress),
        (false, false, false) => bfs::<AtomicU64, false>(spec, progress),
    })
}

/// Whether the BFS may use its BMI2 + POPCNT code (pext/pdep masks, one-instruction counts).
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Geometry helpers on cell bitmasks.
struct Grid {
    cols: usize,
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
    neighbors: Vec<Vec<usize>>,
    /// For boards up to 16 cells: the connected region of `cell` within `free`, at
    /// `free << 4 | cell`.
    regions: Vec<u16>,
}

impl Grid {
    fn new(shape: Shape) -> Grid {
        let n = shape.cells();
        let cols = shape.cols as usize;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut first = 0u64;
        let mut last = 0u64;
        for c in 0..n {
            if c % cols == 0 {
                first |= 1 << c;
            }
            if c % cols == cols - 1 {
                last |= 1 << c;
            }
        }
        let neighbors = (0..n)
            .map(|c| {
                crate::board::Dir::ALL
                    .iter()
                    .filter_map(|&d| shape.step(c, d))
                    .collect()
            })
            .collect();
        let mut g = Grid {
            cols,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
            neighbors,
            regions: Vec::new(),
        };
        if n <= 16 {
            let mut regions = vec![0u16; (1usize << n) * 16];
            for free in 0..(1u64 << n) {
                for c in 0..n {
                    if free & (1 << c) != 0 {
                        regions[((free as usize) << 4) | c] = g.flood_slow(1 << c, free) as u16;
                    }
                }
            }
            g.regions = regions;
        }
        g
    }

    fn flood_slow(&self, start: u64, free: u64) -> u64 {
        let mut r = start;
        loop {
            let grow = r
                | (r << self.cols)
                | (r >> self.cols)
                | ((r << 1) & self.not_first_col)
                | ((r >> 1) & self.not_last_col);
            let grow = grow & free & self.all;
            if grow == r {
                return r;
            }
            r = grow;
        }
    }

    /// Starts loading the table entry that [`Grid::region`] will read.
    #[inline(always)]
    fn prefetch_region(&self, cell: usize, free: u64) {
        if let Some(r) = self.regions.get(((free as usize) << 4) | cell) {
            prefetch_slot(r);
        }
    }

    /// The cells of `free` connected to `cell` (which must be free).
    #[inline(always)]
    fn region(&self, cell: usize, free: u64) -> u64 {
        if !self.regions.is_empty() {
            self.regions[((free as usize) << 4) | cell] as u64
        } else {
            self.flood_slow(1 << cell, free)
        }
    }
}

/// `full`'s bits at the cells of `free`, packed down to bit 0, 1, ... in cell order.
#[inline(always)]
fn compress<const PEXT: bool>(full: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: PEXT is only true when the CPU was checked to have BMI2.
        return unsafe { pext(full, free) };
    }
    let mut free = free;
    let mut out = 0u64;
    let mut i = 0;
    while free != 0 {
        let b = free & free.wrapping_neg();
        if full & b != 0 {
            out |= 1 << i;
        }
        i += 1;
        free ^= b;
    }
    out
}

/// The inverse of [`compress`].
#[inline(always)]
fn expand<const PEXT: bool>(small: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: as in `compress`.
        return unsafe { pdep(small, free) };
    }
    let mut free = free;
    let mut out = 0u64;
    let mut i = 0;
    while free != 0 {
        let b = free & free.wrapping_neg();
        if small & (1 << i) != 0 {
            out |= b;
        }
        i += 1;
        free ^= b;
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext(a: u64, m: u64) -> u64 {
    std::arch::x86_64::_pext_u64(a, m)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pdep(a: u64, m: u64) -> u64 {
    std::arch::x86_64::_pdep_u64(a, m)
}

#[inline(always)]
fn prefetch_slot<T>(slot: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults; the address is a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch(
            slot as *const T as *const i8,
            std::arch::x86_64::_MM_HINT_T0,
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

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

fn bfs<S: Slot, const PEXT: bool>(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Built {
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
    Built {
        payload,
        layers,
        clamped: b.clamped.load(Ordering::Relaxed),
    }
}

/// Writes a table so that no reader ever sees a partial file: a temporary file in the same
/// directory, synced, then renamed over the final name.
///
/// # Errors
/// Any I/O failure (a full disk among them); the temporary file is removed.
pub fn save(dir: &Path, spec: &PatternSpec, built: &Built) -> Result<PathBuf, TableError> {
    let path = dir.join(spec.file_name());
    let io = |error| TableError::Io {
        path: path.clone(),
        error,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let header = spec.header(&built.payload, built.clamped);
    let mut head = bincode::encode_to_vec(&header, bincode_config()).expect("header encodes");
    head.resize(PAYLOAD_OFFSET as usize, 0);
    let tmp = dir.join(format!(".{}.{}.tmp", spec.file_name(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(&built.payload)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(path)
}

/// How a table's bytes are held.
pub enum Storage {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Storage {
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(m) => m,
            Storage::Owned(v) => v,
        }
    }
}

/// An opened table file: its header, checked, and its payload.
pub struct Table {
    pub path: PathBuf,
    pub header: Header,
    storage: Storage,
}

/// The command that rebuilds tables, for error messages.
pub fn rebuild_command(spec: &PatternSpec, dir: &Path) -> String {
    format!(
        "build-pdb --force --size {}x{} --blank {} --partition {} --out {}",
        spec.shape.rows,
        spec.shape.cols,
        spec.blank,
        {
            let d = Partition::default_for(spec.shape, spec.blank);
            if d.patterns.contains(&spec.tiles) {
                d.name()
            } else {
                "<the partition it was built with>".to_string()
            }
        },
        dir.display()
    )
}

/// Why a header is refused, before the file's path and rebuild command are attached.
enum Fault {
    /// The file is damaged: not what any build of this version writes.
    Corrupt(String),
    /// A sound file, but for another version, board, goal or pattern.
    Mismatch(String),
}

impl Fault {
    fn into_error(self, path: &Path, rebuild: String) -> TableError {
        let path = path.to_path_buf();
        match self {
            Fault::Corrupt(reason) => TableError::Corrupt {
                path,
                reason,
                rebuild,
            },
            Fault::Mismatch(reason) => TableError::Mismatch {
                path,
                reason,
                rebuild,
            },
        }
    }
}

/// Decodes the header from a file's first bytes (`PAYLOAD_OFFSET` of them, or all of a
/// shorter file) and checks what it can on its own: magic, byte order, version, that the
/// zero padding is zero. Pure, so that it can be fuzzed on arbitrary bytes.
fn decode_header(head: &[u8]) -> Result<Header, Fault> {
    if head.len() < PAYLOAD_OFFSET as usize {
        return Err(Fault::Corrupt(format!(
            "only {} bytes, shorter than the header",
            head.len()
        )));
    }
    let head = &head[..PAYLOAD_OFFSET as usize];
    let (h, used): (Header, usize) = bincode::decode_from_slice(head, bincode_config())
        .map_err(|e| Fault::Corrupt(format!("unreadable header ({e})")))?;
    if h.magic != MAGIC {
        return Err(Fault::Corrupt("not a fifteen table (bad magic)".into()));
    }
    if h.endian_check != ENDIAN_CHECK {
        return Err(Fault::Corrupt("written with another byte order".into()));
    }
    if h.version != FORMAT_VERSION {
        return Err(Fault::Mismatch(format!(
            "format version {} (this program reads {})",
            h.version, FORMAT_VERSION
        )));
    }
    if h.encoding != ENCODING_NIBBLE_EXCESS {
        return Err(Fault::Mismatch(format!(
            "unknown entry encoding {}",
            h.encoding
        )));
    }
    // A flipped bit in the unused tile slots or the padding changes no answer, but it is
    // damage all the same, and the only sign of it.
    let unused = h.tiles.get(h.tile_count as usize..).unwrap_or(&[]);
    if unused.iter().any(|&b| b != 0) || head[used..].iter().any(|&b| b != 0) {
        return Err(Fault::Corrupt(
            "nonzero bytes in the header's padding".into(),
        ));
    }
    Ok(h)
}

/// Checks a decoded header against the table wanted and the file's length.
fn check_header(h: &Header, file_len: u64, spec: &PatternSpec) -> Result<(), Fault> {
    let tiles = &h.tiles[..(h.tile_count as usize).min(32)];
    if (h.rows, h.cols) != (spec.shape.rows, spec.shape.cols) {
        return Err(Fault::Mismatch(format!(
            "built for {}x{} boards, {} needed",
            h.rows, h.cols, spec.shape
        )));
    }
    if h.blank != spec.blank {
        return Err(Fault::Mismatch(format!(
            "built for the goal with the blank in cell {}, cell {} needed",
            h.blank, spec.blank
        )));
    }
    if tiles != spec.tiles.as_slice() {
        return Err(Fault::Mismatch(format!(
            "built for pattern {:?}, {:?} needed",
            tiles, spec.tiles
        )));
    }
    let entries = spec.entries();
    if h.entries != entries || h.payload_len != entries.div_ceil(2) {
        return Err(Fault::Corrupt(format!(
            "header says {} entries in {} bytes, {} expected",
            h.entries,
            h.payload_len,
            entries.div_ceil(2)
        )));
    }
    if h.payload_offset != PAYLOAD_OFFSET {
        return Err(Fault::Corrupt(format!(
            "payload offset {}",
            h.payload_offset
        )));
    }
    if h.clamped > h.entries {
        return Err(Fault::Corrupt(format!(
            "{} entries clamped out of {}",
            h.clamped, h.entries
        )));
    }
    if file_len != PAYLOAD_OFFSET + h.payload_len {
        return Err(Fault::Corrupt(format!(
            "file is {} bytes, {} expected (truncated or padded)",
            file_len,
            PAYLOAD_OFFSET + h.payload_len
        )));
    }
    Ok(())
}

/// The table a header describes, if it describes one this program could build: a board
/// shape, a blank cell on it, and distinct tiles on it other than the blank.
fn spec_of_header(h: &Header) -> Result<PatternSpec, Fault> {
    let shape = Shape::new(h.rows as usize, h.cols as usize)
        .ok_or_else(|| Fault::Corrupt(format!("bad shape {}x{}", h.rows, h.cols)))?;
    let n = shape.cells();
    if h.blank as usize >= n {
        return Err(Fault::Corrupt(format!(
            "blank cell {} is not on a {shape} board",
            h.blank
        )));
    }
    let k = h.tile_count as usize;
    if k == 0 || k >= n || k > h.tiles.len() {
        return Err(Fault::Corrupt(format!(
            "bad tile count {} for a {shape} board",
            h.tile_count
        )));
    }
    // As `build` refuses: more placements than a table of this format can index.
    if Ranker::checked_count(n, k).is_none_or(|c| c > 1u64 << 32) {
        return Err(Fault::Corrupt(format!(
            "{k} tiles on a {shape} board make too large a table"
        )));
    }
    let tiles = h.tiles[..k].to_vec();
    let mut seen = [false; crate::board::MAX_CELLS];
    for &t in &tiles {
        if t as usize >= n || t == h.blank || seen[t as usize] {
            return Err(Fault::Corrupt(format!(
                "bad pattern {tiles:?} for a {shape} board with the blank in cell {}",
                h.blank
            )));
        }
        seen[t as usize] = true;
    }
    Ok(PatternSpec {
        shape,
        blank: h.blank,
        tiles,
    })
}

/// Reads the header of an open table file and checks it against `spec`.
fn read_header(path: &Path, file: &mut File, spec: &PatternSpec) -> Result<Header, TableError> {
    let rebuild = || rebuild_command(spec, path.parent().unwrap_or(Path::new(".")));
    let (head, len) = read_head(path, file, rebuild)?;
    let h = decode_header(&head).map_err(|f| f.into_error(path, rebuild()))?;
    check_header(&h, len, spec).map_err(|f| f.into_error(path, rebuild()))?;
    Ok(h)
}

/// The first `PAYLOAD_OFFSET` bytes of a table file (fewer if it is shorter) and its
/// length. Anything but a regular file is refused here, before any read.
fn read_head(
    path: &Path,
    file: &mut File,
    rebuild: impl Fn() -> String,
) -> Result<(Vec<u8>, u64), TableError> {
    let io = |error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        let f = Fault::Corrupt("not a regular file but a directory (move it away)".into());
        return Err(f.into_error(path, rebuild()));
    }
    if !meta.is_file() {
        return Err(Fault::Corrupt("not a regular file".into()).into_error(path, rebuild()));
    }
    let mut head = vec![0u8; PAYLOAD_OFFSET as usize];
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(e)),
        }
    }
    head.truncate(got);
    Ok((head, meta.len()))
}

impl Table {
    /// Opens a table by mapping it into memory. Cheap: only the header is read and checked;
    /// see [`Table::verify`] for the checksum.
    ///
    /// # Safety
    /// The file must not be truncated or modified while the table lives: a mapped file that
    /// shrinks makes reads fault (SIGBUS). Table files are only ever replaced by rename,
    /// which leaves an open mapping intact.
    ///
    /// # Errors
    /// A missing, unreadable, damaged or mismatched file.
    pub unsafe fn map(path: &Path, spec: &PatternSpec) -> Result<Table, TableError> {
        let mut file = File::open(path).map_err(|error| TableError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let header = read_header(path, &mut file, spec)?;
        // SAFETY: the caller promises the file stays as it is (see above).
        let map =
            unsafe { memmap2::MmapOptions::new().map(&file) }.map_err(|error| TableError::Io {
                path: path.to_path_buf(),
                error,
            })?;
        Ok(Table {
            path: path.to_path_buf(),
            header,
            storage: Storage::Mapped(map),
        })
    }

    /// Opens a table by reading it into memory: slower to open, safe against the file
    /// changing later, and the checksum is verified.
    ///
    /// # Errors
    /// A missing, unreadable, damaged or mismatched file.
    pub fn read(path: &Path, spec: &PatternSpec) -> Result<Table, TableError> {
        let mut file = File::open(path).map_err(|error| TableError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let header = read_header(path, &mut file, spec)?;
        let mut bytes = vec![0u8; PAYLOAD_OFFSET as usize];
        let mut rest = Vec::with_capacity(header.payload_len as usize);
        file.read_to_end(&mut rest)
            .map_err(|error| TableError::Io {
                path: path.to_path_buf(),
                error,
            })?;
        bytes.extend_from_slice(&rest);
        let t = Table {
            path: path.to_path_buf(),
            header,
            storage: Storage::Owned(bytes),
        };
        t.verify(spec)?;
        Ok(t)
    }

    /// Checks a whole table file held in memory, as [`Table::read`] checks one on disk:
    /// header, length and checksum. Never panics, whatever the bytes; `path` only names the
    /// file in errors.
    ///
    /// # Errors
    /// Bytes that are not a sound table for `spec`.
    pub fn from_bytes(
        path: &Path,
        bytes: Vec<u8>,
        spec: &PatternSpec,
    ) -> Result<Table, TableError> {
        let rebuild = || rebuild_command(spec, path.parent().unwrap_or(Path::new(".")));
        let head = &bytes[..bytes.len().min(PAYLOAD_OFFSET as usize)];
        let header = decode_header(head).map_err(|f| f.into_error(path, rebuild()))?;
        check_header(&header, bytes.len() as u64, spec)
            .map_err(|f| f.into_error(path, rebuild()))?;
        let t = Table {
            path: path.to_path_buf(),
            header,
            storage: Storage::Owned(bytes),
        };
        t.verify(spec)?;
        Ok(t)
    }

    /// The entries, two per byte.
    #[inline(always)]
    pub fn payload(&self) -> &[u8] {
        &self.storage.bytes()[PAYLOAD_OFFSET as usize..]
    }

    /// Recomputes the checksum of the header's fields and the payload.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] if it differs from the header's.
    pub fn verify(&self, spec: &PatternSpec) -> Result<(), TableError> {
        let sum = self.header.sum(self.payload());
        if sum != self.header.checksum {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                reason: format!(
                    "checksum mismatch (computed {:016x}, header says {:016x})",
                    sum, self.header.checksum
                ),
                rebuild: rebuild_command(spec, self.path.parent().unwrap_or(Path::new("."))),
            });
        }
        Ok(())
    }
}

/// The value a table holds for a placement index: halved excess over Manhattan distance.
#[inline(always)]
fn nibble(bytes: &[u8], idx: u32) -> u32 {
    ((bytes[(idx >> 1) as usize] >> ((idx & 1) << 2)) & 15) as u32
}

#[inline(always)]
fn prefetch(bytes: &[u8], idx: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        let i = ((idx >> 1) as usize).min(bytes.len().saturating_sub(1));
        // SAFETY: a prefetch never faults, and the address is inside the slice anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                bytes.as_ptr().add(i) as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, idx);
}

/// `word` with nibble `k` replaced by `v` (at most 15).
#[inline(always)]
fn set_nibble(word: u32, k: usize, v: u32) -> u32 {
    (word & !(15 << (4 * k))) | (v << (4 * k))
}

/// The sum of a word's eight nibbles: add them pairwise into bytes (at most 30 each), then
/// add the four bytes with one multiplication (at most 120, so nothing carries).
#[inline(always)]
fn nibble_sum(word: u32) -> u32 {
    let bytes = (word & 0x0f0f_0f0f) + ((word >> 4) & 0x0f0f_0f0f);
    bytes.wrapping_mul(0x0101_0101) >> 24
}

/// Patterns a heuristic combines: eight, the nibbles of one word in [`PdbState`]. Default
/// partitions have at most four (5x5: 6-6-6-6); the tests' small 5x5 partitions use eight.
pub const MAX_PATTERNS: usize = 8;

/// The pattern-database heuristic: the sum of the patterns' entries, and the same sum for
/// the board's mirror image (when a symmetry fixes the goal's blank), taking the larger.
///
/// Both sums are admissible: each counts only moves of its own pattern's tiles, patterns
/// are disjoint, and the mirror image is the same problem in other coordinates.
pub struct PdbHeuristic {
    pub partition: Partition,
    pub tables: Vec<Table>,
    rankers: Vec<Ranker>,
    /// Pattern and slot of each label.
    pat_of: [u8; MAX_CELLS],
    slot_of: [u8; MAX_CELLS],
    /// The mirror: label/cell map (an involution or not, we keep both ways).
    mirror: Option<[u8; MAX_CELLS]>,
    mirror_map: [u8; MAX_CELLS],
    mirror_inv: [u8; MAX_CELLS],
    /// `weights[pattern][slot]`: what one step of that tile's rank digit is worth.
    weights: [[u32; MAX_CELLS]; MAX_PATTERNS],
    /// Whether lookups include the mirror image.
    pub use_mirror: bool,
}

/// Per-node data for [`PdbHeuristic`]: each pattern's index for the board and for its
/// mirror image, with the values read so far. No tile positions: a move changes one index
/// by an amount that depends only on the tiles between the two cells it swaps. The values
/// are 4-bit entries, kept a nibble each in one word: the state is copied for every child.
#[derive(Clone, Copy, Debug)]
pub struct PdbState<const P: usize> {
    idx: [u32; P],
    ridx: [u32; P],
    val: u32,
    rval: u32,
    md: u16,
    /// Which pattern changed last (its value must be re-read), or 255.
    dirty: u8,
    rdirty: u8,
}

impl PdbHeuristic {
    /// Combines opened tables for `partition`.
    ///
    /// # Errors
    /// A partition of more than [`MAX_PATTERNS`] patterns.
    pub fn new(partition: Partition, tables: Vec<Table>) -> Result<PdbHeuristic, TableError> {
        let shape = partition.shape;
        let n = shape.cells();
        if partition.patterns.len() > MAX_PATTERNS {
            return Err(TableError::Unsupported(format!(
                "pattern-database search takes at most {MAX_PATTERNS} patterns"
            )));
        }
        let mut pat_of = [255u8; MAX_CELLS];
        let mut slot_of = [255u8; MAX_CELLS];
        for (p, tiles) in partition.patterns.iter().enumerate() {
            for (s, &t) in tiles.iter().enumerate() {
                pat_of[t as usize] = p as u8;
                slot_of[t as usize] = s as u8;
            }
        }
        let rankers = partition
            .patterns
            .iter()
            .map(|t| Ranker::new(n, t.len()))
            .collect();
        // The mirror: a symmetry other than the identity that keeps the blank's goal cell.
        let mirror_sym = Symmetry::all(shape)
            .into_iter()
            .filter(|&s| {
                s != Symmetry::IDENTITY
                    && s.cell(shape, partition.blank as usize) == partition.blank as usize
            })
            .max_by_key(|s| s.transpose);
        let mirror = mirror_sym.map(|s| {
            let mut m = [0u8; MAX_CELLS];
            for c in 0..n {
                m[c] = s.cell(shape, c) as u8;
            }
            m
        });
        let mut weights = [[0u32; MAX_CELLS]; MAX_PATTERNS];
        for (p, tiles) in partition.patterns.iter().enumerate() {
            let r = Ranker::new(n, tiles.len());
            for s in 0..tiles.len() {
                weights[p][s] = r.weight(s) as u32;
            }
        }
        let mut mirror_map = [0u8; MAX_CELLS];
        let mut mirror_inv = [0u8; MAX_CELLS];
        if let Some(m) = &mirror {
            for c in 0..n {
                mirror_map[c] = m[c];
                mirror_inv[m[c] as usize] = c as u8;
            }
        }
        Ok(PdbHeuristic {
            partition,
            tables,
            rankers,
            pat_of,
            slot_of,
            mirror,
            mirror_map,
            mirror_inv,
            weights,
            use_mirror: mirror_sym.is_some(),
        })
    }

    /// Whether these tables can serve this board (same shape, blank cell equal up to
    /// symmetry).
    pub fn fits(&self, l: &Labels) -> bool {
        self.symmetry_for(l).is_some()
    }

    /// The symmetry that puts the board's goal blank where the tables want it.
    pub fn symmetry_for(&self, l: &Labels) -> Option<Symmetry> {
        if l.shape != self.partition.shape {
            return None;
        }
        Symmetry::all(l.shape)
            .into_iter()
            .find(|s| s.cell(l.shape, l.blank_label as usize) == self.partition.blank as usize)
    }

    #[inline(always)]
    fn rank_of(&self, p: usize, pos: &[u8; MAX_CELLS]) -> u32 {
        let tiles = &self.partition.patterns[p];
        let mut buf = [0u8; MAX_CELLS];
        for (i, &t) in tiles.iter().enumerate() {
            buf[i] = pos[t as usize];
        }
        self.rankers[p].rank(&buf[..tiles.len()]) as u32
    }

    /// The heuristic of a whole board, computed from scratch (for tests and checks).
    pub fn evaluate<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        let mut st = self.root(geo, p);
        self.h(&mut st)
    }
}

impl PdbHeuristic {
    /// How a pattern's index changes when tile `label` slides from `from` to `to`, on a
    /// board (after the move) whose cell `c` holds label `label_at(c)`.
    ///
    /// With lexicographic ranks, a tile's digit is its cell minus the earlier tiles of its
    /// pattern below that cell. A sideways move passes no cell, so only the tile's own digit
    /// changes, by one. An up/down move passes `cols - 1` cells: the tile's digit changes by
    /// `cols` less the earlier tiles passed, and each later tile passed gains or loses one.
    #[inline(always)]
    fn delta(
        &self,
        cols: usize,
        label: usize,
        from: usize,
        to: usize,
        label_at: impl Fn(usize) -> usize,
    ) -> (usize, u32) {
        let k = self.pat_of[label] as usize;
        let i = self.slot_of[label] as usize;
        let w = &self.weights[k];
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        let d = if hi - lo == 1 {
            w[i]
        } else {
            let mut earlier = 0u32;
            let mut later = 0u32;
            for c in lo + 1..hi {
                let l = label_at(c);
                if self.pat_of[l] as usize == k {
                    let sl = self.slot_of[l] as usize;
                    if sl < i {
                        earlier += 1;
                    } else {
                        later += w[sl];
                    }
                }
            }
            (cols as u32 - earlier) * w[i] + later
        };
        (k, if to > from { d } else { d.wrapping_neg() })
    }
}

/// The heuristic with room for `P` patterns in its per-node state. The state is copied for
/// every child, so the solver picks the smallest `P` that holds the partition: four for
/// every default partition (measured: eight slots cost the Korf 100 a few percent).
///
/// # Panics
/// (in `root`) if the heuristic has more than `P` patterns.
pub struct Patterns<'a, const P: usize>(pub &'a PdbHeuristic);

impl Heuristic for PdbHeuristic {
    type State = PdbState<MAX_PATTERNS>;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State {
        Patterns(self).root(geo, p)
    }

    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &Self::State,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> Self::State {
        Patterns(self).child(geo, s, p, label, from, to)
    }

    #[inline(always)]
    fn h(&self, st: &mut Self::State) -> u32 {
        Patterns(self).h(st)
    }
}

impl<const P: usize> Heuristic for Patterns<'_, P> {
    type State = PdbState<P>;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> PdbState<P> {
        assert!(
            self.0.tables.len() <= P,
            "more patterns than the state holds"
        );
        let n = geo.cells;
        let mut pos = [0u8; MAX_CELLS];
        for c in 0..n {
            pos[p.get(c)] = c as u8;
        }
        let mut rpos = [0u8; MAX_CELLS];
        if let Some(m) = &self.0.mirror {
            for l in 0..n {
                rpos[m[l] as usize] = m[pos[l] as usize];
            }
        }
        let mut st = PdbState {
            idx: [0; P],
            ridx: [0; P],
            val: 0,
            rval: 0,
            md: geo.manhattan(p) as u16,
            dirty: 255,
            rdirty: 255,
        };
        for k in 0..self.0.tables.len() {
            st.idx[k] = self.0.rank_of(k, &pos);
            st.val = set_nibble(st.val, k, nibble(self.0.tables[k].payload(), st.idx[k]));
            if self.0.use_mirror {
                st.ridx[k] = self.0.rank_of(k, &rpos);
                st.rval = set_nibble(st.rval, k, nibble(self.0.tables[k].payload(), st.ridx[k]));
            }
        }
        st
    }

    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &PdbState<P>,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> PdbState<P> {
        let mut st = *s;
        st.md = (s.md as u32 + geo.md[label][to] as u32 - geo.md[label][from] as u32) as u16;
        let cols = geo.shape.cols as usize;
        let (k, d) = self.0.delta(cols, label, from, to, |c| p.get(c));
        st.idx[k] = st.idx[k].wrapping_add(d);
        st.dirty = k as u8;
        prefetch(self.0.tables[k].payload(), st.idx[k]);
        if self.0.use_mirror {
            let m = &self.0.mirror_map;
            let mi = &self.0.mirror_inv;
            let (rk, rd) = self.0.delta(
                cols,
                m[label] as usize,
                m[from] as usize,
                m[to] as usize,
                |c| m[p.get(mi[c] as usize)] as usize,
            );
            st.ridx[rk] = st.ridx[rk].wrapping_add(rd);
            st.rdirty = rk as u8;
            prefetch(self.0.tables[rk].payload(), st.ridx[rk]);
        }
        st
    }

    #[inline(always)]
    fn h(&self, st: &mut PdbState<P>) -> u32 {
        if st.dirty != 255 {
            let k = st.dirty as usize;
            st.val = set_nibble(st.val, k, nibble(self.0.tables[k].payload(), st.idx[k]));
            st.dirty = 255;
        }
        let mut sum = nibble_sum(st.val);
        if self.0.use_mirror {
            if st.rdirty != 255 {
                let k = st.rdirty as usize;
                st.rval = set_nibble(st.rval, k, nibble(self.0.tables[k].payload(), st.ridx[k]));
                st.rdirty = 255;
            }
            sum = sum.max(nibble_sum(st.rval));
        }
        st.md as u32 + 2 * sum
    }
}

/// Where tables live and how to get them: opened if present, built if not.
#[derive(Clone, Debug)]
pub struct TableDir {
    pub dir: PathBuf,
}

impl TableDir {
    pub fn new(dir: impl Into<PathBuf>) -> TableDir {
        TableDir { dir: dir.into() }
    }

    pub fn path(&self, spec: &PatternSpec) -> PathBuf {
        self.dir.join(spec.file_name())
    }

    /// Which of the partition's tables are missing.
    pub fn missing(&self, partition: &Partition) -> Vec<PatternSpec> {
        partition
            .specs()
            .into_iter()
            .filter(|s| !self.path(s).exists())
            .collect()
    }

    /// Builds and saves the tables that are missing.
    ///
    /// # Errors
    /// A failed build or write.
    pub fn build_missing(
        &self,
        partition: &Partition,
        progress: &(dyn Fn(usize, &PatternSpec, BuildEvent) + Sync),
    ) -> Result<Vec<(PatternSpec, Built)>, TableError> {
        let mut out = Vec::new();
        for (i, spec) in self.missing(partition).into_iter().enumerate() {
            let built = build(&spec, &|e| progress(i, &spec, e))?;
            let path = save(&self.dir, &spec, &built)?;
            progress(i, &spec, BuildEvent::Saved { path });
            out.push((spec, built));
        }
        Ok(out)
    }

    /// Maps the partition's tables.
    ///
    /// # Safety
    /// As [`Table::map`]: the files must not be truncated or rewritten in place while the
    /// heuristic lives.
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub unsafe fn map(&self, partition: &Partition) -> Result<Arc<PdbHeuristic>, TableError> {
        let mut tables = Vec::new();
        for spec in partition.specs() {
            // SAFETY: forwarded to our caller.
            tables.push(unsafe { Table::map(&self.path(&spec), &spec) }?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }

    /// Reads the partition's tables into memory, verifying checksums.
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub fn read(&self, partition: &Partition) -> Result<Arc<PdbHeuristic>, TableError> {
        let mut tables = Vec::new();
        for spec in partition.specs() {
            tables.push(Table::read(&self.path(&spec), &spec)?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }
}

/// Reads a table file's header on its own, to say what the file is for (used by
/// `fifteen tables list`), and checks it against itself and against the file's name.
///
/// # Errors
/// A file that is unreadable, whose header is damaged, or whose name says another table.
pub fn inspect(path: &Path) -> Result<(PatternSpec, Header), TableError> {
    let mut file = File::open(path).map_err(|error| TableError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let (head, len) = read_head(path, &mut file, || rebuild_for_name(path))?;
    inspect_header(path, &head, len)
}

/// [`inspect`] on a file's first bytes (`PAYLOAD_OFFSET` of them, or all of a shorter
/// file) and its length. Never panics, whatever the bytes.
///
/// # Errors
/// A header that is damaged or describes no table this program builds, or a file name
/// that says another table.
pub fn inspect_header(
    path: &Path,
    head: &[u8],
    file_len: u64,
) -> Result<(PatternSpec, Header), TableError> {
    let fail = |f: Fault| f.into_error(path, rebuild_for_name(path));
    let h = decode_header(head).map_err(fail)?;
    let spec = spec_of_header(&h).map_err(fail)?;
    check_header(&h, file_len, &spec).map_err(fail)?;
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name);
    if let Some(named) = named {
        if named != spec {
            return Err(fail(Fault::Mismatch(format!(
                "the header is for {}, the file name for {}",
                spec.file_name(),
                named.file_name()
            ))));
        }
    }
    Ok((spec, h))
}

/// The rebuild command for a file known only by its path: exact when the name is a table
/// name, otherwise the general one.
fn rebuild_for_name(path: &Path) -> String {
    let dir = path.parent().unwrap_or(Path::new("."));
    match path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name)
    {
        Some(spec) => rebuild_command(&spec, dir),
        None => format!("build-pdb --force --out {}", dir.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibble_words_hold_and_sum_eight_values() {
        let mut rng = crate::random::Rng::new(5);
        for _ in 0..10_000 {
            let vals: Vec<u32> = (0..MAX_PATTERNS).map(|_| rng.below(16) as u32).collect();
            let mut word = rng.below(u32::MAX as u64) as u32;
            for (k, &v) in vals.iter().enumerate() {
                word = set_nibble(word, k, v);
            }
            for (k, &v) in vals.iter().enumerate() {
                assert_eq!((word >> (4 * k)) & 15, v);
            }
            assert_eq!(nibble_sum(word), vals.iter().sum::<u32>(), "{vals:?}");
        }
        assert_eq!(nibble_sum(u32::MAX), 120);
    }
}
