//! IDA* split by iteration across processes or machines: the frontier at a fixed depth is
//! enumerated once ([`frontier`]); each task then searches its share of it under one
//! threshold ([`search_part`]), and a reducer ([`crate::cluster`]) adds the parts up.
//!
//! Each task first re-runs the top of the tree (above the frontier's depth) under the
//! threshold, exactly as the serial search would, and collects the frontier nodes that
//! search reaches: the same depth-first search, with the same parent-move pruning,
//! pathmax and goal test, so the top's nodes are the serial search's (every task counts
//! them; the reducer takes them once). Below each collected node it searches only the
//! subtrees whose index in the written frontier falls to its share. An iteration's node
//! total is therefore the serial search's, node for node; only the last iteration, which
//! stops at the first solution, may count differently. The top is cheap (a few thousand
//! nodes), and re-running it rather than trusting a threshold-free list keeps the counting
//! rules in one place: `dfs.rs`.

use std::collections::HashMap;

use super::dfs::{Dfs, ROOT};
use super::{Geometry, Heuristic, Limits, Stopped, Tiles, Weight, NONE};
use crate::board::Dir;

/// Which share of the frontier a task searches: entries `i` with `i % count == index`.
/// Striding (rather than cutting the list in blocks) spreads neighbouring subtrees, whose
/// sizes are alike, over all the tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// This task's number, from 0.
    pub index: u32,
    /// How many tasks share the frontier.
    pub count: u32,
}

impl Share {
    /// Whether the frontier entry `i` is this task's.
    pub fn owns(self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }
}

/// What one task found under one threshold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartResult {
    /// Nodes of the top of the tree, the root included: the same in every task.
    pub top_nodes: u64,
    /// The smallest `f` over the threshold met in the top (`u32::MAX`: none).
    pub top_next: u32,
    /// Nodes generated below this task's frontier entries.
    pub nodes: u64,
    /// The smallest `f` over the threshold met below them (`u32::MAX`: none).
    pub next: u32,
    /// How many frontier entries the top reached under this threshold, in all tasks.
    pub reached: u64,
    /// How many of those this task searched.
    pub searched: u64,
    /// A solution within the threshold, in the search's frame, from the start.
    pub solution: Option<Vec<Dir>>,
}

/// Why a task could not do its share.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SplitSearchError {
    /// A limit (nodes, time, stop flag) ended the search.
    #[error("search stopped after {} nodes", .0.nodes)]
    Stopped(Stopped),
    /// The top of the tree reached a node the frontier does not list: the frontier was
    /// written for another board, estimate or depth.
    #[error("the frontier does not match this search: a node at depth {depth} reached by {path} is not in it")]
    NotInFrontier {
        /// The frontier's depth.
        depth: u32,
        /// The moves that reach the node, in the search's frame.
        path: String,
    },
}

/// Every node `depth` moves below `start`, with parent-move pruning (a move never undoes
/// the one before), as the moves that reach it, in the serial search's order: children in
/// direction order, then stably by their estimate, most promising first. No threshold and
/// no goal test: the list serves every iteration.
pub fn frontier<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    depth: u32,
) -> Vec<Vec<Dir>> {
    let mut out = Vec::new();
    let mut path = Vec::with_capacity(depth as usize);
    let st = h.root(geo, &start);
    enumerate(geo, h, start, st, 4, depth, &mut path, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn enumerate<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    p: T,
    st: H::State,
    prev: u8,
    left: u32,
    path: &mut Vec<Dir>,
    out: &mut Vec<Vec<Dir>>,
) {
    if left == 0 {
        out.push(path.clone());
        return;
    }
    let b = p.blank();
    let mut kids = Vec::with_capacity(4);
    for d in 0..4u8 {
        if d ^ 1 == prev {
            continue;
        }
        let to = geo.neighbor[b][d as usize];
        if to == NONE {
            continue;
        }
        let to = to as usize;
        let label = p.get(to);
        let cp = p.slide(to, label, geo.blank_label as usize);
        let mut cst = h.child(geo, &st, &cp, label, to, b);
        h.prepare(&mut cst, &cp, u32::MAX);
        let est = h.h(&mut cst);
        kids.push((est, d, cp, cst));
    }
    // Stable, as the search's insertion sort: ties stay in direction order.
    kids.sort_by_key(|k| k.0);
    for (_, d, cp, cst) in kids {
        path.push(Dir::ALL[d as usize]);
        enumerate(geo, h, cp, cst, d, left - 1, path, out);
        path.pop();
    }
}

/// One task's share of the iteration under `threshold` (plain IDA*, `f = g + h`): the top
/// of the tree down to the frontier's `depth`, then the subtrees below the frontier
/// entries (`entries`, as [`frontier`] lists them) that fall to `share`. Stops at the
/// first solution it meets.
///
/// # Errors
/// [`SplitSearchError::Stopped`] when `limits` end it; [`SplitSearchError::NotInFrontier`]
/// when `entries` were written for another search.
#[allow(clippy::too_many_arguments)]
pub fn search_part<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    entries: &[Vec<Dir>],
    depth: u32,
    threshold: u32,
    share: Share,
    limits: Limits,
) -> Result<PartResult, SplitSearchError> {
    let mut res = PartResult {
        top_nodes: 1,
        top_next: u32::MAX,
        nodes: 0,
        next: u32::MAX,
        reached: 0,
        searched: 0,
        solution: None,
    };
    if start == geo.goal() {
        res.solution = Some(vec![]);
        return Ok(res);
    }
    let mut st = h.root(geo, &start);
    h.h(&mut st);
    let mut top = Dfs::new(
        geo,
        h,
        Weight::ONE,
        threshold,
        limits,
        Vec::with_capacity(128),
    );
    top.collect_at = depth;
    let found = top.go(start, st, 0, ROOT);
    res.top_nodes += top.nodes;
    res.top_next = top.next;
    if let Some(reason) = top.stopped {
        return Err(SplitSearchError::Stopped(Stopped {
            reason,
            lower_bound: threshold,
            nodes: res.top_nodes,
        }));
    }
    if found {
        res.solution = Some(top.path);
        return Ok(res);
    }
    let index: HashMap<&[Dir], usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.as_slice(), i))
        .collect();
    res.reached = top.frontier.len() as u64;
    for f in std::mem::take(&mut top.frontier) {
        let Some(&i) = index.get(f.path.as_slice()) else {
            return Err(SplitSearchError::NotInFrontier {
                depth,
                path: crate::board::moves_to_string(&f.path),
            });
        };
        if !share.owns(i) {
            continue;
        }
        res.searched += 1;
        let mut d = Dfs::new(geo, h, Weight::ONE, threshold, limits, f.path);
        let found = d.go(f.p, f.st, f.g, f.prev);
        res.nodes += d.nodes;
        res.next = res.next.min(d.next);
        if let Some(reason) = d.stopped {
            return Err(SplitSearchError::Stopped(Stopped {
                reason,
                lower_bound: threshold,
                nodes: res.top_nodes + res.nodes,
            }));
        }
        if found {
            res.solution = Some(d.path);
            return Ok(res);
        }
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Goal, Shape};
    use crate::search::{ida_star, LinearConflict, Packed, Search};

    #[test]
    fn the_frontier_has_every_node_at_its_depth_once() {
        let shape = Shape::new(3, 3).unwrap();
        let board = Board::new(shape, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
        let labels = Goal::standard(shape).labels(&board).unwrap();
        let geo = Geometry::new(labels.shape, labels.blank_label);
        let start = geo.load::<Packed>(&labels);
        let f = frontier(&geo, &LinearConflict, start, 6);
        let mut uniq: Vec<String> = f.iter().map(|p| crate::board::moves_to_string(p)).collect();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), f.len());
        assert!(f.iter().all(|p| p.len() == 6
            && p.windows(2).all(|w| w[1] != w[0].opposite())
            && board.apply_all(p).is_ok()));
        // The blank starts on an edge's middle (3 moves), then 1 or 2 new ones each time.
        assert!(f.len() > 3 * 2usize.pow(4) / 2);
        // Four parts of every iteration add up to the serial search's nodes.
        let serial = ida_star(&geo, &LinearConflict, start, &Search::default()).unwrap();
        let mut before = 0;
        for it in &serial.iterations[..serial.iterations.len() - 1] {
            let mut top = None;
            let mut total = 0;
            for k in 0..4 {
                let share = Share { index: k, count: 4 };
                let r = search_part(
                    &geo,
                    &LinearConflict,
                    start,
                    &f,
                    6,
                    it.threshold,
                    share,
                    Limits::default(),
                )
                .unwrap();
                assert!(r.solution.is_none());
                assert!(top.is_none_or(|t| t == r.top_nodes));
                top = Some(r.top_nodes);
                total += r.nodes;
            }
            assert_eq!(top.unwrap() + total, it.nodes - before);
            before = it.nodes;
        }
    }
}
