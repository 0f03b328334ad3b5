//! Options off the happy path: every numeric option's range (refused before any work, with
//! the range in the message), oversized partitions, the `kind` of failed instances, `tables
//! --format json`, `check --size`, `--quiet` and batch progress, completions and man pages.
//! Each case is a row: the command, its input, the exit status and the first line it must
//! give.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::common::{self, Out};
use super::{command, quiet_end, tables3, wait, NEAR};

/// A 3x3 board (31 moves) that linear conflict solves in microseconds.
const B3: &str = "8 6 7 2 5 4 3 0 1";

/// The first line a person sees: stderr's, or stdout's when stderr is empty.
fn first_line(o: &Out) -> &str {
    let text = if o.stderr.trim().is_empty() {
        &o.stdout
    } else {
        &o.stderr
    };
    text.lines().next().unwrap_or("")
}

/// `fifteen solve` with linear conflict (no tables), `extra`, and the 3x3 board.
fn solve_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    [&["solve", "--heuristic", "linear-conflict"], extra, &[B3]].concat()
}

/// Strings for [`command`].
fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// The only line of JSON output, parsed.
fn one_record(o: &Out) -> serde_json::Value {
    let v = common::json_lines(&o.stdout);
    assert_eq!(v.len(), 1, "{}", o.stdout);
    v.into_iter().next().unwrap()
}

#[test]
fn every_option_refuses_values_outside_its_range_and_says_the_range() {
    const THREADS: &str = "give a whole number from 1 to 1024";
    const SECONDS: &str = "give seconds, or a number with s, m, h or d (90, 5m, 2h), more than 0 and at most 31536000 seconds (a year)";
    const NODES: &str = "give a whole number from 1 to 1000000000000000000";
    const WEIGHT: &str = "give a number from 1 to 100";
    const U64: &str = "give a whole number from 0 to 18446744073709551615";
    const WALK: &str = "give a whole number from 0 to 1000000";
    const PACE: &str = "give a whole number from 0 to 10000";
    const SIZE: &str = "rows and columns at least 2, at most 36 cells";
    let mut rows: Vec<(Vec<&str>, &str)> = Vec::new();
    for v in ["0", "-1", "1025", "100000", "1.5", "x", "", "nan", "1e3"] {
        rows.push((solve_with(&["--threads", v]), THREADS));
        rows.push((vec!["bench", "data/korf100.txt", "--threads", v], THREADS));
    }
    for v in [
        "-1", "0", "-0", "nan", "inf", "-inf", "1e300", "31536001", "", "soon", "1x", "366d", "0m",
    ] {
        rows.push((solve_with(&["--timeout", v]), SECONDS));
        rows.push((vec!["bench", "data/korf100.txt", "--timeout", v], SECONDS));
    }
    for v in [
        "0",
        "-1",
        "1000000000000000001",
        "99999999999999999999",
        "1e9",
        "1.5",
        "",
    ] {
        rows.push((solve_with(&["--max-nodes", v]), NODES));
        rows.push((vec!["bench", "data/korf100.txt", "--max-nodes", v], NODES));
    }
    for v in [
        "0", "0.99", "-1", "-inf", "100.01", "nan", "inf", "1e300", "x", "",
    ] {
        rows.push((solve_with(&["--weight", v]), WEIGHT));
    }
    for v in ["-1", "18446744073709551616", "1.5", "x", ""] {
        rows.push((vec!["random", "--count", v], U64));
        rows.push((vec!["random", "--seed", v], U64));
        rows.push((vec!["play", "--seed", v], U64));
    }
    for v in ["-1", "1000001", "1e6", "x", ""] {
        rows.push((vec!["random", "--walk", v], WALK));
    }
    for v in ["-1", "10001", "0.5", "x", ""] {
        rows.push((vec!["play", "--pace", v], PACE));
    }
    for v in ["0", "1", "1x9", "7", "6x7", "100x100", "-3", "3x", "x", ""] {
        rows.push((solve_with(&["--size", v]), SIZE));
        rows.push((vec!["random", "--size", v], SIZE));
        rows.push((vec!["check", "--size", v, B3, "--moves", "U"], SIZE));
        rows.push((vec!["play", "--size", v], SIZE));
    }
    for (args, fragment) in &rows {
        let o = common::run(args, None);
        let ctx = format!("fifteen {args:?}: {}", o.stderr);
        assert_eq!(o.code, 2, "{ctx}");
        let line = first_line(&o);
        assert!(line.starts_with("error: invalid value"), "{ctx}");
        assert!(line.contains(fragment), "{ctx}");
        assert!(o.stdout.is_empty(), "{ctx}");
    }
}

/// A value with a leading minus is that option's value, refused with the option's range or
/// form, for the options the table above leaves out: clap would otherwise call `-1` an
/// unexpected argument and advise `-- -1`, which makes it a board or a file name.
#[test]
fn negative_values_of_every_option_are_refused_as_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let out = out.to_str().unwrap();
    let search = |extra: &[&'static str]| -> Vec<String> {
        let mut v = strings(&["split", "search", "frontier.json", "--threshold", "31"]);
        v.extend(strings(
            &[&["--part", "1/1"][..], extra, &["-o", out]].concat(),
        ));
        v
    };
    let rows: Vec<(Vec<String>, &str)> = vec![
        (strings(&solve_with(&["--shard", "-1/2"])), "is not K/N"),
        (
            strings(&["bench", "data/korf100.txt", "--shard", "-1/2"]),
            "is not K/N",
        ),
        (
            strings(&["random", "--seed", "1", "--shard", "-1/2"]),
            "is not K/N",
        ),
        (
            strings(&["split", "frontier", B3, "--depth", "-1", "-o", out]),
            "give a whole number from 1 to 16",
        ),
        (
            strings(&["split", "frontier", B3, "--size", "-3", "-o", out]),
            "rows and columns at least 2",
        ),
        (
            [
                strings(&["split", "search", "frontier.json", "--threshold", "-1"]),
                strings(&["--part", "1/1", "-o", out]),
            ]
            .concat(),
            "give a whole number from 0 to 4294967294",
        ),
        (
            [
                strings(&["split", "search", "frontier.json", "--threshold", "31"]),
                strings(&["--part", "-1/2", "-o", out]),
            ]
            .concat(),
            "is not a part",
        ),
        (search(&["--timeout", "-1"]), "more than 0 and at most"),
        (
            strings(&["split", "reduce", "part.json", "--threshold", "-1"]),
            "give a whole number from 0 to 4294967294",
        ),
        (
            strings(&["play", "--think", "-1"]),
            "give seconds from 0.1 to 3600",
        ),
    ];
    for (args, fragment) in &rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = common::run(&args, None);
        let ctx = format!("fifteen {args:?}: {}", o.stderr);
        assert_eq!(o.code, 2, "{ctx}");
        let line = first_line(&o);
        assert!(line.starts_with("error: invalid value '-"), "{ctx}");
        assert!(line.contains(fragment), "{ctx}");
        assert!(!o.stderr.contains("-- -1"), "{ctx}");
        assert!(o.stdout.is_empty(), "{ctx}");
    }
}

/// `--steps` draws boards for people: with output meant for programs it is refused, with
/// the reason, before any work, rather than left out without a word.
#[test]
fn steps_with_output_for_programs_is_refused_with_the_reason() {
    for (extra, fragment) in [
        (&["--format", "json"][..], "does not go with --format json"),
        (
            &["-o", "/nonexistent-dir/out.jsonl"][..],
            "does not go with --output",
        ),
        (
            &["--algorithm", "bfs"][..],
            "go with the solver's own search",
        ),
    ] {
        let args = solve_with(&[&["--steps"], extra].concat());
        let o = common::run(&args, None);
        let ctx = format!("fifteen {args:?}: {}", o.stderr);
        assert_eq!(o.code, 2, "{ctx}");
        assert!(first_line(&o).starts_with("error: "), "{ctx}");
        assert!(first_line(&o).contains(fragment), "{ctx}");
        assert!(o.stdout.is_empty(), "{ctx}");
    }
    // Alone, it draws the boards.
    let o = common::run(&solve_with(&["--steps"]), None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("move 31/31: blank"), "{}", o.stdout);
    // Each move names the tile a hand slides: the one the blank swaps with, going the
    // other way. Checked on the cells, apart from the program's boards.
    let mut cells: Vec<u32> = B3.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut slides = 0;
    for line in o.stdout.lines().filter(|l| l.starts_with("move ")) {
        let (_, rest) = line.split_once(": blank ").unwrap();
        let letter = rest.chars().next().unwrap();
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        let (next, way) = match letter {
            'U' => (blank - 3, "down"),
            'D' => (blank + 3, "up"),
            'L' => (blank - 1, "right"),
            'R' => (blank + 1, "left"),
            other => panic!("{other} in {line}"),
        };
        let said = format!("{letter} (slide {} {way}) -> ", cells[next]);
        assert!(rest.starts_with(&said), "{line}: want {said}");
        cells.swap(blank, next);
        slides += 1;
    }
    assert_eq!(slides, 31);
    assert_eq!(cells, [1, 2, 3, 4, 5, 6, 7, 8, 0]);
}

#[test]
fn values_at_the_ends_of_the_ranges_are_accepted() {
    // (args, exit status, fragment of the first line)
    #[rustfmt::skip]
    let rows: Vec<(Vec<&str>, i32, &str)> = vec![
        (solve_with(&["--threads", "1"]), 0, "instance 1"),
        (solve_with(&["--threads", "1024"]), 0, "instance 1"),
        (solve_with(&["--timeout", "31536000"]), 0, "instance 1"),
        (solve_with(&["--timeout", " 2.5 "]), 0, "instance 1"),
        (solve_with(&["--timeout", "5m"]), 0, "instance 1"),
        (solve_with(&["--timeout", "365d"]), 0, "instance 1"),
        (solve_with(&["--max-nodes", "1000000000000000000"]), 0, "instance 1"),
        (solve_with(&["--weight", "100"]), 0, "instance 1"),
        (solve_with(&["--weight", "1"]), 0, "instance 1"),
        // Limits too small to finish are limits, not usage errors.
        (solve_with(&["--timeout", "1e-9"]), 1, "time limit reached"),
        (solve_with(&["--max-nodes", "1"]), 1, "node limit reached"),
        (vec!["random", "--count", "0"], 0, ""),
        (vec!["random", "--seed", "18446744073709551615", "--size", "3"], 0, " "),
        (vec!["random", "--walk", "1000000", "--seed", "0"], 0, " "),
        (vec!["random", "--walk", "0", "--size", "3"], 0, "1 2 3 4 5 6 7 8 0"),
        // The arguments pass; then play wants a terminal.
        (vec!["play", "--pace", "10000", "--seed", "0"], 2, "needs a terminal"),
        (vec!["play", "--pace", "0", "--size", "6"], 2, "needs a terminal"),
        // A bad board is said as such, terminal or not.
        (vec!["play", "1 2 3"], 2, "3 numbers do not make a board"),

    ];
    for (args, code, fragment) in rows {
        let o = common::run(&args, None);
        let ctx = format!("fifteen {args:?}: {}", o.stderr);
        assert_eq!(o.code, code, "{ctx}");
        assert!(first_line(&o).contains(fragment), "{ctx}: {}", o.stdout);
    }
}

/// `play` reads no file: an unsolvable board's advice on the other goal is its option alone.
#[test]
fn play_gives_the_other_goal_as_its_option_alone() {
    let o = common::run(&["play", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"], None);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.trim_end().ends_with(
            "as with two tiles swapped); it can reach the blank-first goal (0 1 2 ..., \
             Korf's): give --goal blank-first"
        ),
        "{}",
        o.stderr
    );
}

#[test]
fn oversized_partitions_and_bad_build_options_are_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let limit = "a table may have at most 2147483648 (2^31) entries";
    let korf = "data/korf100.txt";
    // (binary, args, exit status, fragment of the first stderr line)
    #[rustfmt::skip]
    let rows: Vec<(&str, Vec<&str>, i32, &str)> = vec![
        ("fifteen", vec!["solve", "--tables", dir, "--partition", "9-6", NEAR], 2, "4151347200 entries"),
        ("fifteen", vec!["solve", "--tables", dir, "--partition", "12-3", NEAR], 2, limit),
        ("fifteen", vec!["solve", "--tables", dir, "--partition", "15", NEAR], 2, limit),
        ("fifteen", vec!["bench", korf, "--tables", dir, "--partition", "9-6"], 2, limit),
        ("build-pdb", vec!["--partition", "9-6", "--out", dir], 2, "4151347200 entries"),
        ("build-pdb", vec!["--size", "5", "--partition", "7-6-6-5", "--out", dir], 2, "2422728000 entries"),
        ("build-pdb", vec!["--size", "4x8", "--partition", "16-15", "--out", dir], 2, limit),
        // The library's own checks come first, with their own message.
        ("build-pdb", vec!["--partition", "9-9", "--out", dir], 2, "must add up to 15"),
        ("build-pdb", vec!["--size", "3x4", "--partition", "0-11", "--out", dir], 2, "every pattern needs at least one tile"),
        ("build-pdb", vec!["--size", "3x4", "--partition", "6-5-0", "--out", dir], 2, "every pattern needs at least one tile"),
        ("build-pdb", vec!["--threads", "0", "--out", dir], 2, "from 1 to 1024"),
        ("build-pdb", vec!["--threads", "1025", "--out", dir], 2, "from 1 to 1024"),
        ("build-pdb", vec!["--threads", "-4", "--out", dir], 2, "from 1 to 1024"),
        ("build-pdb", vec!["--blank", "-1", "--out", dir], 2, "from 0 to 35"),
        ("build-pdb", vec!["--blank", "36", "--out", dir], 2, "from 0 to 35"),
        ("build-pdb", vec!["--blank", "x", "--out", dir], 2, "from 0 to 35"),
        ("build-pdb", vec!["--size", "3", "--blank", "9", "--out", dir], 2, "not a cell of a 3x3 board (give 0 to 8)"),
        ("build-pdb", vec!["--size", "1x9", "--out", dir], 2, "rows and columns at least 2"),
        // Boards beyond the tables' 32 cells: no table at all, whatever the partition.
        ("build-pdb", vec!["--size", "6", "--out", dir], 2, "pattern databases go up to 32 cells, and a 6x6 board has 36"),
        ("build-pdb", vec!["--size", "6", "--partition", "4-4-4-4-4-4-4-4-3", "--out", dir], 2, "go up to 32 cells"),
        // More patterns than the search reads: refused, not built nor quietly replaced.
        ("build-pdb", vec!["--size", "3x4", "--partition", "1-1-1-1-1-1-1-1-1-1-1", "--out", dir], 2, "has 11 patterns; the search takes at most 8"),
        ("fifteen", vec!["solve", "--tables", dir, "--partition", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1", NEAR], 2, "has 15 patterns"),
        ("fifteen", vec!["bench", korf, "--tables", dir, "--partition", "2-2-2-2-2-2-1-1-1"], 2, "has 9 patterns; the search takes at most 8"),
        ("fifteen", vec!["split", "frontier", "--tables", dir, "--partition", "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1", "-o", "/dev/null", NEAR], 2, "has 15 patterns"),
        // A partition with an estimate that reads no tables: its answer would look like the
        // partition's.
        ("fifteen", vec!["solve", "--partition", "4-4", "--heuristic", "linear-conflict", B3], 2, "--partition chooses the tables of --heuristic pdb, not of linear-conflict"),
        ("fifteen", vec!["bench", korf, "--partition", "8-7", "--heuristic", "manhattan"], 2, "not of manhattan"),
        ("fifteen", vec!["split", "frontier", "--partition", "4-4", "--heuristic", "manhattan", "-o", "/dev/null", B3], 2, "not of manhattan"),
        // A classic search's limits where no classic search runs; bench's classic searches.
        ("fifteen", vec!["solve", "--depth-limit", "5", NEAR], 2, "limit a classic search"),
        ("fifteen", vec!["bench", korf, "--max-memory", "1G"], 2, "limit a classic search"),
        // A weight where the search reads no h against g: it ran unweighted, silently.
        ("fifteen", vec!["solve", "--algorithm", "bfs", "--weight", "1.5", NEAR], 2, "only --algorithm astar and ida use (bfs does not)"),
        ("fifteen", vec!["solve", "--algorithm", "greedy", "--weight", "2", NEAR], 2, "(greedy does not)"),
        // A depth limit where the search goes by no depth limit: it ran without one, silently.
        ("fifteen", vec!["solve", "--algorithm", "astar", "--depth-limit", "1", NEAR], 2, "--depth-limit bounds how deep --algorithm dfs goes (astar does not use it)"),
        ("fifteen", vec!["solve", "--algorithm", "ida", "--depth-limit", "1", NEAR], 2, "(ida does not use it)"),
        ("fifteen", vec!["bench", korf, "--format", "report"], 2, "leave out --algorithm and --format report"),
        // A board where bench takes a file: said to be a board, with the solve to give.
        ("fifteen", vec!["bench", "1 2 3 4 5 6 0 7 8"], 2, "it is a board: `bench` reads a file of instances"),
    ];
    for (bin, args, code, fragment) in rows {
        let args = strings(&args);
        let what = format!("{bin} {args:?}");
        let mut child = command(bin, &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A refusal is immediate; a build that started would not be.
        let status = wait(&mut child, Duration::from_secs(20), &what);
        let mut err = String::new();
        let mut stderr = child.stderr.take().unwrap();
        stderr.read_to_string(&mut err).unwrap();
        assert_eq!(status.code(), Some(code), "{what}: {err}");
        let line = err.lines().next().unwrap_or("");
        assert!(line.starts_with("error:"), "{what}: {err}");
        assert!(line.contains(fragment), "{what}: {err}");
    }
    // Nothing was written, not even a temporary file.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn failed_instances_in_json_say_their_kind() {
    let lc = [
        "solve",
        "--heuristic",
        "linear-conflict",
        "--format",
        "json",
    ];
    // (extra args, stdin, kind, fragment of the error)
    #[rustfmt::skip]
    let rows: Vec<(Vec<&str>, Option<&str>, &str, &str)> = vec![
        (vec!["1 2 3"], None, "parse", "3 numbers do not make a board"),
        (vec!["1 2 3 4 5 6 7 8 8"], None, "parse", "appears more than once"),
        (vec!["1 2 3 4 5 6 7 8 x"], None, "parse", "'x' is not a number"),
        (vec!["-"], Some("goal: nonsense\n1 2 3 4 5 6 7 8 0\n"), "parse", "unknown goal"),
        (vec!["-"], Some("size: 9x9\n1 2 3 4 5 6 7 8 0\n"), "parse", "bad size"),
        (vec!["--size", "3x4", "1 2 3 4 5 6 7 8 9"], None, "parse", "9 numbers given, 12 expected"),
        (vec!["--goal", "1 2 3 4 5 6 7 8 0", NEAR], None, "parse", "the goal has 9 cells"),
        (vec!["2 1 3 4 5 6 7 8 0"], None, "unsolvable", "unsolvable"),
        (vec!["--goal", "blank-first", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"], None, "unsolvable", "unsolvable"),
        (vec!["--max-nodes", "100", B3], None, "limit", "node limit reached"),
        (vec!["--timeout", "1e-9", B3], None, "limit", "time limit reached"),
    ];
    for (extra, stdin, kind, fragment) in rows {
        let args = [&lc[..], &extra].concat();
        let o = common::run(&args, stdin);
        let ctx = format!("{args:?}: {} {}", o.stdout, o.stderr);
        assert_eq!(o.code, 1, "{ctx}");
        // The first record (a bad `goal:` or `size:` line's own; the board after it is
        // another instance).
        let r = common::json_lines(&o.stdout).remove(0);
        assert_eq!(r["kind"], kind, "{ctx}");
        assert!(r["error"].as_str().unwrap().contains(fragment), "{ctx}");
        assert!(
            r.get("moves").is_none() && r.get("length").is_none(),
            "{ctx}"
        );
        if kind == "limit" {
            // What the search proved before it stopped: at least the estimate at the
            // start (21 for B3 with linear conflict), at most the optimum (31).
            let lb = r["lower_bound"].as_u64().unwrap();
            assert!((21..=31).contains(&lb), "{ctx}");
            assert!(r["nodes"].as_u64().unwrap() >= 1, "{ctx}");
        } else {
            assert!(r.get("lower_bound").is_none(), "{ctx}");
            assert!(r.get("nodes").is_none(), "{ctx}");
        }
    }
    // Failures of `ID LEN` lines carry the known length, an unsolvable board's too
    // (docs/formats.md, `known`); a length that does not read is none.
    let o = common::run(
        &[&lc[..], &["-"]].concat(),
        Some("u 5 1 2 3 4 5 6 8 7 0\nl 31 8 6 7 2 5 4 3 0 1\nb 7 1 2 3\n"),
    );
    let known: Vec<(String, serde_json::Value)> = common::json_lines(&o.stdout)
        .into_iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap_or("").to_string(),
                r["known"].clone(),
            )
        })
        .collect();
    assert_eq!(
        known,
        [
            ("unsolvable".to_string(), 5.into()),
            (String::new(), 31.into()),
            ("parse".to_string(), serde_json::Value::Null)
        ],
        "{}",
        o.stdout
    );
    // A node limit is reached: at least that many nodes were spent.
    let o = common::run(&[&lc[..], &["--max-nodes", "100", B3]].concat(), None);
    assert!(
        one_record(&o)["nodes"].as_u64().unwrap() >= 100,
        "{}",
        o.stdout
    );

    // Unusable tables: the instance's record says so, the batch stops, exit status 2.
    let tables = tables3();
    let dir = tables.path().to_str().unwrap();
    let path = std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(5000).unwrap();
    let o = common::run(
        &["solve", "--tables", dir, "--format", "json", B3, B3],
        None,
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    let r = one_record(&o);
    assert_eq!((&r["kind"], &r["id"]), (&"tables".into(), &1.into()), "{r}");
    assert!(r["error"]
        .as_str()
        .unwrap()
        .contains(path.to_str().unwrap()));
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    assert!(o.stderr.contains("build-pdb"), "{}", o.stderr);
    // In text the error is said once, on stderr.
    let o = common::run(&["solve", "--tables", dir, B3], None);
    assert_eq!((o.code, o.stdout.as_str()), (2, ""), "{}", o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);

    // check reads records with a kind back: a failure, not a solution.
    let o = common::run(&[&lc[..], &["2 1 3 4 5 6 7 8 0", B3]].concat(), None);
    let c = common::run(&["check", "-"], Some(&o.stdout));
    assert_eq!(c.code, 1, "{}", c.stdout);
    assert!(
        c.stdout.contains("2 results: 1 ok, 1 failed"),
        "{}",
        c.stdout
    );
}

#[test]
fn tables_list_and_verify_speak_json() {
    let tables = tables3();
    let dir = tables.path().to_str().unwrap();
    for (action, checked) in [("list", "header"), ("verify", "checksum")] {
        let o = common::run(
            &["tables", action, "--tables", dir, "--format", "json"],
            None,
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let r = one_record(&o);
        assert_eq!(
            (&r["status"], &r["checked"]),
            (&"ok".into(), &checked.into())
        );
        assert_eq!((&r["size"], &r["blank"]), (&"3x3".into(), &0.into()));
        assert_eq!(r["tiles"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8]));
        // 9!/1! placements of 8 tiles on 9 cells, two a byte after a 4096-byte header.
        assert_eq!((&r["entries"], &r["clamped"]), (&362880.into(), &0.into()));
        assert_eq!(r["bytes"], 4096 + 362880 / 2);
        let path = Path::new(r["path"].as_str().unwrap());
        assert_eq!(std::fs::metadata(path).unwrap().len(), 4096 + 362880 / 2);
        assert!(r.get("error").is_none());
    }
    // The option may come before the action too.
    let o = common::run(
        &["tables", "--format", "json", "list", "--tables", dir],
        None,
    );
    assert_eq!(one_record(&o)["status"], "ok");

    // A damaged table: status bad, the error names it, exit status 1.
    let good = std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bad = tables.path().join("3x3-b0-1.2.3.4.5.6.7.8.bad.pdb");
    std::fs::write(&bad, &std::fs::read(&good).unwrap()[..100]).unwrap();
    let o = common::run(
        &["tables", "verify", "--tables", dir, "--format", "json"],
        None,
    );
    assert_eq!(o.code, 1, "{}", o.stdout);
    let v = common::json_lines(&o.stdout);
    assert_eq!(v.len(), 2, "{}", o.stdout);
    let b = v.iter().find(|r| r["status"] == "bad").expect("a bad row");
    assert_eq!(b["path"], bad.to_str().unwrap());
    assert!(b["error"].as_str().unwrap().contains(bad.to_str().unwrap()));
    assert!(b.get("entries").is_none());

    // No tables: no objects; people are told on stderr.
    let empty = tempfile::tempdir().unwrap();
    let e = empty.path().to_str().unwrap();
    let o = common::run(&["tables", "list", "--tables", e, "--format", "json"], None);
    assert_eq!((o.code, o.stdout.as_str()), (0, ""));
    assert!(o.stderr.contains("no tables in"), "{}", o.stderr);
    let o = common::run(&["tables", "list", "--tables", e, "--format", "yaml"], None);
    assert_eq!(o.code, 2);

    // Before the first build the directory is not there: no tables either, said so, not
    // an error (a new user's first `tables list`).
    let never = empty.path().join("not-yet");
    let n = never.to_str().unwrap();
    let o = common::run(&["tables", "list", "--tables", n], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout.trim(),
        format!("no tables in {n} (it does not exist yet: tables are built there on first use)")
    );
    let o = common::run(&["tables", "list", "--tables", n, "--format", "json"], None);
    assert_eq!((o.code, o.stdout.as_str()), (0, ""), "{}", o.stderr);
    assert!(o.stderr.contains("does not exist yet"), "{}", o.stderr);
    assert!(!never.exists());
}

#[test]
fn check_takes_the_size_of_a_non_square_board() {
    let b34 = "1 2 3 4 5 6 7 8 9 10 0 11";
    let solved = "1 2 3 4 5 6 7 8 9 10 11 0";
    // (args, exit status, fragment of the first line)
    #[rustfmt::skip]
    let rows: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["check", "--size", "3x4", b34, "--moves", "R"], 0, "ok: reaches the goal in 1 move"),
        (vec!["check", "--size", "4x3", solved, "--moves", "U"], 1, "does not reach the goal"),
        (vec!["check", "--size", "3x4", b34, "--moves", "L"], 1, "does not reach the goal"),
        (vec!["check", "--size", "3x4", solved, "--moves", "R"], 1, "off the board"),
        (vec!["check", b34, "--moves", "R"], 2, "--size RxC"),
        (vec!["check", "--size", "3", b34, "--moves", "R"], 2, "12 numbers given, 9 expected"),
        (vec!["check", "--size", "3x4", "-"], 2, "--size is for a board given with --moves"),
    ];
    for (args, code, fragment) in rows {
        let o = common::run(&args, None);
        let ctx = format!("{args:?}: {} {}", o.stdout, o.stderr);
        assert_eq!(o.code, code, "{ctx}");
        assert!(first_line(&o).contains(fragment), "{ctx}");
    }
    let args = [
        "check", "--size", "3x4", b34, "--moves", "R", "--format", "json",
    ];
    let r = one_record(&common::run(&args, None));
    assert_eq!(
        r["goal"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0])
    );
}

#[test]
fn quiet_silences_notes_and_progress_but_not_errors() {
    // A build on first use says so, unless --quiet (before or after the command).
    let loud = tempfile::tempdir().unwrap();
    let o = common::run(
        &["solve", "--tables", loud.path().to_str().unwrap(), B3],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("building the pattern databases"),
        "{}",
        o.stderr
    );
    for at_end in [false, true] {
        let quiet = tempfile::tempdir().unwrap();
        let mut args = vec!["solve", "--tables", quiet.path().to_str().unwrap(), B3];
        if at_end {
            args.push("--quiet");
        } else {
            args.insert(0, "-q");
        }
        let o = common::run(&args, None);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{args:?}");
        assert!(
            o.stdout.contains("length 31 (optimal)"),
            "{args:?}: {}",
            o.stdout
        );
        // The tables were built all the same.
        assert_eq!(std::fs::read_dir(quiet.path()).unwrap().count(), 1);
    }
    // No tables for a board (and none to be built): a note, or nothing with --quiet.
    let b5 = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let o = common::run(&["solve", "--no-build", b5], None);
    assert!(o.stderr.starts_with("note: "), "{}", o.stderr);
    let o = common::run(&["solve", "--no-build", "-q", b5], None);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    // Errors are still said.
    for args in [
        vec!["solve", "-q", "1 2 3"],
        vec!["-q", "check", "/nonexistent/r.jsonl"],
    ] {
        let o = common::run(&args, None);
        assert_ne!(o.code, 0, "{args:?}");
        assert!(o.stderr.starts_with("error: "), "{args:?}: {}", o.stderr);
    }
    // build-pdb too: its layers on stdout, nothing on stderr.
    let out = tempfile::tempdir().unwrap();
    let args = strings(&[
        "--size",
        "3",
        "--out",
        out.path().to_str().unwrap(),
        "--quiet",
    ]);
    let o = command("build-pdb", &args).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let layers = String::from_utf8_lossy(&o.stdout);
    assert!(
        layers.starts_with("pattern [1, 2, 3, 4, 5, 6, 7, 8]: 32 layers"),
        "{layers}"
    );
}

/// The `n` Korf 100 instances that linear conflict solves fastest, as an instance file.
fn easy_batch(dir: &Path, n: usize) -> String {
    let mut text = String::from("goal: blank-first\n");
    for i in common::korf_easiest(n) {
        let tiles: Vec<String> = i.board.tiles().iter().map(|t| t.to_string()).collect();
        text += &format!("{} {} {}\n", i.id, i.known.unwrap(), tiles.join(" "));
    }
    let path = dir.join("easy.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn batches_show_progress_on_a_terminal_only() {
    let tmp = tempfile::tempdir().unwrap();
    let file = easy_batch(tmp.path(), 8);

    // Not a terminal: results on stdout, nothing on stderr.
    let o = common::run(
        &["solve", "-i", &file, "--heuristic", "linear-conflict"],
        None,
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    assert_eq!(o.stdout.matches("(optimal), as expected").count(), 8);

    // On a terminal (util-linux `script` gives the command one): done/total, rate, time left.
    if Command::new("script").arg("--version").output().is_err() {
        let msg = "skipped the terminal half: no `script` (util-linux) on this machine";
        assert!(std::env::var_os("CI").is_none(), "{msg}");
        eprintln!("{msg}");
        return;
    }
    let exe = env!("CARGO_BIN_EXE_fifteen");
    let solve = format!("{exe} solve -i {file} --heuristic linear-conflict --threads 1");
    let on_terminal = |cmd: &str| -> String {
        let out = Command::new("script")
            .args(["-qec", cmd, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{cmd}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let screen = on_terminal(&format!("{solve} > /dev/null"));
    assert!(screen.contains("/8, "), "{screen:?}");
    assert!(
        screen.contains("/s, ") && screen.contains(" left"),
        "{screen:?}"
    );
    let screen = on_terminal(&format!("{solve} --quiet > /dev/null"));
    assert!(
        !screen.contains("/8") && !screen.contains(" left"),
        "{screen:?}"
    );
}

#[test]
fn completions_and_man_pages_come_from_the_command_line() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = common::run(&["completions", shell], None);
        assert_eq!(o.code, 0, "{shell}: {}", o.stderr);
        for word in ["solve", "bench", "tables", "man", "heuristic", "timeout"] {
            assert!(o.stdout.contains(word), "{shell} completion lacks {word}");
        }
        if ["bash", "zsh", "fish"].contains(&shell) {
            // Values too, where the shell completes them.
            assert!(o.stdout.contains("linear-conflict"), "{shell}");
        }
    }
    let bash = common::run(&["completions", "bash"], None).stdout;
    assert!(
        bash.contains("--tables") && bash.contains("--max-nodes"),
        "{bash}"
    );
    assert!(bash.contains("complete -F _fifteen"), "{bash}");
    if Command::new("bash").arg("--version").output().is_ok() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fifteen.bash");
        std::fs::write(&path, &bash).unwrap();
        let status = Command::new("bash").arg("-n").arg(&path).status().unwrap();
        assert!(status.success(), "bash -n refuses the completion script");
    }
    let o = common::run(&["completions", "tcsh"], None);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("possible values: bash"), "{}", o.stderr);

    let man = common::run(&["man"], None);
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(man.stdout.contains(".TH fifteen 1"), "{}", man.stdout);
    for word in [
        "solve",
        "bench",
        "random",
        "check",
        "play",
        "tables",
        "\\-\\-quiet",
    ] {
        assert!(man.stdout.contains(word), "fifteen(1) lacks {word}");
    }
    let page = common::run(&["man", "solve"], None);
    assert_eq!(page.code, 0, "{}", page.stderr);
    assert!(
        page.stdout.contains(".TH fifteen-solve 1"),
        "{}",
        page.stdout
    );
    assert!(page.stdout.contains("\\-\\-timeout"), "{}", page.stdout);
    assert!(page.stdout.contains("at most a year"), "{}", page.stdout);
    let o = common::run(&["man", "nope"], None);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.starts_with("error: no command 'nope'"),
        "{}",
        o.stderr
    );
    // Every page that a page lists under its subcommands (fifteen-split-frontier(1) ...)
    // can be printed, by its name or as words.
    let mut listed = Vec::new();
    for parent in ["split", "tables"] {
        let page = common::run(&["man", parent], None).stdout;
        for word in page.split(|c: char| c.is_whitespace() || c == '(') {
            let word = word.replace("\\-", "-");
            if word.starts_with(&format!("fifteen-{parent}-")) && !listed.contains(&word) {
                listed.push(word);
            }
        }
    }
    assert!(listed.len() >= 5, "{listed:?}");
    for name in &listed {
        let sub = &name["fifteen-".len()..];
        let o = common::run(&["man", sub], None);
        assert_eq!(o.code, 0, "{sub}: {}", o.stderr);
        assert!(o.stdout.contains(&format!(".TH {name} 1")), "{sub}");
        let words: Vec<&str> = sub.splitn(2, '-').collect();
        let o = common::run(&[&["man"][..], &words].concat(), None);
        assert_eq!(o.code, 0, "{words:?}: {}", o.stderr);
    }
    let o = common::run(&["man", "split", "frontier"], None);
    assert!(o.stdout.contains("\\-\\-depth"), "{}", o.stdout);
    let o = common::run(&["man", "split", "nope"], None);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("give one of: frontier"), "{}", o.stderr);

    let o = command("build-pdb", &strings(&["--completions", "bash"]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("--partition") && text.contains("build-pdb"),
        "{text}"
    );
    let o = command("build-pdb", &strings(&["--man"])).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains(".TH build-pdb 1"), "{text}");
    assert!(text.contains("\\-\\-partition"), "{text}");
    // A page asked for with build options is a usage error, not a build.
    let o = command("build-pdb", &strings(&["--man", "--size", "3"]))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_new_writers_fail_loudly_on_a_full_disk_and_quietly_on_a_closed_pipe() {
    let tables = tables3();
    let t = tables.path().to_str().unwrap();
    let cases = [
        ("fifteen", strings(&["completions", "bash"])),
        ("fifteen", strings(&["completions", "zsh"])),
        ("fifteen", strings(&["man"])),
        ("fifteen", strings(&["man", "solve"])),
        (
            "fifteen",
            strings(&["tables", "list", "--tables", t, "--format", "json"]),
        ),
        ("fifteen", strings(&["solve", "--format", "json", "1 2 3"])),
        ("build-pdb", strings(&["--completions", "fish"])),
        ("build-pdb", strings(&["--man"])),
    ];
    let full = Path::new("/dev/full");
    for (bin, args) in cases {
        let what = format!("{bin} {args:?}");
        let mut child = command(bin, &args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let status = wait(&mut child, Duration::from_secs(60), &what);
        // The failed instance's exit status (1) when it was written before the pipe closed.
        let failed = args.contains(&"1 2 3".to_string()) && status.code() == Some(1);
        assert!(quiet_end(status) || failed, "{what} | (closed): {status:?}");

        if !full.exists() {
            continue;
        }
        let sink = std::fs::OpenOptions::new().write(true).open(full).unwrap();
        let o = command(bin, &args).stdout(sink).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        // A page lost is exit status 2 for both programs, as a lost --help is.
        assert_eq!(o.status.code(), Some(2), "{what} > /dev/full: {err}");
        assert!(err.contains("No space left on device"), "{what}: {err}");
    }
}
