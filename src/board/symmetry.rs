//! The symmetries of the board's rectangle, which let one table set serve mirrored goals.

use super::{Dir, Labels, Shape, MAX_CELLS};

/// A symmetry of the board's rectangle: a map of cells and, with it, of directions.
/// Used to serve one goal's tables to every goal whose blank is a mirror image of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Swap rows and columns (only for square boards).
    pub transpose: bool,
    /// Mirror top to bottom: row `r` goes to row `rows - 1 - r`.
    pub flip_rows: bool,
    /// Mirror left to right: column `c` goes to column `cols - 1 - c`.
    pub flip_cols: bool,
}

impl Symmetry {
    /// The symmetry that leaves every cell where it is.
    pub const IDENTITY: Symmetry = Symmetry {
        transpose: false,
        flip_rows: false,
        flip_cols: false,
    };

    /// Every symmetry the shape allows (8 for squares, 4 otherwise).
    pub fn all(shape: Shape) -> Vec<Symmetry> {
        let mut out = Vec::new();
        for transpose in [false, true] {
            if transpose && shape.rows != shape.cols {
                continue;
            }
            for flip_rows in [false, true] {
                for flip_cols in [false, true] {
                    out.push(Symmetry {
                        transpose,
                        flip_rows,
                        flip_cols,
                    });
                }
            }
        }
        out
    }

    /// Where `cell` goes. Flips apply first, then the transpose.
    pub fn cell(self, shape: Shape, cell: usize) -> usize {
        let (mut r, mut c) = (shape.row(cell), shape.col(cell));
        if self.flip_rows {
            r = shape.rows as usize - 1 - r;
        }
        if self.flip_cols {
            c = shape.cols as usize - 1 - c;
        }
        if self.transpose {
            std::mem::swap(&mut r, &mut c);
        }
        r * shape.cols as usize + c
    }

    /// Where a blank move goes.
    pub fn dir(self, dir: Dir) -> Dir {
        let mut d = dir;
        if self.flip_rows {
            d = match d {
                Dir::Up => Dir::Down,
                Dir::Down => Dir::Up,
                x => x,
            };
        }
        if self.flip_cols {
            d = match d {
                Dir::Left => Dir::Right,
                Dir::Right => Dir::Left,
                x => x,
            };
        }
        if self.transpose {
            d = match d {
                Dir::Up => Dir::Left,
                Dir::Left => Dir::Up,
                Dir::Down => Dir::Right,
                Dir::Right => Dir::Down,
            };
        }
        d
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self, shape: Shape) -> Symmetry {
        Symmetry::all(shape)
            .into_iter()
            .find(|s| (0..shape.cells()).all(|c| s.cell(shape, self.cell(shape, c)) == c))
            .unwrap()
    }

    /// Applies the symmetry to a labelled board: cells move, and labels (being cells) too.
    pub fn labels(self, l: &Labels) -> Labels {
        let shape = l.shape;
        let mut cells = [0u8; MAX_CELLS];
        for c in 0..shape.cells() {
            cells[self.cell(shape, c)] = self.cell(shape, l.cells[c] as usize) as u8;
        }
        Labels {
            shape,
            blank_label: self.cell(shape, l.blank_label as usize) as u8,
            cells,
        }
    }
}
