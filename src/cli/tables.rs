//! `fifteen tables list|verify`: what tables a directory holds and whether they check out.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use super::args::{Format, TablesArg};
use super::output::{emit, inform};
use crate::pdb;

/// Arguments of `fifteen tables`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("tables", |a| a.help(super::args::tables_help!(
    "Those are the tables listed or verified; nothing is built here (solve builds tables \
     on first use, build-pdb ahead)."
))))]
pub struct TablesArgs {
    #[command(subcommand)]
    action: Action,
    #[command(flatten)]
    tables: TablesArg,
    /// Output: text for people, json for programs (one JSON object per table: path, size,
    /// blank, tiles, entries, bytes, clamped, status "ok" or "bad", checked, record,
    /// millis; a bad table path, status, error and millis; docs/formats.md).
    #[arg(long, value_enum, default_value = "text", global = true)]
    format: Format,
}

#[derive(clap::Subcommand, Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Show the tables present: pattern, entries, size, and whether the header checks out.
    List,
    /// Recompute every table's checksum (reads each file in full, whatever its
    /// verification record says) and refresh the record.
    Verify,
}

/// Lists (or verifies) every `.pdb` file of the directory; exit status 1 if any is bad.
pub fn run(a: TablesArgs) -> Result<i32> {
    let dir = a.tables.tables;
    let verify = a.action == Action::Verify;
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => Some(e),
        // Before the first build (a new user's `tables list`): no tables, as in an empty
        // directory, and where they will be.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) if dir.exists() && !dir.is_dir() => bail!(
            "cannot list {}: it is there, and not a directory (give the tables directory)",
            dir.display()
        ),
        Err(e) => bail!(
            "cannot list {}: {e} (tables are built there on first use)",
            dir.display()
        ),
    };
    let mut files: Vec<PathBuf> = entries
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    files.sort();
    let mut out = std::io::stdout();
    let json = a.format == Format::Json;
    if files.is_empty() {
        let none = match dir.exists() {
            true => format!("no tables in {}", dir.display()),
            false => format!(
                "no tables in {} (it does not exist yet: tables are built there on first use)",
                dir.display()
            ),
        };
        if json {
            // No objects: the output is empty, and people are told why.
            inform!("{none}");
        } else {
            emit(&mut out, &format!("{none}\n"))?;
        }
        return Ok(0);
    }
    let mut bad = 0;
    for path in files {
        let t0 = Instant::now();
        let checked = pdb::inspect(&path).and_then(|(spec, _)| {
            // SAFETY: table files are written once and replaced only by rename.
            let t = unsafe { pdb::Table::map(&path, &spec) }?;
            // The full pass always (a record is never trusted here), then the record
            // refreshed so that the next `solve` may skip it.
            let record = if verify {
                Some(t.verify_and_record(&spec)?)
            } else {
                None
            };
            Ok((spec, t, record))
        });
        let millis = t0.elapsed().as_secs_f64() * 1000.0;
        if checked.is_err() {
            bad += 1;
        }
        let line = match checked {
            Ok((spec, t, record)) if json => Row {
                path: path.display().to_string(),
                size: Some(spec.shape.to_string()),
                blank: Some(spec.blank),
                tiles: Some(spec.tiles),
                entries: Some(t.header.entries),
                bytes: Some(t.header.payload_len + pdb::PAYLOAD_OFFSET),
                clamped: Some(t.header.clamped),
                status: "ok",
                checked: Some(if verify { "checksum" } else { "header" }),
                record: record.map(record_word),
                error: None,
                millis: (millis * 1000.0).round() / 1000.0,
            }
            .line(),
            Err(e) if json => Row {
                path: path.display().to_string(),
                status: "bad",
                error: Some(e.to_string()),
                millis: (millis * 1000.0).round() / 1000.0,
                ..Row::default()
            }
            .line(),
            Ok((spec, t, record)) => format!(
                "{}  {} tiles {:?}  {} entries  {:.1} MB  clamped {}  {}{}  {:.1} ms\n",
                path.display(),
                spec.tiles.len(),
                spec.tiles,
                t.header.entries,
                (t.header.payload_len + pdb::PAYLOAD_OFFSET) as f64 / 1e6,
                t.header.clamped,
                if verify { "checksum ok" } else { "header ok" },
                record.map_or(String::new(), |r| format!(", record {}", record_word(r))),
                millis
            ),
            Err(e) => format!("{}  BAD: {e}\n", path.display()),
        };
        emit(&mut out, &line)?;
    }
    Ok(if bad > 0 { 1 } else { 0 })
}

/// What became of a table's verification record after `tables verify`, in a word or two.
fn record_word(r: pdb::RecordOutcome) -> String {
    match r {
        pdb::RecordOutcome::Written => "written".into(),
        pdb::RecordOutcome::TooRecent => "not written (file changed too recently)".into(),
        pdb::RecordOutcome::NotWritten(kind) => format!("not written ({kind})"),
        pdb::RecordOutcome::Unsupported => "not supported here".into(),
        pdb::RecordOutcome::Foreign => {
            "not written (a file of someone else's has its name; it is left as it is)".into()
        }
    }
}

/// One table as `tables list --format json` prints it (fields in this order; a bad table
/// has only `path`, `status`, `error` and `millis`).
#[derive(serde::Serialize, Default)]
struct Row {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blank: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<u64>,
    /// The file's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<u64>,
    /// Entries clamped to the 4-bit maximum (they read as 15, still a lower bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    clamped: Option<u64>,
    /// `ok` or `bad`.
    status: &'static str,
    /// What was checked: `header` (list) or `checksum` (verify).
    #[serde(skip_serializing_if = "Option::is_none")]
    checked: Option<&'static str>,
    /// `verify` only: what became of the verification record that lets `solve` skip
    /// the pass (`written`, or why not).
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    millis: f64,
}

impl Row {
    fn line(&self) -> String {
        serde_json::to_string(self).expect("a row always serializes") + "\n"
    }
}
