//! The opened tables as the search's heuristic: per node, each pattern's index for the board
//! and its mirror image, updated incrementally by each move.

use crate::board::MAX_CELLS;
use crate::board::{Labels, Symmetry};
use crate::error::TableError;
use crate::rank::Ranker;
use crate::search::{Geometry, Heuristic, Tiles};

use super::partition::Partition;
use super::table::Table;

/// The value a table holds for a placement index: halved excess over Manhattan distance.
#[inline(always)]
pub(super) fn nibble(bytes: &[u8], idx: u32) -> u32 {
    ((bytes[(idx >> 1) as usize] >> ((idx & 1) << 2)) & 15) as u32
}

#[inline(always)]
pub(super) fn prefetch(bytes: &[u8], idx: u32) {
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
pub(super) fn set_nibble(word: u32, k: usize, v: u32) -> u32 {
    (word & !(15 << (4 * k))) | (v << (4 * k))
}

/// The sum of a word's eight nibbles: add them pairwise into bytes (at most 30 each), then
/// add the four bytes with one multiplication (at most 120, so nothing carries).
#[inline(always)]
pub(super) fn nibble_sum(word: u32) -> u32 {
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
    /// The patterns, in the order of `tables`.
    pub partition: Partition,
    /// One opened table per pattern.
    pub tables: Vec<Table>,
    pub(super) rankers: Vec<Ranker>,
    /// Pattern and slot of each label.
    pub(super) pat_of: [u8; MAX_CELLS],
    pub(super) slot_of: [u8; MAX_CELLS],
    /// The mirror: label/cell map (an involution or not, we keep both ways).
    mirror: Option<[u8; MAX_CELLS]>,
    pub(super) mirror_map: [u8; MAX_CELLS],
    pub(super) mirror_inv: [u8; MAX_CELLS],
    /// `weights[pattern][slot]`: what one step of that tile's rank digit is worth.
    weights: [[u32; MAX_CELLS]; MAX_PATTERNS],
    /// Whether lookups include the mirror image: when a symmetry keeps the goal's blank
    /// and does not map the partition onto itself.
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
    /// Whether every table file is as it was when mapped ([`Table::unchanged`]).
    ///
    /// # Errors
    /// [`TableError::Changed`] for the first that is not.
    pub fn unchanged(&self) -> Result<(), TableError> {
        self.tables.iter().try_for_each(Table::unchanged)
    }

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
        // A partition that the mirror maps onto itself (each group onto a group) gains
        // nothing from the mirror image: the mirror maps each group's placements and
        // distances onto its image group's, so the two sums are equal, board for board.
        // Measured on the second 4x4 partition (its own mirror image): the same nodes, 12 to
        // 15% less time without the lookup.
        let self_mirror = mirror.as_ref().is_some_and(|m| {
            partition.patterns.iter().all(|g| {
                let mut image: Vec<u8> = g.iter().map(|&t| m[t as usize]).collect();
                image.sort_unstable();
                partition.patterns.iter().any(|h| {
                    let mut h = h.clone();
                    h.sort_unstable();
                    h == image
                })
            })
        });
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
            use_mirror: mirror_sym.is_some() && !self_mirror,
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
/// every child, so the solver picks the smallest `P` that holds the partition: two for the
/// 4x4's, four for the 5x5's (measured on the Korf 100: eight slots cost a few percent
/// against four, and four 5% against two).
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
