//! [`Board`]: the tiles as the user gave them, parsed, checked and printed.

use std::fmt;

#[cfg(doc)]
use super::Goal;
use super::{Dir, Shape, MAX_CELLS};
use crate::error::BoardError;

/// An arrangement of tiles: `tiles[cell]` is the tile in that cell, `0` the blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) shape: Shape,
    pub(super) tiles: [u8; MAX_CELLS],
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
                    value: t.to_string(),
                    max: n - 1,
                    blank_missing: !tiles.contains(&0),
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
    /// as lines of equal length (e.g. 3 lines of 4) takes that rectangular shape. A board
    /// may also be written as a list in square brackets, as Python and JSON print one:
    /// brackets around the whole board, or around each row (which then say the shape, as
    /// lines do).
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
    /// // As Python and JSON print it: a list, or a list of rows.
    /// assert_eq!(Board::parse("[1, 2, 3, 4, 0, 6, 7, 5, 8]")?, board);
    /// assert_eq!(Board::parse("[[1, 2, 3], [4, 0, 6], [7, 5, 8]]")?, board);
    /// assert_eq!(Board::parse("[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]]")?.shape().to_string(), "3x4");
    ///
    /// // Every input is checked, with an error that says what is wrong.
    /// assert_eq!(Board::parse("1 2 3 4 5 6 7 8 8"), Err(BoardError::Repeated(8)));
    /// assert_eq!(Board::parse("1 2 3 4 5 6 7 0"), Err(BoardError::BadCount(8)));
    /// assert_eq!(
    ///     Board::parse("1 2 3 4\n5 6 7\n8 0").unwrap_err().to_string(),
    ///     "row 2 of the board has 3 numbers but row 1 has 4: give every row the same \
    ///      count, or the whole board on one line"
    /// );
    /// assert!(matches!(Board::parse("[1, 2, 3, 4, 0, 6, 7, 5, 8"), Err(BoardError::Brackets(_))));
    /// assert_eq!(
    ///     Board::parse("1 2 3 4 5 6 7 8 9").unwrap_err().to_string(),
    ///     "the number 9 is out of range (0 to 8); the blank is 0, not 9"
    /// );
    /// # Ok::<(), BoardError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let Numbers {
            values,
            row_lengths,
            unfit,
        } = read_numbers(text)?;
        even_rows(&row_lengths)?;
        let shape = shape_for(values.len(), &row_lengths)?;
        Board::from_values(shape, &values).map_err(|e| as_typed(e, unfit))
    }

    /// Parses a board of a known shape (needed for non-square boards given on one line):
    /// its numbers, separated by spaces, commas or newlines, row by row (in brackets too,
    /// as [`Board::parse`] reads them).
    ///
    /// # Errors
    /// As [`Board::parse`]; and a board drawn as several rows in another shape
    /// ([`BoardError::DrawnShape`]): read in `shape`, its numbers would be another board
    /// than the one drawn.
    pub fn parse_as(text: &str, shape: Shape) -> Result<Board, BoardError> {
        let Numbers {
            values,
            row_lengths,
            unfit,
        } = read_numbers(text)?;
        even_rows(&row_lengths)?;
        if row_lengths.len() > 1
            && (row_lengths.len(), row_lengths[0]) != (shape.rows as usize, shape.cols as usize)
        {
            return Err(BoardError::DrawnShape {
                rows: row_lengths.len(),
                cols: row_lengths[0],
                shape,
            });
        }
        Board::from_values(shape, &values).map_err(|e| as_typed(e, unfit))
    }

    /// A board of `shape` from numbers not yet known to fit in a tile (as read from text
    /// or JSON): the count, the range and each number once are all checked.
    pub(crate) fn from_values(shape: Shape, values: &[u64]) -> Result<Board, BoardError> {
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
    pub(super) fn permutation_parity(tiles: &[u8]) -> bool {
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
                    value: v.to_string(),
                    max: n - 1,
                    blank_missing: !values.contains(&0),
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
    let Numbers { values, unfit, .. } = read_numbers(text)?;
    if !(4..=MAX_CELLS).contains(&values.len()) {
        return Err(BoardError::BadCount(values.len()));
    }
    let tiles = in_range(&values).map_err(|e| as_typed(e, unfit))?;
    let mut seen = [false; MAX_CELLS];
    for &t in &tiles {
        if std::mem::replace(&mut seen[t as usize], true) {
            return Err(BoardError::Repeated(t));
        }
    }
    Ok(tiles)
}

/// The shape a board's text draws, as rows and the numbers in each: `None` when it is on
/// one line (or one bracket list), or its rows differ. An explicit goal keeps it, so that
/// a goal drawn in one shape never serves boards of another of its cell count.
pub(crate) fn drawn_shape(text: &str) -> Option<(usize, usize)> {
    let rows = read_numbers(text).ok()?.row_lengths;
    (rows.len() > 1 && rows.iter().all(|&c| c == rows[0])).then(|| (rows.len(), rows[0]))
}

/// A board's text read as numbers.
struct Numbers {
    /// The numbers, in order.
    values: Vec<u64>,
    /// How many each row with numbers held.
    row_lengths: Vec<usize>,
    /// The first integer too far out of range for a `u64` (negative, or of 20 digits and
    /// more) as typed. It is kept among `values` as `u64::MAX`, so that the count is
    /// checked first and the range after, as for any other number; [`as_typed`] then
    /// names it as typed.
    unfit: Option<String>,
}

/// The numbers of a board's text.
fn read_numbers(text: &str) -> Result<Numbers, BoardError> {
    let mut values = Vec::new();
    let mut row_lengths = Vec::new();
    let mut unfit = None;
    for row in rows(text)? {
        let before = values.len();
        for tok in row.split(|c: char| c.is_whitespace() || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let v: u64 = match tok.parse() {
                Ok(v) => v,
                Err(_) if integer(tok) => {
                    unfit.get_or_insert_with(|| quoted(tok));
                    u64::MAX
                }
                Err(_) => return Err(BoardError::NotANumber(quoted(tok))),
            };
            values.push(v);
        }
        if values.len() > before {
            row_lengths.push(values.len() - before);
        }
    }
    if values.is_empty() {
        return Err(BoardError::Empty);
    }
    Ok(Numbers {
        values,
        row_lengths,
        unfit,
    })
}

/// Whether a token is an integer, a sign and digits, whatever its size.
fn integer(tok: &str) -> bool {
    let digits = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// An out-of-range error for the stand-in of an integer that fits no `u64`
/// ([`read_numbers`]), naming the number as it was typed.
fn as_typed(e: BoardError, unfit: Option<String>) -> BoardError {
    match (e, unfit) {
        (
            BoardError::OutOfRange {
                value,
                max,
                blank_missing,
            },
            Some(typed),
        ) if value == u64::MAX.to_string() => BoardError::OutOfRange {
            value: typed,
            max,
            blank_missing,
        },
        (e, _) => e,
    }
}

/// The rows of a board's text: its lines; or, for a board written as a list in square
/// brackets (as Python and JSON print one, `str(board)` or `json.dumps(board)` pasted
/// as it is), the lines inside a list around the whole board, or the lists of each row.
/// Brackets anywhere else are refused rather than read as separators, so that a stray
/// one never joins two boards or cuts one.
pub(crate) fn rows(text: &str) -> Result<Vec<&str>, BoardError> {
    if !text.contains(['[', ']']) {
        return Ok(text.lines().collect());
    }
    let separator = |c: char| c.is_whitespace() || c == ',';
    // The lists at depth 1 (`outer`) and 2 (`inner`), as byte ranges inside the brackets.
    let mut outer: Vec<(usize, usize)> = Vec::new();
    let mut inner: Vec<(usize, usize)> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    // Said only once the brackets are known to pair up: a missing one is the mistake to
    // name first (`1 2 3 [4 5 6]` is text outside, `1 2 3 4 5 6 7 8 [0` a lost `]`).
    let mut stray = None;
    for (i, c) in text.char_indices() {
        match c {
            '[' if open.len() == 2 => return Err(BoardError::Brackets("lists nested too deep")),
            '[' => open.push(i + 1),
            ']' => {
                let start = open
                    .pop()
                    .ok_or(BoardError::Brackets("a ] without its ["))?;
                if open.is_empty() {
                    outer.push((start, i));
                } else {
                    inner.push((start, i));
                }
            }
            c if open.is_empty() && !separator(c) => {
                stray.get_or_insert("text outside the brackets");
            }
            // Text beside a row's list, within the list of rows.
            c if open.len() == 1 && !inner.is_empty() && !separator(c) => {
                stray.get_or_insert("text beside the rows' lists");
            }
            _ => {}
        }
    }
    if !open.is_empty() {
        return Err(BoardError::Brackets("a [ without its ]"));
    }
    if let Some(why) = stray {
        return Err(BoardError::Brackets(why));
    }
    let part = |(a, b): (usize, usize)| &text[a..b];
    match (outer.len(), inner.is_empty()) {
        // [1, 2, 3, ...], perhaps over several lines: its lines are the rows.
        (1, true) => Ok(part(outer[0]).lines().collect()),
        // [[1, 2, 3], [4, 5, 6], ...]: each list a row.
        (1, false) => {
            let rows_text = part(outer[0]);
            let (a, _) = outer[0];
            // Text before the first row's list (`[1, [2, 3]]`) was not seen as beside
            // the rows: no row had ended.
            if rows_text[..inner[0].0 - a - 1].contains(|c: char| !separator(c)) {
                return Err(BoardError::Brackets("text beside the rows' lists"));
            }
            Ok(inner.into_iter().map(part).collect())
        }
        // [1, 2, 3] [4, 5, 6] ...: each list a row.
        (_, true) => Ok(outer.into_iter().map(part).collect()),
        // [[1, 2]] [[3, 0]]
        (_, false) => Err(BoardError::Brackets("several lists of rows")),
    }
}

/// A token as an error message quotes it: whole up to 40 characters, else its first 40
/// and an ellipsis, so that a cut number is never mistaken for the one the user wrote.
pub(crate) fn quoted(tok: &str) -> String {
    const MAX: usize = 40;
    if tok.chars().count() <= MAX {
        tok.to_string()
    } else {
        let mut cut: String = tok.chars().take(MAX).collect();
        cut.push('…');
        cut
    }
}

/// Refuses a board given as lines of different lengths (`1 2 3 4` / `5 6 7` / `8 0`): the
/// numbers might add up to a board, but the lines say no shape, and reading them as a square
/// would solve a board the user may not have meant.
fn even_rows(row_lengths: &[usize]) -> Result<(), BoardError> {
    let first = row_lengths.first().copied().unwrap_or(0);
    match row_lengths.iter().position(|&l| l != first) {
        Some(i) => Err(BoardError::UnevenRows {
            row: i + 1,
            count: row_lengths[i],
            first,
        }),
        None => Ok(()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn a_board_written_as_a_list_reads_as_its_numbers() {
        let b = Board::parse("1 2 3 4 5 6 7 0 8").unwrap();
        for text in [
            "[1, 2, 3, 4, 5, 6, 7, 0, 8]",
            "[[1, 2, 3], [4, 5, 6], [7, 0, 8]]",
            "[[1,2,3],[4,5,6],[7,0,8]]",
            "[1, 2, 3] [4, 5, 6] [7, 0, 8]",
            "[[1, 2, 3],\n [4, 5, 6],\n [7, 0, 8]]",
            "[1 2 3\n4 5 6\n7 0 8]",
            "  [1, 2, 3, 4, 5, 6, 7, 0, 8]\n",
        ] {
            assert_eq!(Board::parse(text), Ok(b), "{text:?}");
            assert_eq!(Board::parse_as(text, shape(3, 3)), Ok(b), "{text:?}");
        }
        // Rows in brackets say the shape, as lines do; a flat list does not.
        let rows = "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]]";
        assert_eq!(Board::parse(rows).unwrap().shape(), shape(3, 4));
        assert_eq!(
            Board::parse("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]"),
            Err(BoardError::BadCount(12))
        );
        // A goal too.
        assert_eq!(parse_tiles("[0, 1, 2, 3]"), Ok(vec![0, 1, 2, 3]));
    }

    #[test]
    fn brackets_anywhere_else_are_refused_saying_what_is_wrong() {
        for (text, why) in [
            ("[1, 2, 3, 4, 5, 6, 7, 0, 8", "a [ without its ]"),
            ("1, 2, 3, 4, 5, 6, 7, 0, 8]", "a ] without its ["),
            ("1 2 3 4 5 6 7 8 [0", "a [ without its ]"),
            ("[[[1, 2, 3, 4]]]", "lists nested too deep"),
            ("1 2 3 [4 5 6 7 0 8]", "text outside the brackets"),
            ("[1, 2, 3, 4, 5, 6, 7, 0, 8] x", "text outside the brackets"),
            (
                "[[1, 2, 3], 4, 5, 6, [7, 0, 8]]",
                "text beside the rows' lists",
            ),
            (
                "[1, [2, 3], [4, 5, 6], [7, 0, 8]]",
                "text beside the rows' lists",
            ),
            ("[[1, 2], [3, 0]] [[1, 2], [3, 0]]", "several lists of rows"),
        ] {
            assert_eq!(
                Board::parse(text),
                Err(BoardError::Brackets(why)),
                "{text:?}"
            );
        }
        let e = Board::parse("[1, 2, 3").unwrap_err().to_string();
        assert!(
            e.ends_with("or [[1, 2, 3], [4, 5, 6], [7, 0, 8]]; or leave them out"),
            "{e}"
        );
        // Rows of different lengths, in brackets as on lines.
        assert_eq!(
            Board::parse("[[1, 2, 3], [4, 5, 6, 7], [0, 8]]"),
            Err(BoardError::UnevenRows {
                row: 2,
                count: 4,
                first: 3
            })
        );
    }

    #[test]
    fn a_board_drawn_in_another_shape_than_the_one_given_is_refused() {
        let drawn = "1 2 3 4\n5 6 7 8\n9 10 0 11";
        assert_eq!(
            Board::parse_as(drawn, shape(3, 4)).unwrap().shape(),
            shape(3, 4)
        );
        assert_eq!(
            Board::parse_as(drawn, shape(4, 3)),
            Err(BoardError::DrawnShape {
                rows: 3,
                cols: 4,
                shape: shape(4, 3)
            })
        );
        assert_eq!(
            Board::parse_as("[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 0, 11]]", shape(4, 3))
                .unwrap_err()
                .to_string(),
            "the board is drawn as 3 rows of 4 but the size given is 4x3 (4 rows of 3): give \
             the size 3x4, or draw the board as 4x3"
        );
        // On one line, the shape given says the rows.
        let one_line = "1 2 3 4 5 6 7 8 9 10 0 11";
        assert_eq!(
            Board::parse_as(one_line, shape(4, 3)).unwrap().shape(),
            shape(4, 3)
        );
    }

    #[test]
    fn the_count_of_cells_as_a_number_is_said_to_be_no_blank() {
        assert_eq!(
            Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16")
                .unwrap_err()
                .to_string(),
            "the number 16 is out of range (0 to 15); the blank is 0, not 16"
        );
        // A goal's numbers 1 to 8 may be a 2x4 goal numbering its blank 8, or a 3x3 one
        // missing its 0: both are said.
        assert_eq!(
            parse_tiles("1 2 3 4 5 6 7 8").unwrap_err().to_string(),
            "the number 8 is out of range (0 to 7); the blank is 0, not 8 (or, for a 3x3 board, the 0 is missing)"
        );
        // Not when the board has its 0, nor for other numbers out of range.
        assert_eq!(
            Board::parse("1 2 3 4 16 6 7 8 9 10 11 12 13 14 15 0")
                .unwrap_err()
                .to_string(),
            "the number 16 is out of range (0 to 15)"
        );
        assert_eq!(
            Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 17")
                .unwrap_err()
                .to_string(),
            "the number 17 is out of range (0 to 15)"
        );
        assert!(Board::parse("1 2 3")
            .unwrap_err()
            .to_string()
            .contains("give 4, 9, 16, 25 or 36 numbers for a square board"));
    }

    #[test]
    fn negative_and_huge_numbers_are_out_of_range_as_typed() {
        let message = |text: &str| Board::parse(text).unwrap_err().to_string();
        assert_eq!(
            message("1 2 3 -4 5 6 7 0 8"),
            "the number -4 is out of range (0 to 8)"
        );
        let huge = "99999999999999999999";
        assert_eq!(
            message(&format!("1 2 {huge} 4 5 6 7 0 8")),
            format!("the number {huge} is out of range (0 to 8)")
        );
        // The count is checked first, as for any number out of range.
        assert!(
            message("1 -2 3").contains("3 numbers"),
            "{}",
            message("1 -2 3")
        );
        // The first out of range is named, whichever kind.
        assert_eq!(
            message("1 2 9 -4 5 6 7 0 8"),
            "the number 9 is out of range (0 to 8)"
        );
        assert_eq!(
            parse_tiles("1 2 3 -0").unwrap_err().to_string(),
            "the number -0 is out of range (0 to 3)"
        );
        // A sign alone, or a number with letters, is no number.
        // Signs people write for the blank say how it is written here.
        for sign in ["-", "_", ".", "x", "*", "__"] {
            assert_eq!(
                message(&format!("1 2 3 {sign} 5 6 7 4 8")),
                format!("'{sign}' is not a number (the blank is written 0)")
            );
        }
        assert_eq!(message("1 2 3 4e0 5 6 7 0 8"), "'4e0' is not a number");
        // A count one short of a square board asks for the number left out.
        assert_eq!(
            message("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"),
            "15 numbers do not make a board (give 4, 9, 16, 25 or 36 numbers for a square \
             board; other shapes need --size RxC, or a `size: RxC` line in a file); 15 is one \
             short of a 4x4 board: is a number missing (the blank is written 0)?"
        );
    }
}
