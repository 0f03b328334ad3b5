//! `fifteen play` driven as a person would drive it: in a real terminal (tmux), by keys,
//! reading the screen. The expected boards come from the library's move rules and the
//! optimal distances from a breadth-first search written in these tests. Skipped, with a
//! message, where tmux is not installed.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use fifteen::pdb::{self, Partition};
use fifteen::{Board, Dir, Goal, Shape};

mod common;
use common::{bfs, tables};

/// A private tmux server (its own socket) with one 80x30 session running `sh`; killed
/// when dropped, whatever happens to the test.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `None` when tmux is not installed.
    fn start(name: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("skipping: tmux is not installed");
            return None;
        }
        let t = Tmux {
            socket: format!("fifteen-{name}-{}", std::process::id()),
        };
        let out = t.run(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "30",
            "-s",
            "play",
            "env PS1='$ ' sh",
        ]);
        assert!(out.status.success(), "tmux: {out:?}");
        Some(t)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Types `text` as it is, then Enter.
    fn type_line(&self, text: &str) {
        assert!(self
            .run(&["send-keys", "-t", "play", "-l", text])
            .status
            .success());
        self.keys(&["Enter"]);
    }

    fn pane(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout)
            .into_owned()
    }

    /// The screen once `ok` holds (checked every 20 ms; a failure after 30 s shows it).
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let t0 = Instant::now();
        loop {
            let p = self.pane();
            if ok(&p) {
                return p;
            }
            if t0.elapsed() > Duration::from_secs(30) {
                panic!("waited for {what}; the screen:\n{p}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Whether the screen shows `b` as the game draws it (blank marked with ░).
fn shows(pane: &str, b: &Board) -> bool {
    b.render_with('░').lines().all(|l| pane.contains(l))
}

/// The command line: play, then report the exit status and whether the terminal is back
/// in canonical (cooked) mode; raw mode left behind would show as `-icanon`.
fn command(args: &str) -> String {
    format!(
        "{} play {args}; echo \"exit status $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon'",
        env!("CARGO_BIN_EXE_fifteen")
    )
}

/// Whether stty's answer (a line `icanon` or `-icanon`) is on the screen yet.
fn stty_done(pane: &str) -> bool {
    pane.lines()
        .any(|l| matches!(l.trim(), "icanon" | "-icanon"))
}

fn assert_restored(pane: &str) {
    assert!(
        pane.lines().any(|l| l.trim() == "icanon"),
        "terminal left in raw mode:\n{pane}"
    );
    assert!(
        !pane.contains('┌'),
        "the game's screen is still shown:\n{pane}"
    );
}

#[test]
fn play_a_3x3_board_to_the_end_and_quit() {
    let Some(tmux) = Tmux::start("game") else {
        return;
    };
    let shape = Shape::new(3, 3).unwrap();
    let goal = Goal::standard(shape);
    let (_, dist, _) = bfs(&goal);
    let partition = Partition::default_for(shape, pdb::canonical_blank(shape, goal.blank()));
    let (dir, _) = tables(&partition);
    // Four moves of the blank away from the goal.
    let mut board = goal
        .board()
        .apply_all(&[Dir::Up, Dir::Left, Dir::Up, Dir::Left])
        .unwrap();
    assert_eq!(dist[&board], 4);
    tmux.type_line(&command(&format!(
        "--tables {} --pace 150 '{board}'",
        dir.path().display()
    )));
    let p = tmux.wait("the first screen", |p| {
        p.contains("optimal remaining 4") && shows(p, &board)
    });
    assert!(p.contains("moves 0"), "{p}");
    assert!(p.contains("heuristic: pdb"), "{p}");

    // Keys name the way the tile goes: arrows, h j k l, w a S d.
    let mut moves = 0;
    let steps: &[(&str, Option<Dir>)] = &[
        ("Left", Some(Dir::Right)), // the tile right of the blank slides left
        ("j", None),                // the blank is on the top row: nothing slides down
        ("k", Some(Dir::Down)),
        ("a", Some(Dir::Right)),
        ("S", Some(Dir::Up)),
        ("w", Some(Dir::Down)),
        ("h", None), // the blank is in the right column: nothing slides left
        ("d", Some(Dir::Left)),
        ("Down", Some(Dir::Up)),
        ("l", Some(Dir::Left)),
        ("Right", None),
    ];
    for &(key, blank) in steps {
        tmux.keys(&[key]);
        match blank {
            Some(d) => {
                board = board.apply(d).unwrap();
                moves += 1;
                let want = format!("moves {moves}   optimal remaining {}", dist[&board]);
                tmux.wait(&format!("{key}: {want}"), |p| {
                    p.contains(&want) && shows(p, &board)
                });
            }
            None => {
                let p = tmux.wait(&format!("{key} refused"), |p| {
                    p.contains("no tile can slide") && p.contains(&format!("moves {moves} "))
                });
                assert!(
                    shows(&p, &board) && p.contains(&format!("moves {moves} ")),
                    "{p}"
                );
            }
        }
    }

    // A hint names a tile and a direction; following it brings the goal one move nearer.
    tmux.keys(&["?"]);
    let p = tmux.wait("a hint", |p| p.contains("hint: slide "));
    let hint = p.lines().find(|l| l.starts_with("hint: slide ")).unwrap();
    let words: Vec<&str> = hint.split_whitespace().collect();
    let tile: u8 = words[2].parse().unwrap();
    let tile_dir = match words[3] {
        "up" => Dir::Up,
        "down" => Dir::Down,
        "left" => Dir::Left,
        "right" => Dir::Right,
        other => panic!("{other}"),
    };
    let after = board
        .apply(tile_dir.opposite())
        .expect("the hinted tile can slide");
    assert_eq!(board.tiles()[after.blank()], tile, "{hint}");
    assert_eq!(
        dist[&after],
        dist[&board] - 1,
        "{hint} is not an optimal move"
    );

    // s plays an optimal solution back, move by move, to the goal.
    let remaining = dist[&board] as usize;
    tmux.keys(&["s"]);
    tmux.wait("the solver playing", |p| p.contains("solving: move 1 of"));
    let total = moves + remaining;
    let p = tmux.wait("solved", |p| {
        p.contains(&format!("SOLVED in {total} moves"))
    });
    assert!(shows(&p, goal.board()), "{p}");
    assert!(p.contains("optimal remaining 0"), "{p}");

    // u takes the last move back: one move from the goal.
    tmux.keys(&["u"]);
    let p = tmux.wait("undo", |p| {
        p.contains(&format!("moves {}   optimal remaining 1", total - 1))
    });
    assert!(!p.contains("SOLVED"), "{p}");

    // n: a new random board, no moves yet.
    tmux.keys(&["n"]);
    tmux.wait("a new board", |p| {
        p.contains("new board") && p.contains("moves 0 ")
    });

    tmux.keys(&["q"]);
    let p = tmux.wait("the shell again", |p| p.contains("exit status"));
    assert!(p.contains("exit status 0"), "{p}");
    assert!(p.contains("not solved; 0 moves made"), "{p}");
    let p = tmux.wait("stty", stty_done);
    assert_restored(&p);
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    let Some(tmux) = Tmux::start("ctrlc") else {
        return;
    };
    let none = tempfile::tempdir().unwrap();
    tmux.type_line(&command(&format!(
        "--tables {} --size 2x4 '1 2 3 4 5 6 0 7'",
        none.path().display()
    )));
    let p = tmux.wait("the first screen", |p| p.contains("optimal remaining 1"));
    // No tables in that directory: play says it uses linear conflict.
    assert!(p.contains("heuristic: linear conflict"), "{p}");
    tmux.keys(&["C-c"]);
    let p = tmux.wait("the shell again", |p| {
        p.contains("exit status") && stty_done(p)
    });
    assert!(p.contains("exit status 0"), "{p}");
    assert_restored(&p);
    assert!(Path::new(none.path()).read_dir().unwrap().next().is_none());
}
