//! `fifteen random`: reproducible random boards, one per line, ready to pipe into `solve`.

use std::io::Write;
use std::sync::atomic::Ordering;

use anyhow::{bail, Context, Result};

use super::args;
use super::output::emit;
use crate::cluster::shard::Shard;
use crate::random::{random_board, random_walk, Rng};
use crate::{Goal, GoalSpec, Shape};

/// The longest `--walk`: a million moves take milliseconds; longer walks add nothing.
const MAX_WALK: u64 = 1_000_000;

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
    /// Print only shard K of N (K from 1 to N) of the very lines printed without it (needs
    /// --seed, the same for every shard):
    /// board i (counted from 1) is shard ((i - 1) mod N) + 1's. Add --ids to number each
    /// board as in the whole sequence, so that the shards' results keep those ids.
    #[arg(long, value_name = "K/N", value_parser = args::shard)]
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
    let mut rng = Rng::new(a.seed.unwrap_or_else(args::clock_seed));
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
    for i in 1..=a.count {
        // A huge --count stops on Ctrl-C or SIGTERM with the lines so far printed whole.
        if super::INTERRUPTED.load(Ordering::Relaxed) {
            emit(&mut out, "")?;
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
