//! IDA* over a bit-packed board, generic over the heuristic and the board's packing.
//!
//! Boards up to 16 cells pack into one `u64`, four bits a cell ([`Packed`]); larger ones
//! (5x5, 6x6) keep a byte a cell ([`Wide`]). Each cell holds the *label* of its tile (the
//! tile's goal cell, see [`crate::board::Labels`]). The goal is then the same arrangement
//! for every goal, and a move is two cell writes.
//!
//! The parts, each in its own file:
//! - `tiles`: the two packings behind the [`Tiles`] trait;
//! - `geometry`: [`Geometry`], the move and distance tables of a shape and goal blank;
//! - `heuristics`: the [`Heuristic`] trait, with [`Hamming`], [`Manhattan`] and
//!   [`LinearConflict`];
//! - `limits`, `weight`, `outcome`: what a search is asked ([`Limits`], [`Weight`]) and
//!   what it answers ([`Found`], [`Stopped`], one [`Iteration`] at a time);
//! - `seen`: [`Seen`], the boards a weighted search has met in one iteration;
//! - `combine`: [`Max`], two estimates as one, the second read lazily;
//! - `walking`: [`WalkingDistance`], row and column crossings counted on two small tables;
//! - `dfs`: one iteration's depth-first search below a threshold, the hot loop;
//! - `ida`: the one search, [`ida_star`], run as a [`Search`] says (weight, limits,
//!   progress hook, threads, books), serially threshold after threshold;
//! - `parallel`: the same split over a Rayon pool, each iteration's subtrees taken in
//!   order, with [`Books`] that a caller may save and resume from.
//!
//! One iteration shared by tasks on many machines is [`crate::cluster::split`].

mod automaton;
mod books;
mod combine;
pub(crate) mod dfs;
mod geometry;
mod heuristics;
mod ida;
mod limits;
mod outcome;
mod parallel;
mod seen;
mod tiles;
mod walking;
mod weight;

pub use automaton::{
    duplicates, move_strings_text, Duplicates, MoveAutomaton, DEAD, DEFAULT_MAX_LEN, START, STRINGS,
};
pub use books::{Books, DoneSubtree, PartSubtree};
pub use combine::{Max, TieBreak};
pub use geometry::{Geometry, NONE};
pub use heuristics::{Hamming, Heuristic, LcState, LinearConflict, Manhattan};
pub use ida::{ida_star, BooksMismatch, Checkpointing, SaveHook, Search, SearchError};
pub use limits::{Limits, StopReason};
pub use outcome::{Found, Iteration, IterationHook, Stopped};
pub use seen::Seen;
pub use tiles::{Packed, Tiles, Wide, PACKED_CELLS};
pub use walking::{WalkingDistance, WdState};
pub use weight::Weight;
