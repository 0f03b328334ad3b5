//! The estimates a course compares (`heuristic`), for a batch of boards.

use std::path::PathBuf;

use fifteen::search::{Geometry, Heuristic, LinearConflict, WalkingDistance, Wide};
use fifteen::{Board, Goal, Labels, Solver};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::{checked, goal, shape, tables, CHUNK};

/// `f` of every board of a checked batch (its tiles and labels, made by `labels`), in
/// chunks with the GIL released and Ctrl-C checked between them, as [`checked`] goes.
fn estimates(
    py: Python<'_>,
    data: &[u8],
    cells: usize,
    labels: &(impl Fn(&[u8]) -> Labels + Sync),
    f: impl Fn(&[u8], &Labels) -> u32 + Sync,
) -> PyResult<Vec<u32>> {
    let mut out = crate::room(data.len() / cells)?;
    for tiles in data.chunks(cells * CHUNK) {
        crate::report::without_gil(py, || {
            out.extend(tiles.chunks(cells).map(|t| f(t, &labels(t))))
        });
        py.check_signals()?;
    }
    Ok(out)
}

/// The estimates a course compares, for `n` boards: `hamming`, `manhattan`,
/// `linear-conflict`, `walking-distance`, `pdb` (the default partition's tables with their
/// mirrored lookup) and `solve` (what `solve` starts from: the tables with every extra).
/// Little-endian `u32`s.
#[pyfunction]
#[pyo3(signature = (data, rows, cols, goal_tiles, which, tables=None))]
pub fn heuristic(
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
    // Checked first, a bad board named by its row; each board's labels are then made
    // again as it is estimated, not held as a list (tens of bytes a board).
    checked(py, data, s, |b| g.labels(&b).map(|_| ()))?;
    let labels = |t: &[u8]| {
        g.labels(&Board::new(s, t).expect("checked above"))
            .expect("checked above")
    };
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
            let wd =
                crate::report::without_gil(py, || WalkingDistance::new(&geo)).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "walking distance is not available for {s} boards (too many states)"
                    ))
                })?;
            estimates(py, data, cells, &labels, |_, l| {
                wd.h(&mut wd.root(&geo, &geo.load::<Wide>(l)))
            })?
        }
        "pdb" | "solve" => {
            // Said here, not by the tables' note: that one says a search goes on with
            // linear conflict, and no estimate here does.
            if s.cells() > fifteen::pdb::MAX_TABLE_CELLS {
                return Err(PyValueError::new_err(format!(
                    "no '{which}' estimate for {s} boards: pattern databases go up to {} cells (use 'linear-conflict')",
                    fifteen::pdb::MAX_TABLE_CELLS
                )));
            }
            let dir = tables::directory(tables);
            let set = tables::set(py, &dir, s, g.blank())?.ok_or_else(|| {
                PyOSError::new_err(format!(
                    "no pattern databases for {s} boards in {} (the note printed when they \
                     were first looked for says why, and how to build them)",
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
    crate::bytes_of(py, &out, u32::to_le_bytes)
}

/// The goal's blank as a label: its cell (labels are goal cells).
fn pdb_blank_label(g: &Goal) -> u8 {
    g.blank() as u8
}
