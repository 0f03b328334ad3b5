//! Tests of [`super`]: merging shards' results files.

use super::*;
use crate::cluster::results::{InputDigest, ResultsFile};
use crate::record::Record;
use serde_json::Map;

/// The record of item `i` of [`shards`], with id `id`: the board one move from the goal
/// and its solution `R`.
fn record(i: u64, id: u64) -> Record {
    Record {
        id: id.into(),
        size: Some("3x3".into()),
        tiles: Some(vec![1, 2, 3, 4, 5, 6, 7, 0, 8]),
        goal: Some(vec![1, 2, 3, 4, 5, 6, 7, 8, 0]),
        length: Some(1),
        moves: Some("R".into()),
        nodes: Some(i),
        ..Record::default()
    }
}

/// Writes the `n` complete shards of items `1..=items`: item `i` has id `ids(i)`
/// ([`record`]).
fn shards(dir: &Path, items: u64, n: u64, ids: impl Fn(u64) -> u64) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let shard = Shard::new(k, n).unwrap();
            let path = dir.join(format!("part-{k}.jsonl"));
            let (mut f, _) =
                ResultsFile::open(&path, &Header::new("solve", shard, Map::new())).unwrap();
            for i in (1..=items).filter(|&i| shard.contains(i)) {
                f.append(&record(i, ids(i))).unwrap();
            }
            f.finish(items, None).unwrap();
            path
        })
        .collect()
}

#[test]
fn shards_merge_back_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = shards(dir.path(), 11, 3, |i| i);
    paths.reverse();
    let mut out = Vec::new();
    let report = merge(&paths, &mut out, |_, c| panic!("{c:?}")).unwrap();
    let ids: Vec<u64> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Record>(l)
                .unwrap()
                .id
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(ids, (1..=11).collect::<Vec<_>>());
    assert_eq!((report.results, report.passed, report.failed), (11, 11, 0));
    assert_eq!(report.nodes, (1..=11).sum::<u64>());
}

#[test]
fn missing_incomplete_foreign_and_repeated_parts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), 10, 4, |i| i);
    let err = |paths: &[PathBuf]| merge(paths, &mut Vec::new(), |_, _| {}).unwrap_err();
    let e = err(&[paths[0].clone(), paths[2].clone()]);
    assert!(
        matches!(&e, MergeError::MissingShards { missing, .. } if missing == &[2, 4]),
        "{e}"
    );
    assert!(e.to_string().starts_with("missing shards 2, 4 of 4"), "{e}");
    let e = err(&[paths[0].clone(), paths[0].clone()]);
    assert!(matches!(e, MergeError::DuplicateShard { .. }), "{e}");
    assert!(matches!(err(&[]), MergeError::NoParts));

    // Shard 2 cut short: no end line.
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&paths[1], lines[..2].join("\n") + "\n").unwrap();
    let e = err(&paths);
    assert!(
        matches!(
            e,
            MergeError::Incomplete {
                results: 1,
                running: false,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("rerun its task"), "{e}");
    // The same file while its task still writes it (holding its lock, as `solve -o`
    // does): not to be rerun now, but waited for.
    let writer = std::fs::File::open(&paths[1]).unwrap();
    writer.try_lock().unwrap();
    let e = err(&paths);
    assert!(
        matches!(
            e,
            MergeError::Incomplete {
                results: 1,
                running: true,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("its task is still writing it"),
        "{e}"
    );
    assert!(!e.to_string().contains("rerun"), "{e}");
    drop(writer);

    // Another batch's shard, and an input of another length.
    let other = tempfile::tempdir().unwrap();
    let five = shards(other.path(), 10, 5, |i| i);
    let e = err(&[paths[0].clone(), five[1].clone()]);
    assert!(e.to_string().contains("4 shards and 5 shards"), "{e}");
    let other = tempfile::tempdir().unwrap();
    let longer = shards(other.path(), 12, 4, |i| i);
    let e = err(&[paths[0].clone(), longer[1].clone()]);
    assert!(matches!(e, MergeError::Items { a: 10, b: 12, .. }), "{e}");

    // An id twice across shards.
    let twice = tempfile::tempdir().unwrap();
    let paths = shards(twice.path(), 6, 2, |i| if i == 6 { 1 } else { i });
    let e = err(&paths);
    assert!(
        matches!(&e, MergeError::DuplicateId { id, .. } if id == "1"),
        "{e}"
    );
}

/// Shards whose end lines' digests are of two kinds (an earlier version's leaves the
/// shapes out) are refused, naming the earlier file; shards of one kind merge, each held
/// to its own kind of digest; a digest the records do not give back is refused.
#[test]
fn shards_of_two_kinds_of_input_digest_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), 4, 2, |i| i);
    let digest = |version| {
        let mut d = InputDigest::new();
        for i in 1..=4 {
            d.record(&record(i, i)).unwrap();
        }
        d.value(version).unwrap()
    };
    // Their end lines as this version writes them, with a digest; the first shard's
    // then as an earlier version wrote it (no "input_version").
    let end = |path: &Path, line: &str| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        *lines.last_mut().unwrap() = line;
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    };
    let new = format!(
        r#"{{"batch_end":{{"items":4,"results":2,"input":{},"input_version":2}}}}"#,
        digest(2)
    );
    let old = format!(
        r#"{{"batch_end":{{"items":4,"results":2,"input":{}}}}}"#,
        digest(1)
    );
    end(&paths[0], &new);
    end(&paths[1], &new);
    merge(&paths, &mut Vec::new(), |_, _| {}).unwrap();
    end(&paths[0], &old);
    let e = merge(&paths, &mut Vec::new(), |_, _| {}).unwrap_err();
    assert!(
        matches!(&e, MergeError::DigestVersions { older, .. } if older == &paths[0]),
        "{e}"
    );
    end(&paths[1], &old);
    merge(&paths, &mut Vec::new(), |_, _| {}).unwrap();
    let other = r#"{"batch_end":{"items":4,"results":2,"input":9}}"#;
    end(&paths[0], other);
    end(&paths[1], other);
    let e = merge(&paths, &mut Vec::new(), |_, _| {}).unwrap_err();
    assert!(
        matches!(&e, MergeError::Records { paths: p } if p == &paths),
        "{e}"
    );
}

#[test]
fn results_that_do_not_check_are_reported_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.jsonl");
    let (mut f, _) =
        ResultsFile::open(&path, &Header::new("solve", Shard::WHOLE, Map::new())).unwrap();
    let good = Record {
        id: 1.into(),
        tiles: Some(vec![1, 2, 3, 4, 5, 6, 7, 0, 8]),
        length: Some(1),
        moves: Some("R".into()),
        ..Record::default()
    };
    f.append(&good).unwrap();
    f.append(&Record {
        id: 2.into(),
        moves: Some("L".into()),
        ..good.clone()
    })
    .unwrap();
    f.append(&Record::failure("3", "unsolvable")).unwrap();
    f.finish(3, None).unwrap();
    let mut bad = Vec::new();
    let report = merge(&[path], &mut Vec::new(), |_, c| bad.push(c.line)).unwrap();
    assert_eq!((report.passed, report.failed), (1, 2));
    assert_eq!(bad, [3, 4]);
}

/// Shards copied through other tools (a byte order mark before the header, CRLF line
/// endings, a field another program added) merge into the lines an unsharded run writes,
/// and that output is known again as this merge's own.
#[test]
fn shards_edited_by_other_tools_merge_into_fifteens_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), 7, 3, |i| i);
    let mut clean = Vec::new();
    merge(&paths, &mut clean, |_, c| panic!("{c:?}")).unwrap();

    let text = std::fs::read_to_string(&paths[0]).unwrap();
    std::fs::write(&paths[0], format!("\u{feff}{text}")).unwrap();
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    std::fs::write(&paths[1], text.replace('\n', "\r\n")).unwrap();
    let text = std::fs::read_to_string(&paths[2]).unwrap();
    let extra = text.replacen(r#""id":3,"#, r#""id":3,"note":[1,2],"#, 1);
    assert_ne!(extra, text);
    std::fs::write(&paths[2], extra).unwrap();

    let checked = prepare(&paths).unwrap();
    let mut out = Vec::new();
    checked.write(&mut out, |_, c| panic!("{c:?}")).unwrap();
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        String::from_utf8(clean).unwrap()
    );
    let merged = dir.path().join("merged.jsonl");
    std::fs::write(&merged, &out).unwrap();
    assert!(checked.is_output(&merged, false));
}
