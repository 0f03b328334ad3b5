//! Verification records: a small file beside a table (`NAME.pdb.verified`) saying "this
//! file, as it stood then, passed the full checksum pass", so that later runs can skip the
//! pass (0.05 s and a read of every page of the 288 MB 4x4 set) while the file is provably
//! the same one.
//!
//! "The same one" is judged by what the kernel keeps about the file and no user can forge:
//! its device, inode, size, modification time and change time (ctime, nanoseconds). Any
//! write, truncation, rename over it, or `touch -d` that restores the modification time sets
//! the change time to the present, which no ordinary user can set back. A record is written
//! only when the file's change time is [`RECORD_MARGIN`] older than the start of the pass,
//! so that a write racing the pass, stamped within the same coarse clock tick, cannot be
//! recorded as verified (git's "racy clean" problem). What metadata cannot see (a bit that
//! rots on the disk, a write to the block device underneath the file system, the clock set
//! back by root) only the full pass can: `fifteen tables verify` always runs it.
//!
//! The record is a few lines of text, compared whole with what it should say for the file
//! as it is now: a record that is truncated, edited, copied from another table or left over
//! from an earlier file simply fails to match, and the full pass runs as it would without
//! one.

use std::fs::{File, Metadata};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How much older than the start of the pass a table's last change must be before its
/// verification is recorded. File times come from a coarse clock (a few milliseconds on
/// Linux; 2 s on FAT), so a change made during the pass may carry a time slightly before
/// its start; a change older than this margin cannot have happened during the pass.
pub const RECORD_MARGIN: Duration = Duration::from_secs(3);

/// The first line of every record: names the format, so that a future change of layout
/// is a mismatch (a full pass), never a misreading.
const MAGIC: &str = "fifteen verification record 1";

/// A record is never longer than this; a larger file in its place is not a record.
const MAX_RECORD: u64 = 1024;

/// How a table's checksum stood when it was opened for searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verified {
    /// A verification record matched the file as it is now: the full pass was skipped.
    Recorded,
    /// The full checksum pass ran and succeeded; what became of the record.
    Checked(RecordOutcome),
}

/// What happened to a table's verification record after a successful full pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordOutcome {
    /// Written (or rewritten): the next open skips the pass while the file stays the same.
    Written,
    /// Not written: the file changed less than [`RECORD_MARGIN`] before the pass (just
    /// built, say), or during it; a later pass records it.
    TooRecent,
    /// Not written: the directory refused the file (read-only, say). Every open then runs
    /// the full pass, as it would without records.
    NotWritten(std::io::ErrorKind),
    /// Not written: this platform gives no inode and change time to key a record on.
    Unsupported,
    /// Not written: a file under the record's name that is not a record (someone else's):
    /// it is left as it is, and every open runs the full pass.
    Foreign,
}

/// What identifies one state of a table file: if any of it differs, the file may have
/// changed since the record was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    dev: u64,
    ino: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    /// The stamp of an open file's metadata, where the platform has one.
    #[cfg(unix)]
    pub(super) fn of(meta: &Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        Some(Stamp {
            len: meta.len(),
            dev: meta.dev(),
            ino: meta.ino(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    /// No inode or change time here: nothing safe to key a record on.
    #[cfg(not(unix))]
    pub(super) fn of(_meta: &Metadata) -> Option<Stamp> {
        None
    }

    /// Whether the file's contents may differ between the two stamps: another length or
    /// modification time. (Not the change time: replacing the name by rename, as a table
    /// build does, changes the old file's link count, and so its change time, while its
    /// bytes, and a mapping of them, stay as they were.)
    pub(super) fn same_contents(&self, other: &Stamp) -> bool {
        self.len == other.len && self.mtime == other.mtime
    }

    /// Whether the file's last change is at least `margin` before `start`. A change time
    /// before the epoch or a clock before it counts as recent: no record then.
    fn changed_before(&self, start: SystemTime, margin: Duration) -> bool {
        let (secs, nanos) = self.ctime;
        let (Ok(secs), Ok(nanos)) = (u64::try_from(secs), u32::try_from(nanos)) else {
            return false;
        };
        let changed = Duration::new(secs, nanos.min(999_999_999));
        match start.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(now) => changed + margin <= now,
            Err(_) => false,
        }
    }
}

/// Where the record of the table at `table` lives: beside it, its name plus `.verified`.
pub fn record_path(table: &Path) -> PathBuf {
    let mut name = table.file_name().unwrap_or_default().to_os_string();
    name.push(".verified");
    table.with_file_name(name)
}

/// The table's file name as a record states it (lossy for names that are not UTF-8; the
/// stamp identifies the file anyway, the name only keeps records apart).
fn table_name(table: &Path) -> String {
    table
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The text of a record.
fn encode(name: &str, checksum: u64, s: &Stamp) -> String {
    format!(
        "{MAGIC}\ntable {name}\nchecksum {checksum:016x}\nbytes {}\ndevice {}\ninode {}\n\
         modified {} {}\nchanged {} {}\n",
        s.len, s.dev, s.ino, s.mtime.0, s.mtime.1, s.ctime.0, s.ctime.1
    )
}

/// Whether `text` is a sound record for the table called `name` whose header carries
/// `checksum` and whose file has the stamp `now`. Anything unexpected is a mismatch.
fn matches(text: &str, name: &str, checksum: u64, now: &Stamp) -> bool {
    // Re-encoding what the file should say and comparing whole texts leaves no field,
    // order or spelling unchecked: no parser to get wrong.
    text == encode(name, checksum, now)
}

/// Whether the record beside `table` says that this file, exactly as `now` stamps it, with
/// this header checksum, passed the full pass. Never fails: an unreadable, missing or odd
/// record is simply no match.
pub(super) fn is_recorded(table: &Path, checksum: u64, now: &Stamp) -> bool {
    let path = record_path(table);
    // Only a small regular file is read (a FIFO would block the open; a huge file waste
    // time); the open file is checked again in case the name changed hands meanwhile.
    match std::fs::metadata(&path) {
        Ok(m) if m.is_file() && m.len() <= MAX_RECORD => {}
        _ => return false,
    }
    let Ok(file) = File::open(&path) else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut text = String::new();
    if file.take(MAX_RECORD + 1).read_to_string(&mut text).is_err() {
        return false;
    }
    matches(&text, &table_name(table), checksum, now)
}

/// Whether a record may be written at `path`: nothing is there, or a record of ours (a
/// stale or damaged one included: it starts with the magic line). Anything else is a file
/// this program did not write.
fn replaceable(path: &Path) -> bool {
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) => return e.kind() == std::io::ErrorKind::NotFound,
        Ok(m) => m,
    };
    if !meta.is_file() || meta.len() > MAX_RECORD {
        return false;
    }
    let mut text = Vec::new();
    // Empty: what a crash between the write and its reaching the disk can leave.
    File::open(path)
        .and_then(|f| f.take(MAX_RECORD + 1).read_to_end(&mut text))
        .is_ok()
        && (text.is_empty() || text.starts_with(format!("{MAGIC}\n").as_bytes()))
}

/// Records that the table at `table` passed the full pass, if its stamps before (`before`,
/// taken before `start`, when the pass began) and after (`after`) the pass agree and its
/// last change is old enough. Written to a temporary name and renamed, so that a reader
/// never sees half a record (and half a record would not match anyway).
pub(super) fn record(
    table: &Path,
    checksum: u64,
    before: Option<Stamp>,
    after: Option<Stamp>,
    start: SystemTime,
) -> RecordOutcome {
    let (Some(before), Some(after)) = (before, after) else {
        return RecordOutcome::Unsupported;
    };
    if before != after || !after.changed_before(start, RECORD_MARGIN) {
        return RecordOutcome::TooRecent;
    }
    let path = record_path(table);
    if !replaceable(&path) {
        return RecordOutcome::Foreign;
    }
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(path.file_name().unwrap_or_default());
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let text = encode(&table_name(table), checksum, &after);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        drop(f);
        std::fs::rename(&tmp, &path)
    })();
    match result {
        Ok(()) => RecordOutcome::Written,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            RecordOutcome::NotWritten(e.kind())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            len: 266_176,
            dev: 2049,
            ino: 1234,
            mtime: (1_700_000_000, 5),
            ctime: (1_700_000_001, 7),
        }
    }

    #[test]
    fn a_record_matches_only_the_same_file_state_name_and_checksum() {
        let s = stamp();
        let text = encode("a.pdb", 0xabc, &s);
        assert!(matches(&text, "a.pdb", 0xabc, &s));
        assert!(!matches(&text, "b.pdb", 0xabc, &s));
        assert!(!matches(&text, "a.pdb", 0xabd, &s));
        let changed: [&dyn Fn(&mut Stamp); 6] = [
            &|s| s.len += 1,
            &|s| s.dev += 1,
            &|s| s.ino += 1,
            &|s| s.mtime.1 += 1,
            &|s| s.ctime.1 += 1,
            &|s| s.ctime.0 += 1,
        ];
        for change in changed {
            let mut other = s;
            change(&mut other);
            assert!(!matches(&text, "a.pdb", 0xabc, &other));
        }
        // Every truncation, and every single changed byte, is no match.
        for cut in 0..text.len() {
            assert!(!matches(&text[..cut], "a.pdb", 0xabc, &s), "cut at {cut}");
        }
        let bytes = text.as_bytes();
        for i in 0..bytes.len() {
            let mut b = bytes.to_vec();
            b[i] ^= 0x01;
            if let Ok(t) = String::from_utf8(b) {
                assert!(!matches(&t, "a.pdb", 0xabc, &s), "byte {i}");
            }
        }
    }

    #[test]
    fn only_a_change_older_than_the_margin_is_recorded() {
        let s = stamp();
        let changed = SystemTime::UNIX_EPOCH + Duration::new(1_700_000_001, 7);
        assert!(s.changed_before(changed + RECORD_MARGIN, RECORD_MARGIN));
        assert!(!s.changed_before(
            changed + RECORD_MARGIN - Duration::from_nanos(1),
            RECORD_MARGIN
        ));
        assert!(!s.changed_before(changed, RECORD_MARGIN));
        let mut odd = s;
        odd.ctime = (-1, 0);
        assert!(!odd.changed_before(changed, RECORD_MARGIN));
    }

    #[test]
    fn the_record_sits_beside_the_table() {
        let p = Path::new("/t/4x4-b0-1.2.pdb");
        assert_eq!(record_path(p), Path::new("/t/4x4-b0-1.2.pdb.verified"));
    }
}
