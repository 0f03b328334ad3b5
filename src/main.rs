//! The `fifteen` command: solve, bench, random, check, tables, play. Its command line lives
//! in the library (`fifteen::cli`, feature `cli`); the search, tables and boards know
//! nothing of it.

use std::sync::atomic::Ordering;

fifteen::look_at_stdio_before_main!(STDIN_CLOSED, STDOUT_CLOSED);

fn main() {
    fifteen::cli::stdio_was_closed(
        STDIN_CLOSED.load(Ordering::Relaxed),
        STDOUT_CLOSED.load(Ordering::Relaxed),
    );
    fifteen::cli::fifteen_main()
}
