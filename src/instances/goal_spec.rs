//! The goal of an instance file or a command line, as given: a name that fits every board
//! size, or numbers that fit every shape with their count of cells.

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
    /// Each of `0..len` once; and the rows and columns it was drawn in, if drawn as rows
    /// (it then serves boards of that shape alone).
    Explicit(Vec<u8>, Option<(usize, usize)>),
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
                let tiles = crate::board::parse_tiles(t)?;
                Ok(GoalSpec::Explicit(tiles, crate::board::drawn_shape(t)))
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
            GoalSpec::Explicit(tiles, Some((rows, cols)))
                if (*rows, *cols) != (shape.rows as usize, shape.cols as usize)
                    && tiles.len() == shape.cells() =>
            {
                Err(BoardError::GoalDrawnShape {
                    rows: *rows,
                    cols: *cols,
                    shape,
                })
            }
            GoalSpec::Explicit(tiles, _) if tiles.len() == shape.cells() => {
                Ok(Goal::from_board(Board::new(shape, tiles)?))
            }
            GoalSpec::Explicit(tiles, _) => Err(BoardError::GoalSize {
                board: shape.cells(),
                goal: tiles.len(),
            }),
        }
    }
}
