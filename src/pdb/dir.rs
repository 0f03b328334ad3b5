//! A directory of tables: where each file goes, which are missing, building those, and
//! opening a partition's tables as one heuristic.

use std::path::PathBuf;
use std::sync::Arc;

use crate::error::TableError;

use super::build::{build, BuildEvent, Built};
use super::heuristic::PdbHeuristic;
use super::partition::{Partition, PatternSpec};
use super::table::{save, Table};

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
        partition
            .specs()
            .into_iter()
            .filter(|s| !self.path(s).exists())
            .collect()
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
        let mut out = Vec::new();
        for (i, spec) in self.missing(partition).into_iter().enumerate() {
            let built = build(&spec, &|e| progress(i, &spec, e))?;
            let path = save(&self.dir, &spec, &built)?;
            progress(i, &spec, BuildEvent::Saved { path });
            out.push((spec, built));
        }
        Ok(out)
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
            tables.push(unsafe { Table::map(&self.path(&spec), &spec) }?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }

    /// Reads the partition's tables into memory, verifying checksums.
    ///
    /// # Errors
    /// Any missing, damaged or mismatched table.
    pub fn read(&self, partition: &Partition) -> Result<Arc<PdbHeuristic>, TableError> {
        let mut tables = Vec::new();
        for spec in partition.specs() {
            tables.push(Table::read(&self.path(&spec), &spec)?);
        }
        Ok(Arc::new(PdbHeuristic::new(partition.clone(), tables)?))
    }
}
