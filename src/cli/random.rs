//! `fifteen random`: reproducible random boards, one per line, ready to pipe into `solve`.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::Ordering;

use anyhow::{bail, Context, Result};

use super::args::{self, TablesArg};
use super::output::emit;
use super::solve::plan::{NoSolver, Solvers};
use crate::cluster::shard::Shard;
use crate::random::{
    board_rng, distance_budget, farthest, random_board, random_walk, walk_gave_up,
    walk_to_distance, Rng,
};
use crate::search::{Limits, Search};
use crate::{Board, Goal, GoalSpec, HeuristicKind, Instance, Shape, SolveError};

/// The longest `--walk`: a million moves take milliseconds; longer walks add nothing.
const MAX_WALK: u64 = 1_000_000;

/// The farthest `--distance`: beyond every board's farthest (6x6 boards are at most a few
/// hundred moves from any goal).
const MAX_DISTANCE: u64 = 1_000;

/// Arguments of `fifteen random`.
#[derive(clap::Args, Debug)]
pub struct RandomArgs {
    /// How many boards (0 to 2^64 - 1).
    #[arg(long, default_value_t = 1, value_parser = args::whole::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    count: u64,
    /// Seed for reproducible boards, 0 to 2^64 - 1 (default: from the clock).
    #[arg(long, value_parser = args::whole::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Board size: N for NxN, or RxC.
    #[arg(long, default_value = "4", value_parser = args::shape, allow_negative_numbers = true)]
    size: Shape,
    /// The goal the boards must be able to reach: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    /// Instead of uniform boards, random walks of this many moves from the goal (0 to
    /// 1,000,000; a walk much longer than the board is wide gives nearly uniform boards).
    #[arg(long, value_name = "MOVES", value_parser = args::whole::<usize>(0, MAX_WALK), allow_negative_numbers = true)]
    walk: Option<usize>,
    /// Instead of uniform boards, boards exactly this many moves from the goal (0 to 1,000):
    /// each where a random walk from the goal first stands that far, measured by optimal
    /// searches (with the tables, as solve; built on first use). Not uniform among the
    /// boards at that distance. Each board has its own generator (from --seed and its
    /// number), so that a shard measures its own boards alone.
    #[arg(long, value_name = "MOVES", conflicts_with = "walk", value_parser = args::whole::<u32>(0, MAX_DISTANCE), allow_negative_numbers = true)]
    distance: Option<u32>,
    /// With --distance: never build tables (boards without them are measured with linear
    /// conflict).
    #[arg(long, requires = "distance")]
    no_build: bool,
    #[command(flatten)]
    tables: TablesArg,
    /// Print only shard K of N (K from 1 to N) of the very lines printed without it (needs
    /// --seed, the same for every shard):
    /// board i (counted from 1) is shard ((i - 1) mod N) + 1's. Add --ids to number each
    /// board as in the whole sequence, so that the shards' results keep those ids.
    #[arg(long, value_name = "K/N", value_parser = args::shard, allow_hyphen_values = true)]
    shard: Option<Shard>,
    /// Start each line with the board's number and `?` (`ID ? tiles`, an instance line
    /// whose optimal length is unknown), so that `solve` keeps these ids.
    #[arg(long)]
    ids: bool,
}

/// Prints the boards; a closed pipe (`| head`) ends it quietly.
pub fn run(a: RandomArgs) -> Result<i32> {
    let shape = a.size;
    let goal = a.goal.for_shape(shape).context("bad --goal")?;
    if let (Some(shard), None) = (a.shard, a.seed) {
        // Each shard would draw from its own clock seed: slices of different sequences.
        bail!("--shard {shard} needs --seed: the shards are slices of one sequence only when every shard draws it from the same seed (give each the same --seed S)");
    }
    if a.count > 0 {
        super::output::stdout_is_open()?;
    }
    let seed = a.seed.unwrap_or_else(args::clock_seed);
    let mut rng = Rng::new(seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let lost = |e| anyhow::Error::new(e).context("cannot write the output");
    // A non-square board's numbers do not say its shape: say it first, as instance files
    // do, so that the output reads back (`fifteen random --size 3x4 | fifteen solve -`).
    if shape.rows != shape.cols {
        writeln!(out, "size: {shape}").map_err(lost)?;
    }
    // Likewise a goal other than the one `solve` assumes.
    if goal != Goal::standard(shape) {
        writeln!(out, "goal: {}", goal.board()).map_err(lost)?;
    }
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    if let Some(d) = a.distance {
        return at_distance(&a, &goal, d, seed, shard, &mut out);
    }
    for i in 1..=a.count {
        // A huge --count stops on Ctrl-C or SIGTERM with the lines so far printed whole.
        if super::INTERRUPTED.load(Ordering::Relaxed) {
            emit(&mut out, "")?;
            super::output::note!(
                "interrupted: {} of the {} boards drawn, the lines printed whole; the rest were not drawn",
                i - 1,
                a.count
            );
            return Ok(130);
        }
        // Every board is drawn, the other shards' too: each draw takes a varying amount
        // of the generator's output, so board i can only be had after boards 1 to i - 1.
        let b = match a.walk {
            Some(k) => random_walk(&mut rng, &goal, k),
            None => random_board(&mut rng, &goal),
        };
        if !shard.contains(i) {
            continue;
        }
        if a.ids {
            writeln!(out, "{i} ? {b}").map_err(lost)?;
        } else {
            writeln!(out, "{b}").map_err(lost)?;
        }
    }
    emit(&mut out, "")?;
    Ok(0)
}

/// `--distance`: board `i` from its own generator, seeded from `seed` and `i`, printed as it
/// is found (each may take a while: every one needs optimal searches).
fn at_distance(
    a: &RandomArgs,
    goal: &Goal,
    d: u32,
    seed: u64,
    shard: Shard,
    out: &mut impl Write,
) -> Result<i32> {
    if let Some(max) = farthest(goal).filter(|&max| d > max) {
        bail!("no {} board is more than {max} moves from this goal (the puzzle's known radius with the blank in a corner): give --distance {max} or less (the farthest boards are rare: a walk may not meet them)", goal.shape());
    }
    let mut solvers = Solvers::new(HeuristicKind::Pdb, &a.tables.tables, !a.no_build);
    let at_goal = Instance {
        id: "goal".into(),
        board: *goal.board(),
        goal: *goal,
        known: None,
    };
    let solver = match solvers.get(&at_goal) {
        Ok(s) => s,
        Err(NoSolver::Interrupted) => return Ok(130),
        Err(NoSolver::Tables(why)) => bail!(why),
    };
    let search = Search {
        limits: Limits {
            stop: Some(&super::INTERRUPTED),
            ..Limits::default()
        },
        ..Search::default()
    };
    // Distances measured, by board: walks on small boards, or near the farthest boards,
    // meet the same boards again and again.
    let mut known: HashMap<Board, u32> = HashMap::new();
    let budget = distance_budget(d);
    let lost = |e| anyhow::Error::new(e).context("cannot write the output");
    for i in (1..=a.count).filter(|&i| shard.contains(i)) {
        let mut rng = board_rng(seed, i);
        let measure = |b: &Board| -> Result<u32, SolveError> {
            if let Some(&v) = known.get(b) {
                return Ok(v);
            }
            let v = solver.solve(b, goal, &search)?.moves.len() as u32;
            if known.len() >= 1 << 20 {
                known.clear();
            }
            known.insert(*b, v);
            Ok(v)
        };
        match walk_to_distance(&mut rng, goal, d, budget, measure) {
            Ok(Some(b)) if a.ids => writeln!(out, "{i} ? {b}").map_err(lost)?,
            Ok(Some(b)) => writeln!(out, "{b}").map_err(lost)?,
            Ok(None) => bail!("{}", walk_gave_up(goal, d, budget)),
            Err(SolveError::Stopped(_)) if super::INTERRUPTED.load(Ordering::Relaxed) => {
                emit(out, "")?;
                super::output::note!("interrupted: the boards printed are whole, each {d} moves away; the rest were not drawn");
                return Ok(130);
            }
            Err(e) => bail!("measuring a board's distance: {e}"),
        }
        // Each line as it is found: they may come slowly.
        out.flush().map_err(lost)?;
    }
    emit(out, "")?;
    Ok(0)
}
