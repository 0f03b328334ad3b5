//! The move automaton's transitions, computed from its strings' text. Shared, word for
//! word, by the library and the build script (`build.rs`), which computes the default
//! automaton's transitions when the crate is compiled: built at the start of every
//! process, they cost about 5 ms of a single-threaded start (4% of the Korf 100's wall
//! time on two threads). The build script compiles this file on its own, so nothing here
//! may use the crate.

/// The first line of a strings' text, before the length.
pub const HEADER: &str = "# fifteen move automaton: minimal forbidden strings up to ";

/// The move letters, in direction order.
pub const LETTERS: [char; 4] = ['U', 'D', 'L', 'R'];

/// The transition of a move that completes a forbidden string.
pub const DEAD: u32 = u32::MAX;

/// A move letter's direction.
pub fn letter(c: u8) -> usize {
    LETTERS
        .iter()
        .position(|&l| l as u8 == c)
        .expect("a move letter (U, D, L, R)")
}

/// The longest string length a header line of the strings' text names (0 if it names
/// none); `None` for a line that is not the header.
pub fn header_len(line: &str) -> Option<usize> {
    let rest = line.strip_prefix(HEADER)?;
    Some(
        rest.split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0),
    )
}

/// An automaton's transitions, with what its text says of itself.
pub struct Transitions {
    /// `next[4 * state + dir]`: the state after the move, or [`DEAD`].
    pub next: Vec<u32>,
    /// How many forbidden strings.
    pub count: usize,
    /// The longest strings the search that found them considered.
    pub max_len: usize,
}

/// The Aho-Corasick automaton refusing exactly the strings of `text` (none may contain
/// another) anywhere in a path: one pass over the text for the trie, one breadth-first
/// pass that turns it into the transitions in place.
pub fn transitions(text: &str) -> Transitions {
    const NO: u32 = u32::MAX;
    let (mut max_len, mut count) = (0, 0);
    // The trie: node 0 the empty prefix; `terminal`: a forbidden string ends there.
    let mut child: Vec<[u32; 4]> = vec![[NO; 4]];
    let mut terminal = vec![false];
    for line in text.lines() {
        if let Some(len) = header_len(line) {
            max_len = len;
            continue;
        }
        let mut n = 0usize;
        for c in line.bytes() {
            let d = letter(c);
            if child[n][d] == NO {
                child.push([NO; 4]);
                terminal.push(false);
                child[n][d] = (child.len() - 1) as u32;
            }
            n = child[n][d] as usize;
        }
        terminal[n] = true;
        count += 1;
    }
    // Breadth first, each node's missing moves filled from its failure link's (the
    // longest proper suffix that is a node, met earlier in this order).
    let mut fail = vec![0u32; child.len()];
    let mut queue = std::collections::VecDeque::with_capacity(child.len());
    for d in 0..4 {
        match child[0][d] {
            NO => child[0][d] = 0,
            c => queue.push_back(c as usize),
        }
    }
    while let Some(n) = queue.pop_front() {
        let f = fail[n] as usize;
        for d in 0..4 {
            match child[n][d] {
                NO => child[n][d] = child[f][d],
                c => {
                    fail[c as usize] = child[f][d];
                    queue.push_back(c as usize);
                }
            }
        }
    }
    // Live states are the trie's non-terminal nodes: a proper prefix of a forbidden
    // string has no forbidden suffix, the strings being minimal.
    let mut number = vec![DEAD; child.len()];
    let mut live = 0u32;
    for (n, &t) in terminal.iter().enumerate() {
        if !t {
            number[n] = live;
            live += 1;
        }
    }
    let mut next = Vec::with_capacity(4 * live as usize);
    for (row, &t) in child.iter().zip(&terminal) {
        if !t {
            next.extend(row.iter().map(|&c| number[c as usize]));
        }
    }
    Transitions {
        next,
        count,
        max_len,
    }
}

/// [`DEAD`] in an automaton's rows, which hold states in two bytes.
pub const NARROW_DEAD: u16 = u16::MAX;

/// The transitions in two bytes a state, [`NARROW_DEAD`] for [`DEAD`]: half the cache
/// lines for the rows the search reads at every node (1.5% off the Korf 100's time
/// against four bytes).
///
/// # Panics
/// With [`NARROW_DEAD`] live states or more (strings up to 14 moves have 58,704).
pub fn rows(t: &Transitions) -> Vec<u16> {
    let states = t.next.len() / 4;
    assert!(
        states < NARROW_DEAD as usize,
        "a move automaton of {states} states: at most {NARROW_DEAD} fit its rows"
    );
    t.next
        .iter()
        .map(|&s| if s == DEAD { NARROW_DEAD } else { s as u16 })
        .collect()
}
