//! Unit tests of `check`: replays, lines told apart, records held to their own word.

use super::*;

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

#[test]
fn replay_reports_the_first_illegal_move() {
    let goal = Goal::standard(shape3());
    // Blank in the bottom-right corner: D and R leave the board, U L are fine.
    let moves = parse_moves("ULRRD").unwrap();
    assert_eq!(
        replay(goal.board(), &goal, &moves),
        Err(CheckError::IllegalMove {
            number: 4,
            dir: Dir::Right
        })
    );
}

#[test]
fn replay_tells_whether_the_goal_is_reached() {
    let goal = Goal::standard(shape3());
    let there_and_back = parse_moves("ULDR").unwrap();
    let r = replay(goal.board(), &goal, &there_and_back).unwrap();
    assert!(!r.reaches_goal);
    assert_eq!(r.length, 4);
    assert_eq!(
        check_solution(goal.board(), &goal, &there_and_back),
        Err(CheckError::NotReached {
            length: 4,
            end: r.end
        })
    );
    let back = parse_moves("ULDRULDRULDR").unwrap();
    assert_eq!(check_solution(goal.board(), &goal, &back), Ok(12));
}

#[test]
fn a_line_without_a_claimed_length_can_still_pass() {
    let g = GoalSpec::Standard;
    let c = check_json_line(r#"{"tiles":[1,2,3,4,5,6,7,0,8],"moves":"R"}"#, 1, &g).unwrap();
    assert!(c.passed(), "{c:?}");
    assert_eq!(c.length_matches(), None);
    let c = check_json_line(
        r#"{"tiles":[1,2,3,4,5,6,7,0,8],"moves":"R","length":3}"#,
        1,
        &g,
    )
    .unwrap();
    assert!(!c.passed());
    assert_eq!(c.length_matches(), Some(false));
}

#[test]
fn a_length_the_moves_do_not_give_fails_for_that_before_any_contradiction() {
    let g = GoalSpec::Standard;
    let line = |length: u64| {
        format!(
            r#"{{"tiles":[1,2,3,4,5,6,7,0,8],"moves":"R","length":{length},"known":2,"ok":true,"optimal":true}}"#
        )
    };
    // Length 1 is the moves': the record is held to its fields, and `ok` is wrong.
    let c = check_json_line(&line(1), 1, &g).unwrap();
    assert!(
        matches!(&c.result, Err(CheckError::Contradiction { field, .. }) if *field == "ok"),
        "{c:?}"
    );
    // Length 99 is not: that is what fails, as formats.md says.
    let c = check_json_line(&line(99), 1, &g).unwrap();
    assert!(c.result.as_ref().is_ok_and(|r| r.reaches_goal), "{c:?}");
    assert_eq!(c.length_matches(), Some(false));
    assert!(!c.passed());
}

/// A length below the known optimum agrees with it under no search's rule: `ok` true
/// beside it fails, with or without `optimal`; `ok` false says so honestly and passes.
#[test]
fn ok_beside_a_length_below_known_fails_whatever_the_search() {
    let g = GoalSpec::Standard;
    for (fields, passes) in [
        (r#""ok":true,"optimal":false"#, false),
        (r#""ok":true"#, false),
        (r#""ok":true,"optimal":false,"algorithm":"Greedy""#, false),
        (r#""ok":false,"optimal":false"#, true),
        (r#""ok":false,"optimal":true"#, true),
        (r#""ok":false,"optimal":true,"algorithm":"Greedy""#, false),
    ] {
        let line =
            format!(r#"{{"tiles":[1,2,3,4,5,6,7,0,8],"moves":"R","length":1,"known":5,{fields}}}"#);
        let c = check_json_line(&line, 1, &g).unwrap();
        assert_eq!(c.passed(), passes, "{fields}: {c:?}");
        if !passes {
            assert!(
                matches!(&c.result, Err(CheckError::Contradiction { field, .. }) if ["ok", "optimal"].contains(field)),
                "{fields}: {c:?}"
            );
        }
    }
}

#[test]
fn summaries_and_blank_lines_are_not_results() {
    let g = GoalSpec::Standard;
    assert_eq!(check_json_line("  \r\n", 1, &g), None);
    assert_eq!(check_json_line(r#"{"summary":{"solved":1}}"#, 2, &g), None);
    assert_eq!(check_json_line(r#"{"batch":{"version":1}}"#, 1, &g), None);
    assert_eq!(check_json_line(r#"{"batch_end":{"items":3}}"#, 5, &g), None);
}

#[test]
fn instance_lines_are_told_apart_from_broken_results() {
    let g = GoalSpec::Standard;
    let result = |text: &str| check_json_line(text, 1, &g).unwrap().result;
    for instance in [
        "1 2 3 4 5 6 7 0 8",
        "1,2,3,4,5,6,7,0,8",
        "1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        "H18 69 15 11 7 3 14 10 0 2 13 9 6 5 12 8 4 1",
        "a ? 1 2 3 0",
    ] {
        assert_eq!(result(instance), Err(CheckError::NotAResult), "{instance}");
    }
    for broken in [
        r#"{"tiles":[1,2"#,
        "1 2 3",
        "x y 1 2 3 4",
        "goal: blank-first",
        "12 x",
    ] {
        assert!(
            matches!(result(broken), Err(CheckError::NotJson(_))),
            "{broken}"
        );
    }
}

#[test]
fn a_non_square_board_needs_its_size() {
    let g = GoalSpec::Standard;
    let tiles = "[1,2,3,4,5,6,7,8,9,10,0,11]";
    let c = check_json_line(&format!(r#"{{"tiles":{tiles},"moves":"R"}}"#), 1, &g).unwrap();
    assert!(matches!(
        &c.result,
        Err(CheckError::BadField { field, .. }) if field == "tiles"
    ));
    let c = check_json_line(
        &format!(r#"{{"tiles":{tiles},"size":"3x4","moves":"R"}}"#),
        1,
        &g,
    )
    .unwrap();
    assert!(c.passed(), "{c:?}");
}

/// A record called optimal beside a `known` it does not equal, with no `ok` to admit it,
/// and a weight below 1, which no search takes, contradict the record's own word.
#[test]
fn optimal_beside_another_known_and_weights_below_one_fail() {
    let g = GoalSpec::Standard;
    for (fields, fails_on) in [
        (r#""optimal":true,"known":5"#, Some("optimal")),
        (r#""optimal":true,"known":1"#, None),
        (r#""optimal":true,"known":5,"ok":false"#, None),
        (r#""optimal":false,"known":5"#, None),
        (r#""weight":0.5"#, Some("weight")),
        (r#""weight":1"#, None),
        (r#""weight":0.9,"optimal":true"#, Some("weight")),
    ] {
        let line = format!(r#"{{"tiles":[1,2,3,4,5,6,7,0,8],"moves":"R","length":1,{fields}}}"#);
        let c = check_json_line(&line, 1, &g).unwrap();
        match fails_on {
            None => assert!(c.passed(), "{fields}: {c:?}"),
            Some(want) => assert!(
                matches!(&c.result, Err(CheckError::Contradiction { field, .. }) if *field == want),
                "{fields}: {c:?}"
            ),
        }
    }
}

/// An answer said to be optimal that stands on a board twice (a detour: `RL`, or any loop)
/// replays to the goal in the length it claims, yet is no optimal answer: `check`, and
/// with it every resume and merge, fails it. Without a claim of optimality it passes.
#[test]
fn an_optimal_answer_that_stands_on_a_board_twice_fails() {
    let g = GoalSpec::Standard;
    let board = Board::parse("1 2 3 4 5 6 7 0 8").unwrap();
    assert_eq!(first_repeat(&board, &parse_moves("R").unwrap()), None);
    assert_eq!(first_repeat(&board, &parse_moves("URDR").unwrap()), None);
    assert_eq!(
        first_repeat(&board, &parse_moves("RLR").unwrap()),
        Some((0, 2))
    );
    // A loop of 12 moves around a 2x2 block, then the answer.
    let around = parse_moves("ULDRULDRULDRR").unwrap();
    assert_eq!(first_repeat(&board, &around), Some((0, 12)));
    let line = |moves: &str, extra: &str| {
        format!(
            r#"{{"tiles":[1,2,3,4,5,6,7,0,8],"length":{},"moves":"{moves}"{extra}}}"#,
            moves.len()
        )
    };
    for (moves, extra, passes) in [
        ("R", r#","optimal":true,"lower_bound":1"#, true),
        ("RLR", r#","optimal":true,"lower_bound":3"#, false),
        ("RLR", r#","lower_bound":3"#, false),
        ("ULDRULDRULDRR", r#","optimal":true"#, false),
        ("RLR", r#","optimal":false,"lower_bound":1"#, true),
        ("RLR", "", true),
    ] {
        let c = check_json_line(&line(moves, extra), 1, &g).unwrap();
        assert_eq!(c.passed(), passes, "{moves} {extra}: {c:?}");
        if !passes {
            let e = c.result.unwrap_err().to_string();
            assert!(e.contains("pass the same board"), "{e}");
        }
    }
    // The gate of answers from checkpoints and split parts, for an answer held to a bound.
    let rlr = parse_moves("RLR").unwrap();
    let goal = Goal::standard(shape3());
    assert!(vouch(&board, &goal, &rlr, 0, Some(3)).is_err());
    assert_eq!(vouch(&board, &goal, &rlr, 0, None), Ok(3));
}
