//! Many instances on a thread pool, handed back in input order as soon as each one and all
//! before it are done.
//!
//! At most `window` items are in flight or waiting to be handed back, so a batch of any
//! length runs in constant memory, and a slow item holds back output but not work.

use std::collections::HashMap;
use std::sync::mpsc;

/// Runs `work` on every item on `pool`, calling `emit` on the calling thread in input order.
/// `emit` returns `false` to stop taking new items (already started ones still finish and
/// are emitted).
pub fn run_ordered<T, R, I, W, E>(
    pool: &rayon::ThreadPool,
    items: I,
    window: usize,
    work: W,
    mut emit: E,
) where
    T: Send,
    R: Send,
    I: Iterator<Item = T>,
    W: Fn(T) -> R + Sync,
    E: FnMut(usize, R) -> bool,
{
    let window = window.max(1);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    let work = &work;
    pool.in_place_scope(|scope| {
        let mut pending: HashMap<usize, R> = HashMap::new();
        let mut next_out = 0usize;
        let mut started = 0usize;
        let mut items = items;
        let mut open = true;
        loop {
            while open && started - next_out < window {
                match items.next() {
                    Some(item) => {
                        let tx = tx.clone();
                        let i = started;
                        scope.spawn(move |_| {
                            let r = work(item);
                            let _ = tx.send((i, r));
                        });
                        started += 1;
                    }
                    None => open = false,
                }
            }
            if next_out == started {
                break;
            }
            let (i, r) = rx.recv().expect("workers hold a sender");
            pending.insert(i, r);
            while let Some(r) = pending.remove(&next_out) {
                next_out += 1;
                if !emit(next_out - 1, r) {
                    open = false;
                }
            }
        }
    });
}
