//! Generates candidates for `data/hard4x4.txt`: 4x4 boards on which the 7-8 estimate (with
//! its mirrored lookup) sits far below the optimal length, so that IDA* needs many more
//! nodes than on a random board of the same length.
//!
//! ```text
//! cargo run --release --example hardset -- [--seed 13] [--walks 0] [--climbs 12] [--steps 120]
//!     [--budget 2000000] [--keep 40] [--threads 2] [--tables DIR]
//! ```
//!
//! Two sources, both reproducible (the only randomness is [`fifteen::random::Rng`] seeded
//! from `--seed`; the same arguments and tables give the same output):
//!
//! 1. **Symmetries.** Each goal (blank-first `0 1 ... 15`, standard `1 ... 15 0`) moved by
//!    each of the square's eight symmetries (the tile of cell `c` put at `S(c)`: transposes,
//!    rotations, flips), read against each goal. Reading a board against the other goal is a
//!    relabelling of its tiles. Images that cannot reach the goal (odd permutations) are
//!    dropped. With `--walks N`, each image also gives N boards a random walk of 2 to 8 blank
//!    moves away (near the image, and as solvable).
//! 2. **Hill climbing.** From the solvable images and from uniform random boards, `--climbs`
//!    climbs of `--steps` steps each. A step perturbs the board without changing its goal's
//!    solvability (a 3-cycle of tiles, two swaps of tiles, or a short walk of the blank) and
//!    keeps the new board if its score is not lower. The score is a cheap stand-in for
//!    "optimum minus estimate": IDA* with the 7-8 tables, stopped after `--budget` nodes;
//!    the lower bound it proved minus the start estimate (an honest lower bound on the
//!    gap), plus a tie-break below one: boards the budget did not solve first, then more
//!    nodes in the finished iterations (more nodes for the same bound: a weaker estimate).
//!
//! Output (stdout): the `--keep` best distinct boards in the instance-file format, with the
//! length where the budget sufficed to solve the board (those are too easy for the hard
//! set) and `?` elsewhere, and a comment giving each one's origin, start estimate and
//! score; stderr lists every symmetric image's figures and each climb's best score. Solve them
//! optimally with `fifteen solve -i FILE --format json --timeout S` to fill in the lengths
//! (see `data/hard4x4.md` for the commands that produced `data/hard4x4.txt`).
//!
//! Needs the 4x4 7-8 tables (`FIFTEEN_TABLES`, `--tables`, or the per-user default, built
//! by any `fifteen solve`).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use fifteen::pdb::{Partition, PdbHeuristic, TableDir};
use fifteen::random::{random_board, Rng};
use fifteen::search::{Iteration, Limits, Search};
use fifteen::{Board, Dir, Goal, Shape, SolveError, Solver, Symmetry};
use rayon::prelude::*;

/// Command-line settings; see the module documentation.
struct Args {
    seed: u64,
    climbs: usize,
    steps: usize,
    budget: u64,
    keep: usize,
    threads: usize,
    walks: usize,
    tables: Option<PathBuf>,
}

fn parse_args() -> Args {
    let mut a = Args {
        seed: 13,
        climbs: 12,
        steps: 120,
        budget: 2_000_000,
        keep: 40,
        threads: 2,
        walks: 0,
        tables: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| die(&format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--seed" => a.seed = number(&value()),
            "--climbs" => a.climbs = number(&value()) as usize,
            "--steps" => a.steps = number(&value()) as usize,
            "--budget" => a.budget = number(&value()),
            "--keep" => a.keep = number(&value()) as usize,
            "--threads" => a.threads = number(&value()).max(1) as usize,
            "--walks" => a.walks = number(&value()) as usize,
            "--tables" => a.tables = Some(PathBuf::from(value())),
            "-h" | "--help" => {
                eprintln!(
                    "usage: hardset [--seed S] [--walks N] [--climbs N] [--steps N] \
                     [--budget NODES] [--keep N] [--threads N] [--tables DIR]"
                );
                std::process::exit(0);
            }
            other => die(&format!("unknown argument {other}")),
        }
    }
    a
}

fn number(text: &str) -> u64 {
    text.parse()
        .unwrap_or_else(|_| die(&format!("not a number: {text}")))
}

fn die(msg: &str) -> ! {
    eprintln!("hardset: {msg}");
    std::process::exit(2)
}

/// A board with the goal it is to be solved for and where it came from.
#[derive(Clone)]
struct Candidate {
    board: Board,
    goal: Goal,
    goal_name: &'static str,
    origin: String,
}

/// What the truncated search said about a board.
#[derive(Clone, Copy)]
struct Score {
    /// The start estimate (7-8 with its mirror).
    h0: u32,
    /// The lower bound proven within the budget (the length, if it solved the board).
    bound: u32,
    /// Whether the search finished (then `bound` is the optimal length).
    solved: bool,
    /// Nodes of the finished iterations.
    finished_nodes: u64,
    /// `bound - h0`, plus a tie-break below 1: a search the budget stopped ranks above one
    /// that finished with the same gap (its gap can only be larger), and among equals more
    /// nodes in the finished iterations rank higher (the estimate is weaker there).
    value: f64,
}

fn score(solver: &Solver, c: &Candidate, budget: u64) -> Score {
    let h0 = solver.estimate(&c.board, &c.goal);
    let last = std::sync::Mutex::new(0u64);
    let hook = |it: Iteration| *last.lock().unwrap() = it.nodes;
    let search = Search {
        limits: Limits {
            max_nodes: Some(budget),
            ..Limits::default()
        },
        on_iteration: Some(&hook),
        ..Search::default()
    };
    let (bound, solved) = match solver.solve(&c.board, &c.goal, &search) {
        Ok(s) => (s.moves.len() as u32, true),
        Err(SolveError::Stopped(s)) => (s.lower_bound, false),
        Err(e) => panic!("candidate {} cannot be searched: {e}", c.origin),
    };
    let finished_nodes = *last.lock().unwrap();
    Score {
        h0,
        bound,
        solved,
        finished_nodes,
        value: (bound - h0) as f64
            + if solved {
                // Exactly this gap, and cheap (within the budget).
                0.5 * finished_nodes as f64 / (budget as f64 + 1.0)
            } else {
                // At least this gap, and the budget ran out.
                0.5 + 0.5 * finished_nodes as f64 / (budget as f64 + 1.0)
            },
    }
}

/// `goal`'s board moved by `sym`: the tile of cell `c` put at `sym.cell(c)`.
fn image(goal: &Goal, sym: Symmetry) -> Board {
    let shape = goal.shape();
    let src = goal.board().tiles();
    let mut tiles = vec![0u8; src.len()];
    for (c, &t) in src.iter().enumerate() {
        tiles[sym.cell(shape, c)] = t;
    }
    Board::new(shape, &tiles).expect("a permutation of a board is a board")
}

fn sym_name(s: Symmetry) -> String {
    let mut parts = Vec::new();
    if s.flip_rows {
        parts.push("flip-rows");
    }
    if s.flip_cols {
        parts.push("flip-cols");
    }
    if s.transpose {
        parts.push("transpose");
    }
    if parts.is_empty() {
        "identity".into()
    } else {
        parts.join("+")
    }
}

/// Every symmetric image of each goal, read against each goal, that the goal can reach and
/// that is not the goal itself.
fn symmetric_candidates(shape: Shape) -> Vec<Candidate> {
    let goals = [
        ("blank-first", Goal::blank_first(shape)),
        ("standard", Goal::standard(shape)),
    ];
    let mut out = Vec::new();
    for (src_name, src) in &goals {
        for sym in Symmetry::all(shape) {
            let board = image(src, sym);
            for (name, goal) in &goals {
                if goal.labels(&board).is_err() || board == *goal.board() {
                    continue;
                }
                out.push(Candidate {
                    board,
                    goal: *goal,
                    goal_name: name,
                    origin: format!("{src_name} goal, {}", sym_name(sym)),
                });
            }
        }
    }
    out
}

/// The problem a candidate poses, the same for every board and goal the solver maps onto
/// one another: the board in goal-cell labels, moved so the goal's blank is where the
/// tables want it, and the smaller of that and its transpose (which the mirrored lookup
/// treats alike). The standard goal's images and the blank-first goal's images of the
/// same symmetry are one problem.
fn canonical(pdb: &PdbHeuristic, c: &Candidate) -> Vec<u8> {
    let labels = c.goal.labels(&c.board).expect("candidates are solvable");
    let l = pdb.symmetry_for(&labels).expect("4x4").labels(&labels);
    let transpose = Symmetry {
        transpose: true,
        flip_rows: false,
        flip_cols: false,
    };
    let n = l.shape.cells();
    let a = l.cells[..n].to_vec();
    let b = transpose.labels(&l).cells[..n].to_vec();
    a.min(b)
}

/// A random change that keeps the board solvable for its goal: a 3-cycle of tiles, two
/// tile swaps, or a walk of one to three blank moves.
fn perturb(rng: &mut Rng, board: &Board) -> Board {
    let n = board.tiles().len();
    let mut tiles = board.tiles().to_vec();
    let blank = board.blank();
    let pick = |rng: &mut Rng, not: &[usize]| loop {
        let c = rng.below(n as u64) as usize;
        if c != blank && !not.contains(&c) {
            return c;
        }
    };
    match rng.below(3) {
        0 => {
            let a = pick(rng, &[]);
            let b = pick(rng, &[a]);
            let c = pick(rng, &[a, b]);
            let t = tiles[a];
            tiles[a] = tiles[b];
            tiles[b] = tiles[c];
            tiles[c] = t;
        }
        1 => {
            let a = pick(rng, &[]);
            let b = pick(rng, &[a]);
            let c = pick(rng, &[a, b]);
            let d = pick(rng, &[a, b, c]);
            tiles.swap(a, b);
            tiles.swap(c, d);
        }
        _ => {
            let mut b = *board;
            let k = 1 + rng.below(3);
            let mut done = 0;
            while done < k {
                let d = Dir::ALL[rng.below(4) as usize];
                if let Some(next) = b.apply(d) {
                    b = next;
                    done += 1;
                }
            }
            return b;
        }
    }
    Board::new(board.shape(), &tiles).expect("a permutation of a board is a board")
}

/// Hill climbing from `start`: keeps each perturbation that does not lower the score.
fn climb(
    solver: &Solver,
    start: Candidate,
    seed: u64,
    steps: usize,
    budget: u64,
) -> Vec<(Candidate, Score)> {
    let mut rng = Rng::new(seed);
    let mut cur = start;
    let mut cur_score = score(solver, &cur, budget);
    let mut visited = vec![(cur.clone(), cur_score)];
    for step in 0..steps {
        let board = perturb(&mut rng, &cur.board);
        if board == *cur.goal.board() {
            continue;
        }
        let next = Candidate {
            board,
            goal: cur.goal,
            goal_name: cur.goal_name,
            origin: format!("climb seed {seed} step {step}"),
        };
        let s = score(solver, &next, budget);
        if s.value >= cur_score.value {
            cur = next;
            cur_score = s;
            visited.push((cur.clone(), cur_score));
        }
    }
    visited
}

fn main() {
    let args = parse_args();
    let shape = Shape::new(4, 4).expect("4x4");
    let partition = Partition::default_for(shape, 0);
    let dir = args
        .tables
        .clone()
        .or_else(|| std::env::var_os("FIFTEEN_TABLES").map(PathBuf::from))
        .or_else(fifteen::pdb::default_dir)
        .unwrap_or_else(|| die("no tables directory"));
    let tables = TableDir::new(&dir);
    if !tables.missing(&partition).is_empty() {
        die(&format!(
            "no 4x4 7-8 tables in {} (any `fifteen solve` builds them)",
            dir.display()
        ));
    }
    // SAFETY: nothing rewrites the table files while this runs.
    let pdb = unsafe { tables.map(&partition) }.unwrap_or_else(|e| die(&e.to_string()));
    let solver = Solver::with_pdb(Arc::clone(&pdb));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .expect("thread pool");

    // The images, then `--walks` short random walks of the blank (2 to 8 moves) from each.
    let mut symmetric = symmetric_candidates(shape);
    let mut walk_rng = Rng::new(args.seed ^ 0x5741_4c4b);
    let images_only = symmetric.clone();
    for c in &images_only {
        for w in 0..args.walks {
            let k = 2 + walk_rng.below(7);
            let mut board = c.board;
            let mut last: Option<Dir> = None;
            let mut done = 0;
            while done < k {
                let d = Dir::ALL[walk_rng.below(4) as usize];
                if Some(d.opposite()) == last {
                    continue;
                }
                if let Some(next) = board.apply(d) {
                    board = next;
                    last = Some(d);
                    done += 1;
                }
            }
            if board != *c.goal.board() {
                symmetric.push(Candidate {
                    board,
                    goal: c.goal,
                    goal_name: c.goal_name,
                    origin: format!("{}, walk #{w} ({k} moves)", c.origin),
                });
            }
        }
    }
    let scored: Vec<(Candidate, Score)> = pool.install(|| {
        symmetric
            .par_iter()
            .map(|c| (c.clone(), score(&solver, c, args.budget)))
            .collect()
    });
    for (c, s) in &scored {
        eprintln!(
            "symmetric {:<40} goal {:<11} h0 {} bound {}{} finished {}",
            c.origin,
            c.goal_name,
            s.h0,
            s.bound,
            if s.solved { " (solved)" } else { "" },
            s.finished_nodes
        );
    }

    // Climb starts: the distinct images, hardest first, two of every three climbs; uniform
    // random boards for the third.
    let mut images: Vec<&(Candidate, Score)> = Vec::new();
    let mut seen_images = HashSet::new();
    let mut by_score: Vec<&(Candidate, Score)> = scored.iter().collect();
    by_score.sort_by(|a, b| b.1.value.total_cmp(&a.1.value));
    for e in by_score {
        if seen_images.insert(canonical(&pdb, &e.0)) {
            images.push(e);
        }
    }
    let mut rng = Rng::new(args.seed);
    let starts: Vec<(Candidate, u64)> = (0..args.climbs)
        .map(|i| {
            let seed = rng.next_u64();
            let c = if i % 3 != 2 && !images.is_empty() {
                let mut c = images[(i - i / 3) % images.len()].0.clone();
                c.origin = format!("from {} / {}", c.origin, c.goal_name);
                c
            } else {
                let (goal_name, goal) = if i % 2 == 0 {
                    ("blank-first", Goal::blank_first(shape))
                } else {
                    ("standard", Goal::standard(shape))
                };
                Candidate {
                    board: random_board(&mut rng, &goal),
                    goal,
                    goal_name,
                    origin: "from a random board".into(),
                }
            };
            (c, seed)
        })
        .collect();
    let climbed: Vec<Vec<(Candidate, Score)>> = pool.install(|| {
        starts
            .par_iter()
            .map(|(c, seed)| {
                let from = c.origin.clone();
                let mut v = climb(&solver, c.clone(), *seed, args.steps, args.budget);
                for (cand, _) in v.iter_mut() {
                    cand.origin = format!("{}, {from}", cand.origin);
                }
                let best = v.last().map(|(_, s)| s.value).unwrap_or(0.0);
                eprintln!("climb seed {seed} {from}: best score {best:.3}");
                v
            })
            .collect()
    });

    // Best first; one line per distinct problem.
    let mut all: Vec<(Candidate, Score)> = scored
        .into_iter()
        .chain(climbed.into_iter().flatten())
        .collect();
    all.sort_by(|a, b| b.1.value.total_cmp(&a.1.value));
    let mut seen = HashSet::new();
    let mut kept: Vec<&(Candidate, Score)> = Vec::new();
    for e in &all {
        if kept.len() >= args.keep {
            break;
        }
        if seen.insert(canonical(&pdb, &e.0)) {
            kept.push(e);
        }
    }
    println!(
        "# hardset candidates: seed {} climbs {} steps {} budget {}",
        args.seed, args.climbs, args.steps, args.budget
    );
    for goal_name in ["blank-first", "standard"] {
        let group: Vec<_> = kept.iter().filter(|e| e.0.goal_name == goal_name).collect();
        if group.is_empty() {
            continue;
        }
        println!("goal: {goal_name}");
        for (i, (c, s)) in group.iter().enumerate() {
            let tiles: Vec<String> = c.board.tiles().iter().map(|t| t.to_string()).collect();
            println!(
                "{}{} {} {}  # h0 {} bound {}{} score {:.3}; {}",
                if goal_name == "standard" { "s" } else { "b" },
                i + 1,
                if s.solved {
                    s.bound.to_string()
                } else {
                    "?".into()
                },
                tiles.join(" "),
                s.h0,
                s.bound,
                if s.solved { " (solved)" } else { "" },
                s.value,
                c.origin
            );
        }
    }
}
