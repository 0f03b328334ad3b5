//! The results file open for appending: created with its header, or read back and held
//! to this run's settings, then appended to one record at a time and closed with its end
//! line.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{
    read_back, End, Header, ResultsError, Resume, END_KEY, INPUT_DIGEST_VERSION, SYNC_EVERY,
};
use crate::record::Record;

/// The results file, open for appending records.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
    results: u64,
    complete: bool,
    last_sync: Instant,
    /// Where the valid part of the file ends, while a torn tail after it is still to be
    /// cut off (before the first write).
    keep: Option<u64>,
}

impl ResultsFile {
    /// Opens `path` for `header`'s batch: creates it with its header, or reads back what it
    /// holds and checks that it was written with the same settings. Returns the file, ready
    /// for appending, and the records it holds. A torn last line is cut off at the first
    /// write ([`ResultsFile::append`], [`ResultsFile::finish`]), once [`Resume`] has held
    /// the file's records to the input: a file refused, here or there, is left as it was.
    ///
    /// # Errors
    /// See [`ResultsError`]: nothing is written to a file refused.
    pub fn open(path: &Path, header: &Header) -> Result<(ResultsFile, Resume), ResultsError> {
        let io = |error| ResultsError::Io {
            path: path.to_path_buf(),
            error,
        };
        let opened = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path);
        // A file that cannot be written (a read-only file system, an archive) is read: if
        // it is complete, the run checks it against the input and writes nothing.
        let (mut file, unwritable) = match opened {
            Ok(file) => (file, None),
            Err(e) if path.is_file() && e.kind() != std::io::ErrorKind::NotFound => {
                match File::open(path) {
                    Ok(file) => (file, Some(e)),
                    Err(_) => return Err(io(e)),
                }
            }
            Err(e) => return Err(io(e)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(ResultsError::Locked {
                    path: path.to_path_buf(),
                })
            }
            // A file system without locks: go on without one.
            Err(std::fs::TryLockError::Error(_)) => {}
        }
        let read = read_back(path, &mut file, true)?;
        if let Some(h) = &read.header {
            let differences = h.differences(header, ("in the file", "now"));
            if !differences.is_empty() {
                return Err(ResultsError::Settings {
                    path: path.to_path_buf(),
                    differences: differences.join("; "),
                });
            }
        }
        let (cut, keep) = (read.length - read.valid, read.valid);
        if let Some(e) = unwritable {
            if read.end.is_none() || cut > 0 {
                return Err(io(e)); // records to add, or a torn tail to cut
            }
        }
        file.seek(SeekFrom::Start(keep)).map_err(io)?;
        let mut results = ResultsFile {
            path: path.to_path_buf(),
            file,
            results: read.done.len() as u64,
            complete: read.end.is_some(),
            last_sync: Instant::now(),
            // The torn tail is cut off only once the input was found to be the file's,
            // at the first write: a file refused keeps every byte.
            keep: (cut > 0).then_some(keep),
        };
        // No whole header line: a new file, or a header cut short (or whole but for its
        // newline, and the same as this one). Nothing in it to keep.
        if keep == 0 {
            results.write_line(&header.to_line())?;
            results.sync()?;
        }
        let resume = Resume {
            path: path.to_path_buf(),
            done: read.done,
            next: 0,
            end: read.end,
            cut,
        };
        Ok((results, resume))
    }

    /// Appends one record, as one write straight to the file.
    ///
    /// # Panics
    /// When the file is complete (the caller must stop at [`Resume::skip`]'s
    /// [`ResultsError::Grown`]).
    ///
    /// # Errors
    /// A failed write or sync.
    pub fn append(&mut self, record: &Record) -> Result<(), ResultsError> {
        assert!(!self.complete, "a record after the end line");
        self.write_line(&record.to_line())?;
        self.results += 1;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Records in the file (read back and appended).
    pub fn results(&self) -> u64 {
        self.results
    }

    /// Marks the shard complete: the input had `items` items in all. Writes the end line
    /// (unless the file already had it) and syncs.
    ///
    /// # Errors
    /// A failed write or sync.
    pub fn finish(&mut self, items: u64, input: Option<u64>) -> Result<End, ResultsError> {
        let end = End {
            items,
            results: self.results,
            input,
            input_version: input.map(|_| INPUT_DIGEST_VERSION),
        };
        if !self.complete {
            self.write_line(&serde_json::json!({ END_KEY: end }).to_string())?;
            self.complete = true;
        }
        // (A torn tail after a complete file's end line is cut off too: the input held.)
        self.cut_torn_tail()?;
        self.sync()?;
        Ok(end)
    }

    /// Cuts off the torn tail found on opening, if it is still there.
    fn cut_torn_tail(&mut self) -> Result<(), ResultsError> {
        if let Some(keep) = self.keep.take() {
            self.file.set_len(keep).map_err(|error| ResultsError::Io {
                path: self.path.clone(),
                error,
            })?;
        }
        Ok(())
    }

    fn write_line(&mut self, line: &str) -> Result<(), ResultsError> {
        debug_assert!(!line.contains('\n'));
        self.cut_torn_tail()?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file
            .write_all(&bytes)
            .map_err(|error| ResultsError::Io {
                path: self.path.clone(),
                error,
            })
    }

    fn sync(&mut self) -> Result<(), ResultsError> {
        self.last_sync = Instant::now();
        self.file.sync_data().map_err(|error| ResultsError::Io {
            path: self.path.clone(),
            error,
        })
    }
}
