//! Typed errors of the library. Binaries wrap them with `anyhow`.

use std::path::PathBuf;

/// Something wrong with a board, a goal or a move list. Each message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text held no numbers at all (empty, or only separators).
    #[error("no numbers given")]
    Empty,
    /// A board of unknown shape whose count is not a square of 2..=6 (and that was not given
    /// as equal rows), or an explicit goal of fewer than 4 or more than 36 numbers. Holds the
    /// count.
    #[error("{0} numbers do not make a board (give 9, 16, 25 or 36 numbers for a square board; other shapes need --size RxC, or a `size: RxC` line in a file)")]
    BadCount(usize),
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
    /// A number is not below the count of cells, so it names no tile.
    #[error("the number {value} is out of range (0 to {max})")]
    OutOfRange {
        /// The number as given (a `u64`, so that huge numbers are reported as typed).
        value: u64,
        /// The largest tile of this board, `cells - 1`.
        max: usize,
    },
    /// A token that is not a non-negative integer (below 2^64): in a board, or the `LEN` of
    /// an instance line. Holds the token, cut to 20 characters.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// The board has the wrong permutation parity for its goal: no sequence of moves
    /// reaches it. Found before any search, by [`Goal::labels`](crate::board::Goal::labels).
    #[error("unsolvable: this board cannot reach the goal (the tile parity is wrong)")]
    Unsolvable,
    /// A board and goal of different shapes: a goal only serves boards of its own shape.
    #[error("the goal has {goal} cells but the board has {board}")]
    GoalSize {
        /// The board's number of cells.
        board: usize,
        /// The goal's number of cells.
        goal: usize,
    },
    /// A character in a move string that is none of `U`, `D`, `L`, `R` (either case).
    #[error("'{0}' is not a move (use U, D, L, R)")]
    BadMove(char),
    /// A goal given as text that is neither a known name nor numbers (it contains letters).
    /// Holds the text, cut to 30 characters.
    #[error("unknown goal '{0}' (use standard, blank-first, or the goal's numbers)")]
    BadGoal(String),
    /// A `size:` line in an instance file that is neither `auto` nor a valid shape. Holds
    /// the text, cut to 30 characters.
    #[error("bad size '{0}' (use RxC such as 3x4, N for NxN, or auto)")]
    BadSize(String),
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
    /// A request no table can serve, before any file is touched: a partition that does not
    /// split the tiles, a pattern too large to build, or too many patterns. Holds the whole
    /// message.
    #[error("{0}")]
    Unsupported(String),
    /// The build was stopped by its caller (Ctrl-C) before the table was complete. Nothing
    /// of it was written: tables are saved whole or not at all.
    #[error("table build interrupted; nothing partial was written")]
    Interrupted,
}
