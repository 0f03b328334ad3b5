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

pub mod checkpoint;
pub mod merge;
pub mod results;
pub mod shard;
pub mod split;

pub use checkpoint::{Checkpoint, CHECKPOINT_FORMAT};
pub use split::{
    frontier, reduce, search_part, FrontierFile, PartFile, PartResult, Reduced, SplitSearchError,
    FRONTIER_FORMAT, PART_FORMAT,
};

use std::io::Write;
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

/// Writes `bytes` to `path` through a temporary file in the same directory, synced, then
/// renamed over `path`.
///
/// # Errors
/// [`ClusterError::Io`] when any step fails (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ClusterError> {
    write_through_temporary(path, bytes, None::<fn(&Path) -> Result<(), ClusterError>>)
}

/// [`write_atomic`], unless the file at `path` fails `check` (given where that file is to
/// be read: `path`, or the temporary name it was moved to), and then writing nothing.
///
/// On Linux the new file and the old one trade names in one step (`renameat2` with
/// `RENAME_EXCHANGE`), the old one is checked under the temporary name, and one that fails
/// is given its name back: a file put at `path` by another process at any moment is never
/// lost, only moved aside for microseconds (a second replacement within those
/// microseconds is put back by its predecessor, which the next save finds as foreign as
/// the first). Elsewhere, or on a file system without the exchange, `check` looks at
/// `path` just before the rename, the slow part (the sync) behind it, which leaves those
/// microseconds open to a replacement that the rename then destroys.
pub(crate) fn write_atomic_unless(
    path: &Path,
    bytes: &[u8],
    check: impl Fn(&Path) -> Result<(), ClusterError>,
) -> Result<(), ClusterError> {
    write_through_temporary(path, bytes, Some(check))
}

/// [`write_atomic_unless`] with a check, [`write_atomic`] (a plain rename) without.
fn write_through_temporary(
    path: &Path,
    bytes: &[u8],
    check: Option<impl Fn(&Path) -> Result<(), ClusterError>>,
) -> Result<(), ClusterError> {
    let io = |error| ClusterError::Io {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .map_or_else(|| std::ffi::OsString::from("file"), |n| n.to_os_string());
    // The process id and a count: two threads saving the same file (a batch holding one
    // instance twice) each rename their own temporary file.
    static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".tmp{}.{n}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        f.metadata()
    })();
    let ours = match written {
        Ok(meta) => meta,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
    };
    let placed = match &check {
        Some(check) => place(&tmp, path, check, &ours),
        None => std::fs::rename(&tmp, path).map_err(Placing::Io),
    };
    if !matches!(placed, Err(Placing::Stranded(_))) {
        let _ = std::fs::remove_file(&tmp);
    }
    match placed {
        Ok(()) => {
            remove_stale_temporaries(path, &name);
            Ok(())
        }
        Err(Placing::Refused(e)) => Err(e),
        Err(Placing::Io(e)) => Err(io(e)),
        Err(Placing::Stranded(e)) => Err(io(std::io::Error::new(
            e.kind(),
            format!(
                "a file that was there, not this search's, is now {} and could not be \
                 given its name back ({e}): look at both, and rename the one to keep",
                tmp.display()
            ),
        ))),
    }
}

/// Why [`place`] did not put the new file in place.
enum Placing {
    /// The file there failed the check (and is there still).
    Refused(ClusterError),
    Io(std::io::Error),
    /// The file that was at `path` failed the check and could not be moved back from the
    /// temporary name: it is there, and must not be removed with it.
    Stranded(std::io::Error),
}

/// Puts the file at `tmp` in place of `path` if what is at `path` passes `check` (see
/// [`write_atomic_unless`]). Afterwards `tmp` holds nothing of value: the old file passed
/// its check, or the new one was not placed.
fn place(
    tmp: &Path,
    path: &Path,
    check: &impl Fn(&Path) -> Result<(), ClusterError>,
    ours: &std::fs::Metadata,
) -> Result<(), Placing> {
    #[cfg(target_os = "linux")]
    {
        // Each round either places the file or learns why not; another round is needed
        // only when a file appears at `path` between the two steps of an empty one.
        for _ in 0..100 {
            match swap_names(tmp, path, libc::RENAME_EXCHANGE) {
                Ok(()) => {
                    // `tmp` now holds what was at `path`.
                    pause_for_tests();
                    return match check(tmp) {
                        Ok(()) => Ok(()),
                        Err(refused) => {
                            swap_names(tmp, path, libc::RENAME_EXCHANGE)
                                .map_err(Placing::Stranded)?;
                            // What comes back is the file written here, unless yet another
                            // was put at `path` meanwhile: that one is kept, not removed.
                            use std::os::unix::fs::MetadataExt;
                            match std::fs::symlink_metadata(tmp) {
                                Ok(m) if m.ino() == ours.ino() && m.dev() == ours.dev() => {
                                    Err(Placing::Refused(refused))
                                }
                                _ => Err(Placing::Stranded(std::io::Error::other(
                                    "another file was put in its place meanwhile",
                                ))),
                            }
                        }
                    };
                }
                // Nothing at `path`: placed only if still nothing is there.
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                    match swap_names(tmp, path, libc::RENAME_NOREPLACE) {
                        Ok(()) => return Ok(()),
                        Err(e) if e.raw_os_error() == Some(libc::EEXIST) => continue,
                        Err(e) if unsupported(&e) => break,
                        Err(e) => return Err(Placing::Io(e)),
                    }
                }
                Err(e) if unsupported(&e) => break,
                Err(e) => return Err(Placing::Io(e)),
            }
        }
    }
    let _ = ours;
    check(path).map_err(Placing::Refused)?;
    pause_for_tests();
    std::fs::rename(tmp, path).map_err(Placing::Io)
}

/// A test knob: `FIFTEEN_TEST_SAVE_PAUSE_MS=N` holds every save N ms where another
/// process's file could meet it (after the exchange, or between the check and the plain
/// rename), so that a test can put a file there then.
fn pause_for_tests() {
    if let Some(ms) = std::env::var("FIFTEEN_TEST_SAVE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// `renameat2(from, to, flags)`.
#[cfg(target_os = "linux")]
fn swap_names(from: &Path, to: &Path, flags: libc::c_uint) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
    };
    let (from, to) = (c(from)?, c(to)?);
    // SAFETY: two NUL-terminated paths that live across the call.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            flags,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Whether a `renameat2` failed for want of the flag's support (an old kernel, or a file
/// system without it), so that a plain rename is the way.
#[cfg(target_os = "linux")]
fn unsupported(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    )
}

/// A temporary file older than this was left by a writer that died (a save takes well
/// under a second); one younger may be another process's save under way.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files of `path` (named `.NAME.tmpPID.N`) that a killed writer
/// left, once they are [`STALE_AFTER`] old: best effort, as a leftover is never read. By
/// age, not by process id: the directory may be shared with other machines, whose
/// process ids mean nothing here.
fn remove_stale_temporaries(path: &Path, name: &std::ffi::OsStr) {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let prefix = format!(".{}.tmp", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        // `PID.N`, digits only: nothing else that starts so is ours.
        let ours = rest
            .split_once('.')
            .is_some_and(|(pid, n)| is_digits(pid) && is_digits(n));
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if ours && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
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

#[cfg(test)]
mod tests {
    use super::write_atomic;

    /// Two threads saving one file (a batch holding an instance twice): every save
    /// succeeds, and the file is always one of them whole.
    #[test]
    fn threads_saving_one_file_each_rename_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.checkpoint");
        let texts = [vec![b'a'; 40_000], vec![b'b'; 20_000]];
        std::thread::scope(|s| {
            for text in &texts {
                let (path, texts) = (&path, &texts);
                s.spawn(move || {
                    for _ in 0..200 {
                        write_atomic(path, text).unwrap();
                        let now = std::fs::read(path).unwrap();
                        assert!(texts.contains(&now), "a torn file: {} bytes", now.len());
                    }
                });
            }
        });
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
    }

    /// A save removes the temporary files of its file that a killed writer left (old
    /// ones), and nothing else: not a save that may be under way, not another file's.
    #[test]
    fn a_save_removes_what_a_killed_save_left() {
        let dir = tempfile::tempdir().unwrap();
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        let make = |name: &str, old: bool| {
            let f = std::fs::File::create(dir.path().join(name)).unwrap();
            if old {
                f.set_modified(two_hours_ago).unwrap();
            }
        };
        make(".x.checkpoint.tmp123.4", true);
        make(".x.checkpoint.tmp124.5", false);
        make(".x.checkpoint.tmpfoo", true);
        make(".y.checkpoint.tmp1.1", true);
        write_atomic(&dir.path().join("x.checkpoint"), b"{}").unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".x.checkpoint.tmp124.5",
                ".x.checkpoint.tmpfoo",
                ".y.checkpoint.tmp1.1",
                "x.checkpoint"
            ]
        );
    }
}
