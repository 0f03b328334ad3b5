//! The teaching commands as a user runs them: `solve --algorithm`, the course's problem
//! files and `--format report`, `compare`.

mod common;

use common::{json_lines, run};
use fifteen::check::check_solution;
use fifteen::classic::course::{self, read_report};
use fifteen::{Goal, HeuristicKind, Solver};

fn data(name: &str) -> String {
    format!("{}/data/course/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every example problem file: read, solved, written as a report that reads back to the
/// same problem, whose moves replay to the goal, whose `f` values are `g + W*h` of the
/// path, non-decreasing for the consistent Manhattan distance at W = 1.
#[test]
fn course_files_round_trip() {
    for name in ["input1.txt", "input2.txt", "input3.txt"] {
        let path = data(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(course::is_problem(&text));
        let problem = course::parse(&text).unwrap();
        let out = run(&["solve", "-i", &path, "--format", "report"], None);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let r = read_report(&out.stdout).unwrap();
        assert_eq!(r.problem, problem, "{name}");
        assert_eq!(r.depth as usize, r.moves.len());
        assert_eq!(r.f.len(), r.moves.len() + 1);
        let goal = Goal::from_board(problem.goal);
        assert_eq!(
            check_solution(&problem.start, &goal, &r.moves),
            Ok(r.moves.len())
        );
        // f = g + W*h along the path, h Manhattan (the course's default).
        let md = Solver::new(HeuristicKind::Manhattan);
        let mut b = problem.start;
        let w = problem.weight;
        for (g, &f) in r.f.iter().enumerate() {
            let h = md.estimate(&b, &goal);
            let want = (w.g as f64 * g as f64 + w.h as f64 * h as f64) / w.g as f64;
            assert!(
                (f - want).abs() < 1e-9,
                "{name}: f {f} at g {g}, want {want}"
            );
            if g < r.moves.len() {
                b = b.apply(r.moves[g]).unwrap();
            }
        }
        if w.is_one() {
            assert!(r.f.windows(2).all(|p| p[0] <= p[1]), "{name}: {:?}", r.f);
        }
        // The report's own problem, written as a problem file, gives the same report.
        let again = format!(
            "{}\n\n{}\n{}",
            r.problem.weight_text,
            grid_of(&out.stdout, 0),
            grid_of(&out.stdout, 1)
        );
        let dir = tempfile::tempdir().unwrap();
        let file = common::write(dir.path(), "again.txt", &again);
        let out2 = run(&["solve", "-i", &file, "--format", "report"], None);
        assert_eq!(out2.stdout, out.stdout, "{name}");
        // Saved by an editor that starts with a byte-order mark and ends lines with CRLF:
        // the same problem, the same report.
        let edited = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        let file = common::write(dir.path(), "edited.txt", &edited);
        let out3 = run(&["solve", "-i", &file, "--format", "report"], None);
        assert_eq!(out3.stdout, out.stdout, "{name}: {}", out3.stderr);
        // And the text and JSON outputs say the same length and nodes.
        let json = run(&["solve", "-i", &path, "--format", "json"], None);
        let rec = &json_lines(&json.stdout)[0];
        assert_eq!(rec["length"], r.depth);
        assert_eq!(rec["generated"], r.generated);
        assert_eq!(rec["algorithm"], "astar");
        assert_eq!(rec["optimal"], w.is_one());
    }
}

/// A problem file named `name` holding `text`, in a directory of its own (kept while the
/// `TempDir` lives), and its path.
fn problem_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(dir.path(), name, text);
    (dir, file)
}

/// The `k`-th grid (from 0) of a report, with its trailing newline.
fn grid_of(report: &str, k: usize) -> String {
    report.split("\n\n").nth(k).unwrap().to_string() + "\n"
}

/// `--weight` searches a problem file with another weight than its W: the report's W and
/// f values are then the weight searched, as its N and moves are that search's.
#[test]
fn a_report_says_the_weight_searched() {
    let (_dir, file) = problem_file(
        "p.txt",
        "1.2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n",
    );
    // Manhattan distance 2, 1, 0 along the path D R: f = g + W*h.
    for (extra, w, f) in [
        (&[][..], "1.2", "2.4 2.2 2"),
        (&["--weight", "1"][..], "1", "2 2 2"),
        (&["--weight", "1.5"][..], "1.5", "3 2.5 2"),
    ] {
        let args = [&["solve", "-i", &file, "--format", "report"][..], extra].concat();
        let out = run(&args, None);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let tail: Vec<&str> = out.stdout.lines().rev().take(5).collect();
        assert_eq!(tail, [f, "D R", "8", "2", w], "{args:?}: {}", out.stdout);
    }
}

#[test]
fn a_bad_problem_file_is_refused_with_its_line() {
    let (_dir, file) = problem_file("bad.txt", "1\n\n1 2 3\n4 0 6\n7 5\n\n1 2 3\n4 5 6\n7 8 0\n");
    let out = run(&["solve", "-i", &file], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("line 5"), "{}", out.stderr);
}

/// A problem file whose start cannot reach its goal fails as any instance does: a record
/// of kind `unsolvable` with `--format json` (it printed nothing there before), a line on
/// stderr naming the instance otherwise; exit status 1, and no table built for it.
#[test]
fn an_unsolvable_problem_file_fails_as_an_instance() {
    let (dir, file) = problem_file(
        "unsolvable.txt",
        "1\n\n7 2 0\n1 6 5\n4 3 8\n\n1 2 3\n8 0 4\n6 7 5\n",
    );
    let out = run(&["solve", "-i", &file, "--format", "json"], None);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 1, "{}", out.stdout);
    assert_eq!(lines[0]["kind"], "unsolvable", "{}", out.stdout);
    assert_eq!(lines[0]["id"], 1, "{}", out.stdout);
    let tables = dir.path().join("tables");
    let out = run(
        &[
            "solve",
            "-i",
            &file,
            "--heuristic",
            "pdb",
            "--tables",
            tables.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("instance 1: astar: unsolvable"),
        "{}",
        out.stderr
    );
    assert!(
        !tables.exists(),
        "tables were built for an unsolvable board"
    );
}

/// Each algorithm from the command line, with its counts in JSON; a limit is a failure
/// with the counts so far.
#[test]
fn solve_with_each_algorithm_and_limits() {
    let board = "8 6 7 2 5 4 3 0 1";
    for (algo, heuristic, optimal) in [
        ("bfs", "manhattan", true),
        ("astar", "hamming", true),
        ("astar", "linear-conflict", true),
        ("greedy", "manhattan", false),
        ("dfs", "manhattan", false),
    ] {
        let mut args = vec![
            "solve",
            board,
            "--algorithm",
            algo,
            "--heuristic",
            heuristic,
        ];
        args.extend(["--format", "json", "--max-nodes", "100000000"]);
        if algo == "dfs" {
            args.extend(["--depth-limit", "33"]);
        }
        let out = run(&args, None);
        assert_eq!(out.code, 0, "{algo}: {}", out.stderr);
        let rec = &json_lines(&out.stdout)[0];
        assert_eq!(rec["algorithm"], algo);
        assert_eq!(rec["optimal"], optimal, "{algo}");
        if optimal {
            assert_eq!(rec["length"], 31);
        }
        for field in ["expanded", "generated", "peak_frontier", "memory_bytes"] {
            assert!(rec[field].as_u64().is_some(), "{algo} {field}");
        }
        assert_eq!(rec["closed"].is_u64(), algo != "dfs", "{algo}");
    }
    let out = run(
        &["solve", board, "--algorithm", "bfs", "--max-nodes", "1000"],
        None,
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("(node limit reached) after 100"),
        "{}",
        out.stderr
    );
    let out = run(
        &[
            "solve",
            board,
            "--algorithm",
            "astar",
            "--heuristic",
            "hamming",
            "--max-memory",
            "64K",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 1);
    let rec = &json_lines(&out.stdout)[0];
    assert_eq!(rec["kind"], "limit");
    assert!(rec["memory_bytes"].as_u64().unwrap() <= 65536);
    assert!(rec["error"].as_str().unwrap().contains("memory limit"));
}

/// `compare` on a 3x3 board: a row each, the optimal rows agreeing on the length.
#[test]
fn compare_a_3x3_board() {
    let out = run(
        &[
            "compare",
            "8 6 7 2 5 4 3 0 1",
            "--no-build",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows = json_lines(&out.stdout);
    assert_eq!(rows.len(), 14);
    let mut optimal = 0;
    for r in &rows {
        if r["optimal"] == true {
            assert_eq!(r["length"], 31, "{r}");
            optimal += 1;
        }
        if r["error"].is_string() {
            assert_eq!(r["kind"], "limit");
            assert!(
                r["error"].as_str().unwrap().starts_with("instance 1: "),
                "{r}"
            );
        } else {
            assert_eq!(
                r["moves"].as_str().unwrap().len() as u64,
                r["length"],
                "{r}"
            );
        }
    }
    assert!(optimal >= 8);
    // Rows are result records: `check` replays each solved row's moves (they had none).
    let solved: String = out
        .stdout
        .lines()
        .filter(|l| !l.contains("\"error\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let check = run(&["check", "-"], Some(&solved));
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let solved = rows.iter().filter(|r| r["moves"].is_string()).count();
    assert!(
        check.stdout.contains(&format!("{solved} ok, 0 failed")),
        "{}",
        check.stdout
    );
    let text = run(&["compare", "8 6 7 2 5 4 3 0 1", "--no-build"], None);
    assert_eq!(text.code, 0);
    assert_eq!(text.stdout.lines().count(), 4 + 14);
}

/// `compare` takes one board: several arguments that each make one are refused, saying so
/// (they used to be joined into one board, refused for a repeated number); its numbers or
/// rows as several arguments, or a list in brackets, are one board.
#[test]
fn compare_takes_one_board() {
    let out = run(
        &[
            "compare",
            "1 2 3 4 5 6 7 0 8",
            "1 2 3 4 5 6 0 7 8",
            "--no-build",
        ],
        None,
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert_eq!(
        out.stderr.trim_end(),
        "error: compare takes one board, and each of its 2 arguments makes one: give them \
         one at a time, or solve them all with `fifteen solve BOARD...`"
    );
    for board in [
        &["1 2 3", "4 5 6", "7 0 8"][..],
        &["1", "2", "3", "4", "5", "6", "7", "0", "8"],
        &["[[1, 2, 3], [4, 5, 6], [7, 0, 8]]"],
        &["[[1, 2, 3],\n [4, 5, 6],\n [7, 0, 8]]"],
    ] {
        let mut args = vec![
            "compare",
            "--no-build",
            "--format",
            "json",
            "--max-nodes",
            "1000",
        ];
        args.extend_from_slice(board);
        let out = run(&args, None);
        assert_eq!(out.code, 0, "{board:?}: {}", out.stderr);
        let rows = json_lines(&out.stdout);
        assert_eq!(
            rows[0]["tiles"],
            serde_json::json!([1, 2, 3, 4, 5, 6, 7, 0, 8]),
            "{board:?}"
        );
    }
}

/// A course problem file given where an instance file goes, or with oblong grids, is
/// refused as what it is (exit status 2), not read as boards of its own.
#[test]
fn a_course_file_is_one_where_it_does_not_go_and_with_oblong_grids() {
    let out = run(&["bench", &data("input1.txt")], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("a course problem file"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("fifteen solve -i"), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(
        dir.path(),
        "oblong.txt",
        "1\n\n7 2 0 1\n6 5 4 3\n\n1 2 3 4\n5 6 7 0\n",
    );
    let out = run(&["solve", "-i", &file], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("line 3: a grid of 2 lines of 4 numbers"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

/// Reports of several boards are parted by one blank line, each the report of its board
/// alone; a bad line between them prints no report and no extra gap.
#[test]
fn reports_of_several_boards_are_parted_by_a_blank_line() {
    let boards = [
        "1 2 3 4 5 6 0 7 8",
        "1 2 3 4 0 6 7 5 8",
        "8 1 3 4 0 2 7 6 5",
    ];
    let alone: Vec<String> = boards
        .iter()
        .map(|b| {
            let o = run(
                &["solve", "--heuristic", "manhattan", "--format", "report", b],
                None,
            );
            assert_eq!(o.code, 0, "{}", o.stderr);
            read_report(&o.stdout).unwrap();
            o.stdout
        })
        .collect();
    let o = run(
        &[
            "solve",
            "--heuristic",
            "manhattan",
            "--format",
            "report",
            boards[0],
            "1 2 3 4 5 6 7 8 1",
            boards[1],
            boards[2],
        ],
        None,
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("appears more than once"), "{}", o.stderr);
    assert_eq!(o.stdout, alone.join("\n"));
}
