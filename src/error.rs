//! Typed errors of the library. Binaries wrap them with `anyhow`.

use std::path::PathBuf;

/// Something wrong with a board, a goal or a move list. Each message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("no numbers given")]
    Empty,
    #[error("{0} numbers do not make a board (give 9, 16, 25 or 36 numbers for a square board; other shapes need --size RxC, or a `size: RxC` line in a file)")]
    BadCount(usize),
    #[error("{count} numbers given, {expected} expected")]
    WrongCount { count: usize, expected: usize },
    #[error("the number {0} appears more than once")]
    Repeated(u8),
    #[error("the number {value} is out of range (0 to {max})")]
    OutOfRange { value: u64, max: usize },
    #[error("'{0}' is not a number")]
    NotANumber(String),
    #[error("unsolvable: this board cannot reach the goal (the tile parity is wrong)")]
    Unsolvable,
    #[error("the goal has {goal} cells but the board has {board}")]
    GoalSize { board: usize, goal: usize },
    #[error("'{0}' is not a move (use U, D, L, R)")]
    BadMove(char),
    #[error("unknown goal '{0}' (use standard, blank-first, or the goal's numbers)")]
    BadGoal(String),
    #[error("bad size '{0}' (use RxC such as 3x4, N for NxN, or auto)")]
    BadSize(String),
}

/// A pattern-database file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The I/O error is part of the message, not a `source()`: reported through `anyhow`
    /// with `{:#}`, a source would print it twice.
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: corrupt table: {reason}; rebuild it with `{rebuild}`")]
    Corrupt {
        path: PathBuf,
        reason: String,
        rebuild: String,
    },
    #[error("{path}: table does not match: {reason}; rebuild it with `{rebuild}`")]
    Mismatch {
        path: PathBuf,
        reason: String,
        rebuild: String,
    },
    #[error("{0}")]
    Unsupported(String),
}
