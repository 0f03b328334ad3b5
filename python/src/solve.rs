//! The solver on one board (`solve`, the search split over the threads) or on a batch
//! (`solve_many`, one board a thread), as `fifteen solve` runs it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fifteen::batch::{run_ordered, Window};
use fifteen::board::moves_to_string;
use fifteen::random::{board_rng, distance_budget, farthest, walk_gave_up, walk_to_distance};
use fifteen::search::Weight;
use fifteen::search::{Limits, Search, StopReason};
use fifteen::{Board, Goal, Shape, SolveError, Solver};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use rayon::ThreadPool;

use crate::pool::{pool, threads};
use crate::{board, board_error, checked, goal, kind, report, shape, tables, timeout, weight};

fn reason(r: StopReason) -> &'static str {
    match r {
        StopReason::MaxNodes => "node limit reached",
        StopReason::Timeout => "time limit reached",
        StopReason::MaxMemory => "memory limit reached",
        StopReason::Interrupted => "interrupted",
    }
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
        Err(SolveError::TableChanged(path)) => {
            crate::tables::forget_opened();
            Err(PyOSError::new_err(changed_table(&path)))
        }
        Err(e @ SolveError::Overestimate(_)) => Err(PyOSError::new_err(e.to_string())),
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// The command line's message for a table written to under a search, in Python's terms:
/// pip installs no `fifteen tables verify`, and there is no command to run again.
fn changed_table(path: &std::path::Path) -> String {
    format!(
        "{}: the table was written to while this call used it, so answers found with it \
         since cannot be trusted and were not given; the next call opens the tables again \
         and checks them (one damaged raises OSError naming it: delete it, and the call \
         after builds it again)",
        path.display()
    )
}

/// Solves one board on all `threads` (the search split over them, as `fifteen solve BOARD`
/// does), with the estimate `fifteen solve` uses.
#[pyfunction]
#[pyo3(signature = (tiles, rows, cols, goal_tiles, weight_factor=1.0, timeout_secs=None,
    max_nodes=None, n_threads=None, tables=None, heuristic="pdb"))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
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
    let options = (weight_factor, timeout_secs, max_nodes, n_threads, heuristic);
    let plan = Plan::new(py, b.shape(), &g, options, tables)?;
    let pool = if plan.threads > 1 {
        Some(pool(py, plan.threads)?)
    } else {
        None
    };
    let stop = AtomicBool::new(false);
    let search = plan.search(&stop, pool.as_deref());
    let r = report::blocking(py, &stop, || plan.solver.solve(&b, &g, &search), |_| Ok(()))?;
    answer(r, t0.elapsed().as_secs_f64() * 1000.0)
}

/// The options `solve` and `solve_many` share, as Python passes them: the weight factor,
/// the timeout in seconds, the node limit, the threads and the estimate's name.
type Options<'a> = (f64, Option<f64>, Option<u64>, Option<usize>, &'a str);

/// What `solve` and `solve_many` set up alike, checked before any search: the weight, the
/// limits, the threads, and the solver for the boards' shape and goal (its tables opened,
/// or built first when that is quick).
struct Plan {
    weight: Weight,
    timeout: Option<Duration>,
    max_nodes: Option<u64>,
    threads: usize,
    solver: Solver,
}

impl Plan {
    fn new(
        py: Python<'_>,
        shape: Shape,
        goal: &Goal,
        (weight_factor, timeout_secs, max_nodes, n_threads, heuristic): Options,
        tables: Option<PathBuf>,
    ) -> PyResult<Plan> {
        let (weight, timeout, threads) = (
            weight(weight_factor)?,
            timeout(timeout_secs)?,
            threads(n_threads)?,
        );
        let dir = tables::directory(tables);
        let solver = tables::solver(py, &dir, shape, goal.blank(), kind(heuristic)?)?;
        Ok(Plan {
            weight,
            timeout,
            max_nodes,
            threads,
            solver,
        })
    }

    /// One board's search, its clock started now.
    fn search<'a>(&self, stop: &'a AtomicBool, pool: Option<&'a ThreadPool>) -> Search<'a> {
        Search {
            weight: self.weight,
            limits: Limits {
                max_nodes: self.max_nodes,
                deadline: self.timeout.map(|t| Instant::now() + t),
                stop: Some(stop),
            },
            pool,
            ..Search::default()
        }
    }
}

/// Solves `n` boards (`data`: `n * cells` bytes) in parallel, one board per thread at a
/// time (as `fifteen solve -i FILE` and `fifteen bench` do; each thread takes a run of
/// the batch, and a thread done early splits another's, so the boards are not started in
/// input order, which the command line's output needs and arrays do not). Returns
/// `(lengths, lower_bounds, nodes, moves)`: lengths as little-endian `i32` (-1 where a
/// limit stopped the search), lower bounds as `u32`, nodes as `u64`, and, when
/// `want_moves`, every solved board's moves as ASCII letters one after another (each
/// board's as many as its length). `progress(done, n)` is called from this thread as
/// boards finish, at most every 50 ms.
#[pyfunction]
#[pyo3(signature = (data, rows, cols, goal_tiles, want_moves=false, weight_factor=1.0,
    timeout_secs=None, max_nodes=None, n_threads=None, tables=None, heuristic="pdb",
    progress=None))]
#[allow(clippy::too_many_arguments)]
#[allow(clippy::type_complexity)]
pub fn solve_many(
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
) -> PyResult<(Py<PyBytes>, Py<PyBytes>, Py<PyBytes>, Option<Py<PyBytes>>)> {
    let s = shape(rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    // Every board is checked before any search: a bad one is named by its row. They are
    // read again one at a time as the searches start, not held as a list beside their
    // bytes: a batch of millions would take tens of bytes a board more.
    checked(py, data, s, |b| g.labels(&b).map(|_| ()))?;
    let total = data.len() / s.cells();
    let options = (weight_factor, timeout_secs, max_nodes, n_threads, heuristic);
    let plan = Plan::new(py, s, &g, options, tables)?;
    let pool = pool(py, plan.threads)?;
    let stop = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    let mut lengths = crate::filled(total, -1i32)?;
    let mut bounds = crate::filled(total, 0u32)?;
    let mut nodes = crate::filled(total, 0u64)?;
    let moves_too_large = AtomicBool::new(false);
    let mut last_told = usize::MAX;
    // A table written to during the batch: the error raised, no value given.
    let changed: Mutex<Option<String>> = Mutex::new(None);
    // The boards go to the pool's threads as Rayon splits the batch, each thread taking
    // the next board of its run when free: no channel or wake-up a board, which cost more
    // than the search of a 3x3 board (10 us a board, where the search takes about 1).
    // Each run of consecutive boards keeps its solved boards' moves one after another
    // (its first board's index orders the runs): one buffer a run, each growth checked,
    // rather than a string a board, whose millions of small allocations abort the
    // process when one fails.
    let runs: Vec<(usize, Vec<u8>)> = report::blocking(
        py,
        &stop,
        || {
            let boards = lengths
                .par_iter_mut()
                .zip(bounds.par_iter_mut())
                .zip(nodes.par_iter_mut())
                .zip(data.par_chunks_exact(s.cells()))
                .enumerate();
            let solve_one = |(first, mut letters): (Option<usize>, Vec<u8>),
                             (i, (((length, bound), node), tiles)): (
                usize,
                (((&mut i32, &mut u32), &mut u64), &[u8]),
            )| {
                let first = first.or(Some(i));
                if stop.load(Ordering::Relaxed) {
                    return (first, letters);
                }
                let b = Board::new(s, tiles).expect("checked above");
                match plan.solver.solve(&b, &g, &plan.search(&stop, None)) {
                    Ok(sol) => {
                        *length = sol.moves.len() as i32;
                        *bound = sol.lower_bound;
                        *node = sol.nodes;
                        if want_moves {
                            if letters.try_reserve(sol.moves.len()).is_ok() {
                                letters.extend(sol.moves.iter().map(|d| d.letter() as u8));
                            } else {
                                moves_too_large.store(true, Ordering::Relaxed);
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                    Err(SolveError::Stopped(st)) => {
                        *bound = st.lower_bound;
                        *node = st.nodes;
                    }
                    Err(SolveError::TableChanged(path)) => {
                        *changed.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(changed_table(&path));
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(e @ SolveError::Overestimate(_)) => {
                        *changed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                        stop.store(true, Ordering::Relaxed);
                    }
                    // Checked above: boards fit the goal; no books are kept.
                    Err(_) => {}
                }
                done.fetch_add(1, Ordering::Relaxed);
                (first, letters)
            };
            let mut runs: Vec<(usize, Vec<u8>)> = pool.install(|| {
                boards
                    .fold(|| (None, Vec::new()), solve_one)
                    .filter_map(|(first, letters)| first.map(|f| (f, letters)))
                    .collect()
            });
            runs.sort_unstable_by_key(|&(first, _)| first);
            runs
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
    let changed = changed.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = changed {
        crate::tables::forget_opened();
        return Err(PyOSError::new_err(m));
    }
    if moves_too_large.into_inner() {
        return Err(PyMemoryError::new_err(format!(
            "the moves of {total} boards do not fit in memory: give the boards in smaller \
             batches, or leave out moves=True"
        )));
    }
    if let Some(f) = &progress {
        f.call1(py, (done.load(Ordering::Relaxed), total))?;
    }
    Ok((
        crate::bytes_of(py, &lengths, i32::to_le_bytes)?,
        crate::bytes_of(py, &bounds, u32::to_le_bytes)?,
        crate::bytes_of(py, &nodes, u64::to_le_bytes)?,
        want_moves.then(|| letters_of(py, runs)).transpose()?,
    ))
}

/// `random_boards(distance=d)`: `n` boards exactly `d` moves from the goal, board `i`
/// (from 1) where [`walk_to_distance`] from [`board_rng`]`(seed, i)` first stands that
/// far, measured with the tables `fifteen solve` uses: the boards of `fifteen random
/// --distance d --seed SEED`. The boards are drawn in parallel, the GIL released; Ctrl-C
/// stops them (`KeyboardInterrupt`). `ValueError` when a walk has not reached `d` within
/// [`distance_budget`] moves (boards that far are rare, or there are none).
#[pyfunction]
#[pyo3(signature = (n, rows, cols, goal_tiles, seed, distance, tables=None))]
#[allow(clippy::too_many_arguments)]
pub fn boards_at_distance(
    py: Python<'_>,
    n: usize,
    rows: usize,
    cols: usize,
    goal_tiles: &[u8],
    seed: u64,
    distance: u32,
    tables: Option<PathBuf>,
) -> PyResult<Py<PyBytes>> {
    let s = shape(rows, cols)?;
    let g = goal(goal_tiles, rows, cols)?;
    if let Some(max) = farthest(&g).filter(|&max| distance > max) {
        return Err(PyValueError::new_err(format!(
            "distance: no {s} board is more than {max} moves from this goal (the puzzle's \
             known radius with the blank in a corner): give {max} or less (the farthest \
             boards are rare: a walk may not meet them)"
        )));
    }
    let cells = s.cells();
    let mut out = crate::filled(n.saturating_mul(cells), 0u8)?;
    let plan = Plan::new(py, s, &g, (1.0, None, None, None, "pdb"), tables)?;
    let pool = pool(py, plan.threads)?;
    let stop = AtomicBool::new(false);
    let budget = distance_budget(distance);
    // Why the boards stopped short, if they did: a walk that never got there, or a table
    // written to under the searches.
    let mut failed: Option<PyErr> = None;
    report::blocking(
        py,
        &stop,
        || {
            let items = (1..=n as u64).take_while(|_| !stop.load(Ordering::Relaxed));
            let work = |i: u64| {
                // Distances measured, by board: a walk on a small board, or near the
                // farthest boards, meets the same boards again and again.
                let mut known: HashMap<Board, u32> = HashMap::new();
                let measure = |b: &Board| -> Result<u32, SolveError> {
                    if let Some(&v) = known.get(b) {
                        return Ok(v);
                    }
                    let v = plan
                        .solver
                        .solve(b, &g, &plan.search(&stop, None))?
                        .moves
                        .len();
                    known.insert(*b, v as u32);
                    Ok(v as u32)
                };
                walk_to_distance(&mut board_rng(seed, i), &g, distance, budget, measure)
            };
            let window = Window {
                under_way: plan.threads * 8,
                held: plan.threads * 64,
            };
            run_ordered(&pool, items, window, work, |i, r| {
                match r {
                    Ok(Some(b)) => out[i * cells..(i + 1) * cells].copy_from_slice(b.tiles()),
                    Ok(None) => {
                        failed = Some(PyValueError::new_err(format!(
                            "distance: {}",
                            walk_gave_up(&g, distance, budget)
                        )));
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(SolveError::TableChanged(path)) => {
                        crate::tables::forget_opened();
                        failed = Some(PyOSError::new_err(changed_table(&path)));
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(e @ SolveError::Overestimate(_)) => {
                        failed = Some(PyOSError::new_err(e.to_string()));
                        stop.store(true, Ordering::Relaxed);
                    }
                    // Stopped by Ctrl-C, which `blocking` raises; boards fit the goal.
                    Err(_) => {}
                }
                !stop.load(Ordering::Relaxed)
            });
        },
        |_| Ok(()),
    )?;
    if let Some(e) = failed {
        return Err(e);
    }
    crate::bytes_of(py, &out, |x| [x])
}

/// The moves of every run of boards, one after another in board order, as one `bytes`
/// (made in place: the runs are not first joined into one more buffer).
fn letters_of(py: Python<'_>, runs: Vec<(usize, Vec<u8>)>) -> PyResult<Py<PyBytes>> {
    let len = runs.iter().map(|(_, l)| l.len()).sum();
    let b = PyBytes::new_with(py, len, |buf| {
        let mut at = 0;
        for (_, letters) in &runs {
            buf[at..at + letters.len()].copy_from_slice(letters);
            at += letters.len();
        }
        Ok(())
    })
    .map_err(|e| {
        if e.is_instance_of::<PyMemoryError>(py) {
            PyMemoryError::new_err(format!(
                "the moves of the boards ({len} letters) do not fit in memory: give the \
                 boards in smaller batches, or leave out moves=True"
            ))
        } else {
            e
        }
    })?;
    Ok(b.unbind())
}
