//! Optimality against independent facts: a breadth-first search of the whole 8-puzzle
//! written here (not the library's), the Korf 100 lengths from the data files, and an
//! independent 0-1 BFS over pattern placements to pin the table builder's layer counts.

use fifteen::search::Search;
use std::collections::{HashMap, VecDeque};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use fifteen::check::check_solution;
use fifteen::instances::Reader;
use fifteen::pdb::{self, Partition, PatternSpec, TableDir};
use fifteen::random::{random_walk, Rng};

use fifteen::{Board, Dir, Goal, GoalSpec, HeuristicKind, Instance, Shape, Solver};
use rayon::prelude::*;

mod common;
use common::{bfs, tables};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shape3() -> Shape {
    Shape::new(3, 3).unwrap()
}

fn shape4() -> Shape {
    Shape::new(4, 4).unwrap()
}

fn solve(solver: &Solver, board: &Board, goal: &Goal) -> Vec<Dir> {
    let sol = solver
        .solve(board, goal, &Search::default())
        .unwrap_or_else(|e| panic!("{board:?}: {e}"));
    check_solution(board, goal, &sol.moves).unwrap_or_else(|e| panic!("{board:?}: {e}"));
    sol.moves
}

#[test]
fn bfs_8_puzzle_layers() {
    let goal = Goal::standard(shape3());
    let (order, dist, layers) = bfs(&goal);
    assert_eq!(order.len(), 181_440);
    assert_eq!(dist.len(), 181_440);
    assert_eq!(layers.iter().sum::<u64>(), 181_440);
    // Well known facts of the 8-puzzle: the diameter is 31, reached by exactly 2 boards.
    assert_eq!(layers.len(), 32);
    assert_eq!(layers[31], 2);
    for (d, &n) in layers.iter().enumerate() {
        assert_eq!(
            n,
            dist.values().filter(|&&x| x as usize == d).count() as u64
        );
    }
    // Every reachable board is solvable for the goal and every other board is not.
    for b in &order {
        assert!(goal.labels(b).is_ok());
    }
}

#[test]
fn every_8_puzzle_board_linear_conflict() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = bfs(&goal);
    let solver = Solver::new(HeuristicKind::LinearConflict);
    order.par_iter().for_each(|b| {
        let moves = solve(&solver, b, &goal);
        assert_eq!(moves.len() as u32, dist[b], "{b:?}");
        assert!(solver.estimate(b, &goal) <= dist[b], "{b:?}");
    });
}

#[test]
fn every_50th_8_puzzle_board_manhattan() {
    let goal = Goal::standard(shape3());
    let (order, dist, _) = bfs(&goal);
    let solver = Solver::new(HeuristicKind::Manhattan);
    let sample: Vec<&Board> = order.iter().step_by(50).collect();
    assert!(sample.len() > 3000);
    sample.par_iter().for_each(|b| {
        let moves = solve(&solver, b, &goal);
        assert_eq!(moves.len() as u32, dist[*b], "{b:?}");
    });
}

#[test]
fn every_8_puzzle_board_exact_pdb_both_goals() {
    // The standard goal has its blank in cell 8; tables are built for cell 0 and serve it
    // through a symmetry. The blank-first goal uses them directly.
    let partition = Partition::default_for(shape3(), pdb::canonical_blank(shape3(), 8));
    assert_eq!(partition.blank, 0);
    let (_tmp, h) = tables(&partition);
    let solver = Solver::with_pdb(h);
    for goal in [Goal::standard(shape3()), Goal::blank_first(shape3())] {
        let (order, dist, _) = bfs(&goal);
        assert_eq!(order.len(), 181_440);
        order.par_iter().for_each(|b| {
            // An exact table: the estimate is the distance itself.
            assert_eq!(solver.estimate(b, &goal), dist[b], "{b:?}");
            let sol = solver.solve(b, &goal, &Search::default()).unwrap();
            assert_eq!(sol.heuristic, HeuristicKind::Pdb);
            check_solution(b, &goal, &sol.moves).unwrap();
            assert_eq!(sol.moves.len() as u32, dist[b], "{b:?}");
        });
    }
}

#[test]
fn every_8_puzzle_board_4_4_pdb_admissible_and_optimal() {
    let partition = Partition::parse(shape3(), 0, "4-4").unwrap();
    let (_tmp, h) = tables(&partition);
    let solver = Solver::with_pdb(h);
    let goal = Goal::standard(shape3());
    let (order, dist, _) = bfs(&goal);
    let exact = std::sync::atomic::AtomicUsize::new(0);
    order.par_iter().for_each(|b| {
        let e = solver.estimate(b, &goal);
        assert!(e <= dist[b], "{b:?}: estimate {e} > distance {}", dist[b]);
        assert_eq!(e % 2, dist[b] % 2, "{b:?}: estimate parity");
        if e == dist[b] {
            exact.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    // Not an exact heuristic, but not a trivial one either.
    let exact = exact.into_inner();
    assert!(exact < order.len() && exact > order.len() / 10, "{exact}");
    order.par_iter().step_by(10).for_each(|b| {
        let moves = solve(&solver, b, &goal);
        assert_eq!(moves.len() as u32, dist[b], "{b:?}");
    });
}

// ---------------------------------------------------------------------------------------
// The Korf 100.

struct Korf {
    instances: Vec<Instance>,
    /// Ids ordered by Korf's 1985 IDA*+Manhattan node counts, easiest first.
    by_nodes: Vec<String>,
    /// Optimal length of each id, from the node-count file.
    lengths: HashMap<String, u32>,
}

fn korf() -> Korf {
    let path = manifest().join("data/korf100.txt");
    let file = std::fs::File::open(&path).unwrap();
    let instances: Vec<Instance> = Reader::new(BufReader::new(file), GoalSpec::Standard)
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(instances.len(), 100);

    // A copy of /work/shared/data/korf100_korf1985_md_nodes.txt (Korf 1985, Table 1).
    let text =
        std::fs::read_to_string(manifest().join("tests/fixtures/korf100_korf1985_md_nodes.txt"))
            .unwrap();
    let mut rows: Vec<(u64, String)> = Vec::new();
    let mut lengths = HashMap::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols.len(), 5, "{line}");
        lengths.insert(cols[0].to_string(), cols[1].parse().unwrap());
        rows.push((cols[4].parse().unwrap(), cols[0].to_string()));
    }
    assert_eq!(rows.len(), 100);
    rows.sort();
    Korf {
        instances,
        by_nodes: rows.into_iter().map(|(_, id)| id).collect(),
        lengths,
    }
}

impl Korf {
    fn easiest(&self, n: usize) -> Vec<&Instance> {
        self.by_nodes[..n]
            .iter()
            .map(|id| self.instances.iter().find(|i| &i.id == id).unwrap())
            .collect()
    }
}

#[test]
fn korf100_files_agree() {
    let k = korf();
    for inst in &k.instances {
        assert_eq!(inst.goal, Goal::blank_first(shape4()));
        assert_eq!(
            inst.known,
            Some(k.lengths[&inst.id]),
            "instance {}",
            inst.id
        );
    }
    let sum: u32 = k.instances.iter().map(|i| i.known.unwrap()).sum();
    assert_eq!(sum, 5305);
    // Manhattan distance (the h_md_computed column) as the library computes it.
    let text =
        std::fs::read_to_string(manifest().join("tests/fixtures/korf100_korf1985_md_nodes.txt"))
            .unwrap();
    let md = Solver::new(HeuristicKind::Manhattan);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let inst = k.instances.iter().find(|i| i.id == cols[0]).unwrap();
        assert_eq!(
            md.estimate(&inst.board, &inst.goal),
            cols[3].parse::<u32>().unwrap()
        );
    }
}

#[test]
fn korf100_easiest_15_linear_conflict() {
    let k = korf();
    let solver = Solver::new(HeuristicKind::LinearConflict);
    let easy = k.easiest(15);
    easy.par_iter().for_each(|inst| {
        let moves = solve(&solver, &inst.board, &inst.goal);
        assert_eq!(
            moves.len() as u32,
            k.lengths[&inst.id],
            "instance {}",
            inst.id
        );
    });
}

#[test]
fn korf100_easiest_30_pdb_5_5_5() {
    let partition = Partition::parse(shape4(), 0, "5-5-5").unwrap();
    let (_tmp, h) = tables(&partition);
    let solver = Solver::with_pdb(h);
    let lc = Solver::new(HeuristicKind::LinearConflict);
    let k = korf();
    let easy = k.easiest(30);
    easy.par_iter().enumerate().for_each(|(i, inst)| {
        let known = k.lengths[&inst.id];
        let sol = solver
            .solve(&inst.board, &inst.goal, &Search::default())
            .unwrap();
        assert_eq!(sol.heuristic, HeuristicKind::Pdb);
        check_solution(&inst.board, &inst.goal, &sol.moves).unwrap();
        assert_eq!(sol.moves.len() as u32, known, "instance {}", inst.id);
        assert!(solver.estimate(&inst.board, &inst.goal) <= known);
        if i < 8 {
            assert_eq!(solve(&lc, &inst.board, &inst.goal).len() as u32, known);
        }
    });
    // The same boards for the standard goal (blank in cell 15, served by symmetry): the
    // optimal length of a board is that of its 180-degree rotation with tiles renamed, so
    // rotate each instance and rename tile t to 15 - t... which maps the blank-first goal
    // onto `15 14 ... 1 0`; renaming t -> (16 - t) % 16 afterwards gives `1 2 ... 15 0`.
    let standard = Goal::standard(shape4());
    easy.par_iter().take(10).for_each(|inst| {
        let t = inst.board.tiles();
        let rotated: Vec<u8> = (0..16).map(|c| t[15 - c]).collect();
        let renamed: Vec<u8> = rotated
            .iter()
            .map(|&x| if x == 0 { 0 } else { 16 - x })
            .collect();
        let b = Board::new(shape4(), &renamed).unwrap();
        // Check the mapping on the goal itself.
        let g = Goal::blank_first(shape4());
        let gt = g.board().tiles();
        let gmap: Vec<u8> = (0..16)
            .map(|c| gt[15 - c])
            .map(|x| if x == 0 { 0 } else { 16 - x })
            .collect();
        assert_eq!(gmap, standard.board().tiles());
        let sol = solver.solve(&b, &standard, &Search::default()).unwrap();
        assert_eq!(sol.heuristic, HeuristicKind::Pdb);
        check_solution(&b, &standard, &sol.moves).unwrap();
        assert_eq!(
            sol.moves.len() as u32,
            k.lengths[&inst.id],
            "instance {}",
            inst.id
        );
    });
}

#[test]
fn pdb_5_5_5_admissible_on_random_walks() {
    let partition = Partition::parse(shape4(), 0, "5-5-5").unwrap();
    let (_tmp, h) = tables(&partition);
    let solver = Solver::with_pdb(h);
    let mut rng = Rng::new(12345);
    for (i, goal) in [Goal::blank_first(shape4()), Goal::standard(shape4())]
        .iter()
        .enumerate()
    {
        for j in 0..1000 {
            let k = (j % 90) + i;
            let b = random_walk(&mut rng, goal, k);
            let e = solver.estimate(&b, goal);
            assert!(e as usize <= k, "{b:?}: estimate {e} > walk length {k}");
            assert_eq!(e as usize % 2, k % 2, "{b:?}: parity");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The table builder's BFS layers, against independent searches.

#[test]
fn exact_3x3_table_layers_match_bfs() {
    let spec = PatternSpec {
        shape: shape3(),
        blank: 0,
        tiles: (1..9).collect(),
    };
    let built = pdb::build(&spec, &|_| {}).unwrap();
    let (_, dist, layers) = bfs(&Goal::blank_first(shape3()));
    assert_eq!(built.layers, layers);
    assert_eq!(built.clamped, 0);
    // Each reachable placement's entry is its distance: Manhattan plus twice the nibble.
    let ranker = fifteen::rank::Ranker::new(9, 8);
    for (b, &d) in &dist {
        let mut pos = [0u8; 8];
        for (cell, &t) in b.tiles().iter().enumerate() {
            if t != 0 {
                pos[t as usize - 1] = cell as u8;
            }
        }
        let idx = ranker.rank(&pos) as usize;
        let v = (built.payload[idx / 2] >> (4 * (idx & 1))) & 15;
        let md: u32 = (1..9)
            .map(|t| shape3().distance(pos[t - 1] as usize, t))
            .sum::<usize>() as u32;
        assert_eq!(md + 2 * v as u32, d, "{b:?}");
    }
}

/// 0-1 BFS over (cells of the pattern's tiles, blank cell) on a 4x4 board: the blank moves
/// freely over cells the pattern leaves free (cost 0 when it swaps with a non-pattern
/// tile, cost 1 when a pattern tile moves). Returns, per placement key, the least cost, and
/// the largest cost of any (placement, blank) state.
fn pattern_bfs(tiles: &[u8], goal_blank: usize) -> (HashMap<u64, u32>, u32) {
    let shape = shape4();
    let k = tiles.len();
    let key = |pos: &[u8], blank: usize| -> u64 {
        pos.iter().fold(0u64, |acc, &p| acc << 4 | p as u64) << 4 | blank as u64
    };
    let size = 1usize << (4 * (k + 1));
    let mut dist = vec![u8::MAX; size];
    let mut dq: VecDeque<(u64, u8)> = VecDeque::new();
    let start = key(tiles, goal_blank);
    dist[start as usize] = 0;
    dq.push_back((start, 0));
    while let Some((s, d)) = dq.pop_front() {
        if dist[s as usize] < d {
            continue;
        }
        let blank = (s & 15) as usize;
        let mut pos = vec![0u8; k];
        for i in 0..k {
            pos[i] = ((s >> (4 * (k - i))) & 15) as u8;
        }
        for dir in Dir::ALL {
            let Some(to) = shape.step(blank, dir) else {
                continue;
            };
            let (np, cost) = match pos.iter().position(|&p| p as usize == to) {
                Some(i) => {
                    let mut np = pos.clone();
                    np[i] = blank as u8;
                    (np, 1)
                }
                None => (pos.clone(), 0),
            };
            let ns = key(&np, to) as usize;
            let nd = d + cost;
            if nd < dist[ns] {
                dist[ns] = nd;
                if cost == 0 {
                    dq.push_front((ns as u64, nd));
                } else {
                    dq.push_back((ns as u64, nd));
                }
            }
        }
    }
    let mut best: HashMap<u64, u32> = HashMap::new();
    let mut deepest = 0;
    for (s, &d) in dist.iter().enumerate() {
        if d != u8::MAX {
            deepest = deepest.max(d as u32);
            let e = best.entry(s as u64 >> 4).or_insert(u32::MAX);
            *e = (*e).min(d as u32);
        }
    }
    (best, deepest)
}

#[test]
fn five_tile_4x4_table_layers_match_0_1_bfs() {
    let tiles: Vec<u8> = vec![1, 2, 3, 4, 5];
    let spec = PatternSpec {
        shape: shape4(),
        blank: 0,
        tiles: tiles.clone(),
    };
    let built = pdb::build(&spec, &|_| {}).unwrap();
    let (best, deepest) = pattern_bfs(&tiles, 0);
    // Every placement of 5 tiles on 16 cells is reachable: 16!/11!.
    assert_eq!(best.len(), 524_160);
    // The builder records one layer per depth of its search over (placement, blank
    // region) states; the deepest such states may bring no placement that is new (here
    // depth 25 holds only placements already reached at 24 with the blank elsewhere).
    let depth = deepest as usize;
    assert!(*best.values().max().unwrap() <= deepest);
    let mut layers = vec![0u64; depth + 1];
    for &d in best.values() {
        layers[d as usize] += 1;
    }
    assert_eq!(built.layers, layers);
    assert_eq!(built.layers.iter().sum::<u64>(), 524_160);
    // And each entry, unpacked, is that least cost.
    let ranker = fifteen::rank::Ranker::new(16, 5);
    for (&key, &d) in &best {
        let pos: Vec<u8> = (0..5)
            .map(|i| ((key >> (4 * (4 - i))) & 15) as u8)
            .collect();
        let idx = ranker.rank(&pos) as usize;
        let v = (built.payload[idx / 2] >> (4 * (idx & 1))) & 15;
        let md: u32 = (0..5)
            .map(|i| shape4().distance(pos[i] as usize, tiles[i] as usize) as u32)
            .sum();
        assert_eq!(md + 2 * v as u32, d, "{pos:?}");
    }
}

#[test]
fn pdb_tables_are_found_for_their_files() {
    // The helper directory really contains the files the partition names.
    let partition = Partition::parse(shape4(), 0, "5-5-5").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    assert_eq!(dir.missing(&partition).len(), 3);
    dir.build_missing(&partition, &|_, _, _| {}).unwrap();
    for spec in partition.specs() {
        let p: &Path = &dir.path(&spec);
        assert!(p.is_file(), "{}", p.display());
    }
    // Mapped and read tables give the same estimates.
    // SAFETY: the files live in our own temporary directory and are not modified.
    let mapped = unsafe { dir.map(&partition) }.unwrap();
    let read = dir.read(&partition).unwrap();
    let (a, b) = (Solver::with_pdb(mapped), Solver::with_pdb(read));
    let goal = Goal::blank_first(shape4());
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let board = fifteen::random::random_board(&mut rng, &goal);
        assert_eq!(a.estimate(&board, &goal), b.estimate(&board, &goal));
    }
}
