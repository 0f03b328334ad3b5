//! `fifteen` as an installed tool: the binary cargo built, copied alone into a temporary
//! `bin/` (what `cargo install` does), run from empty directories with a temporary home.
//! The first 4x4 solve announces its build and where the tables go (the per-user data
//! directory, `$XDG_DATA_HOME/fifteen`); a second run from another directory finds them
//! there, builds nothing and gives the same optimal length; neither writes anything into
//! the directory it runs from, and nothing beside the binary is needed.
//!
//! The solves use `--partition 5-5-5`, whose three tables build in about a second, so that
//! the test stays fast; the default 7-8 set works the same way but takes longer.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A random board (`fifteen random --seed 3`, the third), 38 moves from the standard goal
/// (checked with the 7-8 tables), solved in milliseconds with the 5-5-5 tables.
const BOARD: &str = "1 5 4 2 11 6 9 3 13 10 8 12 7 15 14 0";

/// Installs `fifteen` into `root/bin` as `cargo install` would: the binary alone.
fn install(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = bin.join("fifteen");
    std::fs::copy(env!("CARGO_BIN_EXE_fifteen"), &exe).unwrap();
    exe
}

/// What one run of the installed binary gave.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the installed `fifteen` from `cwd`, with `home` as its whole idea of the user:
/// HOME and XDG_DATA_HOME point into it, and no FIFTEEN_TABLES.
fn run_installed(exe: &Path, cwd: &Path, home: &Path, args: &[&str]) -> Run {
    let o = Command::new(exe)
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("FIFTEEN_TABLES")
        .output()
        .expect("run the installed fifteen");
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The optimal length from `--format json` output.
fn length(run: &Run) -> u64 {
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| {
        panic!("{e}: {}{}", run.stdout, run.stderr);
    });
    assert_eq!(v["optimal"], true, "{}", run.stdout);
    assert_eq!(v["heuristic"], "pdb", "{}", run.stdout);
    v["length"].as_u64().unwrap()
}

#[test]
fn an_installed_fifteen_keeps_its_tables_in_the_user_data_directory() {
    let root = tempfile::tempdir().unwrap();
    let exe = install(root.path());
    let home = tempfile::tempdir().unwrap();
    let tables = home.path().join("data").join("fifteen");
    let args = ["solve", "--partition", "5-5-5", "--format", "json", BOARD];

    // First run, from an empty directory: the build is announced, with its place.
    let first_cwd = tempfile::tempdir().unwrap();
    let first = run_installed(&exe, first_cwd.path(), home.path(), &args);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert!(
        first
            .stderr
            .contains("building the pattern databases for 4x4 boards")
            && first
                .stderr
                .contains(&format!("into {}:", tables.display()))
            && first.stderr.contains("on disk; once"),
        "{}",
        first.stderr
    );
    let pdbs = std::fs::read_dir(&tables)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("pdb".as_ref()))
        .count();
    assert_eq!(pdbs, 3, "three 5-5-5 tables in {}", tables.display());
    let len = length(&first);
    assert_eq!(len, 38);

    // Second run, from another empty directory: the tables are found, nothing is built.
    let second_cwd = tempfile::tempdir().unwrap();
    let second = run_installed(&exe, second_cwd.path(), home.path(), &args);
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    assert!(!second.stderr.contains("building"), "{}", second.stderr);
    assert_eq!(length(&second), len);

    // Neither run left anything where it was started.
    for cwd in [&first_cwd, &second_cwd] {
        let left: Vec<_> = std::fs::read_dir(cwd.path()).unwrap().collect();
        assert!(left.is_empty(), "left in the working directory: {left:?}");
    }
}
