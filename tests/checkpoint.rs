//! `solve --checkpoint FILE`: a solve stopped by SIGTERM or killed outright, then run again,
//! gives the straight run's answer for little more work; a checkpoint of another search is
//! refused.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fifteen::pdb::Partition;
use fifteen::Shape;

/// Korf 100 instance 88 (65 moves): 43 M nodes with the 5-5-5 tables on one thread
/// (seconds), most of them in the last iteration, so a kill there is never too late.
const BOARD: &str = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
const LENGTH: u64 = 65;

fn command(tables: &Path, cp: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fifteen"));
    c.args(["solve", "--goal", "blank-first", "--partition", "5-5-5"])
        .args(["--threads", "1", "--format", "json", "--tables"])
        .arg(tables)
        .arg("--checkpoint")
        .arg(cp)
        .arg(BOARD)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn checkpoint(cp: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(cp).unwrap()).unwrap()
}

/// Runs to the end; returns the result line and the checkpoint's `spent`.
fn finish(c: Child, cp: &Path) -> (serde_json::Value, u64) {
    let out = c.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rec = common::json_lines(&stdout).remove(0);
    (rec, checkpoint(cp)["spent"].as_u64().unwrap())
}

/// Waits until the checkpoint shows `iterations` finished iterations (the search is then
/// in its last iteration, whatever the machine's speed).
fn wait_for(cp: &Path, iterations: usize, child: &mut Child) {
    let t0 = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(cp) {
            let v: serde_json::Value = serde_json::from_str(&text).expect("a whole file");
            let its = v["iterations"].as_array().unwrap().len();
            if its >= iterations {
                return;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before the kill"
        );
        assert!(t0.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

struct Setup {
    tables: tempfile::TempDir,
    dir: tempfile::TempDir,
    straight: serde_json::Value,
    straight_spent: u64,
    iterations: usize,
}

fn setup() -> Setup {
    let shape = Shape::new(4, 4).unwrap();
    let (tables, _) = common::tables(&Partition::parse(shape, 0, "5-5-5").unwrap());
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("straight.json");
    let (straight, straight_spent) = finish(command(tables.path(), &cp).spawn().unwrap(), &cp);
    assert_eq!(straight["length"].as_u64(), Some(LENGTH));
    let iterations = checkpoint(&cp)["iterations"].as_array().unwrap().len();
    Setup {
        tables,
        dir,
        straight,
        straight_spent,
        iterations,
    }
}

fn resumed(s: &Setup, signal: &str) {
    let cp: PathBuf = s.dir.path().join(format!("{signal}.json"));
    let mut child = command(s.tables.path(), &cp).spawn().unwrap();
    // About half way: the last iteration (most of the work) under way.
    wait_for(&cp, s.iterations - 1, &mut child);
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    match signal {
        "TERM" => {
            assert_eq!(out.status.code(), Some(143), "{stderr}");
            assert!(
                stderr.contains("run the same command to resume"),
                "{stderr}"
            );
        }
        _ => assert_eq!(out.status.code(), None, "killed by a signal"),
    }
    assert!(out.stdout.is_empty());
    let saved = checkpoint(&cp);
    assert!(saved["moves"].is_null());
    let (rec, spent) = finish(command(s.tables.path(), &cp).spawn().unwrap(), &cp);
    assert_eq!(rec["length"], s.straight["length"]);
    assert_eq!(
        rec["moves"], s.straight["moves"],
        "one thread: the same search"
    );
    // One thread searches in one order: the search's count is the straight run's.
    assert_eq!(rec["nodes"], s.straight["nodes"]);
    // The work of both runs (after a kill, what the checkpoint recorded).
    assert!(
        spent as f64 <= 1.1 * s.straight_spent as f64,
        "{spent} nodes against {} straight",
        s.straight_spent
    );
    assert_eq!(checkpoint(&cp)["runs"].as_u64(), Some(2));
    // Solved: a third run prints the answer again without searching.
    let (again, spent_again) = finish(command(s.tables.path(), &cp).spawn().unwrap(), &cp);
    assert_eq!(again["moves"], s.straight["moves"]);
    assert_eq!(spent_again, spent);
}

#[test]
fn a_solve_stopped_by_sigterm_or_killed_resumes_to_the_same_answer() {
    let s = setup();
    resumed(&s, "TERM");
    resumed(&s, "KILL");
}

#[test]
fn a_checkpoint_of_another_search_is_refused() {
    let shape = Shape::new(3, 3).unwrap();
    let (tables, _) = common::tables(&Partition::default_for(shape, 0));
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let run = |board: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args(["solve", "--format", "json", "--tables"])
            .arg(tables.path())
            .arg("--checkpoint")
            .arg(&cp)
            .args(extra)
            .arg(board)
            .output()
            .unwrap()
    };
    let out = run("8 6 7 2 5 4 3 0 1", &[]);
    assert!(out.status.success());
    for (board, extra, what) in [
        ("8 6 7 2 5 4 3 1 0", &[][..], "board"),
        ("8 6 7 2 5 4 3 0 1", &["--goal", "blank-first"][..], "goal"),
        (
            "8 6 7 2 5 4 3 0 1",
            &["--heuristic", "manhattan"][..],
            "heuristic",
        ),
        ("8 6 7 2 5 4 3 0 1", &["--weight", "1.5"][..], "weight"),
    ] {
        let out = run(board, extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{board} {extra:?}: {stderr}");
        assert!(
            stderr.contains("was written for another search") && stderr.contains(what),
            "{stderr}"
        );
    }
}
