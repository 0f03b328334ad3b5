//! Many instances on a thread pool, handed back in input order as soon as each one and all
//! before it are done.
//!
//! Two limits keep a batch of any length in constant memory ([`Window`]): how many items
//! are under way (read and not finished), and how many are held (read and not yet handed
//! back, finished ones waiting for an earlier one included). The second is the larger, so
//! that a slow item holds back output but not work: the other threads go on past it for as
//! long as the held results fit. Items are taken
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

/// How many items a batch may have read ahead of its output.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// Items read and not finished: the work queued for the pool.
    pub under_way: usize,
    /// Items read and not handed back, finished or not: the results kept in memory
    /// behind an item that takes long (at least `under_way`).
    pub held: usize,
}

impl Window {
    /// One item at a time (each on every thread, say).
    pub const ONE: Window = Window {
        under_way: 1,
        held: 1,
    };
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
    window: Window,
    work: W,
    mut emit: E,
) where
    T: Send,
    R: Send,
    I: Iterator<Item = T> + Send,
    W: Fn(T) -> R + Sync,
    E: FnMut(usize, R) -> bool,
{
    let under_way = window.under_way.max(1);
    let held = window.held.max(under_way);
    let (tx, rx) = mpsc::channel::<Msg<T, R>>();
    // Tokens: one per item that may be under way, given back when it finishes, and one
    // per item that may be held, given back when it is emitted. The reader takes one of
    // each before each item.
    let (run_tx, run_rx) = mpsc::sync_channel::<()>(under_way);
    for _ in 0..under_way {
        run_tx
            .send(())
            .expect("the channel holds `under_way` tokens");
    }
    let (slot_tx, slot_rx) = mpsc::sync_channel::<()>(held);
    for _ in 0..held {
        slot_tx.send(()).expect("the channel holds `held` tokens");
    }
    let stop = AtomicBool::new(false);
    let work = &work;
    std::thread::scope(|threads| {
        let to_caller = tx.clone();
        let stop = &stop;
        threads.spawn(move || {
            let mut items = items;
            while run_rx.recv().is_ok() && slot_rx.recv().is_ok() && !stop.load(Ordering::Relaxed) {
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
            let (rx, slot_tx, run_tx) = (rx, slot_tx, run_tx);
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
                        // The reader may have stopped already; then nobody needs it.
                        let _ = run_tx.send(());
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
    use std::sync::atomic::AtomicUsize;
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
            Window {
                under_way: 5,
                held: 5,
            },
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
            Window {
                under_way: 3,
                held: 7,
            },
            |i| i,
            |_, _| {
                *emitted.lock().unwrap() += 1;
                true
            },
        );
        assert_eq!(*emitted.lock().unwrap(), 200);
    }

    #[test]
    fn a_slow_item_holds_back_output_but_not_the_work_after_it() {
        // Item 0 waits until 30 items after it are done: with 3 under way and 40 held,
        // the other threads get there; at most 3 under way at any moment.
        let (done, running, most) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        let mut seen = Vec::new();
        run_ordered(
            &pool(),
            0..60usize,
            Window {
                under_way: 3,
                held: 40,
            },
            |i| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                if i == 0 {
                    let t0 = std::time::Instant::now();
                    while done.load(Ordering::SeqCst) < 30 {
                        assert!(t0.elapsed().as_secs() < 10, "the work after it waited");
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                }
                done.fetch_add(1, Ordering::SeqCst);
                running.fetch_sub(1, Ordering::SeqCst);
                i
            },
            |i, r| {
                seen.push((i, r));
                true
            },
        );
        assert_eq!(seen, (0..60).map(|i| (i, i)).collect::<Vec<_>>());
        assert!(most.load(Ordering::SeqCst) <= 3);
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
                Window {
                    under_way: 4,
                    held: 4,
                },
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
                Window {
                    under_way: 4,
                    held: 4,
                },
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
            Window {
                under_way: 4,
                held: 4,
            },
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
