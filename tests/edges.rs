//! Off the happy path, as an adversary would use the commands: closed pipes, full disks,
//! and (in the sections below) bad input, out-of-range options, signals. Each case is a row:
//! the command, what it is fed, and the exit status and message it must give. The rule
//! behind every row: a clear message and a non-zero status, or a quiet end when the reader
//! went away; never a panic, a hang, or output lost with exit status 0.

mod common;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::build_pdb;
use fifteen::pdb::{Partition, TableDir};
use fifteen::Shape;

/// A 4x4 board two moves from the standard goal: linear conflict solves it at once.
const NEAR: &str = "1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12";

/// A directory with the exact 3x3 table (181,440 entries: milliseconds to build).
fn tables3() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let shape = Shape::new(3, 3).unwrap();
    let dir = TableDir::new(tmp.path());
    dir.build_missing(&Partition::default_for(shape, 0), &|_, _, _| {})
        .unwrap();
    tmp
}

/// A results file of one solved 3x3 board, as `check` reads it.
fn results_file(dir: &Path) -> String {
    let path = dir.join("results.jsonl");
    std::fs::write(
        &path,
        "{\"id\":1,\"tiles\":[1,2,3,4,5,6,7,0,8],\"moves\":\"R\",\"length\":1}\n",
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

/// Every command that writes to stdout, with arguments that make it write at once (and,
/// for `random` and `bench`, keep writing for a while).
fn writers(tables: &str, results: &str, out: &str) -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        (
            "fifteen",
            s(&["solve", "--heuristic", "linear-conflict", NEAR]),
        ),
        (
            "fifteen",
            s(&[
                "solve",
                "--tables",
                tables,
                "--format",
                "json",
                "8 6 7 2 5 4 3 0 1",
            ]),
        ),
        (
            "fifteen",
            s(&[
                "bench",
                "data/korf100.txt",
                "--heuristic",
                "manhattan",
                "--max-nodes",
                "1000",
            ]),
        ),
        (
            "fifteen",
            s(&["random", "--count", "200000", "--seed", "1"]),
        ),
        ("fifteen", s(&["check", results])),
        ("fifteen", s(&["check", "--format", "json", results])),
        (
            "fifteen",
            s(&["check", "1 2 3 4 5 6 7 0 8", "--moves", "R"]),
        ),
        ("fifteen", s(&["tables", "list", "--tables", tables])),
        ("fifteen", s(&["tables", "verify", "--tables", tables])),
        ("fifteen", s(&["--help"])),
        ("fifteen", s(&["solve", "--help"])),
        ("fifteen", s(&["--version"])),
        ("build-pdb", s(&["--size", "3", "--out", out])),
        ("build-pdb", s(&["--help"])),
    ]
}

fn command(bin: &str, args: &[String]) -> Command {
    let exe = match bin {
        "fifteen" => Path::new(env!("CARGO_BIN_EXE_fifteen")).to_path_buf(),
        _ => build_pdb().to_path_buf(),
    };
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env(
            "FIFTEEN_TABLES",
            "/dev/null/fifteen-tests-must-not-build-here",
        )
        .stdin(Stdio::null());
    cmd
}

/// Waits at most `limit` for the child: a hang is a failure, not a stuck test run.
fn wait(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Ended quietly because its reader went away: by SIGPIPE (as `cat` does) or exit 0.
fn quiet_end(status: ExitStatus) -> bool {
    status.signal() == Some(SIGPIPE) || status.code() == Some(0)
}

/// SIGPIPE's number on Linux and the BSDs.
const SIGPIPE: i32 = 13;

#[test]
fn a_closed_stdout_ends_every_command_quietly_and_at_once() {
    let tables = tables3();
    let tmp = tempfile::tempdir().unwrap();
    let results = results_file(tmp.path());
    let t = tables.path().to_str().unwrap();
    for (bin, args) in writers(t, &results, tmp.path().join("out").to_str().unwrap()) {
        let what = format!("{bin} {args:?} | (closed)");
        // A pipe whose read end is closed before the program writes anything.
        let mut child = command(bin, &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let status = wait(&mut child, Duration::from_secs(60), &what);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(quiet_end(status), "{what}: {status:?}, stderr: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(!err.contains("Broken pipe"), "{what}: {err}");
    }
}

#[test]
fn a_closed_stderr_ends_quietly_too() {
    // Every command that writes to stderr: errors (of each subcommand and of build-pdb),
    // notes before a result, the build announcement.
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    let empty = empty.to_str().unwrap();
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    let file = unwritable(tmp.path());
    // (binary, arguments, whether the command fails with its stderr open)
    let cases: Vec<(&str, Vec<&str>, bool)> = vec![
        (
            "fifteen",
            vec!["solve", "--heuristic", "linear-conflict", "1 2 3"],
            true,
        ),
        (
            "fifteen",
            vec![
                "solve",
                "--tables",
                "/dev/null/fifteen-tests-x",
                "--size",
                "5",
                "--weight",
                "3",
            ],
            true,
        ),
        ("fifteen", vec!["bench", "/nonexistent/file.txt"], true),
        ("fifteen", vec!["check", "/nonexistent/results.jsonl"], true),
        ("fifteen", vec!["random", "--size", "1x1"], true),
        ("fifteen", vec!["tables", "bogus"], true),
        (
            "fifteen",
            vec!["tables", "verify", "--tables", "/dev/null/fifteen-tests-x"],
            true,
        ),
        ("fifteen", vec!["play", "--size", "1x1"], true),
        ("fifteen", vec!["completions", "no-such-shell"], true),
        ("fifteen", vec!["--bogus"], true),
        // A note on stderr, then the answer on stdout.
        (
            "fifteen",
            vec![
                "solve",
                "--no-build",
                "--tables",
                empty,
                "8 6 7 2 5 4 3 0 1",
            ],
            false,
        ),
        // The build announcement, then the build.
        (
            "fifteen",
            vec!["solve", "--tables", out, "8 6 7 2 5 4 3 0 1"],
            false,
        ),
        ("build-pdb", vec!["--partition", "9-6"], true),
        ("build-pdb", vec!["--size", "1"], true),
        ("build-pdb", vec!["--size", "3", "--out", &file], true),
        ("build-pdb", vec!["--bogus"], true),
        ("build-pdb", vec!["--size", "3", "--out", out], false),
    ];
    // build-pdb is compiled on first use, not under the clock.
    build_pdb();
    for (bin, args, fails) in cases {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let what = format!("{bin} {args:?} 2>(closed)");
        let mut child = command(bin, &args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let status = wait(&mut child, Duration::from_secs(60), &what);
        assert_ne!(status.code(), Some(101), "{what}: panicked");
        if fails {
            // The message could not be shown; the status still says it failed (or SIGPIPE).
            assert!(
                status.signal() == Some(SIGPIPE) || status.code().is_some_and(|c| c != 0),
                "{what}: {status:?}"
            );
        } else {
            // Ended at the first note (SIGPIPE, as other tools do) or went on to succeed.
            assert!(quiet_end(status), "{what}: {status:?}");
        }
    }
}

#[test]
fn output_lost_to_a_full_disk_is_an_error_for_every_command() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        let msg = "skipped: no /dev/full on this machine";
        assert!(std::env::var_os("CI").is_none(), "{msg}");
        eprintln!("{msg}");
        return;
    }
    let tables = tables3();
    let tmp = tempfile::tempdir().unwrap();
    let results = results_file(tmp.path());
    let t = tables.path().to_str().unwrap();
    for (bin, args) in writers(t, &results, tmp.path().join("out").to_str().unwrap()) {
        let what = format!("{bin} {args:?} > /dev/full");
        let sink = std::fs::OpenOptions::new().write(true).open(full).unwrap();
        let mut child = command(bin, &args)
            .stdout(sink)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait(&mut child, Duration::from_secs(60), &what);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        // fifteen: 2 (docs/formats.md, "Exit status"); build-pdb: 1, its status for every
        // error once its arguments are read, but 2 for a page lost (--help, as clap's;
        // --man and --completions, as fifteen's).
        let page = ["--help", "--man", "--completions"].contains(&args[0].as_str());
        let code = if bin == "build-pdb" && !page { 1 } else { 2 };
        assert_eq!(
            status.code(),
            Some(code),
            "{what}: {status:?}, stderr: {err}"
        );
        assert!(
            err.contains("error: cannot write the output: No space left on device"),
            "{what}: {err}"
        );
    }
}

// Input: goal lines, glued boards, bad bytes

/// Instance and results input, damaged or ambiguous: a table of rows in its own file, to
/// keep this one short (not `tests/input.rs`: cargo would build that as a test of its own).
#[path = "edges/input.rs"]
mod input;

// Options: ranges, kinds, completions
// (in tests/edges/options.rs: every option's range, failure kinds, tables and check options,
// --quiet and progress, completions and man pages)
#[path = "edges/options.rs"]
mod options;

// Tables: where they live, when they are built

/// A 4x4 board a few moves from the goal, whose 5-5-5 tables build in about a second.
const NEAR4: &str = "1 2 3 4 5 6 7 8 9 10 0 11 13 14 15 12";

/// A path under a plain file: no one, not even root, can create a directory there, so it
/// stands for a read-only place on any machine.
fn unwritable(tmp: &Path) -> String {
    let file = tmp.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    file.join("tables").to_str().unwrap().to_string()
}

#[test]
fn an_unwritable_tables_directory_fails_at_once_with_its_path_and_a_hint() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = unwritable(tmp.path());
    // (command, arguments, exit status, the hint's option)
    let rows: Vec<(&str, Vec<&str>, i32, &str)> = vec![
        (
            "fifteen",
            vec!["solve", "--tables", &dir, "--partition", "5-5-5", NEAR4],
            2,
            "--tables DIR",
        ),
        (
            "fifteen",
            vec![
                "bench",
                "data/korf100.txt",
                "--tables",
                &dir,
                "--partition",
                "5-5-5",
            ],
            2,
            "--tables DIR",
        ),
        (
            "build-pdb",
            vec!["--partition", "5-5-5", "--out", &dir],
            1,
            "--out DIR",
        ),
    ];
    // build-pdb is compiled on first use: not part of what is timed.
    build_pdb();
    for (bin, args, code, hint) in rows {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let what = format!("{bin} {args:?}");
        let t0 = Instant::now();
        let out = command(bin, &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{what}: {err}");
        assert!(
            err.starts_with(&format!(
                "error: cannot write tables to {dir}: Not a directory"
            )),
            "{what}: {err}"
        );
        assert!(err.contains(hint), "{what}: {err}");
        assert!(!err.contains("building"), "{what}: nothing is built: {err}");
        // (A build would take tens of seconds: the bound leaves room for a loaded machine.)
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{what}: not at once"
        );
    }
    // The file itself named as the directory: said as such (it was "File exists"), and
    // left as it was.
    let file = tmp.path().join("a-file");
    let file_s = file.to_str().unwrap().to_string();
    for (bin, args, code) in [
        ("fifteen", vec!["solve", "--tables", &file_s, NEAR4], 2),
        ("build-pdb", vec!["--size", "3", "--out", &file_s], 1),
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = command(bin, &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{bin}: {err}");
        assert!(
            err.contains(&format!(
                "cannot write tables to {file_s}: it is there, and not a directory"
            )),
            "{bin}: {err}"
        );
    }
    // Listing it: not a place where tables are built on first use.
    for verb in ["list", "verify"] {
        let args: Vec<String> = ["tables", verb, "--tables", &file_s]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let out = command("fifteen", &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{verb}: {err}");
        assert!(
            err.contains("it is there, and not a directory") && !err.contains("first use"),
            "{verb}: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
}

/// `--no-build` where the directory lacks the tables a board needs says which ones are
/// missing: a goal whose blank no symmetry takes to a corner, or a partition given, has
/// tables of its own, which the directory may lack while it holds the default's.
#[test]
fn no_build_names_the_tables_it_lacks() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    // The blank in the centre of 3x3 (cell 4).
    let centre = "1 2 3 4 0 5 6 7 8";
    for (extra, want) in [
        (
            vec!["--goal", centre, "1 2 3 4 5 0 6 7 8"],
            "note: no 3x3 tables for a goal with the blank in cell 4 in ",
        ),
        (
            vec!["--partition", "4-4", "8 6 7 2 5 4 3 0 1"],
            "note: no 3x3 tables of the partition 4-4 in ",
        ),
    ] {
        let mut args = vec!["solve", "--no-build", "--tables", d, "--format", "json"];
        args.extend(extra);
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = command("fifteen", &args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.starts_with(want), "{args:?}: {err}");
    }
}

#[test]
fn no_build_solves_without_tables_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    let d = dir.to_str().unwrap();
    for (args, shape) in [
        (
            vec![
                "solve",
                "--no-build",
                "--tables",
                d,
                "--format",
                "json",
                "8 6 7 2 5 4 3 0 1",
            ],
            "3x3",
        ),
        (
            vec![
                "solve",
                "--no-build",
                "--tables",
                d,
                "--format",
                "json",
                NEAR4,
            ],
            "4x4",
        ),
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = command("fifteen", &args).output().unwrap();
        let (so, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!(
                "note: no {shape} tables in {d}; build them with `build-pdb"
            )),
            "{args:?}: {err}"
        );
        assert!(so.contains("\"heuristic\":\"linear-conflict\""), "{so}");
        assert!(so.contains("\"optimal\":true"), "{so}");
        assert!(!dir.exists(), "--no-build created {d}");
    }
}

/// `fifteen` run from `cwd` with a home of its own and no FIFTEEN_TABLES.
fn with_home(cwd: &Path, home: &Path, xdg: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = command(
        "fifteen",
        &args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    );
    cmd.current_dir(cwd)
        .env_remove("FIFTEEN_TABLES")
        .env("HOME", home);
    match xdg {
        Some(x) => cmd.env("XDG_DATA_HOME", x),
        None => cmd.env_remove("XDG_DATA_HOME"),
    };
    cmd.output().unwrap()
}

#[test]
fn tables_go_to_the_per_user_data_directory_not_the_current_one() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let xdg = h.join("xdg");
    // (XDG_DATA_HOME, where the tables must go): XDG's rule, then ~/.local/share, also
    // when XDG_DATA_HOME is relative (the XDG spec says to ignore it then).
    let rows = [
        (Some(xdg.to_str().unwrap()), xdg.join("fifteen")),
        (None, h.join(".local/share/fifteen")),
        (Some(""), h.join(".local/share/fifteen")),
        (Some("relative/dir"), h.join(".local/share/fifteen")),
    ];
    for (i, (x, want)) in rows.iter().enumerate() {
        let cwd = tempfile::tempdir().unwrap();
        let out = with_home(cwd.path(), h, *x, &["solve", "8 6 7 2 5 4 3 0 1"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{x:?}: {err}");
        // Built by the first run that uses the directory, found by the later ones.
        let built = i == 0 || i == 1;
        assert_eq!(
            err.contains(&format!("into {}:", want.display())),
            built,
            "{x:?}: {err}"
        );
        assert!(want.join("3x3-b0-1.2.3.4.5.6.7.8.pdb").is_file(), "{x:?}");
        assert_eq!(std::fs::read_dir(cwd.path()).unwrap().count(), 0, "{x:?}");
    }
    // The help says where, and the override's names.
    let out = with_home(h, h, None, &["solve", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("~/.local/share/fifteen"), "{help}");
    assert!(help.contains("FIFTEEN_TABLES"), "{help}");
    assert!(help.contains("--no-build"), "{help}");
}

#[test]
fn a_build_announces_what_where_how_long_and_how_big() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    let args: Vec<String> = ["solve", "--tables", d, "--partition", "5-5-5", NEAR4]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let out = command("fifteen", &args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // 3 x 16!/11! = 3 x 524,160 placements: 786 kB of nibbles in all, plus a 4 kB header each.
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "building the pattern databases for 4x4 boards (5-5-5 partition, goal blank in \
             cell 0) into {d}: about "
        )) && first.ends_with(" of memory, 800 kB on disk; once"),
        "{err}"
    );
}

/// Sends SIGINT (what Ctrl-C sends) to a running child.
fn interrupt(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -INT failed");
}

#[test]
fn ctrl_c_stops_a_build_at_once_and_leaves_no_partial_table() {
    // The 7-8 partition: its 7-tile table alone takes a few seconds, so half a second in
    // the build is still running (6-6-3 now builds in less).
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::parse(shape, 0, "7-8").unwrap();
    for bin in ["fifteen", "build-pdb"] {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().to_str().unwrap().to_string();
        let args: Vec<&str> = match bin {
            "fifteen" => vec!["solve", "--tables", &d, "--partition", "7-8", NEAR4],
            _ => vec!["--partition", "7-8", "--out", &d],
        };
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let what = format!("{bin} {args:?}");
        let mut child = command(bin, &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        assert!(child.try_wait().unwrap().is_none(), "{what}: done in 0.5 s");
        let t0 = Instant::now();
        interrupt(&child);
        let status = wait(&mut child, Duration::from_secs(10), &what);
        let stopped_in = t0.elapsed();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(130), "{what}: {err}");
        assert!(
            stopped_in < Duration::from_secs(5),
            "{what}: took {stopped_in:?}"
        );
        assert!(
            err.contains("interrupted: the build stopped; no partial table was written"),
            "{what}: {err}"
        );
        assert!(!err.contains("panicked"), "{what}: {err}");
        // What is there is whole: each file a finished table that loads; no temporary.
        let names: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            names.iter().all(|n| n.ends_with(".pdb")),
            "{what}: {names:?}"
        );
        let specs = partition.specs();
        assert!(
            names.len() < specs.len(),
            "{what}: finished before the signal"
        );
        for spec in &specs {
            let path = tmp.path().join(spec.file_name());
            if path.exists() {
                let t = fifteen::pdb::Table::read(&path, spec).unwrap();
                t.verify(spec).unwrap();
            }
        }
    }
}

/// A second partition's tables missing under `--no-build`: the search goes on with the
/// first tables alone, says so, and builds nothing.
#[test]
fn no_build_without_the_second_tables_searches_with_the_first_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    let shape = Shape::new(4, 4).unwrap();
    let first = Partition::parse(shape, 0, "5-5-5").unwrap();
    dir.build_missing(&first, &|_, _, _| {}).unwrap();
    // Table files only: opening the first tables may write their verification records.
    let tables = || {
        std::fs::read_dir(tmp.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension() == Some("pdb".as_ref()))
            .count()
    };
    let before = tables();
    assert_eq!(before, 3);
    let d = tmp.path().to_str().unwrap();
    let args: Vec<String> = [
        "solve",
        "--no-build",
        "--tables",
        d,
        "--partition",
        "5-5-5",
        "--study",
        "pdb+pair=6-6-3",
        "--format",
        "json",
        NEAR4,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let out = command("fifteen", &args).output().unwrap();
    let (so, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("build them with `build-pdb")
            && err.contains("solving 4x4 boards with the first tables alone"),
        "{err}"
    );
    assert!(!err.contains("linear conflict"), "{err}");
    assert!(so.contains("\"heuristic\":\"pdb\""), "{so}");
    assert!(so.contains("\"optimal\":true"), "{so}");
    assert_eq!(tables(), before, "--no-build built tables in {d}");
}
