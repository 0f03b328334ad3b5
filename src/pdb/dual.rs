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
//! region of the goal's blank cell for the pattern's own table. The dual's blank ends on
//! `b`, so a pattern whose tiles at home cut `b` off from the goal's blank cell (the tiles
//! around a corner blank do) needs a table for `b`'s region: the same pattern built for a
//! goal blank in that region ([`DualTables::specs`], a few tens of megabytes). Without
//! it, or when `b` is one of the pattern's cells (then one of its labels is the dual's
//! blank), the pattern adds only its Manhattan distance; the dual's Manhattan distance is
//! the board's (the same pairs of cell and goal cell, read the other way round).
//!
//! Measured before the region tables (5x5, 6-6-6-6): read only where `b` is in the goal
//! blank's region, the corner pattern almost never counts and the dual saves 7% of the
//! nodes; tables that let the blank end anywhere are admissible everywhere but five times
//! weaker for the board itself.

use std::sync::Arc;

use crate::board::{Dir, MAX_CELLS};
use crate::error::TableError;
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

/// A partition's tables as read for the dual board: each pattern's own table, and for
/// each region of free cells the goal's blank does not reach, the pattern's table for a
/// goal blank there.
pub struct DualTables {
    /// The partition's own tables (read for the board itself too).
    pub pdb: Arc<PdbHeuristic>,
    /// The region tables, in the order of [`DualTables::specs`].
    extra: Vec<Table>,
    /// `src[k][b]`: the table pattern `k` is read from when the dual's blank is on `b`:
    /// `k` (its own), `patterns + j` (region table `j`), or 255 (none: a cell of the
    /// pattern, or a region without its table).
    src: [[u8; MAX_CELLS]; super::MAX_PATTERNS],
    /// `ok[b]`: nibble `k` is 15 when pattern `k` has a table for the dual's blank on `b`.
    ok: [u32; MAX_CELLS],
}

impl DualTables {
    /// The region tables a partition's dual lookups need, with the pattern each serves:
    /// per pattern, one for each region of the cells its tiles at home leave free, other
    /// than the goal blank's; built for a goal blank on the region's first cell (which
    /// seeds the backward search with exactly that region).
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
        }
        out
    }

    /// The dual lookups of `pdb`'s partition with `extra`, the tables of
    /// [`DualTables::specs`] in that order (fewer, or none, leave the regions without
    /// them to Manhattan distance).
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
                "more region tables than the partition has regions".into(),
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
            if table.payload().len() != pdb.tables[*k].payload().len() {
                return Err(TableError::Unsupported(format!(
                    "region table {j} does not fit {}",
                    spec.file_name()
                )));
            }
            let taken = spec.tiles.iter().fold(0u64, |m, &t| m | 1 << t);
            let cells = region(partition, spec.blank as usize, taken);
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
        Ok(DualTables {
            pdb,
            extra,
            src,
            ok,
        })
    }

    /// The entry of pattern `k`'s dual index `idx` with the dual's blank on `b`.
    #[inline(always)]
    fn payload(&self, k: usize, b: usize) -> &[u8] {
        let i = self.src[k][b] as usize;
        let own = self.pdb.tables.len();
        if i < own {
            &self.pdb.tables[i].payload()
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
/// image, with the values read so far. A pattern's index is stale while the blank is on
/// one of its cells (its entry is masked off then), and is ranked afresh, and read from
/// the table of the blank's region, when the blank leaves. The blank cannot change a
/// pattern's region without passing one of its cells.
#[derive(Clone, Copy, Debug)]
pub struct DualState<const P: usize> {
    idx: [u32; P],
    ridx: [u32; P],
    val: u32,
    rval: u32,
    md: u16,
    blank: u8,
    /// Which pattern was ranked last (its value must be read), or 255.
    dirty: u8,
    rdirty: u8,
}

impl<const P: usize> Dual<'_, P> {
    /// The dual index of pattern `k`: the rank of the labels on its tiles' cells, of the
    /// board (`mirror` false) or of its mirror image.
    #[inline(always)]
    fn rank<T: Tiles>(&self, k: usize, p: &T, mirror: bool) -> u32 {
        let h = &*self.0.pdb;
        let tiles = &h.partition.patterns[k];
        let mut buf = [0u8; MAX_CELLS];
        for (i, &t) in tiles.iter().enumerate() {
            buf[i] = if mirror {
                h.mirror_map[p.get(h.mirror_inv[t as usize] as usize)]
            } else {
                p.get(t as usize) as u8
            };
        }
        h.rankers[k].rank(&buf[..tiles.len()]) as u32
    }

    /// The pattern whose dual index a move changes, if it has an entry afterwards: the
    /// pattern of cell `to` (which the moved tile now holds), unless the blank, now on
    /// `from`, is on one of its cells too or in a region without a table.
    #[inline(always)]
    fn changed(&self, from: usize, to: usize) -> Option<usize> {
        let k = self.0.pdb.pat_of[to] as usize;
        (k != 255 && self.0.src[k][from] != 255).then_some(k)
    }

    /// Reads pattern `k`'s entry at `idx` for the dual's blank on `b` into nibble `k` of
    /// `val`.
    #[inline(always)]
    fn read(&self, val: u32, k: usize, idx: u32, b: usize) -> u32 {
        set_nibble(val, k, nibble(self.0.payload(k, b), idx))
    }
}

impl<const P: usize> Heuristic for Dual<'_, P> {
    type State = DualState<P>;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> DualState<P> {
        let h = &*self.0.pdb;
        assert!(h.tables.len() <= P, "more patterns than the state holds");
        let blank = p.blank();
        let mut st = DualState {
            idx: [0; P],
            ridx: [0; P],
            val: 0,
            rval: 0,
            md: geo.manhattan(p) as u16,
            blank: blank as u8,
            dirty: 255,
            rdirty: 255,
        };
        let rblank = h.mirror_map[blank] as usize;
        for k in 0..h.tables.len() {
            if self.0.src[k][blank] != 255 {
                st.idx[k] = self.rank(k, p, false);
                st.val = self.read(st.val, k, st.idx[k], blank);
            }
            if h.use_mirror && self.0.src[k][rblank] != 255 {
                st.ridx[k] = self.rank(k, p, true);
                st.rval = self.read(st.rval, k, st.ridx[k], rblank);
            }
        }
        st
    }

    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &DualState<P>,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> DualState<P> {
        let h = &*self.0.pdb;
        let mut st = *s;
        // A parent whose entry was never read (a lazy max that cut it) passes it on read.
        self.settle(&mut st);
        st.md = (s.md as u32 + geo.md[label][to] as u32 - geo.md[label][from] as u32) as u16;
        st.blank = from as u8;
        if let Some(k) = self.changed(from, to) {
            st.idx[k] = self.rank(k, p, false);
            st.dirty = k as u8;
            prefetch(self.0.payload(k, from), st.idx[k]);
        }
        if h.use_mirror {
            let m = &h.mirror_map;
            let (rfrom, rto) = (m[from] as usize, m[to] as usize);
            if let Some(k) = self.changed(rfrom, rto) {
                st.ridx[k] = self.rank(k, p, true);
                st.rdirty = k as u8;
                prefetch(self.0.payload(k, rfrom), st.ridx[k]);
            }
        }
        st
    }

    #[inline(always)]
    fn h(&self, st: &mut DualState<P>) -> u32 {
        let h = &*self.0.pdb;
        self.settle(st);
        let b = st.blank as usize;
        let mut sum = nibble_sum(st.val & self.0.ok[b]);
        if h.use_mirror {
            let rb = h.mirror_map[b] as usize;
            sum = sum.max(nibble_sum(st.rval & self.0.ok[rb]));
        }
        st.md as u32 + 2 * sum
    }
}

impl<const P: usize> Dual<'_, P> {
    /// Reads the entries ranked but not read yet.
    #[inline(always)]
    fn settle(&self, st: &mut DualState<P>) {
        let b = st.blank as usize;
        if st.dirty != 255 {
            let k = st.dirty as usize;
            st.val = self.read(st.val, k, st.idx[k], b);
            st.dirty = 255;
        }
        if st.rdirty != 255 {
            let k = st.rdirty as usize;
            let rb = self.0.pdb.mirror_map[b] as usize;
            st.rval = self.read(st.rval, k, st.ridx[k], rb);
            st.rdirty = 255;
        }
    }
}
