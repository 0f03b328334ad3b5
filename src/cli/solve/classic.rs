//! `solve --algorithm bfs|dfs|greedy|astar`, `--format report`, and the course's problem
//! files (`solve -i FILE` whose first line is a weight): the classic searches of
//! [`crate::classic`], one instance at a time (a graph search may take the memory
//! limit's worth), with their exact counts.

use std::io::Write;

use anyhow::{bail, Result};

use super::plan::{NoSolver, Plan};
use super::{input, sources};
use crate::board::moves_to_string;
use crate::classic::course::{self, Problem};
use crate::classic::{classic_solve, Algorithm, Answer, ClassicError};
use crate::cli::output::{emit, note};
use crate::instances::Reader;
use crate::record::{id_value, FailureKind, Record};
use crate::search::Weight;
use crate::{Goal, HeuristicKind, Instance};

/// Parses `--max-memory`: bytes, or a number with K, M, G or T (powers of 1024; a
/// trailing `B` or `iB` is allowed).
pub fn memory(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (num, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, ' '),
    };
    let scale: u64 = match unit {
        ' ' => 1,
        'K' => 1 << 10,
        'M' => 1 << 20,
        'G' => 1 << 30,
        'T' => 1 << 40,
        _ => return Err("give bytes, or a number with K, M, G or T (e.g. 512M)".into()),
    };
    let n: f64 = num
        .trim()
        .parse()
        .map_err(|_| "give bytes, or a number with K, M, G or T (e.g. 512M)".to_string())?;
    let bytes = n * scale as f64;
    if !(1024.0..=(1u64 << 50) as f64).contains(&bytes) {
        return Err("from 1K to 1024T".into());
    }
    Ok(bytes as u64)
}

/// Bytes for people: `812 B`, `1.5 KiB`, `12.0 MiB`, `1.0 GiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut x = b as f64 / 1024.0;
    let mut u = 0;
    while x >= 1024.0 && u < UNITS.len() - 1 {
        x /= 1024.0;
        u += 1;
    }
    format!("{x:.1} {}", UNITS[u])
}

/// `solve` with a classic algorithm or `--format report`: every instance in turn.
pub fn run(boards: Vec<String>, input: Option<String>, plan: &Plan) -> Result<i32> {
    let input = sources(boards, input, false)?.reader;
    let mut reader = Reader::new(input, plan.goal.clone()).with_size(plan.size);
    let mut solvers = plan.solvers()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = 0;
    let mut read = 0;
    let mut answered = 0;
    for next in reader.by_ref() {
        read += 1;
        let inst = match next {
            Ok(inst) => inst,
            Err(bad) => {
                failed += 1;
                if plan.json {
                    let r = Record {
                        line: Some(bad.line as u64),
                        ..Record::failed(&bad.id, (&bad.error).into(), bad.to_string(), None)
                    };
                    emit(&mut out, &(r.to_line() + "\n"))?;
                } else {
                    note!("error: {bad}");
                }
                continue;
            }
        };
        // Reports one after another are parted by a blank line (each holds blank lines
        // of its own, so two run together read as one longer report).
        let ok = one(&inst, None, plan, &mut solvers, &mut out, answered > 0)?;
        answered += usize::from(ok);
        if !ok {
            failed += 1;
        }
        if super::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(130);
        }
    }
    if let Some(e) = reader.take_io_error() {
        note!("error: reading input: {e}");
        return Ok(2);
    }
    if read == 0 {
        note!("error: no boards in the input (one board per line: n*n numbers, 0 = blank)");
        return Ok(2);
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// A course problem file: its instance, searched as `plan` says (A*, the file's weight
/// and Manhattan distance unless the command line says otherwise).
pub fn course_file(problem: &Problem, plan: &Plan) -> Result<i32> {
    let inst = Instance {
        id: "1".into(),
        known: None,
        board: problem.start,
        goal: Goal::from_board(problem.goal),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Before any table is built for it; said as any instance's error (a record with
    // --format json).
    if let Err(e) = inst.goal.labels(&inst.board) {
        let algorithm = plan.classic().algorithm;
        failure(&inst, algorithm, ClassicError::Board(e), plan, &mut out)?;
        return Ok(1);
    }
    let mut solvers = plan.solvers()?;
    let ok = one(&inst, Some(problem), plan, &mut solvers, &mut out, false)?;
    Ok(if ok { 0 } else { 1 })
}

/// The most a course problem file may hold: a weight and two grids of at most 36 cells.
const MAX_PROBLEM_BYTES: u64 = 64 * 1024;

/// Reads `path` when it is a course problem file (a regular file: a pipe is never one).
/// Only its first bytes are read to tell: an instance file of any size, or one with a line
/// that is not UTF-8 (an error of that line alone, later), is left to the instance reader.
pub fn problem_file(path: &str) -> Result<Option<Problem>> {
    let Some(text) = problem_text(path)? else {
        return Ok(None);
    };
    match course::parse(&text) {
        Ok(p) => Ok(Some(p)),
        Err(e) => bail!("{path}: {e}"),
    }
}

/// The text of `path` when it is meant as a course problem file (see [`problem_file`]).
pub fn problem_text(path: &str) -> Result<Option<String>> {
    // Only a regular file can be read twice: a pipe (`-i <(...)`, stdin) read here would
    // lose what this probe took.
    if path == "-" || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let mut head = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(
            input::open(path, "an instance file")?,
            MAX_PROBLEM_BYTES + 1,
        ),
        &mut head,
    )
    .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let Ok(text) = std::str::from_utf8(&head) else {
        return Ok(None);
    };
    // A byte-order mark, as some editors save text, is not part of the weight (the
    // instance reader skips it too).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !course::is_problem(text) {
        return Ok(None);
    }
    if head.len() as u64 > MAX_PROBLEM_BYTES {
        bail!("{path}: a course problem file (a weight on its first line) of more than {MAX_PROBLEM_BYTES} bytes");
    }
    Ok(Some(text.to_string()))
}

/// Solves one instance and prints it; false when it failed.
fn one(
    inst: &Instance,
    problem: Option<&Problem>,
    plan: &Plan,
    solvers: &mut super::plan::Solvers,
    out: &mut impl Write,
    after_a_report: bool,
) -> Result<bool> {
    // A blind search reads no estimate (but for the path's `f` in a report): it opens no
    // tables, and reports Manhattan distance unless another estimate is named.
    let solver = if !plan.algorithm.informed() && plan.kind == HeuristicKind::Pdb {
        crate::Solver::new(HeuristicKind::Manhattan)
    } else {
        match solvers.get(inst) {
            Ok(s) => s,
            Err(NoSolver::Interrupted) => return Ok(false),
            Err(NoSolver::Tables(why)) => bail!(why),
        }
    };
    let c = plan.classic();
    let result = classic_solve(&solver, &inst.board, &inst.goal, &c);
    let algorithm = c.algorithm;
    match result {
        Ok((answer, kind)) => {
            let text = if plan.report {
                let owned;
                // A problem file's W, unless --weight searched with another: the report's
                // W and f line are the search's.
                let p = match problem {
                    Some(p) if p.weight == c.weight => p,
                    _ => {
                        owned = Problem {
                            weight_text: format!("{}", c.weight.factor()),
                            weight: c.weight,
                            start: inst.board,
                            goal: *inst.goal.board(),
                        };
                        &owned
                    }
                };
                let gap = if after_a_report { "\n" } else { "" };
                format!("{gap}{}", course::report(p, &answer))
            } else if plan.json {
                record(inst, &answer, kind, plan).to_line() + "\n"
            } else {
                text(inst, &answer, kind, plan)
            };
            emit(out, &text)?;
            Ok(true)
        }
        Err(e) => failure(inst, algorithm, e, plan, out),
    }
}

/// Says why `inst` has no answer: a record with `--format json`, else a line on stderr.
/// Returns `false` (the instance failed) unless the output is lost.
fn failure(
    inst: &Instance,
    algorithm: Algorithm,
    e: ClassicError,
    plan: &Plan,
    out: &mut impl Write,
) -> Result<bool> {
    let message = format!("instance {}: {algorithm}: {e}", inst.id);
    if plan.json {
        let kind = match &e {
            ClassicError::Board(b) => b.into(),
            ClassicError::Stopped { .. } | ClassicError::DepthLimit { .. } => FailureKind::Limit,
        };
        let mut r =
            Record::failed(&inst.id, kind, message, None).with_instance(&inst.board, &inst.goal);
        r.known = inst.known.map(u64::from);
        r.algorithm = Some(algorithm.name().into());
        if let Some(c) = e.counts() {
            counts_into(&mut r, c);
        }
        emit(out, &(r.to_line() + "\n"))?;
    } else {
        let extra = e.counts().map_or(String::new(), |c| {
            format!(
                "; peak frontier {}, memory {}",
                c.peak_frontier,
                human_bytes(c.memory)
            )
        });
        note!("error: {message}{extra}");
    }
    Ok(false)
}

/// A record of `inst` with its id, size, board and goal, for the rest to be filled in.
pub fn instance_record(inst: &Instance) -> Record {
    Record {
        id: id_value(&inst.id),
        ..Record::default()
    }
    .with_instance(&inst.board, &inst.goal)
}

/// A classic search's counts into `r` (`nodes` is what it generated).
pub fn counts_into(r: &mut Record, c: &crate::classic::Counts) {
    r.nodes = Some(c.generated);
    r.expanded = Some(c.expanded);
    r.generated = Some(c.generated);
    r.peak_frontier = Some(c.peak_frontier);
    r.closed = c.closed;
    r.memory_bytes = Some(c.memory);
}

/// The JSON record of a classic answer.
fn record(inst: &Instance, a: &Answer, kind: HeuristicKind, plan: &Plan) -> Record {
    let algorithm = plan.classic().algorithm;
    let mut r = Record {
        length: Some(a.moves.len() as u64),
        optimal: Some(a.optimal),
        moves: Some(moves_to_string(&a.moves)),
        millis: Some((a.millis * 1000.0).round() / 1000.0),
        heuristic: algorithm.informed().then(|| kind.name().to_string()),
        bound: a.bound,
        known: inst.known.map(u64::from),
        ok: inst
            .known
            .map(|k| k as usize == a.moves.len() || (!a.optimal && k as usize <= a.moves.len())),
        algorithm: Some(algorithm.name().into()),
        weight: a.bound,
        ..instance_record(inst)
    };
    counts_into(&mut r, &a.counts);
    r
}

/// The text of a classic answer.
fn text(inst: &Instance, a: &Answer, kind: HeuristicKind, plan: &Plan) -> String {
    let c = plan.classic();
    let algorithm = c.algorithm;
    let len = a.moves.len();
    let mut s = format!("instance {}\n{}", inst.id, inst.board.render());
    let how = match (algorithm.informed(), c.weight) {
        (false, _) => format!("algorithm {algorithm}"),
        (true, w) if w == Weight::ONE || algorithm == crate::classic::Algorithm::Greedy => {
            format!("algorithm {algorithm}, heuristic {}", kind.name())
        }
        (true, w) => format!(
            "algorithm {algorithm}, heuristic {}, weight {}",
            kind.name(),
            w.factor()
        ),
    };
    let claim = match (a.optimal, a.bound, algorithm) {
        (true, _, _) => "optimal".to_string(),
        (false, Some(b), _) => format!("not proven optimal: at most {b} x optimal"),
        (false, None, crate::classic::Algorithm::Dfs) => format!(
            "not proven optimal: the first solution depth-first within {} moves",
            c.depth_limit
                .unwrap_or_else(|| crate::classic::default_depth_limit(
                    inst.board.shape().cells(),
                    inst.board.shape().rows as usize
                ))
        ),
        (false, None, _) => "not proven optimal: greedy, no bound".to_string(),
    };
    let agreement = match inst.known {
        Some(k) if k as usize == len => ", as expected".to_string(),
        Some(k) => format!(", the file says {k}"),
        None => String::new(),
    };
    let moves = if len == 0 {
        "(none: already solved)".to_string()
    } else {
        moves_to_string(&a.moves)
    };
    let closed = a
        .counts
        .closed
        .map_or(String::new(), |c| format!("   closed {c}"));
    s.push_str(&format!(
        "{how}\nlength {len} ({claim}){agreement}\nmoves  {moves}\n\
         expanded {}   generated {}   peak frontier {}{closed}   memory {}   time {:.1} ms\n\n",
        a.counts.expanded,
        a.counts.generated,
        a.counts.peak_frontier,
        human_bytes(a.counts.memory),
        a.millis
    ));
    s
}
