//! A table file cut short or rewritten while it is mapped turns the next read of the lost
//! pages into SIGBUS, which by default kills the process with a bare "Bus error". Every
//! mapped table registers its address range here; a program that calls
//! [`report_sigbus_on_tables`] (the `fifteen` command does) then gets, instead, one line
//! naming the table file and what to do, and a documented exit status.
//!
//! A fault is a synchronous signal on the thread that read the page: it cannot be
//! returned from without the page (the read would fault again), and nothing the search
//! holds can be trusted after it, so the handler ends the process. It does only what a
//! signal handler may: it reads atomics and fixed bytes, calls `write(2)` and `_exit(2)`.
//! A fault outside every table is handed to the handler that was there before (Rust's
//! own, which tells a stack overflow), or to the default action.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};

/// Mapped tables tracked at once: a run maps a few partitions of a few tables each.
const SLOTS: usize = 64;

/// One mapped table: its address range and the message that names it.
struct Slot {
    used: AtomicBool,
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    used: AtomicBool::new(false),
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    message: AtomicPtr::new(std::ptr::null_mut()),
    message_len: AtomicUsize::new(0),
};

static MAPPED: [Slot; SLOTS] = [FREE; SLOTS];

/// The exit status the handler ends the process with.
static STATUS: AtomicI32 = AtomicI32::new(2);

/// Set once the handler is in place.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The action that was in place before ours, for faults that are not a table's.
static mut PREVIOUS: Option<libc::sigaction> = None;

/// A table's range, registered while the mapping lives; dropping it unregisters.
pub(crate) struct Registration {
    slot: Option<usize>,
    /// The message the handler writes; owned here, pointed to by the slot.
    _message: Box<[u8]>,
}

/// Registers the mapping of `path` at `start..start + len`. With every slot taken the
/// table is simply not named by the handler (a fault then takes the default action).
pub(crate) fn register(start: *const u8, len: usize, path: &Path) -> Registration {
    let message = format!(
        "error: the table file {} was cut short or changed while in use (reading its mapped \
         pages failed with SIGBUS): tables are replaced by renaming, never rewritten in place; \
         restore it or rebuild it with `build-pdb --force`, then run again\n",
        path.display()
    )
    .into_bytes()
    .into_boxed_slice();
    let slot = (0..SLOTS).find(|&i| {
        MAPPED[i]
            .used
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    });
    if let Some(i) = slot {
        let s = &MAPPED[i];
        s.message
            .store(message.as_ptr() as *mut u8, Ordering::Relaxed);
        s.message_len.store(message.len(), Ordering::Relaxed);
        s.len.store(len, Ordering::Relaxed);
        // Last, with release: a handler that sees the start sees the rest.
        s.start.store(start as usize, Ordering::Release);
    }
    Registration {
        slot,
        _message: message,
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            // The mapping is going away with no reader left (the table is being dropped),
            // so no fault can be in its range: clear the range, then free the slot; the
            // message is freed after, when it can no longer be found.
            MAPPED[i].start.store(0, Ordering::Release);
            MAPPED[i].used.store(false, Ordering::Release);
        }
    }
}

/// From now on, a SIGBUS in a mapped table's pages prints one line naming the file (see
/// the module's documentation) and ends the process with `status`. Idempotent; returns
/// whether the handler is in place.
pub fn report_sigbus_on_tables(status: i32) -> bool {
    STATUS.store(status, Ordering::SeqCst);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return true;
    }
    // SAFETY: a zeroed sigaction is a valid value to fill in; `sigaction` with valid
    // pointers installs our handler, whose body keeps to async-signal-safe calls. PREVIOUS
    // is written here once, before the handler can run, and only read after.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGBUS, &action, &mut old) != 0 {
            INSTALLED.store(false, Ordering::SeqCst);
            return false;
        }
        *std::ptr::addr_of_mut!(PREVIOUS) = Some(old);
    }
    true
}

/// The SIGBUS handler (see the module's documentation).
extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    for s in MAPPED.iter() {
        let start = s.start.load(Ordering::Acquire);
        if start == 0 || addr < start || addr - start >= s.len.load(Ordering::Relaxed) {
            continue;
        }
        let msg = s.message.load(Ordering::Relaxed);
        let len = s.message_len.load(Ordering::Relaxed);
        // SAFETY: the fault is a read of this live mapping, so its table (which owns the
        // message) is not being dropped; write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, msg as *const libc::c_void, len);
            libc::_exit(STATUS.load(Ordering::Relaxed));
        }
    }
    // Not a table's: the previous handler, or the default action (the fault recurs on
    // return and ends the process with SIGBUS, as without us).
    // SAFETY: PREVIOUS was written before this handler was installed; calling a handler
    // the process installed, with the arguments we were given, is what the kernel would
    // have done; signal(2) is async-signal-safe.
    unsafe {
        match *std::ptr::addr_of!(PREVIOUS) {
            Some(old)
                if old.sa_flags & libc::SA_SIGINFO != 0
                    && old.sa_sigaction != libc::SIG_DFL
                    && old.sa_sigaction != libc::SIG_IGN =>
            {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(old.sa_sigaction);
                f(sig, info, context);
            }
            _ => {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
            }
        }
    }
}
