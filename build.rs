//! Computes the default move automaton's transitions from `src/search/move_strings.txt`
//! when the crate is compiled, so that no process spends the 5 ms it takes
//! (`src/search/automaton/transitions.rs`, shared with the library, says more).

#[allow(dead_code)]
#[path = "src/search/automaton/transitions.rs"]
mod transitions;

fn main() {
    const STRINGS: &str = "src/search/move_strings.txt";
    println!("cargo:rerun-if-changed={STRINGS}");
    println!("cargo:rerun-if-changed=src/search/automaton/transitions.rs");
    let text = std::fs::read_to_string(STRINGS).expect("src/search/move_strings.txt");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("move_automaton.bin");
    std::fs::write(out, transitions::to_bytes(&transitions::transitions(&text)))
        .expect("writing the move automaton into OUT_DIR");
}
