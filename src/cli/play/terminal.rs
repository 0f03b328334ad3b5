//! The terminal while the game runs (raw mode, the alternate screen, a hidden cursor), and
//! every way back from it. A program that leaves a terminal raw leaves its user typing
//! blind, so each way out restores it before the process ends:
//!
//! - `q`, Esc, Ctrl-C (keys, in raw mode) and errors: dropping the [`Terminal`];
//! - a panic on any thread (the game's or a search's): the panic hook restores, prints the
//!   panic as usual and exits with 101, Rust's status for a panic;
//! - SIGTERM, SIGHUP, SIGINT and SIGQUIT from another process: a signal handler may do
//!   almost nothing safely, so it only writes the signal's number to a pipe; a watcher thread
//!   reads it, restores the terminal and exits with 128 + the signal's number (what a shell
//!   reports for a process the signal killed). A thread of its own, because the main thread
//!   may never look again: once the terminal hangs up, crossterm's key reader spins on the
//!   dead input for ever;
//! - the terminal hanging up while SIGHUP is ignored (`nohup fifteen play`): the watcher
//!   also waits for the input to hang up, and exits with 129 then;
//! - SIGTSTP (Ctrl-Z is a key in raw mode, so the game sends the signal to itself): the
//!   terminal is restored and the process stops; on SIGCONT the game's screen comes back.
//!   SIGSTOP cannot be caught, but the SIGCONT that ends it brings the screen back too.
//!
//! Signals that were ignored when the game started stay ignored, as `nohup` asks. SIGKILL
//! cannot be caught; `stty sane` (or `reset`) repairs the terminal then.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use anyhow::Result;
use crossterm::{cursor, execute, terminal};

use crate::cli::output::note;

/// Whether the game's terminal settings are in force (the panic hook restores only then).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Set when the screen was lost and must be drawn again in full (after a suspension).
pub static REDRAW: AtomicBool = AtomicBool::new(false);

/// The game's hold on the terminal; dropping it restores the terminal.
pub struct Terminal {
    #[cfg(unix)]
    signals: Option<signals::Watcher>,
}

impl Terminal {
    /// Raw mode, the alternate screen, no cursor; signal handlers and the panic hook that
    /// undo them.
    pub fn enter() -> Result<Terminal> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let default_hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if ACTIVE.load(Ordering::SeqCst) {
                    // Holding stdout keeps the game from drawing over the restored screen.
                    let _out = io::stdout().lock();
                    restore();
                    default_hook(info);
                    std::process::exit(101);
                }
                default_hook(info);
            }));
        });
        // From here on, dropping the guard (early return included) restores the terminal.
        let guard = Terminal {
            #[cfg(unix)]
            signals: signals::Watcher::start(),
        };
        set_up()?;
        Ok(guard)
    }

    /// Suspends the game as Ctrl-Z suspends other programs (the key reaches the game in
    /// raw mode instead of making the terminal send SIGTSTP). Nothing where SIGTSTP was
    /// ignored at start, or where there are no signals.
    pub fn suspend(&self) {
        #[cfg(unix)]
        if self.signals.as_ref().is_some_and(|w| w.handles_stop) {
            // SAFETY: kill(2) on our own process has no memory-safety preconditions.
            unsafe {
                libc::kill(libc::getpid(), libc::SIGTSTP);
            }
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        #[cfg(unix)]
        drop(self.signals.take());
        restore();
    }
}

/// Raw mode, the alternate screen, no cursor.
fn set_up() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
    REDRAW.store(true, Ordering::SeqCst);
    Ok(())
}

/// Leaves the alternate screen, shows the cursor, ends raw mode. Harmless to repeat, and
/// never fails: a terminal that has gone away cannot be restored, nor told so.
fn restore() {
    ACTIVE.store(false, Ordering::SeqCst);
    let _ = execute!(io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
    let _ = io::stdout().flush();
    let _ = terminal::disable_raw_mode();
}

/// What a shell calls the signals the game ends on.
#[cfg_attr(not(unix), allow(dead_code))]
fn signal_name(sig: i32) -> String {
    #[cfg(unix)]
    match sig {
        libc::SIGHUP => return "SIGHUP".into(),
        libc::SIGINT => return "SIGINT".into(),
        libc::SIGQUIT => return "SIGQUIT".into(),
        libc::SIGTERM => return "SIGTERM".into(),
        _ => {}
    }
    format!("signal {sig}")
}

/// Restores the terminal and ends the process as `sig` would have, by status 128 + `sig`;
/// `why` says what happened (`None`: the signal arrived).
#[cfg_attr(not(unix), allow(dead_code))]
fn leave(sig: i32, why: Option<&str>) -> ! {
    // Standard output stays locked to the end: released before `exit`, it let a redraw
    // waiting for it paint the game over the restored screen (seen once, in a whole test
    // run under load: the shell's "exit status 131" overwritten by the game's title line).
    // The lock is reentrant, so `restore` and the exit's flush still take it.
    let _out = io::stdout().lock();
    restore();
    match why {
        Some(why) => note!("fifteen play: {why}; the game is over"),
        None => note!("fifteen play: stopped by {}", signal_name(sig)),
    }
    std::process::exit(128 + sig)
}

#[cfg(unix)]
mod signals {
    //! The self-pipe: handlers write a signal's number, the watcher thread acts on it.

    use std::io;
    use std::sync::atomic::{AtomicI32, Ordering};

    use libc::c_int;

    use super::{leave, restore, set_up};

    /// The signals that end the game; SIGTSTP and SIGCONT suspend and resume it.
    const ENDING: [c_int; 4] = [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM];
    const ALL: [c_int; 6] = [
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGTERM,
        libc::SIGTSTP,
        libc::SIGCONT,
    ];

    /// The pipe's write end, for the handler (-1: none).
    static PIPE: AtomicI32 = AtomicI32::new(-1);

    /// Handlers installed, with the actions they replaced; the watcher thread.
    pub struct Watcher {
        previous: Vec<(c_int, libc::sigaction)>,
        write_end: c_int,
        thread: Option<std::thread::JoinHandle<()>>,
        /// Whether SIGTSTP is ours (it was not ignored at start).
        pub handles_stop: bool,
    }

    extern "C" fn on_signal(sig: c_int) {
        // Only async-signal-safe calls here: write(2) to a non-blocking pipe. errno is
        // saved, as the interrupted code may be about to read it.
        let errno = io::Error::last_os_error().raw_os_error();
        let fd = PIPE.load(Ordering::SeqCst);
        if fd >= 0 {
            let byte = sig as u8;
            // SAFETY: writes one byte from a live local; a full pipe fails harmlessly.
            unsafe {
                libc::write(fd, (&byte as *const u8).cast(), 1);
            }
        }
        if let Some(e) = errno {
            set_errno(e);
        }
    }

    /// `on_signal` as sigaction takes it.
    fn handler() -> libc::sighandler_t {
        on_signal as extern "C" fn(c_int) as *const () as libc::sighandler_t
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn set_errno(e: c_int) {
        // SAFETY: the thread's errno location is always valid.
        unsafe { *libc::__errno_location() = e }
    }

    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    fn set_errno(e: c_int) {
        // SAFETY: the thread's errno location is always valid.
        unsafe { *libc::__error() = e }
    }

    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    )))]
    fn set_errno(_: c_int) {}

    /// The current action for `sig`.
    fn action(sig: c_int) -> libc::sigaction {
        // SAFETY: sigaction with a null new action only reads the current one into `old`,
        // which is plain data that zeroes make valid.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, std::ptr::null(), &mut old);
            old
        }
    }

    /// Sets `sig`'s action; returns the old one.
    fn set_action(sig: c_int, handler: libc::sighandler_t) -> libc::sigaction {
        // SAFETY: `new` is a fully initialised sigaction (empty mask); `on_signal` only
        // does async-signal-safe work.
        unsafe {
            let mut new: libc::sigaction = std::mem::zeroed();
            new.sa_sigaction = handler;
            new.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut new.sa_mask);
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, &new, &mut old);
            old
        }
    }

    impl Watcher {
        /// Installs the handlers and starts the watcher; `None` if the pipe or the thread
        /// cannot be had (the game still runs; signals then act as they did).
        pub fn start() -> Option<Watcher> {
            let mut fds = [0 as c_int; 2];
            // SAFETY: pipe(2) fills the two descriptors; fcntl only sets their flags.
            unsafe {
                if libc::pipe(fds.as_mut_ptr()) != 0 {
                    return None;
                }
                for fd in fds {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
                libc::fcntl(fds[1], libc::F_SETFL, libc::O_NONBLOCK);
            }
            let [read_end, write_end] = fds;
            PIPE.store(write_end, Ordering::SeqCst);
            let thread = std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || watch(read_end));
            let Ok(thread) = thread else {
                PIPE.store(-1, Ordering::SeqCst);
                // SAFETY: both descriptors are ours and no longer used.
                unsafe {
                    libc::close(read_end);
                    libc::close(write_end);
                }
                return None;
            };
            let mut previous = Vec::new();
            let mut handles_stop = false;
            for sig in ALL {
                if action(sig).sa_sigaction == libc::SIG_IGN {
                    continue; // nohup and the like: leave it ignored
                }
                previous.push((sig, set_action(sig, handler())));
                handles_stop |= sig == libc::SIGTSTP;
            }
            Some(Watcher {
                previous,
                write_end,
                thread: Some(thread),
                handles_stop,
            })
        }
    }

    impl Drop for Watcher {
        /// Puts the old actions back and ends the watcher (a 0 byte asks it to).
        fn drop(&mut self) {
            for (sig, old) in &self.previous {
                // SAFETY: `old` came from sigaction itself.
                unsafe {
                    libc::sigaction(*sig, old, std::ptr::null_mut());
                }
            }
            PIPE.store(-1, Ordering::SeqCst);
            let zero = 0u8;
            // SAFETY: one byte from a live local to our own pipe; then the end is closed.
            unsafe {
                libc::write(self.write_end, (&zero as *const u8).cast(), 1);
            }
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
            // SAFETY: the write end is ours; the watcher closed the read end.
            unsafe {
                libc::close(self.write_end);
            }
        }
    }

    /// Waits for a signal's byte on `read_end`, or for the terminal to hang up.
    fn watch(read_end: c_int) {
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: read_end,
                    events: libc::POLLIN,
                    revents: 0,
                },
                // No events asked: poll reports a hang-up (POLLHUP) or error regardless.
                libc::pollfd {
                    fd: libc::STDIN_FILENO,
                    events: 0,
                    revents: 0,
                },
            ];
            // SAFETY: two valid pollfd entries, as counted.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if ready < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                break;
            }
            if fds[1].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                leave(libc::SIGHUP, Some("the terminal hung up"));
            }
            if fds[0].revents & libc::POLLIN == 0 {
                continue;
            }
            let mut byte = 0u8;
            // SAFETY: reads one byte into a live local.
            let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
            if n != 1 || byte == 0 {
                break;
            }
            let sig = c_int::from(byte);
            match sig {
                libc::SIGTSTP => stop(),
                libc::SIGCONT => come_back(),
                _ if ENDING.contains(&sig) => leave(sig, None),
                _ => {}
            }
        }
        // SAFETY: the read end is ours alone.
        unsafe {
            libc::close(read_end);
        }
    }

    /// Restores the terminal and stops the process (SIGTSTP's default action); the game's
    /// screen comes back when it is continued.
    fn stop() {
        let out = io::stdout().lock();
        restore();
        set_action(libc::SIGTSTP, libc::SIG_DFL);
        // raise, not kill: sent to this thread, the signal is taken before raise returns,
        // so the process stops here (until SIGCONT) before the handler is put back.
        // SAFETY: raise(3) has no memory-safety preconditions.
        unsafe {
            libc::raise(libc::SIGTSTP);
        }
        set_action(libc::SIGTSTP, handler());
        drop(out);
        come_back();
    }

    /// After a stop: raw mode again (whoever had the terminal meanwhile may have changed
    /// it), the alternate screen, and a full redraw.
    fn come_back() {
        let _out = io::stdout().lock();
        let _ = crossterm::terminal::disable_raw_mode();
        let _ = set_up();
    }
}
