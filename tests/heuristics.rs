//! The estimates of the heuristic study (walking distance, a second partition, their max
//! with the first tables, lazy or eager) against facts independent of them: every 8-puzzle
//! board's distance by a breadth-first search written in tests/common, and the known
//! optimal lengths of the Korf 100.

use fifteen::search::Search;
use std::sync::Arc;

use fifteen::check::check_solution;
use fifteen::pdb::Partition;
use fifteen::search::{ida_star, Geometry, Heuristic, Packed, WalkingDistance};
use fifteen::{Extras, Goal, HeuristicKind, Shape, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, korf_easiest, tables};

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

#[test]
fn walking_distance_never_overestimates_an_8_puzzle_board_and_ida_finds_every_distance() {
    for goal in [Goal::standard(shape3()), Goal::blank_first(shape3())] {
        let (order, dist, _) = bfs(&goal);
        let blank = goal.labels(goal.board()).unwrap().blank_label;
        let geo = Geometry::new(shape3(), blank);
        let wd = WalkingDistance::new(&geo).unwrap();
        let exact = std::sync::atomic::AtomicUsize::new(0);
        order.par_iter().enumerate().for_each(|(i, b)| {
            let labels = goal.labels(b).unwrap();
            let p: Packed = geo.load(&labels);
            let e = wd.h(&mut wd.root(&geo, &p));
            assert!(e <= dist[b], "{b:?}: walking distance {e} > {}", dist[b]);
            // Never below Manhattan distance: each tile crosses its rows and columns.
            assert!(e >= geo.manhattan(&p), "{b:?}");
            if e == dist[b] {
                exact.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if i % 25 == 0 {
                let found = ida_star(&geo, &wd, p, &Search::default()).unwrap();
                assert_eq!(found.moves.len() as u32, dist[b], "{b:?}");
            }
        });
        let exact = exact.into_inner();
        assert!(exact > order.len() / 100 && exact < order.len(), "{exact}");
    }
}

/// A solver with the 5-5-5 tables, a second 5-5-5 partition that is its own mirror image
/// (as the default second partition is), and walking distance.
fn study_solver(lazy: bool) -> (Vec<tempfile::TempDir>, Solver) {
    let s4 = Shape::new(4, 4).unwrap();
    let first = Partition::parse(s4, 0, "5-5-5").unwrap();
    let second = Partition::parse(s4, 0, "1,4,2,8,5/3,12,6,9,10/7,13,11,14,15").unwrap();
    let (t1, h1) = tables(&first);
    let (t2, h2) = tables(&second);
    let wd = WalkingDistance::new(&Geometry::new(s4, 0)).unwrap();
    let solver = Solver::with_pdb(h1).with_extras(Extras {
        second: Some(h2),
        walking: Some(Arc::new(wd)),
        lazy,
        tie_break: false,
        dual: None,
        dual_second: None,
        more: Vec::new(),
    });
    (vec![t1, t2], solver)
}

#[test]
fn the_max_of_small_4x4_tables_and_walking_distance_keeps_korf_lengths() {
    let (_tmp, lazy) = study_solver(true);
    let (_tmp2, eager) = study_solver(false);
    let plain = {
        let s4 = Shape::new(4, 4).unwrap();
        let (t, h) = tables(&Partition::parse(s4, 0, "5-5-5").unwrap());
        (t, Solver::with_pdb(h))
    };
    // The linear-conflict tie-break reorders children; the lengths must not change.
    let tied = plain.1.clone().with_extras(Extras {
        tie_break: true,
        ..Extras::default()
    });
    korf_easiest(25).par_iter().for_each(|inst| {
        let sol = tied
            .solve(&inst.board, &inst.goal, &Search::default())
            .unwrap();
        check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
        assert_eq!(
            Some(sol.moves.len() as u32),
            inst.known,
            "instance {}",
            inst.id
        );
        let len = inst.known.expect("korf100.txt gives every length");
        let e = lazy.estimate(&inst.board, &inst.goal);
        assert!(e <= len, "instance {}: estimate {e} > {len}", inst.id);
        assert!(e >= plain.1.estimate(&inst.board, &inst.goal));
        let mut nodes = Vec::new();
        for solver in [&lazy, &eager, &plain.1] {
            let sol = solver
                .solve(&inst.board, &inst.goal, &Search::default())
                .unwrap();
            assert_eq!(sol.heuristic, HeuristicKind::Pdb);
            check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
            assert_eq!(sol.moves.len() as u32, len, "instance {}", inst.id);
            nodes.push(sol.nodes);
        }
        // Every child the lazy search keeps, the eager one keeps too (they may differ only
        // in the cuts that pathmax makes from children's full values).
        assert!(nodes[1] <= nodes[0], "instance {}: {nodes:?}", inst.id);
    });
}

/// Partitions max'd after the second (`--study ...+more=GROUPS`): on every 8-puzzle board
/// the estimate stays at most the breadth-first distance and at least the pair's, and is
/// the largest of the four partitions' own; IDA* with all four finds the distance.
#[test]
fn more_partitions_never_overestimate_an_8_puzzle_board_and_ida_finds_every_distance() {
    let groups = [
        "1,2,3,4/5,6,7,8",
        "1,3,4,6/2,5,7,8",
        "1,2,5,7/3,4,6,8",
        "2,4,6,8/1,3,5,7",
    ];
    let parts: Vec<Partition> = groups
        .iter()
        .map(|g| Partition::parse(shape3(), 0, g).unwrap())
        .collect();
    let built: Vec<_> = parts.iter().map(tables).collect();
    let h = |k: usize| built[k].1.clone();
    let pair = Solver::with_pdb(h(0)).with_extras(Extras {
        second: Some(h(1)),
        lazy: true,
        ..Extras::default()
    });
    let four = Solver::with_pdb(h(0)).with_extras(Extras {
        second: Some(h(1)),
        more: vec![h(2), h(3)],
        lazy: true,
        ..Extras::default()
    });
    let goal = Goal::blank_first(shape3());
    let (order, dist, _) = bfs(&goal);
    let frame = four.frame(goal.board(), &goal).unwrap();
    let want = groups.join("+");
    assert_eq!(frame.partition.as_deref(), Some(want.as_str()));
    let geo = Geometry::new(shape3(), 0);
    let above = std::sync::atomic::AtomicUsize::new(0);
    order.par_iter().enumerate().for_each(|(i, b)| {
        let e = four.estimate(b, &goal);
        let e2 = pair.estimate(b, &goal);
        assert!(e <= dist[b], "{b:?}: {e} > {}", dist[b]);
        let labels = goal.labels(b).unwrap();
        let p: Packed = geo.load(&labels);
        let each = (0..4).map(|k| h(k).evaluate(&geo, &p)).max().unwrap();
        assert_eq!(e, each, "{b:?}");
        assert!(e >= e2, "{b:?}");
        if e > e2 {
            above.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if i % 40 == 0 {
            let sol = four.solve(b, &goal, &Search::default()).unwrap();
            check_solution(b, &goal, &sol.moves).unwrap();
            assert_eq!(sol.moves.len() as u32, dist[b], "{b:?}");
        }
    });
    // The two further partitions see what the pair does not on some boards.
    assert!(above.into_inner() > 0);
}

/// The transpose of a 4x4 board in the blank-first goal's frame (labels are goal cells, so
/// a tile's label is transposed with its cell), written here from coordinates.
fn transposed(b: &fifteen::Board) -> fifteen::Board {
    let t = |c: usize| (c % 4) * 4 + c / 4;
    let mut out = [0u8; 16];
    for (c, &tile) in b.tiles().iter().enumerate() {
        out[t(c)] = t(tile as usize) as u8;
    }
    fifteen::Board::new(b.shape(), &out).unwrap()
}

/// A partition that the transpose maps onto itself (the study's small second partition,
/// like the 4x4 default second one) is searched without the mirror lookup, because the sum
/// for the transposed board is the same sum, board for board: checked here on random walks
/// of every length. The 5-5-5 row blocks are not their own mirror image: for them the two
/// sums differ, and the lookup stays.
#[test]
fn a_partition_that_is_its_own_mirror_image_skips_the_mirror_lookup_and_loses_nothing() {
    use fifteen::random::{random_walk, Rng};
    let s4 = Shape::new(4, 4).unwrap();
    let goal = Goal::blank_first(s4);
    let geo = Geometry::new(s4, 0);
    let own = Partition::parse(s4, 0, "1,4,2,8,5/3,12,6,9,10/7,13,11,14,15").unwrap();
    let rows = Partition::parse(s4, 0, "5-5-5").unwrap();
    let (_t1, own) = tables(&own);
    let (_t2, mut rows) = tables(&rows);
    assert!(!own.use_mirror, "its own mirror image: no mirror lookup");
    assert!(rows.use_mirror, "row blocks: the mirror lookup stays");
    Arc::get_mut(&mut rows).unwrap().use_mirror = false;
    let sum = |h: &fifteen::pdb::PdbHeuristic, b: &fifteen::Board| {
        h.evaluate(&geo, &geo.load::<Packed>(&goal.labels(b).unwrap()))
    };
    let mut rng = Rng::new(2026);
    let mut differ = 0;
    for i in 0..20_000 {
        let b = random_walk(&mut rng, &goal, 1 + i % 120);
        let m = transposed(&b);
        assert!(
            goal.labels(&m).is_ok(),
            "{b:?}: the transpose is solvable too"
        );
        assert_eq!(sum(&own, &b), sum(&own, &m), "{b:?}");
        if sum(&rows, &b) != sum(&rows, &m) {
            differ += 1;
        }
    }
    assert!(
        differ > 1000,
        "row blocks differ from their mirror on {differ} boards"
    );
}

/// The linear-conflict tie-break only reorders children: every 7th 8-puzzle board, both
/// goals, gets its breadth-first distance with it.
#[test]
fn the_linear_conflict_tie_break_keeps_every_8_puzzle_distance() {
    use fifteen::search::{Manhattan, TieBreak};
    for goal in [Goal::standard(shape3()), Goal::blank_first(shape3())] {
        let (order, dist, _) = bfs(&goal);
        let blank = goal.labels(goal.board()).unwrap().blank_label;
        let geo = Geometry::new(shape3(), blank);
        let h = TieBreak(Manhattan);
        order.par_iter().step_by(7).for_each(|b| {
            let p: Packed = geo.load(&goal.labels(b).unwrap());
            let found = ida_star(&geo, &h, p, &Search::default()).unwrap();
            assert_eq!(found.moves.len() as u32, dist[b], "{b:?}");
        });
    }
}
