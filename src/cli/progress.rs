//! Table builds as the user sees them, shared by `build-pdb` and by `solve`'s builds on
//! first use: what is about to be built, where, how long and how big (said before a
//! minute of work starts, after checking that the directory takes files), then the
//! progress bar. The library reports [`BuildEvent`]s through a callback; this draws them.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{inform, note};
use super::under_way::{Guard, UnderWay};
use crate::error::TableError;
use crate::pdb::{BuildEvent, Built, Partition, PatternSpec, TableDir};
use crate::rank::Ranker;

/// Table builds under way in this process (their notices and bars own stderr's last line).
static BUILDING: UnderWay = UnderWay::new();

/// Marks a table build as announced or under way until the guard is dropped: a batch's
/// progress line is not redrawn meanwhile, so that it does not fight with the build's.
pub fn building() -> Guard {
    BUILDING.enter()
}

/// Whether a table build is announced or under way (see [`building`]).
pub fn build_under_way() -> bool {
    BUILDING.any()
}

// What a build will take, and the words that say so, are the library's
// (`pdb::notice`), shared with the Python package.
pub use crate::pdb::notice::describe;

/// The bar's time left, once its rate means something (a few seconds and a few percent
/// in: the first layers are tiny and would promise hours). From the average rate since
/// the bar started, not indicatif's recent one: the first layers of each table are slow
/// per state, and a recent rate promised weeks at the start of the 8-tile table.
fn time_left(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let (done, elapsed) = (state.fraction() as f64, state.elapsed().as_secs_f64());
    let _ = if done < 0.02 || elapsed < 2.0 {
        write!(w, "estimating the time left")
    } else {
        let left = std::time::Duration::from_secs_f64(elapsed * (1.0 - done) / done);
        write!(w, "about {:#} left", indicatif::HumanDuration(left))
    };
}

/// How often a build without its bar says how far it is.
const LOG_EVERY: Duration = Duration::from_secs(15);

/// On a build without its bar, says how far it is (`at` of `all` states, and table `i` of
/// `n`) when [`LOG_EVERY`] has passed since the build started or this last said it.
fn log_now_and_then(logged: &Mutex<(Instant, Instant)>, at: u64, all: u64, i: usize, n: usize) {
    let Ok(mut times) = logged.lock() else {
        return;
    };
    let (started, last) = &mut *times;
    if last.elapsed() < LOG_EVERY {
        return;
    }
    *last = Instant::now();
    let done = at as f64 / all.max(1) as f64;
    let left = started.elapsed().as_secs_f64() * (1.0 - done) / done.max(1e-9);
    inform!(
        "  building table {}/{n}: {:.0}% of all the work done in {:#}, about {:#} left",
        i + 1,
        100.0 * done,
        indicatif::HumanDuration(started.elapsed()),
        indicatif::HumanDuration(Duration::from_secs_f64(left.min(1e9)))
    );
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

/// Checks that the tables can be written to `dir` (creating it), then says what is about
/// to be built there and what it will take. `hint` tells how to choose another directory.
///
/// # Errors
/// A directory that cannot be created or written, with the path and the hint.
pub fn announce(dir: &TableDir, partition: &Partition, hint: &str) -> Result<()> {
    let what = describe(partition);
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
    // The build's workers, before the notice counts them.
    super::workers::start_build_threads(None)?;
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
    inform!(
        "{}",
        crate::pdb::notice::build_notice(&dir.dir, partition, what, missing)
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
    build_tables_with_bar(dir, partition.specs(), false, show, stop)
}

/// [`build_with_bar`] for the missing ones of any tables, or (`force`) all of them, each
/// built beside the old one and renamed over it only once written whole and checked
/// ([`crate::pdb::save`]): an old table stays usable until its new one is.
///
/// Under the directory's build lock ([`TableDir::lock_builds`]): a process already
/// building there is waited for (said once), and what it built is not built again.
pub fn build_tables_with_bar(
    dir: &TableDir,
    specs: Vec<PatternSpec>,
    force: bool,
    show: bool,
    stop: &AtomicBool,
) -> Result<Vec<(PatternSpec, Built)>> {
    let _lock = match dir.try_lock_builds()? {
        Some(lock) => lock,
        None => {
            inform!(
                "waiting: another process is building tables in {}",
                dir.dir.display()
            );
            dir.lock_builds()?
        }
    };
    if stop.load(Ordering::Relaxed) {
        return Err(TableError::Interrupted.into());
    }
    let missing = if force {
        specs.clone()
    } else {
        dir.missing_of(specs.clone())
    };
    let bar = ProgressBar::new(0);
    let hidden = !show || super::output::quiet() || !std::io::stderr().is_terminal();
    if hidden {
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
    // Without the bar (a log, a pipe), a line every quarter minute says how far the build
    // is: a first run's minute of silence in a Slurm or CI log looks like a hang.
    let logged = Mutex::new((Instant::now(), Instant::now()));
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
            let at = before[i].saturating_add(done.min(states[i]));
            bar.set_position(at);
            if hidden && show {
                log_now_and_then(&logged, at, bar.length().unwrap_or(1), i, n);
            }
        }
        BuildEvent::Layer { .. } => {}
        // A hidden bar prints nothing: a log (stderr not a terminal) still gets a line per
        // table, unless --quiet.
        BuildEvent::Saved { path } if hidden => {
            if show {
                inform!("  wrote {}", path.display());
            }
        }
        BuildEvent::Saved { path } => bar.println(format!("  wrote {}", path.display())),
    };
    // A signal that ends the command while a table is being written (a slow sync) leaves
    // no hidden temporary file of the table's size behind.
    let _unfinished: Vec<_> = (missing.iter())
        .map(|spec| super::signals::remove_if_ended(&crate::pdb::temporary_path(&dir.dir, spec)))
        .collect();
    let built = dir.build_or_stop(missing, &progress, stop);
    bar.finish_and_clear();
    if let Err(TableError::Interrupted) = built {
        let all = specs.len();
        let kept = all - dir.missing_of(specs).len();
        note!(
            "interrupted: the build stopped; no partial table was written ({kept} of the {all} \
             tables being built complete in {})",
            dir.dir.display()
        );
    }
    Ok(built?)
}
