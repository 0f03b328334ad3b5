//! `fifteen solve --checkpoint FILE`: one long instance whose search survives a stop.
//!
//! The search's books ([`Books`]) are saved to FILE (atomically) after every finished
//! iteration, at most every half second after finished subtrees, and when the search stops. On
//! SIGTERM (a batch system's preemption) or Ctrl-C the search stops within a moment, saves,
//! and the command exits with 143 (SIGTERM) or 130 (Ctrl-C); after a SIGKILL the file
//! still holds the last save. A save that fails (a full disk) is a warning: the search
//! goes on, and its answer is printed even when it cannot be saved. Running the same command again resumes from FILE; once
//! solved, FILE keeps the answer and the command prints it without searching.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use signal_hook::consts::{SIGHUP, SIGTERM};

use super::plan::{NoSolver, Plan};
use super::report::{Failure, Outcome, Report};
use super::sources;
use crate::board::{moves_to_string, parse_moves};
use crate::check::vouch;
use crate::cli::output::{counted, emit, inform, note};
use crate::cli::workers;
use crate::cluster::{Checkpoint, ClusterError, Identity, EMPTY};
use crate::instances::Reader;
use crate::search::{Books, Checkpointing, Limits, Search, StopReason, Weight};
use crate::{Instance, Solution, SolveError};

/// Exit status after SIGTERM: 128 + 15, the shell's convention.
const EXIT_TERMINATED: i32 = 143;

/// The exit status after SIGHUP (128 + 1), as the shell reports it.
const EXIT_HUNG_UP: i32 = 129;

/// How often finished subtrees are saved, at most: a kill loses at most this much work
/// besides the subtrees under way.
const SAVE_EVERY: Duration = Duration::from_millis(500);

/// One instance's search kept in a checkpoint file: what [`solve_kept`] hands back.
pub(super) struct Kept {
    /// The answer (read back from the file or found now), or why the search stopped.
    pub result: Result<Solution, SolveError>,
    /// The answer was in the file already: nothing was searched.
    pub from_file: bool,
    /// Where the search stopped, when it stopped: threshold (in moves), subtrees done and
    /// subtrees caught partway.
    pub stopped_at: (u32, usize, usize),
    /// Why a save failed (a full disk): the file holds the last save that worked.
    pub save_failed: Option<String>,
    /// A warning said before the search that no save could be written there: a batch
    /// does not say it again for this instance when the saves did fail.
    pub warned: bool,
    /// Nodes this run generated, over all runs, and the number of runs.
    pub spent: (u64, u64, u32),
}

/// What a failed save (a full disk) leaves: the last save that worked, or, when none did,
/// no file at all, and a rerun starts over.
pub(super) fn save_failed(why: &str, path: &Path) -> String {
    if replaced(why) {
        // Another run's file: it holds no save of this search.
        return format!("the checkpoint could not be saved: {why}");
    }
    if path.exists() {
        format!(
            "the checkpoint could not be saved ({why}); {} holds the last save that worked",
            path.display()
        )
    } else {
        format!(
            "the checkpoint could not be saved ({why}); no save worked, so {} was not written and a rerun starts over",
            path.display()
        )
    }
}

/// Whether a save failed because another run replaced the file
/// ([`crate::cluster::ClusterError::Replaced`]): it then holds none of this search's saves.
fn replaced(why: &str) -> bool {
    why.contains(crate::cluster::REPLACED)
}

/// The closing error of a batch some of whose checkpoints could not be saved.
pub(super) fn unsaved_error(unsaved: usize) -> String {
    format!(
        "the checkpoints of {} could not be saved (see the warnings above)",
        counted(unsaved as u64, "instance")
    )
}

/// Where a checkpoint's books resume a search.
#[derive(Clone, Copy)]
pub(super) struct Resumed {
    /// The threshold of the iteration under way, in moves.
    pub threshold: u32,
    /// Iterations finished before.
    pub iterations: usize,
    /// Subtrees of the iteration under way finished before.
    pub done: usize,
    /// Subtrees of the iteration under way that a stop caught partway, resumed where they
    /// were.
    pub partial: usize,
}

/// How the messages say subtrees caught partway (nothing when there are none).
pub(super) fn partway(partial: usize) -> String {
    match partial {
        0 => String::new(),
        p => format!(", {p} more caught partway"),
    }
}

/// Solves `inst` as `search` says, keeping the search's books in `path`: an answer the file
/// already holds is replayed and printed again without searching, a search the file holds
/// resumes where it stopped, and the books are saved as the search goes (after each
/// iteration, at most every [`SAVE_EVERY`] after finished subtrees, and when it stops).
///
/// An answer read back or found from resumed books is believed only once it replays to the
/// goal and sits between the bounds (see [`vouch`]), and a damaged file is refused by its
/// checksum. The checksum is no signature: a file edited on purpose and summed again (a
/// threshold raised, subtrees marked done) is believed, as docs/formats.md says.
///
/// # Errors
/// A file that is not a checkpoint, is damaged, belongs to another search, or whose answer
/// does not check; books that do not fit this search.
pub(super) fn solve_kept(
    inst: &Instance,
    solver: &crate::Solver,
    search: Search,
    path: &Path,
    on_resume: &dyn Fn(Resumed),
    shown: &super::progress::Iterations,
) -> Result<Kept> {
    let weight = search.weight;
    let frame = solver.frame(&inst.board, &inst.goal)?;
    let identity = Identity::new(
        &inst.board,
        &inst.goal,
        frame.heuristic,
        frame.partition.clone(),
        weight,
    );
    // Saves are written whole and renamed into place, which would put a regular file where
    // the link was (and leave its target stale): refused, as for every such output.
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        bail!(
            "{} is a symbolic link: a checkpoint is written whole and renamed into place, which would replace the link; give the path of the file itself, or another name",
            path.display()
        );
    }
    let saved = Checkpoint::load(path, &identity).map_err(|e| {
        // What to do about it: the file is never replaced unasked (it may be a
        // checkpoint of another search, or someone's file).
        let advice = match e {
            ClusterError::Mismatch { .. } => {
                "keep it and give this search another checkpoint file, or delete it to start over"
            }
            // Not a checkpoint at all (the input, a table, someone's file): left alone.
            // Empty (as `mktemp` makes it) is someone's too: saves never leave one.
            ClusterError::Format { ref reason, .. } if reason == EMPTY => {
                "it is not a checkpoint and is left as it is: delete it to start afresh, or give another checkpoint path"
            }
            ClusterError::Format { .. } => {
                "it is not a checkpoint and is left as it is: give another checkpoint file"
            }
            _ => "",
        };
        match advice {
            "" => anyhow::Error::from(e),
            advice => anyhow::anyhow!("{e}; {advice}"),
        }
    })?;
    let t0 = Instant::now();
    if let Some(c) = saved.as_ref().filter(|c| c.moves.is_some()) {
        let broken = |e: String| {
            anyhow::anyhow!(
                "{}: its answer does not check: {e}; delete it and run the command again",
                path.display()
            )
        };
        let moves = parse_moves(c.moves.as_deref().unwrap_or_default())
            .map_err(|e| broken(format!("its moves are refused: {e}")))?;
        if weight.is_one() && c.lower_bound.is_none() {
            return Err(broken("it has no lower bound beside its answer".into()));
        }
        // The answer is believed only once replayed and held to the bounds: this run's
        // estimate below it, and, for an answer called optimal, the file's lower bound
        // above it (a length between the two is the proven optimum).
        let at_most = if weight.is_one() {
            Some(c.lower_bound.unwrap_or(0))
        } else {
            None
        };
        let estimate = solver.estimate(&inst.board, &inst.goal);
        let lower = estimate.max(c.lower_bound.unwrap_or(0));
        vouch(&inst.board, &inst.goal, &moves, lower, at_most)
            .map_err(|e| broken(e.to_string()))?;
        let solution = solution(&c.books, moves, c.lower_bound, c.nodes, &frame, weight, t0);
        return Ok(Kept {
            result: Ok(solution),
            from_file: true,
            stopped_at: (0, 0, 0),
            save_failed: None,
            warned: false,
            spent: (0, c.books.spent, c.books.runs),
        });
    }
    let books = saved.map(|c| c.books).unwrap_or_default();
    let resumed = (!books.iterations.is_empty()
        || !books.done.is_empty()
        || !books.partial.is_empty())
    .then(|| Resumed {
        threshold: weight.moves_at_least(books.threshold),
        iterations: books.iterations.len(),
        done: books.done.len(),
        partial: books.partial.len(),
    });
    if let Some(r) = resumed {
        on_resume(r);
    }
    let spent_before = books.spent;
    // The nodes the search starts from (its finished iterations', and the iteration under
    // way's subtrees'), which this run's rate leaves out.
    shown.resumed_after(
        books.iterations.last().map_or(0, |it| it.nodes)
            + books.done.iter().map(|s| s.nodes).sum::<u64>()
            + books.partial.iter().map(|p| p.nodes).sum::<u64>(),
    );
    // Said now, not only when the search ends (hours later, perhaps): the search runs all
    // the same, and its answer is kept, but a stop would lose its work.
    let warned = probe_beside(path).map_err(|e| note!("warning: {e}"));
    // Ctrl-C or SIGTERM waits for this search to stop and save its books.
    let _hold = super::super::signals::hold();
    let books = Mutex::new(books);
    let save_error: Mutex<Option<String>> = Mutex::new(None);
    // The flag the search stops on: set in the signal handler itself, where INTERRUPTED
    // is set a moment later by the signals thread (on a loaded machine, after the save).
    let stop = search.limits.stop;
    let save = |b: &Books| {
        // A test's slow machine: the save made on a stop takes this long (milliseconds,
        // `FIFTEEN_TEST_STOP_SAVE_MS`), as a loaded node's can, and must still be made.
        let stopping = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopping || crate::cli::INTERRUPTED.load(Ordering::Relaxed) {
            if let Some(ms) = std::env::var("FIFTEEN_TEST_STOP_SAVE_MS")
                .ok()
                .and_then(|v| v.parse().ok())
            {
                std::thread::sleep(Duration::from_millis(ms));
            }
        }
        shown.subtrees(b);
        let mut c = Checkpoint::new(identity.clone());
        c.books = b.clone();
        if let Err(e) = c.save(path) {
            // The search goes on, trying again at each save; the error is said at the end
            // too. Said now as well, once: a kill before the end (hours later, perhaps)
            // would lose the work since the last save that worked, with no word. (Not
            // when the look before the search warned already: the disk was full then.)
            let mut slot = save_error.lock().unwrap_or_else(|e| e.into_inner());
            let stopping = stop.is_some_and(|s| s.load(Ordering::Relaxed));
            if slot.is_none() && warned.is_ok() && !stopping {
                note!(
                    "warning: {}; the search goes on and tries again at each save",
                    save_failed(&e.to_string(), path)
                );
            }
            slot.get_or_insert(e.to_string());
        }
    };
    let search = Search {
        checkpoint: Some(Checkpointing {
            books: &books,
            save: &save,
            every: SAVE_EVERY,
        }),
        ..search
    };
    let result = solver.solve(&inst.board, &inst.goal, &search);
    if let Err(SolveError::Mismatch(m)) = &result {
        if m.unsound.is_some() {
            bail!(
                "{}: {m}: it was edited, or damaged and its checksum worked out again; delete it to start the search over",
                path.display()
            );
        }
        // Books of another version's search order or pruning (or a study knob such as
        // FIFTEEN_FSM_LEN): the file is a checkpoint, of another search than this one.
        bail!(
            "{}: {m}: it was written by another version of fifteen or with other search settings; keep it and rerun with those, or delete it to start the search over",
            path.display()
        );
    }
    let books = books.into_inner().unwrap_or_else(|e| e.into_inner());
    // A save that failed (a full disk, say) loses at most the progress since the last
    // save that worked: it is said, and the search's answer is kept all the same.
    let mut save_failed = save_error.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Ok(s) = &result {
        // Resumed from the file's books: held to the same gate as an answer read back.
        let at_most = weight.is_one().then_some(s.lower_bound);
        // Its lower bound too: books whose threshold was raised by hand yield an answer
        // shorter than the bound they make it claim, printed as optimal if believed.
        let lower = solver.estimate(&inst.board, &inst.goal).max(s.lower_bound);
        vouch(&inst.board, &inst.goal, &s.moves, lower, at_most).map_err(|e| {
            anyhow::anyhow!(
                "{}: the search resumed from it gave an answer that does not check: {e}; delete it and run the command again",
                path.display()
            )
        })?;
        let mut c = Checkpoint::new(identity.clone());
        c.books = books.clone();
        c.moves = Some(moves_to_string(&s.moves));
        c.lower_bound = Some(s.lower_bound);
        c.nodes = Some(s.nodes);
        if let Err(e) = c.save(path) {
            save_failed.get_or_insert(format!("the answer could not be saved: {e}"));
        }
    }
    Ok(Kept {
        result,
        from_file: false,
        stopped_at: (
            weight.moves_at_least(books.threshold),
            books.done.len(),
            books.partial.len(),
        ),
        save_failed,
        warned: warned.is_err(),
        spent: (books.spent - spent_before, books.spent, books.runs),
    })
}

/// `fifteen solve --checkpoint FILE`.
pub fn run(
    boards: Vec<String>,
    input: Option<String>,
    steps: bool,
    plan: &Plan,
    path: PathBuf,
) -> Result<i32> {
    let input = sources(boards, input, false)?.reader;
    let mut reader = Reader::new(input, plan.goal.clone()).with_size(plan.size);
    let mut report = Report {
        json: plan.json,
        steps,
        ..Report::default()
    };
    let inst = match (reader.next(), reader.next()) {
        (Some(Ok(inst)), None) => inst,
        (Some(Err(bad)), None) => {
            // A board that cannot be solved is a failed instance (1), as without
            // --checkpoint: its failure record printed, no file made.
            emit(&mut std::io::stdout(), &report.line(&Outcome::bad(bad)))?;
            return Ok(1);
        }
        _ => match reader.take_io_error() {
            Some(e) => {
                note!("error: reading input: {e}");
                return Ok(2);
            }
            None => bail!(
                "--checkpoint solves one board: give exactly one (for a batch, --checkpoints DIR keeps each instance's search in DIR)"
            ),
        },
    };
    // The same solver as the batch's: its tables and the extras they get.
    let solver = match plan.solvers()?.get(&inst) {
        Ok(solver) => solver,
        Err(NoSolver::Interrupted) => return Ok(130),
        Err(NoSolver::Tables(why)) => bail!("{why}"),
    };
    // SIGTERM (a batch system's preemption) and SIGHUP (a terminal closed) stop the search
    // as Ctrl-C does, and are told apart by the exit status.
    let stop = Arc::new(AtomicBool::new(false));
    let terminated = Arc::new(AtomicBool::new(false));
    let hung_up = Arc::new(AtomicBool::new(false));
    for signal in super::super::signals::stopping() {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    signal_hook::flag::register(SIGTERM, Arc::clone(&terminated))?;
    if super::super::signals::stopping().contains(&SIGHUP) {
        signal_hook::flag::register(SIGHUP, Arc::clone(&hung_up))?;
    }
    let pool = workers::pool(plan.threads)?;
    let search = plan.search(Some(&pool));
    let search = Search {
        limits: Limits {
            stop: Some(&stop),
            ..search.limits
        },
        ..search
    };
    let resuming = |r: Resumed| {
        inform!(
            "{}: resuming at threshold {} ({} and {} of this one done{})",
            path.display(),
            r.threshold,
            counted(r.iterations as u64, "iteration"),
            counted(r.done as u64, "subtree"),
            partway(r.partial)
        )
    };
    // Its iterations on a terminal, as a board argument's.
    let shown = super::progress::Iterations::new(&inst.id, &search, true, None);
    let hook = |it: crate::search::Iteration| shown.note(it);
    let search = Search {
        on_iteration: shown.wanted().then_some(&hook as _),
        ..search
    };
    let kept = solve_kept(&inst, &solver, search, &path, &resuming, &shown);
    shown.clear();
    let kept = kept?;
    if kept.from_file {
        inform!(
            "{}: already solved; the answer is printed again without searching",
            path.display()
        );
        if let Ok(s) = kept.result {
            return print(&mut report, inst, Ok(s));
        }
    }
    if let Some(e) = &kept.save_failed {
        note!("error: {}", save_failed(e, &path));
    }
    let (now, total, runs) = kept.spent;
    inform!(
        "{}: this run generated {now} nodes; {total} over {}",
        path.display(),
        counted(runs as u64, "run"),
    );
    // A save that failed is a failed write: the answer or the stop is printed, and the
    // exit status is 2 (never 0).
    let unsaved = |code: i32| {
        if kept.save_failed.is_none() {
            return code;
        }
        super::super::signals::write_failed();
        2
    };
    match kept.result {
        Ok(s) => print(&mut report, inst, Ok(s)).map(unsaved),
        Err(SolveError::Stopped(s))
            if s.reason == StopReason::Interrupted && stop.load(Ordering::SeqCst) =>
        {
            if kept.save_failed.as_deref().is_some_and(replaced) {
                inform!(
                    "stopped: {} holds another run's file, not this search: give this search its own checkpoint file to resume it from now on",
                    path.display()
                );
            } else if kept.save_failed.is_some() && !path.exists() {
                inform!(
                    "stopped: no save worked, so {} was not written: a rerun starts over",
                    path.display()
                );
            } else if kept.save_failed.is_some() {
                inform!(
                    "stopped: run the same command to resume from {}'s last save",
                    path.display()
                );
            } else {
                let (threshold, done, partial) = kept.stopped_at;
                inform!(
                    "stopped: {} holds the search at threshold {threshold} ({} of it done{}); run the same command to resume",
                    path.display(),
                    counted(done as u64, "subtree"),
                    partway(partial),
                );
            }
            // A stop whose work could not be saved is a failed write first (2): a job
            // script that requeues on 143 would only start over.
            Ok(unsaved(if terminated.load(Ordering::SeqCst) {
                EXIT_TERMINATED
            } else if hung_up.load(Ordering::SeqCst) {
                EXIT_HUNG_UP
            } else {
                130
            }))
        }
        Err(SolveError::Stopped(s)) => {
            let e = SolveError::Stopped(s.clone());
            let failure = Failure {
                message: format!("instance {}: {e}", inst.id),
                kind: (&e).into(),
                stopped: Some(s),
            };
            print(&mut report, inst, Err(failure)).map(unsaved)
        }
        Err(e) => bail!("{}: {e}", path.display()),
    }
}

/// Writes a scratch file beside the checkpoint `path` (and deletes it), before a search
/// that would save there: a directory that takes no files, or a full disk, is said at the
/// start, not only by a warning when the search ends.
///
/// # Errors
/// The scratch file cannot be made or written whole: the warning to print, with what to do.
fn probe_beside(path: &Path) -> std::result::Result<(), String> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let written = tempfile::NamedTempFile::new_in(parent)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &[b' '; 4096]));
    written.map(drop).map_err(|e| {
        // What to do depends on why: space can be freed; a read-only or missing directory
        // needs another path.
        let advice = match e.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                "free some space or give another path"
            }
            _ => "give a path in a directory you can write to",
        };
        format!(
            "{}: cannot write a checkpoint there ({e}): the search runs, but a stop before the end loses its work; {advice}",
            path.display()
        )
    })
}

/// The answer a checkpoint holds, as `solve` reports it, its lower bound rounded up to the
/// solutions' parity.
fn solution(
    books: &Books,
    moves: Vec<crate::Dir>,
    lower_bound: Option<u32>,
    nodes: Option<u64>,
    frame: &crate::solver::Frame,
    weight: Weight,
    t0: Instant,
) -> Solution {
    let len = moves.len() as u32;
    let mut lb = lower_bound.unwrap_or(len).min(len);
    if (len - lb) % 2 == 1 {
        lb += 1;
    }
    Solution {
        moves,
        weight,
        lower_bound: lb,
        nodes: nodes.unwrap_or(0),
        iterations: books.iterations.clone(),
        millis: t0.elapsed().as_secs_f64() * 1000.0,
        heuristic: frame.heuristic,
    }
}

fn print(report: &mut Report, inst: Instance, result: Result<Solution, Failure>) -> Result<i32> {
    let failed = result.is_err();
    let o = Outcome {
        interrupted: false,
        id: inst.id,
        board: Some(inst.board),
        goal: Some(inst.goal),
        line: None,
        known: inst.known,
        result,
        searched: None,
        unsaved: false,
    };
    emit(&mut std::io::stdout(), &report.line(&o))?;
    Ok(if failed { 1 } else { 0 })
}
