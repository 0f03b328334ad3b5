//! Rows and columns: a board's shape, its cells and their neighbours.

use std::fmt;

use super::Dir;

/// The largest number of cells a board may have (6x6).
pub const MAX_CELLS: usize = 36;

/// Rows and columns of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shape {
    /// Number of rows (2 or more when made by [`Shape::new`]).
    pub rows: u8,
    /// Number of columns (2 or more likewise); cells are numbered row by row,
    /// `cell = row * cols + col`.
    pub cols: u8,
}

impl Shape {
    /// A rows x cols shape; both at least 2 and at most [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Option<Shape> {
        // Checked: sizes come from user text, and a product that wraps to a small number
        // once gave a 0x0 shape.
        let cells = rows.checked_mul(cols)?;
        if rows >= 2 && cols >= 2 && cells <= MAX_CELLS {
            Some(Shape {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            None
        }
    }

    /// The square shape with `cells` cells, if `cells` is a square of 2..=6.
    pub fn square_of(cells: usize) -> Option<Shape> {
        (2..=6)
            .find(|n| n * n == cells)
            .and_then(|n| Shape::new(n, n))
    }

    /// Parses `N` (an NxN board) or `RxC`, as the `--size` options take it.
    pub fn parse(text: &str) -> Option<Shape> {
        let t = text.trim();
        let (r, c) = match t.split_once(['x', 'X']) {
            Some((r, c)) => (r.trim().parse().ok()?, c.trim().parse().ok()?),
            None => {
                let n: usize = t.parse().ok()?;
                (n, n)
            }
        };
        Shape::new(r, c)
    }

    /// The number of cells, `rows * cols` (tiles plus the blank).
    pub fn cells(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The row of `cell`, counted from 0 at the top.
    pub fn row(self, cell: usize) -> usize {
        cell / self.cols as usize
    }

    /// The column of `cell`, counted from 0 at the left.
    pub fn col(self, cell: usize) -> usize {
        cell % self.cols as usize
    }

    /// Taxicab distance between two cells.
    pub fn distance(self, a: usize, b: usize) -> usize {
        self.row(a).abs_diff(self.row(b)) + self.col(a).abs_diff(self.col(b))
    }

    /// The cell the blank reaches from `cell` by moving `dir`, if it stays on the board.
    pub fn step(self, cell: usize, dir: Dir) -> Option<usize> {
        let (r, c) = (self.row(cell), self.col(cell));
        let cols = self.cols as usize;
        match dir {
            Dir::Up if r > 0 => Some(cell - cols),
            Dir::Down if r + 1 < self.rows as usize => Some(cell + cols),
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Right if c + 1 < cols => Some(cell + 1),
            _ => None,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}
