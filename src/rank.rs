//! Dense indices of partial permutations: where `k` distinct tiles sit among `n` cells.
//!
//! A pattern database stores one entry per placement of its tiles, `n!/(n-k)!` of them;
//! the lexicographic rank maps placements onto `0..n!/(n-k)!` with no gaps, so the table
//! has no holes. Ranking needs no allocation: a bitmask of used cells and a popcount per
//! tile.

/// Ranks and unranks placements of `k` tiles in `n` cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranker {
    n: u32,
    k: u32,
    /// `weight[i]` = (n-i-1)(n-i-2)...(n-k+1): what one step of tile `i`'s digit is worth.
    weight: [u64; 64],
    count: u64,
}

impl Ranker {
    /// The ranker for `k` tiles among `n` cells.
    ///
    /// # Panics
    /// If `k > n` or `n > 64`.
    pub fn new(n: usize, k: usize) -> Ranker {
        assert!(k <= n && n <= 64);
        let mut weight = [0u64; 64];
        let mut w = 1u64;
        for i in (0..k).rev() {
            weight[i] = w;
            w *= (n - i) as u64;
        }
        Ranker {
            n: n as u32,
            k: k as u32,
            weight,
            count: w,
        }
    }

    /// `n!/(n-k)!` if it fits in a `u64`: for sizes that come from outside (a file
    /// header, a command line) before a [`Ranker`] is made, whose arithmetic assumes it fits.
    pub fn checked_count(n: usize, k: usize) -> Option<u64> {
        if k > n {
            return None;
        }
        (n - k + 1..=n).try_fold(1u64, |a, x| a.checked_mul(x as u64))
    }

    /// How many placements exist: `n!/(n-k)!`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// How many tiles a placement holds (`k`).
    pub fn tiles(&self) -> usize {
        self.k as usize
    }

    /// What one step of tile `i`'s digit adds to the rank: `(n-i-1)(n-i-2)...(n-k+1)`, the
    /// number of placements of the tiles after `i`. Lets a caller update a rank when one tile
    /// moves, without ranking the placement afresh.
    pub fn weight(&self, i: usize) -> u64 {
        self.weight[i]
    }

    /// The rank of a placement: `pos[i]` is the cell of tile `i`, all distinct and `< n`.
    #[inline(always)]
    pub fn rank(&self, pos: &[u8]) -> u64 {
        debug_assert_eq!(pos.len(), self.k as usize);
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &p) in pos.iter().enumerate() {
            let below = (used & ((1u64 << p) - 1)).count_ones() as u64;
            r += (p as u64 - below) * self.weight[i];
            used |= 1u64 << p;
        }
        r
    }

    /// A rank's digits: `digits[i]` says tile `i` is on the `digits[i]`-th cell not taken
    /// by tiles `0..i`. Consecutive ranks differ by one in the last digit, with carries.
    pub fn digits(&self, mut r: u64, digits: &mut [u8]) {
        for i in 0..self.k as usize {
            let w = self.weight[i];
            let d = r / w;
            r -= d * w;
            digits[i] = d as u8;
        }
    }

    /// Advances digits to the next rank (wrapping to 0 after the last).
    #[inline(always)]
    pub fn next_digits(&self, digits: &mut [u8]) {
        let mut i = self.k as usize;
        while i > 0 {
            i -= 1;
            digits[i] += 1;
            if (digits[i] as u32) < self.n - i as u32 {
                return;
            }
            digits[i] = 0;
        }
    }

    /// The placement of a rank, written into `pos`.
    #[inline]
    pub fn unrank(&self, mut r: u64, pos: &mut [u8]) {
        debug_assert!(r < self.count);
        let mut used = 0u64;
        for i in 0..self.k as usize {
            let w = self.weight[i];
            let d = r / w;
            r -= d * w;
            // The d-th cell (from 0) not used yet.
            let mut free = !used;
            for _ in 0..d {
                free &= free - 1;
            }
            let p = free.trailing_zeros();
            pos[i] = p as u8;
            used |= 1u64 << p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_bijection_is_exhaustive() {
        for n in 1..=7 {
            for k in 0..=n {
                let r = Ranker::new(n, k);
                let mut seen = vec![false; r.count() as usize];
                let mut pos = vec![0u8; k];
                for i in 0..r.count() {
                    r.unrank(i, &mut pos);
                    let mut sorted = pos.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted.len(), k, "cells distinct");
                    assert!(pos.iter().all(|&p| (p as usize) < n));
                    assert_eq!(r.rank(&pos), i);
                    assert!(!seen[i as usize]);
                    seen[i as usize] = true;
                }
            }
        }
    }

    #[test]
    fn stepping_digits_matches_decomposing() {
        for (n, k) in [(5, 3), (9, 8), (16, 3)] {
            let r = Ranker::new(n, k);
            let mut a = vec![0u8; k];
            let mut b = vec![0u8; k];
            r.digits(0, &mut a);
            for i in 0..r.count() {
                r.digits(i, &mut b);
                assert_eq!(a, b, "rank {i}");
                r.next_digits(&mut a);
            }
        }
    }

    #[test]
    fn checked_count_agrees_and_refuses_overflow() {
        for (n, k) in [(9, 8), (16, 7), (16, 8), (36, 6), (4, 0)] {
            assert_eq!(Ranker::checked_count(n, k), Some(Ranker::new(n, k).count()));
        }
        assert_eq!(Ranker::checked_count(16, 8), Some(518_918_400));
        // 36!/16! is about 1.8e28, beyond u64; so is 21! (about 5.1e19).
        assert_eq!(Ranker::checked_count(36, 20), None);
        assert_eq!(Ranker::checked_count(21, 21), None);
        assert_eq!(
            Ranker::checked_count(20, 20),
            Some(2_432_902_008_176_640_000)
        );
        assert_eq!(Ranker::checked_count(3, 4), None);
    }

    #[test]
    fn lexicographic_order() {
        let r = Ranker::new(4, 2);
        let mut prev = None;
        for i in 0..r.count() {
            let mut pos = [0u8; 2];
            r.unrank(i, &mut pos);
            if let Some(p) = prev {
                assert!(pos > p);
            }
            prev = Some(pos);
        }
    }
}
