//! Counts of work under way in this process that another thread must wait for or keep
//! out of the way of (a table build owning stderr's last line, a checkpointed search
//! that saves when it stops), each unit held by a guard so that no return path or panic
//! can leave the count raised.

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many units of one kind of work are under way.
pub struct UnderWay(AtomicUsize);

/// One unit of work under way, from [`UnderWay::enter`] until dropped.
pub struct Guard(&'static UnderWay);

impl UnderWay {
    /// None under way.
    pub const fn new() -> Self {
        UnderWay(AtomicUsize::new(0))
    }

    /// Counts one more until the guard is dropped.
    pub fn enter(&'static self) -> Guard {
        self.0.fetch_add(1, Ordering::SeqCst);
        Guard(self)
    }

    /// Whether any is under way.
    pub fn any(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.0 .0.fetch_sub(1, Ordering::SeqCst);
    }
}
