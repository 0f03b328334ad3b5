//! Sharded batches and resumable output, through the binary as a job array runs it:
//!
//! - the shards of `random` and of `solve`/`bench` put together are the unsharded output,
//!   and `fifteen merge` of the shards' `--output` files is the unsharded `--format json`
//!   output line for line (search times aside);
//! - a 10,000-board batch with `--output`, SIGKILLed at random moments until it has died
//!   five times, then run to its end: every id exactly once, every result replayed by
//!   `fifteen check`, every length the breadth-first distance of its board;
//! - a results file of other settings or of another input is refused, and so is a merge of
//!   an incomplete set of shards.
//!
//! Boards are 3x3 (exact BFS distances for all 181,440 of them, none of our search code).

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{json_lines, run, LC};
use fifteen::random::Rng;
use fifteen::{Board, Goal, Shape};
use serde_json::Value;

const FIFTEEN: &str = env!("CARGO_BIN_EXE_fifteen");

/// A record without its search time, the one field that differs between two runs.
fn timeless(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("millis");
    v
}

fn ok(args: &[&str]) -> String {
    let out = run(args, None);
    assert_eq!(out.code, 0, "{args:?}\n{}", out.stderr);
    out.stdout
}

#[test]
fn the_shards_of_random_are_the_unsharded_sequence() {
    for size in ["3", "3x4"] {
        let base = ["random", "--count", "103", "--seed", "5", "--size", size];
        let bare = ok(&base);
        let with_ids = ok(&[&base[..], &["--ids"]].concat());
        // The numbered form is the bare one with `i ?` before board i.
        let header_lines = bare.lines().take_while(|l| l.contains(':')).count();
        let numbered: Vec<String> = bare
            .lines()
            .enumerate()
            .map(|(i, l)| match i.checked_sub(header_lines) {
                Some(b) => format!("{} ? {l}", b + 1),
                None => l.to_string(),
            })
            .collect();
        assert_eq!(with_ids.lines().collect::<Vec<_>>(), numbered);

        let mut union: Vec<(u64, String)> = Vec::new();
        for k in 1..=4 {
            let shard = format!("{k}/4");
            // Bare: board i of the whole sequence is line (i - k) / 4 + 1 of shard k.
            let text = ok(&[&base[..], &["--shard", &shard]].concat());
            let bare_lines: Vec<&str> = bare.lines().collect();
            let slice: Vec<&str> = bare_lines[header_lines..]
                .iter()
                .skip(k - 1)
                .step_by(4)
                .copied()
                .collect();
            assert_eq!(
                text.lines().collect::<Vec<_>>(),
                [&bare_lines[..header_lines], &slice[..]].concat(),
                "shard {shard}"
            );
            // Numbered: the lines carry the ids of the whole sequence.
            let text = ok(&[&base[..], &["--shard", &shard, "--ids"]].concat());
            let lines: Vec<&str> = text.lines().collect();
            // Each shard reads back on its own: the same `size:` line first.
            assert_eq!(
                lines[..header_lines],
                bare.lines().collect::<Vec<_>>()[..header_lines]
            );
            for l in &lines[header_lines..] {
                let id: u64 = l.split(' ').next().unwrap().parse().unwrap();
                assert_eq!((id - 1) % 4 + 1, k as u64, "{l} in shard {shard}");
                union.push((id, l.to_string()));
            }
        }
        union.sort();
        let boards: Vec<String> = union.into_iter().map(|(_, l)| l).collect();
        assert_eq!(boards, numbered[header_lines..]);
    }
    // Out of range or malformed, for every command that takes it: a usage error, with the range.
    for args in [
        vec!["random", "--shard", "5/4"],
        vec!["solve", "--shard", "0/4", "1 2 3 4 5 6 7 0 8"],
        vec!["bench", "data/korf100.txt", "--shard", "9/8"],
    ] {
        let out = run(&args, None);
        assert_eq!(out.code, 2, "{args:?}");
        assert!(out.stderr.contains("K goes from 1 to"), "{}", out.stderr);
    }
    // Without a seed each shard would slice a sequence of its own clock's.
    let out = run(
        &["random", "--shard", "1/2", "--count", "4", "--size", "3"],
        None,
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("--shard 1/2 needs --seed"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let out = run(&["solve", "--shard", "2", "1 2 3 4 5 6 7 0 8"], None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("'2' is not K/N"), "{}", out.stderr);
}

/// 3x3 boards with a bad line and an unsolvable board among them, as an instance file.
fn mixed_input(dir: &Path) -> String {
    let mut text = ok(&["random", "--count", "40", "--seed", "9", "--size", "3"]);
    text.push_str("1 2 3 4 5 6 8 7 0\n"); // unsolvable
    text.push_str("1 2 3 x 5 6 7 8 0\n"); // not a board
    text.push_str(&ok(&[
        "random", "--count", "17", "--seed", "10", "--size", "3",
    ]));
    let path = dir.join("boards.txt");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn the_shards_of_solve_and_bench_are_the_unsharded_batch() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let lc = ["--heuristic", "linear-conflict", "--format", "json"];
    for command in ["solve", "bench"] {
        // `solve -i FILE`, `bench FILE`.
        let source: Vec<&str> = match command {
            "solve" => vec![command, "-i", &input],
            _ => vec![command, &input],
        };
        let whole = run(&[&source[..], &lc].concat(), None);
        assert_eq!(
            whole.code, 1,
            "an unsolvable and a bad line: {}",
            whole.stderr
        );
        let whole: Vec<Value> = json_lines(&whole.stdout)
            .into_iter()
            .filter(|v| v.get("summary").is_none())
            .map(timeless)
            .collect();
        assert_eq!(whole.len(), 59);

        let mut union = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let args = [&source[..], &["--shard", &shard], &lc].concat();
            let out = run(&args, None);
            let lines: Vec<Value> = json_lines(&out.stdout)
                .into_iter()
                .filter(|v| v.get("summary").is_none())
                .map(timeless)
                .collect();
            // Instance i (from 1, bad lines included) is shard ((i - 1) mod 3) + 1's.
            let mine: Vec<&Value> = whole.iter().skip(k - 1).step_by(3).collect();
            assert_eq!(lines.iter().collect::<Vec<_>>(), mine, "{command} {shard}");
            let failed = lines.iter().any(|v| v.get("error").is_some());
            assert_eq!(out.code, if failed { 1 } else { 0 }, "{}", out.stderr);
            union.extend(lines);
        }
        let key = |v: &Value| v["id"].to_string();
        union.sort_by_key(key);
        let mut sorted = whole.clone();
        sorted.sort_by_key(key);
        assert_eq!(union, sorted, "{command}");
    }

    // The shards' output files, merged: the unsharded output, line for line.
    let whole = run(&[&["solve", "-i", &input][..], &lc].concat(), None);
    let whole: Vec<Value> = json_lines(&whole.stdout)
        .into_iter()
        .map(timeless)
        .collect();
    let mut parts = Vec::new();
    for k in [2, 3, 1] {
        let part = dir.path().join(format!("part-{k}.jsonl"));
        let shard = format!("{k}/3");
        let args = [
            "solve",
            "-i",
            &input,
            "--shard",
            &shard,
            "-o",
            part.to_str().unwrap(),
        ];
        let out = run(&[&args[..], &lc[..2]].concat(), None);
        assert!(out.stdout.is_empty(), "results go to the file");
        assert!(out.code <= 1, "{}", out.stderr);
        parts.push(part.display().to_string());
    }
    let merged = dir.path().join("merged.jsonl");
    let out = run(
        &[
            &["merge", "-o", merged.to_str().unwrap()][..],
            &parts_refs(&parts),
        ]
        .concat(),
        None,
    );
    assert_eq!(
        out.code, 1,
        "the two failed instances do not check: {}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("59 results in input order, 57 check, 2 do not"),
        "{}",
        out.stderr
    );
    let text = std::fs::read_to_string(&merged).unwrap();
    let merged: Vec<Value> = json_lines(&text).into_iter().map(timeless).collect();
    assert_eq!(merged, whole);

    // The same merge again into its own output: replaced (the same ids in order).
    let merged_path = dir.path().join("merged.jsonl");
    let again = run(
        &[
            &["merge", "-o", merged_path.to_str().unwrap()][..],
            &parts_refs(&parts),
        ]
        .concat(),
        None,
    );
    assert_eq!(again.code, 1, "{}", again.stderr);
    // A results file of another batch (the user's, records and all) is not replaced
    // without --force, and is replaced with it.
    let theirs = dir.path().join("theirs.jsonl");
    let other = ok(&["random", "--count", "5", "--seed", "77", "--size", "3"]);
    let other = run(&["solve", "-", "--format", "json"], Some(&other));
    std::fs::write(&theirs, &other.stdout).unwrap();
    let merge_into = |extra: &[&str]| {
        run(
            &[
                &["merge", "-o", theirs.to_str().unwrap()][..],
                extra,
                &parts_refs(&parts),
            ]
            .concat(),
            None,
        )
    };
    let out = merge_into(&[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("is not the output of this merge"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), other.stdout);
    assert_eq!(merge_into(&["--force"]).code, 1);
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), text);

    // One shard missing: refused, nothing written.
    let refused = dir.path().join("refused.jsonl");
    let out = run(
        &[
            &["merge", "-o", refused.to_str().unwrap()][..],
            &parts_refs(&parts[..2]),
        ]
        .concat(),
        None,
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("missing shard 1 of 3"),
        "{}",
        out.stderr
    );
    assert!(!refused.exists() && !dir.path().join("refused.jsonl.partial").exists());
}

fn parts_refs(parts: &[String]) -> Vec<&str> {
    parts.iter().map(String::as_str).collect()
}

#[test]
fn a_file_of_other_settings_or_another_input_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let out_file = dir.path().join("out.jsonl");
    let out_path = out_file.to_str().unwrap();
    let base = [
        "solve",
        "-i",
        &input,
        "--heuristic",
        "manhattan",
        "--shard",
        "2/2",
        "-o",
        out_path,
    ];
    assert_eq!(run(&base, None).code, 1);
    let before = std::fs::read(&out_file).unwrap();

    let weighted = run(&[&base[..], &["--weight", "2"]].concat(), None);
    assert_eq!(weighted.code, 2);
    assert!(
        weighted.stderr.contains("weight 1.0 in the file, 2.0 now"),
        "{}",
        weighted.stderr
    );
    let mut other_shard = base;
    other_shard[6] = "1/2";
    let out = run(&other_shard, None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains(r#"shard "2/2" in the file, "1/2" now"#),
        "{}",
        out.stderr
    );

    let other_input = dir.path().join("other.txt");
    std::fs::write(
        &other_input,
        ok(&["random", "--count", "59", "--seed", "11", "--size", "3"]),
    )
    .unwrap();
    let mut other = base;
    other[2] = other_input.to_str().unwrap();
    let out = run(&other, None);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("(another board)"), "{}", out.stderr);
    assert_eq!(std::fs::read(&out_file).unwrap(), before);

    // The same command again: complete already, exit status as the first run's.
    let out = run(&base, None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(std::fs::read(&out_file).unwrap(), before);
}

/// Lines of a results file as they stand: complete lines, and whether a torn one follows.
fn file_lines(path: &Path) -> (Vec<String>, bool) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let torn = !text.is_empty() && !text.ends_with('\n');
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if torn {
        lines.pop();
    }
    (lines, torn)
}

#[test]
fn a_10000_board_batch_killed_five_times_ends_with_every_id_once_and_valid() {
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("boards.txt");
    let text = ok(&[
        "random", "--count", "10000", "--seed", "1410", "--size", "3",
    ]);
    std::fs::write(&boards, &text).unwrap();
    let out_file = dir.path().join("out.jsonl");
    let start = || {
        Command::new(FIFTEEN)
            .args([
                "solve",
                "--quiet",
                "--heuristic",
                "manhattan",
                "--threads",
                "2",
            ])
            .arg("-i")
            .arg(&boards)
            .arg("-o")
            .arg(&out_file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut rng = Rng::new(14);
    let mut deaths = 0;
    let mut torn_seen = 0;
    let mut attempts = 0;
    while deaths < 5 {
        attempts += 1;
        assert!(
            attempts < 50,
            "the batch kept finishing before it could be killed"
        );
        let (lines, _) = file_lines(&out_file);
        let mut child = start();
        if deaths == 0 {
            // The first kill comes right after the start: opening, reading back, the header.
            std::thread::sleep(Duration::from_millis(rng.below(30)));
        } else {
            // The others at a random number of new results (up to 1,500 on from here), then
            // a random moment within the next few milliseconds.
            let target = lines.len() + 1 + rng.below(1500) as usize;
            let t0 = Instant::now();
            while file_lines(&out_file).0.len() < target
                && child.try_wait().unwrap().is_none()
                && t0.elapsed() < Duration::from_secs(60)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            std::thread::sleep(Duration::from_micros(rng.below(5000)));
        }
        if child.try_wait().unwrap().is_some() {
            // It finished first: start over, so that all five kills hit one batch.
            std::fs::remove_file(&out_file).unwrap();
            deaths = 0;
            continue;
        }
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9)
        );
        deaths += 1;
        // What a kill leaves: whole lines, a prefix of the batch in input order, and at
        // most one torn line at the end.
        let (lines, torn) = file_lines(&out_file);
        torn_seen += usize::from(torn);
        for (i, l) in lines.iter().enumerate().skip(1) {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            assert_eq!(v["id"].as_u64(), Some(i as u64), "{l}");
        }
    }
    // A torn line for certain, as a kill in the middle of a write leaves it.
    let (lines_before, _) = file_lines(&out_file);
    assert!(lines_before.len() < 10_001, "the batch was not cut short");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&out_file)
        .unwrap()
        .write_all(br#"{"id":99999,"size":"3x3","til"#)
        .unwrap();
    let out = start().wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!(
        "killed {deaths} times ({torn_seen} torn lines seen after kills), {} results before the last run",
        lines_before.len() - 1
    );

    let (lines, torn) = file_lines(&out_file);
    assert!(!torn);
    assert_eq!(lines.len(), 10_002, "header, 10,000 results, end line");
    assert!(lines[0].starts_with(r#"{"batch":"#));
    assert!(
        lines[10_001].starts_with(r#"{"batch_end":{"items":10000,"results":10000,"input":"#),
        "{}",
        lines[10_001]
    );
    let goal = Goal::standard(Shape::new(3, 3).unwrap());
    let (_, dist, _) = common::bfs(&goal);
    for (i, (l, board)) in lines[1..10_001].iter().zip(text.lines()).enumerate() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(
            v["id"].as_u64(),
            Some(i as u64 + 1),
            "every id once, in order"
        );
        let b = Board::parse(board).unwrap();
        let tiles: Vec<u64> = b.tiles().iter().map(|&t| t as u64).collect();
        assert_eq!(v["tiles"], serde_json::json!(tiles));
        assert_eq!(v["length"].as_u64(), Some(u64::from(dist[&b])), "{l}");
    }
    let check = run(&["check", out_file.to_str().unwrap()], None);
    assert_eq!(check.code, 0);
    assert!(check
        .stdout
        .ends_with("10000 results: 10000 ok, 0 failed\n"));
}

/// A merge refused for a repeated id writes nothing, to stdout either: the files are read
/// through before the first record is written. (The shards read their input from stdin,
/// which cannot be read twice: a file's repeated id is refused before the shard runs,
/// below.)
#[test]
fn a_merge_refused_for_a_repeated_id_writes_nothing_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = "a ? 8 6 7 2 5 4 3 0 1\na ? 1 2 3 4 5 6 0 7 8\n";
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("d{k}.jsonl"));
        let shard = format!("{k}/2");
        let args = [
            "solve",
            "-",
            "--heuristic",
            "linear-conflict",
            "--shard",
            &shard,
            "-o",
            part.to_str().unwrap(),
        ];
        assert_eq!(run(&args, Some(input)).code, 0);
        parts.push(part.display().to_string());
    }
    let out = run(&[&["merge"][..], &parts_refs(&parts)].concat(), None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("id a occurs twice"), "{}", out.stderr);
    assert_eq!(out.stdout, "", "nothing written");
}

/// A sharded batch whose input file gives one id to two instances (written ids, or a written
/// id equal to an unnumbered line's number) is refused before any work, naming both, by
/// every shard: the merge would refuse it only once all had run.
#[test]
fn a_sharded_input_file_with_a_repeated_id_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for (text, id, first, second) in [
        (
            "a ? 8 6 7 2 5 4 3 0 1\nb ? 1 2 3 4 5 6 0 7 8\na ? 1 2 3 4 5 6 7 0 8\n",
            "a",
            1,
            3,
        ),
        ("8 6 7 2 5 4 3 0 1\n1 ? 1 2 3 4 5 6 0 7 8\n", "1", 1, 2),
        (
            "# comment\nx ? 1 2 3 4 5 6 7 8 8\nx ? 1 2 3 4 5 6 0 7 8\n",
            "x",
            1,
            2,
        ),
    ] {
        let input = dir.path().join("dup.txt");
        std::fs::write(&input, text).unwrap();
        for shard in ["1/2", "2/2"] {
            let part = dir.path().join("part.jsonl");
            let out = run(
                &[
                    "solve",
                    "-i",
                    input.to_str().unwrap(),
                    "--heuristic",
                    "linear-conflict",
                    "--shard",
                    shard,
                    "-o",
                    part.to_str().unwrap(),
                ],
                None,
            );
            assert_eq!(out.code, 2, "{text:?} {shard}: {}", out.stderr);
            let want = format!("instances {first} and {second} both have the id {id}");
            assert!(out.stderr.contains(&want), "{text:?}: {}", out.stderr);
            assert!(!part.exists(), "nothing written");
            assert_eq!(out.stdout, "");
        }
    }
    // Unsharded, a repeated id is no one's problem: both are solved, in order.
    let input = dir.path().join("dup.txt");
    std::fs::write(&input, "a ? 8 6 7 2 5 4 3 0 1\na ? 1 2 3 4 5 6 0 7 8\n").unwrap();
    let out = run(
        &[
            "solve",
            "-i",
            input.to_str().unwrap(),
            "--heuristic",
            "linear-conflict",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 2);
}

/// Shards of two inputs of one length (an input file edited between two tasks, say) are
/// refused by the merge, which would otherwise interleave the records of both: the end
/// lines carry a digest of the whole input, the same in every shard of one input.
#[test]
fn shards_of_two_inputs_of_one_length_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let a = ok(&["random", "--size", "3", "--count", "6", "--seed", "100"]);
    let b = ok(&["random", "--size", "3", "--count", "6", "--seed", "200"]);
    let shard = |input: &str, k: u32| {
        let name = if input == a { "a" } else { "b" };
        let part = dir.path().join(format!("{name}-{k}.jsonl"));
        let s = format!("{k}/2");
        let out = run(
            &[
                "solve",
                "-",
                "--heuristic",
                "linear-conflict",
                "--shard",
                &s,
                "-o",
                part.to_str().unwrap(),
            ],
            Some(input),
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        part.display().to_string()
    };
    let (a1, a2, b2) = (shard(&a, 1), shard(&a, 2), shard(&b, 2));
    let out = run(&["merge", &a1, &b2], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("are shards of different inputs"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    let out = run(&["merge", &a1, &a2], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 6);
}

/// A complete results file is never redone, so a rerun on an input changed since (as many
/// instances, not the same ones) is refused, saying to delete the file or give another:
/// sharded, where the change is in another shard's items, and unsharded, where it is in
/// what no record holds (a line that is not an instance moved). The merge of a shard of
/// each input gives the same remedy.
#[test]
fn a_complete_file_rerun_on_a_changed_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = common::write(
        dir.path(),
        "boards.txt",
        "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 0 7 8\n1 2 3 4 5 6 7 0 8\n",
    );
    let part = |k: u32| dir.path().join(format!("s{k}.jsonl"));
    let solve = |input: &str, out: &Path, shard: Option<u32>| {
        let mut args = vec![
            "solve".to_string(),
            LC.into(),
            "-i".into(),
            input.into(),
            "-o".into(),
            out.display().to_string(),
        ];
        if let Some(k) = shard {
            args.extend(["--shard".into(), format!("{k}/2")]);
        }
        run(&args.iter().map(String::as_str).collect::<Vec<_>>(), None)
    };
    for k in [1, 2] {
        assert_eq!(solve(&input, &part(k), Some(k)).code, 0);
    }
    // Item 2, shard 2's, changes: shard 1's records are all still this input's.
    std::fs::write(
        &input,
        "8 6 7 2 5 4 3 0 1\n1 2 3 4 0 6 7 5 8\n1 2 3 4 5 6 7 0 8\n",
    )
    .unwrap();
    let before = std::fs::read(part(1)).unwrap();
    let refused = |out: &common::Out, path: &Path| {
        assert_eq!(out.code, 2, "{}", out.stderr);
        let name = path.display().to_string();
        assert!(
            out.stderr
                .contains(&format!("{name} is complete, but for another input"))
                && out
                    .stderr
                    .contains("the input changed since the file was completed")
                && out
                    .stderr
                    .contains("delete it, or give another output file"),
            "{}",
            out.stderr
        );
    };
    refused(&solve(&input, &part(1), Some(1)), &part(1));
    assert_eq!(std::fs::read(part(1)).unwrap(), before);

    // Shard 2 redone on the new input: the merge says what to do with shard 1.
    std::fs::remove_file(part(2)).unwrap();
    assert_eq!(solve(&input, &part(2), Some(2)).code, 0);
    let (p1, p2) = (part(1).display().to_string(), part(2).display().to_string());
    let out = run(&["merge", &p1, &p2], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("are shards of different inputs")
            && out
                .stderr
                .contains("delete the files of the shards run on the earlier input"),
        "{}",
        out.stderr
    );
    std::fs::remove_file(part(1)).unwrap();
    assert_eq!(solve(&input, &part(1), Some(1)).code, 0);
    assert_eq!(run(&["merge", &p1, &p2], None).code, 0);

    // Unsharded: a line that is not an instance moved down by a comment. The record at
    // its place is the failure of another line: refused as that.
    let input = common::write(dir.path(), "mixed.txt", "8 6 7 2 5 4 3 0 1\n1 2 x\n");
    let whole = dir.path().join("whole.jsonl");
    assert_eq!(solve(&input, &whole, None).code, 1);
    std::fs::write(&input, "8 6 7 2 5 4 3 0 1\n# a comment\n1 2 x\n").unwrap();
    let before = std::fs::read(&whole).unwrap();
    let out = solve(&input, &whole, None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("line 3 is no board now; the file's failure is of line 2"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read(&whole).unwrap(), before);
}

/// The merge holds the records to the input: in input order they must give back the
/// digest of it that the end lines hold. A shard's records reordered, one replaced by
/// another board's (which checks on its own), one turned into its goal reached in no
/// moves, a bad line's record moved to another line: each is refused (exit status 2,
/// nothing written), and a rerun of the shard names the file. A failure record as an
/// earlier release wrote it (neither board nor line) cannot be held to the digest: merged
/// as before, with a warning.
#[test]
fn a_merge_holds_the_records_to_the_inputs_digest() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = ok(&["random", "--count", "6", "--seed", "1", "--size", "3"]);
    text.push_str("1 2 x\n1 2 3 4 5 6 8 7 0\n"); // items 7 and 8: a bad line, unsolvable
    let input = common::write(dir.path(), "boards.txt", &text);
    let shard = |k: u32, out: &str| {
        let s = format!("{k}/2");
        run(&["solve", LC, "-i", &input, "--shard", &s, "-o", out], None)
    };
    let parts: Vec<String> = (1..=2)
        .map(|k| {
            let p = dir.path().join(format!("s{k}.jsonl")).display().to_string();
            assert_eq!(shard(k, &p).code, 1, "a bad line in each shard");
            p
        })
        .collect();
    let out = run(&["merge", &parts[0], &parts[1]], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 8);

    // Shard 1: the header, items 1, 3, 5 and 7, the end line.
    let lines: Vec<String> = std::fs::read_to_string(&parts[0])
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let record = |i: usize| -> Value { serde_json::from_str(&lines[i]).unwrap() };
    let other = run(
        &["solve", LC, "--format", "json", "1 2 3 4 5 6 7 0 8"],
        None,
    );
    let mut another: Value = serde_json::from_str(other.stdout.trim()).unwrap();
    another["id"] = record(2)["id"].clone();
    let mut to_goal = record(1);
    to_goal["tiles"] = to_goal["goal"].clone();
    to_goal["moves"] = "".into();
    to_goal["length"] = 0.into();
    let mut moved = record(4);
    assert_eq!(moved["line"], 7, "{moved}");
    moved["line"] = 9.into();
    let edited = dir.path().join("edited.jsonl");
    let merged = dir.path().join("merged.jsonl");
    let (e, m) = (edited.to_str().unwrap(), merged.to_str().unwrap());
    let with = |i: usize, v: &Value| {
        let mut l = lines.clone();
        l[i] = v.to_string();
        l
    };
    let mut swapped = lines.clone();
    swapped.swap(1, 2);
    for (what, text) in [
        ("reordered", swapped.clone()),
        ("another board", with(2, &another)),
        ("the goal in no moves", with(1, &to_goal)),
        ("another line", with(4, &moved)),
    ] {
        std::fs::write(&edited, text.join("\n") + "\n").unwrap();
        let out = run(&["merge", e, &parts[1], "-o", m], None);
        assert_eq!(out.code, 2, "{what}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!(
                "the records of {e}, {} are not the instances of the input",
                parts[1]
            )) && out.stderr.contains("delete it and rerun its shard"),
            "{what}: {}",
            out.stderr
        );
        assert_eq!(out.stdout, "", "{what}");
        assert!(!merged.exists(), "{what}");
    }
    // The rerun the message advises names the changed file.
    std::fs::write(&edited, swapped.join("\n") + "\n").unwrap();
    let out = shard(1, e);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(&format!("{e}, line 2")),
        "{}",
        out.stderr
    );

    // An earlier release's failure record: unproven, merged with a warning.
    let mut unsaid = record(4);
    unsaid.as_object_mut().unwrap().remove("line");
    std::fs::write(&edited, with(4, &unsaid).join("\n") + "\n").unwrap();
    let out = run(&["merge", e, &parts[1]], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("cannot be held to the input's digest"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout.lines().count(), 8);
}

/// A part that was edited, or that is no file (`-`, a pipe), is refused with advice for a
/// merge's input: rerun the shard, give the files; never "give another output file".
#[test]
fn a_damaged_or_piped_part_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let input = ok(&["random", "--count", "6", "--seed", "5", "--size", "3"]);
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("p{k}.jsonl"));
        let shard = format!("{k}/2");
        let args = ["solve", "-", "-q", "--heuristic", "linear-conflict"];
        let args = [
            &args[..],
            &["--shard", &shard, "-o", part.to_str().unwrap()],
        ]
        .concat();
        assert_eq!(run(&args, Some(&input)).code, 0);
        parts.push(part.display().to_string());
    }
    // A record removed from the middle of part 1.
    let text = std::fs::read_to_string(&parts[0]).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(1);
    let edited = dir.path().join("edited.jsonl");
    std::fs::write(&edited, lines.join("\n") + "\n").unwrap();
    let out = run(&["merge", edited.to_str().unwrap(), &parts[1]], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("delete it, rerun its task") && !out.stderr.contains("output file"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    let out = run(&["merge", "-", &parts[1]], Some(&text));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("- is not a regular file"),
        "{}",
        out.stderr
    );
    let out = run(&["merge", "/dev/null", &parts[1]], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("merge reads each part twice"),
        "{}",
        out.stderr
    );
    // A FIFO given as a part is refused at once, not waited on for a writer.
    let fifo = dir.path().join("fifo.jsonl");
    common::mkfifo(&fifo);
    let out = common::run_beside_fifo(&["merge", fifo.to_str().unwrap(), &parts[1]], &fifo);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("is not a regular file"),
        "{}",
        out.stderr
    );
}

/// A `size:` line changed between runs makes the same id and tiles another instance: the
/// record of the 3x4 board is not the answer of the 4x3 one, whether the file is complete
/// or not, and the end lines' input digests of the two inputs differ.
#[test]
fn a_results_file_is_held_to_its_instances_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let board = "t ? 1 2 3 4 5 6 7 8 9 10 0 11\n";
    let wide = common::write(dir.path(), "wide.txt", &format!("size: 3x4\n{board}"));
    let tall = common::write(dir.path(), "tall.txt", &format!("size: 4x3\n{board}"));
    let solve = |input: &str, out: &Path| {
        run(
            &["solve", LC, "-i", input, "-o", out.to_str().unwrap()],
            None,
        )
    };
    let out_file = dir.path().join("out.jsonl");
    assert_eq!(solve(&wide, &out_file).code, 0);
    let complete = std::fs::read_to_string(&out_file).unwrap();
    let partial: String = complete.lines().take(2).map(|l| format!("{l}\n")).collect();
    for text in [&complete, &partial] {
        std::fs::write(&out_file, text).unwrap();
        let out = solve(&tall, &out_file);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("another shape"), "{}", out.stderr);
        assert_eq!(&std::fs::read_to_string(&out_file).unwrap(), text);
    }
    let other = dir.path().join("tall.jsonl");
    assert_eq!(solve(&tall, &other).code, 0);
    let end = |text: &str| -> Value { serde_json::from_str(text.lines().last().unwrap()).unwrap() };
    let (a, b) = (
        end(&complete),
        end(&std::fs::read_to_string(&other).unwrap()),
    );
    assert_ne!(a["batch_end"]["input"], b["batch_end"]["input"], "{a} {b}");
}

/// `bench -o` holds the results a rerun skips to the known lengths the input gives now:
/// a known length corrected between runs is believed, and the summary counts the skipped
/// results' failures and wrong lengths as the exit status does.
#[test]
fn a_resumed_bench_holds_its_results_to_the_inputs_known_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("k.jsonl");
    let bench = |known: &str| {
        let input = common::write(
            dir.path(),
            "k.txt",
            &format!("a {known} 8 6 7 2 5 4 3 0 1\nb 2 1 2 3 4 5 6 0 7 8\n"),
        );
        let out = run(
            &[
                "bench",
                LC,
                &input,
                "-o",
                out_file.to_str().unwrap(),
                "--format",
                "json",
            ],
            None,
        );
        let summary = json_lines(&out.stdout).pop().unwrap();
        (out.code, summary["summary"].clone(), out.stderr)
    };
    // The optimum is 31: a known 30 is a wrong length.
    let (code, s, err) = bench("30");
    assert_eq!((code, &s["mismatched"]), (1, &Value::from(1)), "{s} {err}");
    // Corrected: the result skipped is right now.
    let (code, s, err) = bench("31");
    assert_eq!(code, 0, "{s} {err}");
    assert_eq!(s["mismatched"], 0, "{s}");
    assert_eq!(
        s["skipped"],
        serde_json::json!({"results": 2, "failed": 0, "mismatched": 0}),
        "{s}"
    );
    // And back: wrong again, in the exit status and the summary alike.
    let (code, s, err) = bench("30");
    assert_eq!(code, 1, "{s} {err}");
    assert_eq!(s["skipped"]["mismatched"], 1, "{s}");
}

/// A sharded `bench` whose shard found a wrong known length exits 1, and so does the
/// merge of its files, naming how many records differ: the signal is not lost on the way.
#[test]
fn a_merge_of_bench_shards_with_a_wrong_known_length_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    // The optimum of the first board is 31, not 30; the second's is 2.
    let input = common::write(
        dir.path(),
        "k.txt",
        "a 30 8 6 7 2 5 4 3 0 1\nb 2 1 2 3 4 5 6 0 7 8\n",
    );
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("part-{k}.jsonl"));
        let part = part.to_str().unwrap().to_string();
        let shard = format!("{k}/2");
        let out = run(&["bench", LC, &input, "--shard", &shard, "-o", &part], None);
        assert_eq!(out.code, if k == 1 { 1 } else { 0 }, "{}", out.stderr);
        parts.push(part);
    }
    let merged = dir.path().join("merged.jsonl");
    let merged = merged.to_str().unwrap();
    let mut args = vec!["merge"];
    args.extend(parts_refs(&parts));
    args.extend(["-o", merged]);
    let out = run(&args, None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("1 of them differ from their known length"),
        "{}",
        out.stderr
    );
    // Both records still check: the merge is complete, only its status says the mismatch.
    assert!(out.stderr.contains("2 check, 0 do not"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(merged).unwrap().lines().count(), 2);
}
