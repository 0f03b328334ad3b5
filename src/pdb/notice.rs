//! What building tables on first use will take, and the words that say so before a minute
//! of work starts: shared by the command line (`fifteen solve`, `build-pdb`) and the Python
//! package, so that both say the same thing and build under the same rules. Only text is
//! made here; the callers print it.

use std::path::Path;

use crate::rank::Ranker;

use super::format::PAYLOAD_OFFSET;
use super::partition::{Partition, PatternSpec};

/// Placements the BFS expands per second on one core, measured on 4x4 tables with the
/// block-ordered builder (the 7-8 set and the second partition's: 1.15 billion placements
/// in 66 s of CPU on an idle two-core machine; a 5x5 6-tile table about as fast); see
/// docs/records/2026-11-26-block-builder.md. Only for the estimate.
pub const PLACEMENTS_PER_CORE_SEC: f64 = 17e6;

/// Tables are built on first use, unasked, for boards up to this many cells (4x4: about
/// 35 seconds, once)...
pub const AUTO_BUILD_CELLS: usize = 16;
/// ...and for larger boards while the tables to build have at most this many placements,
/// a build of about as many as the 4x4 ones: the 5x5 6-6-6-6 set (510 M placements, 20
/// seconds and 0.7 GB with its dual lookups' tables, 280 M more), so that a first 24-puzzle
/// is not searched with linear conflict, which takes hours where the tables take seconds.
/// Larger ones, such as a 5x5 partition with 7-tile patterns (2.4 G placements a table,
/// minutes and 10 GB), are built only when asked for with build-pdb.
pub const AUTO_BUILD_PLACEMENTS: u64 = 1 << 30;

/// Whether a solver may build these missing tables for `shape`'s boards without being
/// asked ([`AUTO_BUILD_CELLS`], [`AUTO_BUILD_PLACEMENTS`]).
pub fn builds_on_first_use(shape: crate::Shape, missing: &[PatternSpec]) -> bool {
    let n = shape.cells();
    let placements = missing
        .iter()
        .map(|s| Ranker::checked_count(n, s.tiles.len()).unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add);
    n <= AUTO_BUILD_CELLS || placements <= AUTO_BUILD_PLACEMENTS
}

/// Whether the whole partition's tables may be built on first use (as
/// [`builds_on_first_use`] for all of them).
pub fn partition_builds_on_first_use(partition: &Partition) -> bool {
    builds_on_first_use(partition.shape, &partition.specs())
}

/// What building some tables will take, estimated from their placements.
pub struct Estimate {
    /// Wall-clock seconds on this machine's worker threads.
    pub secs: f64,
    /// Peak memory: the largest table's search arrays, plus the tables built before it.
    pub memory: u64,
    /// The table files together.
    pub disk: u64,
}

/// Estimates building `specs` (one at a time, as [`super::TableDir::build_missing`] does)
/// on the current Rayon pool's threads.
pub fn estimate(specs: &[PatternSpec]) -> Estimate {
    let threads = rayon::current_num_threads().max(1) as f64;
    let (mut placements, mut memory, mut disk) = (0u64, 0u64, 0u64);
    for spec in specs {
        let n = spec.shape.cells();
        let k = spec.tiles.len();
        let count = Ranker::checked_count(n, k).unwrap_or(u64::MAX);
        let file = count.div_ceil(2).saturating_add(PAYLOAD_OFFSET);
        // Per placement: the seen regions, the current and the next layer's, a byte each,
        // and half a byte of entries (see `pdb::build`). A board whose patterns cut the free
        // cells into more than 8 regions needs wider sets, but no default pattern does.
        let per = 3.5;
        memory = memory.max(disk.saturating_add((count as f64 * per) as u64));
        placements = placements.saturating_add(count);
        disk = disk.saturating_add(file);
    }
    Estimate {
        secs: placements as f64 / (PLACEMENTS_PER_CORE_SEC * threads),
        memory,
        disk,
    }
}

/// "about 2 minutes", "about 40 seconds", "about a second".
pub fn about_time(secs: f64) -> String {
    match secs {
        s if s < 1.5 => "about a second".to_string(),
        s if s < 90.0 => format!("about {} seconds", s.round()),
        s if s < 90.0 * 60.0 => format!("about {} minutes", (s / 60.0).round()),
        s => format!("about {} hours", (s / 3600.0).round()),
    }
}

/// Bytes for people, two significant digits: "1.8 GB", "290 MB", "12 kB".
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    let (v, unit) = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        .into_iter()
        .find(|&(s, _)| b >= s)
        .map_or((b, "bytes"), |(s, u)| (b / s, u));
    if v < 10.0 && unit != "bytes" {
        format!("{v:.1} {unit}")
    } else {
        let digits = 10f64.powi((v.log10().floor() as i32 - 1).max(0));
        format!("{} {unit}", (v / digits).round() * digits)
    }
}

/// A partition's name for people: its sizes (`7-8 partition`), with `second` before the
/// second partition's (which has the first's sizes), and its groups after them where the
/// sizes alone, given to `--partition`, would name another (the 5x5 default's blocks:
/// `--partition 6-6-6-6` is by rows).
pub fn describe(partition: &Partition) -> String {
    let name = partition.name();
    if Partition::second_for(partition.shape, partition.blank).as_ref() == Some(partition) {
        format!("second {name} partition")
    } else if Partition::parse(partition.shape, partition.blank, &name)
        .ok()
        .as_ref()
        == Some(partition)
    {
        format!("{name} partition")
    } else {
        format!("{name} partition {}", partition.groups())
    }
}

/// The sentence said before building `missing` (tables of `partition`'s boards, `what`
/// naming them) into `dir`: what, where, how long and how big, and that it happens once.
pub fn build_notice(
    dir: &Path,
    partition: &Partition,
    what: &str,
    missing: &[PatternSpec],
) -> String {
    let e = estimate(missing);
    format!(
        "building the pattern databases for {} boards ({what}, goal blank in cell {}) \
         into {}: {}, {} of memory, {} on disk; once",
        partition.shape,
        partition.blank,
        dir.display(),
        about_time(e.secs),
        human_bytes(e.memory),
        human_bytes(e.disk)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Shape;

    #[test]
    fn the_4x4_notice() {
        let p = Partition::default_for(Shape::new(4, 4).unwrap(), 0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let text = pool.install(|| build_notice(Path::new("/t"), &p, "7-8 partition", &p.specs()));
        assert_eq!(
            text,
            "building the pattern databases for 4x4 boards (7-8 partition, goal blank in \
             cell 0) into /t: about 17 seconds, 1.8 GB of memory, 290 MB on disk; once"
        );
        assert!(partition_builds_on_first_use(&p));
    }

    /// The 5x5 default tables and their dual lookups' are built on first use; a partition
    /// with 7-tile 5x5 patterns and a 6x5 one are not.
    #[test]
    fn which_larger_boards_build_on_first_use() {
        let five = Shape::new(5, 5).unwrap();
        let p5 = Partition::default_for(five, 0);
        assert!(partition_builds_on_first_use(&p5));
        let dual: Vec<PatternSpec> = crate::pdb::DualTables::specs(&p5)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(dual.len(), 25);
        assert!(builds_on_first_use(five, &dual));
        let big = Partition::parse(
            five,
            0,
            "1,2,5,6,7,10,11/3,4,8,9,12,13,14/15,16,17,20,21/18,19,22,23,24",
        )
        .unwrap();
        assert!(!partition_builds_on_first_use(&big));
        let p65 = Partition::default_for(Shape::new(6, 5).unwrap(), 0);
        assert!(!partition_builds_on_first_use(&p65), "{}", p65.name());
    }

    /// A partition is named by its sizes where `--partition` with those sizes gives it
    /// back, and by its groups as well where it would give another.
    #[test]
    fn a_partition_is_named_as_partition_reads_it() {
        let four = Shape::new(4, 4).unwrap();
        assert_eq!(describe(&Partition::default_for(four, 0)), "7-8 partition");
        let second = Partition::second_for(four, 0).unwrap();
        assert_eq!(describe(&second), "second 7-8 partition");
        let five = Shape::new(5, 5).unwrap();
        let blocks = Partition::default_for(five, 0);
        let said = describe(&blocks);
        let groups = said.strip_prefix("6-6-6-6 partition ").unwrap();
        assert_eq!(Partition::parse(five, 0, groups).unwrap(), blocks);
        let rows = Partition::parse(five, 0, "6-6-6-6").unwrap();
        assert_ne!(rows, blocks);
        assert_eq!(describe(&rows), "6-6-6-6 partition");
    }

    #[test]
    fn bytes_and_times_for_people() {
        assert_eq!(human_bytes(1_845_000_000), "1.8 GB");
        assert_eq!(human_bytes(288_300_000), "290 MB");
        assert_eq!(human_bytes(512), "510 bytes"); // two significant digits, always
        assert_eq!(about_time(1.0), "about a second");
        assert_eq!(about_time(115.0), "about 2 minutes");
    }
}
