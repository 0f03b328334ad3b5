//! `fifteen._native`: the Rust half of the `fifteen` Python package. The Python half
//! (`fifteen/__init__.py`) turns boards, arrays and goals into the bytes these functions
//! take, and their answers into `Solution` objects and NumPy arrays; everything here is
//! the library's one search API (`Solver::solve` with a `Search`), run as `fifteen solve`
//! runs it, with the GIL released while it works.
//!
//! Boards cross as `bytes` (one byte a cell, row-major) with their rows and columns; a
//! goal crosses as the goal board's bytes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fifteen::batch::run_ordered;
use fifteen::board::{moves_to_string, parse_moves};
use fifteen::check::check_solution;
use fifteen::random::{random_board, random_walk, Rng};
use fifteen::search::{
    Geometry, Heuristic, Limits, LinearConflict, Search, StopReason, WalkingDistance, Weight, Wide,
};
use fifteen::{
    Board, BoardError, Goal, GoalSpec, HeuristicKind, Labels, Shape, SolveError, Solver,
};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod classic;
mod report;
mod tables;

/// A board error as Python's `ValueError`, with the command line's message, except where
/// that gives the command line's advice (`--size RxC`): a count that makes no square board
/// gets Python's.
fn board_error(e: BoardError) -> PyErr {
    match e {
        BoardError::BadCount(n) => PyValueError::new_err(format!(
            "{n} numbers do not make a board (give 4, 9, 16, 25 or 36 numbers for a square \
             board; other shapes need their rows: a 2-D array such as \
             np.array([[1, 2, 3], [4, 0, 5]]), or text with a row a line)"
        )),
        e => PyValueError::new_err(e.to_string()),
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
        other => Err(PyValueError::new_err(format!(
            "unknown heuristic '{other}' (use pdb, linear-conflict or manhattan)"
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

/// Worker threads: as asked, or all cores (as the command line's `--threads`).
pub(crate) fn threads(asked: Option<usize>) -> PyResult<usize> {
    match asked {
        Some(0) => Err(PyValueError::new_err("threads: give at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The Rayon pool for `n` threads. The last one built is kept (a pool is not free to start,
/// and `solve` on an easy board must take well under a millisecond) and replaced when
/// another count is asked for, so that calls with many counts leave no idle threads
/// behind (a replaced pool's threads end once no running call holds it). A pool starts
/// on a thread of its own with the GIL released, Ctrl-C checked while it does: a thousand
/// threads take seconds to start on a busy machine.
///
/// A pool is kept with the process that built it: a forked child (`multiprocessing`'s
/// default on Linux) has the parent's pool but none of its threads, and work handed to it
/// would wait for good. The child builds its own, and leaves the parent's alone (dropping
/// it would wake threads that are not there).
pub(crate) fn pool(py: Python<'_>, n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    type Kept = Option<(u32, usize, Arc<rayon::ThreadPool>)>;
    static POOL: Mutex<Kept> = Mutex::new(None);
    fn slot() -> std::sync::MutexGuard<'static, Kept> {
        POOL.lock().unwrap_or_else(|e| e.into_inner())
    }
    let me = std::process::id();
    {
        let mut kept = slot();
        match &*kept {
            Some((pid, k, p)) if *pid == me && *k == n => return Ok(p.clone()),
            Some((pid, ..)) if *pid != me => std::mem::forget(kept.take()),
            _ => {}
        }
    }
    let cannot = |e: String| PyOSError::new_err(format!("cannot start worker threads: {e}"));
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .spawn(move || {
            // The old pool first, so that its threads and the new ones do not add up; the
            // lock is not held while the new one starts (another call may look meanwhile).
            drop(slot().take());
            let p = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Arc::new)
                .map_err(|e| e.to_string());
            if let Ok(p) = &p {
                *slot() = Some((me, n, p.clone()));
            }
            let _ = tx.send(p);
        })
        .map_err(|e| cannot(e.to_string()))?;
    // In a mutex: a receiver may not be shared with the thread that waits without the GIL.
    let rx = Mutex::new(rx);
    loop {
        let got = py.allow_threads(|| {
            rx.lock()
                .unwrap_or_else(|e| e.into_inner())
                .recv_timeout(report::TICK)
        });
        match got {
            Ok(p) => return p.map_err(cannot),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(cannot("the thread starting them ended".to_string()))
            }
        }
    }
}

fn timeout(t: Option<f64>) -> PyResult<Option<Duration>> {
    t.map(|s| {
        Duration::try_from_secs_f64(s)
            .map_err(|_| PyValueError::new_err("timeout: give a number of seconds, 0 or more"))
    })
    .transpose()
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
    let mut out = Vec::with_capacity(data.len() / cells);
    for (k, chunk) in data.chunks(cells * CHUNK).enumerate() {
        py.allow_threads(|| -> Result<(), String> {
            for (i, t) in chunk.chunks(cells).enumerate() {
                let x = Board::new(s, t)
                    .and_then(&each)
                    .map_err(|e| format!("board {}: {e}", k * CHUNK + i))?;
                out.push(x);
            }
            Ok(())
        })
        .map_err(PyValueError::new_err)?;
        py.check_signals()?;
    }
    Ok(out)
}

/// `f` of every board of a checked batch (its tiles and labels), in chunks with the GIL
/// released and Ctrl-C checked between them, as [`checked`] goes.
fn estimates(
    py: Python<'_>,
    data: &[u8],
    cells: usize,
    labels: &[Labels],
    f: impl Fn(&[u8], &Labels) -> u32 + Sync,
) -> PyResult<Vec<u32>> {
    let mut out = Vec::with_capacity(labels.len());
    for (tiles, labels) in data.chunks(cells * CHUNK).zip(labels.chunks(CHUNK)) {
        py.allow_threads(|| out.extend(tiles.chunks(cells).zip(labels).map(|(t, l)| f(t, l))));
        py.check_signals()?;
    }
    Ok(out)
}

fn reason(r: StopReason) -> &'static str {
    match r {
        StopReason::MaxNodes => "node limit reached",
        StopReason::Timeout => "time limit reached",
        StopReason::MaxMemory => "memory limit reached",
        StopReason::Interrupted => "interrupted",
    }
}

/// Reads a board given as text (`"1 2 3 4 5 6 7 8 0"`, or rows on lines), as the command
/// line does: returns its tiles, rows and columns.
#[pyfunction]
fn parse_board(py: Python<'_>, text: &str) -> PyResult<(Py<PyBytes>, usize, usize)> {
    let b = Board::parse(text);
    // Rows of different lengths are a mistake, not a square board: the library would read
    // "1 2 3 / 4 5 / 6 7 8 0" as 3x3. (Its own errors, a word that is no number, come first.)
    if !matches!(b, Err(BoardError::NotANumber(_) | BoardError::Empty)) {
        ragged(text)?;
    }
    let b = b.map_err(board_error)?;
    Ok((
        PyBytes::new(py, b.tiles()).unbind(),
        b.shape().rows as usize,
        b.shape().cols as usize,
    ))
}

/// Refuses a board given as rows on lines (numbers separated as `Board::parse` separates
/// them; lines without numbers skipped) that are not all as long as the first, naming the
/// first row that is not.
fn ragged(text: &str) -> PyResult<()> {
    let lengths = text
        .lines()
        .map(|line| {
            line.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .count()
        })
        .filter(|&n| n > 0);
    let mut first = None;
    for (i, n) in lengths.enumerate() {
        match first {
            None => first = Some(n),
            Some(f) if f != n => {
                return Err(PyValueError::new_err(format!(
                    "row {} has {n} numbers but row 1 has {f} (a board's rows must all be \
                     the same length)",
                    i + 1
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks numbers as a board of `rows` x `cols` (0: a square board from the count): returns
/// its tiles, rows and columns, or raises `ValueError` with the command line's message.
#[pyfunction]
fn make_board(
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
                value: u64::try_from(n).unwrap_or(u64::MAX),
                max: s.cells() - 1,
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
fn named_goal(py: Python<'_>, name: &str, rows: usize, cols: usize) -> PyResult<Py<PyBytes>> {
    let spec = GoalSpec::parse(name).map_err(board_error)?;
    let g = spec.for_shape(shape(rows, cols)?).map_err(board_error)?;
    Ok(PyBytes::new(py, g.board().tiles()).unbind())
}

/// Whether the board can reach the goal; raises `ValueError` for boards of another shape.
#[pyfunction]
fn is_solvable(tiles: &[u8], rows: usize, cols: usize, goal_tiles: &[u8]) -> PyResult<bool> {
    let b = board(tiles, rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    match g.labels(&b) {
        Ok(_) => Ok(true),
        Err(BoardError::Unsolvable) => Ok(false),
        Err(e) => Err(board_error(e)),
    }
}

/// Replays `moves` (the blank's moves, `U D L R`) from the board: the number of moves when
/// they reach the goal; `ValueError` with the command line's message otherwise.
#[pyfunction]
fn check(
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
fn replay(
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
fn random_boards(
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
        py.allow_threads(|| {
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
    Ok(PyBytes::new(py, &out).unbind())
}

/// The tables directory a call with `tables` uses.
#[pyfunction]
#[pyo3(signature = (tables=None))]
fn tables_dir(tables: Option<PathBuf>) -> PathBuf {
    tables::directory(tables)
}

/// Opens (building on first use, with the notice) the tables `solve` uses for boards of
/// this shape and goal; returns the partitions used (empty: none, linear conflict).
#[pyfunction]
#[pyo3(signature = (rows, cols, goal_tiles, tables=None))]
fn load_tables(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    tables: Option<PathBuf>,
) -> PyResult<Vec<String>> {
    let g = goal(goal_tiles, rows, cols)?;
    let dir = tables::directory(tables);
    Ok(match tables::set(py, &dir, g.shape(), g.blank())? {
        None => vec![],
        Some(s) => {
            let mut names = vec![s.first.partition.name()];
            if let Some(p) = &s.extras.second {
                names.push(format!("second {}", p.partition.name()));
            }
            if s.extras.dual.is_some() {
                names.push("dual".to_string());
            }
            names
        }
    })
}

/// What one search found, as Python gets it: `(solved, moves, lower_bound, nodes,
/// millis, heuristic, stop_reason)`.
type Answer = (bool, String, u32, u64, f64, &'static str, &'static str);

fn answer(r: Result<fifteen::Solution, SolveError>, millis: f64) -> PyResult<Answer> {
    match r {
        Ok(s) => Ok((
            true,
            moves_to_string(&s.moves),
            s.lower_bound,
            s.nodes,
            s.millis,
            s.heuristic.name(),
            "",
        )),
        Err(SolveError::Stopped(s)) => Ok((
            false,
            String::new(),
            s.lower_bound,
            s.nodes,
            millis,
            "",
            reason(s.reason),
        )),
        Err(SolveError::Board(e)) => Err(board_error(e)),
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// Solves one board on all `threads` (the search split over them, as `fifteen solve BOARD`
/// does), with the estimate `fifteen solve` uses.
#[pyfunction]
#[pyo3(signature = (tiles, rows, cols, goal_tiles, weight_factor=1.0, timeout_secs=None,
    max_nodes=None, n_threads=None, tables=None, heuristic="pdb"))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    tiles: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    weight_factor: f64,
    timeout_secs: Option<f64>,
    max_nodes: Option<u64>,
    n_threads: Option<usize>,
    tables: Option<PathBuf>,
    heuristic: &str,
) -> PyResult<Answer> {
    let t0 = Instant::now();
    let b = board(tiles, rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    g.labels(&b).map_err(board_error)?;
    let w = weight(weight_factor)?;
    let limit = timeout(timeout_secs)?;
    let n = threads(n_threads)?;
    let solver = tables::solver(
        py,
        &tables::directory(tables),
        b.shape(),
        g.blank(),
        kind(heuristic)?,
    )?;
    let pool = if n > 1 { Some(pool(py, n)?) } else { None };
    let stop = AtomicBool::new(false);
    let deadline = limit.map(|t| Instant::now() + t);
    let r = report::blocking(
        py,
        &stop,
        || {
            let search = Search {
                weight: w,
                limits: Limits {
                    max_nodes,
                    deadline,
                    stop: Some(&stop),
                },
                pool: pool.as_deref(),
                ..Search::default()
            };
            solver.solve(&b, &g, &search)
        },
        |_| Ok(()),
    )?;
    answer(r, t0.elapsed().as_secs_f64() * 1000.0)
}

/// Solves `n` boards (`data`: `n * cells` bytes) in parallel, one board per thread at a
/// time, in input order (as `fifteen solve -i FILE` and `fifteen bench` do). Returns
/// `(lengths, lower_bounds, nodes, moves)`: lengths as little-endian `i32` (-1 where a
/// limit stopped the search), lower bounds as `u32`, nodes as `u64`, and the move strings
/// when `want_moves`. `progress(done, n)` is called about every 50 ms from this thread.
#[pyfunction]
#[pyo3(signature = (data, rows, cols, goal_tiles, want_moves=false, weight_factor=1.0,
    timeout_secs=None, max_nodes=None, n_threads=None, tables=None, heuristic="pdb",
    progress=None))]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
fn solve_many(
    py: Python<'_>,
    data: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    want_moves: bool,
    weight_factor: f64,
    timeout_secs: Option<f64>,
    max_nodes: Option<u64>,
    n_threads: Option<usize>,
    tables: Option<PathBuf>,
    heuristic: &str,
    progress: Option<PyObject>,
) -> PyResult<(Py<PyBytes>, Py<PyBytes>, Py<PyBytes>, Option<Vec<String>>)> {
    let s = shape(rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    // Every board is checked before any search: a bad one is named by its row.
    let boards: Vec<Board> = checked(py, data, s, |b| g.labels(&b).map(|_| b))?;
    let w = weight(weight_factor)?;
    let limit = timeout(timeout_secs)?;
    let n = threads(n_threads)?;
    let solver = tables::solver(
        py,
        &tables::directory(tables),
        s,
        g.blank(),
        kind(heuristic)?,
    )?;
    let pool = pool(py, n)?;
    let total = boards.len();
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let mut lengths = vec![-1i32; total];
    let mut bounds = vec![0u32; total];
    let mut nodes = vec![0u64; total];
    let mut moves: Vec<String> = if want_moves {
        vec![String::new(); total]
    } else {
        vec![]
    };
    let mut last_told = usize::MAX;
    report::blocking(
        py,
        &stop,
        || {
            let items = boards.iter().take_while(|_| !stop.load(Ordering::Relaxed));
            let work = |b: &Board| {
                let search = Search {
                    weight: w,
                    limits: Limits {
                        max_nodes,
                        deadline: limit.map(|t| Instant::now() + t),
                        stop: Some(&stop),
                    },
                    ..Search::default()
                };
                solver.solve(b, &g, &search)
            };
            run_ordered(&pool, items, n * 8, work, |i, r| {
                match r {
                    Ok(sol) => {
                        lengths[i] = sol.moves.len() as i32;
                        bounds[i] = sol.lower_bound;
                        nodes[i] = sol.nodes;
                        if want_moves {
                            moves[i] = moves_to_string(&sol.moves);
                        }
                    }
                    Err(SolveError::Stopped(st)) => {
                        bounds[i] = st.lower_bound;
                        nodes[i] = st.nodes;
                    }
                    // Checked above: boards fit the goal; no books are kept.
                    Err(_) => {}
                }
                done.fetch_add(1, Ordering::Relaxed);
                !stop.load(Ordering::Relaxed)
            });
        },
        |py| {
            let d = done.load(Ordering::Relaxed);
            match &progress {
                Some(f) if d != last_told => {
                    last_told = d;
                    f.call1(py, (d, total)).map(|_| ())
                }
                _ => Ok(()),
            }
        },
    )?;
    if let Some(f) = &progress {
        f.call1(py, (done.load(Ordering::Relaxed), total))?;
    }
    let bytes = |v: Vec<u8>| PyBytes::new(py, &v).unbind();
    Ok((
        bytes(lengths.iter().flat_map(|x| x.to_le_bytes()).collect()),
        bytes(bounds.iter().flat_map(|x| x.to_le_bytes()).collect()),
        bytes(nodes.iter().flat_map(|x| x.to_le_bytes()).collect()),
        want_moves.then_some(moves),
    ))
}

/// The estimates a course compares, for `n` boards: `hamming`, `manhattan`,
/// `linear-conflict`, `walking-distance`, `pdb` (the default partition's tables with their
/// mirrored lookup) and `solve` (what `solve` starts from: the tables with every extra).
/// Little-endian `u32`s.
#[pyfunction]
#[pyo3(signature = (data, rows, cols, goal_tiles, which, tables=None))]
fn heuristic(
    py: Python<'_>,
    data: &[u8],
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    which: &str,
    tables: Option<PathBuf>,
) -> PyResult<Py<PyBytes>> {
    let s = shape(rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    let cells = s.cells();
    let labels = checked(py, data, s, |b| g.labels(&b))?;
    let geo = Geometry::new(s, pdb_blank_label(&g));
    let out = match which {
        "hamming" => estimates(py, data, cells, &labels, |_, l| {
            (0..cells)
                .filter(|&c| l.cells[c] != l.blank_label && l.cells[c] as usize != c)
                .count() as u32
        })?,
        "manhattan" => estimates(py, data, cells, &labels, |_, l| {
            geo.manhattan(&geo.load::<Wide>(l))
        })?,
        "linear-conflict" => estimates(py, data, cells, &labels, |_, l| {
            LinearConflict.h(&mut LinearConflict.root(&geo, &geo.load::<Wide>(l)))
        })?,
        "walking-distance" => {
            let wd = py
                .allow_threads(|| WalkingDistance::new(&geo))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "walking distance is not available for {s} boards (too many states)"
                    ))
                })?;
            estimates(py, data, cells, &labels, |_, l| {
                wd.h(&mut wd.root(&geo, &geo.load::<Wide>(l)))
            })?
        }
        "pdb" | "solve" => {
            let dir = tables::directory(tables);
            let set = tables::set(py, &dir, s, g.blank())?.ok_or_else(|| {
                PyOSError::new_err(format!(
                    "no pattern databases for {s} boards in {} (see the note above)",
                    dir.display()
                ))
            })?;
            let solver = if which == "pdb" {
                Solver::with_pdb(set.first)
            } else {
                Solver::with_pdb(set.first).with_extras(set.extras)
            };
            estimates(py, data, cells, &labels, |t, _| {
                solver.estimate(&Board::new(s, t).expect("checked above"), &g)
            })?
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown heuristic '{other}' (use hamming, manhattan, linear-conflict, \
                 walking-distance, pdb or solve)"
            )))
        }
    };
    Ok(PyBytes::new(
        py,
        &out.iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unbind())
}

/// The goal's blank as a label: its cell (labels are goal cells).
fn pdb_blank_label(g: &Goal) -> u8 {
    g.blank() as u8
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
    m.add_function(wrap_pyfunction!(parse_board, m)?)?;
    m.add_function(wrap_pyfunction!(make_board, m)?)?;
    m.add_function(wrap_pyfunction!(named_goal, m)?)?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(load_tables, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(set_reporter, m)?)?;
    m.add_function(wrap_pyfunction!(weight_factor, m)?)?;
    m.add_function(wrap_pyfunction!(classic::search, m)?)?;
    m.add_function(wrap_pyfunction!(classic::comparison_rows, m)?)?;
    m.add_function(wrap_pyfunction!(classic::parse_problem, m)?)?;
    m.add_function(wrap_pyfunction!(classic::course_report, m)?)?;
    Ok(())
}
