//! Table builds as the user sees them, shared by `build-pdb` and by `solve`'s builds on
//! first use: what is about to be built, where, how long and how big (said before a
//! minute of work starts, after checking that the directory takes files), then the
//! progress bar. The library reports [`BuildEvent`]s through a callback; this draws them.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{inform, note};
use crate::error::TableError;
use crate::pdb::{BuildEvent, Built, Partition, PatternSpec, TableDir, PAYLOAD_OFFSET};
use crate::rank::Ranker;

/// Placements the BFS expands per second on one core, measured on 4x4 tables (the 7-8 set:
/// 576 million placements in 136 s of CPU on a busy two-core machine; see
/// docs/records/2026-11-25-table-builder.md). Only for the estimate.
const PLACEMENTS_PER_CORE_SEC: f64 = 4.2e6;

/// The bar's time left, once its rate means something (a few seconds and a few percent
/// in: the first layers are tiny and would promise hours).
fn time_left(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = if state.fraction() < 0.02 || state.elapsed().as_secs_f64() < 2.0 {
        write!(w, "estimating the time left")
    } else {
        write!(w, "about {:#} left", indicatif::HumanDuration(state.eta()))
    };
}

/// The abstract states of a table's search (its placements times the cells they leave
/// free), which [`BuildEvent::Work`] counts.
fn search_states(spec: &PatternSpec) -> u64 {
    let n = spec.shape.cells();
    let k = spec.tiles.len().min(n);
    Ranker::checked_count(n, k)
        .unwrap_or(u64::MAX)
        .saturating_mul((n - k) as u64)
}

/// What building some tables will take, estimated from their placements.
pub struct Estimate {
    /// Wall-clock seconds on this machine's worker threads.
    pub secs: f64,
    /// Peak memory: the largest table's search arrays, plus the tables built before it.
    pub memory: u64,
    /// The table files together.
    pub disk: u64,
}

/// Estimates building `specs` (one at a time, as [`TableDir::build_missing`] does).
pub fn estimate(specs: &[PatternSpec]) -> Estimate {
    let threads = rayon::current_num_threads().max(1) as f64;
    let (mut placements, mut memory, mut disk) = (0u64, 0u64, 0u64);
    for spec in specs {
        let n = spec.shape.cells();
        let k = spec.tiles.len();
        let count = Ranker::checked_count(n, k).unwrap_or(u64::MAX);
        let file = count.div_ceil(2).saturating_add(PAYLOAD_OFFSET);
        // Per placement: the seen/next word, the current layer, half a byte of payload;
        // the words widen with the pattern's free cells (see `pdb::build`).
        let per = match n - k {
            0..=8 => 3.5,
            9..=16 => 6.5,
            _ => 12.5,
        };
        memory = memory.max(disk.saturating_add((count as f64 * per) as u64));
        placements = placements.saturating_add(count);
        disk = disk.saturating_add(file);
    }
    Estimate {
        secs: placements as f64 / (PLACEMENTS_PER_CORE_SEC * threads),
        memory,
        disk,
    }
}

/// "about 2 minutes", "about 40 seconds", "about a second".
pub fn about_time(secs: f64) -> String {
    match secs {
        s if s < 1.5 => "about a second".to_string(),
        s if s < 90.0 => format!("about {} seconds", s.round()),
        s if s < 90.0 * 60.0 => format!("about {} minutes", (s / 60.0).round()),
        s => format!("about {} hours", (s / 3600.0).round()),
    }
}

/// Bytes for people, two significant digits: "1.8 GB", "290 MB", "12 kB".
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    let (v, unit) = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        .into_iter()
        .find(|&(s, _)| b >= s)
        .map_or((b, "bytes"), |(s, u)| (b / s, u));
    if v < 10.0 && unit != "bytes" {
        format!("{v:.1} {unit}")
    } else {
        let digits = 10f64.powi((v.log10().floor() as i32 - 1).max(0));
        format!("{} {unit}", (v / digits).round() * digits)
    }
}

/// A partition's name for people: its sizes (`7-8`), with `second` before the second
/// partition's (which has the first's sizes).
pub fn describe(partition: &Partition) -> String {
    let second = Partition::second_for(partition.shape, partition.blank);
    if second.as_ref() == Some(partition) {
        format!("second {}", partition.name())
    } else {
        partition.name()
    }
}

/// Checks that the tables can be written to `dir` (creating it), then says what is about
/// to be built there and what it will take. `hint` tells how to choose another directory.
///
/// # Errors
/// A directory that cannot be created or written, with the path and the hint.
pub fn announce(dir: &TableDir, partition: &Partition, hint: &str) -> Result<()> {
    let what = format!("{} partition", describe(partition));
    announce_tables(dir, partition, &what, &dir.missing(partition), hint)
}

/// [`announce`] for any missing tables of `partition`'s boards, `what` naming them.
///
/// # Errors
/// As [`announce`].
pub fn announce_tables(
    dir: &TableDir,
    partition: &Partition,
    what: &str,
    missing: &[PatternSpec],
    hint: &str,
) -> Result<()> {
    if let Err(e) = dir.check_writable() {
        let why = match &e {
            TableError::Io { error, .. } => error.to_string(),
            e => e.to_string(),
        };
        bail!(
            "cannot write tables to {}: {why}; {hint}",
            dir.dir.display()
        );
    }
    let e = estimate(missing);
    inform!(
        "building the pattern databases for {} boards ({what}, goal blank in cell {}) \
         into {}: {}, {} of memory, {} on disk; once",
        partition.shape,
        partition.blank,
        dir.dir.display(),
        about_time(e.secs),
        human_bytes(e.memory),
        human_bytes(e.disk)
    );
    Ok(())
}

/// Builds the partition's missing tables into `dir`, with one bar per breadth-first layer
/// on stderr when it is a terminal (and `show` is set, and not `--quiet`), and a line for
/// each table written. Stops soon after `stop` is set (Ctrl-C), with
/// [`TableError::Interrupted`] and a message.
pub fn build_with_bar(
    dir: &TableDir,
    partition: &Partition,
    show: bool,
    stop: &AtomicBool,
) -> Result<Vec<(PatternSpec, Built)>> {
    build_tables_with_bar(dir, partition.specs(), show, stop)
}

/// [`build_with_bar`] for the missing ones of any tables.
pub fn build_tables_with_bar(
    dir: &TableDir,
    specs: Vec<PatternSpec>,
    show: bool,
    stop: &AtomicBool,
) -> Result<Vec<(PatternSpec, Built)>> {
    let missing = dir.missing_of(specs.clone());
    let bar = ProgressBar::new(0);
    if !show || super::output::quiet() || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("  {prefix} [{bar:30}] {percent}% {msg}, {left} ({elapsed})")
            .expect("a valid template")
            .with_key("left", time_left)
            .progress_chars("=> "),
    );
    let n = missing.len();
    // The bar counts the searches' states (a placement with one blank cell) over all the
    // tables, each expanded once: the work, about evenly in time, so the time left that
    // the bar extrapolates from its rate holds across layers and tables.
    let states: Vec<u64> = missing.iter().map(search_states).collect();
    let before: Vec<u64> = states
        .iter()
        .scan(0u64, |sum, &s| {
            let b = *sum;
            *sum = sum.saturating_add(s);
            Some(b)
        })
        .collect();
    bar.set_length(states.iter().fold(0u64, |a, &s| a.saturating_add(s)).max(1));
    let progress = |i: usize, spec: &PatternSpec, ev: BuildEvent| match ev {
        BuildEvent::Start { placements, .. } => {
            bar.set_prefix(format!(
                "table {}/{n} ({} tiles, {placements} placements)",
                i + 1,
                spec.tiles.len()
            ));
            bar.set_position(before[i]);
        }
        BuildEvent::Expanded { depth, .. } => bar.set_message(format!("depth {depth}")),
        BuildEvent::Work { done, .. } => {
            bar.set_position(before[i].saturating_add(done.min(states[i])));
        }
        BuildEvent::Layer { .. } => {}
        BuildEvent::Saved { path } => bar.println(format!("  wrote {}", path.display())),
    };
    let built = dir.build_or_stop(missing, &progress, stop);
    bar.finish_and_clear();
    if let Err(TableError::Interrupted) = built {
        let kept = specs.len() - dir.missing_of(specs).len();
        note!(
            "interrupted: the build stopped; no partial table was written ({kept} complete \
             tables in {})",
            dir.dir.display()
        );
    }
    Ok(built?)
}
