//! What the fuzz targets check on arbitrary bytes. Shared by the targets (`fuzz/`) and by
//! `tests/fuzz_regressions.rs`, which replays every committed crash input through the same
//! code in a normal `cargo test`.
//!
//! Beyond "no panic", each parser is held to a round trip: what it accepts, written back in
//! the documented format, reads back the same.

use std::path::Path;

use fifteen::board::{moves_to_string, parse_moves};
use fifteen::instances::{GoalSpec, Reader};
use fifteen::pdb::{self, Partition, PatternSpec, Table, PAYLOAD_OFFSET};
use fifteen::{Board, Goal, Shape};

/// Rows of numbers, one line per board row: the grid form every board shape reads back from.
fn grid(b: &Board) -> String {
    let cols = b.shape().cols as usize;
    b.tiles()
        .chunks(cols)
        .map(|row| {
            row.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn check_board(b: &Board) {
    let s = b.shape();
    assert!(s.rows >= 2 && s.cols >= 2 && s.cells() <= fifteen::board::MAX_CELLS);
    assert_eq!(Board::parse(&grid(b)), Ok(*b), "grid round trip");
    if s.rows == s.cols {
        assert_eq!(Board::parse(&b.to_string()), Ok(*b), "one-line round trip");
    }
    assert_eq!(b.render().lines().count(), 2 * s.rows as usize + 1);
    // A move never changes whether a board can reach a goal.
    for goal in [Goal::standard(s), Goal::blank_first(s)] {
        assert!(goal.labels(goal.board()).is_ok());
        let solvable = goal.labels(b).is_ok();
        for d in fifteen::Dir::ALL {
            if let Some(next) = b.apply(d) {
                assert_eq!(goal.labels(&next).is_ok(), solvable, "{b:?} then {d:?}");
            }
        }
    }
}

/// Every parser of typed text: boards, goals, moves, sizes, partitions.
pub fn board(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(b) = Board::parse(text) {
        check_board(&b);
    }
    if let Ok(GoalSpec::Explicit(tiles, _)) = GoalSpec::parse(text) {
        // An explicit goal is checked as numbers; its shape comes with the boards, or
        // with its rows when drawn as rows.
        let line = tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            GoalSpec::parse(&line),
            Ok(GoalSpec::Explicit(tiles.clone(), None))
        );
        if let Some(shape) = Shape::square_of(tiles.len()) {
            let goal = Board::new(shape, &tiles).expect("a parsed goal is a board");
            check_board(&goal);
            let drawn = Some((shape.rows as usize, shape.cols as usize));
            assert_eq!(
                GoalSpec::parse(&grid(&goal)),
                Ok(GoalSpec::Explicit(tiles, drawn))
            );
        }
    }
    // A move string is accepted only as written out again: the capitals U D L R alone.
    if let Ok(moves) = parse_moves(text) {
        assert_eq!(moves_to_string(&moves), text);
    }
    if let Some(shape) = Shape::parse(text) {
        assert!(shape.rows >= 2 && shape.cols >= 2, "{shape}");
        assert!(shape.cells() <= fifteen::board::MAX_CELLS, "{shape}");
        assert_eq!(Shape::parse(&shape.to_string()), Some(shape));
    }
    for (rows, cols, blank) in [(2, 2, 0), (3, 3, 0), (4, 4, 0), (3, 4, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        if let Ok(p) = Partition::parse(shape, blank, text) {
            check_partition(&p);
        }
    }
}

/// A partition names every tile but the blank exactly once, in groups that read back.
fn check_partition(p: &Partition) {
    let n = p.shape.cells();
    let mut seen = vec![0; n];
    for g in &p.patterns {
        assert!(!g.is_empty(), "{p:?}");
        for &t in g {
            assert!((t as usize) < n && t != p.blank, "{p:?}");
            seen[t as usize] += 1;
        }
    }
    for (t, &c) in seen.iter().enumerate() {
        assert_eq!(c, usize::from(t != p.blank as usize), "{p:?}");
    }
    let groups: Vec<String> = p
        .patterns
        .iter()
        .map(|g| {
            g.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let text = groups.join("/");
    if text.contains([',', '/']) {
        assert_eq!(
            Partition::parse(p.shape, p.blank, &text).as_ref().ok(),
            Some(p)
        );
    }
}

/// The instance-file reader: never panics, reports bad lines with their number, and what
/// it accepts reads back the same when written as `goal:` and `ID LEN tiles` lines.
pub fn instances(data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    let mut reader = Reader::new(data, GoalSpec::Standard);
    let mut good = Vec::new();
    for item in reader.by_ref() {
        match item {
            Ok(inst) => {
                check_board(&inst.board);
                assert_eq!(inst.board.shape(), inst.goal.shape());
                assert!(inst.goal.labels(&inst.board).is_ok(), "unsolvable accepted");
                good.push(inst);
            }
            Err(bad) => {
                assert!(bad.line >= 1 && bad.line <= lines, "line {}", bad.line);
                assert_eq!(bad.to_string().lines().count(), 1);
            }
        }
    }
    let _ = reader.take_io_error();
    // Write the square ones back (a non-square board has no one-line form).
    let square: Vec<_> = good
        .into_iter()
        .filter(|i| i.board.shape().rows == i.board.shape().cols)
        .collect();
    let mut text = String::new();
    for inst in &square {
        assert!(
            !inst.id.is_empty()
                && !inst
                    .id
                    .contains(|c: char| c.is_whitespace() || ",#".contains(c)),
            "id {:?}",
            inst.id
        );
        let known = inst.known.map_or("?".to_string(), |k| k.to_string());
        text.push_str(&format!("goal: {}\n", inst.goal.board()));
        text.push_str(&format!("{} {} {}\n", inst.id, known, inst.board));
    }
    let again: Vec<_> = Reader::new(text.as_bytes(), GoalSpec::Standard)
        .map(|r| r.expect("a written instance reads back"))
        .collect();
    assert_eq!(again, square, "round trip through\n{text}");
}

/// Specs small enough for a whole file to be a fuzz input (4096-byte header + payload).
fn small_specs() -> Vec<PatternSpec> {
    let s22 = Shape::new(2, 2).unwrap();
    let s23 = Shape::new(2, 3).unwrap();
    vec![
        PatternSpec {
            shape: s22,
            blank: 0,
            tiles: vec![1, 2, 3],
        },
        PatternSpec {
            shape: s22,
            blank: 0,
            tiles: vec![2],
        },
        PatternSpec {
            shape: s23,
            blank: 0,
            tiles: vec![1, 2],
        },
    ]
}

/// An error about a table file names it, says what to do, and is one line: how to rebuild
/// it when its name is a table's, else to move it away (no build writes that name).
fn check_error(e: &fifteen::TableError, path: &Path) {
    let msg = e.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(PatternSpec::from_file_name)
        .is_some();
    if named {
        assert!(msg.contains("build-pdb --force"), "{msg}");
    } else {
        assert!(
            msg.contains("move it out of the tables directory") && !msg.contains("build-pdb"),
            "{msg}"
        );
    }
    assert_eq!(msg.lines().count(), 1, "{msg}");
}

/// The table loader on arbitrary bytes taken as a whole file: refused with a clear error,
/// or accepted only when header, length and checksum all agree with the spec.
pub fn table(data: &[u8]) {
    for spec in small_specs() {
        let path = Path::new("/fuzz/tables").join(spec.file_name());
        match Table::from_bytes(&path, data.to_vec(), &spec) {
            Ok(t) => {
                let h = &t.header;
                assert_eq!(h.entries, spec.entries());
                assert_eq!(t.payload().len() as u64, spec.entries().div_ceil(2));
                assert_eq!(data.len() as u64, PAYLOAD_OFFSET + h.payload_len);
                assert_eq!(
                    (h.rows, h.cols, h.blank),
                    (spec.shape.rows, spec.shape.cols, 0)
                );
                assert_eq!(&h.tiles[..h.tile_count as usize], &spec.tiles[..]);
                assert_eq!(xxhash_of(data), h.checksum);
                t.verify(&spec).unwrap();
            }
            Err(e) => check_error(&e, &path),
        }
    }
    // `tables list` on the same bytes, under a table's name and under any other name.
    let head = &data[..data.len().min(PAYLOAD_OFFSET as usize)];
    for name in ["2x2-b0-1.2.3.pdb", "other.pdb"] {
        let path = Path::new("/fuzz/tables").join(name);
        match pdb::inspect_header(&path, head, data.len() as u64) {
            Ok((spec, h)) => {
                assert_eq!(h.entries, spec.entries());
                assert_eq!(data.len() as u64, PAYLOAD_OFFSET + h.payload_len);
                if name != "other.pdb" {
                    assert_eq!(spec.file_name(), name);
                }
                // The header it accepted is one a spec-driven open accepts too, unless the
                // payload is damaged (inspect reads no payload).
                if let Err(e) = Table::from_bytes(&path, data.to_vec(), &spec) {
                    assert!(e.to_string().contains("checksum"), "{e}");
                }
            }
            Err(e) => check_error(&e, &path),
        }
    }
}

/// The checksum the format documents (docs/formats.md, "Table files"), computed from a whole
/// file's bytes independently of the library's own `verify`: the payload's xxh3-64, seeded
/// with the xxh3-64 of the 93 header bytes whose checksum field (bytes 77..85) is zeroed.
pub fn xxhash_of(file: &[u8]) -> u64 {
    let mut fields = file[..93].to_vec();
    fields[77..85].fill(0);
    xxhash_rust::xxh3::xxh3_64_with_seed(
        &file[PAYLOAD_OFFSET as usize..],
        xxhash_rust::xxh3::xxh3_64(&fields),
    )
}
