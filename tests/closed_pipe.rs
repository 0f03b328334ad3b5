//! A reader that goes away (`fifteen solve -i FILE | head -1`) ends a search at once, not at
//! its next write, which may never come: by SIGPIPE, as a write would, a checkpointed
//! search stopped and saved first.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A 6x6 board 400 random moves from the goal: its linear-conflict search runs for hours.
fn endless() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["random", "--size", "6", "--walk", "400", "--seed", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Waits for the child to end (at most a minute, then kills it and fails).
fn ended(mut child: Child) -> std::process::Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("still searching a minute after its reader went away");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Waits (at most a minute) for the search's first save.
fn first_save(cp: &std::path::Path) {
    let t0 = Instant::now();
    while !cp.exists() {
        assert!(t0.elapsed() < Duration::from_secs(60), "no save");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_batch_ends_when_its_reader_goes_away_mid_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    std::fs::write(&file, format!("1 2 3 4 5 6 0 7 8\n{}\n", endless())).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .args(["--format", "json", "-i"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first result, as `head -1` reads it; then the reader goes.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("\"length\":2"), "{first}");
    let out = ended(child);
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{out:?}");
}

#[test]
fn a_checkpointed_search_saves_before_it_ends_for_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .arg("--checkpoint")
        .arg(&cp)
        .arg(endless())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its first save made, the reader goes.
    first_save(&cp);
    drop(child.stdout.take());
    let out = ended(child);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Ended as a closed pipe ends a command, its checkpoint saved first.
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{stderr}");
    assert!(stderr.contains("closed pipe"), "{stderr}");
    assert!(
        stderr.contains("run the same command to resume"),
        "{stderr}"
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cp).unwrap()).unwrap();
    assert!(saved["moves"].is_null() && saved["runs"] == 1, "{saved}");
}

/// `bench --checkpoints DIR` stopped by a closed pipe says what it kept, as `solve` does:
/// its summary, for the gone reader, would have ended it before the words.
#[test]
fn a_checkpointed_bench_says_what_it_kept_when_its_reader_goes() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let file = dir.path().join("b.txt");
    std::fs::write(&file, format!("{}\n", endless())).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["bench", "--heuristic", "linear-conflict", "--threads", "1"])
        .arg("--checkpoints")
        .arg(&ck)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while std::fs::read_dir(&ck).map_or(0, |d| d.count()) == 0 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no save");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(child.stdout.take());
    let out = ended(child);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{stderr}");
    assert!(stderr.contains("closed pipe"), "{stderr}");
    assert!(
        stderr.contains("instance 1: search stopped (interrupted)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("keeps each stopped search: rerun the same command to resume"),
        "{stderr}"
    );
}

#[test]
fn a_run_whose_results_go_to_a_file_goes_on_without_a_reader() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    std::fs::write(&file, "1 2 3 4 5 6 0 7 8\n8 6 7 2 5 4 3 0 1\n").unwrap();
    let results = dir.path().join("r.jsonl");
    // Its stdout a pipe closed from the start: nothing is written there, so nothing ends it.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "-i"])
        .arg(&file)
        .arg("-o")
        .arg(&results)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = ended(child);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&results).unwrap();
    assert_eq!(text.lines().filter(|l| l.contains("\"length\"")).count(), 2);
}

#[test]
fn a_checkpointed_search_saves_when_stderr_is_the_closed_pipe_too() {
    // `2>&1 | head`: the stop's message cannot be written, and must not end the search
    // before its save.
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let (reader, writer) = std::io::pipe().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .arg("--checkpoint")
        .arg(&cp)
        .arg(endless())
        .env("FIFTEEN_TEST_STOP_SAVE_MS", "1500")
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    first_save(&cp);
    // The save a stop makes is slowed by 1.5 s (a test knob): a command that waited for it
    // ends no sooner; one killed at its message (the bug) ends at once. (The file's inode
    // tells nothing: the stop's save may be given the inode an earlier save freed.)
    let closed = Instant::now();
    drop(reader);
    let out = ended(child);
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{out:?}");
    assert!(
        closed.elapsed() >= Duration::from_millis(1500),
        "ended {:?} after the close, before the stop's save",
        closed.elapsed()
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cp).unwrap()).unwrap();
    assert!(saved["moves"].is_null() && saved["runs"] == 1, "{saved}");
}

#[test]
fn a_search_goes_on_when_only_stderr_loses_its_reader() {
    // Progress lines to a log whose reader has gone: the answer still reaches stdout.
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "2"])
        .args(["--format", "json", "--goal", "blank-first"])
        // Korf 100 instance 60 (66 moves): about a second.
        .arg("11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0")
        .env("FIFTEEN_TEST_LOG_EVERY_MS", "50")
        .stdout(std::fs::File::create(&out_file).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let out = ended(child);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.contains("\"length\":66"), "{text}");
}
