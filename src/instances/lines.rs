//! Lines of text read as bytes, for instance files and results files alike.
//!
//! `BufRead::read_line` fails on the first byte that is not UTF-8, which ends a whole batch
//! at one bad line, and it keeps a line of any length in memory (`solve -i /dev/zero` would
//! grow without end). Here each line is read as bytes up to a cap: a line that is not UTF-8
//! or too long becomes that line's problem, and the lines after it still come.

use std::io::{self, BufRead};

use crate::error::BoardError;

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawLine {
    /// 1-based: the number of `\n` bytes before it, plus one.
    pub no: usize,
    /// The line without its `\n`, and without a comment when comments are stripped; with
    /// invalid bytes replaced by U+FFFD, and cut at the cap, when it has a problem.
    pub text: String,
    /// [`BoardError::NotUtf8`] or [`BoardError::LineTooLong`], when the bytes are not a
    /// usable line.
    pub problem: Option<BoardError>,
}

/// Reads [`RawLine`]s from any `BufRead`, in memory bounded by the cap.
pub(crate) struct ByteLines<R> {
    input: R,
    line_no: usize,
    buf: Vec<u8>,
    /// The most bytes of a line kept (before any comment); a longer line is a problem.
    cap: usize,
    /// The byte that starts a comment to the end of the line (`#`), if any: what follows
    /// it is skipped unread, so a long or non-UTF-8 comment never makes a line bad.
    comment: Option<u8>,
    /// The last line returned was cut at the cap: its rest is still to be skipped.
    skipping: bool,
    /// The last line returned was UTF-16: a lone byte of 0 ending the input after it is
    /// the second half of its `\n` (little-endian), not a line of its own.
    after_utf16: bool,
}

impl<R: BufRead> ByteLines<R> {
    pub fn new(input: R, cap: usize, comment: Option<u8>) -> ByteLines<R> {
        ByteLines {
            input,
            line_no: 0,
            buf: Vec::new(),
            cap,
            comment,
            skipping: false,
            after_utf16: false,
        }
    }

    /// The next line; `None` at the end of the input.
    ///
    /// A byte-order mark at the start of a line is skipped: the input's first line, or the
    /// first line of a file read after other input (boards given as arguments, then `-i`).
    /// A line over the cap is returned as soon as the cap is reached, so that its error is
    /// seen at once; the rest of it is skipped by the next call.
    pub fn next_line(&mut self) -> io::Result<Option<RawLine>> {
        if std::mem::take(&mut self.skipping) {
            self.skip_rest()?;
        }
        self.buf.clear();
        let mut any = false;
        let mut keeping = true;
        let mut too_long = false;
        let mut ended = false;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                ended = true;
                break;
            }
            any = true;
            let newline = avail.iter().position(|&b| b == b'\n');
            let chunk = &avail[..newline.unwrap_or(avail.len())];
            if keeping {
                let mut keep = chunk;
                if let Some(j) = self.comment.and_then(|c| keep.iter().position(|&b| b == c)) {
                    keep = &keep[..j];
                    keeping = false;
                }
                let room = self.cap - self.buf.len();
                if keep.len() > room {
                    self.buf.extend_from_slice(&keep[..room]);
                    self.input.consume(room);
                    too_long = true;
                    self.skipping = true;
                    break;
                }
                self.buf.extend_from_slice(keep);
            }
            let used = chunk.len() + usize::from(newline.is_some());
            self.input.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if ended && self.buf == [0] && std::mem::take(&mut self.after_utf16) {
            return Ok(None);
        }
        self.line_no += 1;
        let bytes = self.buf.strip_prefix(BOM).unwrap_or(&self.buf);
        let (text, problem) = match std::str::from_utf8(bytes) {
            Ok(t) if !too_long => (t.to_string(), None),
            Ok(t) => (t.to_string(), Some(BoardError::LineTooLong(self.cap))),
            Err(_) => (
                String::from_utf8_lossy(bytes).into_owned(),
                Some(if too_long {
                    BoardError::LineTooLong(self.cap)
                } else {
                    BoardError::NotUtf8
                }),
            ),
        };
        // Two ways a whole file reads as garbage, each named for what it is (one line of
        // numbers with invisible characters, or boards run together, said nothing of it).
        let nuls = bytes.iter().filter(|&&b| b == 0).count();
        // UTF-16 of boards is text beside its bytes of 0 (a byte-order mark aside); a
        // program's bytes of 0 sit among control characters.
        let texty =
            |b: &u8| *b == 0 || b.is_ascii_graphic() || b.is_ascii_whitespace() || *b >= 0xfe;
        // A line over the cap is judged by the part kept: a file of zero bytes, or one whose
        // lines end in CR alone, is one long line, and is named for what it is too. (A
        // lone byte of 0 is what little-endian UTF-16 leaves after its last `\n`.)
        let zeros = nuls > 1 && nuls == bytes.len();
        let problem = if nuls > 0 && (zeros || !bytes.iter().all(texty)) {
            Some(BoardError::Binary)
        } else if nuls > 0 && nuls * 3 >= bytes.len() {
            Some(BoardError::Utf16)
        } else if (problem.is_none() || too_long) && text.trim_end_matches('\r').contains('\r') {
            Some(BoardError::LoneCarriageReturn)
        } else {
            problem
        };
        self.after_utf16 = problem == Some(BoardError::Utf16);
        Ok(Some(RawLine {
            no: self.line_no,
            text,
            problem,
        }))
    }

    /// Consumes the rest of a line that was too long, through its `\n`.
    fn skip_rest(&mut self) -> io::Result<()> {
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(());
            }
            match avail.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.input.consume(i + 1);
                    return Ok(());
                }
                None => {
                    let n = avail.len();
                    self.input.consume(n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn all(input: &[u8], cap: usize, comment: Option<u8>) -> Vec<RawLine> {
        // A tiny buffer, so that lines span many `fill_buf` calls.
        let mut r = ByteLines::new(io::BufReader::with_capacity(3, input), cap, comment);
        std::iter::from_fn(|| r.next_line().unwrap()).collect()
    }

    fn line(no: usize, text: &str, problem: Option<BoardError>) -> RawLine {
        RawLine {
            no,
            text: text.into(),
            problem,
        }
    }

    #[test]
    fn lines_are_numbered_and_bad_bytes_stay_in_their_line() {
        let got = all(b"a b\n\xff\xfe 1\r\n\nlast", 100, None);
        assert_eq!(
            got,
            [
                line(1, "a b", None),
                line(2, "\u{fffd}\u{fffd} 1\r", Some(BoardError::NotUtf8)),
                line(3, "", None),
                line(4, "last", None),
            ]
        );
        assert_eq!(all(b"", 100, None), []);
        assert_eq!(all(b"\n", 100, None), [line(1, "", None)]);
    }

    #[test]
    fn utf_16_and_lines_ended_by_cr_alone_are_named() {
        let utf16: Vec<u8> = "\u{feff}8 2 4\n3 2 1\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let got = all(&utf16, 100, None);
        // The last `\n`'s byte of 0 ends the file: the second half of that line's end, not
        // a third line with an error of its own.
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got.iter().all(|l| l.problem == Some(BoardError::Utf16)),
            "{got:?}"
        );
        // Big-endian too, and with CRLF line ends.
        let utf16be: Vec<u8> = "\u{feff}8 2 4\r\n3 2 1\r\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let got = all(&utf16be, 100, None);
        assert!(
            got.iter().all(|l| l.problem == Some(BoardError::Utf16)),
            "{got:?}"
        );
        // Zero bytes, and lines ended by CR alone, named so past the length cap too (a
        // long file of either is one line).
        let zeros = vec![0u8; 1000];
        assert_eq!(all(&zeros, 100, None)[0].problem, Some(BoardError::Binary));
        let cr = "1 2 3 4 5 6 7 0 8\r".repeat(100);
        assert_eq!(
            all(cr.as_bytes(), 100, None)[0].problem,
            Some(BoardError::LoneCarriageReturn)
        );
        // A program's bytes are binary data, not UTF-16 text.
        let elf = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\n";
        assert_eq!(all(elf, 100, None)[0].problem, Some(BoardError::Binary));
        let got = all(b"1 2 3\r4 5 6\r\n7 8 9\r\n", 100, None);
        assert_eq!(got[0].problem, Some(BoardError::LoneCarriageReturn));
        // A line ended by CR LF is a line like any other.
        assert_eq!(got[1], line(2, "7 8 9\r", None));
        // A byte of 0 among many is the invisible character the reader names.
        assert_eq!(all(b"1 2 3 4 5 6 \x00 7 8", 100, None)[0].problem, None);
    }

    #[test]
    fn a_byte_order_mark_starting_a_line_is_skipped() {
        let got = all(b"\xEF\xBB\xBF1 2\n\xEF\xBB\xBF3\n4 \xEF\xBB\xBF", 100, None);
        assert_eq!(
            got,
            [
                line(1, "1 2", None),
                line(2, "3", None),
                // Inside a line it is a character like any other (the reader refuses it).
                line(3, "4 \u{feff}", None),
            ]
        );
    }

    #[test]
    fn comments_are_skipped_unread_and_lines_are_capped() {
        let mut input = b"1 2 # caf\xe9, ".to_vec();
        input.extend(vec![b'9'; 1000]);
        input.extend(b"\n12345678901\n123456789\n");
        let got = all(&input, 10, Some(b'#'));
        assert_eq!(
            got,
            [
                line(1, "1 2 ", None),
                line(2, "1234567890", Some(BoardError::LineTooLong(10))),
                line(3, "123456789", None),
            ]
        );
        // Without comments, `#` is text (JSON strings may hold it).
        assert_eq!(all(b"{\"#\"}", 10, None), [line(1, "{\"#\"}", None)]);
    }

    #[test]
    fn endless_input_without_a_newline_is_read_in_bounded_memory() {
        let endless = io::BufReader::new(io::repeat(b'7').take(50_000_000));
        let mut r = ByteLines::new(endless, 64, None);
        let l = r.next_line().unwrap().unwrap();
        assert_eq!(l.problem, Some(BoardError::LineTooLong(64)));
        assert_eq!(l.text.len(), 64);
        assert!(r.buf.capacity() < 1024, "{}", r.buf.capacity());
        assert_eq!(r.next_line().unwrap(), None);
    }
}
