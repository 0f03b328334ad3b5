//! Hostile cases for issue 22, classes 3 to 6: concurrent writers, failures that must keep
//! what is done, Ctrl-C and SIGTERM everywhere, and resource limits. Every case runs the
//! real binaries in scratch directories, on 3x3, 3x4 and small 4x4 tables (never the
//! per-user tables directory), and sends real signals, sets real limits (`setrlimit` in
//! the child; as `nobody` for the process limit, which root is exempt from) and fills real
//! (tmpfs) disks. A case that cannot run here says "SKIPPED" and fails under `CI=true`.
//!
//! Waiting is by event (a line printed, a file appearing), never by the clock; the only
//! durations are guards that fail a case instead of hanging the suite.

#[path = "common/limits.rs"]
mod limits;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use fifteen::pdb::{Built, Partition, Table};
use fifteen::Shape;
use limits::*;

/// How long a command may take to end after a signal before the case fails: the promise
/// is a second; this only keeps a broken build from hanging the suite.
const GUARD: Duration = Duration::from_secs(15);

/// A 3x4 board with its instance line (`size: 3x4` first), drawn by `fifteen random`.
fn board_3x4(seed: u64) -> String {
    let o = run(fifteen().args(["random", "--size", "3x4", "--seed", &seed.to_string()]));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    o.stdout.lines().last().unwrap().to_string()
}

/// The optimal length of a 3x4 board by the Manhattan estimate (no tables): the reference
/// the runs with tables are held to.
fn reference_3x4(board: &str) -> u64 {
    let o = run(fifteen().args([
        "solve",
        "--size",
        "3x4",
        "--heuristic",
        "manhattan",
        "--format",
        "json",
        board,
    ]));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    length(&o.stdout)
}

/// The `length` of the one JSON result in `stdout`.
fn length(stdout: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect(stdout);
    v["length"].as_u64().expect(stdout)
}

/// Every table of the default 3x4 partition in `dir` reads back whole (header, length,
/// checksum).
fn assert_3x4_tables_sound(dir: &Path) {
    let partition = Partition::default_for(Shape::new(3, 4).unwrap(), 0);
    for spec in partition.specs() {
        let path = dir.join(spec.file_name());
        Table::read(&path, &spec).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// No temporary or partial file is left in `dir`.
fn assert_no_leftovers(dir: &Path) {
    let left: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".tmp") || n.contains(".tmp") || n.ends_with(".partial"))
        .collect();
    assert!(
        left.is_empty(),
        "left behind in {}: {left:?}",
        dir.display()
    );
}

// ---------------------------------------------------------------------------------------
// Class 3: concurrent writers exclude each other (a lock that dies with its holder), or
// each finish correctly; never a broken file reported as success.
// ---------------------------------------------------------------------------------------

/// Three first runs at once on an empty tables directory (each would build the tables on
/// first use): all give the optimal answer, and the directory ends with whole tables and
/// no temporary file.
#[test]
fn concurrent_first_runs_build_one_sound_set_of_tables() {
    let tables = tempfile::tempdir().unwrap();
    let board = board_3x4(11);
    let want = reference_3x4(&board);
    let children: Vec<Child> = (0..3)
        .map(|_| {
            fifteen()
                .args(["solve", "--size", "3x4", "--format", "json", "--tables"])
                .arg(tables.path())
                .arg(&board)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{stderr}");
        assert_eq!(
            length(&String::from_utf8_lossy(&o.stdout)),
            want,
            "{stderr}"
        );
    }
    assert_3x4_tables_sound(tables.path());
    assert_no_leftovers(tables.path());
}

/// A process that holds `dir`'s build lock (`flock(1)` on the directory, as
/// `TableDir::lock_builds` takes it) until killed; `None` (said) when this machine cannot
/// run one.
fn hold_build_lock(dir: &Path) -> Option<Child> {
    // The shell takes the lock on its descriptor 9 and becomes `sleep`, which keeps it:
    // killing that one process is the holder's death.
    let holder = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec 9<\"$0\" && flock 9 && echo locked && exec sleep 600")
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut holder) = holder else {
        skipped("cannot run sh");
        return None;
    };
    let said = lines(holder.stdout.take().unwrap());
    if said.recv_timeout(Duration::from_secs(60)).is_err() {
        let _ = holder.kill();
        skipped("flock(1) is not installed");
        return None;
    }
    Some(holder)
}

/// `build-pdb --size 3x4 --out DIR` started, its stderr read line by line.
fn start_build_3x4(dir: &Path) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut build = build_pdb()
        .args(["--size", "3x4", "--threads", "1", "--out"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = lines(build.stderr.take().unwrap());
    (build, err)
}

/// A process holding the table directory's build lock (here `flock(1)`) makes a build
/// wait, and say so; once the holder dies (SIGKILL: no clean-up of its own), the lock is
/// gone and the build completes.
#[test]
fn a_build_waits_for_the_lock_holder_and_goes_on_when_it_dies() {
    let tables = tempfile::tempdir().unwrap();
    let Some(mut holder) = hold_build_lock(tables.path()) else {
        return;
    };
    let (mut build, err) = start_build_3x4(tables.path());
    let seen = await_line(&err, "waiting: another process is building tables");
    assert!(
        !names(tables.path()).iter().any(|n| n.ends_with(".pdb")),
        "built while another held the lock: {seen:?}"
    );
    holder.kill().unwrap();
    holder.wait().unwrap();
    let status = wait(&mut build, Duration::from_secs(120));
    assert_eq!(status.code(), Some(0));
    assert_3x4_tables_sound(tables.path());
}

/// A build that waited while the lock's holder built the tables builds none again, and
/// says so rather than "done" as if it had.
#[test]
fn a_build_that_waited_for_another_says_that_one_built_the_tables() {
    let built = tempfile::tempdir().unwrap();
    build_3x4(built.path());
    let tables = tempfile::tempdir().unwrap();
    let Some(mut holder) = hold_build_lock(tables.path()) else {
        return;
    };
    let (mut build, err) = start_build_3x4(tables.path());
    await_line(&err, "waiting: another process is building tables");
    // The holder "builds": the finished tables appear while it holds the lock.
    for name in names(built.path()) {
        std::fs::copy(built.path().join(&name), tables.path().join(&name)).unwrap();
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
    let seen = await_line(&err, "done in");
    assert!(
        seen.last()
            .unwrap()
            .ends_with("another process built them meanwhile, none built here"),
        "{seen:?}"
    );
    assert_eq!(wait(&mut build, Duration::from_secs(120)).code(), Some(0));
    assert_3x4_tables_sound(tables.path());
}

/// `solve --output FILE` while another process holds FILE's lock is refused with the
/// reason, and writes nothing; with the lock gone, the same command runs.
#[test]
fn a_results_file_in_use_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.jsonl");
    let held = std::fs::File::create(&out).unwrap();
    held.lock().unwrap();
    let o = run(fifteen()
        .args(["solve", "--heuristic", "manhattan", "--output"])
        .arg(&out)
        .arg("8 6 7 2 5 4 3 0 1"));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(
        o.stderr.contains("being written by another fifteen"),
        "{}",
        o.stderr
    );
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 0);
    drop(held);
    let o = once_the_lock_is_gone("being written by another fifteen", || {
        run(fifteen()
            .args(["solve", "--heuristic", "manhattan", "--output"])
            .arg(&out)
            .arg("8 6 7 2 5 4 3 0 1"))
    });
    assert_eq!(o.code, Some(0), "{o:?}");
}

/// Runs `command` until it succeeds, each failure refused for `refusal`, for up to 20 s:
/// for a command run once a test has dropped a lock it held. Another test's child, forked
/// but not yet exec'd, may hold a copy of the lock's descriptor, and so the lock, for a
/// moment: the lock is gone once every copy is.
fn once_the_lock_is_gone(refusal: &str, mut command: impl FnMut() -> Out) -> Out {
    let t0 = std::time::Instant::now();
    loop {
        let o = command();
        if o.code == Some(0) {
            return o;
        }
        assert!(o.stderr.contains(refusal), "{o:?}");
        assert!(t0.elapsed() < Duration::from_secs(20), "{o:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Two results files of one sharded batch, solved here.
fn two_shards(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let boards = dir.join("boards.txt");
    let o = run(fifteen().args(["random", "--size", "3", "--count", "6", "--seed", "5"]));
    std::fs::write(&boards, o.stdout).unwrap();
    let part = |k: u32| {
        let p = dir.join(format!("part{k}.jsonl"));
        let o = run(fifteen()
            .args(["solve", "--shard", &format!("{k}/2"), "-i"])
            .arg(&boards)
            .arg("--output")
            .arg(&p));
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        p
    };
    (part(1), part(2))
}

/// A second `merge -o FILE` while one is writing FILE (it holds FILE.partial's lock) is
/// refused, and leaves no FILE; once the first is gone, the merge runs.
#[test]
fn a_second_merge_into_one_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = two_shards(dir.path());
    let out = dir.path().join("merged.jsonl");
    let partial = dir.path().join("merged.jsonl.partial");
    let held = std::fs::File::create(&partial).unwrap();
    held.lock().unwrap();
    let o = run(fifteen().arg("merge").arg(&p1).arg(&p2).arg("-o").arg(&out));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(
        o.stderr.contains("another fifteen merge is writing"),
        "{}",
        o.stderr
    );
    assert!(!out.exists());
    drop(held);
    once_the_lock_is_gone("another fifteen merge is writing", || {
        run(fifteen().arg("merge").arg(&p1).arg(&p2).arg("-o").arg(&out))
    });
    let o = run(fifteen().arg("check").arg(&out));
    assert_eq!(o.code, Some(0), "{o:?}");
}

/// Two `solve --checkpoint FILE` at once on one board both finish with the optimal
/// answer (each save replaces the file whole, by rename), and the file they leave is
/// sound: a third run prints the answer from it without searching.
#[test]
fn two_checkpointed_runs_on_one_file_both_finish_correctly() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    build_3x4(&tables);
    let ck = dir.path().join("ck.json");
    let board = board_3x4(7);
    let want = reference_3x4(&board);
    let spawn = || {
        fifteen()
            .args(["solve", "--size", "3x4", "--format", "json", "--tables"])
            .arg(&tables)
            .arg("--checkpoint")
            .arg(&ck)
            .arg(&board)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    for c in [a, b] {
        let o = c.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{stderr}");
        assert_eq!(
            length(&String::from_utf8_lossy(&o.stdout)),
            want,
            "{stderr}"
        );
    }
    let o = run(fifteen()
        .args(["solve", "--size", "3x4", "--format", "json", "--tables"])
        .arg(&tables)
        .arg("--checkpoint")
        .arg(&ck)
        .arg(&board));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stderr.contains("already solved"), "{}", o.stderr);
    assert_eq!(length(&o.stdout), want);
    assert_no_leftovers(dir.path());
}

// ---------------------------------------------------------------------------------------
// Class 4: failures keep what is done.
// ---------------------------------------------------------------------------------------

/// A checkpoint on a full disk: the search runs, its answer is printed (optimal, as the
/// reference says), and the failed save is said with the reason, first as a warning
/// before the search, then as an error: exit status 2, since a failed write is never 0.
#[test]
fn a_checkpoint_that_cannot_be_saved_keeps_the_answer() {
    let Some(fs) = Tmpfs::mount("64k") else {
        return;
    };
    let tables = tempfile::tempdir().unwrap();
    build_3x4(tables.path());
    let board = board_3x4(3);
    let want = reference_3x4(&board);
    fs.fill();
    let o = run(fifteen()
        .args(["solve", "--size", "3x4", "--format", "json", "--tables"])
        .arg(tables.path())
        .arg("--checkpoint")
        .arg(fs.path().join("ck.json"))
        .arg(&board));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert_eq!(length(&o.stdout), want);
    assert!(
        o.stderr
            .contains("error: the checkpoint could not be saved"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
    // Said before the search, not only after it.
    let first = o.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("warning: ") && first.contains("cannot write a checkpoint there"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    // No save ever worked: the warning must not point at a file that is not there.
    assert!(!fs.path().join("ck.json").exists());
    assert!(
        o.stderr.contains("no save worked") && !o.stderr.contains("holds the last save"),
        "{}",
        o.stderr
    );
    // What to do fits why: space can be freed on a full disk.
    assert!(
        first.ends_with("free some space or give another path"),
        "{first}"
    );
    // A batch says it once an instance (before its search), then the error.
    let input = tables.path().join("batch.txt");
    let boards: Vec<String> = (4..7).map(board_3x4).collect();
    std::fs::write(&input, format!("size: 3x4\n{}\n", boards.join("\n"))).unwrap();
    let o = run(fifteen()
        .args(["bench", "--format", "json", "--tables"])
        .arg(tables.path())
        .arg("--checkpoints")
        .arg(fs.path().join("ck"))
        .arg(&input));
    assert_eq!(o.code, Some(2), "{o:?}");
    let warnings = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .count();
    assert_eq!(warnings, 3, "{}", o.stderr);
    assert!(o
        .stderr
        .contains("error: the checkpoints of 3 instances could not be saved"));
    // A directory that is not there: no space to free.
    let o = run(fifteen()
        .args(["solve", "--size", "3x4", "--format", "json", "--tables"])
        .arg(tables.path())
        .arg("--checkpoint")
        .arg(tables.path().join("no-such-dir/ck.json"))
        .arg(&board));
    assert_eq!(o.code, Some(2), "{o:?}");
    let first = o.stderr.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("give a path in a directory you can write to"),
        "{first}"
    );
}

/// A checkpointed search stopped (Ctrl-C or SIGTERM) when no save could be written: a
/// failed write first, exit status 2, never the 130 or 143 a job script takes for "saved,
/// resume later".
#[test]
fn a_stop_that_could_not_save_is_a_failed_write() {
    let Some(fs) = Tmpfs::mount("64k") else {
        return;
    };
    fs.fill();
    let hard = "15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0";
    let input = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(input.path(), format!("goal: korf\n{hard}\n")).unwrap();
    let input = input.path().to_str().unwrap();
    // One board with --checkpoint FILE, and a batch with --checkpoints DIR.
    let one = ["solve", "--checkpoint", "ck.json", "--goal", "korf", hard];
    let batch = ["bench", "--checkpoints", "ck", input];
    for (sig, _) in SIGNALS {
        for args in [&one[..], &batch[..]] {
            let mut child = fifteen()
                .current_dir(fs.path())
                .args(args)
                .args(["--heuristic", "manhattan", "--threads", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let err = lines(child.stderr.take().unwrap());
            await_line(&err, "cannot write a checkpoint there");
            signal(&child, sig);
            let status = wait(&mut child, GUARD);
            let rest: Vec<String> = err.iter().collect();
            assert_eq!(status.code(), Some(2), "{args:?}, signal {sig}: {rest:?}");
            assert!(
                rest.iter().any(|l| l.contains("could not be saved")),
                "{rest:?}"
            );
        }
    }
}

/// A complete results file on a read-only file system is checked against the input as
/// anywhere (it needs no write); one with records still to add, or a new one, is refused
/// with the reason, exit status 2.
#[test]
fn a_complete_results_file_that_cannot_be_written_is_still_checked() {
    let Some(fs) = Tmpfs::mount("1m") else {
        return;
    };
    let input = fs.path().join("boards.txt");
    std::fs::write(
        &input,
        "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 0 7 8\n1 2 3 4 5 6 7 0 8\n",
    )
    .unwrap();
    let solve = |output: &str, shard: Option<&str>| {
        let mut cmd = fifteen();
        cmd.args(["solve", "--heuristic", "linear-conflict", "-i"])
            .arg(&input)
            .arg("-o")
            .arg(fs.path().join(output));
        if let Some(k) = shard {
            cmd.args(["--shard", k]);
        }
        run(&mut cmd)
    };
    assert_eq!(solve("all.jsonl", None).code, Some(0));
    assert_eq!(solve("part.jsonl", Some("1/2")).code, Some(0));
    // Shard 1 of 2 cut to its header and first record: a record still to add.
    let part = std::fs::read_to_string(fs.path().join("part.jsonl")).unwrap();
    let cut: Vec<&str> = part.lines().take(2).collect();
    std::fs::write(fs.path().join("part.jsonl"), cut.join("\n") + "\n").unwrap();
    let before = std::fs::read(fs.path().join("all.jsonl")).unwrap();
    fs.read_only();
    let o = solve("all.jsonl", None);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("complete: 3 results, 0 of them from this run"),
        "{}",
        o.stderr
    );
    assert_eq!(std::fs::read(fs.path().join("all.jsonl")).unwrap(), before);
    for (output, shard) in [("part.jsonl", Some("1/2")), ("new.jsonl", None)] {
        let o = solve(output, shard);
        assert_eq!(o.code, Some(2), "{output}: {}", o.stderr);
        assert!(o.stderr.contains("Read-only file system"), "{}", o.stderr);
    }
}

/// `build-pdb --force` on a disk with no room for a second copy of a table fails with the
/// reason, and leaves the old tables as they were, byte for byte, and no temporary file.
#[test]
fn force_on_a_full_disk_keeps_the_old_tables() {
    // The 3x4 tables take 388 kB; the larger one (337 kB) cannot be written beside them.
    let Some(fs) = Tmpfs::mount("512k") else {
        return;
    };
    let dir = fs.path().join("tables");
    build_3x4(&dir);
    let before: Vec<Vec<u8>> = names(&dir)
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    let o = run(build_pdb()
        .args(["--size", "3x4", "--threads", "1", "--force", "--out"])
        .arg(&dir));
    assert_eq!(o.code, Some(1), "{o:?}");
    assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
    let after: Vec<Vec<u8>> = names(&dir)
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    assert!(before == after, "the old tables changed");
    assert_3x4_tables_sound(&dir);
    assert_no_leftovers(&dir);
}

/// `build-pdb --force` killed (SIGKILL: nothing of its own runs) at two moments, while a
/// new table is being written beside the old one and just after the first was replaced:
/// every table of the set is whole each time, and a solve with them is optimal.
#[test]
fn force_killed_midway_leaves_a_usable_set() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path();
    let partition = Partition::parse(Shape::new(4, 4).unwrap(), 0, "6-6-3").unwrap();
    let args = [
        "--size",
        "4",
        "--partition",
        "6-6-3",
        "--threads",
        "1",
        "-q",
    ];
    let o = run(build_pdb().args(args).arg("--out").arg(tables));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let first = tables.join(partition.specs()[0].file_name());
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    // Moment 1: a temporary file beside the old tables. Moment 2: the first table renamed.
    for moment in [1, 2] {
        let old = inode(&first);
        let mut child = build_pdb()
            .args(args)
            .arg("--force")
            .arg("--out")
            .arg(tables)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let hit = loop {
            let reached = match moment {
                1 => names(tables).iter().any(|n| n.ends_with(".tmp")),
                _ => inode(&first) != old,
            };
            if reached {
                child.kill().unwrap();
                break true;
            }
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            std::thread::sleep(Duration::from_micros(200));
        };
        child.wait().unwrap();
        assert!(hit, "the rebuild ended before moment {moment} was seen");
        for spec in partition.specs() {
            let path = tables.join(spec.file_name());
            Table::read(&path, &spec).unwrap_or_else(|e| panic!("moment {moment}: {e}"));
        }
        let o = run(fifteen()
            .args([
                "solve",
                "--partition",
                "6-6-3",
                "--format",
                "json",
                "--tables",
            ])
            .arg(tables)
            .arg("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"));
        let m = run(fifteen().args([
            "solve",
            "--heuristic",
            "manhattan",
            "--format",
            "json",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ]));
        assert_eq!(o.code, Some(0), "{}", o.stderr);
        assert_eq!(length(&o.stdout), length(&m.stdout));
    }
}

/// A disk that fills during a checkpointed search: the first save that fails is said at
/// once, while the search goes on (a kill before its end would lose the work since the
/// last save that worked, with no word), not only when the search ends.
#[test]
fn a_checkpoint_save_that_fails_mid_search_is_said_at_once() {
    let Some(fs) = Tmpfs::mount("64k") else {
        return;
    };
    let ck = fs.path().join("ck.json");
    // Korf 100 instance 88 (65 moves) with linear conflict alone: minutes of search,
    // saved at each iteration's end and every half second.
    let mut child = fifteen()
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .args(["--goal", "blank-first", "--checkpoint"])
        .arg(&ck)
        .arg("15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let errors = lines(child.stderr.take().unwrap());
    let t0 = std::time::Instant::now();
    while !ck.exists() {
        assert!(child.try_wait().unwrap().is_none(), "ended before a save");
        assert!(t0.elapsed() < Duration::from_secs(60), "no first save");
        std::thread::sleep(Duration::from_millis(10));
    }
    fs.fill();
    let seen = await_line(&errors, "the checkpoint could not be saved");
    assert!(
        child.try_wait().unwrap().is_none(),
        "said only at the end: {seen:?}"
    );
    let said = seen.last().unwrap();
    assert!(
        said.starts_with("warning: ")
            && said.contains("No space left on device")
            && said.contains("holds the last save that worked")
            && said.contains("the search goes on"),
        "{said}"
    );
    signal(&child, libc::SIGTERM);
    let status = wait(&mut child, Duration::from_secs(60));
    // The stop's own save failed too: a failed write, 2, not 143.
    assert_eq!(status.code(), Some(2));
}

/// A merge onto a full disk fails with the reason and leaves neither the output nor its
/// partial file.
#[test]
fn a_merge_onto_a_full_disk_leaves_nothing_that_looks_done() {
    let Some(fs) = Tmpfs::mount("64k") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = two_shards(dir.path());
    fs.fill();
    let out = fs.path().join("merged.jsonl");
    let o = run(fifteen().arg("merge").arg(&p1).arg(&p2).arg("-o").arg(&out));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(o.stderr.contains("No space left on device"), "{}", o.stderr);
    assert!(!out.exists());
    assert_no_leftovers(fs.path());
}

// ---------------------------------------------------------------------------------------
// Class 5: every long command stops on SIGINT (130) and SIGTERM (143), each sent for real
// to the spawned process once it is under way.
// ---------------------------------------------------------------------------------------

/// The exit statuses the two signals must give.
const SIGNALS: [(i32, i32); 2] = [(libc::SIGINT, 130), (libc::SIGTERM, 143)];

/// `random` with the largest count stops on both signals; every line it printed is a
/// whole board.
#[test]
fn random_with_a_huge_count_stops_on_both_signals() {
    for (sig, code) in SIGNALS {
        let mut child = fifteen()
            .args(["random", "--size", "3", "--count", &u64::MAX.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = lines(child.stdout.take().unwrap());
        out.recv_timeout(Duration::from_secs(60)).unwrap();
        signal(&child, sig);
        let status = wait(&mut child, GUARD);
        assert_eq!(status.code(), Some(code), "signal {sig}");
        let rest: Vec<String> = out.iter().collect();
        for line in &rest {
            assert_eq!(
                line.split_whitespace().count(),
                9,
                "a broken line: {line:?}"
            );
        }
    }
}

/// `solve` and `check` reading input that stays open, after a first answer: both stop
/// on both signals, the answer printed before stays.
#[test]
fn solve_and_check_on_open_input_stop_on_both_signals() {
    let result = run(fifteen().args(["solve", "--format", "json", "8 6 7 2 5 4 3 0 1"]));
    assert_eq!(result.code, Some(0));
    for (sig, code) in SIGNALS {
        for (cmd, line, answer) in [
            ("solve", "8 6 7 2 5 4 3 0 1", "length"),
            ("check", result.stdout.trim(), "ok"),
        ] {
            let mut child = fifteen()
                .args([cmd, "-"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "{line}").unwrap();
            let out = lines(child.stdout.take().unwrap());
            await_line(&out, answer);
            signal(&child, sig);
            let status = wait(&mut child, GUARD);
            assert_eq!(status.code(), Some(code), "{cmd}, signal {sig}");
            drop(stdin);
        }
    }
}

/// `bench` waiting on a file that never comes (a named pipe no one opens for writing: the
/// command blocks in its open) stops on both signals. `merge` does not wait: it refuses
/// the pipe at once, since it reads each part twice, and leaves no output.
#[test]
fn bench_of_a_file_that_never_comes_stops_on_both_signals_and_merge_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string for the path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (sig, code) in SIGNALS {
        let mut child = fifteen()
            .arg("bench")
            .arg(&fifo)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        await_threads(&child, 2);
        signal(&child, sig);
        let status = wait(&mut child, GUARD);
        assert_eq!(status.code(), Some(code), "signal {sig}");
    }
    let out = dir.path().join("merged.jsonl");
    let mut child = fifteen()
        .arg("merge")
        .arg(&fifo)
        .arg("-o")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = wait(&mut child, GUARD);
    assert_eq!(status.code(), Some(2), "merge of a named pipe");
    assert!(!out.exists());
}

/// `merge -o FILE` stopped on either signal while it writes `FILE.partial` (a merge of
/// 100,000 records takes a second or two) exits 130 or 143 and leaves neither `FILE` nor
/// `FILE.partial`: the start of a merge must not lie about as if it were one.
#[test]
fn a_merge_stopped_while_writing_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("boards.txt");
    let o = run(fifteen().args([
        "random", "--size", "2x3", "--count", "100000", "--seed", "1",
    ]));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    std::fs::write(&boards, o.stdout).unwrap();
    let parts: Vec<_> = (1..=2)
        .map(|k| {
            let p = dir.path().join(format!("part{k}.jsonl"));
            let o = run(fifteen()
                .args(["solve", "-q", "--heuristic", "manhattan", "--shard"])
                .arg(format!("{k}/2"))
                .arg("-i")
                .arg(&boards)
                .arg("-o")
                .arg(&p));
            assert_eq!(o.code, Some(0), "{}", o.stderr);
            p
        })
        .collect();
    let out = dir.path().join("merged.jsonl");
    let partial = dir.path().join("merged.jsonl.partial");
    for (sig, code) in SIGNALS {
        let mut child = fifteen()
            .arg("merge")
            .args(&parts)
            .arg("-o")
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Under way: the parts read through, the first records written.
        let t0 = std::time::Instant::now();
        while !std::fs::metadata(&partial).is_ok_and(|m| m.len() > 0) {
            assert!(t0.elapsed() < GUARD, "no {} appeared", partial.display());
            assert!(child.try_wait().unwrap().is_none(), "the merge ended first");
            std::thread::sleep(Duration::from_millis(1));
        }
        signal(&child, sig);
        let status = wait(&mut child, GUARD);
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(code), "signal {sig}: {stderr}");
        assert!(!out.exists(), "signal {sig}: {stderr}");
        assert!(!partial.exists(), "signal {sig}: {stderr}");
    }
    // The same merge, not stopped, is written whole.
    let o = run(fifteen().arg("merge").args(&parts).arg("-o").arg(&out));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        100_000
    );
    assert_no_leftovers(dir.path());
}

/// `build-pdb` (and `solve` building tables on first use) stops on both signals in the
/// middle of a build of seconds, and leaves only whole tables.
#[test]
fn table_builds_stop_on_both_signals_with_nothing_partial() {
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    for (sig, code) in SIGNALS {
        for cmd in ["build-pdb", "solve"] {
            let dir = tempfile::tempdir().unwrap();
            let mut command = if cmd == "build-pdb" {
                let mut c = build_pdb();
                c.args([
                    "--size",
                    "4",
                    "--partition",
                    "6-6-3",
                    "--threads",
                    "1",
                    "--out",
                ])
                .arg(dir.path());
                c
            } else {
                let mut c = fifteen();
                c.args([
                    "solve",
                    "--partition",
                    "6-6-3",
                    "--threads",
                    "1",
                    "--tables",
                ])
                .arg(dir.path())
                .arg(board);
                c
            };
            let mut child = command
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let err = lines(child.stderr.take().unwrap());
            // The notice before the build starts.
            await_line(&err, "6-6-3");
            signal(&child, sig);
            let status = wait(&mut child, GUARD);
            assert_eq!(status.code(), Some(code), "{cmd}, signal {sig}");
            let partition = Partition::parse(Shape::new(4, 4).unwrap(), 0, "6-6-3").unwrap();
            for spec in partition.specs() {
                let path = dir.path().join(spec.file_name());
                if path.exists() {
                    Table::read(&path, &spec).unwrap();
                }
            }
            assert_no_leftovers(dir.path());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Class 6: resource limits are met with a clear refusal, not a crash.
// ---------------------------------------------------------------------------------------

/// A table file cut short while a running `solve` has it mapped: the next read of the lost
/// pages is named (the file, what happened, what to do) with exit status 2, instead of a
/// bare "Bus error".
#[test]
fn a_table_cut_short_while_mapped_is_named() {
    let tables = tempfile::tempdir().unwrap();
    build_3x4(tables.path());
    let mut child = fifteen()
        .args(["solve", "--format", "json", "--tables"])
        .arg(tables.path())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = lines(child.stdout.take().unwrap());
    writeln!(stdin, "size: 3x4\n{}", board_3x4(21)).unwrap();
    await_line(&out, "length");
    // Both tables, down to their headers: every payload page is gone under the mapping.
    for n in names(tables.path()).iter().filter(|n| n.ends_with(".pdb")) {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(tables.path().join(n))
            .unwrap();
        f.set_len(64).unwrap();
    }
    writeln!(stdin, "{}", board_3x4(22)).unwrap();
    drop(stdin);
    let status = wait(&mut child, GUARD);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("was cut short or changed while in use"),
        "{stderr}"
    );
    assert!(stderr.contains(".pdb"), "{stderr}");
    assert!(stderr.contains("build-pdb --force"), "{stderr}");
}

/// Under an address-space limit (`ulimit -v`) smaller than a table: opening it is refused
/// with the size it needed and the limit named, exit status 2; and a build that needs more
/// than the limit is refused before it starts, writing nothing.
#[test]
fn an_address_space_limit_is_a_clear_refusal() {
    let dir = tempfile::tempdir().unwrap();
    // The 4x4 8-7 tables (259 MB and 29 MB), written with all-zero entries (the Manhattan
    // distance, admissible): a real 8-tile table would take minutes to build.
    let tables = dir.path().join("tables");
    let partition = Partition::parse(Shape::new(4, 4).unwrap(), 0, "8-7").unwrap();
    for spec in partition.specs() {
        let built = Built {
            payload: vec![0u8; spec.entries().div_ceil(2) as usize],
            layers: vec![],
            clamped: 0,
        };
        fifteen::pdb::save(&tables, &spec, &built).unwrap();
    }
    let tight = Limits {
        address_space: Some(200 << 20),
        ..Limits::default()
    };
    let o = run(limit(&mut fifteen(), tight)
        .args(["solve", "--partition", "8-7", "--threads", "1", "--tables"])
        .arg(&tables)
        .arg("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(o.stderr.contains("259.5 MB"), "{}", o.stderr);
    assert!(o.stderr.contains("ulimit -v"), "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);

    let out = dir.path().join("built");
    let gigabyte = Limits {
        address_space: Some(1 << 30),
        ..Limits::default()
    };
    let o = run(limit(&mut build_pdb(), gigabyte)
        .args(["--size", "4", "--out"])
        .arg(&out));
    assert_eq!(o.code, Some(1), "{o:?}");
    assert!(o.stderr.contains("needs about"), "{}", o.stderr);
    assert!(o.stderr.contains("ulimit -v"), "{}", o.stderr);
    assert!(!out.exists());
}

/// Under a process limit (`ulimit -u`, as `nobody`): with room for a few threads, `solve
/// --threads 64` goes on with fewer and says so, optimal all the same; with room for none,
/// `build-pdb` refuses, naming the limit, instead of panicking.
#[test]
fn a_thread_limit_means_fewer_threads_or_a_clear_refusal() {
    if !is_root() {
        return skipped("the process limit is tested as nobody, which needs root");
    }
    let want = run(fifteen().args(["solve", "--format", "json", "8 6 7 2 5 4 3 0 1"]));
    let few = Limits {
        processes: Some(4),
        as_nobody: true,
        ..Limits::default()
    };
    let o = run(limit(&mut fifteen(), few).args([
        "solve",
        "--heuristic",
        "manhattan",
        "--threads",
        "64",
        "--format",
        "json",
        "8 6 7 2 5 4 3 0 1",
    ]));
    assert_eq!(o.code, Some(0), "{o:?}");
    assert!(
        o.stderr.contains("worker threads asked for"),
        "{}",
        o.stderr
    );
    assert_eq!(length(&o.stdout), length(&want.stdout));

    let tables = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        tables.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let none = Limits {
        processes: Some(1),
        as_nobody: true,
        ..Limits::default()
    };
    let o = run(limit(&mut build_pdb(), none)
        .args(["--size", "3", "--out"])
        .arg(tables.path()));
    assert_eq!(o.code, Some(1), "{o:?}");
    assert!(
        o.stderr.contains("cannot start a worker thread"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("ulimit -u"), "{}", o.stderr);
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
}

/// A file-size limit (`ulimit -f`, passed on by a batch system) is a failed write, as a
/// full disk is, not a kill by SIGXFSZ without a word: a merge says so and leaves neither
/// its output nor its partial file, `solve -o` says so, and a checkpoint that cannot be
/// saved is warned about while the search goes on.
#[test]
fn a_file_size_limit_is_a_failed_write_not_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = two_shards(dir.path());
    let small = Limits {
        file_size: Some(300),
        ..Limits::default()
    };
    let out = dir.path().join("merged.jsonl");
    let o = run(limit(&mut fifteen(), small)
        .arg("merge")
        .arg(&p1)
        .arg(&p2)
        .arg("-o")
        .arg(&out));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(o.stderr.contains("File too large"), "{}", o.stderr);
    assert!(!out.exists());
    assert!(!dir.path().join("merged.jsonl.partial").exists());

    let boards = dir.path().join("boards.txt");
    let results = dir.path().join("results.jsonl");
    let o = run(limit(&mut fifteen(), small)
        .args(["solve", "-i"])
        .arg(&boards)
        .arg("-o")
        .arg(&results));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(o.stderr.contains("File too large"), "{}", o.stderr);

    // Korf 100 instance 88 with linear conflict alone: minutes of search, saved every half
    // second; no save fits under the limit, which the look before the search finds.
    let ck = dir.path().join("ck.json");
    let mut child = limit(&mut fifteen(), small)
        .args(["solve", "--heuristic", "linear-conflict", "--threads", "1"])
        .args(["--goal", "blank-first", "--checkpoint"])
        .arg(&ck)
        .arg("15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let errors = lines(child.stderr.take().unwrap());
    let seen = await_line(&errors, "cannot write a checkpoint there");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the search did not go on: {seen:?}"
    );
    let said = seen.last().unwrap();
    assert!(
        said.contains("File too large") && said.contains("the search runs"),
        "{said}"
    );
    signal(&child, libc::SIGTERM);
    let status = wait(&mut child, GUARD);
    // The stop's save failed too: a failed write, 2.
    assert_eq!(status.code(), Some(2));
    assert_no_leftovers(dir.path());
}

/// Absurd but valid numbers under a 256 MB address-space limit, so that anything allocated
/// in proportion to them fails: a shard count near 2^32 (random, solve, and a merge that
/// must refuse an incomplete batch of that many shards), the largest `--count`, and 1024
/// threads.
#[test]
fn absurd_numbers_do_not_allocate_in_proportion() {
    let small = Limits {
        address_space: Some(256 << 20),
        ..Limits::default()
    };
    let n = u32::MAX;
    // The last of 2^32 - 1 shards of three boards holds none of them.
    let o = run(limit(&mut fifteen(), small).args([
        "random",
        "--size",
        "3",
        "--count",
        "3",
        "--seed",
        "1",
        "--ids",
        "--shard",
        &format!("{n}/{n}"),
    ]));
    assert_eq!(o.code, Some(0), "{o:?}");
    assert_eq!(o.stdout, "");
    // The first holds the first board; solved, written, and refused by merge as one
    // shard of 2^32 - 1.
    let o = run(limit(&mut fifteen(), small).args([
        "random",
        "--size",
        "3",
        "--count",
        "3",
        "--seed",
        "1",
        "--ids",
        "--shard",
        &format!("1/{n}"),
    ]));
    assert_eq!(o.stdout.lines().count(), 1, "{o:?}");
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("b.txt");
    std::fs::write(&boards, &o.stdout).unwrap();
    let part = dir.path().join("p1.jsonl");
    let o = run(limit(&mut fifteen(), small)
        .args([
            "solve",
            "--threads",
            "1",
            "--shard",
            &format!("1/{n}"),
            "-i",
        ])
        .arg(&boards)
        .arg("--output")
        .arg(&part));
    assert_eq!(o.code, Some(0), "{o:?}");
    let o = run(limit(&mut fifteen(), small).arg("merge").arg(&part));
    assert_eq!(o.code, Some(2), "{o:?}");
    assert!(!o.stderr.contains("memory allocation"), "{}", o.stderr);

    // The largest count streams: lines come out at once, and SIGTERM ends it.
    let mut child = limit(&mut fifteen(), small)
        .args(["random", "--size", "4", "--count", &u64::MAX.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    for _ in 0..1000 {
        out.recv_timeout(Duration::from_secs(60)).unwrap();
    }
    signal(&child, libc::SIGTERM);
    assert_eq!(wait(&mut child, GUARD).code(), Some(143));

    // 1024 threads do not fit in 256 MB of address space: fewer are used, and said.
    let o = run(limit(&mut fifteen(), small).args([
        "solve",
        "--heuristic",
        "manhattan",
        "--threads",
        "1024",
        "--format",
        "json",
        "8 6 7 2 5 4 3 0 1",
    ]));
    assert_eq!(o.code, Some(0), "{o:?}");
    assert!(
        o.stderr.contains("worker threads asked for"),
        "{}",
        o.stderr
    );
}
