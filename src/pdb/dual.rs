//! Dual lookups: the same tables read for the board's dual, a second admissible estimate
//! from the same memory (Felner, Zahavi, Schaeffer and Holte, IJCAI 2005; Zahavi, Felner,
//! Holte and Schaeffer, AIJ 2008, for the blank anywhere).
//!
//! Why the dual is the same problem: in labels (each tile named by its goal cell) a board
//! is an arrangement `A`, cell to label, and the goal is the identity. Renaming every label
//! `x` to the cell where `x` sits keeps every move legal (a move only asks where the moving
//! label is) and turns the pair (board, goal) into (identity, `pos`); reversed, the board
//! `pos` (label `l` on cell `A[l]`, the label that sits on cell `l`) must reach the identity
//! with the blank, now label `b` (the board's blank cell), ending on cell `b`. Both
//! problems have the same shortest solutions' length.
//!
//! So a pattern's dual index is the rank of the labels on its tiles' goal cells, read
//! straight off the board. A table counts the pattern's moves to its tiles' home with the
//! blank ending in one region of the cells those tiles leave free (`pdb::build`): the
//! region of the goal's blank cell, for the pattern's own table. The dual's blank ends on
//! `b` instead, which asks for two kinds of extra tables ([`DualTables::specs`]):
//! - `b` in a region the goal's blank does not reach (the tiles around a corner blank cut
//!   it off): the same pattern built for a goal blank in that region;
//! - `b` one of the pattern's cells: then the label `b` is the dual's blank, and the rest
//!   of the pattern is a pattern of one tile fewer, built for a goal blank on `b`.
//!
//! Both are small beside the pattern's own table (5x5: 25 of them in 140 MB against 255
//! MB). A pattern without its extra table adds only its Manhattan distance; the dual's
//! Manhattan distance is the board's (the same pairs of cell and goal cell, read the
//! other way round).

use std::sync::Arc;

use crate::board::{Dir, MAX_CELLS};
use crate::error::TableError;
use crate::rank::Ranker;
use crate::search::{Geometry, Heuristic, Tiles};

use super::heuristic::{nibble, nibble_sum, prefetch, set_nibble};
use super::partition::{Partition, PatternSpec};
use super::table::Table;
use super::PdbHeuristic;

/// The cells the blank reaches from `from` without passing a cell of `taken`.
fn region(partition: &Partition, from: usize, taken: u64) -> u64 {
    let mut seen = 1u64 << from;
    let mut todo = vec![from];
    while let Some(c) = todo.pop() {
        for d in Dir::ALL {
            if let Some(n) = partition.shape.step(c, d) {
                if taken & (1 << n) == 0 && seen & (1 << n) == 0 {
                    seen |= 1 << n;
                    todo.push(n);
                }
            }
        }
    }
    seen
}

/// A partition's tables as read for the dual board: each pattern's own table; for each
/// region of free cells the goal's blank does not reach, the pattern's table for a goal
/// blank there; for each of its cells, the rest of the pattern's table for a goal blank
/// on that cell.
pub struct DualTables {
    /// The partition's own tables (read for the board itself too).
    pub pdb: Arc<PdbHeuristic>,
    /// The extra tables, in the order of [`DualTables::specs`].
    extra: Vec<Table>,
    /// `src[k][b]`: the table pattern `k` is read from when the dual's blank is on `b`:
    /// `k` (its own), `patterns + j` (extra table `j`), or 255 (none).
    src: [[u8; MAX_CELLS]; super::MAX_PATTERNS],
    /// `ok[b]`: nibble `k` is 15 when pattern `k` has a table for the dual's blank on `b`.
    ok: [u32; MAX_CELLS],
    /// Rankers for each pattern less one tile.
    short: Vec<Ranker>,
}

impl DualTables {
    /// Whether every table file it reads is as it was when mapped ([`Table::unchanged`]).
    ///
    /// # Errors
    /// [`TableError::Changed`] for the first that is not.
    pub fn unchanged(&self) -> Result<(), TableError> {
        self.pdb.unchanged()?;
        self.extra.iter().try_for_each(Table::unchanged)
    }

    /// The extra tables a partition's dual lookups read, with the pattern each serves: per
    /// pattern, one for each region of the cells its tiles at home leave free other than
    /// the goal blank's (built for a goal blank on the region's first cell, which seeds
    /// the backward search with exactly that region); and one for each of its tiles, of
    /// the other tiles, built for a goal blank on that tile's cell.
    pub fn specs(partition: &Partition) -> Vec<(usize, PatternSpec)> {
        let n = partition.shape.cells();
        let mut out = Vec::new();
        for (k, tiles) in partition.patterns.iter().enumerate() {
            let taken = tiles.iter().fold(0u64, |m, &t| m | 1 << t);
            let mut covered = taken | region(partition, partition.blank as usize, taken);
            for c in 0..n {
                if covered & (1 << c) == 0 {
                    covered |= region(partition, c, taken);
                    let spec = PatternSpec {
                        shape: partition.shape,
                        blank: c as u8,
                        tiles: tiles.clone(),
                    };
                    out.push((k, spec));
                }
            }
            if tiles.len() > 1 {
                for &x in tiles {
                    let rest = tiles.iter().copied().filter(|&t| t != x).collect();
                    let spec = PatternSpec {
                        shape: partition.shape,
                        blank: x,
                        tiles: rest,
                    };
                    out.push((k, spec));
                }
            }
        }
        out
    }

    /// The dual lookups of `pdb`'s partition with `extra`, the tables of
    /// [`DualTables::specs`] in that order (fewer, or none, leave the cells without them
    /// to Manhattan distance).
    ///
    /// # Errors
    /// A table that is not one of those specs.
    pub fn new(pdb: Arc<PdbHeuristic>, extra: Vec<Table>) -> Result<DualTables, TableError> {
        let partition = &pdb.partition;
        let n = partition.shape.cells();
        let patterns = partition.patterns.len();
        let specs = DualTables::specs(partition);
        if extra.len() > specs.len() || patterns + specs.len() > 255 {
            return Err(TableError::Unsupported(
                "more extra tables than the partition's dual lookups read".into(),
            ));
        }
        let mut src = [[255u8; MAX_CELLS]; super::MAX_PATTERNS];
        for (k, tiles) in partition.patterns.iter().enumerate() {
            let taken = tiles.iter().fold(0u64, |m, &t| m | 1 << t);
            let home = region(partition, partition.blank as usize, taken);
            for (b, s) in src[k].iter_mut().enumerate().take(n) {
                if home & (1 << b) != 0 {
                    *s = k as u8;
                }
            }
        }
        for (j, ((k, spec), table)) in specs.iter().zip(&extra).enumerate() {
            let entries = Ranker::new(n, spec.tiles.len()).count();
            if (table.payload().len() as u64) < entries.div_ceil(2) {
                return Err(TableError::Unsupported(format!(
                    "extra table {j} is too short for {}",
                    spec.file_name()
                )));
            }
            let own = &partition.patterns[*k];
            let cells = if spec.tiles.len() == own.len() {
                let taken = spec.tiles.iter().fold(0u64, |m, &t| m | 1 << t);
                region(partition, spec.blank as usize, taken)
            } else {
                1 << spec.blank
            };
            for (b, s) in src[*k].iter_mut().enumerate().take(n) {
                if cells & (1 << b) != 0 {
                    *s = (patterns + j) as u8;
                }
            }
        }
        let mut ok = [0u32; MAX_CELLS];
        for (b, o) in ok.iter_mut().enumerate().take(n) {
            for (k, s) in src.iter().enumerate().take(patterns) {
                if s[b] != 255 {
                    *o |= 15 << (4 * k);
                }
            }
        }
        let short = partition
            .patterns
            .iter()
            .map(|t| Ranker::new(n, t.len().saturating_sub(1)))
            .collect();
        Ok(DualTables {
            pdb,
            extra,
            src,
            ok,
            short,
        })
    }

    /// The table pattern `k` is read from with the dual's blank on `b` (empty for none).
    #[inline(always)]
    fn payload(&self, k: usize, b: usize) -> &[u8] {
        let i = self.src[k][b] as usize;
        let own = self.pdb.tables.len();
        if i < own {
            self.pdb.tables[i].payload()
        } else if i < 255 {
            self.extra[i - own].payload()
        } else {
            &[]
        }
    }
}

/// The tables read for the dual board (and, when the tables use it, for the dual of the
/// mirror image), the larger of the two sums. Max it with [`super::Patterns`] for the
/// board itself: each is admissible, neither is consistent (bidirectional pathmax in the
/// search makes use of that).
pub struct Dual<'a, const P: usize>(pub &'a DualTables);

/// Per-node data for [`Dual`]: each pattern's dual index, for the board and its mirror
/// image, with the values read so far. A move changes the index of the pattern (if any)
/// of each of the two cells it swaps, and only there the table read can change: the blank
/// cannot change a pattern's region without passing one of its cells. Those indices are
/// ranked in [`Heuristic::prepare`], from the child's board, and only for children that
/// the other estimates do not cut already.
#[derive(Clone, Copy, Debug)]
pub struct DualState<const P: usize> {
    idx: [u32; P],
    ridx: [u32; P],
    val: u32,
    rval: u32,
    md: u16,
    blank: u8,
    /// Patterns to rank afresh, a bit each (their entries count 0 until then).
    stale: u8,
    rstale: u8,
    /// Patterns ranked but not read yet.
    dirty: u8,
    rdirty: u8,
}

impl<const P: usize> Dual<'_, P> {
    /// The dual index of pattern `k` with the blank on `b`: the rank of the labels on its
    /// tiles' cells, of the board (`mirror` false) or of its mirror image (`b` then the
    /// image's blank), leaving out the cell `b` when it is one of the pattern's.
    #[inline(always)]
    fn rank<T: Tiles>(&self, k: usize, p: &T, mirror: bool, b: usize) -> u32 {
        let h = &*self.0.pdb;
        let tiles = &h.partition.patterns[k];
        let mut buf = [0u8; MAX_CELLS];
        let mut len = 0;
        for &t in tiles {
            if t as usize == b {
                continue;
            }
            buf[len] = if mirror {
                h.mirror_map[p.get(h.mirror_inv[t as usize] as usize)]
            } else {
                p.get(t as usize) as u8
            };
            len += 1;
        }
        let ranker = if len == tiles.len() {
            &h.rankers[k]
        } else {
            &self.0.short[k]
        };
        ranker.rank(&buf[..len]) as u32
    }

    /// The patterns of cells `a` and `b` (cells a move swapped), as bits.
    #[inline(always)]
    fn touched(&self, a: usize, b: usize) -> u8 {
        let pat_of = &self.0.pdb.pat_of;
        let bit = |c: usize| match pat_of[c] {
            255 => 0,
            k => 1u8 << k,
        };
        bit(a) | bit(b)
    }

    /// Ranks the stale patterns that have a table for the blank on `b` and prefetches
    /// their entries.
    #[inline(always)]
    fn rank_stale<T: Tiles>(
        &self,
        p: &T,
        mirror: bool,
        b: usize,
        idx: &mut [u32; P],
        stale: &mut u8,
        dirty: &mut u8,
    ) {
        while *stale != 0 {
            let k = stale.trailing_zeros() as usize;
            *stale &= *stale - 1;
            if self.0.src[k][b] != 255 {
                idx[k] = self.rank(k, p, mirror, b);
                *dirty |= 1 << k;
                prefetch(self.0.payload(k, b), idx[k]);
            }
        }
    }

    /// The sum of the entries for the blank on `b`, reading those ranked but not read yet.
    #[inline(always)]
    fn sum(&self, val: &mut u32, idx: &[u32; P], dirty: &mut u8, stale: u8, b: usize) -> u32 {
        while *dirty != 0 {
            let k = dirty.trailing_zeros() as usize;
            *val = set_nibble(*val, k, nibble(self.0.payload(k, b), idx[k]));
            *dirty &= *dirty - 1;
        }
        let mut mask = self.0.ok[b];
        let mut s = stale;
        while s != 0 {
            mask &= !(15 << (4 * s.trailing_zeros()));
            s &= s - 1;
        }
        nibble_sum(*val & mask)
    }
}

impl<const P: usize> Heuristic for Dual<'_, P> {
    type State = DualState<P>;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> DualState<P> {
        let h = &*self.0.pdb;
        assert!(h.tables.len() <= P, "more patterns than the state holds");
        let all = ((1u32 << h.tables.len()) - 1) as u8;
        let mut st = DualState {
            idx: [0; P],
            ridx: [0; P],
            val: 0,
            rval: 0,
            md: geo.manhattan(p) as u16,
            blank: p.blank() as u8,
            stale: all,
            rstale: if h.use_mirror { all } else { 0 },
            dirty: 0,
            rdirty: 0,
        };
        self.prepare(&mut st, p, u32::MAX);
        st
    }

    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &DualState<P>,
        _p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> DualState<P> {
        let h = &*self.0.pdb;
        let mut st = *s;
        // Entries of the parent never read (a lazy max that cut it) are ranked afresh.
        st.stale |= st.dirty | self.touched(from, to);
        st.dirty = 0;
        if h.use_mirror {
            let m = &h.mirror_map;
            st.rstale |= st.rdirty | self.touched(m[from] as usize, m[to] as usize);
            st.rdirty = 0;
        }
        st.md = (s.md as u32 + geo.md[label][to] as u32 - geo.md[label][from] as u32) as u16;
        st.blank = from as u8;
        st
    }

    #[inline(always)]
    fn prepare<T: Tiles>(&self, st: &mut DualState<P>, p: &T, _bound: u32) {
        let b = st.blank as usize;
        self.rank_stale(p, false, b, &mut st.idx, &mut st.stale, &mut st.dirty);
        if st.rstale != 0 {
            let rb = self.0.pdb.mirror_map[b] as usize;
            self.rank_stale(p, true, rb, &mut st.ridx, &mut st.rstale, &mut st.rdirty);
        }
    }

    const PREPARES: bool = true;

    #[inline(always)]
    fn h(&self, st: &mut DualState<P>) -> u32 {
        let h = &*self.0.pdb;
        let b = st.blank as usize;
        let mut sum = self.sum(&mut st.val, &st.idx, &mut st.dirty, st.stale, b);
        if h.use_mirror {
            let rb = h.mirror_map[b] as usize;
            sum = sum.max(self.sum(&mut st.rval, &st.ridx, &mut st.rdirty, st.rstale, rb));
        }
        st.md as u32 + 2 * sum
    }
}
