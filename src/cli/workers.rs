//! Worker threads: as many as asked (all cores by default), or as many as the system will
//! start under its process and memory limits (`ulimit -u`, `ulimit -v`), with a note, so
//! that a limit slows a command down instead of aborting it.

use anyhow::Result;

use super::output::note;

/// The worker threads asked for, or all cores.
pub fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// A Rayon pool of `threads` workers, or of fewer when the system will not start that
/// many (a process limit, `ulimit -u`): halved until a pool starts, with a note; an error
/// naming the limit when not even one worker starts.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    let mut n = startable(threads.max(1));
    if n == 0 {
        return Err(no_threads("the system refused".into()));
    }
    loop {
        match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => {
                if n < threads {
                    note!("warning: the system started only {n} of the {threads} worker threads asked for (a process or memory limit, `ulimit -u` or `ulimit -v`?); going on with {n}");
                }
                return Ok(pool);
            }
            Err(e) if n == 1 => return Err(no_threads(e.to_string())),
            Err(_) => {
                // The failed pool's threads end on their own, a moment later.
                std::thread::sleep(std::time::Duration::from_millis(50));
                n /= 2;
            }
        }
    }
}

/// How many of `wanted` threads the system starts at once (with the default stack, as
/// Rayon's workers have): plain threads, held at a gate until all are asked for, then
/// joined, so that the pool started next has the room they took.
fn startable(wanted: usize) -> usize {
    share_allocator_arena_under_address_limit();
    let wanted = within_address_limit(wanted);
    let gate = std::sync::Arc::new(std::sync::RwLock::new(()));
    let closed = gate.write().unwrap_or_else(|e| e.into_inner());
    let mut probes = Vec::new();
    for _ in 0..wanted {
        let gate = std::sync::Arc::clone(&gate);
        match std::thread::Builder::new().spawn(move || drop(gate.read())) {
            Ok(h) => probes.push(h),
            Err(_) => break,
        }
    }
    drop(closed);
    let n = probes.len();
    for h in probes {
        let _ = h.join();
    }
    if n < wanted {
        // A joined thread leaves the process count a moment after join returns.
        std::thread::sleep(std::time::Duration::from_millis(20));
        // A limit binds: half of them, as the workers' allocations (an allocator arena
        // each, under `ulimit -v`) and the command's other threads need room too.
        return (n / 2).max(n.min(1));
    }
    n
}

/// Under an address-space limit (`ulimit -v`), makes every thread allocate from the main
/// allocator arena. glibc gives each new thread an arena of its own that reserves 64 MB of
/// address space up front, so a dozen workers can take all of a small limit between them,
/// and whichever allocation comes next (the move automaton's table, a thread's signal
/// stack) fails and aborts the process, at random under load. One arena costs the workers
/// some contention on the allocator's lock, which the search hardly takes.
fn share_allocator_arena_under_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given; mallopt takes the allocator's
        // lock and only changes how new arenas are made.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut rl) == 0 && rl.rlim_cur != libc::RLIM_INFINITY
            {
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
    }
}

/// `wanted`, or as many threads as fit in half the address space left under an
/// address-space limit (`ulimit -v`), at least one. Probing such a limit by starting
/// threads until one fails to start would fill it: a thread started just before then
/// cannot map its signal stack, and the runtime aborts the whole process (seen under a
/// 256 MB limit and 1,024 threads asked for).
fn within_address_limit(wanted: usize) -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given; sysconf has no preconditions.
        let (limited, page) = unsafe {
            (
                libc::getrlimit(libc::RLIMIT_AS, &mut rl) == 0
                    && rl.rlim_cur != libc::RLIM_INFINITY,
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        // The mapped size, in pages: the first number of /proc/self/statm.
        let mapped = std::fs::read_to_string("/proc/self/statm")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok());
        if let (true, Some(mapped), true) = (limited, mapped, page > 0) {
            // A thread's default 2 MiB stack, its guard page and its signal stack.
            const PER_THREAD: u64 = (2 << 20) + (64 << 10);
            // `rlim_t` is u64 here, not on every Unix.
            #[allow(clippy::unnecessary_cast)]
            let room = (rl.rlim_cur as u64).saturating_sub(mapped * page as u64);
            return wanted.min((room / 2 / PER_THREAD).max(1) as usize);
        }
    }
    wanted
}

/// The refusal when no worker thread starts.
fn no_threads(why: String) -> anyhow::Error {
    anyhow::anyhow!(
        "cannot start a worker thread: {why}; the process limit (`ulimit -u`) or the \
         memory limit (`ulimit -v`) is too low for even one"
    )
}

/// Starts the global Rayon pool that table builds run on, with `asked` workers (default:
/// all cores), or as many as the system will start (see [`pool`]). Once per process; later
/// calls return the first one's answer. Without this, the pool would start on first use
/// and a process limit would panic there.
pub fn start_build_threads(asked: Option<usize>) -> Result<usize> {
    static STARTED: std::sync::OnceLock<std::result::Result<usize, String>> =
        std::sync::OnceLock::new();
    let started = STARTED.get_or_init(|| {
        let wanted = threads(asked);
        let n = startable(wanted);
        if n == 0 {
            return Err(format!("{:#}", no_threads("the system refused".into())));
        }
        match rayon::ThreadPoolBuilder::new().num_threads(n).build_global() {
            Ok(()) => {
                if n < wanted {
                    note!("warning: the system started only {n} of the {wanted} worker threads asked for (a process or memory limit, `ulimit -u` or `ulimit -v`?); going on with {n}");
                }
                Ok(n)
            }
            Err(e) => Err(format!("{:#}", no_threads(e.to_string()))),
        }
    });
    started.clone().map_err(anyhow::Error::msg)
}
