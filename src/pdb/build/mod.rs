//! Building one pattern's table in memory: the checks of the pattern, then a backward BFS
//! (in `bfs`) over cell bitmasks (in `grid`), compiled for BMI2 when the CPU has it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64};

use crate::error::TableError;
use crate::rank::Ranker;

use super::partition::PatternSpec;
use bfs::bfs;

mod bfs;
mod grid;

/// The most cells a table's board may have: the BFS keeps a board's free cells as a bit
/// mask in half of a 64-bit word.
pub const MAX_TABLE_CELLS: usize = 32;

/// Progress of a build, reported through a callback (the library never draws).
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A pattern's search starts: how many placements it has.
    Start { pattern: usize, placements: u64 },
    /// Part of a layer was expanded.
    Expanded { depth: u32, done: u64, total: u64 },
    /// A layer is complete: `placements` were first reached at `depth`.
    Layer { depth: u32, placements: u64 },
    /// The table is written.
    Saved { path: PathBuf },
}

/// One pattern's table in memory, and the BFS facts about it.
#[derive(Clone, Debug)]
pub struct Built {
    pub payload: Vec<u8>,
    /// Placements first reached at each depth (pattern moves).
    pub layers: Vec<u64>,
    pub clamped: u64,
}

/// Builds one pattern's table in memory.
///
/// The search runs backwards from the goal over abstract states (where the pattern's tiles
/// are, which cells the blank can reach). Moving the blank among the free cells costs 0,
/// moving a pattern tile costs 1, so each layer is closed under blank moves: a layer's
/// states are, per placement, a mask of reachable blank cells. Two arrays of such masks
/// (seen and next side by side, and the current layer) are all the memory it needs:
/// 3 bytes a placement for an 8-tile 4x4 pattern.
///
/// # Errors
/// A pattern that is empty, repeats a label, holds the blank, or is too large.
pub fn build(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Built, TableError> {
    let n = spec.shape.cells();
    let k = spec.tiles.len();
    let mut seen = vec![false; n];
    for &t in &spec.tiles {
        if t as usize >= n || t == spec.blank || seen[t as usize] {
            return Err(TableError::Unsupported(format!(
                "bad pattern {:?}",
                spec.tiles
            )));
        }
        seen[t as usize] = true;
    }
    if k == 0 || n > MAX_TABLE_CELLS || Ranker::checked_count(n, k).is_none_or(|c| c > 1u64 << 32) {
        return Err(TableError::Unsupported(format!(
            "pattern of {k} tiles on {n} cells is too large to build"
        )));
    }
    let free = n - k;
    let bmi2 = has_bmi2();
    Ok(match (free <= 8, free <= 16, bmi2) {
        (true, _, true) => bfs::<AtomicU16, true>(spec, progress),
        (true, _, false) => bfs::<AtomicU16, false>(spec, progress),
        (false, true, true) => bfs::<AtomicU32, true>(spec, progress),
        (false, true, false) => bfs::<AtomicU32, false>(spec, progress),
        (false, false, true) => bfs::<AtomicU64, true>(spec, progress),
        (false, false, false) => bfs::<AtomicU64, false>(spec, progress),
    })
}

/// Whether the BFS may use its BMI2 + POPCNT code (pext/pdep masks, one-instruction counts).
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
