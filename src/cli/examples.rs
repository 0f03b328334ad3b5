//! Each command's examples, shown in its long help (`--help`) and manual page before its
//! exit statuses. One table, so that a test can parse every example against the command
//! line it teaches: an option renamed or a value out of range fails that test, not a reader.

/// The examples of the command at `path` (`["solve"]`, `["split", "search"]`; `[]` for
/// `fifteen` itself, whose examples are in its doc comment), each a command line and what
/// it does. Commands of a pipe are separated by ` | `; files named are the reader's own.
pub fn examples(path: &[&str]) -> &'static [(&'static str, &'static str)] {
    match path {
        ["solve"] => &[
            ("fifteen solve \"8 6 7 2 5 4 3 0 1\"", "one board: its length and moves"),
            (
                "fifteen solve --steps \"1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12\"",
                "every board on the way, with g, h and f",
            ),
            (
                "fifteen solve -i boards.txt --format json -o results.jsonl",
                "a file, one JSON record a line, resumed if run again",
            ),
            (
                "fifteen random --count 100 --seed 1 | fifteen solve - --format json",
                "boards on standard input",
            ),
            (
                "fifteen solve --weight 1.5 --goal korf \"15 11 13 12 14 10 9 5 2 6 8 1 3 7 4 0\"",
                "fast, at most 1.5 times optimal",
            ),
            (
                "fifteen solve --goal blank-first --size 3x4 \"1 2 3 0 4 5 6 7 8 9 10 11\"",
                "another goal and shape",
            ),
            (
                "fifteen solve --algorithm astar --heuristic manhattan \"8 6 7 2 5 4 3 0 1\"",
                "a course's A*, with exact node counts",
            ),
            (
                "fifteen solve -i boards.txt --shard 2/4 -o part2.jsonl",
                "the second of four tasks (then fifteen merge)",
            ),
            (
                "fifteen solve --checkpoint hard.ckpt --goal korf \"15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0\"",
                "a long search that resumes where it stopped",
            ),
        ],
        ["bench"] => &[
            ("fifteen bench data/korf100.txt", "the Korf 100, each length checked"),
            (
                "fifteen bench data/korf100.txt --threads 1 --format json",
                "one thread, one JSON record an instance and a summary",
            ),
            (
                "fifteen bench data/korf24.txt --timeout 600 --checkpoints ckpt",
                "the 24-puzzle set, 10 minutes each, resumable",
            ),
        ],
        ["compare"] => &[
            ("fifteen compare \"8 6 7 2 5 4 3 0 1\"", "every search and estimate, a row each"),
            (
                "fifteen compare --max-nodes 100000 --format json \"1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12\"",
                "a 4x4 board under a node limit, rows as JSON",
            ),
        ],
        ["random"] => &[
            ("fifteen random --count 5 --seed 1", "five 4x4 boards, the same every run"),
            (
                "fifteen random --size 3x4 --count 100 --ids --seed 7",
                "instance lines (ID ? tiles) of a 3x4 board",
            ),
            ("fifteen random --walk 30 --count 10", "boards 30 random moves from the goal"),
        ],
        ["merge"] => &[(
            "fifteen merge part1.jsonl part2.jsonl part3.jsonl part4.jsonl -o results.jsonl",
            "four shards' results into one, in input order",
        )],
        ["check"] => &[
            ("fifteen check \"1 2 3 4 5 6 0 7 8\" --moves RR", "does RR solve this board?"),
            (
                "fifteen solve -i boards.txt --format json | fifteen check -",
                "replay every answer of a run",
            ),
            ("fifteen check results.jsonl --format json", "a results file, a verdict a line"),
        ],
        ["play"] => &[
            ("fifteen play", "a random 4x4 board"),
            ("fifteen play --size 3 --seed 2", "a 3x3 board, the same every time"),
            ("fifteen play \"8 6 7 2 5 4 3 0 1\"", "this board"),
        ],
        ["tables"] | ["tables", "list"] => &[
            ("fifteen tables list", "the tables found, with their sizes"),
            ("fifteen tables list --format json", "the same, one JSON object a table"),
        ],
        ["tables", "verify"] => &[(
            "fifteen tables verify",
            "check every table's checksum (reads them all)",
        )],
        ["split"] | ["split", "frontier"] => &[(
            "fifteen split frontier --depth 8 --goal korf -o frontier.json \"15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0\"",
            "the subtrees at depth 8, and the first threshold",
        )],
        ["split", "search"] => &[(
            "fifteen split search frontier.json --threshold 68 --part 3/16 -o t68/part3.json",
            "part 3 of 16 of the iteration at 68",
        )],
        ["split", "reduce"] => &[(
            "fifteen split reduce t68/part*.json",
            "the iteration's answer, or the next threshold",
        )],
        ["completions"] => &[(
            "fifteen completions bash > ~/.local/share/bash-completion/completions/fifteen",
            "tab completion in bash",
        )],
        ["man"] => &[
            ("fifteen man | man -l -", "read fifteen(1)"),
            ("fifteen man solve > fifteen-solve.1", "fifteen-solve(1), to install"),
        ],
        _ => &[],
    }
}

/// The examples of the command at `path` as a paragraph of its long help ("" when none).
pub fn help_text(path: &[&str]) -> String {
    let rows = examples(path);
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from("Examples:\n");
    for (line, what) in rows {
        s += &format!("  {line}\n      {what}\n");
    }
    s
}

/// The examples of the command at `path` as a manual page's `EXAMPLES` section (roff; ""
/// when none).
pub fn roff(path: &[&str]) -> String {
    let rows = examples(path);
    if rows.is_empty() {
        return String::new();
    }
    let escape = |t: &str| t.replace('\\', "\\\\").replace('-', "\\-");
    let mut s = String::from(".SH EXAMPLES\n");
    for (line, what) in rows {
        s += &format!(".TP\n\\fB{}\\fR\n{}\n", escape(line), escape(what));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The words of one command line as a shell splits them (double quotes only, as the
    /// examples use), the redirection and what follows it left out.
    fn words(line: &str) -> Vec<String> {
        let line = line.split(" > ").next().unwrap();
        let mut words = Vec::new();
        let mut word = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                _ => word.push(c),
            }
        }
        assert!(!quoted, "{line}");
        words.extend((!word.is_empty()).then_some(word));
        words
    }

    #[test]
    fn every_example_parses_as_the_command_it_teaches() {
        let mut seen = 0;
        let mut paths = vec![vec![]];
        let root = super::super::Cli::command();
        for sub in root.get_subcommands() {
            paths.push(vec![sub.get_name().to_string()]);
            for step in sub.get_subcommands() {
                paths.push(vec![
                    sub.get_name().to_string(),
                    step.get_name().to_string(),
                ]);
            }
        }
        for path in &paths {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            for (line, _) in examples(&path) {
                for command in line.split(" | ").filter(|c| c.starts_with("fifteen ")) {
                    let words = words(command);
                    let parsed = super::super::Cli::command().try_get_matches_from(&words);
                    assert!(parsed.is_ok(), "{command}: {}", parsed.unwrap_err());
                }
                // The example runs the command it is shown under.
                let runs_it = line.split(" | ").any(|command| {
                    let words = words(command);
                    words.len() > path.len() && words[1..=path.len()] == path[..]
                });
                assert!(runs_it, "{line}");
                seen += 1;
            }
        }
        assert!(seen >= 25, "{seen} examples");
        for path in [&["solve"][..], &["bench"], &["check"], &["split", "search"]] {
            assert!(help_text(path).starts_with("Examples:\n  fifteen "));
            assert!(roff(path).starts_with(".SH EXAMPLES\n.TP\n\\fBfifteen "));
        }
    }
}
