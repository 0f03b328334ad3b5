//! The fixed facts of a shape and goal blank: which cell the blank reaches in each
//! direction, each label's Manhattan distance from each cell, and the linear conflicts of a
//! row or column.

use super::Tiles;
use crate::board::{Dir, Labels, Shape, Symmetry, MAX_CELLS};

/// Fixed facts about a shape and goal blank that every move and heuristic needs.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// The board's rows and columns.
    pub shape: Shape,
    /// Cells of the board (`shape.cells()`), kept at hand for the loops over a board.
    pub cells: usize,
    /// The blank's label: its cell in the goal. Never counted by a heuristic.
    pub blank_label: u8,
    /// `neighbor[cell][dir]`: the cell the blank reaches, or [`NONE`].
    pub neighbor: [[u8; 4]; MAX_CELLS],
    /// `md[label][cell]`: Manhattan distance of that label at that cell (0 for the blank).
    pub md: [[u8; MAX_CELLS]; MAX_CELLS],
    /// The symmetries of the rectangle, other than the identity, that keep the goal (the
    /// blank's goal cell fixed): each as its map of cells and of blank moves.
    mirrors: Vec<Mirror>,
}

/// A symmetry of the board that maps the goal to itself (see [`Geometry::mirrored_moves`]).
#[derive(Clone, Debug)]
struct Mirror {
    cell: [u8; MAX_CELLS],
    dir: [u8; 4],
}

/// In [`Geometry::neighbor`]: the blank cannot move that way (it is at the board's edge).
pub const NONE: u8 = 255;

/// Rows plus columns of the longest-sided board (2x18).
pub(super) const MAX_LINES: usize = 20;
/// The longest row or column.
const MAX_LINE: usize = 18;

impl Geometry {
    /// The tables for `shape` with the blank labelled `blank_label`, computed once a search
    /// so that each move and estimate is a lookup.
    pub fn new(shape: Shape, blank_label: u8) -> Geometry {
        let cells = shape.cells();
        let mut neighbor = [[NONE; 4]; MAX_CELLS];
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        for c in 0..cells {
            for d in Dir::ALL {
                if let Some(n) = shape.step(c, d) {
                    neighbor[c][d as usize] = n as u8;
                }
            }
            for l in 0..cells {
                if l != blank_label as usize {
                    md[l][c] = shape.distance(l, c) as u8;
                }
            }
        }
        let mirrors = Symmetry::all(shape)
            .into_iter()
            .filter(|&s| {
                s != Symmetry::IDENTITY
                    && s.cell(shape, blank_label as usize) == blank_label as usize
            })
            .map(|s| {
                let mut cell = [0u8; MAX_CELLS];
                for (c, to) in cell.iter_mut().enumerate().take(cells) {
                    *to = s.cell(shape, c) as u8;
                }
                Mirror {
                    cell,
                    dir: Dir::ALL.map(|d| s.dir(d) as u8),
                }
            })
            .collect();
        Geometry {
            shape,
            cells,
            blank_label,
            neighbor,
            md,
            mirrors,
        }
    }

    /// The board in the packing `T`.
    ///
    /// # Panics
    /// If `T` cannot hold the shape.
    pub fn load<T: Tiles>(&self, l: &Labels) -> T {
        assert!(
            self.cells <= T::CAPACITY,
            "board too large for this packing"
        );
        T::from_fn(self.cells, l.blank_cell(), |c| l.cells[c] as usize)
    }

    /// The goal: cell `c` holds label `c`.
    pub fn goal<T: Tiles>(&self) -> T {
        T::from_fn(self.cells, self.blank_label as usize, |c| c)
    }

    /// The blank moves from `p` that need no search, as a bit mask (bit `d` for direction
    /// `d`): those whose child is the mirror image of an earlier direction's child.
    ///
    /// A symmetry of the rectangle that keeps the blank's goal cell maps the goal to itself
    /// (labels are goal cells). If it also maps `p` to itself, it maps the subtree below
    /// one move onto the subtree below the mirrored move, solutions onto solutions of the
    /// same length: searching both is wasted. The transposed goal (72 moves, the 4x4's
    /// hardest known start for its tables) is such a board; so is any board symmetric
    /// about the goal blank's diagonal. The search asks only at its root: a move off the
    /// axis of a symmetry breaks it.
    pub fn mirrored_moves<T: Tiles>(&self, p: &T) -> u8 {
        let mut skip = 0u8;
        for m in &self.mirrors {
            let fixed =
                (0..self.cells).all(|c| p.get(m.cell[c] as usize) == m.cell[p.get(c)] as usize);
            if fixed {
                // The kept moves are the first of each orbit: the symmetries that fix `p`
                // form a group, so a move some symmetry maps lower is not first.
                for d in 0..4 {
                    if (m.dir[d] as usize) < d {
                        skip |= 1 << d;
                    }
                }
            }
        }
        skip
    }

    /// Manhattan distance of a whole board.
    pub fn manhattan<T: Tiles>(&self, p: &T) -> u32 {
        (0..self.cells).map(|c| self.md[p.get(c)][c] as u32).sum()
    }

    /// Linear conflicts of one row (`is_row`) or column `line`: 2 for every tile that must
    /// leave the line so that the rest, all at home in this line, can pass each other.
    pub fn line_conflicts<T: Tiles>(&self, p: &T, is_row: bool, line: usize) -> u32 {
        let (rows, cols) = (self.shape.rows as usize, self.shape.cols as usize);
        let len = if is_row { cols } else { rows };
        // Goal positions along the line of the tiles that belong to it, in board order.
        let mut seq = [0u8; MAX_LINE];
        let mut k = 0;
        for i in 0..len {
            let cell = if is_row {
                line * cols + i
            } else {
                i * cols + line
            };
            let l = p.get(cell);
            if l == self.blank_label as usize {
                continue;
            }
            let (lr, lc) = (l / cols, l % cols);
            if is_row && lr == line {
                seq[k] = lc as u8;
                k += 1;
            } else if !is_row && lc == line {
                seq[k] = lr as u8;
                k += 1;
            }
        }
        // Longest increasing subsequence: those tiles may stay.
        let mut best = [0u8; MAX_LINE];
        let mut lis = 0;
        for i in 0..k {
            best[i] = 1;
            for j in 0..i {
                if seq[j] < seq[i] && best[j] + 1 > best[i] {
                    best[i] = best[j] + 1;
                }
            }
            lis = lis.max(best[i]);
        }
        2 * (k as u32 - lis as u32)
    }

    /// Linear conflict total of a whole board (without Manhattan distance).
    pub fn linear_conflict<T: Tiles>(&self, p: &T) -> u32 {
        let r: u32 = (0..self.shape.rows as usize)
            .map(|i| self.line_conflicts(p, true, i))
            .sum();
        let c: u32 = (0..self.shape.cols as usize)
            .map(|i| self.line_conflicts(p, false, i))
            .sum();
        r + c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Packed;

    fn three_by_three() -> Geometry {
        Geometry::new(Shape::new(3, 3).unwrap(), 8)
    }

    fn board(labels: [usize; 9]) -> Packed {
        let blank = labels.iter().position(|&l| l == 8).unwrap();
        Packed::from_fn(9, blank, |c| labels[c])
    }

    #[test]
    fn the_tables_know_the_edges_and_distances() {
        let geo = three_by_three();
        assert_eq!(geo.neighbor[0], [NONE, 3, NONE, 1]);
        assert_eq!(geo.neighbor[4], [1, 7, 3, 5]);
        assert_eq!(geo.md[0][8], 4);
        assert_eq!(geo.md[8][0], 0, "the blank is not counted");
        assert_eq!(geo.manhattan(&geo.goal::<Packed>()), 0);
    }

    #[test]
    fn a_reversed_row_has_two_conflicts_and_a_swapped_column_one() {
        let geo = three_by_three();
        // Row 0 holds 2 1 0, all at home in it but reversed: two of them must leave it.
        let p = board([2, 1, 0, 6, 4, 5, 3, 7, 8]);
        assert_eq!(geo.line_conflicts(&p, true, 0), 4);
        // Column 0 holds 2, 6, 3: 6 and 3 belong to it, in the wrong order.
        assert_eq!(geo.line_conflicts(&p, false, 0), 2);
        // Row 1 holds 6 4 5: 6 belongs to another row, 4 and 5 are in order.
        assert_eq!(geo.line_conflicts(&p, true, 1), 0);
        assert_eq!(geo.linear_conflict(&geo.goal::<Packed>()), 0);
    }
}
