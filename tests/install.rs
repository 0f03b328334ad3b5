//! `fifteen` as an installed tool: a fresh `cargo install` into a temporary root, run from
//! empty directories with a temporary home. The first 4x4 solve announces its build and
//! where the tables go (the per-user data directory, `$XDG_DATA_HOME/fifteen`); a second
//! run from another directory finds them there, builds nothing and gives the same optimal
//! length; neither writes anything into the directory it runs from.
//!
//! The solves use `--partition 5-5-5`, whose three tables build in about a second, so that
//! the test stays fast; the default 7-8 set works the same way but takes two minutes.
//! `cargo install` shares this run's target directory (and `--locked`, the lock file), so
//! it reuses what `cargo test` compiled rather than building everything again.
//! If cargo cannot install here (no network for a dependency, say), the test says
//! "skipped" on stderr, and fails under `CI`, where it must run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A random board (`fifteen random --seed 3`, the third), 38 moves from the standard goal
/// (checked with the 7-8 tables), solved in milliseconds with the 5-5-5 tables.
const BOARD: &str = "1 5 4 2 11 6 9 3 13 10 8 12 7 15 14 0";

/// The target directory this test binary was built in, from the `fifteen` binary's path
/// (`<target>/<profile>/fifteen`), as tests/common's `build_pdb()` finds it.
fn target_dir() -> PathBuf {
    let fifteen = Path::new(env!("CARGO_BIN_EXE_fifteen"));
    fifteen.parent().unwrap().parent().unwrap().to_path_buf()
}

/// Installs `fifteen` into `root`; `Err` with cargo's message when it cannot.
fn cargo_install(root: &Path) -> Result<(), String> {
    let mut last = String::new();
    // Offline first (no network needed when the registry cache holds every dependency),
    // then online.
    for offline in [true, false] {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["install", "--locked", "--quiet", "--path"])
            .arg(env!("CARGO_MANIFEST_DIR"))
            .arg("--root")
            .arg(root)
            .arg("--target-dir")
            .arg(target_dir());
        if offline {
            cmd.arg("--offline");
        }
        match cmd.output() {
            Ok(o) if o.status.success() => return Ok(()),
            Ok(o) => last = String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => last = format!("cannot run cargo: {e}"),
        }
    }
    Err(last)
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
    if let Err(why) = cargo_install(root.path()) {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI: cargo install failed: {why}"
        );
        eprintln!("skipped: cargo install cannot run here: {why}");
        return;
    }
    let exe = root.path().join("bin").join("fifteen");
    assert!(exe.is_file(), "{} not installed", exe.display());
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
