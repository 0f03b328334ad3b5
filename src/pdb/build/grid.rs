//! Cells as bits of a word: the board's neighbours and the blank's regions.

use crate::board::Shape;

/// Geometry helpers on cell bitmasks.
pub(super) struct Grid {
    cols: usize,
    /// Every cell of the board.
    pub(super) all: u64,
    not_first_col: u64,
    not_last_col: u64,
}

impl Grid {
    pub(super) fn new(shape: Shape) -> Grid {
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
        Grid {
            cols,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
        }
    }

    /// The cells of `r` and those next to them.
    #[inline(always)]
    pub(super) fn dilate(&self, r: u64) -> u64 {
        (r | (r << self.cols)
            | (r >> self.cols)
            | ((r << 1) & self.not_first_col)
            | ((r >> 1) & self.not_last_col))
            & self.all
    }

    /// Every set of `k` of the board's cells, as masks in increasing order, which is colex
    /// order (Gosper's hack): the builder's blocks, in the order it numbers them.
    pub(super) fn sets(&self, k: usize) -> impl Iterator<Item = u64> + '_ {
        let mut next = Some((1u64 << k) - 1);
        std::iter::from_fn(move || {
            let m = next.filter(|&m| m & !self.all == 0)?;
            next = (m != 0).then(|| {
                let low = m & m.wrapping_neg();
                let ripple = m + low;
                (((ripple ^ m) >> 2) / low) | ripple
            });
            Some(m)
        })
    }

    /// The connected regions of `free`, lowest cell first.
    pub(super) fn regions(&self, free: u64) -> impl Iterator<Item = u64> + '_ {
        let mut rest = free;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let r = self.region(rest.trailing_zeros() as usize, free);
                rest &= !r;
                r
            })
        })
    }

    /// The cells of `free` connected to `cell` (which must be free).
    pub(super) fn region(&self, cell: usize, free: u64) -> u64 {
        let mut r = 1 << cell;
        loop {
            let grow = self.dilate(r) & free;
            if grow == r {
                return r;
            }
            r = grow;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a 3x4 board: the neighbours stay on the board, and regions stop at tiles.
    #[test]
    fn neighbours_and_regions_on_a_rectangle() {
        let g = Grid::new(Shape::new(3, 4).unwrap());
        // Cell 4 (row 1, column 0): up 0, down 8, right 5; nothing wraps to cell 3.
        assert_eq!(g.dilate(1 << 4), 1 << 4 | 1 << 0 | 1 << 8 | 1 << 5);
        // Cell 11 (the last corner): left 10, up 7.
        assert_eq!(g.dilate(1 << 11), 1 << 11 | 1 << 10 | 1 << 7);
        // A wall of tiles down column 1 cuts column 0 from the rest.
        let free = g.all & !(1 << 1 | 1 << 5 | 1 << 9);
        assert_eq!(g.region(4, free), 1 << 0 | 1 << 4 | 1 << 8);
        assert_eq!(g.region(11, free).count_ones(), 6);
    }
}
