//! Where a batch's instances come from: board arguments, a file or stdin, as one stream;
//! and, read ahead, whether the batch is shorter than the threads.

use std::io::{BufRead, IsTerminal};
use std::time::Duration;

use anyhow::{bail, Result};

use super::plan::Plan;
use crate::cli::input;
use crate::cluster::shard::Shard;
use crate::instances::Reader;
use crate::{GoalSpec, Shape};

/// The instances, as one stream whatever their source; and whether they came as arguments
/// only (then each is searched on all threads). A lone `-` means stdin. With `ahead`, a
/// file or stdin is read ahead, and its whole text given too when it is short and ends at
/// once (see [`input::read_ahead`]).
pub(super) fn sources(
    mut boards: Vec<String>,
    mut input: Option<String>,
    ahead: bool,
) -> Result<Sources> {
    if let Some(i) = boards.iter().position(|b| b == "-") {
        boards.remove(i);
        match &input {
            None => input = Some("-".into()),
            Some(i) if i == "-" => {}
            Some(file) => bail!(
                "both - (standard input) and -i {file} given: one input at a time; give one of them"
            ),
        }
    }
    if let (Some(file), false) = (&input, boards.is_empty()) {
        // Merged, the file's instances would get other ids and line numbers than its own.
        let other = match file.as_str() {
            "-" => "- (standard input)".to_string(),
            file => format!("-i {file}"),
        };
        bail!("both board arguments and {other} given: one input at a time; put the boards in the input, or give them without it");
    }
    let arguments_only = input.is_none() && !boards.is_empty();
    let mut sources: Vec<Box<dyn BufRead + Send>> = Vec::new();
    if !boards.is_empty() {
        // Read without comments, so that `"1 2 3 # top" "4 5 0"` are rows as without one.
        let bare: Vec<String> = boards.iter().map(|b| input::without_comments(b)).collect();
        let all_numbers = bare.iter().all(|b| input::one_number(b));
        let text = if all_numbers && boards.len() > 1 {
            input::board_argument(&bare.join(" ")) + "\n"
        } else if let Some(board) = input::rows_of_one_board(&bare) {
            input::board_argument(&board) + "\n"
        } else {
            if let Some(why) =
                (boards.iter().enumerate()).find_map(|(i, b)| input::file_not_board(i + 1, b))
            {
                bail!("{why}");
            }
            // One board per argument; a grid argument becomes one line.
            let lines: Vec<String> = boards.iter().map(|b| input::board_argument(b)).collect();
            lines.join("\n") + "\n"
        };
        sources.push(Box::new(std::io::Cursor::new(text)));
    }
    if input.is_none() && boards.is_empty() {
        if std::io::stdin().is_terminal() {
            bail!("no boards given: pass a board (\"1 2 3 ...\"), -i FILE, or - for stdin");
        }
        input = Some("-".into());
    }
    let mut whole = None;
    if let Some(path) = &input {
        if ahead && !(path == "-" && std::io::stdin().is_terminal()) {
            let read = input::read_ahead(path, "an instance file", AHEAD_BYTES, AHEAD_WAIT)?;
            whole = read.whole;
            sources.push(read.reader);
        } else {
            sources.push(input::open(path, "an instance file")?);
        }
    }
    let chained = sources
        .into_iter()
        .reduce(|a, b| Box::new(std::io::Read::chain(a, b)) as Box<dyn BufRead + Send>)
        .expect("at least one source");
    Ok(Sources {
        reader: chained,
        arguments_only,
        whole,
    })
}

/// What [`sources`] found: the instances' text as one stream, whether it came as board
/// arguments only, and the whole input when it was read ahead to its end.
pub(super) struct Sources {
    pub reader: Box<dyn BufRead + Send>,
    pub arguments_only: bool,
    pub whole: Option<Vec<u8>>,
}

/// How much of a batch's input is read ahead to count its instances, and how long a pipe
/// is waited for: a pipe that is still open after that (a producer still at work, or one
/// waiting for each answer) is a batch of unknown size.
const AHEAD_BYTES: usize = 64 << 10;
const AHEAD_WAIT: Duration = Duration::from_millis(300);

/// Whether a batch whose whole text is `whole` has fewer instances (of this shard) than
/// there are threads: then it is searched one instance at a time on every thread, as
/// board arguments are, rather than leaving threads idle.
pub(super) fn fewer_than_threads(whole: Option<&[u8]>, plan: &Plan) -> bool {
    whole.is_some_and(|text| {
        instances_in(text, &plan.goal, plan.size, plan.shard) < plan.threads as u64
    })
}

/// The instances (bad lines included) a batch of this text solves, in this shard.
fn instances_in(text: &[u8], goal: &GoalSpec, size: Option<Shape>, shard: Option<Shard>) -> u64 {
    let n = Reader::new(text, goal.clone()).with_size(size).count() as u64;
    shard.map_or(n, |s| s.items_of(n))
}

#[cfg(test)]
mod tests {
    use super::instances_in;
    use crate::cluster::shard::Shard;
    use crate::GoalSpec;

    #[test]
    fn a_batch_counts_its_instances_in_its_shard() {
        let text = b"# two boards\ngoal: standard\n8 6 7 2 5 4 3 0 1\n\n1 2 3 4 5 6 7 0 8\n";
        assert_eq!(instances_in(text, &GoalSpec::Standard, None, None), 2);
        assert_eq!(
            instances_in(b"# none\n", &GoalSpec::Standard, None, None),
            0
        );
        // A bad line is an instance too (its error is its result).
        assert_eq!(
            instances_in(b"1 2 3\n1 2 3 0\n", &GoalSpec::Standard, None, None),
            2
        );
        let half: Shard = "2/2".parse().unwrap();
        assert_eq!(instances_in(text, &GoalSpec::Standard, None, Some(half)), 1);
    }
}
