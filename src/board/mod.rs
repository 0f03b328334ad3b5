//! Boards, goals, moves and symmetries.
//!
//! A [`Board`] is what the user typed: the tile in each cell, row-major, `0` for the blank.
//! The search never sees tile numbers. It works on *labels*: every tile (and the blank) is
//! renamed to the cell it occupies in the goal, so the goal is always the identity
//! arrangement and Manhattan distance is the distance between a label and its cell. One
//! table set therefore serves every goal whose blank sits in the same cell.

mod goal;
mod grid;
mod moves;
mod shape;
mod symmetry;

pub use goal::{Goal, Labels};
pub(crate) use grid::drawn_shape;
pub(crate) use grid::quoted;
#[cfg(feature = "cli")]
pub(crate) use grid::rows;
pub use grid::{parse_tiles, Board};
pub use moves::{moves_to_string, parse_moves, Dir};
pub use shape::{Shape, MAX_CELLS};
pub use symmetry::Symmetry;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_maps_moves_consistently() {
        let shape = Shape::new(4, 4).unwrap();
        for s in Symmetry::all(shape) {
            for c in 0..16 {
                for d in Dir::ALL {
                    let moved = shape.step(c, d).map(|n| s.cell(shape, n));
                    assert_eq!(moved, shape.step(s.cell(shape, c), s.dir(d)));
                }
            }
            let inv = s.inverse(shape);
            for c in 0..16 {
                assert_eq!(inv.cell(shape, s.cell(shape, c)), c);
            }
        }
    }

    #[test]
    fn goal_is_identity_in_labels() {
        let shape = Shape::new(3, 3).unwrap();
        for g in [Goal::standard(shape), Goal::blank_first(shape)] {
            let l = g.labels(g.board()).unwrap();
            assert!(l.is_goal());
        }
    }
}
