//! Boards, goals, moves and symmetries.
//!
//! A [`Board`] is what the user typed: the tile in each cell, row-major, `0` for the blank.
//! The search never sees tile numbers. It works on *labels*: every tile (and the blank) is
//! renamed to the cell it occupies in the goal, so the goal is always the identity
//! arrangement and Manhattan distance is the distance between a label and its cell. One
//! table set therefore serves every goal whose blank sits in the same cell.

use std::fmt;

use crate::error::BoardError;

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

/// A direction the **blank** moves in.
///
/// The discriminants index [`Dir::ALL`] and the search's per-direction tables, so
/// `Dir::ALL[d as usize] == d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// The blank swaps with the tile above it (`U`).
    Up = 0,
    /// The blank swaps with the tile below it (`D`).
    Down = 1,
    /// The blank swaps with the tile to its left (`L`).
    Left = 2,
    /// The blank swaps with the tile to its right (`R`).
    Right = 3,
}

impl Dir {
    /// The four directions in discriminant order, for looping over a board's moves.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The move that undoes this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The move's letter in a solution string: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction of a move letter, upper or lower case; `None` for any other character.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }
}

/// Renders a move sequence as the `UDLR` string of SPEC.md.
pub fn moves_to_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Parses a `UDLR` string (case-insensitive; spaces and commas ignored).
pub fn parse_moves(text: &str) -> Result<Vec<Dir>, BoardError> {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| Dir::from_letter(c).ok_or(BoardError::BadMove(c)))
        .collect()
}

/// An arrangement of tiles: `tiles[cell]` is the tile in that cell, `0` the blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    tiles: [u8; MAX_CELLS],
}

impl Board {
    /// Checks that `tiles` holds each of `0..rows*cols` exactly once.
    pub fn new(shape: Shape, tiles: &[u8]) -> Result<Board, BoardError> {
        let n = shape.cells();
        if tiles.len() != n {
            return Err(BoardError::WrongCount {
                count: tiles.len(),
                expected: n,
            });
        }
        let mut seen = [false; MAX_CELLS];
        for &t in tiles {
            if t as usize >= n {
                return Err(BoardError::OutOfRange {
                    value: t as u64,
                    max: n - 1,
                });
            }
            if seen[t as usize] {
                return Err(BoardError::Repeated(t));
            }
            seen[t as usize] = true;
        }
        let mut b = Board {
            shape,
            tiles: [0; MAX_CELLS],
        };
        b.tiles[..n].copy_from_slice(tiles);
        Ok(b)
    }

    /// Parses a board: `n*n` numbers separated by spaces, commas or newlines. A board given
    /// as lines of equal length (e.g. 3 lines of 4) takes that rectangular shape.
    ///
    /// # Errors
    /// Text that is not numbers, a count that makes no board, or numbers that are not each
    /// of `0..n` once. Solvability is not checked here: that depends on the goal (see
    /// [`Goal::labels`]).
    ///
    /// # Examples
    /// ```
    /// use fifteen::{Board, BoardError, Shape};
    ///
    /// let board = Board::parse("1 2 3 4 0 6 7 5 8")?;
    /// assert_eq!(board.shape(), Shape::new(3, 3).unwrap());
    /// assert_eq!(board.blank(), 4);
    /// assert_eq!(board.tiles()[7], 5);
    ///
    /// // The same board as three lines; three lines of four would be a 3x4 board.
    /// assert_eq!(Board::parse("1 2 3\n4 0 6\n7 5 8")?, board);
    /// assert_eq!(Board::parse("1 2 3 4\n5 6 7 8\n9 10 11 0")?.shape().to_string(), "3x4");
    ///
    /// // Every input is checked, with an error that says what is wrong.
    /// assert_eq!(Board::parse("1 2 3 4 5 6 7 8 8"), Err(BoardError::Repeated(8)));
    /// assert_eq!(Board::parse("1 2 3 4 5 6 7 0"), Err(BoardError::BadCount(8)));
    /// assert_eq!(
    ///     Board::parse("1 2 3 4 5 6 7 8 9").unwrap_err().to_string(),
    ///     "the number 9 is out of range (0 to 8)"
    /// );
    /// # Ok::<(), BoardError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let (values, row_lengths) = read_numbers(text)?;
        let shape = shape_for(values.len(), &row_lengths)?;
        Board::from_values(shape, &values)
    }

    /// Parses a board of a known shape (needed for non-square boards given on one line):
    /// its numbers, separated by spaces, commas or newlines, row by row.
    pub fn parse_as(text: &str, shape: Shape) -> Result<Board, BoardError> {
        let (values, _) = read_numbers(text)?;
        Board::from_values(shape, &values)
    }

    fn from_values(shape: Shape, values: &[u64]) -> Result<Board, BoardError> {
        let n = shape.cells();
        if values.len() != n {
            return Err(BoardError::WrongCount {
                count: values.len(),
                expected: n,
            });
        }
        Board::new(shape, &in_range(values)?)
    }

    /// The board's rows and columns.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tile in each cell, row by row, `0` for the blank; `shape().cells()` of them.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.shape.cells()]
    }

    /// The cell holding the blank.
    pub fn blank(&self) -> usize {
        self.tiles().iter().position(|&t| t == 0).unwrap()
    }

    /// Slides the blank one step; `None` if that leaves the board.
    pub fn apply(&self, dir: Dir) -> Option<Board> {
        let b = self.blank();
        let n = self.shape.step(b, dir)?;
        let mut out = *self;
        out.tiles.swap(b, n);
        Some(out)
    }

    /// Applies every move in turn; the index of the first illegal move on failure.
    pub fn apply_all(&self, moves: &[Dir]) -> Result<Board, usize> {
        let mut b = *self;
        for (i, &m) in moves.iter().enumerate() {
            b = b.apply(m).ok_or(i)?;
        }
        Ok(b)
    }

    /// Parity of the permutation `cell -> tiles[cell]` (true = odd).
    fn permutation_parity(tiles: &[u8]) -> bool {
        let mut seen = [false; MAX_CELLS];
        let mut odd = false;
        for start in 0..tiles.len() {
            if seen[start] {
                continue;
            }
            let mut len = 0;
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                c = tiles[c] as usize;
                len += 1;
            }
            if len % 2 == 0 {
                odd = !odd;
            }
        }
        odd
    }

    /// Draws the board with box-drawing characters; the blank is an empty cell.
    pub fn render(&self) -> String {
        self.render_with(' ')
    }

    /// [`Board::render`] with the blank's cell filled with `mark` (so it stands out).
    pub fn render_with(&self, mark: char) -> String {
        let s = self.shape;
        let width = if s.cells() > 10 { 2 } else { 1 };
        let seg = "─".repeat(width + 2);
        let line = |l: &str, m: &str, r: &str| {
            let mut out = String::from(l);
            for c in 0..s.cols {
                out.push_str(&seg);
                out.push_str(if c + 1 == s.cols { r } else { m });
            }
            out.push('\n');
            out
        };
        let mut out = line("┌", "┬", "┐");
        for r in 0..s.rows as usize {
            out.push('│');
            for c in 0..s.cols as usize {
                let t = self.tiles[r * s.cols as usize + c];
                if t == 0 {
                    out.push(' ');
                    out.extend(std::iter::repeat_n(mark, width));
                    out.push(' ');
                } else {
                    out.push_str(&format!(" {t:>width$} "));
                }
                out.push('│');
            }
            out.push('\n');
            if r + 1 < s.rows as usize {
                out.push_str(&line("├", "┼", "┤"));
            }
        }
        out.push_str(&line("└", "┴", "┘"));
        out
    }
}

/// Each number below the count, as tiles.
fn in_range(values: &[u64]) -> Result<Vec<u8>, BoardError> {
    let n = values.len();
    values
        .iter()
        .map(|&v| {
            if v >= n as u64 {
                Err(BoardError::OutOfRange {
                    value: v,
                    max: n - 1,
                })
            } else {
                Ok(v as u8)
            }
        })
        .collect()
}

/// Parses the numbers of a board whose shape is not known yet (an explicit goal, which
/// serves every shape with its number of cells): each of `0..count` once.
pub fn parse_tiles(text: &str) -> Result<Vec<u8>, BoardError> {
    let (values, _) = read_numbers(text)?;
    if !(4..=MAX_CELLS).contains(&values.len()) {
        return Err(BoardError::BadCount(values.len()));
    }
    let tiles = in_range(&values)?;
    let mut seen = [false; MAX_CELLS];
    for &t in &tiles {
        if std::mem::replace(&mut seen[t as usize], true) {
            return Err(BoardError::Repeated(t));
        }
    }
    Ok(tiles)
}

/// The numbers of a board's text, and how many each non-empty line held.
fn read_numbers(text: &str) -> Result<(Vec<u64>, Vec<usize>), BoardError> {
    let mut values = Vec::new();
    let mut row_lengths = Vec::new();
    for line in text.lines() {
        let before = values.len();
        for tok in line.split(|c: char| c.is_whitespace() || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let v: u64 = tok
                .parse()
                .map_err(|_| BoardError::NotANumber(truncate(tok)))?;
            values.push(v);
        }
        if values.len() > before {
            row_lengths.push(values.len() - before);
        }
    }
    if values.is_empty() {
        return Err(BoardError::Empty);
    }
    Ok((values, row_lengths))
}

fn truncate(tok: &str) -> String {
    tok.chars().take(20).collect()
}

fn shape_for(count: usize, row_lengths: &[usize]) -> Result<Shape, BoardError> {
    // A grid of several equal rows gives its own shape (so 3 lines of 4 is a 3x4 board).
    if row_lengths.len() > 1
        && row_lengths.iter().all(|&l| l == row_lengths[0])
        && row_lengths[0] > 1
    {
        if let Some(s) = Shape::new(row_lengths.len(), row_lengths[0]) {
            return Ok(s);
        }
    }
    Shape::square_of(count).ok_or(BoardError::BadCount(count))
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {:?})", self.shape, self.tiles())
    }
}

impl fmt::Display for Board {
    /// The one-line form: numbers separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tiles().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

/// The arrangement to reach.
///
/// Solvability is relative to the goal: of all boards, exactly half can reach a given goal,
/// so a board is checked against its goal ([`Goal::labels`]) before any search.
///
/// # Examples
/// ```
/// use fifteen::{Board, Goal, Shape};
///
/// let shape = Shape::new(3, 3).unwrap();
/// let standard = Goal::standard(shape);
/// assert_eq!(standard.board().tiles(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]);
/// assert_eq!(standard.blank(), 8);
///
/// let korf = Goal::blank_first(shape);
/// assert_eq!(korf.board().tiles(), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
/// assert_eq!(korf.name(), "blank-first");
///
/// // Any board can be a goal; it is named by its tiles.
/// let other = Goal::from_board(Board::parse("8 7 6 5 4 3 2 1 0").unwrap());
/// assert_eq!(other.name(), "8 7 6 5 4 3 2 1 0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Goal {
    board: Board,
}

impl Goal {
    /// `1 2 ... n-1 0`: blank in the last cell.
    pub fn standard(shape: Shape) -> Goal {
        let n = shape.cells();
        let tiles: Vec<u8> = (1..n as u8).chain([0]).collect();
        Goal {
            board: Board::new(shape, &tiles).unwrap(),
        }
    }

    /// `0 1 ... n-1`: blank in the first cell (Korf's convention).
    pub fn blank_first(shape: Shape) -> Goal {
        let tiles: Vec<u8> = (0..shape.cells() as u8).collect();
        Goal {
            board: Board::new(shape, &tiles).unwrap(),
        }
    }

    /// Any arrangement can be a goal.
    pub fn from_board(board: Board) -> Goal {
        Goal { board }
    }

    /// The goal arrangement itself: solved means equal to this board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The goal's rows and columns; only boards of this shape can reach it.
    pub fn shape(&self) -> Shape {
        self.board.shape
    }

    /// The cell where the blank ends up.
    pub fn blank(&self) -> usize {
        self.board.blank()
    }

    /// A short name: `standard`, `blank-first`, or the tiles.
    pub fn name(&self) -> String {
        if *self == Goal::standard(self.shape()) {
            "standard".into()
        } else if *self == Goal::blank_first(self.shape()) {
            "blank-first".into()
        } else {
            self.board.to_string()
        }
    }

    /// Rewrites `board` with each tile replaced by the cell it occupies in this goal (the
    /// blank included, as the goal's blank cell). The goal becomes `0 1 2 ...`.
    ///
    /// # Errors
    /// A board of another shape, or one that cannot reach this goal.
    pub fn labels(&self, board: &Board) -> Result<Labels, BoardError> {
        let shape = self.shape();
        if board.shape() != shape {
            return Err(BoardError::GoalSize {
                board: board.shape().cells(),
                goal: shape.cells(),
            });
        }
        let n = shape.cells();
        let mut home = [0u8; MAX_CELLS];
        for (cell, &t) in self.board.tiles().iter().enumerate() {
            home[t as usize] = cell as u8;
        }
        let mut cells = [0u8; MAX_CELLS];
        for (cell, &t) in board.tiles().iter().enumerate() {
            cells[cell] = home[t as usize];
        }
        let labels = Labels {
            shape,
            blank_label: self.blank() as u8,
            cells,
        };
        // Each move swaps two cells and moves the blank one step, so the permutation's
        // parity must equal the parity of the blank's distance to its goal cell.
        let odd = Board::permutation_parity(&cells[..n]);
        let dist = shape.distance(labels.blank_cell(), self.blank());
        if odd != (dist % 2 == 1) {
            return Err(BoardError::Unsolvable);
        }
        Ok(labels)
    }
}

/// A board in goal-cell labels: `cells[c]` is the goal cell of the tile at `c`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Labels {
    /// The board's rows and columns.
    pub shape: Shape,
    /// The label of the blank (its goal cell).
    pub blank_label: u8,
    /// `cells[c]` is the label (goal cell) of the tile at cell `c`; only the first
    /// `shape.cells()` entries are used, the rest are 0.
    pub cells: [u8; MAX_CELLS],
}

impl Labels {
    /// The cell the blank is in now (where [`Labels::blank_label`] sits).
    pub fn blank_cell(&self) -> usize {
        self.cells[..self.shape.cells()]
            .iter()
            .position(|&l| l == self.blank_label)
            .unwrap()
    }

    /// Whether every label is in its own cell, i.e. the board is its goal.
    pub fn is_goal(&self) -> bool {
        self.cells[..self.shape.cells()]
            .iter()
            .enumerate()
            .all(|(c, &l)| c == l as usize)
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_maps_moves_consistently() {
        let shape = Shape::new(4, 4).unwrap();
        for s in Symmetry::all(shape) {
            for c in 0..16 {
                for d in Dir::ALL {
                    let moved = shape.step(c, d).map(|n| s.cell(shape, n));
                    assert_eq!(moved, shape.step(s.cell(shape, c), s.dir(d)));
                }
            }
            let inv = s.inverse(shape);
            for c in 0..16 {
                assert_eq!(inv.cell(shape, s.cell(shape, c)), c);
            }
        }
    }

    #[test]
    fn goal_is_identity_in_labels() {
        let shape = Shape::new(3, 3).unwrap();
        for g in [Goal::standard(shape), Goal::blank_first(shape)] {
            let l = g.labels(g.board()).unwrap();
            assert!(l.is_goal());
        }
    }
}
