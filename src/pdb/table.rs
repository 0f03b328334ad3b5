//! Table files on disk: written so that no reader sees a partial file, opened (mapped or
//! read into memory) only after the header was checked, and inspected on their own.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::error::TableError;

use super::build::Built;
use super::command::{rebuild_at, rebuild_for_name};
use super::format::{check_header, decode_header, spec_of_header, Fault, Header, PAYLOAD_OFFSET};
use super::partition::PatternSpec;
use super::verified::{self, RecordOutcome, Stamp, Verified};

/// Where [`save`] writes `spec`'s table before renaming it: a caller that may be ended by a
/// signal while it saves (the command line) removes it then. One left by a builder killed
/// outright is removed by the next build in that directory (it holds the build lock).
pub fn temporary_path(dir: &Path, spec: &PatternSpec) -> PathBuf {
    dir.join(format!(".{}.{}.tmp", spec.file_name(), std::process::id()))
}

/// Writes a table so that no reader ever sees a partial file: a temporary file in the same
/// directory, synced, read back and its checksum checked, then renamed over the final name
/// (an old table of that name stays usable until that moment).
///
/// # Errors
/// Any I/O failure (a full disk among them); the temporary file is removed.
pub fn save(dir: &Path, spec: &PatternSpec, built: &Built) -> Result<PathBuf, TableError> {
    let path = dir.join(spec.file_name());
    std::fs::create_dir_all(dir).map_err(io_error(&path))?;
    let header = spec.header(&built.payload, built.clamped);
    let head = header.encode();
    let tmp = temporary_path(dir, spec);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(&built.payload)?;
        f.sync_all()?;
        drop(f);
        // Read back and checked before it takes the name: a table replaced (`build-pdb
        // --force`) is replaced only by one that is whole on disk.
        let back = Table::read(&tmp, spec).map_err(|e| {
            std::io::Error::other(format!("the table written did not read back whole: {e}"))
        })?;
        drop(back);
        if let Ok(f) = File::open(&tmp) {
            forget_cached(&f);
        }
        std::fs::rename(&tmp, &path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error(&path)(e));
    }
    Ok(path)
}

/// Drops a just-written (and synced) file from the page cache. Written pages sit there in
/// small folios, which every later mapping of the table inherits: measured, the Korf 100
/// then spends about 15% more (0.16 s against 0.14 s, most of it page-fault time) than when
/// the pages are read back through a [`Table::map`] mapping, which asks for huge folios.
fn forget_cached(f: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: advice only; the descriptor is open for the call.
        unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = f;
}

/// Drops from the page cache each 2 MB block of a mapped table that is only partly there,
/// so that the next fault through the mapping (which asks for huge pages) reads the whole
/// block back as one 2 MB folio. A block partly evicted (this machine pages out file pages
/// left idle for a minute) is otherwise filled back a small folio at a time, and the
/// search then pays a small page's fault and TLB entry per 4 kB: measured on the Korf 100,
/// 0.18 s with the 4x4 tables' blocks a sixteenth present, 0.14 s once read back as huge
/// folios. Four pages a block, at uneven offsets, tell a partial block: asking `mincore`
/// about every page of the 577 MB of 4x4 tables cost 8 ms a run. Where the kernel has
/// `cachestat` (Linux 6.5), one call a block counts its cached pages exactly, a quarter of
/// the calls (the probes cost about 1 ms of every run that opens the 4x4 tables).
#[cfg(target_os = "linux")]
fn drop_partial_blocks(f: &File, map: &memmap2::Mmap) {
    use std::os::unix::io::AsRawFd;
    const PAGE: usize = 4096;
    const BLOCK: usize = 2 << 20;
    const PROBES: [usize; 4] = [0, 137, 301, 460];
    let counted = match cached_pages(f, 0, 0) {
        // Wholly cached (the usual case): no block to drop.
        Some(n) if n == map.len().div_ceil(PAGE) as u64 => return,
        n => n.is_some(),
    };
    for at in (0..map.len()).step_by(BLOCK) {
        let len = BLOCK.min(map.len() - at);
        let partial = if counted {
            match cached_pages(f, at as u64, len as u64) {
                Some(n) => n != 0 && n != len.div_ceil(PAGE) as u64,
                None => return,
            }
        } else {
            let mut present = 0;
            let mut probed = 0;
            for p in PROBES
                .iter()
                .map(|&k| at + k * PAGE)
                .filter(|&p| p < map.len())
            {
                let mut b = 0u8;
                // SAFETY: one page of our live mapping (page-aligned: the mapping is), one
                // byte out.
                let r = unsafe { libc::mincore(map.as_ptr().add(p) as *mut _, PAGE, &mut b) };
                if r != 0 {
                    return;
                }
                probed += 1;
                present += (b & 1) as usize;
            }
            present != 0 && present != probed
        };
        if partial {
            // SAFETY: advice only; the descriptor is open for the call.
            unsafe {
                libc::posix_fadvise(
                    f.as_raw_fd(),
                    at as libc::off_t,
                    BLOCK as libc::off_t,
                    libc::POSIX_FADV_DONTNEED,
                )
            };
        }
    }
}

/// How many pages of the file's `len` bytes from `off` (`len` 0: to its end) are in the
/// page cache, by the `cachestat` system call; `None` where the kernel (before 6.5) or
/// this code (architectures other than x86-64 and AArch64) does not have it.
#[cfg(target_os = "linux")]
fn cached_pages(f: &File, off: u64, len: u64) -> Option<u64> {
    use std::os::unix::io::AsRawFd;
    // The call's number, the same on these architectures (new calls share one table).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    const SYS_CACHESTAT: libc::c_long = 451;
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    return {
        let _ = (f, off, len);
        None
    };
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        /// `struct cachestat_range`.
        #[repr(C)]
        struct Range {
            off: u64,
            len: u64,
        }
        /// `struct cachestat`.
        #[repr(C)]
        #[derive(Default)]
        struct Stat {
            nr_cache: u64,
            nr_dirty: u64,
            nr_writeback: u64,
            nr_evicted: u64,
            nr_recently_evicted: u64,
        }
        let range = Range { off, len };
        let mut stat = Stat::default();
        // SAFETY: the descriptor is open; the kernel reads `range` and writes `stat`, both
        // laid out as its structs, and no flags are defined.
        let r = unsafe {
            libc::syscall(
                SYS_CACHESTAT,
                f.as_raw_fd(),
                &range as *const Range,
                &mut stat as *mut Stat,
                0,
            )
        };
        (r == 0).then_some(stat.nr_cache)
    }
}

/// How a table's bytes are held.
pub enum Storage {
    /// Mapped from the file ([`Table::map`]): cheap to open, pages read on demand.
    Mapped(memmap2::Mmap),
    /// Read into memory ([`Table::read`], [`Table::from_bytes`]).
    Owned(Vec<u8>),
}

impl Storage {
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(m) => m,
            Storage::Owned(v) => v,
        }
    }
}

/// An opened table file: its header, checked, and its payload.
pub struct Table {
    /// The file it came from, for error messages.
    pub path: PathBuf,
    /// Its header, checked against the table wanted.
    pub header: Header,
    /// A mapped table's range, known to the SIGBUS report while the mapping lives (see
    /// [`super::sigbus`]); declared before `storage`, so it is dropped before the unmap.
    #[cfg(target_os = "linux")]
    _sigbus: Option<super::sigbus::Registration>,
    storage: Storage,
    /// The open file a mapped table came from: its metadata, read again when the table is
    /// checked, is that of the very file mapped, whatever happens to the name meanwhile.
    file: Option<File>,
    /// The mapped file's stamp when it was mapped (see [`Table::unchanged`]).
    mapped: Option<Stamp>,
}

/// An I/O error on `path`, as the library reports it: with the file named.
fn io_error(path: &Path) -> impl Fn(std::io::Error) -> TableError + '_ {
    |error| TableError::Io {
        path: path.to_path_buf(),
        error: through_link(path, error),
    }
}

/// An error met through a symbolic link whose target cannot be reached (a disk that is not
/// mounted, a link to itself), said as such: the name alone looks like a file that is
/// there, and the table is not built over the link unasked.
fn through_link(path: &Path, e: std::io::Error) -> std::io::Error {
    let dangling =
        e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ELOOP);
    // A link under a name no table has is never built over: deleting it builds nothing.
    let tables_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name)
        .is_some();
    let or_else = if tables_name {
        "or delete the link to have the table built in its place"
    } else {
        "or delete the link (its name is no table's)"
    };
    match std::fs::read_link(path) {
        Ok(target) if dangling => std::io::Error::new(
            e.kind(),
            format!(
                "a symbolic link to {}, which cannot be opened ({e}); make its target \
                 reachable, {or_else}",
                target.display()
            ),
        ),
        _ => e,
    }
}

/// A failed map or allocation of a table said with the memory it needed, and the likely
/// reason: a limit on the address space (`ulimit -v`) or on the memory of the process.
/// Other errors pass unchanged.
fn out_of_memory(e: std::io::Error, bytes: u64, verb: &str) -> std::io::Error {
    if e.raw_os_error() != Some(libc::ENOMEM) && e.kind() != std::io::ErrorKind::OutOfMemory {
        return e;
    }
    std::io::Error::new(
        std::io::ErrorKind::OutOfMemory,
        format!(
            "cannot {verb} the table's {:.1} MB: out of memory or address space ({e}); raise              the limit (`ulimit -v`) or free memory, or use smaller tables (--partition)",
            bytes as f64 / 1e6
        ),
    )
}

/// Reads the header of an open table file and checks it against `spec`.
fn read_header(path: &Path, file: &mut File, spec: &PatternSpec) -> Result<Header, TableError> {
    let rebuild = || rebuild_at(spec, path);
    let (head, len) = read_head(path, file, |f| f.into_error(path, rebuild()))?;
    let h = decode_header(&head).map_err(|f| f.into_error(path, rebuild()))?;
    check_header(&h, len, spec).map_err(|f| f.into_error(path, rebuild()))?;
    Ok(h)
}

/// Opens a file for reading without waiting for a writer: a FIFO (or a device) named like a
/// table would otherwise block the open forever; [`read_head`] then refuses it as not a
/// regular file. On a regular file the flag changes nothing.
pub(crate) fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// What a file that is not a regular file is, in words ("a named pipe").
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "something other than a regular file"
    }
}

/// The first `PAYLOAD_OFFSET` bytes of a table file (fewer if it is shorter) and its
/// length. Anything but a regular file is refused here, before any read.
fn read_head(
    path: &Path,
    file: &mut File,
    fail: impl Fn(Fault) -> TableError,
) -> Result<(Vec<u8>, u64), TableError> {
    let io = io_error(path);
    let meta = file.metadata().map_err(&io)?;
    if !meta.is_file() {
        return Err(fail(Fault::NotAFile(kind_of(&meta))));
    }
    let mut head = vec![0u8; PAYLOAD_OFFSET as usize];
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(e)),
        }
    }
    head.truncate(got);
    Ok((head, meta.len()))
}

impl Table {
    /// Opens a table by mapping it into memory. Cheap: only the header is read and checked;
    /// see [`Table::verify`] for the checksum.
    ///
    /// # Safety
    /// The file must not be truncated or modified while the table lives: a mapped file that
    /// shrinks makes reads fault (SIGBUS). Table files are only ever replaced by rename,
    /// which leaves an open mapping intact.
    ///
    /// # Errors
    /// A missing, unreadable, damaged or mismatched file.
    pub unsafe fn map(path: &Path, spec: &PatternSpec) -> Result<Table, TableError> {
        let mut file = open_nonblocking(path).map_err(io_error(path))?;
        let header = read_header(path, &mut file, spec)?;
        // SAFETY: the caller promises the file stays as it is (see above).
        // A lazy mapping, not populated: populating costs a single board 3x its CPU time and
        // all 288 MB resident. MADV_HUGEPAGE makes pages read in through this mapping land
        // in the page cache as 2 MB folios, so later runs fault the tables in with few,
        // cheap faults: measured, the Korf 100 takes 0.14 s against 0.16 s when the cache
        // holds the same pages in small folios (as a file just written leaves it, see
        // `forget_cached`). MAP_POPULATE, MADV_WILLNEED and MADV_RANDOM did not help.
        let map = unsafe { memmap2::MmapOptions::new().map(&file) }
            .map_err(|e| io_error(path)(out_of_memory(e, header.payload_len, "map")))?;
        #[cfg(target_os = "linux")]
        {
            let _ = map.advise(memmap2::Advice::HugePage);
            drop_partial_blocks(&file, &map);
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            #[cfg(target_os = "linux")]
            _sigbus: Some(super::sigbus::register(map.as_ptr(), map.len(), path)),
            storage: Storage::Mapped(map),
            mapped: file.metadata().ok().as_ref().and_then(Stamp::of),
            file: Some(file),
        })
    }

    /// Opens a table by reading it into memory: slower to open, safe against the file
    /// changing later, and the checksum is verified.
    ///
    /// # Errors
    /// A missing, unreadable, damaged or mismatched file.
    pub fn read(path: &Path, spec: &PatternSpec) -> Result<Table, TableError> {
        let mut file = open_nonblocking(path).map_err(io_error(path))?;
        let header = read_header(path, &mut file, spec)?;
        let mut bytes = vec![0u8; PAYLOAD_OFFSET as usize];
        let mut rest = Vec::new();
        rest.try_reserve_exact(header.payload_len as usize)
            .map_err(|_| {
                let e = std::io::Error::from(std::io::ErrorKind::OutOfMemory);
                io_error(path)(out_of_memory(e, header.payload_len, "read"))
            })?;
        file.read_to_end(&mut rest).map_err(io_error(path))?;
        bytes.extend_from_slice(&rest);
        Table::owned(path, header, bytes, spec)
    }

    /// Checks a whole table file held in memory, as [`Table::read`] checks one on disk:
    /// header, length and checksum. Never panics, whatever the bytes; `path` only names the
    /// file in errors.
    ///
    /// # Errors
    /// Bytes that are not a sound table for `spec`.
    ///
    /// # Example
    /// The exact 3x3 table (one pattern of all eight tiles), built, saved and checked back;
    /// one changed byte in its payload is refused with the command that rebuilds it.
    /// ```
    /// use fifteen::pdb::{Partition, Table, TableDir};
    /// use fifteen::{Shape, TableError};
    ///
    /// let dir = std::env::temp_dir().join(format!("fifteen-doc-{}", std::process::id()));
    /// let tables = TableDir::new(&dir);
    /// let partition = Partition::default_for(Shape::new(3, 3).unwrap(), 0);
    /// tables.build_missing(&partition, &|_, _, _| {}).unwrap();
    /// let spec = &partition.specs()[0];
    /// let path = tables.path(spec);
    /// let mut bytes = std::fs::read(&path).unwrap();
    ///
    /// let table = Table::from_bytes(&path, bytes.clone(), spec).unwrap();
    /// assert_eq!(table.header.entries, 362_880); // 9!: every placement of the 8 tiles
    ///
    /// let last = bytes.len() - 1;
    /// bytes[last] ^= 1;
    /// let Err(err) = Table::from_bytes(&path, bytes, spec) else { panic!("accepted") };
    /// assert!(matches!(err, TableError::Corrupt { .. }));
    /// assert!(err.to_string().contains("rebuild it with `build-pdb --force --size 3x3"));
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn from_bytes(
        path: &Path,
        bytes: Vec<u8>,
        spec: &PatternSpec,
    ) -> Result<Table, TableError> {
        let rebuild = || rebuild_at(spec, path);
        let head = &bytes[..bytes.len().min(PAYLOAD_OFFSET as usize)];
        let header = decode_header(head).map_err(|f| f.into_error(path, rebuild()))?;
        check_header(&header, bytes.len() as u64, spec)
            .map_err(|f| f.into_error(path, rebuild()))?;
        Table::owned(path, header, bytes, spec)
    }

    /// A whole file held in memory whose header was checked: kept if the checksum agrees.
    fn owned(
        path: &Path,
        header: Header,
        bytes: Vec<u8>,
        spec: &PatternSpec,
    ) -> Result<Table, TableError> {
        let t = Table {
            path: path.to_path_buf(),
            header,
            #[cfg(target_os = "linux")]
            _sigbus: None,
            storage: Storage::Owned(bytes),
            file: None,
            mapped: None,
        };
        t.verify(spec)?;
        Ok(t)
    }

    /// The entries, two per byte.
    #[inline(always)]
    pub fn payload(&self) -> &[u8] {
        &self.storage.bytes()[PAYLOAD_OFFSET as usize..]
    }

    /// Recomputes the checksum of the header's fields and the payload.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] if it differs from the header's.
    pub fn verify(&self, spec: &PatternSpec) -> Result<(), TableError> {
        let sum = self.header.sum(self.payload());
        if sum != self.header.checksum {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                reason: format!(
                    "checksum mismatch (computed {:016x}, header says {:016x})",
                    sum, self.header.checksum
                ),
                rebuild: rebuild_at(spec, &self.path),
            });
        }
        Ok(())
    }

    /// Gives back the pages of a mapped table, which stay in the page cache: the full
    /// checksum pass touched every one, and without this they would all count as the
    /// process's memory from then on (a first `fifteen bench` held the 7-8 tables' 290 MB
    /// while it built the second partition's, 2.13 GB at its peak). The search then maps
    /// back, from the cache, just the pages it reads.
    fn release_pages(&self) {
        #[cfg(unix)]
        if let Storage::Mapped(map) = &self.storage {
            // SAFETY: a read-only mapping of a file: dropping its pages loses nothing, the
            // next read maps the file's bytes again.
            let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
    }

    /// Makes sure the table's bytes are sound before searching with it, as cheaply as is
    /// safe: if the verification record beside the file (see [`verified`]) says this very
    /// file, unchanged since, passed the full pass, nothing is read; otherwise the full
    /// pass runs and, if it succeeds, the record is written for next time.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] if the full pass ran and the checksum differs.
    pub fn ensure_verified(&self, spec: &PatternSpec) -> Result<Verified, TableError> {
        if let Some(now) = self.stamp() {
            if verified::is_recorded(&self.path, self.header.checksum, &now) {
                return Ok(Verified::Recorded);
            }
        }
        self.verify_and_record(spec).map(Verified::Checked)
    }

    /// The full checksum pass, always (as [`Table::verify`]), then the verification record
    /// written if the file did not change during the pass and is not too recent (see
    /// [`verified::RECORD_MARGIN`]). A directory that refuses the record is no error.
    ///
    /// # Errors
    /// [`TableError::Corrupt`] if the checksum differs.
    pub fn verify_and_record(&self, spec: &PatternSpec) -> Result<RecordOutcome, TableError> {
        if self.file.is_none() {
            // Read into memory: later changes to the file cannot reach these bytes, and
            // their pass says nothing about the file as it is now.
            self.verify(spec)?;
            return Ok(RecordOutcome::Unsupported);
        }
        let start = std::time::SystemTime::now();
        let before = self.stamp();
        self.verify(spec)?;
        let after = self.stamp();
        self.release_pages();
        Ok(verified::record(
            &self.path,
            self.header.checksum,
            before,
            after,
            start,
        ))
    }

    /// Whether the mapped file's bytes are still those it had when mapped, as far as its
    /// length and modification time tell. A file written in place while a search reads it
    /// through the mapping (a copy over it, a disk tool) feeds the search other values than
    /// the ones checked, so its answers need not be optimal; a file that shrinks makes
    /// reads fault instead (see [`super::sigbus`]). Tables are replaced by rename, which
    /// leaves the mapped file as it was.
    ///
    /// # Errors
    /// [`TableError::Changed`], naming the file.
    pub fn unchanged(&self) -> Result<(), TableError> {
        match (&self.mapped, self.stamp()) {
            (Some(then), Some(now)) if !then.same_contents(&now) => Err(TableError::Changed {
                path: self.path.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// The mapped file's stamp now (`None` for a table read into memory, or where the
    /// platform has none).
    fn stamp(&self) -> Option<Stamp> {
        let meta = self.file.as_ref()?.metadata().ok()?;
        Stamp::of(&meta)
    }
}

/// Reads a table file's header on its own, to say what the file is for (used by
/// `fifteen tables list`), and checks it against itself and against the file's name.
///
/// # Errors
/// A file that is unreadable, whose header is damaged, or whose name says another table.
pub fn inspect(path: &Path) -> Result<(PatternSpec, Header), TableError> {
    let mut file = open_nonblocking(path).map_err(io_error(path))?;
    let (head, len) = read_head(path, &mut file, |f| inspected_fault(path, f))?;
    inspect_header(path, &head, len)
}

/// A fault of a file met by name: with the command that rebuilds it when the name is a
/// table's, else [`TableError::Foreign`] (no command rebuilds a file we never named).
fn inspected_fault(path: &Path, f: Fault) -> TableError {
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name);
    match named {
        Some(_) => f.into_error(path, rebuild_for_name(path)),
        None => f.into_foreign(path),
    }
}

/// [`inspect`] on a file's first bytes (`PAYLOAD_OFFSET` of them, or all of a shorter
/// file) and its length. Never panics, whatever the bytes.
///
/// # Errors
/// A header that is damaged or describes no table this program builds, or a file name
/// that says another table or none.
pub fn inspect_header(
    path: &Path,
    head: &[u8],
    file_len: u64,
) -> Result<(PatternSpec, Header), TableError> {
    let fail = |f: Fault| inspected_fault(path, f);
    let h = decode_header(head).map_err(fail)?;
    let spec = spec_of_header(&h).map_err(fail)?;
    check_header(&h, file_len, &spec).map_err(fail)?;
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name);
    match named {
        Some(named) if named != spec => Err(fail(Fault::Mismatch(format!(
            "the header is for {}, the file name for {}",
            spec.file_name(),
            named.file_name()
        )))),
        Some(_) => Ok((spec, h)),
        // A sound table under a name no search looks up: it serves nothing where it is.
        None => Err(fail(Fault::Mismatch(format!(
            "a sound table, but under a name no search reads (its own is {})",
            spec.file_name()
        )))),
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// `cachestat` counts a file's cached pages: all of a file just written, none once
    /// dropped, one after reading one back without read-ahead.
    #[test]
    fn cached_pages_are_counted() {
        use std::io::Write;
        use std::os::unix::io::AsRawFd;
        // Not in the temporary directory, which may be a tmpfs (whose pages stay cached).
        let mut f = tempfile::tempfile_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        f.write_all(&[7u8; 5 * 4096]).unwrap();
        let Some(written) = cached_pages(&f, 0, 0) else {
            eprintln!("skipped: this kernel has no cachestat (Linux 6.5 and later do)");
            assert!(std::env::var_os("CI").is_none(), "CI needs cachestat");
            return;
        };
        assert_eq!(written, 5);
        f.sync_all().unwrap();
        forget_cached(&f);
        assert_eq!(cached_pages(&f, 0, 0), Some(0));
        // SAFETY: advice only; the descriptor is open.
        unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_RANDOM) };
        let mut page = [0u8; 4096];
        std::os::unix::fs::FileExt::read_exact_at(&f, &mut page, 2 * 4096).unwrap();
        assert_eq!(cached_pages(&f, 0, 0), Some(1));
        assert_eq!(cached_pages(&f, 2 * 4096, 4096), Some(1));
        assert_eq!(cached_pages(&f, 3 * 4096, 0), Some(0));
    }
}
