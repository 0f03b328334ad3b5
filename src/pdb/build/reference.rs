//! An obviously correct, slow builder for tests: a 0-1 breadth-first search over
//! (placement, blank cell) states, one state at a time, nothing packed, nothing shared. The
//! fast builder must give the same bytes on every small pattern.

use std::collections::VecDeque;

use crate::board::Dir;
use crate::pdb::partition::PatternSpec;
use crate::rank::Ranker;

/// The payload, the placements first reached at each depth and the clamped count, as the
/// fast builder's [`super::Built`] holds them.
pub(super) fn reference(spec: &PatternSpec) -> (Vec<u8>, Vec<u64>, u64) {
    let n = spec.shape.cells();
    let k = spec.tiles.len();
    let ranker = Ranker::new(n, k);
    let count = ranker.count() as usize;
    // dist[rank * n + blank]: pattern moves from the goal, u32::MAX if not reached yet.
    let mut dist = vec![u32::MAX; count * n];
    let mut queue = VecDeque::new();
    let start = ranker.rank(&spec.tiles) as usize * n + spec.blank as usize;
    dist[start] = 0;
    queue.push_back(start);
    let mut pos = vec![0u8; k];
    while let Some(s) = queue.pop_front() {
        let d = dist[s];
        let (r, blank) = (s / n, s % n);
        ranker.unrank(r as u64, &mut pos);
        for dir in Dir::ALL {
            let Some(to) = spec.shape.step(blank, dir) else {
                continue;
            };
            // The blank swaps with whatever is on `to`: a pattern tile costs a move.
            let (next, cost) = match pos.iter().position(|&p| p as usize == to) {
                Some(i) => {
                    let mut moved = pos.clone();
                    moved[i] = blank as u8;
                    (ranker.rank(&moved) as usize * n + to, 1)
                }
                None => (r * n + to, 0),
            };
            if d + cost < dist[next] {
                dist[next] = d + cost;
                if cost == 0 {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    let mut payload = vec![0u8; count.div_ceil(2)];
    let mut clamped = 0;
    // One layer per depth the search reaches, even one where only blank cells are new.
    let deepest = dist.iter().filter(|&&d| d != u32::MAX).max().unwrap();
    let mut layers = vec![0; *deepest as usize + 1];
    for r in 0..count {
        let d = dist[r * n..(r + 1) * n].iter().copied().min().unwrap();
        if d == u32::MAX {
            continue;
        }
        layers[d as usize] += 1;
        ranker.unrank(r as u64, &mut pos);
        let md: u32 = pos
            .iter()
            .zip(&spec.tiles)
            .map(|(&p, &t)| spec.shape.distance(p as usize, t as usize) as u32)
            .sum();
        let excess = (d - md) / 2;
        let v = if excess > 15 {
            clamped += 1;
            15
        } else {
            excess as u8
        };
        payload[r / 2] |= v << (4 * (r & 1));
    }
    (payload, layers, clamped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    fn check(rows: usize, cols: usize, blank: u8, tiles: &[u8]) {
        let spec = PatternSpec {
            shape: Shape::new(rows, cols).unwrap(),
            blank,
            tiles: tiles.to_vec(),
        };
        let (payload, layers, clamped) = reference(&spec);
        // Both ways of renumbering orders: tabled (up to 9 tiles) and computed each time
        // (10 tiles or more, forced here).
        let built = super::super::build(&spec, &|_| {}).unwrap();
        let computed = super::super::build_untabled(&spec).unwrap();
        for (how, built) in [("tabled", built), ("computed", computed)] {
            assert!(
                built.payload == payload,
                "{rows}x{cols} blank {blank} tiles {tiles:?} ({how}): payloads differ"
            );
            assert_eq!(
                built.layers, layers,
                "{rows}x{cols} blank {blank} {tiles:?} ({how})"
            );
            assert_eq!(
                built.clamped, clamped,
                "{rows}x{cols} blank {blank} {tiles:?} ({how})"
            );
        }
    }

    #[test]
    fn same_bytes_as_the_reference_on_3x3_patterns() {
        // Every mask width the builder has: up to 8 free cells, up to 16, more.
        for blank in [0, 4, 8, 1] {
            let labels: Vec<u8> = (0..9).filter(|&c| c != blank).collect();
            for k in 1..=8 {
                check(3, 3, blank, &labels[..k]);
            }
            // Labels in another order: the index ranks them in the order given.
            let mut rev = labels[..5].to_vec();
            rev.reverse();
            check(3, 3, blank, &rev);
        }
    }

    #[test]
    fn same_bytes_as_the_reference_on_rectangles() {
        check(2, 4, 0, &[1, 2, 3, 4, 5]);
        check(2, 4, 3, &[0, 1, 2, 4, 5, 6, 7]);
        check(4, 2, 5, &[0, 2, 4, 6]);
        check(3, 4, 0, &[1, 2, 5, 6]);
        check(3, 4, 11, &[0, 3, 8, 9, 10]);
        check(3, 4, 6, &[1, 11]);
        check(2, 6, 0, &[6, 7, 8, 9, 10, 11]);
    }

    #[test]
    fn same_bytes_as_the_reference_on_4x4_and_5x5_patterns() {
        check(4, 4, 0, &[1, 2, 3, 4, 5]);
        check(4, 4, 0, &[15, 14, 11, 10, 13]);
        check(4, 4, 5, &[0, 6, 9, 10]);
        check(5, 5, 0, &[1, 2, 5, 6]);
        check(5, 5, 12, &[0, 24, 7]);
        check(5, 5, 0, &[1]);
    }
}
