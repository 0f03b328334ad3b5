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
    let mut cmd = super::exit_status::command::<C>();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, bin, &mut script);
    emit(&mut std::io::stdout(), &String::from_utf8_lossy(&script))
}

/// Writes `C`'s manual page (roff) to stdout; with `path`, the page of that subcommand
/// (`["split", "frontier"]`; a word may join two levels, as the page's name does:
/// `split-frontier`).
pub fn man<C: CommandFactory>(path: &[&str]) -> Result<()> {
    let mut cmd = super::exit_status::command::<C>().disable_help_subcommand(true);
    // Building names the subcommands `fifteen-solve` ... and brings in global options.
    cmd.build();
    let source = format!(
        "{} {}",
        cmd.get_name(),
        cmd.get_version().unwrap_or_default()
    );
    // The page's place among the commands, for its exit statuses (`build-pdb` is a root
    // of its own).
    let mut at: Vec<String> = match cmd.get_name() {
        "fifteen" => vec![],
        name => vec![name.to_string()],
    };
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
            Some(s) => {
                at.push(s.get_name().to_string());
                s.clone()
            }
            None => {
                let names: Vec<&str> = page.get_subcommands().map(|s| s.get_name()).collect();
                if names.is_empty() {
                    bail!("'{}' has no command '{word}' of its own", page.get_name());
                }
                bail!("no command '{word}' (give one of: {})", names.join(", "))
            }
        };
    }
    // The page as `Man::render` writes it, but for the long help's closing paragraphs (the
    // examples and exit statuses, which it would put in an `EXTRA` section): they get
    // sections of their own, where man pages have them, before the version.
    // The manual's name closes the `.TH` line, which would otherwise end in a space.
    let man = clap_mangen::Man::new(page.after_long_help(None::<&'static str>))
        .source(source)
        .manual("User Commands");
    let mut roff = Vec::new();
    man.render(&mut roff)?;
    let mut roff = String::from_utf8_lossy(&roff).into_owned();
    let at: Vec<&str> = at.iter().map(String::as_str).collect();
    let section = super::examples::roff(&at) + &super::exit_status::roff(&at);
    match roff.find("\n.SH VERSION") {
        Some(i) => roff.insert_str(i + 1, &section),
        None => roff.push_str(&section),
    }
    emit(&mut std::io::stdout(), &roff)
}
