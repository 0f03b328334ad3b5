//! The pattern databases of a Python process: the same tables, directory, defaults,
//! notices and build-on-first-use rules as `fifteen solve` (src/cli/table_cache.rs and
//! src/cli/solve/study.rs, `DEFAULT_STUDY = "pdb+pair+dual=large"`), opened once per
//! process and kept for its lifetime.
//!
//! The rules of building on first use and the notice said before are the library's
//! (`fifteen::pdb::notice`), shared with the command line. Notes and the build's progress
//! go to Python through [`crate::report`]: the library never prints, and neither does this
//! crate.
//!
//! Python's `tables_dir` and `load_tables` are at the end.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use fifteen::pdb::notice::{
    build_notice, builds_on_first_use, describe, partition_builds_on_first_use,
};
use fifteen::pdb::{self, BuildEvent, DualTables, Partition, PatternSpec, PdbHeuristic, TableDir};
use fifteen::rank::Ranker;
use fifteen::{Extras, HeuristicKind, Shape, Solver, TableError};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::goal;
use crate::report::{self, Build};

/// The command line's largest table (`cli::args::MAX_TABLE_ENTRIES`).
const MAX_TABLE_ENTRIES: u64 = 1 << 31;
/// Boards of at least this many cells get the dual lookups (`dual=large`).
const LARGE_CELLS: usize = 25;

/// The estimate `solve` uses for boards of one shape and goal blank: the first tables and
/// the extras, or `None` (linear conflict) when there are no tables.
#[derive(Clone)]
pub struct Set {
    pub first: Arc<PdbHeuristic>,
    pub extras: Extras,
}

type Key = (PathBuf, Shape, u8);

/// Every table set opened in this process (`None`: none to be had; the note was given).
static OPENED: Mutex<Option<HashMap<Key, Option<Set>>>> = Mutex::new(None);
/// The tables directories being opened or built in, each by one thread at a time, with
/// the process that took it: a claim made before a fork belongs to a thread the child does
/// not have, and the child takes it over. Per directory, not per table set: sets in one
/// directory may share files (and the temporary names their writing uses), while calls
/// on another directory need not wait for a build here.
static OPENING: Mutex<Option<HashMap<PathBuf, u32>>> = Mutex::new(None);

/// Forgets every table set opened: after a table file was written to while mapped
/// ([`fifteen::SolveError::TableChanged`]), the next call maps the files again (and checks
/// them again, their verification records no longer matching) instead of failing for the
/// rest of the process.
pub fn forget_opened() {
    let mut map = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    *map = None;
}

/// How often a call waiting for another thread's build looks at Ctrl-C.
const WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// A directory claimed in [`OPENING`]; released when dropped.
struct Claim(PathBuf);

impl Claim {
    fn try_take(dir: &Path) -> Option<Claim> {
        let mut map = OPENING.lock().unwrap_or_else(|e| e.into_inner());
        let map = map.get_or_insert_with(HashMap::new);
        let me = std::process::id();
        match map.get(dir) {
            Some(&pid) if pid == me => None,
            _ => {
                map.insert(dir.to_path_buf(), me);
                Some(Claim(dir.to_path_buf()))
            }
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut map = OPENING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = map.as_mut() {
            if m.get(&self.0) == Some(&std::process::id()) {
                m.remove(&self.0);
            }
        }
    }
}

/// The tables directory: `tables`, else `FIFTEEN_TABLES`, else the per-user directory
/// (`pdb::default_dir`), else `fifteen-tables` here, exactly as the command line.
pub fn directory(tables: Option<PathBuf>) -> PathBuf {
    tables
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(|| {
            std::env::var_os("FIFTEEN_TABLES")
                .filter(|v| !v.is_empty())
                .map(|v| pdb::expand_home(PathBuf::from(v)))
        })
        .unwrap_or_else(|| pdb::default_dir().unwrap_or_else(|| PathBuf::from("fifteen-tables")))
}

/// The solver `fifteen solve` would use for boards of this shape and goal blank.
pub fn solver(
    py: Python<'_>,
    dir: &Path,
    shape: Shape,
    goal_blank: usize,
    kind: HeuristicKind,
) -> PyResult<Solver> {
    if kind != HeuristicKind::Pdb {
        return Ok(Solver::new(kind));
    }
    Ok(match set(py, dir, shape, goal_blank)? {
        Some(s) => Solver::with_pdb(s.first).with_extras(s.extras),
        None => Solver::new(HeuristicKind::LinearConflict),
    })
}

/// The table set for this shape and goal blank, opened (or built) on first use.
pub fn set(py: Python<'_>, dir: &Path, shape: Shape, goal_blank: usize) -> PyResult<Option<Set>> {
    let key = (
        dir.to_path_buf(),
        shape,
        pdb::canonical_blank(shape, goal_blank),
    );
    let cached = |key: &Key| {
        let map = OPENED.lock().unwrap_or_else(|e| e.into_inner());
        map.as_ref().and_then(|m| m.get(key).cloned())
    };
    if let Some(s) = cached(&key) {
        return Ok(s);
    }
    // Another thread's build in this directory is waited for with the GIL released, so
    // that it can report its progress meanwhile, and Ctrl-C looked at every WAIT: a build
    // may take minutes.
    let place = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let _one = loop {
        if let Some(c) = Claim::try_take(&place) {
            break c;
        }
        crate::report::without_gil(py, || std::thread::sleep(WAIT));
        py.check_signals()?;
        if let Some(s) = cached(&key) {
            return Ok(s);
        }
    };
    if let Some(s) = cached(&key) {
        return Ok(s);
    }
    let mut opener = Opener {
        dir: TableDir::new(dir),
    };
    let s = opener.open_set(py, shape, key.2)?;
    OPENED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, s.clone());
    Ok(s)
}

struct Opener {
    dir: TableDir,
}

impl Opener {
    fn open_set(&mut self, py: Python<'_>, shape: Shape, blank: u8) -> PyResult<Option<Set>> {
        let Some(first) = self.partition(py, shape, blank, None)? else {
            return Ok(None);
        };
        let second = match Partition::second_for(shape, blank) {
            Some(p) => self.partition(py, shape, blank, Some(p))?,
            None => None,
        };
        let dual = if shape.cells() >= LARGE_CELLS {
            self.dual(py, &first)?
        } else {
            None
        };
        Ok(Some(Set {
            first,
            extras: Extras {
                second,
                walking: None,
                lazy: true,
                tie_break: false,
                dual,
                dual_second: None,
                more: Vec::new(),
            },
        }))
    }

    /// Says once why no tables serve these boards, and what the search does instead.
    fn tell(&self, py: Python<'_>, shape: Shape, second: bool, why: String) -> PyResult<()> {
        let text = if second {
            format!("note: {why}; solving {shape} boards with the first tables alone")
        } else {
            format!("note: {why}; solving {shape} boards with linear conflict instead")
        };
        report::note(py, &text)
    }

    /// The default partition's tables (or `second`'s), built when missing and quick.
    fn partition(
        &mut self,
        py: Python<'_>,
        shape: Shape,
        blank: u8,
        second: Option<Partition>,
    ) -> PyResult<Option<Arc<PdbHeuristic>>> {
        let is_second = second.is_some();
        if shape.cells() > pdb::MAX_TABLE_CELLS {
            let why = format!("pattern databases go up to {} cells", pdb::MAX_TABLE_CELLS);
            self.tell(py, shape, is_second, why)?;
            return Ok(None);
        }
        let partition = second.unwrap_or_else(|| Partition::default_for(shape, blank));
        for p in &partition.patterns {
            let entries = Ranker::checked_count(shape.cells(), p.len());
            if entries.is_none_or(|e| e > MAX_TABLE_ENTRIES) {
                let entries = entries.map_or("more than 2^64".to_string(), |e| e.to_string());
                return Err(PyOSError::new_err(format!(
                    "the {} partition's {}-tile pattern would make a table of {entries} entries \
                     for {shape} boards; a table may have at most {MAX_TABLE_ENTRIES} (2^31) \
                     entries: use smaller patterns",
                    partition.name(),
                    p.len()
                )));
            }
        }
        if partition.patterns.len() > pdb::MAX_PATTERNS {
            let why = format!(
                "the {} partition has more than {} patterns",
                partition.name(),
                pdb::MAX_PATTERNS
            );
            self.tell(py, shape, is_second, why)?;
            return Ok(None);
        }
        let missing = self.dir.missing(&partition);
        if !missing.is_empty() {
            if !partition_builds_on_first_use(&partition) {
                let command = pdb::build_pdb_command(
                    false,
                    Some(shape),
                    (blank != 0).then_some(blank),
                    None,
                    &self.dir.dir,
                );
                let why = format!(
                    "no {shape} tables in {}; build them with `{command}`, {BUILD_PDB}",
                    self.dir.dir.display()
                );
                self.tell(py, shape, is_second, why)?;
                return Ok(None);
            }
            let what = describe(&partition);
            self.build(py, &partition, &what, missing)?;
        }
        // SAFETY: table files are written once and replaced only by rename; nothing
        // truncates them while we run. Every table is checked before use: by the full
        // checksum pass, or by a record that the file is unchanged since one.
        let dir = self.dir.clone();
        let opened = report::blocking(
            py,
            &AtomicBool::new(false),
            || unsafe { dir.open(&partition) },
            |_| Ok(()),
        )?;
        Ok(Some(opened.map_err(table_error)?.heuristic))
    }

    /// The dual lookups of `first`'s tables (5x5 and up), built when missing and quick.
    fn dual(
        &mut self,
        py: Python<'_>,
        first: &Arc<PdbHeuristic>,
    ) -> PyResult<Option<Arc<DualTables>>> {
        let partition = &first.partition;
        let (shape, blank) = (partition.shape, partition.blank);
        let specs: Vec<_> = DualTables::specs(partition)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        let missing = self.dir.missing_of(specs);
        if !missing.is_empty() {
            if !builds_on_first_use(shape, &missing) {
                let command = pdb::build_pdb_command(
                    false,
                    Some(shape),
                    (blank != 0).then_some(blank),
                    None,
                    &self.dir.dir,
                );
                report::note(
                    py,
                    &format!(
                        "note: the dual lookups' tables for {shape} boards are missing; build \
                         them with `{command} --dual`, {BUILD_PDB}; solving without dual \
                         lookups"
                    ),
                )?;
                return Ok(None);
            }
            let what = format!("dual lookups of the {}", describe(partition));
            self.build(py, partition, &what, missing)?;
        }
        let dir = self.dir.clone();
        let first = first.clone();
        // SAFETY: as in `partition`.
        let d = report::blocking(
            py,
            &AtomicBool::new(false),
            || unsafe { dir.open_dual(first) },
            |_| Ok(()),
        )?;
        Ok(Some(Arc::new(d.map_err(table_error)?)))
    }

    /// The directory's build lock, waited for (said once) while another process holds
    /// it, Ctrl-C still heard.
    fn lock_builds(&self, py: Python<'_>) -> PyResult<pdb::BuildLock> {
        if let Some(lock) = self.dir.try_lock_builds().map_err(table_error)? {
            return Ok(lock);
        }
        report::note(
            py,
            &format!(
                "waiting: another process is building tables in {}",
                self.dir.dir.display()
            ),
        )?;
        let dir = self.dir.clone();
        loop {
            py.check_signals()?;
            let tried = report::without_gil(py, || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                dir.try_lock_builds()
            });
            if let Some(lock) = tried.map_err(table_error)? {
                return Ok(lock);
            }
        }
    }

    /// Builds `missing` (tables of `partition`'s boards), saying first what, where, how
    /// long and how big, as the command line does; the progress goes to Python. Ctrl-C
    /// stops it, leaving only whole tables.
    ///
    /// Under the directory's build lock ([`TableDir::lock_builds`]), waited for without
    /// the GIL and stopped by Ctrl-C; the tables another process built meanwhile are not
    /// built again.
    fn build(
        &mut self,
        py: Python<'_>,
        partition: &Partition,
        what: &str,
        missing: Vec<PatternSpec>,
    ) -> PyResult<()> {
        let t0 = Instant::now();
        let hint = "choose another directory with tables=DIR (or FIFTEEN_TABLES=DIR)";
        if let Err(e) = self.dir.check_writable() {
            let why = match &e {
                TableError::Io { error, .. } => error.to_string(),
                e => e.to_string(),
            };
            return Err(PyOSError::new_err(format!(
                "cannot write tables to {}: {why}; {hint}",
                self.dir.dir.display()
            )));
        }
        // The command line's lock on the directory: processes that start together (a
        // pool's workers, a notebook beside a `fifteen solve`) build each table once, the
        // others waiting, where each built them all, holding their memory at once.
        let _lock = self.lock_builds(py)?;
        let missing = self.dir.missing_of(missing);
        if missing.is_empty() {
            return Ok(());
        }
        report::note(py, &build_notice(&self.dir.dir, partition, what, &missing))?;
        let n = missing.len();
        let state = Mutex::new(Build::default());
        let stop = AtomicBool::new(false);
        let progress = |i: usize, spec: &PatternSpec, ev: BuildEvent| {
            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
            match ev {
                BuildEvent::Start { placements, .. } => {
                    s.label = format!(
                        "table {}/{n} ({} tiles, {placements} placements)",
                        i + 1,
                        spec.tiles.len()
                    );
                    s.done = 0;
                    s.total = 0;
                }
                BuildEvent::Expanded { depth, done, total } => {
                    s.depth = depth;
                    s.done = done;
                    s.total = total;
                }
                BuildEvent::Layer { .. } | BuildEvent::Work { .. } => {}
                BuildEvent::Saved { path } => s.saved.push(path.display().to_string()),
            }
        };
        let dir = self.dir.clone();
        // On the package's pool, not Rayon's global one: a forked child has the parent's
        // global pool without its threads, and cannot build another.
        let pool = crate::pool::pool(py, crate::pool::threads(None)?)?;
        let mut bar = report::Bar::start(py)?;
        let built = report::blocking(
            py,
            &stop,
            || pool.install(|| dir.build_or_stop(missing, &progress, &stop)),
            |py| {
                let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                bar.show(py, &mut s)
            },
        );
        {
            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
            bar.show(py, &mut s)?;
        }
        bar.close(py)?;
        match built? {
            Ok(_) => report::note(
                py,
                &format!("tables built in {:.1} s", t0.elapsed().as_secs_f64()),
            ),
            Err(TableError::Interrupted) => Err(PyOSError::new_err(format!(
                "table build interrupted; nothing partial was written (tables so far are in {})",
                self.dir.dir.display()
            ))),
            Err(e) if disk_full(&e) => Err(PyOSError::new_err(format!(
                "{e}; free some space in {} (nothing partial was left there), or {hint}",
                self.dir.dir.display()
            ))),
            Err(e) => Err(table_error(e)),
        }
    }
}

/// Where `build-pdb`, named in messages, comes from: `pip install` does not provide it.
const BUILD_PDB: &str = "the command line's `build-pdb`, which `cargo install --locked --path .` \
                         in fifteen's repository installs (pip does not)";

/// A table error as Python's `OSError`, with the command line's message, except its
/// advice: a damaged or mismatched table is to be deleted (the next call builds it again
/// when quick to build, as it builds a missing one), or rebuilt with the command line.
pub fn table_error(e: TableError) -> PyErr {
    let redo = |path: &Path, rebuild: &str| {
        format!(
            "delete it and call fifteen.load_tables (or any call that needs it), which \
             builds it again if it is one built on first use (up to 5x5); or rebuild \
             {} with `{rebuild}`, {BUILD_PDB}",
            path.display()
        )
    };
    PyOSError::new_err(match &e {
        TableError::Corrupt {
            path,
            reason,
            rebuild,
        } => format!(
            "{}: corrupt table: {reason}; {}",
            path.display(),
            redo(path, rebuild)
        ),
        TableError::Mismatch {
            path,
            reason,
            rebuild,
        } => format!(
            "{}: table does not match: {reason}; {}",
            path.display(),
            redo(path, rebuild)
        ),
        _ => e.to_string(),
    })
}

/// Whether an error is a full disk (or quota): the build's error then says what to do.
fn disk_full(e: &TableError) -> bool {
    use std::io::ErrorKind;
    matches!(e, TableError::Io { error, .. }
        if matches!(error.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded))
}

/// The tables directory a call with `tables` uses.
#[pyfunction]
#[pyo3(signature = (tables=None))]
pub fn tables_dir(tables: Option<PathBuf>) -> PathBuf {
    directory(tables)
}

/// Opens (building on first use, with the notice) the tables `solve` uses for boards of
/// this shape and goal; returns the partitions used (empty: none, linear conflict).
#[pyfunction]
#[pyo3(signature = (rows, cols, goal_tiles, tables=None))]
pub fn load_tables(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    tables: Option<PathBuf>,
) -> PyResult<Vec<String>> {
    let g = goal(goal_tiles, rows, cols)?;
    let dir = directory(tables);
    Ok(match set(py, &dir, g.shape(), g.blank())? {
        None => vec![],
        Some(s) => {
            let mut names = vec![s.first.partition.name()];
            if let Some(p) = &s.extras.second {
                names.push(format!("second {}", p.partition.name()));
            }
            if s.extras.dual.is_some() {
                names.push("dual".to_string());
            }
            names
        }
    })
}
