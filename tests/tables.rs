//! Table files: every kind of damage or mismatch is refused with an error that names the
//! file and says how to rebuild it; and a committed fixture pins the on-disk format.

use fifteen::search::Search;
use std::collections::{HashMap, VecDeque};
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use fifteen::check::check_solution;
use fifteen::pdb::{self, Partition, PatternSpec, PdbHeuristic, Table, TableDir, PAYLOAD_OFFSET};

use fifteen::{Board, Dir, Goal, Shape, Solver, TableError};

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// The exact 3x3 table (blank in cell 0), built into a fresh directory.
fn fresh() -> (tempfile::TempDir, Partition, PatternSpec, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let partition = Partition::default_for(shape3(), 0);
    let dir = TableDir::new(tmp.path());
    dir.build_missing(&partition, &|_, _, _| {}).unwrap();
    let spec = partition.specs().remove(0);
    let path = dir.path(&spec);
    assert!(path.is_file());
    // The table is sound before we damage it.
    Table::read(&path, &spec).unwrap().verify(&spec).unwrap();
    (tmp, partition, spec, path)
}

/// Every way of opening the file must refuse it with a message naming it and `build-pdb`.
fn assert_refused(path: &Path, spec: &PatternSpec, partition: &Partition, fragment: &str) {
    let check = |what: &str, e: TableError| {
        let msg = e.to_string();
        assert!(
            msg.contains(&path.display().to_string()),
            "{what}: path missing: {msg}"
        );
        assert!(
            msg.contains("build-pdb"),
            "{what}: no rebuild command: {msg}"
        );
        assert!(
            msg.contains(fragment),
            "{what}: expected '{fragment}': {msg}"
        );
        assert_eq!(msg.lines().count(), 1, "{what}: one line: {msg}");
    };
    match Table::read(path, spec) {
        Ok(_) => panic!("Table::read accepted {}", path.display()),
        Err(e) => check("Table::read", e),
    }
    // SAFETY: nobody modifies the file while the table lives (single-threaded test).
    match unsafe { Table::map(path, spec) } {
        Ok(t) => match t.verify(spec) {
            Ok(()) => panic!("Table::map + verify accepted {}", path.display()),
            Err(e) => check("Table::verify", e),
        },
        Err(e) => check("Table::map", e),
    }
    let dir = TableDir::new(path.parent().unwrap());
    if dir.path(&partition.specs()[0]) == path {
        match dir.read(partition) {
            Ok(_) => panic!("TableDir::read accepted {}", path.display()),
            Err(e) => check("TableDir::read", e),
        }
    }
}

#[test]
fn header_layout_is_bincode_fixed_int() {
    let (_tmp, _, _, path) = fresh();
    let bytes = std::fs::read(&path).unwrap();
    let entries = 362_880u64; // 9!/1!
    assert_eq!(bytes.len() as u64, PAYLOAD_OFFSET + entries / 2);
    assert_eq!(&bytes[0..8], b"15PDB\0\r\n");
    assert_eq!(&bytes[8..12], &0x0102_0304u32.to_le_bytes());
    assert_eq!(&bytes[12..16], &pdb::TABLE_FORMAT_VERSION.to_le_bytes());
    assert_eq!(&bytes[16..21], &[3, 3, 0, pdb::ENCODING_NIBBLE_EXCESS, 8]);
    assert_eq!(&bytes[21..29], &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(bytes[29..53].iter().all(|&b| b == 0));
    assert_eq!(&bytes[53..61], &entries.to_le_bytes());
    assert_eq!(&bytes[61..69], &PAYLOAD_OFFSET.to_le_bytes());
    assert_eq!(&bytes[69..77], &(entries / 2).to_le_bytes());
    let payload = &bytes[PAYLOAD_OFFSET as usize..];
    // The checksum: the payload's xxh3-64 seeded with that of the other header fields.
    let mut fields = bytes[..93].to_vec();
    fields[77..85].fill(0);
    let seed = xxhash_rust::xxh3::xxh3_64(&fields);
    assert_eq!(
        &bytes[77..85],
        &xxhash_rust::xxh3::xxh3_64_with_seed(payload, seed).to_le_bytes()
    );
    assert_eq!(&bytes[85..93], &0u64.to_le_bytes());
    assert!(bytes[93..PAYLOAD_OFFSET as usize].iter().all(|&b| b == 0));
    assert!(payload.iter().any(|&b| b != 0));
}

#[test]
fn truncated_file_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    let len = std::fs::metadata(&path).unwrap().len();
    let f = OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len - 1).unwrap();
    drop(f);
    assert_refused(&path, &spec, &partition, "truncated");
    // Shorter than the header.
    let f = OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(100).unwrap();
    drop(f);
    assert_refused(&path, &spec, &partition, "shorter than the header");
}

#[test]
fn padded_file_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(&[0]).unwrap();
    drop(f);
    assert_refused(&path, &spec, &partition, "padded");
}

#[test]
fn zero_length_file_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    std::fs::write(&path, b"").unwrap();
    assert_refused(&path, &spec, &partition, "corrupt");
}

/// Every way of opening `path` refuses it as someone's, not a damaged table: an error
/// `of_kind`, naming the file, holding `fragment`, saying to move it out of the tables
/// directory, with no rebuild command (whose `--force` would write over it).
fn refused_as_someones(
    path: &Path,
    spec: &PatternSpec,
    partition: &Partition,
    of_kind: fn(&TableError) -> bool,
    fragment: &str,
) {
    let refused = |what: &str, e: TableError| {
        let msg = e.to_string();
        assert!(of_kind(&e), "{what}: {msg}");
        assert!(msg.contains(&path.display().to_string()), "{what}: {msg}");
        assert!(msg.contains(fragment), "{what}: {msg}");
        assert!(
            msg.contains("move it out of the tables directory"),
            "{what}: {msg}"
        );
        assert!(!msg.contains("--force"), "{what}: {msg}");
    };
    refused("Table::read", Table::read(path, spec).err().unwrap());
    // SAFETY: nobody modifies the file while the table lives (single-threaded test).
    refused(
        "Table::map",
        unsafe { Table::map(path, spec) }.err().unwrap(),
    );
    refused("inspect", pdb::inspect(path).err().unwrap());
    let dir = TableDir::new(path.parent().unwrap());
    refused("TableDir::read", dir.read(partition).err().unwrap());
}

/// A file in a table's place that does not start as a table is someone's file, not a
/// damaged table: refused, saying to move it away, with no rebuild command (whose
/// `--force` would write over it). A table whose first bytes went through a text transfer
/// (the magic's CRLF made LF) is a damaged table, to be rebuilt.
#[test]
fn a_file_that_does_not_start_as_a_table_is_someones_not_a_damaged_table() {
    let big: Vec<u8> = b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .cycle()
        .take(300_000)
        .collect();
    for content in [&b"my notes\n"[..], b"x", b"15PDA", &big] {
        let (_tmp, partition, spec, path) = fresh();
        std::fs::write(&path, content).unwrap();
        let is_ours = |e: &TableError| matches!(e, TableError::NotATable { .. });
        refused_as_someones(&path, &spec, &partition, is_ours, "move it out");
        assert_eq!(std::fs::read(&path).unwrap(), content);
    }
    let (_tmp, partition, spec, path) = fresh();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.remove(6);
    std::fs::write(&path, &bytes).unwrap();
    assert_refused(&path, &spec, &partition, "corrupt table");
    std::fs::write(&path, b"15P").unwrap();
    assert_refused(&path, &spec, &partition, "shorter than the header");
}

/// A table's temporary file left by a builder killed while it saved (SIGKILL, or a signal
/// during a slow sync) is removed by the next build there, which holds the build lock;
/// files that only look alike are left as they are.
#[test]
fn a_killed_builders_temporary_file_is_removed_by_the_next_build() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    let partition = Partition::default_for(shape3(), 0);
    let stale = tmp.path().join(".3x3-b0-1.2.3.4.5.6.7.8.pdb.4194301.tmp");
    std::fs::write(&stale, vec![7u8; 100_000]).unwrap();
    let kept = [
        ".notes.tmp",
        "3x3-b0-1.2.3.4.5.6.7.8.pdb.12.tmp",
        ".3x3.pdb.12a.tmp",
        ".3x3.pdb..tmp",
    ];
    for name in kept {
        std::fs::write(tmp.path().join(name), b"mine").unwrap();
    }
    let a_dir = tmp.path().join(".4x4.pdb.77.tmp");
    std::fs::create_dir(&a_dir).unwrap();
    dir.build_missing(&partition, &|_, _, _| {}).unwrap();
    assert!(!stale.exists());
    for name in kept {
        assert_eq!(
            std::fs::read(tmp.path().join(name)).unwrap(),
            b"mine",
            "{name}"
        );
    }
    assert!(a_dir.is_dir());
    assert!(dir.missing(&partition).is_empty());
}

/// A directory, a named pipe or a link to a device in a table's place is nothing a build
/// wrote: refused at once (a pipe is not waited on), named for what it is, with no rebuild
/// command, and left where it is.
#[test]
fn something_not_a_file_in_place_of_a_table_is_named_and_left() {
    type Make = fn(&Path);
    let kinds: [(&str, Make); 3] = [
        ("a directory", |p| std::fs::create_dir(p).unwrap()),
        ("a named pipe", |p| {
            let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        }),
        ("a device", |p| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap()
        }),
    ];
    for (kind, make) in kinds {
        let (_tmp, partition, spec, path) = fresh();
        std::fs::remove_file(&path).unwrap();
        make(&path);
        let not_a_file = |e: &TableError| matches!(e, TableError::NotAFile { .. });
        let said = format!("not a table file but {kind}");
        refused_as_someones(&path, &spec, &partition, not_a_file, &said);
        assert!(
            !std::fs::symlink_metadata(&path).unwrap().is_file(),
            "{kind} replaced"
        );
    }
}

#[test]
fn missing_file_names_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let partition = Partition::default_for(shape3(), 0);
    let spec = partition.specs().remove(0);
    let path = tmp.path().join(spec.file_name());
    let e = Table::read(&path, &spec).err().expect("missing file");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    let dir = TableDir::new(tmp.path());
    assert_eq!(dir.missing(&partition), vec![spec]);
    assert!(dir.read(&partition).is_err());
}

fn flip(path: &Path, offset: u64, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset as usize] ^= mask;
    let mut f = OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(0)).unwrap();
    f.write_all(&bytes).unwrap();
}

#[test]
fn flipped_payload_bit_is_detected() {
    for (offset, mask) in [(0u64, 1u8), (1000, 0x80), (181_439, 0x10)] {
        let (_tmp, partition, spec, path) = fresh();
        flip(&path, PAYLOAD_OFFSET + offset, mask);
        // Mapping reads only the header: it opens, and verify catches the damage.
        // SAFETY: the file is not modified while the table lives.
        let t = unsafe { Table::map(&path, &spec) }.unwrap();
        let e = t.verify(&spec).unwrap_err();
        assert!(matches!(e, TableError::Corrupt { .. }), "{e}");
        assert!(e.to_string().contains("checksum"), "{e}");
        drop(t);
        assert_refused(&path, &spec, &partition, "checksum");
    }
}

#[test]
fn damaged_header_checksum_is_detected() {
    let (_tmp, partition, spec, path) = fresh();
    flip(&path, 77, 0x01);
    assert_refused(&path, &spec, &partition, "checksum");
}

#[test]
fn bad_magic_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    flip(&path, 0, 0x20);
    assert_refused(&path, &spec, &partition, "magic");
}

#[test]
fn other_format_version_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    let mut bytes = std::fs::read(&path).unwrap();
    // magic: 8 bytes, endian_check: u32, version: u32 (bincode fixed-int, little endian).
    assert_eq!(&bytes[12..16], &pdb::TABLE_FORMAT_VERSION.to_le_bytes());
    let other = pdb::TABLE_FORMAT_VERSION + 1;
    bytes[12..16].copy_from_slice(&other.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let e = Table::read(&path, &spec).err().unwrap();
    assert!(matches!(e, TableError::Mismatch { .. }), "{e}");
    assert_refused(&path, &spec, &partition, &format!("format version {other}"));
}

#[test]
fn other_byte_order_is_refused() {
    let (_tmp, partition, spec, path) = fresh();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&0x0102_0304u32.to_be_bytes());
    std::fs::write(&path, &bytes).unwrap();
    assert_refused(&path, &spec, &partition, "byte order");
}

#[test]
fn table_for_another_goal_blank_or_pattern_is_refused() {
    let (_tmp, _, spec, path) = fresh();
    // The same file asked for by a spec with the goal blank elsewhere...
    let other_blank = Partition::default_for(shape3(), 1);
    let s = other_blank.specs().remove(0);
    assert_eq!(s.blank, 1);
    assert_refused(&path, &s, &other_blank, "blank in cell 0, cell 1 needed");
    // ...or for another pattern of the same goal.
    let other_pattern = Partition::parse(shape3(), 0, "4-4").unwrap();
    let s = other_pattern.specs().remove(0);
    assert_refused(&path, &s, &other_pattern, "pattern");
    // ...or for another board shape.
    let wide = Partition::default_for(Shape::new(2, 4).unwrap(), 0);
    let s = wide.specs().remove(0);
    assert_refused(&path, &s, &wide, "3x3");
    // The right spec still opens it.
    Table::read(&path, &spec).unwrap();
}

#[test]
fn renamed_table_for_another_partition_is_refused_by_table_dir() {
    // A file of the wrong pattern sitting under the right name.
    let (tmp, _, _, path) = fresh();
    let four = Partition::parse(shape3(), 0, "4-4").unwrap();
    let target = TableDir::new(tmp.path()).path(&four.specs()[0]);
    std::fs::rename(&path, &target).unwrap();
    let e = TableDir::new(tmp.path()).read(&four).err().unwrap();
    let msg = e.to_string();
    assert!(
        msg.contains(&target.display().to_string()) && msg.contains("build-pdb"),
        "{msg}"
    );
    // SAFETY: nothing modifies the files while mapped.
    let e = unsafe { TableDir::new(tmp.path()).map(&four) }
        .err()
        .unwrap();
    assert!(matches!(e, TableError::Mismatch { .. }), "{e}");
}

#[test]
fn rebuild_command_really_rebuilds() {
    let (_tmp, _, spec, path) = fresh();
    flip(&path, PAYLOAD_OFFSET, 1);
    let e = Table::read(&path, &spec).err().unwrap().to_string();
    // build-pdb leaves existing files alone unless --force is given, and builds the
    // default partition unless told another.
    assert!(e.contains("build-pdb --force"), "{e}");
    assert!(e.contains("--partition 8"), "{e}");
    assert!(e.contains("--size 3x3") && e.contains("--blank 0"), "{e}");
    let dir = path.parent().unwrap().display().to_string();
    assert!(e.contains(&format!("--out {dir}")), "{e}");
}

// ---------------------------------------------------------------------------------------
// The committed fixture: a 2x2 table written by this version of the format.

fn fixture_partition() -> Partition {
    Partition::default_for(Shape::new(2, 2).unwrap(), 0)
}

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Writes tests/fixtures/2x2-b0-1.2.3.pdb. Run once (and after a deliberate format change,
/// together with a TABLE_FORMAT_VERSION bump): `cargo test --release --test tables -- --ignored
/// write_fixture`.
#[test]
#[ignore = "writes the committed fixture"]
fn write_fixture() {
    let partition = fixture_partition();
    let spec = partition.specs().remove(0);
    let built = pdb::build(&spec, &|_| {}).unwrap();
    pdb::save(&fixture_dir(), &spec, &built).unwrap();
}

/// The format-1 fixture (its checksum covered only the payload) is refused by name, with
/// the command that rebuilds it, never read with the wrong checksum rule.
#[test]
fn committed_version_1_fixture_is_refused_with_the_rebuild_command() {
    let partition = fixture_partition();
    let spec = partition.specs().remove(0);
    let path = fixture_dir().join("v1").join(spec.file_name());
    let bytes = std::fs::read(&path).expect("tests/fixtures/v1/2x2-b0-1.2.3.pdb is committed");
    assert_eq!(&bytes[12..16], &1u32.to_le_bytes());
    for e in [
        Table::read(&path, &spec).err().unwrap(),
        Table::from_bytes(&path, bytes, &spec).err().unwrap(),
    ] {
        let msg = e.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains("format version 1"), "{msg}");
        assert!(msg.contains("build-pdb --force"), "{msg}");
    }
}

/// Distances of every 2x2 board from the blank-first goal, by BFS.
fn bfs_2x2() -> HashMap<Board, u32> {
    let goal = Goal::blank_first(Shape::new(2, 2).unwrap());
    let mut dist = HashMap::from([(*goal.board(), 0u32)]);
    let mut q = VecDeque::from([*goal.board()]);
    while let Some(b) = q.pop_front() {
        let d = dist[&b];
        for dir in Dir::ALL {
            if let Some(nb) = b.apply(dir) {
                dist.entry(nb).or_insert_with(|| {
                    q.push_back(nb);
                    d + 1
                });
            }
        }
    }
    dist
}

#[test]
fn committed_fixture_reads_and_gives_2x2_distances() {
    let partition = fixture_partition();
    let spec = partition.specs().remove(0);
    assert_eq!(spec.file_name(), "2x2-b0-1.2.3.pdb");
    let path = fixture_dir().join(spec.file_name());
    let bytes = std::fs::read(&path).expect("tests/fixtures/2x2-b0-1.2.3.pdb is committed");
    assert_eq!(bytes.len() as u64, PAYLOAD_OFFSET + 12);
    let table = Table::read(&path, &spec).unwrap();
    table.verify(&spec).unwrap();
    assert_eq!(table.header.version, 2);
    assert_eq!(table.header.entries, 24);
    // The fixture matches what the builder writes today (same payload, same checksum).
    let built = pdb::build(&spec, &|_| {}).unwrap();
    assert_eq!(table.payload(), &built.payload[..]);

    // Its values: for each board reachable from the goal, Manhattan distance plus twice
    // the entry is the BFS distance (with all tiles in one pattern the table is exact).
    let dist = bfs_2x2();
    assert_eq!(dist.len(), 12);
    assert_eq!(dist.values().max(), Some(&6));
    let ranker = fifteen::rank::Ranker::new(4, 3);
    let shape = Shape::new(2, 2).unwrap();
    for (b, &d) in &dist {
        let mut pos = [0u8; 3];
        for (cell, &t) in b.tiles().iter().enumerate() {
            if t != 0 {
                pos[t as usize - 1] = cell as u8;
            }
        }
        let idx = ranker.rank(&pos) as usize;
        let v = (table.payload()[idx / 2] >> (4 * (idx & 1))) & 15;
        let md: u32 = (1..4)
            .map(|t| shape.distance(pos[t - 1] as usize, t) as u32)
            .sum();
        assert_eq!(md + 2 * v as u32, d, "{b:?}");
    }

    // And through the solver, for both goals (the standard one by symmetry).
    let h = std::sync::Arc::new(PdbHeuristic::new(partition, vec![table]).unwrap());
    let solver = Solver::with_pdb(h);
    let goal = Goal::blank_first(shape);
    for (b, &d) in &dist {
        assert_eq!(solver.estimate(b, &goal), d, "{b:?}");
        let sol = solver.solve(b, &goal, &Search::default()).unwrap();
        assert_eq!(check_solution(b, &goal, &sol.moves), Ok(d as usize));
    }
    let standard = Goal::standard(shape);
    let sol = solver
        .solve(
            &Board::parse("0 3 2 1").unwrap(),
            &standard,
            &Search::default(),
        )
        .unwrap();
    check_solution(&Board::parse("0 3 2 1").unwrap(), &standard, &sol.moves).unwrap();
}

/// A table's name that is a symbolic link leading nowhere (a disk that is not mounted, a
/// link to itself) is not a missing table: `solve` and `build-pdb` refuse it, saying what
/// it is and what to do, and leave the link as it was, where building the table would have
/// replaced it unasked.
#[test]
fn a_table_name_linked_nowhere_is_refused_not_built_over() {
    let tmp = tempfile::tempdir().unwrap();
    let partition = Partition::default_for(shape3(), 0);
    let spec = partition.specs().remove(0);
    let link = TableDir::new(tmp.path()).path(&spec);
    let name = link.file_name().unwrap().to_owned();
    for target in [
        tmp.path().join("absent-disk/8puzzle.pdb"),
        PathBuf::from(&name),
    ] {
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let dir = tmp.path().to_str().unwrap();
        let solve = std::process::Command::new(env!("CARGO_BIN_EXE_fifteen"))
            .args(["solve", "--tables", dir, "8 6 7 2 5 4 3 0 1"])
            .output()
            .unwrap();
        let build = std::process::Command::new(env!("CARGO_BIN_EXE_build-pdb"))
            .args(["--size", "3", "--out", dir])
            .output()
            .unwrap();
        for (what, out, code) in [("solve", solve, 2), ("build-pdb", build, 1)] {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{what}: {stderr}");
            assert!(out.stdout.is_empty(), "{what}");
            assert!(
                stderr.contains("a symbolic link to")
                    && stderr.contains(&target.display().to_string())
                    && stderr.contains("delete the link"),
                "{what}: {stderr}"
            );
            let meta = std::fs::symlink_metadata(&link).unwrap();
            assert!(meta.file_type().is_symlink(), "{what} replaced the link");
            assert_eq!(std::fs::read_link(&link).unwrap(), target, "{what}");
        }
    }
}

/// A table file written in place while a batch reads it through its mapping (a copy over
/// it, a disk tool; here its own first byte written back, which changes its modification
/// time and nothing else) stops the batch with the file named and exit status 2: no answer
/// found after the write is given, since the values read may not be those checked.
#[test]
fn a_table_written_to_during_a_batch_stops_it() {
    use std::io::{BufRead, BufReader, Read};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "-i", "-", "--tables", dir, "--threads", "1"])
        .args(["--format", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // The first board builds the 3x3 table (quick) and is answered from it.
    writeln!(stdin, "8 6 7 2 5 4 3 0 1").unwrap();
    stdin.flush().unwrap();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(first["length"], 31);
    let spec = Partition::default_for(shape3(), 0).specs().remove(0);
    let path = TableDir::new(tmp.path()).path(&spec);
    let byte = std::fs::read(&path).unwrap()[0];
    // A modification time that differs even on a coarse clock.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut f = OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all(&[byte]).unwrap();
    drop(f);
    writeln!(stdin, "1 2 3 4 5 6 0 7 8").unwrap();
    drop(stdin);
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        rest.iter().all(|l| !l.contains("\"length\"")),
        "an answer after the write: {rest:?}"
    );
    assert!(
        stderr.contains(&path.display().to_string())
            && stderr.contains("written to while this run used it"),
        "{stderr}"
    );
}

/// `FIFTEEN_TABLES='~/t'` (quoted in a job script, so no shell expanded it) is the home
/// directory's `t`, not a directory named `~` in the current one.
#[test]
fn fifteen_tables_with_a_tilde_is_in_the_home_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .args(["solve", "--format", "json", "1 2 3 0 4 6 7 5 8"])
        .env("HOME", &home)
        .env("FIFTEEN_TABLES", "~/t")
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"heuristic\":\"pdb\""));
    assert!(home.join("t/3x3-b0-1.2.3.4.5.6.7.8.pdb").exists());
    assert!(!work.join("~").exists(), "a directory named ~ was made");
}

/// A symbolic link whose target cannot be opened is said to be one; deleting it is said
/// to let the table be built only where the link bears a table's name.
#[test]
fn an_unreachable_link_offers_a_build_only_under_a_tables_name() {
    let tmp = tempfile::tempdir().unwrap();
    let partition = Partition::default_for(shape3(), 0);
    let spec = partition.specs().remove(0);
    let named = tmp.path().join(spec.file_name());
    std::os::unix::fs::symlink(tmp.path().join("gone.pdb"), &named).unwrap();
    let looped = tmp.path().join("loop.pdb");
    std::os::unix::fs::symlink("loop.pdb", &looped).unwrap();
    let msg = pdb::inspect(&named).err().unwrap().to_string();
    assert!(msg.contains("a symbolic link to"), "{msg}");
    assert!(msg.contains("built in its place"), "{msg}");
    let msg = pdb::inspect(&looped).err().unwrap().to_string();
    assert!(msg.contains("a symbolic link to loop.pdb"), "{msg}");
    assert!(msg.contains("its name is no table's"), "{msg}");
    assert!(!msg.contains("built in its place"), "{msg}");
    // Both links are left as they were.
    assert!(std::fs::symlink_metadata(&named).unwrap().is_symlink());
    assert!(std::fs::symlink_metadata(&looped).unwrap().is_symlink());
}
