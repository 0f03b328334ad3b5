//! Argument types that several commands (and `build-pdb`) share, each declared once: the
//! board size, the goal, the tables directory, the output format and the thread count; and
//! the range of every numeric option, checked by clap before any work starts (a usage
//! error, exit status 2, whose message gives the range).

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::ValueEnum;

use crate::cluster::shard::Shard;
use crate::pdb::Partition;
use crate::rank::Ranker;
use crate::search::Weight;
use crate::{GoalSpec, Shape};

use super::output::note;

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

/// The help of `--tables`: where the tables live, then `$what`, what the command does
/// with them, which differs (`solve` builds missing ones, `play` and `tables` never do):
/// each command's help says its own (`tables_help!` in its `mut_arg`).
macro_rules! tables_help {
    ($what:literal) => {
        concat!(
            "Where the pattern databases live: by default the per-user data directory \
             ($XDG_DATA_HOME/fifteen, else ~/.local/share/fifteen; ~/Library/Application \
             Support/fifteen on macOS). ",
            $what,
            " [default: the per-user data directory]"
        )
    };
}
pub(crate) use tables_help;

/// `--tables DIR`, with its environment variable and default, as every command takes it.
/// Its help is `solve`'s, `bench`'s and `compare`'s; the other commands give their own.
#[derive(clap::Args, Debug, Clone)]
pub struct TablesArg {
    // The default and the variable's value are shown as the docs say them, not as they
    // resolve for whoever prints the help or the manual page.
    #[arg(
        help = tables_help!(
            "Built there on first use when quick, said before it starts: 4x4 about 35 \
             seconds once, 5x5 about 20 (`build-pdb` builds them ahead, and larger ones). \
             Boards without tables (6x6, --no-build) are solved with linear conflict, with \
             a note saying so."
        ),
        long,
        env = TABLES_ENV,
        default_value_os_t = default_tables(),
        hide_default_value = true,
        hide_env_values = true,
        global = true
    )]
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

/// Parses `--goal`: `standard`, `blank-first`, or the goal's numbers; a `#` starts a
/// comment, as in a board argument.
pub fn goal(text: &str) -> Result<GoalSpec, String> {
    GoalSpec::parse(&super::input::without_comments(text)).map_err(|e| e.to_string())
}

/// A clap error's text made to say only what is so: clap's usage line shows an option
/// `FIFTEEN_TABLES` set (`--tables`, `build-pdb --out`) as if typed, and so as required,
/// and the option it suggests for a misspelt one (`solve --hlep` gave `Usage: fifteen
/// solve --help [BOARDS]...`); and for an unknown option before a command's boards, clap
/// suggests passing it as a board (`use '-- --heuristic'`), which no board is.
fn tidied(e: &clap::Error, args: &[OsString]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let typed = |flag: &str| {
        args.iter().any(|a| {
            a.to_str()
                .is_some_and(|a| a == flag || a.starts_with(&format!("{flag}=")))
        })
    };
    let from_env = std::env::var_os(TABLES_ENV).is_some();
    let mut drop_from_usage: Vec<String> = Vec::new();
    if from_env && !typed("--tables") {
        drop_from_usage.push(" --tables <TABLES>".into());
    }
    if from_env && !typed("--out") {
        drop_from_usage.push(" --out <OUT>".into());
    }
    let unknown = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) if e.kind() == ErrorKind::UnknownArgument => {
            Some(arg.split('=').next().unwrap_or(arg).to_string())
        }
        _ => None,
    };
    let suggested = match e.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(s)) => s.clone(),
        _ => Vec::new(),
    };
    // The usage line of `solve --hlep` has `--help` in it, as if typed.
    let suggested = suggested.iter().filter(|s| !typed(s));
    drop_from_usage.extend(suggested.map(|s| format!(" {s}")));
    let mut out: Vec<String> = Vec::new();
    for line in e.render().to_string().trim_end().lines() {
        let as_a_value = unknown.as_deref().is_some_and(|u| {
            u.starts_with("--")
                && line.trim_start().starts_with("tip: to pass")
                && line.contains("as a value")
        });
        if as_a_value {
            if out.last().is_some_and(|l| l.is_empty()) {
                out.pop();
            }
            if let Some(tip) = unknown.as_deref().and_then(|u| option_elsewhere(args, u)) {
                out.push(String::new());
                out.push(format!("  tip: {tip}"));
            }
            continue;
        }
        let mut line = line.to_string();
        if line.starts_with("Usage:") {
            for option in &drop_from_usage {
                line = line.replacen(option.as_str(), "", 1);
            }
        }
        out.push(line);
    }
    out.join("\n")
}

/// Where an option unknown to the command given belongs, for the two `compare` is asked
/// most: it runs every algorithm with every estimate, and `solve` runs one.
fn option_elsewhere(args: &[OsString], option: &str) -> Option<String> {
    let command = args.get(1)?.to_str()?;
    match (command, option) {
        ("compare", "--heuristic" | "--algorithm") => Some(
            "compare runs every algorithm with every estimate, a row each; to run one, give \
             `fifteen solve --algorithm ALGORITHM --heuristic ESTIMATE BOARD`"
                .into(),
        ),
        _ => None,
    }
}

/// Parses the command line; `--help` and `--version` are written like any other output
/// (clap alone would report success when they cannot be written, e.g. to a full disk).
pub fn parse<T: clap::Parser>() -> T {
    // `FIFTEEN_TABLES=` (set, but empty) means unset, as for XDG_DATA_HOME: clap would
    // otherwise take it as `--tables` given without a value. Still one thread here.
    match std::env::var_os(TABLES_ENV) {
        Some(v) if v.is_empty() => std::env::remove_var(TABLES_ENV),
        // `~/tables` as a shell would expand it, had the value not been quoted.
        Some(v) => std::env::set_var(TABLES_ENV, crate::pdb::expand_home(PathBuf::from(v))),
        None => {}
    }
    // The derived command, with each command's exit statuses added to its long help.
    let mut cmd = any_case(super::exit_status::command::<T>());
    let args = help_without_help_flag(std::env::args_os().collect());
    let parsed = cmd
        .try_get_matches_from_mut(args.clone())
        .and_then(|mut m| T::from_arg_matches_mut(&mut m).map_err(|e| e.format(&mut cmd)));
    match parsed {
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
        Err(e) => {
            if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
                if let Some(message) = board_for_a_command(&args) {
                    note!("error: {message}");
                    std::process::exit(2);
                }
            }
            let text = tidied(&e, &args);
            if text != e.render().to_string().trim_end() {
                note!("{text}");
                std::process::exit(e.exit_code());
            }
            e.exit()
        }
    }
}

/// What to say when the first word is a board, not a command (`fifteen 1 2 3 0`): the
/// command that solves it. `None` when it is not made of numbers.
fn board_for_a_command(args: &[OsString]) -> Option<String> {
    let words: Vec<&str> = args
        .get(1..)?
        .iter()
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let board_like = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || c.is_whitespace() || ",[]".contains(c))
    };
    if !words.first().is_some_and(|w| board_like(w)) {
        return None;
    }
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            if !w.chars().any(|c| c.is_whitespace() || ",[]".contains(c)) {
                w.to_string()
            } else {
                format!("\"{}\"", w.split_whitespace().collect::<Vec<_>>().join(" "))
            }
        })
        .collect();
    let board: Vec<&str> = words
        .iter()
        .copied()
        .take_while(|w| board_like(w))
        .collect();
    let board = board.join(" ");
    Some(format!(
        "'{}' is a board, not a command: to solve it, give `fifteen solve {}` (`fifteen --help` lists the commands)",
        board.split_whitespace().collect::<Vec<_>>().join(" "),
        quoted.join(" ")
    ))
}

/// `cmd` with the named values of every option taken in any case (`--format JSON` as
/// `--goal Standard` is): a value's case never changes its meaning here.
fn any_case(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.mut_args(|a| {
        let named = a.get_action().takes_values() && !a.get_possible_values().is_empty();
        if named {
            a.ignore_case(true)
        } else {
            a
        }
    });
    for name in &names {
        cmd = cmd.mut_subcommand(name, any_case);
    }
    cmd
}

/// `fifteen help [COMMAND] --help` read as `fifteen help [COMMAND]`: clap's own `help`
/// command takes no options and would call `--help` an unknown command.
fn help_without_help_flag(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).is_some_and(|a| a == "help") {
        let rest = args.split_off(2);
        args.extend(rest.into_iter().filter(|a| a != "--help" && a != "-h"));
    }
    args
}

/// The most worker threads `--threads` may ask for: far more than the cores of any machine
/// this runs on, yet few enough to start at once (`--threads 100000` used to hang).
pub const MAX_THREADS: u64 = 1024;

/// The longest `--timeout`, in seconds: a year.
pub const MAX_TIMEOUT_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// The most entries one table may have: 2^31, a 1 GiB file whose build needs 7 to 27 GiB of
/// memory. The largest default table (4x4's 8-tile pattern) has 519 million; `9-6` on 4x4
/// would have 4.2 billion (a 15 GB build).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 31;

/// The limit with `FIFTEEN_BIG_TABLES=1` (a study knob, for the 5x5 partitions with 7-tile
/// patterns, 2.4 billion entries, an 8.5 GB build): the library's own, 32-bit indices.
pub const MAX_BIG_TABLE_ENTRIES: u64 = 1 << 32;

/// The most entries a table may have in this process: [`MAX_TABLE_ENTRIES`], or
/// [`MAX_BIG_TABLE_ENTRIES`] when `FIFTEEN_BIG_TABLES=1`.
fn table_entry_limit() -> (u64, &'static str) {
    if std::env::var_os("FIFTEEN_BIG_TABLES").is_some_and(|v| v == "1") {
        (MAX_BIG_TABLE_ENTRIES, "2^32")
    } else {
        (MAX_TABLE_ENTRIES, "2^31")
    }
}

/// A clap value parser for a whole number from `lo` to `hi`: anything else (negative, a
/// fraction, text, empty, too large) gets the same message, with the range.
pub fn whole<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("give a whole number from {lo} to {hi}"))
    }
}

/// Parses `--timeout`: seconds, or a number with a unit (`90s`, `5m`, `2h`, `1d`, as
/// cluster job limits are written), more than 0 and at most a year (fractions allowed).
/// NaN, infinities and negative numbers are refused here rather than panicking later.
pub fn timeout(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() && !t.eq_ignore_ascii_case("nan") => {
            let unit = match c.to_ascii_lowercase() {
                's' => Some(1.0),
                'm' => Some(60.0),
                'h' => Some(3600.0),
                'd' => Some(86400.0),
                _ => None,
            };
            (&t[..i], unit)
        }
        _ => (t, Some(1.0)),
    };
    match (number.trim().parse::<f64>(), unit) {
        (Ok(n), Some(u)) if n * u > 0.0 && n * u <= MAX_TIMEOUT_SECS => {
            Ok(Duration::from_secs_f64(n * u))
        }
        _ => Err(format!(
            "give seconds, or a number with s, m, h or d (90, 5m, 2h), more than 0 and at \
             most {MAX_TIMEOUT_SECS} seconds (a year)"
        )),
    }
}

/// Parses `--shard K/N` (shards count from 1; see [`crate::cluster::shard`]), for `solve`, `bench`
/// and `random` alike.
pub fn shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

/// Parses `--weight`: a factor from 1 to 100 (1 is the optimal search).
pub fn weight(text: &str) -> Result<Weight, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(Weight::from_factor)
        .ok_or_else(|| "give a number from 1 to 100 (1 is the optimal search)".to_string())
}

/// The partition asked for (`--partition`), or the default one, refused when it has more
/// patterns than the search reads ([`crate::pdb::MAX_PATTERNS`]) or when one of its tables
/// would have more than [`MAX_TABLE_ENTRIES`] entries: such a build takes tens of gigabytes,
/// and used to abort on its first allocation.
///
/// The pattern checks proper live in the library ([`Partition::parse`]); this adds the
/// command line's size limit.
pub fn partition(shape: Shape, blank: u8, text: Option<&str>) -> Result<Partition> {
    let partition = match text {
        Some(t) => Partition::parse(shape, blank, t)?,
        None => Partition::default_for(shape, blank),
    };
    if partition.patterns.len() > crate::pdb::MAX_PATTERNS {
        // The search adds at most this many lookups; more tables would be built for nothing.
        bail!(
            "the {} partition has {} patterns; the search takes at most {}: join some",
            partition.name(),
            partition.patterns.len(),
            crate::pdb::MAX_PATTERNS
        );
    }
    let (limit, power) = table_entry_limit();
    for p in &partition.patterns {
        let entries = Ranker::checked_count(shape.cells(), p.len());
        if entries.is_none_or(|e| e > limit) {
            let entries = entries.map_or("more than 2^64".to_string(), |e| e.to_string());
            bail!(
                "the {} partition's {}-tile pattern would make a table of {entries} entries \
                 for {shape} boards; a table may have at most {limit} ({power}) \
                 entries: use smaller patterns",
                partition.name(),
                p.len()
            );
        }
    }
    Ok(partition)
}

/// About how many bytes building the partition's tables needs at its peak (tables are
/// built one at a time): per placement of the largest pattern, the BFS keeps a mask of
/// blank regions seen and one of the current layer (2 + 1 bytes while no placement cuts
/// the free cells into more than 8 regions, 4 + 2 up to 16, 8 + 4 beyond:
/// [`crate::pdb::most_regions`]) and half a byte of the table itself. This mirrors
/// `pdb::build`'s layout; it is an estimate for refusing hopeless builds.
pub fn build_bytes(partition: &Partition) -> u64 {
    partition
        .patterns
        .iter()
        .map(|p| {
            let count = Ranker::checked_count(partition.shape.cells(), p.len()).unwrap_or(u64::MAX);
            let half_bytes: u64 = match crate::pdb::most_regions(partition.shape, p.len()) {
                0..=8 => 7,
                9..=16 => 13,
                _ => 25,
            };
            count.saturating_mul(half_bytes) / 2
        })
        .max()
        .unwrap_or(0)
}

/// Refuses a build that needs more memory than `have` bytes (the machine's, when known):
/// it would abort on an allocation, or push everything else out to swap.
pub fn check_build_memory(partition: &Partition, have: Option<u64>) -> Result<()> {
    let need = build_bytes(partition);
    if let Some(have) = have.filter(|&h| need > h) {
        bail!(
            "building the {} tables for {} boards needs about {:.1} GB of memory, more than \
             the {:.1} GB this process may use (the machine's memory, its control group's \
             limit, or the address-space limit `ulimit -v`): use smaller patterns",
            partition.name(),
            partition.shape,
            need as f64 / 1e9,
            have as f64 / 1e9
        );
    }
    Ok(())
}

/// The memory this process may use, in bytes: the physical memory, or less when a control
/// group or an address-space limit (`ulimit -v`, less a margin) limits it; `None` when it
/// cannot be told.
pub fn machine_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf has no preconditions; a failure returns -1, refused below.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let physical = (pages > 0 && size > 0).then(|| pages as u64 * size as u64)?;
        // cgroup v2, then v1; "max" or an unlimited v1 value does not parse or is larger.
        let limit = [
            "/sys/fs/cgroup/memory.max",
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        ]
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok()?.trim().parse::<u64>().ok())
        .min();
        let memory = limit.map_or(physical, |l| l.min(physical));
        // An address-space limit (`ulimit -v`) counts every mapping, the threads' stacks
        // and the allocator's reserves among them: keep a margin for those.
        const AROUND: u64 = 256 << 20;
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut rl) } == 0;
        // `rlim_t` is u64 here, not on every Unix.
        #[allow(clippy::unnecessary_cast)]
        let space = (ok && rl.rlim_cur != libc::RLIM_INFINITY)
            .then(|| (rl.rlim_cur as u64).saturating_sub(AROUND));
        Some(space.map_or(memory, |a| a.min(memory)))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// A seed for when none is given.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_outside_the_range_are_refused_with_it() {
        let p = whole::<usize>(1, 1024);
        assert_eq!(p("8"), Ok(8));
        assert_eq!(p(" 1024 "), Ok(1024));
        for bad in ["0", "1025", "-1", "1.5", "", "x", "99999999999999999999999"] {
            assert_eq!(
                p(bad),
                Err("give a whole number from 1 to 1024".into()),
                "{bad}"
            );
        }
        // A range wider than the type: the type's limit holds too.
        assert!(whole::<u8>(0, 1000)("300").is_err());
    }

    #[test]
    fn timeouts_are_finite_positive_and_at_most_a_year() {
        assert_eq!(timeout("1.5"), Ok(Duration::from_millis(1500)));
        assert!(timeout("31536000").is_ok());
        assert_eq!(timeout("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(timeout("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(timeout("1.5h"), Ok(Duration::from_secs(5400)));
        assert_eq!(timeout("2 D"), Ok(Duration::from_secs(172_800)));
        assert_eq!(timeout("365d"), Ok(Duration::from_secs(31_536_000)));
        for bad in [
            "0", "-1", "nan", "NaN", "inf", "-inf", "1e300", "31536001", "", "soon", "5x", "m",
            "0m", "-5m", "366d", "infh", "nanm",
        ] {
            assert!(timeout(bad).unwrap_err().contains("a year"), "{bad}");
        }
    }

    #[test]
    fn shards_are_k_of_n_from_1() {
        assert_eq!(shard("2/8").unwrap().to_string(), "2/8");
        for bad in ["0/8", "9/8", "8", "x/8", "1/0"] {
            let e = shard(bad).unwrap_err();
            assert!(e.contains("from 1 to") || e.contains("K/N"), "{bad}: {e}");
        }
        assert!(shard("9/8").unwrap_err().contains("K goes from 1 to 8"));
    }

    #[test]
    fn weights_are_from_1_to_100() {
        assert_eq!(weight("1"), Ok(Weight::ONE));
        assert!(weight("100").is_ok());
        for bad in ["0.99", "100.5", "nan", "inf", "-2", ""] {
            assert!(weight(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tables_too_large_are_refused_before_any_work() {
        let s4 = Shape::new(4, 4).unwrap();
        assert!(partition(s4, 0, None).is_ok());
        assert!(partition(s4, 0, Some("8-7")).is_ok());
        let e = partition(s4, 0, Some("9-6")).unwrap_err().to_string();
        assert!(
            e.contains("4151347200 entries") && e.contains("2^31"),
            "{e}"
        );
        let s5 = Shape::new(5, 5).unwrap();
        assert!(partition(s5, 0, Some("12-12")).is_err());
        // The library's own checks still come first.
        let e = partition(s4, 0, Some("9-9")).unwrap_err().to_string();
        assert!(!e.contains("2^31"), "{e}");
        // FIFTEEN_BIG_TABLES=1 (read per call) allows the library's own limit, 2^32.
        assert!(partition(s5, 0, Some("7-6-6-5")).is_err());
        assert_eq!(table_entry_limit(), (MAX_TABLE_ENTRIES, "2^31"));
    }

    #[test]
    fn build_memory_follows_the_bfs_layout() {
        let s4 = Shape::new(4, 4).unwrap();
        // 7-8: the 8-tile table, 518,918,400 placements at 3.5 bytes (docs/guide.md: 1.8 GB).
        let p = partition(s4, 0, None).unwrap();
        assert_eq!(build_bytes(&p), 518_918_400 * 7 / 2);
        assert!(check_build_memory(&p, Some(4 << 30)).is_ok());
        assert!(check_build_memory(&p, None).is_ok());
        let e = check_build_memory(&p, Some(1 << 30))
            .unwrap_err()
            .to_string();
        assert!(e.contains("1.8 GB") && e.contains("1.1 GB"), "{e}");
        // 5x5 6-6-6-6: 127,512,000 placements, at most 8 regions of free cells: 3.5 bytes each.
        let s5 = Shape::new(5, 5).unwrap();
        let p = partition(s5, 0, None).unwrap();
        assert_eq!(build_bytes(&p), 127_512_000 * 7 / 2);
        // A 7-tile pattern: 2,422,728,000 placements, 8.5 GB.
        let p = Partition::parse(s5, 0, "7-7-5-5").unwrap();
        assert_eq!(build_bytes(&p), 2_422_728_000 * 7 / 2);
        assert!(machine_memory().is_none_or(|m| m > 1 << 28));
    }
}
