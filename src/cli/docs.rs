//! Shell completions and manual pages, generated from the clap definitions at run time, so
//! that they always describe the options of the binary that prints them (as ripgrep, fd
//! and hyperfine ship theirs).

use anyhow::{bail, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use super::output::emit;

/// Arguments of `fifteen completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    shell: Shell,
}

/// Arguments of `fifteen man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// A command (solve, bench, ...) for its own page, fifteen-COMMAND(1); none for
    /// fifteen(1). The steps of `split` and `tables` have pages of their own: `split
    /// frontier` (or `split-frontier`), `tables verify` ...
    command: Vec<String>,
}

/// `fifteen completions SHELL`.
pub fn run_completions<C: CommandFactory>(a: CompletionsArgs) -> Result<i32> {
    completions::<C>(a.shell, "fifteen")?;
    Ok(0)
}

/// `fifteen man [COMMAND]`.
pub fn run_man<C: CommandFactory>(a: ManArgs) -> Result<i32> {
    let words: Vec<&str> = a
        .command
        .iter()
        .flat_map(|w| w.split_whitespace())
        .collect();
    man::<C>(&words)?;
    Ok(0)
}

/// Writes `C`'s completion script for `shell` to stdout, for the binary called `bin`.
pub fn completions<C: CommandFactory>(shell: Shell, bin: &str) -> Result<()> {
    let mut cmd = C::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, bin, &mut script);
    emit(&mut std::io::stdout(), &String::from_utf8_lossy(&script))
}

/// Writes `C`'s manual page (roff) to stdout; with `path`, the page of that subcommand
/// (`["split", "frontier"]`; a word may join two levels, as the page's name does:
/// `split-frontier`).
pub fn man<C: CommandFactory>(path: &[&str]) -> Result<()> {
    let mut cmd = C::command().disable_help_subcommand(true);
    // Building names the subcommands `fifteen-solve` ... and brings in global options.
    cmd.build();
    let source = format!(
        "{} {}",
        cmd.get_name(),
        cmd.get_version().unwrap_or_default()
    );
    let mut page = cmd;
    let mut words: Vec<String> = path.iter().map(|w| w.to_string()).collect();
    words.reverse();
    while let Some(word) = words.pop() {
        // A page name such as `split-frontier` names a command and its step.
        let found = match word.split_once('-') {
            Some((head, rest)) if page.find_subcommand(&word).is_none() => {
                words.push(rest.to_string());
                page.find_subcommand(head)
            }
            _ => page.find_subcommand(&word),
        };
        page = match found {
            Some(s) => s.clone(),
            None => {
                let names: Vec<&str> = page.get_subcommands().map(|s| s.get_name()).collect();
                if names.is_empty() {
                    bail!("'{}' has no command '{word}' of its own", page.get_name());
                }
                bail!("no command '{word}' (give one of: {})", names.join(", "))
            }
        };
    }
    let mut roff = Vec::new();
    clap_mangen::Man::new(page)
        .source(source)
        .render(&mut roff)?;
    emit(&mut std::io::stdout(), &String::from_utf8_lossy(&roff))
}
