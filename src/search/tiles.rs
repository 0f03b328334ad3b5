//! How the search holds a board: one word of 4-bit cells ([`Packed`]) for boards of up to
//! 16 cells, a byte a cell ([`Wide`]) for larger ones, both behind [`Tiles`].

use crate::board::MAX_CELLS;

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
    /// A well-mixed hash of the board, to pick its slot in a [`Seen`](super::Seen) table.
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
    /// The label of cell `c` in bits `4c..4c+4`.
    pub cells: u64,
    /// The blank's cell, so that a move need not search for it.
    pub blank: u8,
}

impl Packed {
    /// The label in `cell` (the same as [`Tiles::get`], callable without the trait).
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
    /// The label of each cell; cells past the board's hold 0.
    pub cells: [u8; MAX_CELLS],
    /// The blank's cell, so that a move need not search for it.
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
    /// same search, down to the slots of a weighted search's [`Seen`](super::Seen) table.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn both_packings_hold_the_same_board_along_a_walk() {
        let mut rng = Rng::new(7);
        let (cells, blank_label) = (16, 15);
        let mut p = Packed::from_fn(cells, 15, |c| c);
        let mut w = Wide::from_fn(cells, 15, |c| c);
        for _ in 0..1000 {
            let to = rng.below(cells as u64) as usize;
            if to == p.blank() {
                continue;
            }
            let label = p.get(to);
            p = p.slide(to, label, blank_label);
            w = w.slide(to, label, blank_label);
            assert_eq!(p.blank(), w.blank());
            assert!((0..cells).all(|c| p.get(c) == Tiles::get(&w, c)));
            assert_eq!(p.fingerprint(), w.fingerprint());
        }
        assert_eq!(Tiles::get(&p, p.blank()), blank_label);
    }

    #[test]
    fn a_wide_board_of_more_than_16_cells_fingerprints_its_other_cells_too() {
        let a = Wide::from_fn(25, 24, |c| c);
        let b = a.slide(19, 19, 24).slide(18, 18, 24);
        assert_eq!(a.cells[..16], b.cells[..16]);
        assert_ne!(a, b);
        assert_ne!(a.fingerprint(), b.fingerprint());
    }
}
