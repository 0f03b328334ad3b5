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

/// Renders a move sequence as the `UDLR` string of docs/formats.md ("Boards, goals, moves").
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
