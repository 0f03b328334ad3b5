//! `fifteen`: provably optimal solutions to sliding-tile puzzles.
//!
//! The pieces, each in its own module:
//! - [`board`]: boards, goals, moves, symmetries, and the goal-cell labelling the search
//!   works in;
//! - [`instances`]: instance files and their `goal:` lines;
//! - [`search`]: IDA* over a bit-packed board, generic over the heuristic, with Manhattan
//!   distance and linear conflict;
//! - [`rank`] and [`pdb`]: additive pattern databases (built by backward BFS, saved with a
//!   checksummed header, memory-mapped back);
//! - [`classic`]: the searches a course compares (breadth-first, depth-first, greedy
//!   best-first, A*, textbook IDA*) with exact counts, and the course's problem files;
//! - [`solver`]: from a board and a goal to a checked solution;
//! - [`batch`]: many instances on a thread pool, results in input order;
//! - [`cluster`]: everything past one machine or one run: shards, results files and
//!   their resumption, merge, the split search over machines, checkpoints;
//! - [`check`]: replaying solutions (ours or any solver's) against their boards;
//! - [`game`]: the state of an interactive game (`fifteen play`), without the terminal;
//! - [`random`]: reproducible random boards;
//! - [`record`]: the JSON result record that `solve` writes and `check` reads;
//! - `cli` (feature `cli`, on by default): the command lines of `fifteen` and `build-pdb`,
//!   the only part that touches the terminal.

pub mod batch;
pub mod board;
pub mod check;
pub mod classic;
/// The command lines of `fifteen` and `build-pdb`: public only so that both binaries reach
/// it; not part of the library's API (hidden from its docs, free to change).
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub mod cluster;
pub mod error;
pub mod game;
pub mod instances;
pub mod pdb;
pub mod random;
pub mod rank;
pub mod record;
pub mod search;
pub mod solver;

pub use board::{Board, Dir, Goal, Labels, Shape, Symmetry};
pub use error::{BoardError, TableError};
pub use instances::{GoalSpec, Instance};
pub use solver::{Extras, HeuristicKind, Solution, SolveError, Solver};
