//! The `fifteen` command: solve, bench, random, check, tables, play. Its command line lives
//! in the library (`fifteen::cli`, feature `cli`); the search, tables and boards know
//! nothing of it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether file descriptor 1 was closed when the process started (`fifteen solve ... >&-`).
/// Rust's runtime reopens a closed stdout on /dev/null before `main`, after which every
/// write succeeds and the results would be lost with exit status 0; a constructor runs
/// before that and looks.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = {
    extern "C" fn look() {
        // SAFETY: F_GETFD only reads the descriptor table; -1 (EBADF) means no such file.
        let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
        STDOUT_CLOSED.store(closed, Ordering::Relaxed);
    }
    look
};

fn main() {
    fifteen::cli::stdout_was_closed(STDOUT_CLOSED.load(Ordering::Relaxed));
    fifteen::cli::fifteen_main()
}
