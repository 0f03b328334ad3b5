//! `fifteen play`: the game in a terminal. The screen and keys are in [`app`]; this part
//! turns the arguments into a game and a solver for its hints.

mod app;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::args::{self, TablesArg};
use super::output::emit;
use super::table_cache::TableCache;
use super::INTERRUPTED;
use crate::game::Game;
use crate::random::{random_board, Rng};
use crate::{Board, GoalSpec, HeuristicKind, Shape, Solver};

/// Arguments of `fifteen play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The starting board (default: a random one), as for solve.
    board: Vec<String>,
    /// Board shape (RxC or N) for a random board, or for a non-square BOARD.
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
    /// The goal: standard, blank-first, or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    /// Pattern databases are used when present (never built by play); otherwise linear
    /// conflict.
    #[command(flatten)]
    tables: TablesArg,
    /// Seed for random boards, 0 to 2^64 - 1 (default: from the clock).
    #[arg(long, value_parser = args::whole::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Milliseconds between moves when `s` plays a solution back (0 to 10000).
    #[arg(long, value_name = "MS", default_value_t = 300, value_parser = args::whole::<u64>(0, 10_000), allow_negative_numbers = true)]
    pace: u64,
}

/// Plays until the player quits, then prints a one-line summary.
pub fn run(a: PlayArgs) -> Result<i32> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("play needs a terminal (use solve for pipes and files)");
    }
    let text = a.board.join(" ");
    let mut rng = Rng::new(a.seed.unwrap_or_else(args::clock_seed));
    let (start, goal) = if text.trim().is_empty() {
        let shape = a.size.unwrap_or(Shape::new(4, 4).expect("4x4"));
        let goal = a.goal.for_shape(shape).context("bad --goal")?;
        (random_board(&mut rng, &goal), goal)
    } else {
        let b = match a.size {
            Some(shape) => Board::parse_as(&text, shape),
            None => Board::parse(&text),
        }
        .context("bad board")?;
        let goal = a.goal.for_shape(b.shape()).context("bad --goal")?;
        (b, goal)
    };
    let game = Game::new(start, goal).context("bad board")?;
    let shape = start.shape();
    let tables: PathBuf = a.tables.tables;
    let mut cache = TableCache::new(&tables, None, false, true);
    let (solver, heuristic) = match cache.get(shape, goal.blank())? {
        Some(p) => (
            Solver::with_pdb(p),
            format!("pdb (tables in {})", tables.display()),
        ),
        None => (
            Solver::new(HeuristicKind::LinearConflict),
            format!(
                "linear conflict (no {shape} tables in {})",
                tables.display()
            ),
        ),
    };
    let threads = args::threads(None);
    let solver = if threads > 1 {
        solver.split_on(Arc::new(args::pool(threads)?))
    } else {
        solver
    };
    let summary = app::run(app::Setup {
        game,
        solver,
        heuristic,
        rng,
        pace: Duration::from_millis(a.pace),
        interrupted: &INTERRUPTED,
    })?;
    emit(&mut std::io::stdout(), &format!("{summary}\n"))?;
    Ok(0)
}
