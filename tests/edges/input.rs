//! Instance and results input, damaged or ambiguous: bad `goal:` and `size:` lines, board
//! lines that could merge with their neighbours, bytes that are not UTF-8, endless lines.
//! Each row: the input, how it reaches `fifteen`, the exit status, and a pattern for each
//! line of output. The rule behind every row: a clear error for that line and the batch
//! goes on, or the input accepted; never a board solved for a goal or shape it was not
//! given in.

use std::io::Read;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use super::{command, common, wait};

/// How a row's input reaches `fifteen`: piped to `-`, written to a file for `-i`, or
/// nowhere (the boards are arguments in the row's `args`; its `input` must be empty).
#[derive(Clone, Copy, Debug)]
enum Via {
    Stdin,
    File,
    Arguments,
}

/// One adversarial input. `stdout`: a pattern for each line of standard output, in order
/// and exactly as many (`*` in a pattern stands for any text); `stderr`: a fragment it
/// must hold ("" for none).
struct InputCase {
    what: &'static str,
    args: Vec<&'static str>,
    via: Via,
    input: Vec<u8>,
    code: i32,
    stdout: Vec<&'static str>,
    stderr: &'static str,
}

/// `solve` with JSON Lines out, on linear conflict (no tables), input piped to `-`.
fn json_case(what: &'static str, input: &[u8], code: i32, stdout: &[&'static str]) -> InputCase {
    InputCase {
        what,
        args: vec![
            "solve",
            "--heuristic",
            "linear-conflict",
            "--format",
            "json",
        ],
        via: Via::Stdin,
        input: input.to_vec(),
        code,
        stdout: stdout.to_vec(),
        stderr: "",
    }
}

/// Whether `line` holds the parts of `pattern` between its `*`s, in order.
fn matches(line: &str, pattern: &str) -> bool {
    let mut rest = line;
    for part in pattern.split('*') {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// A board of `n` rows of `n`, one move (R) from the standard goal, one row a line.
fn grid_rows(n: usize) -> String {
    let mut t: Vec<usize> = (1..n * n - 1).collect();
    t.extend([0, n * n - 1]);
    t.chunks(n)
        .map(|r| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// Runs a row: a hang is a failure (10 MB lines included), not a stuck test run.
fn run_input(case: &InputCase, dir: &Path) -> (ExitStatus, String, String) {
    let mut args: Vec<String> = case.args.iter().map(|s| s.to_string()).collect();
    let mut cmd = match case.via {
        Via::Stdin => {
            args.push("-".into());
            let mut cmd = command("fifteen", &args);
            cmd.stdin(Stdio::piped());
            cmd
        }
        Via::File => {
            let path = dir.join("instances.txt");
            std::fs::write(&path, &case.input).unwrap();
            args.extend(["-i".to_string(), path.to_str().unwrap().to_string()]);
            command("fifteen", &args)
        }
        Via::Arguments => {
            assert!(case.input.is_empty(), "{}: arguments only", case.what);
            let mut cmd = command("fifteen", &args);
            cmd.stdin(Stdio::null());
            cmd
        }
    };
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(mut stdin) = child.stdin.take() {
        let input = case.input.clone();
        // From a thread: a large input must not deadlock against a full stdout. The
        // program may stop reading early; a broken pipe here is not the test's concern.
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &input);
        });
    }
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            r.read_to_end(&mut v).unwrap();
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let status = wait(&mut child, Duration::from_secs(60), case.what);
    (status, out.join().unwrap(), err.join().unwrap())
}

fn input_cases() -> Vec<InputCase> {
    const GOOD: &[u8] = b"1 2 3 4 5 6 7 0 8\n";
    const BLANK_FIRST: &str = r#""goal":[0,1,2,3,4,5,6,7,8],"length":1,"#;
    const STANDARD: &str = r#""goal":[1,2,3,4,5,6,7,8,0],"length":1,"#;
    let ten_mb = vec![b'7'; 10 << 20];
    let mut ten_mb_then_a_board = ten_mb.clone();
    ten_mb_then_a_board.extend(b"\n1 2 3 4 5 6 7 0 8\n");
    // Two boards in UTF-16, as Windows tools write text: its last `\n` ends in a byte of 0.
    let utf16: Vec<u8> = "\u{feff}1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 0 8\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    // The start of this test's own executable, and two boards before a gzip stream.
    let program: Vec<u8> =
        std::fs::read(std::env::current_exe().unwrap()).unwrap()[..4096].to_vec();
    let mut gzipped = GOOD.repeat(2);
    gzipped.extend(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xed\x9d\x01\x02\x00\x07\n1 2 3\n");
    let mut utf8_file = GOOD.repeat(6);
    utf8_file.extend(b"1 2 3 \xff 5 6 7 0 8\n");
    utf8_file.extend(GOOD.repeat(2));
    let grids: String = [3, 4, 5, 6, 4].iter().map(|&n| grid_rows(n)).collect();
    let result = |id: u32| {
        format!("{{\"id\":{id},\"tiles\":[1,2,3,4,5,6,7,0,8],\"moves\":\"R\",\"length\":1}}\n")
    };
    let mut results_bom = b"\xEF\xBB\xBF".to_vec();
    results_bom.extend(result(1).as_bytes());
    let mut results_bad = result(1).into_bytes();
    results_bad.extend(b"{\"id\":\xff}\n");
    results_bad.extend(result(2).as_bytes());
    let mut results_long = vec![b' '; 17 << 20];
    results_long.extend(b"\n");
    results_long.extend(result(2).as_bytes());
    let check = |what, input: Vec<u8>, code, stdout: &[&'static str]| InputCase {
        what,
        args: vec!["check"],
        via: Via::Stdin,
        input,
        code,
        stdout: stdout.to_vec(),
        stderr: "",
    };

    vec![
        // A bad goal line must not let the boards it governs be solved for another goal.
        json_case(
            "a bad goal: line refuses the boards after it, until a good one",
            b"goal: blank-first\n1 0 2 3 4 5 6 7 8\ngoal: nonsense\n1 2 3 4 5 6 7 0 8\n\
              1 2 3\n4 5 6\n7 0 8\ngoal: standard\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[
                BLANK_FIRST,
                r#"{"id":"goal:3","error":"instance goal:3 (line 3): unknown goal 'nonsense'"#,
                r#"{"id":2,"error":"instance 2 (line 4): the goal on line 3 is invalid (unknown goal 'nonsense' "#,
                r#"{"id":3,"error":"instance 3 (line 5): the goal on line 3 is invalid (unknown goal"#,
                STANDARD,
            ],
        ),
        InputCase {
            what: "the same, as text: the errors on stderr",
            args: vec!["solve", "--heuristic", "linear-conflict"],
            stderr: "error: instance 1 (line 2): the goal on line 1 is invalid (unknown goal 'nonsense'",
            ..json_case("", b"goal: nonsense\n1 2 3 4 5 6 7 0 8\n", 1, &[])
        },
        json_case(
            "a bad size: line refuses its boards, until a good one",
            b"size: 3y4\n1 2 3 4 5 6 7 0 8\nsize: auto\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[
                r#""error":"instance size:1 (line 1): bad size '3y4'"#,
                r#""error":"instance 1 (line 2): the size on line 1 is invalid (bad size '3y4'"#,
                STANDARD,
            ],
        ),
        json_case(
            "a size: line of another shape than the boards",
            b"size: 3x4\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[r#""error":"instance 1 (line 2): 9 numbers given, 12 expected"#],
        ),
        json_case(
            "Goal: capitalised is a goal line",
            b"Goal: blank-first\n1 0 2 3 4 5 6 7 8\n",
            0,
            &[BLANK_FIRST],
        ),
        json_case(
            "GOAL : with a space and a trailing comment",
            b"GOAL : Blank-First # Korf's convention\n1 0 2 3 4 5 6 7 8\n",
            0,
            &[BLANK_FIRST],
        ),
        json_case(
            "a goal of another size than the boards",
            b"goal: 1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n",
            1,
            &[r#""error":"instance 1 (line 2): the goal has 9 cells but the board has 16""#],
        ),
        json_case(
            "goal without its colon",
            b"goal blank-first\n1 0 2 3 4 5 6 7 8\n",
            1,
            &[
                r#""error":"instance goal:1 (line 1): 'goal' needs a colon"#,
                r#""error":"instance 1 (line 2): the goal on line 1 is invalid ('goal' needs a colon"#,
            ],
        ),
        json_case(
            "an unknown directive may have meant the goal",
            b"gaol: blank-first\n1 0 2 3 4 5 6 7 8\n",
            1,
            &[
                r#""error":"instance gaol:1 (line 1): unknown directive 'gaol:'"#,
                r#""error":"instance 1 (line 2): the directive on line 1 is invalid (unknown directive"#,
            ],
        ),
        json_case(
            "an empty goal: line",
            b"goal:\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[
                r#""error":"instance goal:1 (line 1): no numbers given""#,
                r#""error":"instance 1 (line 2): the goal on line 1 is invalid (no numbers given)""#,
            ],
        ),
        // A board line must never silently merge with its neighbours.
        json_case(
            "four 2x2 boards, one a line, as `random --size 2` prints them",
            b"1 2 0 3\n2 3 1 0\n0 3 2 1\n0 3 2 1\n",
            0,
            &[
                r#""id":1,"size":"2x2","tiles":[1,2,0,3],"#,
                r#""id":2,"size":"2x2","tiles":[2,3,1,0],"#,
                r#""id":3,"size":"2x2","tiles":[0,3,2,1],"#,
                r#""id":4,"size":"2x2","tiles":[0,3,2,1],"#,
            ],
        ),
        json_case(
            "a bad 2x2 line among them swallows none of its neighbours",
            b"1 2 0 3\n1 3 0 0\n2 3 1 0\n0 3 2 1\n",
            1,
            &[
                r#""tiles":[1,2,0,3],"#,
                r#""error":"instance 2 (line 2): the number 0 appears more than once""#,
                r#""tiles":[2,3,1,0],"#,
                r#""tiles":[0,3,2,1],"#,
            ],
        ),
        json_case(
            "2x2 boards with ids and lengths (six numbers, as a 6x6 row)",
            b"a 1 1 2 0 3\n7 4 2 3 1 0\n8 4 2 3 1 0\n",
            0,
            &[
                r#"{"id":"a","size":"2x2","tiles":[1,2,0,3],"#,
                r#""size":"2x2","tiles":[2,3,1,0],*"length":4,"#,
                r#""size":"2x2","tiles":[2,3,1,0],*"length":4,"#,
            ],
        ),
        json_case(
            "a 2x2 board, then a 4x4 grid",
            b"1 2 0 3\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n",
            0,
            &[r#""size":"2x2""#, r#""size":"4x4"*"length":1,"#],
        ),
        json_case(
            "a 4x4 grid whose first row is a 2x2 board on its own",
            b"goal: blank-first\n1 0 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n",
            0,
            &[r#""size":"4x4","tiles":[1,0,2,3,4,5,6,7,"#],
        ),
        InputCase {
            args: vec![
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "--size",
                "2",
            ],
            ..json_case(
                "with --size 2, four numbers are a board, two are a row",
                b"1 2 0 3\n2 3\n1 0\n",
                0,
                &[r#""tiles":[1,2,0,3],"#, r#""tiles":[2,3,1,0],"#],
            )
        },
        json_case(
            "grids of 3x3, 4x4, 5x5, 6x6 and 4x4 again, one after the other",
            grids.as_bytes(),
            0,
            &[
                r#""size":"3x3"*"length":1,"#,
                r#""size":"4x4"*"length":1,"#,
                r#""size":"5x5"*"length":1,"#,
                r#""size":"6x6"*"length":1,"#,
                r#""size":"4x4"*"length":1,"#,
            ],
        ),
        json_case(
            "an unfinished 3x3 grid is not read as a 2x3 board",
            b"1 2 3\n4 5 0\n",
            1,
            &[r#""error":"instance 1 (line 1): only 2 of the 3 lines of a 3x3 board"#],
        ),
        json_case(
            "a 4x4 grid short of a row does not swallow the board after it",
            b"1 2 3 4\n5 6 7 8\n9 10 11 12\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[
                r#""error":"instance 1 (line 1): only 3 of the 4 lines of a 4x4 board"#,
                STANDARD,
            ],
        ),
        // A bad byte is one line's error, and the batch goes on.
        InputCase {
            via: Via::File,
            ..json_case(
                "a line that is not UTF-8 in the middle of -i FILE",
                &utf8_file,
                1,
                &[
                    STANDARD,
                    STANDARD,
                    STANDARD,
                    STANDARD,
                    STANDARD,
                    STANDARD,
                    r#"{"id":7,"error":"instance 7 (line 7): not valid UTF-8","kind":"parse","line":7}"#,
                    r#"{"id":8,*"length":1,"#,
                    r#"{"id":9,*"length":1,"#,
                ],
            )
        },
        json_case(
            "a line that is not UTF-8 on stdin",
            b"1 2 3 4 5 6 7 0 8\n\xc3\x28\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[STANDARD, r#""instance 2 (line 2): not valid UTF-8""#, STANDARD],
        ),
        json_case(
            "bad bytes on a goal line make it a bad goal line",
            b"goal: blank-first\xff\n1 0 2 3 4 5 6 7 8\n",
            1,
            &[
                r#""instance goal:1 (line 1): not valid UTF-8""#,
                r#""instance 1 (line 2): the goal on line 1 is invalid (not valid UTF-8)""#,
            ],
        ),
        json_case(
            "a byte-order mark starting the input",
            b"\xEF\xBB\xBF1 2 3 4 5 6 7 0 8\n",
            0,
            &[STANDARD],
        ),
        InputCase {
            via: Via::File,
            ..json_case(
                "a file that starts with a BOM and a goal line",
                b"\xEF\xBB\xBFgoal: blank-first\n1 0 2 3 4 5 6 7 8\n",
                0,
                &[BLANK_FIRST],
            )
        },
        InputCase {
            via: Via::File,
            args: vec![
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "1 2 3 4 5 6 0 7 8",
            ],
            ..json_case(
                "boards as arguments beside a file: one input at a time",
                b"1 0 2 3 4 5 6 7 8\n",
                2,
                &[],
            )
        },
        // A board drawn as rows in one argument: rows of one length, in the shape given,
        // or the instance's error (exit status 1, the other arguments still solved).
        InputCase {
            via: Via::Arguments,
            args: vec![
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "1 2 3 4\n5 6 7\n8 0",
                "1 2 3 4 5 6 7 0 8",
            ],
            ..json_case(
                "a board argument of uneven rows that add up to 3x3",
                b"",
                1,
                &[
                    r#"{"id":1,"error":"instance 1 (line 1): row 2 of the board has 3 numbers but row 1 has 4: give every row the same count, or the whole board on one line","kind":"parse","line":1}"#,
                    STANDARD,
                ],
            )
        },
        InputCase {
            via: Via::Arguments,
            args: vec!["solve", "--heuristic", "linear-conflict", "--format", "json", "1 2 3 4\n5 6 7 8\n9 10 0 11"],
            ..json_case(
                "a 3x4 board argument drawn as rows, no --size: their shape",
                b"",
                0,
                &[r#"{"id":1,"size":"3x4","tiles":[1,2,3,4,5,6,7,8,9,10,0,11],*"length":1,"#],
            )
        },
        InputCase {
            via: Via::Arguments,
            args: vec![
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "--size",
                "4x3",
                "1 2 3 4\n5 6 7 8\n9 10 0 11",
            ],
            ..json_case(
                "a board argument drawn in another shape than --size",
                b"",
                1,
                &[
                    r#"{"id":1,"error":"instance 1 (line 1): the board is drawn as 3 rows of 4 but the size given is 4x3 (4 rows of 3): give the size 3x4, or draw the board as 4x3","kind":"parse","line":1}"#,
                ],
            )
        },
        InputCase {
            via: Via::Arguments,
            args: vec![
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "--size",
                "3x4",
                "1 2 3 4\n5 6 7 8\n9 10 0 11",
                "1 2 3 4 5 6 7 8 9 10 0 11",
            ],
            ..json_case(
                "a 3x4 board argument drawn as rows with its --size, and one on one line",
                b"",
                0,
                &[
                    r#"{"id":1,"size":"3x4","tiles":[1,2,3,4,5,6,7,8,9,10,0,11],*"length":1,"#,
                    r#"{"id":2,"size":"3x4","tiles":[1,2,3,4,5,6,7,8,9,10,0,11],*"length":1,"#,
                ],
            )
        },
        json_case(
            "CRLF line ends",
            b"goal: blank-first\r\n1 0 2 3 4 5 6 7 8\r\ngoal: standard\r\n1 2 3\r\n4 5 6\r\n7 0 8\r\n",
            0,
            &[BLANK_FIRST, STANDARD],
        ),
        json_case(
            "a NUL byte",
            b"1 2 3 4 5 6 7 0\x008\n1 2 3 4 5 6 7 0 8\n",
            1,
            &[
                r#""instance 1 (line 1): contains the invisible character U+0000""#,
                STANDARD,
            ],
        ),
        json_case(
            "UTF-16 (little-endian, with its mark): one error a line, none for the end",
            &utf16,
            1,
            &[
                r#"{"id":1,"error":"instance 1 (line 1): UTF-16 text, not UTF-8*","kind":"parse","line":1}"#,
                r#"{"id":2,"error":"instance 2 (line 2): UTF-16 text, not UTF-8*","kind":"parse","line":2}"#,
            ],
        ),
        InputCase {
            stderr: "error: reading input: line 1 is binary data, not text",
            ..json_case("a program's bytes: one error, not one a line", &program, 2, &[])
        },
        InputCase {
            stderr: "error: reading input: line 1 is binary data, not text",
            ..json_case("zero bytes alone, longer than a line", &[0u8; 70_000], 2, &[])
        },
        InputCase {
            args: vec!["check"],
            stderr: "error: reading -: line 1 is binary data, not text: give a results file",
            ..json_case("a program's bytes to check: one error", &program, 2, &[])
        },
        InputCase {
            via: Via::File,
            stderr: "error: reading input: line 3 is binary data, not text",
            ..json_case(
                "boards, then a compressed file's bytes: the boards answered",
                &gzipped,
                2,
                &[STANDARD, STANDARD],
            )
        },
        json_case(
            "a zero-width space",
            "1 2 3 4 5 6 7 0 \u{200b}8\n".as_bytes(),
            1,
            &[r#""instance 1 (line 1): contains the invisible character U+200B""#],
        ),
        json_case(
            "10 MB of digits and no newline",
            &ten_mb,
            1,
            &[r#""instance 1 (line 1): line longer than 65536 bytes (the rest of it was skipped)""#],
        ),
        json_case(
            "10 MB of digits, then a board",
            &ten_mb_then_a_board,
            1,
            &[r#""instance 1 (line 1): line longer than 65536 bytes"#, STANDARD],
        ),
        json_case(
            "a comment in Latin-1 is never read",
            b"1 2 3 4 5 6 7 0 8 # caf\xe9\n",
            0,
            &[STANDARD],
        ),
        json_case("a leading + is a number", b"+1 2 3 4 5 6 7 0 +8\n", 0, &[STANDARD]),
        json_case(
            "a negative number is out of range",
            b"-1 2 3 4 5 6 7 0 8\n",
            1,
            &[r#""instance 1 (line 1): the number -1 is out of range (0 to 8)""#],
        ),
        json_case("tabs separate numbers", b"1\t2\t3\t4\t5\t6\t7\t0\t8\n", 0, &[STANDARD]),
        json_case("a trailing comma", b"1,2,3,4,5,6,7,0,8,\n", 0, &[STANDARD]),
        // `check` reads results the same way.
        check(
            "check: a byte-order mark starting the results",
            results_bom,
            0,
            &["line 1 (id 1): ok: reaches the goal in 1 move", "1 result: 1 ok, 0 failed"],
        ),
        check(
            "check: a results line that is not UTF-8",
            results_bad,
            1,
            &[
                "line 1 (id 1): ok",
                "line 2: FAIL: not valid UTF-8",
                "line 3 (id 2): ok",
                "3 results: 2 ok, 1 failed",
            ],
        ),
        check(
            "check: a results line of 17 MB",
            results_long,
            1,
            &[
                "line 1: FAIL: line longer than 16777216 bytes",
                "line 2 (id 2): ok",
                "2 results: 1 ok, 1 failed",
            ],
        ),
    ]
}

#[test]
fn bad_input_lines_are_errors_of_their_own_and_never_wrong_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in input_cases() {
        let (status, out, err) = run_input(&case, tmp.path());
        let lines: Vec<&str> = out.lines().collect();
        let ok = status.code() == Some(case.code)
            && lines.len() == case.stdout.len()
            && lines.iter().zip(&case.stdout).all(|(l, p)| matches(l, p))
            && err.contains(case.stderr)
            && !err.contains("panicked");
        if !ok {
            failures.push(format!(
                "{} ({:?}): {status:?}, want exit {}\nstdout:\n{}\nwant:\n{}\nstderr:\n{}",
                case.what,
                case.via,
                case.code,
                out.chars().take(3000).collect::<String>(),
                case.stdout.join("\n"),
                err.chars().take(3000).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The pipe the issue names: `fifteen random --size 2 | fifteen solve -` solves each 2x2
/// board on its own line, for many seeds (some of whose first lines are 4x4 grid rows' worth
/// of numbers 0 to 3).
#[test]
fn random_two_by_two_boards_piped_to_solve_stay_separate() {
    for seed in 1..=20 {
        let seed = seed.to_string();
        let r = common::run(
            &["random", "--size", "2", "--count", "4", "--seed", &seed],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let o = common::run(
            &[
                "solve",
                "--heuristic",
                "linear-conflict",
                "--format",
                "json",
                "-",
            ],
            Some(&r.stdout),
        );
        assert_eq!(o.code, 0, "seed {seed}: {}", o.stderr);
        let v = common::json_lines(&o.stdout);
        let boards: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(v.len(), 4, "seed {seed}: {}", o.stdout);
        for (row, board) in v.iter().zip(boards) {
            let tiles: Vec<u64> = board.split(' ').map(|t| t.parse().unwrap()).collect();
            assert_eq!(row["size"], "2x2", "seed {seed}");
            assert_eq!(row["tiles"], serde_json::json!(tiles), "seed {seed}");
        }
    }
}

/// Paths and files that are not what the command reads: a directory given as the input, an
/// input without boards (for `bench`, whose table header must not go out alone), a file that
/// is not a shard's results given to `merge`, and `FIFTEEN_TABLES` set but empty (which
/// means unset, as for `XDG_DATA_HOME`, not `--tables` without its value).
#[test]
fn a_directory_an_empty_input_a_foreign_part_and_an_empty_tables_variable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap().to_string();
    let run = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let out = command("fifteen", &args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for args in [
        vec!["solve", "--heuristic", "linear-conflict", "-i", &d],
        vec!["bench", &d],
        vec!["check", &d],
    ] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.contains(&format!("cannot read {d}: it is a directory")),
            "{args:?}: {stderr}"
        );
    }

    let empty = dir.path().join("comments.txt");
    std::fs::write(&empty, "# no boards here\n\n").unwrap();
    let (code, stdout, stderr) = run(&["bench", empty.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "", "a header without rows");
    assert!(stderr.contains("no boards in the input"), "{stderr}");
    // With -o: no results file is left holding only a header (as if a run had started);
    // one that was there before, complete, is left as it was.
    for (command, out) in [("solve", "fresh.jsonl"), ("bench", "fresh-bench.jsonl")] {
        let out = dir.path().join(out);
        let mut args = vec![command, "--heuristic", "linear-conflict"];
        if command == "solve" {
            args.push("-i");
        }
        args.extend([empty.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let (code, _, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("no boards in the input"), "{stderr}");
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "1 2 3 4 5 6 7 0 8\n").unwrap();
    let kept = dir.path().join("kept.jsonl");
    let kept_s = kept.to_str().unwrap();
    let solve = ["solve", "--heuristic", "linear-conflict", "-i"];
    let (code, _, stderr) = run(&[&solve[..], &[one.to_str().unwrap(), "-o", kept_s]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    let before = std::fs::read(&kept).unwrap();
    let (code, _, stderr) = run(&[&solve[..], &[empty.to_str().unwrap(), "-o", kept_s]].concat());
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        before,
        "a finished results file"
    );

    // Board arguments beside an input file: one input at a time (merged, the file's ids
    // and line numbers were shifted by the arguments').
    let (code, stdout, stderr) =
        run(&[&solve[..], &[one.to_str().unwrap(), "1 2 3 4 5 6 7 8 0"]].concat());
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("both board arguments and -i") && stderr.contains("one input at a time"),
        "{stderr}"
    );

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let (code, stdout, stderr) = run(&["merge", notes.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("notes.txt is not a shard's results file")
            && stderr.contains("solve --shard K/N -o FILE"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");

    // Empty: the per-user directory (here under a scratch XDG_DATA_HOME) is used.
    let out = command(
        "fifteen",
        &["solve", "--size", "2x3", "--format", "json", "1 2 3 4 0 5"].map(String::from),
    )
    .env("FIFTEEN_TABLES", "")
    .env("XDG_DATA_HOME", dir.path())
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\"length\":1"),
        "{stderr}"
    );
    let built = std::fs::read_dir(dir.path().join("fifteen"))
        .unwrap()
        .count();
    assert!(built > 0, "no table in XDG_DATA_HOME/fifteen");
}
