//! Sharded batches through a real Slurm on localhost (tests/common/slurm.rs): the job-array
//! script of the repository, `slurm/solve-array.sbatch`, run as a 4-task array on 200
//! boards, then `slurm/merge.sh`; every id once, in order, every solution replayed and of
//! the optimal length (breadth-first search from the goal, none of our search code).
//!
//! Without Slurm (the packages missing, not root) the test says `skipped: ...` on stderr,
//! and fails under CI.

mod common;

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
