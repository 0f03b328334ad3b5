//! The `fifteen` command: solve, bench, random, check, tables, play.

mod play;

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use fifteen::batch::run_ordered;
use fifteen::board::parse_moves;
use fifteen::check::{replay, CheckError, Replay};
use fifteen::instances::{BadInstance, Reader};
use fifteen::pdb::{self, BuildEvent, Partition, PdbHeuristic, TableDir};
use fifteen::random::{random_board, random_walk, Rng};
use fifteen::rank::Ranker;
use fifteen::search::{Limits, Weight};
use fifteen::{
    Board, Goal, GoalSpec, HeuristicKind, Instance, Shape, Solution, SolveError, Solver,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Optimal solutions to sliding-tile puzzles (8-puzzle, 15-puzzle and other sizes).
///
/// A board is its numbers row by row, 0 for the blank: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
/// (spaces or commas; one line, or one line per row). Solutions are the moves of the blank:
/// U, D, L, R. Every solution printed is optimal: the search (IDA*) is guided by an
/// admissible estimate, pattern databases by default. With --weight W the search is much
/// faster and the solution at most W times optimal (and said to be so).
///
/// Examples:
///   fifteen solve "8 6 7 2 5 4 3 0 1"               # a 3x3 board, standard goal
///   fifteen solve --steps "1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12"
///   fifteen solve -i data/korf100.txt --format json
///   fifteen solve --weight 1.5 "15 11 13 12 14 10 9 5 2 6 8 1 3 7 4 0"
///   fifteen random --count 5 --seed 1 | fifteen solve -
///   fifteen bench data/korf100.txt
///   fifteen solve -i boards.txt --format json | fifteen check -
#[derive(Parser, Debug)]
#[command(version, verbatim_doc_comment, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HeuristicArg {
    /// Additive pattern databases, max with the mirrored lookup (built on first use).
    Pdb,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Manhattan distance alone.
    Manhattan,
}

#[derive(clap::Args, Debug, Clone)]
struct SearchOpts {
    /// The goal: standard (1 2 ... 0), blank-first (0 1 2 ...), or the goal's numbers.
    /// A `goal:` line in an input file overrides it for the lines after it.
    #[arg(long, default_value = "standard")]
    goal: String,
    /// Where the pattern databases live. Built there on first use when quick (up to 16 cells
    /// or seconds of work); 5x5 tables need `build-pdb --size 5 --out DIR` (3 minutes).
    /// Boards without tables are solved with linear conflict, with a note saying so.
    #[arg(long, env = "FIFTEEN_TABLES", default_value = "data/pdb")]
    tables: PathBuf,
    /// Worker threads (default: all cores). Instances run in parallel.
    #[arg(long)]
    threads: Option<usize>,
    /// Output: text for people, json for programs (one JSON object per line).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The estimate guiding the search; all three give optimal solutions.
    #[arg(long, value_enum, default_value = "pdb")]
    heuristic: HeuristicArg,
    /// Give up on an instance after this many nodes (it is reported as failed).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Give up on an instance after this many seconds.
    #[arg(long)]
    timeout: Option<f64>,
    /// Pattern-database partition (default: 7-8 for 4x4, one exact table up to 8 tiles,
    /// 6-6-6-6 blocks for 5x5), as pattern sizes (8-7, 6-6-3) or label groups
    /// (1,2,3/4,5,...), at most 8 patterns.
    #[arg(long)]
    partition: Option<String>,
    /// Search each instance on all threads, one instance at a time (the default for boards
    /// given as arguments; batches from files run one instance per thread).
    #[arg(long)]
    split: bool,
    /// The shape of the boards: RxC (e.g. 3x4: 3 rows of 4) or N. Square boards follow from
    /// their count; other shapes need this (or a `size: RxC` line in the input).
    #[arg(long, value_name = "RxC")]
    size: Option<String>,
    /// Bounded-suboptimal search (weighted IDA*, f = g + W*h): much faster, and the solution
    /// is at most W times the optimal length (W from 1 to 100; 1 is the optimal search).
    /// Random 5x5 boards take milliseconds with the tables at W = 2, 6x6 seconds at 2 to 3.
    #[arg(long, value_name = "W")]
    weight: Option<f64>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve boards given as arguments, in a file (-i FILE) or on stdin (-i - or -).
    #[command(verbatim_doc_comment)]
    Solve {
        /// Boards, each one quoted argument ("1 2 3 ..."); or all numbers of one board.
        boards: Vec<String>,
        /// An instance file (one board per line, `ID LEN tiles` lines, `goal:` lines,
        /// `#` comments); `-` for stdin.
        #[arg(short, long)]
        input: Option<String>,
        /// Print every intermediate board with g (moves made), h (estimate) and f = g + h.
        #[arg(long)]
        steps: bool,
        #[command(flatten)]
        opts: SearchOpts,
    },
    /// Solve every instance of a file, check each known length, report nodes and times.
    Bench {
        /// An instance file such as data/korf100.txt.
        file: String,
        #[command(flatten)]
        opts: SearchOpts,
    },
    /// Print uniformly random solvable boards, one per line.
    Random {
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Seed for reproducible boards (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Board size: N for NxN, or RxC.
        #[arg(long, default_value = "4")]
        size: String,
        /// The goal the boards must be able to reach.
        #[arg(long, default_value = "standard")]
        goal: String,
        /// Instead of uniform boards, random walks of this many moves from the goal.
        #[arg(long)]
        walk: Option<usize>,
    },
    /// Replay solutions against their boards: does each reach the goal, in how many moves?
    ///
    /// Either one board and its moves (`--moves`), or a JSON Lines results file as
    /// `fifteen solve --format json` prints it (`-` or no argument for stdin). Checks that
    /// every move is legal, the goal is reached and the length is the one claimed; it does
    /// not search, so it cannot tell whether a solution is optimal.
    /// Exit status: 0 all check, 1 some do not, 2 usage errors and unreadable input.
    #[command(verbatim_doc_comment)]
    Check {
        /// A results file (or - for stdin); with --moves, the board instead.
        args: Vec<String>,
        /// A results file (or - for stdin).
        #[arg(short, long)]
        input: Option<String>,
        /// The moves of the blank (U D L R) to replay from the board given as argument.
        #[arg(long)]
        moves: Option<String>,
        /// The goal for a board given with --moves, and for results lines without a
        /// "goal" field: standard, blank-first, or the goal's numbers.
        #[arg(long, default_value = "standard")]
        goal: String,
        /// Output: text for people, json for programs (one JSON object per line).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Play in the terminal: slide tiles with the keys, ask for hints, watch it solve.
    ///
    /// Keys name the direction the tile slides: arrows, h j k l, or w a S d (capital S,
    /// as s solves). ? shows the next optimal move, s solves from here and plays the moves
    /// back, u undoes, n starts a new random board, q (or Esc, Ctrl-C) quits.
    #[command(verbatim_doc_comment)]
    Play {
        /// The starting board (default: a random one), as for solve.
        board: Vec<String>,
        /// Board shape (RxC or N) for a random board, or for a non-square BOARD.
        #[arg(long, value_name = "RxC")]
        size: Option<String>,
        /// The goal: standard, blank-first, or the goal's numbers.
        #[arg(long, default_value = "standard")]
        goal: String,
        /// Pattern databases are used when present here (never built by play); otherwise
        /// linear conflict.
        #[arg(long, env = "FIFTEEN_TABLES", default_value = "data/pdb")]
        tables: PathBuf,
        /// Seed for random boards (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Milliseconds between moves when `s` plays a solution back.
        #[arg(long, default_value_t = 300)]
        pace: u64,
    },
    /// Inspect pattern-database files.
    Tables {
        #[command(subcommand)]
        action: TablesAction,
        #[arg(
            long,
            env = "FIFTEEN_TABLES",
            default_value = "data/pdb",
            global = true
        )]
        tables: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum TablesAction {
    /// Show the tables present: pattern, entries, size, and whether the header checks out.
    List,
    /// Recompute every table's checksum (reads each file in full).
    Verify,
}

/// Set by Ctrl-C: stop taking instances, let running searches stop, keep printed lines.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Standard input, buffered, that reads as ended once Ctrl-C is pressed: a batch whose
/// input pipe stays open (a producer that ignores the signal) still stops.
fn stdin_reader() -> Box<dyn BufRead + Send> {
    #[cfg(unix)]
    {
        Box::new(std::io::BufReader::new(StdinUntilInterrupted))
    }
    #[cfg(not(unix))]
    {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    }
}

/// Reads file descriptor 0 directly (std's `Stdin` keeps a buffer of its own that poll(2)
/// cannot see), waiting for input in slices of 100 ms so that Ctrl-C is noticed.
#[cfg(unix)]
struct StdinUntilInterrupted;

#[cfg(unix)]
impl std::io::Read for StdinUntilInterrupted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if INTERRUPTED.load(Ordering::Relaxed) {
                return Ok(0);
            }
            let mut fd = libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid, exclusively borrowed pollfd.
            let ready = unsafe { libc::poll(&mut fd, 1, 100) };
            if ready == 0 {
                continue;
            }
            if ready > 0 {
                // Readable, at its end, or in error: read(2) says which without blocking.
                // SAFETY: `buf` is valid for writes of `buf.len()` bytes.
                let n = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
                if n >= 0 {
                    return Ok(n as usize);
                }
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

fn main() {
    let cli = Cli::parse();
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let code = match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    };
    std::process::exit(code);
}

fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Solve {
            boards,
            input,
            steps,
            opts,
        } => solve_cmd(boards, input, steps, opts, false),
        Command::Bench { file, opts } => solve_cmd(vec![], Some(file), false, opts, true),
        Command::Random {
            count,
            seed,
            size,
            goal,
            walk,
        } => random_cmd(count, seed, &size, &goal, walk),
        Command::Check {
            args,
            input,
            moves,
            goal,
            format,
        } => check_cmd(args, input, moves, &goal, format == Format::Json),
        Command::Tables { action, tables } => tables_cmd(action, tables),
        Command::Play {
            board,
            size,
            goal,
            tables,
            seed,
            pace,
        } => play_cmd(board, size, &goal, tables, seed, pace),
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

fn play_cmd(
    board: Vec<String>,
    size: Option<String>,
    goal: &str,
    tables: PathBuf,
    seed: Option<u64>,
    pace: u64,
) -> Result<i32> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!("play needs a terminal (use solve for pipes and files)");
    }
    let size = match &size {
        Some(text) => Some(parse_size(text).with_context(|| format!("bad --size '{text}'"))?),
        None => None,
    };
    let goal_spec = GoalSpec::parse(goal).map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
    let text = board.join(" ");
    let mut rng = Rng::new(seed.unwrap_or_else(clock_seed));
    let (start, goal) = if text.trim().is_empty() {
        let shape = size.unwrap_or(Shape::new(4, 4).expect("4x4"));
        let goal = goal_spec
            .for_shape(shape)
            .map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
        (random_board(&mut rng, &goal), goal)
    } else {
        let b = match size {
            Some(shape) => Board::parse_as(&text, shape),
            None => Board::parse(&text),
        }
        .map_err(|e| anyhow::anyhow!("bad board: {e}"))?;
        let goal = goal_spec
            .for_shape(b.shape())
            .map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
        (b, goal)
    };
    let game =
        fifteen::game::Game::new(start, goal).map_err(|e| anyhow::anyhow!("bad board: {e}"))?;
    let shape = start.shape();
    let mut cache = TableCache {
        dir: TableDir::new(&tables),
        map: HashMap::new(),
        quiet: true,
        partition: None,
        build_secs: 0.0,
        build: false,
        told: Vec::new(),
    };
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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let solver = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start worker threads")?;
        solver.split_on(Arc::new(pool))
    } else {
        solver
    };
    let summary = play::run(play::Setup {
        game,
        solver,
        heuristic,
        rng,
        pace: Duration::from_millis(pace),
        interrupted: &INTERRUPTED,
    })?;
    println!("{summary}");
    Ok(0)
}

fn parse_size(s: &str) -> Result<Shape> {
    Shape::parse(s)
        .context("give N (for NxN) or RxC; rows and columns at least 2, at most 36 cells")
}

fn random_cmd(
    count: u64,
    seed: Option<u64>,
    size: &str,
    goal: &str,
    walk: Option<usize>,
) -> Result<i32> {
    let shape = parse_size(size).with_context(|| format!("bad --size '{size}'"))?;
    let goal = GoalSpec::parse(goal)
        .map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?
        .for_shape(shape)
        .map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
    let seed = seed.unwrap_or_else(clock_seed);
    let mut rng = Rng::new(seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // A non-square board's numbers do not say its shape: say it first, as instance files
    // do, so that the output reads back (`fifteen random --size 3x4 | fifteen solve -`).
    if shape.rows != shape.cols && writeln!(out, "size: {shape}").is_err() {
        return Ok(0);
    }
    // Likewise a goal other than the one `solve` assumes.
    if goal != Goal::standard(shape) && writeln!(out, "goal: {}", goal.board()).is_err() {
        return Ok(0);
    }
    for _ in 0..count {
        let b = match walk {
            Some(k) => random_walk(&mut rng, &goal, k),
            None => random_board(&mut rng, &goal),
        };
        if writeln!(out, "{b}").is_err() {
            return Ok(0); // a closed pipe (e.g. `| head`) is not an error
        }
    }
    let _ = out.flush();
    Ok(0)
}

/// Table sets opened so far, by (shape, blank cell of the tables).
struct TableCache {
    dir: TableDir,
    map: HashMap<(Shape, u8), Arc<PdbHeuristic>>,
    quiet: bool,
    /// A partition asked for with `--partition`, instead of the default.
    partition: Option<String>,
    /// Seconds spent building tables (not counted as solving time).
    build_secs: f64,
    /// Build missing tables (otherwise report them as absent).
    build: bool,
    /// Shapes already reported as served by linear conflict.
    told: Vec<(Shape, u8)>,
}

/// `solve` builds missing tables by itself for boards up to 16 cells (4x4: two minutes),
/// and for larger boards while their tables are this small (seconds). Others, such as the
/// 5x5 6-6-6-6 set (minutes, gigabytes), are built only when asked for with build-pdb.
const AUTO_BUILD_CELLS: usize = 16;
const AUTO_BUILD_PLACEMENTS: u64 = 1 << 26;

/// Whether `solve` may build this partition's tables without being asked.
fn builds_by_itself(partition: &Partition) -> bool {
    let n = partition.shape.cells();
    let placements: Option<u64> = partition.patterns.iter().try_fold(0u64, |a, p| {
        a.checked_add(Ranker::checked_count(n, p.len())?)
    });
    n <= AUTO_BUILD_CELLS || placements.is_some_and(|p| p <= AUTO_BUILD_PLACEMENTS)
}

impl TableCache {
    /// The pattern databases for boards of this shape and goal blank, built if missing.
    fn get(&mut self, shape: Shape, goal_blank: usize) -> Result<Option<Arc<PdbHeuristic>>> {
        let blank = pdb::canonical_blank(shape, goal_blank);
        if let Some(p) = self.map.get(&(shape, blank)) {
            return Ok(Some(p.clone()));
        }
        // Before the partition: a --partition for other boards must not stop a batch's
        // boards that no table can serve anyway.
        if shape.cells() > pdb::MAX_TABLE_CELLS {
            self.tell(
                shape,
                blank,
                format!("pattern databases go up to {} cells", pdb::MAX_TABLE_CELLS),
            );
            return Ok(None);
        }
        let partition = match &self.partition {
            Some(text) => Partition::parse(shape, blank, text)?,
            None => Partition::default_for(shape, blank),
        };
        if partition.patterns.len() > pdb::MAX_PATTERNS {
            self.tell(
                shape,
                blank,
                format!(
                    "the {} partition has more than {} patterns",
                    partition.name(),
                    pdb::MAX_PATTERNS
                ),
            );
            return Ok(None);
        }
        if !self.dir.missing(&partition).is_empty() {
            if !self.build || !builds_by_itself(&partition) {
                self.tell(
                    shape,
                    blank,
                    format!(
                        "no {shape} tables in {dir}; build them with `build-pdb --size {shape}{at}{part} --out {dir}`",
                        dir = self.dir.dir.display(),
                        at = if blank == 0 {
                            String::new()
                        } else {
                            format!(" --blank {blank}")
                        },
                        part = match &self.partition {
                            Some(p) => format!(" --partition {p}"),
                            None => String::new(),
                        }
                    ),
                );
                return Ok(None);
            }
            let t = Instant::now();
            build_tables(&self.dir, &partition, self.quiet)?;
            self.build_secs += t.elapsed().as_secs_f64();
        }
        // SAFETY: table files are written once and replaced only by rename; nothing
        // truncates them while we run.
        let p = unsafe { self.dir.map(&partition) }?;
        // A damaged payload would give wrong answers, so check every table once per run
        // (this also brings its pages into memory, which the search needs anyway).
        for (table, spec) in p.tables.iter().zip(partition.specs()) {
            table.verify(&spec)?;
        }
        self.map.insert((shape, blank), p.clone());
        Ok(Some(p))
    }

    /// Says once per table set why its boards are solved with linear conflict instead.
    fn tell(&mut self, shape: Shape, blank: u8, why: String) {
        if self.quiet || self.told.contains(&(shape, blank)) {
            return;
        }
        self.told.push((shape, blank));
        eprintln!("note: {why}; solving {shape} boards with linear conflict instead");
    }
}

fn build_tables(dir: &TableDir, partition: &Partition, quiet: bool) -> Result<()> {
    let t0 = Instant::now();
    eprintln!(
        "building the pattern databases ({} partition) for {} boards (goal blank in cell {}) \
         into {}; this happens once",
        partition.name(),
        partition.shape,
        partition.blank,
        dir.dir.display()
    );
    let bar = ProgressBar::new(0);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("  {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .unwrap()
            .progress_chars("=> "),
    );
    let n = partition.patterns.len();
    dir.build_missing(partition, &|i, spec, ev| match ev {
        BuildEvent::Start { .. } => bar.set_prefix(format!(
            "table {}/{} ({} tiles)",
            i + 1,
            n,
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
    eprintln!("tables built in {:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// One instance's outcome.
struct Outcome {
    /// Stopped by Ctrl-C (not a failure of the instance).
    interrupted: bool,
    id: String,
    board: Option<Board>,
    goal_tiles: Vec<u8>,
    known: Option<u32>,
    result: Result<Solution, String>,
}

fn json_id(id: &str) -> serde_json::Value {
    match id.parse::<u64>() {
        Ok(n) if !id.starts_with('0') || id == "0" => serde_json::Value::from(n),
        _ => serde_json::Value::from(id),
    }
}

fn solve_cmd(
    boards: Vec<String>,
    input: Option<String>,
    steps: bool,
    opts: SearchOpts,
    bench: bool,
) -> Result<i32> {
    let goal = GoalSpec::parse(&opts.goal).map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
    let weight = match opts.weight {
        None => Weight::ONE,
        Some(w) => Weight::from_factor(w)
            .with_context(|| format!("bad --weight {w}: give a number from 1 to 100"))?,
    };
    let threads = opts.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start worker threads")?,
    );

    // The instances, as one stream whatever their source. A lone `-` means stdin.
    let mut boards = boards;
    let mut input = input;
    if let Some(i) = boards.iter().position(|b| b == "-") {
        boards.remove(i);
        if input.is_none() {
            input = Some("-".into());
        }
    }
    let split = opts.split || (input.is_none() && !boards.is_empty());
    let mut sources: Vec<Box<dyn BufRead + Send>> = Vec::new();
    if !boards.is_empty() {
        let all_numbers = boards.iter().all(|b| b.trim().parse::<u64>().is_ok());
        let text = if all_numbers && boards.len() > 1 {
            boards.join(" ") + "\n"
        } else {
            // One board per argument; a grid argument becomes one line.
            boards
                .iter()
                .map(|b| b.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        };
        sources.push(Box::new(std::io::Cursor::new(text)));
    }
    match input.as_deref() {
        Some("-") => sources.push(stdin_reader()),
        Some(path) => {
            let f = std::fs::File::open(path).with_context(|| format!("cannot read {path}"))?;
            sources.push(Box::new(std::io::BufReader::new(f)));
        }
        None => {}
    }
    if sources.is_empty() {
        if std::io::stdin().is_terminal() {
            bail!("no boards given: pass a board (\"1 2 3 ...\"), -i FILE, or - for stdin");
        }
        sources.push(stdin_reader());
    }
    let chained: Box<dyn BufRead + Send> = sources
        .into_iter()
        .reduce(|a, b| Box::new(std::io::Read::chain(a, b)) as Box<dyn BufRead + Send>)
        .unwrap();
    let size = match &opts.size {
        Some(text) => Some(parse_size(text).with_context(|| format!("bad --size '{text}'"))?),
        None => None,
    };
    let mut reader = Reader::new(chained, goal).with_size(size);

    let kind = match opts.heuristic {
        HeuristicArg::Pdb => HeuristicKind::Pdb,
        HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
        HeuristicArg::Manhattan => HeuristicKind::Manhattan,
    };
    let json = opts.format == Format::Json;
    let mut cache = TableCache {
        dir: TableDir::new(&opts.tables),
        map: HashMap::new(),
        quiet: false,
        partition: opts.partition.clone(),
        build_secs: 0.0,
        build: true,
        told: Vec::new(),
    };
    let timeout = opts.timeout.map(Duration::from_secs_f64);
    let max_nodes = opts.max_nodes;

    // Work items: an instance with its solver, or a line that failed to parse.
    enum Item {
        Solve(Instance, Solver),
        Bad(BadInstance),
        Fatal,
    }
    let mut fatal: Option<String> = None;
    let items = std::iter::from_fn(|| {
        if INTERRUPTED.load(Ordering::Relaxed) || fatal.is_some() {
            return None;
        }
        let next = reader.next();
        Some(match next? {
            Err(bad) => Item::Bad(bad),
            Ok(inst) => {
                let solver = if kind == HeuristicKind::Pdb {
                    match cache.get(inst.board.shape(), inst.goal.blank()) {
                        Ok(Some(p)) => Solver::with_pdb(p),
                        Ok(None) => Solver::new(HeuristicKind::LinearConflict),
                        Err(e) => {
                            let msg = format!("{e:#}");
                            fatal = Some(msg.clone());
                            return Some(Item::Fatal);
                        }
                    }
                } else {
                    Solver::new(kind)
                };
                let solver = solver.weighted(weight);
                let solver = if split && threads > 1 {
                    solver.split_on(pool.clone())
                } else {
                    solver
                };
                Item::Solve(inst, solver)
            }
        })
    });

    let work = |item: Item| -> Option<Outcome> {
        match item {
            Item::Fatal => None,
            Item::Bad(bad) => Some(Outcome {
                interrupted: false,
                id: bad.id.clone(),
                board: None,
                goal_tiles: vec![],
                known: None,
                result: Err(bad.to_string()),
            }),
            Item::Solve(inst, solver) => {
                let limits = Limits {
                    max_nodes,
                    deadline: timeout.map(|t| Instant::now() + t),
                    stop: Some(&INTERRUPTED),
                };
                // A long single search shows its progress on a terminal.
                let started = Instant::now();
                let show = split && std::io::stderr().is_terminal();
                let hook = |it: fifteen::search::Iteration| {
                    let secs = started.elapsed().as_secs_f64();
                    if secs > 0.5 {
                        eprint!(
                            "\r\x1b[Kinstance {}: threshold {} done, {} nodes, {:.1} M nodes/s, {:.1} s",
                            inst.id,
                            // In moves (a weighted search's thresholds are scaled).
                            weight.moves_at_least(it.threshold),
                            it.nodes,
                            it.nodes as f64 / secs / 1e6,
                            secs
                        );
                    }
                };
                let result = solver.solve(
                    &inst.board,
                    &inst.goal,
                    limits,
                    if show { Some(&hook) } else { None },
                );
                if show && started.elapsed().as_secs_f64() > 0.5 {
                    eprint!("\r\x1b[K");
                }
                let interrupted = matches!(
                    &result,
                    Err(SolveError::Stopped(s)) if s.reason == fifteen::search::StopReason::Interrupted
                ) && INTERRUPTED.load(Ordering::Relaxed);
                let result = result.map_err(|e| match e {
                    SolveError::Board(b) => format!("instance {}: {b}", inst.id),
                    other => format!("instance {}: {other}", inst.id),
                });
                Some(Outcome {
                    interrupted,
                    id: inst.id,
                    board: Some(inst.board),
                    goal_tiles: inst.goal.board().tiles().to_vec(),
                    known: inst.known,
                    result,
                })
            }
        }
    };

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let bar = ProgressBar::new_spinner();
    if !bench || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos} solved, {msg} ({elapsed})").unwrap(),
    );

    let t0 = Instant::now();
    let mut solved = 0u64;
    let mut failed = 0u64;
    let mut mismatched = 0u64;
    let mut total_nodes = 0u64;
    let mut total_len = 0u64;
    let mut broken_pipe = false;
    let mut table_rows: Vec<String> = Vec::new();
    // Solving an instance needs its tables; a missing one is built by the item iterator
    // on this thread before the instance is handed out.
    if bench && !json {
        let _ = writeln!(
            out,
            "{:>6} {:>6} {:>6} {:>4} {:>14} {:>10}",
            "id", "length", "known", "", "nodes", "ms"
        );
    }
    let window = if split { 1 } else { threads * 8 };
    // Set at the first instance stopped by Ctrl-C: nothing after it is printed, so the
    // printed results are always the first ones of the input, without gaps.
    let mut cut = false;
    run_ordered(&pool, items, window, work, |_, outcome| {
        let Some(o) = outcome else { return false };
        if cut || o.interrupted {
            // Stopped by Ctrl-C: neither solved nor failed; nothing to print.
            cut = true;
            return false;
        }
        let mut line = String::new();
        match &o.result {
            Ok(sol) => {
                solved += 1;
                total_nodes += sol.nodes;
                total_len += sol.moves.len() as u64;
                let len = sol.moves.len() as u32;
                let w = sol.weight;
                // A weighted solution is right when it lies within its bound.
                let ok = o.known.is_none_or(|k| {
                    k == len
                        || (!w.is_one()
                            && k < len
                            && len as u64 * w.g as u64 <= k as u64 * w.h as u64)
                });
                if !ok {
                    mismatched += 1;
                }
                let board = o.board.as_ref().unwrap();
                let moves = fifteen::board::moves_to_string(&sol.moves);
                if json {
                    let mut v = serde_json::json!({
                        "id": json_id(&o.id),
                        "size": board.shape().to_string(),
                        "tiles": board.tiles(),
                        "goal": o.goal_tiles,
                        "length": len,
                        "moves": moves,
                        "nodes": sol.nodes,
                        "millis": (sol.millis * 1000.0).round() / 1000.0,
                        "heuristic": sol.heuristic.name(),
                        "optimal": w.is_one(),
                    });
                    if !w.is_one() {
                        v["bound"] = w.factor().into();
                        v["lower_bound"] = sol.lower_bound.into();
                    }
                    if let Some(k) = o.known {
                        v["known"] = k.into();
                        v["ok"] = ok.into();
                    }
                    line = v.to_string() + "\n";
                } else if bench {
                    let known = o.known.map_or("?".to_string(), |k| k.to_string());
                    line = format!(
                        "{:>6} {:>6} {:>6} {:>4} {:>14} {:>10.1}\n",
                        o.id,
                        len,
                        known,
                        if ok { "ok" } else { "BAD" },
                        sol.nodes,
                        sol.millis
                    );
                    table_rows.push(line.clone());
                } else {
                    line.push_str(&format!("instance {}\n{}", o.id, board.render()));
                    if steps {
                        line.push_str(&render_steps(board, &o, sol));
                    }
                    let claim = if w.is_one() {
                        "optimal".to_string()
                    } else {
                        format!(
                            "not proven optimal: at most {} x optimal, and optimal is at least {}",
                            w.factor(),
                            sol.lower_bound
                        )
                    };
                    line.push_str(&format!(
                        "length {len} ({claim}){}\nmoves  {}\nnodes  {}   time {:.1} ms   heuristic {}\n\n",
                        match o.known {
                            Some(k) if k == len => ", as expected".to_string(),
                            Some(k) if ok => format!(", the file says {k}: within the bound"),
                            Some(k) => format!(", BUT THE FILE SAYS {k}"),
                            None => String::new(),
                        },
                        if moves.is_empty() { "(none: already solved)".to_string() } else { moves },
                        sol.nodes,
                        sol.millis,
                        sol.heuristic.name()
                    ));
                }
            }
            Err(e) => {
                failed += 1;
                if json {
                    line = serde_json::json!({"id": json_id(&o.id), "error": e}).to_string() + "\n";
                } else {
                    eprintln!("error: {e}");
                }
            }
        }
        if !line.is_empty() && (out.write_all(line.as_bytes()).is_err() || out.flush().is_err()) {
            broken_pipe = true;
            INTERRUPTED.store(true, Ordering::Relaxed);
            return false;
        }
        bar.set_position(solved);
        bar.set_message(format!("{failed} failed, {} nodes", total_nodes));
        !INTERRUPTED.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    // Building tables is a one-off; the solving time is what is reported.
    let build_secs = cache.build_secs;
    let wall = t0.elapsed().as_secs_f64() - build_secs;
    if let Some(msg) = fatal {
        eprintln!("error: {msg}");
        return Ok(2);
    }
    if let Some(e) = reader.take_io_error() {
        eprintln!("error: reading input: {e}");
        return Ok(2);
    }
    if reader.instances_read() == 0 && !INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!("error: no boards in the input (one board per line: n*n numbers, 0 = blank)");
        return Ok(2);
    }
    if broken_pipe {
        return Ok(0);
    }
    if bench {
        let nps = total_nodes as f64 / wall.max(1e-9);
        let per = total_nodes.checked_div(solved).unwrap_or(0);
        if json {
            let v = serde_json::json!({"summary": {
                "solved": solved, "failed": failed, "mismatched": mismatched,
                "total_length": total_len, "nodes": total_nodes,
                "nodes_per_instance": per, "wall_seconds": wall,
                "table_build_seconds": build_secs,
                "nodes_per_second": nps, "threads": threads,
                "heuristic": kind.name(),
                "optimal": weight.is_one(),
                "bound": weight.factor(),
                "anchor_nodes_per_instance_korf_felner_2002": 36710,
            }});
            let _ = writeln!(out, "{v}");
        } else {
            let _ = writeln!(
                out,
                "\n{solved} solved, {failed} failed, {mismatched} wrong lengths; total length {total_len}\n\
                 wall {wall:.3} s{}, {total_nodes} nodes ({per} per instance), {:.1} M nodes/s, {threads} threads, heuristic {}\n\
                 anchor: Korf & Felner 2002, 7-8 PDB with reflection: about 36,710 nodes per instance{}",
                if build_secs > 0.0 {
                    format!(" (after {build_secs:.1} s building tables)")
                } else {
                    String::new()
                },
                nps / 1e6,
                kind.name(),
                if weight.is_one() {
                    String::new()
                } else {
                    format!(
                        "\nweight {}: lengths not proven optimal; ok means within {} x the known length",
                        weight.factor(),
                        weight.factor()
                    )
                }
            );
            if mismatched > 0 {
                let _ = writeln!(
                    out,
                    "LENGTH MISMATCH: some lengths differ from the file's{}",
                    if weight.is_one() {
                        ""
                    } else {
                        " by more than the bound"
                    }
                );
            }
        }
        let _ = table_rows;
    }
    let _ = out.flush();
    if INTERRUPTED.load(Ordering::Relaxed) {
        eprintln!("interrupted: the results above are complete; the rest were not solved");
        return Ok(130);
    }
    Ok(if failed > 0 || mismatched > 0 { 1 } else { 0 })
}

fn render_steps(board: &Board, o: &Outcome, sol: &Solution) -> String {
    let goal = fifteen::Goal::from_board(Board::new(board.shape(), &o.goal_tiles).unwrap());
    let solver = Solver::new(HeuristicKind::LinearConflict);
    let mut s = String::new();
    let mut b = *board;
    let n = sol.moves.len();
    s.push_str(&format!(
        "start: g 0, h {}, f {}\n",
        solver.estimate(&b, &goal),
        solver.estimate(&b, &goal)
    ));
    for (i, m) in sol.moves.iter().enumerate() {
        b = b.apply(*m).expect("solutions are legal");
        let h = solver.estimate(&b, &goal);
        s.push_str(&format!(
            "move {}/{}: blank {} -> g {}, h {}, f {}, remaining {}\n{}",
            i + 1,
            n,
            m.letter(),
            i + 1,
            h,
            i + 1 + h as usize,
            n - i - 1,
            b.render()
        ));
    }
    s
}

/// What a replay says, for people: whether it passed, and one line of why.
fn describe_replay(result: &Result<Replay, CheckError>, claimed: Option<u64>) -> (bool, String) {
    match result {
        Err(e) => (false, e.to_string()),
        Ok(r) if !r.reaches_goal => (
            false,
            format!(
                "does not reach the goal: the {} end at {}",
                moves_word(r.length),
                r.end
            ),
        ),
        Ok(r) => match claimed {
            Some(c) if c != r.length as u64 => (
                false,
                format!(
                    "reaches the goal in {}, but claims {c}",
                    moves_word(r.length)
                ),
            ),
            Some(_) => (
                true,
                format!("reaches the goal in {}, as claimed", moves_word(r.length)),
            ),
            None => (
                true,
                format!("reaches the goal in {}", moves_word(r.length)),
            ),
        },
    }
}

fn moves_word(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// What a replay says, for programs: `ok`, and `reaches_goal`, `length`, `claimed`,
/// `length_ok` (and `end` when the goal is not reached), or `error`.
fn replay_json(result: &Result<Replay, CheckError>, claimed: Option<u64>) -> serde_json::Value {
    let (ok, _) = describe_replay(result, claimed);
    let mut v = serde_json::json!({ "ok": ok });
    match result {
        Err(e) => v["error"] = e.to_string().into(),
        Ok(r) => {
            v["reaches_goal"] = r.reaches_goal.into();
            v["length"] = r.length.into();
            if !r.reaches_goal {
                v["end"] = r.end.tiles().into();
            }
            if let Some(c) = claimed {
                v["claimed"] = c.into();
                v["length_ok"] = (c == r.length as u64).into();
            }
        }
    }
    v
}

fn check_cmd(
    args: Vec<String>,
    input: Option<String>,
    moves: Option<String>,
    goal: &str,
    json: bool,
) -> Result<i32> {
    let goal = GoalSpec::parse(goal).map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    if let Some(moves) = moves {
        // One board, given as arguments like `solve` takes it.
        if input.is_some() {
            bail!("give either a board with --moves or a results file, not both");
        }
        let text = match args.len() {
            0 => bail!(
                "--moves needs the board it starts from: fifteen check \"1 2 3 ...\" --moves ..."
            ),
            1 => args[0].clone(),
            _ if args.iter().all(|a| a.trim().parse::<u64>().is_ok()) => args.join(" "),
            _ => bail!("give one board (one quoted argument) with --moves"),
        };
        let board = Board::parse(&text).map_err(|e| anyhow::anyhow!("bad board: {e}"))?;
        let goal = goal
            .for_shape(board.shape())
            .map_err(|e| anyhow::anyhow!("bad --goal: {e}"))?;
        let moves = parse_moves(&moves).map_err(|e| anyhow::anyhow!("bad --moves: {e}"))?;
        let result = replay(&board, &goal, &moves);
        let (ok, why) = describe_replay(&result, None);
        let line = if json {
            let mut v = replay_json(&result, None);
            v["goal"] = goal.board().tiles().into();
            v.to_string()
        } else {
            format!(
                "{}: {why} ({} goal)",
                if ok { "ok" } else { "FAIL" },
                goal.name()
            )
        };
        let _ = writeln!(out, "{line}");
        return Ok(if ok { 0 } else { 1 });
    }

    let path = match (input, args.as_slice()) {
        (Some(i), []) => i,
        (None, [a]) => a.clone(),
        (None, []) => {
            if std::io::stdin().is_terminal() {
                bail!(
                    "nothing to check: give a results file, - for stdin, or a board with --moves"
                );
            }
            "-".into()
        }
        _ => bail!("give one results file (or - for stdin); to check a board, add --moves"),
    };
    let reader: Box<dyn BufRead> = if path == "-" {
        stdin_reader()
    } else {
        match std::fs::File::open(&path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                if Board::parse(&path).is_ok() {
                    bail!("cannot read {path}: {e} (it looks like a board: add --moves)");
                }
                bail!("cannot read {path}: {e}");
            }
        }
    };
    let mut lines = fifteen::check::Lines::new(reader, goal);
    let (mut passed, mut failed) = (0u64, 0u64);
    for c in lines.by_ref() {
        let (ok, why) = describe_replay(&c.result, c.claimed);
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        let line = if json {
            let mut v = replay_json(&c.result, c.claimed);
            v["line"] = c.line.into();
            if let Some(id) = &c.id {
                v["id"] = id.clone();
            }
            v.to_string()
        } else {
            let id = match &c.id {
                Some(serde_json::Value::String(s)) => format!(" (id {s})"),
                Some(v) => format!(" (id {v})"),
                None => String::new(),
            };
            format!(
                "line {}{id}: {}: {why}",
                c.line,
                if ok { "ok" } else { "FAIL" }
            )
        };
        if writeln!(out, "{line}").is_err() {
            return Ok(0); // a closed pipe (e.g. `| head`) is not an error
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            eprintln!("interrupted: the lines above were checked; the rest were not");
            return Ok(130);
        }
    }
    if INTERRUPTED.load(Ordering::Relaxed) {
        // Ctrl-C while waiting for input: what was printed is all that was checked.
        eprintln!("interrupted: the lines above were checked; the rest were not");
        return Ok(130);
    }
    if let Some(e) = lines.take_io_error() {
        let _ = out.flush();
        eprintln!("error: reading {path}: {e}");
        return Ok(2);
    }
    if passed + failed == 0 {
        eprintln!(
            "error: no results in {path} (JSON Lines as `fifteen solve --format json` prints)"
        );
        return Ok(2);
    }
    if !json {
        let _ = writeln!(
            out,
            "{} {}: {passed} ok, {failed} failed",
            passed + failed,
            if passed + failed == 1 {
                "result"
            } else {
                "results"
            }
        );
    }
    let _ = out.flush();
    Ok(if failed > 0 { 1 } else { 0 })
}

fn tables_cmd(action: TablesAction, dir: PathBuf) -> Result<i32> {
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => bail!(
            "cannot list {}: {e} (tables are built there on first use)",
            dir.display()
        ),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    files.sort();
    if files.is_empty() {
        println!("no tables in {}", dir.display());
        return Ok(0);
    }
    let mut bad = 0;
    for path in files {
        let t0 = Instant::now();
        match pdb::inspect(&path) {
            Ok((spec, _)) => {
                // SAFETY: see TableCache::get.
                let opened = unsafe { pdb::Table::map(&path, &spec) };
                let result = opened.and_then(|t| {
                    if matches!(action, TablesAction::Verify) {
                        t.verify(&spec)?;
                    }
                    Ok(t)
                });
                match result {
                    Ok(t) => println!(
                        "{}  {} tiles {:?}  {} entries  {:.1} MB  clamped {}  {}  {:.1} ms",
                        path.display(),
                        spec.tiles.len(),
                        spec.tiles,
                        t.header.entries,
                        (t.header.payload_len + pdb::PAYLOAD_OFFSET) as f64 / 1e6,
                        t.header.clamped,
                        if matches!(action, TablesAction::Verify) {
                            "checksum ok"
                        } else {
                            "header ok"
                        },
                        t0.elapsed().as_secs_f64() * 1000.0
                    ),
                    Err(e) => {
                        bad += 1;
                        println!("{}  BAD: {e}", path.display());
                    }
                }
            }
            Err(e) => {
                bad += 1;
                println!("{}  BAD: {e}", path.display());
            }
        }
    }
    Ok(if bad > 0 { 1 } else { 0 })
}
