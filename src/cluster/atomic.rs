//! Files written whole or not at all: through a temporary name in the same directory,
//! synced, then renamed over the file ([`write_atomic`]); and, for a file that another
//! run may own, only while it is still this run's to replace ([`write_atomic_unless`]).

use std::io::Write;
use std::path::Path;

use super::ClusterError;

/// Writes `bytes` to `path` through a temporary file in the same directory, synced, then
/// renamed over `path`.
///
/// # Errors
/// [`ClusterError::Io`] when any step fails (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ClusterError> {
    write_through_temporary(path, bytes, None::<fn(&Path) -> Result<(), ClusterError>>)
}

/// [`write_atomic`], unless the file at `path` fails `check` (given where that file is to
/// be read: `path`, or the temporary name it was moved to), and then writing nothing.
///
/// On Linux the new file and the old one trade names in one step (`renameat2` with
/// `RENAME_EXCHANGE`), the old one is checked under the temporary name, and one that fails
/// is given its name back: a file put at `path` by another process at any moment is never
/// lost, only moved aside for the microseconds of the check (one put at `path` during
/// those microseconds stays there when the old file passed, and is left under the
/// temporary name, named by the error, when the old one is given its name back). Elsewhere, or on a file system without the exchange, `check` looks at
/// `path` just before the rename, the slow part (the sync) behind it, which leaves those
/// microseconds open to a replacement that the rename then destroys.
pub(crate) fn write_atomic_unless(
    path: &Path,
    bytes: &[u8],
    check: impl Fn(&Path) -> Result<(), ClusterError>,
) -> Result<(), ClusterError> {
    write_through_temporary(path, bytes, Some(check))
}

/// [`write_atomic_unless`] with a check, [`write_atomic`] (a plain rename) without.
fn write_through_temporary(
    path: &Path,
    bytes: &[u8],
    check: Option<impl Fn(&Path) -> Result<(), ClusterError>>,
) -> Result<(), ClusterError> {
    let io = |error| ClusterError::Io {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .map_or_else(|| std::ffi::OsString::from("file"), |n| n.to_os_string());
    // The process id and a count: two threads saving the same file (a batch holding one
    // instance twice) each rename their own temporary file.
    static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".tmp{}.{n}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        f.metadata()
    })();
    let ours = match written {
        Ok(meta) => meta,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
    };
    let placed = match &check {
        Some(check) => place(&tmp, path, check, &ours),
        None => std::fs::rename(&tmp, path).map_err(Placing::Io),
    };
    if !matches!(placed, Err(Placing::Stranded(_))) {
        let _ = std::fs::remove_file(&tmp);
    }
    match placed {
        Ok(()) => {
            remove_stale_temporaries(path, &name);
            Ok(())
        }
        Err(Placing::Refused(e)) => Err(e),
        Err(Placing::Io(e)) => Err(io(e)),
        Err(Placing::Stranded(e)) => Err(io(std::io::Error::new(
            e.kind(),
            format!(
                "a file that was there, not this search's, is now {} and could not be \
                 given its name back ({e}): look at both, and rename the one to keep",
                tmp.display()
            ),
        ))),
    }
}

/// Why [`place`] did not put the new file in place.
enum Placing {
    /// The file there failed the check (and is there still).
    Refused(ClusterError),
    Io(std::io::Error),
    /// The file that was at `path` failed the check and could not be moved back from the
    /// temporary name: it is there, and must not be removed with it.
    Stranded(std::io::Error),
}

/// Puts the file at `tmp` in place of `path` if what is at `path` passes `check` (see
/// [`write_atomic_unless`]). Afterwards `tmp` holds nothing of value: the old file passed
/// its check, or the new one was not placed.
fn place(
    tmp: &Path,
    path: &Path,
    check: &impl Fn(&Path) -> Result<(), ClusterError>,
    ours: &std::fs::Metadata,
) -> Result<(), Placing> {
    #[cfg(target_os = "linux")]
    {
        // Each round either places the file or learns why not; another round is needed
        // only when a file appears at `path` between the two steps of an empty one.
        for _ in 0..100 {
            match swap_names(tmp, path, libc::RENAME_EXCHANGE) {
                Ok(()) => {
                    // `tmp` now holds what was at `path`.
                    pause_for_tests();
                    return match check(tmp) {
                        Ok(()) => Ok(()),
                        Err(refused) => {
                            swap_names(tmp, path, libc::RENAME_EXCHANGE)
                                .map_err(Placing::Stranded)?;
                            // What comes back is the file written here, unless yet another
                            // was put at `path` meanwhile: that one is kept, not removed.
                            use std::os::unix::fs::MetadataExt;
                            match std::fs::symlink_metadata(tmp) {
                                Ok(m) if m.ino() == ours.ino() && m.dev() == ours.dev() => {
                                    Err(Placing::Refused(refused))
                                }
                                _ => Err(Placing::Stranded(std::io::Error::other(
                                    "another file was put in its place meanwhile",
                                ))),
                            }
                        }
                    };
                }
                // Nothing at `path`: placed only if still nothing is there.
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
                    match swap_names(tmp, path, libc::RENAME_NOREPLACE) {
                        Ok(()) => return Ok(()),
                        Err(e) if e.raw_os_error() == Some(libc::EEXIST) => continue,
                        Err(e) if unsupported(&e) => break,
                        Err(e) => return Err(Placing::Io(e)),
                    }
                }
                Err(e) if unsupported(&e) => break,
                Err(e) => return Err(Placing::Io(e)),
            }
        }
    }
    let _ = ours;
    check(path).map_err(Placing::Refused)?;
    pause_for_tests();
    std::fs::rename(tmp, path).map_err(Placing::Io)
}

/// A test knob: `FIFTEEN_TEST_SAVE_PAUSE_MS=N` holds every save N ms where another
/// process's file could meet it (after the exchange, or between the check and the plain
/// rename), so that a test can put a file there then.
fn pause_for_tests() {
    if let Some(ms) = std::env::var("FIFTEEN_TEST_SAVE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// `renameat2(from, to, flags)`.
#[cfg(target_os = "linux")]
fn swap_names(from: &Path, to: &Path, flags: libc::c_uint) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
    };
    let (from, to) = (c(from)?, c(to)?);
    // SAFETY: two NUL-terminated paths that live across the call.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            flags,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Whether a `renameat2` failed for want of the flag's support (an old kernel, or a file
/// system without it), so that a plain rename is the way.
#[cfg(target_os = "linux")]
fn unsupported(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    )
}

/// A temporary file older than this was left by a writer that died (a save takes well
/// under a second); one younger may be another process's save under way.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files of `path` (named `.NAME.tmpPID.N`) that a killed writer
/// left, once they are [`STALE_AFTER`] old: best effort, as a leftover is never read. By
/// age, not by process id: the directory may be shared with other machines, whose
/// process ids mean nothing here.
fn remove_stale_temporaries(path: &Path, name: &std::ffi::OsStr) {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let prefix = format!(".{}.tmp", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        // `PID.N`, digits only: nothing else that starts so is ours.
        let ours = rest
            .split_once('.')
            .is_some_and(|(pid, n)| is_digits(pid) && is_digits(n));
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if ours && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::write_atomic;

    /// Two threads saving one file (a batch holding an instance twice): every save
    /// succeeds, and the file is always one of them whole.
    #[test]
    fn threads_saving_one_file_each_rename_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.checkpoint");
        let texts = [vec![b'a'; 40_000], vec![b'b'; 20_000]];
        std::thread::scope(|s| {
            for text in &texts {
                let (path, texts) = (&path, &texts);
                s.spawn(move || {
                    for _ in 0..200 {
                        write_atomic(path, text).unwrap();
                        let now = std::fs::read(path).unwrap();
                        assert!(texts.contains(&now), "a torn file: {} bytes", now.len());
                    }
                });
            }
        });
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
    }

    /// A save removes the temporary files of its file that a killed writer left (old
    /// ones), and nothing else: not a save that may be under way, not another file's.
    #[test]
    fn a_save_removes_what_a_killed_save_left() {
        let dir = tempfile::tempdir().unwrap();
        let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        let make = |name: &str, old: bool| {
            let f = std::fs::File::create(dir.path().join(name)).unwrap();
            if old {
                f.set_modified(two_hours_ago).unwrap();
            }
        };
        make(".x.checkpoint.tmp123.4", true);
        make(".x.checkpoint.tmp124.5", false);
        make(".x.checkpoint.tmpfoo", true);
        make(".y.checkpoint.tmp1.1", true);
        write_atomic(&dir.path().join("x.checkpoint"), b"{}").unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".x.checkpoint.tmp124.5",
                ".x.checkpoint.tmpfoo",
                ".y.checkpoint.tmp1.1",
                "x.checkpoint"
            ]
        );
    }
}
