//! The `build-pdb` command lines that errors and notes tell the user to run.

use std::path::Path;

use super::partition::{Partition, PatternSpec};

/// The command that rebuilds tables, for error messages.
pub fn rebuild_command(spec: &PatternSpec, dir: &Path) -> String {
    format!(
        "build-pdb --force --size {}x{} --blank {} --partition {} --out {}",
        spec.shape.rows,
        spec.shape.cols,
        spec.blank,
        {
            let d = Partition::default_for(spec.shape, spec.blank);
            if d.patterns.contains(&spec.tiles) {
                d.name()
            } else {
                "<the partition it was built with>".to_string()
            }
        },
        dir.display()
    )
}

/// name, otherwise the general one.
pub(super) fn rebuild_for_name(path: &Path) -> String {
    let dir = path.parent().unwrap_or(Path::new("."));
    match path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name)
    {
        Some(spec) => rebuild_command(&spec, dir),
        None => format!("build-pdb --force --out {}", dir.display()),
    }
}
