//! The classic searches a course compares (`fifteen::classic`: breadth-first,
//! depth-first, greedy, A*, textbook IDA*) and the course's problem files and reports, for
//! the package's `search`, `compare`, `read_problem` and `write_report`. Each search is the
//! library's, run as `fifteen solve --algorithm` runs it, so its counts are the command
//! line's to the node.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use fifteen::board::{moves_to_string, parse_moves};
use fifteen::classic::course::{self, Problem};
use fifteen::classic::{
    classic_solve, reason_text, Algorithm, Answer, Classic, ClassicError, Counts, Step,
};
use fifteen::search::{Limits, Weight};
use fifteen::{Board, HeuristicKind, Solver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::{board, board_error, goal, report, tables, timeout, weight};

fn algorithm(name: &str) -> PyResult<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .find(|a| a.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown algorithm '{name}' (use bfs, dfs, greedy, astar or ida)"
            ))
        })
}

fn estimate(name: &str) -> PyResult<HeuristicKind> {
    [
        HeuristicKind::Hamming,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Pdb,
    ]
    .into_iter()
    .find(|k| k.name() == name)
    .ok_or_else(|| {
        let what = match name {
            "walking-distance" | "solve" => format!(
                "'{name}' is an estimate fifteen.heuristic computes, not one a search takes"
            ),
            _ => format!("unknown heuristic '{name}'"),
        };
        PyValueError::new_err(format!(
            "{what} (use hamming, manhattan, linear-conflict or pdb)"
        ))
    })
}

/// The counts as Python reads them, into `d`.
fn put_counts(d: &Bound<'_, PyDict>, c: &Counts) -> PyResult<()> {
    d.set_item("expanded", c.expanded)?;
    d.set_item("generated", c.generated)?;
    d.set_item("peak_frontier", c.peak_frontier)?;
    d.set_item("closed", c.closed)?;
    d.set_item("memory_bytes", c.memory)?;
    Ok(())
}

/// Runs one classic search. Returns a dict: `algorithm`, `heuristic` (the estimate read,
/// `None` for a blind search), the counts, `millis`, and either `moves`, `optimal`,
/// `bound` (a weighted search's factor), `steps` (`(g, h)` along the path) or `stopped`
/// (why it ended without an answer). `heuristic=None` is `pdb` for an informed search;
/// a blind one reads none but reports the path's `h` by Manhattan distance (for `pdb`
/// too), as the command line does.
#[pyfunction]
#[pyo3(signature = (tiles, rows, cols, goal_tiles, algorithm_name, heuristic=None,
    weight_factor=1.0, max_nodes=None, max_memory=None, depth_limit=None, timeout_secs=None,
    tables=None))]
#[allow(clippy::too_many_arguments)]
pub fn search<'py>(
    py: Python<'py>,
    tiles: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    algorithm_name: &str,
    heuristic: Option<&str>,
    weight_factor: f64,
    max_nodes: Option<u64>,
    max_memory: Option<u64>,
    depth_limit: Option<u32>,
    timeout_secs: Option<f64>,
    tables: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let b = board(tiles, rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    g.labels(&b).map_err(board_error)?;
    let a = algorithm(algorithm_name)?;
    let asked = heuristic.map(estimate).transpose()?;
    let w = weight(weight_factor)?;
    if !w.is_one() && !matches!(a, Algorithm::Astar | Algorithm::Ida) {
        // It would run unweighted and say nothing, its result claiming the weight.
        return Err(PyValueError::new_err(format!(
            "weight={weight_factor} weighs h against g in f = g + weight*h, which only \"astar\" and \"ida\" use ({:?} does not)",
            a.name()
        )));
    }
    let limit: Option<Duration> = timeout(timeout_secs)?;
    let solver = match (a.informed(), asked) {
        // A blind search with `pdb` named too, as the command line runs it: the tables
        // would search in their reflected frame, and change its counts and path.
        (false, None | Some(HeuristicKind::Pdb)) => Solver::new(HeuristicKind::Manhattan),
        (_, kind) => tables::solver(
            py,
            &tables::directory(tables),
            b.shape(),
            g.blank(),
            kind.unwrap_or(HeuristicKind::Pdb),
        )?,
    };
    let stop = AtomicBool::new(false);
    let deadline = limit.map(|t| Instant::now() + t);
    let t0 = Instant::now();
    let result = report::blocking(
        py,
        &stop,
        || {
            let c = Classic {
                algorithm: a,
                weight: w,
                depth_limit,
                limits: Limits {
                    max_nodes,
                    deadline,
                    stop: Some(&stop),
                },
                max_memory,
            };
            classic_solve(&solver, &b, &g, &c)
        },
        |_| Ok(()),
    )?;
    let millis = t0.elapsed().as_secs_f64() * 1000.0;
    let d = PyDict::new(py);
    d.set_item("algorithm", a.name())?;
    match result {
        Ok((answer, kind)) => {
            // A blind search reads no estimate, whichever `heuristic=` names (that one
            // only gives the path's `h`): none, as the command line's JSON records none.
            d.set_item("heuristic", a.informed().then(|| kind.name()))?;
            put_counts(&d, &answer.counts)?;
            d.set_item("millis", answer.millis)?;
            d.set_item("moves", moves_to_string(&answer.moves))?;
            d.set_item("optimal", answer.optimal)?;
            d.set_item("bound", answer.bound)?;
            let steps: Vec<(u32, u32)> = answer.path.iter().map(|s| (s.g, s.h)).collect();
            d.set_item("steps", steps)?;
        }
        Err(ClassicError::Board(e)) => return Err(board_error(e)),
        Err(e) => {
            let used = a.informed().then(|| solver.kind().name());
            d.set_item("heuristic", used)?;
            put_counts(&d, e.counts().expect("a stopped search has counts"))?;
            d.set_item("millis", millis)?;
            d.set_item(
                "stopped",
                match &e {
                    ClassicError::Stopped { reason, .. } => reason_text(*reason).to_string(),
                    ClassicError::DepthLimit { limit, .. } => {
                        format!("no solution within the depth limit of {limit} moves")
                    }
                    ClassicError::Board(_) => unreachable!("returned above"),
                },
            )?;
        }
    }
    Ok(d)
}

/// The rows of `compare`: `(algorithm, heuristic or None)`, in the command line's order.
#[pyfunction]
pub fn comparison_rows() -> Vec<(&'static str, Option<&'static str>)> {
    fifteen::classic::COMPARISON
        .iter()
        .map(|(a, k)| (a.name(), k.map(|k| k.name())))
        .collect()
}

fn course_error(path: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{path}: {e}"))
}

/// A problem as Python gets it: `(weight_text, weight, start, goal, rows, cols)`.
type ProblemParts<'py> = (
    String,
    f64,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
    usize,
);

/// Reads a course problem file's text: `(weight_text, weight, start, goal, rows, cols)`.
#[pyfunction]
pub fn parse_problem<'py>(py: Python<'py>, text: &str, name: &str) -> PyResult<ProblemParts<'py>> {
    let p = course::parse(text).map_err(|e| course_error(name, e))?;
    let s = p.start.shape();
    Ok((
        p.weight_text,
        p.weight.factor(),
        PyBytes::new(py, p.start.tiles()),
        PyBytes::new(py, p.goal.tiles()),
        s.rows as usize,
        s.cols as usize,
    ))
}

/// The report of a search of a course problem: the same text `fifteen solve -i FILE
/// --format report` prints. `steps` are the `(g, h)` along the path.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn course_report(
    weight_text: &str,
    start: &[u8],
    goal_tiles: &[u8],
    rows: usize,
    cols: usize,
    moves: &str,
    generated: u64,
    steps: Vec<(u32, u32)>,
) -> PyResult<String> {
    let weight = weight_text
        .trim()
        .parse::<f64>()
        .ok()
        .and_then(Weight::from_factor)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "weight '{weight_text}': the weight W must be a number from 1 to 100"
            ))
        })?;
    let start = board(start, rows, cols)?;
    let goal: Board = board(goal_tiles, rows, cols)?;
    let moves = parse_moves(moves).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if steps.len() != moves.len() + 1 {
        return Err(PyValueError::new_err(format!(
            "{} steps for {} moves: a path has one more board than moves",
            steps.len(),
            moves.len()
        )));
    }
    let problem = Problem {
        weight_text: weight_text.to_string(),
        weight,
        start,
        goal,
    };
    let answer = Answer {
        moves,
        path: steps.into_iter().map(|(g, h)| Step { g, h }).collect(),
        counts: Counts {
            generated,
            ..Counts::default()
        },
        optimal: false,
        bound: None,
        millis: 0.0,
    };
    Ok(course::report(&problem, &answer))
}
