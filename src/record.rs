//! The result record: one JSON object per instance, as `fifteen solve --format json` writes
//! it and `fifteen check` reads it back (SPEC.md, "JSON Lines").
//!
//! One type serves both directions so that writer and reader cannot drift apart. Every
//! field but `id` is optional: a failed instance carries only `id` and `error`, and
//! `check` accepts the results of other solvers, which need give no more than `tiles` and
//! `moves`. Fields are only ever added, never renamed.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// An instance id as JSON: a number when the id is a plain decimal (without leading
/// zeros, which a number would lose), otherwise the text.
pub fn id_value(id: &str) -> Value {
    match id.parse::<u64>() {
        Ok(n) if !id.starts_with('0') || id == "0" => Value::from(n),
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
    fn ids_keep_leading_zeros_as_text() {
        assert_eq!(id_value("12"), Value::from(12));
        assert_eq!(id_value("0"), Value::from(0));
        assert_eq!(id_value("007"), Value::from("007"));
        assert_eq!(id_value("a1"), Value::from("a1"));
    }
}
