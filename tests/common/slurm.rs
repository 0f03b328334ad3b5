//! A private Slurm cluster on localhost for tests: `munged`, `slurmctld` and one `slurmd`
//! from Debian's `munge` and `slurm-wlm` packages, started by [`Slurm::start`] and stopped
//! when the value is dropped.
//!
//! Everything is the test's own, so that several tests (and several people's test runs on
//! one machine) can run clusters side by side: a temporary directory holds the generated
//! munge key, munge's socket, `slurm.conf`, the controller's state, the node's spool and
//! every log; both daemons listen on free ports picked at start; the node has a name of its
//! own. The node offers this machine's CPUs (`CPUs=` from `available_parallelism`), with
//! `ProctrackType=proctrack/linuxproc` and `TaskPlugin=task/none`, so no cgroups and no
//! systemd are needed. It runs as the user running the tests (root in CI, since `slurmd`
//! must start jobs as their submitter).
//!
//! # Use
//!
//! ```ignore
//! mod common;
//! use common::slurm::Slurm;
//!
//! let Some(slurm) = Slurm::start_or_skip("my test") else { return };
//! let out = slurm.run("sbatch", &["--wait", "--array=1-4", "job.sh"]);
//! assert!(out.status.success(), "{}", Slurm::show(&out));
//! // Any client command, with this cluster's configuration:
//! let status = slurm.command("squeue").status().unwrap();
//! ```
//!
//! - [`Slurm::start`] returns `Err(why)` when the cluster cannot be started (programs
//!   missing, not root, a daemon that does not come up: the reason names its log);
//!   [`Slurm::start_or_skip`] prints `skipped: ...` on stderr and returns `None` then, or
//!   panics when the `CI` environment variable is set, so that CI never passes a test that
//!   did not run.
//! - [`Slurm::command`] is a client command (`sbatch`, `squeue`, `sacct`, `scontrol`,
//!   `scancel` ...) with `SLURM_CONF` pointing at this cluster; [`Slurm::run`] runs one to
//!   its end and returns its output. Jobs inherit the test's environment (`--export=ALL`,
//!   Slurm's default), so a job script finds binaries passed in variables.
//! - [`Slurm::dir`] is the cluster's temporary directory (a place for job files too);
//!   [`Slurm::cpus`] the CPUs the node offers; [`Slurm::logs`] the daemons' logs, for
//!   failure messages.
//! - Dropping the value cancels every job, shuts the daemons down (`scontrol shutdown`,
//!   then SIGKILL for any daemon still there after ten seconds) and removes the directory.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long the daemons get to come up: generous, as the machine may be busy.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running private cluster; see the module doc.
pub struct Slurm {
    dir: tempfile::TempDir,
    conf: PathBuf,
    /// The daemons, in start order: munged, slurmctld, slurmd.
    daemons: Vec<(&'static str, Child)>,
    cpus: usize,
}

/// `program`'s path: on `PATH`, or in the sbin directories a non-login `PATH` may lack.
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// A TCP port free at this moment.
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

impl Slurm {
    /// Starts the cluster, or says why it cannot be started.
    pub fn start() -> Result<Slurm, String> {
        let mut paths = Vec::new();
        for p in [
            "munged",
            "slurmctld",
            "slurmd",
            "sbatch",
            "scontrol",
            "sinfo",
        ] {
            paths.push(
                find(p)
                    .ok_or_else(|| format!("{p} not found (apt-get install slurm-wlm munge)"))?,
            );
        }
        let uid = Command::new("id")
            .arg("-u")
            .output()
            .map_err(|e| format!("cannot run id: {e}"))?;
        let user = String::from_utf8_lossy(&uid.stdout).trim().to_string();
        if user != "0" {
            return Err(format!(
                "slurmd must run as root to start jobs (this is uid {user})"
            ));
        }
        // A daemon that does not come up is given two more tries, each in a new directory
        // with new ports: a port found free may be taken by another process before the
        // daemon binds it.
        let mut failed = String::new();
        for attempt in 1..=3 {
            let dir = tempfile::Builder::new()
                .prefix("fifteen-slurm-")
                .tempdir()
                .map_err(|e| format!("no temporary directory: {e}"))?;
            let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
            let mut slurm = Slurm {
                conf: dir.path().join("slurm.conf"),
                dir,
                daemons: Vec::new(),
                cpus,
            };
            slurm.configure(cpus)?;
            match slurm.start_daemons(&paths[0], &paths[1], &paths[2]) {
                Ok(()) => return Ok(slurm),
                Err(why) => failed = format!("{failed}attempt {attempt} of 3: {why}\n"),
            }
        }
        Err(failed)
    }

    /// [`Slurm::start`], or `None` after printing `skipped: {test}: {why}` on stderr;
    /// panics instead when `CI` is set.
    pub fn start_or_skip(test: &str) -> Option<Slurm> {
        match Slurm::start() {
            Ok(s) => Some(s),
            Err(why) => {
                if std::env::var_os("CI").is_some() {
                    panic!("{test}: cannot start Slurm under CI: {why}");
                }
                eprintln!("skipped: {test}: cannot start Slurm: {why}");
                None
            }
        }
    }

    /// The cluster's private directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The CPUs the node offers.
    pub fn cpus(&self) -> usize {
        self.cpus
    }

    /// A Slurm client command for this cluster.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(find(program).unwrap_or_else(|| PathBuf::from(program)));
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// Runs a client command to its end.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        self.command(program)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    /// An output's status, stdout and stderr, for assertion messages.
    pub fn show(out: &Output) -> String {
        format!(
            "{}\nstdout:\n{}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    }

    /// The last lines of every daemon's log, for failure messages.
    pub fn logs(&self) -> String {
        let mut s = String::new();
        for name in ["munged.log", "slurmctld.log", "slurmd.log"] {
            let text = std::fs::read_to_string(self.dir().join(name)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(15)..];
            s.push_str(&format!("--- {name} (last lines)\n{}\n", tail.join("\n")));
        }
        s
    }

    fn configure(&self, cpus: usize) -> Result<(), String> {
        let d = self.dir();
        let io = |e: std::io::Error| format!("cannot write in {}: {e}", d.display());
        for sub in ["munge", "state", "spool"] {
            std::fs::create_dir(d.join(sub)).map_err(io)?;
        }
        // munged wants a key only its owner can read.
        let key: Vec<u8> = {
            let mut f = std::fs::File::open("/dev/urandom").map_err(io)?;
            let mut k = vec![0u8; 1024];
            std::io::Read::read_exact(&mut f, &mut k).map_err(io)?;
            k
        };
        let key_path = d.join("munge/munge.key");
        std::fs::write(&key_path, key).map_err(io)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_path, std::fs::Permissions::from_mode(0o400)).map_err(io)?;
        let ctld_port = free_port().map_err(io)?;
        let mut slurmd_port = free_port().map_err(io)?;
        while slurmd_port == ctld_port {
            slurmd_port = free_port().map_err(io)?;
        }
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "localhost".into());
        let p = |name: &str| d.join(name).display().to_string();
        let node = format!("fifteen{ctld_port}");
        // MinJobAge=5: `sbatch --wait` polls the controller after 2 s, then waits four times
        // longer each time (up to 32 s) while that stays well under MinJobAge (default 300
        // s; finished jobs are forgotten after it), so an iteration of the driver's that
        // outlasted one poll cost 10 s, or 42. With finished jobs kept 5 s the polls stay
        // 2 s apart: tests/slurm.rs took 61 s against 101 s.
        let conf = format!(
            "# A private test cluster (tests/common/slurm.rs).
ClusterName=fifteen
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket}
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={ctld_pid}
SlurmdPidFile={slurmd_pid}
SlurmctldLogFile={ctld_log}
SlurmdLogFile={slurmd_log}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
MinJobAge=5
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName={node} NodeAddr=127.0.0.1 NodeHostname={host} CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes={node} Default=YES MaxTime=INFINITE State=UP
",
            socket = p("munge/socket"),
            state = p("state"),
            spool = p("spool"),
            ctld_pid = p("slurmctld.pid"),
            slurmd_pid = p("slurmd.pid"),
            ctld_log = p("slurmctld.log"),
            slurmd_log = p("slurmd.log"),
        );
        std::fs::write(&self.conf, conf).map_err(io)?;
        std::fs::write(d.join("node"), &node).map_err(io)
    }

    fn spawn(&mut self, name: &'static str, program: &Path, args: &[&str]) -> Result<(), String> {
        let log = std::fs::File::create(self.dir().join(format!("{name}.out")))
            .map_err(|e| format!("cannot write {name}'s output: {e}"))?;
        let child = Command::new(program)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        self.daemons.push((name, child));
        Ok(())
    }

    /// Waits until `ready` holds, or a daemon has died, or [`START_TIMEOUT`] has passed.
    fn wait_for(&mut self, what: &str, ready: impl Fn(&Slurm) -> bool) -> Result<(), String> {
        let t0 = Instant::now();
        loop {
            if ready(self) {
                return Ok(());
            }
            let died = self
                .daemons
                .iter_mut()
                .find_map(|(name, child)| Some((*name, child.try_wait().ok()??)));
            if let Some((name, status)) = died {
                return Err(format!(
                    "{name} exited ({status}) while waiting for {what}\n{}",
                    self.logs_and_outputs()
                ));
            }
            if t0.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "{what} not ready after {START_TIMEOUT:?}\n{}",
                    self.logs_and_outputs()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn logs_and_outputs(&self) -> String {
        let mut s = self.logs();
        for name in ["munged", "slurmctld", "slurmd"] {
            let text =
                std::fs::read_to_string(self.dir().join(format!("{name}.out"))).unwrap_or_default();
            s.push_str(&format!("--- {name} stdout/stderr\n{text}\n"));
        }
        s
    }

    fn start_daemons(&mut self, munged: &Path, ctld: &Path, slurmd: &Path) -> Result<(), String> {
        let d = self.dir().to_path_buf();
        let arg = |name: &str, rel: &str| format!("--{name}={}", d.join(rel).display());
        self.spawn(
            "munged",
            munged,
            &[
                "--foreground",
                "--force",
                &arg("key-file", "munge/munge.key"),
                &arg("socket", "munge/socket"),
                &arg("pid-file", "munge/munged.pid"),
                &arg("log-file", "munged.log"),
                &arg("seed-file", "munge/seed"),
            ],
        )?;
        self.wait_for("munged's socket", |s| s.dir().join("munge/socket").exists())?;
        let conf = self.conf.display().to_string();
        self.spawn("slurmctld", ctld, &["-D", "-f", &conf])?;
        self.wait_for("slurmctld", |s| {
            let out = s.run("scontrol", &["ping"]);
            String::from_utf8_lossy(&out.stdout).contains("is UP")
        })?;
        let node = std::fs::read_to_string(d.join("node")).map_err(|e| e.to_string())?;
        self.spawn("slurmd", slurmd, &["-D", "-f", &conf, "-N", &node])?;
        self.wait_for("the node", |s| {
            let out = s.run("sinfo", &["-h", "-o", "%T"]);
            String::from_utf8_lossy(&out.stdout).trim() == "idle"
        })
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        // Jobs first (their steps are not children of the daemons), then the daemons.
        if self.daemons.len() == 3 {
            let _ = self
                .command("scancel")
                .args(["--full", "--user", "root"])
                .output();
            let _ = self.command("scontrol").arg("shutdown").output();
        }
        let t0 = Instant::now();
        for (name, child) in self.daemons.iter_mut().rev() {
            if *name == "munged" {
                // munged has no shutdown request: it ends on SIGTERM.
                let _ = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status();
            }
            while child.try_wait().ok().flatten().is_none()
                && t0.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            if child.try_wait().ok().flatten().is_none() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}
