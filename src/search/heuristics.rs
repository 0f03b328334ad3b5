//! The [`Heuristic`] trait and the estimates that need no tables: Hamming distance,
//! Manhattan distance and linear conflict (the pattern databases implement it in `crate::pdb`).

use super::geometry::MAX_LINES;
use super::{Geometry, Tiles};

/// An admissible estimate of the moves left, updated incrementally along a path.
///
/// IDA* stays optimal only if `h` never overestimates the true distance to the goal; every
/// implementation here is a sum of lower bounds on disjoint sets of moves, or a max of such.
pub trait Heuristic: Sync {
    /// What a node carries so that a child's estimate costs little.
    type State: Copy + Send + Sync;
    /// The state of the start board `p`, computed from scratch once a search.
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State;
    /// `p` is the board after `label` slid from cell `from` to cell `to`. May prefetch the
    /// memory that [`Heuristic::h`] will read.
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        parent: &Self::State,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> Self::State;
    /// The estimate for a state: never more than the moves the board needs. Takes the state
    /// mutably so that a lookup prepared by [`Heuristic::child`] can finish and be kept.
    fn h(&self, st: &mut Self::State) -> u32;
    /// The estimate, or any admissible value above `bound` when that is cheaper to find:
    /// the search only needs to know that a child whose estimate exceeds `bound` is cut.
    /// A combination of estimates ([`Max`](super::Max)) stops at the first part that cuts.
    #[inline(always)]
    fn h_within(&self, st: &mut Self::State, bound: u32) -> u32 {
        let _ = bound;
        self.h(st)
    }
    /// The part of a child's estimate that needs its board (such as ranking a dual index and
    /// prefetching its entry), done for all of a node's children before any estimate is
    /// read, so that their memory reads overlap. `bound` as in [`Heuristic::h_within`]: a
    /// lazy combination prepares only the parts it will read. An estimate read without it
    /// must stay admissible (it may be weaker).
    #[inline(always)]
    fn prepare<T: Tiles>(&self, st: &mut Self::State, p: &T, bound: u32) {
        let _ = (st, p, bound);
    }
    /// Whether [`Heuristic::prepare`] does anything.
    const PREPARES: bool = false;
    /// Orders children of equal estimate, larger first: 0 for all (no tie-break) unless
    /// an estimate knows better ([`TieBreak`](super::TieBreak)).
    #[inline(always)]
    fn tie<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        let _ = (geo, p);
        0
    }
    /// Whether [`Heuristic::tie`] says anything (so the search asks only then).
    const TIES: bool = false;
    /// Orders children of equal estimate when [`Heuristic::TIES`] does not, smaller first,
    /// from what the state already holds once [`Heuristic::h_within`] has read a child
    /// the search keeps: 0 for all unless an estimate knows better ([`Max`](super::Max)).
    #[inline(always)]
    fn rank(&self, st: &mut Self::State) -> u32 {
        let _ = st;
        0
    }
    /// Whether [`Heuristic::rank`] says anything (so the search asks only then).
    const RANKS: bool = false;
}

/// A shared estimate is the same estimate (so combinations can borrow theirs).
impl<H: Heuristic> Heuristic for &H {
    type State = H::State;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> Self::State {
        (**self).root(geo, p)
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        parent: &Self::State,
        p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> Self::State {
        (**self).child(geo, parent, p, label, from, to)
    }
    #[inline(always)]
    fn h(&self, st: &mut Self::State) -> u32 {
        (**self).h(st)
    }
    #[inline(always)]
    fn h_within(&self, st: &mut Self::State, bound: u32) -> u32 {
        (**self).h_within(st, bound)
    }
    #[inline(always)]
    fn prepare<T: Tiles>(&self, st: &mut Self::State, p: &T, bound: u32) {
        (**self).prepare(st, p, bound)
    }
    const PREPARES: bool = H::PREPARES;
    #[inline(always)]
    fn tie<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        (**self).tie(geo, p)
    }
    const TIES: bool = H::TIES;
    #[inline(always)]
    fn rank(&self, st: &mut Self::State) -> u32 {
        (**self).rank(st)
    }
    const RANKS: bool = H::RANKS;
}

/// Manhattan distance, updated by one table lookup a move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Manhattan;

impl Heuristic for Manhattan {
    type State = u32;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        geo.manhattan(p)
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        md: &u32,
        _p: &T,
        l: usize,
        from: usize,
        to: usize,
    ) -> u32 {
        md + geo.md[l][to] as u32 - geo.md[l][from] as u32
    }
    fn h(&self, st: &mut u32) -> u32 {
        *st
    }
}

/// Hamming distance: the number of tiles (the blank not counted) outside their goal cell.
/// Admissible (each misplaced tile needs at least one move) and consistent (a move changes
/// it by at most one), but weaker than [`Manhattan`], which it never exceeds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hamming;

impl Heuristic for Hamming {
    type State = u32;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> u32 {
        (0..geo.cells)
            .filter(|&c| {
                let l = p.get(c);
                l != geo.blank_label as usize && l != c
            })
            .count() as u32
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        _geo: &Geometry,
        misplaced: &u32,
        _p: &T,
        l: usize,
        from: usize,
        to: usize,
    ) -> u32 {
        // Labels are goal cells: the tile is home exactly where its label says.
        misplaced + u32::from(to != l) - u32::from(from != l)
    }
    fn h(&self, st: &mut u32) -> u32 {
        *st
    }
}

/// Manhattan distance plus linear conflicts; a move changes two lines, only those are
/// recounted.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinearConflict;

/// What [`LinearConflict`] carries from node to node: the Manhattan distance and each
/// line's conflicts, so that a move recounts only the two lines it touched.
#[derive(Clone, Copy, Debug)]
pub struct LcState {
    md: u32,
    lc: u32,
    /// Conflicts of each row, then each column.
    lines: [u8; MAX_LINES],
}

impl Heuristic for LinearConflict {
    type State = LcState;
    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> LcState {
        let mut lines = [0u8; MAX_LINES];
        let rows = geo.shape.rows as usize;
        for r in 0..rows {
            lines[r] = geo.line_conflicts(p, true, r) as u8;
        }
        for c in 0..geo.shape.cols as usize {
            lines[rows + c] = geo.line_conflicts(p, false, c) as u8;
        }
        LcState {
            md: geo.manhattan(p),
            lc: lines.iter().map(|&x| x as u32).sum(),
            lines,
        }
    }
    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &LcState,
        p: &T,
        l: usize,
        from: usize,
        to: usize,
    ) -> LcState {
        let mut out = *s;
        out.md = s.md + geo.md[l][to] as u32 - geo.md[l][from] as u32;
        let rows = geo.shape.rows as usize;
        let (is_row, a, b) = if geo.shape.row(from) == geo.shape.row(to) {
            // Sideways: the tile changed column; its row keeps the same order.
            (false, geo.shape.col(from), geo.shape.col(to))
        } else {
            (true, geo.shape.row(from), geo.shape.row(to))
        };
        let off = if is_row { 0 } else { rows };
        for line in [a, b] {
            let v = geo.line_conflicts(p, is_row, line) as u8;
            out.lc = out.lc + v as u32 - out.lines[off + line] as u32;
            out.lines[off + line] = v;
        }
        out
    }
    fn h(&self, s: &mut LcState) -> u32 {
        s.md + s.lc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::Rng;
    use crate::search::{Packed, NONE};

    /// Follows a random walk on `shape`, checking at each step that the estimate updated
    /// move by move equals the estimate of the board computed from scratch.
    fn incremental_matches_root<H: Heuristic>(h: &H, shape: Shape) {
        let geo = Geometry::new(shape, (shape.cells() - 1) as u8);
        let mut rng = Rng::new(11);
        let mut p: Packed = geo.goal();
        let mut st = h.root(&geo, &p);
        for _ in 0..2000 {
            let b = p.blank();
            let to = geo.neighbor[b][rng.below(4) as usize];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let label = p.get(to);
            p = p.slide(to, label, geo.blank_label as usize);
            st = h.child(&geo, &st, &p, label, to, b);
            assert_eq!(h.h(&mut st), h.h(&mut h.root(&geo, &p)), "{p:?}");
        }
    }

    #[test]
    fn manhattan_follows_each_move() {
        incremental_matches_root(&Manhattan, Shape::new(4, 4).unwrap());
        incremental_matches_root(&Manhattan, Shape::new(3, 5).unwrap());
    }

    #[test]
    fn hamming_follows_each_move() {
        incremental_matches_root(&Hamming, Shape::new(4, 4).unwrap());
        incremental_matches_root(&Hamming, Shape::new(3, 5).unwrap());
    }

    #[test]
    fn linear_conflict_follows_each_move() {
        incremental_matches_root(&LinearConflict, Shape::new(4, 4).unwrap());
        incremental_matches_root(&LinearConflict, Shape::new(3, 5).unwrap());
    }

    #[test]
    fn linear_conflict_adds_to_manhattan() {
        let geo = Geometry::new(Shape::new(3, 3).unwrap(), 8);
        // The goal with 1 and 2 swapped: Manhattan 2, plus 2 for the conflict in row 0.
        let p = Packed::from_fn(9, 8, |c| [0, 2, 1, 3, 4, 5, 6, 7, 8][c]);
        assert_eq!(Manhattan.h(&mut Manhattan.root(&geo, &p)), 2);
        assert_eq!(LinearConflict.h(&mut LinearConflict.root(&geo, &p)), 4);
    }
}
