//! The [`Heuristic`] trait and the two estimates that need no tables: Manhattan distance
//! and linear conflict (the pattern databases implement it in `crate::pdb`).

use super::geometry::MAX_LINES;
use super::{Geometry, Tiles};

/// An admissible estimate of the moves left, updated incrementally along a path.
///
/// IDA* stays optimal only if `h` never overestimates the true distance to the goal; every
/// implementation here is a sum of lower bounds on disjoint sets of moves, or a max of such.
pub trait Heuristic: Sync {
    /// What a node carries so that a child's estimate costs little.
    type State: Copy + Send;
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
