//! The dual search (`fifteen::pdb::DualSearch`, DIDA*) against facts independent of it:
//! the distance of every 8-puzzle board by the breadth-first search of tests/common, its
//! estimates against the plain and dual lookups it reads, and replayed solutions.

use std::sync::Arc;

use fifteen::pdb::{Dual, DualSearch, DualTables, Partition, Patterns, TableDir};
use fifteen::search::{Geometry, Heuristic, Wide};
use fifteen::{Goal, Shape};

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
