//! `build-pdb`: the one-off generator of the pattern databases that `fifteen` maps in
//! (`cargo run --release --bin build-pdb -- --help`). Its command line lives beside
//! `fifteen`'s (`src/cli/build_pdb.rs`), so that both share one progress bar and one set of
//! argument types.

use std::sync::atomic::Ordering;

fifteen::look_at_stdio_before_main!(STDIN_CLOSED, STDOUT_CLOSED);

fn main() {
    fifteen::cli::stdio_was_closed(
        STDIN_CLOSED.load(Ordering::Relaxed),
        STDOUT_CLOSED.load(Ordering::Relaxed),
    );
    fifteen::cli::build_pdb::main()
}
