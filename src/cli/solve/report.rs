//! What `solve` and `bench` print for each outcome and at the end: text for people, JSON
//! Lines ([`Record`]) for programs, `bench`'s aligned rows and its closing summary.

use std::sync::atomic::Ordering;

use super::super::output::note;
use super::super::INTERRUPTED;
use super::slice::Skipped;
use crate::instances::BadInstance;
use crate::record::{id_value, FailureKind, Record};
use crate::search::{StopReason, Stopped, Weight};
use crate::{board, Board, Goal, HeuristicKind, Instance, Solution, SolveError, Solver};

/// One instance's outcome.
pub struct Outcome {
    /// Stopped by Ctrl-C (not a failure of the instance).
    pub interrupted: bool,
    pub id: String,
    pub board: Option<Board>,
    pub goal: Option<Goal>,
    /// The input line of an item that is not an instance (no board): what its failure
    /// record says it is.
    pub line: Option<usize>,
    pub known: Option<u32>,
    pub result: Result<Solution, Failure>,
    /// Nodes this run generated, where that is not the answer's own count: an answer
    /// resumed from a checkpoint counts the runs before too, one read back counts none
    /// of this run. `bench`'s rate is of the nodes searched now.
    pub searched: Option<u64>,
    /// Its `--checkpoints` file could not be saved (a full disk): the answer is printed,
    /// and the batch's exit status is 2 (a failed write is never exit 0).
    pub unsaved: bool,
}

impl Outcome {
    /// An instance's outcome from its search's result: a stop by Ctrl-C is neither solved
    /// nor failed, any other stop a failure with what it proved.
    pub fn of(inst: Instance, result: Result<Solution, SolveError>) -> Outcome {
        let interrupted = matches!(
            &result,
            Err(SolveError::Stopped(s)) if s.reason == StopReason::Interrupted
        ) && INTERRUPTED.load(Ordering::Relaxed);
        let result = result.map_err(|e| Failure {
            message: format!("instance {}: {e}", inst.id),
            kind: (&e).into(),
            stopped: match e {
                SolveError::Stopped(s) => Some(s),
                SolveError::Board(_)
                | SolveError::Mismatch(_)
                | SolveError::TableChanged(_)
                | SolveError::Overestimate(_) => None,
            },
        });
        Outcome {
            interrupted,
            ..Outcome::new(inst, result)
        }
    }

    /// The failure record of an input item that is not a solvable instance: its line and
    /// known length kept, no board.
    pub fn bad(bad: BadInstance) -> Outcome {
        Outcome {
            interrupted: false,
            known: bad.known,
            board: None,
            goal: None,
            line: Some(bad.line),
            result: Err(Failure {
                message: bad.to_string(),
                kind: (&bad.error).into(),
                stopped: None,
            }),
            id: bad.id,
            searched: None,
            unsaved: false,
        }
    }

    /// The outcome of an instance with this result (not stopped by Ctrl-C).
    pub fn new(inst: Instance, result: Result<Solution, Failure>) -> Outcome {
        Outcome {
            interrupted: false,
            result,
            id: inst.id,
            board: Some(inst.board),
            goal: Some(inst.goal),
            line: None,
            known: inst.known,
            searched: None,
            unsaved: false,
        }
    }
}

/// Why an instance was not solved: the message for people, the kind for programs, and
/// what a search stopped by a limit proved.
pub struct Failure {
    pub message: String,
    pub kind: FailureKind,
    pub stopped: Option<Stopped>,
}

/// The running tallies of a batch, and how its lines look.
#[derive(Default)]
pub struct Report {
    pub json: bool,
    pub bench: bool,
    pub steps: bool,
    pub solved: u64,
    pub failed: u64,
    /// Failures that are searches stopped by `--max-nodes` or `--timeout`.
    pub stopped: u64,
    /// Of them, boards too large for any table (6x6): searched with linear conflict, far
    /// weaker, so the weight to suggest is larger.
    pub stopped_untabled: u64,
    pub mismatched: u64,
    pub nodes: u64,
    /// Nodes searched in this run (see [`Outcome::searched`]).
    pub searched: u64,
    pub total_len: u64,
    /// The estimates the solved instances were searched with, in order of first use: the
    /// one asked for, or another where it cannot serve (linear conflict for 6x6 boards,
    /// which no table covers).
    pub used: Vec<&'static str>,
}

/// `bench`'s row for an instance it did not solve, so that the table has a row for every
/// instance: a search stopped by a limit shows what it proved (`>=63`: no solution is
/// shorter) and its nodes, tagged `stop`; any other failure (a board that cannot be read
/// or solved) is tagged `FAIL`. Why is said on stderr, as for `solve`.
fn failure_row(o: &Outcome, f: &Failure) -> String {
    let known = o.known.map_or("?".to_string(), |k| k.to_string());
    let (length, tag, nodes) = match &f.stopped {
        Some(s) => (format!(">={}", s.lower_bound), "stop", s.nodes.to_string()),
        None => ("-".to_string(), "FAIL", "-".to_string()),
    };
    format!(
        "{:>6} {:>6} {:>6} {:>4} {:>14} {:>10}\n",
        o.id, length, known, tag, nodes, "-"
    )
}

impl Report {
    /// `bench`'s column heads (text only).
    pub fn header(&self) -> Option<String> {
        (self.bench && !self.json).then(|| {
            format!(
                "{:>6} {:>6} {:>6} {:>4} {:>14} {:>10}\n",
                "id", "length", "known", "", "nodes", "ms"
            )
        })
    }

    /// Counts the outcome and returns its JSON record (what `--format json` prints and
    /// `--output` writes).
    pub fn record(&mut self, o: &Outcome) -> Record {
        let sol = match &o.result {
            Ok(sol) => sol,
            Err(f) => {
                self.count_failed(o, f);
                // The known length stays with the instance that failed (a limit reached
                // tells as much beside it as a solution would); so does which item it is:
                // its board when it was read, its line when not (a merge holds every
                // record to the input's digest).
                let r = Record {
                    known: o.known.map(u64::from),
                    line: o.line.map(|l| l as u64),
                    ..Record::failed(&o.id, f.kind, &f.message, f.stopped.as_ref())
                };
                return match (&o.board, &o.goal) {
                    (Some(board), Some(goal)) => r.with_instance(board, goal),
                    _ => r,
                };
            }
        };
        let ok = self.count_solved(o, sol);
        let board = o.board.as_ref().expect("a solved outcome has its board");
        let goal = o.goal.as_ref().expect("a solved outcome has its goal");
        let w = sol.weight;
        Record {
            id: id_value(&o.id),
            length: Some(sol.moves.len() as u64),
            optimal: Some(w.is_one()),
            moves: Some(board::moves_to_string(&sol.moves)),
            nodes: Some(sol.nodes),
            millis: Some((sol.millis * 1000.0).round() / 1000.0),
            heuristic: Some(sol.heuristic.name().to_string()),
            bound: (!w.is_one()).then(|| w.factor()),
            lower_bound: (!w.is_one()).then_some(sol.lower_bound as u64),
            known: o.known.map(u64::from),
            ok: o.known.map(|_| ok),
            ..Record::default()
        }
        .with_instance(board, goal)
    }

    /// Counts a failed outcome. Its nodes count towards the rate too: a search stopped by
    /// a limit spent this run's time on them.
    fn count_failed(&mut self, o: &Outcome, f: &Failure) {
        self.failed += 1;
        self.stopped += u64::from(f.stopped.is_some());
        let untabled = o
            .board
            .is_some_and(|b| b.shape().cells() > crate::pdb::MAX_TABLE_CELLS);
        self.stopped_untabled += u64::from(f.stopped.is_some() && untabled);
        self.searched += o
            .searched
            .or(f.stopped.as_ref().map(|s| s.nodes))
            .unwrap_or(0);
    }

    /// Counts a solved outcome; returns whether its length agrees with the known one.
    fn count_solved(&mut self, o: &Outcome, sol: &Solution) -> bool {
        self.solved += 1;
        if !self.used.contains(&sol.heuristic.name()) {
            self.used.push(sol.heuristic.name());
        }
        self.nodes += sol.nodes;
        self.searched += o.searched.unwrap_or(sol.nodes);
        self.total_len += sol.moves.len() as u64;
        let len = sol.moves.len() as u32;
        let ok = o.known.is_none_or(|k| length_agrees(k, len, sol.weight));
        if !ok {
            self.mismatched += 1;
        }
        ok
    }

    /// After a batch where searches stopped at a limit (`--max-nodes`, `--timeout`), what
    /// to do not to lose their work next time, unless `kept` (`--checkpoints DIR` keeps
    /// them already). `bench` takes no `--checkpoint`: its inputs are sets. A results file
    /// (`output`) keeps the stopped ones as failures, which a rerun to it skips.
    pub fn limit_hint(
        &self,
        bench: bool,
        kept: bool,
        weight: Weight,
        output: Option<&std::path::Path>,
    ) -> Option<String> {
        if self.stopped == 0 || kept {
            return None;
        }
        if let Some(file) = output {
            let (what, them) = match self.stopped {
                1 => ("a search stopped at its limit".to_string(), "it"),
                n => (format!("{n} searches stopped at their limit"), "them"),
            };
            return Some(format!(
                "hint: {what}; {} keeps {them} as failures, which a rerun to it skips: to search {them} again with a larger limit, give another output file (or, to keep each stopped search to resume, --checkpoints DIR without an output file: its results print on stdout)",
                file.display()
            ));
        }
        let keep = if !bench && self.solved + self.failed == 1 {
            "--checkpoint FILE keeps the search to resume"
        } else {
            "--checkpoints DIR keeps each stopped search to resume"
        };
        // The weight the note on tables suggests for boards no table serves (3: "usually
        // within a second"), 1.5 where tables guide the search.
        let faster = match (weight.is_one(), self.stopped_untabled > 0) {
            (false, _) => "",
            (true, false) => {
                "; --weight 1.5 finds a solution at most 1.5 times optimal, often far sooner"
            }
            (true, true) => {
                "; --weight 3 finds a solution at most 3 times optimal, usually within a second"
            }
        };
        let what = match self.stopped {
            1 => "a search stopped at its limit, and a rerun would start it".to_string(),
            n => format!("{n} searches stopped at their limit, and a rerun would start them"),
        };
        Some(format!("hint: {what} over: {keep}{faster}"))
    }

    /// Counts the outcome and returns what goes to stdout for it (possibly nothing; a
    /// failure in text mode goes to stderr here).
    pub fn line(&mut self, o: &Outcome) -> String {
        if self.json {
            return self.record(o).to_line() + "\n";
        }
        let sol = match &o.result {
            Ok(sol) => sol,
            Err(f) => {
                self.count_failed(o, f);
                note!("error: {}", f.message);
                return if self.bench {
                    failure_row(o, f)
                } else {
                    String::new()
                };
            }
        };
        let ok = self.count_solved(o, sol);
        let len = sol.moves.len() as u32;
        let w = sol.weight;
        let board = o.board.as_ref().expect("a solved outcome has its board");
        let goal = o.goal.as_ref().expect("a solved outcome has its goal");
        let moves = board::moves_to_string(&sol.moves);
        if self.bench {
            let known = o.known.map_or("?".to_string(), |k| k.to_string());
            return format!(
                "{:>6} {:>6} {:>6} {:>4} {:>14} {:>10.1}\n",
                o.id,
                len,
                known,
                // Nothing to hold the length to when no length is known.
                match (o.known, ok) {
                    (None, _) => "-",
                    (Some(_), true) => "ok",
                    (Some(_), false) => "BAD",
                },
                sol.nodes,
                sol.millis
            );
        }
        let mut line = format!("instance {}\n{}", o.id, board.render());
        if self.steps {
            line.push_str(&render_steps(board, goal, sol));
        }
        let claim = if w.is_one() {
            "optimal".to_string()
        } else {
            format!(
                "not proven optimal: at most {} x optimal, and optimal is at least {}",
                w.factor(),
                sol.lower_bound
            )
        };
        let agreement = match o.known {
            Some(k) if k == len => ", as expected".to_string(),
            Some(k) if ok => format!(", the file says {k}: within the bound"),
            Some(k) => format!(", BUT THE FILE SAYS {k}"),
            None => String::new(),
        };
        let moves = if moves.is_empty() {
            "(none: already solved)".to_string()
        } else {
            moves
        };
        line.push_str(&format!(
            "length {len} ({claim}){agreement}\nmoves  {moves}\nnodes  {}   time {:.1} ms   heuristic {}\n\n",
            sol.nodes,
            sol.millis,
            sol.heuristic.name()
        ));
        line
    }

    /// `bench`'s closing lines: totals, wall time, nodes per second. `interrupted`: a
    /// Ctrl-C or SIGTERM ended the run, so the totals are of the instances done before it,
    /// which the summary says (a program reading it must not take it for the whole set's).
    #[allow(clippy::too_many_arguments)]
    pub fn summary(
        &self,
        wall: f64,
        build_secs: f64,
        threads: usize,
        kind: HeuristicKind,
        weight: Weight,
        skipped: Skipped,
        interrupted: bool,
    ) -> String {
        let (solved, failed, mismatched) = (self.solved, self.failed, self.mismatched);
        let (total_nodes, total_len) = (self.nodes, self.total_len);
        // Of the nodes searched in this run: a resumed answer's earlier runs and an answer
        // read back took none of this run's time.
        let nps = self.searched as f64 / wall.max(1e-9);
        let per = total_nodes.checked_div(solved).unwrap_or(0);
        // What the solved instances were searched with ("pdb, linear-conflict" for a batch
        // of 4x4 and 6x6 boards); the estimate asked for when none was solved.
        let heuristic = match self.used.is_empty() {
            true => kind.name().to_string(),
            false => self.used.join(", "),
        };
        if self.json {
            let mut v = serde_json::json!({"summary": {
                "solved": solved, "failed": failed, "mismatched": mismatched,
                "total_length": total_len, "nodes": total_nodes,
                "nodes_per_instance": per, "wall_seconds": wall,
                "table_build_seconds": build_secs,
                "nodes_per_second": nps, "searched_nodes": self.searched,
                "threads": threads,
                "heuristic": heuristic,
                "optimal": weight.is_one(),
                "bound": weight.factor(),
            }});
            if interrupted {
                v["summary"]["interrupted"] = serde_json::json!(true);
            }
            if skipped.results > 0 {
                v["summary"]["skipped"] = serde_json::json!({
                    "results": skipped.results,
                    "failed": skipped.failed,
                    "mismatched": skipped.mismatched,
                });
            }
            return format!("{v}\n");
        }
        let built = if build_secs > 0.0 {
            format!(" (after {build_secs:.1} s building tables)")
        } else {
            String::new()
        };
        let threads = match threads {
            1 => "1 thread".to_string(),
            n => format!("{n} threads"),
        };
        // The rate is of this run's search, which the solved instances' nodes are not
        // when some failed (their work counted only there) or were resumed: then it says
        // of which nodes.
        let of = if self.searched == total_nodes {
            String::new()
        } else {
            format!(" (of the {} nodes this run searched)", self.searched)
        };
        let mut s = format!(
            "\n{solved} solved, {failed} failed, {mismatched} wrong lengths; total length {total_len}\n\
             wall {wall:.3} s{built}, {total_nodes} nodes ({per} per instance), {:.1} M nodes/s{of}, {threads}, heuristic {}\n",
            nps / 1e6,
            heuristic,
        );
        if interrupted {
            s.push_str("interrupted: these counts are of the instances done before the stop, not of the whole file\n");
        }
        if skipped.results > 0 {
            s.push_str(&format!(
                "and {} results already in the output file: {} failed, {} wrong lengths (held to the input's known lengths)\n",
                skipped.results, skipped.failed, skipped.mismatched
            ));
        }
        if !weight.is_one() {
            s.push_str(&format!(
                "weight {}: lengths not proven optimal; ok means within {} x the known length\n",
                weight.factor(),
                weight.factor()
            ));
        }
        if mismatched + skipped.mismatched > 0 {
            s.push_str(&format!(
                "LENGTH MISMATCH: some lengths differ from the file's{}\n",
                if weight.is_one() {
                    ""
                } else {
                    " by more than the bound"
                }
            ));
        }
        s
    }
}

/// Whether a solution of `len` moves agrees with the known length `known`: the same, or,
/// for a weighted search, within its bound.
pub fn length_agrees(known: u32, len: u32, w: Weight) -> bool {
    // One rule for what is written and what `check` holds records to.
    crate::check::length_agrees(known.into(), len.into(), w)
}

/// Every board on the way, with g, h (linear conflict, cheap to compute) and f.
fn render_steps(board: &Board, goal: &Goal, sol: &Solution) -> String {
    let solver = Solver::new(HeuristicKind::LinearConflict);
    let h0 = solver.estimate(board, goal);
    let mut s = format!("start: g 0, h {h0}, f {h0}\n");
    let mut b = *board;
    let n = sol.moves.len();
    for (i, m) in sol.moves.iter().enumerate() {
        // The tile too, as a person holding the puzzle moves it (the blank's letter is
        // the other way round).
        let (tile, slide) = crate::game::tile_move(&b, *m).expect("solutions are legal");
        b = b.apply(*m).expect("solutions are legal");
        let h = solver.estimate(&b, goal);
        s.push_str(&format!(
            "move {}/{}: blank {} (slide {tile} {}) -> g {}, h {}, f {}, remaining {}\n{}",
            i + 1,
            n,
            m.letter(),
            crate::game::dir_name(slide),
            i + 1,
            h,
            i + 1 + h as usize,
            n - i - 1,
            b.render()
        ));
    }
    s
}
