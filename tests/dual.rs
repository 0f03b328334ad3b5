//! Dual lookups (`fifteen::pdb::Dual`) against facts independent of them: every 8-puzzle
//! board's distance by the breadth-first search of tests/common, the regular lookups of
//! the board inverted by hand (where the blank is home, the dual board is the inverse
//! permutation), and the known optimal lengths of the Korf 100.

use fifteen::search::Search;
use std::sync::Arc;

use fifteen::check::check_solution;
use fifteen::pdb::{Dual, DualTables, Partition, Patterns, PdbHeuristic, TableDir};
use fifteen::search::{ida_star, Geometry, Heuristic, Max, Packed, Tiles};
use fifteen::{Extras, Goal, HeuristicKind, Shape, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, korf_easiest};

/// The dual lookups of `partition`, its own tables and its region tables built into a
/// fresh temporary directory.
fn dual_tables(partition: &Partition) -> (tempfile::TempDir, Arc<DualTables>) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    dir.build_missing(partition, &|_, _, _| {}).unwrap();
    let pdb = dir.read(partition).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    dir.build_or_stop(dir.missing_dual(partition), &|_, _, _| {}, &stop)
        .unwrap();
    assert!(dir.missing_dual(partition).is_empty());
    // SAFETY: the temporary files are not changed while mapped.
    let dual = unsafe { dir.open_dual(pdb) }.unwrap();
    (tmp, Arc::new(dual))
}

/// The board whose cell `l` holds the label of the cell where label `l` sits in `p` (the
/// inverse permutation): the dual board of a board whose blank is home.
fn inverse(geo: &Geometry, p: &Packed) -> Packed {
    let mut pos = [0usize; 36];
    for c in 0..geo.cells {
        pos[p.get(c)] = c;
    }
    Packed::from_fn(geo.cells, geo.blank_label as usize, |c| pos[c])
}

fn regular(h: &PdbHeuristic, geo: &Geometry, p: &Packed) -> u32 {
    let pat = Patterns::<8>(h);
    pat.h(&mut pat.root(geo, p))
}

/// 3x3 partitions whose patterns, at home, cut off the goal's blank in the corner (so the
/// dual needs region tables), or do not.
fn partitions_3x3() -> Vec<Partition> {
    let s = Shape::new(3, 3).unwrap();
    [
        (0, "1,3/2,4,5,6,7,8"),
        (0, "1,3,4/2,5/6,7,8"),
        (0, "4-4"),
        (4, "0,1,2,3/5,6,7,8"),
    ]
    .iter()
    .map(|(b, t)| Partition::parse(s, *b, t).unwrap())
    .collect()
}

#[test]
fn dual_lookups_never_overestimate_an_8_puzzle_board_and_ida_finds_every_distance() {
    let s = Shape::new(3, 3).unwrap();
    let mut regions = 0;
    for partition in partitions_3x3() {
        regions += DualTables::specs(&partition).len();
        let goal = if partition.blank == 0 {
            Goal::blank_first(s)
        } else {
            common::custom(s)
        };
        assert_eq!(
            goal.labels(goal.board()).unwrap().blank_label,
            partition.blank
        );
        let (_tmp, dual) = dual_tables(&partition);
        let geo = Geometry::new(s, partition.blank);
        let (order, dist, _) = bfs(&goal);
        let d = Dual::<8>(&dual);
        let both = Max {
            first: Patterns::<8>(&dual.pdb),
            second: Dual::<8>(&dual),
            lazy: true,
        };
        let above = std::sync::atomic::AtomicUsize::new(0);
        order.par_iter().enumerate().for_each(|(i, b)| {
            let labels = goal.labels(b).unwrap();
            let p: Packed = geo.load(&labels);
            let e = d.h(&mut d.root(&geo, &p));
            let name = partition.name();
            assert!(e <= dist[b], "{name} {b:?}: dual {e} > {}", dist[b]);
            assert!(e >= geo.manhattan(&p), "{name} {b:?}");
            if p.blank() == geo.blank_label as usize {
                let inv = inverse(&geo, &p);
                assert_eq!(e, regular(&dual.pdb, &geo, &inv), "{name} {b:?}");
            }
            if e > regular(&dual.pdb, &geo, &p) {
                above.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if i % 7 == 0 {
                let found = ida_star(&geo, &both, p, &Search::default()).unwrap();
                assert_eq!(found.moves.len() as u32, dist[b], "{name} {b:?}");
            }
        });
        // The dual must add something: boards where it sees further than the tables.
        assert!(
            above.into_inner() > order.len() / 50,
            "{}",
            partition.name()
        );
    }
    assert!(regions >= 2, "no partition needed region tables");
}

/// The Korf 100's easiest instances with the dual lookups of two small 4x4 partitions
/// (5-5-5's first pattern, at home, walls the goal's blank corner off: region tables).
#[test]
fn dual_lookups_with_small_4x4_tables_keep_korf_lengths_serial_and_split() {
    let s4 = Shape::new(4, 4).unwrap();
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap(),
    );
    for text in ["5-5-5", "6-6-3"] {
        let partition = Partition::parse(s4, 0, text).unwrap();
        let (_tmp, dual) = dual_tables(&partition);
        let plain = Solver::with_pdb(dual.pdb.clone());
        let with_dual = plain.clone().with_extras(Extras {
            dual: Some(dual.clone()),
            lazy: true,
            ..Extras::default()
        });
        let split = Search {
            pool: Some(&pool),
            ..Search::default()
        };
        let (mut fewer, mut total) = (0u64, 0u64);
        for inst in korf_easiest(12) {
            let len = inst.known.expect("korf100.txt gives every length");
            let e = with_dual.estimate(&inst.board, &inst.goal);
            assert!(
                e <= len,
                "{text} instance {}: estimate {e} > {len}",
                inst.id
            );
            let mut nodes = Vec::new();
            let serial = Search::default();
            for (solver, search) in [
                (&with_dual, &serial),
                (&with_dual, &split),
                (&plain, &serial),
            ] {
                let sol = solver.solve(&inst.board, &inst.goal, search).unwrap();
                assert_eq!(sol.heuristic, HeuristicKind::Pdb);
                check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
                assert_eq!(sol.moves.len() as u32, len, "{text} instance {}", inst.id);
                nodes.push(sol.nodes);
            }
            fewer += nodes[0];
            total += nodes[2];
        }
        // The dual lookups must cut something on the whole.
        assert!(
            fewer < total,
            "{text}: {fewer} nodes with the dual, {total} without"
        );
    }
}

/// The solver's whole estimate with every table extra, on the 8-puzzle: the first tables,
/// a second partition and both partitions' dual lookups, max'd lazily as the solver reads
/// them (each only where the ones before do not cut). Every board's estimate is at most
/// its distance, each dual adds to what comes before it on some boards, and the lazy
/// search finds the distance of every board it solves.
#[test]
fn both_partitions_dual_lookups_find_every_8_puzzle_distance() {
    let s = Shape::new(3, 3).unwrap();
    let goal = Goal::blank_first(s);
    let first = Partition::parse(s, 0, "1,3/2,4,5,6,7,8").unwrap();
    let second = Partition::parse(s, 0, "1,2,3,4/5,6,7,8").unwrap();
    let (_tmp, dual) = dual_tables(&first);
    let (_tmp2, dual2) = dual_tables(&second);
    let pair = Extras {
        second: Some(dual2.pdb.clone()),
        lazy: true,
        ..Extras::default()
    };
    let solver = |extras: Extras| Solver::with_pdb(dual.pdb.clone()).with_extras(extras);
    let both = solver(pair.clone());
    let with_dual = solver(Extras {
        dual: Some(dual.clone()),
        ..pair.clone()
    });
    let all = solver(Extras {
        dual: Some(dual.clone()),
        dual_second: Some(dual2.clone()),
        ..pair.clone()
    });
    let name = all.frame(goal.board(), &goal).unwrap().partition.unwrap();
    assert_eq!(
        name,
        format!("{}+dual+{}+dual", first.groups(), second.groups())
    );
    // A second partition's dual lookups built on other tables than the solver's second
    // partition are not read (their indices would be another partition's).
    let (_tmp3, other) = common::tables(&second);
    let stray = solver(Extras {
        second: Some(other),
        dual_second: Some(dual2.clone()),
        ..pair.clone()
    });
    let stray_name = stray.frame(goal.board(), &goal).unwrap().partition.unwrap();
    assert_eq!(
        stray_name,
        format!("{}+{}", first.groups(), second.groups())
    );
    let (order, dist, _) = bfs(&goal);
    let above = [(); 2].map(|_| std::sync::atomic::AtomicUsize::new(0));
    order.par_iter().enumerate().for_each(|(i, b)| {
        let e = all.estimate(b, &goal);
        assert!(e <= dist[b], "{b:?}: estimate {e} > {}", dist[b]);
        let e1 = with_dual.estimate(b, &goal);
        if e1 > both.estimate(b, &goal) {
            above[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if e > e1 {
            above[1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if i % 11 == 0 {
            for solver in [&with_dual, &all] {
                let sol = solver.solve(b, &goal, &Search::default()).unwrap();
                check_solution(b, &goal, &sol.moves).unwrap();
                assert_eq!(sol.moves.len() as u32, dist[b], "{b:?}");
            }
        }
    });
    for (which, n) in ["first", "second"].iter().zip(above) {
        let n = n.into_inner();
        assert!(
            n > order.len() / 1000,
            "the {which} partition's dual added to {n} boards"
        );
    }
}
