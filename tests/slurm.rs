//! Sharded batches through a real Slurm on localhost (tests/common/slurm.rs): the job-array
//! script of the repository, `slurm/solve-array.sbatch`, run as a 4-task array on 200
//! boards, then `slurm/merge.sh`; every id once, in order, every solution replayed and of
//! the optimal length (breadth-first search from the goal, none of our search code).
//!
//! Without Slurm (the packages missing, not root) the test says `skipped: ...` on stderr,
//! and fails under CI.

mod common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use common::slurm::Slurm;
use fifteen::{Board, Goal, Shape};
use serde_json::Value;

const FIFTEEN: &str = env!("CARGO_BIN_EXE_fifteen");

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

#[test]
fn a_200_board_job_array_merges_into_every_optimal_result_once() {
    let Some(slurm) = Slurm::start_or_skip("a 200-board job array") else {
        return;
    };
    let dir = slurm.dir().join("job");
    std::fs::create_dir(&dir).unwrap();
    let boards = dir.join("boards.txt");
    let out = Command::new(FIFTEEN)
        .args(["random", "--count", "200", "--seed", "1414", "--size", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&boards, &out.stdout).unwrap();

    let results = dir.join("results");
    let submit = |array: &str| {
        slurm
            .command("sbatch")
            .args(["--wait", "--quiet", "--cpus-per-task=1"])
            .arg(format!("--array={array}"))
            .arg(format!("--chdir={}", dir.display()))
            .arg(repo("slurm/solve-array.sbatch"))
            .args(["4", boards.to_str().unwrap(), results.to_str().unwrap()])
            .args(["--heuristic", "linear-conflict"])
            .env("FIFTEEN", FIFTEEN)
            .output()
            .unwrap()
    };
    let t0 = std::time::Instant::now();
    let out = submit("1-4");
    // For docs/cluster.md's "What to expect": scheduling, not solving, is most of it.
    eprintln!(
        "4-task array of 200 boards: {:.1} s from sbatch to its end",
        t0.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "{}\n{}\n{}",
        Slurm::show(&out),
        task_logs(&dir),
        slurm.logs()
    );
    // A task run again (requeued, resubmitted) finds its file complete and adds nothing.
    let part = results.join("part-3-of-4.jsonl");
    let before = std::fs::read(&part).unwrap();
    let out = submit("3");
    assert!(
        out.status.success(),
        "{}\n{}",
        Slurm::show(&out),
        task_logs(&dir)
    );
    assert_eq!(std::fs::read(&part).unwrap(), before);

    let merged = dir.join("merged.jsonl");
    let out = Command::new(repo("slurm/merge.sh"))
        .arg(&results)
        .arg(&merged)
        .env("FIFTEEN", FIFTEEN)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", Slurm::show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "200 results: 200 ok, 0 failed"
    );

    // Every id once, in order; each length the BFS distance of its board.
    let goal = Goal::standard(Shape::new(3, 3).unwrap());
    let (_, dist, _) = common::bfs(&goal);
    let input: Vec<String> = std::fs::read_to_string(&boards)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let text = std::fs::read_to_string(&merged).unwrap();
    let records: Vec<Value> = common::json_lines(&text);
    assert_eq!(records.len(), 200);
    for (i, r) in records.iter().enumerate() {
        let id = r["id"].as_u64().unwrap();
        assert_eq!(id, i as u64 + 1, "out of order or missing: {r}");
        let tiles: Vec<String> = r["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.to_string())
            .collect();
        assert_eq!(
            tiles.join(" "),
            input[i],
            "id {id} is not board {id} of the input"
        );
        let board = Board::parse(&input[i]).unwrap();
        assert_eq!(r["length"].as_u64(), Some(u64::from(dist[&board])), "{r}");
    }
}

/// The array tasks' logs, for failure messages.
fn task_logs(dir: &Path) -> String {
    let mut s = String::new();
    for e in std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().to_string();
        if name.ends_with(".log") {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            s.push_str(&format!("--- {name}\n{text}\n"));
        }
    }
    s
}

/// Runs `slurm/solve-split.sh` through this cluster (each iteration one job array of
/// `parts` tasks) and returns the length and moves it prints.
fn split_through_slurm(slurm: &Slurm, name: &str, options: &[&str], board: &str) -> (u32, String) {
    let work = slurm.dir().join(name);
    let out = slurm
        .command("bash")
        .arg(repo("slurm/solve-split.sh"))
        .args(["--parts", "4", "--depth", "6", "--dir"])
        .arg(&work)
        .args(options)
        .arg(board)
        .env("FIFTEEN", FIFTEEN)
        .current_dir(slurm.dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}\n{}",
        Slurm::show(&out),
        slurm.logs()
    );
    // Every iteration ran as Slurm tasks: their logs are there, one per part at least.
    let logs = std::fs::read_dir(&work)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("slurm-")
        })
        .count();
    assert!(logs >= 4, "{logs} Slurm task logs in {}", work.display());
    let length = stdout
        .lines()
        .find_map(|l| l.strip_prefix("solution: length "))
        .unwrap_or_else(|| panic!("no solution line:\n{stdout}"))
        .parse()
        .unwrap();
    let moves = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap_or("")
        .to_string();
    (length, moves)
}

/// One instance on many machines, through a real Slurm: a Korf 100 instance (5-5-5 tables)
/// and a 5x5 board (linear conflict), each solved by the iterative driver with 4 parts per
/// iteration; the lengths are the known optimum (Korf's) and the length an independent
/// serial search with another heuristic (Manhattan distance) proves; the moves replay.
#[test]
fn the_iterative_driver_solves_a_korf_and_a_5x5_instance_with_four_slurm_tasks() {
    let Some(slurm) = Slurm::start_or_skip("the iterative driver") else {
        return;
    };
    let shape = Shape::new(4, 4).unwrap();
    let (tables, _) = common::tables(&fifteen::pdb::Partition::parse(shape, 0, "5-5-5").unwrap());
    let inst = &common::korf_easiest(1)[0];
    let board = inst.board.to_string();
    let tables_dir = tables.path().to_str().unwrap();
    let options = [
        "--goal",
        "blank-first",
        "--partition",
        "5-5-5",
        "--tables",
        tables_dir,
    ];
    let (length, moves) = split_through_slurm(&slurm, "korf", &options, &board);
    assert_eq!(length, inst.known.unwrap(), "Korf instance {}", inst.id);
    let moves = fifteen::board::parse_moves(&moves).unwrap();
    assert_eq!(inst.board.apply_all(&moves).as_ref(), Ok(inst.goal.board()));

    // A 5x5 board 40 random moves from the goal.
    let out = Command::new(FIFTEEN)
        .args(["random", "--size", "5", "--walk", "40", "--seed", "2027"])
        .args(["--count", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let board5 = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let out = Command::new(FIFTEEN)
        .args([
            "solve",
            "--heuristic",
            "manhattan",
            "--format",
            "json",
            &board5,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", Slurm::show(&out));
    let serial: Value = serde_json::from_slice(&out.stdout).unwrap();
    let known = serial["length"].as_u64().unwrap() as u32;
    let (length, moves) =
        split_through_slurm(&slurm, "five", &["--heuristic", "linear-conflict"], &board5);
    assert_eq!(length, known, "5x5 board {board5}");
    let b = Board::parse(&board5).unwrap();
    let goal = Goal::standard(b.shape());
    let moves = fifteen::board::parse_moves(&moves).unwrap();
    assert_eq!(b.apply_all(&moves).as_ref(), Ok(goal.board()));
}

/// The driver under a real Slurm with a directory name full of shell and Slurm syntax
/// (`$`, quotes, a backtick, `%`, a space): the tasks run (their logs are there, one per
/// task: `%` reaches Slurm as `%%`), the answer is 31 moves and replays, nothing of the
/// name is run. Then a long search stopped by SIGTERM while its job array runs: exit
/// status 143, the array cancelled (the queue empties), no part left running.
#[test]
fn the_iterative_driver_takes_any_directory_and_cancels_its_array_on_sigterm() {
    let Some(slurm) = Slurm::start_or_skip("the iterative driver's quoting and SIGTERM") else {
        return;
    };
    let name = "odd $HOME \"q\" 100% `touch pwned`";
    let (length, moves) = split_through_slurm(
        &slurm,
        name,
        &["--heuristic", "linear-conflict"],
        "8 6 7 2 5 4 3 0 1",
    );
    assert_eq!(length, 31);
    let b = Board::parse("8 6 7 2 5 4 3 0 1").unwrap();
    let moves = fifteen::board::parse_moves(&moves).unwrap();
    assert_eq!(
        b.apply_all(&moves).as_ref(),
        Ok(Goal::standard(b.shape()).board())
    );
    assert!(!slurm.dir().join("pwned").exists());
    let logs: Vec<String> = std::fs::read_dir(slurm.dir().join(name))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("slurm-"))
        .collect();
    assert!(logs.iter().any(|n| n.ends_with("_4.out")), "{logs:?}");

    let work = slurm.dir().join("long");
    let mut child = slurm
        .command("bash")
        .arg(repo("slurm/solve-split.sh"))
        .args(["--parts", "2", "--depth", "6", "--heuristic", "manhattan"])
        .args(["--goal", "blank-first", "--dir"])
        .arg(&work)
        .arg("15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4")
        .env("FIFTEEN", FIFTEEN)
        .env("XDG_DATA_HOME", slurm.dir().join("xdg"))
        .current_dir(slurm.dir())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    // Marker: a task of an iteration running (its log there) and the array's id known.
    let t0 = std::time::Instant::now();
    let patience = std::time::Duration::from_secs(180);
    loop {
        let jobid = std::fs::read_dir(&work).ok().and_then(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path().join("jobid.tmp"))
                .find_map(|p| std::fs::read_to_string(p).ok())
                .filter(|s| !s.trim().is_empty())
        });
        let running = slurm.run("squeue", &["-h", "-t", "R", "-o", "%i"]);
        if jobid.is_some() && !running.stdout.is_empty() {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the driver ended ({status}) before a job array ran");
        }
        assert!(
            t0.elapsed() < patience,
            "no job array running: {}",
            slurm.logs()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > patience {
            let _ = child.kill();
            panic!("the driver still runs {patience:?} after SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{}", Slurm::show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cancelled"), "{}", Slurm::show(&out));
    let t0 = std::time::Instant::now();
    loop {
        let queue = slurm.run("squeue", &["-h", "-o", "%i %T"]);
        if queue.stdout.is_empty() {
            break;
        }
        assert!(
            t0.elapsed() < patience,
            "still queued after SIGTERM: {}",
            Slurm::show(&queue)
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
