//! Faults, the way storage engines are tested: table files damaged in every way we could
//! think of (truncated at several offsets, a bit flipped in each header field and in the
//! payload, empty, a directory, a sound file for another version, board, goal or pattern),
//! builds killed at random moments, and a disk that fills up during a build.
//!
//! Each damaged table must be refused, through the library and through the `fifteen`
//! command, with one clear line naming the file and the command that rebuilds it: never a
//! panic, a signal, or a wrong length.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use std::time::{Duration, Instant};

use fifteen::pdb::{self, Partition, PatternSpec, Table, TableDir, PAYLOAD_OFFSET};
use fifteen::random::Rng;
use fifteen::{Shape, TableError};

mod common;
use common::build_pdb;

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// A 3x3 board 31 moves from the standard goal (one of the two hardest 8-puzzle positions).
const HARD3: &str = "8 6 7 2 5 4 3 0 1";

/// The 3x3 table set (one exact 8-tile table, blank in cell 0), built into a fresh
/// directory and checked sound before anything damages it.
fn fresh() -> (tempfile::TempDir, PatternSpec, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let partition = Partition::default_for(shape3(), 0);
    TableDir::new(tmp.path())
        .build_missing(&partition, &|_, _, _| {})
        .unwrap();
    let spec = partition.specs().remove(0);
    let path = TableDir::new(tmp.path()).path(&spec);
    Table::read(&path, &spec).unwrap();
    (tmp, spec, path)
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn fifteen(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(args)
        .env(
            "FIFTEEN_TABLES",
            "/dev/null/fifteen-tests-must-not-build-here",
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Out {
        code: out
            .status
            .code()
            .unwrap_or_else(|| panic!("fifteen {args:?} killed by a signal: {:?}", out.status)),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A message about a bad table: names it, gives the rebuild command, one line, no panic.
fn assert_clear(what: &str, msg: &str, path: &Path, fragment: &str) {
    let p = path.display().to_string();
    assert!(msg.contains(&p), "{what}: path {p} missing: {msg}");
    assert!(
        msg.contains("build-pdb --force"),
        "{what}: no rebuild command: {msg}"
    );
    assert!(
        msg.contains(fragment),
        "{what}: expected '{fragment}': {msg}"
    );
    assert!(!msg.contains("panicked"), "{what}: {msg}");
}

/// Every way of loading a table refuses the file: the library's three entry points and
/// `fifteen solve`, `fifteen tables list` and `fifteen tables verify`. `listed` says whether
/// `tables list` (which reads the header only) should see the damage.
fn assert_refused_everywhere(path: &Path, spec: &PatternSpec, fragment: &str, listed: bool) {
    let one_line = |what: &str, e: TableError| {
        let msg = e.to_string();
        assert_eq!(msg.lines().count(), 1, "{what}: {msg}");
        assert_clear(what, &msg, path, fragment);
    };
    match Table::read(path, spec) {
        Ok(_) => panic!("Table::read accepted {}", path.display()),
        Err(e) => one_line("Table::read", e),
    }
    // SAFETY: nothing modifies the file while the table lives.
    match unsafe { Table::map(path, spec) } {
        Ok(t) => match t.verify(spec) {
            Ok(()) => panic!("Table::map + verify accepted {}", path.display()),
            Err(e) => one_line("Table::map + verify", e),
        },
        Err(e) => one_line("Table::map", e),
    }
    if let Ok(bytes) = std::fs::read(path) {
        match Table::from_bytes(path, bytes, spec) {
            Ok(_) => panic!("Table::from_bytes accepted {}", path.display()),
            Err(e) => one_line("Table::from_bytes", e),
        }
    }
    let dir = path.parent().unwrap();
    let dir_s = dir.to_str().unwrap();
    let o = fifteen(&["solve", "--tables", dir_s, HARD3]);
    assert_eq!(o.code, 2, "solve: {}{}", o.stdout, o.stderr);
    assert!(
        !o.stdout.contains("length"),
        "solve printed a result: {}",
        o.stdout
    );
    assert_eq!(o.stderr.lines().count(), 1, "solve: {}", o.stderr);
    assert_clear("fifteen solve", &o.stderr, path, fragment);
    let o = fifteen(&["tables", "verify", "--tables", dir_s]);
    assert_eq!(o.code, 1, "tables verify: {}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("BAD"), "tables verify: {}", o.stdout);
    assert_clear("fifteen tables verify", &o.stdout, path, "");
    let o = fifteen(&["tables", "list", "--tables", dir_s]);
    if listed {
        assert_eq!(o.code, 1, "tables list: {}{}", o.stdout, o.stderr);
        assert_clear("fifteen tables list", &o.stdout, path, "");
    } else {
        assert_eq!(o.code, 0, "tables list: {}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("header ok"), "{}", o.stdout);
    }
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
}

/// The undamaged set solves the hard board in 31 moves, through the command: the control
/// for every refusal below.
#[test]
fn undamaged_tables_solve() {
    let (tmp, _, _) = fresh();
    let dir = tmp.path().to_str().unwrap();
    let o = fifteen(&["solve", "--tables", dir, "--format", "json", HARD3]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(v["length"], 31);
    let o = fifteen(&["tables", "verify", "--tables", dir]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(o.stdout.contains("checksum ok"));
}

#[test]
fn truncated_at_several_offsets() {
    let (tmp, spec, path) = fresh();
    let good = std::fs::read(&path).unwrap();
    let len = good.len() as u64;
    let cases = [
        (0, "only 0 bytes"),
        (7, "shorter than the header"),
        (50, "shorter than the header"),
        (93, "shorter than the header"),
        (PAYLOAD_OFFSET - 1, "shorter than the header"),
        (PAYLOAD_OFFSET, "truncated"),
        (PAYLOAD_OFFSET + 1, "truncated"),
        (PAYLOAD_OFFSET + (len - PAYLOAD_OFFSET) / 2, "truncated"),
        (len - 1, "truncated"),
    ];
    for (at, fragment) in cases {
        std::fs::write(&path, &good).unwrap();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(at).unwrap();
        drop(f);
        assert_refused_everywhere(&path, &spec, fragment, true);
    }
    // The files were refused, not replaced: the directory holds only the damaged file.
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

/// Offsets of the header fields (bincode, fixed-width little endian; docs/formats.md,
/// "Table files").
const FIELDS: &[(&str, u64, &str)] = &[
    ("magic", 0, "magic"),
    ("endian_check", 8, "byte order"),
    ("version", 12, "format version"),
    ("rows", 16, "built for"),
    ("cols", 17, "built for"),
    ("blank", 18, "blank in cell"),
    ("encoding", 19, "encoding"),
    ("tile_count", 20, "pattern"),
    ("tiles[0]", 21, "pattern"),
    ("tiles[7]", 28, "pattern"),
    ("unused tile slot", 29, "padding"),
    ("entries", 53, "entries"),
    ("payload_offset", 61, "payload offset"),
    ("payload_len", 69, "entries"),
    ("checksum", 77, "checksum"),
    ("padding after the fields", 93, "padding"),
    ("last padding byte", PAYLOAD_OFFSET - 1, "padding"),
];

fn flip(path: &Path, offset: u64, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset as usize] ^= mask;
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn flipped_bit_in_each_header_field() {
    let (_tmp, spec, path) = fresh();
    let good = std::fs::read(&path).unwrap();
    for &(field, offset, fragment) in FIELDS {
        for mask in [0x01u8, 0x80] {
            std::fs::write(&path, &good).unwrap();
            flip(&path, offset, mask);
            // `tables list` reads the header only: it misses a damaged checksum field.
            let listed = field != "checksum";
            eprintln!("{field} at {offset}, mask {mask:#04x}");
            assert_refused_everywhere(&path, &spec, fragment, listed);
        }
    }
}

/// Every single-bit flip anywhere in the header fields is refused: the checksum covers
/// the header's fields too (format version 2), so even the informational `clamped` count
/// cannot change unnoticed.
#[test]
fn every_single_bit_flip_in_the_header_fields() {
    let (_tmp, spec, path) = fresh();
    let good = std::fs::read(&path).unwrap();
    let mut missed = Vec::new();
    for offset in 0..93u64 {
        for bit in 0..8 {
            let mut bytes = good.clone();
            bytes[offset as usize] ^= 1 << bit;
            let accepted = Table::from_bytes(&path, bytes.clone(), &spec).is_ok();
            std::fs::write(&path, &bytes).unwrap();
            let read = Table::read(&path, &spec);
            assert_eq!(read.is_ok(), accepted, "offset {offset} bit {bit}");
            if let Err(e) = read {
                let msg = e.to_string();
                assert!(msg.contains(&path.display().to_string()) && msg.contains("build-pdb"));
            }
            if accepted {
                missed.push((offset, bit));
            }
        }
    }
    assert_eq!(missed, Vec::<(u64, u32)>::new());
}

#[test]
fn flipped_bit_in_the_payload() {
    let (_tmp, spec, path) = fresh();
    let good = std::fs::read(&path).unwrap();
    let len = good.len() as u64;
    for (at, mask) in [(PAYLOAD_OFFSET, 0x01), (len / 2, 0x10), (len - 1, 0x80)] {
        std::fs::write(&path, &good).unwrap();
        flip(&path, at, mask);
        // Opening by mapping reads only the header, so it opens; verify catches it.
        // SAFETY: nothing modifies the file while the table lives.
        let t = unsafe { Table::map(&path, &spec) }.unwrap();
        assert!(t.verify(&spec).is_err());
        drop(t);
        // `tables list` checks headers only (cheap), so it says "header ok" here; `solve`
        // and `tables verify` compute the checksum.
        assert_refused_everywhere(&path, &spec, "checksum", false);
    }
}

#[test]
fn zero_length_file() {
    let (_tmp, spec, path) = fresh();
    std::fs::write(&path, b"").unwrap();
    assert_refused_everywhere(&path, &spec, "only 0 bytes, shorter than the header", true);
}

/// A directory in a table's place is no damaged table: every way in says what it is and to
/// move it out, with no rebuild command, and leaves it as it is.
#[test]
fn directory_where_the_file_should_be() {
    let (_tmp, spec, path) = fresh();
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("inside"), b"x").unwrap();
    let said = "not a table file but a directory: move it out of the tables directory";
    let p = path.display().to_string();
    let clear = |what: &str, msg: &str| {
        assert!(msg.contains(&p) && msg.contains(said), "{what}: {msg}");
        assert!(!msg.contains("build-pdb"), "{what}: {msg}");
    };
    clear(
        "Table::read",
        &Table::read(&path, &spec).err().unwrap().to_string(),
    );
    // SAFETY: nothing at the path is a table to map.
    let mapped = unsafe { Table::map(&path, &spec) }.err().unwrap();
    clear("Table::map", &mapped.to_string());
    let dir_s = path.parent().unwrap().to_str().unwrap();
    let o = fifteen(&["solve", "--tables", dir_s, HARD3]);
    assert_eq!(o.code, 2, "solve: {}{}", o.stdout, o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "solve: {}", o.stderr);
    clear("fifteen solve", &o.stderr);
    for action in ["verify", "list"] {
        let o = fifteen(&["tables", action, "--tables", dir_s]);
        assert_eq!(o.code, 1, "tables {action}: {}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("BAD"), "tables {action}: {}", o.stdout);
        clear(action, &o.stdout);
    }
    assert_eq!(std::fs::read(path.join("inside")).unwrap(), b"x");
}

#[test]
fn file_of_another_format_version() {
    let (_tmp, spec, path) = fresh();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[12..16].copy_from_slice(&(pdb::TABLE_FORMAT_VERSION + 1).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let v = pdb::TABLE_FORMAT_VERSION + 1;
    assert_refused_everywhere(&path, &spec, &format!("format version {v}"), true);
}

/// Builds the tables of `partition` in a scratch directory and moves the file of its first
/// pattern to `target`: a sound table under another table's name.
fn plant(partition: &Partition, target: &Path) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = TableDir::new(scratch.path());
    dir.build_missing(partition, &|_, _, _| {}).unwrap();
    std::fs::copy(dir.path(&partition.specs()[0]), target).unwrap();
}

#[test]
fn file_for_another_board_size() {
    let (_tmp, spec, path) = fresh();
    plant(&Partition::default_for(Shape::new(2, 4).unwrap(), 0), &path);
    assert_refused_everywhere(&path, &spec, "built for 2x4 boards, 3x3 needed", true);
}

#[test]
fn file_for_another_goal() {
    let (_tmp, spec, path) = fresh();
    // The goal with the blank in an edge cell (cell 1) is no mirror image of a corner.
    plant(&Partition::default_for(shape3(), 1), &path);
    assert_refused_everywhere(&path, &spec, "blank in cell 1, cell 0 needed", true);
}

#[test]
fn file_for_another_partition() {
    let (_tmp, spec, path) = fresh();
    plant(&Partition::parse(shape3(), 0, "4-4").unwrap(), &path);
    assert_refused_everywhere(&path, &spec, "pattern [1, 2, 3, 4]", true);
}

/// `tables list` knows no spec: it compares the header with the file's name, so a sound
/// table under another table's name is caught there too, with the exact rebuild command.
#[test]
fn tables_list_compares_header_and_name() {
    let (_tmp, _, path) = fresh();
    plant(&Partition::parse(shape3(), 0, "4-4").unwrap(), &path);
    let e = pdb::inspect(&path).unwrap_err().to_string();
    assert!(e.contains("the header is for 3x3-b0-1.2.3.4.pdb"), "{e}");
    assert!(
        e.contains("the file name for 3x3-b0-1.2.3.4.5.6.7.8.pdb"),
        "{e}"
    );
    assert!(e.contains("--size 3x3 --blank 0 --partition 8"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Interrupted and failing builds: these run the real `build-pdb` command.

/// The partition the interrupted builds use: three 4x4 tables of 262 KB, about a second in
/// all on one thread, so that kills land before, between and inside the tables' builds.
const PARTITION: &str = "5-5-5";

fn build_cmd(out: &Path) -> Command {
    let mut cmd = Command::new(build_pdb());
    cmd.args([
        "--size",
        "4",
        "--partition",
        PARTITION,
        "--threads",
        "1",
        "--out",
    ])
    .arg(out)
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    cmd
}

/// Every file in `dir` that loads as a table is byte-for-byte the table an uninterrupted
/// build writes; temporary files are never picked up by a table directory; returns how
/// many finished tables and temporary files there were.
fn check_nothing_partial_loads(
    dir: &Path,
    reference: &Path,
    specs: &[PatternSpec],
) -> (usize, usize) {
    let (mut tables, mut temps) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.contains(".pdb.verified") {
            // A verification record (`tables verify` below writes them): not a table.
            continue;
        }
        let spec = specs
            .iter()
            .find(|s| name.contains(&s.file_name()))
            .unwrap_or_else(|| panic!("unexpected file {name}"));
        let want = std::fs::read(reference.join(spec.file_name())).unwrap();
        if name.ends_with(".tmp") {
            temps += 1;
            assert!(name.starts_with('.'), "{name}");
        } else {
            assert_eq!(name, spec.file_name());
            tables += 1;
        }
        // Whatever the file holds, it loads only if it is the whole, right table.
        if let Ok(t) = Table::read(&path, spec) {
            drop(t);
            assert!(
                std::fs::read(&path).unwrap() == want,
                "{name} loads but differs"
            );
        }
        if !name.ends_with(".tmp") {
            // A finished name is only ever a finished file (written, synced, renamed).
            assert!(std::fs::read(&path).unwrap() == want, "{name} is partial");
        }
    }
    (tables, temps)
}

#[test]
fn killed_builds_never_leave_a_table_that_loads_partially() {
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::parse(shape, 0, PARTITION).unwrap();
    let specs = partition.specs();
    // The reference: one uninterrupted build, timed to aim the kills.
    let reference = tempfile::tempdir().unwrap();
    build_pdb();
    let t0 = Instant::now();
    let out = build_cmd(reference.path()).output().unwrap();
    let full = t0.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    TableDir::new(reference.path()).read(&partition).unwrap();

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill moments from seed {seed}; a full build took {full:?}");
    let mut rng = Rng::new(seed);
    let work = tempfile::tempdir().unwrap();
    let mut kills = 0;
    let mut seen_partial_state = false;
    // Kill until eight builds died unfinished (a round that finishes first does not count).
    let mut round = 0;
    while kills < 8 && round < 40 {
        round += 1;
        let at = Duration::from_secs_f64(full.as_secs_f64() * rng.below(1000) as f64 / 1000.0);
        let mut child = build_cmd(work.path()).spawn().unwrap();
        std::thread::sleep(at);
        let finished = child.try_wait().unwrap().is_some();
        child.kill().unwrap_or(()); // SIGKILL; an error only if it already exited.
        let status = child.wait().unwrap();
        let (tables, temps) = check_nothing_partial_loads(work.path(), reference.path(), &specs);
        eprintln!(
            "round {round}: killed after {at:?} ({status:?}, finished: {finished}): \
             {tables} finished tables, {temps} temporary files"
        );
        if !finished {
            kills += 1;
        }
        if tables < specs.len() {
            seen_partial_state = true;
            // Loading the set refuses it (a table is missing), never a half-written file.
            let e = TableDir::new(work.path()).read(&partition).err().unwrap();
            assert!(e.to_string().contains("No such file"), "{e}");
            let o = fifteen(&[
                "tables",
                "verify",
                "--tables",
                work.path().to_str().unwrap(),
            ]);
            assert!(!o.stdout.contains("BAD"), "{}", o.stdout);
            assert_eq!(o.stdout.lines().count(), tables.max(1), "{}", o.stdout);
        }
        if tables == specs.len() {
            // Everything was built before the kill: start over for the next round.
            for s in &specs {
                std::fs::remove_file(work.path().join(s.file_name())).unwrap();
            }
        }
    }
    assert!(
        kills >= 5,
        "only {kills} builds of {round} were killed before finishing"
    );
    assert!(seen_partial_state);
    // The next run finishes the job, whatever the kills left.
    let out = build_cmd(work.path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let set = TableDir::new(work.path()).read(&partition).unwrap();
    for (t, s) in set.tables.iter().zip(&specs) {
        t.verify(s).unwrap();
        let want = std::fs::read(reference.path().join(s.file_name())).unwrap();
        assert!(std::fs::read(&t.path).unwrap() == want);
    }
    let o = fifteen(&[
        "tables",
        "verify",
        "--tables",
        work.path().to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert_eq!(
        o.stdout.matches("checksum ok").count(),
        specs.len(),
        "{}",
        o.stdout
    );
}

/// Runs the rebuild command an error message gives (between backticks), with this
/// checkout's `build-pdb`.
fn run_rebuild_command(msg: &str) -> std::process::Output {
    let cmd = msg
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {msg}"));
    let mut words = cmd.split_whitespace();
    assert_eq!(words.next(), Some("build-pdb"), "{cmd}");
    Command::new(build_pdb()).args(words).output().unwrap()
}

/// The command a damage report gives really repairs the table; and where it cannot (a
/// directory in the table's place), it says why instead of claiming the tables are there.
#[test]
fn the_rebuild_command_in_the_message_repairs_the_table() {
    let (tmp, _, path) = fresh();
    let dir = tmp.path().to_str().unwrap();
    flip(&path, PAYLOAD_OFFSET + 100, 0x04);
    let o = fifteen(&["solve", "--tables", dir, HARD3]);
    assert_eq!(o.code, 2);
    let out = run_rebuild_command(&o.stderr);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o = fifteen(&["solve", "--tables", dir, "--format", "json", HARD3]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(v["length"], 31);

    // A directory in its place: no command offered (it is to be moved out), and the one a
    // damaged table's message gave says why it cannot rebuild there.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let o = fifteen(&["solve", "--tables", dir, HARD3]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!o.stderr.contains("build-pdb"), "{}", o.stderr);
    assert!(o.stderr.contains("move it out"), "{}", o.stderr);
    let rebuild = format!("`build-pdb --force --size 3x3 --blank 0 --partition 8 --out {dir}`");
    let out = run_rebuild_command(&rebuild);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot replace {}", path.display())),
        "{stderr}"
    );
    assert!(stderr.contains("Is a directory"), "{stderr}");
    assert!(path.is_dir(), "a directory is never removed");
}

/// A temporary file left by a killed build, whether cut short or complete but never
/// renamed, is not a table: loading ignores it, `tables list` does not show it, and the
/// next `fifteen solve` builds the table anew.
#[test]
fn leftover_temporary_files_are_never_picked_up() {
    let (tmp, spec, path) = fresh();
    let good = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let whole = tmp
        .path()
        .join(format!(".{}.4000001.tmp", spec.file_name()));
    let half = tmp
        .path()
        .join(format!(".{}.4000002.tmp", spec.file_name()));
    std::fs::write(&whole, &good).unwrap();
    std::fs::write(&half, &good[..good.len() / 2]).unwrap();
    let partition = Partition::default_for(shape3(), 0);
    let e = TableDir::new(tmp.path()).read(&partition).err().unwrap();
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    let e = Table::read(&half, &spec).err().unwrap().to_string();
    assert!(
        e.contains("truncated") && e.contains(&half.display().to_string()),
        "{e}"
    );
    let dir = tmp.path().to_str().unwrap();
    let o = fifteen(&["tables", "list", "--tables", dir]);
    assert_eq!(o.stdout.trim(), format!("no tables in {dir}"));
    let o = fifteen(&["solve", "--tables", dir, "--format", "json", HARD3]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("building"), "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(o.stdout.trim()).unwrap();
    assert_eq!(v["length"], 31);
    assert!(std::fs::read(&path).unwrap() == good);
}

/// A small tmpfs mounted on a temporary directory (needs root), unmounted on drop.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts one of `size` bytes (`512k`...), or says why not and returns `None`.
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs { dir }),
            Ok(o) => skipped(&format!(
                "cannot mount a tmpfs (needs root): {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => skipped(&format!("cannot run mount: {e}")),
        }
    }
}

/// A test that could not run: said, and a failure under CI (`CI=true`), where it must run.
fn skipped(why: &str) -> Option<Tmpfs> {
    assert!(std::env::var_os("CI").is_none(), "under CI: {why}");
    eprintln!("SKIPPED: {why}");
    None
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[test]
fn full_disk_during_a_build_is_a_clear_error_with_nothing_half_written() {
    let Some(fs) = Tmpfs::mount("512k") else {
        return;
    };
    let out_dir = fs.dir.path().join("tables");
    // 5-5-5: three files of 266,176 bytes; the first fits in 512 KB, the second does not.
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::parse(shape, 0, "5-5-5").unwrap();
    let specs = partition.specs();
    let out = Command::new(build_pdb())
        .args([
            "--size",
            "4",
            "--partition",
            "5-5-5",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let failed = out_dir.join(specs[1].file_name());
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(stderr.contains(&failed.display().to_string()), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The table that fitted is whole; nothing else is there, not even a temporary file.
    let names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec![specs[0].file_name()]);
    let t = Table::read(&out_dir.join(&names[0]), &specs[0]).unwrap();
    t.verify(&specs[0]).unwrap();
    // And `fifteen solve`, building the missing tables there on first use, fails the same
    // way.
    let o = fifteen(&[
        "solve",
        "--tables",
        out_dir.to_str().unwrap(),
        "--partition",
        "5-5-5",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
    ]);
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    let left: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, vec![specs[0].file_name()], "left behind: {left:?}");
}

/// A tables directory on a full disk: each run that tried to build there left its empty
/// write probe (`.write-test.PID.tmp`) behind, created and then not filled.
#[test]
fn a_full_disk_leaves_no_write_probe_behind() {
    let Some(fs) = Tmpfs::mount("64k") else {
        return;
    };
    let tables = fs.dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    // Fill the file system: the probe's name can still be made, its bytes not.
    let filler = vec![0u8; 4096];
    let mut f = std::fs::File::create(fs.dir.path().join("filler")).unwrap();
    while std::io::Write::write_all(&mut f, &filler).is_ok() {}
    drop(f);
    for _ in 0..2 {
        let o = fifteen(&[
            "solve",
            "--tables",
            tables.to_str().unwrap(),
            "--size",
            "2x3",
            "1 2 3 4 0 5",
        ]);
        assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
        assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
        let out = Command::new(build_pdb())
            .args(["--size", "2x3", "--out"])
            .arg(&tables)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
    }
    let left: Vec<String> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A `.pdb` file whose name is no table's and whose bytes are no table (a user's file left
/// in the tables directory) is reported by `tables list` and `tables verify` as something
/// to move away, not with a `build-pdb` command: none writes that name. The sound tables
/// beside it are still listed as sound.
#[test]
fn a_foreign_file_in_the_tables_directory_is_to_be_moved_not_rebuilt() {
    let (tmp, _, _) = fresh();
    let dir = tmp.path().to_str().unwrap();
    // `tables list`'s and `tables verify`'s line for `name` (both exit 1), and their output.
    let listed = |name: &str| {
        ["list", "verify"].map(|verb| {
            let o = fifteen(&["tables", verb, "--tables", dir]);
            assert_eq!(o.code, 1, "tables {verb}: {}{}", o.stdout, o.stderr);
            let line = (o.stdout.lines().find(|l| l.contains(name)))
                .unwrap_or_else(|| panic!("tables {verb} did not list {name}: {}", o.stdout))
                .to_string();
            (verb, line, o.stdout)
        })
    };
    let foreign = tmp.path().join("notes.pdb");
    std::fs::write(&foreign, b"my own notes, not a table\n").unwrap();
    for (verb, line, stdout) in listed("notes.pdb") {
        assert!(line.contains("BAD"), "tables {verb}: {line}");
        assert!(
            line.contains("move it out of the tables directory"),
            "tables {verb}: {line}"
        );
        assert!(!line.contains("build-pdb"), "tables {verb}: {line}");
        assert_eq!(
            stdout.lines().filter(|l| l.contains(" ok")).count(),
            1,
            "tables {verb}: the sound table: {stdout}"
        );
    }
    assert_eq!(
        std::fs::read(&foreign).unwrap(),
        b"my own notes, not a table\n",
        "the user's file was changed"
    );
    // A sound table copied under a name no search reads serves nothing there: said so,
    // with the name it would be read under.
    std::fs::remove_file(&foreign).unwrap();
    let table = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pdb"))
        .unwrap();
    std::fs::copy(&table, tmp.path().join("renamed.pdb")).unwrap();
    let own = table.file_name().unwrap().to_str().unwrap();
    for (verb, line, _) in listed("renamed.pdb") {
        assert!(
            line.contains("BAD") && line.contains(&format!("its own is {own}")),
            "tables {verb}: {line}"
        );
    }
}

/// A damaged table of a partition of one's own: the command that rebuilds it names that
/// partition, ready to paste (it said `--partition <the partition it was built with>`, where
/// `solve` knew it), and running it makes the solve work again.
#[test]
fn the_rebuild_command_of_a_partition_of_ones_own_can_be_pasted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let built = Command::new(build_pdb())
        .args(["--size", "3", "--partition", "4-4", "--out", dir, "-q"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    let first = tmp.path().join("3x3-b0-1.2.3.4.pdb");
    let second = tmp.path().join("3x3-b0-5.6.7.8.pdb");
    for damage in ["swap", "cut"] {
        match damage {
            "swap" => std::fs::copy(&first, &second).map(|_| ()).unwrap(),
            // Cut short inside its header (a file that does not start as a table at all
            // is someone's, and gets no rebuild command: tests/tables.rs).
            _ => {
                let bytes = std::fs::read(&first).unwrap();
                std::fs::write(&second, &bytes[..100]).unwrap()
            }
        }
        let o = fifteen(&["solve", "--tables", dir, "--partition", "4-4", HARD3]);
        assert_eq!(o.code, 2, "{damage}: {}", o.stderr);
        let command = o
            .stderr
            .split('`')
            .nth(1)
            .unwrap_or_else(|| panic!("{damage}: no command in {}", o.stderr));
        let expected =
            format!("build-pdb --force --size 3x3 --blank 0 --partition 4-4 --out {dir}");
        assert_eq!(command, expected, "{damage}");
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        let rebuilt = Command::new(build_pdb()).args(&args).output().unwrap();
        assert!(rebuilt.status.success(), "{rebuilt:?}");
        let o = fifteen(&["solve", "--tables", dir, "--partition", "4-4", HARD3]);
        assert_eq!(o.code, 0, "{damage}: {}", o.stderr);
    }
}
