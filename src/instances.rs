//! Instance files (SPEC.md): one board per line, optionally `ID LEN tiles...`, `#` comments,
//! and `goal:` lines that set the goal for the lines after them. A `size: RxC` line does
//! the same for the board shape: square boards follow from their count, other shapes
//! (2x4, 3x4 ...) need it.
//!
//! Read as an iterator so that a million-line batch streams in constant memory; a bad line
//! is an `Err` item and the lines after it still come.

use std::io::BufRead;

use crate::board::{Board, Goal, Shape};
use crate::error::BoardError;

/// Which goal: a named one fits every size, an explicit one every shape with its number
/// of cells (its numbers are read row by row in the board's shape).
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// A batch mixes board sizes, so the goal is kept as this spec and made into a [`Goal`] per
/// board with [`GoalSpec::for_shape`].
///
/// # Examples
/// ```
/// use fifteen::{BoardError, Goal, GoalSpec, Shape};
///
/// let (s3, s4) = (Shape::new(3, 3).unwrap(), Shape::new(4, 4).unwrap());
/// let standard = GoalSpec::parse("standard")?;
/// assert_eq!(standard, GoalSpec::Standard);
/// assert_eq!(standard.for_shape(s3)?, Goal::standard(s3));
/// assert_eq!(standard.for_shape(s4)?.board().tiles()[15], 0);
///
/// let korf = GoalSpec::parse("blank-first")?;
/// assert_eq!(korf.for_shape(s4)?, Goal::blank_first(s4));
/// assert_eq!(korf.for_shape(s4)?.blank(), 0);
///
/// // Explicit numbers fit only boards with as many cells.
/// let explicit = GoalSpec::parse("1 2 3 4 5 6 7 8 0")?;
/// assert_eq!(explicit.for_shape(s3)?, Goal::standard(s3));
/// assert_eq!(
///     explicit.for_shape(s4),
///     Err(BoardError::GoalSize { board: 16, goal: 9 })
/// );
/// assert_eq!(GoalSpec::parse("diagonal"), Err(BoardError::BadGoal("diagonal".into())));
/// # Ok::<(), BoardError>(())
/// ```
pub enum GoalSpec {
    /// `1 2 ... n-1 0`, blank in the last cell ([`Goal::standard`]); the default.
    Standard,
    /// `0 1 ... n-1`, blank in the first cell ([`Goal::blank_first`]), as in the Korf 100
    /// set.
    BlankFirst,
    /// Each of `0..len` once.
    Explicit(Vec<u8>),
}

impl GoalSpec {
    /// `standard`, `blank-first` (or `korf`), or the goal's numbers.
    ///
    /// # Errors
    /// Numbers that do not make a board, or an unknown name.
    pub fn parse(text: &str) -> Result<GoalSpec, BoardError> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "standard" | "default" => Ok(GoalSpec::Standard),
            "blank-first" | "blank_first" | "korf" => Ok(GoalSpec::BlankFirst),
            _ => {
                if t.chars().any(|c| c.is_ascii_alphabetic()) {
                    return Err(BoardError::BadGoal(t.chars().take(30).collect()));
                }
                // Checked now; its shape comes with the boards.
                Ok(GoalSpec::Explicit(crate::board::parse_tiles(t)?))
            }
        }
    }

    /// The goal for a board of this shape.
    ///
    /// # Errors
    /// An explicit goal of another size.
    pub fn for_shape(&self, shape: Shape) -> Result<Goal, BoardError> {
        match self {
            GoalSpec::Standard => Ok(Goal::standard(shape)),
            GoalSpec::BlankFirst => Ok(Goal::blank_first(shape)),
            GoalSpec::Explicit(tiles) if tiles.len() == shape.cells() => {
                Ok(Goal::from_board(Board::new(shape, tiles)?))
            }
            GoalSpec::Explicit(tiles) => Err(BoardError::GoalSize {
                board: shape.cells(),
                goal: tiles.len(),
            }),
        }
    }
}

/// A board to solve, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The id from the file, or the instance's number (1, 2, ...).
    pub id: String,
    /// The board to solve, checked solvable for `goal`.
    pub board: Board,
    /// The goal in force at its line (the reader's, or the last `goal:` line's).
    pub goal: Goal,
    /// The optimal length the file claims, if any.
    pub known: Option<u32>,
}

/// A line that could not be read as an instance; the batch goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadInstance {
    /// The id the instance would have had; `goal:N` or `size:N` for a bad `goal:` or
    /// `size:` line at line `N`.
    pub id: String,
    /// 1-based line number of the instance's (first) line in the input.
    pub line: usize,
    /// What is wrong with it.
    pub error: BoardError,
}

impl std::fmt::Display for BadInstance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "instance {} (line {}): {}",
            self.id, self.line, self.error
        )
    }
}

/// Turns one instance's text into an [`Instance`], checking solvability for its goal.
fn make(
    id: String,
    line: usize,
    tiles: &str,
    known: Option<u32>,
    goal: &GoalSpec,
    size: Option<Shape>,
) -> Result<Instance, BadInstance> {
    let bad = |error| BadInstance {
        id: id.clone(),
        line,
        error,
    };
    let board = match size {
        Some(shape) => Board::parse_as(tiles, shape),
        None => Board::parse(tiles),
    }
    .map_err(bad)?;
    let goal = goal.for_shape(board.shape()).map_err(bad)?;
    goal.labels(&board).map_err(bad)?;
    Ok(Instance {
        id: id.clone(),
        board,
        goal,
        known,
    })
}

/// Reads instances from any `BufRead`.
pub struct Reader<R> {
    input: R,
    goal: GoalSpec,
    /// The shape of the boards, when said (`None`: square, from the count).
    size: Option<Shape>,
    line_no: usize,
    count: usize,
    buf: String,
    /// Lines of a grid board being gathered: (first line, rows expected, row width, text).
    grid: Option<(usize, usize, usize, String)>,
    /// A line read but not yet handled: it ended an unfinished grid, which was reported
    /// first.
    pending: Option<String>,
    io_error: Option<std::io::Error>,
}

impl<R: BufRead> Reader<R> {
    /// `goal` applies until a `goal:` line changes it.
    pub fn new(input: R, goal: GoalSpec) -> Reader<R> {
        Reader {
            input,
            goal,
            size: None,
            line_no: 0,
            count: 0,
            buf: String::new(),
            grid: None,
            pending: None,
            io_error: None,
        }
    }

    /// Boards are of this shape until a `size:` line changes it (`None`: square boards,
    /// their size from the count).
    pub fn with_size(mut self, size: Option<Shape>) -> Reader<R> {
        self.size = size;
        self
    }

    /// The read error that ended the iteration early, if any.
    pub fn take_io_error(&mut self) -> Option<std::io::Error> {
        self.io_error.take()
    }

    /// How many instances (good or bad) were read so far.
    pub fn instances_read(&self) -> usize {
        self.count
    }

    /// The next line without its comment, trimmed; `None` at the end of the input.
    fn read_line(&mut self) -> std::io::Result<Option<String>> {
        self.buf.clear();
        if self.input.read_line(&mut self.buf)? == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        Ok(Some(
            self.buf.split('#').next().unwrap_or("").trim().to_string(),
        ))
    }

    fn next_id(&mut self) -> String {
        self.count += 1;
        self.count.to_string()
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Instance, BadInstance>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = match self.pending.take() {
                Some(line) => line,
                None => match self.read_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        let (line, _, _, text) = self.grid.take()?;
                        let id = self.next_id();
                        // An unfinished grid: let the board parser say what is wrong.
                        return Some(make(id, line, &text, None, &self.goal, self.size));
                    }
                    Err(e) => {
                        self.io_error = Some(e);
                        return None;
                    }
                },
            };
            if line.is_empty() {
                continue;
            }
            let tokens: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .collect();
            // A grid's rows all have its width; any other line (a whole board, a `goal:`
            // line, a stray row) ends it unfinished. The grid is reported, then the line is
            // read afresh, so one bad line never swallows good boards after it.
            if let Some((start, _, width, text)) = &self.grid {
                if tokens.len() != *width || line.contains(':') {
                    let (start, text) = (*start, text.clone());
                    self.grid = None;
                    self.pending = Some(line);
                    let id = self.next_id();
                    return Some(make(id, start, &text, None, &self.goal, self.size));
                }
            }
            if let Some(rest) = line.strip_prefix("goal:") {
                match GoalSpec::parse(rest) {
                    Ok(g) => self.goal = g,
                    Err(error) => {
                        let id = format!("goal:{}", self.line_no);
                        return Some(Err(BadInstance {
                            id,
                            line: self.line_no,
                            error,
                        }));
                    }
                }
                continue;
            }
            if let Some(rest) = line.strip_prefix("size:") {
                let rest = rest.trim();
                if rest.eq_ignore_ascii_case("auto") {
                    self.size = None;
                } else if let Some(shape) = Shape::parse(rest) {
                    self.size = Some(shape);
                } else {
                    return Some(Err(BadInstance {
                        id: format!("size:{}", self.line_no),
                        line: self.line_no,
                        error: BoardError::BadSize(rest.chars().take(30).collect()),
                    }));
                }
                continue;
            }
            if let Some((start, rows, width, mut text)) = self.grid.take() {
                text.push('\n');
                text.push_str(&line);
                if text.lines().count() < rows {
                    self.grid = Some((start, rows, width, text));
                    continue;
                }
                let id = self.next_id();
                return Some(make(id, start, &text, None, &self.goal, self.size));
            }
            let n = tokens.len();
            // With a size, a board has exactly its cells; otherwise a square count.
            let (is_board, grid_rows) = match self.size {
                Some(s) => (
                    n == s.cells(),
                    (n == s.cols as usize).then_some(s.rows as usize),
                ),
                None => (
                    Shape::square_of(n).is_some(),
                    (2..=6).contains(&n).then_some(n),
                ),
            };
            let is_board_count = |k: usize| match self.size {
                Some(s) => k == s.cells(),
                None => Shape::square_of(k).is_some(),
            };
            if n >= 3 && is_board_count(n - 2) && !is_board {
                // ID LEN tiles...
                let id = tokens[0].to_string();
                self.count += 1;
                let known = match tokens[1] {
                    "?" => None,
                    t => match t.parse::<u32>() {
                        Ok(v) => Some(v),
                        Err(_) => {
                            return Some(Err(BadInstance {
                                id,
                                line: self.line_no,
                                error: BoardError::NotANumber(t.chars().take(20).collect()),
                            }))
                        }
                    },
                };
                return Some(make(
                    id,
                    self.line_no,
                    &tokens[2..].join(" "),
                    known,
                    &self.goal,
                    self.size,
                ));
            }
            if let Some(rows) = grid_rows {
                if tokens.iter().all(|t| t.parse::<u8>().is_ok()) {
                    // The first row of a grid board: `rows` lines of `n`.
                    self.grid = Some((self.line_no, rows, n, line));
                    continue;
                }
            }
            let id = self.next_id();
            return Some(make(id, self.line_no, &line, None, &self.goal, self.size));
        }
    }
}
