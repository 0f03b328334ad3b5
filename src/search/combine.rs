//! [`Max`]: two admissible estimates searched as one, the larger of the two, the second
//! read only when the first does not already cut the node (when `lazy`).

use super::{Geometry, Heuristic, Tiles};

/// The larger of two admissible estimates, which is admissible too.
///
/// Both states follow every move (their index arithmetic is cheap); with `lazy`, the
/// second estimate's table is read only for children the first does not cut, which is
/// where a second table lookup (a cache miss) is worth its cost. A lazy value is smaller
/// than the full one only for cut children, so the children that are searched, and their
/// order, are the same either way; bidirectional pathmax sees less.
#[derive(Clone, Copy, Debug)]
pub struct Max<A, B> {
    /// The estimate read first, for every child.
    pub first: A,
    /// The estimate read second: for every child, or (lazy) only where the first does not
    /// cut.
    pub second: B,
    /// Read `second` only when `first` does not exceed the search's bound.
    pub lazy: bool,
}

impl<A: Heuristic, B: Heuristic> Heuristic for Max<A, B> {
    type State = (A::State, B::State);

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State {
        (self.first.root(geo, p), self.second.root(geo, p))
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
        (
            self.first.child(geo, &s.0, p, label, from, to),
            self.second.child(geo, &s.1, p, label, from, to),
        )
    }

    #[inline(always)]
    fn h(&self, st: &mut Self::State) -> u32 {
        self.first.h(&mut st.0).max(self.second.h(&mut st.1))
    }

    #[inline(always)]
    fn h_within(&self, st: &mut Self::State, bound: u32) -> u32 {
        let a = self.first.h_within(&mut st.0, bound);
        if self.lazy && a > bound {
            return a;
        }
        a.max(self.second.h_within(&mut st.1, bound))
    }

    #[inline(always)]
    fn prepare<T: Tiles>(&self, st: &mut Self::State, p: &T, bound: u32) {
        self.first.prepare(&mut st.0, p, bound);
        if B::PREPARES && !(self.lazy && self.first.h_within(&mut st.0, bound) > bound) {
            self.second.prepare(&mut st.1, p, bound);
        }
    }

    const PREPARES: bool = A::PREPARES || B::PREPARES;

    /// The smaller of the two estimates: among children of equal estimate (the larger of
    /// the two), the one whose other estimate is smaller is searched first, so children
    /// go in the order of the pair (larger, smaller), most promising first on both. Both
    /// values are in the state by then (a searched child is one the first estimate does
    /// not cut, so the second was read too), so this costs no table read. Measured on the
    /// Korf 100 with both 4x4 partitions: 3.6% fewer nodes (1,679,314 against 1,741,938);
    /// the other way round, 9% more.
    #[inline(always)]
    fn rank(&self, st: &mut Self::State) -> u32 {
        self.first.h(&mut st.0).min(self.second.h(&mut st.1))
    }

    const RANKS: bool = true;
}

/// An estimate whose children of equal value are searched most linear conflicts first (a
/// tie-break in move ordering; the estimate itself is unchanged): the linear-conflict
/// tie-breaking of the project's design, kept for the study (docs/heuristic.md). Only
/// the last iteration's order matters. Measured on the Korf 100 with both partitions: most
/// conflicts first 3% fewer nodes, fewest first 2% more, and either way the conflicts,
/// counted afresh for each pair of tied children, cost 50% more time.
#[derive(Clone, Copy, Debug)]
pub struct TieBreak<H>(pub H);

impl<H: Heuristic> Heuristic for TieBreak<H> {
    type State = H::State;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State {
        self.0.root(geo, p)
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
        self.0.child(geo, s, p, label, from, to)
    }

    #[inline(always)]
    fn h(&self, st: &mut Self::State) -> u32 {
        self.0.h(st)
    }

    #[inline(always)]
    fn h_within(&self, st: &mut Self::State, bound: u32) -> u32 {
        self.0.h_within(st, bound)
    }

    #[inline(always)]
    fn prepare<T: Tiles>(&self, st: &mut Self::State, p: &T, bound: u32) {
        self.0.prepare(st, p, bound)
    }

    const PREPARES: bool = H::PREPARES;

    #[inline(always)]
    fn tie<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        geo.linear_conflict(p)
    }

    const TIES: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::search::{LinearConflict, Manhattan, Packed};

    #[test]
    fn the_max_of_two_estimates_is_the_larger_and_a_lazy_one_stops_above_the_bound() {
        let geo = Geometry::new(Shape::new(3, 3).unwrap(), 8);
        // The goal with 1 and 2 swapped: Manhattan 2, linear conflict 4.
        let p = Packed::from_fn(9, 8, |c| [0, 2, 1, 3, 4, 5, 6, 7, 8][c]);
        let both = Max {
            first: Manhattan,
            second: LinearConflict,
            lazy: true,
        };
        let mut st = both.root(&geo, &p);
        assert_eq!(both.h(&mut st), 4);
        assert_eq!(both.h_within(&mut st, 5), 4);
        assert_eq!(both.h_within(&mut st, 1), 2, "Manhattan alone cuts");
        let eager = Max {
            lazy: false,
            ..both
        };
        assert_eq!(eager.h_within(&mut st, 1), 4);
    }
}
