//! Building one pattern's table in memory: the checks of the pattern, then a backward BFS
//! (in `bfs`) over placements grouped by the cells they cover (in `layout`), with the blank's
//! regions from cell bitmasks (in `grid`), compiled for AVX2 and BMI2 when the CPU has them.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use crate::error::TableError;

use super::partition::{check_tiles, too_many_placements, BadTiles, PatternSpec};
use bfs::bfs;
use grid::Grid;
use layout::Layout;

mod bfs;
mod grid;
mod layout;
#[cfg(test)]
mod reference;

/// The most cells a table's board may have: the BFS numbers a block's blank regions in a
/// 32-bit word at most, one region per free cell at worst.
pub const MAX_TABLE_CELLS: usize = 32;

/// Progress of a build, reported through a callback (the library never draws).
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A pattern's search starts: how many placements it has.
    Start {
        /// Always 0 from [`build`], which sees one pattern; [`super::TableDir::build_missing`]
        /// passes the pattern's index beside each event.
        pattern: usize,
        /// Placements of the pattern's tiles: the table's entries.
        placements: u64,
    },
    /// Part of a layer was built.
    Expanded {
        /// The depth (pattern moves) of the layer being reached.
        depth: u32,
        /// Blocks of placements (those covering one set of cells) done so far.
        done: u64,
        /// Blocks in all.
        total: u64,
    },
    /// How far the search as a whole is, in abstract states (a placement with one blank
    /// cell): those expanded so far, out of all the table's (`placements` times the free
    /// cells; a few may never be reached). Each state is expanded once and the work of a
    /// layer grows with its states, so this grows about evenly in time: it is what a
    /// time-left estimate should read. Sent with each [`BuildEvent::Expanded`], the current
    /// layer's states counted in proportion to its blocks done.
    Work {
        /// States expanded so far (the current layer's counted by its chunks done).
        done: u64,
        /// All the table's states.
        total: u64,
    },
    /// A layer is complete: `placements` were first reached at `depth`.
    Layer {
        /// Pattern moves from the goal.
        depth: u32,
        /// Placements first reached at this depth.
        placements: u64,
    },
    /// The table is written.
    Saved {
        /// The file written.
        path: PathBuf,
    },
}

/// One pattern's table in memory, and the BFS facts about it.
#[derive(Clone, Debug)]
pub struct Built {
    /// The entries, two per byte, as the file's payload holds them.
    pub payload: Vec<u8>,
    /// Placements first reached at each depth (pattern moves).
    pub layers: Vec<u64>,
    /// Entries that did not fit four bits and were lowered to 15 (still admissible).
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
/// A pattern that is empty, repeats a label, holds the blank, or is too large; a blank cell
/// off the board.
pub fn build(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Built, TableError> {
    build_or_stop(spec, progress, &AtomicBool::new(false))
}

/// [`build`] that gives up when `stop` is set: the flag is read between blocks of the
/// search (at most 362,880 placements each), so a build stops within milliseconds of it,
/// however large the table. This is how a command line's Ctrl-C reaches a build without the library
/// knowing of signals.
///
/// # Errors
/// As [`build`]; [`TableError::Interrupted`] when `stop` was set before the table was done.
pub fn build_or_stop(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
    stop: &AtomicBool,
) -> Result<Built, TableError> {
    build_with(spec, progress, stop, true)
}

/// [`build`] computing each order of the tiles and each rearrangement when needed, the path
/// of patterns of 10 tiles or more, whatever the pattern: the reference tests run it on the
/// small ones too.
#[cfg(test)]
pub(super) fn build_untabled(spec: &PatternSpec) -> Result<Built, TableError> {
    build_with(spec, &|_| {}, &AtomicBool::new(false), false)
}

fn build_with(
    spec: &PatternSpec,
    progress: &(dyn Fn(BuildEvent) + Sync),
    stop: &AtomicBool,
    tabled: bool,
) -> Result<Built, TableError> {
    let n = spec.shape.cells();
    let k = spec.tiles.len();
    let too_large = || {
        TableError::Unsupported(format!(
            "pattern of {k} tiles on {n} cells is too large to build"
        ))
    };
    match check_tiles(spec.shape, spec.blank, &spec.tiles) {
        Err(BadTiles::Blank) => {
            return Err(TableError::Unsupported(format!(
                "blank cell {} is not on a {} board",
                spec.blank, spec.shape
            )));
        }
        Err(BadTiles::Count) if k == 0 => return Err(too_large()),
        // As many tiles as cells or more: some tile is off the board, the blank or repeated.
        Err(BadTiles::Count | BadTiles::Tiles) => {
            return Err(TableError::Unsupported(format!(
                "bad pattern {:?}",
                spec.tiles
            )));
        }
        Ok(()) => {}
    }
    if n > MAX_TABLE_CELLS {
        return Err(TableError::Unsupported(format!(
            "pattern databases go up to {MAX_TABLE_CELLS} cells; a {} board has {n}",
            spec.shape
        )));
    }
    if too_many_placements(n, k) {
        return Err(too_large());
    }
    let layout = Layout::new(&Grid::new(spec.shape), k, tabled);
    let fast = has_fast();
    match (layout.most_regions, fast) {
        (0..=8, true) => bfs::<u8, true>(spec, &layout, progress, stop),
        (0..=8, false) => bfs::<u8, false>(spec, &layout, progress, stop),
        (9..=16, true) => bfs::<u16, true>(spec, &layout, progress, stop),
        (9..=16, false) => bfs::<u16, false>(spec, &layout, progress, stop),
        (_, true) => bfs::<u32, true>(spec, &layout, progress, stop),
        (_, false) => bfs::<u32, false>(spec, &layout, progress, stop),
    }
    .ok_or(TableError::Interrupted)
}

/// The most regions of free cells any placement of `k` tiles cuts a `shape` board into: the
/// BFS keeps a byte per placement for each of its two masks of blank regions up to 8, two
/// bytes up to 16, four beyond, so this is what a build's memory follows. Counted over every
/// set of `k` cells (480,700 for 7 tiles on 5x5: milliseconds); 0 for a board of more than
/// [`MAX_TABLE_CELLS`] cells or `k` not below its cells.
pub fn most_regions(shape: crate::board::Shape, k: usize) -> usize {
    let n = shape.cells();
    if n > MAX_TABLE_CELLS || k >= n {
        return 0;
    }
    let grid = Grid::new(shape);
    grid.sets(k)
        .map(|m| grid.regions(grid.all & !m).count())
        .max()
        .unwrap_or(0)
}

/// Whether the BFS may use its AVX2 + BMI2 + POPCNT code (wide scans, one-instruction
/// counts).
fn has_fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn most_regions_is_the_layouts() {
        let cases = [
            (3, 3, 4),
            (4, 4, 7),
            (4, 4, 8),
            (3, 4, 6),
            (2, 5, 4),
            (5, 5, 3),
        ];
        for (rows, cols, k) in cases {
            let shape = Shape::new(rows, cols).unwrap();
            let layout = Layout::new(&Grid::new(shape), k, true);
            assert_eq!(most_regions(shape, k), layout.most_regions, "{shape} {k}");
        }
        // Tiles 1, 3, 5, 7, 9, 11, 13 and 17 leave cells 0, 2, 4, 6, 8 and 12 alone.
        assert!(most_regions(Shape::new(5, 5).unwrap(), 8) >= 7);
        assert_eq!(most_regions(Shape::new(5, 5).unwrap(), 25), 0);
    }

    #[test]
    fn patterns_it_cannot_build_are_refused_with_the_reason() {
        let refusal = |rows, blank, tiles: &[u8]| {
            let spec = PatternSpec {
                shape: Shape::new(rows, rows).unwrap(),
                blank,
                tiles: tiles.to_vec(),
            };
            build(&spec, &|_| {}).unwrap_err().to_string()
        };
        assert_eq!(refusal(3, 0, &[1, 1]), "bad pattern [1, 1]");
        assert_eq!(refusal(3, 0, &[0, 1]), "bad pattern [0, 1]");
        assert_eq!(refusal(3, 0, &[1, 9]), "bad pattern [1, 9]");
        let ten = [1, 2, 3, 4, 5, 6, 7, 8, 8, 1];
        assert_eq!(refusal(3, 0, &ten), format!("bad pattern {ten:?}"));
        assert_eq!(
            refusal(3, 0, &[]),
            "pattern of 0 tiles on 9 cells is too large to build"
        );
        assert_eq!(refusal(3, 9, &[1]), "blank cell 9 is not on a 3x3 board");
        assert_eq!(
            refusal(6, 0, &[1]),
            "pattern databases go up to 32 cells; a 6x6 board has 36"
        );
        let big: Vec<u8> = (1..15).collect();
        assert_eq!(
            refusal(4, 0, &big),
            "pattern of 14 tiles on 16 cells is too large to build"
        );
    }
}
