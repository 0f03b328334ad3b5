//! Merging the results files of a sharded batch ([`crate::cluster::results`]) into one, in input
//! order, checking every result on the way.
//!
//! Nothing but the files is needed: each header names its shard `K/N` and the settings,
//! each end line the number of items of the whole input. So the merge proves that every
//! shard is there once, complete, and run with the same settings on an input of the same
//! length; that each holds exactly its slice's count of results; that no id occurs
//! twice; and that the records, in input order, are the input's items: they give back the
//! digest of the whole input that the end lines hold (each record says which item it is,
//! by its board or its line). Round robin ([`crate::cluster::shard`]) puts item `i` at place `(i - 1) / N` of shard
//! `((i - 1) mod N) + 1`, so taking the files' records in turn restores the input order:
//! the merged file holds the very lines an unsharded `solve --format json` prints (the
//! `nodes` equal too; only `millis` differ), which for numbered inputs is id order.
//!
//! Every record is replayed ([`crate::check::check_json_line`], what `fifteen check`
//! does): a solution that does not reach its goal, or is not as long as it claims, and a
//! record of a failed instance, are reported through a callback and counted.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::check::{check_json_line, LineCheck, MAX_RESULT_LINE_BYTES};
use crate::cluster::results::{
    id_text, read_back, FileLine, Header, InputDigest, ResultsError, HEADER_KEY,
};
use crate::cluster::shard::Shard;
use crate::instances::GoalSpec;

/// One results file, surveyed.
#[derive(Clone, Debug)]
pub struct Part {
    /// The file.
    pub path: PathBuf,
    /// Its header.
    pub header: Header,
    /// Its shard.
    pub shard: Shard,
    /// Items of the whole input, from its end line.
    pub items: u64,
    /// Records it holds.
    pub results: u64,
    /// The digest of the whole input, from its end line (absent in earlier releases' files).
    pub input: Option<u64>,
    /// What kind of digest `input` is ([`crate::cluster::results::End::digest_version`]).
    pub digest_version: Option<u64>,
}

/// Why the files cannot be merged. Nothing merged is valid when one of these is returned.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No files were given.
    #[error("no results files to merge")]
    NoParts,
    /// A file that cannot be read back as a results file (unreadable, not written by
    /// `--output`, damaged, of another version).
    #[error(transparent)]
    Unreadable(ResultsError),
    /// A part with a line that is not a results-file line before its end: changed by
    /// something other than fifteen. Its task's rerun writes it afresh.
    #[error("{path}, line {line}: {reason}; this shard's results file was changed by something other than fifteen: delete it, rerun its task (`solve --shard K/N -o FILE` writes it again), then merge again")]
    DamagedPart {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line.
        reason: String,
    },
    /// A path that is not a regular file (standard input, a pipe, a device): each part is
    /// read twice, once to survey it and once to merge it.
    #[error("{path} is not a regular file: merge reads each part twice, so give the shards' results files themselves (not standard input or a pipe)")]
    NotAFile {
        /// The path as given.
        path: PathBuf,
    },
    /// A file that is not a results file at all (its first line is no header): not a part.
    #[error("{path} is not a shard's results file (its first line is not a {{\"{HEADER_KEY}\": ...}} header): merge the files that `solve --shard K/N -o FILE` wrote")]
    NotAPart {
        /// The file.
        path: PathBuf,
    },
    /// Shards of two inputs of the same length (their end lines' digests differ). A rerun
    /// of a complete shard does not redo it (it refuses the changed input): the remedy
    /// is to delete the files of the earlier input first.
    #[error("{first} and {second} are shards of different inputs (the same number of instances, but other ids, shapes, boards or goals): the input changed between their runs; delete the files of the shards run on the earlier input and rerun those shards on this one (`solve --shard K/N -o FILE`; a complete file is not redone), then merge again")]
    OtherInput {
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Shards completed by two versions of fifteen whose input digests differ in kind (an
    /// earlier one's leaves the boards' shapes out): whether they are of one input cannot
    /// be told.
    #[error("{older} was completed by an earlier version of fifteen, whose input digest leaves out the boards' shapes, and {newer} by a later one: whether they are shards of one input cannot be told; delete {older} and rerun its shard with this version (`solve --shard K/N -o FILE`), then merge again")]
    DigestVersions {
        /// The file of the earlier kind of digest.
        older: PathBuf,
        /// The file of the later kind.
        newer: PathBuf,
    },
    /// A file whose header names no valid shard.
    #[error("{path}: the header's shard {shard:?} is not K/N")]
    BadShard {
        /// The file.
        path: PathBuf,
        /// The shard as written.
        shard: String,
    },
    /// A file without its end line: its task stopped before the end of its slice, or is
    /// still writing it.
    #[error("{path} (shard {shard}) is incomplete: {results} results and no end line; {}", if *running { "its task is still writing it (it holds the file's lock): wait for it to end, then merge again" } else { "rerun its task (it resumes where it stopped), then merge again" })]
    Incomplete {
        /// The file.
        path: PathBuf,
        /// Its shard.
        shard: Shard,
        /// Records it holds.
        results: u64,
        /// Another process holds the file's lock, as a running `solve -o` does.
        running: bool,
    },
    /// Shards of the batch for which no file was given.
    #[error("missing shard{} {list} of {count}: no file for {}; run {} task{} (it resumes if it started) and give all {count} files", if *missing_count == 1 { "" } else { "s" }, if *missing_count == 1 { "it" } else { "them" }, if *missing_count == 1 { "its" } else { "their" }, if *missing_count == 1 { "" } else { "s" })]
    MissingShards {
        /// The shard count.
        count: u64,
        /// The first missing shard numbers (at most 20).
        missing: Vec<u64>,
        /// How many shards are missing.
        missing_count: u64,
        /// `missing`, comma-separated (at most 20, then `...`).
        list: String,
    },
    /// Two files of the same shard.
    #[error("{first} and {second} are both shard {shard}: give each shard's file once")]
    DuplicateShard {
        /// The shard.
        shard: Shard,
        /// The file seen first.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Files of different batches: another shard count, command or setting.
    #[error("{first} and {second} are not shards of one batch ({differences})")]
    Settings {
        /// The first file.
        first: PathBuf,
        /// A file that differs from it.
        second: PathBuf,
        /// What differs.
        differences: String,
    },
    /// Files whose inputs had different numbers of items: not the same input.
    #[error("{first} and {second} were run on different inputs ({a} and {b} instances)")]
    Items {
        /// The first file.
        first: PathBuf,
        /// A file that differs from it.
        second: PathBuf,
        /// The first file's item count.
        a: u64,
        /// The other's.
        b: u64,
    },
    /// A file whose results are not its slice's count.
    #[error("{path} (shard {shard}) holds {results} results, but its slice of {items} instances has {expected}")]
    Count {
        /// The file.
        path: PathBuf,
        /// Its shard.
        shard: Shard,
        /// Records it holds.
        results: u64,
        /// Records its slice has.
        expected: u64,
        /// Items of the whole input.
        items: u64,
    },
    /// An id that occurs twice: the input had it twice, or files of different inputs.
    #[error("id {id} occurs twice: {first} and {second}; every id must be unique for a merge")]
    DuplicateId {
        /// The id.
        id: String,
        /// Where it was first (`file:line`).
        first: String,
        /// Where it was again.
        second: String,
    },
    /// The records, in input order, are not the items of the input whose digest the end
    /// lines hold: records reordered, replaced or changed after their shard completed. The
    /// digest is of the whole input, so which file changed cannot be told: a rerun of each
    /// shard on its input tells (it holds every record to the instance at its place).
    #[error("{}", records_message(paths))]
    Records {
        /// The files merged (in shard order).
        paths: Vec<PathBuf>,
    },
    /// Writing the merged file failed.
    #[error("cannot write the merged results: {0}")]
    Write(std::io::Error),
    /// The stop flag was set (Ctrl-C) before the last record was written: what was
    /// written is the start of the merge, not a merge.
    #[error("stopped before the end: the records written are the first ones of the merge only")]
    Stopped,
}

/// The message of [`MergeError::Records`]: one file is named as the one to redo; of
/// several, at most 5 are named, and a rerun of each shard finds the one changed.
fn records_message(paths: &[PathBuf]) -> String {
    if let [path] = paths {
        return format!(
            "{}: its records are not the instances of the input it was completed for (its end line's digest of it): records were reordered, replaced or changed after the shard completed; delete it and rerun its shard (`solve --shard K/N -o FILE`), then merge again",
            path.display()
        );
    }
    let mut list: Vec<String> = paths
        .iter()
        .take(5)
        .map(|p| p.display().to_string())
        .collect();
    if paths.len() > 5 {
        list.push(format!("{} more", paths.len() - 5));
    }
    format!(
        "the records of {} are not the instances of the input their shards were run on (the end lines' digest of it): records were reordered, replaced or changed after their shard completed, in one file or more; rerun each shard on the input (`solve --shard K/N -o FILE`): a changed file is refused; delete it and rerun its shard, then merge again",
        list.join(", ")
    )
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergeReport {
    /// Files merged.
    pub parts: usize,
    /// Results written.
    pub results: u64,
    /// Results that check (their moves reach the goal in the length claimed).
    pub passed: u64,
    /// Results that do not, failed instances included.
    pub failed: u64,
    /// Results that check but do not agree with their instance's known length (`"ok":
    /// false`: a `bench` shard's mismatch, which made that shard's exit status 1).
    pub mismatched: u64,
    /// Sum of the records' `nodes`.
    pub nodes: u64,
    /// Sum of the records' `millis` (search time, not wall time).
    pub millis: f64,
}

impl From<ResultsError> for MergeError {
    /// The advice for a part: a damaged or foreign input is rerun or left out, never
    /// "given another output file" as when resuming.
    fn from(e: ResultsError) -> MergeError {
        match e {
            ResultsError::Damaged { path, line, reason } => {
                MergeError::DamagedPart { path, line, reason }
            }
            ResultsError::NotOurs { path } => MergeError::NotAPart { path },
            e => MergeError::Unreadable(e),
        }
    }
}

/// Reads one results file back and checks it is complete.
///
/// # Errors
/// The file cannot be read as a results file, names no valid shard, or has no end line.
pub fn survey(path: &Path) -> Result<Part, MergeError> {
    let io = |error| ResultsError::Io {
        path: path.to_path_buf(),
        error,
    };
    // Opened without waiting for a writer: a FIFO is refused below, not waited on.
    let mut file = crate::pdb::open_nonblocking(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound if path == Path::new("-") => MergeError::NotAFile {
            path: path.to_path_buf(),
        },
        _ => io(e).into(),
    })?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(MergeError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let read = read_back(path, &mut file, false)?;
    let header = read.header.ok_or_else(|| MergeError::NotAPart {
        path: path.to_path_buf(),
    })?;
    let shard: Shard = header.shard.parse().map_err(|_| MergeError::BadShard {
        path: path.to_path_buf(),
        shard: header.shard.clone(),
    })?;
    let results = read.done.len() as u64;
    let end = read.end.ok_or_else(|| MergeError::Incomplete {
        path: path.to_path_buf(),
        shard,
        results,
        running: matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock)),
    })?;
    Ok(Part {
        path: path.to_path_buf(),
        header,
        shard,
        items: end.items,
        input: end.input,
        digest_version: end.digest_version(),
        results,
    })
}

/// Checks that `parts` are the complete shards of one batch, and returns them in shard
/// order.
///
/// # Errors
/// See [`MergeError`].
pub fn plan(mut parts: Vec<Part>) -> Result<Vec<Part>, MergeError> {
    let Some(first) = parts.first().cloned() else {
        return Err(MergeError::NoParts);
    };
    let mut by_shard: HashMap<u64, &Part> = HashMap::new();
    for p in &parts {
        let mut same_shard = p.header.clone();
        same_shard.shard = first.header.shard.clone();
        let names = (
            format!("in {}", first.path.display()),
            format!("in {}", p.path.display()),
        );
        let mut differences = first.header.differences(&same_shard, (&names.0, &names.1));
        if p.shard.count() != first.shard.count() {
            differences.insert(
                0,
                format!(
                    "{} shards and {} shards",
                    first.shard.count(),
                    p.shard.count()
                ),
            );
        }
        if !differences.is_empty() {
            return Err(MergeError::Settings {
                first: first.path.clone(),
                second: p.path.clone(),
                differences: differences.join("; "),
            });
        }
        if p.items != first.items {
            return Err(MergeError::Items {
                first: first.path.clone(),
                second: p.path.clone(),
                a: first.items,
                b: p.items,
            });
        }
        if let (Some(a), Some(b)) = (first.digest_version, p.digest_version) {
            if a != b {
                let (older, newer) = if a < b {
                    (&first.path, &p.path)
                } else {
                    (&p.path, &first.path)
                };
                return Err(MergeError::DigestVersions {
                    older: older.clone(),
                    newer: newer.clone(),
                });
            }
        }
        if let (Some(a), Some(b)) = (first.input, p.input) {
            if a != b {
                return Err(MergeError::OtherInput {
                    first: first.path.clone(),
                    second: p.path.clone(),
                });
            }
        }
        if let Some(other) = by_shard.insert(p.shard.index(), p) {
            return Err(MergeError::DuplicateShard {
                shard: p.shard,
                first: other.path.clone(),
                second: p.path.clone(),
            });
        }
        let expected = p.shard.items_of(p.items);
        if p.results != expected {
            return Err(MergeError::Count {
                path: p.path.clone(),
                shard: p.shard,
                results: p.results,
                expected,
                items: p.items,
            });
        }
    }
    let count = first.shard.count();
    // Only the first few are listed: a shard count near 2^32 must not make a list of
    // billions (the files given are each one shard, so the number missing is a difference).
    let missing_count = count - by_shard.len() as u64;
    if missing_count > 0 {
        let missing: Vec<u64> = (1..=count)
            .filter(|k| !by_shard.contains_key(k))
            .take(21)
            .collect();
        let mut list: Vec<String> = missing.iter().take(20).map(u64::to_string).collect();
        if missing_count > 20 {
            list.push("...".into());
        }
        return Err(MergeError::MissingShards {
            count,
            list: list.join(", "),
            missing: missing.into_iter().take(20).collect(),
            missing_count,
        });
    }
    parts.sort_by_key(|p| p.shard.index());
    Ok(parts)
}

/// The complete shards of one batch, read through once: every line a record, no id twice.
/// Nothing is written until this holds, so a refused merge writes nothing, to stdout
/// either.
#[derive(Clone, Debug)]
pub struct Checked {
    parts: Vec<Part>,
    /// The records' keys in input order: what the merged file holds.
    ids: Vec<String>,
    /// A file whose records could not be held to the input's digest: one of them, a
    /// failure written by an earlier release, says neither its board nor its line.
    unchecked: Option<PathBuf>,
}

/// Reads the files at `paths` and checks they merge: see [`Checked`].
///
/// # Errors
/// See [`MergeError`].
pub fn prepare(paths: &[PathBuf]) -> Result<Checked, MergeError> {
    let parts = plan(
        paths
            .iter()
            .map(|p| survey(p))
            .collect::<Result<Vec<_>, _>>()?,
    )?;
    // Where each id was: its file (by shard) and line, to name both places of a repeat.
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
    let mut ids = Vec::with_capacity(parts[0].items.min(1 << 20) as usize);
    // The records in input order are the items of the input: together they give back the
    // digest of it that the end lines hold (files of a release without one aside), or
    // records were reordered or replaced (each one still checks on its own).
    let digested = parts.iter().any(|p| p.input.is_some());
    let mut digest = digested.then(InputDigest::new);
    let mut unchecked = None;
    in_input_order(&parts, |k, line, _, record| {
        let id = record.id.to_string();
        if let Some((k0, line0)) = seen.insert(id, (k, line)) {
            return Err(MergeError::DuplicateId {
                id: id_text(&record.id),
                first: format!("{}:{line0}", parts[k0].path.display()),
                second: format!("{}:{line}", parts[k].path.display()),
            });
        }
        if let Some(d) = digest.as_mut() {
            if d.record(record).is_err() {
                digest = None;
                unchecked = Some(parts[k].path.clone());
            }
        }
        ids.push(key(record));
        Ok(())
    })?;
    if let Some(d) = &digest {
        let differs = |p: &Part| {
            let now = p.digest_version.and_then(|v| d.value(v));
            matches!((p.input, now), (Some(file), Some(now)) if file != now)
        };
        if parts.iter().any(differs) {
            return Err(MergeError::Records {
                paths: parts.iter().map(|p| p.path.clone()).collect(),
            });
        }
    }
    Ok(Checked {
        parts,
        ids,
        unchecked,
    })
}

impl Checked {
    /// A file whose records could not be held to the input's digest (an earlier release's
    /// failure record says neither its board nor its line): merged with every other check.
    pub fn unchecked(&self) -> Option<&Path> {
        self.unchecked.as_deref()
    }

    /// Whether the file at `path` holds this merge's records: one record a line, each as
    /// fifteen writes it (no field of another program's), the same ids and boards in the
    /// same order (an earlier run of this merge; `nodes`,
    /// `millis` or a rerun shard's answers may differ), all of them or (`prefix`) the first
    /// few. An empty file counts, whole or prefix: there is nothing in it to lose.
    pub fn is_output(&self, path: &Path, prefix: bool) -> bool {
        let Ok(f) = File::open(path) else {
            return false;
        };
        if f.metadata().is_ok_and(|m| m.len() == 0) {
            return true;
        }
        let mut ids = self.ids.iter();
        let mut reader = BufReader::new(f);
        let mut buf = Vec::new();
        loop {
            // Lines read to a result's longest: a huge file without newlines is no merge.
            buf.clear();
            let limit = MAX_RESULT_LINE_BYTES as u64 + 1;
            match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(n) if n as u64 == limit => return false,
                Ok(_) => {}
                Err(_) => return false,
            }
            let Ok(line) = std::str::from_utf8(&buf) else {
                return false;
            };
            let line = line.trim_end_matches('\n');
            let Ok(FileLine::Record(record)) = FileLine::parse(line) else {
                return false;
            };
            // The line as a merge writes it, field for field: a file of one's own that
            // lists the same boards (notes kept beside each, say) is no merge's output.
            if record.to_line() != line || ids.next() != Some(&key(&record)) {
                return false;
            }
        }
        prefix || ids.next().is_none()
    }

    /// Writes the merge into `out`, checking every result; `on_failure` hears of each
    /// result that does not check (with its file).
    ///
    /// # Errors
    /// A file that changed since [`prepare`] read it, or a failed write: what was written
    /// to `out` is then not a valid merge.
    pub fn write(
        &self,
        out: &mut impl Write,
        on_failure: impl FnMut(&Path, &LineCheck),
    ) -> Result<MergeReport, MergeError> {
        self.write_or_stop(out, &AtomicBool::new(false), on_failure)
    }

    /// [`Checked::write`], stopping before the next record once `stop` is set (Ctrl-C):
    /// a merge of millions of records takes long enough to be stopped, and its caller
    /// must then remove what it wrote rather than leave the start of a merge about.
    ///
    /// # Errors
    /// As [`Checked::write`]; [`MergeError::Stopped`] when `stop` was set.
    pub fn write_or_stop(
        &self,
        out: &mut impl Write,
        stop: &AtomicBool,
        mut on_failure: impl FnMut(&Path, &LineCheck),
    ) -> Result<MergeReport, MergeError> {
        let mut report = MergeReport {
            parts: self.parts.len(),
            ..MergeReport::default()
        };
        let mut ids = self.ids.iter();
        in_input_order(&self.parts, |k, line, text, record| {
            if stop.load(Ordering::Relaxed) {
                return Err(MergeError::Stopped);
            }
            let path = &self.parts[k].path;
            if ids.next() != Some(&key(record)) {
                return Err(damaged(path, line, "changed while merging").into());
            }
            report.results += 1;
            report.nodes += record.nodes.unwrap_or(0);
            report.millis += record.millis.unwrap_or(0.0);
            match check_json_line(text.trim_end_matches('\n'), line, &GoalSpec::Standard) {
                Some(c) if c.passed() => {
                    report.passed += 1;
                    if record.ok == Some(false) {
                        report.mismatched += 1;
                    }
                }
                Some(c) => {
                    report.failed += 1;
                    on_failure(path, &c);
                }
                None => return Err(damaged(path, line, "not a record").into()),
            }
            // Written as fifteen writes a record: a field another program added to a
            // shard, or a CRLF line ending, is not carried into the merge, whose lines
            // are those of an unsharded run (and [`Checked::is_output`] knows them again).
            let mut line = record.to_line();
            line.push('\n');
            out.write_all(line.as_bytes()).map_err(MergeError::Write)
        })?;
        out.flush().map_err(MergeError::Write)?;
        Ok(report)
    }
}

/// Merges the files at `paths` into `out`, in input order, checking every result;
/// `on_failure` hears of each result that does not check (with its file). [`prepare`],
/// then [`Checked::write`].
///
/// All files are open at once (one descriptor each): a batch of more shards than the
/// process may open files needs a higher `ulimit -n`.
///
/// # Errors
/// See [`MergeError`]; nothing is written when the files do not merge. After a failed
/// write, or a file changed while merging, what was written to `out` is not a valid merge
/// (write it to a temporary file and rename it only on success).
pub fn merge(
    paths: &[PathBuf],
    out: &mut impl Write,
    on_failure: impl FnMut(&Path, &LineCheck),
) -> Result<MergeReport, MergeError> {
    prepare(paths)?.write(out, on_failure)
}

/// What identifies a record of one job: its id and its board (JSON text).
fn key(record: &crate::record::Record) -> String {
    format!("{} {:?}", record.id, record.tiles)
}

fn damaged(path: &Path, line: usize, reason: &str) -> ResultsError {
    ResultsError::Damaged {
        path: path.to_path_buf(),
        line,
        reason: reason.to_string(),
    }
}

/// Calls `each(shard place, line number, line with its newline, record)` for every record
/// of `parts` (in shard order, surveyed) in input order: round robin over the files.
fn in_input_order(
    parts: &[Part],
    mut each: impl FnMut(usize, usize, &str, &crate::record::Record) -> Result<(), MergeError>,
) -> Result<(), MergeError> {
    let mut readers = Vec::with_capacity(parts.len());
    for p in parts {
        let io = |error| ResultsError::Io {
            path: p.path.clone(),
            error,
        };
        let mut r = BufReader::new(File::open(&p.path).map_err(io)?);
        // The header, checked by the survey.
        r.read_line(&mut String::new()).map_err(io)?;
        readers.push((r, 1usize));
    }
    let items = parts[0].items;
    let n = parts.len() as u64;
    let mut text = String::new();
    for item in 1..=items {
        let k = ((item - 1) % n) as usize;
        let (reader, line) = &mut readers[k];
        let path = &parts[k].path;
        text.clear();
        reader
            .read_line(&mut text)
            .map_err(|error| ResultsError::Io {
                path: path.clone(),
                error,
            })?;
        *line += 1;
        let body = text
            .strip_suffix('\n')
            .ok_or_else(|| damaged(path, *line, "changed while merging"))?;
        let FileLine::Record(record) =
            FileLine::parse(body).map_err(|e| damaged(path, *line, &e.to_string()))?
        else {
            return Err(damaged(path, *line, "not a record").into());
        };
        each(k, *line, &text, &record)?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
