//! Argument guards: escalate an allowlisted command to *ask* when its
//! arguments make the program run something else.
//!
//! Allowlisting `/usr/bin/git` trusts git, not `git -c core.pager=sh`. This
//! module decides, from argv alone, whether a known program is being told to
//! run inline code, code on stdin, another program, a script file the prompt
//! does not show, to write or upload files, or to switch to a project
//! outside the working directory. Plain use is never guarded. When the
//! arguments cannot be understood (an unparsable sed script), it guards.
//! Long options match any prefix of a guarded name (GNU abbreviation); short
//! clusters are read letter by letter. Upholds DESIGN.md section 6 (Argument
//! guards) and invariant 3.
//!
//! Layout, one way: `types` (the shapes of the data) ← `table` (the data)
//! and `parse` (argv as the program reads it) ← `scripts` (inspections) ←
//! this module, which runs the table's guards.

pub(crate) mod parse;
pub(crate) mod scripts;
mod table;
mod types;
mod unknown;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod git_tests;

#[cfg(test)]
mod dev_tools_tests;

#[cfg(test)]
mod h29_tests;
#[cfg(test)]
mod h30_tests;

use std::path::Path;

use crate::policy::programs::{self, Kind};
use crate::policy::specs;
use parse::{Invocation, OptName};
use types::{Guard, Layout, ProgramSpec, Queries, Trigger};

/// One guard that fired: which, and why in words a human can judge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GuardHit {
    /// Stable id, `family.construct` (`git.config-override`).
    pub id: &'static str,
    /// What was found and why it matters, naming the flag or construct.
    pub reason: String,
}

/// The reasons of `hits`, each once, in order: a spec and an older guard
/// may say the same thing about one option (`git -c core.pager=…`), and a
/// person reads it once wherever the reasons are shown.
pub fn distinct_reasons(hits: &[GuardHit]) -> Vec<&str> {
    let mut reasons: Vec<&str> = Vec::with_capacity(hits.len());
    for hit in hits {
        if !reasons.contains(&hit.reason.as_str()) {
            reasons.push(&hit.reason);
        }
    }
    reasons
}

/// A first argument `+/abs/dir` of rustup or a rustup proxy: rustup reads
/// a toolchain selector with a `/` as a toolchain directory and runs the
/// program of that name in its `bin/` (`cargo +/tmp/x build` runs
/// `/tmp/x/bin/cargo`; tried with rustup 1.29), so it is no inert
/// selector but a program at a chosen path.
fn path_toolchain<'a>(program: &str, argv: &'a [String]) -> Option<&'a str> {
    let first = argv.get(1)?;
    (first.starts_with('+') && first.contains('/') && programs::has(program, Kind::RustupProxy))
        .then_some(first.as_str())
}

/// The hit for [`path_toolchain`].
fn path_toolchain_hit(program: &str, selector: &str) -> GuardHit {
    GuardHit {
        id: "rustup.path-toolchain",
        reason: format!(
            "{program} {selector}: a toolchain by path runs the program of this name in that directory's bin/, which is not resolved as checked"
        ),
    }
}

/// The guards `argv` trips. `program` is the basename of the resolved real
/// path or of argv[0]; `argv` includes argv[0]; `stdin_is_input` says stdin
/// carries data (a pipe or a heredoc). Unknown programs trip nothing.
pub fn check(program: &str, argv: &[String], cwd: &Path, stdin_is_input: bool) -> Vec<GuardHit> {
    check_words(program, argv, cwd, stdin_is_input).0
}

/// [`check`], with the words of `argv` its spec read as subcommand names,
/// which the program never opens as files ([`specs::check_reading`]).
pub fn check_words<'a>(
    program: &str,
    argv: &'a [String],
    cwd: &Path,
    stdin_is_input: bool,
) -> (Vec<GuardHit>, Vec<&'a str>) {
    let args = argv.get(1..).unwrap_or(&[]);
    // A multi-call binary that runs its first operand as the program
    // (`busybox awk …`), from the programs table.
    let (program, args) = if programs::has(program, Kind::AppletRunner) {
        match args.split_first() {
            Some((applet, rest)) => (applet.as_str(), rest),
            None => return (Vec::new(), Vec::new()),
        }
    } else {
        // `cargo +nightly --config …` is `cargo --config …`: the toolchain
        // selector of a rustup proxy must not hide what follows it.
        (program, programs::without_toolchain(program, args))
    };
    // The program's spec reads argv as the program does: unknown options
    // and subcommands ask, and each option's effect decides.
    let spec_hits = specs::check_reading(program, args, cwd);
    // A spec knows which paths the program writes; anything else may
    // write any path it is given.
    let known = spec_hits.is_some();
    let (mut hits, subcommands) = spec_hits.unwrap_or_default();
    if let Some(path) = path_toolchain(program, argv) {
        hits.push(path_toolchain_hit(program, path));
    }
    // Nothing here knows what this program does with a path.
    if !known {
        hits.extend(unknown::check(program, args, cwd));
        // `pylint ARGS` runs as `python -m pylint ARGS` does.
        hits.extend(specs::module_script_hits(program, args, cwd));
    }
    let Some(spec) = table::program_spec(program) else {
        // An interpreter of the programs table with no guard family reads
        // its code from stdin when it is given no script (`… | tclsh`).
        if stdin_is_input
            && programs::has(program, Kind::CodeOnStdin)
            && args.iter().all(|a| a.starts_with('-'))
        {
            hits.push(GuardHit {
                id: "interpreter.code-on-stdin",
                reason: format!("{program}: runs code read from stdin"),
            });
        }
        return (hits, subcommands);
    };
    let inv = Invocation::parse(spec, args, cwd, stdin_is_input);
    for guard in table::guards_of(spec.family) {
        if let Some(detail) = fire(guard, &inv) {
            let reason = if detail.is_empty() {
                format!("{program}: {}", guard.reason)
            } else {
                format!("{program} {detail}: {}", guard.reason)
            };
            tracing::debug!(guard = guard.id, %reason, "argument guard");
            hits.push(GuardHit {
                id: guard.id,
                reason,
            });
        }
    }
    (hits, subcommands)
}

/// `Some(what was found)` when `guard` fires on `inv`.
fn fire(guard: &Guard, inv: &Invocation<'_>) -> Option<String> {
    match guard.trigger {
        Trigger::Always => Some(String::new()),
        Trigger::Opt(names) => inv
            .global_opts()
            .find(|o| o.name.is_of(inv.spec, names))
            .map(|o| o.shown()),
        Trigger::OptOutsideCwd(names) => inv
            .global_opts()
            .filter(|o| o.name.is_of(inv.spec, names))
            .find(|o| {
                o.value
                    .is_some_and(|v| is_url(v) || parse::outside(inv.cwd, v))
            })
            .map(|o| match o.value {
                Some(v) if is_url(v) => format!("{} (a URL)", o.shown()),
                _ => format!("{} (outside the working directory)", o.shown()),
            }),
        Trigger::OptPathsOutsideCwd(names) => inv
            .global_opts()
            .filter(|o| o.name.is_of(inv.spec, names))
            .find(|o| {
                o.value.is_some_and(|v| {
                    v.split(',')
                        .map(|part| part.rsplit_once('=').map_or(part, |(_, path)| path))
                        .any(|path| !path.is_empty() && parse::outside(inv.cwd, path))
                })
            })
            .map(|o| format!("{} (outside the working directory)", o.shown())),
        Trigger::OptWritesFile(names) => inv
            .global_opts()
            .find(|o| {
                o.name.is_of(inv.spec, names) && !o.value.is_some_and(parse::is_output_stream)
            })
            .map(|o| o.shown()),
        Trigger::RewritesOperandOutsideCwd(turned_on_by) => rewrites_outside(turned_on_by, inv),
        Trigger::OptValueIs(names, values) => inv
            .global_opts()
            .find(|o| o.name.is_of(inv.spec, names) && o.value.is_some_and(|v| values.contains(&v)))
            .map(|o| o.shown()),
        Trigger::OptValueIsNot(names, values) => inv
            .global_opts()
            .find(|o| {
                o.name.is_of(inv.spec, names) && !o.value.is_some_and(|v| values.contains(&v))
            })
            .map(|o| o.shown()),
        Trigger::SubOpt(subs, names) => {
            let sub = inv.subcommand?;
            if !subs.is_empty() && !subs.contains(&sub) {
                return None;
            }
            inv.sub_opts
                .iter()
                .find(|o| o.name.is_of(inv.spec, names))
                .map(|o| format!("{sub} {}", o.shown()))
        }
        Trigger::Subcommand(subs) => inv
            .subcommand
            .filter(|s| subs.contains(s))
            .map(str::to_owned),
        Trigger::Word(words) => inv
            .args
            .iter()
            .find(|a| words.contains(&a.as_str()))
            .map(|a| a.to_owned()),
        Trigger::WordAfter(first, then) => {
            let start = inv.args.iter().position(|a| first.contains(&a.as_str()))?;
            inv.args
                .get(start + 1..)?
                .iter()
                .find(|a| then.contains(&a.as_str()))
                .map(|a| format!("{} {a}", inv.args[start]))
        }
        Trigger::UnlessQuery(queries) => not_a_query(queries, inv),
        Trigger::CodeOnStdin => code_on_stdin(inv),
        Trigger::Inspect(which) => scripts::inspect(which, inv),
    }
}

/// The first operand outside the working directory of a program that
/// rewrites its operands, when `turned_on_by` (options, or subcommand
/// names) turns the rewriting on or is empty. The subcommand itself is no
/// file.
fn rewrites_outside(turned_on_by: &[&str], inv: &Invocation<'_>) -> Option<String> {
    let on = turned_on_by.is_empty()
        || inv.global_opts().any(|o| o.name.is_any(turned_on_by))
        || inv.subcommand.is_some_and(|s| turned_on_by.contains(&s));
    if !on {
        return None;
    }
    let files = match inv.subcommand {
        Some(_) => inv.operands.get(1..).unwrap_or_default(),
        None => &inv.operands[..],
    };
    files
        .iter()
        .find(|f| parse::outside(inv.cwd, f))
        .map(|f| format!("{f} (outside the working directory)"))
}

/// What makes `inv` more than one of `queries`: an option not listed
/// (spelled exactly: an abbreviation is not trusted to mean the listed
/// option), then a verb not listed. No verb is the manager's own listing
/// or status. `None` for a query.
fn not_a_query(queries: &Queries, inv: &Invocation<'_>) -> Option<String> {
    if let Some(opt) = inv
        .global_opts()
        .find(|o| !o.name.is_exactly_any(queries.opts))
    {
        return Some(opt.shown());
    }
    inv.subcommand
        .filter(|verb| !queries.verbs.contains(verb))
        .map(str::to_owned)
}

/// Whether an option's value is a URL (`https://…`, `data:…`, `jsr:…`),
/// which no working tree holds: a scheme of two letters or more before a
/// colon. A path with such a colon (`a:b`) is taken for one too:
/// over-guarding, never under-guarding.
fn is_url(value: &str) -> bool {
    value.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() >= 2
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// An interpreter with stdin data and no program named by option or operand.
fn code_on_stdin(inv: &Invocation<'_>) -> Option<String> {
    if !inv.stdin_is_input || inv.spec.layout != Layout::OptionsFirst {
        return None;
    }
    if inv
        .opts
        .iter()
        .any(|o| o.name.is_any(inv.spec.program_opts))
    {
        return None;
    }
    match inv.operands.first() {
        None => Some("with no script operand".to_owned()),
        Some(&"-") => Some("-".to_owned()),
        Some(_) => None,
    }
}

impl OptName<'_> {
    /// [`is_any`](Self::is_any), unless the option is spelled exactly as
    /// another long option of `spec` ([`ProgramSpec::exact_longs`]): an
    /// exact name is that option, not an abbreviation of a guarded one.
    fn is_of(&self, spec: &ProgramSpec, names: &[&str]) -> bool {
        let exact_other = match self {
            OptName::Long(tok) => spec
                .exact_longs
                .iter()
                .any(|e| e.strip_prefix("--") == Some(*tok) && !names.contains(e)),
            OptName::Short(_) => false,
        };
        self.is_any(names) && !exact_other
    }

    /// True when this option is one of `names`: a short letter exactly, a
    /// long name when it is a non-empty prefix of the guarded name.
    fn is_any(&self, names: &[&str]) -> bool {
        names.iter().any(|n| match (self, n.strip_prefix("--")) {
            (OptName::Long(tok), Some(long)) => !tok.is_empty() && long.starts_with(tok),
            (OptName::Short(c), None) => {
                let mut it = n.chars();
                it.next() == Some('-') && it.next() == Some(*c) && it.next().is_none()
            }
            _ => false,
        })
    }

    /// Whether this option is spelled exactly as one of `names` (`-x`,
    /// `--long`): for lists of what is allowed, where an abbreviation is
    /// not trusted to mean the listed option.
    fn is_exactly_any(&self, names: &[&str]) -> bool {
        names.iter().any(|n| match (self, n.strip_prefix("--")) {
            (OptName::Long(tok), Some(long)) => *tok == long,
            (OptName::Short(c), None) => {
                let mut it = n.chars();
                it.next() == Some('-') && it.next() == Some(*c) && it.next().is_none()
            }
            _ => false,
        })
    }
}
