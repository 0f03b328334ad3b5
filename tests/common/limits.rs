//! Helpers for tests/hostile_limits.rs: running the binaries under resource limits (as
//! another user when the test is root), mounting a small tmpfs, sending real signals, and
//! waiting for a child without ever hanging the suite.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The `fifteen` binary.
pub fn fifteen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fifteen"))
}

/// The `build-pdb` binary.
pub fn build_pdb() -> Command {
    Command::new(env!("CARGO_BIN_EXE_build-pdb"))
}

/// What a finished command said.
#[derive(Debug)]
pub struct Out {
    /// Its exit status (`None`: ended by a signal).
    pub code: Option<i32>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// Runs `cmd` to its end (stdin closed).
pub fn run(cmd: &mut Command) -> Out {
    let o = cmd.stdin(Stdio::null()).output().expect("the binary runs");
    Out {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A test that cannot do what it tests says so, and fails under CI (`CI=true`), where
/// every case must run.
pub fn skipped(why: &str) {
    eprintln!("SKIPPED: {why}");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("under CI every hostile case must run: {why}");
    }
}

/// Whether this process is root (then limits on processes are tested as `nobody`, whom the
/// kernel holds to them).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Limits set on a spawned command, in the child, before it runs the binary.
#[derive(Clone, Copy, Default)]
pub struct Limits {
    /// RLIMIT_AS, bytes of address space.
    pub address_space: Option<u64>,
    /// RLIMIT_NPROC, processes and threads of the user (with `as_nobody`).
    pub processes: Option<u64>,
    /// RLIMIT_FSIZE, the largest file the command may write, in bytes (`ulimit -f`).
    pub file_size: Option<u64>,
    /// Run as `nobody` (uid and gid 65534): root is exempt from RLIMIT_NPROC.
    pub as_nobody: bool,
}

/// Applies `limits` to `cmd` (in the child, between fork and exec).
pub fn limit(cmd: &mut Command, limits: Limits) -> &mut Command {
    // SAFETY: the closure only calls setrlimit, setgroups, setgid and setuid, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            let set = |what, n: u64| {
                let rl = libc::rlimit {
                    rlim_cur: n as libc::rlim_t,
                    rlim_max: n as libc::rlim_t,
                };
                if libc::setrlimit(what, &rl) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            };
            if let Some(n) = limits.address_space {
                set(libc::RLIMIT_AS, n)?;
            }
            if let Some(n) = limits.file_size {
                set(libc::RLIMIT_FSIZE, n)?;
            }
            if let Some(n) = limits.processes {
                set(libc::RLIMIT_NPROC, n)?;
            }
            if limits.as_nobody
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(65534) != 0
                    || libc::setuid(65534) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

/// Sends `signal` to the child.
pub fn signal(child: &Child, signal: i32) {
    // SAFETY: kill has no memory-safety preconditions; the child is ours and not reaped.
    let r = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    assert_eq!(r, 0, "kill: {}", std::io::Error::last_os_error());
}

/// Waits for the child's end; a child still running after `limit` is killed and the test
/// fails (a guard against a hung suite, not a measure of speed).
pub fn wait(child: &mut Child, limit: Duration) -> ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the command did not end within {limit:?} of being told to");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The lines of a child's stream, as they come, on a channel.
pub fn lines(stream: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Waits (at most a minute) for a line that contains `what`; returns the lines read up to
/// and including it.
pub fn await_line(rx: &mpsc::Receiver<String>, what: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let hit = line.contains(what);
                seen.push(line);
                if hit {
                    return seen;
                }
            }
            Err(e) => panic!("no line with {what:?} ({e}); saw {seen:?}"),
        }
    }
}

/// A small tmpfs mounted on a temporary directory (needs root), unmounted on drop.
pub struct Tmpfs {
    /// The mount point.
    pub dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts one of `size` (`512k`...), or says why not (see [`skipped`]).
    pub fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs { dir }),
            Ok(o) => {
                skipped(&format!(
                    "cannot mount a tmpfs (needs root): {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                ));
                None
            }
            Err(e) => {
                skipped(&format!("cannot run mount: {e}"));
                None
            }
        }
    }

    /// The mount point.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Makes the file system read-only (`mount -o remount,ro`).
    pub fn read_only(&self) {
        let ok = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "remount read-only");
    }

    /// Fills what is left of the file system with one file, which it returns.
    pub fn fill(&self) -> PathBuf {
        let filler = self.path().join("filler");
        let mut f = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        use std::io::Write;
        while f.write_all(&block).is_ok() {}
        let _ = f.flush();
        filler
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Builds the default 3x4 tables (two, 388 kB, a fraction of a second) into `dir`.
pub fn build_3x4(dir: &Path) {
    let o = run(build_pdb()
        .args(["--size", "3x4", "--threads", "1", "-q", "--out"])
        .arg(dir));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

/// The names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// Waits (at most a minute) until the child runs at least `n` threads: `fifteen` starts
/// its signal thread once the handlers are in place, so two threads mean that a signal
/// now reaches the command's own handling (Linux: counted in /proc).
pub fn await_threads(child: &Child, n: usize) {
    let dir = format!("/proc/{}/task", child.id());
    let t0 = Instant::now();
    while std::fs::read_dir(&dir).map_or(0, |d| d.count()) < n {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "{dir}: fewer than {n} threads"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}
