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
            may_replace(
                path,
                a.force,
                "the output of this merge (its records, as fifteen writes them, with the same ids and boards in the same order)",
                |p| checked.is_output(p, false),
            )?;
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
                Ok(_) => std::fs::rename(&partial, path)
                    .with_context(|| format!("cannot rename {} to its name", partial.display()))?,
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
