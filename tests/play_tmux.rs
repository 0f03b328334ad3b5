//! `fifteen play` driven as a person would drive it: in a real terminal (tmux), by keys,
//! reading the screen. The expected boards come from the library's move rules and the
//! optimal distances from a breadth-first search written in these tests. Skipped, with a
//! message, where tmux is not installed.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use fifteen::pdb::{self, Partition};
use fifteen::random::{random_board, Rng};
use fifteen::{Board, Dir, Goal, HeuristicKind, Shape, Solver};

mod common;
use common::{bfs, tables};

/// A private tmux server (its own socket) with one session running `sh`, 80x30 unless
/// said; killed when dropped, whatever happens to the test.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `None` when tmux is not installed (a failure where `CI` is set: there the tests
    /// must run).
    fn start(name: &str) -> Option<Tmux> {
        Tmux::start_sized(name, 80, 30)
    }

    fn start_sized(name: &str, cols: u16, rows: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            let msg = "skipped: tmux is not installed";
            assert!(std::env::var_os("CI").is_none(), "{msg}");
            eprintln!("{msg}");
            return None;
        }
        let t = Tmux {
            socket: format!("fifteen-{name}-{}", std::process::id()),
        };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let out = t.run(&[
            "new-session",
            "-d",
            "-x",
            &cols,
            "-y",
            &rows,
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

    /// The screen once `ok` holds (checked every 20 ms; a failure after 60 s shows it:
    /// generous, for a loaded machine).
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let t0 = Instant::now();
        loop {
            let p = self.pane();
            if ok(&p) {
                return p;
            }
            if t0.elapsed() > Duration::from_secs(60) {
                panic!("waited for {what}; the screen:\n{p}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Tmux {
    /// Whether the pane shows the alternate screen, and whether its cursor is visible.
    fn modes(&self) -> (bool, bool) {
        let out = self.run(&[
            "display-message",
            "-p",
            "-t",
            "play",
            "#{alternate_on} #{cursor_flag}",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        match text.split_whitespace().collect::<Vec<_>>()[..] {
            [alt, cursor] => (alt == "1", cursor == "1"),
            _ => panic!("tmux display-message: {out:?}"),
        }
    }

    fn resize(&self, cols: u16, rows: u16) {
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let out = self.run(&["resize-window", "-t", "play", "-x", &cols, "-y", &rows]);
        assert!(out.status.success(), "tmux resize-window: {out:?}");
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

/// The command line: play, then report the exit status and the terminal's modes as stty
/// shows them: raw mode left behind shows as `-icanon`, `-echo` and `-isig`.
fn command(args: &str) -> String {
    format!("{} play {args}; {AFTER}", env!("CARGO_BIN_EXE_fifteen"))
}

/// What the shell runs after play: the exit status, then the three modes raw mode clears.
const AFTER: &str = "echo \"exit status $?\"; \
    stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?\\(icanon\\|echo\\|isig\\)'";

/// The modes stty reports, on or off: all three in cooked mode, none in raw mode.
const MODES: [&str; 3] = ["icanon", "echo", "isig"];

/// Whether the shell has printed play's exit status: a line `exit status N`. (The typed
/// command line holds the words "exit status" too, so matching them alone races.)
fn exited(pane: &str) -> bool {
    pane.lines().any(|l| {
        l.trim()
            .strip_prefix("exit status ")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// Whether stty's answer (a line `icanon` or `-icanon`, and so on) is on the screen yet.
fn stty_done(pane: &str) -> bool {
    MODES.iter().all(|m| {
        pane.lines()
            .any(|l| l.trim() == *m || l.trim().strip_prefix('-') == Some(m))
    })
}

fn assert_restored(pane: &str) {
    for m in MODES {
        assert!(
            pane.lines().any(|l| l.trim() == m),
            "terminal left in raw mode (no {m}):\n{pane}"
        );
    }
    assert!(
        !pane.contains('┌'),
        "the game's screen is still shown:\n{pane}"
    );
}

/// The pane back to the shell as it was: cooked mode (from the screen), the main screen
/// and a visible cursor (from tmux).
fn assert_all_restored(tmux: &Tmux, pane: &str) {
    assert_restored(pane);
    assert_eq!(
        tmux.modes(),
        (false, true),
        "(alternate screen, cursor)\n{pane}"
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
    // docs/guide.md draws this screen: its key help is the screen's own.
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md")).unwrap();
    let help: Vec<&str> = (p.lines().map(str::trim))
        .filter(|l| l.starts_with("slide: ") || l.starts_with("? hint"))
        .collect();
    assert_eq!(help.len(), 2, "{p}");
    for line in help {
        assert!(
            guide.contains(line),
            "docs/guide.md lacks the screen's {line:?}"
        );
    }
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
    // (Each "solving: move K of N" frame lasts one pace, 150 ms: a poller on a loaded
    // machine may miss any one of them, so the test waits for the lasting end, which says
    // how many moves the solver played.)
    tmux.keys(&["s"]);
    let total = moves + remaining;
    let p = tmux.wait("solved", |p| {
        p.contains(&format!("SOLVED in {total} moves"))
    });
    let plural = if remaining == 1 { "" } else { "s" };
    assert!(
        p.contains(&format!(
            "the solver played the last {remaining} move{plural}"
        )),
        "{p}"
    );
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
    let p = tmux.wait("the shell again", exited);
    assert!(p.contains("exit status 0"), "{p}");
    assert!(p.contains("not solved; 0 moves made"), "{p}");
    let p = tmux.wait("stty", stty_done);
    assert_all_restored(&tmux, &p);
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
    let p = tmux.wait("the shell again", |p| exited(p) && stty_done(p));
    assert!(p.contains("exit status 0"), "{p}");
    assert_all_restored(&tmux, &p);
    assert!(Path::new(none.path()).read_dir().unwrap().next().is_none());
}

/// play reads its board as solve reads one: rows as separate arguments, comments dropped.
#[test]
fn play_reads_rows_as_arguments_and_comments() {
    let Some(tmux) = Tmux::start("rows") else {
        return;
    };
    let none = tempfile::tempdir().unwrap();
    tmux.type_line(&command(&format!(
        "--tables {} '1 2 3 4 # the top row' '5 6 0 7'",
        none.path().display()
    )));
    let p = tmux.wait("the first screen", |p| {
        p.contains("optimal remaining 1") || exited(p)
    });
    let board = Board::parse_as("1 2 3 4 5 6 0 7", Shape::new(2, 4).unwrap()).unwrap();
    assert!(shows(&p, &board), "{p}");
    tmux.keys(&["C-c"]);
    let p = tmux.wait("the shell again", |p| exited(p) && stty_done(p));
    assert!(p.contains("exit status 0"), "{p}");
}

/// `play ARGS` run by a shell that first writes its process id (the game's, after `exec`)
/// to `pid_file`; `setup` is shell code run before, such as `trap "" HUP;` (the whole runs
/// in single quotes).
fn command_with_pid(setup: &str, pid_file: &Path, args: &str) -> String {
    format!(
        "sh -c '{setup} echo $$ > {}; exec {} play {args}'; {AFTER}",
        pid_file.display(),
        env!("CARGO_BIN_EXE_fifteen")
    )
}

/// The process id written to `pid_file`, once it is there.
fn read_pid(pid_file: &Path) -> u32 {
    let t0 = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(pid_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "no pid file");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid}");
}

/// A 3x3 board, and a directory with no tables in it: play starts at once.
const SMALL: &str = "--size 3 --seed 5";

#[test]
fn signals_from_another_process_restore_the_terminal() {
    // (signal, number): play ends with 128 + the number, as a shell reports the signal.
    for (signal, number) in [("TERM", 15), ("HUP", 1), ("INT", 2), ("QUIT", 3)] {
        let Some(tmux) = Tmux::start(&format!("sig{signal}")) else {
            return;
        };
        let tmp = tempfile::tempdir().unwrap();
        let pid_file = tmp.path().join("pid");
        tmux.type_line(&command_with_pid(
            "",
            &pid_file,
            &format!("{SMALL} --tables {}", tmp.path().display()),
        ));
        tmux.wait("the first screen", |p| p.contains("optimal remaining"));
        assert_eq!(tmux.modes(), (true, false), "the game's screen, no cursor");
        kill(signal, read_pid(&pid_file));
        let p = tmux.wait(&format!("the shell after SIG{signal}"), |p| {
            exited(p) && stty_done(p)
        });
        let status = format!("exit status {}", 128 + number);
        assert!(p.contains(&status), "SIG{signal}: want {status}:\n{p}");
        assert!(
            p.contains(&format!("fifteen play: stopped by SIG{signal}")),
            "{p}"
        );
        assert_all_restored(&tmux, &p);
    }
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped).
#[cfg(target_os = "linux")]
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "pid (comm) S ...": the state follows the command's closing parenthesis.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn closing_the_terminal_ends_the_game_even_with_sighup_ignored() {
    // As the terminal closes play gets SIGHUP; under `nohup` (SIGHUP ignored) it must
    // still notice, not spin on a dead terminal for ever.
    for setup in ["", "trap \"\" HUP;"] {
        let Some(tmux) = Tmux::start("hangup") else {
            return;
        };
        let tmp = tempfile::tempdir().unwrap();
        let pid_file = tmp.path().join("pid");
        tmux.type_line(&command_with_pid(
            setup,
            &pid_file,
            &format!("{SMALL} --tables {}", tmp.path().display()),
        ));
        tmux.wait("the first screen", |p| p.contains("optimal remaining"));
        let pid = read_pid(&pid_file);
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let ignored = status
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:"))
            .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
            .unwrap();
        assert_eq!(ignored & 1 == 1, !setup.is_empty(), "SIGHUP ignored?");
        drop(tmux); // kills the server: the terminal hangs up
        let t0 = Instant::now();
        while !ended(pid) {
            if t0.elapsed() > Duration::from_secs(60) {
                kill("KILL", pid);
                panic!("`{setup}`: play still runs a minute after its terminal closed");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn ctrl_z_suspends_and_fg_resumes() {
    let Some(tmux) = Tmux::start("suspend") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    tmux.type_line(&format!(
        "{} play {SMALL} --tables {}",
        env!("CARGO_BIN_EXE_fifteen"),
        tmp.path().display()
    ));
    let first = tmux.wait("the first screen", |p| p.contains("optimal remaining"));
    tmux.keys(&["C-z"]);
    tmux.wait("the job stopped", |p| p.contains("Stopped"));
    let stty = AFTER.split_once("; ").unwrap().1;
    tmux.type_line(stty);
    let p = tmux.wait("stty", stty_done);
    assert_all_restored(&tmux, &p);
    tmux.type_line("fg");
    let p = tmux.wait("the game again", |p| p.contains("optimal remaining"));
    assert_eq!(tmux.modes(), (true, false), "{p}");
    let board = first
        .lines()
        .filter(|l| l.contains('│'))
        .collect::<Vec<_>>();
    assert!(board.iter().all(|l| p.contains(l)), "{first}\n{p}");
    // Raw mode again: keys reach the game one by one.
    tmux.keys(&["u"]);
    tmux.wait("a key", |p| p.contains("nothing to undo"));
    tmux.keys(&["q"]);
    tmux.wait("the shell again", |p| p.contains("moves made"));
    // `fg` returns the game's status; the mark tells this stty's answer from the last.
    let stty = AFTER.split_once("; ").unwrap().1;
    tmux.type_line(&format!("echo \"exit status $? ==2==\"; {stty}"));
    let p = tmux.wait("exit status and stty", |p| {
        p.rfind("==2==").is_some_and(|i| stty_done(&p[i..]))
    });
    assert!(p.contains("exit status 0 ==2=="), "{p}");
    assert_all_restored(&tmux, &p[p.rfind("==2==").unwrap()..]);
}

/// The number after `prefix` on the screen, if any.
fn number_after(pane: &str, prefix: &str) -> Option<u32> {
    let rest = &pane[pane.find(prefix)? + prefix.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn a_5x5_board_gets_a_bounded_answer_not_computing_for_ever() {
    let Some(tmux) = Tmux::start("5x5") else {
        return;
    };
    let none = tempfile::tempdir().unwrap();
    let seed = 11;
    let shape = Shape::new(5, 5).unwrap();
    let goal = Goal::standard(shape);
    // The board play draws for this seed (the same generator, the same first call).
    let board = random_board(&mut Rng::new(seed), &goal);
    tmux.type_line(&command(&format!(
        "--size 5 --seed {seed} --think 1 --tables {}",
        none.path().display()
    )));
    let p = tmux.wait("the first screen", |p| p.contains("optimal remaining"));
    assert!(shows(&p, &board), "{p}");
    // Linear conflict cannot solve a random 5x5 board in a second: play says what it
    // proved and what it found, within its budget (a minute here, for a loaded machine).
    let p = tmux.wait("a bounded answer", |p| {
        p.contains("-move solution is known") || p.contains("too hard to compute here")
    });
    assert!(!p.contains("computing"), "{p}");
    let at_least = number_after(&p, "optimal remaining at least ").expect("a bound");
    let estimate = Solver::new(HeuristicKind::LinearConflict).estimate(&board, &goal);
    assert!(at_least >= estimate, "{at_least} < {estimate}\n{p}");
    let known = p.lines().find_map(|l| {
        l.strip_suffix("-move solution is known")?
            .strip_prefix("a ")
    });
    let Some(known) = known.map(|n| n.parse::<u32>().unwrap()) else {
        // Too hard for any search in the budget: no hint, said so.
        tmux.keys(&["?"]);
        tmux.wait("no hint", |p| {
            p.contains("no hint: too hard to compute here")
        });
        return;
    };
    assert!(
        known > at_least && (known - at_least).is_multiple_of(2),
        "{p}"
    );

    // The hint comes at once, is a legal move, and says it may not be the best.
    tmux.keys(&["?"]);
    let p = tmux.wait("a hint", |p| p.contains("hint: slide "));
    let hint = p.lines().find(|l| l.starts_with("hint: slide ")).unwrap();
    assert!(hint.ends_with("(not proven best)"), "{hint}");
    let words: Vec<&str> = hint.split_whitespace().collect();
    let tile: u8 = words[2].parse().unwrap();
    let blank = [Dir::Up, Dir::Down, Dir::Left, Dir::Right]
        .into_iter()
        .find(|&d| {
            board
                .apply(d)
                .is_some_and(|b| board.tiles()[b.blank()] == tile)
        })
        .unwrap_or_else(|| panic!("{hint}: that tile is not next to the blank"));
    // Following it keeps the known solution (one move shorter) and the bound (one less).
    let after = board.apply(blank).unwrap();
    tmux.keys(&[match blank {
        Dir::Up => "Down",
        Dir::Down => "Up",
        Dir::Left => "Right",
        Dir::Right => "Left",
    }]);
    let want = format!("moves 1   optimal remaining at least {}", at_least - 1);
    let p = tmux.wait(&want, |p| p.contains(&want) && shows(p, &after));
    assert!(
        p.contains(&format!("a {}-move solution is known", known - 1)),
        "{p}"
    );

    // s plays that solution back, saying it is not proven optimal; a key stops it.
    tmux.keys(&["s"]);
    // (Any move's frame: each lasts one pace, and a loaded machine may miss the first.)
    tmux.wait("the solver playing", |p| {
        p.contains("solving: move ") && p.contains("(not proven best)")
    });
    tmux.keys(&["x"]);
    tmux.wait("stopped", |p| p.contains("keys: "));
    tmux.keys(&["q"]);
    let p = tmux.wait("the shell again", |p| exited(p) && stty_done(p));
    assert!(p.contains("exit status 0"), "{p}");
    assert_all_restored(&tmux, &p);
}

#[test]
fn a_window_too_small_says_the_size_it_needs() {
    let Some(tmux) = Tmux::start("small") else {
        return;
    };
    let none = tempfile::tempdir().unwrap();
    let board = Board::parse("1 2 3 4 5 6 0 7 8").unwrap();
    tmux.type_line(&command(&format!(
        "--tables {} '{board}'",
        none.path().display()
    )));
    tmux.wait("the first screen", |p| p.contains("optimal remaining 2"));
    // Boxed, the 3x3 game needs 17 rows; compact (no lines between rows), 15.
    tmux.resize(30, 10);
    tmux.wait("the size message", |p| {
        p.contains("too small") && p.contains("44x15") && p.contains("30x10")
    });
    // Keys that move are ignored while the game cannot be seen.
    tmux.keys(&["Left"]);
    tmux.resize(44, 15);
    let p = tmux.wait("the compact board", |p| p.contains("│ 1 2 3 │"));
    assert!(p.contains("moves 0   optimal remaining 2"), "{p}");
    assert!(p.contains("q quit"), "{p}");
    tmux.resize(80, 30);
    let p = tmux.wait("the boxed board", |p| shows(p, &board));
    assert!(p.contains("moves 0   optimal remaining 2"), "{p}");
    tmux.resize(20, 6);
    tmux.wait("the size message", |p| {
        p.contains("44x15") && p.contains("20x6")
    });
    tmux.keys(&["q"]);
    tmux.resize(80, 30);
    let p = tmux.wait("the shell again", |p| exited(p) && stty_done(p));
    assert!(p.contains("exit status 0"), "{p}");
    assert_all_restored(&tmux, &p);
}

#[test]
fn boards_from_2x2_to_6x6_fit_80x24_and_a_solved_board_says_so() {
    let Some(tmux) = Tmux::start_sized("sizes", 80, 24) else {
        return;
    };
    let none = tempfile::tempdir().unwrap();
    for n in 2..=6 {
        let seed = 7;
        let goal = Goal::standard(Shape::new(n, n).unwrap());
        let board = random_board(&mut Rng::new(seed), &goal);
        tmux.type_line(&format!(
            "clear; {} play --size {n} --seed {seed} --think 0.5 --tables {}",
            env!("CARGO_BIN_EXE_fifteen"),
            none.path().display()
        ));
        let p = tmux.wait(&format!("{n}x{n} drawn"), |p| {
            shows(p, &board) && p.contains("q quit")
        });
        assert!(p.contains("optimal remaining"), "{p}");
        tmux.keys(&["q"]);
        tmux.wait("the shell", |p| p.contains("moves made"));
    }
    tmux.type_line(&format!("clear; {}", command("'1 2 3 4 5 6 7 8 0'")));
    let p = tmux.wait("a solved board", |p| p.contains("optimal remaining 0"));
    assert!(p.contains("already solved!"), "{p}");
    tmux.keys(&["?"]);
    tmux.wait("no hint needed", |p| {
        p.contains("already solved!  already solved")
    });
    tmux.keys(&["q"]);
    let p = tmux.wait("the shell again", |p| exited(p) && stty_done(p));
    assert!(p.contains("solved, 0 moves made"), "{p}");
    assert_all_restored(&tmux, &p);
}

/// Not the game: a batch's progress line on a terminal (the same tmux pane). Before any
/// instance is done the line shows the batch's size and a clock that keeps moving, and a
/// note printed on Ctrl-C starts a line of its own instead of running on from the bar.
#[test]
fn a_batch_on_a_terminal_shows_a_moving_clock_before_any_instance_is_done() {
    let Some(tmux) = Tmux::start("batch") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Korf's instance 88, three times: Manhattan distance alone needs 6 x 10^9 nodes.
    let board = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
    let file = dir.path().join("three.txt");
    std::fs::write(&file, format!("a ? {board}\nb ? {board}\nc ? {board}\n")).unwrap();
    tmux.type_line(&format!(
        "{} solve -i {} --goal blank-first --heuristic manhattan --threads 1 > /dev/null; echo \"exit status $?\"",
        env!("CARGO_BIN_EXE_fifteen"),
        file.display()
    ));
    let clock = |p: &str, at_least: u32| {
        p.lines().any(|l| {
            l.contains("0/3")
                && l.split(", ")
                    .filter_map(|f| f.strip_prefix("0:"))
                    .any(|s| s.parse::<u32>().is_ok_and(|s| s >= at_least))
        })
    };
    tmux.wait("the bar at 0:01", |p| clock(p, 1));
    let p = tmux.wait("the bar at 0:03", |p| clock(p, 3));
    assert!(
        p.contains("? left"),
        "no time left before an instance is done:\n{p}"
    );
    tmux.keys(&["C-c"]);
    let p = tmux.wait("the shell again", exited);
    assert!(p.contains("exit status 130"), "{p}");
    assert!(
        p.lines().any(|l| l.starts_with("interrupted:")),
        "the note runs on from the bar:\n{p}"
    );
}
