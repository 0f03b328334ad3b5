//! A batch's progress on stderr: for a person watching a terminal, a line redrawn in place
//! (instances done out of the total, the rate, the time so far and the time left, a long
//! search's iterations and subtrees); for a log (stderr not a terminal: Slurm, `nohup`),
//! whole lines now and then ([`LogPace`]), so that a day-long search does not leave an
//! empty log. Nothing with `--quiet`.

use std::io::{BufReader, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::super::output::{self, inform};
use super::super::progress::build_under_way;
use crate::cluster::shard::Shard;
use crate::instances::Reader;
use crate::search::{Books, Iteration, Search, Weight};
use crate::{GoalSpec, Shape};

/// Not counted yet (or not countable: stdin).
const UNKNOWN: u64 = u64::MAX;

/// The time now, for a line in a log, in UTC to the second: `2026-11-29T10:37:14Z`.
fn stamp() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Whether progress goes to a log: stderr is not a terminal, and `--quiet` was not given.
fn to_log() -> bool {
    !output::quiet() && !std::io::stderr().is_terminal()
}

/// How often a log hears of a long run: at most once every tenth of the time so far, and
/// between one and ten minutes apart (a day-long search writes about 150 lines). The batch
/// and the instances under way keep a pace each: the batch's ticker, asking every second,
/// would otherwise take every turn from the subtrees, said only when a save is made.
/// `FIFTEEN_TEST_LOG_EVERY_MS` gives a fixed gap instead, for tests.
pub struct LogPace {
    started: Instant,
    last: Mutex<Instant>,
}

impl LogPace {
    /// The pace of the lines about instances, its clock started at the first use.
    fn get() -> &'static LogPace {
        static PACE: std::sync::OnceLock<LogPace> = std::sync::OnceLock::new();
        PACE.get_or_init(LogPace::new)
    }

    /// A pace of its own (a batch's, beside its instances').
    fn new() -> LogPace {
        LogPace {
            started: Instant::now(),
            last: Mutex::new(Instant::now()),
        }
    }

    /// Whether a line is due; if it is, it counts as said.
    fn due(&self) -> bool {
        let gap = std::env::var("FIFTEEN_TEST_LOG_EVERY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis)
            .unwrap_or_else(|| {
                (self.started.elapsed() / 10)
                    .clamp(Duration::from_secs(60), Duration::from_secs(600))
            });
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.elapsed() >= gap;
        if due {
            *last = Instant::now();
        }
        due
    }

    /// A line said anyway (an iteration's end): the next paced one waits a whole gap.
    fn said(&self) {
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
}

/// The progress line of a batch, redrawn every second (its clock keeps moving through a
/// long instance) by a thread of its own, except while a table build owns the line.
pub struct BatchBar {
    shown: Arc<Shown>,
    /// Set to stop the ticker; joined before the bar is cleared.
    stop: Arc<AtomicBool>,
    ticker: Mutex<Option<JoinHandle<()>>>,
}

/// What the batch's thread and the ticker share.
struct Shown {
    bar: ProgressBar,
    /// The number of instances, once a thread of its own has counted them.
    total: Arc<AtomicU64>,
    /// Whether the bar already shows the total.
    with_total: AtomicBool,
    /// How many of the instances done failed (for a log's line).
    failed: AtomicU64,
    /// The instances a results file held when the run began (`-o FILE` resumed): done,
    /// but not by this run, so no part of its pace.
    resumed: AtomicU64,
    /// The pace of the batch's lines in a log.
    pace: LogPace,
}

impl Shown {
    /// The bar with its total, once counted: a bar and the time left from then on.
    fn take_total(&self, done: u64) {
        if !self.with_total.load(Ordering::Relaxed) {
            let total = self.total.load(Ordering::Relaxed);
            if total != UNKNOWN {
                self.with_total.store(true, Ordering::Relaxed);
                self.bar.set_length(total.max(done));
                self.bar.set_style(style(
                    "[{bar:20}] {pos}/{len}, {rate}, {elapsed_clock}, {eta} left{msg}",
                ));
            }
        }
    }

    /// A log's line: "progress: 37 of 100 instances done (2 failed), 0:05:00 so far, about
    /// 0:08:31 left".
    fn log_line(&self) -> String {
        let done = self.bar.position();
        let total = self.total.load(Ordering::Relaxed);
        let elapsed = self.bar.elapsed();
        let mut line = match total {
            UNKNOWN => format!("progress: {done} instances done"),
            _ => format!("progress: {done} of {} instances done", total.max(done)),
        };
        let failed = self.failed.load(Ordering::Relaxed);
        if failed > 0 {
            line += &format!(" ({failed} failed)");
        }
        line += &format!(", {} so far", clock(elapsed));
        let resumed = self.resumed.load(Ordering::Relaxed);
        if total != UNKNOWN && done > resumed && total > done {
            let left = elapsed.mul_f64((total - done) as f64 / (done - resumed) as f64);
            line += &format!(", about {} left", clock(left));
        }
        line
    }
}

impl BatchBar {
    /// A bar for a batch read from `file` (counted on a thread of its own so that solving
    /// starts at once; `None` for stdin, whose total cannot be known), shown when `show`
    /// and stderr is a terminal and `--quiet` was not given; when stderr is not a
    /// terminal, a line now and then instead ([`LogPace`]).
    /// With a `shard`, the total is that shard's part of the file.
    pub fn new(
        show: bool,
        file: Option<&str>,
        goal: &GoalSpec,
        size: Option<Shape>,
        shard: Option<Shard>,
    ) -> BatchBar {
        let visible = show && !output::quiet() && std::io::stderr().is_terminal();
        let logged = show && to_log();
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let total = Arc::new(AtomicU64::new(UNKNOWN));
        let shown = Arc::new(Shown {
            bar,
            total: total.clone(),
            with_total: AtomicBool::new(false),
            failed: AtomicU64::new(0),
            resumed: AtomicU64::new(0),
            pace: LogPace::new(),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let mut ticker = None;
        if visible {
            shown.bar.set_draw_target(ProgressDrawTarget::stderr());
            shown
                .bar
                .set_style(style("{pos} done, {rate}, {elapsed_clock}{msg}"));
        }
        if visible || logged {
            if let Some(path) = file.filter(|p| *p != "-") {
                let (path, goal) = (path.to_string(), goal.clone());
                // Parsing is far cheaper than solving; the count is exact, as the batch's
                // own reader makes the same instances (and errors) of the same lines.
                std::thread::spawn(move || {
                    if let Ok(f) = std::fs::File::open(path) {
                        let n = Reader::new(BufReader::new(f), goal).with_size(size).count();
                        let n = shard.map_or(n as u64, |s| s.items_of(n as u64));
                        total.store(n, Ordering::Relaxed);
                    }
                });
            }
            let (shown, stop) = (shown.clone(), stop.clone());
            ticker = Some(std::thread::spawn(move || {
                let (mut waited, mut built) = (Duration::ZERO, false);
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK / 10);
                    waited += TICK / 10;
                    if build_under_way() {
                        built = true;
                    } else if std::mem::take(&mut built) {
                        // The clock and the rate start after a table build (it says its
                        // own time): a minute of building is no part of the batch's pace.
                        shown.bar.reset_elapsed();
                        shown.bar.reset_eta();
                        // Nor is a log's line due at once ("0 of 100 instances done,
                        // 0:00 so far" between two builds): the next comes a gap later.
                        shown.pace.said();
                    }
                    if waited >= TICK && !build_under_way() {
                        waited = Duration::ZERO;
                        if logged {
                            // A batch of one says nothing of its own: its instance's
                            // lines say more.
                            if shown.total.load(Ordering::Relaxed) != 1 && shown.pace.due() {
                                inform!("{} {}", stamp(), shown.log_line());
                            }
                        } else {
                            shown.take_total(shown.bar.position());
                            shown.bar.tick();
                        }
                    }
                }
            }));
        }
        BatchBar {
            shown,
            stop,
            ticker: Mutex::new(ticker),
        }
    }

    /// A resumed results file already holds `done` instances: they are counted as done,
    /// but the log's time left is of what this run solves (a task requeued with 9,000 of
    /// 10,000 done would otherwise be told it ends in seconds). The terminal's bar still
    /// takes them into its rate.
    pub fn resumed(&self, done: u64) {
        self.shown.resumed.store(done, Ordering::Relaxed);
    }

    /// `done` instances are out, `failed` of them failed.
    pub fn update(&self, done: u64, failed: u64) {
        let s = &self.shown;
        s.take_total(done);
        s.bar.set_position(done);
        s.failed.store(failed, Ordering::Relaxed);
        s.bar.set_message(if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        });
    }

    /// A line about the instance being searched (the iterations of a long one).
    pub fn note(&self, text: String) {
        self.shown.bar.set_message(format!(" | {text}"));
    }

    /// Whether the bar is drawn at all.
    pub fn visible(&self) -> bool {
        !self.shown.bar.is_hidden()
    }

    /// Runs `f` (which prints) with the bar cleared, then draws it again.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.shown.bar.suspend(f)
    }

    /// Clears the bar for good.
    pub fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.lock().ok().and_then(|mut t| t.take()) {
            let _ = t.join();
        }
        self.shown.bar.finish_and_clear();
    }
}

impl Drop for BatchBar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How often the bar is redrawn when nothing else moves it.
const TICK: Duration = Duration::from_secs(1);

/// A log hears of the iterations that end from 10 seconds into the search (a long search
/// has a handful, each several times as long as the one before), or from half a second
/// with `FIFTEEN_TEST_LOG_EVERY_MS` (tests).
fn log_from() -> f64 {
    match std::env::var_os("FIFTEEN_TEST_LOG_EVERY_MS") {
        Some(_) => 0.5,
        None => 10.0,
    }
}

/// A long search's finished iterations (and a checkpointed one's finished subtrees), as a
/// line on a terminal's stderr: in the batch's progress line when it is drawn, else a line
/// of its own, redrawn in place. In a log, whole lines: each iteration that ends from
/// [`log_from`] on, the subtrees at the log's pace.
pub struct Iterations<'a> {
    id: &'a str,
    weight: Weight,
    started: Instant,
    bar: Option<&'a BatchBar>,
    /// Whether anything is shown: one instance searched `alone`, on a terminal, not quiet.
    show: bool,
    /// Whether lines go to a log: one instance searched `alone`, stderr not a terminal,
    /// not quiet.
    log: bool,
    /// When the subtrees were last drawn on a terminal (at most once a second).
    drawn: Mutex<Option<Instant>>,
    /// The nodes of a resumed search's earlier runs, left out of this run's rate.
    before: AtomicU64,
    /// When each iteration of this run ended (seconds in) and the nodes by then: the last
    /// three, from which the next iteration's time is guessed ([`next_iteration`]).
    ends: Mutex<Vec<(f64, u64)>>,
}

impl<'a> Iterations<'a> {
    pub fn new(
        id: &'a str,
        search: &Search,
        alone: bool,
        bar: Option<&'a BatchBar>,
    ) -> Iterations<'a> {
        Iterations {
            id,
            weight: search.weight,
            started: Instant::now(),
            bar,
            show: alone && !output::quiet() && std::io::stderr().is_terminal(),
            log: alone && to_log(),
            drawn: Mutex::new(None),
            before: AtomicU64::new(0),
            ends: Mutex::new(Vec::new()),
        }
    }

    /// A resumed search: `nodes` were counted by earlier runs (the rate is this run's).
    pub fn resumed_after(&self, nodes: u64) {
        self.before.store(nodes, Ordering::Relaxed);
    }

    /// Whether the search should report its iterations here.
    pub fn wanted(&self) -> bool {
        self.show || self.log
    }

    /// Shows a finished iteration (from half a second in: quick searches say nothing).
    pub fn note(&self, it: Iteration) {
        let secs = self.started.elapsed().as_secs_f64();
        let next = self.ends.lock().ok().and_then(|mut ends| {
            if ends.len() == 3 {
                ends.remove(0);
            }
            ends.push((secs, it.nodes));
            next_iteration(&ends)
        });
        if secs <= 0.5 || (self.log && secs < log_from()) {
            return;
        }
        let guess = next
            .filter(|&t| t >= 2.0)
            .map(|t| indicatif::HumanDuration(Duration::from_secs_f64(t.min(1e9))));
        // The time is the iteration's end: the next one, several times as long, is under
        // way (the batch's bar, when there is one, keeps its own clock moving). The hook
        // also hears of the iteration that found the answer: a line redrawn in place is
        // cleared at once, a log's stays, so it does not claim a next one.
        let (done, next) = match (self.log, guess) {
            (false, Some(t)) => (
                "done",
                format!("; searching the next (about {t} if it grows as the last did)"),
            ),
            (false, None) => ("done", "; searching the next".to_string()),
            (true, Some(t)) => (
                "searched",
                format!("; the next, if needed, takes about {t} if it grows as the last did"),
            ),
            (true, None) => ("searched", String::new()),
        };
        let text = format!(
            "instance {}: threshold {} {done} after {}, {} nodes, {:.1} M nodes/s{next}",
            self.id,
            // In moves (a weighted search's thresholds are scaled).
            self.weight.moves_at_least(it.threshold),
            // As the batch's line gives its times, from a minute on.
            match secs < 60.0 {
                true => format!("{secs:.1} s"),
                false => clock(Duration::from_secs_f64(secs)),
            },
            it.nodes,
            it.nodes.saturating_sub(self.before.load(Ordering::Relaxed)) as f64 / secs / 1e6,
        );
        self.say(text);
    }

    /// Shows how far a checkpointed search is through its iteration under way, from the
    /// books it is about to save: on a terminal at most once a second, in a log at its
    /// pace. (A resumed search says so from its first save, before any iteration ends.)
    pub fn subtrees(&self, books: &Books) {
        // (None counted yet at the top of an iteration: nothing to say.)
        let Some(of) = books.subtrees.filter(|&n| n > 0 && (self.show || self.log)) else {
            return;
        };
        if self.show {
            let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
            if drawn.is_some_and(|t| t.elapsed() < TICK) {
                return;
            }
            *drawn = Some(Instant::now());
        } else if !LogPace::get().due() {
            return;
        }
        let text = format!(
            "instance {}: threshold {}: {} of {of} subtrees done, {} nodes over {} so far",
            self.id,
            self.weight.moves_at_least(books.threshold),
            books.done.len(),
            books.spent,
            super::super::output::counted(books.runs as u64, "run"),
        );
        self.say(text);
    }

    /// A line: in a log whole, on a terminal in the batch's line or redrawn in place.
    fn say(&self, text: String) {
        if self.log {
            LogPace::get().said();
            inform!("{} {text}", stamp());
            return;
        }
        match self.bar.filter(|b| b.visible()) {
            Some(bar) => bar.note(text),
            None => {
                let _ = write!(std::io::stderr(), "\r\x1b[K{text}");
            }
        }
    }

    /// Clears a line of its own once the search is over.
    pub fn clear(&self) {
        let on_bar = self.bar.is_some_and(|b| b.visible());
        if self.show && !on_bar && self.started.elapsed().as_secs_f64() > 0.5 {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// A bar style with `{rate}`: instances a second, to one decimal.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("=> ")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1}/s", s.per_sec());
        })
        .with_key("eta", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            // Nothing done yet says nothing of the time left.
            let _ = match s.pos() {
                0 => write!(w, "?"),
                _ => write!(w, "{}", clock(s.eta())),
            };
        })
        .with_key(
            "elapsed_clock",
            |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", clock(s.elapsed()));
            },
        )
}

/// A guess at the next iteration's time from the ends of the last three (seconds in, nodes
/// by then), all of this run: the last iteration's time, times its growth in nodes over
/// the one before. IDA*'s iterations grow by a near-constant factor on a board, so this
/// is the likeliest figure; the last iteration stops at its first solution, and takes
/// less. `None` before three ends, or when the last iterations are too short to tell.
fn next_iteration(ends: &[(f64, u64)]) -> Option<f64> {
    let [(t0, n0), (t1, n1), (t2, n2)] = *ends else {
        return None;
    };
    let (before, last) = (n1.checked_sub(n0)?, n2.checked_sub(n1)?);
    let took = t2 - t1;
    (before > 0 && took >= 0.05 && t1 >= t0).then(|| took * last as f64 / before as f64)
}

/// A duration as `1:02:03` or `2:03`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_iteration_is_guessed_from_the_last_two() {
        // 6x the nodes of the one before, and the last took 10 s: about 60 s.
        let t = next_iteration(&[(1.0, 100), (3.0, 1_100), (13.0, 7_100)]).unwrap();
        assert!((t - 60.0).abs() < 1e-9, "{t}");
        assert_eq!(next_iteration(&[(1.0, 100), (3.0, 1_100)]), None);
        // Too short to tell, or no nodes in the one before.
        assert_eq!(
            next_iteration(&[(1.0, 100), (1.01, 200), (1.02, 800)]),
            None
        );
        assert_eq!(next_iteration(&[(1.0, 100), (2.0, 100), (3.0, 800)]), None);
    }

    #[test]
    fn times_left_read_as_clocks() {
        assert_eq!(clock(Duration::from_secs(5)), "0:05");
        assert_eq!(clock(Duration::from_secs(125)), "2:05");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
