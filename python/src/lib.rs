//! `fifteen._native`: the Rust half of the `fifteen` Python package. The Python half
//! (`fifteen/`, its arguments checked in `_args.py`) turns boards, arrays and goals into the
//! bytes these functions take, and their answers into `Solution` objects and NumPy arrays;
//! everything here is the library's one search API (`Solver::solve` with a `Search`), run
//! as `fifteen solve` runs it, with the GIL released while it works.
//!
//! Boards cross as `bytes` (one byte a cell, row-major) with their rows and columns; a
//! goal crosses as the goal board's bytes.
//!
//! A module a concern: this one checks what Python hands over (boards, goals, weights,
//! limits) and registers the functions; [`boards`] reads, checks, replays and draws
//! boards; [`solve`] runs the solver on one board or a batch; [`estimate`] computes the
//! estimates a course compares; [`classic`] runs the classic searches and reads and writes
//! course files; [`tables`] opens and builds the pattern databases; [`pool`] keeps the
//! worker threads; [`report`] runs long work off the interpreter's thread and tells Python
//! what happens meanwhile.

use std::time::Duration;

use fifteen::search::Weight;
use fifteen::{Board, BoardError, Goal, HeuristicKind, Shape};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod boards;
mod classic;
mod estimate;
mod pool;
mod report;
mod solve;
mod tables;

/// A board error as Python's `ValueError`, with the command line's message (see
/// [`board_message`]).
fn board_error(e: BoardError) -> PyErr {
    PyValueError::new_err(board_message(&e))
}

/// A board error's message: the command line's, except where that gives the command
/// line's advice (`--size RxC`, `--goal`): a count that makes no square board and a board
/// that can reach the other built-in goal get Python's; and rows of different lengths are
/// worded as the Python half words a list of rows of different lengths.
fn board_message(e: &BoardError) -> String {
    match e {
        BoardError::BadCount(_) => e.to_string().replace(
            "other shapes need --size RxC, or a `size: RxC` line in a file",
            "other shapes need their rows: a 2-D array such as \
             np.array([[1, 2, 3], [4, 0, 5]]), or text with a row a line",
        ),
        BoardError::Unsolvable { other: Some(goal) } => e.to_string().replace(
            &format!("give --goal {goal}, or a `goal: {goal}` line in a file"),
            &format!("give goal=\"{goal}\""),
        ),
        BoardError::UnevenRows { row, count, first } => format!(
            "row {row} has {count} numbers but row 1 has {first} (a board's rows must all be \
             the same length)"
        ),
        e => e.to_string(),
    }
}

/// [`board_message`] for a board of a batch: an unsolvable one also says how to leave
/// such boards out, since a batch of random permutations holds half of them, and the
/// other goal, right for a set of Korf's boards, would refuse the other half.
fn batch_message(e: &BoardError) -> String {
    let message = board_message(e);
    match e {
        BoardError::Unsolvable { .. } => format!(
            "{message}; to drop the boards no search can solve, keep those \
             fifteen.is_solvable marks True: boards[fifteen.is_solvable(boards)] (half of \
             random permutations are not)"
        ),
        _ => message,
    }
}

fn shape(rows: usize, cols: usize) -> PyResult<Shape> {
    Shape::new(rows, cols).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{rows}x{cols} is not a board size (4 to 36 cells, at least 2 rows and columns)"
        ))
    })
}

fn board(tiles: &[u8], rows: usize, cols: usize) -> PyResult<Board> {
    Board::new(shape(rows, cols)?, tiles).map_err(board_error)
}

fn goal(tiles: &[u8], rows: usize, cols: usize) -> PyResult<Goal> {
    Ok(Goal::from_board(board(tiles, rows, cols)?))
}

fn kind(name: &str) -> PyResult<HeuristicKind> {
    match name {
        "pdb" => Ok(HeuristicKind::Pdb),
        "linear-conflict" => Ok(HeuristicKind::LinearConflict),
        "manhattan" => Ok(HeuristicKind::Manhattan),
        "hamming" => Ok(HeuristicKind::Hamming),
        other @ ("walking-distance" | "solve") => Err(PyValueError::new_err(format!(
            "'{other}' is an estimate fifteen.heuristic computes, not one a search takes \
             (use pdb, linear-conflict, manhattan or hamming)"
        ))),
        other => Err(PyValueError::new_err(format!(
            "unknown heuristic '{other}' (use pdb, linear-conflict, manhattan or hamming)"
        ))),
    }
}

fn weight(w: f64) -> PyResult<Weight> {
    Weight::from_factor(w).ok_or_else(|| {
        PyValueError::new_err("weight: give a number from 1 to 100 (1 is the optimal search)")
    })
}

/// The weight a search asked for `w` runs with, as a number: `w` rounded down to a
/// multiple of 1/1000 (`Weight::from_factor`, as the command line's `--weight`), so that
/// what Python reports is what the search did.
#[pyfunction]
fn weight_factor(w: f64) -> PyResult<f64> {
    Ok(weight(w)?.factor())
}

fn timeout(t: Option<f64>) -> PyResult<Option<Duration>> {
    t.map(|s| {
        Duration::try_from_secs_f64(s)
            .map_err(|_| PyValueError::new_err("timeout: give a number of seconds, 0 or more"))
    })
    .transpose()
}

/// Room for `n` items, or `MemoryError`. Rust's default answer to a failed allocation
/// aborts the whole process (a notebook's kernel dies), and a batch of millions of boards
/// under a memory limit (`ulimit -v`, a cluster job's) can meet one.
pub(crate) fn room<T>(n: usize) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        let mb = (n as f64) * (std::mem::size_of::<T>() as f64) / 1e6;
        PyMemoryError::new_err(format!(
            "{n} items of {} bytes ({mb:.0} MB) do not fit in memory: give the boards in \
             smaller batches",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(v)
}

/// `n` copies of `x`, or `MemoryError` (see [`room`]).
pub(crate) fn filled<T: Clone>(n: usize, x: T) -> PyResult<Vec<T>> {
    let mut v = room(n)?;
    v.resize(n, x);
    Ok(v)
}

/// `bytes` holding `items`, each as `W` bytes, or `MemoryError`: `PyBytes::new` panics when
/// Python cannot allocate, which reaches Python as `PanicException`, a `BaseException`
/// that `except Exception` misses.
pub(crate) fn bytes_of<T: Copy, const W: usize>(
    py: Python<'_>,
    items: &[T],
    each: impl Fn(T) -> [u8; W],
) -> PyResult<Py<PyBytes>> {
    let len = items
        .len()
        .checked_mul(W)
        .ok_or_else(|| PyMemoryError::new_err("an output too large for memory"))?;
    let b = PyBytes::new_with(py, len, |buf| {
        for (out, &x) in buf.chunks_exact_mut(W).zip(items) {
            out.copy_from_slice(&each(x));
        }
        Ok(())
    })
    .map_err(|e| {
        if e.is_instance_of::<PyMemoryError>(py) {
            PyMemoryError::new_err(format!(
                "an output of {len} bytes ({:.0} MB) does not fit in memory: give the boards \
                 in smaller batches",
                len as f64 / 1e6
            ))
        } else {
            e
        }
    })?;
    Ok(b.unbind())
}

/// Boards at a time between two looks at Ctrl-C in a pass over a batch: a few
/// hundredths of a second's work.
const CHUNK: usize = 1 << 16;

/// The boards packed in `data` (whole boards of `s`'s cells), each checked and turned into
/// a `T` by `each`; the first that fails is named by its row. In chunks with the GIL
/// released and Ctrl-C checked between them: tens of millions of boards take seconds.
fn checked<T: Send>(
    py: Python<'_>,
    data: &[u8],
    s: Shape,
    each: impl Fn(Board) -> Result<T, BoardError> + Sync,
) -> PyResult<Vec<T>> {
    let cells = s.cells();
    if !data.len().is_multiple_of(cells) {
        return Err(PyValueError::new_err(format!(
            "{} bytes are not whole boards of {cells} cells",
            data.len()
        )));
    }
    let mut out = room(data.len() / cells)?;
    for (k, chunk) in data.chunks(cells * CHUNK).enumerate() {
        crate::report::without_gil(py, || -> Result<(), String> {
            for (i, t) in chunk.chunks(cells).enumerate() {
                let x = Board::new(s, t)
                    .and_then(&each)
                    .map_err(|e| format!("board {}: {}", k * CHUNK + i, batch_message(&e)))?;
                out.push(x);
            }
            Ok(())
        })
        .map_err(PyValueError::new_err)?;
        py.check_signals()?;
    }
    Ok(out)
}

/// Sets the function that receives notes and table-build progress (see `report`).
#[pyfunction]
#[pyo3(signature = (f=None))]
fn set_reporter(f: Option<PyObject>) {
    report::set_reporter(f);
}

/// The native half of the `fifteen` package; use `fifteen`, not this.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(boards::parse_board, m)?)?;
    m.add_function(wrap_pyfunction!(report::exiting, m)?)?;
    m.add_function(wrap_pyfunction!(boards::make_board, m)?)?;
    m.add_function(wrap_pyfunction!(boards::named_goal, m)?)?;
    m.add_function(wrap_pyfunction!(boards::is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(boards::are_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(boards::check, m)?)?;
    m.add_function(wrap_pyfunction!(boards::replay, m)?)?;
    m.add_function(wrap_pyfunction!(boards::random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(tables::load_tables, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(solve::boards_at_distance, m)?)?;
    m.add_function(wrap_pyfunction!(estimate::heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(set_reporter, m)?)?;
    m.add_function(wrap_pyfunction!(weight_factor, m)?)?;
    m.add_function(wrap_pyfunction!(classic::search, m)?)?;
    m.add_function(wrap_pyfunction!(classic::comparison_rows, m)?)?;
    m.add_function(wrap_pyfunction!(classic::parse_problem, m)?)?;
    m.add_function(wrap_pyfunction!(classic::course_report, m)?)?;
    Ok(())
}
