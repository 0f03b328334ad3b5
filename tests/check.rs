//! `fifteen check`: our own solutions check out, and every kind of damage to a results line
//! is caught: a changed move, a wrong claimed length, a move off the board, a cut-off line.
//! The expected verdicts are worked out here from the geometry of the moves (the blank's
//! row and column), not by asking the library's replay.

use fifteen::random::{random_board, random_walk, Rng};
use fifteen::{Board, Goal, Shape};
use serde_json::Value;

mod common;
use common::{json_lines, run, Out};

const LC: &str = "--heuristic=linear-conflict";

/// Easy 3x3 and 4x4 boards (4x4 ones short walks, so linear conflict is quick).
fn boards() -> Vec<Board> {
    let mut rng = Rng::new(7);
    let g3 = Goal::standard(Shape::new(3, 3).unwrap());
    let g4 = Goal::standard(Shape::new(4, 4).unwrap());
    let mut out = Vec::new();
    for i in 0..24 {
        out.push(match i % 3 {
            0 => random_board(&mut rng, &g3),
            1 => random_walk(&mut rng, &g4, 20),
            _ => random_walk(&mut rng, &g3, 6),
        });
    }
    out
}

/// `fifteen solve --format json` output for `boards`.
fn solved(boards: &[Board]) -> String {
    let text: String = boards.iter().map(|b| format!("{b}\n")).collect();
    let o = run(&["solve", LC, "--format", "json", "-"], Some(&text));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout.lines().count(), boards.len());
    o.stdout
}

/// The blank's (row, column) after each move, or the index of the first move that leaves
/// the `rows` x `cols` rectangle.
fn blank_path(
    rows: i32,
    cols: i32,
    start: (i32, i32),
    moves: &str,
) -> Result<Vec<(i32, i32)>, usize> {
    let mut at = start;
    let mut path = Vec::new();
    for (i, m) in moves.chars().enumerate() {
        let (dr, dc) = match m {
            'U' => (-1, 0),
            'D' => (1, 0),
            'L' => (0, -1),
            'R' => (0, 1),
            _ => panic!("{m}"),
        };
        at = (at.0 + dr, at.1 + dc);
        if at.0 < 0 || at.0 >= rows || at.1 < 0 || at.1 >= cols {
            return Err(i);
        }
        path.push(at);
    }
    Ok(path)
}

fn side(tiles: &[Value]) -> i32 {
    (tiles.len() as f64).sqrt() as i32
}

fn blank_of(tiles: &[Value], n: i32) -> (i32, i32) {
    let cell = tiles.iter().position(|t| t == 0).unwrap() as i32;
    (cell / n, cell % n)
}

#[test]
fn our_own_solutions_check_out() {
    let boards = boards();
    let results = solved(&boards);
    let o = run(&["check", "-"], Some(&results));
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), boards.len() + 1, "{}", o.stdout);
    for (i, (line, r)) in lines.iter().zip(json_lines(&results)).enumerate() {
        let len = r["length"].as_u64().unwrap();
        assert!(
            line.starts_with(&format!("line {} (id {}): ok: ", i + 1, i + 1)),
            "{line}"
        );
        assert!(line.contains(&format!("in {len} move")), "{line}");
    }
    assert_eq!(
        lines.last().unwrap(),
        &format!("{} results: {} ok, 0 failed", boards.len(), boards.len())
    );

    // The same from a file, in JSON.
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("results.jsonl");
    std::fs::write(&f, &results).unwrap();
    let o = run(
        &["check", "--format", "json", "-i", f.to_str().unwrap()],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = json_lines(&o.stdout);
    assert_eq!(v.len(), boards.len());
    for (i, (c, r)) in v.iter().zip(json_lines(&results)).enumerate() {
        assert_eq!(c["line"], i + 1);
        assert_eq!(c["id"], r["id"]);
        assert_eq!(c["ok"], true);
        assert_eq!(c["reaches_goal"], true);
        assert_eq!(c["length"], r["length"]);
        assert_eq!(c["claimed"], r["length"]);
        assert_eq!(c["length_ok"], true);
        // The moves really are as long as claimed, and end with the blank where the goal
        // has it.
        let moves = r["moves"].as_str().unwrap();
        assert_eq!(moves.len() as u64, r["length"].as_u64().unwrap());
        let tiles = r["tiles"].as_array().unwrap();
        let n = side(tiles);
        let path = blank_path(n, n, blank_of(tiles, n), moves).unwrap();
        let end = path.last().copied().unwrap_or(blank_of(tiles, n));
        assert_eq!(end, blank_of(r["goal"].as_array().unwrap(), n));
    }
}

/// Damages each results line in one way and checks that `check` reports exactly that
/// line, while the undamaged lines around it still pass.
fn damaged(results: &str, damage: impl Fn(&mut Value) -> bool) -> (Vec<usize>, Out, Out) {
    let mut hit = Vec::new();
    let mut text = String::new();
    for (i, line) in results.lines().enumerate() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        // Every third line is damaged (if the damage applies to it).
        if i % 3 == 1 && damage(&mut v) {
            hit.push(i + 1);
        }
        text.push_str(&v.to_string());
        text.push('\n');
    }
    assert!(!hit.is_empty());
    let t = run(&["check", "-"], Some(&text));
    let j = run(&["check", "--format=json", "-"], Some(&text));
    for (o, json) in [(&t, false), (&j, true)] {
        assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
        let failed: Vec<usize> = if json {
            json_lines(&o.stdout)
                .iter()
                .filter(|c| c["ok"] == false)
                .map(|c| c["line"].as_u64().unwrap() as usize)
                .collect()
        } else {
            o.stdout
                .lines()
                .filter(|l| l.contains(": FAIL: "))
                .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
                .collect()
        };
        assert_eq!(failed, hit, "{}", o.stdout);
    }
    (hit, t, j)
}

#[test]
fn a_changed_move_is_caught() {
    let results = solved(&boards());
    // Change one move to another that keeps every later move on the board. The blank then
    // ends displaced by the difference of the two directions, so never on its goal cell.
    let (hit, t, j) = damaged(&results, |v| {
        let moves = v["moves"].as_str().unwrap().to_string();
        if moves.len() < 2 {
            return false;
        }
        let tiles = v["tiles"].as_array().unwrap().clone();
        let n = side(&tiles);
        // From the middle on: changing the last move always works (every cell has two
        // moves that stay on the board).
        for i in moves.len() / 2..moves.len() {
            for alt in ['U', 'D', 'L', 'R'] {
                let mut m: Vec<char> = moves.chars().collect();
                if m[i] == alt {
                    continue;
                }
                m[i] = alt;
                let m: String = m.into_iter().collect();
                if blank_path(n, n, blank_of(&tiles, n), &m).is_ok() {
                    v["moves"] = m.into();
                    return true;
                }
            }
        }
        unreachable!("the last move can always be changed")
    });
    for l in t.stdout.lines().filter(|l| l.contains("FAIL")) {
        assert!(l.contains("does not reach the goal: the "), "{l}");
    }
    let v = json_lines(&j.stdout);
    for &line in &hit {
        let c = &v[line - 1];
        assert_eq!(c["reaches_goal"], false, "{c}");
        assert_eq!(c["length_ok"], true, "{c}");
        assert!(c["end"].is_array(), "{c}");
    }
}

#[test]
fn a_wrong_claimed_length_is_caught() {
    let results = solved(&boards());
    let (hit, t, j) = damaged(&results, |v| {
        let len = v["length"].as_u64().unwrap();
        v["length"] = (len + 2).into();
        true
    });
    let v = json_lines(&j.stdout);
    for &line in &hit {
        let c = &v[line - 1];
        assert_eq!(c["reaches_goal"], true, "{c}");
        assert_eq!(c["length_ok"], false, "{c}");
        assert_eq!(
            c["claimed"].as_u64().unwrap(),
            c["length"].as_u64().unwrap() + 2
        );
        let l = t.stdout.lines().nth(line - 1).unwrap();
        assert!(l.ends_with(&format!("but claims {}", c["claimed"])), "{l}");
    }
}

#[test]
fn an_illegal_move_is_caught() {
    let results = solved(&boards());
    // Every goal here has its blank in the bottom-right corner, so one more move down
    // after the solution leaves the board.
    let (hit, t, j) = damaged(&results, |v| {
        let moves = v["moves"].as_str().unwrap().to_string();
        v["moves"] = format!("{moves}D").into();
        v["length"] = (moves.len() + 1).into();
        true
    });
    let v = json_lines(&j.stdout);
    let originals = json_lines(&results);
    for &line in &hit {
        let len = originals[line - 1]["length"].as_u64().unwrap();
        let expected = format!("move {} (D) slides the blank off the board", len + 1);
        assert_eq!(v[line - 1]["error"], expected.as_str());
        assert!(v[line - 1].get("reaches_goal").is_none());
        let l = t.stdout.lines().nth(line - 1).unwrap();
        assert!(l.ends_with(&expected), "{l}");
    }
}

#[test]
fn a_truncated_line_is_caught_and_the_rest_go_on() {
    let results = solved(&boards());
    let lines: Vec<&str> = results.lines().collect();
    // Cut line 2 in the middle; the file then ends with a cut-off line as well, as a
    // results file written by a killed process would.
    let mut text = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == 1 {
            text.push_str(&l[..l.len() / 2]);
            text.push('\n');
        } else {
            text.push_str(l);
            text.push('\n');
        }
    }
    let last = lines.last().unwrap();
    text.push_str(&last[..last.len() - 1]); // no closing brace, no newline
    let o = run(&["check", "--format", "json", "-"], Some(&text));
    assert_eq!(o.code, 1, "{}", o.stderr);
    let v = json_lines(&o.stdout);
    assert_eq!(v.len(), lines.len() + 1);
    for (i, c) in v.iter().enumerate() {
        let bad = i == 1 || i == lines.len();
        assert_eq!(c["ok"], !bad, "{c}");
        if bad {
            assert!(
                c["error"].as_str().unwrap().starts_with("not JSON: "),
                "{c}"
            );
        }
    }
}

#[test]
fn error_lines_and_junk_are_reported_and_do_not_stop_the_check() {
    // A batch with an unsolvable board prints an error line for it.
    let text = "1 2 3 4 5 6 7 0 8\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 0 7 8\n";
    let o = run(&["solve", LC, "--format", "json", "-"], Some(text));
    assert_eq!(o.code, 1);
    let mut results = o.stdout.clone();
    results.push_str("[1, 2, 3]\n\n{\"id\": 9, \"moves\": \"R\"}\n");
    let o = run(&["check", "-"], Some(&results));
    assert_eq!(o.code, 1);
    let l: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(l.len(), 6, "{}", o.stdout);
    assert!(l[0].starts_with("line 1 (id 1): ok"), "{}", l[0]);
    assert!(
        l[1].starts_with("line 2 (id 2): FAIL: no solution to check")
            && l[1].contains("unsolvable"),
        "{}",
        l[1]
    );
    assert!(l[2].starts_with("line 3 (id 3): ok"), "{}", l[2]);
    assert_eq!(l[3], "line 4: FAIL: not a JSON object");
    // Line 5 is blank and skipped.
    assert_eq!(l[4], "line 6 (id 9): FAIL: no \"tiles\" field");
    assert_eq!(l[5], "5 results: 2 ok, 3 failed");
}

#[test]
fn a_board_and_its_moves() {
    let b = "1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12";
    let o = run(&["check", b, "--moves", "DRD"], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "ok: reaches the goal in 3 moves (standard goal)\n"
    );
    let o = run(&["check", b, "--moves", "DR", "--format", "json"], None);
    assert_eq!(o.code, 1);
    let v = json_lines(&o.stdout);
    assert_eq!(v[0]["reaches_goal"], false);
    assert_eq!(v[0]["length"], 2);
    // The blank went down and right from (1, 2): it is at (2, 3), cell 11.
    assert_eq!(v[0]["end"][11], 0);
    let o = run(&["check", b, "--moves", "DRRU"], None);
    assert_eq!(o.code, 1);
    assert!(o
        .stdout
        .contains("move 3 (R) slides the blank off the board"));

    // --goal is respected: this board is one move (L) from the blank-first goal, and
    // that move does not reach the standard goal.
    let o = run(
        &[
            "check",
            "1 0 2 3 4 5 6 7 8",
            "--moves",
            "L",
            "--goal",
            "blank-first",
        ],
        None,
    );
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("(blank-first goal)"), "{}", o.stdout);
    let o = run(&["check", "1 0 2 3 4 5 6 7 8", "--moves", "L"], None);
    assert_eq!(o.code, 1, "{}", o.stdout);
}

#[test]
fn usage_errors_and_unreadable_input_exit_2() {
    let cases: &[(&[&str], Option<&str>, &str)] = &[
        (
            &["check", "/nonexistent/results.jsonl"],
            None,
            "cannot read /nonexistent/results.jsonl",
        ),
        (
            &["check", "1 2 3 4 5 6 7 0 8"],
            None,
            "it looks like a board: add --moves",
        ),
        (
            &["check", "1 2 3 4 5 6 7 0 8", "--moves", "RX"],
            None,
            "'X' is not a move",
        ),
        (
            &["check", "1 2 3 4 5 6 7 0", "--moves", "R"],
            None,
            "bad board",
        ),
        (&["check", "-"], Some(""), "no results"),
        (&["check", "-"], Some("\n\n"), "no results"),
    ];
    for (args, stdin, msg) in cases {
        let o = run(args, *stdin);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stdout);
        assert!(o.stderr.contains(msg), "{args:?}: {}", o.stderr);
    }
}

/// The instance file itself given to `check` (a newcomer's first try) is named as boards,
/// not as results that failed; a results file with a board line in it is still checked.
#[test]
fn an_instance_file_is_told_to_go_through_solve_first() {
    let dir = tempfile::tempdir().unwrap();
    let instances = dir.path().join("boards.txt");
    let text: String = boards().iter().map(|b| format!("{b}\n")).collect();
    let with_ids = "# comment\ngoal: standard\nA1 ? 1 2 3 4 5 6 7 0 8\n7 1 1 2 3 4 5 6 0 7 8\n";
    for body in [text.as_str(), with_ids] {
        std::fs::write(&instances, body).unwrap();
        let o = run(&["check", instances.to_str().unwrap()], None);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert!(
            o.stderr.contains("holds boards, not results") && o.stderr.contains("fifteen solve -i"),
            "{}",
            o.stderr
        );
        assert!(o.stdout.contains("a board, not a result"), "{}", o.stdout);
    }
    let mixed = solved(&boards()[..2]) + "1 2 3 4 5 6 7 0 8\n";
    let o = run(&["check", "-"], Some(&mixed));
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stdout.contains("2 ok, 1 failed"), "{}", o.stdout);
    let o = run(&["check", dir.path().to_str().unwrap()], None);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("give a results file"), "{}", o.stderr);
}

/// A record whose moves reach the goal in the length it claims still fails when its own
/// fields contradict one another (docs/formats.md, "check --format json"), and the message
/// names the field, in text and in JSON.
#[test]
fn a_record_that_contradicts_itself_fails_naming_the_field() {
    // "1 2 3 4 5 6 0 7 8" is two moves (RR) from the standard goal.
    let base = r#""tiles":[1,2,3,4,5,6,0,7,8],"moves":"RR","length":2"#;
    #[rustfmt::skip]
    let bad: &[(&str, &str)] = &[
        (r#""lower_bound":3"#, "lower_bound"),
        (r#""optimal":false,"bound":1.5,"lower_bound":4"#, "lower_bound"),
        (r#""optimal":true,"bound":1.5"#, "bound"),
        (r#""optimal":true,"bound":1.001"#, "bound"),
        (r#""optimal":true,"weight":2"#, "weight"),
        (r#""optimal":true,"lower_bound":1"#, "lower_bound"),
        (r#""optimal":true,"lower_bound":3"#, "lower_bound"),
        (r#""optimal":true,"algorithm":"dfs""#, "optimal"),
        (r#""optimal":true,"algorithm":"greedy""#, "optimal"),
        (r#""bound":0.5"#, "bound"),
        (r#""optimal":true,"known":4,"ok":true"#, "ok"),
        (r#""optimal":true,"known":2,"ok":false"#, "ok"),
        (r#""optimal":false,"algorithm":"greedy","known":3,"ok":true"#, "ok"),
        (r#""optimal":false,"bound":1.2,"lower_bound":1,"known":1,"ok":true"#, "ok"),
        // Below the known length, "ok" true agrees with no search's rule.
        (r#""known":9,"ok":true"#, "ok"),
        (r#""optimal":false,"known":9,"ok":true"#, "ok"),
    ];
    #[rustfmt::skip]
    let good: &[&str] = &[
        r#""optimal":true"#,
        r#""optimal":true,"lower_bound":2"#,
        // Weights below 1.001 round down to 1: the optimal search.
        r#""optimal":true,"bound":1.0004"#,
        r#""optimal":true,"weight":1"#,
        r#""optimal":false,"bound":1.5,"lower_bound":2"#,
        r#""optimal":false,"bound":1.5,"lower_bound":1,"known":2,"ok":true"#,
        r#""optimal":false,"bound":2,"lower_bound":1,"known":1,"ok":true"#,
        r#""optimal":false,"algorithm":"greedy","known":1,"ok":true"#,
        r#""optimal":true,"known":2,"ok":true"#,
        r#""optimal":true,"known":3,"ok":false"#,
        // Without "optimal", "ok" is judged only below the known length.
        r#""known":1,"ok":true"#,
        r#""known":9,"ok":false"#,
    ];
    for (extra, field) in bad {
        let line = format!("{{{base},{extra}}}\n");
        let o = run(&["check", "-"], Some(&line));
        assert_eq!(o.code, 1, "{line}{}{}", o.stdout, o.stderr);
        let first = o.stdout.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("line 1: FAIL: the \"{field}\" field ")),
            "{line}{first}"
        );
        let o = run(&["check", "--format", "json", "-"], Some(&line));
        assert_eq!(o.code, 1, "{line}{}", o.stderr);
        let v = &json_lines(&o.stdout)[0];
        assert_eq!(v["ok"], false, "{line}{v}");
        assert_eq!(v["field"], *field, "{line}{v}");
        let error = v["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("the \"{field}\" field ")),
            "{error}"
        );
    }
    for extra in good {
        let line = format!("{{{base},{extra}}}\n");
        let o = run(&["check", "-"], Some(&line));
        assert_eq!(o.code, 0, "{line}{}{}", o.stdout, o.stderr);
    }
    // What our own searches write checks out: weighted, with a known length, and classic.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("known.txt");
    std::fs::write(&file, "a 2 1 2 3 4 5 6 0 7 8\nb 3 1 2 3 0 4 6 7 5 8\n").unwrap();
    let file = file.to_str().unwrap();
    let mh = "--heuristic=manhattan";
    for args in [
        &["solve", LC, "--format", "json", "--weight", "3", "-i", file][..],
        &["bench", file, LC, "--format", "json"],
        &["bench", file, LC, "--format", "json", "--weight", "2"],
        &[
            "solve",
            mh,
            "--algorithm",
            "greedy",
            "--format",
            "json",
            "-i",
            file,
        ],
        &[
            "solve",
            mh,
            "--algorithm",
            "astar",
            "--weight",
            "2",
            "--format",
            "json",
            "-i",
            file,
        ],
    ] {
        let o = run(args, None);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        let c = run(&["check", "-"], Some(&o.stdout));
        assert_eq!(c.code, 0, "{args:?}: {}{}", o.stdout, c.stdout);
    }
}

/// A solution is a string of the capitals U, D, L, R: lower case, spaces and commas are
/// refused, saying what is accepted: on the command line a usage error (exit status 2), in
/// a results line that line's failure (exit status 1).
#[test]
fn moves_other_than_capital_udlr_are_refused() {
    let b = "1 2 3 4 5 6 0 7 8";
    for moves in ["rr", "Rr", "R R", "R,R", " RR", "RR\t", "R\u{0301}R"] {
        let o = run(&["check", b, "--moves", moves], None);
        assert_eq!(o.code, 2, "{moves:?}: {}{}", o.stdout, o.stderr);
        assert!(o.stdout.is_empty(), "{moves:?}: {}", o.stdout);
        assert!(
            o.stderr.contains("bad --moves: ")
                && o.stderr
                    .contains("is not a move: a solution is a string of the capitals U, D, L, R"),
            "{moves:?}: {}",
            o.stderr
        );
        let line = serde_json::json!({"tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8], "moves": moves});
        for format in ["text", "json"] {
            let o = run(
                &["check", "--format", format, "-"],
                Some(&format!("{line}\n")),
            );
            assert_eq!(o.code, 1, "{moves:?}: {}{}", o.stdout, o.stderr);
            assert!(
                o.stdout.contains(r#"the \"moves\" field is refused: "#)
                    || o.stdout.contains(r#"the "moves" field is refused: "#),
                "{moves:?}: {}",
                o.stdout
            );
            assert!(o.stdout.contains("U, D, L, R"), "{}", o.stdout);
        }
    }
    let o = run(&["check", b, "--moves", "RR"], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // The empty string is the empty solution, of a board at its goal.
    let o = run(&["check", "1 2 3 4 5 6 7 8 0", "--moves", ""], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
}
