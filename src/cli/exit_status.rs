//! Every command's exit statuses, as docs/formats.md's "Exit status" lists them: one table
//! here, added to each command's long help (`--help`) and manual page (`fifteen man`), so
//! that no command's help restates them by hand.

use clap::Command;

/// 130 and 143, as every command but `play` and `build-pdb` says them.
const STOPPED: [(u8, &str); 2] = [
    (
        130,
        "stopped by Ctrl-C (SIGINT); what was printed stays printed",
    ),
    (143, "stopped by SIGTERM, as by Ctrl-C"),
];

/// The statuses of the command at `path` (`["solve"]`, `["split", "search"]`; `[]` for
/// `fifteen` itself), each with what it means there. `build-pdb` is `["build-pdb"]`.
pub fn statuses(path: &[&str]) -> Vec<(u8, &'static str)> {
    let mut rows: Vec<(u8, &'static str)> = match path {
        [] => vec![
            (0, "all done: every instance solved, every result checks, every table is good"),
            (1, "some instance failed, a bench length did not match, a result does not check, a table is bad"),
            (2, "usage errors, unreadable input, unusable tables, a file that does not fit"),
        ],
        ["solve", ..] => vec![
            (0, "every instance solved"),
            (1, "some instance failed (a board that cannot be read included, given as an argument or in a file)"),
            (2, "usage errors (a file given as a board argument, without -i, among them), unreadable input, unusable tables, a results file or checkpoint that does not fit (another job, damaged, not ours), output or a checkpoint that could not be written (the answers printed all the same)"),
            (130, "stopped by Ctrl-C: the lines already printed are complete, the results of the first instances of the input, in order"),
            (143, "stopped by SIGTERM, as by Ctrl-C (--checkpoint: the checkpoint saved)"),
        ],
        ["bench", ..] => vec![
            (0, "every instance solved and every known length matched"),
            (1, "some instance failed (a line of the file that cannot be read included), or a length did not match its known one"),
            (2, "usage errors, unreadable input, unusable tables, a results file or a checkpoint in --checkpoints DIR that does not fit (another job, damaged, not ours), output or a checkpoint that could not be written (the answers printed all the same)"),
            (130, "stopped by Ctrl-C: the lines already printed are complete, the results of the first instances of the input, in order"),
            (143, "stopped by SIGTERM, as by Ctrl-C (--checkpoints: each stopped search saved)"),
        ],
        ["check", ..] => vec![
            (0, "every result checks"),
            (1, "some result does not check"),
            (2, "usage errors, unreadable input"),
        ],
        ["merge", ..] => vec![
            (0, "every result checks"),
            (1, "some result does not check (each is named on stderr), or a bench record's length differs from its known one"),
            (2, "usage errors, unreadable input, a set of files that is not every shard of one batch, complete, or an output that is one of them or not a merge's own"),
        ],
        ["tables", ..] => vec![
            (0, "every table is good"),
            (1, "some table is bad"),
            (2, "usage errors, a directory that cannot be read"),
        ],
        ["split", ..] => vec![
            (0, "the step succeeded"),
            (1, "split search --timeout ran out (no part file written)"),
            (2, "usage errors, files that do not fit (missing parts, another search)"),
        ],
        ["random" | "compare", ..] => vec![(0, "done"), (2, "usage errors")],
        ["play", ..] => {
            return vec![
                (0, "the game was quit"),
                (2, "usage errors (no terminal, a board that does not fit)"),
                (129, "the terminal hung up (SIGHUP, or its input closed under nohup)"),
                (130, "stopped by SIGINT, the terminal restored first"),
                (143, "stopped by SIGTERM, the terminal restored first"),
            ]
        }
        ["completions" | "man" | "help", ..] => {
            return vec![(0, "printed"), (2, "usage errors, output that cannot be written")]
        }
        ["build-pdb", ..] => {
            let rows = vec![
                (0, "the tables are there"),
                (1, "an error (one line on stderr): a bad table in the way, a build that does not fit in memory"),
                (2, "usage errors: an option out of its range, a partition that is not one or whose tables would be too large; a --help, --man or --completions page that could not be written"),
                (130, "stopped by Ctrl-C, no partial table left"),
                (143, "stopped by SIGTERM, no partial table left"),
            ];
            return with_hang_up(rows, HUNG_UP);
        }
        _ => vec![(0, "done"), (1, "failed"), (2, "usage errors")],
    };
    if !rows.iter().any(|&(s, _)| s == 130) {
        rows.extend(STOPPED);
    }
    with_hang_up(rows, HUNG_UP)
}

/// 129, as every command but `play` says it.
const HUNG_UP: &str = "stopped by SIGHUP (the terminal closed, the ssh session dropped), as by \
                       SIGTERM; not when started by nohup, which leaves it ignored";

/// `rows` with 129 among them, before 130.
fn with_hang_up(mut rows: Vec<(u8, &'static str)>, what: &'static str) -> Vec<(u8, &'static str)> {
    let at = rows
        .iter()
        .position(|&(s, _)| s > 129)
        .unwrap_or(rows.len());
    rows.insert(at, (129, what));
    rows
}

/// What every command adds: a failed write is never exit status 0.
const FAILED_WRITE: &str = "A failed write (a full disk; a closed pipe aside, which ends the \
                            program quietly) is an error, never exit status 0.";

/// The exit statuses of the command at `path` as the paragraph that ends its `--help`.
pub fn help_text(path: &[&str]) -> String {
    let mut s = String::from("Exit status:\n");
    for (status, what) in statuses(path) {
        s += &format!("  {status:<4} {what}\n");
    }
    s + "  " + FAILED_WRITE
}

/// The exit statuses of the command at `path` as a manual page's `EXIT STATUS` section
/// (roff).
pub fn roff(path: &[&str]) -> String {
    let escape = |t: &str| t.replace('\\', "\\\\").replace('-', "\\-");
    let mut s = String::from(".SH \"EXIT STATUS\"\n");
    for (status, what) in statuses(path) {
        s += &format!(".TP\n\\fB{status}\\fR\n{}\n", escape(what));
    }
    s + ".PP\n" + &escape(FAILED_WRITE) + "\n"
}

/// `C`'s command with every command's exit statuses in its long help: what the command line
/// parses, and what its manual pages and completions are made from.
pub fn command<C: clap::CommandFactory>() -> Command {
    let cmd = C::command();
    let name = cmd.get_name().to_string();
    let root: Vec<&str> = if name == "fifteen" {
        vec![]
    } else {
        vec![&name]
    };
    add_to_help(cmd, &root)
}

/// `cmd` with every command's examples and exit statuses at the end of its long help
/// (`--help`; `-h` stays short). `root` is the path of `cmd` itself (`[]` for `fifteen`, `["build-pdb"]`).
pub fn add_to_help(cmd: Command, root: &[&str]) -> Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.after_long_help(super::examples::help_text(root) + "\n" + &help_text(root));
    for name in &names {
        let mut path = root.to_vec();
        path.push(name);
        cmd = cmd.mut_subcommand(name, |s| add_to_help(s, &path));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_usage_errors_and_the_signals() {
        for path in [
            &[][..],
            &["solve"],
            &["bench"],
            &["check"],
            &["merge"],
            &["tables", "verify"],
            &["split", "reduce"],
            &["random"],
            &["compare"],
            &["play"],
            &["build-pdb"],
        ] {
            let rows = statuses(path);
            for status in [0, 2, 129, 130, 143] {
                assert!(rows.iter().any(|&(s, _)| s == status), "{path:?} {status}");
            }
            let text = help_text(path);
            assert!(text.starts_with("Exit status:\n  0    "), "{text}");
            assert!(roff(path).starts_with(".SH \"EXIT STATUS\"\n.TP\n\\fB0\\fR\n"));
        }
    }
}
