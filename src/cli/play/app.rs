//! The game on the screen: keys, the playing back of solutions, and what the screen says.
//! The rules and history are [`crate::game::Game`], which knows nothing of terminals; the
//! searches run on a worker thread ([`super::analysis`]) so that a slow one never freezes
//! the screen, each within a time budget so that none makes the player wait for ever; the
//! drawing and its size check are [`super::screen`]; the terminal, and restoring it on
//! every way out, [`super::terminal`].
//!
//! Keys name the direction a tile slides.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::analysis::{Analysis, State, Worker};
use super::screen;
use super::terminal::{Terminal, REDRAW};
use crate::game::{dir_name, tile_move, Game};
use crate::random::{random_board, Rng};
use crate::{Dir, Solver};

/// Rows of text around the board: title, heuristic, a gap above; a gap, the status, the
/// analysis, the message, a gap and two help lines below.
const TOP: usize = 3;
const BOTTOM: usize = 7;

/// What the game needs from the command line.
pub struct Setup {
    pub game: Game,
    /// An optimal solver; the worker weights it when the optimal search takes too long.
    pub solver: Solver,
    /// The threads one search is split over (`None`: one thread).
    pub pool: Option<std::sync::Arc<rayon::ThreadPool>>,
    /// Which estimate the solver uses and why, for the title line.
    pub heuristic: String,
    pub rng: Rng,
    /// Time between moves when `s` plays a solution back.
    pub pace: Duration,
    /// How long the optimal search of one board may take (and approximate ones after it).
    pub think: Duration,
    /// Set by SIGINT where the game has no signal handling of its own (not Unix).
    pub interrupted: &'static AtomicBool,
}

/// Plays until the player quits; returns the line to print once the terminal is restored,
/// and the exit status (0, or 130 after SIGINT).
pub fn run(setup: Setup) -> Result<(String, i32)> {
    let term = Terminal::enter()?;
    let mut app = App::new(setup);
    let result = app.main_loop(&term);
    drop(term);
    app.worker.cancel();
    let status = result?;
    let g = &app.game;
    let moves = match g.moves() {
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    };
    let summary = if g.is_solved() {
        format!("solved, {moves} made")
    } else {
        format!("not solved; {moves} made")
    };
    Ok((summary, status))
}

/// A solution being played back by `s`.
struct Playback {
    moves: Vec<Dir>,
    /// Moves played so far.
    done: usize,
    /// When the next one is due.
    due: Instant,
    /// Whether the solution is proven optimal.
    optimal: bool,
}

struct App {
    game: Game,
    heuristic: String,
    rng: Rng,
    pace: Duration,
    interrupted: &'static AtomicBool,
    /// What is known about the current board (updated by the worker).
    analysis: Analysis,
    worker: Worker,
    message: String,
    /// Waiting for the analysis to show a hint / start solving.
    want_hint: bool,
    want_solve: bool,
    playing: Option<Playback>,
    dirty: bool,
    /// The last drawing found the window too small for the game: only quitting and
    /// suspending act, and a playback waits.
    too_small: bool,
}

impl App {
    fn new(s: Setup) -> App {
        let mut worker = Worker::new(s.solver, s.pool, s.think);
        let analysis = worker.request(s.game.board(), s.game.goal(), 0);
        App {
            game: s.game,
            heuristic: s.heuristic,
            rng: s.rng,
            pace: s.pace,
            interrupted: s.interrupted,
            analysis,
            worker,
            message: String::new(),
            want_hint: false,
            want_solve: false,
            playing: None,
            dirty: true,
            too_small: false,
        }
    }

    /// Returns the exit status when the player quits (or SIGINT arrives).
    fn main_loop(&mut self, term: &Terminal) -> Result<i32> {
        loop {
            if self.interrupted.load(Ordering::Relaxed) {
                return Ok(130);
            }
            if REDRAW.swap(false, Ordering::SeqCst) {
                self.dirty = true;
            }
            if let Some(a) = self.worker.poll(self.game.board()) {
                self.analysis = a;
                self.analysis_arrived();
                self.dirty = true;
            }
            self.play_back();
            if self.dirty {
                self.draw()?;
                self.dirty = false;
            }
            if event::poll(Duration::from_millis(25))? {
                match event::read()? {
                    Event::Key(k) if k.kind != KeyEventKind::Release => {
                        if !self.key(k, term) {
                            return Ok(0);
                        }
                        self.dirty = true;
                    }
                    Event::Resize(..) => self.dirty = true,
                    _ => {}
                }
            }
        }
    }

    /// Handles a key; false to quit.
    fn key(&mut self, k: KeyEvent, term: &Terminal) -> bool {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        // Ctrl-C and Ctrl-\ reach the game as keys in raw mode; they quit, as they would
        // have by signal.
        if matches!(k.code, KeyCode::Char('c' | '\\' | '4') if ctrl)
            || matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
        {
            return false;
        }
        if matches!(k.code, KeyCode::Char('z') if ctrl) {
            term.suspend();
            return true;
        }
        if self.too_small {
            return true;
        }
        if self.playing.take().is_some() {
            self.message = "stopped".into();
        }
        self.want_hint = false;
        self.want_solve = false;
        // Lowercase s solves, so WASD's "down" is a capital S.
        let slide = match k.code {
            KeyCode::Left | KeyCode::Char('h' | 'a' | 'A') => Some(Dir::Left),
            KeyCode::Right | KeyCode::Char('l' | 'd' | 'D') => Some(Dir::Right),
            KeyCode::Up | KeyCode::Char('k' | 'w' | 'W') => Some(Dir::Up),
            KeyCode::Down | KeyCode::Char('j' | 'S') => Some(Dir::Down),
            _ => None,
        };
        if let Some(d) = slide {
            if self.game.slide(d) {
                self.message.clear();
                self.position_changed(Some(d.opposite()));
            } else {
                self.message = format!("no tile can slide {}", dir_name(d));
            }
            return true;
        }
        match k.code {
            KeyCode::Char('?') => {
                self.want_hint = true;
                self.analysis_arrived();
            }
            KeyCode::Char('s') => {
                self.want_solve = true;
                self.analysis_arrived();
            }
            KeyCode::Char('u') => match self.game.undo() {
                Some(d) => {
                    self.message = "undone".into();
                    self.position_changed(Some(d.opposite()));
                }
                None => self.message = "nothing to undo".into(),
            },
            KeyCode::Char('n') => {
                let board = random_board(&mut self.rng, self.game.goal());
                self.game
                    .restart(board)
                    .expect("random boards are solvable");
                self.message = "new board".into();
                self.position_changed(None);
            }
            _ => {
                self.message = "keys: arrows, h j k l, w a S d; ? s u n q".into();
            }
        }
        true
    }

    /// After a move (`blank`: the blank's move) or a new board (`None`): the rest of the
    /// known solution if the move followed it, else what is known at once (the remembered
    /// answer, or bounds) while the worker searches.
    fn position_changed(&mut self, blank: Option<Dir>) {
        if let Some(next) = blank.and_then(|d| self.analysis.after(d)) {
            self.worker.remember(self.game.board(), &next);
            self.analysis = next;
            return;
        }
        // One move changes the distance to the goal by exactly one.
        let near = match blank {
            Some(_) => self.analysis.at_least.saturating_sub(1),
            None => 0,
        };
        self.analysis = self
            .worker
            .request(self.game.board(), self.game.goal(), near);
        self.analysis_arrived();
    }

    /// Serves a hint or a solve asked for, once the analysis is far enough.
    fn analysis_arrived(&mut self) {
        if !self.want_hint && !self.want_solve {
            return;
        }
        let moves = match (&self.analysis.state, &self.analysis.solution) {
            (State::Proving | State::Approximating, _) => {
                let secs = self.worker.think().as_secs_f64();
                self.message = format!("thinking (at most {})...", seconds(2.0 * secs));
                return;
            }
            (State::Failed(e), _) => {
                self.message = format!("no solution: {e}");
                (self.want_hint, self.want_solve) = (false, false);
                return;
            }
            (State::Done, None) => {
                let what = if self.want_hint {
                    "no hint"
                } else {
                    "no solution"
                };
                self.message = format!("{what}: too hard to compute here");
                (self.want_hint, self.want_solve) = (false, false);
                return;
            }
            (State::Done, Some(moves)) => moves,
        };
        let optimal = self.analysis.optimal().is_some();
        let unproven = if optimal { "" } else { " (not proven best)" };
        if self.want_hint {
            self.want_hint = false;
            self.message = match moves.first() {
                None => "already solved".into(),
                Some(&d) => {
                    let (tile, dir) = tile_move(self.game.board(), d).expect("legal");
                    format!("hint: slide {tile} {}{unproven}", dir_name(dir))
                }
            };
        }
        if self.want_solve {
            self.want_solve = false;
            if moves.is_empty() {
                self.message = "already solved".into();
            } else {
                self.playing = Some(Playback {
                    moves: moves.clone(),
                    done: 0,
                    due: Instant::now(),
                    optimal,
                });
            }
        }
    }

    /// Plays the next solution move when it is due (not while the game cannot be seen).
    fn play_back(&mut self) {
        let Some(p) = &mut self.playing else {
            return;
        };
        let now = Instant::now();
        if now < p.due || self.too_small {
            return;
        }
        let d = p.moves[p.done];
        p.done += 1;
        p.due = now + self.pace;
        let (n, i) = (p.moves.len(), p.done);
        let unproven = if p.optimal { "" } else { " (not proven best)" };
        self.message = format!("solving: move {i} of {n}{unproven}");
        if i == n {
            self.playing = None;
            let plural = if n == 1 { "" } else { "s" };
            self.message = format!("the solver played the last {n} move{plural}");
        }
        self.game.step(d);
        self.position_changed(Some(d));
        self.dirty = true;
    }

    /// What is being done about the current board, or what could not be.
    fn analysis_line(&self) -> String {
        let a = &self.analysis;
        let think = self.worker.think().as_secs_f64();
        match (&a.state, &a.solution) {
            (State::Proving, _) => format!("computing (at most {})...", seconds(think)),
            (State::Approximating, _) => {
                format!("not proven in {}; approximating...", seconds(think))
            }
            (State::Done, Some(m)) if a.optimal().is_none() => {
                format!("a {}-move solution is known", m.len())
            }
            (State::Done, Some(_)) => String::new(),
            (State::Done, None) => "too hard to compute here".into(),
            (State::Failed(e), _) => e.clone(),
        }
    }

    fn draw(&mut self) -> Result<()> {
        let g = &self.game;
        let window = screen::window();
        let Some(board) = screen::board_lines(g.board(), window, TOP + BOTTOM) else {
            self.too_small = true;
            let needed = screen::needed(g.board(), TOP + BOTTOM);
            screen::paint(&screen::too_small(needed, window), window)?;
            return Ok(());
        };
        self.too_small = false;
        let mut lines = vec![
            format!(
                "fifteen play: {} board, goal {}",
                g.board().shape(),
                g.goal().name()
            ),
            format!("heuristic: {}", self.heuristic),
            String::new(),
        ];
        lines.extend(board.iter().map(|l| format!("  {l}")));
        let remaining = match self.analysis.optimal() {
            Some(n) => n.to_string(),
            None => format!("at least {}", self.analysis.at_least),
        };
        let status = if !g.is_solved() || self.playing.is_some() {
            self.message.clone()
        } else if g.moves() == 0 {
            format!("already solved!  {}", self.message)
        } else {
            let moves = match g.moves() {
                1 => "1 move".to_string(),
                n => format!("{n} moves"),
            };
            format!("SOLVED in {moves}!  {}", self.message)
        };
        lines.extend([
            String::new(),
            format!("moves {}   optimal remaining {remaining}", g.moves()),
            self.analysis_line(),
            status,
            String::new(),
            "slide: arrows, h j k l, w a S d (Shift+s)".into(),
            "? hint  s solve  u undo  n new  q quit".into(),
        ]);
        debug_assert_eq!(lines.len(), TOP + board.len() + BOTTOM);
        screen::paint(&lines, window)?;
        Ok(())
    }
}

/// Seconds as people write them: "3 s", "0.5 s".
fn seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}
