//! Verification records: a run may skip a table's checksum pass only while the file is
//! provably the one that passed it. Each way of changing a table behind a record's back
//! that an ordinary user has (bytes flipped in place with the modification time put back,
//! a copy or a rename over it, truncation, a rebuild) must bring the full pass back; a
//! record that is stale, corrupt or another table's must be ignored; a read-only directory
//! must still work; and `tables verify` must never trust a record.
//!
//! A record is only written for a file last changed [`RECORD_MARGIN`] before the pass, so
//! most tests build their tables and wait that long once (`aged`).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use fifteen::pdb::{
    record_path, Partition, PatternSpec, RecordOutcome, TableDir, Verified, PAYLOAD_OFFSET,
    RECORD_MARGIN,
};
use fifteen::{Shape, TableError};

/// A 3x3 board 31 moves from the standard goal (one of the two hardest 8-puzzle positions).
const HARD3: &str = "8 6 7 2 5 4 3 0 1";

/// The 3x3 4-4 partition: two tables, so that one's record can be planted on the other.
fn partition() -> Partition {
    Partition::parse(Shape::new(3, 3).unwrap(), 0, "4-4").unwrap()
}

/// `n` directories of freshly built 4-4 tables, returned once every table's last change is
/// [`RECORD_MARGIN`] old, so that a successful pass records it.
fn aged(n: usize) -> Vec<tempfile::TempDir> {
    let dirs: Vec<_> = (0..n).map(|_| built()).collect();
    let newest = dirs
        .iter()
        .flat_map(|d| {
            partition()
                .specs()
                .into_iter()
                .map(|s| d.path().join(s.file_name()))
        })
        .map(|p| changed(&p))
        .max()
        .unwrap();
    let ready = newest + RECORD_MARGIN + std::time::Duration::from_millis(50);
    if let Ok(wait) = ready.duration_since(SystemTime::now()) {
        std::thread::sleep(wait);
    }
    dirs
}

/// A fresh directory of the 4-4 tables, just built.
fn built() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    TableDir::new(tmp.path())
        .build_missing(&partition(), &|_, _, _| {})
        .unwrap();
    tmp
}

/// The file's change time (ctime).
fn changed(path: &Path) -> SystemTime {
    let m = std::fs::metadata(path).unwrap();
    SystemTime::UNIX_EPOCH + std::time::Duration::new(m.ctime() as u64, m.ctime_nsec() as u32)
}

/// Opens the directory's tables for searching; how each was checked.
fn open(dir: &Path) -> Result<Vec<Verified>, TableError> {
    // SAFETY: nothing changes the files while the tables live (dropped at once).
    unsafe { TableDir::new(dir).open(&partition()) }.map(|o| o.checks)
}

fn written() -> Verified {
    Verified::Checked(RecordOutcome::Written)
}

/// The first table of the set, and its record's path.
fn first(dir: &Path) -> (PatternSpec, PathBuf, PathBuf) {
    let spec = partition().specs().remove(0);
    let path = dir.join(spec.file_name());
    let record = record_path(&path);
    (spec, path, record)
}

fn fifteen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(args)
        .env(
            "FIFTEEN_TABLES",
            "/dev/null/fifteen-tests-must-not-build-here",
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().expect("not killed by a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `fifteen solve` with the 4-4 tables of `dir`: the length, or the error.
fn solve(dir: &Path) -> Result<u64, String> {
    let d = dir.to_str().unwrap();
    let (code, out, err) = fifteen(&[
        "solve",
        "--tables",
        d,
        "--partition",
        "4-4",
        "--format",
        "json",
        HARD3,
    ]);
    if code != 0 {
        return Err(err);
    }
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    Ok(v["length"].as_u64().unwrap())
}

#[test]
fn the_first_open_records_and_the_second_skips_the_pass() {
    let dirs = aged(2);
    let dir = dirs[0].path();
    let (_, _, record) = first(dir);
    assert!(!record.exists());
    assert_eq!(open(dir).unwrap(), vec![written(), written()]);
    assert!(record.is_file());
    assert_eq!(
        open(dir).unwrap(),
        vec![Verified::Recorded, Verified::Recorded]
    );
    // Through the command: the first `solve` writes the records, and the answer stays
    // right when a later one trusts them.
    let other = dirs[1].path();
    assert_eq!(solve(other), Ok(31));
    for spec in partition().specs() {
        assert!(record_path(&other.join(spec.file_name())).is_file());
    }
    assert_eq!(solve(other), Ok(31));
    assert_eq!(
        open(other).unwrap(),
        vec![Verified::Recorded, Verified::Recorded]
    );
}

/// A table changed moments ago (just built, say) is checked but not recorded: a change
/// racing the pass could carry the same coarse time stamp as the file had before it.
#[test]
fn a_table_changed_within_the_margin_is_not_recorded() {
    let tmp = built();
    let too_recent = Verified::Checked(RecordOutcome::TooRecent);
    assert_eq!(open(tmp.path()).unwrap(), vec![too_recent, too_recent]);
    let (_, _, record) = first(tmp.path());
    assert!(!record.exists());
}

/// Puts the file's modification time back to `mtime`, as `touch -d` would.
fn set_mtime(path: &Path, mtime: SystemTime) {
    let f = OpenOptions::new().write(true).open(path).unwrap();
    f.set_modified(mtime).unwrap();
}

/// Every way an ordinary user can change a recorded table, each followed by putting the
/// modification time back: the next open runs the full pass and refuses the table, through
/// the library and through `fifteen solve`.
#[test]
fn a_changed_table_is_caught_even_with_its_modification_time_restored() {
    type Damage = fn(&Path, &Path);
    let flip_in_place: Damage = |path, _| {
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        let at = PAYLOAD_OFFSET + 1000;
        let mut b = [0u8];
        f.seek(SeekFrom::Start(at)).unwrap();
        f.read_exact(&mut b).unwrap();
        f.seek(SeekFrom::Start(at)).unwrap();
        f.write_all(&[b[0] ^ 0x10]).unwrap();
    };
    let copy_over: Damage = |path, scratch| {
        let mut bytes = std::fs::read(path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        let damaged = scratch.join("damaged");
        std::fs::write(&damaged, &bytes).unwrap();
        std::fs::copy(&damaged, path).unwrap(); // same inode, rewritten
    };
    let rename_over: Damage = |path, scratch| {
        let mut bytes = std::fs::read(path).unwrap();
        bytes[PAYLOAD_OFFSET as usize] ^= 0x80;
        let damaged = scratch.join("damaged");
        std::fs::write(&damaged, &bytes).unwrap();
        std::fs::rename(&damaged, path).unwrap(); // another inode
    };
    let zeroed_tail: Damage = |path, _| {
        // Truncated to the header, then grown back to the same size: the payload reads
        // as zeros.
        let f = OpenOptions::new().write(true).open(path).unwrap();
        let len = f.metadata().unwrap().len();
        f.set_len(PAYLOAD_OFFSET).unwrap();
        f.set_len(len).unwrap();
    };
    let cases: [(&str, Damage); 4] = [
        ("flipped in place", flip_in_place),
        ("copied over", copy_over),
        ("renamed over", rename_over),
        ("zeroed tail", zeroed_tail),
    ];
    let dirs = aged(cases.len());
    for ((what, damage), tmp) in cases.iter().zip(&dirs) {
        let dir = tmp.path();
        assert_eq!(open(dir).unwrap(), vec![written(), written()], "{what}");
        assert_eq!(
            open(dir).unwrap(),
            vec![Verified::Recorded, Verified::Recorded]
        );
        let (_, path, _) = first(dir);
        let before = std::fs::metadata(&path).unwrap();
        let good = std::fs::read(&path).unwrap();
        let scratch = tempfile::tempdir_in(dir).unwrap();
        damage(&path, scratch.path());
        assert_ne!(
            std::fs::read(&path).unwrap(),
            good,
            "{what}: nothing changed"
        );
        set_mtime(&path, before.modified().unwrap());
        let after = std::fs::metadata(&path).unwrap();
        // What a user can restore is restored: only the change time (and for the rename,
        // the inode) tells the files apart.
        assert_eq!(after.len(), before.len(), "{what}");
        assert_eq!(
            after.modified().unwrap(),
            before.modified().unwrap(),
            "{what}"
        );
        assert_ne!(
            (after.ctime(), after.ctime_nsec()),
            (before.ctime(), before.ctime_nsec()),
            "{what}"
        );
        let err = open(dir).err().unwrap_or_else(|| panic!("{what}: trusted"));
        let msg = err.to_string();
        assert!(
            matches!(err, TableError::Corrupt { .. }) && msg.contains("checksum mismatch"),
            "{what}: {msg}"
        );
        assert!(msg.contains(&path.display().to_string()), "{what}: {msg}");
        let refused = solve(dir).expect_err(what);
        assert!(refused.contains("checksum mismatch"), "{what}: {refused}");
        assert!(refused.contains("build-pdb --force"), "{what}: {refused}");
    }
}

/// A table rebuilt in place (a new file under the old name) is checked again, not taken
/// on its predecessor's record.
#[test]
fn a_rebuilt_table_is_checked_again() {
    let dirs = aged(1);
    let dir = dirs[0].path();
    assert_eq!(open(dir).unwrap(), vec![written(), written()]);
    let (_, path, record) = first(dir);
    let old = std::fs::read_to_string(&record).unwrap();
    std::fs::remove_file(&path).unwrap();
    TableDir::new(dir)
        .build_missing(&partition(), &|_, _, _| {})
        .unwrap();
    assert_eq!(std::fs::read_to_string(&record).unwrap(), old);
    let checks = open(dir).unwrap();
    assert_eq!(
        checks,
        vec![
            Verified::Checked(RecordOutcome::TooRecent),
            Verified::Recorded
        ]
    );
}

/// A record that does not describe the file as it is now, whatever it holds, is ignored:
/// the full pass runs and writes a sound record in its place.
#[test]
fn a_stale_corrupt_or_foreign_record_means_a_full_pass() {
    let dirs = aged(1);
    let dir = dirs[0].path();
    assert_eq!(open(dir).unwrap(), vec![written(), written()]);
    let (_, path, record) = first(dir);
    let good = std::fs::read_to_string(&record).unwrap();
    let second = record_path(&dir.join(partition().specs()[1].file_name()));
    let foreign = std::fs::read_to_string(&second).unwrap();
    let ino = std::fs::metadata(&path).unwrap().ino();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("truncated", good.as_bytes()[..good.len() / 2].to_vec()),
        ("last byte cut", good.as_bytes()[..good.len() - 1].to_vec()),
        ("the other table's", foreign.clone().into_bytes()),
        (
            "another inode",
            good.replace(&format!("inode {ino}\n"), &format!("inode {}\n", ino + 1))
                .into_bytes(),
        ),
        (
            "another checksum",
            good.lines()
                .map(|l| match l.strip_prefix("checksum ") {
                    Some(sum) => format!(
                        "checksum {:016x}\n",
                        u64::from_str_radix(sum, 16).unwrap() ^ 1
                    ),
                    None => format!("{l}\n"),
                })
                .collect::<String>()
                .into_bytes(),
        ),
        ("trailing garbage", format!("{good}x").into_bytes()),
    ];
    for (what, bytes) in cases {
        assert_ne!(bytes, good.as_bytes(), "{what}: the case must differ");
        std::fs::write(&record, &bytes).unwrap();
        assert_eq!(
            open(dir).unwrap(),
            vec![written(), Verified::Recorded],
            "{what}"
        );
        assert_eq!(std::fs::read_to_string(&record).unwrap(), good, "{what}");
    }
    // A file that is no record of ours (it lacks the first line): someone else's, left as
    // it is; the table is checked in full every time.
    let noise: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    std::fs::write(&record, &noise).unwrap();
    for _ in 0..2 {
        assert_eq!(
            open(dir).unwrap(),
            vec![
                Verified::Checked(RecordOutcome::Foreign),
                Verified::Recorded
            ]
        );
        assert_eq!(std::fs::read(&record).unwrap(), noise);
    }
    // A directory where the record should be: checked every time, never an error.
    std::fs::remove_file(&record).unwrap();
    std::fs::create_dir(&record).unwrap();
    for _ in 0..2 {
        let checks = open(dir).unwrap();
        assert_eq!(
            checks[0],
            Verified::Checked(RecordOutcome::Foreign),
            "{checks:?}"
        );
    }
    assert_eq!(solve(dir), Ok(31));
}

/// A record beside the table that metadata cannot catch out (here forged for a damaged
/// file, as bit rot on the disk would leave one) is trusted by `solve`, which is why
/// `tables verify` never trusts it: it reads every byte and reports the damage.
#[test]
fn tables_verify_always_runs_the_full_pass() {
    let dirs = aged(1);
    let dir = dirs[0].path();
    let d = dir.to_str().unwrap();
    // On sound tables it runs the pass and writes the records each time.
    for _ in 0..2 {
        let (code, out, err) = fifteen(&["tables", "verify", "--tables", d, "--format", "json"]);
        assert_eq!(code, 0, "{out}{err}");
        let rows: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 2);
        for r in &rows {
            assert_eq!(r["checked"], "checksum", "{r}");
            assert_eq!(r["record"], "written", "{r}");
        }
    }
    assert_eq!(
        open(dir).unwrap(),
        vec![Verified::Recorded, Verified::Recorded]
    );
    // Damage the payload, wait out the margin, and forge a record for the damaged file.
    let (spec, path, record) = first(dir);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[PAYLOAD_OFFSET as usize + 7] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    let text = std::fs::read_to_string(&record).unwrap();
    let m = std::fs::metadata(&path).unwrap();
    let forged: String = text
        .lines()
        .map(|l| {
            let key = l.split(' ').next().unwrap();
            match key {
                "modified" => format!("modified {} {}\n", m.mtime(), m.mtime_nsec()),
                "changed" => format!("changed {} {}\n", m.ctime(), m.ctime_nsec()),
                "inode" => format!("inode {}\n", m.ino()),
                _ => format!("{l}\n"),
            }
        })
        .collect();
    std::fs::write(&record, forged).unwrap();
    assert_eq!(
        open(dir).unwrap(),
        vec![Verified::Recorded, Verified::Recorded],
        "the forged record is taken: metadata alone cannot see this damage"
    );
    // SAFETY: nothing changes the file while the table lives.
    let table = unsafe { fifteen::pdb::Table::map(&path, &spec) }.unwrap();
    assert!(table.verify_and_record(&spec).is_err());
    drop(table);
    let (code, out, _) = fifteen(&["tables", "verify", "--tables", d]);
    assert_eq!(code, 1, "{out}");
    let bad: Vec<&str> = out.lines().filter(|l| l.contains("BAD")).collect();
    assert_eq!(bad.len(), 1, "{out}");
    assert!(bad[0].contains(&path.display().to_string()), "{out}");
    assert!(bad[0].contains("checksum mismatch"), "{out}");
}

/// A tmpfs mounted on a temporary directory (needs root), unmounted on drop.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

fn mount(args: &[&str], dir: &Path) -> Result<(), String> {
    let out = Command::new("mount")
        .args(args)
        .arg(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// A read-only directory holding aged 4-4 tables: a read-only tmpfs where we may mount
/// one, else a directory without write permission (which binds only non-root users).
/// `None` (after saying why) where neither makes a directory we cannot write.
fn read_only_tables() -> Option<(Tmpfs, PathBuf)> {
    let src = built();
    let fs = Tmpfs {
        dir: tempfile::tempdir().unwrap(),
    };
    let dir = fs.dir.path().to_path_buf();
    let mounted = mount(&["-t", "tmpfs", "-o", "size=4m", "tmpfs"], &dir);
    for spec in partition().specs() {
        std::fs::copy(
            src.path().join(spec.file_name()),
            dir.join(spec.file_name()),
        )
        .unwrap();
    }
    match mounted {
        Ok(()) => {
            if let Err(e) = mount(&["-o", "remount,ro"], &dir) {
                eprintln!("skipped: cannot remount the tmpfs read-only: {e}");
                return None;
            }
        }
        Err(e) => {
            eprintln!(
                "note: cannot mount a tmpfs ({e}); using a directory without write permission"
            );
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
    }
    if File::create(dir.join("probe")).is_ok() {
        eprintln!(
            "skipped: {} is still writable (root ignores permissions)",
            dir.display()
        );
        return None;
    }
    // The copies are new files: wait until they are old enough to record, as the tables
    // of a read-only directory would be.
    let newest = partition()
        .specs()
        .iter()
        .map(|s| changed(&dir.join(s.file_name())))
        .max()
        .unwrap();
    if let Ok(wait) = (newest + RECORD_MARGIN).duration_since(SystemTime::now()) {
        std::thread::sleep(wait + std::time::Duration::from_millis(50));
    }
    Some((fs, dir))
}

/// A read-only directory works: every open runs the full pass, no record is written and
/// nothing fails because of it.
#[test]
fn a_read_only_directory_verifies_every_time() {
    let Some((_fs, dir)) = read_only_tables() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no read-only directory could be made"
        );
        return;
    };
    for _ in 0..2 {
        let checks = open(&dir).unwrap();
        for c in &checks {
            assert!(
                matches!(c, Verified::Checked(RecordOutcome::NotWritten(_))),
                "{checks:?}"
            );
        }
    }
    assert_eq!(solve(&dir), Ok(31));
    let d = dir.to_str().unwrap();
    let (code, out, err) = fifteen(&["tables", "verify", "--tables", d]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.matches("checksum ok, record not written").count(),
        2,
        "{out}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 2, "only the two tables: {left:?}");
}
