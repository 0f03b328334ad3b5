//! The pattern databases a run has opened, by board shape and goal blank: found, built on
//! first use when that is quick, or reported absent (the boards are then solved with linear
//! conflict, with one note per table set).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;

use super::args;
use super::output::inform;
use super::progress::{
    announce, announce_tables, build_tables_with_bar, build_with_bar, building, describe,
};
use super::INTERRUPTED;
use crate::pdb::{self, DualTables, Partition, PdbHeuristic, TableDir};
use crate::Shape;

/// Table sets opened so far, by (shape, blank cell of the tables).
pub struct TableCache {
    dir: TableDir,
    map: HashMap<(Shape, u8, Option<String>), Arc<PdbHeuristic>>,
    /// No notes, no progress (for `play`, which owns the screen).
    quiet: bool,
    /// A partition asked for with `--partition`, instead of the default.
    partition: Option<String>,
    /// Build missing tables (otherwise report them as absent).
    build: bool,
    /// Seconds spent building tables (not counted as solving time).
    pub build_secs: f64,
    /// Dual lookups opened (or found missing) so far, by the tables they read.
    duals: Vec<(Arc<PdbHeuristic>, Option<Arc<DualTables>>)>,
    /// Table sets already reported missing: shape, blank, whether a second partition's.
    told: Vec<(Shape, u8, bool)>,
    /// The search is optimal and could be weighted (`solve`, `bench` without `--weight`):
    /// the note on boards beyond the tables says once that `--weight` answers them.
    suggest_weight: bool,
    /// Whether that has been said.
    suggested: bool,
}

impl TableCache {
    /// A cache over the tables in `dir`. `build`: build missing tables when quick;
    /// `quiet`: print nothing.
    pub fn new(dir: &Path, partition: Option<String>, build: bool, quiet: bool) -> TableCache {
        TableCache {
            dir: TableDir::new(dir),
            map: HashMap::new(),
            quiet,
            partition,
            build,
            build_secs: 0.0,
            duals: Vec::new(),
            told: Vec::new(),
            suggest_weight: false,
            suggested: false,
        }
    }

    /// Says, in the note on boards beyond the tables (6x6), that random ones are out of
    /// reach of an optimal search and that `--weight` answers them: for a search that is
    /// optimal and could be weighted.
    pub fn suggest_weight(mut self, suggest: bool) -> TableCache {
        self.suggest_weight = suggest;
        self
    }

    /// The pattern databases for boards of this shape and goal blank, built if missing and
    /// quick to build; `None` when there are none (a note says so once).
    pub fn get(&mut self, shape: Shape, goal_blank: usize) -> Result<Option<Arc<PdbHeuristic>>> {
        let partition = self.partition.clone();
        self.fetch(shape, goal_blank, partition, false)
    }

    /// [`TableCache::get`] for a second partition, spelled `text`, whose tables are max'd
    /// with the first's: when they are missing and not built, the note says the search goes
    /// on with the first tables alone.
    pub fn get_second(
        &mut self,
        shape: Shape,
        goal_blank: usize,
        text: String,
    ) -> Result<Option<Arc<PdbHeuristic>>> {
        self.fetch(shape, goal_blank, Some(text), true)
    }

    /// The dual lookups of `first`'s tables, with the region tables they need (built when
    /// missing and building is allowed); `None` when those are missing and not built.
    pub fn get_dual(&mut self, first: &Arc<PdbHeuristic>) -> Result<Option<Arc<DualTables>>> {
        let key = (first.partition.shape, first.partition.blank);
        if let Some((_, d)) = self.duals.iter().find(|(p, _)| Arc::ptr_eq(p, first)) {
            return Ok(d.clone());
        }
        let partition = &first.partition;
        let specs: Vec<_> = DualTables::specs(partition)
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        let missing = self.dir.missing_of(specs.clone());
        if !missing.is_empty() {
            // Built unasked only when quick (`pdb::notice::builds_on_first_use`).
            if !self.build || !pdb::notice::builds_on_first_use(partition.shape, &missing) {
                if !self.quiet {
                    let command = pdb::build_pdb_command(
                        false,
                        Some(key.0),
                        (key.1 != 0).then_some(key.1),
                        self.partition.as_deref(),
                        &self.dir.dir,
                    );
                    inform!(
                        "note: the dual lookups' tables for {} boards are missing; build \
                         them with `{command} --dual`; solving without dual lookups",
                        key.0
                    );
                }
                self.duals.push((first.clone(), None));
                return Ok(None);
            }
            let t = Instant::now();
            let what = format!("dual lookups of the {}", describe(partition));
            let hint = "choose another directory with --tables DIR (or FIFTEEN_TABLES=DIR)";
            let _building = building();
            announce_tables(&self.dir, partition, &what, &missing, hint)?;
            build_tables_with_bar(&self.dir, specs, false, !self.quiet, &INTERRUPTED)?;
            inform!("tables built in {:.1} s", t.elapsed().as_secs_f64());
            self.build_secs += t.elapsed().as_secs_f64();
        }
        // SAFETY: as in `fetch`.
        let d = Arc::new(unsafe { self.dir.open_dual(first.clone()) }?);
        self.duals.push((first.clone(), Some(d.clone())));
        Ok(Some(d))
    }

    /// The tables of the partition named by `text` (`None`: the default one).
    fn fetch(
        &mut self,
        shape: Shape,
        goal_blank: usize,
        text: Option<String>,
        second: bool,
    ) -> Result<Option<Arc<PdbHeuristic>>> {
        let blank = pdb::canonical_blank(shape, goal_blank);
        let key = (shape, blank, text.clone());
        if let Some(p) = self.map.get(&key) {
            return Ok(Some(p.clone()));
        }
        // Before the partition: a --partition for other boards must not stop a batch's
        // boards that no table can serve anyway.
        if shape.cells() > pdb::MAX_TABLE_CELLS {
            let mut why = format!("pattern databases go up to {} cells", pdb::MAX_TABLE_CELLS);
            if self.suggest_weight && !self.suggested && !self.quiet {
                self.suggested = true;
                why += &format!(
                    " (random {shape} boards are usually out of reach of an optimal search: \
                     --weight 3 gives an answer at most 3 times optimal, usually within a \
                     second)"
                );
            }
            self.tell(shape, blank, second, why);
            return Ok(None);
        }
        let partition = args::partition(shape, blank, text.as_deref())?;
        if !self.dir.missing(&partition).is_empty() {
            if !self.build || !pdb::notice::partition_builds_on_first_use(&partition) {
                let command = pdb::build_pdb_command(
                    false,
                    Some(shape),
                    (blank != 0).then_some(blank),
                    text.as_deref(),
                    &self.dir.dir,
                );
                self.tell(
                    shape,
                    blank,
                    second,
                    format!(
                        "no {shape} tables{} in {}; build them with `{command}`",
                        // Which ones: the directory may hold others (the default's, for
                        // the goal with the blank in a corner).
                        match (text.as_deref(), blank) {
                            (Some(p), _) => format!(" of the partition {p}"),
                            (None, 0) => String::new(),
                            (None, b) => format!(" for a goal with the blank in cell {b}"),
                        },
                        self.dir.dir.display()
                    ) + if shape.cells() >= 25 && !second {
                        " (without them an optimal search of a random board this size can \
                         take hours)"
                    } else {
                        ""
                    },
                );
                return Ok(None);
            }
            args::check_build_memory(&partition, args::machine_memory())?;
            let t = Instant::now();
            self.build(&partition)?;
            self.build_secs += t.elapsed().as_secs_f64();
        }
        // SAFETY: table files are written once and replaced only by rename; nothing
        // truncates them while we run.
        // A damaged payload would give wrong answers, so every table is checked before
        // use: by the full pass, or by a record that the file is unchanged since one.
        let p = unsafe { self.dir.open(&partition) }?.heuristic;
        self.map.insert(key, p.clone());
        Ok(Some(p))
    }

    /// Says once per shape, blank and partition why no tables serve them, and what the
    /// search does instead: linear conflict without the first tables, the first tables
    /// alone without a second partition's.
    fn tell(&mut self, shape: Shape, blank: u8, second: bool, why: String) {
        if self.quiet || self.told.contains(&(shape, blank, second)) {
            return;
        }
        self.told.push((shape, blank, second));
        if second {
            inform!("note: {why}; solving {shape} boards with the first tables alone");
        } else {
            inform!("note: {why}; solving {shape} boards with linear conflict instead");
        }
    }

    /// Builds the missing tables, saying what, where, how long and how big first (after
    /// checking that the directory takes files, so a read-only one fails before the work).
    /// Ctrl-C stops the build with [`crate::error::TableError::Interrupted`].
    fn build(&self, partition: &Partition) -> Result<()> {
        let t0 = Instant::now();
        let _building = building();
        announce(
            &self.dir,
            partition,
            "choose another directory with --tables DIR (or FIFTEEN_TABLES=DIR)",
        )?;
        build_with_bar(&self.dir, partition, !self.quiet, &INTERRUPTED)?;
        inform!("tables built in {:.1} s", t0.elapsed().as_secs_f64());
        Ok(())
    }
}
