//! A directory of tables: where each file goes, which are missing, building those, and
//! opening a partition's tables as one heuristic.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::error::TableError;

use super::build::{build_or_stop, BuildEvent, Built};
use super::command::UNKNOWN_PARTITION;
use super::dual::DualTables;
use super::heuristic::PdbHeuristic;
use super::partition::{Partition, PatternSpec};
use super::table::{save, Table};
use super::verified::Verified;

/// A partition's tables, mapped and checked for searching ([`TableDir::open`]).
pub struct Opened {
    /// The tables as one estimate.
    pub heuristic: Arc<PdbHeuristic>,
    /// How each table (in the partition's order) was found sound: by its verification
    /// record, or by the full checksum pass.
    pub checks: Vec<Verified>,
}

/// A table directory's build lock ([`TableDir::lock_builds`]), held until dropped.
pub struct BuildLock {
    _dir: Option<std::fs::File>,
}

/// Where tables live and how to get them: opened if present, built if not.
#[derive(Clone, Debug)]
pub struct TableDir {
    /// The directory; it need not exist until a table is saved.
    pub dir: PathBuf,
}

impl TableDir {
    /// The tables in `dir`. Touches nothing on disk.
    pub fn new(dir: impl Into<PathBuf>) -> TableDir {
        TableDir { dir: dir.into() }
    }

    /// Where the table for `spec` lives in this directory, whether or not it is there.
    pub fn path(&self, spec: &PatternSpec) -> PathBuf {
        self.dir.join(spec.file_name())
    }

    /// Which of the partition's tables are missing.
    pub fn missing(&self, partition: &Partition) -> Vec<PatternSpec> {
        self.missing_of(partition.specs())
    }

    /// Which of these tables are missing: no file of their name at all. A name that is
    /// there but cannot be opened (a symbolic link to a disk that is not mounted, say) is
    /// not missing: opening it says what is wrong, where building the table would replace
    /// the link unasked.
    pub fn missing_of(&self, specs: Vec<PatternSpec>) -> Vec<PatternSpec> {
        specs
            .into_iter()
            .filter(|s| std::fs::symlink_metadata(self.path(s)).is_err())
            .collect()
    }

    /// The region tables of the partition's dual lookups ([`DualTables::specs`]) that are
    /// missing.
    pub fn missing_dual(&self, partition: &Partition) -> Vec<PatternSpec> {
        self.missing_of(
            DualTables::specs(partition)
                .into_iter()
                .map(|(_, s)| s)
                .collect(),
        )
    }

    /// Builds and saves the tables that are missing.
    ///
    /// # Errors
    /// A failed build or write.
    pub fn build_missing(
        &self,
        partition: &Partition,
        progress: &(dyn Fn(usize, &PatternSpec, BuildEvent) + Sync),
    ) -> Result<Vec<(PatternSpec, Built)>, TableError> {
        self.build_missing_or_stop(partition, progress, &AtomicBool::new(false))
    }

    /// [`TableDir::build_missing`] that gives up when `stop` is set (by a Ctrl-C handler,
    /// say): within a fraction of a second, leaving the tables already saved (each one
    /// complete) and no partial file.
    ///
    /// # Errors
    /// A failed build or write; [`TableError::Interrupted`] when stopped.
    pub fn build_missing_or_stop(
        &self,
        partition: &Partition,
        progress: &(dyn Fn(usize, &PatternSpec, BuildEvent) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<(PatternSpec, Built)>, TableError> {
        let _lock = self.lock_builds()?;
        self.build_or_stop(self.missing(partition), progress, stop)
    }

    /// Takes the directory's build lock if no other process holds it: `None` when one
    /// does. See [`TableDir::lock_builds`].
    ///
    /// # Errors
    /// A directory that cannot be created or opened.
    pub fn try_lock_builds(&self) -> Result<Option<BuildLock>, TableError> {
        let dir = self.open_for_lock()?;
        match dir.try_lock() {
            Ok(()) => {
                self.remove_stale_temporaries();
                Ok(Some(BuildLock { _dir: Some(dir) }))
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            // A file system without locks: build without one (each table is still saved
            // whole, by rename, so two builders both end with sound tables).
            Err(std::fs::TryLockError::Error(_)) => Ok(Some(BuildLock { _dir: None })),
        }
    }

    /// Waits for, and takes, the directory's build lock: an advisory lock (`flock`) on the
    /// directory itself, so no file is added, that the system releases when its holder
    /// ends however it ends. Two processes that would build the same tables (the first
    /// runs of two `solve`s, say) then build them once: the second waits, and finds them
    /// there. Readers take no lock: a table is only ever replaced by rename, which leaves
    /// every open mapping as it was.
    ///
    /// # Errors
    /// A directory that cannot be created or opened.
    pub fn lock_builds(&self) -> Result<BuildLock, TableError> {
        let dir = self.open_for_lock()?;
        match dir.lock() {
            Ok(()) => {
                self.remove_stale_temporaries();
                Ok(BuildLock { _dir: Some(dir) })
            }
            Err(_) => Ok(BuildLock { _dir: None }),
        }
    }

    /// Removes the temporary files of table saves that never finished (`.NAME.pdb.PID.tmp`,
    /// see [`super::table::save`]): a builder ended by SIGKILL, or by a signal while it
    /// wrote, leaves one as large as its table. Called with the build lock held, which
    /// every builder takes before it writes one, so none of them is being written.
    fn remove_stale_temporaries(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let stale = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(".tmp"))
                .and_then(|n| n.rsplit_once(".pdb."))
                .is_some_and(|(table, pid)| {
                    !table.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
                });
            if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    fn open_for_lock(&self) -> Result<std::fs::File, TableError> {
        let io = |error| TableError::Io {
            path: self.dir.clone(),
            error,
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        std::fs::File::open(&self.dir).map_err(io)
    }

    /// Builds and saves these tables, giving up when `stop` is set (as
    /// [`TableDir::build_missing_or_stop`]). Hold the build lock ([`TableDir::lock_builds`])
    /// while calling it, as every caller here does: another builder taking the lock removes
    /// the temporary files it finds, which it takes for those of builders that died.
    ///
    /// # Errors
    /// A failed build or write; [`TableError::Interrupted`] when stopped.
    pub fn build_or_stop(
        &self,
        specs: Vec<PatternSpec>,
        progress: &(dyn Fn(usize, &PatternSpec, BuildEvent) + Sync),
        stop: &AtomicBool,
    ) -> Result<Vec<(PatternSpec, Built)>, TableError> {
        let mut out = Vec::new();
        for (i, spec) in specs.into_iter().enumerate() {
            let built = build_or_stop(&spec, &|e| progress(i, &spec, e), stop)?;
            let path = save(&self.dir, &spec, &built)?;
            progress(i, &spec, BuildEvent::Saved { path });
            out.push((spec, built));
        }
        Ok(out)
    }

    /// Makes sure tables can be saved here before any is built: creates the directory and
    /// writes and removes a small file, so that a read-only place fails at once rather than
    /// after minutes of building.
    ///
    /// # Errors
    /// [`TableError::Io`] naming the directory (or the probe file) and the reason.
    pub fn check_writable(&self) -> Result<(), TableError> {
        let fail = |path: &Path| {
            let path = path.to_path_buf();
            move |error| TableError::Io { path, error }
        };
        if let Ok(meta) = std::fs::metadata(&self.dir) {
            if !meta.is_dir() {
                // create_dir_all would say "File exists", which reads as the wrong problem.
                let error = std::io::Error::new(
                    std::io::ErrorKind::NotADirectory,
                    "it is there, and not a directory",
                );
                return Err(fail(&self.dir)(error));
            }
        }
        std::fs::create_dir_all(&self.dir).map_err(fail(&self.dir))?;
        let probe = self
            .dir
            .join(format!(".write-test.{}.tmp", std::process::id()));
        let written = std::fs::write(&probe, b"fifteen");
        // Removed whether the write worked or not: a full disk creates the file, then
        // fails to fill it, and each run would leave one more behind.
        let removed = std::fs::remove_file(&probe);
        written.map_err(fail(&self.dir))?;
        removed.map_err(fail(&probe))
    }

    /// `e` with the command that rebuilds its table naming `partition`: a table alone
    /// knows its own pattern, not the others it was built with, where the caller does.
    fn rebuilt_with(&self, e: TableError, partition: &Partition) -> TableError {
        let command = || {
            super::build_pdb_command(
                true,
                Some(partition.shape),
                Some(partition.blank),
                Some(&partition.name()),
                &self.dir,
            )
        };
        match e {
            TableError::Corrupt {
                path,
                reason,
                rebuild,
            } if rebuild.contains(UNKNOWN_PARTITION) => TableError::Corrupt {
                path,
                reason,
                rebuild: command(),
            },
            TableError::Mismatch {
                path,
                reason,
                rebuild,
            } if rebuild.contains(UNKNOWN_PARTITION) => TableError::Mismatch {
                path,
                reason,
                rebuild: command(),
            },
            e => e,
        }
    }

    /// Maps the partition's tables.
    ///
    /// # Safety
    /// As [`Table::map`]: the files must not be truncated or rewritten in place while the
    /// heuristic lives.
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub unsafe fn map(&self, partition: &Partition) -> Result<Arc<PdbHeuristic>, TableError> {
        let mut tables = Vec::new();
        for spec in partition.specs() {
            // SAFETY: forwarded to our caller.
            let table = unsafe { Table::map(&self.path(&spec), &spec) };
            tables.push(table.map_err(|e| self.rebuilt_with(e, partition))?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }

    /// Maps the partition's tables and makes sure each is sound before any search uses it
    /// ([`Table::ensure_verified`]): a table whose verification record matches the file as it is
    /// now is trusted without reading it; any other is read in full and its checksum
    /// compared (then recorded, where the directory allows).
    ///
    /// # Safety
    /// As [`TableDir::map`].
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub unsafe fn open(&self, partition: &Partition) -> Result<Opened, TableError> {
        // SAFETY: forwarded to our caller.
        let heuristic = unsafe { self.map(partition) }?;
        let checks = heuristic
            .tables
            .iter()
            .zip(partition.specs())
            .map(|(table, spec)| table.ensure_verified(&spec))
            .collect::<Result<_, _>>()
            .map_err(|e| self.rebuilt_with(e, partition))?;
        Ok(Opened { heuristic, checks })
    }

    /// Maps and checks (as [`TableDir::open`]) the region tables of the dual lookups of
    /// `pdb`'s partition.
    ///
    /// # Safety
    /// As [`TableDir::map`].
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub unsafe fn open_dual(&self, pdb: Arc<PdbHeuristic>) -> Result<DualTables, TableError> {
        let mut tables = Vec::new();
        for (_, spec) in DualTables::specs(&pdb.partition) {
            // SAFETY: forwarded to our caller.
            let table = unsafe { Table::map(&self.path(&spec), &spec) }?;
            table.ensure_verified(&spec)?;
            tables.push(table);
        }
        DualTables::new(pdb, tables)
    }

    /// Reads the partition's tables into memory, verifying checksums.
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub fn read(&self, partition: &Partition) -> Result<Arc<PdbHeuristic>, TableError> {
        let mut tables = Vec::new();
        for spec in partition.specs() {
            let table = Table::read(&self.path(&spec), &spec);
            tables.push(table.map_err(|e| self.rebuilt_with(e, partition))?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }
}

/// `path` with a leading `~` (alone, or before a `/`) made the home directory, as a shell
/// makes it of a word it sees: `FIFTEEN_TABLES='~/tables'`, quoted in a job script or set
/// from a notebook, would otherwise make a directory named `~` wherever the job runs.
/// Unchanged without a leading `~` or without `HOME`.
pub fn expand_home(path: PathBuf) -> PathBuf {
    let Some(text) = path.to_str() else {
        return path;
    };
    let rest = match text.strip_prefix('~') {
        Some("") => "",
        Some(r) if r.starts_with('/') => &r[1..],
        _ => return path,
    };
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) if rest.is_empty() => PathBuf::from(home),
        Some(home) => PathBuf::from(home).join(rest),
        None => path,
    }
}

/// The per-user tables directory, the platform's convention for application data:
/// `$XDG_DATA_HOME/fifteen`, else `~/.local/share/fifteen` (Linux and other Unixes),
/// `~/Library/Application Support/fifteen` (macOS), `%LOCALAPPDATA%\\fifteen` (Windows).
/// One place per user, so that an installed `fifteen` finds its tables from any directory.
/// `None` when the environment names no home (then the caller must be told where).
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library/Application Support")
    } else {
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        match var("XDG_DATA_HOME").filter(|p| p.is_absolute()) {
            Some(d) => d,
            None => var("HOME")?.join(".local/share"),
        }
    };
    Some(base.join("fifteen"))
}
