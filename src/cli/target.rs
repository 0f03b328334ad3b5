//! Where a command writes: never onto one of its own inputs, and never over a file it did
//! not write for the same job unless `--force` says so. The commands that replace a file
//! whole (`merge -o`, `split ... -o`) ask here first; `solve -o` resumes its results
//! file and refuses one that is not its own in the library
//! ([`crate::cluster::results`]).

use std::path::Path;

use anyhow::{bail, Result};

/// Refuses `output` when it is one of `inputs` (the same file under any name: a hard
/// link, `./a` and `a`, a symbolic link), since writing it would destroy what is read.
///
/// # Errors
/// The output names an input.
pub fn not_an_input<'a>(output: &Path, inputs: impl IntoIterator<Item = &'a Path>) -> Result<()> {
    // Comparing files opens them, and opening a FIFO waits for a writer: a target that is
    // no regular file is refused first.
    if std::fs::metadata(output).is_ok_and(|m| !m.is_file()) {
        bail!(
            "{} is not a regular file (a directory, a device or a FIFO): an output is written whole and renamed into place; give a file name",
            output.display()
        );
    }
    for input in inputs {
        if same_file::is_same_file(output, input).unwrap_or(false) {
            bail!(
                "the output {} is also an input ({}): writing it would destroy what is read; give another output file",
                output.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Refuses an `output` whose directory takes no file (missing, read-only), by making and
/// deleting a scratch file there: for a command whose work comes before its one write
/// (`split search`, a part that may take hours), said before the work, not after it.
///
/// # Errors
/// No file can be made beside `output`: what to do, with why.
pub fn can_write_beside(output: &Path) -> Result<()> {
    let dir = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Err(e) = tempfile::NamedTempFile::new_in(dir) {
        let fix = match dir.exists() {
            false => format!(
                "its directory {} does not exist: create it first (mkdir -p {})",
                dir.display(),
                dir.display()
            ),
            true => format!(
                "no file can be made in {} ({e}): give a path in a directory you can write to",
                dir.display()
            ),
        };
        bail!("cannot write {}: {fix}; nothing was done", output.display());
    }
    Ok(())
}

/// Refuses to replace `output` when it exists and `ours` says it is not a file this
/// program wrote for the same job, unless `force`. `what` names the kind of file
/// expected, for the message.
///
/// # Errors
/// The output exists, is someone else's, and `force` was not given.
pub fn may_replace(
    output: &Path,
    force: bool,
    what: &str,
    ours: impl FnOnce(&Path) -> bool,
) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(output) else {
        return Ok(()); // nothing there
    };
    // Files are written whole and renamed into place: a rename would put a regular file
    // where a device, a FIFO or a link was (as root, `/dev/null` itself), and reading one
    // to see whose it is can block for ever. Refused even with --force.
    if meta.file_type().is_symlink() {
        bail!(
            "{} is a symbolic link: an output is written whole and renamed into place, which would replace the link; give the path of the file itself, or another name",
            output.display()
        );
    }
    if !meta.is_file() {
        bail!(
            "{} is not a regular file (a directory, a device or a FIFO): an output is written whole and renamed into place; give a file name",
            output.display()
        );
    }
    if force || ours(output) {
        return Ok(());
    }
    bail!(
        "{} exists and is not {what} (or is one that a kill or a full disk cut short): it is left as it is; give another output file, or --force to replace it",
        output.display()
    )
}
