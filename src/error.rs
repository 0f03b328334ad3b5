//! Typed errors of the library. Binaries wrap them with `anyhow`.

use std::path::PathBuf;

use crate::board::Shape;

/// Something wrong with a board, a goal or a move list. Each message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text held no numbers at all (empty, or only separators).
    #[error("no numbers given")]
    Empty,
    /// A board of unknown shape whose count is not a square of 2..=6 (and that was not given
    /// as equal rows), or an explicit goal of fewer than 4 or more than 36 numbers. Holds the
    /// count.
    #[error("{count} not make a board (give 4, 9, 16, 25 or 36 numbers for a square board; other shapes need --size RxC, or a `size: RxC` line in a file){short}", count = numbers_do(*.0), short = one_short(*.0))]
    BadCount(usize),
    /// A board given as rows (lines, or lists in brackets) of different lengths: the rows
    /// say no shape, so it is not read as a square even when the count would make one.
    #[error("row {row} of the board has {count} numbers but row 1 has {first}: give every row the same count, or the whole board on one line")]
    UnevenRows {
        /// The first row (1-based, counting rows with numbers) whose length differs.
        row: usize,
        /// How many numbers that row holds.
        count: usize,
        /// How many the first row holds.
        first: usize,
    },
    /// A board drawn as rows (lines, or lists in brackets) in another shape than the one
    /// given for it (`--size`, a `size:` line): read in that shape, its numbers would make
    /// another board than the one drawn.
    #[error("the board is drawn as {rows} rows of {cols} but the size given is {shape} ({} rows of {}): give the size {rows}x{cols}, or draw the board as {shape}", .shape.rows, .shape.cols)]
    DrawnShape {
        /// The rows drawn.
        rows: usize,
        /// The numbers in each.
        cols: usize,
        /// The shape given.
        shape: Shape,
    },
    /// An explicit goal drawn as rows in another shape than the board's: read in the
    /// board's shape, its numbers would make another picture than the one drawn.
    #[error("the goal is drawn as {rows} rows of {cols} but the board is {shape} ({} rows of {}): draw the goal as the board is drawn, or give its numbers on one line", .shape.rows, .shape.cols)]
    GoalDrawnShape {
        /// The goal's rows.
        rows: usize,
        /// The numbers in each.
        cols: usize,
        /// The board's shape.
        shape: Shape,
    },
    /// Square brackets that do not enclose the whole board or each of its rows, as a list
    /// printed by Python or JSON does. Holds what is wrong with them.
    #[error("{0}: square brackets go around the whole board or around each row, as in [1, 2, 3, 4, 5, 6, 7, 0, 8] or [[1, 2, 3], [4, 5, 6], [7, 0, 8]]; or leave them out")]
    Brackets(&'static str),
    /// A board of known shape got the wrong number of tiles.
    #[error("{count} numbers given, {expected} expected")]
    WrongCount {
        /// How many numbers were given.
        count: usize,
        /// The shape's number of cells.
        expected: usize,
    },
    /// A tile (or the blank, `0`) occurs twice; holds the first repeated number.
    #[error("the number {0} appears more than once")]
    Repeated(u8),
    /// A number is not below the count of cells, so it names no tile. The count itself
    /// (16 on a 4x4 board) on a board without a 0 is most likely the blank written as the
    /// last tile, as some puzzles number it: the message then says that the blank is 0.
    #[error("the number {value} is out of range (0 to {max}){}", blank_hint(.value, *.max, *.blank_missing))]
    OutOfRange {
        /// The number as given: its digits, and a sign when it had one (text, so that a
        /// negative number, or one of more than 20 digits, is reported as typed).
        value: String,
        /// The largest tile of this board, `cells - 1`.
        max: usize,
        /// Whether the numbers given hold no 0 (false where that is not known).
        blank_missing: bool,
    },
    /// A token that is not an integer: in a board, or the `LEN` of an instance line (where
    /// a negative one is not a number either). Holds the token, cut to 40 characters and an ellipsis.
    #[error("'{token}' is not a number{sign}", token = .0, sign = blank_sign(.0))]
    NotANumber(String),
    /// A line that starts with a word (an id) but whose numbers after `ID LEN` make no
    /// board: most likely an `ID LEN tiles` line with a tile missing or one too many, which
    /// read as a board would only say that the id is not a number.
    #[error("'{id}' is not a number, and as an `ID LEN tiles` line it has {} after ID and LEN, which make no board (give {})", numbers(*.after), cells_wanted(*.cells))]
    IdLineCount {
        /// The line's first token (the id), cut as [`NotANumber`](Self::NotANumber)'s is.
        id: String,
        /// How many tokens follow `ID LEN`.
        after: usize,
        /// The cells of the shape set by `--size` or a `size:` line; `None` for square
        /// boards by count.
        cells: Option<usize>,
    },
    /// A line, with no shape said, whose numbers are each of 0 to `count - 1` once, where
    /// `count` is a board's of a shape that is not square and also two more than a square
    /// board's (6: a 2x3 board, or `ID LEN` and a 2x2 board; 18: 3x6, or `ID LEN` and a
    /// 4x4 board). Read either way it would be solved as a board it may not be, so it is
    /// refused until a `size:` line or `--size` says which.
    #[error("its {count} numbers are each of 0 to {} once: a {} board, or `ID LEN` and a {} board? Say which with a `size:` line before it (or --size): `size: {}` for the board, `size: {}` for `ID LEN` lines", .count - 1, shapes_of(*.count), square_below(*.count), shapes_of(*.count).split(' ').next().unwrap_or_default(), square_below(*.count))]
    IdOrBoard {
        /// How many numbers the line holds.
        count: usize,
    },
    /// The `LEN` of an instance line, a number too large for a length (2^32 or more): its
    /// digits, cut as [`NotANumber`](Self::NotANumber)'s token is when very long.
    #[error("the known length {0} is out of range (0 to 4294967295; or ? for unknown)")]
    LengthOutOfRange(String),
    /// The board has the wrong permutation parity for its goal: no sequence of moves
    /// reaches it. Found before any search, by [`Goal::labels`](crate::board::Goal::labels).
    ///
    /// `other` names the other built-in goal when the goal asked is `standard` or
    /// `blank-first` and the board can reach that one: the likeliest slip (the Korf 100
    /// and every file in `data/` are for `blank-first`), so the message says which option
    /// gives it. `None` for any other goal, or when neither built-in goal is reachable
    /// (on odd-sized square boards the two goals have the same parity).
    #[error("unsolvable: this board cannot reach the goal (the tile parity is wrong, as with two tiles swapped){}", other_goal_hint(*.other))]
    Unsolvable {
        /// `Some("blank-first")` or `Some("standard")`: the built-in goal this board can
        /// reach, when another built-in goal was asked.
        other: Option<&'static str>,
    },
    /// A board and goal of different shapes: a goal only serves boards of its own shape.
    #[error("the goal has {goal} cells but the board has {board}")]
    GoalSize {
        /// The board's number of cells.
        board: usize,
        /// The goal's number of cells.
        goal: usize,
    },
    /// A character in a move string that is none of `U`, `D`, `L`, `R`: lower case, a
    /// space or a comma too, as a solution is written with these four capitals alone.
    #[error("'{}' is not a move: a solution is a string of the capitals U, D, L, R, with nothing between them", .0.escape_debug())]
    BadMove(char),
    /// A goal given as text that is neither a known name nor numbers (it contains letters).
    /// Holds the text, cut to 30 characters.
    #[error("unknown goal '{0}' (use standard, blank-first, or the goal's numbers)")]
    BadGoal(String),
    /// A `size:` line in an instance file that is neither `auto` nor a valid shape. Holds
    /// the text, cut to 30 characters.
    #[error("bad size '{0}' (use RxC such as 3x4, N for NxN, or auto; rows and columns at least 2, at most 36 cells)")]
    BadSize(String),
    /// A line of an instance file that starts like a directive (`word:`) but is neither
    /// `goal:` nor `size:`. It may have been meant to change the goal or the shape, so the
    /// boards after it are not solved until both are said again (see
    /// [`BoardError::Governed`]). Holds the word, cut to 20 characters.
    #[error("unknown directive '{0}:' (an instance file has only `goal:` and `size:` lines)")]
    UnknownDirective(String),
    /// A `goal` or `size` line of an instance file without its colon (`goal blank-first`).
    /// Read as the directive it names, and refused: the boards it governs are not solved
    /// for another goal or shape. Holds the word as written.
    #[error("'{0}' needs a colon: write `{0}: ...`")]
    MissingColon(String),
    /// A board after a `goal:` or `size:` line (or an unknown directive) that could not be
    /// read. Solving it for the goal or shape in force before that line would answer
    /// another question than the one asked, so the board is refused until a valid line of
    /// the same kind follows.
    #[error("the {what} on line {line} is invalid ({error})")]
    Governed {
        /// `goal`, `size`, or `directive` (an unknown one).
        what: &'static str,
        /// The 1-based line number of the bad line.
        line: usize,
        /// What is wrong with that line.
        error: Box<BoardError>,
    },
    /// Lines of a board given as rows, cut short by the end of the input or by a line of
    /// another length. Not read as a smaller board: rows are only ever joined into the
    /// board whose shape they announce.
    #[error("only {lines} of the {rows} lines of a {rows}x{cols} board given as rows (a board on one line needs all its numbers; boards of other shapes need --size RxC, or a `size: RxC` line in a file)")]
    UnfinishedGrid {
        /// How many lines of the board were given.
        lines: usize,
        /// How many lines (rows) the board needs.
        rows: usize,
        /// The numbers on each line (columns).
        cols: usize,
    },
    /// An input line whose bytes are not UTF-8 (the lines after it are still read).
    #[error("not valid UTF-8")]
    NotUtf8,
    /// An input line longer than the limit, in bytes, before any `#` comment; the rest of
    /// it was skipped unread, so that input without line breaks cannot exhaust memory.
    #[error("line longer than {0} bytes (the rest of it was skipped)")]
    LineTooLong(usize),
    /// A control character (NUL, escape ...) or an invisible format character (a
    /// byte-order mark inside a line) where numbers were expected. Holds its code point.
    #[error("contains the invisible character U+{0:04X}")]
    InvisibleChar(u32),
    /// An input line of UTF-16 text (a byte of 0 beside each character), as some Windows
    /// editors save: its numbers would read as invisible characters.
    #[error("UTF-16 text, not UTF-8 (a byte of 0 beside each character): convert the file first, e.g. `iconv -f UTF-16 -t UTF-8 FILE > NEW`")]
    Utf16,
    /// An input line of binary data (bytes of 0 among control characters, as a program, an
    /// image or a compressed file holds): not text at all, so no conversion is offered.
    #[error(
        "binary data, not text (bytes of 0 among control characters): give a text file of boards (a compressed file? decompress it first)"
    )]
    Binary,
    /// An input line holding a carriage return before its end: a file whose lines end in
    /// CR alone (as old Macs wrote them) is one line, its boards run together.
    #[error("carriage returns inside the line (lines that end in CR alone are one line here): convert the file first, e.g. `tr '\\r' '\\n' < FILE > NEW`")]
    LoneCarriageReturn,
    /// An instance line that is a JSON object, as results files hold: the output given
    /// where boards are read.
    #[error("a JSON line, as results files hold, not a board: `fifteen check FILE` checks results; `solve -i` and `bench` read boards")]
    JsonLine,
}

/// What [`BoardError::OutOfRange`] adds when the number is the count of cells and the
/// board has no 0.
fn blank_hint(value: &str, max: usize, blank_missing: bool) -> String {
    if blank_missing && value.parse() == Ok(max as u64 + 1) {
        // Numbers 1 to n may also be a square board of n + 1 cells with its 0 left out
        // (a goal's count is not held to a square: it serves oblong boards too).
        let cells = max + 2;
        let side = (1..=6).find(|k| k * k == cells);
        match side {
            Some(k) => {
                format!("; the blank is 0, not {value} (or, for a {k}x{k} board, the 0 is missing)")
            }
            None => format!("; the blank is 0, not {value}"),
        }
    } else {
        String::new()
    }
}

/// What [`BoardError::Unsolvable`] adds when the other built-in goal is reachable: the
/// option that asks for it. The Python package words it for Python.
fn other_goal_hint(other: Option<&str>) -> String {
    match other {
        Some(goal) => {
            let tiles = if goal == "blank-first" {
                "0 1 2 ..., Korf's"
            } else {
                "1 2 3 ... 0"
            };
            format!(
                "; it can reach the {goal} goal ({tiles}): give --goal {goal}, or a `goal: \
                 {goal}` line in a file"
            )
        }
        None => String::new(),
    }
}

/// A pattern-database file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A table file could not be opened, read, mapped or written.
    ///
    /// The I/O error is part of the message, not a `source()`: reported through `anyhow`
    /// with `{:#}`, a source would print it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file (or, when saving, the table's final name) concerned.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The file is damaged, not anything a build writes: the wrong length, a bad header (or
    /// one of another byte order), or a checksum that does not match its contents.
    #[error("{path}: corrupt table: {reason}; rebuild it with `{rebuild}`")]
    Corrupt {
        /// The table file.
        path: PathBuf,
        /// What is wrong, for people.
        reason: String,
        /// The `build-pdb` command line that writes a good table in its place.
        rebuild: String,
    },
    /// A sound file, but for another format version or encoding, board shape, blank cell or
    /// pattern than the one asked for.
    #[error("{path}: table does not match: {reason}; rebuild it with `{rebuild}`")]
    Mismatch {
        /// The table file.
        path: PathBuf,
        /// What differs, for people.
        reason: String,
        /// The `build-pdb` command line that writes the table wanted.
        rebuild: String,
    },
    /// A file in a table's place that does not start as any table does: someone's file,
    /// not a damaged table, so no rebuild is offered over it.
    #[error(
        "{path}: not a table (it does not start as every table fifteen writes does), so it \
         is someone else's file: move it out of the tables directory, then run again to \
         build the table in its place"
    )]
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// Something in a table's place that is not a file (a directory, a named pipe, a
    /// device or a link to one): nothing a build wrote, and not to be rebuilt over.
    #[error(
        "{path}: not a table file but {kind}: move it out of the tables directory (or \
         remove it), then run again to build the table in its place"
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, in words ("a directory", "a named pipe (FIFO)").
        kind: &'static str,
    },
    /// A `.pdb` file in a tables directory that is no table this program can read and
    /// whose name is no table's: nothing can rebuild it, so it is to be moved away.
    #[error(
        "{path}: {reason}; its name is no table's, so no build writes it: move it out of \
         the tables directory"
    )]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What is wrong with it, for people.
        reason: String,
    },
    /// A request no table can serve, before any file is touched: a partition that does not
    /// split the tiles, a pattern too large to build, or too many patterns. Holds the whole
    /// message.
    #[error("{0}")]
    Unsupported(String),
    /// A mapped table file was written to while in use (its length or modification time
    /// changed): the values a search read from it since are not those checked, so no
    /// answer found with it since is trusted (see [`crate::pdb::Table::unchanged`]).
    #[error(
        "{path}: the table was written to while this run used it, so answers found with it \
         since cannot be trusted and were not given; check it with `fifteen tables verify` \
         and run the command again"
    )]
    Changed {
        /// The table file.
        path: PathBuf,
    },
    /// The build was stopped by its caller (Ctrl-C) before the table was complete. Nothing
    /// of it was written: tables are saved whole or not at all.
    #[error("table build interrupted; nothing partial was written")]
    Interrupted,
}

/// For a count one short of a square board, the likeliest cause: a number left out, often
/// the blank by someone who drew it as a gap or an empty field.
fn one_short(n: usize) -> String {
    match (3..=6).find(|k| k * k == n + 1) {
        Some(k) => format!(
            "; {n} is one short of a {k}x{k} board: is a number missing (the blank is written 0)?"
        ),
        None => String::new(),
    }
}

/// For a token people write for the blank (`_`, `.`, `-`, `x`, `*`): how it is written here.
fn blank_sign(token: &str) -> &'static str {
    let blank_like = !token.is_empty()
        && token
            .chars()
            .all(|c| matches!(c, '_' | '.' | '-' | 'x' | 'X' | '*'));
    if blank_like {
        " (the blank is written 0)"
    } else {
        ""
    }
}

/// "1 number does", "3 numbers do": the start of [`BoardError::BadCount`]'s message.
fn numbers_do(n: usize) -> String {
    if n == 1 {
        "1 number does".into()
    } else {
        format!("{n} numbers do")
    }
}

/// The counts of numbers a board may have: the shape's, or every square board's.
fn cells_wanted(cells: Option<usize>) -> String {
    match cells {
        Some(n) => format!("{n}, as the shape set says"),
        None => "4, 9, 16, 25 or 36 for a square board; other shapes need --size RxC or a `size: RxC` line".into(),
    }
}

/// The shapes, rows by columns up to 6 each, that hold `cells` cells and are not square:
/// "2x3 or 3x2".
fn shapes_of(cells: usize) -> String {
    let shapes: Vec<String> = (2..=6)
        .filter(|&r| cells.is_multiple_of(r) && (2..=6).contains(&(cells / r)) && r * r != cells)
        .map(|r| format!("{r}x{}", cells / r))
        .collect();
    shapes.join(" or ")
}

/// The square board of two cells fewer than `cells`: "2x2" for 6.
fn square_below(cells: usize) -> String {
    let side = (2..=6).find(|s| s * s + 2 == cells).unwrap_or(0);
    format!("{side}x{side}")
}

/// "1 number", "3 numbers".
fn numbers(n: usize) -> String {
    if n == 1 {
        "1 number".into()
    } else {
        format!("{n} numbers")
    }
}
