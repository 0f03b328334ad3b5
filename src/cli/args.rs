//! Argument types that several commands (and `build-pdb`) share, each declared once: the
//! board size, the goal, the tables directory, the output format and the thread count.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::ValueEnum;

use crate::{GoalSpec, Shape};

/// The environment variable that names the tables directory, for every command.
pub const TABLES_ENV: &str = "FIFTEEN_TABLES";

/// Where tables live when neither `--tables` nor `FIFTEEN_TABLES` says: the per-user data
/// directory ([`crate::pdb::default_dir`]), so that `fifteen` finds its tables from any
/// directory and never builds into the current one. Without a home directory in the
/// environment (rare: some services), `fifteen-tables` in the current directory, which the
/// build announces before it starts.
pub fn default_tables() -> PathBuf {
    crate::pdb::default_dir().unwrap_or_else(|| PathBuf::from("fifteen-tables"))
}

/// `--tables DIR`, with its environment variable and default, as every command takes it.
#[derive(clap::Args, Debug, Clone)]
pub struct TablesArg {
    /// Where the pattern databases live: by default the per-user data directory
    /// ($XDG_DATA_HOME/fifteen, else ~/.local/share/fifteen; ~/Library/Application
    /// Support/fifteen on macOS). Built there on first use when quick (up to 16 cells: 4x4
    /// takes about 2 minutes once, said before it starts); 5x5 tables need
    /// `build-pdb --size 5 --out DIR` (3 minutes). Boards without tables are solved with
    /// linear conflict, with a note saying so.
    #[arg(long, env = TABLES_ENV, default_value_os_t = default_tables(), global = true)]
    pub tables: PathBuf,
}

/// Output for people or for programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    Text,
    /// JSON Lines: one object per line.
    Json,
}

/// Parses `--size`: N for NxN, or RxC (a clap value parser, so every command says the same).
pub fn shape(text: &str) -> Result<Shape, String> {
    Shape::parse(text).ok_or_else(|| {
        "give N (for NxN) or RxC; rows and columns at least 2, at most 36 cells".to_string()
    })
}

/// Parses `--goal`: `standard`, `blank-first`, or the goal's numbers.
pub fn goal(text: &str) -> Result<GoalSpec, String> {
    GoalSpec::parse(text).map_err(|e| e.to_string())
}

/// Parses the command line; `--help` and `--version` are written like any other output
/// (clap alone would report success when they cannot be written, e.g. to a full disk).
pub fn parse<T: clap::Parser>() -> T {
    match T::try_parse() {
        Ok(t) => t,
        Err(e) if !e.use_stderr() => {
            let text = e.render().to_string();
            match super::output::emit(&mut std::io::stdout(), &text) {
                Ok(()) => std::process::exit(0),
                Err(e) => {
                    super::output::note!("error: {e:#}");
                    std::process::exit(2)
                }
            }
        }
        Err(e) => e.exit(),
    }
}

/// The worker threads asked for, or all cores.
pub fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// A Rayon pool of `threads` workers.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")
}

/// A seed for when none is given.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}
