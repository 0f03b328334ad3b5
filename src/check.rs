//! Replaying solutions: does a move string take a board to its goal, and in how many moves?
//!
//! This is what lets a user trust a solver's output without trusting the solver: any
//! solver's, ours included. It reads the JSON Lines that `fifteen solve --format json`
//! prints, one line at a time, so a results file of any length is checked in constant
//! memory and one bad line never stops the rest.

use std::io::BufRead;

use serde_json::Value;

use crate::board::{parse_moves, Board, Dir, Goal, Shape};
use crate::error::BoardError;
use crate::instances::lines::ByteLines;
use crate::instances::GoalSpec;
use crate::record::Record;
use crate::search::Weight;

/// Why a solution, or a results line, could not be checked. Each message is one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The blank would leave the board: the move string is not a solution of this board.
    #[error("move {number} ({}) slides the blank off the board", .dir.letter())]
    IllegalMove {
        /// 1-based position in the move string.
        number: usize,
        /// The offending move.
        dir: Dir,
    },
    /// Every move is legal but the last board is not the goal. Says where the moves end,
    /// as `fifteen check` does, so that a caller can see how far they got.
    #[error("does not reach the goal: {} at {end}", moves_end(*.length))]
    NotReached {
        /// How many moves were replayed (all of them).
        length: usize,
        /// The board they end on.
        end: Board,
    },
    /// A board, goal or move string that does not parse, or a goal of another size.
    #[error("{0}")]
    Board(#[from] BoardError),
    /// A results line that does not parse as JSON; holds the parser's message, with the
    /// column where it failed.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// A line that is no JSON but reads as an instance (a board, or `ID LEN` and a board),
    /// as in the instance file given to `solve` instead of its output.
    #[error("a board, not a result: check what `fifteen solve --format json` prints for it, or give one board with --moves")]
    NotAResult,
    /// A results line whose bytes are not UTF-8 (the lines after it are still checked).
    #[error("not valid UTF-8")]
    NotUtf8,
    /// A results line that is JSON but not an object (an array, a number ...).
    #[error("not a JSON object")]
    NotAnObject,
    /// A results line without a field a check needs (`tiles` or `moves`); holds its name.
    #[error("no \"{0}\" field")]
    MissingField(&'static str),
    /// A results line field of the wrong type, or whose value makes no board, size or goal.
    #[error("the \"{field}\" field {reason}")]
    BadField {
        /// The field's name (a path such as `tiles[3]` when the fault is inside it).
        field: String,
        /// What is wrong with it, worded to follow the field's name in a sentence.
        reason: String,
    },
    /// The line is the solver saying it failed: there is no solution to check.
    #[error("no solution to check: the line reports an error: {0}")]
    Reported(String),
    /// A results line whose fields contradict one another: a length below its own
    /// `lower_bound`, a record called optimal beside the `bound` or `weight` of a weighted
    /// search, an `ok` that is not what its `known` length says (see [`contradiction`]).
    #[error("the \"{field}\" field {reason}")]
    Contradiction {
        /// The field at fault.
        field: &'static str,
        /// How it contradicts the others, worded to follow the field's name in a sentence.
        reason: String,
    },
    /// A solution read back from a file that is shorter than a proven lower bound, or longer
    /// than the bound it claims to meet: the file is damaged or not what it says.
    #[error("{length} moves, but {why}")]
    Unproven {
        /// The replayed length.
        length: usize,
        /// Which bound it breaks, worded to follow "but".
        why: String,
    },
}

/// Where a replay ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Moves made (all of them: a replay that ends does so at the end of the string).
    pub length: usize,
    /// The board after the last move.
    pub end: Board,
    /// Whether `end` is the goal: the moves are a solution (not necessarily an optimal one).
    pub reaches_goal: bool,
}

/// Plays `moves` from `board`.
///
/// # Errors
/// A goal of another shape, or a move that slides the blank off the board.
pub fn replay(board: &Board, goal: &Goal, moves: &[Dir]) -> Result<Replay, CheckError> {
    if board.shape() != goal.shape() {
        return Err(BoardError::GoalSize {
            board: board.shape().cells(),
            goal: goal.shape().cells(),
        }
        .into());
    }
    let end = board
        .apply_all(moves)
        .map_err(|i| CheckError::IllegalMove {
            number: i + 1,
            dir: moves[i],
        })?;
    Ok(Replay {
        length: moves.len(),
        end,
        reaches_goal: end == *goal.board(),
    })
}

/// Replays `moves` from `board`: `Ok(length)` if every move is legal and the goal is
/// reached.
///
/// This checks a solution, not its optimality: any path to the goal passes.
///
/// # Errors
/// As [`replay`], and [`CheckError::NotReached`] when the moves end elsewhere.
///
/// # Examples
/// ```
/// use fifteen::board::parse_moves;
/// use fifteen::check::{check_solution, CheckError};
/// use fifteen::{Board, Dir, Goal};
///
/// let board = Board::parse("1 2 3 4 0 6 7 5 8").unwrap();
/// let goal = Goal::standard(board.shape());
/// assert_eq!(check_solution(&board, &goal, &parse_moves("DR").unwrap()), Ok(2));
/// let err = check_solution(&board, &goal, &[Dir::Down]).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "does not reach the goal: the 1 move ends at 1 2 3 4 5 6 7 0 8"
/// );
/// assert_eq!(
///     check_solution(&board, &goal, &parse_moves("DD").unwrap()),
///     Err(CheckError::IllegalMove { number: 2, dir: Dir::Down })
/// );
/// ```
pub fn check_solution(board: &Board, goal: &Goal, moves: &[Dir]) -> Result<usize, CheckError> {
    let r = replay(board, goal, moves)?;
    if r.reaches_goal {
        Ok(r.length)
    } else {
        Err(CheckError::NotReached {
            length: r.length,
            end: r.end,
        })
    }
}

/// The first board that `moves` from `board` stand on twice: `(i, j)`, the board after move
/// `i` (0: the start) again after move `j`. A path that comes back to a board is no
/// shortest path, so a solution said to be optimal never has one: this catches an answer
/// made longer by a detour (`RL`, or any loop), which replaying it to the goal does not.
///
/// # Examples
/// ```
/// use fifteen::board::parse_moves;
/// use fifteen::check::first_repeat;
/// use fifteen::Board;
///
/// let board = Board::parse("1 2 3 4 5 6 7 0 8")?;
/// assert_eq!(first_repeat(&board, &parse_moves("R").unwrap()), None);
/// assert_eq!(first_repeat(&board, &parse_moves("LRR").unwrap()), Some((0, 2)));
/// # Ok::<(), fifteen::BoardError>(())
/// ```
pub fn first_repeat(board: &Board, moves: &[Dir]) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashMap::with_capacity(moves.len() + 1);
    seen.insert(*board, 0);
    let mut b = *board;
    for (j, &d) in moves.iter().enumerate() {
        b = b.apply(d)?;
        if let Some(&i) = seen.get(&b) {
            return Some((i, j + 1));
        }
        seen.insert(b, j + 1);
    }
    None
}

/// `the 1 move ends`, `the 2 moves end`: where moves that miss the goal end, as the
/// messages say it.
pub(crate) fn moves_end(n: usize) -> String {
    if n == 1 {
        "the 1 move ends".to_string()
    } else {
        format!("the {n} moves end")
    }
}

/// The Manhattan distance of `board` from `goal`: a lower bound on every solution's length
/// that needs no tables. Boards of another shape give 0.
pub fn manhattan(board: &Board, goal: &Goal) -> u32 {
    let shape = board.shape();
    if shape != goal.shape() {
        return 0;
    }
    let mut home = vec![0usize; shape.cells()];
    for (cell, &t) in goal.board().tiles().iter().enumerate() {
        home[t as usize] = cell;
    }
    board
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| shape.distance(cell, home[t as usize]) as u32)
        .sum()
}

/// The one gate for every answer that comes from a file (a solved checkpoint, a split
/// part, a resumed or merged result) before it is printed: the moves are replayed from
/// `board` and must reach `goal`, and their number must lie between `lower_bound` (a bound
/// proven by this run: a table's estimate, an exhausted threshold) and `at_most` (the
/// bound the file claims to meet: the threshold it was found under, or, for an answer
/// called optimal, the file's own lower bound), and, with `at_most`, they must never stand
/// on a board twice ([`first_repeat`]). A file is believed only as far as this
/// run can check it: a damaged length or threshold that the checksum missed still cannot
/// make a solution that does not reach the goal, or is longer than claimed, be printed.
///
/// # Errors
/// As [`check_solution`], and [`CheckError::Unproven`] when the length breaks a bound.
pub fn vouch(
    board: &Board,
    goal: &Goal,
    moves: &[Dir],
    lower_bound: u32,
    at_most: Option<u32>,
) -> Result<usize, CheckError> {
    let length = check_solution(board, goal, moves)?;
    let lower = lower_bound.max(manhattan(board, goal));
    if (length as u64) < u64::from(lower) {
        return Err(CheckError::Unproven {
            length,
            why: format!("no solution is shorter than {lower}"),
        });
    }
    if let Some(most) = at_most.filter(|&m| length as u64 > u64::from(m)) {
        return Err(CheckError::Unproven {
            length,
            why: format!("the file claims at most {most}"),
        });
    }
    // An answer held to a bound it claims is claimed optimal (found under its threshold,
    // or beside its lower bound): no optimal path stands on a board twice.
    if let Some((first, again)) = at_most.and(first_repeat(board, moves)) {
        return Err(CheckError::Unproven {
            length,
            why: format!(
                "they stand on the board after move {first} again after move {again}, and \
                 without the moves between a solution is shorter"
            ),
        });
    }
    Ok(length)
}

/// One results line, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct LineCheck {
    /// 1-based line number in the input.
    pub line: usize,
    /// The line's `id`, as it was written (number or string), if it had one.
    pub id: Option<Value>,
    /// The `length` the line claims, if it has one.
    pub claimed: Option<u64>,
    /// The replay of the line's moves, or why there was none.
    pub result: Result<Replay, CheckError>,
}

impl LineCheck {
    /// Whether the replayed length equals the claimed one (`None`: nothing to compare).
    pub fn length_matches(&self) -> Option<bool> {
        match (&self.result, self.claimed) {
            (Ok(r), Some(c)) => Some(r.length as u64 == c),
            _ => None,
        }
    }

    /// The line checks out: its moves are legal, reach the goal, and are as many as it
    /// claims.
    pub fn passed(&self) -> bool {
        matches!(&self.result, Ok(r) if r.reaches_goal) && self.length_matches() != Some(false)
    }
}

/// Whether a line that is no JSON reads as an instance line: at least four numbers, or
/// an id and then numbers (`ID LEN` may be `?`), separated by spaces or commas.
fn looks_like_an_instance(text: &str) -> bool {
    let tokens: Vec<&str> = (text.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty())
        .collect();
    let number = |t: &&str| t.parse::<u64>().is_ok();
    let rest = match tokens.iter().position(|t| !number(t)) {
        None => &tokens[..],
        // `ID LEN tiles...`: any id, then a length or `?`.
        Some(0) if tokens.get(1).is_some_and(|t| number(t) || *t == "?") => &tokens[2..],
        Some(_) => return false,
    };
    rest.len() >= 4 && rest.iter().all(number)
}

/// Checks one line of `fifteen solve --format json` output (`id`, `tiles`, `goal`,
/// `length`, `moves`; other fields are ignored). `default_goal` serves lines without a
/// `goal`; a non-square board needs a `size` field ("3x4"), as 12 numbers do not say
/// which rectangle they fill.
///
/// Returns `None` for lines that hold no result: blank ones, `bench`'s closing
/// `{"summary": ...}`, and the header and end lines of a `--output` results file
/// (`{"batch": ...}`, `{"batch_end": ...}`).
pub fn check_json_line(text: &str, line: usize, default_goal: &GoalSpec) -> Option<LineCheck> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let mut out = LineCheck {
        line,
        id: None,
        claimed: None,
        result: Err(CheckError::NotAnObject),
    };
    let obj = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(obj)) => obj,
        Ok(_) => return Some(out),
        Err(_) if looks_like_an_instance(text) => {
            out.result = Err(CheckError::NotAResult);
            return Some(out);
        }
        Err(e) => {
            // The position is within this one line, so only the column says anything.
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let what = full.strip_suffix(&suffix).unwrap_or(&full);
            out.result = Err(CheckError::NotJson(format!(
                "{what} at column {}",
                e.column()
            )));
            return Some(out);
        }
    };
    // `bench`'s summary, and a results file's header and end line (`crate::cluster::results`).
    let not_results = [
        "summary",
        crate::cluster::results::HEADER_KEY,
        crate::cluster::results::END_KEY,
    ];
    if obj.len() == 1 && not_results.iter().any(|k| obj.contains_key(*k)) {
        return None;
    }
    out.id = obj.get("id").cloned();
    let record: Record = match serde_path_to_error::deserialize(Value::Object(obj)) {
        Ok(r) => r,
        Err(e) => {
            out.result = Err(CheckError::BadField {
                field: e.path().to_string(),
                reason: format!("is not valid: {}", e.into_inner()),
            });
            return Some(out);
        }
    };
    out.result = (|| {
        if let Some(e) = &record.error {
            return Err(CheckError::Reported(e.clone()));
        }
        out.claimed = record.length;
        let (board, goal) = board_and_goal(&record, default_goal)?;
        let moves = record
            .moves
            .as_deref()
            .ok_or(CheckError::MissingField("moves"))?;
        let moves = parse_moves(moves).map_err(|e| CheckError::BadField {
            field: "moves".into(),
            reason: format!("is refused: {e}"),
        })?;
        let r = replay(&board, &goal, &moves)?;
        // A solution that reaches the goal in the length it claims is held to what its
        // record says of it. A claimed length the moves do not give fails for that first
        // (`LineCheck::length_matches`), whatever else the fields say.
        let length = record.length.unwrap_or(r.length as u64);
        if r.reaches_goal && length == r.length as u64 {
            if let Some(e) = contradiction(&record, length) {
                return Err(e);
            }
            let proven = record.optimal == Some(true) || record.lower_bound == Some(length);
            if let Some((first, again)) = proven.then(|| first_repeat(&board, &moves)).flatten() {
                let at = match first {
                    0 => "at the start".to_string(),
                    i => format!("after move {i}"),
                };
                return Err(CheckError::Contradiction {
                    field: "moves",
                    reason: format!(
                        "pass the same board {at} and after move {again}: leaving out the \
                         moves between gives a shorter solution, but the length is said to \
                         be optimal"
                    ),
                });
            }
        }
        Ok(r)
    })();
    Some(out)
}

/// Whether a `bound` or `weight` is that of a weighted search: above 1 once rounded down to
/// a multiple of 1/1000, as the search rounds it (`--weight 1.0004` is the optimal search).
fn weighted(factor: f64) -> bool {
    factor > 1.0 && Weight::from_factor(factor.min(100.0)).is_none_or(|w| !w.is_one())
}

/// Whether a solution of `length` moves agrees with the known optimal length `known`: the
/// same, or, for a weighted search, no shorter and at most `weight` times it
/// (docs/formats.md, the `ok` field).
pub fn length_agrees(known: u64, length: u64, weight: Weight) -> bool {
    known == length
        || (!weight.is_one()
            && known < length
            && u128::from(length) * u128::from(weight.g)
                <= u128::from(known) * u128::from(weight.h))
}

/// The first way a record's fields contradict one another, `length` being its length (the
/// `length` field, or the number of its moves without one); `None` when they agree. This
/// is no search: it holds the record to its own word, as docs/formats.md defines the
/// fields ("check --format json" lists the contradictions):
///
/// - `lower_bound` above the length: a solution of that length proves the optimum is at
///   most it;
/// - `bound` below 1: no solution is shorter than the optimum; `weight` below 1: no search
///   takes one;
/// - `optimal` true beside a `bound` or a `weight` above 1 (rounded down to a multiple of
///   1/1000, as searches round them), or beside `algorithm` `dfs` or `greedy`: those
///   searches prove no optimality;
/// - `optimal` true beside a `lower_bound` below the length: an optimal length is its own
///   lower bound;
/// - `optimal` true beside a `known` that is not the length, with no `ok` to say so;
/// - `ok` true beside a length below `known`, whatever the search;
/// - `ok` that is not what the `known` length says of the length, by the rule of the
///   record's search (optimal: equal; `algorithm` not optimal: at least; weighted: between
///   it and `bound` times it).
pub fn contradiction(record: &Record, length: u64) -> Option<CheckError> {
    let bad =
        |field: &'static str, reason: String| Some(CheckError::Contradiction { field, reason });
    if let Some(lb) = record.lower_bound.filter(|&lb| lb > length) {
        return bad(
            "lower_bound",
            format!(
                "is {lb}, above the length {length}: a solution of {length} moves proves \
                 that the optimum is at most {length}"
            ),
        );
    }
    if let Some(b) = record.bound.filter(|&b| b < 1.0) {
        return bad(
            "bound",
            format!("is {b}, below 1: no solution is shorter than the optimum"),
        );
    }
    if let Some(w) = record.weight.filter(|&w| w < 1.0) {
        return bad(
            "weight",
            format!("is {w}, below 1: a weight is 1 (the optimal search) or more"),
        );
    }
    if record.optimal == Some(true) {
        let weighted_search = "a weighted search's, whose lengths are not proven optimal";
        if let Some(b) = record.bound.filter(|&b| weighted(b)) {
            return bad(
                "bound",
                format!("is {b}, {weighted_search}, but \"optimal\" is true"),
            );
        }
        if let Some(w) = record.weight.filter(|&w| weighted(w)) {
            return bad(
                "weight",
                format!("is {w}, {weighted_search}, but \"optimal\" is true"),
            );
        }
        if let Some(a) = record
            .algorithm
            .as_deref()
            .filter(|a| a.eq_ignore_ascii_case("dfs") || a.eq_ignore_ascii_case("greedy"))
        {
            return bad(
                "optimal",
                format!("is true, but the \"algorithm\" {a} proves no optimality"),
            );
        }
        if let Some(lb) = record.lower_bound.filter(|&lb| lb < length) {
            return bad(
                "lower_bound",
                format!(
                    "is {lb}, below the length {length}, but \"optimal\" is true: an \
                     optimal length is its own lower bound"
                ),
            );
        }
        if let Some(known) = record.known.filter(|&k| k != length && record.ok.is_none()) {
            return bad(
                "optimal",
                format!(
                    "is true, but the length {length} is not the \"known\" optimum {known}, \
                     and no \"ok\" says they disagree"
                ),
            );
        }
    }
    if let (Some(known), Some(true)) = (record.known, record.ok) {
        // Under every search's rule: a solution shorter than the optimum is no agreement.
        if length < known {
            return bad(
                "ok",
                format!(
                    "is true, but the length {length} is below the \"known\" {known}: a \
                     solution of {length} moves proves the optimum is at most {length}"
                ),
            );
        }
    }
    if let (Some(known), Some(ok)) = (record.known, record.ok) {
        let agrees = match (record.optimal, record.algorithm.is_some(), record.bound) {
            (Some(true), _, _) => Some(known == length),
            (Some(false), true, _) => Some(known <= length),
            (Some(false), false, Some(b)) => {
                Weight::from_factor(b.min(100.0)).map(|w| length_agrees(known, length, w))
            }
            _ => None,
        };
        if let Some(agrees) = agrees.filter(|&a| a != ok) {
            let rule = match (record.optimal, record.algorithm.is_some()) {
                (Some(true), _) => "an optimal length must equal it".to_string(),
                (_, true) => "a length not proven optimal must be at least it".to_string(),
                _ => format!(
                    "a weighted length must lie between it and {} times it",
                    record.bound.unwrap_or(1.0)
                ),
            };
            return bad(
                "ok",
                format!(
                    "is {ok}, but the length {length} {} the \"known\" {known} ({rule})",
                    if agrees {
                        "agrees with"
                    } else {
                        "does not agree with"
                    }
                ),
            );
        }
    }
    None
}

/// The line's board and the goal it is to reach.
fn board_and_goal(record: &Record, default_goal: &GoalSpec) -> Result<(Board, Goal), CheckError> {
    let tiles = record
        .tiles
        .as_ref()
        .ok_or(CheckError::MissingField("tiles"))?;
    let shape = match &record.size {
        None => Shape::square_of(tiles.len()).ok_or_else(|| CheckError::BadField {
            field: "tiles".into(),
            reason: format!(
                "has {} numbers, not a square board (give 4, 9, 16, 25 or 36, or a \
                 \"size\" field such as \"3x4\")",
                tiles.len()
            ),
        })?,
        Some(v) => Shape::parse(v).ok_or_else(|| CheckError::BadField {
            field: "size".into(),
            reason: format!("is {v:?}, not a size such as \"4\" or \"3x4\""),
        })?,
    };
    let board = Board::from_values(shape, tiles)?;
    let goal =
        match &record.goal {
            Some(g) => Goal::from_board(Board::from_values(shape, g).map_err(|e| {
                CheckError::BadField {
                    field: "goal".into(),
                    reason: format!("does not fit the board: {e}"),
                }
            })?),
            None => default_goal.for_shape(shape)?,
        };
    Ok((board, goal))
}

/// The most bytes of one results line. Far beyond any real record (a 6x6 board and a
/// long weighted solution take a few kilobytes); it only keeps input without line breaks
/// from taking memory without end.
pub const MAX_RESULT_LINE_BYTES: usize = 16 << 20;

/// Checks a results stream line by line, as an iterator of [`LineCheck`]s.
///
/// Lines are read as bytes: one that is not UTF-8 or is too long is that line's error, not
/// the end of the stream. A UTF-8 byte-order mark starting the input (or a line) is skipped.
pub struct Lines<R> {
    lines: ByteLines<R>,
    goal: GoalSpec,
    io_error: Option<std::io::Error>,
}

impl<R: BufRead> Lines<R> {
    /// `goal` serves lines that do not say theirs.
    pub fn new(input: R, goal: GoalSpec) -> Lines<R> {
        Lines {
            lines: ByteLines::new(input, MAX_RESULT_LINE_BYTES, None),
            goal,
            io_error: None,
        }
    }

    /// The read error that ended the iteration early, if any.
    pub fn take_io_error(&mut self) -> Option<std::io::Error> {
        self.io_error.take()
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = LineCheck;

    fn next(&mut self) -> Option<LineCheck> {
        loop {
            let line = match self.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(e) => {
                    self.io_error = Some(e);
                    return None;
                }
            };
            if line.problem == Some(BoardError::Binary) {
                // A binary file (a compressed one, a program) ends the check with one error,
                // not a failure a line.
                self.io_error = Some(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "line {} is binary data, not text: give a results file (JSON Lines \
                         as `fifteen solve --format json` prints; a compressed file? \
                         decompress it first)",
                        line.no
                    ),
                ));
                return None;
            }
            if let Some(problem) = line.problem {
                return Some(LineCheck {
                    line: line.no,
                    id: None,
                    claimed: None,
                    result: Err(match problem {
                        BoardError::NotUtf8 => CheckError::NotUtf8,
                        other => CheckError::Board(other),
                    }),
                });
            }
            if let Some(c) = check_json_line(&line.text, line.no, &self.goal) {
                return Some(c);
            }
        }
    }
}

#[cfg(test)]
mod tests;
