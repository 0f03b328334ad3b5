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
    // For the README's "what to expect": scheduling, not solving, is most of it.
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
