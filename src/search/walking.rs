//! Walking distance: how many up/down moves the tiles need to get every tile into its goal
//! row, counted exactly on a relaxed puzzle that forgets which column a tile is in (and
//! the same for left/right moves and goal columns), from two small tables built at start.
//!
//! A board's row view is a matrix `m[r][g]`: how many tiles of row `r` belong in row `g`,
//! with the blank's row. An up/down move takes one tile from the blank's neighbouring row
//! into the blank's row, whatever its column; a backward breadth-first search from the
//! goal's matrix gives the fewest such moves for every matrix. Every real move is one
//! up/down or one left/right move, so the row count plus the column count never exceeds
//! the real distance: admissible. It sees tiles crowding into wrong rows and columns,
//! which Manhattan distance (and tables split by rows) cannot.

use std::collections::HashMap;

use super::{Geometry, Heuristic, Tiles};

/// The distances of one axis (rows, or columns) and the move graph between its matrices.
#[derive(Clone, Debug)]
struct Axis {
    /// Lines on this axis (rows for the row view).
    lines: usize,
    /// Fewest moves from each state to the goal state.
    dist: Vec<u8>,
    /// `next[(state * 2 + up) * lines + g]`: the state after a tile whose goal line is
    /// `g` moves from the neighbouring line into the blank's (`up`: the blank moves to the
    /// lower-numbered line); `u32::MAX` for a move that is not possible.
    next: Vec<u32>,
}

/// A state: the count matrix (row-major, `lines * lines`) and the blank's line.
type Key = (Vec<u8>, u8);

impl Axis {
    /// Builds the axis: `lines` lines of `len` cells; `line_of(label)` is a label's goal
    /// line; the blank is label `blank`. Returns the axis and each state's id by matrix;
    /// `None` when the relaxed puzzle has more than `cap` states.
    fn build(
        lines: usize,
        cells: usize,
        line_of: impl Fn(usize) -> usize,
        blank: usize,
        cap: usize,
    ) -> Option<(Axis, HashMap<Key, u32>)> {
        let mut goal = vec![0u8; lines * lines];
        for l in 0..cells {
            if l != blank {
                let g = line_of(l);
                goal[g * lines + g] += 1;
            }
        }
        let start: Key = (goal, line_of(blank) as u8);
        let mut ids: HashMap<Key, u32> = HashMap::new();
        let mut keys: Vec<Key> = Vec::new();
        let mut dist: Vec<u8> = Vec::new();
        ids.insert(start.clone(), 0);
        keys.push(start);
        dist.push(0);
        let mut edges: Vec<u32> = Vec::new();
        let mut at = 0;
        while at < keys.len() {
            let (m, b) = keys[at].clone();
            let b = b as usize;
            for up in [false, true] {
                for g in 0..lines {
                    let to = if up { b.checked_sub(1) } else { Some(b + 1) };
                    let target = match to {
                        Some(nb) if nb < lines && m[nb * lines + g] > 0 => {
                            let mut n = m.clone();
                            n[nb * lines + g] -= 1;
                            n[b * lines + g] += 1;
                            let key = (n, nb as u8);
                            match ids.get(&key) {
                                Some(&id) => id,
                                None => {
                                    if keys.len() >= cap {
                                        return None;
                                    }
                                    let id = keys.len() as u32;
                                    ids.insert(key.clone(), id);
                                    keys.push(key);
                                    dist.push(dist[at].saturating_add(1));
                                    id
                                }
                            }
                        }
                        _ => u32::MAX,
                    };
                    edges.push(target);
                }
            }
            at += 1;
        }
        let axis = Axis {
            lines,
            dist,
            next: edges,
        };
        Some((axis, ids))
    }

    /// The state of a board: `line(c)` is cell `c`'s line, `goal_line(l)` label `l`'s.
    fn state<T: Tiles>(
        &self,
        p: &T,
        cells: usize,
        blank: usize,
        line: impl Fn(usize) -> usize,
        goal_line: impl Fn(usize) -> usize,
        ids: &HashMap<Key, u32>,
    ) -> u32 {
        let mut m = vec![0u8; self.lines * self.lines];
        let mut b = 0;
        for c in 0..cells {
            let l = p.get(c);
            if l == blank {
                b = line(c);
            } else {
                m[line(c) * self.lines + goal_line(l)] += 1;
            }
        }
        ids[&(m, b as u8)]
    }

    #[inline(always)]
    fn step(&self, state: u32, up: bool, g: usize) -> u32 {
        self.next[(state as usize * 2 + up as usize) * self.lines + g]
    }
}

/// The walking-distance estimate for one shape and goal blank: the row table plus the
/// column table. Built in milliseconds for 4x4 (24,964 states an axis).
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    rows: Axis,
    cols: Axis,
    /// States of each axis by matrix, for a search's root.
    row_ids: HashMap<Key, u32>,
    col_ids: HashMap<Key, u32>,
}

/// States an axis may have: 4x4 has 24,964; 5x5 has a few million, too many to be worth a
/// build at start.
const MAX_STATES: usize = 1 << 20;

impl WalkingDistance {
    /// The tables for `geo`'s shape and goal blank; `None` when an axis would have more than
    /// `MAX_STATES` (2^20) states.
    pub fn new(geo: &Geometry) -> Option<WalkingDistance> {
        let (r, c) = (geo.shape.rows as usize, geo.shape.cols as usize);
        let n = geo.cells;
        let blank = geo.blank_label as usize;
        // Counted first, in microseconds: the breadth-first search would otherwise spend
        // seconds on 2^20 states of a shape it then refuses (4x5, 5x5).
        if [(r, c, blank / c), (c, r, blank % c)]
            .into_iter()
            .any(|(lines, len, b)| axis_states(lines, len, b, MAX_STATES) > MAX_STATES)
        {
            return None;
        }
        let (rows, row_ids) = Axis::build(r, n, |l| l / c, blank, MAX_STATES)?;
        let (cols, col_ids) = Axis::build(c, n, |l| l % c, blank, MAX_STATES)?;
        Some(WalkingDistance {
            rows,
            cols,
            row_ids,
            col_ids,
        })
    }

    /// States of the row view (the column view has as many on a square board).
    pub fn states(&self) -> usize {
        self.rows.dist.len()
    }
}

/// How many states an axis of `lines` lines of `len` cells has, the blank's goal on line
/// `blank`, or a number over `cap` when there are more: for each line the blank may be on,
/// the count matrices whose line `i` holds `len` tiles (one fewer on the blank's) and whose
/// column `g` as many as belong on line `g`. Counted line by line over the room the columns
/// have left. Every partial matrix completes (any leftover sums of equal total fill a
/// matrix), so a partial count over `cap` proves the whole one is.
fn axis_states(lines: usize, len: usize, blank: usize, cap: usize) -> usize {
    let mut goal = vec![len as u8; lines];
    goal[blank] -= 1;
    let mut total = 0usize;
    for b in 0..lines {
        // Ways to fill the lines so far, by the room each column has left.
        let mut ways: HashMap<Vec<u8>, usize> = HashMap::from([(goal.clone(), 1)]);
        for line in 0..lines {
            let tiles = len - usize::from(line == b);
            let mut next: HashMap<Vec<u8>, usize> = HashMap::new();
            let mut partial = 0usize;
            for (room, w) in &ways {
                spread(room, 0, tiles, &mut room.clone(), &mut |left| {
                    let e = next.entry(left.to_vec()).or_insert(0);
                    *e = e.saturating_add(*w);
                    partial = partial.saturating_add(*w);
                });
                if partial > cap {
                    return cap + 1;
                }
            }
            ways = next;
        }
        total += ways.values().sum::<usize>();
        if total > cap {
            return cap + 1;
        }
    }
    total
}

/// Calls `each` with every way of taking `tiles` from `room[from..]` (at most what each
/// column has), `left` holding what is left.
fn spread(
    room: &[u8],
    from: usize,
    tiles: usize,
    left: &mut Vec<u8>,
    each: &mut impl FnMut(&[u8]),
) {
    if from == room.len() {
        if tiles == 0 {
            each(left);
        }
        return;
    }
    for k in 0..=tiles.min(room[from] as usize) {
        left[from] = room[from] - k as u8;
        spread(room, from + 1, tiles - k, left, each);
    }
    left[from] = room[from];
}

/// Per node: the row view's state and the column view's.
#[derive(Clone, Copy, Debug)]
pub struct WdState {
    rows: u32,
    cols: u32,
}

impl Heuristic for WalkingDistance {
    type State = WdState;

    fn root<T: Tiles>(&self, geo: &Geometry, p: &T) -> WdState {
        let c = geo.shape.cols as usize;
        let n = geo.cells;
        let b = geo.blank_label as usize;
        WdState {
            rows: self
                .rows
                .state(p, n, b, |x| x / c, |l| l / c, &self.row_ids),
            cols: self
                .cols
                .state(p, n, b, |x| x % c, |l| l % c, &self.col_ids),
        }
    }

    #[inline(always)]
    fn child<T: Tiles>(
        &self,
        geo: &Geometry,
        s: &WdState,
        _p: &T,
        label: usize,
        from: usize,
        to: usize,
    ) -> WdState {
        // The tile went from `from` to `to`; the blank the other way.
        let c = geo.shape.cols as usize;
        let mut out = *s;
        if from / c != to / c {
            out.rows = self.rows.step(s.rows, from < to, label / c);
        } else {
            out.cols = self.cols.step(s.cols, from < to, label % c);
        }
        out
    }

    #[inline(always)]
    fn h(&self, s: &mut WdState) -> u32 {
        self.rows.dist[s.rows as usize] as u32 + self.cols.dist[s.cols as usize] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::random::Rng;
    use crate::search::{Packed, NONE};

    #[test]
    fn the_4x4_tables_have_the_known_number_of_states() {
        let geo = Geometry::new(Shape::new(4, 4).unwrap(), 0);
        let wd = WalkingDistance::new(&geo).unwrap();
        assert_eq!(wd.states(), 24_964);
    }

    /// The count `new` refuses shapes by equals the states the breadth-first search
    /// reaches, on every shape it builds (each axis, goal blanks on the first, a middle
    /// and the last line), and it refuses only shapes the count finds too large.
    #[test]
    fn the_counted_states_are_the_states_the_search_reaches() {
        let mut built = 0;
        for r in 2..=18 {
            for c in 2..=18 {
                let Some(shape) = Shape::new(r, c) else {
                    continue;
                };
                let cells = shape.cells();
                for blank in [0, cells - 1, cells / 2] {
                    let geo = Geometry::new(shape, blank as u8);
                    let (rows, cols) = (r, c);
                    let counted = [
                        axis_states(rows, cols, blank / cols, MAX_STATES),
                        axis_states(cols, rows, blank % cols, MAX_STATES),
                    ];
                    match WalkingDistance::new(&geo) {
                        Some(wd) => {
                            built += 1;
                            assert_eq!(wd.rows.dist.len(), counted[0], "{r}x{c} blank {blank}");
                            assert_eq!(wd.cols.dist.len(), counted[1], "{r}x{c} blank {blank}");
                        }
                        None => {
                            assert!(counted.iter().any(|&n| n > MAX_STATES), "{r}x{c}");
                        }
                    }
                }
            }
        }
        assert!(built >= 30, "{built}");
    }

    #[test]
    fn walking_distance_follows_each_move_and_is_at_least_manhattan_parity_free() {
        for (r, c) in [(4, 4), (3, 5), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            let geo = Geometry::new(shape, 0);
            let wd = WalkingDistance::new(&geo).unwrap();
            let mut rng = Rng::new(3);
            let mut p: Packed = geo.goal();
            let mut st = wd.root(&geo, &p);
            assert_eq!(wd.h(&mut st), 0);
            for _ in 0..3000 {
                let b = p.blank();
                let to = geo.neighbor[b][rng.below(4) as usize];
                if to == NONE {
                    continue;
                }
                let to = to as usize;
                let label = p.get(to);
                p = p.slide(to, label, geo.blank_label as usize);
                st = wd.child(&geo, &st, &p, label, to, b);
                let fresh = wd.h(&mut wd.root(&geo, &p));
                assert_eq!(wd.h(&mut st), fresh, "{p:?}");
                // Each tile must cross at least its row and column distance.
                assert!(fresh >= geo.manhattan(&p), "{p:?}");
            }
        }
    }
}
