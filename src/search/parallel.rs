//! Parallel IDA* for one instance: the top of the tree alone, its subtrees on Rayon.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::dfs::Dfs;
use super::{
    Found, Geometry, Heuristic, Iteration, IterationHook, Limits, StopReason, Stopped, Tiles,
    Weight,
};
use crate::board::Dir;

/// One subtree's search: nodes, smallest `f` over the threshold, solution, stop reason.
type SubtreeResult = (u64, u32, Option<Vec<Dir>>, Option<StopReason>);

/// IDA* for one instance on every thread of `pool`.
///
/// Each iteration searches the top of the tree alone down to a depth that yields many more
/// subtrees than threads, then hands the subtrees to Rayon, whose work stealing balances
/// them. When a subtree holds a solution within the threshold, the others stop: it is
/// optimal, as every smaller threshold was exhausted. Every iteration but the last counts
/// exactly the nodes the serial search counts; the last stops early in a different place.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_parallel<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
) -> Result<Found, Stopped> {
    ida_star_parallel_weighted(geo, h, start, Weight::ONE, limits, hook, pool)
}

/// [`ida_star_weighted`] on every thread of `pool`, split as [`ida_star_parallel`] does. A
/// subtree's solution within the threshold is within the weight's bound, whichever it is.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_parallel_weighted<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    pool: &rayon::ThreadPool,
) -> Result<Found, Stopped> {
    use rayon::prelude::*;
    let mut st = h.root(geo, &start);
    let mut threshold = weight.h * h.h(&mut st);
    let parity = geo.manhattan(&start) % 2;
    let mut nodes = 0u64;
    let mut iterations = Vec::new();
    let shared = AtomicU64::new(0);
    let want = 64 * pool.current_num_threads().max(1);
    loop {
        nodes += 1;
        if start == geo.goal() {
            return Ok(Found {
                moves: vec![],
                lower_bound: 0,
                nodes,
                iterations,
            });
        }
        // The top of the tree, alone: deepen the split until there is enough work to share.
        let mut depth = 4;
        let mut top = loop {
            let mut dfs = Dfs {
                collect_at: depth,
                weight,
                ..Dfs::new(geo, h, threshold, limits, Vec::with_capacity(128))
            };
            let found = dfs.go(start, st, 0, 4);
            if let Some(reason) = dfs.stopped {
                return Err(Stopped {
                    reason,
                    lower_bound: weight.moves_at_least(threshold),
                    nodes: nodes + dfs.nodes,
                });
            }
            if found || dfs.frontier.len() >= want || weight.g * depth >= threshold {
                break (dfs, found);
            }
            depth += 2;
        };
        let (ref mut dfs, found) = top;
        nodes += dfs.nodes;
        shared.store(nodes, Ordering::Relaxed);
        if found {
            iterations.push(Iteration { threshold, nodes });
            return Ok(Found {
                moves: dfs.path.clone(),
                lower_bound: weight.moves_at_least(threshold),
                nodes,
                iterations,
            });
        }
        let halt = AtomicBool::new(false);
        let frontier = std::mem::take(&mut dfs.frontier);
        let mut next = dfs.next;
        // Each subtree: (nodes, smallest f over the threshold, solution, stop reason).
        let results: Vec<SubtreeResult> = pool.install(|| {
            frontier
                .into_par_iter()
                .map(|f| {
                    if halt.load(Ordering::Relaxed) {
                        return (0, u32::MAX, None, None);
                    }
                    let mut d = Dfs {
                        halt: Some(&halt),
                        shared: Some(&shared),
                        weight,
                        ..Dfs::new(geo, h, threshold, limits, f.path)
                    };
                    let found = d.go(f.p, f.st, f.g, f.prev);
                    if found {
                        halt.store(true, Ordering::Relaxed);
                        return (d.nodes, d.next, Some(d.path), None);
                    }
                    (d.nodes, d.next, None, d.stopped)
                })
                .collect()
        });
        let mut solution = None;
        let mut stop = None;
        for (n, nx, sol, stopped) in results {
            nodes += n;
            next = next.min(nx);
            if solution.is_none() {
                solution = sol;
            }
            // A sibling halted by another's limit says "interrupted"; the limit is the news.
            if stopped.is_some() && (stop.is_none() || stop == Some(StopReason::Interrupted)) {
                stop = stopped;
            }
        }
        if let Some(moves) = solution {
            let it = Iteration { threshold, nodes };
            iterations.push(it);
            if let Some(hook) = hook {
                hook(it);
            }
            return Ok(Found {
                moves,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
                iterations,
            });
        }
        if let Some(reason) = stop {
            return Err(Stopped {
                reason,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
            });
        }
        let it = Iteration { threshold, nodes };
        iterations.push(it);
        if let Some(hook) = hook {
            hook(it);
        }
        if next == u32::MAX {
            return Err(Stopped {
                reason: StopReason::Interrupted,
                lower_bound: weight.moves_at_least(threshold),
                nodes,
            });
        }
        threshold = weight.next_threshold(next, parity);
    }
}
