//! The state of an interactive game (`fifteen play`): the board, the goal, and the moves
//! made so far, so they can be undone. The terminal front end lives in the binary; this
//! part holds no terminal code, so it is tested like the rest of the library.
//!
//! Players name the direction a **tile** slides (the usual game convention: "left" slides
//! the tile right of the blank into it); solutions and the history record the blank's
//! moves, as everywhere else (docs/formats.md), and the two are opposite.

use crate::board::{Board, Dir, Goal};
use crate::error::BoardError;

/// A board being played towards a goal.
#[derive(Clone, Debug)]
pub struct Game {
    goal: Goal,
    board: Board,
    /// The blank's moves since the start, in order.
    history: Vec<Dir>,
}

impl Game {
    /// A game from `board`, no moves made yet.
    ///
    /// # Errors
    /// A board of another shape than the goal, or one that cannot reach it.
    pub fn new(board: Board, goal: Goal) -> Result<Game, BoardError> {
        goal.labels(&board)?;
        Ok(Game {
            goal,
            board,
            history: Vec::new(),
        })
    }

    /// The board as it stands after the moves made.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The arrangement the player is working towards.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// Moves made (undone ones not counted).
    pub fn moves(&self) -> usize {
        self.history.len()
    }

    /// Whether the board is the goal now (moves made after that can unsolve it again).
    pub fn is_solved(&self) -> bool {
        self.board == *self.goal.board()
    }

    /// Slides the tile that can move in `tile_dir` into the blank; false if none can.
    pub fn slide(&mut self, tile_dir: Dir) -> bool {
        self.step(tile_dir.opposite())
    }

    /// Moves the blank (a solution's move); false if it would leave the board.
    pub fn step(&mut self, blank_dir: Dir) -> bool {
        match self.board.apply(blank_dir) {
            Some(b) => {
                self.board = b;
                self.history.push(blank_dir);
                true
            }
            None => false,
        }
    }

    /// Takes back the last move; the blank's move undone, if there was one.
    pub fn undo(&mut self) -> Option<Dir> {
        let last = self.history.pop()?;
        self.board = self
            .board
            .apply(last.opposite())
            .expect("the reverse of a legal move is legal");
        Some(last)
    }

    /// Starts over on another board with the same goal.
    ///
    /// # Errors
    /// As [`Game::new`]; the game is unchanged then.
    pub fn restart(&mut self, board: Board) -> Result<(), BoardError> {
        *self = Game::new(board, self.goal)?;
        Ok(())
    }
}

/// The tile a blank move slides, and the direction that tile goes (for telling a player
/// "slide 6 left"); `None` if the move leaves the board.
pub fn tile_move(board: &Board, blank_dir: Dir) -> Option<(u8, Dir)> {
    let next = board.apply(blank_dir)?;
    Some((board.tiles()[next.blank()], blank_dir.opposite()))
}

/// A direction's name as players say it.
pub fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Down => "down",
        Dir::Left => "left",
        Dir::Right => "right",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn slides_name_the_tile_direction_and_undo_restores() {
        let shape = Shape::new(3, 3).unwrap();
        let goal = Goal::standard(shape);
        let mut g = Game::new(*goal.board(), goal).unwrap();
        assert!(g.is_solved());
        // The blank is bottom-right: nothing can slide up or left into it.
        assert!(!g.slide(Dir::Up));
        assert!(!g.slide(Dir::Left));
        assert_eq!(g.moves(), 0);
        // Tile 8, left of the blank, slides right.
        assert_eq!(tile_move(g.board(), Dir::Left), Some((8, Dir::Right)));
        assert!(g.slide(Dir::Right));
        assert_eq!(g.board().tiles(), &[1, 2, 3, 4, 5, 6, 7, 0, 8]);
        assert!(g.slide(Dir::Down));
        assert_eq!(g.board().tiles(), &[1, 2, 3, 4, 0, 6, 7, 5, 8]);
        assert_eq!(g.moves(), 2);
        assert_eq!(g.undo(), Some(Dir::Up));
        assert_eq!(g.undo(), Some(Dir::Left));
        assert_eq!(g.undo(), None);
        assert!(g.is_solved());
        let bad = Board::new(shape, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(
            g.restart(bad).unwrap_err(),
            BoardError::Unsolvable { other: None }
        );
        assert!(g.is_solved());
    }
}
