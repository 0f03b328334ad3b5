//! The parallel search agrees with the serial one, and the incremental pattern-database
//! indices agree with indices computed from scratch.

use fifteen::instances::{GoalSpec, Reader};
use fifteen::pdb::{Partition, TableDir};
use fifteen::search::{ida_star, Geometry, Heuristic, LinearConflict, Packed, Search};
use fifteen::{Goal, Shape};

fn korf(ids: &[&str]) -> Vec<fifteen::Instance> {
    let f = std::fs::File::open(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf100.txt")).unwrap();
    Reader::new(std::io::BufReader::new(f), GoalSpec::BlankFirst)
        .map(|r| r.unwrap())
        .filter(|i| ids.contains(&i.id.as_str()))
        .collect()
}

#[test]
fn parallel_and_serial_agree_on_every_complete_iteration() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    // Korf instances that linear conflict solves in well under a second.
    for inst in korf(&["79", "12", "55", "97"]) {
        let labels = inst.goal.labels(&inst.board).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        let start = geo.load::<Packed>(&labels);
        let serial = ida_star(&geo, &LinearConflict, start, &Search::default()).unwrap();
        let split = Search {
            pool: Some(&pool),
            ..Search::default()
        };
        let par = ida_star(&geo, &LinearConflict, start, &split).unwrap();
        assert_eq!(
            serial.moves.len() as u32,
            inst.known.unwrap(),
            "instance {}",
            inst.id
        );
        assert_eq!(par.moves.len(), serial.moves.len(), "instance {}", inst.id);
        assert_eq!(
            inst.board.apply_all(&par.moves).unwrap(),
            *inst.goal.board()
        );
        let n = serial.iterations.len();
        assert_eq!(par.iterations.len(), n);
        // Every iteration but the last explores the whole tree: identical thresholds and
        // node totals. The last stops wherever the goal is first met.
        assert_eq!(
            par.iterations[..n - 1],
            serial.iterations[..n - 1],
            "instance {}",
            inst.id
        );
        assert_eq!(
            par.iterations[n - 1].threshold,
            serial.iterations[n - 1].threshold
        );
    }
}

#[test]
fn incremental_pdb_indices_match_fresh_ones() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::new(4, 4).unwrap();
    let partition = Partition::parse(shape, 0, "5-5-5").unwrap();
    let tables = TableDir::new(dir.path());
    tables.build_missing(&partition, &|_, _, _| {}).unwrap();
    let pdb = tables.read(&partition).unwrap();
    let goal = Goal::blank_first(shape);
    let labels = goal.labels(goal.board()).unwrap();
    let geo = Geometry::new(shape, labels.blank_label);
    let mut rng = fifteen::random::Rng::new(42);
    for _walk in 0..50 {
        let mut p = geo.load::<Packed>(&labels);
        let mut st = pdb.root(&geo, &p);
        for _ in 0..200 {
            let b = p.blank as usize;
            let d = rng.below(4) as usize;
            let to = geo.neighbor[b][d];
            if to == fifteen::search::NONE {
                continue;
            }
            let to = to as usize;
            let label = p.get(to);
            let x = (label as u64) ^ (geo.blank_label as u64);
            p = Packed {
                cells: p.cells ^ (x << (4 * b)) ^ (x << (4 * to)),
                blank: to as u8,
            };
            st = pdb.child(&geo, &st, &p, label, to, b);
            let mut s = st;
            let incremental = pdb.h(&mut s);
            st = s;
            let mut fresh = pdb.root(&geo, &p);
            assert_eq!(incremental, pdb.h(&mut fresh));
        }
    }
}
