//! One instance's iterations shared by tasks on many machines (`fifteen split`,
//! `slurm/solve-split.sh`): the search and the files it passes between tasks.
//!
//! IDA* split by iteration across processes or machines: the frontier at a fixed depth is
//! enumerated once ([`frontier`]); each task then searches its share of it under one
//! threshold ([`search_part`]), and a reducer ([`reduce`]) adds the parts up.
//!
//! Each task first re-runs the top of the tree (above the frontier's depth) under the
//! threshold, exactly as the serial search would, and collects the frontier nodes that
//! search reaches: the same depth-first search, with the same move automaton,
//! pathmax and goal test, so the top's nodes are the serial search's (every task counts
//! them; the reducer takes them once). Below each collected node it searches only the
//! subtrees whose index in the written frontier falls to its share. An iteration's node
//! total is therefore the serial search's, node for node; only the last iteration, which
//! stops at the first solution, may count differently. The top is cheap (a few thousand
//! nodes), and re-running it rather than trusting a threshold-free list keeps the counting
//! rules in one place: `dfs.rs`.
//!
//! The files ([`FrontierFile`], [`PartFile`]) are JSON, name their search
//! ([`Identity`]) and are written atomically (see the parent module).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::shard::Shard;
use super::{read_json, to_json, write_atomic, ClusterError, Identity};
use crate::board::{moves_to_string, Dir};
use crate::search::dfs::{Dfs, ROOT};
use crate::search::{
    Geometry, Heuristic, Limits, MoveAutomaton, Stopped, Tiles, Weight, DEAD, NONE,
};

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

/// Every node `depth` moves below `start` along the paths the search's move automaton
/// allows ([`MoveAutomaton::standard`]: no move undoing the one before, no other
/// duplicate path it knows), as the moves that reach it, in the serial search's order: children in
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
    let fsm = MoveAutomaton::standard();
    enumerate(geo, h, fsm, start, st, ROOT, depth, &mut path, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn enumerate<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    fsm: &MoveAutomaton,
    p: T,
    st: H::State,
    state: u32,
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
        let next = fsm.step(state, d);
        if next == DEAD {
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
        kids.push((est, d, next, cp, cst));
    }
    // Stable, as the search's insertion sort: ties stay in direction order.
    kids.sort_by_key(|k| k.0);
    for (_, d, next, cp, cst) in kids {
        path.push(Dir::ALL[d as usize]);
        enumerate(geo, h, fsm, cp, cst, next, left - 1, path, out);
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
    part: Shard,
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
    let found = top.go(&start, &st, 0, ROOT);
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
        if !part.contains(i as u64 + 1) {
            continue;
        }
        res.searched += 1;
        let mut d = Dfs::new(geo, h, Weight::ONE, threshold, limits, f.path);
        let found = d.go(&f.p, &f.st, f.g, f.state);
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

/// The `format` of a frontier file.
pub const FRONTIER_FORMAT: &str = "fifteen-split-frontier/2";
/// The `format` of a part file.
pub const PART_FORMAT: &str = "fifteen-split-part/3";

/// The frontier of a split search: every node at `depth`, written once for all its
/// iterations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierFile {
    /// [`FRONTIER_FORMAT`].
    pub format: String,
    /// The search.
    #[serde(flatten)]
    pub instance: Identity,
    /// The depth of the frontier's nodes.
    pub depth: u32,
    /// The parity every solution's length has (thresholds keep it).
    pub parity: u32,
    /// The first iteration's threshold: the start's estimate.
    pub first_threshold: u32,
    /// A digest of `entries`, which parts repeat so that the reducer knows they searched
    /// the same list.
    pub digest: String,
    /// The moves to each node, in the search's frame (the tables' mirror image of the
    /// board, when they need one), in search order.
    pub entries: Vec<String>,
}

impl FrontierFile {
    /// A frontier file for these entries (moves in the search's frame).
    pub fn new(
        instance: Identity,
        depth: u32,
        parity: u32,
        first_threshold: u32,
        entries: &[Vec<Dir>],
    ) -> FrontierFile {
        let entries: Vec<String> = entries.iter().map(|e| moves_to_string(e)).collect();
        FrontierFile {
            format: FRONTIER_FORMAT.into(),
            instance,
            depth,
            parity,
            first_threshold,
            digest: digest(&entries),
            entries,
        }
    }

    /// The entries as moves.
    ///
    /// # Errors
    /// [`ClusterError::Format`] for an entry that is not a move string.
    pub fn moves(&self, path: &Path) -> Result<Vec<Vec<Dir>>, ClusterError> {
        if digest(&self.entries) != self.digest {
            return Err(ClusterError::Format {
                path: path.to_path_buf(),
                kind: FRONTIER_FORMAT,
                reason: "its entries do not match their digest (edited or damaged)".into(),
            });
        }
        self.entries
            .iter()
            .map(|e| {
                crate::board::parse_moves(e).map_err(|err| ClusterError::Format {
                    path: path.to_path_buf(),
                    kind: FRONTIER_FORMAT,
                    reason: format!("entry {e:?}: {err}"),
                })
            })
            .collect()
    }

    /// Reads a frontier file.
    ///
    /// # Errors
    /// Unreadable, or not a frontier file.
    pub fn read(path: &Path) -> Result<FrontierFile, ClusterError> {
        read_json(path, FRONTIER_FORMAT)
    }

    /// Writes it (atomically).
    ///
    /// # Errors
    /// [`ClusterError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic(path, &to_json(self))
    }
}

fn digest(entries: &[String]) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for e in entries {
        h.update(e.as_bytes());
        h.update(b"\n");
    }
    format!("{:016x}", h.digest())
}

/// One task's share of one iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartFile {
    /// [`PART_FORMAT`].
    pub format: String,
    /// The search.
    #[serde(flatten)]
    pub instance: Identity,
    /// The frontier's depth.
    pub depth: u32,
    /// The parity of every solution's length.
    pub parity: u32,
    /// The frontier's digest.
    pub digest: String,
    /// The iteration's threshold.
    pub threshold: u32,
    /// The frontier's first threshold (absent in files of earlier releases): a solution
    /// found under it is optimal by itself; under a later one, only when every threshold
    /// before was searched to its end, which the driver does and a part cannot show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_threshold: Option<u32>,
    /// This part's number, from 1 (as shards count).
    pub part: u32,
    /// How many parts the iteration has.
    pub parts: u32,
    /// Nodes of the top of the tree, the root included (the same in every part).
    pub top_nodes: u64,
    /// The smallest `f` over the threshold in the top (absent: none).
    pub top_next: Option<u32>,
    /// Nodes below this part's frontier entries.
    pub nodes: u64,
    /// The smallest `f` over the threshold below them (absent: none).
    pub next: Option<u32>,
    /// Frontier entries the top reached under this threshold.
    pub reached: u64,
    /// How many of them this part searched.
    pub searched: u64,
    /// A solution within the threshold, in the user's frame, from the start: checkable
    /// with `fifteen check BOARD --moves M`.
    pub moves: Option<String>,
    /// Wall time of this part, in milliseconds.
    pub millis: f64,
}

impl PartFile {
    /// Reads a part file.
    ///
    /// # Errors
    /// Unreadable, or not a part file.
    pub fn read(path: &Path) -> Result<PartFile, ClusterError> {
        let part: PartFile = read_json(path, PART_FORMAT)?;
        // What no search writes, even under a valid checksum: a next threshold that is not
        // above this one would make the driver repeat the iteration for ever.
        let bad = |reason: String| ClusterError::Format {
            path: path.to_path_buf(),
            kind: PART_FORMAT,
            reason,
        };
        for (what, next) in [("next", part.next), ("top_next", part.top_next)] {
            if let Some(n) = next.filter(|&n| n <= part.threshold) {
                return Err(bad(format!(
                    "its {what} threshold {n} is not above its threshold {}",
                    part.threshold
                )));
            }
        }
        Ok(part)
    }

    /// Writes it (atomically).
    ///
    /// # Errors
    /// [`ClusterError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), ClusterError> {
        write_atomic(path, &to_json(self))
    }
}

/// What an iteration came to, once its parts are added up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The iteration's threshold.
    pub threshold: u32,
    /// Nodes of the whole iteration, the root included (the serial search's count, the
    /// last iteration aside).
    pub nodes: u64,
    /// The solution (user's frame), if a part found one: optimal, as every smaller
    /// threshold was exhausted.
    pub moves: Option<String>,
    /// Otherwise the next iteration's threshold.
    pub next_threshold: Option<u32>,
}

/// How many missing parts an error lists by number.
pub const MISSING_LISTED: usize = 20;

/// Adds up the parts of one iteration: all of `0..parts`, each once, for the same search,
/// frontier and threshold, with the same top of the tree.
///
/// # Errors
/// Missing, duplicate or mismatched parts; an iteration that exceeded nothing.
pub fn reduce(parts: &[(PathBuf, PartFile)]) -> Result<Reduced, ClusterError> {
    let Some((first_path, first)) = parts.first() else {
        return Err(ClusterError::NoParts);
    };
    // Keyed by part, not a vector of `parts` slots: the count comes from a file, and a
    // damaged one (a count of 4 billion) must be an error, not an allocation that aborts.
    let mut seen: HashMap<u32, &PathBuf> = HashMap::with_capacity(parts.len());
    let mut nodes = first.top_nodes;
    let mut next = first.top_next.unwrap_or(u32::MAX);
    let mut moves = None;
    let mut searched = 0u64;
    for (path, p) in parts {
        let disagree = |what, file: String, expected: String| ClusterError::PartsDisagree {
            path: path.clone(),
            first: first_path.clone(),
            what,
            file,
            expected,
        };
        p.instance
            .must_match(path, &first.instance)
            .map_err(|e| match e {
                ClusterError::Mismatch {
                    what, file, asked, ..
                } => disagree(what, file, asked),
                e => e,
            })?;
        let show = |n: Option<u32>| n.map_or("none".to_string(), |n| n.to_string());
        let fields: [(&'static str, String, String); 8] = [
            (
                "threshold",
                p.threshold.to_string(),
                first.threshold.to_string(),
            ),
            ("frontier digest", p.digest.clone(), first.digest.clone()),
            ("depth", p.depth.to_string(), first.depth.to_string()),
            ("part count", p.parts.to_string(), first.parts.to_string()),
            (
                "top nodes",
                p.top_nodes.to_string(),
                first.top_nodes.to_string(),
            ),
            (
                "next threshold of the top",
                show(p.top_next),
                show(first.top_next),
            ),
            ("parity", p.parity.to_string(), first.parity.to_string()),
            (
                "count of entries reached",
                p.reached.to_string(),
                first.reached.to_string(),
            ),
        ];
        for (what, file, expected) in fields {
            if file != expected {
                return Err(disagree(what, file, expected));
            }
        }
        if !(1..=first.parts).contains(&p.part) {
            return Err(disagree(
                "part number",
                p.part.to_string(),
                format!("from 1 to {}", first.parts),
            ));
        }
        if let Some(other) = seen.insert(p.part, path) {
            return Err(ClusterError::DuplicatePart {
                part: p.part,
                parts: p.parts,
                first: other.to_path_buf(),
                second: path.clone(),
            });
        }
        nodes = nodes
            .checked_add(p.nodes)
            .ok_or_else(|| ClusterError::Format {
                path: path.clone(),
                kind: PART_FORMAT,
                reason: format!("{} nodes, more than any search could count", p.nodes),
            })?;
        next = next.min(p.next.unwrap_or(u32::MAX));
        searched = searched.saturating_add(p.searched);
        if moves.is_none() {
            moves = p.moves.clone();
        }
    }
    let absent = first.parts - seen.len() as u32;
    if absent > 0 {
        let missing: Vec<u32> = (1..=first.parts)
            .filter(|k| !seen.contains_key(k))
            .take(MISSING_LISTED)
            .collect();
        return Err(ClusterError::MissingParts {
            more: absent - missing.len() as u32,
            missing,
            parts: first.parts,
        });
    }
    // Every entry the top reached is searched by exactly one part, unless a part found a
    // solution and stopped short of its share.
    if moves.is_none() && searched != first.reached {
        return Err(ClusterError::Uncovered {
            searched,
            reached: first.reached,
        });
    }
    let next_threshold = if moves.is_some() {
        None
    } else if next == u32::MAX {
        return Err(ClusterError::Exhausted(first.threshold));
    } else {
        Some(Weight::ONE.next_threshold(next, first.parity))
    };
    Ok(Reduced {
        threshold: first.threshold,
        nodes,
        moves,
        next_threshold,
    })
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
            for k in 1..=4 {
                let part = Shard::new(k, 4).unwrap();
                let r = search_part(
                    &geo,
                    &LinearConflict,
                    start,
                    &f,
                    6,
                    it.threshold,
                    part,
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
