//! Helpers shared by several test files: an independent breadth-first search, temporary
//! pattern-database tables, the easiest Korf instances, and running the binary.
#![allow(dead_code)]

pub mod slurm;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use fifteen::instances::Reader;
use fifteen::pdb::{Partition, PdbHeuristic, TableDir};
use fifteen::{Board, Dir, Goal, GoalSpec, Instance, Shape};

/// Every board reachable from `goal`, with its distance, by plain BFS over `Board::apply`
/// (none of the library's search code). Returns (boards in BFS order, distance of each
/// board, layer sizes).
pub fn bfs(goal: &Goal) -> (Vec<Board>, HashMap<Board, u32>, Vec<u64>) {
    bfs_within(goal, u32::MAX)
}

/// [`bfs`] stopped at `radius` moves: exact distances of every board that close to the goal.
pub fn bfs_within(goal: &Goal, radius: u32) -> (Vec<Board>, HashMap<Board, u32>, Vec<u64>) {
    let start = *goal.board();
    let mut dist = HashMap::new();
    let mut order = vec![start];
    dist.insert(start, 0u32);
    let mut layers = vec![1u64];
    let mut q = VecDeque::from([start]);
    while let Some(b) = q.pop_front() {
        let d = dist[&b];
        if d == radius {
            continue;
        }
        for dir in Dir::ALL {
            if let Some(nb) = b.apply(dir) {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(nb) {
                    e.insert(d + 1);
                    if layers.len() <= d as usize + 1 {
                        layers.push(0);
                    }
                    layers[d as usize + 1] += 1;
                    order.push(nb);
                    q.push_back(nb);
                }
            }
        }
    }
    (order, dist, layers)
}

/// Builds `partition`'s tables into a fresh temporary directory and reads them back.
pub fn tables(partition: &Partition) -> (tempfile::TempDir, Arc<PdbHeuristic>) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = TableDir::new(tmp.path());
    dir.build_missing(partition, &|_, _, _| {}).unwrap();
    assert!(dir.missing(partition).is_empty());
    let h = dir.read(partition).unwrap();
    (tmp, h)
}

/// The `n` Korf 100 instances (data/korf100.txt, with their known lengths) that Korf's 1985
/// IDA* needed the fewest nodes for: cheap to solve even with linear conflict.
pub fn korf_easiest(n: usize) -> Vec<Instance> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(root.join("data/korf100.txt")).unwrap();
    let instances: Vec<Instance> = Reader::new(BufReader::new(file), GoalSpec::Standard)
        .map(|r| r.unwrap())
        .collect();
    // Easiest by Korf's 1985 node counts (column 5 of the fixture), an independent order.
    let text =
        std::fs::read_to_string(root.join("tests/fixtures/korf100_korf1985_md_nodes.txt")).unwrap();
    let mut rows: Vec<(u64, String)> = text
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c[4].parse().unwrap(), c[0].to_string())
        })
        .collect();
    rows.sort();
    rows[..n]
        .iter()
        .map(|(_, id)| instances.iter().find(|i| &i.id == id).unwrap().clone())
        .collect()
}

/// What a run of the `fifteen` binary gave.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `fifteen` with `args` and optional stdin, never against the repository's tables.
pub fn run(args: &[&str], stdin: Option<&str>) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fifteen"));
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env(
            "FIFTEEN_TABLES",
            "/dev/null/fifteen-tests-must-not-build-here",
        )
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("run fifteen");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let text = text.to_string();
        // Write from a thread: a large input must not deadlock against a full stdout.
        std::thread::spawn(move || pipe.write_all(text.as_bytes()));
    }
    let out = child.wait_with_output().unwrap();
    Out {
        code: out.status.code().expect("exited normally"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// Parses JSON Lines output, one value a line.
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The blank in the middle row and column (rounded down), the tiles in reverse order.
pub fn custom(s: Shape) -> Goal {
    let n = s.cells();
    let mid = (s.rows as usize / 2) * s.cols as usize + s.cols as usize / 2;
    let mut tiles: Vec<u8> = (1..n as u8).rev().collect();
    tiles.insert(mid, 0);
    Goal::from_board(Board::new(s, &tiles).unwrap())
}

/// The goal kinds the size tests cover: standard, blank-first and [`custom`].
pub fn goals(s: Shape) -> [Goal; 3] {
    [Goal::standard(s), Goal::blank_first(s), custom(s)]
}

/// The `build-pdb` binary of this checkout, built by cargo with this test.
pub fn build_pdb() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_build-pdb"))
}

/// The option that keeps a 4x4 run from building tables: linear conflict, no tables.
pub const LC: &str = "--heuristic=linear-conflict";

/// `fifteen solve --heuristic=linear-conflict ARGS...`, with optional stdin.
pub fn solve_lc(args: &[&str], stdin: Option<&str>) -> Out {
    let mut all = vec!["solve", LC];
    all.extend_from_slice(args);
    run(&all, stdin)
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Waits until the child has its own handlers for SIGINT and SIGTERM (the `SigCgt` mask
/// of `/proc/PID/status`), so that a test's signal meets the command's stop and not the
/// default action that kills it. Exact where a sleep only guesses how long a start takes;
/// fails the test after a minute. Linux only, as the tests that send signals are.
pub fn await_signal_handlers(child: &std::process::Child) {
    let status = format!("/proc/{}/status", child.id());
    let wanted = (1u64 << (libc::SIGINT - 1)) | (1u64 << (libc::SIGTERM - 1));
    let caught = || {
        let text = std::fs::read_to_string(&status).ok()?;
        let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
        u64::from_str_radix(mask.trim(), 16).ok()
    };
    let t0 = std::time::Instant::now();
    while caught().is_none_or(|m| m & wanted != wanted) {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(60),
            "{status}: no handlers for SIGINT and SIGTERM after a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Waits until the child has used `cpu` of processor time (user and system, from
/// `/proc/PID/stat`): a sign that it is past its start and at work (a search under way)
/// that does not depend on how loaded the machine is, as a sleep's wall time does. Fails
/// the test after a minute.
pub fn await_cpu_time(child: &std::process::Child, cpu: std::time::Duration) {
    let stat = format!("/proc/{}/stat", child.id());
    // SAFETY: sysconf has no preconditions.
    let ticks_a_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let used = || {
        let text = std::fs::read_to_string(&stat).ok()?;
        // The fields after the command's name, which is in parentheses and may hold spaces:
        // utime and stime are the 14th and 15th of the line, the 12th and 13th after it.
        let rest = &text[text.rfind(')')? + 2..];
        let mut fields = rest.split(' ').skip(11);
        let utime: u64 = fields.next()?.parse().ok()?;
        let stime: u64 = fields.next()?.parse().ok()?;
        Some(std::time::Duration::from_millis(
            (utime + stime) * 1000 / ticks_a_second,
        ))
    };
    let t0 = std::time::Instant::now();
    while used().is_none_or(|u| u < cpu) {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(60),
            "{stat}: less than {cpu:?} of processor time after a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Starts the command with SIGINT, SIGHUP and SIGTERM at their default actions, whatever
/// the test process inherited: a suite started under `nohup`, or in the background by a
/// non-interactive shell, has SIGHUP or SIGINT ignored, and an ignored signal stays ignored
/// across `exec` (a shell script cannot even trap it, and `fifteen` rightly leaves a
/// SIGHUP ignored by `nohup` alone). Tests that send those signals want them heard.
pub fn with_default_signals(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: signal(2) is async-signal-safe, as code between fork and exec must be.
    unsafe {
        command.pre_exec(|| {
            for s in [libc::SIGINT, libc::SIGHUP, libc::SIGTERM] {
                if libc::signal(s, libc::SIG_DFL) == libc::SIG_ERR {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        })
    }
}

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// [`run`] beside a FIFO the command must not wait on: a command still running after 30 s
/// (blocked opening `fifo` for a writer that never comes) is let go, by opening the FIFO
/// for writing, and the test fails.
pub fn run_beside_fifo(args: &[&str], fifo: &Path) -> Out {
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = {
        let (done, fifo) = (done.clone(), fifo.to_path_buf());
        std::thread::spawn(move || {
            let t0 = std::time::Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if t0.elapsed() > std::time::Duration::from_secs(30) {
                    // Let the command go, so that the suite does not hang.
                    let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
                    return true;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            false
        })
    };
    let out = run(args, None);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(
        !watch.join().unwrap(),
        "{args:?} waited on the FIFO {}: {}",
        fifo.display(),
        out.stderr
    );
    out
}
