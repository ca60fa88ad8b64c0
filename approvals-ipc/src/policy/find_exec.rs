//! The commands `find … -exec COMMAND ;` runs, read as commands of their
//! own (DESIGN.md section 6: a nested command line is analysed like any
//! other where it can be, as `find -exec` is).
//!
//! `find . -name '*.rs' -exec grep -l TODO {} +` runs grep: the policy
//! checks `grep -l TODO {}` as a segment of its own (allowlist, guards,
//! denylist), and find is then made to run the grep that was checked, by
//! its real path. `{}` stands for whatever find hands over, which can be
//! any file under the start point, VCS metadata included: it is checked as
//! `START/.git/{}`, so a command that writes or deletes through `{}`, or a
//! program with no spec that is given it, is asked, while one that reads it
//! (`grep`, `wc`, `head`) is allowed as it would be on any file.
//!
//! Only what can be vouched for is read this way; anything else stays
//! `find.runs-program` and is asked: `-execdir` (it runs in each match's
//! directory), `-ok`/`-okdir` (they ask on the terminal), a program that
//! runs other code (a shell, an interpreter, a wrapper), `{}` inside a
//! larger word or as an option's value, a program word with `{}` in it,
//! and a program that is a link to one of another name (what runs would
//! not be the name that was checked).

use crate::policy::programs;
use crate::policy::specs::{self, families::find::FIND, grammar};
use crate::policy::wrappers::basename;

/// How many (command line, start point) pairs are checked before the
/// whole find is asked instead.
const MAX_COMMANDS: usize = 8;

/// What find's `{}` becomes for the check, under each start point: a file
/// in the tree's VCS metadata, the worst one find can hand over.
const PLACEHOLDER: &str = ".git/{}";

/// One command find runs, as it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecCommand {
    /// The command's argv, `{}` replaced as [`PLACEHOLDER`] says.
    pub argv: Vec<String>,
    /// The index, in find's args (its argv without argv\[0\]), of the
    /// command's program word, which the plan rewrites to the real path.
    pub program_word: usize,
    /// The start point whose files `{}` stands for, as written.
    pub start: String,
    /// find follows links under the start point (`-L`, `-follow`), so `{}`
    /// may be a file wherever a link in the tree leads.
    pub follows_links: bool,
}

/// The commands find, run with `args`, runs, each once per start point; or
/// `None` when some command line cannot be checked as a command of its
/// own, so find's spec asks about it as before.
pub fn commands(args: &[String]) -> Option<Vec<ExecCommand>> {
    let reading = grammar::read(&FIND, args);
    if reading.problem.is_some() || reading.commands.is_empty() {
        return None;
    }
    // Start points read from a list the prompt does not show: what `{}`
    // may be cannot be checked (`find -files0-from list -exec cat {} +`).
    if reading
        .uses
        .iter()
        .any(|u| u.opt.names.contains(&"-files0-from"))
    {
        return None;
    }
    let roots: Vec<&str> = if reading.operands.is_empty() {
        vec!["."]
    } else {
        reading.operands.clone()
    };
    if reading.commands.len() * roots.len() > MAX_COMMANDS {
        return None;
    }
    let follows_links = reading
        .uses
        .iter()
        .any(|u| u.opt.names.iter().any(|n| matches!(*n, "-L" | "-follow")));
    let mut out = Vec::new();
    for line in &reading.commands {
        let words = args.get(line.words.clone())?;
        let (program, rest) = words.split_first()?;
        if line.predicate != "-exec"
            || program.is_empty()
            || program.contains("{}")
            || programs::runs_other_code(basename(program))
            || rest.iter().any(|w| w != "{}" && w.contains("{}"))
        {
            return None;
        }
        for root in &roots {
            let placeholder = format!("{}/{PLACEHOLDER}", root.trim_end_matches('/'));
            let argv: Vec<String> = words
                .iter()
                .map(|w| {
                    if w == "{}" {
                        placeholder.clone()
                    } else {
                        w.clone()
                    }
                })
                .collect();
            if !placeholders_are_operands(&argv, &placeholder) {
                return None;
            }
            out.push(ExecCommand {
                argv,
                program_word: line.words.start,
                start: (*root).to_owned(),
                follows_links,
            });
        }
    }
    Some(out)
}

/// Whether every `{}` of a command is one of its operands, as its spec
/// reads it: as an option's value (`git -C {}`, `make -f {}`) a file find
/// hands over would change where or what the program runs. A program with
/// no spec cannot say; its guard asks about the metadata path instead, as
/// the program's own check asks about an argv its spec cannot read.
fn placeholders_are_operands(argv: &[String], placeholder: &str) -> bool {
    let Some(spec) = argv.first().and_then(|w| specs::lookup(basename(w))) else {
        return true;
    };
    let args = &argv[1..];
    let reading = grammar::read(spec, args);
    if reading.problem.is_some() {
        // The command's own check asks, naming what it could not read.
        return true;
    }
    let given = args.iter().filter(|w| *w == placeholder).count();
    let as_operands = reading
        .operands
        .iter()
        .filter(|w| **w == placeholder)
        .count();
    given == as_operands
}

#[cfg(test)]
#[path = "find_exec/tests.rs"]
mod tests;
