//! The dual search (`fifteen::pdb::DualSearch`, DIDA*) against facts independent of it:
//! the distance of every 8-puzzle board by the breadth-first search of tests/common, its
//! estimates against the plain and dual lookups it reads, and replayed solutions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use fifteen::check::check_solution;
use fifteen::pdb::{Dual, DualSearch, DualTables, Partition, Patterns, TableDir};
use fifteen::search::{Geometry, Heuristic, Limits, Search, StopReason, Wide};
use fifteen::{Extras, Goal, HeuristicKind, Shape, SolveError, Solver};
use rayon::prelude::*;

mod common;

/// The 5x5 default tables and their dual tables from the user's directory, if built.
fn tables_5x5() -> Option<Arc<DualTables>> {
    let dir = TableDir::new(fifteen::pdb::default_dir()?);
    let partition = Partition::default_for(Shape::new(5, 5).unwrap(), 0);
    if !dir.missing(&partition).is_empty() || !dir.missing_dual(&partition).is_empty() {
        return None;
    }
    let pdb = dir.read(&partition).ok()?;
    // SAFETY: the files are not changed while mapped.
    Some(Arc::new(unsafe { dir.open_dual(pdb) }.ok()?))
}

#[test]
fn on_5x5_the_four_estimates_are_the_plain_and_dual_lookups() {
    let Some(t) = tables_5x5() else {
        assert!(std::env::var("CI").is_err(), "5x5 tables not built");
        println!("skipped: build-pdb --size 5 first");
        return;
    };
    let s = Shape::new(5, 5).unwrap();
    let goal = Goal::blank_first(s);
    let geo = Geometry::new(s, 0);
    let ds = DualSearch::new(&t);
    let mut rng = fifteen::random::Rng::new(11);
    for _ in 0..2000 {
        let b = fifteen::random::random_board(&mut rng, &goal);
        let l = goal.labels(&b).unwrap();
        let p: Wide = geo.load(&l);
        let q = ds.estimates(&p, 0);
        let plain = Patterns::<4>(&t.pdb);
        let dual = Dual::<4>(&t);
        assert_eq!(q[0].max(q[1]), plain.h(&mut plain.root(&geo, &p)), "{b:?}");
        assert_eq!(q[2].max(q[3]), dual.h(&mut dual.root(&geo, &p)), "{b:?}");
    }
}

/// A partition's tables and dual tables built into a fresh temporary directory.
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

/// The solver that searches with the dual search over `t`.
fn dual_solver(t: &Arc<DualTables>) -> Solver {
    Solver::with_pdb(t.pdb.clone()).with_extras(Extras {
        dual: Some(t.clone()),
        lazy: true,
        dual_search: true,
        ..Extras::default()
    })
}

/// Every 8-puzzle board, with weak partitions (two of them wall the goal's corner blank
/// off, so the goal blank's moves reach region tables; one has the blank in the middle):
/// each of the four estimates at most the distance, and the dual search's solution as
/// long as the distance and reaching the goal when replayed.
#[test]
fn the_dual_search_finds_every_8_puzzle_distance_and_never_overestimates() {
    let s = Shape::new(3, 3).unwrap();
    for (blank, text) in [
        (0, "1,3/2,4,5,6,7,8"),
        (0, "1,3,4/2,5/6,7,8"),
        (0, "2-2-2-2"),
        (4, "0,1,2,3/5,6,7,8"),
    ] {
        let partition = Partition::parse(s, blank, text).unwrap();
        let goal = if blank == 0 {
            Goal::blank_first(s)
        } else {
            common::custom(s)
        };
        let (_tmp, t) = dual_tables(&partition);
        let geo = Geometry::new(s, blank);
        let ds = DualSearch::new(&t);
        let solver = dual_solver(&t);
        let (order, dist, _) = common::bfs(&goal);
        let split = AtomicUsize::new(0);
        order.par_iter().enumerate().for_each(|(i, b)| {
            let l = goal.labels(b).unwrap();
            let p: Wide = geo.load(&l);
            let q = ds.estimates(&p, blank as usize);
            assert!(
                q.iter().all(|&e| e <= dist[b]),
                "{text} {b:?}: {q:?} > {}",
                dist[b]
            );
            if i % 5 == 0 {
                let sol = solver.solve(b, &goal, &Search::default()).unwrap();
                assert_eq!(sol.moves.len() as u32, dist[b], "{text} {b:?}");
                assert_eq!(check_solution(b, &goal, &sol.moves), Ok(dist[b] as usize));
                if q[2].max(q[3]) > q[0].max(q[1]) {
                    split.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        // The search must have started on the dual side somewhere, or it tested nothing
        // new.
        assert!(split.into_inner() > 100, "{text}: the dual side never led");
    }
}

/// The Korf 100's easiest instances with small 4x4 tables (5-5-5's first pattern walls
/// the goal's corner blank off): the known lengths, serially and on two threads, every
/// solution replayed.
#[test]
fn the_dual_search_keeps_korf_lengths_serial_and_split() {
    let s4 = Shape::new(4, 4).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let partition = Partition::parse(s4, 0, "5-5-5").unwrap();
    let (_tmp, t) = dual_tables(&partition);
    let solver = dual_solver(&t);
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    for inst in common::korf_easiest(8) {
        let len = inst.known.expect("korf100.txt gives every length");
        for search in [&Search::default(), &split] {
            let sol = solver.solve(&inst.board, &inst.goal, search).unwrap();
            assert_eq!(sol.heuristic, HeuristicKind::Pdb);
            check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
            assert_eq!(sol.moves.len() as u32, len, "instance {}", inst.id);
            assert_eq!(sol.lower_bound, len, "instance {}", inst.id);
        }
    }
}

/// A node limit stops the dual search with a lower bound no larger than the length.
#[test]
fn the_dual_search_stops_at_a_node_limit_with_a_true_bound() {
    let s4 = Shape::new(4, 4).unwrap();
    let partition = Partition::parse(s4, 0, "5-5-5").unwrap();
    let (_tmp, t) = dual_tables(&partition);
    let solver = dual_solver(&t);
    let inst = common::korf_easiest(1).remove(0);
    let search = Search {
        limits: Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        },
        ..Search::default()
    };
    match solver.solve(&inst.board, &inst.goal, &search) {
        Err(SolveError::Stopped(st)) => {
            assert_eq!(st.reason, StopReason::MaxNodes);
            assert!(st.lower_bound <= inst.known.unwrap());
            assert!(st.nodes >= 1000);
        }
        other => panic!("not stopped: {other:?}"),
    }
}
