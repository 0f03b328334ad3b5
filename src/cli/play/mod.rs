//! `fifteen play`: the game in a terminal. The keys and the main loop are in [`app`], the
//! searches behind the distance, hints and solutions in [`analysis`], the drawing in
//! [`screen`], the terminal and every way of giving it back in [`terminal`]; this part
//! turns the arguments into a game and a solver for its hints.

mod analysis;
mod app;
mod screen;
mod terminal;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::args::{self, TablesArg};
use super::output::emit;
use super::table_cache::TableCache;
use super::workers;
use super::INTERRUPTED;
use crate::game::Game;
use crate::random::{random_board, Rng};
use crate::{Board, GoalSpec, HeuristicKind, Shape, Solver};

/// Arguments of `fifteen play`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("tables", |a| a.help(args::tables_help!(
    "Used when present; play never builds them (solve builds them on first use, build-pdb \
     ahead): without them the game uses linear conflict, and the screen says which."
))))]
pub struct PlayArgs {
    /// The starting board (default: a random one), as for solve.
    board: Vec<String>,
    /// Board shape (RxC or N) for a random board, or for a non-square BOARD.
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
    /// The goal: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    #[command(flatten)]
    tables: TablesArg,
    /// Seed for random boards, 0 to 2^64 - 1 (default: from the clock).
    #[arg(long, value_parser = args::whole::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Milliseconds between moves when `s` plays a solution back (0 to 10000).
    #[arg(long, value_name = "MS", default_value_t = 300, value_parser = args::whole::<u64>(0, 10_000), allow_negative_numbers = true)]
    pace: u64,
    /// Seconds the solver may spend proving the optimal distance of each board (0.1 to
    /// 3600). Beyond that the game shows a proven lower bound ("at least 84") and looks,
    /// for as long again, for a solution that may not be optimal (weighted search), said
    /// to be so; or says the board is too hard to compute here.
    #[arg(long, value_name = "SECONDS", default_value = "3", value_parser = think, allow_negative_numbers = true)]
    think: Duration,
}

/// Parses `--think`: seconds, in range.
fn think(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.1..=3600.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err("give seconds from 0.1 to 3600".into()),
    }
}

/// Plays until the player quits, then prints a one-line summary. Exit status 0; a signal
/// that ends the game ends the process with 128 + its number, the terminal restored (see
/// [`terminal`]).
pub fn run(a: PlayArgs) -> Result<i32> {
    let text = super::input::one_board(&a.board, a.size, "play")?;
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
    let game = Game::new(start, goal).map_err(|e| {
        // play reads no file: the other goal's advice keeps its option alone.
        let why = e.to_string();
        let why = match why.split_once(", or a `goal: ") {
            Some((option, _)) => option.to_string(),
            None => why,
        };
        anyhow::anyhow!("bad board: {why}")
    })?;
    // After the board: a bad one is said as such wherever play is run.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("play needs a terminal (use solve for pipes and files)");
    }
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
    let threads = workers::threads(None);
    let pool = match threads {
        1 => None,
        n => Some(Arc::new(workers::pool(n)?)),
    };
    let (summary, status) = app::run(app::Setup {
        game,
        solver,
        pool,
        heuristic,
        rng,
        pace: Duration::from_millis(a.pace),
        think: a.think,
        interrupted: &INTERRUPTED,
    })?;
    emit(&mut std::io::stdout(), &format!("{summary}\n"))?;
    Ok(status)
}
