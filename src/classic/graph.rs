//! The graph searches: breadth-first, greedy best-first and (weighted) A*, which keep every
//! board they meet (the rules are in the module above).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::Hash;

use super::{dir_between, map_bytes, vec_bytes, Algorithm, Answer, Classic, ClassicError, Meter};
use super::{Outcome, Step};
use crate::search::{Geometry, Heuristic, Tiles, NONE};

/// A board met, kept to rebuild the path.
#[derive(Clone, Copy)]
struct Node<T> {
    board: T,
    /// The node it was reached from (`u32::MAX` for the start).
    parent: u32,
    g: u32,
}

/// Where a board stands: its best node, and whether it was expanded.
#[derive(Clone, Copy)]
struct Slot {
    node: u32,
    closed: bool,
}

/// An entry of a priority queue: the best is the lowest `key`, then the highest `g`, then
/// the earliest `seq`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: u64,
    g: u32,
    seq: u64,
    node: u32,
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap pops the greatest: the greatest is the best.
        o.key
            .cmp(&self.key)
            .then(self.g.cmp(&o.g))
            .then(o.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The open list: a queue for BFS, a priority queue for the others.
enum Open {
    Fifo(VecDeque<u32>),
    Heap(BinaryHeap<Entry>),
}

impl Open {
    fn bytes(&self, grow: bool) -> u64 {
        let g = |cap: usize, len: usize| {
            if grow && len + 4 > cap {
                (cap * 2).max(len + 4)
            } else {
                cap
            }
        };
        match self {
            Open::Fifo(q) => vec_bytes::<u32>(g(q.capacity(), q.len())),
            Open::Heap(h) => vec_bytes::<Entry>(g(h.capacity(), h.len())),
        }
    }
}

/// BFS, greedy or A* from `start`.
pub(super) fn run<H: Heuristic, T: Tiles + Eq + Hash>(
    geo: &Geometry,
    h: &H,
    start: T,
    c: &Classic,
) -> Outcome {
    let algo = c.algorithm;
    let w = c.weight;
    let goal: T = geo.goal();
    let mut meter = Meter::new(c);
    meter.counts.closed = Some(0);
    let mut nodes: Vec<Node<T>> = Vec::new();
    let mut index: HashMap<T, Slot> = HashMap::new();
    let mut open = match algo {
        Algorithm::Bfs => Open::Fifo(VecDeque::new()),
        _ => Open::Heap(BinaryHeap::new()),
    };
    let mut seq = 0u64;
    // Entries of the open list that are not superseded.
    let mut live = 0u64;
    let estimate = |p: &T| {
        let mut st = h.root(geo, p);
        if H::PREPARES {
            h.prepare(&mut st, p, u32::MAX);
        }
        h.h(&mut st)
    };
    let key = |g: u32, hv: u32| match algo {
        Algorithm::Greedy => hv as u64,
        _ => w.g as u64 * g as u64 + w.h as u64 * hv as u64,
    };
    let bytes = |nodes: &Vec<Node<T>>, index: &HashMap<T, Slot>, open: &Open, grow: bool| {
        let (nc, ic) = (nodes.capacity(), index.capacity());
        let (nc, ic) = if grow {
            (
                if nodes.len() + 4 > nc {
                    (nc * 2).max(nodes.len() + 4)
                } else {
                    nc
                },
                if index.len() + 4 > ic {
                    (ic * 2).max(index.len() + 4)
                } else {
                    ic
                },
            )
        } else {
            (nc, ic)
        };
        vec_bytes::<Node<T>>(nc) + map_bytes::<(T, Slot)>(ic) + open.bytes(grow)
    };

    meter.counts.generated = 1;
    nodes.push(Node {
        board: start,
        parent: u32::MAX,
        g: 0,
    });
    index.insert(
        start,
        Slot {
            node: 0,
            closed: false,
        },
    );
    let found = if algo == Algorithm::Bfs && start == goal {
        Some(0)
    } else {
        match &mut open {
            Open::Fifo(q) => q.push_back(0),
            Open::Heap(hp) => hp.push(Entry {
                key: key(0, estimate(&start)),
                g: 0,
                seq: 0,
                node: 0,
            }),
        }
        live = 1;
        None
    };
    meter.counts.peak_frontier = live;
    let found = match found {
        Some(n) => n,
        None => loop {
            // Take the next live node.
            let n = match &mut open {
                Open::Fifo(q) => q.pop_front(),
                Open::Heap(hp) => loop {
                    match hp.pop() {
                        None => break None,
                        Some(e) if index[&nodes[e.node as usize].board].node == e.node => {
                            break Some(e.node)
                        }
                        Some(_) => {}
                    }
                },
            };
            let Some(n) = n else {
                // Every reachable board expanded: the goal is not reachable (the solver
                // refuses such boards before any search).
                return Err(ClassicError::Stopped {
                    reason: crate::search::StopReason::Interrupted,
                    counts: meter.counts,
                });
            };
            live -= 1;
            let node = nodes[n as usize];
            if algo != Algorithm::Bfs && node.board == goal {
                break n;
            }
            meter.check(bytes(&nodes, &index, &open, true))?;
            meter.counts.expanded += 1;
            let slot = index.get_mut(&node.board).expect("met");
            if !slot.closed {
                slot.closed = true;
                meter.counts.closed = Some(meter.counts.closed.unwrap_or(0) + 1);
            }
            let p = node.board;
            let b = p.blank();
            let mut st = (algo != Algorithm::Bfs).then(|| h.root(geo, &p));
            let mut done = None;
            for d in 0..4 {
                let to = geo.neighbor[b][d];
                if to == NONE {
                    continue;
                }
                let to = to as usize;
                let label = p.get(to);
                let child = p.slide(to, label, geo.blank_label as usize);
                meter.counts.generated += 1;
                let g = node.g + 1;
                let old = index.get(&child).copied();
                let keep = match (algo, old) {
                    (_, None) => true,
                    (Algorithm::Astar, Some(s)) => g < nodes[s.node as usize].g,
                    _ => false,
                };
                if !keep {
                    continue;
                }
                let id = nodes.len() as u32;
                nodes.push(Node {
                    board: child,
                    parent: n,
                    g,
                });
                let closed = old.is_some_and(|s| s.closed);
                if old.is_some() && !closed {
                    // Its old entry is superseded.
                    live -= 1;
                }
                index.insert(child, Slot { node: id, closed });
                if algo == Algorithm::Bfs && child == goal {
                    done = Some(id);
                    break;
                }
                match &mut open {
                    Open::Fifo(q) => q.push_back(id),
                    Open::Heap(hp) => {
                        let st = st.as_mut().expect("informed");
                        let mut cs = h.child(geo, st, &child, label, to, b);
                        if H::PREPARES {
                            h.prepare(&mut cs, &child, u32::MAX);
                        }
                        let hv = h.h(&mut cs);
                        seq += 1;
                        hp.push(Entry {
                            key: key(g, hv),
                            g,
                            seq,
                            node: id,
                        });
                    }
                }
                live += 1;
            }
            meter.counts.peak_frontier = meter.counts.peak_frontier.max(live);
            meter.counts.memory = meter.counts.memory.max(bytes(&nodes, &index, &open, false));
            if let Some(id) = done {
                break id;
            }
        },
    };
    meter.counts.memory = meter.counts.memory.max(bytes(&nodes, &index, &open, false));
    // The path, goal first, then turned round.
    let mut boards = vec![];
    let mut at = found;
    while at != u32::MAX {
        boards.push(nodes[at as usize]);
        at = nodes[at as usize].parent;
    }
    boards.reverse();
    let moves = boards
        .windows(2)
        .map(|w| dir_between(geo, w[0].board.blank(), w[1].board.blank()))
        .collect();
    let path = boards
        .iter()
        .map(|n| Step {
            g: n.g,
            h: estimate(&n.board),
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
