//! Boards and goals as Python hands them over (text, numbers), checked as the command line
//! checks them; boards replayed along moves, and random boards.

use fifteen::board::parse_moves;
use fifteen::check::check_solution;
use fifteen::random::{random_board, random_walk, Rng};
use fifteen::{Board, BoardError, GoalSpec, Shape};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::{board, board_error, goal, shape};

/// Reads a board given as text (`"1 2 3 4 5 6 7 8 0"`, rows on lines, or a list in
/// brackets as `str(list)` prints it), as the command line does: returns its tiles, rows
/// and columns.
#[pyfunction]
pub fn parse_board(py: Python<'_>, text: &str) -> PyResult<(Py<PyBytes>, usize, usize)> {
    let b = Board::parse(text).map_err(board_error)?;
    Ok((
        PyBytes::new(py, b.tiles()).unbind(),
        b.shape().rows as usize,
        b.shape().cols as usize,
    ))
}

/// Checks numbers as a board of `rows` x `cols` (0: a square board from the count): returns
/// its tiles, rows and columns, or raises `ValueError` with the command line's message.
#[pyfunction]
pub fn make_board(
    py: Python<'_>,
    numbers: Vec<i128>,
    rows: usize,
    cols: usize,
) -> PyResult<(Py<PyBytes>, usize, usize)> {
    let s = if rows == 0 {
        match Shape::square_of(numbers.len()) {
            Some(s) => s,
            None if numbers.is_empty() => return Err(board_error(BoardError::Empty)),
            None => return Err(board_error(BoardError::BadCount(numbers.len()))),
        }
    } else {
        shape(rows, cols)?
    };
    let mut tiles = Vec::with_capacity(numbers.len());
    for &n in &numbers {
        if n < 0 {
            return Err(PyValueError::new_err(format!(
                "the number {n} is out of range (0 to {})",
                s.cells() - 1
            )));
        }
        if n >= s.cells() as i128 {
            return Err(board_error(BoardError::OutOfRange {
                value: n.to_string(),
                max: s.cells() - 1,
                blank_missing: !numbers.contains(&0),
            }));
        }
        tiles.push(n as u8);
    }
    let b = Board::new(s, &tiles).map_err(board_error)?;
    Ok((
        PyBytes::new(py, b.tiles()).unbind(),
        s.rows as usize,
        s.cols as usize,
    ))
}

/// The goal named `name` (`standard`, `blank-first`, or numbers) for this shape.
#[pyfunction]
pub fn named_goal(py: Python<'_>, name: &str, rows: usize, cols: usize) -> PyResult<Py<PyBytes>> {
    let spec = GoalSpec::parse(name).map_err(board_error)?;
    let g = spec.for_shape(shape(rows, cols)?).map_err(board_error)?;
    Ok(PyBytes::new(py, g.board().tiles()).unbind())
}

/// Whether the board can reach the goal; raises `ValueError` for boards of another shape.
#[pyfunction]
pub fn is_solvable(tiles: &[u8], rows: usize, cols: usize, goal_tiles: &[u8]) -> PyResult<bool> {
    let b = board(tiles, rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    match g.labels(&b) {
        Ok(_) => Ok(true),
        Err(BoardError::Unsolvable { .. }) => Ok(false),
        Err(e) => Err(board_error(e)),
    }
}

/// For each board of a batch (`data`: boards of `rows` x `cols` cells, one after another),
/// 1 when it can reach the goal, else 0; `ValueError` naming the first board that is no
/// board (a repeated number, one out of range).
#[pyfunction]
pub fn are_solvable(
    py: Python<'_>,
    data: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
) -> PyResult<Py<PyBytes>> {
    let s = shape(rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    let out = crate::checked(py, data, s, |b| match g.labels(&b) {
        Ok(_) => Ok(1u8),
        Err(BoardError::Unsolvable { .. }) => Ok(0),
        Err(e) => Err(e),
    })?;
    Ok(PyBytes::new(py, &out).unbind())
}

/// Replays `moves` (the blank's moves, `U D L R`) from the board: the number of moves when
/// they reach the goal; `ValueError` with the command line's message otherwise.
#[pyfunction]
pub fn check(
    tiles: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    moves: &str,
) -> PyResult<usize> {
    let b = board(tiles, rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    let moves = parse_moves(moves).map_err(board_error)?;
    check_solution(&b, &g, &moves).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The boards along `moves` from the board, the board itself first: `(len + 1) * cells`
/// bytes. `ValueError` at a move off the board.
#[pyfunction]
pub fn replay(
    py: Python<'_>,
    tiles: &[u8],
    rows: usize,
    cols: usize,
    moves: &str,
) -> PyResult<Py<PyBytes>> {
    let mut b = board(tiles, rows, cols)?;
    let moves = parse_moves(moves).map_err(board_error)?;
    let mut out = Vec::with_capacity((moves.len() + 1) * b.tiles().len());
    out.extend_from_slice(b.tiles());
    for (i, &d) in moves.iter().enumerate() {
        b = b.apply(d).ok_or_else(|| {
            PyValueError::new_err(format!(
                "move {} ({}) takes the blank off the board",
                i + 1,
                d.letter()
            ))
        })?;
        out.extend_from_slice(b.tiles());
    }
    Ok(PyBytes::new(py, &out).unbind())
}

/// `n` boards drawn uniformly among those that reach the goal (or `walk` random moves from
/// it), from `seed`: the boards of `fifteen random --count n --seed seed` (`--walk`).
#[pyfunction]
#[pyo3(signature = (n, rows, cols, goal_tiles, seed, walk=None))]
pub fn random_boards(
    py: Python<'_>,
    n: usize,
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    seed: u64,
    walk: Option<usize>,
) -> PyResult<Py<PyBytes>> {
    let g = goal(goal_tiles, rows, cols)?;
    let cells = g.shape().cells();
    let too_many =
        || PyMemoryError::new_err(format!("{n} boards of {cells} cells do not fit in memory"));
    let total = n.checked_mul(cells).ok_or_else(too_many)?;
    let mut out = Vec::new();
    out.try_reserve_exact(total).map_err(|_| too_many())?;
    let mut rng = Rng::new(seed);
    // In chunks of a few million moves' work, Ctrl-C checked between them: a long batch
    // stops when asked (the boards are the same as drawn in one go).
    let chunk = ((1usize << 22) / (walk.unwrap_or(0) + cells)).max(1);
    let mut left = n;
    while left > 0 {
        let k = left.min(chunk);
        crate::report::without_gil(py, || {
            for _ in 0..k {
                let b = match walk {
                    Some(moves) => random_walk(&mut rng, &g, moves),
                    None => random_board(&mut rng, &g),
                };
                out.extend_from_slice(b.tiles());
            }
        });
        py.check_signals()?;
        left -= k;
    }
    crate::bytes_of(py, &out, |x| [x])
}
