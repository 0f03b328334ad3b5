//! A batch's progress on stderr, for a person watching a terminal: instances done out of
//! the total, the rate and the time left. Nothing at all when stderr is not a terminal or
//! with `--quiet`, so pipes and logs see only results and errors.

use std::io::{BufReader, IsTerminal};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::super::output;
use crate::cluster::shard::Shard;
use crate::instances::Reader;
use crate::{GoalSpec, Shape};

/// Not counted yet (or not countable: stdin).
const UNKNOWN: u64 = u64::MAX;

/// The progress line of a batch. Drawn only when a result comes in (no ticker thread), so
/// it never fights with a table build's own bar.
pub struct BatchBar {
    bar: ProgressBar,
    /// The number of instances, once a thread of its own has counted them.
    total: Arc<AtomicU64>,
    /// Whether the bar already shows the total.
    with_total: AtomicBool,
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
        if visible {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.set_style(style("{pos} done, {rate}, {elapsed}{msg}"));
            if let Some(path) = file.filter(|p| *p != "-") {
                let (path, goal, total) = (path.to_string(), goal.clone(), total.clone());
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
        }
        BatchBar {
            bar,
            total,
            with_total: AtomicBool::new(false),
        }
    }

    /// `done` instances are out, `failed` of them failed.
    pub fn update(&self, done: u64, failed: u64) {
        if !self.with_total.load(Ordering::Relaxed) {
            let total = self.total.load(Ordering::Relaxed);
            if total != UNKNOWN {
                self.with_total.store(true, Ordering::Relaxed);
                self.bar.set_length(total.max(done));
                self.bar
                    .set_style(style("[{bar:20}] {pos}/{len}, {rate}, {eta} left{msg}"));
            }
        }
        self.bar.set_position(done);
        self.bar.set_message(if failed > 0 {
            format!(", {failed} failed")
        } else {
            String::new()
        });
    }

    /// A line about the instance being searched (the iterations of a long one).
    pub fn note(&self, text: String) {
        self.bar.set_message(format!(" | {text}"));
    }

    /// Whether the bar is drawn at all.
    pub fn visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// Runs `f` (which prints) with the bar cleared, then draws it again.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clears the bar for good.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
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
            let _ = write!(w, "{}", clock(s.eta()));
        })
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
    fn times_left_read_as_clocks() {
        assert_eq!(clock(Duration::from_secs(5)), "0:05");
        assert_eq!(clock(Duration::from_secs(125)), "2:05");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
