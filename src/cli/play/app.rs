//! The game on the screen: drawing, keys, and the worker thread that computes distances
//! and hints. The game's rules and history are [`crate::game::Game`], which knows nothing
//! of terminals.
//!
//! Keys name the direction a tile slides. The optimal distance is computed on a worker
//! thread after every move, so a slow search (linear conflict on a 4x4 board) never freezes
//! the screen; a newer position cancels it. The terminal is restored on every way out:
//! `q`, Esc, Ctrl-C (a key event in raw mode), SIGINT from elsewhere, an error, a panic.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{dir_name, tile_move, Game};
use crate::random::{random_board, Rng};
use crate::search::Limits;
use crate::{Dir, Solution, SolveError, Solver};
use anyhow::Result;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, queue, style, terminal};

/// What the game needs from the command line.
pub struct Setup {
    pub game: Game,
    pub solver: Solver,
    /// Which estimate the solver uses and why, for the title line.
    pub heuristic: String,
    pub rng: Rng,
    /// Time between moves when `s` plays a solution back.
    pub pace: Duration,
    /// Set by SIGINT (sent by another process: in raw mode Ctrl-C is a key).
    pub interrupted: &'static AtomicBool,
}

/// Plays until the player quits; returns the line to print once the terminal is restored.
pub fn run(setup: Setup) -> Result<String> {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        default_hook(info);
    }));
    let guard = TerminalGuard::enter()?;
    let mut app = App::new(setup);
    let result = app.main_loop();
    drop(guard);
    app.worker.cancel();
    result?;
    let g = &app.game;
    Ok(if g.is_solved() {
        format!("solved, {} moves made", g.moves())
    } else {
        format!("not solved; {} moves made", g.moves())
    })
}

/// Leaves the alternate screen, shows the cursor, ends raw mode. Harmless to repeat.
fn restore() {
    let _ = execute!(io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
    let _ = terminal::disable_raw_mode();
}

struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> Result<TerminalGuard> {
        terminal::enable_raw_mode()?;
        // From here on, dropping the guard (early return included) restores the terminal.
        let guard = TerminalGuard;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// The optimal solution from the current board, as far as known.
enum Analysis {
    Pending,
    /// The blank's moves of an optimal solution from the current board.
    Done(Vec<Dir>),
    Failed(String),
}

/// Runs one search at a time on a thread of its own; a new request cancels the old one.
struct Worker {
    generation: u64,
    cancel: Arc<AtomicBool>,
    tx: Sender<(u64, Result<Solution, SolveError>)>,
    rx: Receiver<(u64, Result<Solution, SolveError>)>,
}

impl Worker {
    fn new() -> Worker {
        let (tx, rx) = channel();
        Worker {
            generation: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            tx,
            rx,
        }
    }

    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn request(&mut self, game: &Game, solver: &Solver) {
        self.cancel();
        self.generation += 1;
        self.cancel = Arc::new(AtomicBool::new(false));
        let (cancel, tx, generation) = (self.cancel.clone(), self.tx.clone(), self.generation);
        let (board, goal, solver) = (*game.board(), *game.goal(), solver.clone());
        std::thread::spawn(move || {
            let limits = Limits {
                stop: Some(&cancel),
                ..Limits::default()
            };
            let result = solver.solve(&board, &goal, limits, None);
            let _ = tx.send((generation, result));
        });
    }

    /// The newest finished search, if it is for the current position.
    fn poll(&self) -> Option<Result<Solution, SolveError>> {
        let mut latest = None;
        while let Ok((generation, result)) = self.rx.try_recv() {
            if generation == self.generation {
                latest = Some(result);
            }
        }
        latest
    }
}

struct App {
    game: Game,
    solver: Solver,
    heuristic: String,
    rng: Rng,
    pace: Duration,
    interrupted: &'static AtomicBool,
    analysis: Analysis,
    worker: Worker,
    message: String,
    /// Waiting for the analysis to show a hint / start solving.
    want_hint: bool,
    want_solve: bool,
    /// Moves left to play back, and when the next one is due.
    playing: Option<(Vec<Dir>, usize, Instant)>,
    dirty: bool,
}

impl App {
    fn new(s: Setup) -> App {
        let mut app = App {
            game: s.game,
            solver: s.solver,
            heuristic: s.heuristic,
            rng: s.rng,
            pace: s.pace,
            interrupted: s.interrupted,
            analysis: Analysis::Pending,
            worker: Worker::new(),
            message: String::new(),
            want_hint: false,
            want_solve: false,
            playing: None,
            dirty: true,
        };
        app.position_changed(None);
        app
    }

    fn main_loop(&mut self) -> Result<()> {
        loop {
            if self.interrupted.load(Ordering::Relaxed) {
                return Ok(());
            }
            if let Some(result) = self.worker.poll() {
                self.analysis = match result {
                    Ok(sol) => Analysis::Done(sol.moves),
                    Err(e) => Analysis::Failed(e.to_string()),
                };
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
                        if !self.key(k) {
                            return Ok(());
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
    fn key(&mut self, k: KeyEvent) -> bool {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if matches!(k.code, KeyCode::Char('c') if ctrl)
            || matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
        {
            return false;
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
            KeyCode::Char('u') => {
                if self.game.undo().is_some() {
                    self.message = "undone".into();
                    self.position_changed(None);
                } else {
                    self.message = "nothing to undo".into();
                }
            }
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

    /// After a move (`blank`: the blank's move, when known) or a new board: keep the
    /// solution if the move followed it, otherwise search again.
    fn position_changed(&mut self, blank: Option<Dir>) {
        if let (Some(d), Analysis::Done(moves)) = (blank, &mut self.analysis) {
            if moves.first() == Some(&d) {
                moves.remove(0);
                return;
            }
        }
        self.analysis = Analysis::Pending;
        self.worker.request(&self.game, &self.solver);
    }

    /// Serves a hint or a solve asked for before the search finished.
    fn analysis_arrived(&mut self) {
        let Analysis::Done(moves) = &self.analysis else {
            if self.want_hint || self.want_solve {
                self.message = match &self.analysis {
                    Analysis::Failed(e) => format!("no solution: {e}"),
                    _ => "thinking...".into(),
                };
            }
            return;
        };
        if self.want_hint {
            self.want_hint = false;
            self.message = match moves.first() {
                None => "already solved".into(),
                Some(&d) => {
                    let (tile, dir) = tile_move(self.game.board(), d).expect("legal");
                    format!("hint: slide {tile} {}", dir_name(dir))
                }
            };
        }
        if self.want_solve {
            self.want_solve = false;
            if moves.is_empty() {
                self.message = "already solved".into();
            } else {
                self.playing = Some((moves.clone(), 0, Instant::now()));
            }
        }
    }

    /// Plays the next solution move when it is due.
    fn play_back(&mut self) {
        let Some((moves, done, due)) = &mut self.playing else {
            return;
        };
        if Instant::now() < *due {
            return;
        }
        let d = moves[*done];
        *done += 1;
        *due = Instant::now() + self.pace;
        let (n, i) = (moves.len(), *done);
        self.game.step(d);
        self.message = format!("solving: move {i} of {n} (any key stops)");
        if i == n {
            self.playing = None;
            let plural = if n == 1 { "" } else { "s" };
            self.message = format!("the solver played the last {n} move{plural}");
        }
        self.position_changed(Some(d));
        self.dirty = true;
    }

    fn draw(&self) -> Result<()> {
        let g = &self.game;
        let mut lines = vec![
            format!(
                "fifteen play: {} board, goal {}",
                g.board().shape(),
                g.goal().name()
            ),
            format!("heuristic: {}", self.heuristic),
            String::new(),
        ];
        lines.extend(g.board().render_with('░').lines().map(|l| format!("  {l}")));
        lines.push(String::new());
        let remaining = match &self.analysis {
            Analysis::Done(m) => m.len().to_string(),
            Analysis::Pending => "(computing...)".into(),
            Analysis::Failed(e) => format!("(unknown: {e})"),
        };
        lines.push(format!(
            "moves {}   optimal remaining {}",
            g.moves(),
            remaining
        ));
        lines.push(if g.is_solved() && self.playing.is_none() {
            format!("SOLVED in {} moves!  {}", g.moves(), self.message)
        } else {
            self.message.clone()
        });
        lines.push(String::new());
        lines.push("slide a tile: arrows, h j k l, w a S d (S: Shift+s)".into());
        lines.push("? hint   s solve   u undo   n new board   q quit".into());

        // A line longer than the screen would wrap and push the rest down: cut it.
        let width = terminal::size().map_or(80, |(w, _)| w as usize);
        let mut out = io::stdout().lock();
        queue!(out, terminal::Clear(terminal::ClearType::All))?;
        for (row, line) in lines.iter().enumerate() {
            let line: String = line.chars().take(width.saturating_sub(1)).collect();
            queue!(out, cursor::MoveTo(0, row as u16), style::Print(line))?;
        }
        out.flush()?;
        Ok(())
    }
}
