//! Everything that carries work past one machine or one run, each file naming the job it
//! belongs to:
//! - [`shard`]: a deterministic slice `K/N` of a batch;
//! - [`results`]: the `--output` results file, which survives any kill and resumes;
//! - [`merge`]: the shards' results files joined back into one, in input order, checked;
//! - [`split`]: one instance's iterations shared by tasks on many machines, and the
//!   frontier and part files they pass;
//! - [`checkpoint`]: a long solve's books, saved as it goes and resumed after a stop.
//!
//! The split and checkpoint files are JSON, and each names the instance it belongs to
//! ([`Identity`]: board, goal, estimate, table partition, weight), so that a file is never
//! combined with, or resumed into, another search; and each ends with a checksum of all its
//! bytes before it ([`CHECKSUM_FIELD`]), so that a damaged threshold or answer is refused
//! rather than believed. Files are written to a temporary name
//! in the same directory, synced and renamed ([`write_atomic`]): a reader, or a process
//! started after a kill, sees the previous file or the new one, never half of one.

mod atomic;
pub mod checkpoint;
pub mod merge;
pub mod results;
pub mod shard;
pub mod split;

pub use atomic::write_atomic;
pub(crate) use atomic::write_atomic_unless;
pub use checkpoint::{Checkpoint, CHECKPOINT_FORMAT};
pub use split::{
    frontier, reduce, search_part, FrontierFile, PartFile, PartResult, Reduced, SplitSearchError,
    FRONTIER_FORMAT, PART_FORMAT,
};

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::search::Weight;
use crate::{Board, Goal, HeuristicKind};

/// Which search a file belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The board's shape, `RxC`.
    pub size: String,
    /// The board, row by row.
    pub tiles: Vec<u8>,
    /// The goal, row by row.
    pub goal: Vec<u8>,
    /// The estimate used: `pdb`, `linear-conflict` or `manhattan`.
    pub heuristic: String,
    /// The table partition (for `pdb`), such as `7-8`: other tables give other node
    /// counts, other frontiers' order and other subtree numbers.
    pub partition: Option<String>,
    /// The weight `W` of `f = g + W h`, as a fraction `h/g` (`1` for the optimal search).
    pub weight: String,
}

impl Identity {
    /// The identity of a search for `board` and `goal` with this estimate, partition and
    /// weight.
    pub fn new(
        board: &Board,
        goal: &Goal,
        heuristic: HeuristicKind,
        partition: Option<String>,
        weight: Weight,
    ) -> Identity {
        let s = board.shape();
        Identity {
            size: format!("{}x{}", s.rows, s.cols),
            tiles: board.tiles().to_vec(),
            goal: goal.board().tiles().to_vec(),
            heuristic: heuristic.name().to_string(),
            partition,
            weight: if weight.is_one() {
                "1".into()
            } else {
                format!("{}/{}", weight.h, weight.g)
            },
        }
    }

    /// Whether a file of identity `self` (at `path`) may serve the search `asked`.
    ///
    /// # Errors
    /// [`ClusterError::Mismatch`] naming the first field that differs.
    pub fn must_match(&self, path: &Path, asked: &Identity) -> Result<(), ClusterError> {
        let fields: [(&'static str, String, String); 6] = [
            ("size", self.size.clone(), asked.size.clone()),
            ("board", join(&self.tiles), join(&asked.tiles)),
            ("goal", join(&self.goal), join(&asked.goal)),
            ("heuristic", self.heuristic.clone(), asked.heuristic.clone()),
            (
                "partition",
                self.partition.clone().unwrap_or_else(|| "none".into()),
                asked.partition.clone().unwrap_or_else(|| "none".into()),
            ),
            ("weight", factor(&self.weight), factor(&asked.weight)),
        ];
        for (what, file, asked) in fields {
            if file != asked {
                return Err(ClusterError::Mismatch {
                    path: path.to_path_buf(),
                    what,
                    file,
                    asked,
                });
            }
        }
        Ok(())
    }
}

fn join(t: &[u8]) -> String {
    t.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What can go wrong with these files.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// A file that is not what it should be (not JSON, another kind of file, a field
    /// missing).
    #[error("{path}: not a {kind} file: {reason}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What it should have been.
        kind: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A file of the right kind that cannot be used: damaged or edited (its checksum does
    /// not match), or written by another version. Unlike [`ClusterError::Format`], it is
    /// this program's file, so deleting it loses nothing but the work it held.
    #[error("{path}: {reason}: delete it and run the command again")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A checkpoint replaced, while its search ran, by a file that is not this search's
    /// (another run given the same path: a job array's tasks with one `--checkpoint`).
    /// It is left as it is: saving over it would destroy the other run's work.
    #[error("{path} {REPLACED} ({reason}): it is left as it is, and this search's progress is not saved there; give each search its own checkpoint file")]
    Replaced {
        /// The file.
        path: PathBuf,
        /// What it is now.
        reason: String,
    },
    /// A file written for another search.
    #[error("{path} was written for another search: its {what} is {file}, this one's is {asked}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The field that differs.
        what: &'static str,
        /// The file's value.
        file: String,
        /// The search's value.
        asked: String,
    },
    /// Parts of one iteration that do not belong together (another threshold, frontier,
    /// part count, or top of the tree).
    #[error("{path} does not belong with {first}: its {what} is {file}, not {expected}")]
    PartsDisagree {
        /// The odd part.
        path: PathBuf,
        /// The first part, which the others are held to.
        first: PathBuf,
        /// The field that differs.
        what: &'static str,
        /// The odd part's value.
        file: String,
        /// The first part's value.
        expected: String,
    },
    /// Two files for the same part (numbered from 1).
    #[error("part {part} of {parts} given twice: {first} and {second}")]
    DuplicatePart {
        /// The part's number.
        part: u32,
        /// How many parts there are.
        parts: u32,
        /// One file.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Parts missing from an iteration: its sum would be wrong.
    #[error("parts missing: {missing:?}{} of 1 to {parts} (no file for them)", and_more(*.more))]
    MissingParts {
        /// The first missing parts' numbers (at most [`split::MISSING_LISTED`]).
        missing: Vec<u32>,
        /// How many more are missing than listed.
        more: u32,
        /// How many parts there are.
        parts: u32,
    },
    /// Parts, each whole and of one iteration, whose searched entries do not add up to the
    /// entries the top reached: some subtree was searched by no part, or by two (files
    /// edited with their checksums worked out again); their sum would not be the iteration.
    #[error("the parts searched {searched} frontier entries in all, but the top of the tree reached {reached}: a part was edited; delete the parts and search them again")]
    Uncovered {
        /// Entries the parts say they searched, summed.
        searched: u64,
        /// Entries the top reached.
        reached: u64,
    },
    /// No parts at all.
    #[error("no parts given")]
    NoParts,
    /// No node of the iteration exceeded its threshold and none was a solution: the goal
    /// cannot be reached (never for a checked board).
    #[error("the iteration under threshold {0} left nothing to search: the goal is unreachable")]
    Exhausted(u32),
}

/// The name of the field that holds a JSON file's checksum.
pub const CHECKSUM_FIELD: &str = "checksum";

/// The checksum of a JSON file's text without its checksum: xxh3-64 of the bytes of
/// the object as written before the checksum field was appended, in 16 hex digits. It is
/// taken over the bytes, not a re-reading, so that no number's printing can change it;
/// and it covers every field, so a damaged threshold, book or answer is caught on reading,
/// not only the fields that name the search.
fn checksum_of(body: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body))
}

/// Splits a file's text into the object as it was before its checksum field (closed with
/// its `}`) and the checksum: `None` when it does not end in a checksum field.
fn split_checksum(text: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    let marker = format!(",\"{CHECKSUM_FIELD}\":\"");
    let tail = text.len().checked_sub(marker.len() + 16 + 2)?;
    let (head, rest) = text.split_at(tail);
    let sum = rest.strip_prefix(marker.as_bytes())?.strip_suffix(b"\"}")?;
    let mut body = head.to_vec();
    body.push(b'}');
    Some((body, sum))
}

/// The largest frontier, part or checkpoint file read: a frontier of five million entries
/// (deeper than any split needs) is about 150 MB.
pub const MAX_JSON_FILE_BYTES: u64 = 256 << 20;

/// The reason given for an empty frontier, part or checkpoint file.
pub const EMPTY: &str = "it is empty";

/// What [`ClusterError::Replaced`] says of the file, to tell that error by its text.
pub const REPLACED: &str = "was replaced by another run while this search ran";

pub(crate) fn read_json<T: DeserializeOwned>(
    path: &Path,
    kind: &'static str,
) -> Result<T, ClusterError> {
    read_json_as(path, path, kind)
}

/// [`read_json`] of the file at `at`, its errors naming `path`: the file that was at
/// `path`, moved aside to be checked ([`write_atomic_unless`]).
pub(crate) fn read_json_as<T: DeserializeOwned>(
    at: &Path,
    path: &Path,
    kind: &'static str,
) -> Result<T, ClusterError> {
    let io = |error| ClusterError::Io {
        path: path.to_path_buf(),
        error,
    };
    let format = |reason: String| ClusterError::Format {
        path: path.to_path_buf(),
        kind,
        reason,
    };
    // Opened without blocking (a FIFO would wait for a writer for ever) and read to a
    // bound: a device or a huge file of someone else's is refused, not read into memory.
    let file = crate::pdb::open_nonblocking(at).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(format("not a regular file".into()));
    }
    if meta.len() > MAX_JSON_FILE_BYTES {
        return Err(format(format!(
            "{} bytes, more than any file of this kind ({} MiB at most)",
            meta.len(),
            MAX_JSON_FILE_BYTES >> 20
        )));
    }
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_JSON_FILE_BYTES + 1),
        &mut text,
    )
    .map_err(io)?;
    if text.len() as u64 > MAX_JSON_FILE_BYTES {
        return Err(format(format!(
            "larger than {} MiB, more than any file of this kind",
            MAX_JSON_FILE_BYTES >> 20
        )));
    }
    // An editor's byte order mark, or its CRLF line end, changes nothing of the content:
    // the file is read as it was written (and saved again without them).
    if text.starts_with(b"\xEF\xBB\xBF") {
        text.drain(..3);
    }
    if text.ends_with(b"\r\n") {
        text.remove(text.len() - 2);
    }
    let nuls = text.iter().filter(|&&b| b == 0).count();
    // (A file of zero bytes alone is a crash's debris, not text.)
    let utf16_nuls = nuls > 0 && nuls < text.len() && nuls * 3 >= text.len();
    if text.starts_with(b"\xFF\xFE") || text.starts_with(b"\xFE\xFF") || utf16_nuls {
        return Err(format(
            "it is UTF-16 text (re-encoded by an editor?): convert it back with \
             `iconv -f UTF-16 -t UTF-8 FILE > NEW` and give NEW"
                .into(),
        ));
    }
    if text.iter().all(u8::is_ascii_whitespace) {
        return Err(format(EMPTY.into()));
    }
    let value: serde_json::Value = serde_json::from_slice(&text).map_err(|e| {
        // Ours, cut short or damaged (its first field names the kind), or someone else's.
        let family = kind.split('/').next().unwrap_or(kind);
        if text.starts_with(format!("{{\"format\":\"{family}/").as_bytes()) {
            ClusterError::Damaged {
                path: path.to_path_buf(),
                reason: format!("a {kind} file cut short or damaged ({e})"),
            }
        } else {
            format(e.to_string())
        }
    })?;
    let serde_json::Value::Object(object) = value else {
        return Err(format("not a JSON object".into()));
    };
    match object.get("format").and_then(|f| f.as_str()) {
        Some(f) if f == kind => {}
        // Another version of the same kind: say so, rather than "not a file of this kind".
        Some(f) if kind.split('/').next() == f.split('/').next() => {
            return Err(ClusterError::Damaged {
                path: path.to_path_buf(),
                reason: format!(
                    "it is {f:?}, written by another version of fifteen (this one reads \"{kind}\")"
                ),
            })
        }
        _ => return Err(format(format!("its \"format\" field is not \"{kind}\""))),
    }
    let sound =
        split_checksum(&text).is_some_and(|(body, sum)| checksum_of(&body).as_bytes() == sum);
    if !sound {
        return Err(ClusterError::Damaged {
            path: path.to_path_buf(),
            reason: format!(
                "a {kind} file whose checksum does not match its content (damaged or edited)"
            ),
        });
    }
    serde_json::from_value(serde_json::Value::Object(object)).map_err(|e| format(e.to_string()))
}

/// The file's text: `t` as one JSON object with its [`CHECKSUM_FIELD`] added, and a newline.
pub(crate) fn to_json<T: Serialize>(t: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec(t).expect("plain data serializes");
    debug_assert_eq!(v.last(), Some(&b'}'), "the cluster files are objects");
    let sum = checksum_of(&v);
    v.pop();
    v.extend_from_slice(format!(",\"{CHECKSUM_FIELD}\":\"{sum}\"}}\n").as_bytes());
    v
}

/// " and N more", for a list cut short.
fn and_more(n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(" and {n} more")
    }
}

/// A weight as files keep it (`h/g`, `1`) as people give it: `2/1` is 2, `1234/1000` 1.234.
fn factor(weight: &str) -> String {
    let ratio = weight.split_once('/').and_then(|(h, g)| {
        let (h, g) = (h.parse::<f64>().ok()?, g.parse::<f64>().ok()?);
        (g != 0.0).then(|| h / g)
    });
    match ratio {
        Some(w) => format!("{}", (w * 1000.0).round() / 1000.0),
        None => weight.to_string(),
    }
}
