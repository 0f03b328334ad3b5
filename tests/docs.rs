//! The documentation's examples, run. Every ```` ```console ```` block of README.md,
//! CONTRIBUTING.md and docs/*.md is a shell session: each `$ ` line is run by bash (pipes,
//! redirections and files made by earlier lines included) and what it prints (stdout and
//! stderr together) must be the lines shown under it, so a changed behaviour fails here until
//! the docs change with it. CONTRIBUTING.md, "The documentation's examples", gives the rules;
//! in short:
//!
//! - each file runs in a fresh temporary directory, its blocks in order, with `fifteen` and
//!   `build-pdb` of this build first on `PATH`, `FIFTEEN_TABLES` in that directory, and
//!   `data/` and `slurm/` of the repository linked into it; the path `/tmp/docs` in a
//!   command stands for that directory, and the directory is shown as `/tmp/docs` in the
//!   output;
//! - every command runs on one core (its CPU affinity), so that a board given as an
//!   argument is searched by the serial search, whose node counts are exact: on several
//!   cores the last iteration is split between threads, each stopping at its own first
//!   solution, and that count varies from run to run;
//! - a line `...` alone stands for any number of lines, `[..]` for any text within a line
//!   (times, sizes that vary); everything else is compared exactly, trailing blanks aside;
//! - a command that exits with a status other than 0 must be followed by `$ echo $?`, which
//!   shows the status;
//! - a `$ ` line outside a console block is an error: a shown output is a checked output.
//!   Commands that need the full 4x4 or 5x5 tables, or cargo, go in ```` ```sh ```` blocks
//!   without prompts.

use std::fmt::Write as _;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One `$ ` line and the output shown under it.
struct Step {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// One console block: its steps run in one bash process.
struct Block {
    line: usize,
    steps: Vec<Step>,
}

/// The files whose examples are run, relative to the repository.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The console blocks of a Markdown text; an error for a prompt outside one.
fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    // The open fence: its backtick count and line; a console block being read.
    let mut fence: Option<(usize, usize)> = None;
    let mut current: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let trimmed = raw.trim();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        if ticks >= 3 {
            let info = &trimmed[ticks..];
            match fence {
                // An opening fence's info string has no backtick (CommonMark).
                None if !info.contains('`') => {
                    if info.trim() == "console" {
                        current = Some(Block {
                            line: n,
                            steps: Vec::new(),
                        });
                    }
                    fence = Some((ticks, n));
                    continue;
                }
                Some((open, _)) if info.is_empty() && ticks >= open => {
                    fence = None;
                    if let Some(b) = current.take() {
                        if b.steps.is_empty() {
                            return Err(format!("line {}: a console block without `$ `", b.line));
                        }
                        out.push(b);
                    }
                    continue;
                }
                _ => {}
            }
        }
        let Some((_, opened)) = &fence else { continue };
        match current.as_mut() {
            Some(b) => {
                if let Some(cmd) = raw.strip_prefix("$ ") {
                    b.steps.push(Step {
                        line: n,
                        command: cmd.to_string(),
                        expected: Vec::new(),
                    });
                } else if let Some(s) = b.steps.last_mut() {
                    s.expected.push(raw.to_string());
                } else {
                    return Err(format!("line {n}: output before the block's first `$ `"));
                }
            }
            None if raw.starts_with("$ ") => {
                return Err(format!(
                    "line {n}: a `$ ` prompt in the block opened at line {opened} that is not \
                     ```console: shown output must be checked (or drop the prompt)"
                ))
            }
            None => {}
        }
    }
    if let Some((_, opened)) = fence {
        return Err(format!("line {opened}: a code block that is never closed"));
    }
    Ok(out)
}

/// Whether `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &line[first.len()..];
    if !rest.ends_with(last) {
        return false;
    }
    rest = &rest[..rest.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `lines` match `pattern`, where a line `...` stands for any number of lines.
fn lines_match(pattern: &[String], lines: &[&str]) -> bool {
    match pattern.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p.trim() == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((p, rest)) => {
            !lines.is_empty() && line_matches(p, lines[0]) && lines_match(rest, &lines[1..])
        }
    }
}

/// Where shown and printed lines first part, when it is before any `...` line.
fn first_difference(expected: &[String], actual: &[&str]) -> String {
    for (i, e) in expected.iter().enumerate() {
        if e.trim() == "..." {
            return String::new();
        }
        match actual.get(i) {
            Some(a) if line_matches(e, a) => {}
            Some(a) => return format!(" (line {} shows `{e}`, printed `{a}`)", i + 1),
            None => return format!(" (line {} shows `{e}`, nothing printed)", i + 1),
        }
    }
    format!(" (printed {} lines more)", actual.len() - expected.len())
}

/// Trailing blanks off every line, trailing empty lines off the end.
fn tidy(lines: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = lines.map(|l| l.trim_end().to_string()).collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// Where the documented examples find their programs: `fifteen` and `build-pdb`, the two
/// binaries of this package, which cargo builds side by side for this test.
struct Programs {
    bin_dir: PathBuf,
}

fn programs() -> Programs {
    let fifteen = Path::new(env!("CARGO_BIN_EXE_fifteen"));
    let build_pdb = Path::new(env!("CARGO_BIN_EXE_build-pdb"));
    let bin_dir = fifteen.parent().unwrap().to_path_buf();
    assert_eq!(
        build_pdb.parent(),
        Some(bin_dir.as_path()),
        "the two binaries apart"
    );
    Programs { bin_dir }
}

const MARK: char = '\u{1e}';
/// What the directory of a file's run is called in its commands and its shown output.
const SHOWN_DIR: &str = "/tmp/docs";

/// The `k`-th CPU (cyclically) of those this process may run on.
fn one_cpu(k: usize) -> usize {
    // SAFETY: a zeroed cpu_set_t is a valid empty set, filled in by the call.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a cpu_set_t of `size` bytes that the call writes into.
    if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
        return 0;
    }
    let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
        // SAFETY: CPU_ISSET reads bit `c` of the set, c below CPU_SETSIZE.
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect();
    if cpus.is_empty() {
        0
    } else {
        cpus[k % cpus.len()]
    }
}

/// Runs one block in `dir` on CPU `cpu`; the mismatches, described, or nothing.
fn run_block(file: &str, block: &Block, dir: &Path, progs: &Programs, cpu: usize) -> Vec<String> {
    let real = dir.to_str().unwrap();
    let mut script = String::from("exec 2>&1\n__status=0\n");
    for (i, step) in block.steps.iter().enumerate() {
        let command = step.command.replace(SHOWN_DIR, real);
        writeln!(
            script,
            "printf '{MARK}%d %d{MARK}\\n' {i} $__status; ( exit $__status ); {command}\n\
             __status=$?"
        )
        .unwrap();
    }
    writeln!(script, "printf '{MARK}end %d{MARK}\\n' $__status").unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![progs.bin_dir.clone()];
    paths.extend(std::env::split_paths(&path));
    let mut command = Command::new("timeout");
    // SAFETY: sched_setaffinity is async-signal-safe; the set is built before the fork.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `cpu` came from the process's own set, so it is below CPU_SETSIZE.
    unsafe { libc::CPU_SET(cpu, &mut set) };
    // SAFETY: the closure only calls sched_setaffinity, which is async-signal-safe, on a
    // set built before the fork.
    unsafe {
        command.pre_exec(move || {
            let size = std::mem::size_of::<libc::cpu_set_t>();
            if libc::sched_setaffinity(0, size, &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command
        .args(["120", "bash", "-c", &script])
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).unwrap())
        .env("FIFTEEN_TABLES", dir.join("tables"))
        .env("HOME", dir.join("home"))
        .env_remove("XDG_DATA_HOME")
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run bash");
    let text = String::from_utf8_lossy(&out.stdout).replace(real, SHOWN_DIR);
    // Pieces: "" before the first mark, then "HEADER" and "OUTPUT" alternately.
    let pieces: Vec<&str> = text.split(MARK).collect();
    let mut outputs: Vec<&str> = Vec::new();
    let mut statuses: Vec<i32> = Vec::new();
    let mut k = 1;
    while k + 1 < pieces.len() {
        let header = pieces[k];
        let status: i32 = header.rsplit(' ').next().unwrap().parse().unwrap_or(-1);
        if k > 1 {
            statuses.push(status);
        }
        let body = pieces[k + 1].strip_prefix('\n').unwrap_or(pieces[k + 1]);
        if !header.starts_with("end") {
            outputs.push(body);
        }
        k += 2;
    }
    let mut problems = Vec::new();
    if outputs.len() != block.steps.len() || statuses.len() != block.steps.len() {
        problems.push(format!(
            "{file}:{}: the block did not run to its end (timed out, or bash failed):\n{text}{}",
            block.line,
            String::from_utf8_lossy(&out.stderr)
        ));
        return problems;
    }
    for (i, step) in block.steps.iter().enumerate() {
        let actual = tidy(outputs[i].lines().map(str::to_string));
        let expected = tidy(step.expected.iter().cloned());
        let refs: Vec<&str> = actual.iter().map(String::as_str).collect();
        if !lines_match(&expected, &refs) {
            problems.push(format!(
                "{file}:{}: `$ {}` printed something else{}.\n--- shown\n{}\n--- printed\n{}\n",
                step.line,
                step.command,
                first_difference(&expected, &refs),
                expected.join("\n"),
                actual.join("\n")
            ));
        }
        let next_shows_status = block
            .steps
            .get(i + 1)
            .is_some_and(|s| s.command.trim() == "echo $?");
        if statuses[i] != 0 && !next_shows_status {
            problems.push(format!(
                "{file}:{}: `$ {}` exited with status {}; follow it with `$ echo $?` to show it",
                step.line, step.command, statuses[i]
            ));
        }
    }
    problems
}

/// Runs every block of one file, in order, in one fresh directory.
fn run_file(root: &Path, path: &Path, progs: &Programs, cpu: usize) -> Vec<String> {
    let name = path.strip_prefix(root).unwrap().display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let blocks = match blocks(&text) {
        Ok(b) => b,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["data", "slurm"] {
        std::os::unix::fs::symlink(root.join(dir), tmp.path().join(dir)).unwrap();
    }
    let mut problems = Vec::new();
    for block in &blocks {
        problems.extend(run_block(&name, block, tmp.path(), progs, cpu));
    }
    problems
}

#[test]
fn documented_examples_print_what_the_docs_show() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let usable = Command::new("bash")
        .args(["-c", "timeout 5 true"])
        .status()
        .is_ok_and(|s| s.success());
    if !usable {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "bash and timeout are needed to run the documentation's examples"
        );
        eprintln!("skipped: bash or timeout (coreutils) is missing");
        return;
    }
    let progs = programs();
    let files = documents(&root);
    let problems: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let (root, progs) = (&root, &progs);
                s.spawn(move || run_file(root, f, progs, one_cpu(k)))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        problems.is_empty(),
        "{} documented example(s) do not print what the docs show:\n\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_document_has_run_examples() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0;
    for f in documents(&root) {
        let text = std::fs::read_to_string(&f).unwrap();
        let steps: usize = blocks(&text)
            .unwrap_or_default()
            .iter()
            .map(|b| b.steps.len())
            .sum();
        total += steps;
    }
    assert!(total >= 40, "only {total} documented commands are run");
}

#[test]
fn the_matcher_compares_exactly_outside_its_wildcards() {
    let p = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(line_matches("time [..] ms", "time 0.1 ms"));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]b[..]c", "a1c2b"));
    assert!(!line_matches("length 31 (optimal)", "length 30 (optimal)"));
    assert!(!line_matches("nodes [..] 59", "nodes 1 58"));
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&p(&["a", "...", "z"]), &["a", "b"]));
    assert!(!lines_match(&p(&["a", "b"]), &["a", "b", "c"]));
    let md = "```console\n$ echo hi\nhi\n```\n\n```sh\nfifteen bench data/korf100.txt\n```\n";
    let b = blocks(md).unwrap();
    assert_eq!((b.len(), b[0].steps[0].expected.len()), (1, 1));
    assert!(blocks("```sh\n$ fifteen solve 1\n```\n").is_err());
}

/// The statuses each command's `--help` lists (its "Exit status:" lines).
fn help_statuses(program: &str, command: &[&str]) -> Vec<u32> {
    let out = Command::new(program)
        .args(command)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{program} {command:?} --help");
    let help = String::from_utf8(out.stdout).unwrap();
    let (_, tail) = help
        .split_once("Exit status:\n")
        .unwrap_or_else(|| panic!("{program} {command:?} --help lists no exit status"));
    tail.lines()
        .map_while(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

/// docs/formats.md's "Exit status" table and the statuses each command's `--help` lists
/// (from `src/cli/exit_status.rs`) name the same statuses, command by command: the table is
/// the contract, and the help must not promise another.
#[test]
fn the_exit_status_table_is_what_each_help_lists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("docs/formats.md")).unwrap();
    let (_, section) = text.split_once("\n## Exit status\n").unwrap();
    let rows: Vec<Vec<&str>> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect()
        })
        .collect();
    let header = &rows[0];
    assert_eq!(header[0], "status", "{header:?}");
    let mut checked = 0;
    for (col, heading) in header.iter().enumerate().skip(1) {
        let listed: Vec<u32> = rows[2..]
            .iter()
            .filter(|r| !r[col].is_empty())
            .map(|r| r[0].parse().unwrap())
            .collect();
        for name in heading.split(", ") {
            let name = name.trim_matches('`');
            let help = match name {
                "build-pdb" => help_statuses(env!("CARGO_BIN_EXE_build-pdb"), &[]),
                _ => help_statuses(env!("CARGO_BIN_EXE_fifteen"), &[name]),
            };
            assert_eq!(help, listed, "`{name}`: its --help against docs/formats.md");
            checked += 1;
        }
    }
    // solve, bench, check, merge, tables, build-pdb.
    assert_eq!(checked, 6);
}
