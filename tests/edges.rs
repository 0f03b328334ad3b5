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
            "/nonexistent/fifteen-tests-must-not-build-here",
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
    // Commands that write to stderr: errors, notes, the interrupted-batch message.
    let cases: Vec<Vec<&str>> = vec![
        vec!["solve", "--heuristic", "linear-conflict", "1 2 3"],
        vec![
            "solve",
            "--tables",
            "/nonexistent/x",
            "--size",
            "5",
            "--weight",
            "3",
        ],
        vec!["bench", "/nonexistent/file.txt"],
        vec!["check", "/nonexistent/results.jsonl"],
        vec!["random", "--size", "1x1"],
        vec!["--bogus"],
    ];
    for args in cases {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let what = format!("fifteen {args:?} 2>(closed)");
        let mut child = command("fifteen", &args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let status = wait(&mut child, Duration::from_secs(60), &what);
        // The message could not be shown; the status still says it failed (or SIGPIPE).
        assert!(
            status.signal() == Some(SIGPIPE) || status.code().is_some_and(|c| c != 0),
            "{what}: {status:?}"
        );
        assert_ne!(status.code(), Some(101), "{what}: panicked");
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
        // fifteen: 2 (SPEC.md); build-pdb: 1, its status for every error once its
        // arguments are read (lost help is a usage error: 2, as clap's).
        let code = if bin == "build-pdb" && args[0] != "--help" {
            1
        } else {
            2
        };
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
