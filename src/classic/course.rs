//! The problem files and reports of the weighted A* course project.
//!
//! A **problem file** is a weight `W` on its first line, a blank line, the start grid (n
//! lines of n numbers, 0 for the blank), a blank line, and the goal grid:
//!
//! ```text
//! 1.2
//!
//! 1 2 3
//! 4 0 6
//! 7 5 8
//!
//! 1 2 3
//! 4 5 6
//! 7 8 0
//! ```
//!
//! The **report** of a solution is the start grid, a blank line, the goal grid, a blank
//! line, then one line each: `W`, the solution's depth `d`, the number of nodes generated
//! `N`, the moves of the blank (`U D L R`, separated by spaces), and the `f = g + W*h` of
//! every node on the solution path from the start to the goal (separated by spaces).

use crate::board::{Board, Dir, Shape};
use crate::search::Weight;
use crate::BoardError;

use super::Answer;

/// A course problem: the weight and the two grids.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// `W` as the file writes it (so that the report repeats it unchanged).
    pub weight_text: String,
    /// `W` as the search's weight (at most `W`, exact for W with up to three decimals).
    pub weight: Weight,
    /// The start board.
    pub start: Board,
    /// The goal board.
    pub goal: Board,
}

/// A problem file or report that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    /// What is wrong, and on which line (from 1).
    #[error("line {line}: {why}")]
    Line {
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

fn bad(line: usize, why: impl Into<String>) -> CourseError {
    CourseError::Line {
        line,
        why: why.into(),
    }
}

/// Whether `text` is meant as a problem file: its first line is one word, a weight, where
/// an instance file's first line is a board (at least 4 numbers), an instance line, a
/// `goal:` or `size:` line, a comment or blank. A weight mistyped (`1,2`) or a blank line
/// forgotten still makes a problem file, refused by [`parse`] naming its line, rather than
/// a batch of the grid's rows read as boards.
pub fn is_problem(text: &str) -> bool {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim();
    let words = first.split(|c: char| c.is_whitespace() || c == ',');
    let one_word = !first.is_empty()
        && !first.starts_with('#')
        && !first.contains(char::is_whitespace)
        && !first.contains(':')
        && words.filter(|w| !w.is_empty()).count() < 4;
    // And a grid after it: k lines of k numbers (a stray word atop an instance file is
    // that file's bad line, not a problem file).
    let rows: Vec<usize> = lines
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().count())
        .collect();
    let k = rows.first().copied().unwrap_or(0);
    // An oblong grid (2 lines of 4) makes one too, refused by [`parse`] for its shape.
    let square = rows.len() >= k && rows[..k].iter().all(|&r| r == k);
    let oblong = (2..=6).contains(&rows.len()) && rows.iter().all(|&r| r == k);
    one_word && (2..=6).contains(&k) && (square || oblong)
}

/// The blocks of non-blank lines, each with the number of its first line.
fn blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut out: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            open = false;
        } else if open {
            out.last_mut().expect("open").1.push(line);
        } else {
            out.push((i + 1, vec![line]));
            open = true;
        }
    }
    out
}

/// A grid of n lines of n numbers. An error names the line at fault: the one holding a
/// number out of range or repeated, and the grid's own range (0 to 8 on 3x3).
fn grid(first: usize, lines: &[&str]) -> Result<Board, CourseError> {
    let n = lines.len();
    let widths: Vec<usize> = lines.iter().map(|l| l.split_whitespace().count()).collect();
    if let Some(&m) = widths.first().filter(|&&m| m != n && (2..=6).contains(&m)) {
        if widths.iter().all(|&w| w == m) {
            return Err(bad(
                first,
                format!("a grid of {n} lines of {m} numbers, but the course's grids are square (n lines of n numbers); a {n}x{m} board is solved from an instance file: a `size: {n}x{m}` line, then the board (docs/formats.md)"),
            ));
        }
    }
    let shape = Shape::new(n, n).ok_or_else(|| bad(first, "a grid of 2 to 6 lines"))?;
    let cells = shape.cells();
    let mut tiles = Vec::new();
    let mut seen = vec![false; cells];
    for (i, line) in lines.iter().enumerate() {
        let row: Vec<u8> = line
            .split_whitespace()
            .map(|t| t.parse::<u8>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                bad(
                    first + i,
                    format!("numbers from 0 to {} expected", cells - 1),
                )
            })?;
        if row.len() != n {
            return Err(bad(
                first + i,
                format!("{} numbers, but the grid has {n} lines", row.len()),
            ));
        }
        for &t in &row {
            let error = if t as usize >= cells {
                // Checked a line at a time, before the grid's 0 is known to be missing.
                BoardError::OutOfRange {
                    value: t.to_string(),
                    max: cells - 1,
                    blank_missing: false,
                }
            } else if seen[t as usize] {
                BoardError::Repeated(t)
            } else {
                seen[t as usize] = true;
                continue;
            };
            return Err(bad(first + i, error.to_string()));
        }
        tiles.extend(row);
    }
    Board::new(shape, &tiles).map_err(|e| bad(first, e.to_string()))
}

/// Reads a problem file.
///
/// # Errors
/// A first line that is not a weight from 1 to 100, grids that are not n lines of n
/// numbers each holding every tile once, or other blocks than three.
pub fn parse(text: &str) -> Result<Problem, CourseError> {
    const SHAPE: &str =
        "a problem file is a weight, a blank line, the start grid, a blank line, the goal grid";
    let b = blocks(text);
    if let Some((first, _)) = b.first().filter(|(_, lines)| lines.len() > 1) {
        // The weight's block goes on: the blank line after it is missing.
        return Err(bad(
            first + 1,
            format!("a blank line must follow the weight ({SHAPE})"),
        ));
    }
    if let [_, (first, grids)] = &b[..] {
        if grids.len() % 2 == 0 && grids.len() >= 4 {
            // Two grids of as many lines, with no blank line between them.
            return Err(bad(
                first + grids.len() / 2,
                format!("a blank line must separate the start grid from the goal grid ({SHAPE})"),
            ));
        }
    }
    if b.len() != 3 {
        return Err(bad(b.get(3).map_or(1, |(line, _)| *line), SHAPE));
    }
    let weight_text = b[0].1[0].trim().to_string();
    let weight = weight_text
        .parse::<f64>()
        .ok()
        .and_then(Weight::from_factor)
        .ok_or_else(|| {
            let comma = if weight_text.contains(',') {
                " (with a decimal point: 1.2, not 1,2)"
            } else {
                ""
            };
            bad(
                b[0].0,
                format!("the weight W must be a number from 1 to 100{comma}"),
            )
        })?;
    let start = grid(b[1].0, &b[1].1)?;
    let goal = grid(b[2].0, &b[2].1)?;
    if start.shape() != goal.shape() {
        return Err(bad(b[2].0, "the goal grid has another size than the start"));
    }
    Ok(Problem {
        weight_text,
        weight,
        start,
        goal,
    })
}

/// A grid as the course writes it: rows of numbers separated by single spaces.
fn render(b: &Board) -> String {
    let cols = b.shape().cols as usize;
    b.tiles()
        .chunks(cols)
        .map(|r| {
            r.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// `f = g + W*h` as a decimal: exact for the weights [`Weight::from_factor`] makes (f64's
/// shortest form of `(W.g * g + W.h * h) / W.g`).
pub fn f_value(w: Weight, g: u32, h: u32) -> String {
    let num = w.g as u64 * g as u64 + w.h as u64 * h as u64;
    format!("{}", num as f64 / w.g as f64)
}

/// The report of `answer` (a search of `problem` with its weight).
pub fn report(problem: &Problem, answer: &Answer) -> String {
    let moves: Vec<String> = answer
        .moves
        .iter()
        .map(|d| d.letter().to_string())
        .collect();
    let f: Vec<String> = answer
        .path
        .iter()
        .map(|s| f_value(problem.weight, s.g, s.h))
        .collect();
    format!(
        "{}\n{}\n{}\n{}\n{}\n{}\n{}\n",
        render(&problem.start),
        render(&problem.goal),
        problem.weight_text,
        answer.moves.len(),
        answer.counts.generated,
        moves.join(" "),
        f.join(" ")
    )
}

/// A report read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The problem it answers.
    pub problem: Problem,
    /// The depth `d`.
    pub depth: u32,
    /// The nodes generated `N`.
    pub generated: u64,
    /// The moves.
    pub moves: Vec<Dir>,
    /// The `f` values, start to goal.
    pub f: Vec<f64>,
}

/// Reads a report (what [`report`] writes).
///
/// # Errors
/// Anything else than two grids and five lines.
pub fn read_report(text: &str) -> Result<Report, CourseError> {
    let b = blocks(text);
    if b.len() != 3 || b[2].1.len() < 3 {
        return Err(bad(
            1,
            "a report is two grids and the lines W, d, N, moves, f",
        ));
    }
    let (start, goal) = (grid(b[0].0, &b[0].1)?, grid(b[1].0, &b[1].1)?);
    let first = b[2].0;
    let lines = &b[2].1;
    let line = |i: usize| lines.get(i).map_or("", |l| l.trim());
    let weight_text = line(0).to_string();
    let weight = weight_text
        .parse::<f64>()
        .ok()
        .and_then(Weight::from_factor)
        .ok_or_else(|| bad(first, "the weight W"))?;
    let depth = line(1).parse().map_err(|_| bad(first + 1, "the depth d"))?;
    let generated = line(2).parse().map_err(|_| bad(first + 2, "the nodes N"))?;
    let moves = crate::board::parse_moves(&line(3).replace(' ', ""))
        .map_err(|_| bad(first + 3, "the moves, U D L R"))?;
    let f = line(4)
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| bad(first + 4, "the f values"))?;
    Ok(Report {
        problem: Problem {
            weight_text,
            weight,
            start,
            goal,
        },
        depth,
        generated,
        moves,
        f,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{Answer, Counts, Step};

    const FILE: &str = "1.2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n";

    #[test]
    fn a_problem_file_reads_and_its_report_reads_back() {
        assert!(is_problem(FILE));
        assert!(!is_problem("1 2 3 4 5 6 7 8 0\n"));
        assert!(!is_problem("# korf\n1 2 3 4 5 6 7 8 0\n"));
        let p = parse(FILE).unwrap();
        assert_eq!(p.weight, Weight { g: 5, h: 6 });
        assert_eq!(p.weight_text, "1.2");
        let answer = Answer {
            moves: vec![Dir::Down, Dir::Right],
            path: vec![
                Step { g: 0, h: 2 },
                Step { g: 1, h: 1 },
                Step { g: 2, h: 0 },
            ],
            counts: Counts {
                generated: 7,
                ..Counts::default()
            },
            optimal: false,
            bound: Some(1.2),
            millis: 0.0,
        };
        let text = report(&p, &answer);
        assert_eq!(
            text,
            "1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n\n1.2\n2\n7\nD R\n2.4 2.2 2\n"
        );
        let r = read_report(&text).unwrap();
        assert_eq!((r.problem, r.depth, r.generated), (p, 2, 7));
        assert_eq!(r.moves, answer.moves);
        assert_eq!(r.f, vec![2.4, 2.2, 2.0]);
    }

    #[test]
    fn a_mistyped_problem_file_is_one_and_its_error_names_the_line() {
        // What a slip leaves: a weight with a comma, no blank line after the weight, none
        // between the grids, a stray fourth block. Each is a problem file (not a batch of
        // the grids' rows read as boards), refused at its line.
        let cases = [
            (
                "1,2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n",
                "line 1: the weight",
            ),
            (
                "1\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n",
                "line 2: a blank line must follow",
            ),
            (
                "1\n\n1 2 3\n4 0 6\n7 5 8\n1 2 3\n4 5 6\n7 8 0\n",
                "line 6: a blank line must separate",
            ),
            (
                "1\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n\n9\n",
                "line 11: a problem file is",
            ),
            (
                "x\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n",
                "line 1: the weight",
            ),
        ];
        for (text, want) in cases {
            assert!(is_problem(text), "{text:?}");
            let e = parse(text).unwrap_err().to_string();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        // Instance files stay instance files, boards with commas too.
        for text in [
            "1,2,3,4,5,6,7,8,0\n",
            "goal: blank-first\n1 2 3 4 5 6 7 8 0\n",
            "size: 3x3\n1 2 3 4 5 6 7 8 0\n",
            "\n1 2 3 4 5 6 7 8 0\n",
            "a 2 1 2 3 4 5 6 0 7 8\n",
        ] {
            assert!(!is_problem(text), "{text:?}");
        }
        // A stray word atop an instance file is that file's bad line.
        assert!(!is_problem(
            "boards\n1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 0 7 8\n"
        ));
    }

    #[test]
    fn bad_problem_files_name_their_line() {
        let e = parse("0.5\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the weight W must be a number from 1 to 100"
        );
        let e = parse("1\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n")
            .unwrap_err();
        assert!(e.to_string().starts_with("line 7:"), "{e}");
        let e = parse("1\n\n1 2 3\n4 0 6\n7 5 x\n\n1 2 3\n4 5 6\n7 8 0\n").unwrap_err();
        assert!(e.to_string().starts_with("line 5:"), "{e}");
        // The line holding the bad number, and the range of this grid (not of 6x6's).
        let e = parse("1\n\n1 2 3\n4 _ 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n").unwrap_err();
        assert_eq!(e.to_string(), "line 4: numbers from 0 to 8 expected");
        let e = parse("1\n\n1 2 3\n4 9 6\n7 5 0\n\n1 2 3\n4 5 6\n7 8 0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4: the number 9 is out of range (0 to 8)"
        );
        let e = parse("1\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 2 0\n").unwrap_err();
        assert_eq!(e.to_string(), "line 9: the number 2 appears more than once");
    }

    #[test]
    fn an_oblong_grid_makes_a_problem_file_refused_for_its_shape() {
        for (text, line, shape) in [
            (
                "1\n\n7 2 0 1\n6 5 4 3\n\n1 2 3 4\n5 6 7 0\n",
                3,
                "2 lines of 4",
            ),
            ("1\n\n1 2 0\n3 4 5\n\n1 2 3\n4 5 0\n", 3, "2 lines of 3"),
            ("1.5\n\n1 2\n3 0\n4 5\n\n1 2\n3 4\n5 0\n", 3, "3 lines of 2"),
        ] {
            assert!(is_problem(text), "{text:?}");
            let e = parse(text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("line {line}: a grid of {shape} numbers")),
                "{e}"
            );
            assert!(e.contains("size: "), "{e}");
        }
    }
}
