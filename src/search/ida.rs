//! Serial IDA*: [`ida_star`] and [`ida_star_weighted`] deepen one [`Dfs`] threshold by
//! threshold; [`Deepening`] keeps the books between iterations for them and the parallel
//! search.

use super::dfs::Dfs;
use super::{
    Found, Geometry, Heuristic, Iteration, IterationHook, Limits, Seen, StopReason, Stopped, Tiles,
    Weight,
};

/// Finds a shortest path from `start` to the goal with iterative-deepening A*.
///
/// Optimal whenever `h` is admissible: each iteration explores every path with
/// `g + h <= threshold`, and the threshold rises to the smallest `f` that exceeded it, so
/// the first solution found is no longer than any other.
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    ida_star_weighted(geo, h, start, Weight::ONE, limits, hook)
}

/// IDA* on `f = weight.g * g + weight.h * h`: with [`Weight::ONE`] the optimal search of
/// [`ida_star`]; with a larger `h` weight a faster one whose solution is at most
/// `weight.factor()` times optimal (see [`Weight`]).
///
/// # Errors
/// [`Stopped`] when a limit is reached first.
pub fn ida_star_weighted<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
) -> Result<Found, Stopped> {
    let mut st = h.root(geo, &start);
    // Every move changes the Manhattan distance by one: all solutions share its parity.
    let parity = geo.manhattan(&start) % 2;
    let mut dfs = Dfs::new(geo, h, 0, limits, Vec::with_capacity(128));
    dfs.weight = weight;
    if !weight.is_one() {
        dfs.seen = Some(Seen::new(start));
    }
    dfs.threshold = weight.h * h.h(&mut st);
    let mut iterations = Vec::new();
    loop {
        dfs.next = u32::MAX;
        if let Some(seen) = &mut dfs.seen {
            seen.next_iteration();
        }
        dfs.nodes += 1;
        if start == geo.goal() {
            return Ok(Found {
                moves: vec![],
                lower_bound: 0,
                nodes: dfs.nodes,
                iterations,
            });
        }
        let found = dfs.go(start, st, 0, 4);
        if let Some(reason) = dfs.stopped {
            return Err(Stopped {
                reason,
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
            });
        }
        let it = Iteration {
            threshold: dfs.threshold,
            nodes: dfs.nodes,
        };
        iterations.push(it);
        if let Some(hook) = hook {
            hook(it);
        }
        if found {
            return Ok(Found {
                moves: dfs.path.clone(),
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
                iterations,
            });
        }
        if dfs.next == u32::MAX {
            // No node exceeded the threshold: the goal is unreachable (cannot happen for
            // checked boards, but never loop forever).
            return Err(Stopped {
                reason: StopReason::Interrupted,
                lower_bound: weight.moves_at_least(dfs.threshold),
                nodes: dfs.nodes,
            });
        }
        dfs.threshold = weight.next_threshold(dfs.next, parity);
    }
}
