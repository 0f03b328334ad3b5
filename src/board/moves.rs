//! Moves of the blank and move strings (`U D L R`).

use crate::error::BoardError;

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

    /// The direction of a move letter, `U`, `D`, `L` or `R` (capitals, as every solution
    /// is written: docs/formats.md); `None` for any other character, lower case included.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }
}

/// Renders a move sequence as the `UDLR` string of docs/formats.md ("Boards, goals, moves").
pub fn moves_to_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Parses a solution: a string of `U`, `D`, `L`, `R` and nothing else (docs/formats.md,
/// "Boards, goals, moves"). Lower case, spaces and commas are refused, not read as moves:
/// a string written otherwise is not a solution of ours, and `rr` or `R,R` read leniently
/// would pass `fifteen check` as if it were. The empty string is the empty solution.
///
/// # Errors
/// [`BoardError::BadMove`] with the first character that is not a move.
///
/// # Examples
/// ```
/// use fifteen::board::{parse_moves, Dir};
/// use fifteen::error::BoardError;
///
/// assert_eq!(parse_moves("RD"), Ok(vec![Dir::Right, Dir::Down]));
/// assert_eq!(parse_moves("rd"), Err(BoardError::BadMove('r')));
/// assert_eq!(parse_moves("R D"), Err(BoardError::BadMove(' ')));
/// assert_eq!(parse_moves("R,D"), Err(BoardError::BadMove(',')));
/// ```
pub fn parse_moves(text: &str) -> Result<Vec<Dir>, BoardError> {
    text.chars()
        .map(|c| Dir::from_letter(c).ok_or(BoardError::BadMove(c)))
        .collect()
}
