//! `fifteen compare BOARD`: every classic search and estimate on one board, under a node
//! and memory limit, one row each (docs/teaching.md).

use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use super::args::{self, Format, TablesArg};
use super::output::emit;
use super::solve::classic::{counts_into, human_bytes, instance_record, memory};
use super::solve::plan::{NoSolver, Solvers};
use crate::classic::{
    classic_solve, reason_text, Algorithm, Classic, ClassicError, Counts, COMPARISON,
};
use crate::instances::Reader;
use crate::record::Record;
use crate::search::{Limits, StopReason};
use crate::{GoalSpec, HeuristicKind, Shape};

/// The node limit of each row when none is given.
const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// Arguments of `fifteen compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The board: one quoted argument ("1 2 3 ..."), or all its numbers.
    #[arg(required = true)]
    board: Vec<String>,
    /// The goal: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    /// The shape of a board that is not square (RxC).
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
    /// Each row stops after generating this many nodes (default 1000000).
    #[arg(long, value_name = "N", value_parser = args::whole::<u64>(1, 1_000_000_000_000), allow_negative_numbers = true)]
    max_nodes: Option<u64>,
    /// Each graph search (bfs, greedy, astar) stops at this much memory, 1K to 1024T
    /// (bytes, or with K, M, G, T; default 1G).
    #[arg(long, value_name = "SIZE", value_parser = memory, allow_hyphen_values = true)]
    max_memory: Option<u64>,
    /// Each row stops after this many seconds, or this long with a unit (5m, 2h).
    #[arg(long, value_name = "SECONDS", value_parser = args::timeout, allow_hyphen_values = true)]
    timeout: Option<Duration>,
    /// How deep dfs goes, 0 to 10,000 (default: 31 on 3x3, 80 on 4x4, otherwise 200).
    #[arg(long, value_name = "N", value_parser = args::whole::<u32>(0, 10_000), allow_negative_numbers = true)]
    depth_limit: Option<u32>,
    /// Never build tables: the pdb rows use linear conflict where tables are missing.
    #[arg(long)]
    no_build: bool,
    #[command(flatten)]
    tables: TablesArg,
    /// Output: a table for people, or one JSON object a row.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `fifteen compare`.
pub fn run(a: CompareArgs) -> Result<i32> {
    // In brackets: one board, never a file's `ID LEN tiles` line.
    let board = super::input::one_board(&a.board, a.size, "compare")?;
    let text = super::input::board_argument(&board) + "\n";
    let mut reader = Reader::new(std::io::Cursor::new(text), a.goal.clone()).with_size(a.size);
    let inst = match reader.next() {
        Some(Ok(inst)) => inst,
        Some(Err(bad)) => bail!("{bad}"),
        None => bail!("no board given"),
    };
    if let Err(e) = inst.goal.labels(&inst.board) {
        bail!("{e}");
    }
    let max_nodes = a.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let json = a.format == Format::Json;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if !json {
        let max_memory = a.max_memory.unwrap_or(crate::classic::DEFAULT_MAX_MEMORY);
        emit(
            &mut out,
            &format!(
                "board {} ({}), goal {}\nlimits a row: {max_nodes} nodes generated, {} (graph searches){}\n\n\
                 {:<9} {:<16} {:>6} {:>7} {:>10} {:>10} {:>13} {:>9} {:>10} {:>10}\n",
                inst.board,
                inst.board.shape(),
                inst.goal.name(),
                human_bytes(max_memory),
                a.timeout
                    .map_or(String::new(), |t| format!(", {} s", t.as_secs_f64())),
                "algorithm",
                "heuristic",
                "length",
                "proven",
                "expanded",
                "generated",
                "peak frontier",
                "closed",
                "memory",
                "time"
            ),
        )?;
    }
    let blind = crate::Solver::new(HeuristicKind::Manhattan);
    let mut pdb = Solvers::new(HeuristicKind::Pdb, &a.tables.tables, !a.no_build);
    for (algorithm, kind) in COMPARISON {
        if super::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(130);
        }
        let solver = match kind {
            None => blind.clone(),
            Some(HeuristicKind::Pdb) => match pdb.get(&inst) {
                Ok(s) => s,
                Err(NoSolver::Interrupted) => return Ok(130),
                Err(NoSolver::Tables(why)) => bail!(why),
            },
            Some(k) => crate::Solver::new(k),
        };
        let c = Classic {
            algorithm,
            depth_limit: a.depth_limit,
            limits: Limits {
                max_nodes: Some(max_nodes),
                deadline: a.timeout.map(|t| Instant::now() + t),
                stop: Some(&super::INTERRUPTED),
            },
            max_memory: a.max_memory,
            ..Classic::new(algorithm)
        };
        let t0 = Instant::now();
        let result = classic_solve(&solver, &inst.board, &inst.goal, &c);
        let millis = t0.elapsed().as_secs_f64() * 1000.0;
        let used = match (&result, kind) {
            (Ok((_, k)), Some(_)) => Some(*k),
            (_, Some(HeuristicKind::Pdb)) => Some(solver.kind()),
            _ => kind,
        };
        let moves = result
            .as_ref()
            .ok()
            .map(|(ans, _)| crate::board::moves_to_string(&ans.moves));
        let (length, optimal, counts, note) = match &result {
            Ok((ans, _)) => (
                Some(ans.moves.len()),
                Some(ans.optimal),
                ans.counts,
                String::new(),
            ),
            Err(ClassicError::Stopped { reason, counts }) => (
                None,
                None,
                *counts,
                format!("stopped: {}", reason_text(*reason)),
            ),
            Err(ClassicError::DepthLimit { limit, counts }) => (
                None,
                None,
                *counts,
                format!("no solution within depth {limit}"),
            ),
            Err(ClassicError::Board(e)) => bail!("{e}"),
        };
        if matches!(
            &result,
            Err(ClassicError::Stopped {
                reason: StopReason::Interrupted,
                ..
            })
        ) && super::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
        {
            return Ok(130);
        }
        let line = if json {
            row_record(
                &inst, algorithm, used, length, moves, optimal, &counts, millis, &note,
            )
            .to_line()
                + "\n"
        } else {
            let dash = |s: Option<String>| s.unwrap_or_else(|| "-".into());
            format!(
                "{:<9} {:<16} {:>6} {:>7} {:>10} {:>10} {:>13} {:>9} {:>10} {:>10}{}\n",
                algorithm.name(),
                used.map_or("-", |k| k.name()),
                dash(length.map(|l| l.to_string())),
                dash(optimal.map(|o| if o { "yes" } else { "no" }.to_string())),
                counts.expanded,
                counts.generated,
                counts.peak_frontier,
                dash(counts.closed.map(|c| c.to_string())),
                human_bytes(counts.memory),
                format!("{millis:.1} ms"),
                if note.is_empty() {
                    String::new()
                } else {
                    format!("  {note}")
                }
            )
        };
        emit(&mut out, &line)?;
    }
    Ok(0)
}

/// One row as a JSON record, a result record as `solve` writes (`fifteen check` reads its
/// moves): a limited row has `error` (naming the instance) and `kind: "limit"` and no
/// length.
#[allow(clippy::too_many_arguments)]
fn row_record(
    inst: &crate::Instance,
    algorithm: Algorithm,
    kind: Option<HeuristicKind>,
    length: Option<usize>,
    moves: Option<String>,
    optimal: Option<bool>,
    c: &Counts,
    millis: f64,
    note: &str,
) -> Record {
    let mut r = Record {
        length: length.map(|l| l as u64),
        optimal,
        moves,
        millis: Some((millis * 1000.0).round() / 1000.0),
        heuristic: kind.map(|k| k.name().to_string()),
        error: (!note.is_empty()).then(|| format!("instance {}: {note}", inst.id)),
        kind: (!note.is_empty()).then(|| "limit".to_string()),
        algorithm: Some(algorithm.name().to_string()),
        ..instance_record(inst)
    };
    counts_into(&mut r, c);
    r
}
