//! Progress in a log: with stderr not a terminal (a Slurm job, `nohup`), a long search and
//! a long batch write whole lines now and then (`FIFTEEN_TEST_LOG_EVERY_MS` shortens the
//! gap, and lets the iterations through from half a second), and nothing with `--quiet`.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use fifteen::pdb::Partition;
use fifteen::Shape;

/// Korf 100 instance 88 (65 moves): 43 M nodes with the 5-5-5 tables on one thread
/// (seconds), most of them in the last iteration.
const BOARD: &str = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";

fn fifteen(tables: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(args)
        .args(["--goal", "blank-first", "--partition", "5-5-5"])
        .arg("--tables")
        .arg(tables)
        .env("FIFTEEN_TEST_LOG_EVERY_MS", "100")
        .output()
        .unwrap()
}

fn tables() -> tempfile::TempDir {
    let shape = Shape::new(4, 4).unwrap();
    common::tables(&Partition::parse(shape, 0, "5-5-5").unwrap()).0
}

/// The lines of a log, each without its time stamp (`2026-11-29T10:37:14Z `, checked).
fn logged(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((stamp, rest)) if stamp.len() == 20 && stamp.ends_with('Z') => {
                assert!(stamp.as_bytes()[10] == b'T', "{l}");
                rest
            }
            _ => l,
        })
        .collect()
}

/// The numbers in `line`, in order (a decimal point parts two).
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn a_checkpointed_search_logs_its_subtrees_and_iterations() {
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let cp = cp.to_str().unwrap();
    let args = ["solve", "--threads", "1", "--checkpoint", cp, BOARD];
    let out = fifteen(tables.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // No terminal codes in a log: whole lines.
    assert!(
        !stderr.contains('\r') && !stderr.contains('\x1b'),
        "{stderr:?}"
    );
    // "instance 1: threshold 65: 12 of 80 subtrees done, 1234 nodes over 1 run so far"
    let lines = logged(&stderr);
    let subtrees: Vec<Vec<u64>> = (lines.iter())
        .filter(|l| l.starts_with("instance 1: threshold ") && l.contains(" subtrees done, "))
        .map(|l| numbers(l))
        .collect();
    assert!(!subtrees.is_empty(), "no subtree lines: {stderr}");
    for n in &subtrees {
        let [_, threshold, done, of, _, 1] = n[..] else {
            panic!("{n:?} in {stderr}")
        };
        assert!(threshold <= 65 && threshold % 2 == 1 && done <= of, "{n:?}");
    }
    // Ordered: the thresholds rise, and within one the subtrees done do not fall.
    for w in subtrees.windows(2) {
        assert!(
            w[0][1] < w[1][1] || (w[0][1] == w[1][1] && w[0][2] <= w[1][2]),
            "{w:?}"
        );
    }
    // The iterations that ended, each with its node count, which rises; no claim that a
    // next one is searched (the hook also hears of the one that found the answer).
    let iterations: Vec<Vec<u64>> = (lines.iter())
        .filter(|l| l.starts_with("instance 1: threshold ") && l.contains(" searched after "))
        .map(|l| numbers(l))
        .collect();
    assert!(!iterations.is_empty(), "no iteration lines: {stderr}");
    assert!(iterations
        .windows(2)
        .all(|w| w[0][1] < w[1][1] && w[0][4] < w[1][4]));
    assert!(!stderr.contains("searching the next"), "{stderr}");

    // With --quiet, none of it.
    std::fs::remove_file(cp).unwrap();
    let quiet = [
        "solve",
        "--quiet",
        "--threads",
        "1",
        "--checkpoint",
        cp,
        BOARD,
    ];
    let out = fifteen(tables.path(), &quiet);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_batch_of_one_at_a_time_logs_its_subtrees_beside_its_own_lines() {
    // The batch's line and the instance's keep a pace each: the batch's ticker, asking
    // every second, must not take every turn from the subtrees, said only at saves.
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    // Three times the board: seconds, one at a time.
    let file = common::write(dir.path(), "three.txt", &format!("{BOARD}\n").repeat(3));
    let ck = dir.path().join("ck");
    let args = [
        "solve",
        "--split",
        "--threads",
        "1",
        "--checkpoints",
        ck.to_str().unwrap(),
        "-i",
        &file,
    ];
    let out = fifteen(tables.path(), &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines = logged(&stderr);
    let count = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert!(count(" subtrees done, ") > 0, "{stderr}");
    assert!(count(" of 3 instances done") > 0, "{stderr}");
}

#[test]
fn a_long_batch_logs_how_many_instances_are_done() {
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    // The board four times, one at a time on one thread: seconds each.
    let file = common::write(dir.path(), "b.txt", &format!("{BOARD}\n").repeat(4));
    let out = fifteen(tables.path(), &["bench", "--threads", "1", "-q", &file]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let out = fifteen(tables.path(), &["bench", "--threads", "1", &file]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // "progress: 2 of 4 instances done, 0:07 so far, about 0:07 left"
    let done: Vec<u64> = (logged(&stderr).into_iter())
        .filter(|l| l.starts_with("progress: "))
        .map(|l| {
            let n = numbers(l);
            assert!(l.contains(" of 4 instances done, "), "{l}");
            assert!(n[0] <= 4, "{l}");
            n[0]
        })
        .collect();
    assert!(!done.is_empty(), "no progress lines: {stderr}");
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
}

#[test]
fn a_batch_of_one_logs_its_instance_not_its_count() {
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(dir.path(), "one.txt", &format!("{BOARD}\n"));
    let out = fifteen(
        tables.path(),
        &["bench", "--threads", "1", "--split", &file],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines = logged(&stderr);
    assert!(
        lines.iter().any(|l| l.contains(" searched after ")),
        "no iteration lines: {stderr}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("progress: ")),
        "{stderr}"
    );
}

#[test]
fn a_resumed_results_file_logs_the_time_left_at_this_runs_pace() {
    // 30 boards a move from the goal, then the long board 12 times (a second each). The
    // first run is stopped once the 30 are in its results file; the rerun's time left must
    // come from its own pace, not count the 30 as solved in no time ("about 0:00 left").
    let tables = tables();
    let dir = tempfile::tempdir().unwrap();
    let easy = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n".repeat(30);
    let file = common::write(
        dir.path(),
        "b.txt",
        &format!("{easy}{}", format!("{BOARD}\n").repeat(12)),
    );
    let out = dir.path().join("r.jsonl");
    let solve = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fifteen"));
        c.args(["solve", "--threads", "1", "-i", &file, "-o"])
            .arg(&out)
            .args(["--goal", "blank-first", "--partition", "5-5-5", "--tables"])
            .arg(tables.path());
        c
    };
    let mut child = solve().stderr(std::process::Stdio::null()).spawn().unwrap();
    let t0 = std::time::Instant::now();
    // The header and the 30 records.
    while std::fs::read_to_string(&out).map_or(0, |s| s.lines().count()) < 31 {
        assert!(
            t0.elapsed().as_secs() < 120,
            "the first run wrote too little"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 31);

    let rerun = solve()
        .env("FIFTEEN_TEST_LOG_EVERY_MS", "100")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(rerun.status.success(), "{stderr}");
    let lines: Vec<&str> = (logged(&stderr).into_iter())
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(!lines.is_empty(), "no progress lines: {stderr}");
    for l in lines {
        // "progress: 31 of 42 instances done, 0:01 so far, about 0:11 left"
        let n = numbers(l);
        let (done, total) = (n[0], n[1]);
        assert_eq!(total, 42, "{l}");
        if done == 30 {
            assert!(!l.contains(" left"), "nothing solved by this run yet: {l}");
            continue;
        }
        let secs = |m: u64, s: u64| 60 * m + s;
        let (so_far, left) = match n[2..] {
            [m, s] => (secs(m, s), None),
            [m, s, lm, ls] => (secs(m, s), Some(secs(lm, ls))),
            _ => panic!("{l}"),
        };
        if let Some(left) = left {
            // This run's pace: (done - 30) instances in `so_far` (the clocks cut to the
            // second).
            let expected = so_far as f64 * (total - done) as f64 / (done - 30) as f64;
            assert!(
                left as f64 + 1.0 >= expected,
                "{l}: expected about {expected} s left"
            );
        }
    }
}
