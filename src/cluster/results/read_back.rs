//! Reading a results file back, for a resume and for a merge: the header, the records and
//! the end line, where the whole lines end (a torn tail is cut off, not believed), and with
//! `replay` every record's moves checked before it counts as done.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::{
    tiles_key, Done, End, FileLine, Header, LineError, ResultsError, HEADER_KEY,
    RESULTS_FORMAT_VERSION,
};
use crate::check::MAX_RESULT_LINE_BYTES;
use crate::record::Record;
use serde_json::Value;

/// What a first line without its newline is.
enum FirstLine {
    /// The start of a header cut short by a kill, or a crash's zero bytes: cut off.
    Torn,
    /// A whole header, but for its newline.
    Header(Header),
    /// Anything else: someone's file without a final newline, which cutting off would
    /// destroy.
    NotOurs,
}

/// The fixed start of every header this version writes, up to the command's name.
fn header_start() -> String {
    format!("{{\"{HEADER_KEY}\":{{\"version\":{RESULTS_FORMAT_VERSION},\"command\":\"")
}

/// Tells a header cut short from a file of someone else's that merely lacks a final
/// newline (a one-line JSON file as Python's `json.dump` writes it, `{"batch": 64}`): a
/// torn header is a prefix of our header's fixed start or goes on from it, and is not
/// itself a whole JSON value.
fn torn_first_line(buf: &[u8]) -> FirstLine {
    if buf.iter().all(|&c| c == 0) {
        return if buf.len() as u64 <= DEBRIS_BEFORE_HEADER {
            FirstLine::Torn
        } else {
            FirstLine::NotOurs
        };
    }
    if let Ok(text) = std::str::from_utf8(buf) {
        if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
            return match FileLine::parse(text) {
                Ok(FileLine::Header(h)) => FirstLine::Header(h),
                _ => FirstLine::NotOurs,
            };
        }
    }
    let start = header_start();
    if buf.starts_with(start.as_bytes()) || start.as_bytes().starts_with(buf) {
        FirstLine::Torn
    } else {
        FirstLine::NotOurs
    }
}

/// The most bytes a file may hold and still be a crash's debris when it has no header:
/// what a crash during its first writes can leave. A larger file of zero bytes alone (a
/// disk image made by `truncate -s`, a preallocated file) is someone's, never cut off.
const DEBRIS_BEFORE_HEADER: u64 = 4096;

/// A UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether `seen` and the rest of `reader` are crash debris: zero bytes and newlines
/// only, a zero among them (blank lines alone are not debris: no kill or crash leaves
/// them, and a file of them is someone else's). Read in blocks, so that a sparse tail of
/// gigabytes costs no memory.
fn debris_to_end(seen: &[u8], reader: &mut impl Read) -> std::io::Result<bool> {
    let debris = |b: &[u8]| b.iter().all(|&c| c == 0 || c == b'\n');
    if !debris(seen) {
        return Ok(false);
    }
    let mut zero = seen.contains(&0);
    let mut block = vec![0u8; 1 << 16];
    loop {
        match reader.read(&mut block) {
            Ok(0) => return Ok(zero),
            Ok(n) => {
                if !debris(&block[..n]) {
                    return Ok(false);
                }
                zero = zero || block[..n].contains(&0);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// What [`read_back`] found.
pub(crate) struct ReadBack {
    pub(crate) header: Option<Header>,
    pub(crate) done: Vec<Done>,
    pub(crate) end: Option<End>,
    /// Bytes in the file.
    pub(super) length: u64,
    /// Bytes of whole, valid lines: the rest is a torn tail.
    pub(super) valid: u64,
}

/// Why a record cannot be a result of the search its file's header names: a weighted
/// search's (its `bound`, or `optimal` false) in a file of optimal searches, or one of
/// another weight. A line pasted from another run's file would otherwise pass a longer
/// answer off as optimal in a merge.
fn other_weight(header: &Header, r: &Record) -> Option<String> {
    let weight = header
        .settings
        .get("weight")
        .and_then(Value::as_f64)
        .unwrap_or(1.0);
    if r.error.is_some() {
        return None;
    }
    match r.bound {
        Some(b) if (b - weight).abs() > 1e-9 => Some(format!(
            "a result of a search with weight {b}, in a file of searches with weight {weight}"
        )),
        // A weighted search's results all carry their bound.
        None if weight != 1.0 => Some(format!(
            "a result of an optimal search, in a file of searches with weight {weight}"
        )),
        None if r.optimal == Some(false) => {
            Some("a result not proven optimal, in a file of optimal searches".into())
        }
        _ => None,
    }
}

/// Reads a results file from its start: the header, the records, the end line; and where
/// the valid part ends. A last line without its newline, or a tail of zero bytes (what a
/// machine crash can leave after the last sync), is a torn tail; any other bad line is
/// [`ResultsError::Damaged`]. With `replay` (resuming), so is a record whose moves do not
/// take its board to its goal in the length it claims: a result to be kept must check.
/// A merge replays every record itself and reports each one that fails instead.
pub(crate) fn read_back(
    path: &Path,
    file: &mut File,
    replay: bool,
) -> Result<ReadBack, ResultsError> {
    let io = |error| ResultsError::Io {
        path: path.to_path_buf(),
        error,
    };
    let damaged = |line: usize, reason: String| ResultsError::Damaged {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let length = file.seek(SeekFrom::End(0)).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    // Zero bytes after our header are a crash's debris however many; a file of nothing
    // else is ours only if small.
    let debris_allowed = |line: usize| line > 1 || length <= DEBRIS_BEFORE_HEADER;
    let mut reader = BufReader::new(&mut *file);
    let mut out = ReadBack {
        header: None,
        done: Vec::new(),
        end: None,
        length,
        valid: 0,
    };
    let mut buf = Vec::new();
    let mut line = 0usize;
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_RESULT_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(io)?;
        if n == 0 {
            break;
        }
        line += 1;
        // A byte order mark an editor put before the header is skipped, as the instance
        // reader and `check` skip it.
        let start = if line == 1 && buf.starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        if buf.last() != Some(&b'\n') {
            if n > MAX_RESULT_LINE_BYTES {
                // Zero bytes to the end, however many, are a crash's debris: read in
                // blocks, so that a sparse tail of gigabytes costs no memory.
                if debris_allowed(line) && debris_to_end(&buf, &mut reader).map_err(io)? {
                    break;
                }
                if line == 1 {
                    return Err(ResultsError::NotOurs {
                        path: path.to_path_buf(),
                    });
                }
                return Err(damaged(line, "a line too long to be a result".into()));
            }
            if line == 1 {
                match torn_first_line(&buf[start..]) {
                    FirstLine::Torn => {}
                    // Our header whole but for its newline: held to the settings like any
                    // header, then written again (the valid part is empty).
                    FirstLine::Header(h) => out.header = Some(h),
                    FirstLine::NotOurs => {
                        return Err(ResultsError::NotOurs {
                            path: path.to_path_buf(),
                        })
                    }
                }
            }
            break; // torn: cut off
        }
        let parsed = match std::str::from_utf8(&buf[start..n - 1]) {
            Err(_) => Err(None),
            Ok(text) => FileLine::parse(text).map_err(Some),
        };
        let item = match parsed {
            Ok(item) => item,
            Err(e) => {
                // Crash debris (zero bytes to the end, newlines among them) is a torn tail;
                // anything else is not.
                if debris_allowed(line) && debris_to_end(&buf, &mut reader).map_err(io)? {
                    break;
                }
                return Err(match e {
                    Some(LineError::Version(found)) => ResultsError::Version {
                        path: path.to_path_buf(),
                        found: found.to_string(),
                    },
                    _ if line == 1 => ResultsError::NotOurs {
                        path: path.to_path_buf(),
                    },
                    Some(e) => damaged(line, e.to_string()),
                    None => damaged(line, "not UTF-8".into()),
                });
            }
        };
        if out.end.is_some() {
            return Err(damaged(line, "a line after the end line".into()));
        }
        match item {
            FileLine::Header(h) if line == 1 => out.header = Some(h),
            FileLine::Header(_) => return Err(damaged(line, "a second header".into())),
            _ if line == 1 => {
                return Err(ResultsError::NotOurs {
                    path: path.to_path_buf(),
                })
            }
            FileLine::Record(r) => {
                if let Some(why) = out.header.as_ref().and_then(|h| other_weight(h, &r)) {
                    return Err(damaged(line, why));
                }
                // A record is believed only once its moves replay from its board to its
                // goal in the length it claims: a changed move or length is damage, not a
                // result to skip.
                if replay && r.error.is_none() {
                    let text = std::str::from_utf8(&buf[start..n - 1]).unwrap_or_default();
                    match crate::check::check_json_line(text, line, &crate::GoalSpec::Standard) {
                        Some(c) if c.passed() && c.length_matches() == Some(true) => {}
                        Some(c) => {
                            let why = match &c.result {
                                Err(e) => e.to_string(),
                                Ok(r) if !r.reaches_goal => {
                                    "its moves do not reach its goal".into()
                                }
                                Ok(r) if c.claimed.is_none() => {
                                    format!("its {} moves come without a \"length\"", r.length)
                                }
                                Ok(r) => {
                                    format!("its moves are {}, not the length it claims", r.length)
                                }
                            };
                            return Err(damaged(line, format!("the result does not check: {why}")));
                        }
                        None => return Err(damaged(line, "not a record".into())),
                    }
                }
                out.done.push(Done {
                    line,
                    tiles: r.tiles.as_ref().map(|t| tiles_key(t.iter().copied())),
                    goal: r.goal.as_ref().map(|t| tiles_key(t.iter().copied())),
                    shape: r.size.clone(),
                    input_line: r.line,
                    id: r.id,
                    failed: r.error.is_some(),
                    mismatched: r.ok == Some(false),
                    length: r.error.is_none().then_some(r.length).flatten(),
                    known: r.known,
                })
            }
            FileLine::End(e) => {
                if e.results != out.done.len() as u64 {
                    let reason = format!(
                        "the end line counts {} results, the file holds {}",
                        e.results,
                        out.done.len()
                    );
                    return Err(damaged(line, reason));
                }
                out.end = Some(e);
            }
        }
        out.valid += n as u64;
    }
    Ok(out)
}

/// What a record at a place of another instance is, for [`ResultsError::Mismatch`]: the ids
/// that differ, or, when they agree, what else does ("instance 1 ... is 1" read as no
/// difference at all).
pub(super) fn mismatch(file_id: &str, input_id: &str, what: &str) -> String {
    if file_id == input_id {
        format!("the result of instance {file_id} is not this input's instance {input_id}{what}")
    } else {
        format!("the result of instance {file_id}, but this input's instance at that place is {input_id}{what}")
    }
}
