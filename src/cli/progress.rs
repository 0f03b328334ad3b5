//! The progress bar of a table build, shared by `build-pdb` and by `solve`'s builds on
//! first use. The library reports [`BuildEvent`]s through a callback; this draws them.

use std::io::IsTerminal;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::pdb::{BuildEvent, Built, Partition, PatternSpec, TableDir};

/// Builds the partition's missing tables into `dir`, with one bar per breadth-first layer
/// on stderr when it is a terminal (and `show` is set, and not `--quiet`), and a line for each table written.
pub fn build_with_bar(
    dir: &TableDir,
    partition: &Partition,
    show: bool,
) -> Result<Vec<(PatternSpec, Built)>> {
    let bar = ProgressBar::new(0);
    if !show || super::output::quiet() || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("  {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let n = dir.missing(partition).len();
    let built = dir.build_missing(partition, &|i, spec, ev| match ev {
        BuildEvent::Start { placements, .. } => bar.set_prefix(format!(
            "table {}/{n} ({} tiles, {placements} placements)",
            i + 1,
            spec.tiles.len()
        )),
        BuildEvent::Expanded { depth, done, total } => {
            bar.set_length(total);
            bar.set_position(done);
            bar.set_message(format!("depth {depth}"));
        }
        BuildEvent::Layer { .. } => {}
        BuildEvent::Saved { path } => bar.println(format!("  wrote {}", path.display())),
    })?;
    bar.finish_and_clear();
    Ok(built)
}
