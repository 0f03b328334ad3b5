//! `fifteen split`: one instance's IDA* split by iteration over tasks that may run on
//! different machines (the library side is `search::split` and `cluster`).
//! `slurm/solve-split.sh` drives it: `frontier` once, then per iteration `search` for
//! each part and `reduce`, until a part finds the solution.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::args::{self, TablesArg};
use super::output::{emit, inform, note};
use super::table_cache::TableCache;
use super::target::{can_write_beside, may_replace, not_an_input};
use super::INTERRUPTED;
use crate::board::{moves_to_string, Dir};
use crate::cluster::shard::Shard;
use crate::cluster::split::{
    frontier, reduce, search_part, FrontierFile, PartFile, PartResult, SplitSearchError,
};
use crate::cluster::{ClusterError, Identity};
use crate::search::{Geometry, Heuristic, Limits, StopReason, Tiles, Weight};
use crate::solver::SearchJob;
use crate::{Board, Goal, GoalSpec, HeuristicKind, Shape, Solver};

/// The deepest frontier: 2^20 or so entries at most on 5x5 (branching about 2.4).
const MAX_DEPTH: u64 = 16;

/// Arguments of `fifteen split`.
#[derive(clap::Args, Debug)]
pub struct SplitArgs {
    #[command(subcommand)]
    step: Step,
}

#[derive(clap::Subcommand, Debug)]
enum Step {
    /// Write the frontier: every node DEPTH moves from the board (a move never undoing the
    /// one before), in search order, with the board, goal and estimate. Prints the first
    /// threshold.
    Frontier(FrontierArgs),
    /// Search one part K/N of one iteration: the frontier entries i (from 1) with
    /// ((i - 1) mod N) + 1 = K, under
    /// the threshold; write nodes, the least f over the threshold, and a solution if found.
    Search(SearchArgs),
    /// Add up the parts of one iteration (all of 1 to N, each once, for the same frontier and
    /// threshold); print `threshold T nodes N next T2`, or `threshold T nodes N solved
    /// length L moves M`.
    Reduce(ReduceArgs),
}

#[derive(clap::Args, Debug)]
#[command(mut_arg("tables", |a| a.help(args::tables_help!(
    "Built there on first use when quick, said before it starts (build-pdb builds them \
     ahead); boards without tables (6x6) get linear conflict, with a note. The frontier \
     records the estimate and partition, which every part must search with."
))))]
struct FrontierArgs {
    /// The board ("1 2 3 ...").
    board: String,
    /// The goal: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    /// The board's shape, RxC (needed for boards that are not square).
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
    #[command(flatten)]
    tables: TablesArg,
    /// The estimate: pdb (tables, built if missing and quick), linear-conflict, manhattan.
    #[arg(long, default_value = "pdb", value_parser = ["pdb", "linear-conflict", "manhattan"])]
    heuristic: String,
    /// Table partition (default: the board's default).
    #[arg(long)]
    partition: Option<String>,
    /// Depth of the frontier, 1 to 16: deeper means more, smaller subtrees (about 2.1
    /// times more per move on 4x4, 2.4 on 5x5); 12 gives thousands on 4x4.
    #[arg(long, default_value_t = 12, value_parser = args::whole::<u32>(1, MAX_DEPTH), allow_negative_numbers = true)]
    depth: u32,
    /// Where to write the frontier. An existing file is replaced only when it is this
    /// search's frontier (or with --force).
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output even when it is not a file of this search.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args, Debug)]
#[command(mut_arg("tables", |a| a.help(args::tables_help!(
    "They must be the tables the frontier was written with (its estimate and partition are \
     checked). A task that finds them missing builds them there when quick, as solve \
     does: build them before the job (build-pdb, or split frontier), in a directory every \
     task reads."
))))]
struct SearchArgs {
    /// The frontier file.
    frontier: PathBuf,
    /// The iteration's threshold (from `frontier` or the last `reduce`).
    #[arg(long, value_parser = args::whole::<u32>(0, u32::MAX as u64 - 1), allow_negative_numbers = true)]
    threshold: u32,
    /// This part, K/N (K from 1 to N, as shards count): the frontier entries i (counted
    /// from 1) with ((i - 1) mod N) + 1 = K.
    #[arg(long, value_name = "K/N", value_parser = part, allow_hyphen_values = true)]
    part: Shard,
    #[command(flatten)]
    tables: TablesArg,
    /// Give up after this many seconds, or this long with a unit (5m, 2h, 1d); no part
    /// file is written.
    #[arg(long, value_name = "SECONDS", value_parser = args::timeout, allow_hyphen_values = true)]
    timeout: Option<Duration>,
    /// Where to write the part. An existing file is replaced only when it is this part
    /// of this iteration (or with --force); never the frontier.
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output even when it is not this part's file.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args, Debug)]
struct ReduceArgs {
    /// The part files of one iteration.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The iteration's threshold: a part of another iteration is named as the odd one out
    /// (without it, every part is held to the first one given, which a stray first part
    /// makes the odd one).
    #[arg(long, value_parser = args::whole::<u32>(0, u32::MAX as u64 - 1), allow_negative_numbers = true)]
    threshold: Option<u32>,
    /// The frontier the parts searched: a part of another frontier (another board's, or
    /// another job's left in a reused directory) is named as not of this search (without
    /// it, the parts are held only to each other).
    #[arg(long, value_name = "FILE")]
    frontier: Option<PathBuf>,
}

/// The most parts an iteration may have.
const MAX_PARTS: u64 = 100_000;

fn part(text: &str) -> Result<Shard, String> {
    let bad = || {
        let text: String = text.chars().take(30).collect();
        format!("'{text}' is not a part: give K/N, part K of N, K from 1 to N (parts count from 1, as shards do), N from 1 to {MAX_PARTS}")
    };
    let part: Shard = text.parse().map_err(|_| bad())?;
    if part.count() > MAX_PARTS {
        return Err(bad());
    }
    Ok(part)
}

/// `fifteen split`.
pub fn run(a: SplitArgs) -> Result<i32> {
    match a.step {
        Step::Frontier(a) => run_frontier(a),
        Step::Search(a) => run_search(a),
        Step::Reduce(a) => run_reduce(a),
    }
}

fn kind(name: &str) -> Result<HeuristicKind> {
    Ok(match name {
        "pdb" => HeuristicKind::Pdb,
        "linear-conflict" => HeuristicKind::LinearConflict,
        "manhattan" => HeuristicKind::Manhattan,
        other => bail!("unknown heuristic '{other}'"),
    })
}

/// The solver for `kind`, with tables from `dir` when it is `pdb`.
fn solver(
    kind: HeuristicKind,
    dir: &Path,
    partition: Option<String>,
    board: &Board,
    goal: &Goal,
) -> Result<Solver> {
    if kind != HeuristicKind::Pdb {
        return Ok(Solver::new(kind));
    }
    let mut cache = TableCache::new(dir, partition, true, false);
    Ok(match cache.get(board.shape(), goal.blank())? {
        Some(p) => Solver::with_pdb(p),
        None => Solver::new(HeuristicKind::LinearConflict),
    })
}

struct FrontierJob(u32);

impl SearchJob for FrontierJob {
    type Output = (Vec<Vec<Dir>>, u32, u32);
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Self::Output {
        let (parity, first) = StartJob.run(geo, h, start);
        (frontier(geo, h, start, self.0), parity, first)
    }
}

/// The start's parity and estimate: what a frontier file records as `parity` and
/// `first_threshold`.
struct StartJob;

impl SearchJob for StartJob {
    type Output = (u32, u32);
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Self::Output {
        let mut st = h.root(geo, &start);
        (geo.manhattan(&start) % 2, h.h(&mut st))
    }
}

fn run_frontier(a: FrontierArgs) -> Result<i32> {
    let board = match a.size {
        Some(s) => Board::parse_as(&a.board, s),
        None => Board::parse(&a.board),
    }
    .context("the board")?;
    let goal = a.goal.for_shape(board.shape()).context("the goal")?;
    // The frontier is written after its search (and a table build, on first use).
    can_write_beside(&a.output)?;
    if a.partition.is_some() && a.heuristic != "pdb" {
        // As `solve` refuses it: the frontier would record an estimate that reads no tables.
        bail!(
            "--partition chooses the tables of --heuristic pdb, not of {}: drop --partition, or --heuristic",
            a.heuristic
        );
    }
    let solver = solver(
        kind(&a.heuristic)?,
        &a.tables.tables,
        a.partition.clone(),
        &board,
        &goal,
    )?;
    let ((entries, parity, first), frame) = solver.run_job(&board, &goal, FrontierJob(a.depth))?;
    let id = Identity::new(&board, &goal, frame.heuristic, frame.partition, Weight::ONE);
    let file = FrontierFile::new(id, a.depth, parity, first, &entries);
    may_replace(&a.output, a.force, "this search's frontier", |p| {
        FrontierFile::read(p).is_ok_and(|old| old == file)
    })?;
    file.write(&a.output)?;
    emit(
        &mut std::io::stdout(),
        &format!(
            "threshold {first} entries {} depth {}\n",
            entries.len(),
            a.depth
        ),
    )?;
    Ok(0)
}

struct PartJob<'a> {
    entries: &'a [Vec<Dir>],
    depth: u32,
    threshold: u32,
    part: Shard,
    limits: Limits<'a>,
}

impl SearchJob for PartJob<'_> {
    type Output = Result<PartResult, SplitSearchError>;
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Self::Output {
        search_part(
            geo,
            h,
            start,
            self.entries,
            self.depth,
            self.threshold,
            self.part,
            self.limits,
        )
    }
}

/// The board and goal a file names.
fn instance(id: &Identity) -> Result<(Board, Goal)> {
    let shape = Shape::parse(&id.size).context("the file's size")?;
    let board = Board::new(shape, &id.tiles).context("the file's board")?;
    let goal = Goal::from_board(Board::new(shape, &id.goal).context("the file's goal")?);
    Ok((board, goal))
}

fn run_search(a: SearchArgs) -> Result<i32> {
    let t0 = Instant::now();
    not_an_input(&a.output, [a.frontier.as_path()])?;
    // The part is written once, after its search: a missing directory is said now.
    can_write_beside(&a.output)?;
    let f = FrontierFile::read(&a.frontier).map_err(|e| match e {
        ClusterError::Format { .. } => anyhow::anyhow!(
            "{e}; give the file `fifteen split frontier BOARD -o FILE` wrote for this search"
        ),
        e => e.into(),
    })?;
    let entries = f.moves(&a.frontier)?;
    let (board, goal) = instance(&f.instance)?;
    let solver = solver(
        kind(&f.instance.heuristic)?,
        &a.tables.tables,
        f.instance.partition.clone(),
        &board,
        &goal,
    )?;
    let frame = solver.frame(&board, &goal)?;
    let asked = Identity::new(&board, &goal, frame.heuristic, frame.partition, Weight::ONE);
    f.instance.must_match(&a.frontier, &asked)?;
    // The reducer's note on optimality and the thresholds below rest on these two fields,
    // which the entries' digest does not cover: an edited one is refused, not believed.
    let (parity, first) = solver.run_job(&board, &goal, StartJob)?.0;
    if (f.parity, f.first_threshold) != (parity, first) {
        bail!(
            "{}: its parity {} and first threshold {} are not this board's ({parity} and {first}: the file was edited or damaged); write it again with `fifteen split frontier`",
            a.frontier.display(),
            f.parity,
            f.first_threshold
        );
    }
    // Thresholds go up from the first by two (every solution's length has the board's
    // parity): any other would search an iteration the serial search never runs, and a
    // solution found under it would look optimal when a shorter one may exist.
    if a.threshold < f.first_threshold || !(a.threshold - f.first_threshold).is_multiple_of(2) {
        bail!(
            "--threshold {}: this frontier's iterations have thresholds {}, {}, {}, ... (its first, then each `split reduce` says the next)",
            a.threshold,
            f.first_threshold,
            f.first_threshold + 2,
            f.first_threshold + 4
        );
    }
    let limits = Limits {
        max_nodes: None,
        deadline: a.timeout.map(|t| Instant::now() + t),
        stop: Some(&INTERRUPTED),
    };
    let job = PartJob {
        entries: &entries,
        depth: f.depth,
        threshold: a.threshold,
        part: a.part,
        limits,
    };
    let (result, frame) = solver.run_job(&board, &goal, job)?;
    let r = match result {
        Ok(r) => r,
        Err(SplitSearchError::Stopped(s)) if s.reason == StopReason::Interrupted => {
            note!(
                "interrupted: part {} stopped after {} nodes; no part file was written: run this part again",
                a.part,
                s.nodes
            );
            return Ok(130);
        }
        Err(SplitSearchError::Stopped(s)) => {
            // --timeout, the one limit here; as for `solve`, exit status 1: the part is
            // to be run again.
            note!(
                "error: part {}: search stopped (time limit reached) after {} nodes; nothing was written: run this part again with a longer --timeout, or without one",
                a.part,
                s.nodes
            );
            return Ok(1);
        }
        Err(e) => bail!("part {}: {e}", a.part),
    };
    let some = |x: u32| (x != u32::MAX).then_some(x);
    let part = PartFile {
        format: crate::cluster::PART_FORMAT.into(),
        instance: f.instance.clone(),
        depth: f.depth,
        parity: f.parity,
        digest: f.digest.clone(),
        threshold: a.threshold,
        first_threshold: Some(f.first_threshold),
        part: a.part.index() as u32,
        parts: a.part.count() as u32,
        top_nodes: r.top_nodes,
        top_next: some(r.top_next),
        nodes: r.nodes,
        next: some(r.next),
        reached: r.reached,
        searched: r.searched,
        moves: r.solution.map(|m| moves_to_string(&frame.to_user(&m))),
        millis: t0.elapsed().as_secs_f64() * 1000.0,
    };
    may_replace(&a.output, a.force, "this part of this iteration", |p| {
        PartFile::read(p).is_ok_and(|old| {
            (
                &old.instance,
                &old.digest,
                old.threshold,
                old.part,
                old.parts,
            ) == (
                &part.instance,
                &part.digest,
                part.threshold,
                part.part,
                part.parts,
            )
        })
    })?;
    part.write(&a.output)?;
    Ok(0)
}

fn run_reduce(a: ReduceArgs) -> Result<i32> {
    let parts = a
        .parts
        .iter()
        .map(|p| match PartFile::read(p) {
            Ok(part) => Ok((p.clone(), part)),
            Err(e @ ClusterError::Format { .. }) => Err(anyhow::anyhow!(
                "{e}; give the part files `fifteen split search ... -o FILE` wrote, or search that part again"
            )),
            Err(e) => Err(e.into()),
        })
        .collect::<Result<Vec<_>>>()?;
    if let Some(t) = a.threshold {
        if let Some((path, p)) = parts.iter().find(|(_, p)| p.threshold != t) {
            bail!(
                "{}: its threshold is {}, not {t}: a part of another iteration; delete it and search this iteration's part {} again (`split search FRONTIER --threshold {t} --part {}/{}`)",
                path.display(),
                p.threshold,
                p.part,
                p.part,
                p.parts
            );
        }
    }
    if let Some(file) = &a.frontier {
        let f = FrontierFile::read(file)?;
        // Its own entries and digest agree (a frontier is checked whole where it is read).
        f.moves(file)?;
        for (path, p) in &parts {
            let mismatch = p
                .instance
                .must_match(path, &f.instance)
                .err()
                .map(|e| e.to_string());
            let other = mismatch.or_else(|| {
                (p.digest != f.digest || p.depth != f.depth || p.parity != f.parity)
                    .then(|| format!("{}: its frontier is another one", path.display()))
            });
            if let Some(why) = other {
                bail!(
                    "{why}: a part of another search than {}'s (a file left from another job?); delete it and search this iteration's part {} again (`split search {} --threshold {} --part {}/{}`)",
                    file.display(),
                    p.part,
                    file.display(),
                    p.threshold,
                    p.part,
                    p.parts
                );
            }
        }
    }
    let r = reduce(&parts)?;
    if let (Some(m), Some((path, first))) =
        (&r.moves, parts.iter().find(|(_, p)| p.moves.is_some()))
    {
        // The answer comes from a file: replayed from the start to the goal, and no longer
        // than the threshold it was found under, before it is printed.
        let (board, goal) = instance(&first.instance)?;
        let moves = crate::board::parse_moves(m)
            .with_context(|| format!("{}: its moves", path.display()))?;
        crate::check::vouch(&board, &goal, &moves, 0, Some(r.threshold)).with_context(|| {
            format!(
                "{}: its solution does not check (the file is damaged): delete it and run the part again",
                path.display()
            )
        })?;
    }
    let line = match (&r.moves, r.next_threshold) {
        (Some(m), _) => format!(
            "threshold {} nodes {} solved length {} moves {}\n",
            r.threshold,
            r.nodes,
            m.len(),
            if m.is_empty() { "-" } else { m }
        ),
        (None, Some(n)) => format!("threshold {} nodes {} next {n}\n", r.threshold, r.nodes),
        (None, None) => unreachable!("reduce gives a solution or a next threshold"),
    };
    emit(&mut std::io::stdout(), &line)?;
    let first_threshold = parts.first().and_then(|(_, p)| p.first_threshold);
    if r.moves.is_some() && first_threshold != Some(r.threshold) {
        // The parts cannot show that the iterations below were searched to their end.
        inform!(
            "note: this length is optimal only if every iteration before this one ({}) ended with no solution, as slurm/solve-split.sh runs them",
            match first_threshold {
                Some(f) => format!("thresholds {f} to {}", r.threshold - 2),
                None => format!("thresholds below {}", r.threshold),
            }
        );
    }
    Ok(0)
}
