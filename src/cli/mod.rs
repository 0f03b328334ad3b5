//! The command lines of `fifteen` and `build-pdb` (feature `cli`).
//!
//! This is the only part of the crate that touches the terminal: it turns arguments into
//! library values, runs the library, and formats what comes back. Each command has its own
//! file; what several commands share (argument types, input, the table cache, the build
//! progress bar) has one file each. The two binaries are one line each: `fifteen` calls
//! `fifteen_main`, `build-pdb` calls `build_pdb::main`.

mod args;
pub mod build_pdb;
mod check;
mod compare;
mod docs;
mod examples;
mod exit_status;
mod input;
mod merge;
mod output;
mod play;
mod progress;
mod random;
mod signals;
mod solve;
mod split;
mod table_cache;
mod tables;
mod target;
mod under_way;
mod workers;

use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};

use self::output::note;

/// Set by Ctrl-C: stop taking instances, let running searches stop, keep printed lines.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Optimal solutions to sliding-tile puzzles (8-puzzle, 15-puzzle and other sizes).
///
/// A board is its numbers row by row, 0 for the blank: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
/// (spaces or commas; one line, one line per row, or a list in brackets as Python prints
/// it). Solutions are the moves of the blank: U, D, L, R. Every solution printed is
/// optimal unless marked otherwise: the search (IDA*) is guided by an admissible estimate,
/// pattern databases by default. With --weight W it is much faster and the solution at
/// most W times optimal; of the classic searches a course compares (--algorithm), greedy
/// and dfs give solutions that may be far from optimal.
///
/// Examples:
///   fifteen solve "8 6 7 2 5 4 3 0 1"               # a 3x3 board, standard goal
///   fifteen solve --steps "1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12"
///   fifteen solve -i data/korf100.txt --format json
///   fifteen solve --weight 1.5 --goal blank-first "15 11 13 12 14 10 9 5 2 6 8 1 3 7 4 0"
///   fifteen random --count 5 --seed 1 | fifteen solve -
///   fifteen bench data/korf100.txt
///   fifteen solve -i boards.txt --format json | fifteen check -
#[derive(Parser, Debug)]
#[command(
    name = "fifteen",
    version,
    verbatim_doc_comment,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No progress and no notes on stderr; errors are still printed, and so is the line
    /// that says a run was interrupted (Ctrl-C, SIGTERM) and what it did not finish.
    #[arg(long, short, global = true)]
    quiet: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve boards given as arguments, in a file (-i FILE) or on stdin (-i - or -)
    #[command(verbatim_doc_comment)]
    Solve(solve::SolveArgs),
    /// Solve every instance of a file, check each known length, report nodes and times.
    Bench(solve::BenchArgs),
    /// Every classic search and estimate on one board, one row each (docs/teaching.md)
    ///
    /// BFS, depth-first, greedy, A* and IDA* with Hamming, Manhattan, linear conflict and
    /// the tables, under a node and memory limit, one row each: length, optimal, nodes
    /// expanded and generated, peak frontier, closed set, memory, time.
    #[command(verbatim_doc_comment)]
    Compare(compare::CompareArgs),
    /// Print uniformly random solvable boards, one per line.
    Random(random::RandomArgs),
    /// Join the results files of a sharded batch into one, in input order, checked
    ///
    /// The files are those of solve --shard K/N --output FILE, one per shard. Refuses
    /// (nothing written) unless the files are all N shards of one batch, each complete (its
    /// task ran to the end), with no id twice. Every result is checked as `fifteen check`
    /// does; each that does not is named on stderr.
    #[command(verbatim_doc_comment)]
    Merge(merge::MergeArgs),
    /// Replay solutions against their boards: does each reach the goal, in how many moves?
    ///
    /// Either one board and its moves (`--moves`), or a JSON Lines results file as
    /// `fifteen solve --format json` prints it (`-` or no argument for stdin). Checks that
    /// the moves are a string of U, D, L, R (capitals, nothing between them), every move
    /// is legal, the goal is reached, the length is the one claimed, and the record does
    /// not contradict itself (a length below its lower_bound, "optimal" beside a weighted
    /// search's bound or weight, an ok its known length denies: docs/formats.md). It does
    /// not search, so it cannot tell whether a solution is optimal.
    #[command(verbatim_doc_comment)]
    Check(check::CheckArgs),
    /// Play in the terminal: slide tiles with the keys, ask for hints, watch it solve
    ///
    /// Keys name the direction the tile slides: arrows, h j k l, or w a S d (capital S,
    /// as s solves). ? shows the next optimal move, s solves from here and plays the moves
    /// back, u undoes, n starts a new random board, q (or Esc, Ctrl-C) quits.
    #[command(verbatim_doc_comment)]
    Play(play::PlayArgs),
    /// Inspect pattern-database files.
    Tables(tables::TablesArgs),
    /// One hard instance split over many machines: frontier, search a part, reduce
    ///
    /// Each IDA* iteration is split into parts that tasks on many machines search;
    /// slurm/solve-split.sh drives the steps (docs/cluster.md).
    Split(split::SplitArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    ///
    /// For example:
    ///   mkdir -p ~/.local/share/bash-completion/completions
    ///   fifteen completions bash > ~/.local/share/bash-completion/completions/fifteen
    #[command(verbatim_doc_comment)]
    Completions(docs::CompletionsArgs),
    /// Print a manual page (roff): fifteen(1), or fifteen-COMMAND(1) for a command
    ///
    /// For example: fifteen man | man -l -    or    fifteen man solve > fifteen-solve.1
    #[command(verbatim_doc_comment)]
    Man(docs::ManArgs),
}

/// Tells the command line that stdin or stdout was closed when the process started (the
/// binary looks before Rust's runtime hides it): results are then an error, not lost, and
/// a closed input is said to be closed, not read as one without boards.
pub fn stdio_was_closed(stdin: bool, stdout: bool) {
    output::set_stdio_closed(stdin, stdout);
}

/// The `fifteen` command: parses the arguments, runs the command, exits with its status
/// (0 all done, 1 some instance failed, 2 usage errors and unreadable input, 130 Ctrl-C,
/// 143 SIGTERM: see `signals`).
pub fn fifteen_main() -> ! {
    output::end_quietly_on_closed_pipes();
    output::fail_writes_past_a_size_limit();
    let cli: Cli = args::parse();
    output::set_quiet(cli.quiet);
    // `play` owns the terminal and, on Unix, its signals; the short commands need nothing.
    let own_signals = cfg!(unix) && matches!(cli.command, Command::Play(_));
    if !own_signals && !matches!(cli.command, Command::Completions(_) | Command::Man(_)) {
        signals::install();
    }
    // A table file cut short under the search: one line naming it, exit status 2.
    #[cfg(target_os = "linux")]
    crate::pdb::report_sigbus_on_tables(2);
    let result = match cli.command {
        Command::Solve(a) => solve::solve(a),
        Command::Bench(a) => solve::bench(a),
        Command::Compare(a) => compare::run(a),
        Command::Random(a) => random::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Check(a) => check::run(a),
        Command::Tables(a) => tables::run(a),
        Command::Split(a) => split::run(a),
        Command::Play(a) => play::run(a),
        Command::Completions(a) => docs::run_completions::<Cli>(a),
        Command::Man(a) => docs::run_man::<Cli>(a),
    };
    signals::exit(match result {
        Ok(code) => signals::exit_status(code),
        Err(e) => {
            note!("error: {e:#}");
            // An error that a signal caused (a read cut short, a build stopped) is the
            // signal's exit.
            signals::status().unwrap_or(2)
        }
    })
}
