//! The end line's digest of the whole input (`"input"`, docs/formats.md "Results files"):
//! every item's id, and its shape, board and goal, or for a line that is not an instance
//! its line number, in input order. Every shard reads every item, so the shards of one
//! input hold one digest; a rerun of a complete file is held to it (the input it was
//! completed for), and so is a merge, which rebuilds it from the records alone: each
//! record says which item it is the result of ([`InputDigest::record`]).

use xxhash_rust::xxh3::Xxh3;

use super::id_text;
use crate::record::{id_value, Record};
use crate::{Board, Goal, Shape};

/// What the digest of an item begins with: which kind of item it is. `OTHER` is what no
/// input gives (a record that is the result of no item of ours), so that it never matches.
const INSTANCE: u8 = 1;
const BAD_LINE: u8 = 2;
const OTHER: u8 = 3;

/// The digest of an input, item by item, of both kinds at once: version 2 (the current
/// one, [`super::INPUT_DIGEST_VERSION`]) and version 1, which leaves the shapes out, so
/// that a file completed by an earlier release is held to a digest of its own kind.
#[derive(Clone, Default)]
pub struct InputDigest {
    v1: Xxh3,
    v2: Xxh3,
}

/// A record that does not say which item it is the result of: a failure written by an
/// earlier release, which gave neither the board nor the line. Its file cannot be held to
/// its digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsaid;

impl InputDigest {
    /// The digest of no item yet.
    pub fn new() -> InputDigest {
        InputDigest::default()
    }

    /// The next item: an instance, `board` to `goal`.
    pub fn instance(&mut self, id: &str, board: &Board, goal: &Goal) {
        self.add_instance(
            &record_id(id),
            board.shape(),
            board.tiles(),
            goal.board().tiles(),
        );
    }

    /// The next item: a line of the input that is not an instance (a bad line, an
    /// unsolvable board), at `line` (from 1).
    pub fn bad_line(&mut self, id: &str, line: usize) {
        self.add_bad_line(&record_id(id), line as u64);
    }

    /// The next item, as its record says it: its id, and its shape, board and goal, or
    /// (a line that is not an instance) its `line`. A record that gives a board without a
    /// shape or goal, or neither a board nor a line nor an error, is the result of no
    /// item: it is digested so as to match no input.
    ///
    /// # Errors
    /// [`Unsaid`]: a failure record without its board or line (an earlier release's).
    pub fn record(&mut self, r: &Record) -> Result<(), Unsaid> {
        let id = id_text(&r.id);
        match (&r.tiles, r.line) {
            (Some(tiles), _) => {
                let shape = r.size.as_deref().and_then(Shape::parse);
                let bytes = |t: &Vec<u64>| {
                    t.iter()
                        .map(|&v| u8::try_from(v).ok())
                        .collect::<Option<Vec<u8>>>()
                };
                match (shape, bytes(tiles), r.goal.as_ref().and_then(bytes)) {
                    (Some(shape), Some(tiles), Some(goal)) => {
                        self.add_instance(&id, shape, &tiles, &goal)
                    }
                    _ => self.add_other(&id),
                }
            }
            (None, Some(line)) => self.add_bad_line(&id, line),
            (None, None) if r.error.is_some() => return Err(Unsaid),
            (None, None) => self.add_other(&id),
        }
        Ok(())
    }

    /// The digest of the items so far, of `version` (1 or 2; `None` for any other): 53
    /// bits, which every JSON reader holds exactly.
    pub fn value(&self, version: u64) -> Option<u64> {
        let d = match version {
            1 => self.v1.digest(),
            2 => self.v2.digest(),
            _ => return None,
        };
        Some(d & ((1 << 53) - 1))
    }

    fn add_instance(&mut self, id: &str, shape: Shape, tiles: &[u8], goal: &[u8]) {
        for (h, shaped) in [(&mut self.v1, false), (&mut self.v2, true)] {
            h.update(&[INSTANCE]);
            h.update(id.as_bytes());
            h.update(&[0]);
            // (The shape since version 2: the same tiles in another shape are another
            // instance.)
            if shaped {
                h.update(&[shape.rows, shape.cols]);
            }
            h.update(tiles);
            h.update(goal);
        }
    }

    fn add_bad_line(&mut self, id: &str, line: u64) {
        for h in [&mut self.v1, &mut self.v2] {
            h.update(&[BAD_LINE]);
            h.update(id.as_bytes());
            h.update(&[0]);
            h.update(&line.to_le_bytes());
        }
    }

    fn add_other(&mut self, id: &str) {
        for h in [&mut self.v1, &mut self.v2] {
            h.update(&[OTHER]);
            h.update(id.as_bytes());
            h.update(&[0]);
        }
    }
}

/// An id as its record gives it back (`+5` is written `5`): the digest is of what the
/// records say, so that a merge can rebuild it from them.
fn record_id(id: &str) -> String {
    id_text(&id_value(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two versions differ by the shapes alone; an id is digested as its record gives
    /// it back; items out of their order make another digest.
    #[test]
    fn the_digest_covers_every_item_in_order() {
        let wide = Shape::new(2, 3).unwrap();
        let tall = Shape::new(3, 2).unwrap();
        let tiles = [1, 2, 3, 4, 0, 5];
        let digest = |shape: Shape, id: &str, bad_first: bool| {
            let board = Board::new(shape, &tiles).unwrap();
            let mut d = InputDigest::new();
            if bad_first {
                d.bad_line("x", 4);
            }
            d.instance(id, &board, &Goal::standard(shape));
            if !bad_first {
                d.bad_line("x", 4);
            }
            d
        };
        let (a, b) = (digest(wide, "7", false), digest(tall, "7", false));
        assert_eq!(a.value(1), b.value(1));
        assert_ne!(a.value(2), b.value(2));
        assert_eq!(a.value(2), digest(wide, "+7", false).value(2));
        assert_ne!(a.value(2), digest(wide, "07", false).value(2));
        assert_ne!(a.value(2), digest(wide, "7", true).value(2));
        assert_eq!(a.value(3), None);
    }

    /// The digest rebuilt from the records is the one digested from the input, item by
    /// item, in both versions; a record of another board, or out of its place, is not.
    #[test]
    fn records_give_back_the_inputs_digest() {
        let shape = Shape::new(2, 2).unwrap();
        let goal = Goal::standard(shape);
        let board = Board::new(shape, &[1, 2, 0, 3]).unwrap();
        let mut input = InputDigest::new();
        input.instance("+7", &board, &goal);
        input.bad_line("x", 4);
        let solved = Record {
            id: id_value("+7"),
            size: Some("2x2".into()),
            tiles: Some(vec![1, 2, 0, 3]),
            goal: Some(vec![1, 2, 3, 0]),
            ..Record::default()
        };
        let bad = Record {
            line: Some(4),
            ..Record::failure("x", "instance x (line 4): ...")
        };
        let mut records = InputDigest::new();
        records.record(&solved).unwrap();
        records.record(&bad).unwrap();
        for v in [1, 2] {
            assert_eq!(records.value(v), input.value(v), "version {v}");
        }
        assert_ne!(input.value(1), input.value(2));
        assert_eq!(input.value(3), None);

        let mut swapped = InputDigest::new();
        swapped.record(&bad).unwrap();
        swapped.record(&solved).unwrap();
        assert_ne!(swapped.value(2), input.value(2));
        let mut other = InputDigest::new();
        other
            .record(&Record {
                tiles: Some(vec![1, 2, 3, 0]),
                ..solved.clone()
            })
            .unwrap();
        other.record(&bad).unwrap();
        assert_ne!(other.value(2), input.value(2));

        // An earlier release's failure record says neither its board nor its line.
        let unsaid = Record::failure("3", "instance 3: search stopped");
        assert_eq!(InputDigest::new().record(&unsaid), Err(Unsaid));
    }
}
