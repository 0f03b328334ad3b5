//! `build-pdb`: the one-off generator of the pattern databases that `fifteen` maps in. Its
//! command line lives in the library (`fifteen::cli::build_pdb`, feature `cli`), beside
//! `fifteen`'s, so that both share one progress bar and one set of argument types.

fn main() {
    fifteen::cli::build_pdb::main()
}
