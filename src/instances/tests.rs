//! The reader's rules for ambiguous and damaged input (see [`Reader`]).

use super::*;

/// What the reader makes of `input`: per item, `Ok((id, tiles, goal's blank))` or
/// `Err((id, line, error))`.
type Got = Result<(String, Vec<u8>, usize), (String, usize, BoardError)>;

fn read(input: &[u8]) -> Vec<Got> {
    read_with(input, None)
}

fn read_with(input: &[u8], size: Option<Shape>) -> Vec<Got> {
    Reader::new(input, GoalSpec::Standard)
        .with_size(size)
        .map(|r| match r {
            Ok(i) => Ok((i.id, i.board.tiles().to_vec(), i.goal.blank())),
            Err(b) => Err((b.id, b.line, b.error)),
        })
        .collect()
}

fn ok(id: &str, tiles: &[u8], blank: usize) -> Got {
    Ok((id.into(), tiles.to_vec(), blank))
}

fn err(id: &str, line: usize, error: BoardError) -> Got {
    Err((id.into(), line, error))
}

fn governed(what: &'static str, line: usize, error: BoardError) -> BoardError {
    BoardError::Governed {
        what,
        line,
        error: Box::new(error),
    }
}

const B3: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 0, 8];

#[test]
fn a_bad_goal_line_refuses_the_boards_it_governs_until_a_good_one() {
    let got = read(
        b"goal: blank-first\n1 0 2 3 4 5 6 7 8\ngoal: nonsense\n1 2 3 4 5 6 7 0 8\n\
          k 3 1 2 3 4 5 6 7 0 8\n1 2 3\n4 5 6\n7 0 8\ngoal: standard\n1 2 3 4 5 6 7 0 8\n",
    );
    let bad = BoardError::BadGoal("nonsense".into());
    assert_eq!(
        got,
        [
            ok("1", &[1, 0, 2, 3, 4, 5, 6, 7, 8], 0),
            err("goal:3", 3, bad.clone()),
            err("2", 4, governed("goal", 3, bad.clone())),
            err("k", 5, governed("goal", 3, bad.clone())),
            err("4", 6, governed("goal", 3, bad)),
            ok("5", &B3, 8),
        ]
    );
    let msg = governed("goal", 3, BoardError::BadGoal("nonsense".into())).to_string();
    assert!(
        msg.starts_with("the goal on line 3 is invalid (unknown goal 'nonsense'"),
        "{msg}"
    );
}

#[test]
fn a_board_with_its_own_fault_says_so_even_under_a_bad_goal() {
    let got = read(b"goal: 1 1 2 3\n1 2 3 4 5 6 7 8 8\n");
    assert_eq!(got[0], err("goal:1", 1, BoardError::Repeated(1)));
    assert_eq!(got[1], err("1", 2, BoardError::Repeated(8)));
}

#[test]
fn directives_are_read_in_any_case_with_spaces_and_comments() {
    for line in [
        "Goal: blank-first",
        "GOAL:blank-first",
        "goal : blank-first",
        "goal: blank-first # Korf's convention",
        "goal:\tBlank-First",
        "\u{feff}goal: blank-first",
    ] {
        let got = read(format!("{line}\n1 0 2 3 4 5 6 7 8\n").as_bytes());
        assert_eq!(got, [ok("1", &[1, 0, 2, 3, 4, 5, 6, 7, 8], 0)], "{line:?}");
    }
    let got = read(b"SIZE: 2X3\n1 2 3 4 0 5\n");
    assert_eq!(got, [ok("1", &[1, 2, 3, 4, 0, 5], 5)]);
}

#[test]
fn a_directive_without_its_colon_or_unknown_refuses_what_follows() {
    let got = read(b"goal blank-first\n1 2 3 4 5 6 7 0 8\ngoal: standard\n1 2 3 4 5 6 7 0 8\n");
    let e = BoardError::MissingColon("goal".into());
    assert_eq!(
        got,
        [
            err("goal:1", 1, e.clone()),
            err("1", 2, governed("goal", 1, e)),
            ok("2", &B3, 8),
        ]
    );
    // An unknown directive may have meant either: both must be said again.
    let got = read(
        b"gaol: blank-first\n1 2 3 4 5 6 7 0 8\ngoal: standard\n1 2 3 4 5 6 7 0 8\n\
          size: auto\n1 2 3 4 5 6 7 0 8\n",
    );
    let e = BoardError::UnknownDirective("gaol".into());
    assert_eq!(
        got,
        [
            err("gaol:1", 1, e.clone()),
            err("1", 2, governed("directive", 1, e.clone())),
            err("2", 4, governed("directive", 1, e)),
            ok("3", &B3, 8),
        ]
    );
    // A word and a colon that make a valid `ID LEN` instance are one.
    let got = read(b"a: ? 1 2 3 4 5 6 7 0 8\n");
    assert_eq!(got, [ok("a:", &B3, 8)]);
    // So do the words `goal` and `size` without a colon: they are ids like any other,
    // and refuse nothing after them.
    let got = read(b"goal 27 8 2 4 5 3 7 6 0 1\nSize ? 1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(
        got,
        [
            ok("goal", &[8, 2, 4, 5, 3, 7, 6, 0, 1], 8),
            ok("Size", &B3, 8),
            ok("3", &B3, 8),
        ]
    );
}

#[test]
fn a_bad_size_line_refuses_its_boards_line_by_line() {
    let got =
        read(b"size: 3y4\n1 2 3 4\n5 6 7 8\n9 10 0 11\nsize: 3x4\n1 2 3 4 5 6 7 8 9 10 0 11\n");
    let e = BoardError::BadSize("3y4".into());
    let g = governed("size", 1, e.clone());
    assert_eq!(
        got,
        [
            err("size:1", 1, e),
            err("1", 2, g.clone()),
            err("2", 3, g.clone()),
            err("3", 4, g),
            ok("4", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11], 11),
        ]
    );
}

#[test]
fn a_goal_of_another_size_is_an_error_per_board() {
    let got = read(b"goal: 1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n");
    assert_eq!(
        got,
        [err("1", 2, BoardError::GoalSize { board: 16, goal: 9 })]
    );
}

/// `fifteen random --size 2 --count 4 --seed 1`, and other 2x2 boards one a line.
#[test]
fn two_by_two_boards_one_a_line_are_never_glued_into_a_grid() {
    let got = read(b"1 3 0 2\n0 1 2 3\n3 2 1 0\n2 0 3 1\n");
    let b = |t: [u8; 4]| t.to_vec();
    assert_eq!(got.len(), 4, "{got:?}");
    for (g, (id, t)) in got.iter().zip([
        ("1", b([1, 3, 0, 2])),
        ("2", b([0, 1, 2, 3])),
        ("3", b([3, 2, 1, 0])),
        ("4", b([2, 0, 3, 1])),
    ]) {
        match g {
            Ok((i, tiles, _)) => assert_eq!((i.as_str(), tiles), (id, &t)),
            Err((i, _, e)) => {
                assert_eq!(i, id);
                assert_eq!(
                    *e,
                    BoardError::Unsolvable {
                        other: Some("blank-first")
                    },
                    "{t:?}"
                );
            }
        }
    }
    // A bad 2x2 line among them swallows none of its neighbours.
    let got = read(b"1 2 0 3\n1 3 0 0\n1 2 0 3\n1 2 0 3\n1 2 0 3\n");
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(got[1], err("2", 2, BoardError::Repeated(0)));
    for i in [0, 2, 3, 4] {
        assert_eq!(got[i], ok(&(i + 1).to_string(), &[1, 2, 0, 3], 3), "{i}");
    }
    // A lone one at the end, or before a line of another kind, is that board.
    let got = read(b"1 2 3 4 5 6 7 0 8\n1 2 0 3\n");
    assert_eq!(got[1], ok("2", &[1, 2, 0, 3], 3));
    let got = read(b"1 2 0 3\ngoal: standard\n1 2 0 3\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], ok("1", &[1, 2, 0, 3], 3));
    assert_eq!(got[1], ok("2", &[1, 2, 0, 3], 3));
    // With ids and lengths too (6 numbers: also a 6x6 row).
    let got = read(b"1 1 1 2 0 3\n2 3 1 3 0 2\n");
    assert_eq!(
        got,
        [
            ok("1", &[1, 2, 0, 3], 3),
            err(
                "2",
                2,
                BoardError::Unsolvable {
                    other: Some("blank-first")
                }
            )
        ]
    );
}

#[test]
fn grids_still_read_as_one_board() {
    let goal4: Vec<u8> = (1..16).chain([0]).collect();
    let blank_first4: Vec<u8> = (0..16).collect();
    let grid = |t: &[u8], n: usize| {
        t.chunks(n)
            .map(|r| {
                r.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect::<String>()
    };
    // A 4x4 grid whose first row is a 2x2 board on its own (blank-first), and one whose
    // third row is.
    let text = format!("goal: blank-first\n{}", grid(&blank_first4, 4));
    assert_eq!(read(text.as_bytes()), [ok("1", &blank_first4, 0)]);
    let third_is_2x2 = [4, 5, 6, 7, 8, 9, 10, 11, 2, 0, 3, 1, 12, 13, 14, 15];
    let board = Board::new(Shape::new(4, 4).unwrap(), &third_is_2x2).unwrap();
    let want = match Goal::standard(board.shape()).labels(&board) {
        Ok(_) => ok("1", &third_is_2x2, 15),
        Err(e) => err("1", 1, e),
    };
    assert_eq!(read(grid(&third_is_2x2, 4).as_bytes()), [want]);
    // 2x2, 3x3, 5x5, 6x6 grids, and two 4x4 grids one after the other.
    for n in [2usize, 3, 5, 6] {
        let g: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
        let text = grid(&g, n) + &grid(&g, n);
        assert_eq!(
            read(text.as_bytes()),
            [ok("1", &g, n * n - 1), ok("2", &g, n * n - 1)],
            "{n}"
        );
    }
    let text = grid(&goal4, 4) + &grid(&goal4, 4);
    assert_eq!(
        read(text.as_bytes()),
        [ok("1", &goal4, 15), ok("2", &goal4, 15)]
    );
    // A 2x2 board, then a 4x4 grid.
    let text = "1 2 0 3\n".to_string() + &grid(&goal4, 4);
    assert_eq!(
        read(text.as_bytes()),
        [ok("1", &[1, 2, 0, 3], 3), ok("2", &goal4, 15)]
    );
}

#[test]
fn an_unfinished_grid_is_an_error_never_a_smaller_board() {
    // Two lines of three could be a 2x3 board, but unsized rows announce a 3x3 one.
    let got = read(b"1 2 3\n4 5 0\n1 2 3 4 5 6 7 0 8\n");
    let e = BoardError::UnfinishedGrid {
        lines: 2,
        rows: 3,
        cols: 3,
    };
    assert_eq!(got, [err("1", 1, e), ok("2", &B3, 8)]);
    // One short line is read alone.
    let got = read(b"1 2 3\n");
    assert_eq!(got, [err("1", 1, BoardError::BadCount(3))]);
    // With a size, rows of its width.
    let s = Shape::new(2, 3);
    let got = read_with(b"1 2 3\n4 0 5\n1 2 3\n", s);
    assert_eq!(
        got,
        [
            ok("1", &[1, 2, 3, 4, 0, 5], 5),
            err(
                "2",
                3,
                BoardError::WrongCount {
                    count: 3,
                    expected: 6
                }
            )
        ]
    );
}

#[test]
fn with_a_size_four_numbers_are_a_two_by_two_board_at_once() {
    let s = Shape::new(2, 2);
    let got = read_with(b"1 2 0 3\n1 2\n0 3\n", s);
    assert_eq!(got, [ok("1", &[1, 2, 0, 3], 3), ok("2", &[1, 2, 0, 3], 3)]);
}

#[test]
fn bad_bytes_are_one_error_for_their_line() {
    let got = read(b"1 2 3 4 5 6 7 0 8\n1 2 3 \xff 5 6 7 0 8\n1 2 3 4 5 6 7 0 8 # caf\xe9\n");
    assert_eq!(
        got,
        [
            ok("1", &B3, 8),
            err("2", 2, BoardError::NotUtf8),
            ok("3", &B3, 8)
        ]
    );
    // In a grid, it ends the grid.
    let got = read(b"1 2 3\n4 \xff 6\n7 0 8\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[1], err("2", 2, BoardError::NotUtf8));
    assert_eq!(got[3], ok("4", &B3, 8));
    // On a goal line, it makes a bad goal line.
    let got = read(b"goal: blank-first\xff\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(
        got,
        [
            err("goal:1", 1, BoardError::NotUtf8),
            err("1", 2, governed("goal", 1, BoardError::NotUtf8)),
        ]
    );
}

#[test]
fn a_results_line_given_as_an_instance_says_so() {
    // `fifteen bench results.jsonl`: each JSON line named as such, with what reads it.
    let got = read(b"{\"batch\":{\"version\":1}}\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(got[0], err("1", 1, BoardError::JsonLine));
    assert!(got[1].is_ok(), "{:?}", got[1]);
    assert!(BoardError::JsonLine
        .to_string()
        .contains("fifteen check FILE"));
}

#[test]
fn invisible_characters_and_long_lines_are_errors() {
    let got = read(b"1 2 3 4 5 6 7 0\x008\n1 2 3 4 5 6 7 0 \xe2\x80\x8b8\n");
    assert_eq!(
        got,
        [
            err("1", 1, BoardError::InvisibleChar(0)),
            err("2", 2, BoardError::InvisibleChar(0x200b)),
        ]
    );
    let mut long = vec![b'1'; MAX_LINE_BYTES + 10];
    long.extend(b"\n1 2 3 4 5 6 7 0 8\n");
    let got = read(&long);
    assert_eq!(
        got,
        [
            err("1", 1, BoardError::LineTooLong(MAX_LINE_BYTES)),
            ok("2", &B3, 8)
        ]
    );
}

#[test]
fn separators_and_line_ends_that_are_accepted() {
    for text in [
        "1 2 3 4 5 6 7 0 8\r\n",
        "1\t2\t3\t4\t5\t6\t7\t0\t8\n",
        "1,2,3,4,5,6,7,0,8,\n",
        "+1 2 3 4 5 6 7 0 8",
        "\u{feff}1 2 3 4 5 6 7 0 8\n",
        "1 2 3\r\n4 5 6\r\n7 0 8\r\n",
    ] {
        assert_eq!(read(text.as_bytes()), [ok("1", &B3, 8)], "{text:?}");
    }
    // A negative number is a number, out of range.
    let got = read(b"-1 2 3 4 5 6 7 0 8\n");
    let out = BoardError::OutOfRange {
        value: "-1".into(),
        max: 8,
        blank_missing: false,
    };
    assert_eq!(got, [err("1", 1, out)]);
}

#[test]
fn a_known_length_too_large_says_so_and_a_word_is_not_a_number() {
    let got = read(b"a 4294967296 1 2 3 4 5 6 7 0 8\nb 4294967295 1 2 3 4 5 6 7 0 8\n");
    assert_eq!(
        got[0],
        err("a", 1, BoardError::LengthOutOfRange("4294967296".into()))
    );
    assert!(
        got[1].is_ok(),
        "the largest length a u32 holds is read: {:?}",
        got[1]
    );
    let got = read(b"c 1e3 1 2 3 4 5 6 7 0 8\n");
    assert_eq!(got, [err("c", 1, BoardError::NotANumber("1e3".into()))]);
    // A negative length is a number, out of range (it was "not a number"); a sign alone
    // is none.
    let got = read(b"f -1 1 2 3 4 5 6 7 0 8\ng - 1 2 3 4 5 6 7 0 8\n");
    assert_eq!(
        got,
        [
            err("f", 1, BoardError::LengthOutOfRange("-1".into())),
            err("g", 2, BoardError::NotANumber("-".into()))
        ]
    );
    // Beyond a u64 too, quoted whole: a cut number would read as another number.
    let got = read(b"d 12345678901234567890123 1 2 3 4 5 6 7 0 8\n");
    assert_eq!(
        got,
        [err(
            "d",
            1,
            BoardError::LengthOutOfRange("12345678901234567890123".into())
        )]
    );
    // A very long token is cut, and the cut is shown.
    let long = "9".repeat(60);
    let got = read(format!("e {long}x 1 2 3 4 5 6 7 0 8\n").as_bytes());
    assert_eq!(
        got,
        [err(
            "e",
            1,
            BoardError::NotANumber(format!("{}…", &long[..40]))
        )]
    );
}

#[test]
fn an_id_line_of_the_wrong_count_says_so() {
    // A tile left out of an `ID LEN tiles` line, or one too many: the id would be "not a
    // number" read as a board; the message gives the count instead.
    let got = read(b"p 3 1 2 3\nq 31 8 6 7 2 5 4 3 0 1 9\n");
    let count = |after| BoardError::IdLineCount {
        id: if after == 3 { "p" } else { "q" }.into(),
        after,
        cells: None,
    };
    assert_eq!(got, [err("1", 1, count(3)), err("2", 2, count(10))]);
    let message = count(3).to_string();
    assert!(message.contains("3 numbers after ID and LEN"), "{message}");
    // With a shape set, the count the shape wants.
    let got = read_with(
        b"r 3 1 2 3 4 5 6 7 8 9 10 0\n",
        Some(Shape::new(3, 4).unwrap()),
    );
    let want = BoardError::IdLineCount {
        id: "r".into(),
        after: 11,
        cells: Some(12),
    };
    assert!(want.to_string().contains("give 12"));
    assert_eq!(got, [err("1", 1, want)]);
    // A bad number inside a board is still that number.
    let got = read(b"1 2 x 4\n");
    assert_eq!(got, [err("1", 1, BoardError::NotANumber("x".into()))]);
}

#[test]
fn a_line_that_is_a_whole_oblong_board_or_an_id_line_is_refused_until_a_size_says() {
    // Six numbers, each of 0 to 5 once: a 2x3 board, or ID 5, LEN 4 and a 2x2 board.
    // Eighteen likewise: 3x6, or `ID LEN` and a 4x4 board.
    let four_by_four: Vec<String> = (0..18).rev().map(|t| t.to_string()).collect();
    let input = format!("5 4 1 3 2 0\n{}\n", four_by_four.join(" "));
    let got = read(input.as_bytes());
    let ambiguous = |count| BoardError::IdOrBoard { count };
    assert_eq!(got, [err("1", 1, ambiguous(6)), err("2", 2, ambiguous(18))]);
    let message = ambiguous(6).to_string();
    assert!(message.contains("0 to 5 once"), "{message}");
    assert!(message.contains("a 2x3 or 3x2 board"), "{message}");
    assert!(message.contains("`size: 2x3` for the board"), "{message}");
    assert!(
        message.contains("`size: 2x2` for `ID LEN` lines"),
        "{message}"
    );
    let message = ambiguous(18).to_string();
    assert!(message.contains("a 3x6 or 6x3 board"), "{message}");
    assert!(message.contains("`size: 4x4` for `ID LEN`"), "{message}");
    // A size says which, either way.
    let got = read(b"size: 2x3\n5 4 1 3 2 0\nsize: 2x2\n5 4 3 1 2 0\n");
    assert_eq!(
        got,
        [ok("1", &[5, 4, 1, 3, 2, 0], 5), ok("5", &[3, 1, 2, 0], 3)]
    );
    // A whole 2x3 or 3x2 board whose numbers after the first two are no 2x2 board can be
    // no `ID LEN` line: refused as a count of numbers that needs a size, not as ambiguous.
    for line in ["1 2 3 4 5 0\n", "0 1 2 3 4 5\n", "1 0 2 3 4 5\n"] {
        let got = read(line.as_bytes());
        assert_eq!(got, [err("1", 1, BoardError::BadCount(6))], "{line}");
    }
    assert!(BoardError::BadCount(6)
        .to_string()
        .contains("`size: RxC` line"));
    // An id line whose id and length are not the two numbers a board would lack is one.
    let got = read(b"7 4 3 1 2 0\n5 6 3 1 2 0\n");
    assert_eq!(got, [ok("7", &[3, 1, 2, 0], 3), ok("5", &[3, 1, 2, 0], 3)]);
}

#[test]
fn a_goal_drawn_as_rows_serves_boards_of_its_shape_alone() {
    let shape = |s| Shape::parse(s).unwrap();
    let drawn = GoalSpec::parse("[[1,2,3,4],[5,6,7,8],[9,10,0,11]]").unwrap();
    // 3 rows of 4: the 3x4 board's goal, with the blank where it is drawn.
    let goal = drawn.for_shape(shape("3x4")).unwrap();
    assert_eq!(goal.board().tiles(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11]);
    // Read as 4x3 its numbers would be another picture: refused, saying why.
    let e = drawn.for_shape(shape("4x3")).unwrap_err();
    assert_eq!(
        e,
        BoardError::GoalDrawnShape {
            rows: 3,
            cols: 4,
            shape: shape("4x3")
        }
    );
    assert!(
        e.to_string().contains("give its numbers on one line"),
        "{e}"
    );
    // On one line, its numbers serve every shape of their count.
    let flat = GoalSpec::parse("1 2 3 4 5 6 7 8 9 10 0 11").unwrap();
    assert!(flat.for_shape(shape("4x3")).is_ok() && flat.for_shape(shape("3x4")).is_ok());
    // Another count is still said as a count.
    assert!(matches!(
        drawn.for_shape(shape("3x3")),
        Err(BoardError::GoalSize { board: 9, goal: 12 })
    ));
}
