//! [`Seen`]: a lossy transposition table that lets a weighted search skip boards it has
//! already searched from with more room.

use super::Tiles;

/// Boards met so far in one IDA* iteration, with the fewest moves each was reached in.
///
/// Weighted IDA* leaves much room between `f` and the threshold, so it reaches the same
/// board along many paths and searches below it each time. A board met again with at least
/// as many moves has nothing new below it: every path on from it was, or is being, searched
/// from the earlier visit with more room. Cutting it keeps both promises of
/// [`Weight`](super::Weight): a board on an optimal path, at its optimal distance, is never
/// met with fewer moves, so it is searched or cut in favour of an equal visit. One board a
/// slot; a newer board takes the slot, which only forgets.
pub struct Seen<T> {
    /// (board, moves, iteration stamp); stamp 0 marks an empty slot.
    slots: Vec<(T, u32, u32)>,
    stamp: u32,
    /// Boards recorded since the table last grew.
    recorded: usize,
}

impl<T: Tiles> Seen<T> {
    /// A small table: it grows with the search, so that easy searches never pay for a
    /// large one.
    pub fn new(empty: T) -> Seen<T> {
        Seen {
            slots: vec![(empty, 0, 0); 1 << SEEN_MIN_BITS],
            stamp: 1,
            recorded: 0,
        }
    }

    /// Forgets every board (a new iteration, with a new threshold).
    pub(super) fn next_iteration(&mut self) {
        self.stamp += 1;
    }

    /// Records `p` at `g` moves; false if it was already met with `g` moves or fewer.
    #[inline]
    pub(super) fn first_visit(&mut self, p: &T, g: u32) -> bool {
        let i = (p.fingerprint() as usize) & (self.slots.len() - 1);
        let slot = &mut self.slots[i];
        if slot.2 == self.stamp && slot.0 == *p && slot.1 <= g {
            return false;
        }
        *slot = (*p, g, self.stamp);
        self.recorded += 1;
        if self.recorded > 2 * self.slots.len() && self.slots.len() < 1 << SEEN_MAX_BITS {
            self.grow();
        }
        true
    }

    /// Doubles the table, keeping this iteration's boards.
    fn grow(&mut self) {
        let empty = (self.slots[0].0, 0, 0);
        let bigger = vec![empty; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for e in old.into_iter().filter(|e| e.2 == self.stamp) {
            self.slots[(e.0.fingerprint() as usize) & mask] = e;
        }
        self.recorded = 0;
    }
}

/// Slots of a weighted search's [`Seen`] table: from 2^12 up to 2^20 (40 MB for the
/// widest boards).
const SEEN_MIN_BITS: u32 = 12;
const SEEN_MAX_BITS: u32 = 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Packed;

    fn board(cells: u64) -> Packed {
        Packed { cells, blank: 0 }
    }

    #[test]
    fn a_board_met_again_with_no_fewer_moves_is_cut() {
        let a = board(0x1234);
        let mut seen = Seen::new(a);
        assert!(seen.first_visit(&a, 5));
        assert!(!seen.first_visit(&a, 5));
        assert!(!seen.first_visit(&a, 7));
        assert!(seen.first_visit(&a, 3));
        assert!(seen.first_visit(&board(0x4321), 3));
        seen.next_iteration();
        assert!(seen.first_visit(&a, 9), "a new iteration forgets");
    }

    #[test]
    fn growing_keeps_every_board_of_this_iteration_and_forgets_the_rest() {
        let mut seen = Seen::new(board(0));
        for i in 1..=1000 {
            seen.first_visit(&board(i), 1);
        }
        seen.next_iteration();
        for i in 1001..=2000 {
            seen.first_visit(&board(i), 1);
        }
        let live = |s: &Seen<Packed>| s.slots.iter().filter(|e| e.2 == s.stamp).count();
        let (before, len) = (live(&seen), seen.slots.len());
        seen.grow();
        assert_eq!(seen.slots.len(), 2 * len);
        // A board's slot keeps its old index's bits, so no two can meet in the larger table.
        assert_eq!(live(&seen), before);
        assert!(seen.slots.iter().all(|e| e.2 == seen.stamp || e.2 == 0));
    }

    #[test]
    fn the_table_grows_with_the_boards_up_to_its_cap() {
        let mut seen = Seen::new(board(0));
        assert_eq!(seen.slots.len(), 1 << SEEN_MIN_BITS);
        for i in 1..(1u64 << 23) {
            seen.first_visit(&board(i), 1);
        }
        assert_eq!(seen.slots.len(), 1 << SEEN_MAX_BITS);
    }
}
