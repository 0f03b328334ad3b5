//! Ctrl-C, SIGTERM and SIGHUP for every long command: the command is told at once (the shared
//! [`INTERRUPTED`] flag, which searches, builds and readers poll) and gets a short grace to
//! stop on its own, saving what it has; a command still running after it (blocked in a
//! read of a pipe that stays open, say, or inside a step that does not poll) is ended
//! there, with the same exit status: 130 after SIGINT, 143 after SIGTERM, 129 after
//! SIGHUP (128 + the signal, the shell's convention). SIGHUP, a terminal closed or an ssh
//! session dropped under a long search, is the commonest way such a search ends; it is
//! taken as SIGTERM is (the checkpoint saved), unless it is ignored when the command
//! starts (`nohup`), which is then left as it is. A search that saves its work when it stops (a
//! checkpoint, [`hold`]) is waited for longer, up to [`HOLD_LIMIT`]. A second signal ends
//! the command at once. Either way, a file that a stop must not leave behind (a merge's
//! partial output, [`remove_if_ended`]) is removed first.
//!
//! The handlers are signal-hook's: the signal handler only writes to a pipe, and this
//! module's thread does the rest outside signal context, so nothing here needs to be
//! async-signal-safe. `play` installs none of this (it owns the terminal and restores it
//! in its own handler, see `play/terminal.rs`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;
#[cfg(unix)]
use std::time::{Duration, Instant};

#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
#[cfg(unix)]
use signal_hook::iterator::backend::SignalDelivery;
#[cfg(unix)]
use signal_hook::iterator::exfiltrator::SignalOnly;
#[cfg(unix)]
use std::io::Write as _;
#[cfg(unix)]
use std::os::unix::io::AsRawFd;
#[cfg(unix)]
use std::os::unix::net::UnixStream;

#[cfg(unix)]
use super::output::note;
use super::under_way::{Guard, UnderWay};
use super::INTERRUPTED;

/// How long a command has, after the first signal, to stop by itself. Short enough that
/// every command ends within a second of the signal; long enough for a checkpoint or a
/// results file to be saved and a last line written (they take milliseconds).
#[cfg(unix)]
const GRACE: Duration = Duration::from_millis(750);

/// How long a command saving a long search's work ([`hold`]) may take over the grace: a
/// loaded machine (a cluster node, a `nice`d run) can take seconds to stop its threads and
/// write a checkpoint, and ending it before the write loses all the work since the last
/// save. A second signal still ends it at once.
#[cfg(unix)]
const HOLD_LIMIT: Duration = Duration::from_secs(30);

/// Searches whose work is saved when they stop (a checkpoint): while any is running, the
/// grace waits for them.
static HOLDS: UnderWay = UnderWay::new();

/// Asks the grace after a signal to wait (up to [`HOLD_LIMIT`]) until the guard is
/// dropped: for a checkpointed search, whose stop ends with a save.
pub fn hold() -> Guard {
    HOLDS.enter()
}

/// Whether a search that saves its work when it stops is running ([`hold`]).
pub fn holding() -> bool {
    HOLDS.any()
}

/// Set when stdout's reader went away under a search that saves its work
/// ([`super::output::end_when_stdout_loses_its_reader`]).
static READER_GONE: AtomicBool = AtomicBool::new(false);

/// Stops the command as SIGTERM does, its checkpoint saved, and has it end as a closed
/// pipe ends it, by SIGPIPE ([`exit`]), not with SIGTERM's status.
#[cfg(unix)]
pub fn stop_for_a_closed_pipe() {
    READER_GONE.store(true, Ordering::SeqCst);
    // SAFETY: a signal to this process, which the watcher thread takes up.
    unsafe { libc::kill(libc::getpid(), libc::SIGTERM) };
}

/// Ends the process at once, as a write to the closed pipe would, the files a stop must not
/// leave behind removed first ([`remove_if_ended`]).
#[cfg(unix)]
pub fn end_for_a_closed_pipe() {
    remove_unfinished();
    // SAFETY: a signal to this process, whose default action (set at start) ends it.
    unsafe { libc::kill(libc::getpid(), libc::SIGPIPE) };
}

/// Ends the process with `code`, or by SIGPIPE (a shell's 141) when it stopped because
/// its reader went away ([`stop_for_a_closed_pipe`]), unless work could not be written
/// ([`write_failed`]: status 2, which a job script must not read as saved).
pub fn exit(code: i32) -> ! {
    #[cfg(unix)]
    if READER_GONE.load(Ordering::SeqCst) && !WRITE_FAILED.load(Ordering::SeqCst) {
        // SAFETY: the default action of SIGPIPE (set at start) ends the process; a signal
        // a process sends itself is delivered before `kill` returns.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::kill(libc::getpid(), libc::SIGPIPE);
        }
    }
    std::process::exit(code)
}

/// Files that a stop must not leave behind (a merge's `FILE.partial`, the start of a merge
/// that looks like one): the command removes them itself when it stops, and this module's
/// thread removes those still listed when the grace runs out first (a write or a sync
/// blocked on a slow disk) or a second signal ends the command.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A file listed in [`UNFINISHED`] until dropped.
pub struct Unfinished(PathBuf);

/// Removes `path` if a signal ends the command before the guard is dropped (drop it once
/// the file is complete, or removed).
pub fn remove_if_ended(path: &Path) -> Unfinished {
    let path = path.to_path_buf();
    if let Ok(mut files) = UNFINISHED.lock() {
        files.push(path.clone());
    }
    Unfinished(path)
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Ok(mut files) = UNFINISHED.lock() {
            if let Some(i) = files.iter().position(|p| *p == self.0) {
                files.swap_remove(i);
            }
        }
    }
}

/// Removes the files still listed as unfinished, just before the process is ended.
#[cfg(unix)]
fn remove_unfinished() {
    // (`try_lock`: a command thread holding the lock at this moment is not waited for.)
    if let Ok(files) = UNFINISHED.try_lock() {
        for p in files.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The first signal received (0: none yet).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The exit status that tells the first signal received apart, if one was: 130 after
/// SIGINT, 143 after SIGTERM, 129 after SIGHUP.
pub fn status() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        s => Some(128 + s),
    }
}

/// Set when work could not be written (a checkpoint that no save reached): the exit
/// status is 2 even after a signal, whose 130 or 143 a job script reads as "saved, rerun
/// to resume".
static WRITE_FAILED: AtomicBool = AtomicBool::new(false);

/// Marks this run's exit status as a failed write's (2), signal or not.
pub fn write_failed() {
    WRITE_FAILED.store(true, Ordering::SeqCst);
}

/// The status to exit with when a command returned `code`: after a signal, a command
/// that did not end in success ended because of it (a read cut short, a search stopped),
/// and says so with the signal's status, unless work could not be written
/// ([`write_failed`]); one that finished its work keeps its 0.
pub fn exit_status(code: i32) -> i32 {
    match status() {
        Some(_) if code != 0 && WRITE_FAILED.load(Ordering::SeqCst) => 2,
        Some(s) if code != 0 => s,
        _ => code,
    }
}

/// Elsewhere than Unix: Ctrl-C sets [`INTERRUPTED`], and the commands stop by themselves.
#[cfg(not(unix))]
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        RECEIVED.store(2, Ordering::SeqCst);
        INTERRUPTED.store(true, Ordering::SeqCst);
    });
}

/// Whether `signal` is ignored (as `nohup` leaves SIGHUP for the command it starts).
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: a query (no new action given) into a zeroed struct of our own.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Whether SIGHUP stops commands (it was not ignored when [`install`] ran).
static HANG_UP_WATCHED: AtomicBool = AtomicBool::new(false);

/// The signals that stop a command, for a search that registers its own stop flag on them
/// ([`install`] watches the same): SIGINT, SIGTERM, and SIGHUP unless the command was
/// started with it ignored (`nohup`).
#[cfg(unix)]
pub fn stopping() -> Vec<i32> {
    let mut s = vec![SIGINT, SIGTERM];
    if HANG_UP_WATCHED.load(Ordering::SeqCst) {
        s.push(SIGHUP);
    }
    s
}

/// Set by [`watch_stdout`]: the signals thread also watches stdout for a reader gone.
#[cfg(unix)]
static STDOUT_WATCHED: AtomicBool = AtomicBool::new(false);

/// What [`watch_stdout`] calls when the reader goes.
#[cfg(unix)]
static STDOUT_GONE: Mutex<Option<fn()>> = Mutex::new(None);

/// Wakes the signals thread (a byte on its self-pipe), so that it takes up a new request.
#[cfg(unix)]
static WAKE: Mutex<Option<UnixStream>> = Mutex::new(None);

/// Has the signals thread also watch stdout, and call `gone` once when its reader goes away
/// (stdout a pipe whose reading end closed, or a socket whose peer hung up). The same
/// thread as the signals': a command under a thread limit has no thread to spare (see
/// [`super::output::end_when_stdout_loses_its_reader`]). Nothing happens without the
/// signals thread ([`install`] not run, or no thread for it).
#[cfg(unix)]
pub fn watch_stdout(gone: fn()) {
    if let Ok(mut g) = STDOUT_GONE.lock() {
        *g = Some(gone);
    }
    STDOUT_WATCHED.store(true, Ordering::SeqCst);
    if let Ok(w) = WAKE.lock() {
        if let Some(w) = w.as_ref() {
            let _ = (&*w).write(&[0]);
        }
    }
}

/// Waits for the first signal, meanwhile watching stdout when asked ([`watch_stdout`]).
#[cfg(unix)]
fn first_signal(signals: &mut SignalDelivery<UnixStream, SignalOnly>) -> i32 {
    let mut watching = true;
    loop {
        if let Some(s) = signals.pending().next() {
            return s;
        }
        let stdout = watching && STDOUT_WATCHED.load(Ordering::SeqCst);
        // Stdout with no events asked: poll still reports an error (a pipe's reader
        // closed) or a hang-up (a socket's peer gone), and waits for nothing else.
        let mut fds = [
            libc::pollfd {
                fd: signals.get_read().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: 1,
                events: 0,
                revents: 0,
            },
        ];
        // SAFETY: pollfds of our own; no timeout.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), if stdout { 2 } else { 1 }, -1) };
        if n < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            // Not expected; the signals are then waited for alone.
            watching = false;
        }
        if stdout && fds[1].revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
            // Once: the condition stays.
            watching = false;
            if fds[1].revents & libc::POLLNVAL == 0 {
                if let Some(gone) = STDOUT_GONE.lock().ok().and_then(|g| *g) {
                    gone();
                }
            }
        }
    }
}

/// Starts watching for SIGINT, SIGTERM and SIGHUP (see the module's documentation).
/// Without a thread for it (a process limit, say) the signals keep their default action,
/// which also ends the command at once.
#[cfg(unix)]
pub fn install() {
    let watched: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| s != SIGHUP || !ignored(s))
        .collect();
    HANG_UP_WATCHED.store(watched.contains(&SIGHUP), Ordering::SeqCst);
    // The self-pipe that the handlers write to, read here by poll beside stdout; a
    // second handle on its writing end wakes the thread for [`watch_stdout`].
    let Ok((read, write)) = UnixStream::pair() else {
        return;
    };
    let wake = write.try_clone().ok();
    let Ok(mut signals) = SignalDelivery::with_pipe(read, write, SignalOnly, &watched) else {
        return;
    };
    if let (Ok(mut w), Some(wake)) = (WAKE.lock(), wake) {
        let _ = wake.set_nonblocking(true);
        *w = Some(wake);
    }
    let handle = signals.handle();
    let watcher = std::thread::Builder::new()
        .name("signals".into())
        .stack_size(64 * 1024)
        .spawn(move || {
            let first = first_signal(&mut signals);
            RECEIVED.store(first, Ordering::SeqCst);
            INTERRUPTED.store(true, Ordering::SeqCst);
            let start = Instant::now();
            let mut deadline = start + GRACE;
            let mut said = false;
            while Instant::now() < deadline {
                if signals.pending().next().is_some() {
                    break;
                }
                if HOLDS.any() && start.elapsed() < HOLD_LIMIT {
                    // A checkpointed search is stopping: its save comes first, then the
                    // command's last lines get the grace again.
                    deadline = deadline.max(Instant::now() + GRACE);
                    if !said && start.elapsed() >= GRACE {
                        said = true;
                        note!("stopping: saving the search's checkpoint first (signal again to quit at once, losing the work since its last save)");
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            if HOLDS.any() {
                note!("interrupted: stopped before its checkpoint was saved; the file keeps the search as of its last save");
            } else {
                note!("interrupted: stopped before the end; what was printed above stays");
            }
            remove_unfinished();
            exit(128 + first);
        });
    if watcher.is_err() {
        // Back to the default actions: a signal still ends the command. (Not
        // `handle.close()`: it writes to the pipe whose reading end went with the thread's
        // closure, and would raise SIGPIPE.)
        drop(handle);
        for s in watched {
            // SAFETY: restoring the default disposition; no handler of ours is left.
            unsafe { libc::signal(s, libc::SIG_DFL) };
        }
    }
}
