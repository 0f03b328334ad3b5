//! The arguments of `solve` and `bench`, turned once into library values ([`Plan`]), and
//! the solvers they ask for ([`Solvers`]): the batch and the checkpointed search both read
//! these, so an option means the same on both paths.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::study::{Study, DEFAULT_STUDY};
use super::{HeuristicArg, SearchOpts, INTERRUPTED};
use crate::cli::args::{self, Format};
use crate::cli::table_cache::TableCache;
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
    /// `--partition`, when given.
    pub partition: Option<String>,
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
            kind: match opts.heuristic {
                HeuristicArg::Pdb => HeuristicKind::Pdb,
                HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
                HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            },
            weight: opts.weight.unwrap_or(Weight::ONE),
            threads: args::threads(opts.threads),
            json: opts.format == Format::Json,
            goal: opts.goal,
            size: opts.size,
            max_nodes: opts.max_nodes,
            timeout: opts.timeout,
            split: opts.split,
            shard: opts.shard,
            output: opts.output,
            partition: opts.partition,
            solvers: SolversConfig {
                dir: opts.tables.tables,
                build: !opts.no_build,
                study: opts.study,
            },
        }
    }

    /// The solvers this plan asks for, with their table cache.
    ///
    /// # Errors
    /// A `--study` text that does not parse.
    pub fn solvers(&self) -> Result<Solvers> {
        let c = &self.solvers;
        // A partition of one's own replaces the default study's second partition too.
        let study = match &self.partition {
            Some(_) if c.study == DEFAULT_STUDY => Study::default(),
            _ => Study::parse(&c.study)?,
        };
        Ok(Solvers {
            kind: self.kind,
            cache: TableCache::new(&c.dir, self.partition.clone(), c.build, false),
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
