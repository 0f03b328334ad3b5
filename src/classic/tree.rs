//! The tree searches: depth-limited depth-first search and textbook IDA*, which keep one
//! path (the rules are in the module above).

use super::{default_depth_limit, dir_between, vec_bytes, Algorithm, Answer, Classic};
use super::{ClassicError, Meter, Outcome, Step};
use crate::board::Dir;
use crate::search::dfs::deeper;
use crate::search::{Geometry, Heuristic, StopReason, Tiles, NONE};

/// DFS or IDA* from `start`.
pub(super) fn run<H: Heuristic, T: Tiles>(geo: &Geometry, h: &H, start: T, c: &Classic) -> Outcome {
    let mut meter = Meter::new(c);
    // A tree search holds one path: the memory limit is for the graph searches.
    meter.ignore_memory();
    let (moves, boards) = match c.algorithm {
        Algorithm::Dfs => dfs(geo, start, c, &mut meter)?,
        _ => ida(geo, h, start, c, &mut meter)?,
    };
    let estimate = |p: &T| {
        let mut st = h.root(geo, p);
        if H::PREPARES {
            h.prepare(&mut st, p, u32::MAX);
        }
        h.h(&mut st)
    };
    let path = boards
        .iter()
        .enumerate()
        .map(|(g, p)| Step {
            g: g as u32,
            h: estimate(p),
        })
        .collect();
    Ok(Answer {
        moves,
        path,
        counts: meter.counts,
        optimal: false,
        bound: None,
        millis: 0.0,
    })
}

/// The moves between consecutive boards.
fn moves_of<T: Tiles>(geo: &Geometry, boards: &[T]) -> Vec<Dir> {
    boards
        .windows(2)
        .map(|w| dir_between(geo, w[0].blank(), w[1].blank()))
        .collect()
}

/// Depth-first search to the depth limit, on an explicit stack: successors pushed in
/// reverse order so that `U` is taken first; a successor already on the current path (its
/// parent among them) is dropped after it is generated.
fn dfs<T: Tiles>(
    geo: &Geometry,
    start: T,
    c: &Classic,
    meter: &mut Meter,
) -> Result<(Vec<Dir>, Vec<T>), ClassicError> {
    let limit = c
        .depth_limit
        .unwrap_or_else(|| default_depth_limit(geo.cells, geo.shape.rows as usize));
    let goal: T = geo.goal();
    let mut stack: Vec<(T, u32)> = vec![(start, 0)];
    let mut path: Vec<T> = Vec::new();
    meter.counts.generated = 1;
    meter.counts.peak_frontier = 1;
    let bytes = |stack: &Vec<(T, u32)>, path: &Vec<T>| {
        vec_bytes::<(T, u32)>(stack.capacity()) + vec_bytes::<T>(path.capacity())
    };
    while let Some((p, g)) = stack.pop() {
        path.truncate(g as usize);
        path.push(p);
        if p == goal {
            meter.counts.memory = meter.counts.memory.max(bytes(&stack, &path));
            return Ok((moves_of(geo, &path), path));
        }
        if g >= limit {
            continue;
        }
        meter.check(0)?;
        meter.counts.expanded += 1;
        let b = p.blank();
        let mut kids = [None; 4];
        for d in 0..4 {
            let to = geo.neighbor[b][d];
            if to == NONE || (g > 0 && path[g as usize - 1].blank() == to as usize) {
                continue;
            }
            let to = to as usize;
            let child = p.slide(to, p.get(to), geo.blank_label as usize);
            meter.counts.generated += 1;
            if !path.contains(&child) {
                kids[d] = Some(child);
            }
        }
        for child in kids.into_iter().rev().flatten() {
            stack.push((child, g + 1));
        }
        meter.counts.peak_frontier = meter.counts.peak_frontier.max(stack.len() as u64);
        meter.counts.memory = meter.counts.memory.max(bytes(&stack, &path));
    }
    Err(ClassicError::DepthLimit {
        limit,
        counts: meter.counts,
    })
}

/// One IDA* search's state: the path, the threshold, the smallest `f` above it.
struct Ida<'g, 'h, 'm, 'a, H: Heuristic, T> {
    geo: &'g Geometry,
    h: &'h H,
    goal: T,
    weight: crate::search::Weight,
    threshold: u64,
    next: u64,
    path: Vec<T>,
    meter: &'m mut Meter<'a>,
}

impl<H: Heuristic, T: Tiles> Ida<'_, '_, '_, '_, H, T> {
    /// Searches below the last board of the path (its estimate state `st`, `g` moves in,
    /// reached by `prev`, [`NONE`] at the start). True when the goal is the last board.
    fn go(&mut self, mut st: H::State, g: u32, prev: u8) -> Result<bool, ClassicError> {
        let p = *self.path.last().expect("the path holds the board");
        let f = self.weight.g as u64 * g as u64 + self.weight.h as u64 * self.h.h(&mut st) as u64;
        if f > self.threshold {
            self.next = self.next.min(f);
            return Ok(false);
        }
        if p == self.goal {
            return Ok(true);
        }
        self.meter.check(0)?;
        self.meter.counts.expanded += 1;
        let geo = self.geo;
        let b = p.blank();
        for d in Dir::ALL {
            let to = geo.neighbor[b][d as usize];
            if to == NONE || (prev != NONE && d == Dir::ALL[prev as usize].opposite()) {
                continue;
            }
            let to = to as usize;
            let label = p.get(to);
            let child = p.slide(to, label, geo.blank_label as usize);
            self.meter.counts.generated += 1;
            let mut cs = self.h.child(geo, &st, &child, label, to, b);
            if H::PREPARES {
                self.h.prepare(&mut cs, &child, u32::MAX);
            }
            self.path.push(child);
            let c = &mut self.meter.counts;
            c.peak_frontier = c.peak_frontier.max(self.path.len() as u64);
            if deeper(g + 1, || self.go(cs, g + 1, d as u8))? {
                return Ok(true);
            }
            self.path.pop();
        }
        Ok(false)
    }
}

/// Textbook IDA*: thresholds on `f = W.g * g + W.h * h`, each the smallest `f` that passed
/// the last; children in `U D L R` order, the move back never generated; the start counted
/// as generated once an iteration.
fn ida<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    c: &Classic,
    meter: &mut Meter,
) -> Result<(Vec<Dir>, Vec<T>), ClassicError> {
    let mut st = h.root(geo, &start);
    if H::PREPARES {
        h.prepare(&mut st, &start, u32::MAX);
    }
    let h0 = h.h(&mut st);
    let w = c.weight;
    let mut s = Ida {
        geo,
        h,
        goal: geo.goal(),
        weight: w,
        threshold: w.h as u64 * h0 as u64,
        next: u64::MAX,
        path: Vec::new(),
        meter,
    };
    loop {
        s.path.clear();
        s.path.push(start);
        s.next = u64::MAX;
        s.meter.counts.generated += 1;
        s.meter.counts.peak_frontier = s.meter.counts.peak_frontier.max(1);
        // The path and the estimates' states along it, at their deepest: what IDA* holds,
        // counted for a stop inside the iteration too (it said 0 bytes before the first
        // iteration ended, or the last finished one's peak).
        let held = |path_capacity: usize, peak: u64| {
            vec_bytes::<T>(path_capacity) + peak * std::mem::size_of::<H::State>() as u64
        };
        let found = match s.go(st, 0, NONE) {
            Ok(found) => found,
            Err(ClassicError::Stopped { reason, mut counts }) => {
                counts.memory = counts
                    .memory
                    .max(held(s.path.capacity(), counts.peak_frontier));
                return Err(ClassicError::Stopped { reason, counts });
            }
            Err(e) => return Err(e),
        };
        let bytes = held(s.path.capacity(), s.meter.counts.peak_frontier);
        s.meter.counts.memory = s.meter.counts.memory.max(bytes);
        if found {
            let path = std::mem::take(&mut s.path);
            return Ok((moves_of(geo, &path), path));
        }
        if s.next == u64::MAX {
            return Err(ClassicError::Stopped {
                reason: StopReason::Interrupted,
                counts: s.meter.counts,
            });
        }
        s.threshold = s.next;
    }
}
