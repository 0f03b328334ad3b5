//! Files as a hostile user leaves them (issue 22, classes 1 and 2).
//!
//! Class 1, everything read back is verified: every file kind `fifteen` reads back
//! (checkpoints, split frontiers and parts, results files being resumed, verification
//! records) is damaged one byte at a time and cut short at many lengths, and each run
//! must either refuse, naming the file, with a non-zero status, or give an answer that
//! replays to the goal in the breadth-first optimal number of moves. Never a wrong answer.
//!
//! Class 2, never overwrite what is not ours: outputs that exist and were not written by
//! this program for the same job, outputs that are inputs, and work directories of another
//! job are refused, and the files are left byte for byte as they were.
//!
//! 3x3 boards with linear conflict (no tables) keep each run to milliseconds; the
//! verification-record case builds 3x3 tables into a temporary directory.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::Out;
use fifteen::board::parse_moves;
use fifteen::check::check_solution;
use fifteen::{Board, Goal, Shape};

/// The hardest 3x3 board (31 moves): enough iterations for a checkpoint mid-search.
const HARD: &str = "8 6 7 2 5 4 3 0 1";

fn shape() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// Breadth-first distances of every 3x3 board from the standard goal: the answers every
/// run is held to, independent of the solver.
fn distances() -> HashMap<Board, u32> {
    common::bfs(&Goal::standard(shape())).1
}

fn board(text: &str) -> Board {
    Board::parse(text).unwrap()
}

fn fifteen(args: &[&str]) -> Out {
    common::run(args, None)
}

/// At most `n` offsets spread evenly over `0..len` (every one when `len <= n`).
fn sample(len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    (0..n).map(|i| i * len / n).collect()
}

/// The ways one file is damaged: each sampled byte with its low bit flipped (a digit turns
/// into its neighbour, a letter into another), and the file cut at each sampled length.
fn damaged_copies(bytes: &[u8], n: usize) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for i in sample(bytes.len(), n) {
        let mut b = bytes.to_vec();
        b[i] ^= 1;
        out.push((format!("byte {i} flipped"), b));
    }
    for len in sample(bytes.len(), n) {
        out.push((format!("cut at {len}"), bytes[..len].to_vec()));
    }
    out
}

/// What a run fed a damaged file did.
#[derive(Debug, Default)]
struct Tally {
    refused: usize,
    right: usize,
}

/// Holds a run to the rule: refused (non-zero status, the file named on stderr, no answer
/// on stdout) or every answer it prints replays from `start` to the goal in `optimal`
/// moves, with exit status 0.
fn refused_or_right(
    tally: &mut Tally,
    what: &str,
    out: &Out,
    file: &Path,
    start: &Board,
    optimal: u32,
) {
    let name = file.file_name().unwrap().to_str().unwrap();
    if out.code != 0 {
        assert!(
            out.stderr.contains(name),
            "{what}: refused without naming {name}: {}",
            out.stderr
        );
        assert!(
            !out.stdout.contains("\"moves\""),
            "{what}: an answer printed with a failure: {}",
            out.stdout
        );
        tally.refused += 1;
        return;
    }
    let recs = common::json_lines(&out.stdout);
    assert_eq!(recs.len(), 1, "{what}: {}", out.stdout);
    let moves = parse_moves(recs[0]["moves"].as_str().unwrap()).unwrap();
    let goal = Goal::standard(shape());
    let len = check_solution(start, &goal, &moves)
        .unwrap_or_else(|e| panic!("{what}: exit 0 with an answer that does not replay: {e}"));
    assert_eq!(
        len as u32, optimal,
        "{what}: exit 0 with a non-optimal answer"
    );
    assert_eq!(
        recs[0]["length"].as_u64(),
        Some(u64::from(optimal)),
        "{what}"
    );
    tally.right += 1;
}

// ---------------------------------------------------------------------------------------
// Class 1: checkpoints.

fn checkpoint_run(cp: &Path, extra: &[&str]) -> Out {
    let mut args = vec![
        "solve",
        common::LC,
        "--threads",
        "1",
        "--format",
        "json",
        "--checkpoint",
        cp.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push(HARD);
    fifteen(&args)
}

/// A checkpoint stopped mid-search (by a node limit) and one solved: their bytes. The
/// limit lands the stop inside the iteration under 29, with finished subtrees (whose
/// least f over it is 31) in the books, which the cases below edit.
fn checkpoints(dir: &Path) -> [(&'static str, Vec<u8>); 2] {
    let cp = dir.join("cp.json");
    let out = checkpoint_run(&cp, &["--max-nodes", "2200"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let mid = std::fs::read(&cp).unwrap();
    assert!(String::from_utf8_lossy(&mid).contains("\"moves\":null"));
    let out = checkpoint_run(&cp, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let solved = std::fs::read(&cp).unwrap();
    std::fs::remove_file(&cp).unwrap();
    [("mid-search", mid), ("solved", solved)]
}

#[test]
fn a_checkpoint_damaged_anywhere_is_refused_or_gives_the_optimal_answer() {
    let dist = distances();
    let start = board(HARD);
    let optimal = dist[&start];
    let dir = tempfile::tempdir().unwrap();
    for (kind, bytes) in checkpoints(dir.path()) {
        let mut tally = Tally::default();
        for (what, damaged) in damaged_copies(&bytes, 60) {
            let cp = dir.path().join("cp.json");
            std::fs::write(&cp, &damaged).unwrap();
            let out = checkpoint_run(&cp, &[]);
            refused_or_right(
                &mut tally,
                &format!("{kind} checkpoint, {what}"),
                &out,
                &cp,
                &start,
                optimal,
            );
        }
        // Damage is refused far more often than not: the checksum covers every field.
        assert!(tally.refused > tally.right, "{kind}: {tally:?}");
        eprintln!("{kind} checkpoint: {tally:?}");
    }
}

/// The case: a damaged threshold in the books (here raised past the optimum, so
/// that a resumed search would find a longer answer and call it optimal) is refused.
#[test]
fn a_checkpoint_with_a_changed_threshold_or_answer_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let [(_, mid), (_, solved)] = checkpoints(dir.path());
    let cp = dir.path().join("cp.json");
    let cases = [
        (mid.clone(), "\"threshold\":29", "\"threshold\":39"),
        (mid, "\"next\":31", "\"next\":35"),
        (solved.clone(), "\"lower_bound\":31", "\"lower_bound\":33"),
        (solved, "\"moves\":\"", "\"moves\":\"UD"),
    ];
    for (bytes, from, to) in cases {
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(from), "{from} not in {text}");
        std::fs::write(&cp, text.replacen(from, to, 1)).unwrap();
        let before = std::fs::read(&cp).unwrap();
        let out = checkpoint_run(&cp, &[]);
        assert_eq!(out.code, 2, "{from} -> {to}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("cp.json") && out.stderr.contains("checksum"),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
        assert_eq!(
            std::fs::read(&cp).unwrap(),
            before,
            "a refused checkpoint is left alone"
        );
    }
}

/// `text` with its checksum made to match again, as an editor who knew the format would.
fn resign(text: &str) -> String {
    let body_end = text.rfind(",\"checksum\":\"").unwrap();
    let mut body = text[..body_end].to_string();
    body.push('}');
    let sum = xxhash_rust::xxh3::xxh3_64(body.as_bytes());
    format!("{},\"checksum\":\"{sum:016x}\"}}\n", &text[..body_end])
}

/// `text` (a file we write) with the number in `field` set to `value`, the checksum
/// recomputed: an edit no checksum can catch.
fn with_field(text: &str, field: &str, value: &str) -> String {
    let key = format!("\"{field}\":");
    let at = text.find(&key).unwrap() + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    resign(&format!("{}{value}{}", &text[..at], &text[end..]))
}

/// Books whose subtrees were numbered in another order (an older release's child order,
/// here the order digest edited and the file re-signed) are refused: resuming them would
/// skip subtrees never searched.
#[test]
fn a_checkpoint_numbering_its_subtrees_in_another_order_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let [(_, mid), _] = checkpoints(dir.path());
    let cp = dir.path().join("cp.json");
    let text = String::from_utf8(mid).unwrap();
    let order = text
        .split("\"order\":\"")
        .nth(1)
        .expect("a mid-search checkpoint keeps its subtrees' order")
        .split('"')
        .next()
        .unwrap();
    let other = format!("{:016x}", u64::from_str_radix(order, 16).unwrap() ^ 1);
    // The re-signing is right: the untouched file re-signed resumes.
    std::fs::write(&cp, resign(&text)).unwrap();
    let out = checkpoint_run(&cp, &["--max-nodes", "2300"]);
    assert!(!out.stderr.contains("do not fit"), "{}", out.stderr);
    std::fs::write(&cp, resign(&text.replacen(order, &other, 1))).unwrap();
    let before = std::fs::read(&cp).unwrap();
    let out = checkpoint_run(&cp, &[]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("cp.json") && out.stderr.contains("in another order"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(&cp).unwrap(), before, "left alone");
}

/// A checkpoint whose checksum was made to match again (an edit, not damage) still cannot
/// print an answer that does not replay or is longer than the bound it claims.
#[test]
fn a_re_signed_checkpoint_answer_is_still_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let [_, (_, solved)] = checkpoints(dir.path());
    let cp = dir.path().join("cp.json");
    let text = String::from_utf8(solved).unwrap();
    // The re-signing is right: the untouched file re-signed is accepted.
    std::fs::write(&cp, resign(&text)).unwrap();
    assert_eq!(checkpoint_run(&cp, &[]).code, 0);
    let moves = text
        .split("\"moves\":\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let longer = format!("{moves}UD");
    let lower_bound = text
        .split("\"lower_bound\":")
        .nth(1)
        .unwrap()
        .split([',', '}'])
        .next()
        .unwrap();
    let lies = [
        // A move changed: it no longer reaches the goal.
        text.replacen(moves, &format!("{}{}", &moves[..moves.len() - 1], "U"), 1),
        // Two moves more, the bound left: longer than the optimum it claims.
        text.replacen(moves, &longer, 1),
        // The moves in lower case: refused as the file's, not as if typed by the user.
        text.replacen(moves, &moves.to_lowercase(), 1),
        // No lower bound beside the answer: nothing says it is optimal.
        text.replacen(
            &format!("\"lower_bound\":{lower_bound}"),
            "\"lower_bound\":null",
            1,
        ),
        // A move there and back put first, and the lower bound raised to match: it reaches
        // the goal in the length claimed, but stands on the start twice.
        detour(&text, moves, lower_bound),
    ];
    for lie in lies {
        std::fs::write(&cp, resign(&lie)).unwrap();
        let out = checkpoint_run(&cp, &[]);
        assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("cp.json") && out.stderr.contains("does not check"),
            "{}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
}

/// `text` with `moves` led by the first move and its undoing, and its lower bound two more.
fn detour(text: &str, moves: &str, lower_bound: &str) -> String {
    let first = &moves[..1];
    let back = match first {
        "U" => "D",
        "D" => "U",
        "L" => "R",
        _ => "L",
    };
    let raised = lower_bound.parse::<u32>().unwrap() + 2;
    text.replacen(moves, &format!("{first}{back}{moves}"), 1)
        .replacen(
            &format!("\"lower_bound\":{lower_bound}"),
            &format!("\"lower_bound\":{raised}"),
            1,
        )
}

/// `text` with the `n`th (0-based) number after `key` set to `value`, re-signed.
fn with_nth(text: &str, key: &str, n: usize, value: &str) -> String {
    let key = format!("\"{key}\":");
    let at = text.match_indices(&key).nth(n).unwrap().0 + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    resign(&format!("{}{value}{}", &text[..at], &text[end..]))
}

/// Books no search writes (a threshold raised by hand, a subtree past the count, one
/// booked twice, one that met no `f` over its threshold, thresholds that fall) are
/// refused even when re-signed: believed, they skip subtrees never searched, and the
/// raised threshold had an 83-move answer to the 31-move board printed as optimal.
#[test]
fn a_re_signed_checkpoint_whose_books_no_search_writes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    // Stopped in the top of the iteration under 29: no subtrees booked yet.
    let out = checkpoint_run(&cp, &["--max-nodes", "1750"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let top = std::fs::read_to_string(&cp).unwrap();
    assert!(top.contains("\"threshold\":29,\"depth\":null,\"slack\":null,\"subtrees\":null"));
    std::fs::remove_file(&cp).unwrap();
    let [(_, mid), _] = checkpoints(dir.path());
    let mid = String::from_utf8(mid).unwrap();
    let first_index = mid
        .split("\"index\":")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let lies = [
        // The iteration under way (the fourth threshold) raised far past the optimum.
        with_nth(&top, "threshold", 3, "4000000000"),
        // Finished iterations whose thresholds fall, or whose node count does.
        with_nth(&top, "threshold", 1, "27"),
        with_nth(&top, "nodes", 2, "10"),
        // A finished subtree past the count, one booked twice, one that met nothing over.
        with_nth(&mid, "index", 0, "1000"),
        with_nth(&mid, "index", 1, first_index),
        with_nth(&mid, "next", 0, "29"),
        with_nth(&mid, "subtrees", 0, "null"),
    ];
    // The re-signing is right: both files re-signed resume to the optimum.
    for text in [&top, &mid] {
        std::fs::write(&cp, resign(text)).unwrap();
        let out = checkpoint_run(&cp, &[]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains("\"length\":31,\"optimal\":true"),
            "{}",
            out.stdout
        );
    }
    for lie in lies {
        std::fs::write(&cp, &lie).unwrap();
        let out = checkpoint_run(&cp, &[]);
        assert_eq!(out.code, 2, "{lie}\n{}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("cp.json") && out.stderr.contains("contradict themselves"),
            "{lie}\n{}",
            out.stderr
        );
        assert!(out.stdout.is_empty(), "{lie}\n{}", out.stdout);
    }
}

// ---------------------------------------------------------------------------------------
// Class 1: results files being resumed.

/// Six boards a few moves from the goal and the hardest one: an instance file.
fn batch_input(dir: &Path) -> (PathBuf, Vec<Board>) {
    let boards = [
        "1 2 3 4 5 6 0 7 8",
        "1 2 3 4 0 6 7 5 8",
        HARD,
        "0 1 2 3 4 5 6 7 8",
        "4 1 3 7 2 6 0 5 8",
        "1 2 3 4 5 6 7 8 0",
    ];
    let path = dir.join("in.txt");
    std::fs::write(&path, boards.join("\n") + "\n").unwrap();
    (path, boards.iter().map(|b| board(b)).collect())
}

fn solve_to(input: &Path, output: &Path) -> Out {
    fifteen(&[
        "solve",
        common::LC,
        "-i",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--format",
        "json",
    ])
}

#[test]
fn a_results_file_damaged_anywhere_is_refused_or_resumed_to_right_answers() {
    let dist = distances();
    let dir = tempfile::tempdir().unwrap();
    let (input, boards) = batch_input(dir.path());
    let out_path = dir.path().join("results.jsonl");
    let out = solve_to(&input, &out_path);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = std::fs::read(&out_path).unwrap();
    let goal = Goal::standard(shape());
    let mut tally = Tally::default();
    for (what, damaged) in damaged_copies(&bytes, 150) {
        std::fs::write(&out_path, &damaged).unwrap();
        let out = solve_to(&input, &out_path);
        if out.code != 0 {
            assert!(
                out.stderr.contains("results.jsonl"),
                "{what}: {}",
                out.stderr
            );
            assert_eq!(
                std::fs::read(&out_path).unwrap(),
                damaged,
                "{what}: a refused file was changed"
            );
            tally.refused += 1;
            continue;
        }
        // Accepted: the file now holds every instance once, each replaying to the goal in
        // its breadth-first distance.
        let text = std::fs::read_to_string(&out_path).unwrap();
        let recs: Vec<serde_json::Value> = common::json_lines(&text)
            .into_iter()
            .filter(|v| v.get("id").is_some())
            .collect();
        assert_eq!(recs.len(), boards.len(), "{what}: {text}");
        for (rec, b) in recs.iter().zip(&boards) {
            let moves = parse_moves(rec["moves"].as_str().unwrap()).unwrap();
            let len = check_solution(b, &goal, &moves)
                .unwrap_or_else(|e| panic!("{what}: a kept result that does not replay: {e}"));
            assert_eq!(
                len as u32, dist[b],
                "{what}: a kept result that is not optimal"
            );
            assert_eq!(rec["length"].as_u64(), Some(len as u64), "{what}");
        }
        tally.right += 1;
    }
    eprintln!("results file: {tally:?}");
    assert!(tally.refused > 0 && tally.right > 0, "{tally:?}");
}

/// The case: the input's `goal:` line changed between runs. The records in the
/// file are for the old goal; resuming is refused instead of keeping them.
#[test]
fn resuming_after_the_goal_changed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let out_path = dir.path().join("results.jsonl");
    let boards = "1 2 3 4 5 6 0 7 8\n1 2 3 4 0 6 7 5 8\n";
    std::fs::write(&input, format!("goal: standard\n{boards}")).unwrap();
    assert_eq!(solve_to(&input, &out_path).code, 0);
    // Keep the first record only, as a run stopped after it would have.
    let text = std::fs::read_to_string(&out_path).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&out_path, &kept).unwrap();
    // The same boards, now for a goal they also reach (the blank in another corner).
    std::fs::write(&input, format!("goal: 1 2 3 4 5 6 7 0 8\n{boards}")).unwrap();
    let out = solve_to(&input, &out_path);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("results.jsonl") && out.stderr.contains("another goal"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), kept);
}

/// A record held to an input item of the other kind: a board's result where the input now
/// has a line that is no board, a line's failure where it now has a board (a typo mended
/// between runs: that board was reported failed and never solved), or the failure of
/// another line. Each is refused, the file untouched; the same input resumes as before.
#[test]
fn a_record_of_a_board_or_of_a_bad_line_is_held_to_the_items_kind() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let out_path = dir.path().join("results.jsonl");
    let (good, typo) = ("1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 0 7 88");
    let last = "1 2 3 4 0 6 7 5 8";
    // Results of the first item only, as a run stopped after it would leave them.
    let first_only = |first: &str| -> String {
        let _ = std::fs::remove_file(&out_path);
        std::fs::write(&input, format!("{first}\n{last}\n")).unwrap();
        let out = solve_to(&input, &out_path);
        assert!(out.code <= 1, "{}", out.stderr);
        let text = std::fs::read_to_string(&out_path).unwrap();
        text.lines().take(2).map(|l| format!("{l}\n")).collect()
    };
    for (then, now, why) in [
        (
            good,
            format!("{typo}\n{last}\n"),
            "now a line that is no board",
        ),
        (typo, format!("{good}\n{last}\n"), "now a board"),
        (
            typo,
            format!("\n{typo}\n{last}\n"),
            "line 2 is no board now",
        ),
    ] {
        let kept = first_only(then);
        std::fs::write(&out_path, &kept).unwrap();
        std::fs::write(&input, &now).unwrap();
        let out = solve_to(&input, &out_path);
        assert_eq!(
            out.code, 2,
            "{then} -> {now:?}: {}{}",
            out.stdout, out.stderr
        );
        assert!(
            out.stderr.contains(why),
            "{then} -> {now:?}: {}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(&out_path).unwrap(), kept);
    }
    // The input the file was written for resumes, its failure kept (exit status 1).
    let kept = first_only(typo);
    std::fs::write(&out_path, &kept).unwrap();
    let out = solve_to(&input, &out_path);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert!(text.starts_with(&kept), "{text}");
    assert_eq!(common::json_lines(&text).len(), 4, "{text}");
}

// ---------------------------------------------------------------------------------------
// Class 1: split frontiers and parts.

/// A frontier of `HARD` at depth 4 and its two parts searched at `threshold` (31 is the
/// last iteration, where the solution is found), as `fifteen split` writes them.
fn split_files(dir: &Path, threshold: &str) -> (PathBuf, Vec<PathBuf>) {
    let frontier = dir.join("frontier.json");
    let f = frontier.to_str().unwrap();
    let out = fifteen(&[
        "split",
        "frontier",
        HARD,
        common::LC,
        "--depth",
        "4",
        "-o",
        f,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| dir.join(format!("part-{k}.json")))
        .collect();
    for (k, p) in parts.iter().enumerate() {
        let out = split_search(&frontier, threshold, &format!("{}/2", k + 1), p);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    (frontier, parts)
}

/// `split search FRONTIER --threshold T --part K/N -o OUT`.
fn split_search(frontier: &Path, threshold: &str, part: &str, out: &Path) -> Out {
    fifteen(&[
        "split",
        "search",
        frontier.to_str().unwrap(),
        "--threshold",
        threshold,
        "--part",
        part,
        "-o",
        out.to_str().unwrap(),
    ])
}

fn reduce(parts: &[PathBuf]) -> Out {
    let mut args = vec!["split", "reduce"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    fifteen(&args)
}

/// The solution a `reduce` line gives, replayed: its length, or why it does not count.
fn reduced_length(line: &str, start: &Board) -> Option<u32> {
    let moves = line.split(" moves ").nth(1)?.trim();
    let moves = parse_moves(moves).ok()?;
    check_solution(start, &Goal::standard(shape()), &moves)
        .ok()
        .map(|l| l as u32)
}

/// A part is written once, after its search: an output in a directory that does not exist
/// (`-o t68/part3.json`, as `split search --help` shows it) is refused before the search,
/// not after hours of it (here, exit status 1 at its 60-second --timeout); `split
/// frontier`'s output too.
#[test]
fn split_search_into_a_missing_directory_is_refused_before_searching() {
    let dir = tempfile::tempdir().unwrap();
    let frontier = dir.path().join("frontier.json");
    let out = fifteen(&[
        "split",
        "frontier",
        "15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0",
        "--goal",
        "blank-first",
        common::LC,
        "--depth",
        "4",
        "-o",
        frontier.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("threshold 58 "), "{}", out.stdout);
    let part = dir.path().join("t78").join("part1.json");
    let out = fifteen(&[
        "split",
        "search",
        frontier.to_str().unwrap(),
        "--threshold",
        "78",
        "--part",
        "1/1",
        "--timeout",
        "60",
        "-o",
        part.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("does not exist: create it first (mkdir -p")
            && out.stderr.contains("nothing was done"),
        "{}",
        out.stderr
    );
    assert!(!part.exists());
    // The frontier's own output too (written after its search, and a build on first use).
    let nowhere = dir.path().join("f").join("frontier.json");
    let out = fifteen(&[
        "split",
        "frontier",
        "15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0",
        "--goal",
        "blank-first",
        common::LC,
        "-o",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("nothing was done"), "{}", out.stderr);
    assert!(!nowhere.exists());
}

/// Thresholds no iteration has (below the frontier's first, or of the other parity) are
/// refused by `split search`; a solution found under a threshold after the first is
/// printed with a note that its optimality rests on the iterations before it, and under
/// the first without one.
#[test]
fn split_thresholds_off_the_iterations_are_refused_and_late_solutions_are_qualified() {
    let dir = tempfile::tempdir().unwrap();
    let (frontier, _) = split_files(dir.path(), "23");
    let f = frontier.to_str().unwrap();
    for t in ["0", "21", "24", "30"] {
        let p = dir.path().join(format!("bad-{t}.json"));
        let out = split_search(&frontier, t, "1/1", &p);
        assert_eq!(out.code, 2, "threshold {t}: {}", out.stderr);
        assert!(
            out.stderr.contains("iterations have thresholds 23, 25, 27"),
            "{}",
            out.stderr
        );
        assert!(!p.exists());
    }
    // 41 is a threshold the search could reach (were 31 not solved): its solution is 41
    // moves long and must not pass for optimal without the iterations before it.
    let p = dir.path().join("late.json");
    let out = fifteen(&[
        "split",
        "search",
        f,
        "--threshold",
        "41",
        "--part",
        "1/1",
        "-o",
        p.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = reduce(&[p]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("solved length"), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("optimal only if every iteration before this one (thresholds 23 to 39)"),
        "{}",
        out.stderr
    );
    // At the frontier's first threshold a solution needs no such note (a 3x3 board whose
    // first threshold is its length).
    let easy = dir.path().join("easy.json");
    let out = fifteen(&[
        "split",
        "frontier",
        "1 2 3 4 5 6 0 7 8",
        common::LC,
        "--depth",
        "1",
        "-o",
        easy.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("threshold 2 "), "{}", out.stdout);
    let part = dir.path().join("easy-part.json");
    let out = fifteen(&[
        "split",
        "search",
        easy.to_str().unwrap(),
        "--threshold",
        "2",
        "--part",
        "1/1",
        "-o",
        part.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = reduce(&[part]);
    assert!(out.stdout.contains("solved length 2"), "{}", out.stdout);
    assert!(!out.stderr.contains("optimal only if"), "{}", out.stderr);
}

/// A frontier whose parity or first threshold was edited (neither is covered by the
/// entries' digest), and signed as if it were ours, is refused by `split search`, naming the file, with nothing written:
/// the thresholds a part may search, and the reducer's note on optimality, rest on them.
/// A first threshold near `u32::MAX` once made the message's thresholds wrap.
#[test]
fn a_frontier_with_an_edited_parity_or_first_threshold_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (frontier, _) = split_files(dir.path(), "23");
    let original = std::fs::read_to_string(&frontier).unwrap();
    for (field, value, threshold) in [
        ("first_threshold", "25", "25"),
        ("first_threshold", "21", "23"),
        ("first_threshold", "4294967295", "101"),
        ("parity", "0", "23"),
    ] {
        let text = with_field(&original, field, value);
        assert_ne!(text, original);
        std::fs::write(&frontier, text).unwrap();
        let p = dir.path().join("part.json");
        let out = split_search(&frontier, threshold, "1/1", &p);
        assert_eq!(out.code, 2, "{field} {value}: {}", out.stderr);
        assert!(
            out.stderr.contains("frontier.json")
                && out.stderr.contains("are not this board's (1 and 23"),
            "{field} {value}: {}",
            out.stderr
        );
        assert!(!p.exists(), "{field} {value}: a part was written");
    }
}

/// Part files that say what no search writes, signed as if they were ours: a next
/// threshold not above the threshold (the driver would repeat the iteration for ever), node
/// counts whose sum does not fit, subtrees searched that do not add up to those the top
/// reached, parts whose tops differ. Refused, exit status 2, nothing reduced.
#[test]
fn split_parts_with_impossible_counts_are_refused_even_when_signed() {
    let dir = tempfile::tempdir().unwrap();
    let (_, parts) = split_files(dir.path(), "29");
    assert_eq!(reduce(&parts).code, 0);
    let original: Vec<String> = parts
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let cases: [(&str, &str, &[usize], &str); 5] = [
        ("next", "29", &[0], "not above its threshold"),
        ("next", "3", &[1], "not above its threshold"),
        // A part that says it searched more (or fewer) subtrees than it was given.
        ("searched", "999999", &[0], "the parts searched"),
        // Parts whose tops reached different frontiers.
        ("reached", "999999", &[1], "count of entries reached"),
        (
            "nodes",
            "18446744073709551615",
            &[0, 1],
            "more than any search could count",
        ),
    ];
    for (field, value, which, message) in cases {
        for (k, p) in parts.iter().enumerate() {
            let text = if which.contains(&k) {
                with_field(&original[k], field, value)
            } else {
                original[k].clone()
            };
            std::fs::write(p, text).unwrap();
        }
        let out = reduce(&parts);
        assert_eq!(out.code, 2, "{field} {value}: {}", out.stderr);
        assert!(
            out.stderr.contains(message),
            "{field} {value}: {}",
            out.stderr
        );
        assert_eq!(out.stdout, "", "nothing reduced");
    }
}

#[test]
fn split_parts_and_frontiers_damaged_anywhere_are_refused_or_give_the_optimal_answer() {
    let dist = distances();
    let start = board(HARD);
    let dir = tempfile::tempdir().unwrap();
    let (frontier, parts) = split_files(dir.path(), "31");
    let good = reduce(&parts);
    assert_eq!(good.code, 0, "{}", good.stderr);
    assert_eq!(
        reduced_length(&good.stdout, &start),
        Some(dist[&start]),
        "{}",
        good.stdout
    );
    // Each part damaged in turn: reduce refuses, naming the part, or prints the same line.
    for p in &parts {
        let bytes = std::fs::read(p).unwrap();
        let mut tally = Tally::default();
        for (what, damaged) in damaged_copies(&bytes, 80) {
            std::fs::write(p, &damaged).unwrap();
            let out = reduce(&parts);
            if out.code == 0 {
                assert_eq!(out.stdout, good.stdout, "{what}");
                tally.right += 1;
            } else {
                assert!(
                    out.stderr
                        .contains(p.file_name().unwrap().to_str().unwrap()),
                    "{what}: {}",
                    out.stderr
                );
                assert!(out.stdout.is_empty(), "{what}");
                tally.refused += 1;
            }
        }
        std::fs::write(p, &bytes).unwrap();
        assert!(tally.refused > tally.right, "{tally:?}");
    }
    // The frontier damaged: a part searched from it is refused, naming it, or is the part
    // the undamaged frontier gives.
    let bytes = std::fs::read(&frontier).unwrap();
    let good_part = std::fs::read_to_string(&parts[0]).unwrap();
    let strip = |t: &str| t.split(",\"millis\"").next().unwrap().to_string();
    let out_part = dir.path().join("again.json");
    for (what, damaged) in damaged_copies(&bytes, 80) {
        std::fs::write(&frontier, &damaged).unwrap();
        let _ = std::fs::remove_file(&out_part);
        let out = fifteen(&[
            "split",
            "search",
            frontier.to_str().unwrap(),
            "--threshold",
            "31",
            "--part",
            "1/2",
            "-o",
            out_part.to_str().unwrap(),
        ]);
        if out.code == 0 {
            assert_eq!(
                strip(&std::fs::read_to_string(&out_part).unwrap()),
                strip(&good_part),
                "{what}"
            );
        } else {
            assert!(
                out.stderr.contains("frontier.json"),
                "{what}: {}",
                out.stderr
            );
            assert!(
                !out_part.exists(),
                "{what}: a part written from a refused frontier"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Class 1: verification records.

#[test]
fn a_verification_record_damaged_anywhere_never_changes_an_answer() {
    let dist = distances();
    let tables = tempfile::tempdir().unwrap();
    let t = tables.path().to_str().unwrap();
    let start = board(HARD);
    let solve = || fifteen(&["solve", "--tables", t, "--format", "json", HARD]);
    let first = solve();
    assert_eq!(first.code, 0, "{}", first.stderr);
    let records: Vec<PathBuf> = std::fs::read_dir(tables.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "verified"))
        .collect();
    if records.is_empty() {
        // Records are written only for tables changed at least 3 s before the pass.
        std::thread::sleep(std::time::Duration::from_millis(3100));
        assert_eq!(solve().code, 0);
    }
    let records: Vec<PathBuf> = std::fs::read_dir(tables.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "verified"))
        .collect();
    assert!(!records.is_empty(), "no verification record was written");
    let record = &records[0];
    let bytes = std::fs::read(record).unwrap();
    let mut tally = Tally::default();
    for (what, damaged) in damaged_copies(&bytes, 40) {
        std::fs::write(record, &damaged).unwrap();
        let out = solve();
        refused_or_right(
            &mut tally,
            &format!("record {what}"),
            &out,
            record,
            &start,
            dist[&start],
        );
    }
    // A record only spares a checksum pass: damage never refuses a good table.
    assert_eq!(tally.refused, 0, "{tally:?}");
}

// ---------------------------------------------------------------------------------------
// Class 2: never overwrite what is not ours.

/// The case: `-o` onto a user's file that does not end in a newline (which a
/// resumed run used to cut off as a torn line).
#[test]
fn output_onto_a_users_file_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = batch_input(dir.path());
    for content in [
        "my notes, no newline at the end",
        "line one\nline two",
        "{\"id\":1}",
        "\0\0{}",
        // Python's json.dump: one line, no final newline, its first key "batch".
        "{\"batch\": 64, \"lr\": 0.1}",
        "{\"batch\":64}",
        // A whole JSON line that starts as our header does and is not one.
        "{\"batch\":{\"version\":1,\"command\":\"solve\"}}",
    ] {
        let target = dir.path().join("notes.txt");
        std::fs::write(&target, content).unwrap();
        let out = solve_to(&input, &target);
        assert_eq!(out.code, 2, "{content:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("notes.txt") && out.stderr.contains("not written by --output"),
            "{}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), content);
    }
}

/// A results file refused (other settings, another command, another input) keeps every
/// byte, a torn last line included: that line may be another job's, still being written.
#[test]
fn a_refused_results_file_keeps_its_torn_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = batch_input(dir.path());
    let target = dir.path().join("results.jsonl");
    assert_eq!(solve_to(&input, &target).code, 0);
    // The last record cut short, as a kill leaves it.
    let text = std::fs::read_to_string(&target).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.truncate(3); // the header and two records
    let torn = format!(
        "{}\n{}",
        lines.join("\n"),
        &text.lines().nth(3).unwrap()[..30]
    );
    std::fs::write(&target, &torn).unwrap();
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n").unwrap();
    let (i, o) = (input.to_str().unwrap(), target.to_str().unwrap());
    for (args, says) in [
        (
            vec!["solve", common::LC, "-i", i, "-o", o, "--weight", "2"],
            "other settings",
        ),
        (vec!["bench", common::LC, i, "-o", o], "other settings"),
        (
            vec!["solve", common::LC, "-i", other.to_str().unwrap(), "-o", o],
            "another input",
        ),
    ] {
        let out = fifteen(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), torn, "{args:?}");
    }
    // The same command resumes it: the torn line is cut and redone.
    let out = solve_to(&input, &target);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let after = std::fs::read_to_string(&target).unwrap();
    assert!(after.starts_with(&(lines.join("\n") + "\n")), "{after}");
    assert_eq!(after.lines().count(), text.lines().count(), "{after}");
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = batch_input(dir.path());
    let before = std::fs::read(&input).unwrap();
    // solve -i X -o X: X is not a results file.
    assert_eq!(solve_to(&input, &input).code, 2);
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // split search writing over its frontier, under another name (a hard link): refused.
    let (frontier, _) = split_files(dir.path(), "31");
    let link = dir.path().join("link.json");
    std::fs::hard_link(&frontier, &link).unwrap();
    let fbytes = std::fs::read(&frontier).unwrap();
    for target in [&frontier, &link] {
        let out = fifteen(&[
            "split",
            "search",
            frontier.to_str().unwrap(),
            "--threshold",
            "23",
            "--part",
            "1/2",
            "--force",
            "-o",
            target.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("also an input"), "{}", out.stderr);
        assert_eq!(std::fs::read(&frontier).unwrap(), fbytes);
    }
}

/// Two complete shards of a batch, for merge.
fn shards(dir: &Path) -> Vec<PathBuf> {
    let (input, _) = batch_input(dir);
    (1..=2)
        .map(|k| {
            let p = dir.join(format!("shard-{k}.jsonl"));
            let shard = format!("{k}/2");
            let out = fifteen(&[
                "solve",
                common::LC,
                "-i",
                input.to_str().unwrap(),
                "--shard",
                &shard,
                "-o",
                p.to_str().unwrap(),
                "--format",
                "json",
            ]);
            assert_eq!(out.code, 0, "{}", out.stderr);
            p
        })
        .collect()
}

#[test]
fn merge_never_replaces_a_users_file_or_one_of_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    let parts = shards(dir.path());
    let merge = |out: &Path, force: bool| {
        let mut args = vec![
            "merge",
            parts[0].to_str().unwrap(),
            parts[1].to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        fifteen(&args)
    };
    let part_bytes: Vec<Vec<u8>> = parts.iter().map(|p| std::fs::read(p).unwrap()).collect();
    // Onto a part: refused, even with --force.
    for force in [false, true] {
        let out = merge(&parts[1], force);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("also an input"), "{}", out.stderr);
    }
    // Onto a user's file: refused; --force replaces it.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    let out = merge(&notes, false);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("notes.txt") && out.stderr.contains("--force"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    assert_eq!(merge(&notes, true).code, 0);
    // A user's file where the merge would write its partial output: refused, left alone.
    let partial = dir.path().join("fresh.jsonl.partial");
    std::fs::write(&partial, "keep me").unwrap();
    assert_eq!(merge(&dir.path().join("fresh.jsonl"), false).code, 2);
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), "keep me");
    // An empty file (`: > FILE`, a scheduler's log made in advance) holds nothing to lose:
    // replaced without --force, as docs/formats.md says.
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = merge(&empty, false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read(&empty).unwrap(),
        std::fs::read(&notes).unwrap()
    );
    // A merge's own output is replaced by the same merge without --force.
    let merged = dir.path().join("merged.jsonl");
    assert_eq!(merge(&merged, false).code, 0);
    let first = std::fs::read(&merged).unwrap();
    assert_eq!(merge(&merged, false).code, 0);
    assert_eq!(std::fs::read(&merged).unwrap(), first);
    assert_eq!(std::fs::read(&notes).unwrap(), first);
    // A user's file listing the same ids and boards in the same order, a note beside
    // each: no merge's output, refused (the ids and boards alone were taken for one).
    let annotated = dir.path().join("annotated.jsonl");
    let text: String = String::from_utf8(first.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!(
                "{}\n",
                serde_json::json!({"id": v["id"], "tiles": v["tiles"], "note": "an hour on this one"})
            )
        })
        .collect();
    std::fs::write(&annotated, &text).unwrap();
    let out = merge(&annotated, false);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--force"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&annotated).unwrap(), text);
    for (p, b) in parts.iter().zip(&part_bytes) {
        assert_eq!(&std::fs::read(p).unwrap(), b, "a part changed");
    }
}

#[test]
fn split_outputs_replace_only_their_own_files() {
    let dir = tempfile::tempdir().unwrap();
    let (frontier, parts) = split_files(dir.path(), "31");
    let f = frontier.to_str().unwrap();
    // The same frontier again: its own file, replaced. Another board's onto it: refused.
    let again = fifteen(&[
        "split",
        "frontier",
        HARD,
        common::LC,
        "--depth",
        "4",
        "-o",
        f,
    ]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let bytes = std::fs::read(&frontier).unwrap();
    let other = fifteen(&[
        "split",
        "frontier",
        "1 2 3 4 5 6 0 7 8",
        common::LC,
        "--depth",
        "4",
        "-o",
        f,
    ]);
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert!(
        other.stderr.contains("frontier.json") && other.stderr.contains("--force"),
        "{}",
        other.stderr
    );
    assert_eq!(std::fs::read(&frontier).unwrap(), bytes);
    // A part onto another part's file, or another iteration's: refused, left as it was.
    let p1 = std::fs::read(&parts[0]).unwrap();
    for (threshold, part) in [("31", "2/2"), ("29", "1/2")] {
        let out = fifteen(&[
            "split",
            "search",
            f,
            "--threshold",
            threshold,
            "--part",
            part,
            "-o",
            parts[0].to_str().unwrap(),
        ]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert_eq!(std::fs::read(&parts[0]).unwrap(), p1);
    }
    // A user's file: refused; --force replaces it.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    let search = |force: bool| {
        let mut a = vec![
            "split",
            "search",
            f,
            "--threshold",
            "31",
            "--part",
            "1/2",
            "-o",
            notes.to_str().unwrap(),
        ];
        if force {
            a.push("--force");
        }
        fifteen(&a)
    };
    assert_eq!(search(false).code, 2);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    assert_eq!(search(true).code, 0);
}

#[test]
fn a_checkpoint_path_holding_a_users_file_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("notes.json");
    for content in ["keep me", "{\"format\":\"something else\"}", ""] {
        std::fs::write(&cp, content).unwrap();
        let out = checkpoint_run(&cp, &[]);
        assert_eq!(out.code, 2, "{content:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains("notes.json"), "{}", out.stderr);
        assert_eq!(std::fs::read_to_string(&cp).unwrap(), content);
    }
}

// ---------------------------------------------------------------------------------------
// Class 2: the split driver's work directories.

fn script(dir: Option<&Path>, cwd: &Path, board: &str) -> Out {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut c = Command::new("bash");
    c.arg(root.join("slurm/solve-split.sh"))
        .args([
            "--local",
            "--parts",
            "2",
            "--depth",
            "4",
            "--heuristic",
            "linear-conflict",
        ])
        .current_dir(cwd)
        .env("FIFTEEN", env!("CARGO_BIN_EXE_fifteen"));
    if let Some(d) = dir {
        c.arg("--dir").arg(d);
    }
    let out = c.arg(board).output().unwrap();
    Out {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn script_answer(out: &Out, start: &Board) -> u32 {
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let moves = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap();
    check_solution(
        start,
        &Goal::standard(shape()),
        &parse_moves(moves).unwrap(),
    )
    .unwrap() as u32
}

/// The case: the script run again in its default directory for another board
/// printed the first board's answer. Each job now has its own directory.
#[test]
fn a_second_job_in_the_default_directory_solves_its_own_board() {
    let dist = distances();
    let cwd = tempfile::tempdir().unwrap();
    let a = board(HARD);
    let b = board("4 1 3 7 2 6 0 5 8");
    assert_eq!(script_answer(&script(None, cwd.path(), HARD), &a), dist[&a]);
    assert_eq!(
        script_answer(&script(None, cwd.path(), "4 1 3 7 2 6 0 5 8"), &b),
        dist[&b]
    );
    // The same job again reuses its directory (and its answer).
    assert_eq!(
        script_answer(&script(None, cwd.path(), "8,6,7, 2,5,4, 3,0,1"), &a),
        dist[&a]
    );
    let dirs = std::fs::read_dir(cwd.path().join("split-work"))
        .unwrap()
        .count();
    assert_eq!(dirs, 2);
}

#[test]
fn a_work_directory_of_another_job_or_of_nobody_is_refused() {
    let cwd = tempfile::tempdir().unwrap();
    let work = cwd.path().join("work");
    assert_eq!(script(Some(&work), cwd.path(), HARD).code, 0);
    let listing = |d: &Path| {
        let mut v: Vec<_> = walk(d);
        v.sort();
        v
    };
    let before = listing(&work);
    let out = script(Some(&work), cwd.path(), "4 1 3 7 2 6 0 5 8");
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("another job"), "{}", out.stderr);
    assert_eq!(listing(&work), before);
    // A directory with someone's files and no job.txt.
    let theirs = cwd.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("frontier.json"), "keep me").unwrap();
    let out = script(Some(&theirs), cwd.path(), HARD);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(theirs.join("frontier.json")).unwrap(),
        "keep me"
    );
}

/// The answer the script prints comes from files it checks whole: its text files
/// (`frontier.txt`, each iteration's `reduced.txt`), edited to skip iterations or to
/// another solution of the same length, change nothing it prints. (A threshold raised by
/// one digit used to skip the iterations below it and pass a longer answer off as optimal.)
#[test]
fn the_script_believes_none_of_its_text_files() {
    let cwd = tempfile::tempdir().unwrap();
    let work = cwd.path().join("work");
    let first = script(Some(&work), cwd.path(), HARD);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let good = first
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap()
        .to_string();
    // The moves reversed and mirrored: the same length, not a solution of this board.
    let other: String = good
        .chars()
        .rev()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        })
        .collect();
    let texts: Vec<PathBuf> = walk(&work)
        .into_iter()
        .filter(|p| p.ends_with("reduced.txt") || p.ends_with("frontier.txt"))
        .collect();
    assert!(texts.len() > 2, "{texts:?}");
    for p in &texts {
        let text = std::fs::read_to_string(p).unwrap();
        // Every threshold 10 more, and the solution replaced.
        let edited: Vec<String> = text
            .split(' ')
            .map(|w| match w.trim().parse::<u32>() {
                Ok(n) if n < 200 => w.replace(&n.to_string(), &(n + 10).to_string()),
                _ => w.replace(&good, &other),
            })
            .collect();
        let edited = edited.join(" ");
        assert_ne!(edited, text);
        std::fs::write(p, edited).unwrap();
    }
    let again = script(Some(&work), cwd.path(), HARD);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert_eq!(again.stdout, first.stdout);
}

fn walk(d: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

/// Runs a binary with `args` (stdin closed), failing the test rather than hanging when
/// it does not end within 30 seconds (a FIFO opened for reading waits for a writer).
fn run_within(bin: &str, args: &[&str]) -> Out {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = Command::new(bin)
        .args(args)
        .env_remove("FIFTEEN_TABLES")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{bin} {args:?} did not end within 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A table's name taken by a user's file, a damaged table or a FIFO: `build-pdb` does not
/// say "the tables are there" (exit status 1, the file named and left as it was), `solve`
/// and `tables list` refuse it without waiting on the FIFO; `--force` rebuilds.
#[test]
fn a_table_name_holding_a_users_file_a_damaged_table_or_a_fifo_is_never_trusted() {
    const BUILD_PDB: &str = env!("CARGO_BIN_EXE_build-pdb");
    const FIFTEEN: &str = env!("CARGO_BIN_EXE_fifteen");
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    let name = dir.path().join("3x3-b0-1.2.3.4.5.6.7.8.pdb");
    let build = |extra: &[&str]| {
        run_within(
            BUILD_PDB,
            &[&["--size", "3", "--out", tables, "-q"][..], extra].concat(),
        )
    };

    std::fs::write(&name, "my notes\n").unwrap();
    let out = build(&[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("3x3-b0-1.2.3.4.5.6.7.8.pdb") && out.stderr.contains("left as it is"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read_to_string(&name).unwrap(), "my notes\n");

    // Built, then one payload byte changed: the checksum catches it.
    assert_eq!(build(&["--force"]).code, 0);
    assert_eq!(build(&[]).code, 0, "sound tables are there");
    let mut bytes = std::fs::read(&name).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] ^= 0x11;
    std::fs::write(&name, &bytes).unwrap();
    let out = build(&[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("checksum"), "{}", out.stderr);
    assert_eq!(std::fs::read(&name).unwrap(), bytes);

    std::fs::remove_file(&name).unwrap();
    let fifo = std::ffi::CString::new(name.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let out = run_within(FIFTEEN, &["solve", "--tables", tables, "--no-build", HARD]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("not a table file but a named pipe"),
        "{}",
        out.stderr
    );
    let out = run_within(FIFTEEN, &["tables", "list", "--tables", tables]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let out = build(&[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("not a table file but a named pipe"),
        "{}",
        out.stderr
    );

    // Usage errors are usage errors: exit status 2, as clap's.
    assert_eq!(build(&["--blank", "9"]).code, 2);
    assert_eq!(build(&["--partition", "5-5"]).code, 2);
}

/// A `--checkpoints DIR` batch whose second instance's file is damaged stops there: the
/// first answer, the second's failure line (`kind` "checkpoint"), nothing after, exit
/// status 2, and the file left as it was.
#[test]
fn a_batch_stops_at_an_instance_whose_checkpoint_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ids.txt");
    std::fs::write(
        &input,
        format!(
            "x ? {HARD}\na ? 1 2 3 4 5 6 7 0 8\ny ? 1 2 3 4 5 6 0 7 8\nz ? 1 2 3 4 0 6 7 5 8\n"
        ),
    )
    .unwrap();
    let kept = dir.path().join("kept");
    let run = |threads: &str| {
        fifteen(&[
            "solve",
            "-q",
            "--threads",
            threads,
            "--heuristic",
            "linear-conflict",
            "--format",
            "json",
            "--checkpoints",
            kept.to_str().unwrap(),
            "-i",
            input.to_str().unwrap(),
        ])
    };
    assert_eq!(run("1").code, 0);
    let damaged = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_str().unwrap().starts_with("a-"))
        .unwrap();
    std::fs::write(&damaged, "junk\n").unwrap();
    for threads in ["1", "2"] {
        let out = run(threads);
        assert_eq!(out.code, 2, "{}", out.stderr);
        let lines: Vec<serde_json::Value> = out
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{}", out.stdout);
        assert_eq!(lines[0]["id"], "x");
        assert_eq!(lines[0]["length"], 31);
        assert_eq!(lines[1]["id"], "a");
        assert_eq!(lines[1]["kind"], "checkpoint");
        assert!(out
            .stderr
            .contains(damaged.file_name().unwrap().to_str().unwrap()));
        assert_eq!(std::fs::read_to_string(&damaged).unwrap(), "junk\n");
    }
}

/// Outputs that are no regular file (a FIFO, a directory, a symbolic link) are refused by
/// every writer at once, `--force` or not, and left as they are: a rename would put a file
/// where they were, and reading a FIFO to see whose it is would wait for ever. So are an
/// output that is the input, stdin and a file given together, `--checkpoint` with batch
/// options, a frontier too large to be one, and a user's file under a verification
/// record's name.
#[test]
fn outputs_and_inputs_of_the_wrong_kind_are_refused_and_left_as_they_are() {
    use std::os::unix::fs::FileTypeExt;
    const FIFTEEN: &str = env!("CARGO_BIN_EXE_fifteen");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in.txt");
    std::fs::write(&input, format!("{HARD}\n1 2 3 4 5 6 7 0 8\n")).unwrap();
    let inp = input.to_str().unwrap();
    let mut parts = Vec::new();
    for k in 1..=2 {
        let p = d.join(format!("p{k}.jsonl"));
        let shard = format!("{k}/2");
        let out = fifteen(&[
            "solve",
            "-i",
            inp,
            common::LC,
            "--shard",
            &shard,
            "-o",
            p.to_str().unwrap(),
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        parts.push(p.to_str().unwrap().to_string());
    }
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let link = d.join("link.json");
    let target = d.join("target.json");
    std::fs::write(&target, "mine\n").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    for (out_path, why) in [
        (&fifo, "is not a regular file"),
        (&sub, "is not a regular file"),
        (&link, "is a symbolic link"),
    ] {
        let o = out_path.to_str().unwrap();
        let runs: Vec<Vec<&str>> = vec![
            vec!["merge", &parts[0], &parts[1], "-o", o, "--force"],
            vec![
                "split",
                "frontier",
                HARD,
                common::LC,
                "--depth",
                "2",
                "-o",
                o,
                "--force",
            ],
        ];
        for args in runs {
            let out = run_within(FIFTEEN, &args);
            assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
            assert!(out.stderr.contains(why), "{args:?}: {}", out.stderr);
        }
        if out_path != &link {
            let out = run_within(FIFTEEN, &["solve", "-i", inp, common::LC, "-o", o]);
            assert_eq!(out.code, 2, "{}", out.stderr);
            assert!(
                out.stderr.contains("is not a regular file"),
                "{}",
                out.stderr
            );
        }
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine\n");

    // The output is the input; stdin and a file at once; --checkpoint with batch options.
    let own = d.join("own.txt");
    std::fs::write(&own, "").unwrap();
    let o = own.to_str().unwrap();
    let out = fifteen(&["solve", "-i", o, common::LC, "-o", o]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("is also the input"), "{}", out.stderr);
    assert_eq!(std::fs::read(&own).unwrap(), b"");
    let out = common::run(
        &["solve", "-", "-i", inp, common::LC],
        Some("1 2 3 4 5 6 7 0 8\n"),
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("both - (standard input) and -i"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    let ck = d.join("ck.json");
    for extra in [["-o", "r.jsonl"], ["--shard", "1/2"]] {
        let mut args = vec!["solve", common::LC, "--checkpoint", ck.to_str().unwrap()];
        args.extend(extra);
        args.push(HARD);
        let out = fifteen(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("--output and --shard are for batches"),
            "{}",
            out.stderr
        );
    }
    assert!(!ck.exists());

    // A file far larger than any frontier is refused without being read in.
    let big = d.join("big.json");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(700 << 20)
        .unwrap();
    let x = d.join("x.json");
    let out = run_within(
        FIFTEEN,
        &[
            "split",
            "search",
            big.to_str().unwrap(),
            "--threshold",
            "23",
            "--part",
            "1/1",
            "-o",
            x.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("more than any file of this kind"),
        "{}",
        out.stderr
    );

    // A user's file named like a verification record is never replaced by one.
    let tables = d.join("tables");
    let t = tables.to_str().unwrap();
    let out = run_within(FIFTEEN, &["solve", "--tables", t, "-q", HARD]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let table = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pdb"))
        .unwrap();
    let record = fifteen::pdb::record_path(&table);
    let _ = std::fs::remove_file(&record);
    std::fs::write(&record, "my notes\n").unwrap();
    // Records are written only for files unchanged for a few seconds.
    std::thread::sleep(fifteen::pdb::RECORD_MARGIN + std::time::Duration::from_secs(1));
    let out = run_within(FIFTEEN, &["tables", "verify", "--tables", t]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("a file of someone else's has its name"),
        "{}",
        out.stdout
    );
    let out = run_within(FIFTEEN, &["solve", "--tables", t, "-q", HARD]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "my notes\n");
    // Without it, the record is written as before.
    std::fs::remove_file(&record).unwrap();
    let out = run_within(FIFTEEN, &["tables", "verify", "--tables", t]);
    assert!(out.stdout.contains("record written"), "{}", out.stdout);
    assert!(std::fs::read_to_string(&record)
        .unwrap()
        .starts_with("fifteen verification record"));
}

/// `split search --timeout` that runs out is a limit like `solve`'s (exit status 1), says
/// why and what to do, and writes no part file: a part is whole or absent.
#[test]
fn a_split_part_out_of_time_says_so_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let frontier = dir.path().join("frontier.json");
    let part = dir.path().join("part.json");
    let f = frontier.to_str().unwrap();
    // Korf 100 instance 17 (66 moves), far from solved in a millisecond with Manhattan
    // distance.
    let o = fifteen(&[
        "split",
        "frontier",
        "-q",
        "--goal",
        "blank-first",
        "--heuristic",
        "manhattan",
        "--depth",
        "6",
        "-o",
        f,
        "15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = fifteen(&[
        "split",
        "search",
        "--timeout",
        "0.001",
        "--threshold",
        "66",
        "--part",
        "1/1",
        "-o",
        part.to_str().unwrap(),
        f,
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("time limit reached") && o.stderr.contains("longer --timeout"),
        "{}",
        o.stderr
    );
    assert!(!part.exists(), "a part file was written");
}

/// A weighted search's record pasted into an optimal run's results file (a line of the
/// same kind, for the same board) was kept on resuming and merged into a batch that says
/// it is optimal; a record of another weight in a weighted file too. Both are refused,
/// naming the line.
#[test]
fn a_record_of_another_weight_is_refused_on_resuming_and_merging() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = batch_input(dir.path());
    let input = input.to_str().unwrap();
    let run = |weight: &str, shard: &str, out: &Path| {
        let o = fifteen(&[
            "solve",
            common::LC,
            "-i",
            input,
            "--weight",
            weight,
            "--shard",
            shard,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    };
    let files: Vec<(PathBuf, PathBuf, PathBuf)> = ["1", "3"]
        .iter()
        .map(|w| {
            let p = |k: u32| dir.path().join(format!("w{w}-{k}.jsonl"));
            run(w, "1/2", &p(1));
            run(w, "2/2", &p(2));
            (p(1), p(2), dir.path().join(format!("w{w}.jsonl")))
        })
        .collect();
    // HARD (31 moves), the third instance, is shard 1's second record: weighted, longer.
    let line = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .nth(2)
            .unwrap()
            .to_string()
    };
    let (optimal, weighted) = (line(&files[0].0), line(&files[1].0));
    assert!(weighted.contains("\"optimal\":false"), "{weighted}");
    for (i, (first, second, merged)) in files.iter().enumerate() {
        let (weight, pasted) = if i == 0 {
            ("1", &weighted)
        } else {
            ("3", &optimal)
        };
        let text = std::fs::read_to_string(first).unwrap();
        let own = line(first);
        std::fs::write(first, text.replace(&own, pasted)).unwrap();
        let edited = std::fs::read(first).unwrap();
        let merge = fifteen(&[
            "merge",
            first.to_str().unwrap(),
            second.to_str().unwrap(),
            "-o",
            merged.to_str().unwrap(),
        ]);
        assert_eq!(merge.code, 2, "{}", merge.stderr);
        assert!(
            merge.stderr.contains("line 3: a result"),
            "{}",
            merge.stderr
        );
        assert!(!merged.exists());
        let resume = fifteen(&[
            "solve",
            common::LC,
            "-i",
            input,
            "--weight",
            weight,
            "--shard",
            "1/2",
            "-o",
            first.to_str().unwrap(),
        ]);
        assert_eq!(resume.code, 2, "{}", resume.stderr);
        assert!(
            resume.stderr.contains("line 3: a result"),
            "{}",
            resume.stderr
        );
        assert_eq!(
            std::fs::read(first).unwrap(),
            edited,
            "the file was changed"
        );
    }
    // Whole files of two weights: each side of the difference named by its file.
    let (one, three) = (&files[0].1, &files[1].1);
    let merge = fifteen(&["merge", one.to_str().unwrap(), three.to_str().unwrap()]);
    assert_eq!(merge.code, 2, "{}", merge.stderr);
    let names = format!(
        "weight 1.0 in {}, 3.0 in {}",
        one.display(),
        three.display()
    );
    assert!(merge.stderr.contains(&names), "{}", merge.stderr);
}

/// A part of another iteration among this one's: with `--threshold` (as the driver
/// script passes it), `reduce` names that part whatever its place, never the good one a
/// stray first part made the odd one out.
#[test]
fn reduce_with_its_threshold_names_the_part_of_another_iteration() {
    let dir = tempfile::tempdir().unwrap();
    let (frontier, parts) = split_files(dir.path(), "25");
    let stale = dir.path().join("stale-part-1.json");
    let out = split_search(&frontier, "23", "1/2", &stale);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let good = parts[1].to_str().unwrap();
    let stale = stale.to_str().unwrap();
    for order in [[stale, good], [good, stale]] {
        let mut args = vec!["split", "reduce", "--threshold", "25"];
        args.extend(order);
        let out = fifteen(&args);
        assert_ne!(out.code, 0, "{order:?}: {}", out.stdout);
        let first = out.stderr.lines().next().unwrap_or_default();
        assert!(
            first.contains(stale)
                && first.contains("its threshold is 23, not 25")
                && !first.contains(good),
            "{order:?}: {}",
            out.stderr
        );
    }
    // The iteration's own parts reduce with it as without it.
    let out = fifteen(&[
        "split",
        "reduce",
        "--threshold",
        "25",
        parts[0].to_str().unwrap(),
        good,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, reduce(&parts).stdout);
}

/// Parts of another search left in a reused directory, all of them, agree with each other:
/// with `--frontier` (as the driver script passes it) `reduce` refuses them, naming the
/// frontier they are not of. And the top of the tree is the same in every part: a part
/// whose top's next threshold differs (edited and signed again) is refused, wherever it is.
#[test]
fn reduce_with_its_frontier_refuses_parts_of_another_search() {
    let dir = tempfile::tempdir().unwrap();
    let (frontier, parts) = split_files(dir.path(), "25");
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let other = other_dir.join("frontier.json");
    let out = fifteen(&[
        "split",
        "frontier",
        "6 4 7 8 5 0 3 2 1",
        common::LC,
        "--depth",
        "4",
        "-o",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let theirs: Vec<PathBuf> = (1..=2)
        .map(|k| other_dir.join(format!("part-{k}.json")))
        .collect();
    for (k, p) in theirs.iter().enumerate() {
        let out = split_search(&other, "25", &format!("{}/2", k + 1), p);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let with_frontier = |f: &Path, parts: &[PathBuf]| {
        let mut args = vec![
            "split",
            "reduce",
            "--threshold",
            "25",
            "--frontier",
            f.to_str().unwrap(),
        ];
        args.extend(parts.iter().map(|p| p.to_str().unwrap()));
        fifteen(&args)
    };
    // Without the frontier, their parts reduce: nothing in them says whose they are.
    assert_eq!(reduce(&theirs).code, 0);
    let out = with_frontier(&frontier, &theirs);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(
        out.stderr.contains(theirs[0].to_str().unwrap())
            && out.stderr.contains("a part of another search than")
            && out.stderr.contains("board"),
        "{}",
        out.stderr
    );
    // The search's own parts reduce with it as without it.
    let out = with_frontier(&frontier, &parts);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, reduce(&parts).stdout);
    // A top whose next threshold was raised in one part only.
    let text = std::fs::read_to_string(&parts[0]).unwrap();
    assert!(text.contains("\"top_next\":27,"), "{text}");
    std::fs::write(&parts[0], with_field(&text, "top_next", "29")).unwrap();
    for order in [[&parts[0], &parts[1]], [&parts[1], &parts[0]]] {
        let out = reduce(&[order[0].clone(), order[1].clone()]);
        assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("next threshold of the top"),
            "{}",
            out.stderr
        );
    }
}

/// A table whose entries were raised and whose checksum was made to match (an edit, or a
/// table of another goal given this one's name) overestimates. The checksum cannot see it;
/// the search can: an answer found after the iterations below it proved none that short is
/// refused (`kind` "tables", exit status 2, the batch stops). No answer is printed as
/// optimal that is not, by the breadth-first distances.
#[test]
fn a_re_signed_table_that_overestimates_never_gives_a_wrong_optimal_answer() {
    let dist = distances();
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    assert_eq!(fifteen(&["solve", HARD, "--tables", tables]).code, 0);
    let path = dir.path().join("3x3-b0-1.2.3.4.5.6.7.8.pdb");
    let mut bytes = std::fs::read(&path).unwrap();
    // Every entry but 0 and 15 one higher (two entries a byte), then the checksum made to
    // match: the payload's xxh3-64 seeded with the header's own, its checksum zeroed.
    let payload_at = fifteen::pdb::PAYLOAD_OFFSET as usize;
    for b in &mut bytes[payload_at..] {
        let raise = |n: u8| if n == 0 || n == 15 { n } else { n + 1 };
        *b = raise(*b & 15) | (raise(*b >> 4) << 4);
    }
    let (sum_at, header_len) = (77, 93);
    let mut header = bytes[..header_len].to_vec();
    header[sum_at..sum_at + 8].fill(0);
    let seed = xxhash_rust::xxh3::xxh3_64(&header);
    let sum = xxhash_rust::xxh3::xxh3_64_with_seed(&bytes[payload_at..], seed);
    bytes[sum_at..sum_at + 8].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let listed = fifteen(&["tables", "verify", "--tables", tables]);
    assert_eq!(listed.code, 0, "the checksum matches: {}", listed.stderr);

    // Each board on its own: every one is refused, or solved in its true distance.
    let random = fifteen(&["random", "--size", "3", "--count", "40", "--seed", "3"]);
    let mut refused = 0;
    for line in random.stdout.lines() {
        let out = fifteen(&["solve", line, "--format", "json", "--tables", tables]);
        let r = &common::json_lines(&out.stdout)[0];
        if r["kind"] == "tables" {
            assert_eq!(out.code, 2, "{line}: {}", out.stderr);
            let error = r["error"].as_str().unwrap();
            assert!(error.contains("the estimate is not admissible"), "{error}");
            refused += 1;
        } else {
            assert_eq!(out.code, 0, "{line}: {}", out.stderr);
            assert_eq!(
                r["length"].as_u64(),
                Some(u64::from(dist[&board(line)])),
                "{r}"
            );
        }
    }
    assert!(refused > 0);
}
