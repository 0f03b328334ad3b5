//! The full 7-8 tables, when they are built (the main job, `fifteen bench`, builds them into
//! `FIFTEEN_TABLES`, else the per-user data directory, before `.ci/run` runs the tests):
//! 30 Korf 100 instances must get their known optimal lengths from the 7-8 search, serial
//! and split, and agree with linear conflict on the easiest ones. Elsewhere a missing set is
//! skipped with a message; under `CI` it is a failure, since the main job just built it.

use fifteen::search::Search;
use std::path::PathBuf;

use fifteen::instances::{GoalSpec, Reader};
use fifteen::pdb::{Partition, TableDir};
use fifteen::{HeuristicKind, Shape, Solver};

/// Where `fifteen bench` put the tables: the same rule as the command line's default
/// (`fifteen::pdb::default_dir`, the function the CLI calls), so the two cannot disagree.
fn tables_dir() -> PathBuf {
    std::env::var_os("FIFTEEN_TABLES")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(fifteen::pdb::default_dir)
        .expect("no FIFTEEN_TABLES and no home directory: nowhere to look for tables")
}

#[test]
fn seven_eight_search_matches_known_lengths() {
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::default_for(shape, 0);
    let Some([pdb]) = built("7-8", [partition]) else {
        return;
    };
    let serial = Solver::with_pdb(pdb.clone());
    let pool = two_threads();
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    let lc = Solver::new(HeuristicKind::LinearConflict);
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt")).unwrap();
    let instances: Vec<_> = Reader::new(std::io::BufReader::new(f), GoalSpec::BlankFirst)
        .map(|r| r.unwrap())
        .collect();
    // Instances 1-30, and linear conflict on the ones it solves quickly.
    let easy = ["2", "5", "9", "12", "23", "29"];
    for inst in instances.iter().take(30) {
        let known = inst.known.unwrap() as usize;
        for search in [&Search::default(), &split] {
            let s = serial.solve(&inst.board, &inst.goal, search).unwrap();
            assert_eq!(s.heuristic, HeuristicKind::Pdb);
            assert_eq!(s.moves.len(), known, "instance {}", inst.id);
            assert_eq!(inst.board.apply_all(&s.moves).unwrap(), *inst.goal.board());
        }
        if easy.contains(&inst.id.as_str()) {
            let s = lc
                .solve(&inst.board, &inst.goal, &Search::default())
                .unwrap();
            assert_eq!(
                s.moves.len(),
                known,
                "instance {} (linear conflict)",
                inst.id
            );
        }
    }
}

/// The four default 4x4 tables, byte for byte: the hashes issue 24 announced of the
/// builder before the block-ordered one (docs/formats.md), so that a faster builder can
/// never change a table unnoticed.
#[test]
fn the_default_4x4_tables_have_their_announced_bytes() {
    use sha2::{Digest, Sha256};
    let shape = Shape::new(4, 4).unwrap();
    let first = Partition::default_for(shape, 0);
    let second = Partition::second_for(shape, 0).expect("4x4 has a second partition");
    if built("7-8 and second-partition", [first, second]).is_none() {
        return;
    }
    let pinned = [
        (
            "4x4-b0-1.2.3.4.5.6.7.pdb",
            "57992792e4a017edd51f12bde54d803eba34b783a0d3b002480185a93ec11665",
        ),
        (
            "4x4-b0-8.9.10.11.12.13.14.15.pdb",
            "bb2c0ba7b491846ac8314d1b690182566bd9c212ad0b2d778325d791e3647745",
        ),
        (
            "4x4-b0-1.2.3.4.8.12.5.pdb",
            "6a1448183253b977c852b6f144f09a6391c61a4fe5475b6d65a22f7529698334",
        ),
        (
            "4x4-b0-6.7.9.10.11.13.14.15.pdb",
            "ae0c51b272871be1e365d389c6f3ee00935c664c38f7c72a8fbac6808106eebc",
        ),
    ];
    for (name, hash) in pinned {
        let bytes = std::fs::read(tables_dir().join(name)).unwrap();
        let got: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, hash, "{name}");
    }
}

/// The tables of `partitions`, read and verified; `None` (having said "skipped", and
/// failing under CI) when they are not built. `what` names them in the message.
fn built<const N: usize>(
    what: &str,
    partitions: [Partition; N],
) -> Option<[std::sync::Arc<fifteen::pdb::PdbHeuristic>; N]> {
    let dir = TableDir::new(tables_dir());
    if partitions.iter().any(|p| !dir.missing(p).is_empty()) {
        let why = format!(
            "no {what} tables in {} (run `cargo run --release -- bench data/korf100.txt` \
             first)",
            dir.dir.display()
        );
        assert!(std::env::var_os("CI").is_none(), "under CI: {why}");
        eprintln!("skipped: {why}");
        return None;
    }
    Some(partitions.map(|p| dir.read(&p).expect("tables load and verify")))
}

/// The default 4x4 tables, both partitions (see [`built`]).
fn default_tables() -> Option<(
    std::sync::Arc<fifteen::pdb::PdbHeuristic>,
    std::sync::Arc<fifteen::pdb::PdbHeuristic>,
)> {
    let shape = Shape::new(4, 4).unwrap();
    let first = Partition::default_for(shape, 0);
    let second = Partition::second_for(shape, 0).expect("4x4 has a second partition");
    let [a, b] = built("7-8 and second-partition", [first, second])?;
    Some((a, b))
}

/// The default 4x4 search of `solve` and `bench`: the 7-8 tables max'd with the second
/// partition's, read lazily (docs/heuristic.md).
fn default_solver(
    first: std::sync::Arc<fifteen::pdb::PdbHeuristic>,
    second: std::sync::Arc<fifteen::pdb::PdbHeuristic>,
) -> Solver {
    Solver::with_pdb(first).with_extras(fifteen::Extras {
        second: Some(second),
        walking: None,
        lazy: true,
        tie_break: false,
        dual: None,
        dual_second: None,
        more: Vec::new(),
    })
}

/// A pool of two threads, for the split search of one instance.
fn two_threads() -> std::sync::Arc<rayon::ThreadPool> {
    std::sync::Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    )
}

/// The default of `solve` and `bench` (docs/heuristic.md): the 7-8 tables max'd with the
/// second partition's, read lazily, with and without walking distance: every Korf 100
/// instance gets its known optimal length, serial and split, and never with more nodes
/// than the 7-8 tables alone need in total.
#[test]
fn the_default_study_keeps_every_korf_100_length() {
    use fifteen::search::{Geometry, WalkingDistance};
    use fifteen::Extras;
    use std::sync::Arc;
    let shape = Shape::new(4, 4).unwrap();
    let Some((first, second)) = default_tables() else {
        return;
    };
    let wd = Arc::new(WalkingDistance::new(&Geometry::new(shape, 0)).unwrap());
    let pool = two_threads();
    let plain = Solver::with_pdb(first.clone());
    let pair = default_solver(first.clone(), second.clone());
    let all = Solver::with_pdb(first).with_extras(Extras {
        second: Some(second),
        walking: Some(wd),
        lazy: true,
        tie_break: false,
        dual: None,
        dual_second: None,
        more: Vec::new(),
    });
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt")).unwrap();
    let instances: Vec<_> = Reader::new(std::io::BufReader::new(f), GoalSpec::BlankFirst)
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(instances.len(), 100);
    let (mut n_plain, mut n_pair) = (0, 0);
    for inst in &instances {
        let known = inst.known.unwrap() as usize;
        let serial = Search::default();
        let runs = [
            (&plain, &serial),
            (&pair, &serial),
            (&all, &serial),
            (&pair, &split),
        ];
        for (k, (solver, search)) in runs.into_iter().enumerate() {
            let s = solver.solve(&inst.board, &inst.goal, search).unwrap();
            assert_eq!(s.heuristic, HeuristicKind::Pdb);
            assert_eq!(s.moves.len(), known, "instance {} (solver {k})", inst.id);
            assert_eq!(inst.board.apply_all(&s.moves).unwrap(), *inst.goal.board());
            match k {
                0 => n_plain += s.nodes,
                1 => n_pair += s.nodes,
                _ => {}
            }
        }
        assert!(pair.estimate(&inst.board, &inst.goal) <= known as u32);
        assert!(all.estimate(&inst.board, &inst.goal) <= known as u32);
    }
    assert!(n_pair < n_plain, "{n_pair} >= {n_plain}");
}

/// Hard-set positions (`data/hard4x4.txt`) that the 7-8 search solves in about a second
/// each (6 to 8 M nodes): the quickest of the set. `fifteen bench data/hard4x4.txt` checks
/// the whole set.
const HARD_SUBSET: [&str; 2] = ["H01", "H02"];

/// On boards where the 7-8 estimate is far below the optimum, the search still returns the
/// lengths the hard set records (each proven there by the 7-8 and the 8-7 tables), and its
/// moves reach the goal; and the estimate is indeed far below (what makes the set hard).
#[test]
fn seven_eight_search_solves_hard_positions() {
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::default_for(shape, 0);
    let Some([pdb]) = built("7-8", [partition]) else {
        return;
    };
    let solver = Solver::with_pdb(pdb);
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hard4x4.txt")).unwrap();
    let instances: Vec<_> = Reader::new(std::io::BufReader::new(f), GoalSpec::Standard)
        .map(|r| r.unwrap())
        .collect();
    for id in HARD_SUBSET {
        let inst = instances
            .iter()
            .find(|i| i.id == id)
            .unwrap_or_else(|| panic!("no {id} in data/hard4x4.txt"));
        let known = inst.known.expect("the hard set records every length");
        let h0 = solver.estimate(&inst.board, &inst.goal);
        assert!(h0 + 12 <= known, "{id}: estimate {h0}, length {known}");
        let s = solver
            .solve(&inst.board, &inst.goal, &Search::default())
            .unwrap();
        assert_eq!(s.heuristic, HeuristicKind::Pdb);
        assert_eq!(s.moves.len() as u32, known, "instance {id}");
        assert_eq!(inst.board.apply_all(&s.moves).unwrap(), *inst.goal.board());
    }
}

/// The goal transposed (H12 of the hard set, 72 moves, proven there with the 7-8 and the
/// 8-7 tables), the hardest position the 7-8 tables know of: the default search (both
/// partitions, split over two threads) finds its length, through one of its two root moves
/// only (it is its own mirror image), and its moves reach the goal.
#[test]
fn the_default_search_solves_the_transposed_goal() {
    let shape = Shape::new(4, 4).unwrap();
    let Some((first, second)) = default_tables() else {
        return;
    };
    let pool = two_threads();
    let solver = default_solver(first, second);
    let goal = fifteen::Goal::blank_first(shape);
    let board = fifteen::Board::new(
        shape,
        &[0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15],
    )
    .unwrap();
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hard4x4.txt")).unwrap();
    let h12 = Reader::new(std::io::BufReader::new(f), GoalSpec::Standard)
        .map(|r| r.unwrap())
        .find(|i| i.id == "H12")
        .expect("H12 in data/hard4x4.txt");
    assert_eq!(h12.board, board, "H12 is the transposed goal");
    let known = h12.known.expect("the hard set records every length");
    assert_eq!(known, 72);
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    let s = solver.solve(&board, &goal, &split).unwrap();
    assert_eq!(s.moves.len() as u32, known);
    assert_eq!(board.apply_all(&s.moves).unwrap(), *goal.board());
}

/// `data/depth80.txt`, the 17 positions of 80 moves: the list is checked without a solver
/// (17 distinct boards, a set closed under the standard goal's symmetry, the transpose),
/// and the default search (both partitions, split over two threads) finds 80 moves for
/// its two quickest positions (ids 12 and 14, about 2 M nodes each), moves that reach the
/// goal. `fifteen bench data/depth80.txt` runs all 17 (docs/performance.md).
#[test]
fn the_positions_of_80_moves_are_a_closed_set_and_solve_in_80() {
    use std::collections::HashSet;
    let shape = Shape::new(4, 4).unwrap();
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/depth80.txt")).unwrap();
    let instances: Vec<_> = Reader::new(std::io::BufReader::new(f), GoalSpec::Standard)
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(instances.len(), 17);
    let boards: HashSet<Vec<u8>> = instances.iter().map(|i| i.board.tiles().to_vec()).collect();
    assert_eq!(boards.len(), 17, "17 distinct boards");
    // The transpose keeps the standard goal when each tile is renamed by the goal's
    // transpose too: tile t (goal cell t - 1) becomes the goal's tile at the mirror cell.
    let mirror = |cell: usize| (cell % 4) * 4 + cell / 4;
    let goal_tile = |cell: usize| if cell == 15 { 0 } else { cell as u8 + 1 };
    for b in &boards {
        let mut t = vec![0u8; 16];
        for (cell, &tile) in b.iter().enumerate() {
            t[mirror(cell)] = if tile == 0 {
                0
            } else {
                goal_tile(mirror(tile as usize - 1))
            };
        }
        assert!(
            boards.contains(&t),
            "the transpose of {b:?} is not in the set"
        );
    }
    assert!(instances.iter().all(|i| i.known == Some(80)));

    let Some((first, second)) = default_tables() else {
        return;
    };
    let pool = two_threads();
    let solver = default_solver(first, second);
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    let quickest: Vec<_> = instances
        .iter()
        .filter(|i| i.id == "12" || i.id == "14")
        .collect();
    assert_eq!(quickest.len(), 2);
    for inst in quickest {
        assert_eq!(inst.board.shape(), shape);
        let s = solver.solve(&inst.board, &inst.goal, &split).unwrap();
        assert_eq!(s.moves.len(), 80, "id {}", inst.id);
        assert_eq!(inst.board.apply_all(&s.moves).unwrap(), *inst.goal.board());
    }
}
