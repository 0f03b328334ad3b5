//! `--shard K/N` and `--output FILE` for `solve` and `bench`: which instances of the input
//! this run solves, and the results file it resumes. The rules are the library's
//! ([`crate::cluster::shard`], [`crate::cluster::results`]); this holds the command line's side: the settings
//! a file is bound to, and the tally of what a resumed run skipped.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Map, Value};

use super::super::output::inform;
use super::plan::Plan;
use super::report::length_agrees;
use crate::cluster::results::{
    Header, InputDigest, ResultsError, ResultsFile, Resume, INPUT_DIGEST_VERSION,
};
use crate::cluster::shard::Shard;
use crate::instances::BadInstance;
use crate::search::Weight;
use crate::{GoalSpec, Instance};

/// The settings that decide a batch's results, as its results file's header records them:
/// a rerun with any of them changed is refused. Threads, `--split` and `--tables` only
/// decide speed or where tables are, and are left out, so a requeued task may run on a
/// machine of another size.
pub fn settings(plan: &Plan) -> Map<String, Value> {
    let (opts, kind, weight) = (plan, plan.kind, plan.weight);
    let mut s = Map::new();
    let goal: Value = match &opts.goal {
        GoalSpec::Standard => "standard".into(),
        GoalSpec::BlankFirst => "blank-first".into(),
        GoalSpec::Explicit(tiles, _) => tiles.clone().into(),
    };
    s.insert("goal".into(), goal);
    s.insert("heuristic".into(), kind.name().into());
    s.insert("weight".into(), weight.factor().into());
    if let Some(size) = opts.size {
        s.insert("size".into(), size.to_string().into());
    }
    if let Some(p) = &opts.partition {
        s.insert("partition".into(), p.clone().into());
    }
    if let Some(n) = opts.max_nodes {
        s.insert("max_nodes".into(), n.into());
    }
    if let Some(t) = opts.timeout {
        s.insert("timeout".into(), t.as_secs_f64().into());
    }
    s
}

/// Opens (or creates) the results file for this batch and says on stderr what it holds.
pub fn open(
    path: &Path,
    command: &str,
    shard: Shard,
    settings: Map<String, Value>,
) -> Result<(ResultsFile, Resume)> {
    // A results file is read back, appended to and synced: a directory, a device or a
    // FIFO can be none of that (and /dev/full would read as a damaged file).
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            anyhow::bail!(
                "cannot use the output file: {} is not a regular file (a directory, a device or a FIFO); --output writes a results file it can resume: give a file name, or leave out -o to print the results (--format json)",
                path.display()
            );
        }
    }
    let header = Header::new(command, shard, settings);
    let (file, resume) = ResultsFile::open(path, &header).context("cannot use the output file")?;
    let cut = match resume.cut_bytes() {
        0 => String::new(),
        n => format!(" (a last line cut short, {n} bytes, is cut off and redone)"),
    };
    match (resume.results(), resume.end()) {
        (_, Some(end)) => inform!(
            "{}: complete already ({}); checking it against the input",
            path.display(),
            super::super::output::counted(end.results, "result")
        ),
        (0, None) if cut.is_empty() => {}
        // Said before the records are held to the input (as it is read): a file of
        // another input is refused after this line, not resumed.
        (n, None) => inform!(
            "{}: holds {n} result{}: each checked against the input, the run resumes after them{cut}",
            path.display(),
            if n == 1 { "" } else { "s" }
        ),
    }
    Ok((file, resume))
}

/// What a resumed run found already done, for its exit status and `bench`'s summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Skipped {
    /// Records skipped.
    pub results: u64,
    /// Of them, failed instances.
    pub failed: u64,
    /// Of them, lengths that disagree with the known ones the input gives now.
    pub mismatched: u64,
    /// Of them, records written with another known length than the input gives now (or
    /// with one where it gives none, or none where it gives one): held to the input's.
    pub restated: u64,
}

/// This run's slice of the input: the shard, and the results already in the output file.
pub struct Slice {
    shard: Shard,
    /// Items read from the input so far, every shard's.
    items: u64,
    resume: Option<Resume>,
    /// What was skipped as already in the file.
    pub skipped: Skipped,
    /// Why the batch stopped: the file does not belong to this input.
    pub error: Option<ResultsError>,
    /// Every item's id, shape, board and goal, in input order, for the end line.
    digest: InputDigest,
    /// The weight the file's results were searched with: a skipped length agrees with a
    /// known one within its bound.
    weight: Weight,
}

impl Slice {
    /// The slice of `shard` (the whole input when `None`), skipping what `resume` holds
    /// (searched with `weight`).
    pub fn new(shard: Option<Shard>, resume: Option<Resume>, weight: Weight) -> Slice {
        Slice {
            weight,
            shard: shard.unwrap_or(Shard::WHOLE),
            items: 0,
            resume,
            skipped: Skipped::default(),
            error: None,
            digest: InputDigest::new(),
        }
    }

    /// Takes the input's next item: whether this run solves it (it is in the shard and not
    /// in the file). A mismatch with the file sets [`Slice::error`]; the batch must stop.
    pub fn take(&mut self, item: &Result<Instance, BadInstance>) -> bool {
        self.items += 1;
        // Every shard reads every item: all of them digest the same input alike.
        match item {
            Ok(inst) => self.digest.instance(&inst.id, &inst.board, &inst.goal),
            Err(bad) => self.digest.bad_line(&bad.id, bad.line),
        }
        if !self.shard.contains(self.items) {
            return false;
        }
        let Some(resume) = self.resume.as_mut() else {
            return true;
        };
        let skipped = match item {
            Ok(inst) => resume.skip_instance(&inst.id, Some((&inst.board, &inst.goal))),
            Err(bad) => resume.skip_bad_line(&bad.id, bad.line as u64),
        };
        match skipped {
            Ok(None) => true,
            Ok(Some(done)) => {
                // A length is held to the known one the input gives now, not to the one
                // it was written with: a known length corrected between runs is believed.
                let known = item.as_ref().ok().and_then(|inst| inst.known);
                let mismatched = match (known, done.length) {
                    (Some(k), Some(len)) => {
                        u32::try_from(len).map_or(true, |len| !length_agrees(k, len, self.weight))
                    }
                    _ => false,
                };
                self.skipped.results += 1;
                self.skipped.failed += u64::from(done.failed);
                self.skipped.mismatched += u64::from(mismatched);
                self.skipped.restated +=
                    u64::from(done.length.is_some() && done.known != known.map(u64::from));
                false
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    /// Items of the whole input read so far.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// The digest of the input read so far (the whole input, once it is read): 53 bits,
    /// which every JSON reader holds exactly.
    pub fn input_digest(&self) -> u64 {
        self.digest
            .value(INPUT_DIGEST_VERSION)
            .expect("the current version is digested")
    }

    /// After the whole input was read: checks the file held no results beyond it, and
    /// that a file complete already was completed for this input.
    pub fn finish(&self) -> Result<(), ResultsError> {
        match &self.resume {
            Some(r) => r.finish(self.items, &self.digest),
            None => Ok(()),
        }
    }
}

/// Refuses a sharded batch whose input file gives one id to two instances, before any
/// work: `merge` puts the shards' records together by id and refuses a repeat, which it
/// would find only after every shard had run. (Read once more from the start; standard
/// input cannot be, and is checked by the merge alone.)
pub fn unique_ids(path: &str, plan: &Plan) -> Result<()> {
    let reader = crate::instances::Reader::new(
        super::super::input::open(path, "an instance file")?,
        plan.goal.clone(),
    )
    .with_size(plan.size);
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, item) in reader.enumerate() {
        if super::super::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
            break; // the batch below stops at once, as for Ctrl-C anywhere
        }
        let id = match item {
            Ok(inst) => inst.id,
            Err(bad) => bad.id,
        };
        if let Some(first) = seen.insert(id.clone(), i + 1) {
            anyhow::bail!(
                "{path}: instances {first} and {} both have the id {id}: a sharded batch needs every id once (merge joins the shards by id); rename one",
                i + 1
            );
        }
    }
    Ok(())
}
