//! Computes the default move automaton's rows from `src/search/move_strings.txt` when the
//! crate is compiled, so that no process spends the few milliseconds it takes
//! (`src/search/automaton/transitions.rs`, shared with the library, says more): the rows
//! in the target's byte order, read in place from the binary, and their count and length.

#[allow(dead_code)]
#[path = "src/search/automaton/transitions.rs"]
mod transitions;

fn main() {
    const STRINGS: &str = "src/search/move_strings.txt";
    println!("cargo:rerun-if-changed={STRINGS}");
    println!("cargo:rerun-if-changed=src/search/automaton/transitions.rs");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(std::path::Path::new(&root).join(STRINGS))
        .expect("src/search/move_strings.txt");
    let t = transitions::transitions(&text);
    let big = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    let bytes: Vec<u8> = transitions::rows(&t)
        .iter()
        .flat_map(|r| {
            if big {
                r.to_be_bytes()
            } else {
                r.to_le_bytes()
            }
        })
        .collect();
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("move_automaton_rows.bin"), bytes)
        .expect("writing the move automaton into OUT_DIR");
    std::fs::write(
        out.join("move_automaton.rs"),
        format!(
            "/// How many strings the compiled automaton forbids.\n\
             const COMPILED_COUNT: usize = {};\n\
             /// The longest strings its search considered.\n\
             const COMPILED_MAX_LEN: usize = {};\n",
            t.count, t.max_len
        ),
    )
    .expect("writing the move automaton into OUT_DIR");
}
