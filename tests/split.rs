//! The split search (one instance's iterations shared by tasks): its answers against
//! breadth-first distances (3x3) and known optimal lengths (4x4, small partitions), and
//! each iteration's node total against the serial search's; and the driver script,
//! `slurm/solve-split.sh --local`, end to end.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use fifteen::board::Labels;
use fifteen::cluster::shard::Shard;
use fifteen::cluster::split::{frontier, search_part};
use fifteen::pdb::PdbHeuristic;
use fifteen::search::{
    ida_star, Geometry, Heuristic, Limits, LinearConflict, Manhattan, Packed, Search, Tiles, Weight,
};
use fifteen::{Board, Dir, Goal, Shape};

/// What the serial search and the split search say about one board.
struct Compared {
    /// (threshold, nodes of that iteration) of every serial iteration.
    serial: Vec<(u32, u64)>,
    /// The same, of the split search, iteration by iteration.
    split: Vec<(u32, u64)>,
    /// The split search's solution, in the search's frame.
    moves: Vec<Dir>,
}

/// Runs the serial search, then the split one as the driver does: frontier once, `parts`
/// parts per iteration, the parts' nodes added up, the next threshold from the least f.
///
/// Called with the few estimates the tests name rather than through
/// [`fifteen::Solver::run_job`], which would compile the whole search again for every
/// estimate the solver can choose (this file took 100 s of a release build).
fn compare<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    depth: u32,
    parts: u32,
) -> Compared {
    let serial = ida_star(geo, h, start, &Search::default()).unwrap();
    let mut before = 0;
    let serial = serial
        .iterations
        .iter()
        .map(|it| {
            let n = it.nodes - before;
            before = it.nodes;
            (it.threshold, n)
        })
        .collect();
    let entries = frontier(geo, h, start, depth);
    let mut st = h.root(geo, &start);
    let mut threshold = h.h(&mut st);
    let parity = geo.manhattan(&start) % 2;
    let mut split = Vec::new();
    loop {
        let mut nodes = 0;
        let mut next = u32::MAX;
        let mut top = None;
        let mut moves = None;
        for k in 1..=parts {
            let part = Shard::new(k as u64, parts as u64).unwrap();
            let r = search_part(
                geo,
                h,
                start,
                &entries,
                depth,
                threshold,
                part,
                Limits::default(),
            )
            .unwrap();
            assert!(top.is_none_or(|t| t == r.top_nodes), "tops differ");
            top = Some(r.top_nodes);
            nodes += r.nodes;
            next = next.min(r.next).min(r.top_next);
            moves = moves.or(r.solution);
        }
        split.push((threshold, nodes + top.unwrap()));
        if let Some(moves) = moves {
            return Compared {
                serial,
                split,
                moves,
            };
        }
        threshold = Weight::ONE.next_threshold(next, parity);
    }
}

/// The estimates the split search is checked with.
enum Estimate {
    Manhattan,
    LinearConflict,
    /// The tables, in the frame they want (a symmetry of the board, as the solver does).
    Tables(Arc<PdbHeuristic>),
}

/// Checks one board: the split answer is valid and `expected` long, the thresholds are the
/// serial ones, and every iteration but the last counts the serial nodes.
fn check(est: &Estimate, board: &Board, goal: &Goal, expected: u32, depth: u32, parts: u32) {
    let labels = goal.labels(board).unwrap();
    let run = |labels: &Labels, h: &dyn Fn(&Geometry, Packed) -> Compared| {
        let geo = Geometry::new(labels.shape, labels.blank_label);
        h(&geo, geo.load::<Packed>(labels))
    };
    let (c, inverse) = match est {
        Estimate::Manhattan => (
            run(&labels, &|geo, p| compare(geo, &Manhattan, p, depth, parts)),
            None,
        ),
        Estimate::LinearConflict => (
            run(&labels, &|geo, p| {
                compare(geo, &LinearConflict, p, depth, parts)
            }),
            None,
        ),
        Estimate::Tables(pdb) => {
            let sym = pdb.symmetry_for(&labels).unwrap();
            let framed = sym.labels(&labels);
            let c = run(&framed, &|geo, p| {
                compare(geo, pdb.as_ref(), p, depth, parts)
            });
            (c, Some(sym.inverse(board.shape())))
        }
    };
    let moves: Vec<Dir> = match inverse {
        Some(inv) => c.moves.iter().map(|&d| inv.dir(d)).collect(),
        None => c.moves.clone(),
    };
    assert_eq!(moves.len() as u32, expected, "{board:?}");
    assert_eq!(board.apply_all(&moves).as_ref(), Ok(goal.board()));
    let n = c.serial.len();
    assert_eq!(c.split.len(), n, "iterations of {board:?}");
    assert_eq!(c.split[..n - 1], c.serial[..n - 1], "{board:?}");
    assert_eq!(c.split[n - 1].0, c.serial[n - 1].0);
}

#[test]
fn split_3x3_answers_are_bfs_distances_and_iterations_count_the_serial_nodes() {
    let shape = Shape::new(3, 3).unwrap();
    let goal = Goal::standard(shape);
    let (order, dist, _) = common::bfs(&goal);
    let (_dir, pdb) = common::tables(&fifteen::pdb::Partition::default_for(shape, 0));
    let estimates = [
        Estimate::Manhattan,
        Estimate::LinearConflict,
        Estimate::Tables(pdb),
    ];
    // Every 97th board in BFS order (all distances but 0), and the two hardest.
    let boards = order
        .iter()
        .skip(1)
        .step_by(97)
        .chain(order.iter().rev().take(2))
        .collect::<Vec<_>>();
    for (i, b) in boards.iter().enumerate() {
        let est = &estimates[i % estimates.len()];
        // Depths below, at and beyond the shorter solutions; 1 to 5 parts.
        let depth = [2, 5, 8][i % 3];
        check(est, b, &goal, dist[b], depth, 1 + (i % 5) as u32);
    }
}

#[test]
fn split_4x4_with_small_tables_finds_known_lengths_and_counts_the_serial_nodes() {
    let shape = Shape::new(4, 4).unwrap();
    let partition = fifteen::pdb::Partition::parse(shape, 0, "6-6-3").unwrap();
    let (_dir, pdb) = common::tables(&partition);
    let est = Estimate::Tables(pdb);
    for inst in common::korf_easiest(4) {
        let known = inst.known.unwrap();
        check(&est, &inst.board, &inst.goal, known, 10, 4);
    }
}

/// The driver script in `--local` mode with 4 parts, on the Korf instance easiest for
/// the 5-5-5 tables: the known length, a valid solution, and a rerun that redoes nothing.
#[test]
fn the_driver_script_solves_a_korf_instance_with_four_local_parts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shape = Shape::new(4, 4).unwrap();
    let (tables, _) = common::tables(&fifteen::pdb::Partition::parse(shape, 0, "5-5-5").unwrap());
    let inst = &common::korf_easiest(1)[0];
    let board = inst
        .board
        .tiles()
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let work = tempfile::tempdir().unwrap();
    let run = || {
        let out = Command::new("bash")
            .arg(root.join("slurm/solve-split.sh"))
            .args(["--local", "--parts", "4", "--depth", "8"])
            .args(["--goal", "blank-first", "--partition", "5-5-5", "--tables"])
            .arg(tables.path())
            .arg("--dir")
            .arg(work.path())
            .arg(&board)
            .env("FIFTEEN", env!("CARGO_BIN_EXE_fifteen"))
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let first = run();
    let length = first
        .lines()
        .find_map(|l| l.strip_prefix("solution: length "))
        .unwrap();
    assert_eq!(
        length.parse::<u32>().unwrap(),
        inst.known.unwrap(),
        "{first}"
    );
    let moves = first
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap();
    let moves = fifteen::board::parse_moves(moves).unwrap();
    assert_eq!(inst.board.apply_all(&moves).as_ref(), Ok(inst.goal.board()));
    // One row per iteration, thresholds two apart.
    let thresholds: Vec<u32> = first
        .lines()
        .skip(1)
        .map_while(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(thresholds.windows(2).all(|w| w[1] == w[0] + 2), "{first}");
    assert_eq!(thresholds.last(), Some(&inst.known.unwrap()));
    // A rerun finds everything done: same output, no file rewritten.
    let part = work.path().join(format!("t{}/part-1.json", thresholds[0]));
    let stamp = std::fs::metadata(&part).unwrap().modified().unwrap();
    assert_eq!(run(), first);
    assert_eq!(std::fs::metadata(&part).unwrap().modified().unwrap(), stamp);
    // A missing part is searched again, the others are not.
    std::fs::remove_file(&part).unwrap();
    std::fs::remove_file(part.with_file_name("reduced.txt")).unwrap();
    assert_eq!(run(), first);
    assert!(part.exists());
}

/// The reducer refuses a missing part, a part given twice, and parts of another threshold.
#[test]
fn the_reducer_refuses_missing_duplicate_and_mismatched_parts() {
    let dir = tempfile::tempdir().unwrap();
    let fifteen = env!("CARGO_BIN_EXE_fifteen");
    let p = |name: &str| dir.path().join(name);
    let run = |args: &[&std::ffi::OsStr]| {
        Command::new(fifteen)
            .args(args)
            .env(
                "FIFTEEN_TABLES",
                "/dev/null/fifteen-tests-must-not-build-here",
            )
            .output()
            .unwrap()
    };
    let board = "8 6 7 2 5 4 3 0 1";
    let fr = p("fr.json");
    let out = run(&[
        "split".as_ref(),
        "frontier".as_ref(),
        board.as_ref(),
        "--heuristic".as_ref(),
        "linear-conflict".as_ref(),
        "--depth".as_ref(),
        "4".as_ref(),
        "-o".as_ref(),
        fr.as_os_str(),
    ]);
    assert!(out.status.success());
    let first: u32 = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    for (t, k) in [(first, 1), (first, 2), (first, 3), (first + 2, 1)] {
        let part = p(&format!("t{t}-{k}.json"));
        let out = run(&[
            "split".as_ref(),
            "search".as_ref(),
            fr.as_os_str(),
            "--threshold".as_ref(),
            t.to_string().as_ref(),
            "--part".as_ref(),
            format!("{k}/3").as_ref(),
            "-o".as_ref(),
            part.as_os_str(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let reduce = |names: &[&str]| {
        let mut args: Vec<std::ffi::OsString> = vec!["split".into(), "reduce".into()];
        args.extend(names.iter().map(|n| p(n).into_os_string()));
        let a: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let out = run(&a);
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
        )
    };
    let t = |k: u32| format!("t{first}-{k}.json");
    let (code, text) = reduce(&[&t(1), &t(2), &t(3)]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with(&format!("threshold {first} nodes ")),
        "{text}"
    );
    let (code, text) = reduce(&[&t(1), &t(3)]);
    assert_eq!(code, 2);
    assert!(text.contains("parts missing: [2]"), "{text}");
    let (code, text) = reduce(&[&t(1), &t(2), &t(2), &t(3)]);
    assert_eq!(code, 2);
    assert!(text.contains("given twice"), "{text}");
    // An empty part: said to be empty, not "EOF while parsing".
    std::fs::write(p("empty.json"), "").unwrap();
    let (code, text) = reduce(&[&t(1), &t(2), "empty.json"]);
    assert_eq!(code, 2);
    assert!(
        text.contains("empty.json: not a fifteen-split-part/3 file: it is empty"),
        "{text}"
    );
    let (code, text) = reduce(&[&t(1), &t(2), &format!("t{}-1.json", first + 2)]);
    assert_eq!(code, 2);
    assert!(text.contains("threshold"), "{text}");
    // A part count of 4 billion, in a file whose checksum matches (written through the
    // library, as a forger would): an error listing a few, where a slot for every part
    // was allocated and the process aborted.
    let mut huge = fifteen::cluster::split::PartFile::read(&p(&t(1))).unwrap();
    huge.parts = u32::MAX;
    huge.write(&p("huge.json")).unwrap();
    let (code, text) = reduce(&["huge.json"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("parts missing: [2, 3, 4,")
            && text.contains(&format!("and {} more of 1 to {}", u32::MAX - 21, u32::MAX)),
        "{text}"
    );
}
