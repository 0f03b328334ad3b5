//! From a board and a goal to a checked optimal solution: labels the board, picks the
//! heuristic, runs IDA*, and maps the moves back.

use std::sync::Arc;
use std::time::Instant;

use crate::board::{Board, Dir, Goal, Labels};
use crate::error::BoardError;
use crate::pdb::{Dual, DualTables, Patterns, PdbHeuristic};
use crate::search::{
    ida_star_weighted, Found, Geometry, Heuristic, IterationHook, Limits, LinearConflict,
    Manhattan, Max, Packed, Stopped, TieBreak, Tiles, WalkingDistance, Weight, Wide, PACKED_CELLS,
};

/// Which estimate guides the search. All are admissible, so all give optimal lengths; they
/// differ in how many nodes they need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// The sum of each tile's taxicab distance to its goal cell: the weakest estimate, and
    /// the cheapest per node.
    Manhattan,
    /// Manhattan distance plus two moves for every tile that must leave its goal row or
    /// column to let others in that line pass. Needs no tables, so it is also the fallback
    /// for `Pdb`.
    LinearConflict,
    /// Additive pattern databases (max with the mirrored lookup where the goal allows).
    Pdb,
}

impl HeuristicKind {
    /// The name used on the command line and in JSON results: `manhattan`,
    /// `linear-conflict` or `pdb`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

/// A solution and what it cost to find: optimal unless the solver was weighted.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The blank's moves from the board to the goal; their number is the solution's length.
    pub moves: Vec<Dir>,
    /// The weight of the search: [`Weight::ONE`] for a proven optimal solution; otherwise the
    /// solution is at most `weight.factor()` times the optimal length.
    pub weight: Weight,
    /// The optimal length is at least this (equal to the length when proven optimal).
    pub lower_bound: u32,
    /// Nodes generated, summed over all iterations: search effort independent of the
    /// machine's speed.
    pub nodes: u64,
    /// Threshold and cumulative nodes of each finished iteration.
    pub iterations: Vec<crate::search::Iteration>,
    /// Wall-clock time of the whole call to [`Solver::solve`], in milliseconds.
    pub millis: f64,
    /// The heuristic actually used (a request for `pdb` on a board without tables falls
    /// back to linear conflict).
    pub heuristic: HeuristicKind,
}

/// Why a board was not solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The board cannot be searched for this goal: another shape
    /// ([`BoardError::GoalSize`]) or unsolvable ([`BoardError::Unsolvable`]). Found before
    /// any search.
    #[error("{0}")]
    Board(#[from] BoardError),
    #[error("search stopped ({reason}) after {nodes} nodes; no solution is shorter than {bound} moves",
        reason = match .0.reason {
            crate::search::StopReason::MaxNodes => "node limit reached",
            crate::search::StopReason::Timeout => "time limit reached",
            crate::search::StopReason::Interrupted => "interrupted",
        },
        nodes = .0.nodes, bound = .0.lower_bound)]
    /// A limit in [`Limits`] (nodes, deadline or stop flag) ended the search before it found
    /// a solution; holds the reason, the nodes spent and the lower bound proven so far.
    Stopped(Stopped),
}

/// Solves boards with one heuristic and, for `Pdb`, one set of tables.
#[derive(Clone)]
pub struct Solver {
    kind: HeuristicKind,
    pdb: Option<Arc<PdbHeuristic>>,
    /// When set, one instance is searched on all of this pool's threads.
    split: Option<Arc<rayon::ThreadPool>>,
    weight: Weight,
    /// Estimates max'd with the pattern databases (see [`Solver::with_extras`]).
    extras: Extras,
}

/// What the pattern-database search adds to the first partition's tables (the study of
/// docs/heuristic.md; each is admissible, so each max is too).
#[derive(Clone, Default)]
pub struct Extras {
    /// A second partition's tables (with their own mirrored lookup), max'd with the first.
    pub second: Option<Arc<PdbHeuristic>>,
    /// Walking distance for the tables' shape and goal blank, max'd with the tables.
    pub walking: Option<Arc<WalkingDistance>>,
    /// Read the extras only for children the first tables do not cut.
    pub lazy: bool,
    /// Search children of equal estimate most linear conflicts first ([`TieBreak`]).
    pub tie_break: bool,
    /// The first tables' dual lookups ([`Dual`]), max'd with them: used when built on
    /// the same tables as the solver's.
    pub dual: Option<Arc<DualTables>>,
}

impl Solver {
    /// A solver without pattern databases.
    pub fn new(kind: HeuristicKind) -> Solver {
        Solver {
            kind,
            pdb: None,
            split: None,
            weight: Weight::ONE,
            extras: Extras::default(),
        }
    }

    /// A solver that uses `pdb` for boards it fits and linear conflict for the rest.
    pub fn with_pdb(pdb: Arc<PdbHeuristic>) -> Solver {
        Solver {
            kind: HeuristicKind::Pdb,
            pdb: Some(pdb),
            split: None,
            weight: Weight::ONE,
            extras: Extras::default(),
        }
    }

    /// Adds estimates max'd with the pattern databases for the boards they serve. A
    /// second partition whose shape or goal blank differs from the first's is ignored.
    pub fn with_extras(mut self, extras: Extras) -> Solver {
        self.extras = extras;
        self
    }

    /// Searches each instance on every thread of `pool` (for single hard instances; for
    /// batches, one instance per thread is faster).
    pub fn split_on(mut self, pool: Arc<rayon::ThreadPool>) -> Solver {
        self.split = Some(pool);
        self
    }

    /// Trades optimality for speed: solutions at most `weight.factor()` times the optimal
    /// length (weighted IDA*). [`Weight::ONE`] restores the optimal search.
    pub fn weighted(mut self, weight: Weight) -> Solver {
        self.weight = weight;
        self
    }

    /// The weight this solver searches with ([`Weight::ONE`] unless set by
    /// [`Solver::weighted`]).
    pub fn weight(&self) -> Weight {
        self.weight
    }

    /// The heuristic asked for; a [`Solution`] says which one was actually used.
    pub fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// Finds an optimal solution (or, weighted, one within the weight's bound).
    ///
    /// `limits` bounds the work (`Limits::default()`: none); `hook`, if given, is called
    /// after each finished IDA* iteration, for progress reports. The board is checked
    /// against the goal first, so an unsolvable board fails at once instead of searching
    /// for ever.
    ///
    /// # Errors
    /// A board that does not fit the goal, or a search stopped by `limits`.
    ///
    /// # Examples
    /// ```
    /// use fifteen::board::moves_to_string;
    /// use fifteen::check::check_solution;
    /// use fifteen::search::{Limits, Weight};
    /// use fifteen::{Board, BoardError, Goal, HeuristicKind, SolveError, Solver};
    ///
    /// // Three tiles each one step from home: no solution is shorter than 3 moves.
    /// let board = Board::parse("1 2 3 0 4 6 7 5 8").unwrap();
    /// let goal = Goal::standard(board.shape());
    /// let solver = Solver::new(HeuristicKind::LinearConflict);
    ///
    /// let solution = solver.solve(&board, &goal, Limits::default(), None).unwrap();
    /// assert_eq!(moves_to_string(&solution.moves), "RDR");
    /// assert_eq!(solution.weight, Weight::ONE); // proven optimal...
    /// assert_eq!(solution.lower_bound, 3); // ...so the bound is the length
    ///
    /// // Trust, but verify: replay the moves independently of the solver.
    /// assert_eq!(check_solution(&board, &goal, &solution.moves), Ok(3));
    ///
    /// // Swapping two tiles makes a board that cannot reach the goal; no search is run.
    /// let swapped = Board::parse("2 1 3 0 4 6 7 5 8").unwrap();
    /// assert_eq!(
    ///     solver.solve(&swapped, &goal, Limits::default(), None),
    ///     Err(SolveError::Board(BoardError::Unsolvable))
    /// );
    /// ```
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        limits: Limits,
        hook: Option<IterationHook>,
    ) -> Result<Solution, SolveError> {
        let t0 = Instant::now();
        let labels = goal.labels(board)?;
        let (found, used) = match (&self.kind, &self.pdb) {
            (HeuristicKind::Pdb, Some(pdb)) if pdb.fits(&labels) => {
                // Tables are built for one blank cell; a mirror image of the board may
                // put its blank there.
                let sym = pdb.symmetry_for(&labels).expect("fits");
                let l = sym.labels(&labels);
                let geo = Geometry::new(l.shape, l.blank_label);
                let dual = self.extras.dual.as_deref();
                let dual = dual.filter(|d| Arc::ptr_eq(&d.pdb, pdb));
                let found = if let (Some(d), true) = (dual, pdb.tables.len() <= 4) {
                    let h = Max {
                        first: Patterns::<4>(pdb.as_ref()),
                        second: Dual::<4>(d),
                        lazy: self.extras.lazy,
                    };
                    self.search_extras(h, &geo, &l, limits, hook)?
                } else if pdb.tables.len() <= 4 {
                    let h = Patterns::<4>(pdb.as_ref());
                    self.search_extras(h, &geo, &l, limits, hook)?
                } else {
                    let h = pdb.as_ref();
                    search(&geo, h, &l, self.weight, limits, hook, &self.split)?
                };
                let inv = sym.inverse(l.shape);
                let mut f = found;
                f.moves = f.moves.iter().map(|&d| inv.dir(d)).collect();
                (f, HeuristicKind::Pdb)
            }
            (HeuristicKind::Manhattan, _) => (
                run(&labels, &Manhattan, self.weight, limits, hook, &self.split)?,
                HeuristicKind::Manhattan,
            ),
            _ => (
                run(
                    &labels,
                    &LinearConflict,
                    self.weight,
                    limits,
                    hook,
                    &self.split,
                )?,
                HeuristicKind::LinearConflict,
            ),
        };
        // Every path between two boards has the same parity (each move changes the blank's
        // cell colour and the permutation's parity together), so the bound rounds up to it.
        let len = found.moves.len() as u32;
        let mut lower_bound = found.lower_bound.min(len);
        if (len - lower_bound) % 2 == 1 {
            lower_bound += 1;
        }
        Ok(Solution {
            weight: self.weight,
            lower_bound,
            moves: found.moves,
            nodes: found.nodes,
            iterations: found.iterations,
            millis: t0.elapsed().as_secs_f64() * 1000.0,
            heuristic: used,
        })
    }
}

impl Solver {
    /// The search with the first tables `h` and whichever extras fit the tables.
    fn search_extras<H: Heuristic>(
        &self,
        h: H,
        geo: &Geometry,
        l: &Labels,
        limits: Limits,
        hook: Option<IterationHook>,
    ) -> Result<Found, SolveError> {
        let x = &self.extras;
        let lazy = x.lazy;
        let second = x.second.as_deref().filter(|s| {
            s.partition.shape == l.shape
                && s.partition.blank == l.blank_label
                && s.tables.len() <= 4
        });
        match (second, x.walking.as_deref()) {
            (None, None) => self.ordered(h, geo, l, limits, hook),
            (Some(p2), None) => {
                let second = Patterns::<4>(p2);
                let m = Max {
                    first: h,
                    second,
                    lazy,
                };
                self.ordered(m, geo, l, limits, hook)
            }
            (None, Some(wd)) => {
                let m = Max {
                    first: h,
                    second: wd,
                    lazy,
                };
                self.ordered(m, geo, l, limits, hook)
            }
            (Some(p2), Some(wd)) => {
                let first = Max {
                    first: h,
                    second: wd,
                    lazy,
                };
                let m = Max {
                    first,
                    second: Patterns::<4>(p2),
                    lazy,
                };
                self.ordered(m, geo, l, limits, hook)
            }
        }
    }

    /// The search with `h`, its children ordered by the tie-break when one is asked for.
    fn ordered<H: Heuristic>(
        &self,
        h: H,
        geo: &Geometry,
        l: &Labels,
        limits: Limits,
        hook: Option<IterationHook>,
    ) -> Result<Found, SolveError> {
        let (w, s) = (self.weight, &self.split);
        if self.extras.tie_break {
            search(geo, &TieBreak(h), l, w, limits, hook, s)
        } else {
            search(geo, &h, l, w, limits, hook, s)
        }
    }
}

fn run<H: Heuristic>(
    labels: &Labels,
    h: &H,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    split: &Option<Arc<rayon::ThreadPool>>,
) -> Result<Found, SolveError> {
    let geo = Geometry::new(labels.shape, labels.blank_label);
    search(&geo, h, labels, weight, limits, hook, split)
}

/// Searches in the narrowest packing that holds the board: one word up to 16 cells.
fn search<H: Heuristic>(
    geo: &Geometry,
    h: &H,
    labels: &Labels,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    split: &Option<Arc<rayon::ThreadPool>>,
) -> Result<Found, SolveError> {
    if geo.cells <= PACKED_CELLS {
        search_in(
            geo,
            h,
            geo.load::<Packed>(labels),
            weight,
            limits,
            hook,
            split,
        )
    } else {
        search_in(
            geo,
            h,
            geo.load::<Wide>(labels),
            weight,
            limits,
            hook,
            split,
        )
    }
}

fn search_in<H: Heuristic, T: Tiles>(
    geo: &Geometry,
    h: &H,
    start: T,
    weight: Weight,
    limits: Limits,
    hook: Option<IterationHook>,
    split: &Option<Arc<rayon::ThreadPool>>,
) -> Result<Found, SolveError> {
    match split {
        // A weighted search remembers the boards it met (see `Seen`), which only the
        // serial search does: that saves more than a second thread would.
        Some(pool) if weight.is_one() => {
            crate::search::ida_star_parallel_weighted(geo, h, start, weight, limits, hook, pool)
        }
        _ => ida_star_weighted(geo, h, start, weight, limits, hook),
    }
    .map_err(SolveError::Stopped)
}

impl Solver {
    /// The heuristic's estimate for a board (what IDA* starts from); 0 for boards that do
    /// not fit the goal.
    pub fn estimate(&self, board: &Board, goal: &Goal) -> u32 {
        let Ok(labels) = goal.labels(board) else {
            return 0;
        };
        match (&self.kind, &self.pdb) {
            (HeuristicKind::Pdb, Some(pdb)) if pdb.fits(&labels) => {
                let sym = pdb.symmetry_for(&labels).expect("fits");
                let l = sym.labels(&labels);
                let geo = Geometry::new(l.shape, l.blank_label);
                let p = geo.load::<Wide>(&l);
                let x = &self.extras;
                let second = x
                    .second
                    .as_deref()
                    .filter(|s| s.partition.shape == l.shape && s.partition.blank == l.blank_label);
                let wd = x
                    .walking
                    .as_deref()
                    .map_or(0, |w| w.h(&mut w.root(&geo, &p)));
                let e2 = second.map_or(0, |s| s.evaluate(&geo, &p));
                let dual = x.dual.as_deref().filter(|d| Arc::ptr_eq(&d.pdb, pdb));
                let e3 = dual.map_or(0, |d| {
                    let d = Dual::<{ crate::pdb::MAX_PATTERNS }>(d);
                    d.h(&mut d.root(&geo, &p))
                });
                pdb.evaluate(&geo, &p).max(wd).max(e2).max(e3)
            }
            (HeuristicKind::Manhattan, _) => {
                let geo = Geometry::new(labels.shape, labels.blank_label);
                geo.manhattan(&geo.load::<Wide>(&labels))
            }
            _ => {
                let geo = Geometry::new(labels.shape, labels.blank_label);
                let mut st = LinearConflict.root(&geo, &geo.load::<Wide>(&labels));
                LinearConflict.h(&mut st)
            }
        }
    }
}

/// A search that runs with whatever estimate and board packing a [`Solver`] picks for a
/// board: the split search and the checkpointed search are written once, generically, and
/// [`Solver::run_job`] chooses their types, as [`Solver::solve`] does for plain IDA*.
pub trait SearchJob {
    /// What the search returns.
    type Output;
    /// Runs the search from `start` (labelled for `geo`'s goal) with the estimate `h`.
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Self::Output;
}

/// How a [`SearchJob`] saw the board: the estimate used, and the symmetry that took the
/// board into the tables' frame (moves found in that frame go back through
/// [`Frame::to_user`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The estimate actually used (`pdb` falls back to linear conflict without tables).
    pub heuristic: HeuristicKind,
    /// The tables' partition (`7-8`, ...) when the estimate is `pdb`.
    pub partition: Option<String>,
    /// The symmetry applied to the board before searching.
    pub symmetry: crate::board::Symmetry,
    shape: crate::board::Shape,
}

impl Frame {
    /// The search's moves, in the user's coordinates.
    pub fn to_user(&self, moves: &[Dir]) -> Vec<Dir> {
        let inv = self.symmetry.inverse(self.shape);
        moves.iter().map(|&d| inv.dir(d)).collect()
    }
}

impl Solver {
    /// Runs `job` on `board` with this solver's estimate and the narrowest packing, in the
    /// frame the tables want (see [`Frame`]). The weight is the job's business.
    ///
    /// # Errors
    /// A board that does not fit the goal (another shape, or unsolvable).
    pub fn run_job<J: SearchJob>(
        &self,
        board: &Board,
        goal: &Goal,
        job: J,
    ) -> Result<(J::Output, Frame), BoardError> {
        let labels = goal.labels(board)?;
        let frame = |heuristic, symmetry| Frame {
            heuristic,
            partition: None,
            symmetry,
            shape: labels.shape,
        };
        Ok(match (&self.kind, &self.pdb) {
            (HeuristicKind::Pdb, Some(pdb)) if pdb.fits(&labels) => {
                let sym = pdb.symmetry_for(&labels).expect("fits");
                let l = sym.labels(&labels);
                let out = if pdb.tables.len() <= 4 {
                    packed(&l, &Patterns::<4>(pdb.as_ref()), job)
                } else {
                    packed(&l, pdb.as_ref(), job)
                };
                let mut f = frame(HeuristicKind::Pdb, sym);
                f.partition = Some(pdb.partition.name());
                (out, f)
            }
            (HeuristicKind::Manhattan, _) => (
                packed(&labels, &Manhattan, job),
                frame(HeuristicKind::Manhattan, crate::board::Symmetry::IDENTITY),
            ),
            _ => (
                packed(&labels, &LinearConflict, job),
                frame(
                    HeuristicKind::LinearConflict,
                    crate::board::Symmetry::IDENTITY,
                ),
            ),
        })
    }
}

impl Solver {
    /// How [`Solver::run_job`] would see `board`: the estimate, partition and frame, without
    /// searching.
    ///
    /// # Errors
    /// A board that does not fit the goal.
    pub fn frame(&self, board: &Board, goal: &Goal) -> Result<Frame, BoardError> {
        struct Nothing;
        impl SearchJob for Nothing {
            type Output = ();
            fn run<H: Heuristic, T: Tiles>(self, _: &Geometry, _: &H, _: T) {}
        }
        Ok(self.run_job(board, goal, Nothing)?.1)
    }
}

/// Runs `job` in the narrowest packing that holds the board.
fn packed<H: Heuristic, J: SearchJob>(labels: &Labels, h: &H, job: J) -> J::Output {
    let geo = Geometry::new(labels.shape, labels.blank_label);
    if geo.cells <= PACKED_CELLS {
        job.run(&geo, h, geo.load::<Packed>(labels))
    } else {
        job.run(&geo, h, geo.load::<Wide>(labels))
    }
}
