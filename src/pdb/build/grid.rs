//! Cells as bits of a word: the board's neighbours and blank regions, and the packing of a
//! mask down to the cells a pattern leaves free.

use crate::board::Shape;

/// Geometry helpers on cell bitmasks.
pub(super) struct Grid {
    pub(super) cols: usize,
    /// Every cell of the board.
    pub(super) all: u64,
    pub(super) not_first_col: u64,
    pub(super) not_last_col: u64,
    /// For boards up to 16 cells: the connected region of `cell` within `free`, at
    /// `free << 4 | cell`.
    regions: Vec<u16>,
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
        let mut g = Grid {
            cols,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
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

    /// The cells of `r` and those next to them.
    #[inline(always)]
    pub(super) fn dilate(&self, r: u64) -> u64 {
        (r | (r << self.cols)
            | (r >> self.cols)
            | ((r << 1) & self.not_first_col)
            | ((r >> 1) & self.not_last_col))
            & self.all
    }

    /// Whether [`Grid::region`] is a table lookup (boards up to 16 cells) rather than a
    /// flood fill: the BFS marks whole regions per successor only when it is.
    pub(super) fn has_table(&self) -> bool {
        !self.regions.is_empty()
    }

    /// The cells of `free` connected to any cell of `start` (a subset of `free`).
    #[inline(always)]
    pub(super) fn flood(&self, start: u64, free: u64) -> u64 {
        if self.regions.is_empty() {
            return self.flood_slow(start, free);
        }
        let mut out = 0;
        let mut rest = start;
        while rest != 0 {
            out |= self.regions[((free as usize) << 4) | rest.trailing_zeros() as usize] as u64;
            rest &= !out;
        }
        out
    }

    #[inline(always)]
    fn flood_slow(&self, start: u64, free: u64) -> u64 {
        let mut r = start;
        loop {
            let grow = self.dilate(r) & free;
            if grow == r {
                return r;
            }
            r = grow;
        }
    }

    /// Starts loading the table entry that [`Grid::region`] will read.
    #[inline(always)]
    pub(super) fn prefetch_region(&self, cell: usize, free: u64) {
        if let Some(r) = self.regions.get(((free as usize) << 4) | cell) {
            prefetch_slot(r);
        }
    }

    /// The cells of `free` connected to `cell` (which must be free).
    #[inline(always)]
    pub(super) fn region(&self, cell: usize, free: u64) -> u64 {
        if !self.regions.is_empty() {
            self.regions[((free as usize) << 4) | cell] as u64
        } else {
            self.flood_slow(1 << cell, free)
        }
    }
}

/// `full`'s bits at the cells of `free`, packed down to bit 0, 1, ... in cell order.
#[inline(always)]
pub(super) fn compress<const PEXT: bool>(full: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: PEXT is only true when the CPU was checked to have BMI2.
        return unsafe { pext(full, free) };
    }
    low_bits(free)
        .enumerate()
        .filter(|&(_, b)| full & b != 0)
        .fold(0, |out, (i, _)| out | 1 << i)
}

/// The inverse of [`compress`].
#[inline(always)]
pub(super) fn expand<const PEXT: bool>(small: u64, free: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: as in `compress`.
        return unsafe { pdep(small, free) };
    }
    low_bits(free)
        .enumerate()
        .filter(|&(i, _)| small >> i & 1 != 0)
        .fold(0, |out, (_, b)| out | b)
}

/// The set bits of `mask` one at a time, lowest first, each as a one-bit mask: the
/// portable `compress` and `expand` walk the free cells in this order.
#[inline(always)]
fn low_bits(mask: u64) -> impl Iterator<Item = u64> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        let b = rest & rest.wrapping_neg();
        rest ^= b;
        (b != 0).then_some(b)
    })
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
pub(super) fn prefetch_slot<T>(slot: &T) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable `compress`/`expand` against their definition, and against the BMI2
    /// instructions where the CPU has them: tables must not depend on the machine.
    #[test]
    fn portable_compress_and_expand_agree_with_pext_and_pdep() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (full, free) = (x, x.rotate_left(23) & x.rotate_right(11));
            let small = compress::<false>(full, free);
            // Bit i of `small` is `full`'s bit at the i-th set bit of `free`.
            let cells: Vec<u32> = (0..64).filter(|&c| free >> c & 1 == 1).collect();
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(small >> i & 1, full >> c & 1);
            }
            if cells.len() < 64 {
                assert_eq!(small >> cells.len(), 0);
            }
            assert_eq!(expand::<false>(small, free), full & free);
            #[cfg(target_arch = "x86_64")]
            if super::super::has_bmi2() {
                assert_eq!(compress::<true>(full, free), small);
                assert_eq!(expand::<true>(small, free), full & free);
            }
        }
    }
}
