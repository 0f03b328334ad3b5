//! Goals, and the board in goal-cell labels that the search works on.

use super::{Board, Shape, MAX_CELLS};
use crate::error::BoardError;

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
        let labels = self.relabel(board);
        if !self.reachable(&labels) {
            return Err(BoardError::Unsolvable {
                other: self.other_reachable(board),
            });
        }
        Ok(labels)
    }

    /// `board` (of this goal's shape) in this goal's labels.
    fn relabel(&self, board: &Board) -> Labels {
        let mut home = [0u8; MAX_CELLS];
        for (cell, &t) in self.board.tiles().iter().enumerate() {
            home[t as usize] = cell as u8;
        }
        let mut cells = [0u8; MAX_CELLS];
        for (cell, &t) in board.tiles().iter().enumerate() {
            cells[cell] = home[t as usize];
        }
        Labels {
            shape: self.shape(),
            blank_label: self.blank() as u8,
            cells,
        }
    }

    /// Whether the board these labels come from can reach this goal.
    fn reachable(&self, labels: &Labels) -> bool {
        // Each move swaps two cells and moves the blank one step, so the permutation's
        // parity must equal the parity of the blank's distance to its goal cell.
        let shape = self.shape();
        let odd = Board::permutation_parity(&labels.cells[..shape.cells()]);
        let dist = shape.distance(labels.blank_cell(), self.blank());
        odd == (dist % 2 == 1)
    }

    /// For a board that cannot reach this goal: when this goal is `standard` or
    /// `blank-first` and the board can reach the other, that one's name. Asking for the
    /// wrong one of the two is the likeliest reason a board is unsolvable (Korf's boards
    /// are for `blank-first`), so the error names the other.
    fn other_reachable(&self, board: &Board) -> Option<&'static str> {
        let shape = self.shape();
        let (other, name) = if *self == Goal::standard(shape) {
            (Goal::blank_first(shape), "blank-first")
        } else if *self == Goal::blank_first(shape) {
            (Goal::standard(shape), "standard")
        } else {
            return None;
        };
        other.reachable(&other.relabel(board)).then_some(name)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Korf's first instance, for the blank-first goal.
    const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

    #[test]
    fn an_unsolvable_board_says_when_the_other_built_in_goal_is_reachable() {
        let korf = Board::parse(KORF_1).unwrap();
        let s4 = korf.shape();
        assert!(Goal::blank_first(s4).labels(&korf).is_ok());
        let e = Goal::standard(s4).labels(&korf).unwrap_err();
        assert_eq!(
            e,
            BoardError::Unsolvable {
                other: Some("blank-first")
            }
        );
        assert!(
            e.to_string()
                .ends_with("give --goal blank-first, or a `goal: blank-first` line in a file"),
            "{e}"
        );
        // The other way round: the standard goal itself asked with blank-first.
        let standard = *Goal::standard(s4).board();
        assert_eq!(
            Goal::blank_first(s4).labels(&standard).unwrap_err(),
            BoardError::Unsolvable {
                other: Some("standard")
            }
        );
        // On 3x3 boards both goals have the same parity: nothing to suggest.
        let swapped = Board::parse("2 1 3 4 5 6 7 8 0").unwrap();
        for goal in [
            Goal::standard(swapped.shape()),
            Goal::blank_first(swapped.shape()),
        ] {
            let e = goal.labels(&swapped).unwrap_err();
            assert_eq!(e, BoardError::Unsolvable { other: None });
            assert_eq!(
                e.to_string(),
                "unsolvable: this board cannot reach the goal (the tile parity is wrong, as with two tiles swapped)"
            );
        }
        // A goal of its own numbers gets no suggestion either.
        let own = Goal::from_board(Board::parse("15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0").unwrap());
        let other_class = if own.labels(&korf).is_err() {
            korf
        } else {
            standard
        };
        assert_eq!(
            own.labels(&other_class).unwrap_err(),
            BoardError::Unsolvable { other: None }
        );
    }
}
