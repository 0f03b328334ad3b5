//! The arguments of `solve` and `bench`, turned once into library values ([`Plan`]), and
//! the solvers they ask for ([`Solvers`]): the batch and the checkpointed search both read
//! these, so an option means the same on both paths.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::study::{Study, DEFAULT_STUDY, PARTITION_STUDY};
use super::{AlgorithmArg, HeuristicArg, SearchOpts, SolveFormat, INTERRUPTED};
use crate::classic::course::Problem;
use crate::classic::{Algorithm, Classic};
use crate::cli::table_cache::TableCache;
use crate::cli::workers;
use crate::cluster::shard::Shard;
use crate::error::TableError;
use crate::search::{Limits, Search, Weight};
use crate::{GoalSpec, HeuristicKind, Instance, Shape, Solver};

/// What `solve` or `bench` was asked to do, as library values.
pub struct Plan {
    /// The goal of boards without a `goal:` line.
    pub goal: GoalSpec,
    /// The boards' shape, when not square.
    pub size: Option<Shape>,
    /// The estimate asked for.
    pub kind: HeuristicKind,
    /// `Weight::ONE` unless `--weight`.
    pub weight: Weight,
    /// `--max-nodes`, per instance.
    pub max_nodes: Option<u64>,
    /// `--timeout`, per instance.
    pub timeout: Option<Duration>,
    /// Worker threads.
    pub threads: usize,
    /// `--split`: each instance on all threads.
    pub split: bool,
    /// JSON Lines rather than text.
    pub json: bool,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--output FILE`.
    pub output: Option<PathBuf>,
    /// `--checkpoints DIR`: each instance's search kept in a file of its own there.
    pub checkpoints: Option<PathBuf>,
    /// `--partition`, when given.
    pub partition: Option<String>,
    /// `--algorithm` (IDA* when not given: the tuned search), and whether it was given.
    pub algorithm: Algorithm,
    algorithm_given: bool,
    /// Whether `--heuristic` and `--weight` were given (a course file's defaults yield).
    heuristic_given: bool,
    weight_given: bool,
    /// `--depth-limit`.
    pub depth_limit: Option<u32>,
    /// `--max-memory`.
    pub max_memory: Option<u64>,
    /// `--format report`.
    pub report: bool,
    /// The input is a course problem file.
    course: bool,
    /// The tables directory, what to do when tables are missing, and which estimates join
    /// the tables.
    solvers: SolversConfig,
}

/// How [`Solvers`] are made.
struct SolversConfig {
    dir: PathBuf,
    build: bool,
    study: String,
}

impl Plan {
    /// Reads the arguments once; nothing is opened yet.
    pub fn new(opts: SearchOpts) -> Plan {
        Plan {
            kind: match opts.heuristic.unwrap_or(HeuristicArg::Pdb) {
                HeuristicArg::Pdb => HeuristicKind::Pdb,
                HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
                HeuristicArg::Manhattan => HeuristicKind::Manhattan,
                HeuristicArg::Hamming => HeuristicKind::Hamming,
            },
            algorithm: match opts.algorithm.unwrap_or(AlgorithmArg::Ida) {
                AlgorithmArg::Ida => Algorithm::Ida,
                AlgorithmArg::Astar => Algorithm::Astar,
                AlgorithmArg::Bfs => Algorithm::Bfs,
                AlgorithmArg::Dfs => Algorithm::Dfs,
                AlgorithmArg::Greedy => Algorithm::Greedy,
            },
            algorithm_given: opts.algorithm.is_some(),
            heuristic_given: opts.heuristic.is_some(),
            weight_given: opts.weight.is_some(),
            depth_limit: opts.depth_limit,
            max_memory: opts.max_memory,
            report: opts.format == SolveFormat::Report,
            course: false,
            weight: opts.weight.unwrap_or(Weight::ONE),
            threads: workers::threads(opts.threads),
            json: opts.format == SolveFormat::Json,
            goal: opts.goal,
            size: opts.size,
            max_nodes: opts.max_nodes,
            timeout: opts.timeout,
            split: opts.split,
            shard: opts.shard,
            output: opts.output,
            checkpoints: opts.checkpoints,
            partition: opts.partition,
            solvers: SolversConfig {
                dir: opts.tables.tables,
                build: !opts.no_build,
                study: opts.study,
            },
        }
    }

    /// A course problem file's defaults, where the command line is silent: A*, the file's
    /// weight, Manhattan distance.
    pub fn course_defaults(&mut self, p: &Problem) {
        self.course = true;
        if !self.algorithm_given {
            self.algorithm = Algorithm::Astar;
            self.algorithm_given = true;
        }
        if !self.weight_given {
            self.weight = p.weight;
        }
        if !self.heuristic_given {
            self.kind = HeuristicKind::Manhattan;
        }
    }

    /// Whether instances go to a classic search ([`crate::classic`]): any `--algorithm`
    /// (`ida` included: the textbook IDA*, counted as `compare` counts it), `--format
    /// report`, a course file. Without them, the solver's own tuned search.
    pub fn classic_search(&self) -> bool {
        self.algorithm_given || self.report || self.course
    }

    /// Refuses the classic searches' own limits where they would be ignored: without
    /// `--algorithm` (or a course file, or `--format report`) the solver's search has no
    /// depth limit and holds no open list.
    ///
    /// # Errors
    /// `--depth-limit` or `--max-memory` given to the solver's own search; `--weight` to a
    /// search that weighs nothing; `--partition` with an estimate that reads no tables.
    pub fn classic_options_fit(&self) -> anyhow::Result<()> {
        if !self.classic_search() && (self.depth_limit.is_some() || self.max_memory.is_some()) {
            anyhow::bail!("--depth-limit and --max-memory limit a classic search (--algorithm dfs; bfs, greedy, astar): the solver's own search takes --max-nodes and --timeout");
        }
        if self.partition.is_some() && self.heuristic_given && self.kind != HeuristicKind::Pdb {
            // The partition names tables, which only the tables' estimate reads: the answer
            // would come from another estimate and look like the partition's.
            anyhow::bail!(
                "--partition chooses the tables of --heuristic pdb, not of {}: drop --partition, or --heuristic",
                self.kind.name()
            );
        }
        if self.algorithm_given && self.depth_limit.is_some() && self.algorithm != Algorithm::Dfs {
            // It would run without the limit and say nothing, as for --weight below.
            anyhow::bail!(
                "--depth-limit bounds how deep --algorithm dfs goes ({} does not use it): drop --depth-limit, or choose dfs",
                self.algorithm.name()
            );
        }
        let weighs = matches!(self.algorithm, Algorithm::Astar | Algorithm::Ida);
        if self.algorithm_given && self.weight_given && !self.weight.is_one() && !weighs {
            // The search would run unweighted and say nothing: its answer would look like
            // one the weight bounds.
            anyhow::bail!(
                "--weight weighs h against g in f = g + W*h, which only --algorithm astar and ida use ({} does not): drop --weight, or choose one of them",
                self.algorithm.name()
            );
        }
        Ok(())
    }

    /// The classic search of one instance started now.
    pub fn classic(&self) -> Classic<'static> {
        Classic {
            algorithm: self.algorithm,
            weight: self.weight,
            depth_limit: self.depth_limit,
            limits: Limits {
                max_nodes: self.max_nodes,
                deadline: self.timeout.map(|t| Instant::now() + t),
                stop: Some(&INTERRUPTED),
            },
            max_memory: self.max_memory,
        }
    }

    /// The solvers this plan asks for, with their table cache.
    ///
    /// # Errors
    /// A `--study` text that does not parse.
    pub fn solvers(&self) -> Result<Solvers> {
        let c = &self.solvers;
        // A partition of one's own replaces the default study's second partition too, and
        // keeps the dual lookups large boards get by default (from its own dual tables,
        // or a note when they are missing), so that a partition is compared with the
        // default like for like.
        let study = match &self.partition {
            Some(_) if c.study == DEFAULT_STUDY => Study::parse(PARTITION_STUDY)?,
            _ => Study::parse(&c.study)?,
        };
        Ok(Solvers {
            kind: self.kind,
            cache: TableCache::new(&c.dir, self.partition.clone(), c.build, false)
                .suggest_weight(self.weight.is_one()),
            study,
        })
    }

    /// The search of one instance started now: this plan's weight and limits, Ctrl-C
    /// included, on `pool` when given.
    pub fn search<'a>(&self, pool: Option<&'a rayon::ThreadPool>) -> Search<'a> {
        Search {
            weight: self.weight,
            limits: Limits {
                max_nodes: self.max_nodes,
                deadline: self.timeout.map(|t| Instant::now() + t),
                stop: Some(&INTERRUPTED),
            },
            pool,
            ..Search::default()
        }
    }
}

/// The solver of each instance: its tables opened (or built) once per shape and goal blank,
/// with the estimates the study adds to them.
pub struct Solvers {
    kind: HeuristicKind,
    /// The tables opened so far (and the seconds spent building any).
    pub cache: TableCache,
    study: Study,
}

/// Why no solver could be had for an instance.
pub enum NoSolver {
    /// Ctrl-C during a table build: the build said so.
    Interrupted,
    /// The tables cannot be had (the message says why and what to do).
    Tables(String),
}

impl Solvers {
    /// The solvers of `kind` with the tables of `dir` (built when missing if `build`), and
    /// the default study's extras: what `compare` uses.
    pub fn new(kind: HeuristicKind, dir: &std::path::Path, build: bool) -> Solvers {
        Solvers {
            kind,
            cache: TableCache::new(dir, None, build, false),
            study: Study::parse(DEFAULT_STUDY).expect("the default study parses"),
        }
    }

    /// The solver for `inst`: its tables and extras for `pdb` (linear conflict where there
    /// are none), or the estimate asked for.
    ///
    /// # Errors
    /// See [`NoSolver`].
    pub fn get(&mut self, inst: &Instance) -> Result<Solver, NoSolver> {
        if self.kind != HeuristicKind::Pdb {
            return Ok(Solver::new(self.kind));
        }
        let (shape, blank) = (inst.board.shape(), inst.goal.blank());
        let fatal = |e: anyhow::Error| match e.downcast_ref() {
            Some(TableError::Interrupted) => NoSolver::Interrupted,
            _ => NoSolver::Tables(format!("{e:#}")),
        };
        match self.cache.get(shape, blank).map_err(fatal)? {
            Some(p) => {
                let extras = self
                    .study
                    .extras(&mut self.cache, shape, blank, &p)
                    .map_err(fatal)?;
                Ok(Solver::with_pdb(p).with_extras(extras))
            }
            None => Ok(Solver::new(HeuristicKind::LinearConflict)),
        }
    }
}
