//! `--checkpoints DIR`: a batch whose every instance's search is kept in a file of DIR,
//! named for the instance and the search (board, goal, estimate, tables, weight), resumed
//! by a rerun (see [`super::checkpoint`] for one search's file).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::checkpoint::{partway, save_failed, solve_kept, Resumed};
use super::progress::{BatchBar, Iterations};
use super::report::{Failure, Outcome};
use crate::cli::output::{counted, inform, note};
use crate::cluster::Identity;
use crate::record::FailureKind;
use crate::search::{Iteration, Search, Weight};
use crate::{Instance, Solver};

/// Makes `--checkpoints DIR` if missing and writes a file there once, before the batch:
/// a directory that takes no files is refused now, not found out by a warning for every
/// instance.
///
/// # Errors
/// A directory that cannot be made or written to.
pub(super) fn prepare_dir(dir: &Path) -> Result<()> {
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        bail!(
            "--checkpoints {}: not a directory (it holds one checkpoint file per instance); give a directory, or --checkpoint FILE for one board",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--checkpoints {}: cannot create it", dir.display()))?;
    tempfile::NamedTempFile::new_in(dir).with_context(|| {
        format!(
            "--checkpoints {}: cannot write a file in it; give a directory you can write to",
            dir.display()
        )
    })?;
    Ok(())
}

/// The file name of an instance's checkpoint in `--checkpoints DIR`: its id (made safe for
/// a file name) and a hash of the search it is for (board, goal, estimate, tables,
/// weight), so that an edited input or other settings start a file of their own instead
/// of meeting one of another search; with the identity it is made from.
fn named(inst: &Instance, solver: &crate::Solver, weight: Weight) -> Result<(String, Identity)> {
    let frame = solver.frame(&inst.board, &inst.goal)?;
    let identity = Identity::new(
        &inst.board,
        &inst.goal,
        frame.heuristic,
        frame.partition,
        weight,
    );
    let json = serde_json::to_vec(&identity).expect("an identity serializes");
    let id: String = inst
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let name = format!(
        "{id}-{:08x}.checkpoint",
        xxhash_rust::xxh3::xxh3_64(&json) as u32
    );
    Ok((name, identity))
}

/// The bytes of the regular file at `path`, if it is one of at most
/// [`crate::cluster::MAX_JSON_FILE_BYTES`]: a FIFO, a device or a huge file of someone
/// else's under a checkpoint's name is passed over, not waited on or read into memory.
fn small_regular_file(path: &Path) -> Option<Vec<u8>> {
    let file = crate::pdb::open_nonblocking(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > crate::cluster::MAX_JSON_FILE_BYTES {
        return None;
    }
    let mut text = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, crate::cluster::MAX_JSON_FILE_BYTES),
        &mut text,
    )
    .ok()?;
    Some(text)
}

/// The other checkpoints in `dir` of the search `ours` (named `name`) would make: files
/// of the same instance id and board, for other settings (an estimate, a partition or a
/// weight of their own: tables copied in part to another node, the dual lookups' left
/// out, say). Each with what differs, for a warning: this search starts over beside them,
/// which would otherwise go unsaid.
fn others_of_this_board(dir: &Path, name: &str, ours: &Identity) -> Vec<(PathBuf, String)> {
    let Some((id, _)) = name.rsplit_once('-') else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entries.flatten() {
        let other = e.file_name().to_string_lossy().into_owned();
        let same_id = other
            .strip_suffix(".checkpoint")
            .and_then(|o| o.rsplit_once('-'))
            .is_some_and(|(i, _)| i == id);
        if !same_id || other == name {
            continue;
        }
        let Some(text) = small_regular_file(&e.path()) else {
            continue;
        };
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&text) else {
            continue;
        };
        let same_board = v["tiles"] == serde_json::json!(ours.tiles)
            && v["goal"] == serde_json::json!(ours.goal)
            && v["size"] == serde_json::json!(ours.size);
        if !same_board {
            continue;
        }
        let mut differs = Vec::new();
        for (field, mine) in [
            ("heuristic", Some(ours.heuristic.as_str())),
            ("partition", ours.partition.as_deref()),
            ("weight", Some(ours.weight.as_str())),
        ] {
            let theirs = v[field].as_str();
            if theirs != mine {
                differs.push(format!(
                    "its {field} {}, this run's {}",
                    theirs.unwrap_or("none"),
                    mine.unwrap_or("none")
                ));
            }
        }
        if !differs.is_empty() {
            found.push((e.path(), differs.join("; ")));
        }
    }
    found.sort();
    found
}

/// Solves one instance of a `--checkpoints DIR` batch, its search kept in a file of DIR
/// (see [`solve_kept`]): resumed when the file holds a stopped search, read back
/// when it holds the answer. A file that cannot be used fails this instance, naming it.
pub(super) fn solve_kept_one(
    inst: Instance,
    solver: &Solver,
    search: Search,
    dir: &std::path::Path,
    alone: bool,
    bar: &BatchBar,
) -> Outcome {
    let kept = named(&inst, solver, search.weight)
        .map(|(name, identity)| {
            let path = dir.join(&name);
            if !path.exists() {
                for (other, why) in others_of_this_board(dir, &name, &identity) {
                    bar.suspend(|| {
                        note!(
                            "warning: instance {}: {} holds this board's search with other settings ({why}), so it is not resumed: this run starts over in {} (run with the settings it was written with to resume it)",
                            inst.id,
                            other.display(),
                            path.display()
                        )
                    });
                }
            }
            path
        })
        .and_then(|path| {
            let resuming = |r: Resumed| {
                bar.suspend(|| {
                    inform!(
                        "instance {}: resuming from {} at threshold {} ({} of it done{})",
                        inst.id,
                        path.display(),
                        r.threshold,
                        counted(r.done as u64, "subtree"),
                        partway(r.partial)
                    )
                })
            };
            let shown = Iterations::new(&inst.id, &search, alone, Some(bar));
            let hook = |it: Iteration| shown.note(it);
            let search = Search {
                on_iteration: shown.wanted().then_some(&hook as _),
                ..search
            };
            let kept = solve_kept(&inst, solver, search, &path, &resuming, &shown);
            shown.clear();
            Ok((path, kept?))
        });
    let (path, kept) = match kept {
        Ok(k) => k,
        Err(e) => {
            let failure = Failure {
                message: format!("instance {}: {e:#}", inst.id),
                kind: FailureKind::Checkpoint,
                stopped: None,
            };
            return Outcome::new(inst, Err(failure));
        }
    };
    if let (Some(e), false) = (&kept.save_failed, kept.warned) {
        bar.suspend(|| note!("warning: instance {}: {}", inst.id, save_failed(e, &path)));
    }
    Outcome {
        searched: Some(kept.spent.0),
        unsaved: kept.save_failed.is_some(),
        ..Outcome::of(inst, kept.result)
    }
}
