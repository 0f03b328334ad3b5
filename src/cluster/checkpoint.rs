//! The checkpoint of a long solve (`solve --checkpoint FILE`): the search's books, saved
//! atomically as it goes, and the answer once found.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{read_json, read_json_as, to_json, write_atomic_unless, ClusterError, Identity};
use crate::search::Books;

/// The `format` of a checkpoint file. Its books number an iteration's subtrees in the
/// order the search reaches them, so any change to that order needs a new version, or a
/// resumed search would skip subtrees it never searched. Version 3: the search prunes
/// duplicate paths with its move automaton, which changes the subtrees an iteration's top
/// reaches. Version 4: children of equal estimate are ordered by a second value
/// ([`crate::search::Heuristic::rank`]), which changes their order.
pub const CHECKPOINT_FORMAT: &str = "fifteen-checkpoint/4";

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
        c.instance.must_match(path, asked)?;
        Ok(Some(c))
    }

    /// Saves it (atomically), unless the file at `path` is no longer this search's: a
    /// checkpoint of another search, or anything else, written there since this one was
    /// read or last saved (another run given the same path). Each save would otherwise
    /// destroy the other run's work, and each run would be told its own was kept.
    ///
    /// # Errors
    /// [`ClusterError::Replaced`], [`ClusterError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic_unless(path, &to_json(self), |at| self.still_ours(path, at))
    }

    /// Whether the file at `at` (the one that was at `path`, [`Checkpoint::save`]) is
    /// absent or this search's checkpoint.
    fn still_ours(&self, path: &Path, at: &Path) -> Result<(), ClusterError> {
        if std::fs::symlink_metadata(at).is_ok() {
            let replaced = |reason: String| ClusterError::Replaced {
                path: path.to_path_buf(),
                reason,
            };
            match read_json_as::<Checkpoint>(at, path, CHECKPOINT_FORMAT) {
                Ok(on_disk) => match on_disk.instance.must_match(path, &self.instance) {
                    Ok(()) => {}
                    Err(ClusterError::Mismatch {
                        what, file, asked, ..
                    }) => {
                        return Err(replaced(format!(
                            "it is now a checkpoint of another search: its {what} is {file}, \
                             this one's is {asked}"
                        )))
                    }
                    Err(e) => return Err(replaced(e.to_string())),
                },
                Err(e) => return Err(replaced(format!("it is no longer a checkpoint: {e}"))),
            }
        }
        Ok(())
    }
}
