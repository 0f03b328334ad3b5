//! From a board and a goal to a checked optimal solution: labels the board, picks the
//! heuristic, runs IDA*, and maps the moves back.

use std::sync::Arc;
use std::time::Instant;

use crate::board::{Board, Dir, Goal, Labels};
use crate::error::{BoardError, TableError};
use crate::pdb::{Dual, DualTables, Patterns, PdbHeuristic};
use crate::search::{
    ida_star, BooksMismatch, Found, Geometry, Hamming, Heuristic, LinearConflict, Manhattan, Max,
    Packed, Search, SearchError, Stopped, TieBreak, Tiles, WalkingDistance, Weight, Wide,
    PACKED_CELLS,
};

/// Which estimate guides the search. All are admissible, so all give optimal lengths; they
/// differ in how many nodes they need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// The number of tiles outside their goal cell: weaker still than Manhattan distance,
    /// the estimate that courses start from.
    Hamming,
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
    /// The name used on the command line and in JSON results: `hamming`, `manhattan`,
    /// `linear-conflict` or `pdb`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Hamming => "hamming",
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
            crate::search::StopReason::MaxMemory => "memory limit reached",
            crate::search::StopReason::Interrupted => "interrupted",
        },
        nodes = .0.nodes, bound = .0.lower_bound)]
    /// A limit in [`crate::search::Limits`] (nodes, deadline or stop flag) ended the search
    /// before it found a solution; holds the reason, the nodes spent and the lower bound
    /// proven so far.
    Stopped(Stopped),
    /// The books handed to the search (a checkpoint) belong to another search.
    #[error("{0}")]
    Mismatch(BooksMismatch),
    /// The table file at this path was written to during the search
    /// ([`TableError::Changed`]): what the search found is not given.
    #[error("{}", changed(.0))]
    TableChanged(std::path::PathBuf),
    /// The estimate called a board farther than it is (see
    /// [`SearchError::Overestimate`]): a table is damaged; no answer is given.
    #[error("{0}")]
    Overestimate(SearchError),
}

/// [`SolveError::TableChanged`] said as [`TableError::Changed`] says it.
fn changed(path: &std::path::Path) -> String {
    TableError::Changed {
        path: path.to_path_buf(),
    }
    .to_string()
}

impl From<SearchError> for SolveError {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::Stopped(s) => SolveError::Stopped(s),
            SearchError::Mismatch(m) => SolveError::Mismatch(m),
            e @ SearchError::Overestimate { .. } => SolveError::Overestimate(e),
        }
    }
}

/// Solves boards with one heuristic and, for `Pdb`, one set of tables.
#[derive(Clone)]
pub struct Solver {
    kind: HeuristicKind,
    pdb: Option<Arc<PdbHeuristic>>,
    /// Estimates max'd with the pattern databases (see [`Solver::with_extras`]).
    extras: Extras,
}

/// What the pattern-database search adds to the first partition's tables (the study of
/// docs/heuristic.md; each is admissible, so each max is too).
#[derive(Clone, Default)]
pub struct Extras {
    /// A second partition's tables (with their own mirrored lookup), max'd with the first.
    pub second: Option<Arc<PdbHeuristic>>,
    /// More partitions' tables (at most two are read), max'd after the second, in order:
    /// partitions of two patterns, without walking distance or the second's dual lookups.
    pub more: Vec<Arc<PdbHeuristic>>,
    /// Walking distance for the tables' shape and goal blank, max'd with the tables.
    pub walking: Option<Arc<WalkingDistance>>,
    /// Read the extras only for children the first tables do not cut.
    pub lazy: bool,
    /// Search children of equal estimate most linear conflicts first ([`TieBreak`]).
    pub tie_break: bool,
    /// The first tables' dual lookups ([`Dual`]), max'd with them: used when built on
    /// the same tables as the solver's.
    pub dual: Option<Arc<DualTables>>,
    /// The second partition's dual lookups, max'd last (after the second partition):
    /// used when built on the same tables as `second` and without walking distance. A
    /// study option (docs/heuristic.md): on the Korf 100 it cuts nodes, not time.
    pub dual_second: Option<Arc<DualTables>>,
}

impl Solver {
    /// Whether every table file this solver reads is as it was when mapped (see
    /// [`crate::pdb::Table::unchanged`]); a solver without tables always is.
    ///
    /// # Errors
    /// [`SolveError::TableChanged`] naming the first file written to since.
    pub fn unchanged(&self) -> Result<(), SolveError> {
        let x = &self.extras;
        let pdbs = self.pdb.iter().chain(&x.second).chain(&x.more);
        let changed = |e| match e {
            TableError::Changed { path } => SolveError::TableChanged(path),
            other => unreachable!("unchanged() says only Changed: {other}"),
        };
        for p in pdbs {
            p.unchanged().map_err(changed)?;
        }
        for d in x.dual.iter().chain(&x.dual_second) {
            d.unchanged().map_err(changed)?;
        }
        Ok(())
    }

    /// A solver without pattern databases.
    pub fn new(kind: HeuristicKind) -> Solver {
        Solver {
            kind,
            pdb: None,
            extras: Extras::default(),
        }
    }

    /// A solver that uses `pdb` for boards it fits and linear conflict for the rest.
    pub fn with_pdb(pdb: Arc<PdbHeuristic>) -> Solver {
        Solver {
            kind: HeuristicKind::Pdb,
            pdb: Some(pdb),
            extras: Extras::default(),
        }
    }

    /// Adds estimates max'd with the pattern databases for the boards they serve. A
    /// second partition whose shape or goal blank differs from the first's is ignored.
    pub fn with_extras(mut self, extras: Extras) -> Solver {
        self.extras = extras;
        self
    }

    /// The heuristic asked for; a [`Solution`] says which one was actually used.
    pub fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// Finds an optimal solution (or, weighted, one within the weight's bound): the one
    /// search, run as `search` says (weight, limits, progress hook, threads, books; see
    /// [`Search`]) with this solver's estimate.
    ///
    /// The board is checked against the goal first, so an unsolvable board fails at once
    /// instead of searching for ever.
    ///
    /// # Errors
    /// A board that does not fit the goal, a search stopped by a limit, or books that
    /// belong to another search.
    ///
    /// # Examples
    /// ```
    /// use fifteen::board::moves_to_string;
    /// use fifteen::check::check_solution;
    /// use fifteen::search::{Search, Weight};
    /// use fifteen::{Board, BoardError, Goal, HeuristicKind, SolveError, Solver};
    ///
    /// // Three tiles each one step from home: no solution is shorter than 3 moves.
    /// let board = Board::parse("1 2 3 0 4 6 7 5 8").unwrap();
    /// let goal = Goal::standard(board.shape());
    /// let solver = Solver::new(HeuristicKind::LinearConflict);
    ///
    /// let solution = solver.solve(&board, &goal, &Search::default()).unwrap();
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
    ///     solver.solve(&swapped, &goal, &Search::default()),
    ///     Err(SolveError::Board(BoardError::Unsolvable { other: None }))
    /// );
    /// ```
    pub fn solve(
        &self,
        board: &Board,
        goal: &Goal,
        search: &Search,
    ) -> Result<Solution, SolveError> {
        let t0 = Instant::now();
        let (found, frame) = self.run_job(board, goal, Ida(search))?;
        // What the search read must be what was checked: neither an answer nor a bound
        // comes from a table written to meanwhile.
        self.unchanged()?;
        let found = found?;
        // With an admissible estimate an optimal search's answer is as long as the bound
        // its iterations proved; shorter, some table overestimated (the split search says
        // so itself; the serial one is held to it here).
        if search.weight.is_one() && found.lower_bound as usize > found.moves.len() {
            return Err(SolveError::Overestimate(SearchError::Overestimate {
                length: found.moves.len(),
                bound: found.lower_bound,
            }));
        }
        let moves = frame.to_user(&found.moves);
        // Every path between two boards has the same parity (each move changes the blank's
        // cell colour and the permutation's parity together), so the bound rounds up to it.
        let len = moves.len() as u32;
        let mut lower_bound = found.lower_bound.min(len);
        if (len - lower_bound) % 2 == 1 {
            lower_bound += 1;
        }
        Ok(Solution {
            weight: search.weight,
            lower_bound,
            moves,
            nodes: found.nodes,
            iterations: found.iterations,
            millis: t0.elapsed().as_secs_f64() * 1000.0,
            heuristic: frame.heuristic,
        })
    }
}

impl Solver {
    /// The estimate [`Solver::run_job`] searches `l` with, in words (see
    /// [`Frame::partition`]).
    fn estimate_name(&self, pdb: &Arc<PdbHeuristic>, l: &Labels) -> String {
        let x = &self.extras;
        let mut name = pdb.partition.groups();
        if pdb.tables.len() > 4 {
            return name;
        }
        if x.dual.as_ref().is_some_and(|d| Arc::ptr_eq(&d.pdb, pdb)) {
            name += "+dual";
        }
        if x.walking.is_some() {
            name += "+walking";
        }
        if let Some(s) = self.second_for(l) {
            name = format!("{name}+{}", s.partition.groups());
            if self.dual_second_for(s).is_some() && x.walking.is_none() {
                name += "+dual";
            }
            for t in self.more_for(l) {
                name = format!("{name}+{}", t.partition.groups());
            }
        }
        if x.tie_break {
            name += "+tie-break";
        }
        name
    }
}

/// The one search as a [`SearchJob`], for [`Solver::solve`].
struct Ida<'s, 'a>(&'s Search<'a>);

impl SearchJob for Ida<'_, '_> {
    type Output = Result<Found, SearchError>;
    fn run<H: Heuristic, T: Tiles>(self, geo: &Geometry, h: &H, start: T) -> Self::Output {
        ida_star(geo, h, start, self.0)
    }
}

impl Solver {
    /// The job with the first tables `h` and whichever extras fit the tables.
    fn extra_estimates<H: Heuristic, J: SearchJob>(&self, h: H, l: &Labels, job: J) -> J::Output {
        let x = &self.extras;
        let lazy = x.lazy;
        match (self.second_for(l), x.walking.as_deref()) {
            (None, None) => self.ordered(h, l, job),
            // Two slots for a partition of two patterns, as for the first tables.
            (Some(p2), None) if p2.tables.len() <= 2 && self.dual_second_for(p2).is_none() => {
                let m = Max {
                    first: h,
                    second: Patterns::<2>(p2),
                    lazy,
                };
                match self.more_for(l)[..] {
                    [] => self.ordered(m, l, job),
                    [p3] => {
                        let m = Max {
                            first: m,
                            second: Patterns::<2>(p3),
                            lazy,
                        };
                        self.ordered(m, l, job)
                    }
                    [p3, p4, ..] => {
                        let m = Max {
                            first: m,
                            second: Patterns::<2>(p3),
                            lazy,
                        };
                        let m = Max {
                            first: m,
                            second: Patterns::<2>(p4),
                            lazy,
                        };
                        self.ordered(m, l, job)
                    }
                }
            }
            (Some(p2), None) => {
                let second = Patterns::<4>(p2);
                let m = Max {
                    first: h,
                    second,
                    lazy,
                };
                match self.dual_second_for(p2) {
                    Some(d2) => {
                        let m = Max {
                            first: m,
                            second: Dual::<4>(d2),
                            lazy,
                        };
                        self.ordered(m, l, job)
                    }
                    None => self.ordered(m, l, job),
                }
            }
            (None, Some(wd)) => {
                let m = Max {
                    first: h,
                    second: wd,
                    lazy,
                };
                self.ordered(m, l, job)
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
                self.ordered(m, l, job)
            }
        }
    }

    /// The second partition's tables, when they serve `l` (the same shape and goal blank as
    /// the first's, in the packing `Patterns` reads).
    fn second_for(&self, l: &Labels) -> Option<&PdbHeuristic> {
        self.extras.second.as_deref().filter(|s| {
            s.partition.shape == l.shape
                && s.partition.blank == l.blank_label
                && s.tables.len() <= 4
        })
    }

    /// The further partitions' tables the search reads for `l`: at most two, of two
    /// patterns each, and only beside a second partition of two patterns without its dual
    /// lookups or walking distance (the one combination [`Solver::extra_estimates`] nests
    /// them in).
    fn more_for(&self, l: &Labels) -> Vec<&PdbHeuristic> {
        let x = &self.extras;
        let Some(second) = self.second_for(l) else {
            return Vec::new();
        };
        if second.tables.len() > 2 || self.dual_second_for(second).is_some() || x.walking.is_some()
        {
            return Vec::new();
        }
        let fits = |s: &&PdbHeuristic| {
            s.partition.shape == l.shape
                && s.partition.blank == l.blank_label
                && s.tables.len() <= 2
        };
        x.more
            .iter()
            .map(|p| p.as_ref())
            .filter(fits)
            .take(2)
            .collect()
    }

    /// The second partition's dual lookups, when built on `second`'s tables.
    fn dual_second_for(&self, second: &PdbHeuristic) -> Option<&DualTables> {
        let d = self.extras.dual_second.as_deref()?;
        std::ptr::eq(d.pdb.as_ref(), second).then_some(d)
    }

    /// The job with `h`, its children ordered by the tie-break when one is asked for.
    fn ordered<H: Heuristic, J: SearchJob>(&self, h: H, l: &Labels, job: J) -> J::Output {
        if self.extras.tie_break {
            packed(l, &TieBreak(h), job)
        } else {
            packed(l, &h, job)
        }
    }
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
                let e5 = self.more_for(&l).iter().map(|t| t.evaluate(&geo, &p)).max();
                // As the search reads them: the second partition's dual not beside walking
                // distance.
                let e4 = second.filter(|_| x.walking.is_none());
                let e4 = e4.and_then(|s| self.dual_second_for(s)).map_or(0, |d| {
                    let d = Dual::<{ crate::pdb::MAX_PATTERNS }>(d);
                    d.h(&mut d.root(&geo, &p))
                });
                let dual = x.dual.as_deref().filter(|d| Arc::ptr_eq(&d.pdb, pdb));
                let e3 = dual.map_or(0, |d| {
                    let d = Dual::<{ crate::pdb::MAX_PATTERNS }>(d);
                    d.h(&mut d.root(&geo, &p))
                });
                pdb.evaluate(&geo, &p)
                    .max(wd)
                    .max(e2)
                    .max(e3)
                    .max(e4)
                    .max(e5.unwrap_or(0))
            }
            (HeuristicKind::Manhattan, _) => {
                let geo = Geometry::new(labels.shape, labels.blank_label);
                geo.manhattan(&geo.load::<Wide>(&labels))
            }
            (HeuristicKind::Hamming, _) => {
                let geo = Geometry::new(labels.shape, labels.blank_label);
                Hamming.root(&geo, &geo.load::<Wide>(&labels))
            }
            _ => {
                let geo = Geometry::new(labels.shape, labels.blank_label);
                let mut st = LinearConflict.root(&geo, &geo.load::<Wide>(&labels));
                LinearConflict.h(&mut st)
            }
        }
    }
}

/// Work that runs with whatever estimate and board packing a [`Solver`] picks for a board:
/// [`Solver::solve`] (the one search) and the split search's frontier and parts are
/// written once, generically, and [`Solver::run_job`] chooses their types.
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
    /// When the estimate is `pdb`: the tables' partition as label groups, then each
    /// estimate max'd with it (`+` and the second partition's groups, `+walking`, `+dual`,
    /// `+tie-break`): what a file that must not be resumed into another search records.
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
    /// Runs `job` on `board` with this solver's estimate (the tables and every extra that
    /// fits them, exactly as [`Solver::solve`] searches) and the narrowest packing, in the
    /// frame the tables want (see [`Frame`]).
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
                // Tables are built for one blank cell; a mirror image of the board may
                // put its blank there.
                let sym = pdb.symmetry_for(&labels).expect("fits");
                let l = sym.labels(&labels);
                let dual = self.extras.dual.as_deref();
                let dual = dual.filter(|d| Arc::ptr_eq(&d.pdb, pdb));
                let out = match (dual, pdb.tables.len() <= 4) {
                    (Some(d), true) => {
                        let h = Max {
                            first: Patterns::<4>(pdb.as_ref()),
                            second: Dual::<4>(d),
                            lazy: self.extras.lazy,
                        };
                        self.extra_estimates(h, &l, job)
                    }
                    // The 4x4's two patterns in a state of two slots: states are copied
                    // for every child, and two slots rather than four took 5% off the
                    // Korf 100 (docs/performance.md).
                    (None, true) if pdb.tables.len() <= 2 => {
                        self.extra_estimates(Patterns::<2>(pdb.as_ref()), &l, job)
                    }
                    (None, true) => self.extra_estimates(Patterns::<4>(pdb.as_ref()), &l, job),
                    (_, false) => packed(&l, pdb.as_ref(), job),
                };
                let mut f = frame(HeuristicKind::Pdb, sym);
                f.partition = Some(self.estimate_name(pdb, &l));
                (out, f)
            }
            (HeuristicKind::Manhattan, _) => (
                packed(&labels, &Manhattan, job),
                frame(HeuristicKind::Manhattan, crate::board::Symmetry::IDENTITY),
            ),
            (HeuristicKind::Hamming, _) => (
                packed(&labels, &Hamming, job),
                frame(HeuristicKind::Hamming, crate::board::Symmetry::IDENTITY),
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
