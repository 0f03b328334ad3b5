//! A batch under Ctrl-C, and a batch whose input is still arriving.
//!
//! SIGINT (sent with the `kill` command) in the middle of a JSON batch must leave every
//! printed line complete and valid, the printed lines a prefix of the input, and the exit
//! status 130, whether the input is a file or a stdin pipe that is still open. Results must
//! also come out while the input is still open, not only when it ends; and a long batch
//! with bad lines mixed in reports each and goes on, in input order.
//!
//! The hard instances are Korf 100 boards under linear conflict: seconds to minutes each,
//! so the batch is surely mid-way when the signal comes. A test that hangs is a failure: the
//! waits below give up after a minute (a deadline for a hang, not a timing measurement).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fifteen::board::parse_moves;
use fifteen::check::check_solution;
use fifteen::random::{random_walk, Rng};
use fifteen::{Board, Goal, Shape};
use serde_json::Value;

const HANG: Duration = Duration::from_secs(60);

/// `goal: blank-first`, a few easy boards, then the first `hard` Korf 100 boards.
fn batch(easy: usize, hard: usize) -> String {
    let goal = Goal::blank_first(Shape::new(4, 4).unwrap());
    let mut rng = Rng::new(3);
    let mut text = String::from("goal: blank-first\n");
    for _ in 0..easy {
        text.push_str(&format!("{}\n", random_walk(&mut rng, &goal, 12)));
    }
    let korf =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt")).unwrap();
    let boards = korf
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("goal:"));
    for l in boards.take(hard) {
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// `fifteen COMMAND` under linear conflict on 2 threads, JSON out, building no tables,
/// with `args` last; stdin piped for `solve` (a batch may read it).
fn spawn(command: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args([
            command,
            "--heuristic",
            "linear-conflict",
            "--format",
            "json",
        ])
        .args(["--threads", "2"])
        .args(args)
        .env(
            "FIFTEEN_TABLES",
            "/dev/null/fifteen-tests-must-not-build-here",
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fifteen")
}

fn start(input: &str) -> Child {
    spawn("solve", &["-i", input])
}

/// The child's stdout, line by line, read on a thread so that a hang cannot block the test.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            if tx.send(line.expect("stdout is UTF-8")).is_err() {
                break;
            }
        }
    });
    rx
}

fn sigint(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill -INT failed");
}

/// Waits for the exit status (killing the child if it hangs) and collects stderr.
fn finish(mut child: Child, stdin: Option<ChildStdin>) -> (i32, String) {
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fifteen did not exit within {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin); // held open until now on purpose
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status.code().expect("exited, not killed by a signal"), err)
}

/// Every line is a complete result of the input's instances 1, 2, ... in order, and its
/// moves solve its board.
fn assert_complete_prefix(lines: &[String]) {
    let goal = Goal::blank_first(Shape::new(4, 4).unwrap());
    for (i, line) in lines.iter().enumerate() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}: {line}", i + 1));
        assert_eq!(v["id"].as_u64(), Some(i as u64 + 1), "{line}");
        let tiles: Vec<u8> = serde_json::from_value(v["tiles"].clone()).unwrap();
        let board = Board::new(goal.shape(), &tiles).unwrap();
        let moves = parse_moves(v["moves"].as_str().expect("a result, not an error")).unwrap();
        assert_eq!(
            check_solution(&board, &goal, &moves),
            Ok(v["length"].as_u64().unwrap() as usize),
            "{line}"
        );
    }
}

fn assert_interrupted(code: i32, stderr: &str) {
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
}

/// Sends SIGINT once the child printed a line, checks that it ended as interrupted, and
/// returns every line it printed.
fn interrupt_after_a_line(mut child: Child) -> Vec<String> {
    let rx = lines_of(&mut child);
    let first = rx.recv_timeout(HANG).expect("a first line");
    sigint(&child);
    let (code, stderr) = finish(child, None);
    let mut lines = vec![first];
    lines.extend(rx.iter());
    assert_interrupted(code, &stderr);
    lines
}

#[test]
fn ctrl_c_in_a_batch_from_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("batch.txt");
    std::fs::write(&path, batch(3, 100)).unwrap();
    let mut child = start(path.to_str().unwrap());
    drop(child.stdin.take());
    let lines = interrupt_after_a_line(child);
    assert_complete_prefix(&lines);
    // The easy boards come first; the Korf instances are far from done.
    assert!(lines.len() < 3 + 100, "{} lines", lines.len());
}

#[test]
fn ctrl_c_in_a_batch_from_stdin_that_stays_open() {
    let mut child = start("-");
    let mut stdin = child.stdin.take().unwrap();
    // Fewer boards than the batch keeps in flight, so the reader is waiting for more input
    // when the signal comes.
    stdin.write_all(batch(1, 3).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let rx = lines_of(&mut child);
    let first = rx.recv_timeout(HANG).expect("a first line");
    sigint(&child);
    // The pipe is not closed: the program must not wait for its end.
    let (code, stderr) = finish(child, Some(stdin));
    let mut lines = vec![first];
    lines.extend(rx.iter());
    assert_interrupted(code, &stderr);
    assert_complete_prefix(&lines);
}

#[test]
fn results_come_out_while_the_input_is_still_open() {
    let mut child = start("-");
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(&mut child);
    let goal = Goal::blank_first(Shape::new(4, 4).unwrap());
    let mut rng = Rng::new(11);
    writeln!(stdin, "goal: blank-first").unwrap();
    // One board at a time: each result must arrive before the next board is sent.
    for i in 1..=3 {
        writeln!(stdin, "{}", random_walk(&mut rng, &goal, 10)).unwrap();
        stdin.flush().unwrap();
        let line = rx
            .recv_timeout(HANG)
            .unwrap_or_else(|_| panic!("no result for board {i} while the input is open"));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], i);
    }
    drop(stdin);
    let (code, stderr) = finish(child, None);
    assert_eq!(code, 0, "{stderr}");
    assert!(rx.iter().next().is_none());
}

#[test]
fn a_long_batch_with_bad_lines_mixed_in_goes_on_in_order() {
    let goal = Goal::standard(Shape::new(4, 4).unwrap());
    let mut rng = Rng::new(5);
    let bad: [(&str, &str); 5] = [
        ("this is not a board", "'this' is not a number"),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
            "15 numbers do not make a board",
        ),
        (
            "1 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            "the number 1 appears more than once",
        ),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", "unsolvable"),
        (
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99",
            "the number 99 is out of range",
        ),
    ];
    // 10,000 instances; every 97th line is bad, with comments and blank lines between.
    let mut text = String::new();
    let mut expected: Vec<Result<Board, &str>> = Vec::new();
    for i in 0..10_000 {
        if i % 97 == 13 {
            let (line, msg) = bad[(i / 97) % bad.len()];
            text.push_str(line);
            expected.push(Err(msg));
        } else {
            let b = random_walk(&mut rng, &goal, 1 + i % 20);
            text.push_str(&b.to_string());
            expected.push(Ok(b));
        }
        text.push('\n');
        if i % 101 == 7 {
            text.push_str("# a comment\n\n");
        }
    }
    let mut child = start("-");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let rx = lines_of(&mut child);
    let (code, stderr) = finish(child, None);
    feeder.join().unwrap().unwrap();
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<String> = rx.iter().collect();
    assert_eq!(lines.len(), expected.len());
    for (i, (line, want)) in lines.iter().zip(&expected).enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["id"].as_u64(), Some(i as u64 + 1), "{line}");
        match want {
            Err(msg) => {
                let e = v["error"].as_str().unwrap_or_else(|| panic!("{line}"));
                assert!(e.contains(msg), "{e} / {msg}");
            }
            Ok(b) => {
                let tiles: Vec<u8> = serde_json::from_value(v["tiles"].clone()).unwrap();
                assert_eq!(tiles, b.tiles());
                let moves = parse_moves(v["moves"].as_str().unwrap()).unwrap();
                let walk = 1 + i % 20;
                assert!(moves.len() <= walk && moves.len() % 2 == walk % 2, "{line}");
                assert_eq!(check_solution(b, &goal, &moves), Ok(moves.len()));
            }
        }
    }
}

/// `bench` of `input`.
fn bench(input: &str) -> Child {
    spawn("bench", &[input])
}

#[test]
fn an_interrupted_bench_says_so_in_its_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = |lines: &[String]| -> Value {
        let last: Value = serde_json::from_str(lines.last().expect("a summary")).unwrap();
        last["summary"].clone()
    };
    // Run whole: no "interrupted".
    let easy = tmp.path().join("easy.txt");
    std::fs::write(&easy, batch(3, 0)).unwrap();
    let mut child = bench(easy.to_str().unwrap());
    let rx = lines_of(&mut child);
    let (code, stderr) = finish(child, None);
    let lines: Vec<String> = rx.iter().collect();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary(&lines)["solved"], 3, "{lines:?}");
    assert!(summary(&lines).get("interrupted").is_none(), "{lines:?}");
    // Stopped after the easy boards: the summary says its counts are not the whole set's.
    let path = tmp.path().join("batch.txt");
    std::fs::write(&path, batch(3, 100)).unwrap();
    let lines = interrupt_after_a_line(bench(path.to_str().unwrap()));
    let s = summary(&lines);
    assert_eq!(s["interrupted"], true, "{lines:?}");
    assert!(s["solved"].as_u64().unwrap() < 103, "{lines:?}");
}

/// A huge `random --count` stopped by Ctrl-C says so, as every command does, and every
/// line it printed is a whole board.
#[test]
fn an_interrupted_random_says_so_and_its_boards_are_whole() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args([
            "random",
            "--size",
            "3",
            "--count",
            "100000000000",
            "--seed",
            "3",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fifteen");
    let rx = lines_of(&mut child);
    let first = rx.recv_timeout(HANG).expect("a first line");
    sigint(&child);
    let (code, stderr) = finish(child, None);
    assert_interrupted(code, &stderr);
    assert!(stderr.contains("boards drawn"), "{stderr}");
    for line in std::iter::once(first).chain(rx.iter()) {
        Board::parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

/// Stopped while waiting for its first board on stdin, `solve -` says that no board was
/// read, not that a search was stopped.
#[test]
fn ctrl_c_before_any_board_says_none_was_read() {
    // Its stdin, a pipe, stays open (held in `child`) until it has exited.
    let child = spawn("solve", &["-"]);
    common::await_signal_handlers(&child);
    sigint(&child);
    let (code, stderr) = finish(child, None);
    assert_interrupted(code, &stderr);
    assert!(stderr.contains("before any board was read"), "{stderr}");
    assert!(!stderr.contains("search was stopped"), "{stderr}");
}

/// An instance that finished after one the stop caught is not printed (results keep input
/// order), and the stop says so: never "no instance was done" when one was; with
/// `--checkpoints` its answer is kept (in its file) for the rerun.
#[test]
fn a_stop_says_which_finished_instances_it_did_not_print() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    // A hard board first (minutes under linear conflict), an easy one second.
    let text = batch(1, 1);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(1, 2);
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let ck = dir.path().join("ck");
    let args = [
        "--checkpoints",
        ck.to_str().unwrap(),
        "-i",
        input.to_str().unwrap(),
    ];
    let mut child = spawn("solve", &args);
    let out = lines_of(&mut child);
    // The easy one's checkpoint holds its answer: it is done, behind the hard one.
    let t0 = Instant::now();
    let solved = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|v| v["moves"].is_string())
    };
    loop {
        let done = std::fs::read_dir(&ck)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("2-") && solved(&e.path()));
        if done {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "ended before the stop");
        assert!(t0.elapsed() < HANG, "the easy instance was not solved");
        std::thread::sleep(Duration::from_millis(20));
    }
    sigint(&child);
    let (code, stderr) = finish(child, None);
    assert_interrupted(code, &stderr);
    assert!(out.try_iter().next().is_none(), "nothing printed: {stderr}");
    assert!(
        stderr.contains("no instance was printed")
            && stderr.contains(
                "1 more instance finished after the first one the stop caught, and was not printed"
            )
            && stderr.contains("keeps their answers"),
        "{stderr}"
    );
    // What the caught search had proven is said, as a time limit's failure says it: a
    // bound no more than the hard board's known length (its line's second field).
    let known: u32 = lines[1].split_whitespace().nth(1).unwrap().parse().unwrap();
    let said = stderr
        .lines()
        .find(|l| l.contains("search stopped (interrupted) after"))
        .unwrap_or_else(|| panic!("no bound said: {stderr}"));
    let bound: u32 = said
        .split("no solution is shorter than ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(bound > 0 && bound <= known, "{said} (known {known})");
}
