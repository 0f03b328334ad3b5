//! The hidden `--study` knob of `solve` and `bench`: which estimates join the pattern
//! databases, so that the heuristic study of docs/heuristic.md can be rerun candidate by
//! candidate.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{bail, Result};

use crate::cli::table_cache::TableCache;
use crate::pdb::{Partition, PdbHeuristic};
use crate::search::{Geometry, WalkingDistance};
use crate::{Extras, Shape};

/// What `solve` and `bench` use unless told otherwise: the first tables max'd, lazily, with
/// the second partition's where there is one (4x4), and with their dual lookups on boards
/// of 25 cells or more (5x5). docs/heuristic.md: on 4x4, with the tables in huge
/// page-cache folios, the second partition wins on wall time on the Korf 100 and ties on
/// the hard set, with a third fewer nodes, while the dual lookups save nodes but cost time;
/// on 5x5 the dual lookups take a third of the nodes and less time in all.
pub const DEFAULT_STUDY: &str = "pdb+pair+dual=large";

/// The study a `--partition` of one's own gets when `--study` is not given: the default
/// without its second partition.
pub const PARTITION_STUDY: &str = "pdb+dual=large";

/// Boards of at least this many cells get the dual lookups of `dual=large` (5x5: the only
/// larger shape measured; 6x6 has no tables).
const LARGE_CELLS: usize = 25;

/// A parsed `--study` value: `+`-joined parts, `pdb` (the first tables alone), `pair`
/// (the second partition of [`Partition::second_for`]) or `pair=GROUPS`, `wd` (walking
/// distance), `eager` (every estimate read for every child, not only where the first
/// tables do not cut), `lc` (children of equal estimate searched most linear conflicts
/// first), `dual` (the first tables read for the dual board too), `dual=large` (the same,
/// on boards of 25 cells or more), `dual2` (the second partition's tables read for the dual
/// board too, after everything else), `more=GROUPS` (once or twice, with `pair`: a third and
/// a fourth partition, read after the second).
#[derive(Clone, Debug, Default)]
pub struct Study {
    /// `Some(None)`: the default second partition; `Some(Some(text))`: this one.
    pair: Option<Option<String>>,
    /// `more=GROUPS`, given once or twice: partitions max'd after the second.
    more: Vec<String>,
    walking: bool,
    eager: bool,
    tie_break: bool,
    dual: bool,
    dual_large: bool,
    /// The second partition's dual lookups too (`dual2`).
    dual_second: bool,
    /// Walking-distance tables built so far, by shape and goal blank.
    wd: HashMap<(Shape, u8), Option<Arc<WalkingDistance>>>,
}

impl Study {
    /// Parses the knob's text.
    ///
    /// # Errors
    /// A part that is none of the above.
    pub fn parse(text: &str) -> Result<Study> {
        let mut s = Study::default();
        for part in text.split('+') {
            match part.trim() {
                "pdb" | "" => {}
                "pair" => s.pair = Some(None),
                "wd" => s.walking = true,
                "eager" => s.eager = true,
                "lc" => s.tie_break = true,
                "dual" => s.dual = true,
                "dual=large" => s.dual_large = true,
                "dual2" => s.dual_second = true,
                p => match (p.strip_prefix("pair="), p.strip_prefix("more=")) {
                    (Some(groups), _) => s.pair = Some(Some(groups.to_string())),
                    (_, Some(groups)) => s.more.push(groups.to_string()),
                    _ => {
                        bail!("--study: unknown part '{p}' (pdb, pair, pair=GROUPS, more=GROUPS, wd, eager, lc, dual, dual=large, dual2)")
                    }
                },
            }
        }
        if !s.more.is_empty() && s.pair.is_none() {
            bail!("--study: more=GROUPS is read after a second partition; add pair or pair=GROUPS");
        }
        if s.more.len() > 2 {
            bail!("--study: more=GROUPS at most twice (a third and a fourth partition)");
        }
        Ok(s)
    }

    /// The extras for boards served by `first`, opening (or building) the second
    /// partition's tables through `cache`.
    ///
    /// # Errors
    /// The second tables' errors, as [`TableCache::get_second`] reports them.
    pub fn extras(
        &mut self,
        cache: &mut TableCache,
        shape: Shape,
        goal_blank: usize,
        first: &Arc<PdbHeuristic>,
    ) -> Result<Extras> {
        let (blank, fshape) = (first.partition.blank, first.partition.shape);
        let second = match &self.pair {
            None => None,
            Some(text) => {
                let text = match text {
                    Some(t) => Some(t.clone()),
                    None => Partition::second_for(fshape, blank).map(|p| p.groups()),
                };
                match text {
                    Some(t) => cache.get_second(shape, goal_blank, t)?,
                    None => None,
                }
            }
        };
        let mut more = Vec::new();
        for t in self.more.iter().filter(|_| second.is_some()) {
            more.extend(cache.get_second(shape, goal_blank, t.clone())?);
        }
        let walking = if self.walking {
            self.wd
                .entry((fshape, blank))
                .or_insert_with(|| {
                    WalkingDistance::new(&Geometry::new(fshape, blank)).map(Arc::new)
                })
                .clone()
        } else {
            None
        };
        let dual = if self.dual || (self.dual_large && fshape.cells() >= LARGE_CELLS) {
            cache.get_dual(first)?
        } else {
            None
        };
        let dual_second = match (&second, self.dual_second) {
            (Some(s), true) => cache.get_dual(s)?,
            _ => None,
        };
        Ok(Extras {
            dual_second,
            second,
            more,
            walking,
            lazy: !self.eager,
            tie_break: self.tie_break,
            dual,
        })
    }
}
