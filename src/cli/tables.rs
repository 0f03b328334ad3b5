//! `fifteen tables list|verify`: what tables a directory holds and whether they check out.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use super::args::TablesArg;
use super::output::emit;
use crate::pdb;

/// Arguments of `fifteen tables`.
#[derive(clap::Args, Debug)]
pub struct TablesArgs {
    #[command(subcommand)]
    action: Action,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(clap::Subcommand, Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Show the tables present: pattern, entries, size, and whether the header checks out.
    List,
    /// Recompute every table's checksum (reads each file in full).
    Verify,
}

/// Lists (or verifies) every `.pdb` file of the directory; exit status 1 if any is bad.
pub fn run(a: TablesArgs) -> Result<i32> {
    let dir = a.tables.tables;
    let verify = a.action == Action::Verify;
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => bail!(
            "cannot list {}: {e} (tables are built there on first use)",
            dir.display()
        ),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdb"))
        .collect();
    files.sort();
    let mut out = std::io::stdout();
    if files.is_empty() {
        emit(&mut out, &format!("no tables in {}\n", dir.display()))?;
        return Ok(0);
    }
    let mut bad = 0;
    for path in files {
        let t0 = Instant::now();
        let checked = pdb::inspect(&path).and_then(|(spec, _)| {
            // SAFETY: table files are written once and replaced only by rename.
            let t = unsafe { pdb::Table::map(&path, &spec) }?;
            if verify {
                t.verify(&spec)?;
            }
            Ok((spec, t))
        });
        let line = match checked {
            Ok((spec, t)) => format!(
                "{}  {} tiles {:?}  {} entries  {:.1} MB  clamped {}  {}  {:.1} ms\n",
                path.display(),
                spec.tiles.len(),
                spec.tiles,
                t.header.entries,
                (t.header.payload_len + pdb::PAYLOAD_OFFSET) as f64 / 1e6,
                t.header.clamped,
                if verify { "checksum ok" } else { "header ok" },
                t0.elapsed().as_secs_f64() * 1000.0
            ),
            Err(e) => {
                bad += 1;
                format!("{}  BAD: {e}\n", path.display())
            }
        };
        emit(&mut out, &line)?;
    }
    Ok(if bad > 0 { 1 } else { 0 })
}
