//! The files that carry one instance past one machine or one run: the split search's
//! frontier and parts, the reducer that adds the parts of an iteration up ([`reduce`]),
//! and the checkpoint of a long solve ([`Checkpoint`]).
//!
//! All are JSON, and each names the instance it belongs to ([`Identity`]: board, goal,
//! estimate, table partition, weight), so that a file is never combined with, or resumed
//! into, another search. Files are written to a temporary name in the same directory,
//! synced and renamed ([`write_atomic`]): a reader, or a process started after a kill,
//! sees the previous file or the new one, never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::board::{moves_to_string, Dir};
use crate::search::{Books, Weight};
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
    pub fn check(&self, path: &Path, asked: &Identity) -> Result<(), ClusterError> {
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
            ("weight", self.weight.clone(), asked.weight.clone()),
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
    /// Two files for the same part.
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
    #[error("parts missing: {missing:?} of 0..{parts} (no file for them)")]
    MissingParts {
        /// The missing parts' numbers.
        missing: Vec<u32>,
        /// How many parts there are.
        parts: u32,
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
    let io = |error| ClusterError::Io {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .map_or_else(|| std::ffi::OsString::from("file"), |n| n.to_os_string());
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

fn read_json<T: DeserializeOwned>(path: &Path, kind: &'static str) -> Result<T, ClusterError> {
    let text = std::fs::read_to_string(path).map_err(|error| ClusterError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let format = |reason: String| ClusterError::Format {
        path: path.to_path_buf(),
        kind,
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format(e.to_string()))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(kind) {
        return Err(format(format!("its \"format\" field is not \"{kind}\"")));
    }
    serde_json::from_value(value).map_err(|e| format(e.to_string()))
}

fn to_json<T: Serialize>(t: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec(t).expect("plain data serializes");
    v.push(b'\n');
    v
}

/// The `format` of a frontier file.
pub const FRONTIER_FORMAT: &str = "fifteen-split-frontier/1";
/// The `format` of a part file.
pub const PART_FORMAT: &str = "fifteen-split-part/1";
/// The `format` of a checkpoint file.
pub const CHECKPOINT_FORMAT: &str = "fifteen-checkpoint/1";

/// The frontier of a split search: every node at `depth`, written once for all its
/// iterations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierFile {
    /// [`FRONTIER_FORMAT`].
    pub format: String,
    /// The search.
    #[serde(flatten)]
    pub instance: Identity,
    /// The depth of the frontier's nodes.
    pub depth: u32,
    /// The parity every solution's length has (thresholds keep it).
    pub parity: u32,
    /// The first iteration's threshold: the start's estimate.
    pub first_threshold: u32,
    /// A digest of `entries`, which parts repeat so that the reducer knows they searched
    /// the same list.
    pub digest: String,
    /// The moves to each node, in the search's frame (the tables' mirror image of the
    /// board, when they need one), in search order.
    pub entries: Vec<String>,
}

impl FrontierFile {
    /// A frontier file for these entries (moves in the search's frame).
    pub fn new(
        instance: Identity,
        depth: u32,
        parity: u32,
        first_threshold: u32,
        entries: &[Vec<Dir>],
    ) -> FrontierFile {
        let entries: Vec<String> = entries.iter().map(|e| moves_to_string(e)).collect();
        FrontierFile {
            format: FRONTIER_FORMAT.into(),
            instance,
            depth,
            parity,
            first_threshold,
            digest: digest(&entries),
            entries,
        }
    }

    /// The entries as moves.
    ///
    /// # Errors
    /// [`ClusterError::Format`] for an entry that is not a move string.
    pub fn moves(&self, path: &Path) -> Result<Vec<Vec<Dir>>, ClusterError> {
        if digest(&self.entries) != self.digest {
            return Err(ClusterError::Format {
                path: path.to_path_buf(),
                kind: FRONTIER_FORMAT,
                reason: "its entries do not match their digest (edited or damaged)".into(),
            });
        }
        self.entries
            .iter()
            .map(|e| {
                crate::board::parse_moves(e).map_err(|err| ClusterError::Format {
                    path: path.to_path_buf(),
                    kind: FRONTIER_FORMAT,
                    reason: format!("entry {e:?}: {err}"),
                })
            })
            .collect()
    }

    /// Reads a frontier file.
    ///
    /// # Errors
    /// Unreadable, or not a frontier file.
    pub fn read(path: &Path) -> Result<FrontierFile, ClusterError> {
        read_json(path, FRONTIER_FORMAT)
    }

    /// Writes it (atomically).
    ///
    /// # Errors
    /// [`ClusterError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic(path, &to_json(self))
    }
}

fn digest(entries: &[String]) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for e in entries {
        h.update(e.as_bytes());
        h.update(b"\n");
    }
    format!("{:016x}", h.digest())
}

/// One task's share of one iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartFile {
    /// [`PART_FORMAT`].
    pub format: String,
    /// The search.
    #[serde(flatten)]
    pub instance: Identity,
    /// The frontier's depth.
    pub depth: u32,
    /// The parity of every solution's length.
    pub parity: u32,
    /// The frontier's digest.
    pub digest: String,
    /// The iteration's threshold.
    pub threshold: u32,
    /// This part's number, from 0.
    pub part: u32,
    /// How many parts the iteration has.
    pub parts: u32,
    /// Nodes of the top of the tree, the root included (the same in every part).
    pub top_nodes: u64,
    /// The smallest `f` over the threshold in the top (absent: none).
    pub top_next: Option<u32>,
    /// Nodes below this part's frontier entries.
    pub nodes: u64,
    /// The smallest `f` over the threshold below them (absent: none).
    pub next: Option<u32>,
    /// Frontier entries the top reached under this threshold.
    pub reached: u64,
    /// How many of them this part searched.
    pub searched: u64,
    /// A solution within the threshold, in the user's frame, from the start: checkable
    /// with `fifteen check BOARD --moves M`.
    pub moves: Option<String>,
    /// Wall time of this part, in milliseconds.
    pub millis: f64,
}

impl PartFile {
    /// Reads a part file.
    ///
    /// # Errors
    /// Unreadable, or not a part file.
    pub fn read(path: &Path) -> Result<PartFile, ClusterError> {
        read_json(path, PART_FORMAT)
    }

    /// Writes it (atomically).
    ///
    /// # Errors
    /// [`ClusterError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic(path, &to_json(self))
    }
}

/// What an iteration came to, once its parts are added up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The iteration's threshold.
    pub threshold: u32,
    /// Nodes of the whole iteration, the root included (the serial search's count, the
    /// last iteration aside).
    pub nodes: u64,
    /// The solution (user's frame), if a part found one: optimal, as every smaller
    /// threshold was exhausted.
    pub moves: Option<String>,
    /// Otherwise the next iteration's threshold.
    pub next_threshold: Option<u32>,
}

/// Adds up the parts of one iteration: all of `0..parts`, each once, for the same search,
/// frontier and threshold, with the same top of the tree.
///
/// # Errors
/// Missing, duplicate or mismatched parts; an iteration that exceeded nothing.
pub fn reduce(parts: &[(PathBuf, PartFile)]) -> Result<Reduced, ClusterError> {
    let Some((first_path, first)) = parts.first() else {
        return Err(ClusterError::NoParts);
    };
    let mut seen: Vec<Option<&PathBuf>> = vec![None; first.parts as usize];
    let mut nodes = first.top_nodes;
    let mut next = first.top_next.unwrap_or(u32::MAX);
    let mut moves = None;
    for (path, p) in parts {
        let disagree = |what, file: String, expected: String| ClusterError::PartsDisagree {
            path: path.clone(),
            first: first_path.clone(),
            what,
            file,
            expected,
        };
        p.instance
            .check(path, &first.instance)
            .map_err(|e| match e {
                ClusterError::Mismatch {
                    what, file, asked, ..
                } => disagree(what, file, asked),
                e => e,
            })?;
        let fields: [(&'static str, String, String); 6] = [
            (
                "threshold",
                p.threshold.to_string(),
                first.threshold.to_string(),
            ),
            ("frontier digest", p.digest.clone(), first.digest.clone()),
            ("depth", p.depth.to_string(), first.depth.to_string()),
            ("part count", p.parts.to_string(), first.parts.to_string()),
            (
                "top nodes",
                p.top_nodes.to_string(),
                first.top_nodes.to_string(),
            ),
            ("parity", p.parity.to_string(), first.parity.to_string()),
        ];
        for (what, file, expected) in fields {
            if file != expected {
                return Err(disagree(what, file, expected));
            }
        }
        let slot = seen.get_mut(p.part as usize).ok_or_else(|| {
            disagree(
                "part number",
                p.part.to_string(),
                format!("below {}", first.parts),
            )
        })?;
        if let Some(other) = slot {
            return Err(ClusterError::DuplicatePart {
                part: p.part,
                parts: p.parts,
                first: other.to_path_buf(),
                second: path.clone(),
            });
        }
        *slot = Some(path);
        nodes += p.nodes;
        next = next.min(p.next.unwrap_or(u32::MAX));
        if moves.is_none() {
            moves = p.moves.clone();
        }
    }
    let missing: Vec<u32> = (0..first.parts)
        .filter(|&k| seen[k as usize].is_none())
        .collect();
    if !missing.is_empty() {
        return Err(ClusterError::MissingParts {
            missing,
            parts: first.parts,
        });
    }
    let next_threshold = if moves.is_some() {
        None
    } else if next == u32::MAX {
        return Err(ClusterError::Exhausted(first.threshold));
    } else {
        Some(Weight::ONE.next_threshold(next, first.parity))
    };
    Ok(Reduced {
        threshold: first.threshold,
        nodes,
        moves,
        next_threshold,
    })
}

/// A long solve's checkpoint: the search it belongs to, its [`Books`], and, once
/// solved, the answer (so that running the command again prints it without searching).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The search.
    #[serde(flatten)]
    pub instance: Identity,
    /// Where the search is.
    #[serde(flatten)]
    pub books: Books,
    /// The solution's moves (user's frame), once found.
    pub moves: Option<String>,
    /// The proven lower bound that came with the solution.
    pub lower_bound: Option<u32>,
    /// The search's node count when it found the solution.
    pub nodes: Option<u64>,
}

impl Checkpoint {
    /// A fresh checkpoint for a search not yet started.
    pub fn new(instance: Identity) -> Checkpoint {
        Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            instance,
            books: Books::default(),
            moves: None,
            lower_bound: None,
            nodes: None,
        }
    }

    /// Reads the checkpoint at `path` for the search `asked`: `None` when there is no file
    /// yet.
    ///
    /// # Errors
    /// Unreadable, not a checkpoint, or one for another search ([`ClusterError::Mismatch`]).
    pub fn load(path: &Path, asked: &Identity) -> Result<Option<Checkpoint>, ClusterError> {
        if !path.exists() {
            return Ok(None);
        }
        let c: Checkpoint = read_json(path, CHECKPOINT_FORMAT)?;
        c.instance.check(path, asked)?;
        Ok(Some(c))
    }

    /// Saves it (atomically).
    ///
    /// # Errors
    /// [`ClusterError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic(path, &to_json(self))
    }
}
