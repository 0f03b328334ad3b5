//! What a table is for ([`PatternSpec`]: a board shape, the goal's blank cell, a pattern's
//! tiles) and how the tiles are split into disjoint patterns ([`Partition`]).

use crate::board::{Shape, Symmetry, MAX_CELLS};
use crate::error::TableError;
use crate::rank::Ranker;

/// Which rule of [`check_tiles`] a list of tiles breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BadTiles {
    /// The goal's blank cell is not on the board.
    Blank,
    /// No tiles, or as many as the board has cells.
    Count,
    /// A tile off the board, on the blank's cell, or named twice.
    Tiles,
}

/// The rules a pattern's tiles follow, written once for file names, headers, partitions
/// and the builder: the goal's blank cell on the board, at least one tile and fewer than
/// the cells, each tile on the board, not the blank, and named once. Checked in that order;
/// the first rule broken is the error, and each caller words it for its reader. A
/// partition's tiles, all groups together, follow the same rules.
pub(super) fn check_tiles(shape: Shape, blank: u8, tiles: &[u8]) -> Result<(), BadTiles> {
    let n = shape.cells();
    if blank as usize >= n {
        return Err(BadTiles::Blank);
    }
    if tiles.is_empty() || tiles.len() >= n {
        return Err(BadTiles::Count);
    }
    let mut seen = [false; MAX_CELLS];
    for &t in tiles {
        if t as usize >= n || t == blank || std::mem::replace(&mut seen[t as usize], true) {
            return Err(BadTiles::Tiles);
        }
    }
    Ok(())
}

/// Whether `k` tiles on `n` cells have more placements than a table of this format can
/// index: the builder refuses such a pattern, and a header that claims one is damaged.
pub(super) fn too_many_placements(n: usize, k: usize) -> bool {
    Ranker::checked_count(n, k).is_none_or(|c| c > 1u64 << 32)
}

/// The 4x4 second partition (blank in cell 0), see [`Partition::second_for`].
pub const SECOND_4X4: &str = "1,2,3,4,8,12,5/6,7,9,10,11,13,14,15";

/// What one table is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternSpec {
    /// The board's shape.
    pub shape: Shape,
    /// The goal's blank cell (labels are goal cells, so this fixes the goal).
    pub blank: u8,
    /// The pattern's labels, in the order the table's index ranks their cells.
    pub tiles: Vec<u8>,
}

impl PatternSpec {
    /// The file name inside a table directory, e.g. `4x4-b0-1.2.3.4.5.6.7.pdb`.
    pub fn file_name(&self) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(|t| t.to_string()).collect();
        format!(
            "{}x{}-b{}-{}.pdb",
            self.shape.rows,
            self.shape.cols,
            self.blank,
            tiles.join(".")
        )
    }

    /// The table a file name such as `4x4-b0-1.2.3.4.5.6.7.pdb` stands for: the inverse of
    /// [`PatternSpec::file_name`], so that a file whose header is unreadable can still be
    /// named with its exact rebuild command. `None` for any other name.
    pub fn from_file_name(name: &str) -> Option<PatternSpec> {
        let stem = name.strip_suffix(".pdb")?;
        let mut parts = stem.splitn(3, '-');
        let shape = parts.next()?;
        let blank = parts.next()?.strip_prefix('b')?;
        let tiles = parts.next()?;
        let (rows, cols) = shape.split_once('x')?;
        let shape = Shape::new(rows.parse().ok()?, cols.parse().ok()?)?;
        let blank: u8 = blank.parse().ok()?;
        let tiles: Vec<u8> = tiles
            .split('.')
            .map(|t| t.parse().ok())
            .collect::<Option<_>>()?;
        check_tiles(shape, blank, &tiles).ok()?;
        let spec = PatternSpec {
            shape,
            blank,
            tiles,
        };
        // Only the canonical spelling (no leading zeros, no signs) is a table's name.
        (spec.file_name() == name).then_some(spec)
    }

    /// How many entries the table has: one per placement of the pattern's tiles.
    pub fn entries(&self) -> u64 {
        Ranker::new(self.shape.cells(), self.tiles.len()).count()
    }
}

/// A set of disjoint patterns covering every tile but the blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    /// The board's shape.
    pub shape: Shape,
    /// The goal's blank cell the tables are for.
    pub blank: u8,
    /// Each pattern's labels; together every label but the blank, once.
    pub patterns: Vec<Vec<u8>>,
}

impl Partition {
    /// Splits the non-blank labels, in order, into groups of the given sizes: for the 4x4
    /// puzzle with its blank in a corner, `[7, 8]` gives rows 1-2 and rows 3-4. Boards wider
    /// than tall are read column by column instead, so that groups are blocks across the
    /// short side: tiles of one column get in each other's way, and a group that holds
    /// them counts it (2x5 boards: 10 times fewer nodes than with one group per row).
    ///
    /// # Errors
    /// Sizes that do not add up to the number of tiles.
    pub fn by_sizes(shape: Shape, blank: u8, sizes: &[usize]) -> Result<Partition, TableError> {
        let (rows, cols) = (shape.rows as usize, shape.cols as usize);
        let order: Vec<u8> = if cols > rows {
            (0..cols)
                .flat_map(|c| (0..rows).map(move |r| (r * cols + c) as u8))
                .collect()
        } else {
            (0..shape.cells() as u8).collect()
        };
        let labels: Vec<u8> = order.into_iter().filter(|&l| l != blank).collect();
        // Checked: the sizes come from user text, and a sum that wraps could match.
        let total = sizes.iter().try_fold(0usize, |a, &s| a.checked_add(s));
        if sizes.contains(&0) {
            return Err(TableError::Unsupported(format!(
                "pattern sizes {sizes:?}: every pattern needs at least one tile"
            )));
        }
        if total != Some(labels.len()) {
            return Err(TableError::Unsupported(format!(
                "pattern sizes {:?} must add up to {} for a {} board",
                sizes,
                labels.len(),
                shape
            )));
        }
        let mut patterns = Vec::new();
        let mut at = 0;
        for &s in sizes {
            patterns.push(labels[at..at + s].to_vec());
            at += s;
        }
        Ok(Partition {
            shape,
            blank,
            patterns,
        })
    }

    /// Parses `7-8`-style sizes, or explicit groups `1,2,3/4,5,6/...`.
    ///
    /// # Errors
    /// Text that is neither, or groups that are not a partition of the tiles.
    pub fn parse(shape: Shape, blank: u8, text: &str) -> Result<Partition, TableError> {
        let example = example(shape, blank);
        let bad =
            || TableError::Unsupported(format!("bad partition '{text}' (use e.g. {example})"));
        if text.contains('/') || text.contains(',') {
            // Each mistake named: which label, and why it is none.
            let why = |reason: String| {
                TableError::Unsupported(format!(
                    "bad partition '{text}': {reason} (use e.g. {example})"
                ))
            };
            let n = shape.cells();
            let mut seen = [false; MAX_CELLS];
            let mut patterns = Vec::new();
            for group in text.split('/') {
                let mut pattern = Vec::new();
                for token in group.split(',').map(str::trim) {
                    let t = match token.parse::<u8>() {
                        Ok(t) if (t as usize) < n => t,
                        _ if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => {
                            return Err(why(format!(
                                "there is no tile {token} on a {shape} board (its cells are 0 to {})",
                                n - 1
                            )))
                        }
                        _ if token.is_empty() => {
                            return Err(why("a tile number is missing between its commas or slashes".into()))
                        }
                        _ => return Err(why(format!("'{token}' is not a tile number"))),
                    };
                    if t == blank {
                        return Err(why(format!("{t} is the goal's blank, not a tile")));
                    }
                    if std::mem::replace(&mut seen[t as usize], true) {
                        return Err(why(format!("tile {t} is named twice")));
                    }
                    pattern.push(t);
                }
                patterns.push(pattern);
            }
            let tiles = patterns.concat();
            check_tiles(shape, blank, &tiles).map_err(|_| bad())?;
            if tiles.len() != shape.cells() - 1 {
                let missing: Vec<String> = (0..n as u8)
                    .filter(|&t| t != blank && !seen[t as usize])
                    .map(|t| t.to_string())
                    .collect();
                return Err(TableError::Unsupported(format!(
                    "partition '{text}' must name every tile except the blank once; it leaves out {}",
                    missing.join(", ")
                )));
            }
            return Ok(Partition {
                shape,
                blank,
                patterns,
            });
        }
        let sizes: Result<Vec<usize>, _> = text.split('-').map(|s| s.trim().parse()).collect();
        Partition::by_sizes(shape, blank, &sizes.map_err(|_| bad())?)
    }

    /// The partition used when none is asked for.
    pub fn default_for(shape: Shape, blank: u8) -> Partition {
        if shape == Shape::new(5, 5).expect("5x5") && blank == 0 {
            // Korf and Felner's 24-puzzle partition: four compact blocks, so that most
            // interactions between tiles stay inside one pattern.
            return Partition::parse(
                shape,
                blank,
                "1,2,5,6,7,12/3,4,8,9,13,14/10,11,15,16,20,21/17,18,19,22,23,24",
            )
            .expect("a partition of the 5x5 tiles");
        }
        let tiles = shape.cells() - 1;
        let sizes: Vec<usize> = match tiles {
            // Up to 8 tiles a single pattern is exact and small (3x3: 181,440 states).
            0..=8 => vec![tiles],
            15 => vec![7, 8],
            _ => {
                let groups = tiles.div_ceil(6);
                let mut v = vec![tiles / groups; groups];
                for x in v.iter_mut().take(tiles % groups) {
                    *x += 1;
                }
                v
            }
        };
        Partition::by_sizes(shape, blank, &sizes).expect("sizes add up")
    }

    /// What each pattern's table is for, in the order of `patterns`.
    pub fn specs(&self) -> Vec<PatternSpec> {
        self.patterns
            .iter()
            .map(|t| PatternSpec {
                shape: self.shape,
                blank: self.blank,
                tiles: t.clone(),
            })
            .collect()
    }

    /// The partition whose tables are max'd with [`Partition::default_for`]'s, where one
    /// is worth its build (see docs/heuristic.md). For the 4x4 puzzle with the blank in a
    /// corner: the first row and column with the diagonal's next cell, against the rest.
    /// The default splits tiles by rows (its mirror image by columns), so it is blind to
    /// boards whose tiles sit in each other's rows: the goal transposed is a fixed point of
    /// its mirror. This one is its own mirror image and cuts across rows and columns.
    pub fn second_for(shape: Shape, blank: u8) -> Option<Partition> {
        if shape == Shape::new(4, 4).expect("4x4") && blank == 0 {
            return Some(
                Partition::parse(shape, blank, SECOND_4X4).expect("a partition of the 4x4 tiles"),
            );
        }
        None
    }

    /// A short name such as `7-8`.
    pub fn name(&self) -> String {
        let sizes: Vec<String> = self.patterns.iter().map(|p| p.len().to_string()).collect();
        sizes.join("-")
    }

    /// The partition spelled as explicit groups (`1,2,3/4,5,...`), as `--partition` reads
    /// it: unlike [`Partition::name`], two partitions never share it.
    pub fn groups(&self) -> String {
        self.patterns
            .iter()
            .map(|g| {
                g.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The blank cell whose tables serve a goal with its blank at `blank`: the smallest cell
/// any symmetry of the board maps it to.
pub fn canonical_blank(shape: Shape, blank: usize) -> u8 {
    Symmetry::all(shape)
        .into_iter()
        .map(|s| s.cell(shape, blank))
        .min()
        .unwrap() as u8
}

/// A partition of this board's tiles to show in an error: sizes (`7-8` on 4x4, `6-6-6-6` on
/// 5x5) of groups small enough to build, and on boards of up to 16 cells the same groups
/// as tile lists.
fn example(shape: Shape, blank: u8) -> String {
    let tiles: Vec<u8> = (0..shape.cells() as u8).filter(|&t| t != blank).collect();
    let most = if shape.cells() <= 16 { 8 } else { 6 };
    let groups = tiles.len().div_ceil(most).max(1);
    let mut sizes: Vec<usize> = (0..groups)
        .map(|g| (g + 1) * tiles.len() / groups - g * tiles.len() / groups)
        .collect();
    sizes.sort_unstable();
    let text = |v: &[usize]| {
        v.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-")
    };
    if shape.cells() > 16 {
        return text(&sizes);
    }
    let mut lists = Vec::new();
    let mut at = 0;
    for &s in &sizes {
        let group: Vec<String> = tiles[at..at + s].iter().map(|t| t.to_string()).collect();
        lists.push(group.join(","));
        at += s;
    }
    format!("{} or {}", text(&sizes), lists.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s4() -> Shape {
        Shape::new(4, 4).unwrap()
    }

    /// The example an error gives is a partition of that board that parses, in both forms.
    #[test]
    fn the_example_in_an_error_is_valid_for_its_board() {
        assert!(example(s4(), 0).starts_with("7-8 or 1,2,3,4,5,6,7/8,"));
        assert_eq!(example(Shape::new(5, 5).unwrap(), 0), "6-6-6-6");
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 3),
            (3, 4),
            (4, 3),
            (2, 8),
            (4, 4),
            (4, 5),
            (5, 5),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for blank in [0, shape.cells() as u8 - 1] {
                let example = example(shape, blank);
                for form in example.split(" or ") {
                    let p = Partition::parse(shape, blank, form);
                    assert!(p.is_ok(), "{shape} blank {blank}: {form}: {:?}", p.err());
                    let most = p.unwrap().patterns.iter().map(Vec::len).max().unwrap();
                    assert!(most <= if shape.cells() <= 16 { 8 } else { 6 }, "{form}");
                }
            }
        }
    }

    #[test]
    fn check_tiles_reports_the_first_rule_broken() {
        let s = s4();
        assert_eq!(check_tiles(s, 0, &[1, 2, 3]), Ok(()));
        assert_eq!(check_tiles(s, 16, &[1, 1]), Err(BadTiles::Blank));
        assert_eq!(check_tiles(s, 0, &[]), Err(BadTiles::Count));
        let all: Vec<u8> = (0..16).collect();
        assert_eq!(check_tiles(s, 0, &all), Err(BadTiles::Count));
        for bad in [&[1, 16][..], &[1, 0], &[3, 2, 3]] {
            assert_eq!(check_tiles(s, 0, bad), Err(BadTiles::Tiles), "{bad:?}");
        }
    }

    #[test]
    fn file_names_round_trip_and_only_table_names_parse() {
        for spec in Partition::default_for(s4(), 0).specs() {
            assert_eq!(PatternSpec::from_file_name(&spec.file_name()), Some(spec));
        }
        for name in [
            "4x4-b0-0.1.pdb",
            "4x4-b0-1.1.pdb",
            "4x4-b16-1.pdb",
            "4x4-b0-01.pdb",
            "4x4-b0-.pdb",
            "4x4-b0-1.2",
        ] {
            assert_eq!(PatternSpec::from_file_name(name), None, "{name}");
        }
    }

    #[test]
    fn partitions_name_every_tile_but_the_blank_once() {
        let s = Shape::new(3, 3).unwrap();
        let p = Partition::parse(s, 0, "1,2,3,4/5,6,7,8").unwrap();
        assert_eq!(p.patterns, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert_eq!(p, Partition::parse(s, 0, "4-4").unwrap());
        // Each refusal names the label at fault and why.
        for (text, why) in [
            ("1,2,3,4/4,5,6,7,8", "tile 4 is named twice"),
            ("0,1,2,3/4,5,6,7,8", "0 is the goal's blank, not a tile"),
            ("1,2,3/x", "'x' is not a tile number"),
            ("1,2,3/4,,5,6,7,8", "a tile number is missing"),
            (
                "1,2,9/3,4,5,6,7,8",
                "there is no tile 9 on a 3x3 board (its cells are 0 to 8)",
            ),
            ("1,2,300/3,4,5,6,7,8", "there is no tile 300 on a 3x3 board"),
        ] {
            let e = Partition::parse(s, 0, text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("bad partition '{text}': {why}")),
                "{e}"
            );
        }
        let e = Partition::parse(s, 0, "1,2/3").unwrap_err().to_string();
        assert_eq!(
            e,
            "partition '1,2/3' must name every tile except the blank once; it leaves out 4, 5, 6, 7, 8"
        );
    }
}
