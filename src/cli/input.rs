//! Reading input: standard input that Ctrl-C ends, and files or `-`.

use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::INTERRUPTED;
use crate::{Board, Shape};

/// A board argument as one input line, in brackets. A board drawn as rows (lines, or
/// lists in brackets) becomes a list of rows in brackets (`[1 2 3] [4 5 6] [7 0 8]`), so
/// that the line keeps the shape it is drawn in: the reader then takes that shape, or
/// refuses the board as that instance's error (rows of different lengths, a `--size` of
/// another shape), exit status 1 as for any bad board, never a board joined from rows of
/// another length. A board on one line becomes one list (`[1 2 3 4 5 6 7 0 8]`): never
/// read as an `ID LEN tiles` line.
///
/// A `#` starts a comment to the end of its line, as in files: without this the reader
/// would cut the bracketed line at it and report a `[` without its `]`.
pub fn board_argument(text: &str) -> String {
    let text = without_comments(text);
    let text = text.as_str();
    let tokens = |row: &str| -> Vec<String> {
        row.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    };
    let Ok(rows) = crate::board::rows(text) else {
        // Brackets the board cannot be read with: the reader says what is wrong with them
        // (they do not depend on the line breaks).
        return text.lines().collect::<Vec<_>>().join(" ");
    };
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(tokens)
        .filter(|r| !r.is_empty())
        .collect();
    if rows.is_empty() {
        // An argument without numbers (`""`, an unset shell variable) is still an
        // instance: a line the reader refuses ("no numbers given"), where a blank line
        // would be skipped and the ids after it shift.
        return ",".into();
    }
    if rows.len() < 2 {
        // In brackets too: an argument is a board, never a file's `ID LEN tiles` line,
        // which "1 2 3 4 5 0" (a 2x3 board without --size) or the 18 numbers of a 3x6
        // board would otherwise read as (an id, a length and a square board).
        return format!("[{}]", rows.concat().join(" "));
    }
    let rows: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(" "))).collect();
    rows.join(" ")
}

/// A board or goal argument without its comments: a `#` starts one to the end of its line,
/// as in files, so that a board copied from a file with its comment reads the same.
pub fn without_comments(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .collect();
    lines.join("\n")
}

/// The board of a command that takes one (`compare`, `check --moves`, `play`), read from
/// its arguments as `solve` reads one board: one argument (rows on lines, in brackets or
/// not), its numbers as separate arguments, or its rows as separate arguments; comments
/// dropped. Arguments that each make a whole board on their own (in `size`'s shape, if
/// given) are refused, saying so: joined, they would be read as one board and refused for
/// a number repeated, which says nothing of the mistake.
///
/// # Errors
/// Several arguments that each make a board; `command` names the command in the message.
pub fn one_board(args: &[String], size: Option<Shape>, command: &str) -> Result<String> {
    let args: Vec<String> = args.iter().map(|a| without_comments(a)).collect();
    if let [one] = args.as_slice() {
        return Ok(one.clone());
    }
    if let Some(rows) = rows_of_one_board(&args) {
        return Ok(rows);
    }
    let whole = |b: &String| match size {
        Some(s) => Board::parse_as(b, s).is_ok(),
        None => Board::parse(b).is_ok(),
    };
    let boards = args.iter().filter(|b| whole(b)).count();
    if boards > 1 {
        let which = if boards == args.len() {
            format!("each of its {boards} arguments makes one")
        } else {
            format!("{boards} of its {} arguments each make one", args.len())
        };
        bail!("{command} takes one board, and {which}: give them one at a time, or solve them all with `fifteen solve BOARD...`");
    }
    Ok(args.join(" "))
}

/// Whether a command-line argument is one number of a board whose numbers were given as
/// separate arguments: `1`, or, from a list typed without quotes (`[1, 2, 3, ...]`), `[1,`
/// or `3],`.
pub fn one_number(arg: &str) -> bool {
    let t = arg
        .trim()
        .trim_start_matches('[')
        .trim_end_matches([']', ',']);
    t.parse::<u64>().is_ok()
}

/// Board arguments that are the rows of one board (`"1 2 3" "4 5 6" "7 0 8"`): that board,
/// its rows on lines. Only when no argument is a square board on its own (a square count
/// of numbers, each from 0 up once) and together they hold each number from 0 up once:
/// arguments that are boards stay one board each.
pub fn rows_of_one_board(args: &[String]) -> Option<String> {
    let numbers = |arg: &String| -> Option<Vec<usize>> {
        arg.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().ok())
            .collect()
    };
    let rows: Vec<Vec<usize>> = args.iter().map(numbers).collect::<Option<_>>()?;
    let width = rows.first()?.len();
    fn is_permutation<'a>(mut n: impl Iterator<Item = &'a usize>, count: usize) -> bool {
        let mut seen = vec![false; count];
        n.all(|&x| x < count && !std::mem::replace(&mut seen[x], true))
    }
    let fits = rows.len() >= 2
        && width >= 2
        && rows.iter().all(|r| r.len() == width)
        && !(matches!(width, 4 | 9 | 16 | 25 | 36)
            && rows.iter().any(|r| is_permutation(r.iter(), width)))
        && is_permutation(rows.iter().flatten(), rows.len() * width);
    fits.then(|| {
        let lines: Vec<String> = rows
            .iter()
            .map(|r| r.iter().map(usize::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        lines.join("\n")
    })
}

/// An argument given where a board is expected that names a file, or looks like a file's
/// name (a path, or a name with an extension): the message that says to give it with
/// `-i`, since read as a board it would only say "'data/korf100.txt' is not a number".
pub fn file_not_board(n: usize, arg: &str) -> Option<String> {
    let t = arg.trim();
    if t.is_empty() || t.contains(char::is_whitespace) || one_number(t) {
        return None;
    }
    let path = std::path::Path::new(t);
    if path.is_file() {
        return Some(format!(
            "board argument {n} is a file, not a board: to read boards from a file give -i {t}"
        ));
    }
    let quoted = crate::board::quoted(t);
    if path.is_dir() {
        return Some(format!(
            "board argument {n} ('{quoted}') is a directory, not a board: to read boards from a file give -i FILE"
        ));
    }
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.starts_with(|c: char| c.is_ascii_alphabetic()));
    (t.contains(['/', '\\']) || extension).then(|| {
        format!(
            "board argument {n} ('{quoted}') looks like a file name, not a board, and no such file exists: to read boards from a file give -i FILE"
        )
    })
}

/// A file, or standard input for `-`; `kind` names what the file should be ("an instance
/// file"), for the message when it is a directory.
pub fn open(path: &str, kind: &str) -> Result<Box<dyn BufRead + Send>> {
    if path == "-" {
        return Ok(stdin_reader());
    }
    let f = std::fs::File::open(path).with_context(|| format!("cannot read {path}"))?;
    // Opening a directory succeeds; reading it fails later with no name attached.
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        anyhow::bail!(
            "cannot read {path}: it is a directory (give {kind}, or - for standard input)"
        );
    }
    Ok(Box::new(std::io::BufReader::new(f)))
}

/// An input read ahead: the whole of it when it is short and ends at once, and a reader
/// that reads it from its start either way.
pub struct Ahead {
    pub reader: Box<dyn BufRead + Send>,
    /// The whole input, when it ended within the bytes and (standard input) the wait given.
    pub whole: Option<Vec<u8>>,
}

/// Reads up to `cap` bytes of a file (`-`: standard input, waiting at most `wait` for it to
/// end), so that a batch can count its instances before it starts. A pipe that stays open
/// (a producer still writing, or waiting for answers) is not waited for beyond `wait`; a
/// file that is no regular file (a FIFO) is not read ahead at all.
pub fn read_ahead(path: &str, kind: &str, cap: usize, wait: Duration) -> Result<Ahead> {
    use std::io::Read;
    let mut start = Vec::new();
    let (rest, ended): (Box<dyn BufRead + Send>, bool) = if path == "-" {
        #[cfg(unix)]
        {
            let mut stdin = StdinUntilInterrupted {
                until: Some(Instant::now() + wait),
            };
            let mut ended = false;
            let mut buf = [0u8; 8192];
            while start.len() <= cap {
                match stdin.read(&mut buf) {
                    Ok(0) => {
                        ended = !INTERRUPTED.load(Ordering::Relaxed);
                        break;
                    }
                    Ok(n) => start.extend_from_slice(&buf[..n]),
                    // Waited long enough, or an error the batch's own reads will meet.
                    Err(_) => break,
                }
            }
            let rest: Box<dyn BufRead + Send> = if ended {
                Box::new(std::io::empty())
            } else {
                stdin_reader()
            };
            (rest, ended)
        }
        #[cfg(not(unix))]
        {
            let _ = wait;
            (stdin_reader(), false)
        }
    } else {
        let mut file = open(path, kind)?;
        let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
        let ended = regular
            && (&mut file)
                .take(cap as u64 + 1)
                .read_to_end(&mut start)
                .is_ok_and(|n| n <= cap);
        (file, ended)
    };
    let whole = ended.then(|| start.clone());
    let reader = Box::new(std::io::Cursor::new(start).chain(rest));
    Ok(Ahead { reader, whole })
}

/// Standard input, buffered, that reads as ended once Ctrl-C is pressed: a batch whose
/// input pipe stays open (a producer that ignores the signal) still stops.
pub fn stdin_reader() -> Box<dyn BufRead + Send> {
    #[cfg(unix)]
    {
        Box::new(std::io::BufReader::new(StdinUntilInterrupted {
            until: None,
        }))
    }
    #[cfg(not(unix))]
    {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    }
}

/// Reads file descriptor 0 directly (std's `Stdin` keeps a buffer of its own that poll(2)
/// cannot see), waiting for input in slices of 100 ms so that Ctrl-C is noticed; with
/// `until`, a wait past that time is an error of kind `WouldBlock` (nothing read is lost).
#[cfg(unix)]
struct StdinUntilInterrupted {
    until: Option<Instant>,
}

#[cfg(unix)]
impl std::io::Read for StdinUntilInterrupted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if super::output::stdin_was_closed() {
            return Err(std::io::Error::other(
                "standard input is closed (<&-): give the input as a file, or through a pipe",
            ));
        }
        loop {
            if INTERRUPTED.load(Ordering::Relaxed) {
                return Ok(0);
            }
            let mut fd = libc::pollfd {
                fd: 0,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid, exclusively borrowed pollfd.
            let ready = unsafe { libc::poll(&mut fd, 1, 100) };
            if ready == 0 {
                if self.until.is_some_and(|t| Instant::now() >= t) {
                    return Err(std::io::ErrorKind::WouldBlock.into());
                }
                continue;
            }
            if ready > 0 {
                // Readable, at its end, or in error: read(2) says which without blocking.
                // SAFETY: `buf` is valid for writes of `buf.len()` bytes.
                let n = unsafe { libc::read(0, buf.as_mut_ptr().cast(), buf.len()) };
                if n >= 0 {
                    return Ok(n as usize);
                }
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::time::Duration;

    use super::read_ahead;

    fn all(mut r: impl Read) -> Vec<u8> {
        let mut v = Vec::new();
        r.read_to_end(&mut v).unwrap();
        v
    }

    #[test]
    fn a_file_read_ahead_is_read_whole_from_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let short = dir.path().join("short.txt");
        std::fs::write(&short, "1 2 3 4 5 6 7 8 0\n").unwrap();
        let long = dir.path().join("long.txt");
        let text: Vec<u8> = (0..5000)
            .flat_map(|i| format!("# {i}\n").into_bytes())
            .collect();
        std::fs::write(&long, &text).unwrap();
        let wait = Duration::from_millis(1);

        let a = read_ahead(short.to_str().unwrap(), "a file", 100, wait).unwrap();
        assert_eq!(a.whole.as_deref(), Some(&b"1 2 3 4 5 6 7 8 0\n"[..]));
        assert_eq!(all(a.reader), b"1 2 3 4 5 6 7 8 0\n");
        // Longer than the bytes read ahead: no whole text, and nothing lost.
        let a = read_ahead(long.to_str().unwrap(), "a file", 1000, wait).unwrap();
        assert!(a.whole.is_none());
        assert_eq!(all(a.reader), text);
        // Exactly as long as the cap: whole.
        let a = read_ahead(long.to_str().unwrap(), "a file", text.len(), wait).unwrap();
        assert_eq!(a.whole.as_deref(), Some(&text[..]));
        // A directory is refused as `open` refuses it.
        let e = read_ahead(dir.path().to_str().unwrap(), "a file", 100, wait)
            .err()
            .unwrap();
        assert!(e.to_string().contains("it is a directory"), "{e}");
    }
}
