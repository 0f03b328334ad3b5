//! Uniformly random solvable boards, reproducible from a seed.
//!
//! A tiny xoshiro256** generator, so that a seed gives the same boards on every platform
//! and with every version of the dependencies.

use crate::board::{Board, Dir, Goal, Shape};

/// xoshiro256** seeded through splitmix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole output is fixed by `seed`; every seed, 0 included, is a good
    /// one (splitmix64 spreads it over the 256-bit state).
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 uniformly random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (rejection sampling, no modulo bias).
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
}

/// A board drawn uniformly from all boards that can reach `goal`.
///
/// A uniform shuffle is solvable with probability exactly 1/2 (swapping two tiles flips
/// solvability), so drawing until solvable keeps the distribution uniform.
pub fn random_board(rng: &mut Rng, goal: &Goal) -> Board {
    let shape: Shape = goal.shape();
    let n = shape.cells();
    let mut tiles: Vec<u8> = (0..n as u8).collect();
    loop {
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        let b = Board::new(shape, &tiles).expect("a permutation is a board");
        if goal.labels(&b).is_ok() {
            return b;
        }
    }
}

/// A board `k` random moves from the goal (never undoing the previous move); its optimal
/// length is at most `k` and of the same parity.
pub fn random_walk(rng: &mut Rng, goal: &Goal, k: usize) -> Board {
    let mut b = *goal.board();
    let mut prev: Option<Dir> = None;
    for _ in 0..k {
        (b, prev) = step(rng, &b, prev);
    }
    b
}

/// One random move of the blank that does not undo `prev`: the board after it and the move.
fn step(rng: &mut Rng, b: &Board, prev: Option<Dir>) -> (Board, Option<Dir>) {
    loop {
        let d = Dir::ALL[rng.below(4) as usize];
        if Some(d.opposite()) == prev {
            continue;
        }
        if let Some(nb) = b.apply(d) {
            return (nb, Some(d));
        }
    }
}

/// The generator of board `i` (counted from 1) of a run seeded with `seed` whose boards
/// each have their own (`fifteen random --distance`, Python's `random_boards(distance=)`,
/// which give the same boards): any board of the run is drawn without the others, so that a
/// shard or a thread draws its own alone.
pub fn board_rng(seed: u64, i: u64) -> Rng {
    Rng::new(Rng::new(seed).next_u64() ^ Rng::new(i).next_u64())
}

/// How many moves [`walk_to_distance`] is given to reach `distance` by `fifteen random
/// --distance` and Python: ample for any distance that is not among a board's farthest.
pub fn distance_budget(distance: u32) -> u64 {
    10_000 + 1_000 * u64::from(distance)
}

/// The most moves any board of the goal's shape needs, where that is known: for a goal with
/// its blank in a corner, on the shapes whose every board has been solved (`None` for the
/// others). A walk asked to stand farther away could only give up after its budget; this
/// says at once that no board is that far.
///
/// The radii: 2x2 to 2x8 (6, 21, 36, 55, 80, 108, 140; OEIS A151943), 3x3 (31), 3x4 (53)
/// and 3x5 (84) from Korf's breadth-first searches ("Linear-time disk-based implicit graph
/// search", JACM 2008, with Rokicki's corrections in A151943), 4x4 (80; Brüngger et al.
/// 1999, Korf and Schultze 2005); each the same for their transposes, and for every corner
/// by symmetry. `tests/cli_search.rs` confirms the small ones by exhaustive search.
///
/// ```
/// use fifteen::random::farthest;
/// use fifteen::{Goal, Shape};
///
/// assert_eq!(farthest(&Goal::standard(Shape::new(4, 4).unwrap())), Some(80));
/// assert_eq!(farthest(&Goal::standard(Shape::new(5, 5).unwrap())), None);
/// ```
pub fn farthest(goal: &Goal) -> Option<u32> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows as usize, shape.cols as usize);
    let (r, c) = (goal.blank() / cols, goal.blank() % cols);
    if (r != 0 && r != rows - 1) || (c != 0 && c != cols - 1) {
        return None;
    }
    match (rows.min(cols), rows.max(cols)) {
        (2, 2) => Some(6),
        (2, 3) => Some(21),
        (2, 4) => Some(36),
        (2, 5) => Some(55),
        (2, 6) => Some(80),
        (2, 7) => Some(108),
        (2, 8) => Some(140),
        (3, 3) => Some(31),
        (3, 4) => Some(53),
        (3, 5) => Some(84),
        (4, 4) => Some(80),
        _ => None,
    }
}

/// Why no board `distance` moves from `goal` was found by a walk of `budget` moves, for
/// people: where the radius is known and the distance within it, the boards exist and are
/// only too rare for a walk to meet (on 3x3, 2 of 181,440 boards are 31 moves away).
///
/// ```
/// use fifteen::random::walk_gave_up;
/// use fifteen::{Goal, Shape};
///
/// let goal = Goal::standard(Shape::new(3, 3).unwrap());
/// assert!(walk_gave_up(&goal, 31, 41000).contains("exist (the farthest are 31 moves away)"));
/// ```
pub fn walk_gave_up(goal: &Goal, distance: u32, budget: u64) -> String {
    let shape = goal.shape();
    match farthest(goal) {
        Some(max) if distance <= max => format!(
            "no walk from the goal stood {distance} moves away within {budget} moves: {shape} boards that far exist (the farthest are {max} moves away) but are too rare for a random walk to meet; ask for fewer moves, or try other seeds"
        ),
        _ => format!(
            "no walk from the goal stood {distance} moves away within {budget} moves: boards that far are rare or do not exist on {shape} boards"
        ),
    }
}

/// A board exactly `distance` moves from the goal, for curricula and test sets: where a
/// random walk from the goal (as [`random_walk`]'s) first stands that far; `None` when it
/// has not within `budget` moves (boards that far are rare, or there are none).
///
/// `measure` gives a board's optimal distance (an optimal search; its error is returned as
/// it comes). A distance changes by exactly one with each move, so a walk that stands `k`
/// moves away cannot stand `distance` away before `distance - k` more moves: it is measured
/// only then, and the first time it measures `distance` is the first time it stands there.
/// The boards are not uniform among those at that distance (a walk reaches some more often
/// than others); no cheap way to draw those uniformly is known beyond the small boards.
///
/// # Examples
/// ```
/// use fifteen::random::{walk_to_distance, Rng};
/// use fifteen::search::Search;
/// use fifteen::{Board, Goal, HeuristicKind, Shape, Solver};
///
/// let goal = Goal::standard(Shape::new(3, 3).unwrap());
/// let solver = Solver::new(HeuristicKind::LinearConflict);
/// let measure = |b: &Board| {
///     solver.solve(b, &goal, &Search::default()).map(|s| s.moves.len() as u32)
/// };
/// let board = walk_to_distance(&mut Rng::new(7), &goal, 20, 100_000, measure)?.unwrap();
/// assert_eq!(measure(&board)?, 20);
/// # Ok::<(), fifteen::SolveError>(())
/// ```
pub fn walk_to_distance<E>(
    rng: &mut Rng,
    goal: &Goal,
    distance: u32,
    budget: u64,
    mut measure: impl FnMut(&Board) -> Result<u32, E>,
) -> Result<Option<Board>, E> {
    let mut b = *goal.board();
    let mut prev = None;
    // Moves before the walk can first stand `distance` away: all of them, at the goal.
    let mut wait = distance;
    let mut moved = 0;
    while wait > 0 {
        if moved == budget {
            return Ok(None);
        }
        (b, prev) = step(rng, &b, prev);
        moved += 1;
        wait -= 1;
        if wait == 0 {
            let now = measure(&b)?;
            assert!(now <= distance, "a distance grew by more than one a move");
            wait = distance - now;
        }
    }
    Ok(Some(b))
}
