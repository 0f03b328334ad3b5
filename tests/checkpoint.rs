//! `solve --checkpoint FILE`: a solve stopped by SIGTERM or killed outright, then run again,
//! gives the straight run's answer for little more work; a checkpoint of another search is
//! refused.

mod common;

use std::io::{BufRead, BufReader};
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
    common::with_default_signals(&mut c);
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
    // The iteration before the last under way: the signal lands with the whole last
    // iteration (most of the work) still ahead, also on a loaded machine, where the last
    // iteration alone (it stops at its first solution) was once over before `kill` ran.
    wait_for(&cp, s.iterations - 2, &mut child);
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    match signal {
        "TERM" | "HUP" => {
            // A hang-up (a terminal closed, an ssh session dropped) is a stop as SIGTERM
            // is: 128 + 1.
            let status = if signal == "TERM" { 143 } else { 129 };
            assert_eq!(out.status.code(), Some(status), "{stderr}");
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
    if signal != "KILL" {
        // The subtree under way (one thread) is kept where its search was, to go on there;
        // none when the stop came at the top of the tree, between two subtrees (the
        // iteration just begun, on a machine too quick for the test's look at the file).
        let partial = saved["partial"].as_array().expect("partial subtrees");
        assert!(partial.len() <= 1, "{saved}");
        if let Some(p) = partial.first() {
            assert!(p["at"].is_string() && p["nodes"].as_u64() > Some(0));
            assert!(stderr.contains("1 more caught partway"), "{stderr}");
        }
    }
    let (rec, spent) = finish(command(s.tables.path(), &cp).spawn().unwrap(), &cp);
    assert_eq!(rec["length"], s.straight["length"]);
    assert_eq!(
        rec["moves"], s.straight["moves"],
        "one thread: the same search"
    );
    // One thread searches in one order: the search's count is the straight run's.
    assert_eq!(rec["nodes"], s.straight["nodes"]);
    // The work of both runs (after a kill, what the checkpoint recorded): a stop loses
    // next to nothing (the top of the iteration searched again, the path retraced), a kill
    // the subtree under way.
    let most = if signal == "KILL" { 1.1 } else { 1.02 };
    assert!(
        spent as f64 <= most * s.straight_spent as f64,
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
fn a_solve_stopped_by_sigterm_or_sighup_or_killed_resumes_to_the_same_answer() {
    let s = setup();
    resumed(&s, "TERM");
    resumed(&s, "HUP");
    resumed(&s, "KILL");
}

/// Started by `nohup`, which leaves SIGHUP ignored for the command: a hang-up then leaves
/// the search running to its answer, as the user asked.
#[test]
fn a_hang_up_leaves_a_search_started_by_nohup_running() {
    let s = setup();
    let cp = s.dir.path().join("nohup.json");
    let c = command(s.tables.path(), &cp);
    let mut nohup = Command::new("nohup");
    nohup
        .arg(c.get_program())
        .args(c.get_args())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = nohup.spawn().expect("nohup (coreutils) runs");
    wait_for(&cp, s.iterations - 1, &mut child);
    let status = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (rec, _) = finish(child, &cp);
    assert_eq!(rec["moves"], s.straight["moves"]);
    assert_eq!(
        checkpoint(&cp)["runs"].as_u64(),
        Some(1),
        "one run, not stopped"
    );
}

/// A stop on a loaded machine: the save made on SIGTERM takes 2 s (the test knob
/// `FIFTEEN_TEST_STOP_SAVE_MS`), longer than the grace after a signal (0.75 s). The
/// command waits for it, says where to resume, and the file holds the stopped search.
#[test]
fn a_stop_waits_for_a_slow_checkpoint_save() {
    let s = setup();
    let cp = s.dir.path().join("slow.json");
    let mut child = command(s.tables.path(), &cp)
        .env("FIFTEEN_TEST_STOP_SAVE_MS", "2000")
        .spawn()
        .unwrap();
    wait_for(&cp, s.iterations - 2, &mut child);
    let before = checkpoint(&cp);
    let (sent, clock) = (std::time::SystemTime::now(), Instant::now());
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(
        stderr.contains("run the same command to resume"),
        "{stderr}"
    );
    // The command waited for the stop's slow save (the bug ended it at the grace's end)
    // and the save was made: the file was written after the signal (every save replaces
    // the file by a new one; its inode proves nothing, as a save may be given the one an
    // earlier save freed), counting at least the nodes of the last. (Not more nodes: on a
    // loaded machine the stop can come between a save and the next node.)
    assert!(
        clock.elapsed() >= Duration::from_millis(1900),
        "ended {:?} after the signal, before its 2 s save: {stderr}",
        clock.elapsed()
    );
    let after = checkpoint(&cp);
    assert!(
        std::fs::metadata(&cp).unwrap().modified().unwrap() >= sent,
        "no save after the stop"
    );
    assert!(after["moves"].is_null());
    assert!(
        after["spent"].as_u64() >= before["spent"].as_u64(),
        "{after}"
    );
    assert!(
        stderr.contains("saving the search's checkpoint first"),
        "{stderr}"
    );
}

/// A batch with `--checkpoints DIR` stopped before any instance is done says that DIR
/// holds the work and how to resume, not that the results above are complete.
#[test]
fn a_stopped_batch_with_checkpoints_says_how_to_resume() {
    let shape = Shape::new(4, 4).unwrap();
    let (tables, _) = common::tables(&Partition::parse(shape, 0, "5-5-5").unwrap());
    let dir = tempfile::tempdir().unwrap();
    let (input, books) = (dir.path().join("in.txt"), dir.path().join("books"));
    std::fs::write(&input, format!("a ? {BOARD}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--goal", "blank-first", "--partition", "5-5-5"])
        .args(["--threads", "1", "--tables"])
        .arg(tables.path())
        .arg("--checkpoints")
        .arg(&books)
        .arg("-i")
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its book is written after the first iteration: the search is under way.
    let t0 = Instant::now();
    while std::fs::read_dir(&books).map_or(0, |d| d.count()) == 0 {
        assert!(child.try_wait().unwrap().is_none(), "finished too soon");
        assert!(t0.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains(&format!(
            "interrupted: no instance was done; {} keeps each stopped search: rerun the same command to resume",
            books.display()
        )),
        "{stderr}"
    );
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
    // Its notes (nodes spent, already solved) on stderr, and none with -q.
    let noted = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(noted.contains("nodes"), "{noted}");
    let again = run("8 6 7 2 5 4 3 0 1", &["-q"]);
    assert!(again.status.success());
    assert_eq!(String::from_utf8_lossy(&again.stderr), "", "-q");
    let answer = |o: &std::process::Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v.as_object_mut().unwrap().remove("millis");
        v
    };
    assert_eq!(answer(&again), answer(&out));
    for (board, extra, what) in [
        ("8 6 7 2 5 4 3 1 0", &[][..], "board"),
        ("8 6 7 2 5 4 3 0 1", &["--goal", "blank-first"][..], "goal"),
        (
            "8 6 7 2 5 4 3 0 1",
            &["--heuristic", "manhattan"][..],
            "heuristic",
        ),
        // The weights as people give them (a file keeps 3/2).
        (
            "8 6 7 2 5 4 3 0 1",
            &["--weight", "1.5"][..],
            "its weight is 1, this one's is 1.5",
        ),
    ] {
        let out = run(board, extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{board} {extra:?}: {stderr}");
        assert!(
            stderr.contains("was written for another search") && stderr.contains(what),
            "{stderr}"
        );
        assert!(stderr.contains("delete it to start over"), "{stderr}");
    }
    // Cut short (a disk that filled, a copy that stopped): refused with what to do, and
    // left as it is.
    let whole = std::fs::read(&cp).unwrap();
    let cut = &whole[..whole.len() / 2];
    std::fs::write(&cp, cut).unwrap();
    let out = run("8 6 7 2 5 4 3 0 1", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cut short or damaged")
            && stderr.contains("delete it and run the command again"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&cp).unwrap(), cut, "left as it was");
    // A symbolic link, to a sound checkpoint or to nothing: refused (a save would replace
    // the link by a file and leave its target stale), the link left as it is.
    std::fs::write(&cp, &whole).unwrap();
    let link = dir.path().join("link.json");
    for target in [cp.clone(), dir.path().join("nothing.json")] {
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args(["solve", "--heuristic", "linear-conflict", "--checkpoint"])
            .arg(&link)
            .arg("8 6 7 2 5 4 3 0 1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("is a symbolic link"), "{stderr}");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert_eq!(std::fs::read(&cp).unwrap(), whole);
    // Not a checkpoint at all (the input, a table, someone's notes): refused and left as
    // it is, with no advice to delete it.
    for foreign in ["8 6 7 2 5 4 3 0 1\n", "{\"batch\": 64}", ""] {
        std::fs::write(&cp, foreign).unwrap();
        let out = run("8 6 7 2 5 4 3 0 1", &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("it is not a checkpoint and is left as it is"),
            "{stderr}"
        );
        if foreign.is_empty() {
            // Someone's (saves never leave an empty file), and nothing to delete by mistake.
            assert!(stderr.contains("it is empty"), "{stderr}");
        } else {
            assert!(!stderr.contains("delete it"), "{stderr}");
        }
        assert_eq!(std::fs::read(&cp).unwrap(), foreign.as_bytes());
    }
}

/// A checkpoint of an older format version (whose subtree numbers follow another child
/// order) is refused with a message naming the versions, and left as it is.
#[test]
fn a_checkpoint_of_another_format_version_is_refused() {
    let shape = Shape::new(3, 3).unwrap();
    let (tables, _) = common::tables(&Partition::default_for(shape, 0));
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args(["solve", "--format", "json", "--tables"])
            .arg(tables.path())
            .arg("--checkpoint")
            .arg(&cp)
            .arg("8 6 7 2 5 4 3 0 1")
            .output()
            .unwrap()
    };
    assert!(run().status.success());
    let current = fifteen::cluster::CHECKPOINT_FORMAT;
    let text = std::fs::read_to_string(&cp).unwrap();
    assert!(text.contains(current), "{text}");
    let old = text.replace(current, "fifteen-checkpoint/3");
    std::fs::write(&cp, &old).unwrap();
    let out = run();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("fifteen-checkpoint/3") && stderr.contains(current),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), old, "left as it was");
}

/// `bench FILE --checkpoints DIR`: a batch whose instances a node limit stops is run again
/// with larger limits until all are solved; each rerun resumes the stopped instances from
/// their files and prints the solved ones again without searching. The lengths are the
/// published ones (data/korf100.txt), and each count is the one of a run never stopped.
#[test]
fn a_batch_with_checkpoints_resumes_each_stopped_instance() {
    let shape = Shape::new(4, 4).unwrap();
    let (tables, _) = common::tables(&Partition::parse(shape, 0, "5-5-5").unwrap());
    let dir = tempfile::tempdir().unwrap();
    // Five cheap Korf 100 instances with their published lengths.
    let input = dir.path().join("five.txt");
    let lines: String = std::iter::once("goal: blank-first\n".to_string())
        .chain(common::korf_easiest(5).iter().map(|i| {
            let tiles: Vec<String> = i.board.tiles().iter().map(|t| t.to_string()).collect();
            format!("{} {} {}\n", i.id, i.known.unwrap(), tiles.join(" "))
        }))
        .collect();
    std::fs::write(&input, lines).unwrap();
    let bench = |cps: &Path, extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args([
                "bench",
                "--partition",
                "5-5-5",
                "--threads",
                "1",
                "--format",
                "json",
            ])
            .arg("--tables")
            .arg(tables.path())
            .arg("--checkpoints")
            .arg(cps)
            .arg(&input)
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        (out.status.code(), stdout, stderr)
    };
    let records = |stdout: &str| -> Vec<serde_json::Value> {
        common::json_lines(stdout)
            .into_iter()
            .filter(|r| r.get("id").is_some())
            .collect()
    };
    // The run never stopped, in a directory of its own.
    let straight_dir = dir.path().join("straight");
    let (code, stdout, stderr) = bench(&straight_dir, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let straight = records(&stdout);
    assert_eq!(straight.len(), 5);
    let most = straight
        .iter()
        .map(|r| r["nodes"].as_u64().unwrap())
        .max()
        .unwrap();

    let cps = dir.path().join("cps");
    let mut limit = most / 8;
    let mut stopped_runs = 0;
    loop {
        let (code, stdout, stderr) = bench(&cps, &["--max-nodes", &limit.to_string()]);
        let recs = records(&stdout);
        assert_eq!(recs.len(), 5, "{stdout}{stderr}");
        let failed: Vec<&serde_json::Value> =
            recs.iter().filter(|r| r.get("error").is_some()).collect();
        if failed.is_empty() {
            assert_eq!(code, Some(0), "{stderr}");
            for (r, s) in recs.iter().zip(&straight) {
                assert_eq!(r["id"], s["id"]);
                assert_eq!(r["length"], s["length"]);
                assert_eq!(r["known"], s["known"]);
                assert_eq!(
                    r["nodes"], s["nodes"],
                    "one thread: the straight run's count"
                );
            }
            break;
        }
        assert_eq!(code, Some(1), "{stderr}");
        for f in &failed {
            assert_eq!(f["kind"], "limit", "{f}");
        }
        if stopped_runs > 0 {
            assert!(stderr.contains("resuming from"), "{stderr}");
        }
        stopped_runs += 1;
        limit *= 2;
    }
    assert!(stopped_runs >= 2, "the limits stopped some instance twice");
    // Solved: the files hold the answers, and a rerun only reads them back.
    let files: Vec<PathBuf> = std::fs::read_dir(&cps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 5);
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let (code, stdout, _) = bench(&cps, &[]);
    assert_eq!(code, Some(0));
    let again = records(&stdout);
    for (r, s) in again.iter().zip(&straight) {
        assert_eq!((&r["length"], &r["nodes"]), (&s["length"], &s["nodes"]));
    }
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert_eq!(before, after, "nothing searched, nothing rewritten");
    // The summary counts the answers' nodes, and its rate only the nodes searched now.
    let summary = &common::json_lines(&stdout)
        .into_iter()
        .find_map(|r| r.get("summary").cloned())
        .expect("a summary line");
    let total: u64 = straight.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(summary["nodes"].as_u64(), Some(total), "{summary}");
    assert_eq!(summary["nodes_per_second"].as_f64(), Some(0.0), "{summary}");

    // A damaged file stops the batch, naming it, and is left as it was.
    let mut bytes = before[2].clone();
    let at = bytes.iter().position(|&b| b == b'[').unwrap();
    bytes[at] = b'{';
    std::fs::write(&files[2], &bytes).unwrap();
    let (code, _, stderr) = bench(&cps, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&files[2].file_name().unwrap().to_string_lossy().to_string()),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&files[2]).unwrap(), bytes);

    // A results file would skip the stopped instances: the two do not go together.
    let (code, _, stderr) = bench(&cps, &["-o", &dir.path().join("r.jsonl").to_string_lossy()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("give one of them"), "{stderr}");
    assert!(!dir.path().join("r.jsonl").exists());
}

/// `--checkpoints DIR` where no file can be written (here `/proc/self`, which exists and
/// takes no new files, even as root) is refused before any instance is searched, once,
/// rather than with a warning for each instance of the batch.
#[cfg(target_os = "linux")]
#[test]
fn a_checkpoint_directory_that_takes_no_files_is_refused_before_the_batch() {
    let boards = "1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n1 2 3 4 0 5 7 8 6\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args([
            "solve",
            "--heuristic",
            "linear-conflict",
            "--checkpoints",
            "/proc/self",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        // Refused before reading: the pipe may be closed already.
        let _ = child.stdin.take().unwrap().write_all(boards.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "nothing solved");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--checkpoints /proc/self: cannot write a file in it"),
        "{stderr}"
    );
    // A file where the directory should be: said so, and left as it is.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--heuristic", "linear-conflict", "--checkpoints"])
        .arg(&file)
        .arg("8 6 7 2 5 4 3 0 1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("notes.txt: not a directory"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
}

/// `--timeout` with `--checkpoints DIR` is per instance: every instance of a batch gets its
/// own second, not only the last one. (The first ones used to be stopped after a few nodes:
/// their one-thread search pool was waited for by a worker of the batch's pool, which ran
/// the next instances meanwhile while the first one's clock went on.) With Manhattan
/// distance these Korf 100 boards (62 to 66 moves) are far from solved in a second; a second of
/// search is tens of millions of nodes, so 100,000 is a floor no working run falls under.
#[test]
fn a_time_limit_with_checkpoints_gives_every_instance_its_own_time() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("three.txt");
    std::fs::write(
        &input,
        "goal: blank-first\n\
         82 62 14 10 2 1 13 9 8 11 7 3 6 12 15 5 4 0\n\
         17 66 15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12\n\
         60 66 11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0\n",
    )
    .unwrap();
    for threads in ["1", "2"] {
        let cps = dir.path().join(format!("cps{threads}"));
        let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args([
                "solve",
                "-q",
                "--heuristic",
                "manhattan",
                "--format",
                "json",
            ])
            .args(["--threads", threads, "--timeout", "1", "-i"])
            .arg(&input)
            .arg("--checkpoints")
            .arg(&cps)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        let lines: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{stdout}");
        for v in &lines {
            assert_eq!(v["kind"], "limit", "{v}");
            let nodes = v["nodes"].as_u64().unwrap();
            assert!(nodes > 100_000, "--threads {threads}: {v}");
        }
    }
}

/// Books that do not fit this search (here written with the move automaton of strings up to
/// 14 moves, resumed with parent-move pruning alone, as another version's pruning would
/// be): a `checkpoint` failure that stops the batch (exit status 2), names the file and
/// says what to do, and leaves the file as it is.
#[test]
fn books_of_another_search_order_stop_the_batch_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("two.txt");
    std::fs::write(&input, "a ? 8 6 7 2 5 4 3 0 1\nb ? 1 2 3 4 5 6 0 7 8\n").unwrap();
    let cps = dir.path().join("cps");
    let bench = |extra: &[&str], fsm: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fifteen"));
        cmd.args([
            "bench",
            "-q",
            "--heuristic",
            "linear-conflict",
            "--threads",
            "2",
        ])
        .args(["--format", "json", "--checkpoints"])
        .arg(&cps)
        .arg(&input)
        .args(extra);
        if let Some(len) = fsm {
            cmd.env("FIFTEEN_FSM_LEN", len);
        }
        cmd.output().unwrap()
    };
    let out = bench(&["--max-nodes", "3000"], None);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = || -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let mut v: Vec<_> = std::fs::read_dir(&cps)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        v.sort();
        v
    };
    let before = files();
    assert!(!before.is_empty());
    let out = bench(&[], Some("2"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    let recs: Vec<serde_json::Value> = common::json_lines(&stdout)
        .into_iter()
        .filter(|r| r.get("id").is_some())
        .collect();
    assert_eq!(recs.len(), 1, "the batch stops at the instance: {stdout}");
    assert_eq!(recs[0]["kind"], "checkpoint", "{stdout}");
    let error = recs[0]["error"].as_str().unwrap();
    assert!(
        error.contains("the books do not fit this search"),
        "{error}"
    );
    assert!(error.contains(".checkpoint"), "names the file: {error}");
    assert!(
        error.contains("delete it to start the search over"),
        "{error}"
    );
    assert!(
        !error.contains("another order"),
        "the counts differ: {error}"
    );
    assert_eq!(files(), before, "the checkpoints are left as they were");
}

/// A checkpoint written before 2026-11-27, when the split cut every iteration at one depth
/// (`depth` in the books, no `slack`), resumes with that depth: its finished subtrees are
/// taken as done, and the answer is the optimal one. The fixture was written by that
/// version: Korf's instance 20 (52 moves) under linear conflict on two threads, stopped by
/// `--max-nodes 1500000` in its last iteration, split at depth 8 into 448 subtrees, 48 of
/// them done.
#[test]
fn a_checkpoint_split_by_depth_resumes_with_its_depth() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    std::fs::copy("tests/fixtures/checkpoint-v4-depth-split.json", &cp).unwrap();
    let before = checkpoint(&cp);
    assert_eq!(before["depth"], 8, "{before}");
    assert_eq!(before["done"].as_array().unwrap().len(), 48);
    let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--goal", "blank-first", "--threads", "2"])
        .args([
            "--heuristic",
            "linear-conflict",
            "--format",
            "json",
            "--checkpoint",
        ])
        .arg(&cp)
        .arg("6 12 11 3 13 7 9 15 2 14 8 10 4 1 5 0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("resuming at threshold 52 (8 iterations and 48 subtrees of this one done)"),
        "{stderr}"
    );
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["length"], 52, "{line}");
    assert_eq!(line["optimal"], true, "{line}");
    // The moves reach the goal (`check` replays them).
    let check = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["check", "--goal", "blank-first", "--moves"])
        .arg(line["moves"].as_str().unwrap())
        .arg("6 12 11 3 13 7 9 15 2 14 8 10 4 1 5 0")
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    let after = checkpoint(&cp);
    assert_eq!(after["runs"], 2, "{after}");
    assert_eq!(after["moves"], line["moves"]);
}

/// A board that cannot be solved fails as it does without `--checkpoint`: the same record,
/// exit status 1 (a failed instance, not a usage error), and no checkpoint file made.
#[test]
fn a_bad_board_with_a_checkpoint_fails_as_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    for board in ["1 2 3 4 5 6 8 7 0", "1 2 3", "1 2 3 4 5 6 7 8 9"] {
        let run = |checkpoint: bool| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_fifteen"));
            cmd.args([
                "solve",
                "--format",
                "json",
                "--heuristic",
                "manhattan",
                board,
            ]);
            if checkpoint {
                cmd.arg("--checkpoint").arg(&cp);
            }
            cmd.output().unwrap()
        };
        let (with, without) = (run(true), run(false));
        assert_eq!(without.status.code(), Some(1), "{board}");
        assert_eq!(with.status.code(), Some(1), "{board}: {with:?}");
        assert_eq!(with.stdout, without.stdout, "{board}");
        assert!(String::from_utf8_lossy(&with.stdout).contains("\"error\""));
        assert!(!cp.exists(), "{board}");
    }
}

/// Two 80-move boards: billions of nodes with linear conflict.
const HARD_A: &str = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
const HARD_B: &str = "0 12 10 13 15 11 14 9 3 7 2 5 4 8 6 1";

/// `solve --heuristic linear-conflict --checkpoint CP BOARD` on one thread, its signals
/// at default.
fn solve_lc(cp: &Path, board: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fifteen"));
    c.args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .args(extra)
        .arg("--checkpoint")
        .arg(cp)
        .arg(board)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    common::with_default_signals(&mut c);
    c
}

/// The bytes of a checkpoint another run saved of another search ([`HARD_B`]'s), in `dir`.
fn another_searchs_checkpoint(dir: &Path) -> Vec<u8> {
    let other = dir.join("other.json");
    let out = solve_lc(&other, HARD_B, &["--max-nodes", "100000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    std::fs::read(&other).unwrap()
}

/// A child's stderr read line by line as it comes, on a thread of its own.
struct StderrLines {
    rx: std::sync::mpsc::Receiver<String>,
    reader: std::thread::JoinHandle<()>,
    /// Every line read so far.
    said: Vec<String>,
}

impl StderrLines {
    fn of(child: &mut std::process::Child) -> Self {
        let (tx, rx) = std::sync::mpsc::channel();
        let pipe = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Self {
            rx,
            reader,
            said: Vec::new(),
        }
    }

    /// Whether a line holding `text` has come within `wait` (or before).
    fn wait_for(&mut self, text: &str, wait: Duration) -> bool {
        let t0 = Instant::now();
        loop {
            if self.said.iter().any(|l| l.contains(text)) {
                return true;
            }
            let Some(left) = wait.checked_sub(t0.elapsed()) else {
                return false;
            };
            match self.rx.recv_timeout(left) {
                Ok(line) => self.said.push(line),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return false,
                Err(e) => panic!("{e}: {:?}", self.said),
            }
        }
    }

    /// Ctrl-C to `child`, then its exit code and all it wrote to stderr.
    fn interrupt_and_collect(mut self, child: std::process::Child) -> (Option<i32>, String) {
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        self.reader.join().unwrap();
        self.said.extend(self.rx.try_iter());
        (out.status.code(), self.said.join("\n"))
    }
}

/// Two runs given one checkpoint path for two searches (a job array's tasks with one
/// `--checkpoint`): the file another run wrote there meanwhile is never saved over, and
/// the run that finds it says its progress was not saved (exit status 2), not that the
/// file holds it.
#[test]
fn a_checkpoint_replaced_by_another_runs_search_is_not_saved_over() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("a.json");
    let theirs = another_searchs_checkpoint(dir.path());

    let mut child = solve_lc(&mine, HARD_A, &[]).spawn().unwrap();
    let t0 = Instant::now();
    while !mine.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before its first save"
        );
        assert!(t0.elapsed() < Duration::from_secs(120), "no first save");
        std::thread::sleep(Duration::from_millis(20));
    }
    // stderr read as it comes: the search says at once that its file was replaced.
    let mut lines = StderrLines::of(&mut child);
    // The other run's save: a whole file renamed into place, as every save is. Where a
    // save looks at the file and then renames over it (no `renameat2` exchange: not Linux,
    // or a file system without it), a save already between the two puts its own file back
    // (a window of microseconds, but the first saves come in bursts): then the other run's
    // is put there again, until a save finds it and warns.
    let staged = dir.path().join("staged.json");
    let t0 = Instant::now();
    'replace: loop {
        std::fs::write(&staged, &theirs).unwrap();
        std::fs::rename(&staged, &mine).unwrap();
        loop {
            assert!(
                t0.elapsed() < Duration::from_secs(120),
                "no warning: {:?}",
                lines.said
            );
            if lines.wait_for("was replaced by another run", Duration::from_millis(100)) {
                break 'replace;
            }
            if std::fs::read(&mine).unwrap() != theirs {
                continue 'replace;
            }
        }
    }
    let (code, stderr) = lines.interrupt_and_collect(child);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("was replaced by another run while this search ran")
            && stderr.contains("its board is 0 12 10 13")
            && stderr.contains("give each search its own checkpoint file"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("holds the search at threshold"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&mine).unwrap(),
        theirs,
        "the other run's file kept"
    );
}

/// Another run's file renamed into place while a save of this search is under way, at the
/// moment where a look at the file followed by a rename over it would destroy it (each
/// save held there by `FIFTEEN_TEST_SAVE_PAUSE_MS`): it is kept, and the search says its
/// own progress was not saved (exit status 2).
#[test]
fn a_file_put_in_place_during_a_save_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("a.json");
    let theirs = another_searchs_checkpoint(dir.path());
    let mut command = solve_lc(&mine, HARD_A, &[]);
    let mut child = command
        .env("FIFTEEN_TEST_SAVE_PAUSE_MS", "300")
        .spawn()
        .unwrap();
    // A save under way: its temporary file is there (most of that time, held).
    let saving = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(".a.json.tmp"))
    };
    let t0 = Instant::now();
    while !(mine.exists() && saving()) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before a second save"
        );
        assert!(t0.elapsed() < Duration::from_secs(120), "no second save");
        std::thread::sleep(Duration::from_millis(5));
    }
    let staged = dir.path().join("staged.json");
    std::fs::write(&staged, &theirs).unwrap();
    std::fs::rename(&staged, &mine).unwrap();
    // The save under way may hold the other file aside for its pause (an exchange of
    // names, then a look at the file it moved aside); it gives it back, and warns.
    let mut lines = StderrLines::of(&mut child);
    assert!(
        lines.wait_for("was replaced by another run", Duration::from_secs(120)),
        "no warning: {:?}",
        lines.said
    );
    let (code, stderr) = lines.interrupt_and_collect(child);
    assert_eq!(code, Some(2), "{stderr}");
    let kept = std::fs::read_to_string(&mine).unwrap();
    assert!(
        kept.as_bytes() == theirs,
        "the other run's file was saved over: {:.100}...; {stderr}",
        kept
    );
    assert!(!saving(), "a temporary file left: {stderr}");
}

/// A checkpoint an editor gave a byte order mark or CRLF line end is read as written (the
/// answer printed again from it); one re-encoded as UTF-16 is said to be, with the command
/// that converts it back; each is left as it is.
#[test]
fn a_re_encoded_checkpoint_is_read_or_said_to_be_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let board = "8 6 7 2 5 4 3 0 1";
    let solve = |cp: &Path| {
        Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args([
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
            ])
            .arg("--checkpoint")
            .arg(cp)
            .arg(board)
            .output()
            .unwrap()
    };
    let cp = dir.path().join("cp.json");
    let first = solve(&cp);
    assert!(first.status.success(), "{first:?}");
    let moves = |o: &std::process::Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v["length"].clone(), v["moves"].clone())
    };
    let text = std::fs::read_to_string(&cp).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    for (name, bytes, readable) in [
        ("bom", format!("\u{feff}{text}").into_bytes(), true),
        ("crlf", text.replace('\n', "\r\n").into_bytes(), true),
        ("utf16", utf16, false),
    ] {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, &bytes).unwrap();
        let out = solve(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if readable {
            assert!(out.status.success(), "{name}: {stderr}");
            assert!(stderr.contains("already solved"), "{name}: {stderr}");
            assert_eq!(moves(&out), moves(&first), "{name}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
            assert!(
                stderr.contains("UTF-16") && stderr.contains("iconv -f UTF-16 -t UTF-8"),
                "{name}: {stderr}"
            );
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{name}: left as it is"
        );
    }
}

/// A `--checkpoints DIR` rerun with other settings (another estimate here; on a cluster,
/// tables copied in part, without the dual lookups') keeps the first run's file and starts
/// a file of its own: it says so, naming what differs, instead of starting over unsaid.
#[test]
fn a_batch_with_other_settings_says_which_checkpoint_it_does_not_resume() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("ck");
    let bench = |heuristic: &str| {
        Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args(["bench", "--heuristic", heuristic, "--max-nodes", "200"])
            .arg("--checkpoints")
            .arg(&ck)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let run = |heuristic: &str| {
        let mut c = bench(heuristic);
        use std::io::Write;
        c.stdin
            .take()
            .unwrap()
            .write_all(b"a 31 8 6 7 2 5 4 3 0 1\n")
            .unwrap();
        let out = c.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let first = run("linear-conflict");
    assert!(!first.contains("not resumed"), "{first}");
    let files = || std::fs::read_dir(&ck).unwrap().count();
    assert_eq!(files(), 1, "{first}");
    let second = run("manhattan");
    assert!(
        second.contains("holds this board's search with other settings (its heuristic linear-conflict, this run's manhattan), so it is not resumed"),
        "{second}"
    );
    assert_eq!(files(), 2, "the first file is kept");
    // The same settings again resume their own file, and say nothing of the other.
    let third = run("manhattan");
    assert!(!third.contains("not resumed"), "{third}");

    // A FIFO, or a file too large to be a checkpoint, under such a name is passed over:
    // not waited on for a writer, not read into memory.
    let ck = dir.path().join("ck2");
    std::fs::create_dir(&ck).unwrap();
    let fifo = ck.join("a-00000000.checkpoint");
    common::mkfifo(&fifo);
    std::fs::File::create(ck.join("a-00000001.checkpoint"))
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let boards = common::write(dir.path(), "boards.txt", "a 31 8 6 7 2 5 4 3 0 1\n");
    let args = ["bench", "--heuristic", "manhattan", "--checkpoints"];
    let out = common::run_beside_fifo(
        &[&args[..], &[ck.to_str().unwrap(), &boards]].concat(),
        &fifo,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("not resumed"), "{}", out.stderr);
}
