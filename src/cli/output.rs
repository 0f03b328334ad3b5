//! Writing results: what happens when stdout or stderr goes away or fills up.
//!
//! A closed pipe (`fifteen random | head -1`) ends the program at once and quietly, as it
//! ends `cat`: SIGPIPE is restored to its default action at start (Rust ignores it, which
//! turns every later write into an error, or a panic in `println!`). Any other failed write
//! to stdout (a full disk, `> /dev/full`) is an error with a message and a non-zero exit:
//! output lost is never reported as success; so is a stdout closed at start (`>&-`), which
//! Rust's runtime silently replaces by /dev/null. A long search does not wait for its next
//! write to learn that its reader has gone ([`end_when_stdout_loses_its_reader`]).
//! Messages to stderr never fail or end the program (a stderr whose reader has gone is
//! not written to: [`stderr_has_a_reader`]):
//! when stderr cannot be written there is nobody left to tell.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

/// Set when stdout was closed at start (`>&-`): every result would be lost.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether file descriptor 0 was closed when the process started (`<&-`).
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

/// Records whether file descriptors 0 and 1 were closed when the process started.
pub fn set_stdio_closed(stdin: bool, stdout: bool) {
    STDIN_CLOSED.store(stdin, Ordering::Relaxed);
    STDOUT_CLOSED.store(stdout, Ordering::Relaxed);
}

/// Whether standard input was closed at start (`<&-`): the runtime has put /dev/null
/// there, which would read as an input without boards.
pub fn stdin_was_closed() -> bool {
    STDIN_CLOSED.load(Ordering::Relaxed)
}

/// In a binary's `main.rs`: two `static`s set to whether file descriptors 0 and 1 were
/// closed when the process started (`fifteen solve - <&-`, `fifteen solve ... >&-`).
/// Rust's runtime reopens a closed descriptor on /dev/null before `main`, after which every
/// write succeeds and the results would be lost with exit status 0 (and stdin reads as
/// empty); a constructor (in the binary itself, where the linker keeps it) runs before that
/// and looks. `main` passes the flags to [`crate::cli::stdio_was_closed`].
#[macro_export]
macro_rules! look_at_stdio_before_main {
    ($stdin:ident, $stdout:ident) => {
        static $stdin: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        static $stdout: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

        #[cfg(target_os = "linux")]
        #[used]
        #[link_section = ".init_array"]
        static LOOK_AT_STDIO: extern "C" fn() = {
            extern "C" fn look() {
                // SAFETY: F_GETFD only reads the descriptor table; -1 (EBADF): no such file.
                let closed = |fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
                $stdin.store(closed(0), std::sync::atomic::Ordering::Relaxed);
                $stdout.store(closed(1), std::sync::atomic::Ordering::Relaxed);
            }
            look
        };
    };
}

/// An error for output that has nowhere to go: stdout was closed at start (`>&-`; the
/// runtime has put /dev/null there, where writes succeed and vanish).
pub fn stdout_is_open() -> Result<()> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        anyhow::bail!("cannot write the output: standard output is closed (>&-); redirect it to a file, or to /dev/null to discard it");
    }
    Ok(())
}

/// `n` and the noun, singular for one: "1 result", "2 results".
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Set by `--quiet`: no progress and no notes on stderr, only errors.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences progress and notes for the rest of the run (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given: progress bars and notes stay off.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Lets a write to a closed pipe end the process quietly (the default Unix behaviour).
pub fn end_quietly_on_closed_pipes() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default has no preconditions; it is
    // done first thing in `main`, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Makes a write past a file-size limit (`ulimit -f`, a batch system's `RLIMIT_FSIZE`)
/// fail with an error, as on a full disk, instead of killing the process by SIGXFSZ
/// without a word: the merge's `FILE.partial` and a checkpoint's temporary file are then
/// removed, a checkpoint that cannot be saved is warned about and the search goes on.
pub fn fail_writes_past_a_size_limit() {
    #[cfg(unix)]
    // SAFETY: as above: done first thing in `main`, before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Ends the command as soon as its results' reader goes away (stdout a pipe or a socket:
/// `fifteen solve -i FILE | head -3` once `head` has its lines), not at the next write,
/// which can be a long search away. As at a write, quietly, by SIGPIPE; a search that
/// saves its work ([`super::signals::hold`]: a checkpoint) is first stopped as by SIGTERM,
/// so that its checkpoint is saved, and says so. For commands whose
/// results go to stdout: one whose stdout is unused (`-o FILE`, a table build) runs on.
#[cfg(unix)]
pub fn end_when_stdout_loses_its_reader() {
    // SAFETY: fstat into a zeroed struct of our own.
    let piped = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(1, &mut st) == 0
            && matches!(st.st_mode & libc::S_IFMT, libc::S_IFIFO | libc::S_IFSOCK)
    };
    if piped {
        // Watched by the signals thread, not one of its own (which, under a thread limit,
        // would take the one the command needs).
        super::signals::watch_stdout(reader_gone);
    }
}

/// Ends the command, its reader gone (see [`end_when_stdout_loses_its_reader`]).
#[cfg(unix)]
fn reader_gone() {
    if super::signals::holding() {
        super::signals::stop_for_a_closed_pipe();
        note!(
            "stopping: the output's reader has gone (a closed pipe); the checkpoint is saved first"
        );
    } else if super::progress::build_under_way() {
        // The build stops as SIGTERM stops it: the tables it finished kept, the one under
        // way not left half written.
        super::signals::stop_for_a_closed_pipe();
    } else {
        super::signals::end_for_a_closed_pipe();
    }
}

/// Elsewhere than Unix: a closed pipe is met at the next write.
#[cfg(not(unix))]
pub fn end_when_stdout_loses_its_reader() {}

/// Writes `text` to stdout and flushes it, so that each result is out as soon as it is
/// known; a failed write is an error naming what was lost.
pub fn emit(out: &mut impl Write, text: &str) -> Result<()> {
    if !text.is_empty() {
        stdout_is_open()?;
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the output")
}

/// Prints a line on stderr, ignoring failure (see the module doc). On a terminal the line
/// is cleared first: a progress line may be drawn there (a batch's, redrawn every second,
/// or a long search's iterations), and a note written after it would be read as part of it.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        // One write: stderr is unbuffered, and processes sharing it (the parts of a split
        // run) would otherwise interleave their lines' pieces.
        let line = $crate::cli::output::without_os_codes(format!(
            "{}{}\n",
            $crate::cli::output::start_of_line(),
            format_args!($($arg)*)
        ));
        // Not to a pipe whose reader has gone: SIGPIPE, at its default action for stdout's
        // sake, would end the command (a search, before its checkpoint's save).
        if $crate::cli::output::stderr_has_a_reader() {
            let _ = std::io::stderr().lock().write_all(line.as_bytes());
        }
    }};
}

/// Whether stderr can still be written without SIGPIPE: false when it is a pipe or socket
/// whose reader has gone (a `2>&1 | tee log` whose `tee` ended). A message then goes
/// nowhere, and the command goes on: nobody is left to read it.
pub fn stderr_has_a_reader() -> bool {
    has_a_reader(2)
}

/// Whether stdout still has a reader ([`stderr_has_a_reader`]): a stop's last words come
/// before anything more for stdout, which would end the command at once by SIGPIPE.
pub fn stdout_has_a_reader() -> bool {
    has_a_reader(1)
}

/// Whether file descriptor `fd` is not a pipe or socket whose reader has gone.
fn has_a_reader(fd: i32) -> bool {
    #[cfg(unix)]
    {
        let mut fd = libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        };
        // SAFETY: one pollfd of our own; no wait.
        let n = unsafe { libc::poll(&mut fd, 1, 0) };
        !(n > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP) != 0)
    }
    #[cfg(not(unix))]
    true
}

/// `line` without the " (os error 2)" that Rust's I/O errors end with: the words before it
/// ("No such file or directory") already say it, and the number is noise to a user.
pub fn without_os_codes(line: String) -> String {
    const CODE: &str = " (os error ";
    if !line.contains(CODE) {
        return line;
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line.as_str();
    while let Some(at) = rest.find(CODE) {
        let after = &rest[at + CODE.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(&rest[..at]);
        if digits > 0 && after[digits..].starts_with(')') {
            rest = &after[digits + 1..];
        } else {
            out.push_str(CODE);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// What takes a terminal's cursor to the start of an empty line (carriage return, erase
/// the line): nothing when stderr is not a terminal, so logs and pipes get plain lines.
pub fn start_of_line() -> &'static str {
    static ON_TERMINAL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON_TERMINAL.get_or_init(|| std::io::IsTerminal::is_terminal(&std::io::stderr())) {
        "\r\x1b[K"
    } else {
        ""
    }
}
pub(crate) use note;

/// Prints a note on stderr (what is being built, what is used instead), unless `--quiet`.
/// Errors use [`note!`]: `--quiet` never hides why something failed.
macro_rules! inform {
    ($($arg:tt)*) => {{
        if !$crate::cli::output::quiet() {
            $crate::cli::output::note!($($arg)*);
        }
    }};
}
pub(crate) use inform;

#[cfg(test)]
mod os_code_tests {
    use super::without_os_codes;

    #[test]
    fn os_error_codes_are_dropped_and_nothing_else() {
        let cases = [
            (
                "a: No such file or directory (os error 2)\n",
                "a: No such file or directory\n",
            ),
            ("x (os error 13); y (os error 28)", "x; y"),
            ("kept (os error two)", "kept (os error two)"),
            ("kept (os error 5", "kept (os error 5"),
            ("plain", "plain"),
        ];
        for (given, wanted) in cases {
            assert_eq!(without_os_codes(given.to_string()), wanted, "{given}");
        }
    }
}
