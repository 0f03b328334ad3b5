//! Search benchmarks: IDA* with linear conflict, IDA* with the 7-8 pattern databases (on
//! Korf 100 boards and on boards of the hard set, `data/hard4x4.txt`), the cost of mapping
//! the tables, and of the wide (5x5, 6x6) board encoding.
//!
//! Run with `cargo bench --bench search`. The pattern-database groups need the 4x4 tables in
//! `$FIFTEEN_TABLES` (or the per-user default, `~/.local/share/fifteen`); without them they are skipped with a message (build
//! them with `cargo run --release --bin build-pdb` or any `fifteen solve` / `fifteen bench`).
//!
//! Throughput is in nodes (children generated), counted by a first solve of each instance,
//! so criterion's "elem/s" is nodes per second on one thread.

use fifteen::search::Search;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fifteen::instances::Reader;
use fifteen::pdb::{Partition, PdbHeuristic, TableDir};
use fifteen::search::{ida_star, Geometry, LinearConflict, Packed, WalkingDistance, Wide};
use fifteen::{Extras, GoalSpec, HeuristicKind, Instance, Shape, Solver};

/// Korf 100 ids that IDA* with Manhattan distance alone solves with few nodes (under
/// ~1 M in Korf 1985, Table 1), so linear conflict takes milliseconds.
const LC_IDS: [&str; 5] = ["79", "12", "42", "55", "97"];
/// The first ten Korf 100 instances: from 750 to 150,000 nodes with the 7-8 tables.
const PDB_IDS: [&str; 10] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

/// Hard-set positions (`data/hard4x4.txt`) among the quickest there: 6 to 8 M nodes each
/// with the 7-8 tables, where a Korf 100 board of the same length needs about 10^5.
const HARD_IDS: [&str; 3] = ["H01", "H02", "H04"];

fn korf100() -> Vec<Instance> {
    read_instances(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt"))
}

fn hard4x4() -> Vec<Instance> {
    read_instances(concat!(env!("CARGO_MANIFEST_DIR"), "/data/hard4x4.txt"))
}

fn read_instances(path: &str) -> Vec<Instance> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    Reader::new(std::io::BufReader::new(file), GoalSpec::BlankFirst)
        .map(|r| r.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

fn pick(all: &[Instance], ids: &[&str]) -> Vec<Instance> {
    ids.iter()
        .map(|id| {
            all.iter()
                .find(|i| i.id == *id)
                .unwrap_or_else(|| panic!("no instance {id} in the instance file"))
                .clone()
        })
        .collect()
}

/// The table directory, if it holds the 4x4 7-8 tables for the blank-first goal.
fn table_dir() -> Option<(PathBuf, Partition)> {
    let dir = std::env::var_os("FIFTEEN_TABLES")
        .map(PathBuf::from)
        .or_else(fifteen::pdb::default_dir)?;
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::default_for(shape, 0);
    if TableDir::new(&dir).missing(&partition).is_empty() {
        Some((dir, partition))
    } else {
        eprintln!(
            "skipping the pattern-database benchmarks: no 4x4 7-8 tables in {} \
             (set FIFTEEN_TABLES or run `cargo run --release --bin build-pdb`)",
            dir.display()
        );
        None
    }
}

fn map_tables(dir: &PathBuf, partition: &Partition) -> Arc<PdbHeuristic> {
    // SAFETY: nothing modifies the table files while the benchmark runs.
    unsafe { TableDir::new(dir).map(partition) }.expect("tables map")
}

/// Benchmarks each instance with `solver`, throughput in nodes; each benchmark's id is
/// `set/instance`.
fn solve_group(
    c: &mut Criterion,
    name: &str,
    set: &str,
    solver: &Solver,
    instances: &[Instance],
    samples: usize,
) {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(samples)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for inst in instances {
        let first = solver
            .solve(&inst.board, &inst.goal, &Search::default())
            .expect("solves");
        assert_eq!(
            Some(first.moves.len() as u32),
            inst.known,
            "instance {}",
            inst.id
        );
        group.throughput(Throughput::Elements(first.nodes));
        group.bench_with_input(BenchmarkId::new(set, &inst.id), inst, |b, inst| {
            b.iter(|| {
                let s = solver
                    .solve(black_box(&inst.board), &inst.goal, &Search::default())
                    .unwrap();
                black_box(s.moves.len())
            })
        });
    }
    group.finish();
}

fn linear_conflict(c: &mut Criterion) {
    let instances = pick(&korf100(), &LC_IDS);
    solve_group(
        c,
        "ida_linear_conflict",
        "korf",
        &Solver::new(HeuristicKind::LinearConflict),
        &instances,
        10,
    );
}

fn pdb_7_8(c: &mut Criterion) {
    let Some((dir, partition)) = table_dir() else {
        return;
    };
    let instances = pick(&korf100(), &PDB_IDS);
    let solver = Solver::with_pdb(map_tables(&dir, &partition));
    solve_group(c, "ida_pdb_7_8", "korf", &solver, &instances, 10);
}

/// The 7-8 search on boards where its estimate is weakest (the hard set): seconds each
/// where a Korf 100 board takes milliseconds, so this is where a stronger estimate shows.
/// One thread per solve; each sample is one whole solve.
fn pdb_7_8_hard(c: &mut Criterion) {
    let Some((dir, partition)) = table_dir() else {
        return;
    };
    let instances = pick(&hard4x4(), &HARD_IDS);
    let solver = Solver::with_pdb(map_tables(&dir, &partition));
    solve_group(c, "ida_pdb_7_8_hard", "hard", &solver, &instances, 10);
}

/// Mapping the two tables (about 290 MB) and answering one lookup: milliseconds, because
/// only the headers are read; the pages come in as the search touches them.
fn mapping(c: &mut Criterion) {
    let Some((dir, partition)) = table_dir() else {
        return;
    };
    let inst = pick(&korf100(), &["1"]).remove(0);
    let mut group = c.benchmark_group("map_tables");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("map_7_8_and_estimate", |b| {
        b.iter(|| {
            let p = map_tables(&dir, &partition);
            black_box(Solver::with_pdb(p).estimate(&inst.board, &inst.goal))
        })
    });
    group.finish();
}

/// The same IDA* on 4x4 boards held one word a board ([`Packed`], what 4x4 uses) and a
/// byte a cell ([`Wide`], what 5x5 and 6x6 use): with linear conflict, and with the 7-8
/// tables when they are there.
fn packing(c: &mut Criterion) {
    let mut group = c.benchmark_group("packing");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let all = korf100();
    let pdb = table_dir().map(|(dir, partition)| map_tables(&dir, &partition));
    let runs = [("lc", &LC_IDS[..2]), ("pdb", &PDB_IDS[5..7])];
    for (name, ids) in runs {
        if name == "pdb" && pdb.is_none() {
            continue;
        }
        for inst in pick(&all, ids) {
            let labels = inst.goal.labels(&inst.board).unwrap();
            let geo = Geometry::new(labels.shape, labels.blank_label);
            let packed: Packed = geo.load(&labels);
            let wide: Wide = geo.load(&labels);
            let nodes = match &pdb {
                Some(h) if name == "pdb" => ida_star(&geo, h.as_ref(), packed, &Search::default()),
                _ => ida_star(&geo, &LinearConflict, packed, &Search::default()),
            }
            .unwrap()
            .nodes;
            group.throughput(Throughput::Elements(nodes));
            let id = |p: &str| BenchmarkId::new(format!("{name}_{p}"), &inst.id);
            match &pdb {
                Some(h) if name == "pdb" => {
                    let h = h.as_ref();
                    group.bench_function(id("packed"), |b| {
                        b.iter(|| ida_star(&geo, h, black_box(packed), &Search::default()))
                    });
                    group.bench_function(id("wide"), |b| {
                        b.iter(|| ida_star(&geo, h, black_box(wide), &Search::default()))
                    });
                }
                _ => {
                    let h = &LinearConflict;
                    group.bench_function(id("packed"), |b| {
                        b.iter(|| ida_star(&geo, h, black_box(packed), &Search::default()))
                    });
                    group.bench_function(id("wide"), |b| {
                        b.iter(|| ida_star(&geo, h, black_box(wide), &Search::default()))
                    });
                }
            }
        }
    }
    group.finish();
}

/// The heuristic study (docs/heuristic.md): the same Korf 100 instances solved with the
/// 7-8 tables alone, with walking distance, with the second partition read lazily or
/// eagerly, and with both, with the tie-break, with the dual lookups; throughput in each
/// candidate's own nodes. Needs the second
/// partition's tables beside the 7-8 ones (`fifteen bench data/korf100.txt` builds them).
fn heuristic_study(c: &mut Criterion) {
    let Some((dir, partition)) = table_dir() else {
        return;
    };
    let shape = partition.shape;
    let Some(second) = Partition::second_for(shape, partition.blank) else {
        return;
    };
    if !TableDir::new(&dir).missing(&second).is_empty() {
        eprintln!(
            "skipping heuristic_study: no second-partition tables in {}",
            dir.display()
        );
        return;
    }
    let first = map_tables(&dir, &partition);
    let second = map_tables(&dir, &second);
    let wd = Arc::new(
        WalkingDistance::new(&Geometry::new(shape, partition.blank)).expect("4x4 is small"),
    );
    let all = korf100();
    let instances = pick(&all, &["3", "8", "12", "17", "60", "82", "88"]);
    let mut candidates: Vec<(&str, Extras)> = vec![
        ("pdb", Extras::default()),
        (
            "pdb+wd",
            Extras {
                walking: Some(wd.clone()),
                lazy: true,
                ..Extras::default()
            },
        ),
        (
            "pdb+pair",
            Extras {
                second: Some(second.clone()),
                lazy: true,
                ..Extras::default()
            },
        ),
        (
            "pdb+pair+eager",
            Extras {
                second: Some(second.clone()),
                lazy: false,
                ..Extras::default()
            },
        ),
        (
            "pdb+pair+wd",
            Extras {
                second: Some(second.clone()),
                walking: Some(wd.clone()),
                lazy: true,
                ..Extras::default()
            },
        ),
        (
            "pdb+pair+lc",
            Extras {
                second: Some(second.clone()),
                lazy: true,
                tie_break: true,
                ..Extras::default()
            },
        ),
    ];
    // The dual lookups, when their extra tables are there (`build-pdb --dual`).
    let dir_tables = TableDir::new(&dir);
    if dir_tables.missing_dual(&partition).is_empty() {
        // SAFETY: nothing modifies the table files while the benchmark runs.
        let dual = Arc::new(unsafe { dir_tables.open_dual(first.clone()) }.expect("tables map"));
        for (name, second) in [("pdb+dual", None), ("pdb+pair+dual", Some(second.clone()))] {
            let extras = Extras {
                second,
                dual: Some(dual.clone()),
                lazy: true,
                ..Extras::default()
            };
            candidates.push((name, extras));
        }
    } else {
        eprintln!(
            "heuristic_study: no dual-lookup tables in {} (build-pdb --dual); without them",
            dir.display()
        );
    }
    let mut group = c.benchmark_group("heuristic_study");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    for (name, extras) in candidates {
        let solver = Solver::with_pdb(first.clone()).with_extras(extras);
        let nodes: u64 = instances
            .iter()
            .map(|i| {
                solver
                    .solve(&i.board, &i.goal, &Search::default())
                    .unwrap()
                    .nodes
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new("korf7", name), |b| {
            b.iter(|| {
                for inst in &instances {
                    let s = solver
                        .solve(black_box(&inst.board), &inst.goal, &Search::default())
                        .unwrap();
                    black_box(s.moves.len());
                }
            })
        });
    }
    group.finish();
}

// `criterion_group!` defines a public function it cannot document.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(
        benches,
        linear_conflict,
        pdb_7_8,
        pdb_7_8_hard,
        mapping,
        packing,
        heuristic_study
    );
}

criterion_main!(group::benches);
