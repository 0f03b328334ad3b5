//! The `build-pdb` command lines that errors and notes tell the user to run, all spelled by
//! one function so that each says exactly what the generator takes.

use std::path::Path;

use crate::board::Shape;

use super::dual::DualTables;
use super::partition::{Partition, PatternSpec};

/// The `build-pdb` command line that builds tables into `out`, for a message to show the
/// user. Each option is written only when given, in this order: `--force` (replace tables
/// that are there, needed to repair one), `--size RxC`, `--blank CELL` (the goal's blank
/// cell the tables are for), `--partition TEXT` (sizes such as `7-8`, or explicit groups),
/// then `--out DIR`. Options left out take `build-pdb`'s defaults: 4x4, cell 0, the
/// default partition for the board.
///
/// ```
/// use fifteen::{pdb::build_pdb_command, Shape};
/// use std::path::Path;
///
/// let five = Shape::new(5, 5).unwrap();
/// let out = Path::new("tables");
/// assert_eq!(
///     build_pdb_command(false, Some(five), None, None, out),
///     "build-pdb --size 5x5 --out tables"
/// );
/// assert_eq!(
///     build_pdb_command(true, Some(five), Some(0), Some("6-6-6-6"), out),
///     "build-pdb --force --size 5x5 --blank 0 --partition 6-6-6-6 --out tables"
/// );
/// ```
pub fn build_pdb_command(
    force: bool,
    shape: Option<Shape>,
    blank: Option<u8>,
    partition: Option<&str>,
    out: &Path,
) -> String {
    let mut command = String::from("build-pdb");
    if force {
        command.push_str(" --force");
    }
    if let Some(shape) = shape {
        command.push_str(&format!(" --size {shape}"));
    }
    if let Some(blank) = blank {
        command.push_str(&format!(" --blank {blank}"));
    }
    if let Some(partition) = partition {
        command.push_str(&format!(" --partition {partition}"));
    }
    command.push_str(&format!(" --out {}", out.display()));
    command
}

/// Where a rebuild command needs a partition that one table does not tell: filled in by
/// [`super::TableDir`], which knows the partition, when the error passes through it.
pub(super) const UNKNOWN_PARTITION: &str = "<the partition it was built with>";

/// The command that rebuilds tables, for error messages.
pub fn rebuild_command(spec: &PatternSpec, dir: &Path) -> String {
    let d = Partition::default_for(spec.shape, spec.blank);
    if !d.patterns.contains(&spec.tiles) {
        // One of the extra tables of a default partition's dual lookups?
        let n = spec.shape.cells();
        let home = (0..n).find(|&c| {
            c == super::canonical_blank(spec.shape, c) as usize
                && DualTables::specs(&Partition::default_for(spec.shape, c as u8))
                    .iter()
                    .any(|(_, s)| s == spec)
        });
        if let Some(c) = home {
            let blank = (c != 0).then_some(c as u8);
            return build_pdb_command(true, Some(spec.shape), blank, None, dir) + " --dual";
        }
    }
    let partition = if d.patterns.contains(&spec.tiles) {
        d.name()
    } else {
        UNKNOWN_PARTITION.to_string()
    };
    build_pdb_command(
        true,
        Some(spec.shape),
        Some(spec.blank),
        Some(&partition),
        dir,
    )
}

/// The rebuild command for the table `spec` whose file is `path`: into the file's own
/// directory.
pub(super) fn rebuild_at(spec: &PatternSpec, path: &Path) -> String {
    rebuild_command(spec, path.parent().unwrap_or(Path::new(".")))
}

/// The rebuild command for a file known only by its path: exact when the name is a table
/// name, otherwise the general one.
pub(super) fn rebuild_for_name(path: &Path) -> String {
    let dir = path.parent().unwrap_or(Path::new("."));
    match path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name)
    {
        Some(spec) => rebuild_command(&spec, dir),
        None => build_pdb_command(true, None, None, None, dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebuild_commands_name_the_table_when_they_can() {
        let s = Shape::new(3, 3).unwrap();
        let spec = Partition::default_for(s, 0).specs().remove(0);
        let dir = Path::new("/t");
        assert_eq!(
            rebuild_command(&spec, dir),
            "build-pdb --force --size 3x3 --blank 0 --partition 8 --out /t"
        );
        let other = PatternSpec {
            tiles: vec![1, 2],
            ..spec.clone()
        };
        assert_eq!(
            rebuild_command(&other, dir),
            "build-pdb --force --size 3x3 --blank 0 --partition <the partition it was built with> --out /t"
        );
        assert_eq!(
            rebuild_for_name(&dir.join(spec.file_name())),
            rebuild_command(&spec, dir)
        );
        assert_eq!(
            rebuild_for_name(&dir.join("other.pdb")),
            "build-pdb --force --out /t"
        );
        // The extra tables of the default dual lookups: the 5x5 corner block less tile 1
        // (blank on its cell), and that block for the region its tiles wall off.
        let five = Shape::new(5, 5).unwrap();
        for (blank, tiles) in [(1, vec![2, 5, 6, 7, 12]), (3, vec![1, 2, 5, 6, 7, 12])] {
            let spec = PatternSpec {
                shape: five,
                blank,
                tiles,
            };
            assert_eq!(
                rebuild_command(&spec, dir),
                "build-pdb --force --size 5x5 --out /t --dual",
                "{spec:?}"
            );
        }
    }

    #[test]
    fn the_note_for_missing_tables_names_only_what_differs_from_the_defaults() {
        let (s, out) = (Shape::new(4, 4).unwrap(), Path::new("d"));
        assert_eq!(
            build_pdb_command(false, Some(s), Some(3), Some("1,2/3"), out),
            "build-pdb --size 4x4 --blank 3 --partition 1,2/3 --out d"
        );
    }
}
