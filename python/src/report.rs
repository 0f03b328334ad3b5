//! Long work off the interpreter's thread, and what Python is told meanwhile.
//!
//! [`blocking`] runs work on a thread of its own with the GIL released, while the calling
//! thread wakes every 50 ms to let Python handle signals (so Ctrl-C raises
//! `KeyboardInterrupt` within a fraction of a second: the work's stop flag is set and the
//! work returns promptly) and to report progress. A panic in the work becomes a Python
//! `RuntimeError`, never a crash.
//!
//! Notes and build progress go to the Python function set with `set_reporter` (the
//! package's `_report`), which prints them to `sys.stderr` or draws a progress bar (a
//! widget in a notebook).

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks at signals and progress.
pub const TICK: Duration = Duration::from_millis(50);

static REPORTER: Mutex<Option<PyObject>> = Mutex::new(None);

/// Set by the package's `atexit` hook ([`exiting`]): the interpreter is shutting down.
static EXITING: AtomicBool = AtomicBool::new(false);
/// Threads that may take the GIL back inside a call of the package ([`Inside`]): those
/// about to, after work done without it, and those in [`blocking`], whose progress
/// callbacks run Python code; and how many of them wait in [`without_gil`] for the process to end.
static INSIDE: AtomicUsize = AtomicUsize::new(0);
static PARKED: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    /// Whether this is the thread that shuts the interpreter down (the one that ran the
    /// `atexit` hook).
    static SHUTS_DOWN: Cell<bool> = const { Cell::new(false) };
    /// How deep this thread is in [`Inside`] guards (a call within a call counts once).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Counts this thread in [`INSIDE`] while it lives.
struct Inside;

impl Inside {
    fn enter() -> Inside {
        let depth = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        if depth == 1 {
            INSIDE.fetch_add(1, Ordering::SeqCst);
        }
        Inside
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        let depth = DEPTH.with(|d| {
            d.set(d.get() - 1);
            d.get()
        });
        if depth == 0 {
            INSIDE.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The longest the `atexit` hook waits for other threads to leave the package's calls or
/// to park: one that runs a long progress callback is left to CPython.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// The package's `atexit` hook.
///
/// While the interpreter shuts down, CPython (before 3.14) ends a daemon thread that takes
/// the GIL back with `pthread_exit`, and its unwinding through the Rust frames of a call
/// aborts the whole process ("FATAL: exception not rethrown", exit status 134): a script
/// that ended while a daemon thread was in `fifteen.distance` (found by fuzzing).
///
/// From now on, other threads that finish work without the GIL park in [`without_gil`]
/// instead of taking it back. A thread that looked before this hook ran may already be
/// waiting for the GIL, with the shutdown to come: so the hook releases the GIL and waits
/// until every thread inside a call has left it or parked, before the shutdown goes on.
#[pyfunction]
pub fn exiting(py: Python<'_>) {
    SHUTS_DOWN.with(|c| c.set(true));
    EXITING.store(true, Ordering::SeqCst);
    py.allow_threads(|| {
        let deadline = Instant::now() + EXIT_WAIT;
        // Parked threads never leave, so reading PARKED first and INSIDE second, equal
        // counts mean that every thread inside is parked; one that enters later sees
        // EXITING and parks before it could take the GIL back.
        while PARKED.load(Ordering::SeqCst) < INSIDE.load(Ordering::SeqCst)
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

/// `py.allow_threads(f)`, as every call of the package that releases the GIL makes it:
/// once the `atexit` hook ([`exiting`]) has run, a thread other than the one shutting
/// down waits here, without the GIL, until the process ends.
pub fn without_gil<T: Send, F: Send + FnOnce() -> T>(py: Python<'_>, f: F) -> T {
    let (out, _inside) = py.allow_threads(|| {
        let out = f();
        // Counted from before the look at EXITING until the GIL is back (the guard is
        // dropped on return), so that the hook waits for a thread that looked too early.
        // The work itself is not counted: it may be long, and it looks when it ends.
        let inside = Inside::enter();
        if EXITING.load(Ordering::SeqCst) && !SHUTS_DOWN.with(Cell::get) {
            PARKED.fetch_add(1, Ordering::SeqCst);
            loop {
                std::thread::park();
            }
        }
        (out, inside)
    });
    out
}

/// Sets the function that receives notes and progress (`None`: print notes to stderr).
pub fn set_reporter(f: Option<PyObject>) {
    *REPORTER.lock().unwrap_or_else(|e| e.into_inner()) = f;
}

/// Hands `args` to the reporter; without one, notes go to stderr.
fn send<'py>(
    py: Python<'py>,
    args: impl IntoPyObject<'py, Target = pyo3::types::PyTuple>,
) -> PyResult<()> {
    let f = REPORTER
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|f| f.clone_ref(py));
    if let Some(f) = f {
        f.call1(py, args)?;
    }
    Ok(())
}

/// A note for people (what the command line prints to stderr).
pub fn note(py: Python<'_>, text: &str) -> PyResult<()> {
    if REPORTER.lock().unwrap_or_else(|e| e.into_inner()).is_none() {
        eprintln!("{text}");
        return Ok(());
    }
    send(py, ("note", text))
}

/// A table build as the bar shows it.
#[derive(Default)]
pub struct Build {
    pub label: String,
    pub depth: u32,
    pub done: u64,
    pub total: u64,
    /// Tables written since the last report.
    pub saved: Vec<String>,
}

/// The progress bar of a table build.
pub struct Bar;

impl Bar {
    pub fn start(py: Python<'_>) -> PyResult<Bar> {
        send(py, ("bar-start",))?;
        Ok(Bar)
    }

    pub fn show(&mut self, py: Python<'_>, s: &mut Build) -> PyResult<()> {
        for path in s.saved.drain(..) {
            send(py, ("saved", path))?;
        }
        send(py, ("bar", s.label.clone(), s.done, s.total, s.depth))
    }

    pub fn close(self, py: Python<'_>) -> PyResult<()> {
        send(py, ("bar-close",))
    }
}

/// Runs `work` on its own thread with the GIL released, calling `tick` on this thread
/// every [`TICK`] while it runs. Ctrl-C (or an error from `tick`) sets `stop`, waits for
/// `work` to return (it must watch `stop`) and raises the error.
///
/// # Errors
/// `KeyboardInterrupt` (or whatever a signal handler raised), `tick`'s error, or a
/// `RuntimeError` for a panic in `work`.
pub fn blocking<R: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> R + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<R> {
    // Progress callbacks run Python code between the waits: inside, for the exit hook.
    let _inside = Inside::enter();
    let (tx, rx) = channel();
    let rx = Mutex::new(rx);
    std::thread::scope(|s| {
        s.spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(work));
            let _ = tx.send(r);
        });
        let mut raised: Option<PyErr> = None;
        loop {
            let got = without_gil(py, || {
                rx.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(TICK)
            });
            match got {
                Ok(Ok(r)) => {
                    return match raised {
                        Some(e) => Err(e),
                        None => Ok(r),
                    }
                }
                Ok(Err(panic)) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".to_string());
                    return Err(PyRuntimeError::new_err(format!(
                        "internal error in fifteen (please report it): {what}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if raised.is_none() {
                        if let Err(e) = py.check_signals().and_then(|()| tick(py)) {
                            stop.store(true, Ordering::Relaxed);
                            raised = Some(e);
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error in fifteen: the worker ended without a result",
                    ))
                }
            }
        }
    })
}
