//! The worker threads of a Python process: one Rayon pool, kept per process and per
//! thread count, shared by the searches and the table builds.

use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};

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
/// it would wake threads that are not there). It also leaves the parent's lock alone: a
/// fork while another thread of the parent held it (changing the thread count) gave a
/// child whose lock no thread would ever release, and its first call hung.
pub(crate) fn pool(py: Python<'_>, n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    let me = std::process::id();
    {
        let kept = slot(me);
        if let Some((k, p)) = &*kept {
            if *k == n {
                return Ok(p.clone());
            }
        }
    }
    let cannot = |e: String| PyOSError::new_err(format!("cannot start worker threads: {e}"));
    let (tx, rx) = channel();
    std::thread::Builder::new()
        .spawn(move || {
            // The old pool first, so that its threads and the new ones do not add up; the
            // lock is not held while the new one starts (another call may look meanwhile).
            drop(slot(me).take());
            let p = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Arc::new)
                .map_err(|e| e.to_string());
            if let Ok(p) = &p {
                *slot(me) = Some((n, p.clone()));
            }
            let _ = tx.send(p);
        })
        .map_err(|e| cannot(e.to_string()))?;
    // In a mutex: a receiver may not be shared with the thread that waits without the GIL.
    let rx = Mutex::new(rx);
    loop {
        let got = crate::report::without_gil(py, || {
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

/// The kept pool of one process, with the number of its threads.
type Kept = Option<(usize, Arc<rayon::ThreadPool>)>;

/// A process's kept pool and its lock, tagged with the process.
struct Slot {
    pid: u32,
    kept: Mutex<Kept>,
}

/// The current process's [`Slot`], locked. A process that finds another's (a forked
/// child finds its parent's) puts a new one in its place and never touches the old one:
/// its lock may have been held, at the fork, by a thread the child does not have. The old
/// slot is leaked, pool and all, on purpose (see [`pool`]); there is one a fork.
fn slot(me: u32) -> MutexGuard<'static, Kept> {
    static SLOT: AtomicPtr<Slot> = AtomicPtr::new(std::ptr::null_mut());
    loop {
        let now = SLOT.load(Ordering::Acquire);
        // SAFETY: SLOT holds null or a pointer from `Box::into_raw` below, never freed
        // once stored.
        if let Some(s) = unsafe { now.as_ref() } {
            if s.pid == me {
                return s.kept.lock().unwrap_or_else(|e| e.into_inner());
            }
        }
        let ours = Box::into_raw(Box::new(Slot {
            pid: me,
            kept: Mutex::new(None),
        }));
        if SLOT
            .compare_exchange(now, ours, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Another thread of this process stored one first: take that one.
            // SAFETY: `ours` came from `Box::into_raw` above and was never shared.
            drop(unsafe { Box::from_raw(ours) });
        }
    }
}
