//! Tests of the split search and its books (src/search/parallel.rs).

use super::*;
use crate::board::{Board, Goal, Shape};
use crate::search::{ida_star, LinearConflict, Packed};

/// Korf's instance 20 (52 moves, about 2 M nodes under linear conflict).
const BOARD: [u8; 16] = [6, 12, 11, 3, 13, 7, 9, 15, 2, 14, 8, 10, 4, 1, 5, 0];

/// The search's frame for `tiles` (a square board) and `goal`, and a pool of two threads.
fn two_threads(tiles: &[u8], goal: fn(Shape) -> Goal) -> (Geometry, Packed, rayon::ThreadPool) {
    let side = (tiles.len() as f64).sqrt() as usize;
    let shape = Shape::new(side, side).unwrap();
    let board = Board::new(shape, tiles).unwrap();
    let labels = goal(shape).labels(&board).unwrap();
    let geo = Geometry::new(labels.shape, labels.blank_label);
    let start = geo.load::<Packed>(&labels);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    (geo, start, pool)
}

/// A pool of one thread: the split search's books on the serial order.
fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

/// A search stopped again and again (its node limit raised by a step each run) and
/// resumed from its books each time finds the answer of a search that never stopped,
/// counting the same nodes in every iteration: the subtrees a stop caught partway are
/// resumed where they were, not searched again, so the work spent over all the runs
/// exceeds the straight search's by little more than the tops of the iterations
/// searched again.
#[test]
fn a_search_stopped_anywhere_resumes_where_it_stopped() {
    let (geo, start, _) = two_threads(&BOARD, Goal::blank_first);
    let one = one_thread();
    let lc = LinearConflict;
    fn kept<'a>(pool: &'a rayon::ThreadPool, books: &'a Mutex<Books>) -> Search<'a> {
        Search {
            pool: Some(pool),
            checkpoint: Some(Checkpointing {
                books,
                save: &|_: &Books| {},
                every: std::time::Duration::ZERO,
            }),
            ..Search::default()
        }
    }
    let straight_books = Mutex::new(Books::default());
    let straight = ida_star(&geo, &lc, start, &kept(&one, &straight_books)).unwrap();
    for step in [30_011, 123_457] {
        let books = Mutex::new(Books::default());
        let (mut runs, mut caught) = (0, 0);
        // A search that re-searched what a stop caught would need more runs (or, each
        // run's budget smaller than a subtree, never end).
        let most = 2 * straight.nodes / step + 2;
        let found = loop {
            runs += 1;
            assert!(runs <= most, "no answer after {most} runs of {step} nodes");
            let mut search = kept(&one, &books);
            search.limits.max_nodes = Some(runs * step);
            match ida_star(&geo, &lc, start, &search) {
                Ok(found) => break found,
                Err(SearchError::Stopped(s)) => {
                    assert!(s.nodes >= runs * step, "{} < {}", s.nodes, runs * step);
                    caught += books.lock().unwrap().partial.len();
                }
                Err(e) => panic!("run {runs}: {e}"),
            }
        };
        let spent = books.lock().unwrap().spent;
        eprintln!(
            "step {step}: {runs} runs, {caught} subtrees caught partway, {spent} nodes spent for {}",
            straight.nodes
        );
        assert_eq!(found.moves, straight.moves);
        assert_eq!(found.iterations, straight.iterations);
        assert_eq!(found.nodes, straight.nodes);
        assert!(
            caught + 1 >= runs as usize,
            "{caught} caught in {runs} runs"
        );
        assert!(
            spent < straight.nodes + straight.nodes / 20,
            "{spent} spent"
        );
    }
}

/// The same on two threads, where a stop catches two subtrees: every finished
/// iteration counts the straight search's nodes, and the answer is as long.
#[test]
fn a_search_on_two_threads_stopped_anywhere_resumes_where_it_stopped() {
    let (geo, start, pool) = two_threads(&BOARD, Goal::blank_first);
    let lc = LinearConflict;
    let straight = ida_star(&geo, &lc, start, &Search::default()).unwrap();
    let books = Mutex::new(Books::default());
    let (mut runs, mut caught) = (0u64, 0);
    let found = loop {
        runs += 1;
        assert!(runs <= 200, "no answer after 200 runs");
        let search = Search {
            pool: Some(&pool),
            checkpoint: Some(Checkpointing {
                books: &books,
                save: &|_: &Books| {},
                every: std::time::Duration::ZERO,
            }),
            limits: Limits {
                max_nodes: Some(runs * 40_009),
                ..Limits::default()
            },
            ..Search::default()
        };
        match ida_star(&geo, &lc, start, &search) {
            Ok(found) => break found,
            Err(SearchError::Stopped(_)) => caught += books.lock().unwrap().partial.len(),
            Err(e) => panic!("run {runs}: {e}"),
        }
    };
    let n = straight.iterations.len();
    assert_eq!(found.moves.len(), straight.moves.len());
    assert_eq!(found.iterations[..n - 1], straight.iterations[..n - 1]);
    assert!(caught >= runs as usize, "{caught} caught in {runs} runs");
}

/// Books whose stop point is not in the tree (edited, or another search's) are refused
/// and not saved again.
#[test]
fn a_stop_point_off_the_tree_is_refused() {
    let (geo, start, pool) = two_threads(&BOARD, Goal::blank_first);
    let lc = LinearConflict;
    let books = Mutex::new(Books::default());
    let saves = AtomicUsize::new(0);
    let save = |_: &Books| {
        saves.fetch_add(1, Ordering::Relaxed);
    };
    let search = |max_nodes| Search {
        pool: Some(&pool),
        checkpoint: Some(Checkpointing {
            books: &books,
            save: &save,
            every: std::time::Duration::ZERO,
        }),
        limits: Limits {
            max_nodes: Some(max_nodes),
            ..Limits::default()
        },
        ..Search::default()
    };
    assert!(matches!(
        ida_star(&geo, &lc, start, &search(500_000)),
        Err(SearchError::Stopped(_))
    ));
    let (index, at) = {
        let b = books.lock().unwrap();
        let p = b.partial.first().expect("a subtree caught partway");
        (p.index, p.at.clone())
    };
    for bad in [format!("{at}UUUUUUUUUUUU"), "LX".into(), format!("{at}UD")] {
        let mut edited = books.lock().unwrap().clone();
        edited.partial[0].at = bad.clone();
        *books.lock().unwrap() = edited.clone();
        let before = saves.load(Ordering::Relaxed);
        match ida_star(&geo, &lc, start, &search(u64::MAX)) {
            Err(SearchError::Mismatch(m)) => {
                assert_eq!(m.lost, Some(index), "{bad}");
                assert!(m
                    .to_string()
                    .contains("stopped at a node this search does not reach"));
            }
            other => panic!("{bad}: {other:?}"),
        }
        assert_eq!(saves.load(Ordering::Relaxed), before, "{bad}");
        assert_eq!(books.lock().unwrap().partial, edited.partial, "{bad}");
    }
}

#[test]
fn the_parallel_search_counts_the_serial_nodes_until_the_last_iteration() {
    let (geo, start, pool) = two_threads(&[8, 6, 7, 2, 5, 4, 3, 0, 1], Goal::standard);
    let lc = LinearConflict;
    let serial = ida_star(&geo, &lc, start, &Search::default()).unwrap();
    let split = Search {
        pool: Some(&pool),
        ..Search::default()
    };
    let par = ida_star(&geo, &lc, start, &split).unwrap();
    assert_eq!(par.moves.len(), 31);
    assert_eq!(par.lower_bound, 31);
    let n = serial.iterations.len();
    assert_eq!(par.iterations.len(), n);
    assert_eq!(par.iterations[..n - 1], serial.iterations[..n - 1]);
}

/// Subtrees cut by slack are of a size: in every long iteration the largest holds a
/// small share of the nodes, which bounds what a stop loses (the subtrees under way).
/// Cut at one depth, the first, most promising subtrees held much of it: on this board,
/// under linear conflict, 12% of the iteration under 48 (26,042 of 212,796 nodes,
/// against 5,609 by slack), and half of the 24-puzzle's last iteration (see [`Split`]).
#[test]
fn no_subtree_of_a_split_holds_much_of_its_iteration() {
    let (geo, start, pool) = two_threads(&BOARD, Goal::blank_first);
    // The largest subtree of each iteration, as the books saw it before it closed.
    let largest = Mutex::new(std::collections::HashMap::<u32, u64>::new());
    let save = |b: &Books| {
        let most = b.done.iter().map(|d| d.nodes).max().unwrap_or(0);
        let mut l = largest.lock().unwrap();
        let e = l.entry(b.threshold).or_default();
        *e = (*e).max(most);
    };
    let books = Mutex::new(Books::default());
    let c = Checkpointing {
        books: &books,
        save: &save,
        every: std::time::Duration::ZERO,
    };
    let search = Search {
        pool: Some(&pool),
        checkpoint: Some(c),
        ..Search::default()
    };
    let found = ida_star(&geo, &LinearConflict, start, &search).unwrap();
    let largest = largest.into_inner().unwrap();
    let mut before = 0;
    let mut long = 0;
    for it in &found.iterations[..found.iterations.len() - 1] {
        let nodes = it.nodes - before;
        before = it.nodes;
        if nodes < 200_000 {
            continue;
        }
        long += 1;
        let most = largest[&it.threshold];
        eprintln!(
            "threshold {}: {nodes} nodes, largest subtree {most}",
            it.threshold
        );
        assert!(
            most * 10 <= nodes,
            "threshold {}: a subtree of {most} of {nodes} nodes",
            it.threshold
        );
    }
    assert!(long >= 2, "{:?}", found.iterations);
}

/// A caller's own pool, with searches split on another pool inside its `par_iter`: each
/// wait for the other pool must not run the caller's next board on the same stack. Counted
/// here as how many boards one thread had under way at once; nested hundreds deep, they
/// overflowed an 8-puzzle test's stack in CI.
#[test]
fn a_search_split_from_another_pools_worker_does_not_nest_that_pools_work() {
    use rayon::prelude::*;
    use std::cell::Cell;
    thread_local!(static UNDER_WAY: Cell<usize> = const { Cell::new(0) });
    let split = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let callers = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let deepest = AtomicUsize::new(0);
    callers.install(|| {
        (0..400).into_par_iter().for_each(|_| {
            let now = UNDER_WAY.with(|u| {
                u.set(u.get() + 1);
                u.get()
            });
            deepest.fetch_max(now, Ordering::Relaxed);
            let items: Vec<u64> = (0..4).collect();
            let out = each_in_order(&split, &items, |&i| {
                std::thread::sleep(std::time::Duration::from_micros(200));
                i * 2
            });
            assert_eq!(out, vec![0, 2, 4, 6]);
            UNDER_WAY.with(|u| u.set(u.get() - 1));
        });
    });
    assert_eq!(deepest.load(Ordering::Relaxed), 1);
}

/// No save holds every iteration done and none under way: a kill just after it, or a
/// failed save of the answer, left books that a rerun took for a search not started, and
/// searched every iteration again, counting each twice. Books saved that way by earlier
/// versions resume with the iteration that found the answer, at the straight run's count.
#[test]
fn no_save_closes_the_last_iteration_without_its_answer() {
    let (geo, start, _) = two_threads(&BOARD, Goal::blank_first);
    let one = one_thread();
    let lc = LinearConflict;
    let books = Mutex::new(Books::default());
    let saved: Mutex<Vec<Books>> = Mutex::new(Vec::new());
    let save = |b: &Books| saved.lock().unwrap().push(b.clone());
    let search = |books| Search {
        pool: Some(&one),
        checkpoint: Some(Checkpointing {
            books,
            save: &save,
            every: std::time::Duration::ZERO,
        }),
        ..Search::default()
    };
    let straight = ida_star(&geo, &lc, start, &search(&books)).unwrap();
    let saves = saved.lock().unwrap().clone();
    assert!(
        saves.len() > straight.iterations.len(),
        "{} saves",
        saves.len()
    );
    for b in &saves {
        assert_ne!(b.threshold, 0, "a save with no iteration under way: {b:?}");
    }
    // The books the search ends with, as earlier versions saved them before the answer.
    let closed = books.lock().unwrap().clone();
    assert_eq!(closed.threshold, 0);
    assert_eq!(closed.iterations, straight.iterations);
    *books.lock().unwrap() = closed;
    let again = ida_star(&geo, &lc, start, &search(&books)).unwrap();
    assert_eq!(again.moves, straight.moves);
    assert_eq!(again.iterations, straight.iterations);
    assert_eq!(again.nodes, straight.nodes);
    let last = straight.iterations.last().unwrap();
    let before = straight.iterations[straight.iterations.len() - 2].nodes;
    let spent = books.lock().unwrap().spent;
    let first_run = saves.last().unwrap().spent;
    // The iteration's nodes, and its top searched again as a stop's rerun searches it.
    assert!(
        spent - first_run <= (last.nodes - before) * 11 / 10,
        "the rerun spent {} nodes, the last iteration takes {}",
        spent - first_run,
        last.nodes - before
    );
}
