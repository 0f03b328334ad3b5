//! The `fifteen` command: solve, bench, random, check, tables, play. Its command line lives
//! in the library (`fifteen::cli`, feature `cli`); the search, tables and boards know
//! nothing of it.

fn main() {
    fifteen::cli::fifteen_main()
}
