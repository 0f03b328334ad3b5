use super::*;
use crate::check::MAX_RESULT_LINE_BYTES;
use std::io::{Seek, Write};
use std::path::Path;

fn header(shard: &str) -> Header {
    let mut s = Map::new();
    s.insert("weight".into(), 1.into());
    Header::new("solve", shard.parse().unwrap(), s)
}

/// A record that replays (resuming checks it): `[2, 1]` names the 2x2 board two moves
/// from the goal, anything else the board one move from it.
fn record(id: u64, which: &[u64]) -> Record {
    let (tiles, moves) = if which == [2, 1] {
        (vec![0, 2, 1, 3], "DR")
    } else {
        (vec![1, 2, 0, 3], "R")
    };
    Record {
        id: id.into(),
        tiles: Some(tiles),
        length: Some(moves.len() as u64),
        moves: Some(moves.into()),
        ..Record::default()
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_new_file_gets_its_header_and_a_rerun_skips_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let h = header("1/1");
    {
        let (mut f, mut r) = ResultsFile::open(&path, &h).unwrap();
        assert_eq!(r.results(), 0);
        assert_eq!(r.skip("1", Some(&[1, 2, 0, 3])).unwrap(), None);
        f.append(&record(1, &[1, 2])).unwrap();
        // The file is shared by another handle only when the lock allows it.
        assert!(matches!(
            ResultsFile::open(&path, &h),
            Err(ResultsError::Locked { .. })
        ));
    }
    assert_eq!(lines(&path).len(), 2);
    let (mut f, mut r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!(r.results(), 1);
    assert_eq!(
        r.skip("1", Some(&[1, 2, 0, 3])).unwrap().map(|d| d.line),
        Some(2)
    );
    assert_eq!(r.skip("2", None).unwrap(), None);
    f.append(&record(2, &[2, 1])).unwrap();
    r.finish(2, &InputDigest::new()).unwrap();
    assert_eq!(
        f.finish(2, Some(0xabc)).unwrap(),
        End {
            items: 2,
            results: 2,
            input: Some(0xabc),
            input_version: Some(INPUT_DIGEST_VERSION),
        }
    );
    drop(f);
    let l = lines(&path);
    assert_eq!(l.len(), 4);
    assert_eq!(
        l[3],
        r#"{"batch_end":{"items":2,"results":2,"input":2748,"input_version":2}}"#
    );

    // Complete: a rerun skips everything and writes nothing.
    let before = std::fs::read(&path).unwrap();
    let (mut f, mut r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!(
        r.end(),
        Some(End {
            items: 2,
            results: 2,
            input: Some(0xabc),
            input_version: Some(INPUT_DIGEST_VERSION),
        })
    );
    assert!(r.skip("1", Some(&[1, 2, 0, 3])).unwrap().is_some());
    assert!(r.skip("2", Some(&[0, 2, 1, 3])).unwrap().is_some());
    assert!(matches!(
        r.skip("3", None),
        Err(ResultsError::Grown { items: 2, .. })
    ));
    f.finish(2, None).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_torn_last_line_or_a_zero_tail_is_cut_off_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let h = header("2/3");
    let good = format!("{}\n{}\n", h.to_line(), record(2, &[1]).to_line());
    // Zero tails longer than the longest line a result may have are debris all the same.
    let long_zeros = vec![0u8; MAX_RESULT_LINE_BYTES + 2];
    let mut blank_then_zeros = b"\n".to_vec();
    blank_then_zeros.extend_from_slice(&long_zeros);
    for tail in [
        &b"{\"id\":5,\"til"[..],
        b"\0\0\0\0",
        b"\0\0\n\0\0\0\n",
        b"{",
        &long_zeros,
        &blank_then_zeros,
    ] {
        let mut bytes = good.clone().into_bytes();
        bytes.extend_from_slice(tail);
        std::fs::write(&path, &bytes).unwrap();
        let (mut f, r) = ResultsFile::open(&path, &h).unwrap();
        assert_eq!(r.results(), 1, "{tail:?}");
        assert_eq!(r.cut_bytes(), tail.len() as u64);
        // Cut at the first write, not before: a file refused keeps it.
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        f.append(&record(5, &[1])).unwrap();
        let next = record(5, &[1]).to_line();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            good.clone() + &next + "\n"
        );
    }
    // A torn header: the file starts over.
    std::fs::write(&path, &h.to_line()[..10]).unwrap();
    let (_, r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!(r.results(), 0);
    assert_eq!(lines(&path), [h.to_line()]);

    // Zero bytes alone, no header: a crash's debris only as large as a crash in the first
    // writes leaves; a larger file of zeros (a disk image, a preallocated file) is
    // someone's, refused and kept whole however it is laid out.
    for (len, newline_at, ours) in [
        (100u64, None, true),
        (4096, None, true),
        (4096, Some(50u64), true),
        (4097, None, false),
        (5000, Some(50), false),
        (20 << 20, None, false),
        (20 << 20, Some(4000), false),
    ] {
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(len).unwrap();
        drop(f);
        if let Some(at) = newline_at {
            let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            f.seek(std::io::SeekFrom::Start(at)).unwrap();
            f.write_all(b"\n").unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        match ResultsFile::open(&path, &h) {
            Ok((_, r)) => {
                assert!(ours, "{len} zero bytes taken for debris");
                assert_eq!(r.results(), 0);
                assert_eq!(lines(&path), [h.to_line()]);
            }
            Err(e) => {
                assert!(!ours, "{len} zero bytes: {e}");
                assert!(matches!(e, ResultsError::NotOurs { .. }), "{len}: {e}");
                assert!(std::fs::read(&path).unwrap() == before, "{len}: changed");
            }
        }
    }

    // Blank lines are nobody's crash debris: after our lines they are damage, and a file
    // of them alone is someone else's; either way refused, every byte kept.
    for (text, want_damaged) in [
        (format!("{good}\n\n"), true),
        ("\n\n\n".to_string(), false),
        ("\n".to_string(), false),
    ] {
        std::fs::write(&path, &text).unwrap();
        let e = ResultsFile::open(&path, &h).unwrap_err();
        assert_eq!(
            matches!(e, ResultsError::Damaged { .. }),
            want_damaged,
            "{text:?}: {e}"
        );
        if !want_damaged {
            assert!(matches!(e, ResultsError::NotOurs { .. }), "{text:?}: {e}");
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    // A long run of zero bytes with text after it is no crash's debris.
    let mut bytes = good.clone().into_bytes();
    bytes.extend_from_slice(&long_zeros);
    bytes.extend_from_slice(b"x\n");
    std::fs::write(&path, &bytes).unwrap();
    let e = ResultsFile::open(&path, &h).unwrap_err();
    assert!(matches!(e, ResultsError::Damaged { line: 3, .. }), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    // A byte order mark before the header (an editor's) is skipped, not taken for
    // someone else's file; the records after it are resumed.
    std::fs::write(&path, format!("\u{feff}{good}")).unwrap();
    let (_, r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!(r.results(), 1);

    // A bad line with good ones after it is not a kill's doing.
    std::fs::write(
        &path,
        format!("{good}garbage\n{}\n", record(5, &[1]).to_line()),
    )
    .unwrap();
    let e = ResultsFile::open(&path, &h).unwrap_err();
    assert!(matches!(e, ResultsError::Damaged { line: 3, .. }), "{e}");
    assert!(e.to_string().contains("head -n 2"), "{e}");
}

#[test]
fn files_of_other_settings_inputs_or_writers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    {
        let (mut f, _) = ResultsFile::open(&path, &header("1/2")).unwrap();
        f.append(&record(1, &[1, 2])).unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let e = ResultsFile::open(&path, &header("2/2")).unwrap_err();
    assert!(
        e.to_string()
            .contains(r#"shard "1/2" in the file, "2/2" now"#),
        "{e}"
    );
    let mut other = header("1/2");
    other.settings.insert("weight".into(), 2.into());
    other.settings.insert("timeout".into(), 5.into());
    let e = ResultsFile::open(&path, &other).unwrap_err().to_string();
    assert!(e.contains("timeout unset in the file, 5 now"), "{e}");
    assert!(e.contains("weight 1 in the file, 2 now"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), before);

    // The same settings, another input: refused at the first difference.
    let (_, mut r) = ResultsFile::open(&path, &header("1/2")).unwrap();
    let e = r.skip("1", Some(&[0, 2, 1, 3])).unwrap_err().to_string();
    assert!(
        e.contains("the result of instance 1 is not this input's instance 1 (another board)"),
        "{e}"
    );
    let (_, mut r) = ResultsFile::open(&path, &header("1/2")).unwrap();
    let e = r.skip("7", Some(&[1, 2, 0, 3])).unwrap_err().to_string();
    assert!(
        e.contains("the result of instance 1") && e.contains("is 7"),
        "{e}"
    );
    let (_, r) = ResultsFile::open(&path, &header("1/2")).unwrap();
    assert!(matches!(
        r.finish(0, &InputDigest::new()),
        Err(ResultsError::Shrunk { results: 1, .. })
    ));

    // Output of `solve --format json` redirected by hand is not ours.
    std::fs::write(&path, format!("{}\n", record(1, &[1]).to_line())).unwrap();
    assert!(matches!(
        ResultsFile::open(&path, &header("1/2")),
        Err(ResultsError::NotOurs { .. })
    ));
    std::fs::write(&path, "{\"batch\":{\"version\":9}}\n").unwrap();
    let e = ResultsFile::open(&path, &header("1/2")).unwrap_err();
    assert!(matches!(e, ResultsError::Version { .. }), "{e}");
}

/// A file refused, for its settings or for its input, keeps its torn last line: the cut
/// comes only once every check passed, just before the first write.
#[test]
fn a_refused_file_keeps_its_torn_tail() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let h = header("1/1");
    let torn = format!(
        "{}\n{}\n{{\"id\":2,\"til",
        h.to_line(),
        record(1, &[1]).to_line()
    );
    std::fs::write(&path, &torn).unwrap();
    let mut other = header("1/1");
    other.settings.insert("weight".into(), 2.into());
    assert!(matches!(
        ResultsFile::open(&path, &other),
        Err(ResultsError::Settings { .. })
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), torn);
    {
        let (_, mut r) = ResultsFile::open(&path, &h).unwrap();
        assert_eq!(r.cut_bytes(), 12);
        assert!(r.skip("1", Some(&[0, 2, 1, 3])).is_err());
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), torn);
    // Held by the input, the file is cut at the first write.
    let (mut f, mut r) = ResultsFile::open(&path, &h).unwrap();
    assert!(r.skip("1", Some(&[1, 2, 0, 3])).unwrap().is_some());
    assert_eq!(r.skip("2", None).unwrap(), None);
    f.append(&record(2, &[2, 1])).unwrap();
    drop(f);
    let l = lines(&path);
    assert_eq!(l.len(), 3);
    assert_eq!(l[2], record(2, &[2, 1]).to_line());
}

/// A first line without its newline is our torn header only when it is the start of one:
/// a one-line JSON file of someone else's whose first key is "batch" is not ours.
#[test]
fn a_one_line_json_file_of_someone_elses_is_not_a_torn_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cfg.json");
    let h = header("1/1");
    for text in [
        r#"{"batch": 64, "lr": 0.1}"#,
        r#"{"batch":64}"#,
        r#"{"batch":{"version":1,"command":"solve"}}"#,
        r#"{"batch":[1,2"#,
    ] {
        std::fs::write(&path, text).unwrap();
        let e = ResultsFile::open(&path, &h).unwrap_err();
        assert!(matches!(e, ResultsError::NotOurs { .. }), "{text}: {e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    // With its newline, a "batch" line without a version number is someone else's too,
    // not "written by another version of fifteen"; one with another number is that.
    for (text, ours) in [
        ("{\"batch\": 64}\n", false),
        ("{\"batch\": {\"version\": \"1\"}}\n", false),
        ("{\"batch\":{\"version\":7,\"command\":\"solve\"}}\n", true),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = ResultsFile::open(&path, &h).unwrap_err();
        if ours {
            assert!(matches!(e, ResultsError::Version { .. }), "{text}: {e}");
        } else {
            assert!(matches!(e, ResultsError::NotOurs { .. }), "{text}: {e}");
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    // Our header cut short anywhere past its fixed start: the file starts over.
    let line = h.to_line();
    std::fs::write(&path, &line[..line.len() - 3]).unwrap();
    let (_, r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!((r.results(), r.cut_bytes()), (0, line.len() as u64 - 3));
    assert_eq!(lines(&path), [h.to_line()]);
    // Our header whole but for its newline: the file starts over, as for a shorter cut.
    std::fs::write(&path, h.to_line()).unwrap();
    let (_, r) = ResultsFile::open(&path, &h).unwrap();
    assert_eq!(r.results(), 0);
    assert_eq!(lines(&path), [h.to_line()]);
    // ... and one of other settings is refused as such, untouched.
    let mut other = header("1/1");
    other.settings.insert("weight".into(), 2.into());
    std::fs::write(&path, other.to_line()).unwrap();
    assert!(matches!(
        ResultsFile::open(&path, &h),
        Err(ResultsError::Settings { .. })
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other.to_line());
}

/// A record is held to its instance's shape as well as its id, board and goal: the same
/// tiles in another shape (a `size:` line changed) are another instance.
#[test]
fn a_record_of_another_shape_is_another_instances() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let h = header("1/1");
    let wide = Shape::new(2, 3).unwrap();
    let tall = Shape::new(3, 2).unwrap();
    let board = |shape| Board::new(shape, &[1, 2, 3, 4, 0, 5]).unwrap();
    {
        let (mut f, _) = ResultsFile::open(&path, &h).unwrap();
        f.append(&Record {
            id: 1.into(),
            size: Some("2x3".into()),
            tiles: Some(vec![1, 2, 3, 4, 0, 5]),
            goal: Some(vec![1, 2, 3, 4, 5, 0]),
            length: Some(1),
            moves: Some("R".into()),
            ..Record::default()
        })
        .unwrap();
    }
    let (_, mut r) = ResultsFile::open(&path, &h).unwrap();
    let (b, g) = (board(wide), Goal::standard(wide));
    assert!(r.skip_instance("1", Some((&b, &g))).unwrap().is_some());
    let (_, mut r) = ResultsFile::open(&path, &h).unwrap();
    let (b, g) = (board(tall), Goal::standard(tall));
    let e = r
        .skip_instance("1", Some((&b, &g)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("another shape: 2x3 in the file, 3x2 now"), "{e}");
}
