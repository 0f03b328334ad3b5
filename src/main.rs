//! The `fifteen` command: solve, bench, random, check, tables, play. Its command line lives
//! in the library (`fifteen::cli`, feature `cli`); the search, tables and boards know
//! nothing of it.

use std::sync::atomic::Ordering;

fifteen::look_at_stdout_before_main!(STDOUT_CLOSED);

fn main() {
    fifteen::cli::stdout_was_closed(STDOUT_CLOSED.load(Ordering::Relaxed));
    fifteen::cli::fifteen_main()
}
