//! `fifteen merge`: the results files of a sharded batch (`solve --shard K/N --output
//! FILE`) joined into one, in input order, every result checked ([`crate::cluster::merge`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::output::{emit, inform, note};
use super::signals;
use super::target::{may_replace, not_an_input};
use super::INTERRUPTED;
use crate::check::LineCheck;
use crate::cluster::merge::{prepare, MergeError};

/// Arguments of `fifteen merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The results files, one per shard (any order), as `solve --shard K/N --output FILE`
    /// wrote them.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Write the merged results here (written to FILE.partial, renamed when complete);
    /// default: stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE even when it exists and is not this merge's earlier output (the same
    /// records' ids in the same order).
    #[arg(long, requires = "output")]
    force: bool,
}

/// Merges; exit status 0 all check, 1 some results do not (failed instances included) or
/// do not agree with their known length (as the `bench` shards' own exit status said), 2
/// the files are not the complete shards of one batch (nothing is written then).
pub fn run(a: MergeArgs) -> Result<i32> {
    let report_failure = |path: &Path, c: &LineCheck| {
        let id =
            c.id.as_ref()
                .map_or(String::new(), |id| format!(" (id {id})"));
        let why = match &c.result {
            Err(e) => e.to_string(),
            Ok(r) if !r.reaches_goal => "the moves do not reach the goal".to_string(),
            Ok(r) => format!("{} moves, not the length claimed", r.length),
        };
        note!("{}, line {}{id}: FAIL: {why}", path.display(), c.line);
    };
    // Every file read and checked before anything is written: a refused merge writes
    // nothing, to stdout either.
    let checked = match prepare(&a.parts) {
        Ok(c) => c,
        Err(e) => {
            note!("error: {e}");
            return Ok(2);
        }
    };
    if let Some(path) = checked.unchecked() {
        note!(
            "warning: {}: a failed instance's record, written by an earlier version of fifteen, says neither its board nor its line, so the records cannot be held to the input's digest (their order and boards unproven); merged with every other check",
            path.display()
        );
    }
    let (result, written) = match &a.output {
        None => {
            super::output::stdout_is_open()?;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let r = checked.write_or_stop(&mut out, &INTERRUPTED, report_failure);
            (r, None)
        }
        Some(path) => {
            let partial = partial_name(path);
            let inputs = || a.parts.iter().map(PathBuf::as_path);
            not_an_input(path, inputs())?;
            not_an_input(&partial, inputs())?;
            may_replace(path, a.force, OUTPUT, |p| checked.is_output(p, false))?;
            may_replace(&partial, a.force, "this merge's partial output", |p| {
                checked.is_output(p, true)
            })?;
            let file = open_partial(&partial)?;
            // Removed below whatever stops the merge; by the signal thread if a signal
            // ends it first (a write or the sync blocked past the grace).
            let unfinished = signals::remove_if_ended(&partial);
            let mut out = std::io::BufWriter::new(file);
            let r = checked
                .write_or_stop(&mut out, &INTERRUPTED, report_failure)
                .and_then(|r| {
                    let file = out
                        .into_inner()
                        .map_err(|e| MergeError::Write(e.into_error()))?;
                    file.sync_all().map_err(MergeError::Write)?;
                    Ok(r)
                });
            match &r {
                Ok(_) => put_in_place(&partial, path, |p| {
                    may_replace(p, a.force, OUTPUT, |p| checked.is_output(p, false))
                })?,
                Err(_) => {
                    let _ = std::fs::remove_file(&partial);
                }
            }
            drop(unfinished);
            (r, Some(path))
        }
    };
    let report = match result {
        Ok(r) => r,
        Err(MergeError::Write(e)) => {
            let to = written.map_or("standard output".to_string(), |p| p.display().to_string());
            return Err(
                anyhow::Error::new(e).context(format!("cannot write the merged results to {to}"))
            );
        }
        Err(MergeError::Stopped) => {
            match written {
                Some(path) => note!(
                    "interrupted: {} not written (its partial file is removed); run the merge again",
                    path.display()
                ),
                None => note!("interrupted: the records printed are the first ones of the merge, in input order; the rest were not"),
            }
            // 143 after SIGTERM (`signals::exit_status`).
            return Ok(130);
        }
        Err(e) => {
            note!("error: {e}");
            return Ok(2);
        }
    };
    let into = written.map_or("stdout".to_string(), |p| p.display().to_string());
    inform!(
        "merged {} file{} into {into}: {} results in input order, {} check, {} do not; {} nodes, {:.1} s of search",
        report.parts,
        if report.parts == 1 { "" } else { "s" },
        report.results,
        report.passed,
        report.failed,
        report.nodes,
        report.millis / 1000.0
    );
    if report.mismatched > 0 {
        let list = match &written {
            Some(p) => format!(
                ": list them with `jq -c 'select(.ok == false)' {}`",
                p.display()
            ),
            None => String::new(),
        };
        note!(
            "{} of them differ from their known length (\"ok\": false){list}",
            report.mismatched
        );
    }
    // Flushed by `merge`; a closed stdout shows here at the latest.
    emit(&mut std::io::stdout(), "")?;
    let _ = std::io::stderr().flush();
    Ok(if report.failed > 0 || report.mismatched > 0 {
        1
    } else {
        0
    })
}

/// What `merge -o FILE` may replace unasked.
const OUTPUT: &str = "the output of this merge (its records, as fifteen writes them, with the same ids and boards in the same order)";

/// Renames the finished merge from `partial` to `path`, checking `path` again first with
/// `may_replace`: the merge takes a while, and a file that appeared there meanwhile (a
/// `solve -o` started on the same name, someone's notes) is not written over. Such a file
/// is kept, and so is the merge, in `partial`.
fn put_in_place(
    partial: &Path,
    path: &Path,
    may_replace: impl FnOnce(&Path) -> Result<()>,
) -> Result<()> {
    let kept = || format!("the merge is kept in {}", partial.display());
    may_replace(path).map_err(|e| anyhow::anyhow!("{e:#}; {}", kept()))?;
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    // A results file another fifteen writes holds its lock: refused even with --force, or
    // its records would go to a file no name leads to. Held through the rename, so that
    // one starting now is refused instead.
    let _held = match regular.then(|| std::fs::File::open(path)) {
        Some(Ok(f)) => match f.try_lock() {
            Ok(()) => Some(f),
            Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
                "{} is being written by another fifteen (it holds the file's lock), started while this merge was writing; {}: rename it when that one is done, or merge again into another file",
                path.display(),
                kept()
            ),
            // A file system without locks: go on without one.
            Err(std::fs::TryLockError::Error(_)) => Some(f),
        },
        _ => None,
    };
    if !regular {
        // Nothing there: put the merge in place only if nothing appears meanwhile (a
        // link fails where a name exists; a rename would replace it).
        match std::fs::hard_link(partial, path) {
            Ok(()) => {
                let _ = std::fs::remove_file(partial);
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => anyhow::bail!(
                "{} appeared while this merge was writing it; {}: look at both, then rename the merge or merge again into another file",
                path.display(),
                kept()
            ),
            // No hard links on this file system: a rename, as before.
            Err(_) => {}
        }
    }
    std::fs::rename(partial, path)
        .with_context(|| format!("cannot rename {} to its name", partial.display()))
}

/// Where the merge is written before it is renamed to `path`: a merge refused halfway never
/// leaves a file that looks complete.
fn partial_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Opens the partial file for writing, under its lock: a second merge into the same FILE
/// while one runs is refused (the lock dies with its holder), rather than both writing
/// into one file that one of them then renames.
fn open_partial(partial: &Path) -> Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(partial)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
            "another fifteen merge is writing {} (it holds that file's lock): wait for it to end, or give another output file",
            partial.display()
        ),
        // A file system without locks: go on without one.
        Err(std::fs::TryLockError::Error(_)) => {}
    }
    file.set_len(0)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partial merge and the name it goes to, in a fresh directory.
    fn files() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let partial = tmp.path().join("X.partial");
        std::fs::write(&partial, "merged\n").unwrap();
        let path = tmp.path().join("X");
        (tmp, partial, path)
    }

    #[test]
    fn a_merge_goes_in_place_where_nothing_is() {
        let (_tmp, partial, path) = files();
        put_in_place(&partial, &path, |_| Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "merged\n");
        assert!(!partial.exists());
    }

    #[test]
    fn a_file_that_appeared_meanwhile_is_kept_and_so_is_the_merge() {
        let (_tmp, partial, path) = files();
        std::fs::write(&path, "my notes\n").unwrap();
        let e = put_in_place(&partial, &path, |p| {
            may_replace(p, false, OUTPUT, |_| false)
        });
        let msg = format!("{:#}", e.unwrap_err());
        assert!(
            msg.contains("exists and is not the output of this merge"),
            "{msg}"
        );
        assert!(msg.contains("the merge is kept in"), "{msg}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes\n");
        assert_eq!(std::fs::read_to_string(&partial).unwrap(), "merged\n");
    }

    #[test]
    fn a_file_another_writer_holds_is_kept_even_when_forced() {
        let (_tmp, partial, path) = files();
        std::fs::write(&path, "results being written\n").unwrap();
        // Another open file description holds the lock, as a `solve -o` does.
        let writer = std::fs::File::open(&path).unwrap();
        writer.try_lock().unwrap();
        let e = put_in_place(&partial, &path, |_| Ok(()));
        let msg = format!("{:#}", e.unwrap_err());
        assert!(msg.contains("is being written by another fifteen"), "{msg}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "results being written\n"
        );
        assert!(partial.exists());
        // Once it lets go, the forced merge goes in place.
        drop(writer);
        put_in_place(&partial, &path, |_| Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "merged\n");
    }
}
