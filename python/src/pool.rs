//! The worker threads of a Python process: one Rayon pool, kept per process and per
//! thread count, shared by the searches and the table builds.

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::report;

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
