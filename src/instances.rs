//! Instance files (docs/formats.md): one board per line, optionally `ID LEN tiles...`, `#`
//! comments, and `goal:` lines that set the goal for the lines after them. A `size: RxC`
//! line does the same for the board shape: square boards follow from their count, other
//! shapes (2x4, 3x4 ...) need it.
//!
//! Read as an iterator so that a million-line batch streams in constant memory; a bad line
//! is an `Err` item and the lines after it still come. [`Reader`] lists the rules for
//! ambiguous and damaged input.

use std::collections::VecDeque;
use std::io::BufRead;

use crate::board::{quoted, Board, Goal, Shape};
use crate::error::BoardError;

mod goal_spec;
pub(crate) mod lines;

pub use goal_spec::GoalSpec;
use lines::{ByteLines, RawLine};

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
    /// `size:` line at line `N` (`WORD:N` for an unknown directive `WORD:`).
    pub id: String,
    /// 1-based line number of the instance's (first) line in the input.
    pub line: usize,
    /// What is wrong with it.
    pub error: BoardError,
    /// The length its `ID LEN` line gave as known optimal, when it read: carried into
    /// the failure's record, as a failed instance's is.
    pub known: Option<u32>,
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

/// The most bytes an instance-file line may hold before its `#` comment. The longest
/// sensible line (an `ID LEN` line of a 6x6 board) takes a few hundred; the cap only keeps
/// input without line breaks (`-i /dev/zero`) from taking memory without end.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input, trimmed, without its comment.
#[derive(Clone, Debug)]
struct Line {
    no: usize,
    text: String,
    /// Why the line cannot be read at all: bytes that are not UTF-8, too many of them, or
    /// an invisible character.
    problem: Option<BoardError>,
}

impl Line {
    fn new(raw: RawLine) -> Line {
        let text = raw.text.trim().to_string();
        // Invisible characters would make messages that show nothing wrong (`'7' is not
        // a number`); name them instead. Tabs, CR and other whitespace separate numbers.
        let problem = raw.problem.or_else(|| {
            if text.starts_with('{') {
                // No board starts with a brace: a results file given for boards.
                return Some(BoardError::JsonLine);
            }
            text.chars()
                .find(|&c| {
                    (c.is_control() && !c.is_whitespace())
                        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}')
                })
                .map(|c| BoardError::InvisibleChar(c as u32))
        });
        Line {
            no: raw.no,
            text,
            problem,
        }
    }
}

/// The numbers (or would-be numbers) of a line: separated by whitespace and/or commas.
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect()
}

/// A line that says something about the lines after it rather than being an instance.
enum Directive<'a> {
    /// `goal: ...` (any case, spaces allowed before the colon), with what follows.
    Goal(&'a str),
    /// `size: ...`, likewise.
    Size(&'a str),
    /// `goal` or `size` (as written to `what`, lower case) without a colon.
    NoColon(&'static str),
    /// Another word and a colon (`gaol: blank-first`), holding the word.
    Unknown(&'a str),
}

/// Reads `text` as a directive, if it starts like one: a word (letters, `-`, `_`), then
/// optional spaces and a colon; or `goal`/`size` and a space.
fn directive(text: &str) -> Option<Directive<'_>> {
    if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))
        .unwrap_or(text.len());
    let (word, after) = text.split_at(end);
    let known = if word.eq_ignore_ascii_case("goal") {
        Some("goal")
    } else if word.eq_ignore_ascii_case("size") {
        Some("size")
    } else {
        None
    };
    match (after.trim_start().strip_prefix(':'), known) {
        (Some(rest), Some("goal")) => Some(Directive::Goal(rest)),
        (Some(rest), Some(_)) => Some(Directive::Size(rest)),
        (Some(_), None) => Some(Directive::Unknown(word)),
        (None, Some(k)) if after.is_empty() || after.starts_with(char::is_whitespace) => {
            Some(Directive::NoColon(k))
        }
        (None, _) => None,
    }
}

/// `auto` (square boards, their size from the count) or a shape.
fn parse_size(text: &str) -> Result<Option<Shape>, BoardError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    Shape::parse(t)
        .map(Some)
        .ok_or_else(|| BoardError::BadSize(t.chars().take(30).collect()))
}

/// A `goal:` or `size:` line (or an unknown directive) that could not be read: the boards
/// after it, until a valid line of the same kind, are refused with [`BoardError::Governed`].
#[derive(Clone, Debug)]
struct Poison {
    what: &'static str,
    line: usize,
    error: BoardError,
}

impl Poison {
    fn error(&self) -> BoardError {
        BoardError::Governed {
            what: self.what,
            line: self.line,
            error: Box::new(self.error.clone()),
        }
    }
}

/// The lines of a board given as rows, gathered so far.
struct Grid {
    rows: Vec<Line>,
    /// Numbers on each line.
    cols: usize,
    /// Lines the board needs.
    height: usize,
}

impl Grid {
    fn text(&self) -> String {
        let rows: Vec<&str> = self.rows.iter().map(|r| r.text.as_str()).collect();
        rows.join("\n")
    }

    fn complete(&self) -> bool {
        self.rows.len() == self.height
    }

    /// Whether the rows so far can no longer make a board: a token that is not a number,
    /// or a number out of range or repeated.
    fn doomed(&self) -> bool {
        let cells = self.cols * self.height;
        let mut seen = vec![false; cells];
        for t in self.rows.iter().flat_map(|r| tokens(&r.text)) {
            match t.parse::<usize>() {
                Ok(v) if v < cells && !std::mem::replace(&mut seen[v], true) => {}
                _ => return true,
            }
        }
        false
    }
}

/// Whether the tokens are the numbers 0 to `n - 1`, each once (`n` tokens): a whole board
/// of `n` cells, whatever else they could be read as.
fn every_number_once(tokens: &[&str]) -> bool {
    let mut seen = vec![false; tokens.len()];
    tokens.iter().all(|t| match t.parse::<usize>() {
        Ok(v) if v < seen.len() && !seen[v] => {
            seen[v] = true;
            true
        }
        _ => false,
    })
}

/// Whether some board of 2 to 6 rows and columns, not square, has `cells` cells.
fn is_oblong(cells: usize) -> bool {
    (2..=6).any(|r| cells.is_multiple_of(r) && (2..=6).contains(&(cells / r)) && r * r != cells)
}

/// Reads instances from any `BufRead`.
///
/// Rules beyond docs/formats.md's, each so that a line is never solved as something it was not:
///
/// - A bad `goal:` or `size:` line is reported (id `goal:N` or `size:N`), and every board
///   after it is refused, naming that line ([`BoardError::Governed`]), until a valid line of
///   the same kind: the boards it governs are never solved for the goal or shape before it.
///   Directive names are read in any case (`Goal:`); `goal` or `size` without a colon, and
///   any other `word:` line that is not an instance, count as bad lines of both kinds.
/// - A board given as rows is gathered while lines of its row length follow; a line of
///   another length, a directive, a bad line or the end of the input ends it, unfinished:
///   an error ([`BoardError::UnfinishedGrid`]), never a smaller board.
/// - Where a line is a whole board on its own and also a row length (4 numbers: a 2x2
///   board, or a 4x4 row; 6 numbers: `ID LEN` and a 2x2 board, or a 6x6 row), it is read as
///   its own board unless it is a row of lines that make a valid larger board. The lines of
///   a grid that can no longer be a board are read again one by one, as soon as that is
///   known (a 4x4 board's first row has 0 to 3, so a second line that is a 2x2 board shows
///   they are separate boards). `size:` or `--size` removes any doubt.
/// - Without a shape said, a line that is a whole board of a shape not square and also
///   `ID LEN` and a square board (6 numbers, each of 0 to 5 once; 18, each of 0 to 17) is
///   refused ([`BoardError::IdOrBoard`]): either reading may solve a board it is not. When
///   its numbers after the first two are no board (`1 2 3 4 5 0`), it is refused as a count
///   that makes no square board ([`BoardError::BadCount`]), which names `size:`.
/// - Bytes that are not UTF-8, a line over [`MAX_LINE_BYTES`] (the rest of it skipped
///   unread), an invisible character: an error for that line, and the batch goes on. A
///   byte-order mark starting a line is skipped; comments are never looked at.
/// - A line of binary data ([`BoardError::Binary`]) ends the input with a read error
///   ([`Reader::take_io_error`]): the boards before it stand, the rest is not read.
pub struct Reader<R> {
    lines: ByteLines<R>,
    /// Lines to read before the input's next: the end of an unfinished grid, or the rows of
    /// one that turned out to be separate boards.
    queue: VecDeque<Line>,
    goal: GoalSpec,
    /// Set from a bad `goal:` line (or an unknown directive) until a valid `goal:` line.
    bad_goal: Option<Poison>,
    /// The shape of the boards, when said (`None`: square, from the count).
    size: Option<Shape>,
    /// Set from a bad `size:` line (or an unknown directive) until a valid `size:` line.
    bad_size: Option<Poison>,
    count: usize,
    grid: Option<Grid>,
    ended: bool,
    io_error: Option<std::io::Error>,
}

type Item = Result<Instance, BadInstance>;

impl<R: BufRead> Reader<R> {
    /// `goal` applies until a `goal:` line changes it.
    pub fn new(input: R, goal: GoalSpec) -> Reader<R> {
        Reader {
            lines: ByteLines::new(input, MAX_LINE_BYTES, Some(b'#')),
            queue: VecDeque::new(),
            goal,
            bad_goal: None,
            size: None,
            bad_size: None,
            count: 0,
            grid: None,
            ended: false,
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

    fn next_line(&mut self) -> Option<Line> {
        if let Some(line) = self.queue.pop_front() {
            return Some(line);
        }
        if self.ended {
            return None;
        }
        match self.lines.next_line() {
            Ok(Some(raw)) if raw.problem == Some(BoardError::Binary) => {
                // A program or a compressed file is no file of boards: one error for the
                // input, not one per line of it (an executable made five hundred).
                let why = format!("line {} is {}", raw.no, BoardError::Binary);
                self.io_error = Some(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
                self.ended = true;
                None
            }
            Ok(Some(raw)) => Some(Line::new(raw)),
            Ok(None) => {
                self.ended = true;
                None
            }
            Err(e) => {
                self.io_error = Some(e);
                self.ended = true;
                None
            }
        }
    }

    fn next_id(&mut self) -> String {
        self.count += 1;
        self.count.to_string()
    }

    fn parse_board(&self, text: &str) -> Result<Board, BoardError> {
        match self.size {
            Some(shape) => Board::parse_as(text, shape),
            None => Board::parse(text),
        }
    }

    /// `ID LEN tiles...`: when the count is a board's plus two, and not itself a board's,
    /// and the line does not start with a bracket (a board written as a list: `[1, 2, 3]
    /// [4, 5, 0]` has the count of a 2x2 board plus two).
    fn split_id<'t, 'a>(&self, tokens: &'t [&'a str]) -> Option<(&'a str, &'a str, &'t [&'a str])> {
        let n = tokens.len();
        let is_board = |k: usize| match self.size {
            Some(s) => k == s.cells(),
            None => Shape::square_of(k).is_some(),
        };
        (n >= 3 && is_board(n - 2) && !is_board(n) && !tokens[0].starts_with('['))
            .then(|| (tokens[0], tokens[1], &tokens[2..]))
    }

    /// Whether the line is a whole, valid board on its own (solvable or not).
    fn valid_alone(&self, line: &Line) -> bool {
        if line.problem.is_some() {
            return false;
        }
        let tokens = tokens(&line.text);
        match self.split_id(&tokens) {
            Some((_, len, tiles)) => {
                (len == "?" || len.parse::<u32>().is_ok())
                    && self.parse_board(&tiles.join(" ")).is_ok()
            }
            None => self.parse_board(&line.text).is_ok(),
        }
    }

    /// The row length and row count of the grid board this line would start, if it could
    /// be a grid's first row. Never after a bad `size:` line: the shape is unknown, so each
    /// line stands alone.
    fn grid_shape(&self, line: &Line) -> Option<(usize, usize)> {
        if self.bad_size.as_ref().is_some_and(|p| p.what == "size") {
            return None;
        }
        let tokens = tokens(&line.text);
        if !tokens.iter().all(|t| t.parse::<u8>().is_ok()) {
            return None;
        }
        let n = tokens.len();
        match self.size {
            Some(s) => (n == s.cols as usize).then_some((n, s.rows as usize)),
            None => (2..=6).contains(&n).then_some((n, n)),
        }
    }

    /// Turns one instance's text into an [`Instance`], checking solvability for its goal.
    fn make(&self, id: String, line: usize, tiles: &str, known: Option<u32>) -> Item {
        let bad = |error| BadInstance {
            id: id.clone(),
            line,
            error,
            known,
        };
        if let Some(p) = &self.bad_size {
            return Err(bad(p.error()));
        }
        let board = self.parse_board(tiles).map_err(bad)?;
        if let Some(p) = &self.bad_goal {
            return Err(bad(p.error()));
        }
        let goal = self.goal.for_shape(board.shape()).map_err(bad)?;
        goal.labels(&board).map_err(bad)?;
        Ok(Instance {
            id: id.clone(),
            board,
            goal,
            known,
        })
    }

    /// A line read as one instance: a board, or `ID LEN tiles...`.
    fn single(&mut self, line: Line) -> Item {
        let tokens = tokens(&line.text);
        if let Some((id, len, tiles)) = self.split_id(&tokens) {
            if self.size.is_none() && every_number_once(&tokens) && is_oblong(tokens.len()) {
                // Only a board of a shape not said when its tiles after `ID LEN` are no
                // board (`1 2 3 4 5 0`): then the count is the mistake to name.
                let count = tokens.len();
                let error = if every_number_once(tiles) {
                    BoardError::IdOrBoard { count }
                } else {
                    BoardError::BadCount(count)
                };
                return Err(BadInstance {
                    id: self.next_id(),
                    line: line.no,
                    error,
                    known: None,
                });
            }
            self.count += 1;
            let known = match len {
                "?" => None,
                t => match t.parse::<u32>() {
                    Ok(v) => Some(v),
                    Err(_) => {
                        let digits = t.strip_prefix('-').unwrap_or(t);
                        let error =
                            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                                BoardError::LengthOutOfRange(quoted(t))
                            } else {
                                BoardError::NotANumber(quoted(t))
                            };
                        return Err(BadInstance {
                            id: id.to_string(),
                            line: line.no,
                            error,
                            known: None,
                        });
                    }
                },
            };
            return self.make(id.to_string(), line.no, &tiles.join(" "), known);
        }
        let id = self.next_id();
        let item = self.make(id, line.no, &line.text, None);
        // A first token that is a word: an `ID LEN tiles` line of the wrong count, not a
        // board with a bad number.
        match item {
            Err(mut bad)
                if tokens.len() >= 3 && bad.error == BoardError::NotANumber(quoted(tokens[0])) =>
            {
                bad.error = BoardError::IdLineCount {
                    id: quoted(tokens[0]),
                    after: tokens.len() - 2,
                    cells: self.size.map(|s| s.cells()),
                };
                Err(bad)
            }
            item => item,
        }
    }

    /// The grid's board; or, if its lines do not make one and some of them are boards on
    /// their own (or it has only one line), its first line alone, the others read again.
    fn end_grid(&mut self, grid: Grid) -> Item {
        let text = grid.text();
        let is_board = grid.complete() && self.parse_board(&text).is_ok();
        if grid.rows.len() == 1 || (!is_board && grid.rows.iter().any(|r| self.valid_alone(r))) {
            return self.split(grid);
        }
        let id = self.next_id();
        let line = grid.rows[0].no;
        if grid.complete() {
            return self.make(id, line, &text, None);
        }
        Err(BadInstance {
            id,
            line,
            error: BoardError::UnfinishedGrid {
                lines: grid.rows.len(),
                rows: grid.height,
                cols: grid.cols,
            },
            known: None,
        })
    }

    fn split(&mut self, grid: Grid) -> Item {
        let mut rows = grid.rows.into_iter();
        let first = rows.next().expect("a grid has a line");
        for row in rows.rev() {
            self.queue.push_front(row);
        }
        self.single(first)
    }

    /// Applies a `goal:` or `size:` line, or reports it and refuses the boards it governs.
    fn directive(&mut self, line: Line) -> Option<Item> {
        let Some(d) = directive(&line.text) else {
            unreachable!("only directive lines come here")
        };
        let (word, goal, size, result) = match d {
            Directive::Goal(rest) => {
                let r = match &line.problem {
                    Some(e) => Err(e.clone()),
                    None => GoalSpec::parse(rest).map(|g| self.goal = g),
                };
                ("goal".to_string(), true, false, r)
            }
            Directive::Size(rest) => {
                let r = match &line.problem {
                    Some(e) => Err(e.clone()),
                    None => parse_size(rest).map(|s| self.size = s),
                };
                ("size".to_string(), false, true, r)
            }
            Directive::NoColon(w) => (
                w.to_string(),
                w == "goal",
                w == "size",
                Err(BoardError::MissingColon(w.to_string())),
            ),
            Directive::Unknown(w) => {
                let w: String = w.chars().take(20).collect();
                (w.clone(), true, true, Err(BoardError::UnknownDirective(w)))
            }
        };
        let error = match result {
            Ok(()) => {
                if goal {
                    self.bad_goal = None;
                } else {
                    self.bad_size = None;
                }
                return None;
            }
            Err(error) => error,
        };
        let what = match (goal, size) {
            (true, true) => "directive",
            (true, false) => "goal",
            _ => "size",
        };
        let poison = Poison {
            what,
            line: line.no,
            error: error.clone(),
        };
        if goal {
            self.bad_goal = Some(poison.clone());
        }
        if size {
            self.bad_size = Some(poison);
        }
        Some(Err(BadInstance {
            id: format!("{word}:{}", line.no),
            line: line.no,
            error,
            known: None,
        }))
    }

    /// One line of input: an instance, a grid's row, a directive, or nothing.
    fn take(&mut self, line: Line) -> Option<Item> {
        if line.text.is_empty() && line.problem.is_none() {
            return None;
        }
        // `word: ...` that reads as a valid `ID LEN` instance is one, with that id; so is
        // `goal ...` or `size ...` without a colon (ids `goal` and `size`).
        let is_directive = match directive(&line.text) {
            None => false,
            Some(Directive::Unknown(_) | Directive::NoColon(_)) => !self.valid_alone(&line),
            Some(_) => true,
        };
        if let Some(mut grid) = self.grid.take() {
            let row = !is_directive
                && line.problem.is_none()
                && !line.text.contains(':')
                && tokens(&line.text).len() == grid.cols;
            if !row {
                // The grid ends unfinished: it is reported, then the line read afresh, so
                // one bad line never swallows good boards after it.
                self.queue.push_front(line);
                return Some(self.end_grid(grid));
            }
            grid.rows.push(line);
            if grid.complete() || (grid.doomed() && grid.rows.iter().any(|r| self.valid_alone(r))) {
                return Some(self.end_grid(grid));
            }
            self.grid = Some(grid);
            return None;
        }
        if is_directive {
            return self.directive(line);
        }
        if let Some(error) = line.problem {
            let id = self.next_id();
            return Some(Err(BadInstance {
                id,
                line: line.no,
                error,
                known: None,
            }));
        }
        if let Some((cols, height)) = self.grid_shape(&line) {
            self.grid = Some(Grid {
                rows: vec![line],
                cols,
                height,
            });
            return None;
        }
        Some(self.single(line))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Instance, BadInstance>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let Some(line) = self.next_line() else {
                let grid = self.grid.take()?;
                return Some(self.end_grid(grid));
            };
            if let Some(item) = self.take(line) {
                return Some(item);
            }
        }
    }
}

#[cfg(test)]
mod tests;
