//! A batch's progress on stderr, for a person watching a terminal: instances done out of
//! the total, the rate, the time so far and the time left. Nothing at all when stderr is not a terminal or
//! with `--quiet`, so pipes and logs see only results and errors.

use std::io::{BufReader, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::super::output;
use super::super::progress::build_under_way;
use crate::cluster::shard::Shard;
use crate::instances::Reader;
use crate::search::{Iteration, Search, Weight};
use crate::{GoalSpec, Shape};

/// Not counted yet (or not countable: stdin).
const UNKNOWN: u64 = u64::MAX;

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
}

impl BatchBar {
    /// A bar for a batch read from `file` (counted on a thread of its own so that solving
    /// starts at once; `None` for stdin, whose total cannot be known), shown when `show`
    /// and stderr is a terminal and `--quiet` was not given.
    /// With a `shard`, the total is that shard's part of the file.
    pub fn new(
        show: bool,
        file: Option<&str>,
        goal: &GoalSpec,
        size: Option<Shape>,
        shard: Option<Shard>,
    ) -> BatchBar {
        let visible = show && !output::quiet() && std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let total = Arc::new(AtomicU64::new(UNKNOWN));
        let shown = Arc::new(Shown {
            bar,
            total: total.clone(),
            with_total: AtomicBool::new(false),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let mut ticker = None;
        if visible {
            shown.bar.set_draw_target(ProgressDrawTarget::stderr());
            shown
                .bar
                .set_style(style("{pos} done, {rate}, {elapsed_clock}{msg}"));
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
                    }
                    if waited >= TICK && !build_under_way() {
                        waited = Duration::ZERO;
                        shown.take_total(shown.bar.position());
                        shown.bar.tick();
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

    /// `done` instances are out, `failed` of them failed.
    pub fn update(&self, done: u64, failed: u64) {
        let s = &self.shown;
        s.take_total(done);
        s.bar.set_position(done);
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

/// A long search's finished iterations, as a line on a terminal's stderr: in the batch's
/// progress line when it is drawn, else a line of its own, redrawn in place.
pub struct Iterations<'a> {
    id: &'a str,
    weight: Weight,
    started: Instant,
    bar: Option<&'a BatchBar>,
    /// Whether anything is shown: one instance searched `alone`, on a terminal, not quiet.
    pub show: bool,
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
            ends: Mutex::new(Vec::new()),
        }
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
        if secs <= 0.5 {
            return;
        }
        let next = match next {
            Some(t) if t >= 2.0 => format!(
                " (about {} if it grows as the last did)",
                indicatif::HumanDuration(Duration::from_secs_f64(t.min(1e9)))
            ),
            _ => String::new(),
        };
        // The time is the iteration's end: the next one, several times as long, is under
        // way (the batch's bar, when there is one, keeps its own clock moving).
        let text = format!(
            "instance {}: threshold {} done after {:.1} s, {} nodes, {:.1} M nodes/s; searching the next{next}",
            self.id,
            // In moves (a weighted search's thresholds are scaled).
            self.weight.moves_at_least(it.threshold),
            secs,
            it.nodes,
            it.nodes as f64 / secs / 1e6,
        );
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
