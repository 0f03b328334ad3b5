//! Reading input: standard input that Ctrl-C ends, and files or `-`.

use std::io::BufRead;
use std::sync::atomic::Ordering;

use anyhow::{bail, Context, Result};

use super::INTERRUPTED;
use crate::{BoardError, Shape};

/// Board argument `n` (from 1) as one input line. A board given as rows in one argument
/// must have rows of one length, and that length must be the shape's: joined on one line,
/// rows of another length (or a `--size` that disagrees with the rows) would be read as
/// another board than the one drawn.
pub fn board_argument(n: usize, text: &str, size: Option<Shape>) -> Result<String> {
    let tokens = |line: &str| -> Vec<String> {
        line.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    };
    let rows: Vec<Vec<String>> = text.lines().map(tokens).filter(|r| !r.is_empty()).collect();
    let joined = rows.concat().join(" ");
    let Some(first) = rows.first().map(Vec::len).filter(|_| rows.len() > 1) else {
        return Ok(joined);
    };
    if let Some(i) = rows.iter().position(|r| r.len() != first) {
        let error = BoardError::UnevenRows {
            row: i + 1,
            count: rows[i].len(),
            first,
        };
        bail!("board argument {n}: {error}");
    }
    let drawn = format!("{} rows of {first}", rows.len());
    match size {
        Some(s) if (s.rows as usize, s.cols as usize) != (rows.len(), first) => bail!(
            "board argument {n} is drawn as {drawn} but --size {s} is {} rows of {}: give --size {}x{first}, or draw the board as {s}",
            s.rows,
            s.cols,
            rows.len()
        ),
        None if rows.len() != first => bail!(
            "board argument {n} is drawn as {drawn}: give --size {}x{first} (only square boards follow from their count)",
            rows.len()
        ),
        _ => Ok(joined),
    }
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

/// Standard input, buffered, that reads as ended once Ctrl-C is pressed: a batch whose
/// input pipe stays open (a producer that ignores the signal) still stops.
pub fn stdin_reader() -> Box<dyn BufRead + Send> {
    #[cfg(unix)]
    {
        Box::new(std::io::BufReader::new(StdinUntilInterrupted))
    }
    #[cfg(not(unix))]
    {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    }
}

/// Reads file descriptor 0 directly (std's `Stdin` keeps a buffer of its own that poll(2)
/// cannot see), waiting for input in slices of 100 ms so that Ctrl-C is noticed.
#[cfg(unix)]
struct StdinUntilInterrupted;

#[cfg(unix)]
impl std::io::Read for StdinUntilInterrupted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
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
