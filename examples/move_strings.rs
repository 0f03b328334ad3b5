//! Prints the minimal forbidden move strings up to a length, one a line, for
//! `src/search/move_strings.txt` (the move automaton's strings; see
//! `fifteen::search::MoveAutomaton`), and on stderr how many strings and effects each
//! length has.
//!
//! ```text
//! cargo run --release --example move_strings -- 12 > src/search/move_strings.txt
//! ```

use fifteen::search::duplicates;

fn main() {
    let len: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(fifteen::search::DEFAULT_MAX_LEN);
    let dup = duplicates(len);
    print!(
        "{}",
        fifteen::search::move_strings_text(&dup.forbidden, len)
    );
    for k in 0..=len {
        let forbidden = dup.forbidden.iter().filter(|s| s.len() == k).count();
        eprintln!(
            "length {k}: {} kept strings, {} new effects, {forbidden} forbidden",
            dup.kept[k], dup.new_effects[k]
        );
    }
}
