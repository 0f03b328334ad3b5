//! Additive disjoint pattern databases: built by backward breadth-first search, stored as
//! checksummed files, mapped back in and used as an IDA* heuristic.
//!
//! Tables work in goal-cell labels (see [`crate::board::Labels`]): a pattern is a set of
//! labels, and a table depends only on the board shape, the goal's blank cell and the
//! pattern. Any goal with its blank in that cell (or in a mirror image of it) uses the same
//! files.
//!
//! Each entry is the least number of moves of the pattern's own tiles that bring them home
//! (other tiles are indistinct, the blank is tracked), stored as its excess over the
//! pattern's Manhattan distance, halved (the excess is always even), in four bits. Halving
//! the bytes halves the cache misses of the search.
//!
//! The parts, in the order a table lives through them:
//! - `partition`: what a table is for ([`PatternSpec`]) and how the tiles are split into
//!   patterns ([`Partition`]), with the one check of a pattern's tiles;
//! - `build`: the backward BFS that computes one pattern's entries in memory;
//! - `format`: the file header, its checksum, and the checks of a header read back;
//! - `table`: writing a table file, and opening one (mapped or read) after those checks;
//! - `verified`: the record beside a table that lets a run skip the checksum pass while
//!   the file is provably unchanged since its last full pass;
//! - `heuristic`: the opened tables combined into the search's heuristic;
//! - `dual`: the same tables read for the board's dual;
//! - `dir`: a directory of tables, opened if present, built if not;
//! - `command`: the `build-pdb` command lines that errors and notes tell the user to run;
//! - `notice`: when tables are built on first use, and the words said before;
//! - `sigbus`: a mapped table cut short under a running search, named instead of a bare
//!   "Bus error".

mod build;
mod command;
mod dir;
mod dual;
mod format;
mod heuristic;
pub mod notice;
mod partition;
#[cfg(target_os = "linux")]
pub mod sigbus;
mod table;
pub mod verified;

pub use build::{build, build_or_stop, most_regions, BuildEvent, Built, MAX_TABLE_CELLS};
pub use command::{build_pdb_command, rebuild_command};
pub use dir::{default_dir, expand_home, BuildLock, Opened, TableDir};
pub use dual::{Dual, DualState, DualTables};
pub use format::{Header, ENCODING_NIBBLE_EXCESS, PAYLOAD_OFFSET, TABLE_FORMAT_VERSION};
pub use heuristic::{Patterns, PdbHeuristic, PdbState, MAX_PATTERNS};
pub use partition::{canonical_blank, Partition, PatternSpec, SECOND_4X4};
#[cfg(target_os = "linux")]
pub use sigbus::report_sigbus_on_tables;
pub(crate) use table::open_nonblocking;
pub use table::{inspect, inspect_header, save, temporary_path, Storage, Table};
pub use verified::{record_path, RecordOutcome, Verified, RECORD_MARGIN};
