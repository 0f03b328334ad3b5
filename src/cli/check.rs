//! `fifteen check`: replays solutions (one board and its moves, or a results file) and says
//! for each whether it reaches the goal in the length it claims.

use std::io::{BufRead, IsTerminal};
use std::sync::atomic::Ordering;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use super::args::{self, Format};
use super::output::{emit, note};
use super::{input, INTERRUPTED};
use crate::board::parse_moves;
use crate::check::{replay, CheckError, Lines, Replay};
use crate::{Board, GoalSpec, Shape};

/// Arguments of `fifteen check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A results file (or - for stdin); with --moves, the board instead.
    args: Vec<String>,
    /// A results file (or - for stdin).
    #[arg(short, long)]
    input: Option<String>,
    /// The moves of the blank (U D L R) to replay from the board given as argument.
    #[arg(long)]
    moves: Option<String>,
    /// The goal for a board given with --moves, and for results lines without a
    /// "goal" field: standard (1 2 ... 0), blank-first or korf (0 1 2 ...), or the goal's numbers.
    #[arg(long, default_value = "standard", value_parser = args::goal)]
    goal: GoalSpec,
    /// Output: text for people, json for programs (one JSON object per line).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The shape of the board given with --moves: RxC (e.g. 3x4) or N. Square boards follow
    /// from their count; results lines say their own ("size").
    #[arg(long, value_name = "RxC", value_parser = args::shape, allow_negative_numbers = true)]
    size: Option<Shape>,
}

/// Checks what was given; exit status 0 all check, 1 some do not.
pub fn run(a: CheckArgs) -> Result<i32> {
    let json = a.format == Format::Json;
    match a.moves {
        Some(moves) => {
            if a.input.is_some() {
                bail!("give either a board with --moves or a results file, not both");
            }
            one_board(&a.args, &moves, &a.goal, a.size, json)
        }
        None if a.size.is_some() => {
            bail!("--size is for a board given with --moves (results lines carry their \"size\")")
        }
        None => results_file(a.input, &a.args, a.goal, json),
    }
}

/// One board, given as arguments like `solve` takes it, and its moves.
fn one_board(
    args: &[String],
    moves: &str,
    goal: &GoalSpec,
    size: Option<Shape>,
    json: bool,
) -> Result<i32> {
    if args.is_empty() {
        bail!("--moves needs the board it starts from: fifteen check \"1 2 3 ...\" --moves ...");
    }
    let text = input::one_board(args, size, "check --moves")?;
    let board = match size {
        Some(shape) => Board::parse_as(&text, shape),
        None => Board::parse(&text),
    }
    .context("bad board")?;
    let goal = goal.for_shape(board.shape()).context("bad --goal")?;
    let moves = parse_moves(moves).context("bad --moves")?;
    let result = replay(&board, &goal, &moves);
    let (ok, why) = describe(&result, None);
    let line = if json {
        let mut v = replay_json(&result, None);
        v["goal"] = goal.board().tiles().into();
        v.to_string()
    } else {
        format!(
            "{}: {why} ({} goal)",
            if ok { "ok" } else { "FAIL" },
            goal.name()
        )
    };
    emit(&mut std::io::stdout(), &format!("{line}\n"))?;
    Ok(if ok { 0 } else { 1 })
}

/// A JSON Lines results file, line by line.
fn results_file(input: Option<String>, args: &[String], goal: GoalSpec, json: bool) -> Result<i32> {
    let path = match (input, args) {
        (Some(i), []) => i,
        (None, [a]) => a.clone(),
        (None, []) => {
            if std::io::stdin().is_terminal() {
                bail!(
                    "nothing to check: give a results file, - for stdin, or a board with --moves"
                );
            }
            "-".into()
        }
        _ => bail!("give one results file (or - for stdin); to check a board, add --moves"),
    };
    let reader: Box<dyn BufRead> = match input::open(&path, "a results file") {
        Ok(r) => r,
        Err(e) if Board::parse(&path).is_ok() => {
            bail!("{e:#} (it looks like a board: add --moves)")
        }
        Err(e) => return Err(e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut lines = Lines::new(reader, goal);
    // Lines that read as boards, and failures that are no parse error: a file of boards
    // (comments and `goal:` lines are parse errors) was given instead of solve's output.
    let (mut passed, mut failed, mut instances, mut checked) = (0u64, 0u64, 0u64, 0u64);
    let interrupted = || {
        note!("interrupted: the lines above were checked; the rest were not");
        Ok(130)
    };
    for c in lines.by_ref() {
        let (ok, why) = describe(&c.result, c.claimed);
        match c.result {
            Err(CheckError::NotAResult) => instances += 1,
            Err(CheckError::NotJson(_)) => {}
            _ => checked += 1,
        }
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        let line = if json {
            let mut v = replay_json(&c.result, c.claimed);
            v["line"] = c.line.into();
            if let Some(id) = &c.id {
                v["id"] = id.clone();
            }
            v.to_string()
        } else {
            let id = match &c.id {
                Some(Value::String(s)) => format!(" (id {s})"),
                Some(v) => format!(" (id {v})"),
                None => String::new(),
            };
            format!(
                "line {}{id}: {}: {why}",
                c.line,
                if ok { "ok" } else { "FAIL" }
            )
        };
        emit(&mut out, &format!("{line}\n"))?;
        if INTERRUPTED.load(Ordering::Relaxed) {
            return interrupted();
        }
    }
    if INTERRUPTED.load(Ordering::Relaxed) {
        // Ctrl-C while waiting for input: what was printed is all that was checked.
        return interrupted();
    }
    if let Some(e) = lines.take_io_error() {
        note!("error: reading {path}: {e}");
        return Ok(2);
    }
    let total = passed + failed;
    if total == 0 {
        note!("error: no results in {path} (JSON Lines as `fifteen solve --format json` prints)");
        return Ok(2);
    }
    if instances > 0 && checked == 0 {
        note!("error: {path} holds boards, not results: solve them with `fifteen solve -i {path} --format json`, and check what that prints");
        return Ok(2);
    }
    if !json {
        let noun = if total == 1 { "result" } else { "results" };
        emit(
            &mut out,
            &format!("{total} {noun}: {passed} ok, {failed} failed\n"),
        )?;
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// What a replay says, for people: whether it passed, and one line of why.
fn describe(result: &Result<Replay, CheckError>, claimed: Option<u64>) -> (bool, String) {
    let moves = |n: usize| {
        if n == 1 {
            "1 move".to_string()
        } else {
            format!("{n} moves")
        }
    };
    match result {
        Err(e) => (false, e.to_string()),
        Ok(r) if !r.reaches_goal => (
            false,
            format!(
                "does not reach the goal: {} at {}",
                crate::check::moves_end(r.length),
                r.end
            ),
        ),
        Ok(r) => match claimed {
            Some(c) if c != r.length as u64 => (
                false,
                format!("reaches the goal in {}, but claims {c}", moves(r.length)),
            ),
            Some(_) => (
                true,
                format!("reaches the goal in {}, as claimed", moves(r.length)),
            ),
            None => (true, format!("reaches the goal in {}", moves(r.length))),
        },
    }
}

/// What a replay says, for programs: `ok`, and `reaches_goal`, `length`, `claimed`,
/// `length_ok` (and `end` when the goal is not reached), or `error` (and `field`, for a
/// record whose fields contradict one another).
fn replay_json(result: &Result<Replay, CheckError>, claimed: Option<u64>) -> Value {
    let (ok, _) = describe(result, claimed);
    let mut v = serde_json::json!({ "ok": ok });
    match result {
        Err(e) => {
            v["error"] = e.to_string().into();
            if let CheckError::Contradiction { field, .. } = e {
                v["field"] = (*field).into();
            }
        }
        Ok(r) => {
            v["reaches_goal"] = r.reaches_goal.into();
            v["length"] = r.length.into();
            if !r.reaches_goal {
                v["end"] = r.end.tiles().into();
            }
            if let Some(c) = claimed {
                v["claimed"] = c.into();
                v["length_ok"] = (c == r.length as u64).into();
            }
        }
    }
    v
}
