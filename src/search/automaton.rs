//! Duplicate-path pruning: a finite-state machine over the blank's moves that refuses move
//! strings known to reach a board another, preferred string reaches too (Taylor and Korf,
//! "Pruning duplicate nodes in depth-first search", AAAI 1993).
//!
//! # What is forbidden
//!
//! A move string is read on an unbounded board, as the blank's relative steps; its effect is
//! a permutation of the cells its blank path visits (the other cells keep their tiles). A
//! breadth-first search over strings, shortest first and in direction order (`U D L R`)
//! within one length, keeps the first string of each effect and finds the later ones.
//! A later string `S` is *forbidden* when an earlier string `T` (shorter, or as long and
//! smaller in direction order) has the same effect **and** `T`'s blank path stays within
//! the cells `S`'s path visits (both start at the same cell). The second condition is the
//! bounded board's: wherever `S` applies (every cell its blank visits is on the board),
//! `T` applies too, and from any board both give the same board. A pair whose preferred
//! string leaves `S`'s cells is not used: on a narrow board `S` might be the only way.
//! Strings that contain a forbidden string are never extended, so every forbidden string
//! is minimal (no proper substring of it is forbidden). Parent-move pruning (`UD`, `DU`,
//! `LR`, `RL`, twins of the empty string) is the length-2 case; the first longer ones go
//! once and a half around a 2x2 block.
//!
//! # Why the search stays optimal
//!
//! Order paths by length, then by direction order. A path with a forbidden substring `S`
//! becomes, with `S` replaced by its twin `T`, a path from the same board to the same board
//! that applies on this board (`T`'s cells are among `S`'s), no longer, and smaller in that
//! order (shorter, or the same prefix followed by a smaller string of the same length). The
//! order is a well-order on paths of bounded length, so the smallest path to any board
//! contains no forbidden string: every board keeps a shortest path through the automaton.
//! In IDA* every board of an optimal path has `g + h <= g + h* = C*`, so the smallest
//! optimal path to the goal is inside every threshold from `C*` on, and no iteration
//! below `C*` can meet the goal on any path: the thresholds, the answer's length and its
//! proof are those of the search without the automaton. The mirrored root moves
//! ([`super::Geometry::mirrored_moves`]) stay valid: a symmetry that fixes the start and
//! the goal maps the smallest optimal path to one of the same length whose first move is
//! its image, so that first move is the smallest of its orbit, the one kept.
//!
//! Weighted searches with a table of boards met ([`super::Seen`]) cut a board met again
//! along another path, whose automaton state may forbid more: they keep parent-move
//! pruning alone ([`MoveAutomaton::parents`]).
//!
//! # The machine
//!
//! An Aho-Corasick automaton over the forbidden strings: a state per proper prefix of a
//! forbidden string (the longest such suffix of the moves made so far), a transition per
//! move, [`DEAD`] where a forbidden string ends. State [`START`] is the empty prefix.

mod transitions;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::board::Dir;
pub use transitions::DEAD;
use transitions::{header_len, letter, HEADER, LETTERS, NARROW_DEAD};

/// The state before any move.
pub const START: u32 = 0;

/// The longest forbidden string the default automaton knows (chosen by measurement, see
/// docs/heuristic.md, "Duplicate paths: the move automaton").
pub const DEFAULT_MAX_LEN: usize = 14;

/// A finite-state machine over blank moves (see the module).
#[derive(Clone, Debug)]
pub struct MoveAutomaton {
    /// `next[4 * state + dir]`: the state after the move, or [`NARROW_DEAD`] for
    /// [`DEAD`] (see [`transitions::rows`]); the default automaton's are read in place
    /// from the binary.
    next: Cow<'static, [u16]>,
    /// The minimal forbidden strings, as [`move_strings_text`] writes them.
    text: Cow<'static, str>,
    /// How many.
    count: usize,
    /// The longest strings considered.
    max_len: usize,
}

/// What the breadth-first search over move strings found.
#[derive(Clone, Debug)]
pub struct Duplicates {
    /// The minimal forbidden strings (directions as `Dir as u8`), shortest first, then in
    /// direction order.
    pub forbidden: Vec<Vec<u8>>,
    /// `new_effects[k]`: effects (permutations) first reached by a string of length `k`.
    pub new_effects: Vec<u64>,
    /// `kept[k]`: strings of length `k` that contain no forbidden string.
    pub kept: Vec<u64>,
}

/// The most moves a string of the search over strings may have: its moves are packed two
/// bits each into a `u32`.
pub const MAX_SEARCH_LEN: usize = 16;

/// A cell of the unbounded board as `x + 64 * y`, the blank starting at `(32, 32)`: every
/// cell a string of at most [`MAX_SEARCH_LEN`] moves visits fits.
const ORIGIN: u16 = 32 + 64 * 32;

fn step_cell(cell: u16, d: u32) -> u16 {
    match d {
        0 => cell - 64,
        1 => cell + 64,
        2 => cell - 1,
        _ => cell + 1,
    }
}

/// A string's walk on the unbounded board: its effect (the blank's cell, then each moved
/// tile as `(cell, the cell it came from)` sorted by cell) and the cells its blank
/// visited, sorted. Recomputed from the packed moves whenever needed: the search keeps
/// five bytes a string and its effect's hash, which is what lets it reach 16 moves (51 M
/// strings of that length) in 4 GB, where keeping each walk took 4.7 GB for 14.
struct Walk {
    effect: Vec<u16>,
    cells: Vec<u16>,
}

/// The walk of the `len` moves packed in `moves` (the first in the lowest two bits).
fn walk(moves: u32, len: usize) -> Walk {
    // `origin[i]`: the cell the tile now on `cells[i]` came from (cells in visiting order).
    let mut cells: Vec<u16> = Vec::with_capacity(len + 1);
    let mut origin: Vec<u16> = Vec::with_capacity(len + 1);
    cells.push(ORIGIN);
    origin.push(ORIGIN);
    let mut blank = 0usize; // index into `cells` of the blank's cell
    for i in 0..len {
        let to = step_cell(cells[blank], (moves >> (2 * i)) & 3);
        let j = match cells.iter().position(|&c| c == to) {
            Some(j) => j,
            None => {
                cells.push(to);
                origin.push(to);
                cells.len() - 1
            }
        };
        // The tile on `to` slides onto the blank's cell; the blank goes to `to`.
        origin.swap(blank, j);
        blank = j;
    }
    let mut moved: Vec<(u16, u16)> = cells
        .iter()
        .zip(&origin)
        .enumerate()
        .filter(|&(i, (c, o))| i != blank && c != o)
        .map(|(_, (&c, &o))| (c, o))
        .collect();
    moved.sort_unstable();
    let mut effect = Vec::with_capacity(1 + 2 * moved.len());
    effect.push(cells[blank]);
    for (c, o) in moved {
        effect.push(c);
        effect.push(o);
    }
    cells.sort_unstable();
    Walk { effect, cells }
}

fn effect_hash(effect: &[u16]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for &x in effect {
        h = (h ^ x as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 29;
    }
    h
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Identity(u64);

impl std::hash::Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The breadth-first search over move strings up to `max_len` moves (see the module).
/// Strings of one effect are told by its hash and then compared walk for walk, so a
/// collision of hashes costs time, never a wrong string.
///
/// # Panics
/// Above [`MAX_SEARCH_LEN`].
pub fn duplicates(max_len: usize) -> Duplicates {
    assert!(
        max_len <= MAX_SEARCH_LEN,
        "the search over strings goes to {MAX_SEARCH_LEN} moves at most"
    );
    type Map = HashMap<u64, u32, std::hash::BuildHasherDefault<Identity>>;
    const END: u32 = u32::MAX;
    // Every kept string, shortest first and in the order found: its packed moves, its
    // length, and the next kept string whose effect has the same hash (or END).
    let mut kept_moves: Vec<u32> = vec![0];
    let mut kept_len: Vec<u8> = vec![0];
    let mut chain: Vec<u32> = vec![END];
    // Effect hash -> the last kept string with it (chains run backwards).
    let mut last: Map = Map::default();
    last.insert(effect_hash(&walk(0, 0).effect), 0);
    let mut forbidden: Vec<Vec<u8>> = Vec::new();
    // Per length, the forbidden strings' packed moves.
    let mut forbidden_set: Vec<HashSet<u32>> = vec![HashSet::new(); max_len + 1];
    let mut new_effects = vec![1u64];
    let mut kept = vec![1u64];
    let mut level = 0..1usize;
    for len in 1..=max_len {
        let start = kept_moves.len();
        let mut fresh = 0u64;
        for p in level.clone() {
            for d in 0..4u32 {
                let moves = kept_moves[p] | d << (2 * (len - 1));
                // A forbidden suffix: the string is not minimal, never extended (the
                // parent has none of its own).
                let suffix_forbidden = (2..=len).any(|k| {
                    let set = &forbidden_set[k];
                    !set.is_empty() && set.contains(&(moves >> (2 * (len - k)) & mask(k)))
                });
                if suffix_forbidden {
                    continue;
                }
                let child = walk(moves, len);
                let h = effect_hash(&child.effect);
                let mut seen_effect = false;
                let mut has_twin = false;
                let mut t = last.get(&h).copied().unwrap_or(END);
                while t != END {
                    let twin = walk(kept_moves[t as usize], kept_len[t as usize] as usize);
                    if twin.effect == child.effect {
                        seen_effect = true;
                        if subset(&twin.cells, &child.cells) {
                            has_twin = true;
                            break;
                        }
                    }
                    t = chain[t as usize];
                }
                if !seen_effect {
                    fresh += 1;
                }
                if has_twin {
                    forbidden_set[len].insert(moves);
                    forbidden.push((0..len).map(|i| (moves >> (2 * i) & 3) as u8).collect());
                    continue;
                }
                let index = kept_moves.len() as u32;
                kept_moves.push(moves);
                kept_len.push(len as u8);
                chain.push(last.insert(h, index).unwrap_or(END));
            }
        }
        new_effects.push(fresh);
        kept.push((kept_moves.len() - start) as u64);
        level = start..kept_moves.len();
    }
    Duplicates {
        forbidden,
        new_effects,
        kept,
    }
}

/// The low `2 * k` bits.
fn mask(k: usize) -> u32 {
    if k >= 16 {
        u32::MAX
    } else {
        (1 << (2 * k)) - 1
    }
}

fn subset(small: &[u16], big: &[u16]) -> bool {
    let mut j = 0;
    for &c in small {
        while j < big.len() && big[j] < c {
            j += 1;
        }
        if j == big.len() || big[j] != c {
            return false;
        }
        j += 1;
    }
    true
}

/// The text of [`STRINGS`]: a comment line naming the longest length, then each string in
/// letters (`U D L R`), one a line.
pub fn move_strings_text(forbidden: &[Vec<u8>], max_len: usize) -> String {
    let mut t = format!(
        "{HEADER}{max_len} moves (cargo run --release --example move_strings -- {max_len})\n"
    );
    for s in forbidden {
        t.extend(s.iter().map(|&d| LETTERS[d as usize]));
        t.push('\n');
    }
    t
}

/// The forbidden strings of the search's automaton, computed by `duplicates` (see
/// `examples/move_strings.rs`) and kept in the source because the search up to the
/// lengths worth using takes seconds; a test computes them again and compares.
pub const STRINGS: &str = include_str!("move_strings.txt");

/// Bytes aligned for the `u16`s they hold.
#[repr(C, align(2))]
struct Aligned<B: ?Sized>(B);

/// The rows of the automaton of [`STRINGS`], in the target's byte order, written by the
/// build script (`build.rs`); `COMPILED_COUNT` and `COMPILED_MAX_LEN` beside them.
static COMPILED_ROWS: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(
    env!("OUT_DIR"),
    "/move_automaton_rows.bin"
)));
include!(concat!(env!("OUT_DIR"), "/move_automaton.rs"));

/// [`COMPILED_ROWS`] as the `u16`s they are.
fn compiled_rows() -> &'static [u16] {
    let bytes = &COMPILED_ROWS.0;
    // SAFETY: the bytes are aligned for u16 (`Aligned`), their length is even (the build
    // script writes u16s), every bit pattern is a u16, and they live for the program.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u16>(), bytes.len() / 2) }
}

/// The state after `dir` from `state` in `rows` (an automaton's [`MoveAutomaton::rows`]),
/// or [`DEAD`].
#[inline(always)]
pub(crate) fn step(rows: &[u16], state: u32, dir: u8) -> u32 {
    match rows[4 * state as usize + dir as usize] {
        NARROW_DEAD => DEAD,
        s => s as u32,
    }
}

fn parse_strings(text: &str) -> (Vec<Vec<u8>>, usize) {
    let mut max_len = 0;
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(len) = header_len(line) {
            max_len = len;
            continue;
        }
        out.push(line.bytes().map(|c| letter(c) as u8).collect());
    }
    (out, max_len)
}

impl MoveAutomaton {
    /// The automaton of every minimal forbidden string up to `max_len` moves.
    pub fn build(max_len: usize) -> MoveAutomaton {
        let dup = duplicates(max_len);
        MoveAutomaton::from_text(move_strings_text(&dup.forbidden, max_len).into())
    }

    /// The automaton refusing exactly the strings of `text` (as [`move_strings_text`]
    /// writes them; none may contain another) anywhere in a path.
    ///
    /// # Panics
    /// With too many states for two bytes (see [`transitions::rows`]).
    fn from_text(text: Cow<'static, str>) -> MoveAutomaton {
        let t = transitions::transitions(&text);
        MoveAutomaton {
            next: Cow::Owned(transitions::rows(&t)),
            text,
            count: t.count,
            max_len: t.max_len,
        }
    }

    /// The automaton that refuses only a move undoing the one before: parent-move pruning.
    pub fn parents() -> &'static MoveAutomaton {
        static PARENTS: OnceLock<MoveAutomaton> = OnceLock::new();
        PARENTS.get_or_init(|| MoveAutomaton::build(2))
    }

    /// The automaton the search uses: the strings kept in [`STRINGS`] (up to
    /// [`DEFAULT_MAX_LEN`] moves), built once a process. For studies, the environment
    /// variable `FIFTEEN_FSM_LEN=L` builds the automaton of strings up to `L` moves
    /// instead (seconds for 12; `2`, the least, is parent-move pruning alone); read once, so every
    /// search of a process prunes alike.
    pub fn standard() -> &'static MoveAutomaton {
        static STANDARD: OnceLock<MoveAutomaton> = OnceLock::new();
        STANDARD.get_or_init(|| {
            if let Some(l) = std::env::var("FIFTEEN_FSM_LEN")
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
            {
                // Never below 2: the search tells its root by the start state, which no
                // other node has once every move begins a forbidden string.
                // Never above 14 either: longer strings' automata (about 500,000 states
                // for 16) do not fit rows of two bytes a state.
                return MoveAutomaton::build(l.clamp(2, DEFAULT_MAX_LEN));
            }
            MoveAutomaton {
                next: Cow::Borrowed(compiled_rows()),
                text: Cow::Borrowed(STRINGS),
                count: COMPILED_COUNT,
                max_len: COMPILED_MAX_LEN,
            }
        })
    }

    /// The automaton a search with this weight uses: [`MoveAutomaton::standard`] for the
    /// optimal search, [`MoveAutomaton::parents`] for a weighted one (see the module).
    pub fn for_weight(weight: super::Weight) -> &'static MoveAutomaton {
        if weight.is_one() {
            MoveAutomaton::standard()
        } else {
            MoveAutomaton::parents()
        }
    }

    /// Its rows, for [`step`] in a hot loop (without going through the `Cow` each move).
    pub(crate) fn rows(&self) -> &[u16] {
        &self.next
    }

    /// The state after `dir` from `state`, or [`DEAD`].
    #[inline(always)]
    pub fn step(&self, state: u32, dir: u8) -> u32 {
        step(&self.next, state, dir)
    }

    /// The state after `moves` from [`START`], or `None` when they contain a forbidden
    /// string.
    pub fn walk(&self, moves: &[Dir]) -> Option<u32> {
        let mut s = START;
        for &d in moves {
            s = self.step(s, d as u8);
            if s == DEAD {
                return None;
            }
        }
        Some(s)
    }

    /// Live states.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The minimal forbidden strings it refuses (directions as `Dir as u8`), in the
    /// order found: shortest first, then in direction order.
    pub fn forbidden(&self) -> Vec<Vec<u8>> {
        parse_strings(&self.text).0
    }

    /// How many minimal forbidden strings it refuses.
    pub fn forbidden_count(&self) -> usize {
        self.count
    }

    /// The longest strings its search considered.
    pub fn max_len(&self) -> usize {
        self.max_len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_pruning_is_the_length_2_case() {
        let a = MoveAutomaton::build(2);
        assert_eq!(
            a.forbidden(),
            vec![vec![0, 1], vec![1, 0], vec![2, 3], vec![3, 2]]
        );
        assert_eq!(a.states(), 5);
        for s in 1..5u32 {
            for d in 0..4u8 {
                // State `1 + d'` is "last move d'": only its reverse is dead.
                let last = (s - 1) as u8;
                assert_eq!(a.step(s, d) == DEAD, d == last ^ 1, "state {s} move {d}");
            }
        }
    }

    /// The search tells its root by [`START`]: no move leads back to it.
    #[test]
    fn no_move_returns_to_the_start_state() {
        let a = MoveAutomaton::standard();
        for s in 0..a.states() as u32 {
            for d in 0..4u8 {
                assert_ne!(a.step(s, d), START, "state {s} move {d}");
            }
        }
    }

    /// The build script's rows are the ones the strings give here.
    #[test]
    fn the_compiled_automaton_is_the_strings_automaton() {
        let built = MoveAutomaton::from_text(Cow::Borrowed(STRINGS));
        let standard = MoveAutomaton::standard();
        assert_eq!(built.next, standard.next);
        assert_eq!(
            (built.count, built.max_len),
            (standard.count, standard.max_len)
        );
        assert_eq!(standard.max_len(), DEFAULT_MAX_LEN);
        assert_eq!(standard.forbidden_count(), standard.forbidden().len());
        assert_eq!(standard.states(), 58_704);
    }

    #[test]
    fn the_text_reads_back() {
        let dup = duplicates(8);
        let text = move_strings_text(&dup.forbidden, 8);
        assert_eq!(parse_strings(&text), (dup.forbidden, 8));
    }
}
