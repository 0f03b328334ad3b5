//! What the game knows about the way from the current board to the goal, and the worker
//! thread that finds it out within a time budget.
//!
//! An optimal search can take hours (a 5x5 board without tables) or minutes (some 4x4
//! boards with linear conflict), and a game that shows "computing..." for ever is broken.
//! So every position gets a budget: the optimal search runs for at most `think`; if it does
//! not finish, what it proved is kept (no solution is shorter than its last threshold) and
//! weighted searches (`Search::weight`, quick but not optimal) look for *some* solution
//! for at most `think` more. The screen then says what is known and no more: "at least 84"
//! and "a 168-move solution is known", or "too hard to compute here".

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::search::{Iteration, Limits, Search, StopReason, Weight};
use crate::{Board, Dir, Goal, SolveError, Solver};

/// Weights tried in turn once the optimal search has run out of time: the first that finds
/// a solution in its share of the budget wins. Each solution is at most that many times
/// optimal; with linear conflict, random 5x5 boards take well under a second at 2 and 6x6
/// boards a few seconds at 3 to 5 (10 is the last resort).
const WEIGHTS: [f64; 4] = [2.0, 3.0, 5.0, 10.0];

/// Boards whose analysis is remembered, so that undoing a move (or coming back to a board)
/// does not search again; forgotten all at once beyond this.
const CACHE_LIMIT: usize = 10_000;

/// What is known about the rest of the way from one board.
///
/// Invariant: `solution`, when known, is never shorter than `at_least`, and it is proven
/// optimal exactly when it is as short as that.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// No solution from this board is shorter (proven: by the estimate, finished IDA*
    /// iterations, or the search that found the solution).
    pub at_least: u32,
    /// The shortest solution known (the blank's moves), optimal or not.
    pub solution: Option<Vec<Dir>>,
    pub state: State,
}

/// How far the work on a board has gone.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// The optimal search is running.
    Proving,
    /// The optimal search ran out of time; weighted searches look for any solution.
    Approximating,
    /// Nothing more will be computed for this board.
    Done,
    /// The board could not be searched at all (the message says why).
    Failed(String),
}

impl Analysis {
    fn start(at_least: u32) -> Analysis {
        Analysis {
            at_least,
            solution: None,
            state: State::Proving,
        }
    }

    /// The proven optimal length, if it is known.
    pub fn optimal(&self) -> Option<usize> {
        let n = self.solution.as_ref()?.len();
        (n == self.at_least as usize).then_some(n)
    }

    /// The analysis one move further along its own solution (`blank`: that move), without
    /// searching: the rest of the solution is still a solution, and a board one move away
    /// is at most one move nearer the goal. `None` if `blank` leaves the solution.
    pub fn after(&self, blank: Dir) -> Option<Analysis> {
        let moves = self.solution.as_ref()?;
        if moves.first() != Some(&blank) {
            return None;
        }
        Some(Analysis {
            at_least: self.at_least.saturating_sub(1),
            solution: Some(moves[1..].to_vec()),
            state: self.state.clone(),
        })
    }
}

/// A message from the search thread: an analysis for request number `.0`.
type Report = (u64, Analysis);

/// Runs one analysis at a time on a thread of its own; a new request cancels the old one.
pub struct Worker {
    solver: Solver,
    /// The threads one search is split over (`None`: the worker's thread alone).
    pool: Option<Arc<rayon::ThreadPool>>,
    think: Duration,
    generation: u64,
    cancel: Arc<AtomicBool>,
    tx: Sender<Report>,
    rx: Receiver<Report>,
    cache: HashMap<Board, Analysis>,
}

impl Worker {
    /// A worker that searches with `solver` (an optimal one), spending at most `think` on the optimal search
    /// of a board and as much again on approximate ones.
    pub fn new(solver: Solver, pool: Option<Arc<rayon::ThreadPool>>, think: Duration) -> Worker {
        let (tx, rx) = channel();
        Worker {
            solver,
            pool,
            think,
            generation: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            tx,
            rx,
            cache: HashMap::new(),
        }
    }

    /// How long the optimal search of one board may take.
    pub fn think(&self) -> Duration {
        self.think
    }

    /// Stops the search running, if any.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Starts on `board` (cancelling the search before): returns what is known at once,
    /// from the cache or from the estimate (and `at_least`, a bound known by the caller,
    /// such as one less than a neighbour's); the rest arrives through [`Worker::poll`].
    pub fn request(&mut self, board: &Board, goal: &Goal, at_least: u32) -> Analysis {
        self.cancel();
        self.generation += 1;
        if let Some(a) = self.cache.get(board) {
            return a.clone();
        }
        let at_least = at_least.max(self.solver.estimate(board, goal));
        self.cancel = Arc::new(AtomicBool::new(false));
        let (cancel, tx, generation) = (self.cancel.clone(), self.tx.clone(), self.generation);
        let (board, goal, solver, think) = (*board, *goal, self.solver.clone(), self.think);
        let pool = self.pool.clone();
        std::thread::spawn(move || {
            let report = |a: &Analysis| {
                let _ = tx.send((generation, a.clone()));
            };
            let on = Searcher {
                solver: &solver,
                pool: pool.as_deref(),
            };
            analyse(&board, &goal, on, think, at_least, &cancel, &report);
        });
        Analysis::start(at_least)
    }

    /// Remembers what is known about `board` (found without a search: see
    /// [`Analysis::after`]), if it is final.
    pub fn remember(&mut self, board: &Board, a: &Analysis) {
        if a.state == State::Done {
            if self.cache.len() >= CACHE_LIMIT {
                self.cache.clear();
            }
            self.cache.insert(*board, a.clone());
        }
    }

    /// The newest report on the current board, if one arrived; finished analyses are
    /// remembered for `board` (the current board).
    pub fn poll(&mut self, board: &Board) -> Option<Analysis> {
        let mut latest = None;
        while let Ok((generation, a)) = self.rx.try_recv() {
            if generation == self.generation {
                latest = Some(a);
            }
        }
        if let Some(a) = &latest {
            self.remember(board, a);
        }
        latest
    }
}

/// What an analysis searches with: the solver, and the threads to split it over.
#[derive(Clone, Copy)]
struct Searcher<'a> {
    solver: &'a Solver,
    pool: Option<&'a rayon::ThreadPool>,
}

/// The optimal search within `think`, then weighted ones within `think` more; each step
/// reported as it is known. Returns quietly when cancelled (a newer board is wanted).
fn analyse(
    board: &Board,
    goal: &Goal,
    on: Searcher,
    think: Duration,
    at_least: u32,
    cancel: &AtomicBool,
    report: &(dyn Fn(&Analysis) + Sync),
) {
    let mut a = Analysis::start(at_least);
    let search = |weight, deadline| Search {
        weight,
        limits: Limits {
            deadline: Some(deadline),
            stop: Some(cancel),
            ..Limits::default()
        },
        pool: on.pool,
        ..Search::default()
    };
    // Plain IDA* never raises its threshold past the optimal length: each finished
    // iteration is a better lower bound, shown while the search goes on.
    let hook = |it: Iteration| {
        if it.threshold > at_least {
            report(&Analysis::start(it.threshold));
        }
    };
    let optimal = Search {
        on_iteration: Some(&hook),
        ..search(Weight::ONE, Instant::now() + think)
    };
    match on.solver.solve(board, goal, &optimal) {
        Ok(sol) => {
            a.at_least = sol.moves.len() as u32;
            a.solution = Some(sol.moves);
            a.state = State::Done;
            return report(&a);
        }
        Err(SolveError::Stopped(s)) if s.reason == StopReason::Interrupted => return,
        Err(SolveError::Stopped(s)) => a.at_least = a.at_least.max(s.lower_bound),
        Err(e) => {
            a.state = State::Failed(e.to_string());
            return report(&a);
        }
    }
    a.state = State::Approximating;
    report(&a);
    // Each weight gets half of what is left of the budget, the last one all of it.
    let end = Instant::now() + think;
    for (i, &w) in WEIGHTS.iter().enumerate() {
        let now = Instant::now();
        let deadline = if i + 1 == WEIGHTS.len() {
            end
        } else {
            now + end.saturating_duration_since(now) / 2
        };
        let weight = Weight::from_factor(w).expect("weights are in range");
        match on.solver.solve(board, goal, &search(weight, deadline)) {
            Ok(sol) => {
                a.at_least = a.at_least.max(sol.lower_bound);
                a.solution = Some(sol.moves);
                break;
            }
            Err(SolveError::Stopped(s)) if s.reason == StopReason::Interrupted => return,
            Err(SolveError::Stopped(s)) => a.at_least = a.at_least.max(s.lower_bound),
            Err(e) => {
                a.state = State::Failed(e.to_string());
                return report(&a);
            }
        }
    }
    a.state = State::Done;
    report(&a);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HeuristicKind, Shape};

    fn wait(w: &mut Worker, board: &Board) -> Analysis {
        let t0 = Instant::now();
        loop {
            if let Some(a) = w.poll(board) {
                if matches!(a.state, State::Done | State::Failed(_)) {
                    return a;
                }
            }
            assert!(t0.elapsed() < Duration::from_secs(120), "no answer");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn an_easy_board_is_solved_optimally_and_remembered() {
        let board = Board::parse("1 2 3 0 4 6 7 5 8").unwrap();
        let goal = Goal::standard(board.shape());
        let mut w = Worker::new(
            Solver::new(HeuristicKind::LinearConflict),
            None,
            Duration::from_secs(60),
        );
        assert_eq!(w.request(&board, &goal, 0).state, State::Proving);
        let a = wait(&mut w, &board);
        assert_eq!(a.optimal(), Some(3));
        let next = a.after(Dir::Right).unwrap();
        assert_eq!((next.optimal(), next.at_least), (Some(2), 2));
        assert!(a.after(Dir::Left).is_none());
        // Asked again: known at once.
        assert_eq!(w.request(&board, &goal, 0).optimal(), Some(3));
    }

    #[test]
    fn a_hard_board_gets_a_bound_and_a_solution_in_its_budget() {
        // A random 5x5 board: far beyond an optimal search in 50 ms, easy at weight 2.
        let shape = Shape::new(5, 5).unwrap();
        let goal = Goal::standard(shape);
        let board = crate::random::random_board(&mut crate::random::Rng::new(3), &goal);
        let mut w = Worker::new(
            Solver::new(HeuristicKind::LinearConflict),
            None,
            Duration::from_millis(50),
        );
        let first = w.request(&board, &goal, 0);
        let a = wait(&mut w, &board);
        assert_eq!(a.state, State::Done);
        assert!(a.at_least >= first.at_least && a.at_least > 0);
        assert_eq!(a.optimal(), None);
        if let Some(moves) = &a.solution {
            assert!(moves.len() as u32 > a.at_least);
            assert_eq!((moves.len() as u32 - a.at_least) % 2, 0, "parity");
            assert_eq!(
                crate::check::check_solution(&board, &goal, moves),
                Ok(moves.len())
            );
        }
    }
}
