//! The scripts of `slurm/` without a Slurm: `solve-split.sh --local`, and its Slurm mode
//! through a stand-in `sbatch` on `PATH` (a small script that records its arguments and
//! runs each task of the array with bash, as Slurm runs a batch script's body), stopped by
//! SIGTERM and Ctrl-C, given hostile paths and damaged parts; `solve-array.sbatch` run as
//! one task with its index set; `merge.sh` stopped by SIGTERM. tests/slurm.rs runs them
//! through a real Slurm.
//!
//! Signals are sent once a marker shows the work under way (a worker process on the work
//! directory, a file written by a stand-in), never after a fixed sleep; every wait has a
//! generous timeout. No test reads or writes ~/.local/share/fifteen: 3x3 boards, or
//! `--heuristic manhattan`, and XDG_DATA_HOME in the test's directory.

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const FIFTEEN: &str = env!("CARGO_BIN_EXE_fifteen");

/// The 3x3 board of docs/cluster.md: 31 moves, five iterations from depth 4.
const BOARD: &str = "8 6 7 2 5 4 3 0 1";
/// Korf's instance 88 with the blank-first goal: with Manhattan distance, minutes of
/// search in many iterations, so that a signal finds parts at work.
const LONG: &str = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
/// How long a marker may take to appear, or a stopped script to end: generous, as the
/// machine may be busy.
const PATIENCE: Duration = Duration::from_secs(120);

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn show(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A script of `slurm/` run with bash in `dir`, FIFTEEN set, tables under `dir`, and
/// `path_first` (stand-ins) ahead of PATH.
fn script(name: &str, dir: &Path, path_first: Option<&Path>) -> Command {
    let mut c = Command::new("bash");
    c.arg(repo(name))
        .current_dir(dir)
        .env("FIFTEEN", FIFTEEN)
        .env("XDG_DATA_HOME", dir.join("xdg"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_CPUS_PER_TASK");
    if let Some(first) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut paths = vec![first.to_path_buf()];
        paths.extend(std::env::split_paths(&path));
        c.env("PATH", std::env::join_paths(paths).unwrap());
    }
    c
}

fn split_local(dir: &Path, work: &Path) -> Output {
    script("slurm/solve-split.sh", dir, None)
        .args(["--local", "--parts", "2", "--depth", "4"])
        .args(["--heuristic", "linear-conflict", "--dir"])
        .arg(work)
        .arg(BOARD)
        .output()
        .unwrap()
}

/// The rows and the solution the driver prints for [`BOARD`] (docs/cluster.md).
const SOLVED: &str = " threshold            nodes
        23               24
        25              225
        27             1456
        29             5809
        31             2408
solution: length 31
moves URULDLURDRDLLURRULDDRULDLUURRDD
total nodes 9922
";

/// The processes (pid, command line) whose command line mentions `needle`.
fn processes_with(needle: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().filter_map(|e| e.ok()) {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(raw) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&raw).replace('\0', " ");
        // A zombie (exited, not yet reaped) has an empty command line.
        if cmd.contains(needle) {
            found.push((pid, cmd));
        }
    }
    found
}

/// Waits until `ready` holds, or panics naming `what`.
fn wait_for(what: &str, child: &mut Child, mut ready: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the script ended ({status}) before {what}");
        }
        assert!(t0.elapsed() < PATIENCE, "no {what} after {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The child's output once it ends, or a panic (after killing it) if it does not.
fn finish(mut child: Child, what: &str) -> Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("{what}: still running {PATIENCE:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn kill(signal: &str, target: &str) {
    let status = Command::new("kill")
        .args([signal, "--", target])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal} {target}");
}

/// Waits until no process mentions `needle`; panics naming them otherwise.
fn none_left(needle: &str) {
    let t0 = Instant::now();
    loop {
        let left = processes_with(needle);
        if left.is_empty() {
            return;
        }
        if t0.elapsed() > PATIENCE {
            for (pid, _) in &left {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            panic!("still running after the script stopped: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `--local` on a long search, stopped by `signal` sent to `target` ("script": its pid;
/// "group": its process group, as Ctrl-C in a terminal does) once both parts of an
/// iteration run. Returns the script's output; no worker may be left.
fn stop_local_split(name: &str, signal: &str, target: &str) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join(name);
    let mut command = script("slurm/solve-split.sh", tmp.path(), None);
    let mut child = common::with_default_signals(&mut command)
        .args(["--local", "--parts", "2", "--depth", "6"])
        .args(["--heuristic", "manhattan", "--goal", "blank-first", "--dir"])
        .arg(&work)
        .arg(LONG)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let needle = format!("split search {}", work.join("frontier.json").display());
    wait_for("two parts at work", &mut child, || {
        processes_with(&needle).len() == 2
    });
    let pid = child.id().to_string();
    match target {
        "script" => kill(signal, &pid),
        _ => kill(signal, &format!("-{pid}")),
    }
    let out = finish(child, name);
    none_left(&needle);
    out
}

/// Finding 1: SIGTERM to the driver stops its parts (they were left running forever) and
/// exits 143, saying how to resume.
#[test]
fn sigterm_stops_the_local_parts_and_exits_143() {
    let out = stop_local_split("term", "-TERM", "script");
    assert_eq!(out.status.code(), Some(143), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped by SIGTERM"), "{}", show(&out));
    assert!(err.contains("run the same command again"), "{}", show(&out));
    assert!(!err.contains("failed"), "{}", show(&out));
}

/// Finding 2: Ctrl-C (SIGINT to the whole process group) exits 130, not 1 with "a part
/// failed"; SIGINT to the driver alone is passed on to the parts the same way.
#[test]
fn ctrl_c_stops_the_local_parts_and_exits_130() {
    for (name, target) in [("group", "group"), ("alone", "script")] {
        let out = stop_local_split(name, "-INT", target);
        assert_eq!(out.status.code(), Some(130), "{name}: {}", show(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("Ctrl-C") || err.contains("SIGINT"),
            "{}",
            show(&out)
        );
        assert!(!err.contains("failed"), "{name}: {}", show(&out));
    }
}

/// Finding 4: a damaged part is a failed reducer, exit status 1, with the advice to delete
/// it; no reduced.txt.tmp is left; deleting it and running again finishes the job.
#[test]
fn a_damaged_part_fails_the_reducer_with_status_1_and_advice() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let out = split_local(tmp.path(), &work);
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), SOLVED);

    let it = work.join("t27");
    std::fs::remove_file(it.join("reduced.txt")).unwrap();
    for damage in ["{}\n", "garbage\n"] {
        std::fs::write(it.join("part-1.json"), damage).unwrap();
        for _ in 0..2 {
            let out = split_local(tmp.path(), &work);
            assert_eq!(out.status.code(), Some(1), "{}", show(&out));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("part-1.json"), "{}", show(&out));
            assert!(err.contains("delete that file"), "{}", show(&out));
            assert!(!it.join("reduced.txt.tmp").exists(), "{}", show(&out));
            assert!(!it.join("reduced.txt").exists());
        }
    }
    std::fs::remove_file(it.join("part-1.json")).unwrap();
    let out = split_local(tmp.path(), &work);
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), SOLVED);
}

/// Finding 5: a --dir that is a file is a usage error (2) with the script's own message.
#[test]
fn a_dir_that_is_a_file_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x\n").unwrap();
    let out = split_local(tmp.path(), &file);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("it is not a directory"), "{}", show(&out));
    assert!(!err.contains("mkdir"), "{}", show(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x\n");
}

/// A directory of stand-ins: `sbatch` records its arguments in sbatch.args (one a line)
/// and the job script it was given in part.sbatch.copy, prints a job id (`--parsable`),
/// then runs each task of `--array` with bash, SLURM_ARRAY_TASK_ID set, its output in the
/// file `--output` names (%A, %a and %% replaced, as Slurm does). With FAKE_SBATCH_HANG set
/// it writes sbatch.waiting and sleeps instead, as a job waiting in the queue does.
/// `scancel` records its arguments in scancel.args.
fn stand_ins(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.display().to_string();
    let sbatch = r#"#!/bin/bash
printf '%s\n' "$@" > $LOG/sbatch.args
arr="" out="slurm-%A_%a.out" parsable=0 args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --array=*) arr=${1#--array=} ;;
    --output=*) out=${1#--output=} ;;
    --parsable) parsable=1 ;;
    --*) ;;
    *) args=("$@"); break ;;
  esac
  shift
done
cp "${args[0]}" $LOG/part.sbatch.copy
jobid=4242
if [ "$parsable" = 1 ]; then echo "$jobid"; else echo "Submitted batch job $jobid"; fi
if [ -n "${FAKE_SBATCH_HANG:-}" ]; then
  : > $LOG/sbatch.waiting
  exec sleep 1000
fi
rc=0
IFS=, read -ra ids <<< "$arr"
for id in "${ids[@]}"; do
  log=${out//%%/@PERCENT@} log=${log//%A/$jobid} log=${log//%a/$id} log=${log//@PERCENT@/%}
  SLURM_ARRAY_TASK_ID=$id bash "${args[@]}" > "$log" 2>&1 || rc=1
done
exit $rc
"#
    .replace("$LOG", &sh_quote(&log));
    let scancel = format!(
        "#!/bin/bash\nprintf '%s\\n' \"$@\" > {}/scancel.args\n",
        sh_quote(&log)
    );
    for (name, text) in [("sbatch", sbatch), ("scancel", scancel)] {
        let path = bin.join(name);
        std::fs::write(&path, text).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
        assert!(status.success());
    }
    bin
}

/// `s` quoted for the shell.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Finding 3: in Slurm mode every path is quoted in the job script, and the task logs'
/// name reaches sbatch as an argument: a directory with `$`, quotes, a backtick, `%`, a
/// space or a newline works as with --local, runs nothing of its name, and each task has
/// its own log; a backslash, which turns Slurm's %A_%a off, is refused (exit status 2).
#[test]
fn slurm_mode_takes_any_directory_name() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = stand_ins(tmp.path());
    // A --fifteen with the same characters: a link to the binary.
    let odd_bin = tmp.path().join("bin $HOME `touch fifteen-ran` \"q\" 'x'");
    std::fs::create_dir(&odd_bin).unwrap();
    std::os::unix::fs::symlink(FIFTEEN, odd_bin.join("fifteen")).unwrap();
    for name in [
        "cost $5 \"x\" 100%",
        "tick`touch pwned`",
        "$(touch pwned)",
        "bob's work",
        "new\nline #1",
    ] {
        let work = tmp.path().join(name);
        let out = script("slurm/solve-split.sh", tmp.path(), Some(&bin))
            .args(["--parts", "2", "--depth", "4"])
            .args(["--heuristic", "linear-conflict", "--fifteen"])
            .arg(odd_bin.join("fifteen"))
            .arg("--dir")
            .arg(&work)
            .arg(BOARD)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name:?}: {}", show(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout), SOLVED, "{name:?}");
        assert!(!tmp.path().join("pwned").exists(), "{name:?} ran code");
        assert!(
            !tmp.path().join("fifteen-ran").exists(),
            "{name:?} ran code"
        );
        let args = std::fs::read_to_string(tmp.path().join("sbatch.args")).unwrap();
        let want = format!(
            "--output={}/slurm-%A_%a.out",
            work.display().to_string().replace('%', "%%")
        );
        assert!(args.contains(&want), "{name:?}: sbatch was given\n{args}");
        for k in [1, 2] {
            let log = work.join(format!("slurm-4242_{k}.out"));
            assert!(log.exists(), "{name:?}: no log {}", log.display());
        }
        // The job script has no #SBATCH line with a path in it (not shell: not quotable).
        let job = std::fs::read_to_string(tmp.path().join("part.sbatch.copy")).unwrap();
        assert!(
            job.lines()
                .filter(|l| l.starts_with("#SBATCH"))
                .all(|l| !l.contains('/')),
            "{job}"
        );
    }
    let work = tmp.path().join(r"back\slash");
    let out = script("slurm/solve-split.sh", tmp.path(), Some(&bin))
        .args(["--parts", "2", "--depth", "4", "--heuristic", "manhattan"])
        .arg("--dir")
        .arg(&work)
        .arg(BOARD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("backslash"),
        "{}",
        show(&out)
    );
}

/// Slurm mode stopped while the job array waits: SIGTERM cancels the array (scancel of
/// the id sbatch printed), stops sbatch and exits 143.
#[test]
fn sigterm_in_slurm_mode_cancels_the_job_array() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = stand_ins(tmp.path());
    let mut child = script("slurm/solve-split.sh", tmp.path(), Some(&bin))
        .args(["--parts", "2", "--depth", "4", "--heuristic", "manhattan"])
        .arg("--dir")
        .arg(tmp.path().join("work"))
        .arg(BOARD)
        .env("FAKE_SBATCH_HANG", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let waiting = tmp.path().join("sbatch.waiting");
    // The first iteration's: frontier.txt names its threshold.
    let jobid = || {
        let frontier = std::fs::read_to_string(tmp.path().join("work/frontier.txt")).ok()?;
        let t = frontier.split_whitespace().nth(1)?;
        Some(tmp.path().join(format!("work/t{t}/jobid.tmp")))
    };
    wait_for("sbatch waiting", &mut child, || {
        waiting.exists()
            && jobid().is_some_and(|p| std::fs::read_to_string(p).is_ok_and(|s| s.contains("4242")))
    });
    let jobid = jobid().unwrap();
    kill("-TERM", &child.id().to_string());
    let out = finish(child, "slurm mode");
    assert_eq!(out.status.code(), Some(143), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("job array 4242 cancelled"), "{}", show(&out));
    let cancelled = std::fs::read_to_string(tmp.path().join("scancel.args")).unwrap();
    assert_eq!(cancelled, "4242\n");
    assert!(!jobid.exists());
    none_left("sleep 1000");
}

/// Finding 6: `solve-array.sbatch ... --threads N` (or `--threads=N`) runs with the
/// user's threads instead of failing on a second --threads.
#[test]
fn solve_array_takes_the_users_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let boards = tmp.path().join("boards.txt");
    let out = Command::new(FIFTEEN)
        .args(["random", "--count", "6", "--seed", "3", "--size", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&boards, &out.stdout).unwrap();
    for (k, threads) in [("1", "--threads 2"), ("2", "--threads=1")] {
        let out = script("slurm/solve-array.sbatch", tmp.path(), None)
            .args([
                "2",
                "boards.txt",
                "results",
                "--heuristic",
                "linear-conflict",
            ])
            .args(threads.split(' '))
            .env("SLURM_ARRAY_TASK_ID", k)
            .env("SLURM_CPUS_PER_TASK", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{threads}: {}", show(&out));
    }
    let out = script("slurm/merge.sh", tmp.path(), None)
        .args(["results", "merged.jsonl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().last(),
        Some("6 results: 6 ok, 0 failed")
    );
    // Not in an array, or an OUTDIR that cannot be made: usage errors, said plainly.
    let out = script("slurm/solve-array.sbatch", tmp.path(), None)
        .args(["2", "boards.txt", "results"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in a job array"));
    let out = script("slurm/solve-array.sbatch", tmp.path(), None)
        .args(["2", "boards.txt", "boards.txt"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot make the output directory"));
}

/// `merge.sh` stopped by SIGTERM passes it on to the fifteen under way (here a stand-in
/// that waits) and exits 143; nothing is left running.
#[test]
fn sigterm_stops_merge_sh_and_its_fifteen() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("results")).unwrap();
    std::fs::write(tmp.path().join("results/part-1-of-1.jsonl"), "").unwrap();
    let fake = tmp.path().join("slow-fifteen");
    let marker = tmp.path().join("merging");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/bash\n: > {}\nexec sleep 1001\n",
            sh_quote(&marker.display().to_string())
        ),
    )
    .unwrap();
    assert!(Command::new("chmod")
        .arg("+x")
        .arg(&fake)
        .status()
        .unwrap()
        .success());
    let mut child = script("slurm/merge.sh", tmp.path(), None)
        .args(["results", "merged.jsonl"])
        .env("FIFTEEN", &fake)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    wait_for("the merge under way", &mut child, || {
        marker.exists() && !processes_with("sleep 1001").is_empty()
    });
    kill("-TERM", &child.id().to_string());
    let out = finish(child, "merge.sh");
    assert_eq!(out.status.code(), Some(143), "{}", show(&out));
    none_left("sleep 1001");
}
