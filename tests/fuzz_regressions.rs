//! Every input a fuzz target ever crashed on (fuzz/regressions/<target>/), replayed through
//! the same checks the targets run (fuzz/src/checks.rs), in a normal `cargo test`.

#[path = "../fuzz/src/checks.rs"]
mod checks;

use std::path::Path;

/// Runs `check` on each file of fuzz/regressions/`target`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut n = 0;
    // A target that never crashed has no directory (git keeps no empty ones).
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        eprintln!("{}", path.display());
        check(&std::fs::read(&path).unwrap());
        n += 1;
    }
    n
}

#[test]
fn board_crash_inputs() {
    assert!(replay("board", checks::board) > 0);
}

#[test]
fn instances_crash_inputs() {
    replay("instances", checks::instances);
}

#[test]
fn table_crash_inputs() {
    replay("table", checks::table);
}

/// The seeds the targets start from pass too (they are sound inputs, so this exercises the
/// round trips on accepted inputs, not only the refusals).
#[test]
fn seeds_pass() {
    for (target, check) in [
        ("board", checks::board as fn(&[u8])),
        ("instances", checks::instances),
        ("table", checks::table),
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds")
            .join(target);
        for entry in std::fs::read_dir(&dir).unwrap() {
            check(&std::fs::read(entry.unwrap().path()).unwrap());
        }
    }
}
