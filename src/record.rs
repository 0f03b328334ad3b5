//! The result record: one JSON object per instance, as `fifteen solve --format json` writes
//! it and `fifteen check` reads it back (docs/formats.md, "Results: JSON Lines").
//!
//! One type serves both directions so that writer and reader cannot drift apart. Every
//! field but `id` is optional: a failed instance carries only `id` and `error`, and
//! `check` accepts the results of other solvers, which need give no more than `tiles` and
//! `moves`. Fields are only ever added, never renamed.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::BoardError;
use crate::search::{StopReason, Stopped};
use crate::solver::SolveError;
use crate::{Board, Goal};

/// One instance's result (or failure), field for field as it stands on its line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    /// The instance's id: a number when it reads as one, otherwise a string. Any JSON
    /// value is accepted on reading, so that other programs' ids pass through.
    pub id: Value,
    /// The board's shape, `RxC` (needed to read back a non-square board).
    pub size: Option<String>,
    /// The board, row-major, 0 for the blank.
    pub tiles: Option<Vec<u64>>,
    /// The goal the moves lead to; absent means the reader's default goal.
    pub goal: Option<Vec<u64>>,
    /// The number of moves.
    pub length: Option<u64>,
    /// Whether the length is proven optimal (false for a weighted search).
    pub optimal: Option<bool>,
    /// The moves of the blank, as `U D L R` letters.
    pub moves: Option<String>,
    /// Nodes the search generated.
    pub nodes: Option<u64>,
    /// Wall time of the search, in milliseconds.
    pub millis: Option<f64>,
    /// The estimate that guided the search (`pdb`, `linear-conflict`, `manhattan`).
    pub heuristic: Option<String>,
    /// For a weighted search: the length is at most this factor times the optimum.
    pub bound: Option<f64>,
    /// For a weighted search: the optimal length is proven to be at least this.
    pub lower_bound: Option<u64>,
    /// The length the instance file gave as known optimal.
    pub known: Option<u64>,
    /// Whether the length agrees with `known` (within `bound` when weighted).
    pub ok: Option<bool>,
    /// Why the instance was not solved; a record with an error has no solution.
    pub error: Option<String>,
    /// With `error`: what kind of failure, for programs ([`FailureKind::name`]). A string,
    /// not the enum, so that records of newer versions with new kinds still read.
    pub kind: Option<String>,
    /// The search algorithm, when not the default IDA* (`bfs`, `dfs`, `greedy`, `astar`;
    /// see [`crate::classic`]).
    pub algorithm: Option<String>,
    /// Classic searches: nodes whose successors were generated.
    pub expanded: Option<u64>,
    /// Classic searches: the start plus every successor generated (also in `nodes`).
    pub generated: Option<u64>,
    /// Classic searches: the largest frontier (open list, stack or path).
    pub peak_frontier: Option<u64>,
    /// Graph searches (`bfs`, `greedy`, `astar`): distinct boards expanded.
    pub closed: Option<u64>,
    /// Classic searches: peak bytes of the search's tables.
    pub memory_bytes: Option<u64>,
    /// Classic searches: the weight factor `W` of `f = g + W*h` (A*, with `--weight` or a
    /// course file).
    pub weight: Option<f64>,
    /// With `error`, for a line of the input that is not an instance (kind `parse` or
    /// `unsolvable`): its line number, from 1. Every failure says which item of the input
    /// it is, by its board or by its line, so that a merge can hold the records to the
    /// input's digest ([`crate::cluster::results::InputDigest`]).
    pub line: Option<u64>,
}

/// Why an instance failed, as the `kind` field of its record says it. A small, stable set:
/// programs branch on it (retry with a larger limit, fix the input, rebuild the tables),
/// so kinds are only ever added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// The line is not an instance: bad numbers, a wrong count, a bad `goal:` or `size:`
    /// line, a goal of another shape.
    Parse,
    /// A well-formed board that cannot reach its goal (the tile parity is wrong, as with two tiles swapped); found
    /// before any search.
    Unsolvable,
    /// The node limit or the time limit ended the search; the record carries the proven
    /// `lower_bound` and the `nodes` spent.
    Limit,
    /// The pattern databases this instance needs are unusable (corrupt, of another
    /// version, or cannot be built); the batch stops there.
    Tables,
    /// The instance's file in `--checkpoints DIR` cannot be used (damaged, another
    /// search's, or its answer does not check); the batch stops there, the file untouched.
    Checkpoint,
}

impl FailureKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [FailureKind; 5] = [
        FailureKind::Parse,
        FailureKind::Unsolvable,
        FailureKind::Limit,
        FailureKind::Tables,
        FailureKind::Checkpoint,
    ];

    /// The kind as the record spells it: `parse`, `unsolvable`, `limit`, `tables`,
    /// `checkpoint`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Parse => "parse",
            FailureKind::Unsolvable => "unsolvable",
            FailureKind::Limit => "limit",
            FailureKind::Tables => "tables",
            FailureKind::Checkpoint => "checkpoint",
        }
    }
}

impl From<&BoardError> for FailureKind {
    /// Unsolvable boards are their own kind; everything else wrong with the text is `parse`.
    fn from(e: &BoardError) -> FailureKind {
        match e {
            BoardError::Unsolvable { .. } => FailureKind::Unsolvable,
            _ => FailureKind::Parse,
        }
    }
}

impl From<&SolveError> for FailureKind {
    /// A search that ran out of nodes or time is a `limit`. One that stopped with every
    /// node within the threshold proved the goal unreachable (`unsolvable`); an
    /// interruption by the user is not a failure of the instance and is never recorded.
    fn from(e: &SolveError) -> FailureKind {
        match e {
            SolveError::Board(b) => b.into(),
            SolveError::Stopped(Stopped { reason, .. }) => match reason {
                StopReason::MaxNodes | StopReason::Timeout | StopReason::MaxMemory => {
                    FailureKind::Limit
                }
                StopReason::Interrupted => FailureKind::Unsolvable,
            },
            // Books for another search: the input (a checkpoint) does not fit.
            SolveError::Mismatch(_) => FailureKind::Parse,
            // A table written to during the search: the batch stops, as for tables that
            // cannot be had.
            SolveError::TableChanged(_) | SolveError::Overestimate(_) => FailureKind::Tables,
        }
    }
}

impl Record {
    /// A record for a failed instance.
    pub fn failure(id: &str, error: impl Into<String>) -> Record {
        Record {
            id: id_value(id),
            error: Some(error.into()),
            ..Record::default()
        }
    }

    /// A record for a failed instance, with its kind; a search stopped by a limit adds
    /// the `lower_bound` it proved and the `nodes` it spent.
    pub fn failed(
        id: &str,
        kind: FailureKind,
        error: impl Into<String>,
        stopped: Option<&Stopped>,
    ) -> Record {
        Record {
            kind: Some(kind.name().to_string()),
            lower_bound: stopped.map(|s| u64::from(s.lower_bound)),
            nodes: stopped.map(|s| s.nodes),
            ..Record::failure(id, error)
        }
    }

    /// The record with the instance it is the result of: its `size`, `tiles` and `goal`
    /// (a failure too, so that it says which instance failed).
    pub fn with_instance(self, board: &Board, goal: &Goal) -> Record {
        let tiles = |b: &Board| b.tiles().iter().map(|&t| u64::from(t)).collect();
        Record {
            size: Some(board.shape().to_string()),
            tiles: Some(tiles(board)),
            goal: Some(tiles(goal.board())),
            ..self
        }
    }

    /// The record as one line of JSON, without the newline. Absent fields are left out
    /// rather than written as `null`, so that each line says only what applies to it.
    pub fn to_line(&self) -> String {
        let Ok(Value::Object(mut fields)) = serde_json::to_value(self) else {
            unreachable!("a struct serializes to an object")
        };
        fields.retain(|_, v| !v.is_null());
        Value::Object(fields).to_string()
    }
}

/// The largest id written as a JSON number: readers that hold numbers as doubles
/// (JavaScript, pandas, jq) round anything above 2^53 - 1 to another id.
pub const MAX_NUMERIC_ID: u64 = (1 << 53) - 1;

/// An instance id as JSON: a number when the id is a plain decimal (without leading
/// zeros, which a number would lose) of at most [`MAX_NUMERIC_ID`], otherwise the text.
pub fn id_value(id: &str) -> Value {
    match id.parse::<u64>() {
        Ok(n) if (!id.starts_with('0') || id == "0") && n <= MAX_NUMERIC_ID => Value::from(n),
        _ => Value::from(id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let r = Record {
            id: id_value("7"),
            size: Some("3x3".into()),
            tiles: Some(vec![1, 2, 3, 4, 5, 6, 7, 0, 8]),
            length: Some(1),
            optimal: Some(true),
            moves: Some("R".into()),
            millis: Some(0.25),
            ..Record::default()
        };
        let line = r.to_line();
        assert!(line.starts_with(r#"{"id":7,"size":"3x3","#), "{line}");
        assert!(!line.contains("error"), "{line}");
        assert_eq!(serde_json::from_str::<Record>(&line).unwrap(), r);
    }

    #[test]
    fn failures_carry_their_kind_and_what_a_limit_proved() {
        let stopped = Stopped {
            reason: StopReason::Timeout,
            lower_bound: 40,
            nodes: 1234,
        };
        let e = SolveError::Stopped(stopped.clone());
        let r = Record::failed("3", (&e).into(), e.to_string(), Some(&stopped));
        let line = r.to_line();
        assert!(
            line.starts_with(r#"{"id":3,"nodes":1234,"lower_bound":40,"error":"search stopped"#),
            "{line}"
        );
        assert!(line.ends_with(r#","kind":"limit"}"#), "{line}");
        assert_eq!(serde_json::from_str::<Record>(&line).unwrap(), r);

        let kind = |e: SolveError| FailureKind::from(&e).name();
        assert_eq!(
            kind(SolveError::Board(BoardError::Unsolvable { other: None })),
            "unsolvable"
        );
        let goal_size = BoardError::GoalSize { board: 16, goal: 9 };
        assert_eq!(kind(SolveError::Board(goal_size)), "parse");
        let nodes = Stopped {
            reason: StopReason::MaxNodes,
            ..stopped.clone()
        };
        assert_eq!(kind(SolveError::Stopped(nodes)), "limit");
        assert_eq!(
            FailureKind::from(&BoardError::Repeated(3)),
            FailureKind::Parse
        );
        let names: Vec<&str> = FailureKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            ["parse", "unsolvable", "limit", "tables", "checkpoint"]
        );

        // A record of a newer version, with a kind this one does not know, still reads.
        let r: Record = serde_json::from_str(r#"{"id":1,"error":"x","kind":"new"}"#).unwrap();
        assert_eq!(r.kind.as_deref(), Some("new"));
    }

    #[test]
    fn ids_keep_leading_zeros_as_text() {
        assert_eq!(id_value("12"), Value::from(12));
        assert_eq!(id_value("0"), Value::from(0));
        assert_eq!(id_value("007"), Value::from("007"));
        assert_eq!(id_value("a1"), Value::from("a1"));
        assert_eq!(id_value("9007199254740991"), Value::from(MAX_NUMERIC_ID));
        assert_eq!(
            id_value("9007199254740993"),
            Value::from("9007199254740993")
        );
    }
}
