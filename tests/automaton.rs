//! The move automaton (duplicate-path pruning, `fifteen::search::MoveAutomaton`) against
//! facts it does not compute itself:
//!
//! - on small boards, a depth-first search that follows the automaton reaches exactly the
//!   boards a plain breadth-first search finds within the same depth, each at its BFS
//!   distance (so every board keeps a shortest path: the completeness IDA* needs);
//! - on the unbounded board, the number of distinct effects (permutations) first reached
//!   at each length equals a brute-force count over every move string, and each forbidden
//!   string does have an earlier twin of the same effect inside its own cells;
//! - the strings kept in the source are the ones the search over strings finds;
//! - the solver with the automaton gives the published lengths of three 24-puzzle
//!   instances (when the 5x5 tables are built). The 8-puzzle (every board against BFS) and
//!   the Korf 100 are checked by `optimality.rs` and `full_tables.rs`, which run the same
//!   default search.

use std::collections::{HashMap, HashSet, VecDeque};

use fifteen::random::{random_walk, Rng};
use fifteen::search::{duplicates, Geometry, MoveAutomaton, Packed, Tiles, DEAD, NONE, START};
use fifteen::{Goal, Shape};

/// Distances of every board within `depth` moves of `start`, by plain BFS (no automaton).
fn bfs(geo: &Geometry, start: Packed, depth: u32) -> HashMap<Packed, u32> {
    let mut dist = HashMap::from([(start, 0)]);
    let mut q = VecDeque::from([start]);
    while let Some(p) = q.pop_front() {
        let d = dist[&p];
        if d == depth {
            continue;
        }
        let b = p.blank();
        for to in geo.neighbor[b] {
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let c = p.slide(to, p.get(to), geo.blank_label as usize);
            dist.entry(c).or_insert_with(|| {
                q.push_back(c);
                d + 1
            });
        }
    }
    dist
}

/// The least depth at which a depth-first search from `start` that follows the automaton
/// reaches each board, within `depth` moves.
fn automaton_dfs(
    geo: &Geometry,
    fsm: &MoveAutomaton,
    start: Packed,
    depth: u32,
) -> HashMap<Packed, u32> {
    fn go(
        geo: &Geometry,
        fsm: &MoveAutomaton,
        p: Packed,
        state: u32,
        g: u32,
        depth: u32,
        out: &mut HashMap<Packed, u32>,
    ) {
        let e = out.entry(p).or_insert(g);
        *e = (*e).min(g);
        if g == depth {
            return;
        }
        let b = p.blank();
        for d in 0..4u8 {
            let next = fsm.step(state, d);
            let to = geo.neighbor[b][d as usize];
            if next == DEAD || to == NONE {
                continue;
            }
            let to = to as usize;
            let c = p.slide(to, p.get(to), geo.blank_label as usize);
            go(geo, fsm, c, next, g + 1, depth, out);
        }
    }
    let mut out = HashMap::new();
    go(geo, fsm, start, START, 0, depth, &mut out);
    out
}

fn same_reach(rows: usize, cols: usize, starts: &[Packed], depth: u32, fsm: &MoveAutomaton) {
    let shape = Shape::new(rows, cols).unwrap();
    let goal = Goal::standard(shape);
    let labels = goal.labels(goal.board()).unwrap();
    let geo = Geometry::new(labels.shape, labels.blank_label);
    for &start in starts {
        let want = bfs(&geo, start, depth);
        let got = automaton_dfs(&geo, fsm, start, depth);
        assert_eq!(
            got.len(),
            want.len(),
            "{rows}x{cols} within {depth}: boards reached"
        );
        for (p, d) in &want {
            assert_eq!(
                got.get(p),
                Some(d),
                "{rows}x{cols}: {p:?} at its BFS distance"
            );
        }
    }
}

fn goal_of(rows: usize, cols: usize) -> Packed {
    let shape = Shape::new(rows, cols).unwrap();
    let goal = Goal::standard(shape);
    let labels = goal.labels(goal.board()).unwrap();
    Geometry::new(labels.shape, labels.blank_label).goal()
}

/// Small boards searched whole (2x2, 2x3, 3x3, 2x4) or deep (3x4), from the goal: the
/// automaton keeps every board at its distance.
#[test]
fn every_small_board_keeps_a_shortest_path() {
    let fsm = MoveAutomaton::standard();
    // The diameters: 2x2 6, 2x3 21, 3x3 31, 2x4 36.
    for (r, c, depth) in [
        (2, 2, 6),
        (2, 3, 21),
        (3, 2, 21),
        (3, 3, 31),
        (2, 4, 36),
        (4, 2, 36),
    ] {
        same_reach(r, c, &[goal_of(r, c)], depth, fsm);
    }
    same_reach(3, 4, &[goal_of(3, 4)], 24, fsm);
    same_reach(4, 3, &[goal_of(4, 3)], 24, fsm);
}

/// The 4x4 from the goal and from boards far from it, 16 moves deep.
#[test]
fn the_4x4_keeps_every_board_within_16_moves_at_its_distance() {
    let fsm = MoveAutomaton::standard();
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::standard(shape);
    let mut rng = Rng::new(25);
    let mut starts = vec![goal_of(4, 4)];
    for _ in 0..2 {
        let b = random_walk(&mut rng, &goal, 60);
        let labels = goal.labels(&b).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        starts.push(geo.load(&labels));
    }
    same_reach(4, 4, &starts, 16, fsm);
}

/// The effect of a move string on an unbounded board, computed plainly: a grid of labels,
/// the blank swapped along; returns the grid and the cells the blank visited.
fn effect(moves: &[u8], width: i32) -> (Vec<u16>, HashSet<i32>) {
    let mut grid: Vec<u16> = (0..(width * width) as u16).collect();
    let mut blank = width / 2 * width + width / 2;
    let mut cells = HashSet::from([blank]);
    for &d in moves {
        let to = match d {
            0 => blank - width,
            1 => blank + width,
            2 => blank - 1,
            _ => blank + 1,
        };
        grid.swap(blank as usize, to as usize);
        blank = to;
        cells.insert(blank);
    }
    let moved = grid
        .iter()
        .enumerate()
        .filter(|&(c, &l)| c as u16 != l)
        .flat_map(|(c, &l)| [c as u16, l])
        .collect();
    (moved, cells)
}

fn all_strings(len: usize) -> Vec<Vec<u8>> {
    let mut out = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|s| {
                (0..4u8).map(move |d| {
                    let mut t = s.clone();
                    t.push(d);
                    t
                })
            })
            .collect();
    }
    out
}

/// The count of distinct effects first reached at each length, by brute force over all
/// 4^k strings, against the search over strings (which extends only the strings the
/// automaton allows): the pruned search loses no effect.
#[test]
fn the_search_over_strings_finds_every_effect() {
    let max = 9;
    let dup = duplicates(max);
    let width = 2 * max as i32 + 3;
    let mut seen: HashSet<Vec<u16>> = HashSet::new();
    for k in 0..=max {
        let mut fresh = 0u64;
        for s in all_strings(k) {
            if seen.insert(effect(&s, width).0) {
                fresh += 1;
            }
        }
        assert_eq!(dup.new_effects[k], fresh, "length {k}");
    }
}

/// A move string and the cells its blank visits.
type Twin = (Vec<u8>, HashSet<i32>);

/// Each forbidden string of the search's automaton up to 10 moves has a twin, found here
/// by brute force: an earlier string (shorter, or as long and smaller in direction order)
/// with the same effect whose blank stays within the forbidden string's cells. And no
/// forbidden string contains another.
#[test]
fn every_forbidden_string_has_a_twin_inside_its_cells() {
    let fsm = MoveAutomaton::standard();
    let width = 2 * 10 + 3;
    let mut by_effect: HashMap<Vec<u16>, Vec<Twin>> = HashMap::new();
    for k in 0..=10 {
        for s in all_strings(k) {
            if s.windows(2).any(|w| w[0] ^ 1 == w[1]) && k > 2 {
                continue; // twins that undo a move are not needed (the empty string serves)
            }
            let (e, cells) = effect(&s, width);
            by_effect.entry(e).or_default().push((s, cells));
        }
    }
    let all = fsm.forbidden();
    assert_eq!(all.len(), fsm.forbidden_count());
    let forbidden: HashSet<&Vec<u8>> = all.iter().collect();
    let mut checked = 0;
    for s in all.iter().filter(|s| s.len() <= 10) {
        let (e, cells) = effect(s, width);
        let twin = by_effect[&e]
            .iter()
            .any(|(t, tc)| (t.len(), t) < (s.len(), s) && tc.is_subset(&cells));
        assert!(twin, "{s:?} has no twin");
        for i in 0..s.len() {
            for j in i + 1..=s.len() {
                if (i, j) != (0, s.len()) {
                    assert!(!forbidden.contains(&s[i..j].to_vec()), "{s:?} not minimal");
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 4, "the automaton forbids more than parent moves");
}

/// The strings kept in the source (src/search/move_strings.txt) are the ones the search
/// over strings finds (about 10 s and 0.5 GB at 14 moves).
#[test]
fn the_kept_strings_are_the_searched_ones() {
    let fsm = MoveAutomaton::standard();
    let dup = duplicates(fsm.max_len());
    assert_eq!(fsm.forbidden(), dup.forbidden);
}

/// Walking the automaton along a path says whether the path contains a forbidden string.
#[test]
fn walking_a_path_finds_the_forbidden_strings_in_it() {
    use fifteen::Dir;
    let fsm = MoveAutomaton::standard();
    let parents = MoveAutomaton::parents();
    assert_eq!(parents.forbidden_count(), 4);
    assert!(fsm.walk(&[Dir::Up, Dir::Down]).is_none());
    for s in fsm.forbidden().iter().take(200) {
        let mut path: Vec<Dir> = vec![Dir::Left, Dir::Left, Dir::Up];
        path.extend(s.iter().map(|&d| Dir::ALL[d as usize]));
        assert!(fsm.walk(&path).is_none(), "{s:?} after LLU");
        // Every proper prefix of a minimal string is allowed on its own.
        let own: Vec<Dir> = s[..s.len() - 1]
            .iter()
            .map(|&d| Dir::ALL[d as usize])
            .collect();
        assert!(fsm.walk(&own).is_some(), "a prefix of {s:?}");
    }
}

/// Three of Korf and Felner's 24-puzzle instances (the quickest: ids 40, 25, 44) get their
/// published lengths from the default search with the automaton, on two threads.
#[test]
fn three_24_puzzle_instances_keep_their_published_lengths() {
    use fifteen::pdb::{Partition, TableDir};
    let dir = std::env::var_os("FIFTEEN_TABLES")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(fifteen::pdb::default_dir)
        .expect("a tables directory");
    let shape = Shape::new(5, 5).unwrap();
    if !TableDir::new(&dir)
        .missing(&Partition::default_for(shape, 0))
        .is_empty()
    {
        let why = format!("no 5x5 tables in {}", dir.display());
        assert!(std::env::var_os("CI").is_none(), "under CI: {why}");
        eprintln!("skipped: {why}");
        return;
    }
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/korf24.txt")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("three.txt");
    let mut chosen = String::from("goal: blank-first\n");
    for id in ["40", "25", "44"] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap();
        chosen.push_str(line);
        chosen.push('\n');
    }
    std::fs::write(&file, chosen).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fifteen"))
        .arg("bench")
        .arg(&file)
        .args(["--threads", "2", "--tables"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("3 solved, 0 failed, 0 wrong lengths"),
        "{stdout}"
    );
}
