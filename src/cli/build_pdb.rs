//! `build-pdb`: the one-off generator of the pattern databases that `fifteen` maps in.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use super::args::{self, MAX_THREADS, TABLES_ENV};
use super::output::{emit, inform, note};
use super::progress::{announce_tables, build_tables_with_bar, describe};
use super::workers;
use super::INTERRUPTED;
use crate::error::TableError;
use crate::pdb::{self, TableDir};
use crate::Shape;

/// Build additive disjoint pattern databases by parallel backward breadth-first search.
///
/// Each pattern's table holds, for every placement of its tiles, the fewest moves of those
/// tiles that bring them home. `fifteen solve` and `fifteen bench` build the default tables
/// themselves on first use; run this to build them ahead of time or to try other partitions.
///
/// Examples:
///   build-pdb                          # 4x4: the 7-8 tables and the second partition's
///                                      # (what `solve` uses), into ~/.local/share/fifteen
///   build-pdb --size 3                 # the 3x3 table (exact, 181,440 states)
///   build-pdb --size 5                 # 5x5, four 6-tile blocks: 20 seconds, 0.7 GB, 255 MB,
///                                      # and their dual lookups' 25 tables (140 MB)
///   build-pdb --partition 5-5-5 --out /tmp/t
///   build-pdb --partition 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15
#[derive(Parser, Debug)]
#[command(name = "build-pdb", version, verbatim_doc_comment)]
struct Args {
    /// Board size: N for NxN, or RxC.
    #[arg(long, default_value = "4", value_parser = args::shape, allow_negative_numbers = true)]
    size: Shape,
    /// The goal's blank cell (0 = top-left, up to cells - 1). Tables serve every goal with
    /// the blank there or in a mirror image of that cell; the standard goal (blank
    /// bottom-right) uses cell 0.
    #[arg(long, default_value_t = 0, value_parser = args::whole::<usize>(0, 35), allow_negative_numbers = true)]
    blank: usize,
    /// Pattern sizes (`7-8`, `6-6-3`, `5-5-5`) or explicit label groups (`1,2,3/4,5,...`),
    /// labels being goal cells. Default: 7-8 for 4x4 and, when the blank is in a corner, the
    /// second partition `solve` max's it with (1,2,3,4,8,12,5/6,7,9,10,11,13,14,15); one
    /// exact table up to 8 tiles; four compact 6-tile blocks for 5x5 (Korf and Felner's);
    /// otherwise groups of at most 6.
    /// Boards of at most 32 cells; tables of at most 2^31 entries (a 9-tile 4x4 pattern
    /// has 4.2 billion), and builds that fit in the machine's memory.
    #[arg(long)]
    partition: Option<String>,
    /// Directory to write the tables to: by default the per-user data directory where
    /// `fifteen` looks for them ($XDG_DATA_HOME/fifteen, else ~/.local/share/fifteen;
    /// ~/Library/Application Support/fifteen on macOS). [default: the per-user data directory]
    // As `--tables`: the default shown as the docs say it, not as it resolves here.
    #[arg(
        long,
        default_value_os_t = args::default_tables(),
        env = TABLES_ENV,
        hide_default_value = true,
        hide_env_values = true
    )]
    out: PathBuf,
    /// Rebuild tables that already exist.
    #[arg(long)]
    force: bool,
    /// Also build the tables the first partition's dual lookups read (`fifteen solve
    /// --study pdb+dual`): per pattern, one for the blank on each of its cells (the other
    /// tiles) and one per region of free cells the goal's blank does not reach. 5x5: 25
    /// tables, 140 MB, a few seconds; 4x4: 16 tables, 267 MB, 15 seconds.
    #[arg(long)]
    dual: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = args::whole::<usize>(1, MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
    /// No progress bar and no notes on stderr (errors are still printed, and so is the
    /// line that says the build was interrupted).
    #[arg(long, short)]
    quiet: bool,
    /// Print a completion script for this shell (bash, zsh, fish, elvish, powershell) and
    /// exit.
    // Not `exclusive`: clap counts --out's value from FIFTEEN_TABLES as given.
    #[arg(long, value_name = "SHELL", conflicts_with_all = BUILD_OPTIONS)]
    completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff, for `man -l -`) and exit.
    #[arg(long, conflicts_with_all = BUILD_OPTIONS, conflicts_with = "completions")]
    man: bool,
}

/// A usage error clap cannot see alone (a blank outside the board, a partition that is
/// not one): exit status 2, as clap's own.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Usage(String);

/// The options that ask for a build, which --completions and --man refuse beside them.
const BUILD_OPTIONS: [&str; 6] = ["size", "blank", "partition", "force", "threads", "dual"];

/// The `build-pdb` command: exit status 0 when the tables are there, 2 for usage errors
/// (a partition too large among them), 130 when Ctrl-C stopped the build and 143 when
/// SIGTERM did (no partial table is left), 1 otherwise (with the error on one line, never
/// a backtrace). `exit_status` lists them for the help.
pub fn main() -> ! {
    super::output::end_quietly_on_closed_pipes();
    super::output::fail_writes_past_a_size_limit();
    let args = args::parse();
    super::signals::install();
    if let Err(e) = run(args) {
        if let Some(TableError::Interrupted) = e.downcast_ref() {
            // The message is out already.
            std::process::exit(super::signals::status().unwrap_or(130));
        }
        note!("error: {e:#}");
        let usage = e.downcast_ref::<Usage>().is_some();
        std::process::exit(super::signals::status().unwrap_or(if usage { 2 } else { 1 }));
    }
    std::process::exit(0)
}

fn run(args: Args) -> Result<()> {
    super::output::set_quiet(args.quiet);
    // Before minutes of building: the layers' report (or the page asked for) would be lost.
    super::output::stdout_is_open().map_err(|e| Usage(e.to_string()))?;
    // A page that cannot be written is exit status 2, as `--help`'s and `fifteen man`'s.
    let page = |e: anyhow::Error| anyhow::Error::from(Usage(format!("{e:#}")));
    if let Some(shell) = args.completions {
        return super::docs::completions::<Args>(shell, "build-pdb").map_err(page);
    }
    if args.man {
        return super::docs::man::<Args>(&[]).map_err(page);
    }
    let shape = args.size;
    if shape.cells() > pdb::MAX_TABLE_CELLS {
        return Err(Usage(format!(
            "pattern databases go up to {} cells, and a {shape} board has {}: `fifteen solve` takes such boards with linear conflict, no tables needed",
            pdb::MAX_TABLE_CELLS,
            shape.cells()
        ))
        .into());
    }
    if args.blank >= shape.cells() {
        return Err(Usage(format!(
            "--blank {} is not a cell of a {shape} board (give 0 to {})",
            args.blank,
            shape.cells() - 1
        ))
        .into());
    }
    let blank = pdb::canonical_blank(shape, args.blank);
    if blank as usize != args.blank {
        inform!(
            "note: the blank in cell {} is a mirror image of cell {blank}; building for cell {blank}",
            args.blank
        );
    }
    // Without --partition: every partition `solve` uses by default for this shape.
    // A partition that is not one, or whose tables would be over the size limit, is a
    // usage error (exit status 2, as `solve --partition` and every range: docs/guide.md);
    // a build that does not fit in this machine's memory is a limit of the build (1).
    if let Some(text) = args.partition.as_deref() {
        pdb::Partition::parse(shape, blank, text).map_err(|e| Usage(e.to_string()))?;
    }
    let first = args::partition(shape, blank, args.partition.as_deref())
        .map_err(|e| Usage(format!("{e:#}")))?;
    let mut partitions = vec![first];
    if args.partition.is_none() {
        partitions.extend(pdb::Partition::second_for(shape, blank));
    }
    let dir = TableDir::new(&args.out);
    for partition in &partitions {
        if args.force || !dir.missing(partition).is_empty() {
            args::check_build_memory(partition, args::machine_memory())?;
        }
    }
    workers::start_build_threads(args.threads)?;
    let mut text = String::new();
    for partition in &partitions {
        text += &build(&dir, partition, args.force)?;
    }
    // `solve` reads the dual lookups of the default 5x5 tables too.
    if args.dual || (args.partition.is_none() && shape.cells() >= 25) {
        text += &build_dual(&dir, &partitions[0], args.force)?;
    }
    emit(&mut std::io::stdout(), &text)
}

/// Builds the missing tables of a partition's dual lookups (all of them with `force`);
/// returns the report of each built table's layers for stdout.
fn build_dual(dir: &TableDir, partition: &pdb::Partition, force: bool) -> Result<String> {
    let specs: Vec<_> = pdb::DualTables::specs(partition)
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    let missing = if force {
        check_replaceable(dir, &specs)?;
        specs.clone()
    } else {
        let missing = dir.missing_of(specs.clone());
        check_present(dir, &specs, &missing)?;
        missing
    };
    let what = format!("dual lookups of the {}", describe(partition));
    if missing.is_empty() {
        inform!(
            "{} of the {what} {} already in {} (use --force to rebuild)",
            all_tables(specs.len()),
            if specs.len() == 1 { "is" } else { "are" },
            dir.dir.display()
        );
        return Ok(String::new());
    }
    let hint = "choose another directory with --out DIR";
    announce_tables(dir, partition, &what, &missing, hint)?;
    let t0 = Instant::now();
    let built = build_tables_with_bar(dir, specs, force, true, &INTERRUPTED)?;
    finished(t0, built.len(), missing.len());
    Ok(report(built))
}

/// Checks the tables already there (those of `specs` not `missing`) as `solve` would before
/// searching (header, then the checksum unless a verification record vouches for the
/// file): "the tables are there" is said, and exit status 0 given, only of sound tables. A
/// bad one is left as it is, named, with the way to rebuild it.
fn check_present(
    dir: &TableDir,
    specs: &[pdb::PatternSpec],
    missing: &[pdb::PatternSpec],
) -> Result<()> {
    for spec in specs.iter().filter(|s| !missing.contains(s)) {
        let path = dir.path(spec);
        let checked = pdb::inspect(&path).and_then(|_| {
            // SAFETY: table files are written once and replaced only by rename.
            let t = unsafe { pdb::Table::map(&path, spec) }?;
            t.ensure_verified(spec)
        });
        if let Err(e) = checked {
            bail!("{e} (it is left as it is)");
        }
    }
    Ok(())
}

/// Refuses, before any build, to rebuild a table whose name is taken by something a
/// rename cannot replace (a directory): minutes of building would end in that error.
fn check_replaceable(dir: &TableDir, specs: &[pdb::PatternSpec]) -> Result<()> {
    for spec in specs {
        let path = dir.path(spec);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            bail!(
                "cannot replace {} to rebuild it: Is a directory (move it away)",
                path.display()
            );
        }
    }
    Ok(())
}

/// Builds one partition's missing tables (all of them with `force`, each beside the old
/// one); returns the report
/// of each built table's layers for stdout.
fn build(dir: &TableDir, partition: &pdb::Partition, force: bool) -> Result<String> {
    let specs = partition.specs();
    let missing = if force {
        check_replaceable(dir, &specs)?;
        specs.clone()
    } else {
        let missing = dir.missing(partition);
        check_present(dir, &specs, &missing)?;
        missing
    };
    if missing.is_empty() {
        let n = partition.patterns.len();
        inform!(
            "{} of the {} {} already in {} (use --force to rebuild)",
            all_tables(n),
            describe(partition),
            if n == 1 { "is" } else { "are" },
            dir.dir.display()
        );
        return Ok(String::new());
    }
    let what = describe(partition);
    let hint = "choose another directory with --out DIR";
    announce_tables(dir, partition, &what, &missing, hint)?;
    let t0 = Instant::now();
    // With --force, each table is built beside the old one and replaces it only once
    // written whole and checked: stopped at any moment, the directory keeps a usable set.
    let built = build_tables_with_bar(dir, specs, force, true, &INTERRUPTED)?;
    finished(t0, built.len(), missing.len());
    Ok(report(built))
}

/// Says the build is over, and when a process building in the same directory (waited for
/// under the build lock) built some or all of the tables, that this one did not.
fn finished(t0: Instant, built: usize, missing: usize) {
    let secs = t0.elapsed().as_secs_f64();
    match missing - built.min(missing) {
        0 => inform!("done in {secs:.1} s"),
        n if n == missing => {
            inform!("done in {secs:.1} s: another process built them meanwhile, none built here")
        }
        n => {
            inform!("done in {secs:.1} s ({n} of the {missing} built by another process meanwhile)")
        }
    }
}

/// Each built table's layers, for stdout.
fn report(built: Vec<(pdb::PatternSpec, pdb::Built)>) -> String {
    let mut text = String::new();
    for (spec, b) in built {
        text += &format!("pattern {:?}: {} layers\n", spec.tiles, b.layers.len());
        for (d, c) in b.layers.iter().enumerate() {
            text += &format!("  depth {d:>2}: {c}\n");
        }
        if b.clamped > 0 {
            text += &format!("  ({} entries clamped to the 4-bit maximum)\n", b.clamped);
        }
    }
    text
}

/// "the table" or "all N tables", as a sentence that says they are already built starts.
fn all_tables(n: usize) -> String {
    match n {
        1 => "the table".to_string(),
        n => format!("all {n} tables"),
    }
}
