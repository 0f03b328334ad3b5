//! The resumable results file (`--output FILE`): JSON Lines that survive the process being
//! killed at any moment, and a rerun of the same command that picks up where it stopped.
//!
//! # Layout
//!
//! ```text
//! {"batch":{"version":1,"command":"solve","shard":"2/4","settings":{...}}}   header
//! {"id":2,"size":"3x3","tiles":[...],...}                                   one Record a line,
//! {"id":6,...}                                                              in input order
//! {"batch_end":{"items":200,"results":50}}                                  when complete
//! ```
//!
//! The header says what wrote the file: a rerun with other settings (another weight,
//! heuristic, limit, shard) is refused before anything is written, instead of mixing two
//! batches' results. The end line says the shard is complete and how many items the whole
//! input had, which is what lets [`crate::cluster::merge`] prove that no result is missing without
//! reading the input again. `fifteen check` skips both lines.
//!
//! # Writing
//!
//! Each record is one `write(2)` of the whole line and its newline, straight to the file
//! (no user-space buffer), as soon as it and every result before it are known. Once written,
//! a line is in the kernel's page cache: a process killed outright (SIGKILL, the OOM killer,
//! a preempted job) loses nothing already written. The only damage a kill can do is a line
//! cut short at the very end, which the rerun cuts off (once the file is found to be
//! this input's, before its first write) and redoes.
//!
//! **fsync policy.** Data reach the disk (`fdatasync`) after the header, at most every
//! [`SYNC_EVERY`] while records are written, and after the end line. So a crash of the
//! whole machine (or a network file system losing its client) costs at most the last ten
//! seconds of results, which the rerun computes again; a tail of zero bytes that such a
//! crash can leave is cut off like a torn line. Syncing every record would cost a disk
//! round trip per instance (milliseconds on network file systems, more than solving an
//! easy board) to save seconds of work after a crash.
//!
//! # Resuming
//!
//! A rerun reads the file back: the records form a prefix of this shard's instances in
//! input order, since they are written in input order. Each instance the input gives is
//! checked against the record at its position, its id, shape, board and goal
//! ([`Resume::skip_instance`]), and skipped; the first instance past the records is the
//! first one solved. So an id is never written twice, and a file written for another input
//! is refused at its first difference, without a table of all ids in memory.
//!
//! The file is locked (`flock`) while open: two runs of the same shard (a task requeued while
//! the old one still runs) cannot interleave their lines. Where the file system does not
//! support locks, none is taken.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::cluster::shard::Shard;
use crate::record::{id_value, Record};
use crate::{Board, Goal, Shape};

mod digest;
mod file;
mod read_back;
pub use digest::InputDigest;
pub use file::ResultsFile;
pub(crate) use read_back::read_back;

/// The layout version the header carries; a file of another version is refused.
pub const RESULTS_FORMAT_VERSION: u64 = 1;

/// The longest time records are written without `fdatasync` (see the module doc).
pub const SYNC_EVERY: Duration = Duration::from_secs(10);

/// The key of the header line's only field.
pub const HEADER_KEY: &str = "batch";

/// What the end line's `input` digests: 2 since it covers each board's shape (a `size:`
/// line changed between runs makes another input); 1, without the shapes, in earlier files.
pub const INPUT_DIGEST_VERSION: u64 = 2;

/// The key of the end line's only field.
pub const END_KEY: &str = "batch_end";

/// What wrote a results file: the command, the shard, and every setting that decides the
/// results (not those that only decide speed, such as the thread count).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`RESULTS_FORMAT_VERSION`] when written by this version.
    pub version: u64,
    /// The command: `solve` or `bench`.
    pub command: String,
    /// The shard, `K/N` (`1/1` for a whole batch).
    pub shard: String,
    /// The settings, by option name; compared as a whole on resuming.
    pub settings: Map<String, Value>,
}

impl Header {
    /// A header of the current version.
    pub fn new(command: &str, shard: Shard, settings: Map<String, Value>) -> Header {
        Header {
            version: RESULTS_FORMAT_VERSION,
            command: command.to_string(),
            shard: shard.to_string(),
            settings,
        }
    }

    /// The header as its line, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::json!({ HEADER_KEY: self }).to_string()
    }

    /// How this header differs from `now`, for people, each side named by `names`
    /// (`weight 2.0 in the file, 1.0 now`): one item for each differing field or setting;
    /// empty when they are the same.
    pub(crate) fn differences(&self, now: &Header, names: (&str, &str)) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |name: &str, file: Option<&Value>, now: Option<&Value>| {
            if file != now {
                let show = |v: Option<&Value>| v.map_or("unset".to_string(), |v| v.to_string());
                out.push(format!(
                    "{name} {} {}, {} {}",
                    show(file),
                    names.0,
                    show(now),
                    names.1
                ));
            }
        };
        differ(
            "command",
            Some(&self.command.clone().into()),
            Some(&now.command.clone().into()),
        );
        differ(
            "shard",
            Some(&self.shard.clone().into()),
            Some(&now.shard.clone().into()),
        );
        let mut keys: Vec<&String> = self.settings.keys().chain(now.settings.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            differ(k, self.settings.get(k), now.settings.get(k));
        }
        out
    }
}

/// The end line's content: the shard is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    /// How many items the whole input had (every shard's, bad lines included).
    pub items: u64,
    /// How many records this file holds.
    pub results: u64,
    /// A digest of the whole input (every item's id, shape, board and goal, in order;
    /// absent in files of earlier releases), so that `merge` can tell shards of different
    /// inputs of one length apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<u64>,
    /// What `input` digests: [`INPUT_DIGEST_VERSION`] with it; absent in files of earlier
    /// releases, whose digest leaves the shapes out (version 1), so that `merge` never
    /// compares two digests of different kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_version: Option<u64>,
}

impl End {
    /// The kind of digest `input` is, when there is one (1 for a file without
    /// `input_version`).
    pub fn digest_version(&self) -> Option<u64> {
        self.input.map(|_| self.input_version.unwrap_or(1))
    }
}

/// One line of a results file, as read back.
#[derive(Clone, Debug, PartialEq)]
pub enum FileLine {
    /// The header.
    Header(Header),
    /// A result record.
    Record(Box<Record>),
    /// The end line.
    End(End),
}

/// Why a line is not a results-file line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Not a JSON object.
    #[error("not a JSON object")]
    NotAnObject,
    /// A header of another layout version.
    #[error("a header of layout version {0}, not {RESULTS_FORMAT_VERSION}")]
    Version(Value),
    /// A header, end line or record whose fields do not read (holds serde's message).
    #[error("{0}")]
    Fields(String),
}

impl FileLine {
    /// Reads one line (without its newline).
    ///
    /// # Errors
    /// Text that is not one of the three kinds of line.
    pub fn parse(text: &str) -> Result<FileLine, LineError> {
        let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(text) else {
            return Err(LineError::NotAnObject);
        };
        let fields = |e: serde_json::Error| LineError::Fields(e.to_string());
        if obj.len() == 1 {
            if let Some(h) = obj.get(HEADER_KEY) {
                // Only a header with a version number is another version's: `{"batch":
                // 64}` is someone else's line, not fifteen's.
                match h.get("version").and_then(Value::as_u64) {
                    Some(v) if v == RESULTS_FORMAT_VERSION => {}
                    Some(v) => return Err(LineError::Version(v.into())),
                    None => {
                        return Err(LineError::Fields(format!(
                            "a \"{HEADER_KEY}\" line without a version number"
                        )))
                    }
                }
                return Ok(FileLine::Header(
                    serde_json::from_value(h.clone()).map_err(fields)?,
                ));
            }
            if let Some(e) = obj.get(END_KEY) {
                return Ok(FileLine::End(
                    serde_json::from_value(e.clone()).map_err(fields)?,
                ));
            }
        }
        if !obj.contains_key("id") {
            return Err(LineError::Fields("a record without an \"id\"".into()));
        }
        let r: Record = serde_json::from_value(Value::Object(obj)).map_err(fields)?;
        Ok(FileLine::Record(Box::new(r)))
    }
}

/// Why a results file cannot be opened, resumed or written. Each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// The operating system refused a read, write, lock or sync.
    #[error("{path}: {error}")]
    Io {
        /// The results file.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// Another process holds the file's lock: the same shard is running twice.
    #[error("{path} is being written by another fifteen (it holds the file's lock): wait for it to end, or give another output file")]
    Locked {
        /// The results file.
        path: PathBuf,
    },
    /// The file has content but no header: not written by `--output`.
    #[error("{path} was not written by --output (its first line is not a {{\"{HEADER_KEY}\": ...}} header): give another output file, or delete it")]
    NotOurs {
        /// The results file.
        path: PathBuf,
    },
    /// A line before the end of the file that is not a results-file line: the file was
    /// changed by something else. (A damaged *last* line is the mark of a kill, and is cut
    /// off instead.)
    #[error("{path}, line {line}: {reason}; the file was changed by something other than fifteen: keep the lines before it (head -n {} {path}) or give another output file", line - 1)]
    Damaged {
        /// The results file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line.
        reason: String,
    },
    /// The header is of another layout version (written by another version of fifteen).
    #[error("{path} was written by another version of fifteen (results-file layout {found}, this one writes {RESULTS_FORMAT_VERSION}): finish it with that version, or give another output file")]
    Version {
        /// The results file.
        path: PathBuf,
        /// The version the header gives.
        found: String,
    },
    /// The file was written by another command or with other settings.
    #[error("{path} holds the results of other settings ({differences}): rerun with the file's settings to resume it, or give another output file (or delete it to start over)")]
    Settings {
        /// The results file.
        path: PathBuf,
        /// What differs, `; `-separated.
        differences: String,
    },
    /// A record that is not the instance at its position in this input: the file belongs to
    /// another input (or another shard numbering).
    #[error("{path}, line {line}: {}: the file was written for another input; give another output file, or delete it", read_back::mismatch(.file_id, .input_id, .what))]
    Mismatch {
        /// The results file.
        path: PathBuf,
        /// 1-based line number of the record.
        line: usize,
        /// The record's id.
        file_id: String,
        /// The input's id at that position.
        input_id: String,
        /// `""`, or what differs when the ids agree: `" (another board)"`, another goal or
        /// another shape.
        what: String,
    },
    /// The file is complete, and this input has more instances for the shard.
    #[error("{path} is complete (an input of {items} instances) but this input has more: the file was written for another input; give another output file, or delete it")]
    Grown {
        /// The results file.
        path: PathBuf,
        /// The items of the input the file was completed for.
        items: u64,
    },
    /// The file was completed for an input of another length.
    #[error("{path} was completed for an input of {file_items} instances, but this one has {items}: the file was written for another input; give another output file, or delete it")]
    Length {
        /// The results file.
        path: PathBuf,
        /// Items of the input the file was completed for.
        file_items: u64,
        /// Items of this input.
        items: u64,
    },
    /// The file is complete, for an input of as many items but other ones: its end line's
    /// digest is not this input's. A complete file is never redone, so the rerun would
    /// otherwise say "complete" of results for another input.
    #[error("{path} is complete, but for another input: this one has as many instances ({items}) but not the same ones (the input changed since the file was completed: other ids, shapes, boards, goals or lines); a complete file is not redone: delete it, or give another output file, to solve this input")]
    InputChanged {
        /// The results file.
        path: PathBuf,
        /// Items of both inputs.
        items: u64,
    },
    /// The file holds more records than this input has instances for the shard.
    #[error("{path} holds {results} results but this input gives the shard {instances}: the file was written for another input; give another output file, or delete it")]
    Shrunk {
        /// The results file.
        path: PathBuf,
        /// Records in the file.
        results: u64,
        /// The shard's instances in this input.
        instances: u64,
    },
}

/// A record read back on resuming: enough to check it against the input and to count it.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// 1-based line number in the file.
    pub line: usize,
    /// The record's id.
    pub id: Value,
    /// [`tiles_key`] of the record's board, when it has one.
    tiles: Option<u64>,
    /// [`tiles_key`] of the record's goal, when it has one: a `goal:` line changed
    /// between runs makes the same board another instance.
    goal: Option<u64>,
    /// The record's shape (`size`, `RxC`), when it has one: so does a `size:` line.
    shape: Option<String>,
    /// The input line of a record of a line that was no instance (`line`).
    input_line: Option<u64>,
    /// The record reports a failure (`error`).
    pub failed: bool,
    /// The record's length disagrees with the known one it was written with (`"ok":
    /// false`). A rerun holds it to the input's known length instead (`length`, `known`).
    pub mismatched: bool,
    /// The record's length, when it has one (a result, not a failure).
    pub length: Option<u64>,
    /// The known length the record was written with (`known`), when it has one.
    pub known: Option<u64>,
}

/// A 64-bit digest of a board's tiles, so that resuming compares boards without keeping them.
pub fn tiles_key(tiles: impl IntoIterator<Item = u64>) -> u64 {
    let bytes: Vec<u8> = tiles.into_iter().flat_map(u64::to_le_bytes).collect();
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// An id as people read it: text without quotes, numbers as they are.
pub fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The records already in the file, handed out one at a time as the input reaches them.
#[derive(Debug)]
pub struct Resume {
    path: PathBuf,
    done: Vec<Done>,
    next: usize,
    end: Option<End>,
    cut: u64,
}

impl Resume {
    /// How many records the file held when opened.
    pub fn results(&self) -> usize {
        self.done.len()
    }

    /// The end line, when the file was already complete.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// How many bytes of a torn last line were found on opening, cut off at the first write
    /// (0 when none).
    pub fn cut_bytes(&self) -> u64 {
        self.cut
    }

    /// The next instance of the shard, in input order: `Some` (its record) when the file
    /// already holds its result, so it is skipped; `None` when it is to be solved. `tiles`
    /// is the board, when the instance is one (a line that failed to parse has none).
    ///
    /// # Errors
    /// The record at this place is another instance's ([`ResultsError::Mismatch`]), or the
    /// file is complete and the input goes on ([`ResultsError::Grown`]).
    pub fn skip(&mut self, id: &str, tiles: Option<&[u8]>) -> Result<Option<&Done>, ResultsError> {
        self.skip_tiles(id, tiles, None, None, None)
    }

    /// As [`Resume::skip`] for an input line that is no instance, at line `line` of the
    /// input: the record at this place must be a failure of that line, not a board's.
    ///
    /// # Errors
    /// As [`Resume::skip`].
    pub fn skip_bad_line(&mut self, id: &str, line: u64) -> Result<Option<&Done>, ResultsError> {
        self.skip_tiles(id, None, None, None, Some(line))
    }

    /// As [`Resume::skip`], holding the record to the whole instance, when the input's
    /// item is one (`board` and `goal`): its board, its goal and its shape. A record for
    /// the same tiles in another shape, or towards another goal, is another instance's.
    ///
    /// # Errors
    /// As [`Resume::skip`].
    pub fn skip_instance(
        &mut self,
        id: &str,
        instance: Option<(&Board, &Goal)>,
    ) -> Result<Option<&Done>, ResultsError> {
        match instance {
            Some((board, goal)) => self.skip_tiles(
                id,
                Some(board.tiles()),
                Some(goal.board().tiles()),
                Some(board.shape()),
                None,
            ),
            None => self.skip_tiles(id, None, None, None, None),
        }
    }

    fn skip_tiles(
        &mut self,
        id: &str,
        tiles: Option<&[u8]>,
        goal: Option<&[u8]>,
        shape: Option<Shape>,
        bad_line: Option<u64>,
    ) -> Result<Option<&Done>, ResultsError> {
        let Some(d) = self.done.get(self.next) else {
            if let Some(end) = self.end {
                return Err(ResultsError::Grown {
                    path: self.path.clone(),
                    items: end.items,
                });
            }
            self.next += 1;
            return Ok(None);
        };
        let board = tiles.map(|t| tiles_key(t.iter().map(|&v| u64::from(v))));
        let other_board = matches!((board, d.tiles), (Some(a), Some(b)) if a != b);
        let goal = goal.map(|t| tiles_key(t.iter().map(|&v| u64::from(v))));
        // A record of a board without its goal or its shape cannot be held to them:
        // refused as well, as this version always writes both.
        let other_goal = match (goal, d.goal) {
            (Some(a), Some(b)) => a != b,
            (Some(_), None) => d.tiles.is_some(),
            _ => false,
        };
        let other_shape = match (shape, &d.shape) {
            (Some(a), Some(b)) => a.to_string() != *b,
            (Some(_), None) => d.tiles.is_some(),
            _ => false,
        };
        // A record of a board where the input now has a line that is no instance, or the
        // other way round (a typo made or mended between runs): another item's. So is the
        // failure of another line. Without them, an answer would stand for a line that is
        // no board, or a mended board would be reported failed and never solved.
        let other_item = if tiles.is_none() && d.tiles.is_some() {
            Some(" (now a line that is no board; the file has a board's result: was the line changed?)".to_string())
        } else if tiles.is_some() && d.tiles.is_none() {
            Some(" (now a board; the file has the failure of a line that was no board: was the line changed?)".to_string())
        } else {
            match (bad_line, d.input_line) {
                (Some(now), Some(then)) if now != then => Some(format!(
                    " (line {now} is no board now; the file's failure is of line {then})"
                )),
                _ => None,
            }
        };
        // Ids compared as text: a file of an earlier release wrote ids above 2^53 as
        // numbers, this one as strings.
        if id_text(&d.id) != id_text(&id_value(id))
            || other_board
            || other_goal
            || other_shape
            || other_item.is_some()
        {
            return Err(ResultsError::Mismatch {
                path: self.path.clone(),
                line: d.line,
                file_id: id_text(&d.id),
                input_id: id.to_string(),
                what: if other_shape {
                    format!(
                        " (another shape: {} in the file, {} now: was a size: line changed?)",
                        d.shape.as_deref().unwrap_or("none"),
                        shape.map(|s| s.to_string()).unwrap_or_default()
                    )
                } else if other_board {
                    " (another board)".into()
                } else if other_goal {
                    " (another goal: was a goal: line or --goal changed?)".into()
                } else {
                    other_item.unwrap_or_default()
                },
            });
        }
        self.next += 1;
        Ok(Some(d))
    }

    /// Checks, once the whole input was read, that it had as many instances for the shard
    /// as the file holds results; and, for a complete file, that it is the input the file
    /// was completed for: `items` items in all, of the digest `input` (every item, the
    /// other shards' too, which no record of this file stands for).
    ///
    /// # Errors
    /// [`ResultsError::Shrunk`]: the file holds results this input does not have;
    /// [`ResultsError::Length`], [`ResultsError::InputChanged`]: the file was completed
    /// for another input.
    pub fn finish(&self, items: u64, input: &InputDigest) -> Result<(), ResultsError> {
        if let Some(end) = self.end {
            if end.items != items {
                return Err(ResultsError::Length {
                    path: self.path.clone(),
                    file_items: end.items,
                    items,
                });
            }
            // (A file of a release without a digest cannot be held to one.)
            let now = end.digest_version().and_then(|v| input.value(v));
            if matches!((end.input, now), (Some(file), Some(now)) if file != now) {
                return Err(ResultsError::InputChanged {
                    path: self.path.clone(),
                    items,
                });
            }
        }
        if self.next < self.done.len() {
            return Err(ResultsError::Shrunk {
                path: self.path.clone(),
                results: self.done.len() as u64,
                instances: self.next as u64,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
