//! Many instances on a thread pool, handed back in input order as soon as each one and all
//! before it are done.
//!
//! At most `window` items are read but not yet handed back, so a batch of any length runs
//! in constant memory, and a slow item holds back output but not work. Items are taken
//! from the iterator on a thread of their own: a result is handed back as soon as it is
//! ready even while the input is waiting for its next line (a pipe fed slowly, a person
//! typing boards).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// What the calling thread waits for: the next item, the end of the items, a result, or
/// the panic of a `work` call (re-raised on the calling thread, which would otherwise wait
/// for that result for ever).
enum Msg<T, R> {
    Item(T),
    End,
    Done(usize, R),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Runs `work` on every item on `pool`, calling `emit` on the calling thread in input order.
/// `emit` returns `false` to stop taking new items (already started ones still finish and
/// are emitted).
///
/// `items` is advanced on a scoped thread, so this returns only once its current `next`
/// call has returned: an iterator that can block for ever (reading a pipe) must itself
/// give up when the caller wants to stop.
///
/// # Panics
/// A panic in `work` or `emit` ends this call with that panic (after the items already
/// started have finished), instead of leaving it or the reading thread waiting.
pub fn run_ordered<T, R, I, W, E>(
    pool: &rayon::ThreadPool,
    items: I,
    window: usize,
    work: W,
    mut emit: E,
) where
    T: Send,
    R: Send,
    I: Iterator<Item = T> + Send,
    W: Fn(T) -> R + Sync,
    E: FnMut(usize, R) -> bool,
{
    let window = window.max(1);
    let (tx, rx) = mpsc::channel::<Msg<T, R>>();
    // One token per item that may be read and not yet emitted: the reader takes one before
    // each item, the caller gives it back when the item is emitted.
    let (slot_tx, slot_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        slot_tx.send(()).expect("the channel holds `window` tokens");
    }
    let stop = AtomicBool::new(false);
    let work = &work;
    std::thread::scope(|threads| {
        let to_caller = tx.clone();
        let stop = &stop;
        threads.spawn(move || {
            let mut items = items;
            while slot_rx.recv().is_ok() && !stop.load(Ordering::Relaxed) {
                match items.next() {
                    Some(item) => {
                        if to_caller.send(Msg::Item(item)).is_err() {
                            return;
                        }
                    }
                    None => break,
                }
            }
            let _ = to_caller.send(Msg::End);
        });
        pool.in_place_scope(|scope| {
            // Owned by this closure, so that a panic of `emit` drops them as it unwinds:
            // the reader, waiting for a token or sending an item, then ends instead of
            // holding up the scope's join for ever.
            let (rx, slot_tx) = (rx, slot_tx);
            let mut pending: HashMap<usize, R> = HashMap::new();
            let mut started = 0usize;
            let mut next_out = 0usize;
            let mut input_open = true;
            let mut taking = true;
            while input_open || next_out < started {
                match rx.recv().expect("the reader and the workers hold senders") {
                    Msg::Item(item) => {
                        if !taking {
                            continue; // read before the reader saw the stop: dropped
                        }
                        let tx = tx.clone();
                        let i = started;
                        scope.spawn(move |_| {
                            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                work(item)
                            }));
                            let _ = tx.send(match r {
                                Ok(r) => Msg::Done(i, r),
                                Err(panic) => Msg::Panicked(panic),
                            });
                        });
                        started += 1;
                    }
                    Msg::End => input_open = false,
                    Msg::Panicked(panic) => std::panic::resume_unwind(panic),
                    Msg::Done(i, r) => {
                        pending.insert(i, r);
                        while let Some(r) = pending.remove(&next_out) {
                            next_out += 1;
                            if !emit(next_out - 1, r) && taking {
                                taking = false;
                                stop.store(true, Ordering::Relaxed);
                            }
                            // The reader may have stopped already; then nobody needs it.
                            let _ = slot_tx.send(());
                        }
                    }
                }
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
    }

    #[test]
    fn results_come_back_in_input_order() {
        let mut seen = Vec::new();
        // Later items finish first: the work sleeps less for them.
        run_ordered(
            &pool(),
            0..40u64,
            5,
            |i| {
                std::thread::sleep(std::time::Duration::from_micros(40 * (40 - i)));
                i * i
            },
            |i, r| {
                seen.push((i, r));
                true
            },
        );
        let expected: Vec<(usize, u64)> = (0..40u64).map(|i| (i as usize, i * i)).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn no_more_than_window_items_are_read_ahead() {
        let read = Mutex::new(0usize);
        let emitted = Mutex::new(0usize);
        let items = (0..200).inspect(|_| {
            let mut r = read.lock().unwrap();
            *r += 1;
            assert!(*r - *emitted.lock().unwrap() <= 7, "read too far ahead");
        });
        run_ordered(
            &pool(),
            items,
            7,
            |i| i,
            |_, _| {
                *emitted.lock().unwrap() += 1;
                true
            },
        );
        assert_eq!(*emitted.lock().unwrap(), 200);
    }

    /// Runs `f` on a thread of its own and returns its panic message; fails if it does
    /// not panic, or if it is still running after ten seconds (the hang this guards against).
    fn panic_message(f: impl FnOnce() + Send + 'static) -> String {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let _ = tx.send(r);
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("run_ordered hung after a panic");
        let panic = r.expect_err("the panic was swallowed");
        panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    }

    #[test]
    fn a_panic_in_emit_ends_the_batch_with_that_panic() {
        // An endless input: the reader would wait for a token for ever.
        let msg = panic_message(|| {
            run_ordered(
                &pool(),
                0u64..,
                4,
                |i| i,
                |i, _| {
                    if i == 5 {
                        panic!("boom in emit");
                    }
                    true
                },
            )
        });
        assert_eq!(msg, "boom in emit");
    }

    #[test]
    fn a_panic_in_work_ends_the_batch_with_that_panic() {
        let msg = panic_message(|| {
            run_ordered(
                &pool(),
                0u64..100,
                4,
                |i| {
                    if i == 7 {
                        panic!("boom in work");
                    }
                    i
                },
                |_, _| true,
            )
        });
        assert_eq!(msg, "boom in work");
    }

    #[test]
    fn a_stop_ends_the_reading_and_started_items_still_come() {
        let mut seen = Vec::new();
        run_ordered(
            &pool(),
            0..1_000_000u64,
            4,
            |i| i,
            |i, _| {
                seen.push(i);
                i < 10
            },
        );
        // Item 10 said stop; at most the window's worth after it were already started.
        assert!(seen.len() >= 11 && seen.len() <= 11 + 4, "{}", seen.len());
        assert_eq!(seen, (0..seen.len()).collect::<Vec<_>>());
    }
}
