//! `fifteen solve` and `fifteen bench`: instances from arguments, files or stdin, solved on
//! a thread pool, printed in input order as each is done ([`report`] says how).

mod checkpoint;
mod checkpoints_dir;
pub(crate) mod classic;
pub(crate) mod plan;
mod progress;
mod report;
mod slice;
mod sources;
mod stopped;
mod study;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::ValueEnum;

use self::plan::{NoSolver, Plan};
use self::progress::{BatchBar, Iterations};
use self::report::{Failure, Outcome, Report};
use self::slice::Slice;
use self::sources::{fewer_than_threads, sources, Sources};
use self::study::DEFAULT_STUDY;
use super::args::{self, TablesArg};
use super::output::{counted, emit, inform, note};
use super::workers;
use super::{input, INTERRUPTED};
use crate::batch::{run_ordered, Window};
use crate::cluster::shard::Shard;
use crate::instances::{BadInstance, Reader};
use crate::record::FailureKind;
use crate::search::{Iteration, Search, Weight};
use crate::{Board, GoalSpec, Instance, Shape, Solver};

/// The largest `--max-nodes`: 10^18 nodes are decades of search; more is surely a typo.
const MAX_NODES: u64 = 1_000_000_000_000_000_000;

/// The estimate that guides the search, as `--heuristic` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HeuristicArg {
    /// Additive pattern databases, max with the mirrored lookup (built on first use).
    Pdb,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Manhattan distance alone.
    Manhattan,
    /// The number of misplaced tiles (the weakest).
    Hamming,
}

/// The search, as `--algorithm` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// IDA*, textbook (as `compare` runs it, with its counts); without --algorithm,
    /// the solver's own tuned IDA*.
    Ida,
    /// A*: optimal; keeps every board it meets (weighted with --weight).
    Astar,
    /// Breadth-first search: optimal, blind.
    Bfs,
    /// Depth-first search to --depth-limit: blind, not optimal.
    Dfs,
    /// Greedy best-first search: the lowest estimate first; not optimal.
    Greedy,
}

/// What `solve` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SolveFormat {
    /// Text for people.
    Text,
    /// JSON Lines: one object per line.
    Json,
    /// The course report: the grids, W, the depth, the nodes generated, the moves, the f
    /// of every node on the path (docs/teaching.md).
    Report,
}

/// The options `solve` and `bench` share.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchOpts {
    /// The goal: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    /// A `goal:` line in an input file overrides it for the lines after it.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    #[command(flatten)]
    tables: TablesArg,
    /// Worker threads, 1 to 1024 (default: all cores). Instances run in parallel.
    #[arg(long, value_parser = args::whole::<usize>(1, args::MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Output: text for people, json for programs (one JSON object per line), report for
    /// the course (docs/teaching.md; a classic search).
    #[arg(long, value_enum, default_value = "text")]
    format: SolveFormat,
    /// The estimate guiding the search (default: pdb; manhattan for a course problem
    /// file); all are admissible: IDA* and A* give optimal solutions with each.
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
    /// A classic search, run one instance at a time with exact counts (docs/teaching.md):
    /// bfs, dfs, greedy, astar or ida (textbook). Without it, the solver's own tuned IDA*
    /// (astar for a course problem file).
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmArg>,
    /// How deep --algorithm dfs goes, 0 to 10,000 (default: 31 on 3x3, 80 on 4x4,
    /// otherwise 200).
    #[arg(long, value_name = "N", value_parser = args::whole::<u32>(0, 10_000), allow_negative_numbers = true)]
    depth_limit: Option<u32>,
    /// The memory bfs, greedy and astar may hold, 1K to 1024T (bytes, or with K, M, G, T;
    /// default 1G); at the limit the search stops with its counts so far.
    #[arg(long, value_name = "SIZE", value_parser = classic::memory, allow_hyphen_values = true)]
    max_memory: Option<u64>,
    /// Give up on an instance after this many nodes, 1 to 10^18 (it is reported as
    /// failed, with the lower bound proven so far).
    #[arg(long, value_name = "N", value_parser = args::whole::<u64>(1, MAX_NODES), allow_negative_numbers = true)]
    max_nodes: Option<u64>,
    /// Give up on an instance after this many seconds (fractions allowed), or this long
    /// with a unit (5m, 2h, 1d); at most a year.
    #[arg(long, value_name = "SECONDS", value_parser = args::timeout, allow_hyphen_values = true)]
    timeout: Option<Duration>,
    /// Pattern-database partition (default: 7-8 for 4x4, one exact table up to 8 tiles,
    /// for 5x5 Korf and Felner's four 6-tile blocks, 1,2,5,6,7,12/3,4,8,9,13,14/
    /// 10,11,15,16,20,21/17,18,19,22,23,24), as pattern sizes (8-7, 6-6-3: tiles in label
    /// order, so 6-6-6-6 is rows, not the blocks) or label groups (1,2,3/4,5,...), at most
    /// 8 patterns, tables of at most 2^31 entries. It replaces
    /// the default's second 4x4 partition too; on 5x5 its dual lookups are read from the
    /// tables `build-pdb --partition P --dual` builds.
    #[arg(long)]
    partition: Option<String>,
    /// Search each instance on all threads, one instance at a time (the default for boards
    /// given as arguments, and for a batch of fewer instances than threads; larger batches
    /// run one instance per thread).
    #[arg(long)]
    split: bool,
    /// The shape of the boards: RxC (e.g. 3x4: 3 rows of 4) or N. Square boards follow from
    /// their count; other shapes need this (or a `size: RxC` line in the input).
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
    /// Bounded-suboptimal search (weighted IDA*, f = g + W*h): much faster, and the solution
    /// is at most W times the optimal length (W from 1 to 100; 1 is the optimal search).
    /// Random 5x5 boards take milliseconds with the tables at W = 2, 6x6 seconds at 2 to 3.
    #[arg(long, value_name = "W", value_parser = args::weight, allow_hyphen_values = true)]
    weight: Option<Weight>,
    /// Never build tables: boards whose tables are missing are solved with linear conflict
    /// (optimal too, slower), with a note naming the command that builds them.
    #[arg(long)]
    no_build: bool,
    /// Solve only shard K of N (K from 1 to N): record i of the input (counted from 1,
    /// in input order, bad lines included, a bad goal: or size: line too) is shard
    /// ((i - 1) mod N) + 1's. For a job array:
    /// --array=1-N and --shard $SLURM_ARRAY_TASK_ID/N (slurm/solve-array.sbatch).
    #[arg(long, value_name = "K/N", value_parser = args::shard, allow_hyphen_values = true)]
    shard: Option<Shard>,
    /// Write the results to FILE (JSON Lines after a header line), each as soon as it is
    /// known, instead of to stdout. Rerunning the same command resumes: the instances
    /// already in FILE are skipped (a line cut short by a kill is redone), none is written
    /// twice, and a FILE of other settings or another input is refused. A last line
    /// {"batch_end": ...} marks it complete; `fifteen merge` joins the shards' files.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep each instance's search in DIR (a checkpoint file per instance, named by its
    /// id): rerunning the same command resumes the instances a --timeout, --max-nodes or
    /// Ctrl-C stopped where they were, and prints the solved ones again from their files
    /// without searching. For long sets such as data/korf24.txt (docs/cluster.md).
    #[arg(long, value_name = "DIR")]
    checkpoints: Option<PathBuf>,
    /// The heuristic study's knob (docs/heuristic.md): `+`-joined parts `pdb`, `pair`
    /// or `pair=GROUPS` (a second partition), `more=GROUPS` (a third or fourth), `wd`
    /// (walking distance), `eager`.
    #[arg(long, hide = true, default_value = DEFAULT_STUDY)]
    study: String,
}

/// Arguments of `fifteen solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Boards, each one quoted argument ("1 2 3 ..."); or all numbers of one board.
    boards: Vec<String>,
    /// An instance file (one board per line, `ID LEN tiles` lines, `goal:` lines,
    /// `#` comments); `-` for stdin.
    #[arg(short, long)]
    input: Option<String>,
    /// Print every intermediate board with g (moves made), h and f = g + h, where h is
    /// the linear-conflict estimate whatever --heuristic guided the search (text output:
    /// not with --format json or --output).
    #[arg(long)]
    steps: bool,
    /// Keep the search's progress in FILE and resume from it when run again (one board;
    /// on SIGTERM: save and exit 143). See docs/cluster.md, "Checkpoints".
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    #[command(flatten)]
    opts: SearchOpts,
}

/// Arguments of `fifteen bench`: solve's search options, less those of the classic searches
/// (which bench refuses: it runs the solver's own search), hidden from its help.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "fifteen bench [OPTIONS] <FILE>",
    mut_arg("algorithm", |a| a.hide(true)),
    mut_arg("depth_limit", |a| a.hide(true)),
    mut_arg("max_memory", |a| a.hide(true)),
    mut_arg("format", |a| a
        .help("Output: text for people, json for programs (one JSON object per line)")
        .hide_possible_values(true)),
)]
pub struct BenchArgs {
    /// An instance file such as data/korf100.txt.
    #[arg(required_unless_present = "input")]
    file: Option<String>,
    /// The file given as `solve` takes one (`-i FILE`), for those used to it.
    #[arg(
        short = 'i',
        long = "input",
        value_name = "FILE",
        conflicts_with = "file",
        hide = true
    )]
    input: Option<String>,
    #[command(flatten)]
    opts: SearchOpts,
}

/// `fifteen solve`.
pub fn solve(a: SolveArgs) -> Result<i32> {
    let problem = match (&a.input, a.boards.is_empty()) {
        (Some(path), true) => classic::problem_file(path)?,
        _ => None,
    };
    let mut plan = Plan::new(a.opts);
    if let Some(p) = &problem {
        plan.course_defaults(p);
    }
    plan.classic_options_fit()?;
    if a.steps && plan.json {
        bail!("--steps prints boards for people; it does not go with --format json, whose records' moves give the boards (leave out one of them)");
    }
    if plan.classic_search() {
        if a.checkpoint.is_some()
            || plan.checkpoints.is_some()
            || a.steps
            || plan.output.is_some()
            || plan.shard.is_some()
        {
            bail!("--checkpoint, --checkpoints, --steps, --output and --shard go with the solver's own search (no --algorithm), not with a classic search or --format report");
        }
        return match &problem {
            Some(p) => classic::course_file(p, &plan),
            None => classic::run(a.boards, a.input, &plan),
        };
    }
    if let Some(file) = a.checkpoint {
        if plan.checkpoints.is_some() {
            bail!("--checkpoint FILE keeps one board's search, --checkpoints DIR each board's of a batch: give one of them");
        }
        if plan.output.is_some() || plan.shard.is_some() {
            bail!("--checkpoint FILE keeps one board's search and prints its answer; --output and --shard are for batches: give --checkpoints DIR with --shard, or leave them out");
        }
        super::output::end_when_stdout_loses_its_reader();
        return checkpoint::run(a.boards, a.input, a.steps, &plan, file);
    }
    run(a.boards, a.input, a.steps, &plan, false)
}

/// `fifteen bench`: `solve` with a row per instance and a summary.
pub fn bench(a: BenchArgs) -> Result<i32> {
    let plan = Plan::new(a.opts);
    if plan.classic_search() {
        bail!("bench runs the solver's own search (leave out --algorithm and --format report); compare the classic searches with `fifteen compare BOARD`, or run one with `fifteen solve --algorithm`");
    }
    plan.classic_options_fit()?;
    let file = a.file.or(a.input).expect("clap requires one");
    if file != "-"
        && !std::path::Path::new(&file).exists()
        && Board::parse(&super::input::without_comments(&file)).is_ok()
    {
        // `bench` takes a file of instances with known lengths; a board is `solve`'s.
        bail!(
            "cannot read {}: no such file (it is a board: `bench` reads a file of instances with their known lengths; to solve a board, give `fifteen solve \"{}\"`)",
            file,
            file
        );
    }
    if classic::problem_text(&file)?.is_some() {
        // Its grids would read as boards of their own, unsolvable or too short.
        bail!(
            "{}: a course problem file (a weight, then the start and goal grids): `bench` reads instance files with known lengths; solve it with `fifteen solve -i {}`",
            file,
            file
        );
    }
    run(vec![], Some(file), false, &plan, true)
}

/// A unit of work: an instance with its solver, or a line that failed to parse.
enum Item {
    Solve(Instance, Solver),
    Bad(BadInstance),
    /// The tables for this instance (why) could not be had: the batch stops.
    Fatal(Instance, String),
}

fn run(
    boards: Vec<String>,
    input: Option<String>,
    steps: bool,
    plan: &Plan,
    bench: bool,
) -> Result<i32> {
    // One board on the command line: a stop's advice names `--checkpoint FILE`, as its
    // limit hint does, not a batch's `--checkpoints DIR`.
    let one_board = input.is_none() && boards.len() == 1 && boards[0] != "-";
    if steps && plan.output.is_some() {
        bail!("--steps prints boards for people; it does not go with --output (a JSON Lines file)");
    }
    if plan.output.is_none() {
        super::output::end_when_stdout_loses_its_reader();
    }
    if let Some(dir) = &plan.checkpoints {
        if plan.output.is_some() {
            bail!("--checkpoints resumes stopped instances and --output skips every instance already in its file, stopped ones too: give one of them");
        }
        checkpoints_dir::prepare_dir(dir)?;
    }
    let threads = plan.threads;
    let pool = workers::pool(threads)?;
    // Progress is for batches: from a file (whose instances can be counted), or piped in.
    let from_terminal = (input.as_deref() == Some("-") || boards.iter().any(|b| b == "-"))
        && std::io::stdin().is_terminal();
    let file = input.clone().filter(|_| boards.is_empty());
    if plan.shard.is_some() {
        if let Some(path) = file.as_deref().filter(|p| *p != "-") {
            slice::unique_ids(path, plan)?;
        }
    }
    let ahead = threads > 1 && !plan.split;
    let Sources {
        reader: input,
        arguments_only,
        whole,
    } = sources(boards, input, ahead)?;
    let bar = BatchBar::new(
        !arguments_only && !from_terminal,
        file.as_deref(),
        &plan.goal,
        plan.size,
        plan.shard,
    );
    // Boards given as arguments (or --split, or fewer instances than threads): one instance
    // at a time, each on every thread.
    let one_at_a_time = plan.split || arguments_only || fewer_than_threads(whole.as_deref(), plan);
    let split = one_at_a_time && threads > 1;
    let mut reader = Reader::new(input, plan.goal.clone()).with_size(plan.size);
    // The results file, read back (and checked against these settings) before any work.
    // Whether this run made it: one left holding only its header by an error is removed.
    let mut created = false;
    let (mut results, resume) = match &plan.output {
        Some(path) => {
            // (Comparing opens the output: a FIFO is refused by `slice::open` first.)
            let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            if let Some(read) = file.as_deref().filter(|f| *f != "-" && regular) {
                if same_file::is_same_file(path, read).unwrap_or(false) {
                    bail!(
                        "the output {} is also the input ({read}): writing it would destroy what is read; give another output file",
                        path.display()
                    );
                }
            }
            let command = if bench { "bench" } else { "solve" };
            let shard = plan.shard.unwrap_or(Shard::WHOLE);
            created = std::fs::symlink_metadata(path).is_err();
            let (file, resume) = slice::open(path, command, shard, slice::settings(plan))?;
            (Some(file), Some(resume))
        }
        None => (None, None),
    };
    let already = resume.as_ref().map_or(0, |r| r.results() as u64);
    if already > 0 {
        bar.resumed(already);
    }
    let mut slice = Slice::new(plan.shard, resume, plan.weight);
    let mut solvers = plan.solvers()?;

    // Solving an instance needs its tables; a missing one is built by the item iterator
    // on this thread before the instance is handed out.
    let mut fatal: Option<String> = None;
    // Ctrl-C during a table build: the build said so; nothing was solved.
    let mut build_stopped = false;
    let items = std::iter::from_fn(|| {
        let next = loop {
            if INTERRUPTED.load(Ordering::Relaxed) || fatal.is_some() || slice.error.is_some() {
                return None;
            }
            let next = reader.next()?;
            if slice.take(&next) {
                break next;
            }
        };
        Some(match next {
            Err(bad) => Item::Bad(bad),
            Ok(inst) => match solvers.get(&inst) {
                Ok(solver) => Item::Solve(inst, solver),
                Err(NoSolver::Interrupted) => {
                    build_stopped = true;
                    return None;
                }
                Err(NoSolver::Tables(why)) => {
                    fatal = Some(why.clone());
                    Item::Fatal(inst, why)
                }
            },
        })
    });

    // A failure before any search: a line that is not an instance (`line`), or an
    // instance without its tables (`inst`).
    let failed = |id: String,
                  inst: Option<Instance>,
                  line: Option<usize>,
                  message: String,
                  kind: FailureKind| Outcome {
        interrupted: false,
        id,
        known: inst.as_ref().and_then(|i| i.known),
        board: inst.as_ref().map(|i| i.board),
        goal: inst.map(|i| i.goal),
        line,
        result: Err(Failure {
            message,
            kind,
            stopped: None,
        }),
        searched: None,
        unsaved: false,
    };
    let work = |item: Item| -> Outcome {
        match item {
            Item::Fatal(inst, why) => {
                failed(inst.id.clone(), Some(inst), None, why, FailureKind::Tables)
            }
            Item::Bad(bad) => Outcome::bad(bad),
            Item::Solve(inst, solver) => {
                let search = plan.search(split.then_some(&pool));
                match &plan.checkpoints {
                    Some(dir) => checkpoints_dir::solve_kept_one(
                        inst,
                        &solver,
                        search,
                        dir,
                        one_at_a_time,
                        &bar,
                    ),
                    None => solve_one(inst, &solver, search, one_at_a_time, &bar),
                }
            }
        }
    };

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut report = Report {
        json: plan.json,
        bench,
        steps,
        ..Report::default()
    };
    let t0 = Instant::now();
    // The table's header goes out with its first row: an input without boards is an error
    // with nothing on stdout.
    let mut header = report.header().filter(|_| results.is_none());
    let mut lost: Option<anyhow::Error> = None;
    // Up to 8 instances a thread under way, and up to 64 a thread held: an instance that
    // takes long holds back the output, and the other threads go on past it.
    let window = if one_at_a_time {
        Window::ONE
    } else {
        Window {
            under_way: threads * 8,
            held: threads * 64,
        }
    };
    // Set at the first instance stopped by Ctrl-C: nothing after it is printed, so the
    // printed results are always the first ones of the input, without gaps.
    let mut cut = false;
    // Instances that finished after the first one a stop caught: not printed (the output
    // keeps input order), and said, so that no one reads "none was done".
    let mut unprinted = 0usize;
    // What the searches a stop caught had proven ("instance 1: search stopped
    // (interrupted) after N nodes; no solution is shorter than B moves"), said with the
    // stop as a time limit's failure says it.
    let mut caught: Vec<String> = Vec::new();
    // A file that stops the batch, said once below, exit status 2: a `--checkpoints` file
    // that cannot be used, or a table written to during a search (tables that cannot be
    // opened are said by the producer, in `fatal`).
    let mut fatal_file: Option<String> = None;
    // Set when the batch stops at an instance (its tables or its checkpoint unusable):
    // the instances already started after it finish, and are not printed, so that the
    // output stops where the batch did.
    let mut halted = false;
    // Instances whose checkpoint could not be saved (each said by a warning).
    let mut unsaved = 0;
    run_ordered(&pool, items, window, work, |_, o| {
        if halted {
            return false;
        }
        unsaved += usize::from(o.unsaved);
        if cut || o.interrupted {
            // Stopped by Ctrl-C: neither solved nor failed; nothing to print.
            unprinted += usize::from(cut && !o.interrupted);
            if let (true, Err(f)) = (o.interrupted, &o.result) {
                if f.stopped.as_ref().is_some_and(|s| s.nodes > 0) {
                    caught.push(f.message.clone());
                }
            }
            cut = true;
            return false;
        }
        if let Err(f) = &o.result {
            if f.kind == FailureKind::Checkpoint {
                // A file of ours that cannot be used: the batch stops, as for its tables,
                // with the instance's failure line in JSON (`kind` "checkpoint").
                fatal_file = Some(f.message.clone());
                halted = true;
                if report.json && results.is_none() {
                    if let Err(e) = bar.suspend(|| emit(&mut out, &report.line(&o))) {
                        lost = Some(e);
                    }
                }
                return false;
            }
        }
        let tables = matches!(&o.result, Err(f) if f.kind == FailureKind::Tables);
        halted = tables;
        if let (true, Err(f)) = (tables, &o.result) {
            fatal_file.get_or_insert_with(|| f.message.clone());
        }
        if tables && (!report.json || results.is_some()) {
            // The batch stops; the error is said once, below. (Not in the results file:
            // the instance is solved when the rerun has its tables.)
            return false;
        }
        let written = match results.as_mut() {
            Some(file) => file.append(&report.record(&o)).map_err(anyhow::Error::from),
            None => bar.suspend(|| {
                if let Some(h) = header.take() {
                    emit(&mut out, &h)?;
                }
                emit(&mut out, &report.line(&o))
            }),
        };
        if let Err(e) = written {
            // Output is lost: stop taking instances; the running ones stop too.
            lost = Some(e);
            INTERRUPTED.store(true, Ordering::Relaxed);
            return false;
        }
        bar.update(already + report.solved + report.failed, report.failed);
        !tables && !INTERRUPTED.load(Ordering::Relaxed)
    });
    bar.finish();
    if build_stopped {
        return Ok(130);
    }
    // Building tables is a one-off; the solving time is what is reported.
    let build_secs = solvers.cache.build_secs;
    let wall = t0.elapsed().as_secs_f64() - build_secs;
    let problem = fatal
        .or(fatal_file)
        .or_else(|| slice.error.as_ref().map(|e| e.to_string()))
        .or_else(|| {
            reader
                .take_io_error()
                .map(|e| format!("reading input: {e}"))
        })
        .or_else(|| {
            (reader.instances_read() == 0 && !INTERRUPTED.load(Ordering::Relaxed)).then(|| {
                "no boards in the input (one board per line: n*n numbers, 0 = blank)".into()
            })
        });
    if let Some(msg) = problem {
        note!("error: {msg}");
        if let (true, Some(file), Some(path)) = (created, &results, &plan.output) {
            if file.results() == 0 {
                // Only the header this run wrote: no file is better than an empty one
                // that looks like the start of a run.
                let _ = std::fs::remove_file(path);
            }
        }
        return Ok(2);
    }
    if let Some(e) = lost {
        return Err(e);
    }
    let interrupted = INTERRUPTED.load(Ordering::Relaxed);
    if let (Some(file), Some(path), false) = (results.as_mut(), &plan.output, interrupted) {
        // The whole input was read and every result written: the shard is complete.
        if let Err(e) = slice.finish() {
            note!("error: {e}");
            return Ok(2);
        }
        let end = file.finish(slice.items(), Some(slice.input_digest()))?;
        let shard = plan
            .shard
            .map_or(String::new(), |s| format!(" (shard {s})"));
        inform!(
            "{}: complete{shard}: {}, {} of them from this run; {} in the input",
            path.display(),
            counted(end.results, "result"),
            end.results - slice.skipped.results,
            counted(end.items, "instance")
        );
    }
    if let (Some(path), n @ 1..) = (&plan.output, slice.skipped.restated) {
        inform!(
            "{}: {n} of the results it held were written with another known length than the input gives now: held to the input's (their \"known\" and \"ok\" in the file are as first written)",
            path.display()
        );
    }
    // A stop caught by a closed output pipe says what it kept (below) instead of writing
    // the summary, which would end the command by SIGPIPE before it could.
    if bench && (!interrupted || super::output::stdout_has_a_reader()) {
        let summary = report.summary(
            wall,
            build_secs,
            threads,
            plan.kind,
            plan.weight,
            slice.skipped,
            interrupted,
        );
        emit(&mut out, &summary)?;
    }
    if interrupted {
        stopped::Stop {
            caught: &caught,
            unprinted,
            done: report.solved + report.failed,
            read: reader.instances_read(),
            one_board,
        }
        .say(plan.output.as_deref(), plan.checkpoints.as_deref());
        if unsaved > 0 {
            note!("error: {}", checkpoint::unsaved_error(unsaved));
            super::signals::write_failed();
            return Ok(2);
        }
        return Ok(130);
    }
    if let Some(hint) = report.limit_hint(
        bench,
        plan.checkpoints.is_some(),
        plan.weight,
        plan.output.as_deref(),
    ) {
        inform!("{hint}");
    }
    if unsaved > 0 {
        note!("error: {}", checkpoint::unsaved_error(unsaved));
        return Ok(2);
    }
    // A resumed run answers for the results it skipped too. A known length the answer
    // does not match is a failure for `bench`, which checks them; `solve` says so beside
    // the answer and counts the instance solved.
    let failed = report.failed + slice.skipped.failed;
    let mismatched = report.mismatched + slice.skipped.mismatched;
    Ok(if failed > 0 || (bench && mismatched > 0) {
        1
    } else {
        0
    })
}

/// Solves one instance; a long search run `alone` (one instance at a time, on every
/// thread) shows its iterations on a terminal (in the batch's progress line when there is
/// one).
fn solve_one(
    inst: Instance,
    solver: &Solver,
    search: Search,
    alone: bool,
    bar: &BatchBar,
) -> Outcome {
    let shown = Iterations::new(&inst.id, &search, alone, Some(bar));
    let hook = |it: Iteration| shown.note(it);
    let search = Search {
        on_iteration: shown.wanted().then_some(&hook as _),
        ..search
    };
    let result = solver.solve(&inst.board, &inst.goal, &search);
    shown.clear();
    Outcome::of(inst, result)
}
