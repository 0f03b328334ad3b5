//! What a batch stopped by Ctrl-C, SIGTERM or SIGHUP says on stderr: what each search it
//! caught had proven, whether anything was done, where the work is kept, and the finished
//! instances it did not print.

use std::path::Path;

use crate::cli::output::{counted, note};

/// A stopped batch, as its last lines tell it.
pub(super) struct Stop<'a> {
    /// The failure lines of the searches the stop caught ("... no solution is shorter than
    /// B moves").
    pub caught: &'a [String],
    /// Instances that finished after the first one the stop caught: not printed (the
    /// output keeps input order).
    pub unprinted: usize,
    /// Instances printed (solved or failed).
    pub done: u64,
    /// Instances read from the input.
    pub read: usize,
    /// One board given as an argument (its work is kept by `--checkpoint FILE`).
    pub one_board: bool,
}

impl Stop<'_> {
    /// Says it, for a batch writing to `output` (or stdout) and keeping its searches in
    /// `checkpoints`, if given.
    pub fn say(&self, output: Option<&Path>, checkpoints: Option<&Path>) {
        for line in self.caught.iter().take(8) {
            note!("{line}");
        }
        if self.caught.len() > 8 {
            note!("and {} more searches stopped", self.caught.len() - 8);
        }
        let nothing = if self.unprinted > 0 {
            "printed"
        } else {
            "done"
        };
        match output {
            Some(path) => note!(
                "interrupted: {} holds every result up to here; rerun the same command to resume",
                path.display()
            ),
            None => match (checkpoints, self.done) {
                (Some(dir), 0) => note!(
                    "interrupted: no instance was {nothing}; {} keeps each stopped search: rerun the same command to resume",
                    dir.display()
                ),
                (Some(dir), _) => note!(
                    "interrupted: the results above are complete; {} keeps each stopped search: rerun the same command to resume",
                    dir.display()
                ),
                (None, 0) if self.read == 0 => {
                    note!("interrupted: stopped before any board was read")
                }
                (None, 0) if self.one_board => note!("interrupted: the search was stopped (--checkpoint FILE keeps a long search's work for a rerun)"),
                (None, 0) => note!(
                    "interrupted: no instance was {nothing} (--checkpoints DIR keeps a long search's work for a rerun)"
                ),
                (None, _) => note!("interrupted: the results above are complete; the rest were not solved"),
            },
        }
        if self.unprinted > 0 {
            let what = counted(self.unprinted as u64, "more instance");
            let kept = match (output, checkpoints) {
                (None, Some(dir)) => format!(
                    "{} keeps their answers: the rerun prints them without searching",
                    dir.display()
                ),
                (Some(_), _) => "the rerun searches them again".to_string(),
                (None, None) => "they are lost".to_string(),
            };
            note!(
                "interrupted: {what} finished after the first one the stop caught, and {} not {} (results stay in input order); {kept}",
                if self.unprinted == 1 { "was" } else { "were" },
                if output.is_some() { "written" } else { "printed" },
            );
        }
    }
}
