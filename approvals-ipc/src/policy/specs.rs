//! Program specs: each program family's real argv grammar, subcommands and
//! options with their arity and effect, as data (`families/*.rs`, one file
//! per family), read by one index.
//!
//! Allowlisting a path trusts the program to do its job, not every way to
//! make it run or load something else. A spec reads argv as the program's own
//! parser does ([`grammar`]); an option or subcommand it does not know is
//! asked, never allowed; the effects of the options it does know decide the
//! rest ([`effects`]). Conformance tests compare each spec with the installed
//! program's own option list (`approvals-ipc/tests/spec_conformance.rs`).
//! Upholds DESIGN.md section 6 (Program specs) and invariant 3.

pub mod effects;
pub(crate) mod families;
pub mod grammar;
mod index;
mod operands;
mod package_scripts;
mod python_modules;
pub mod types;

#[cfg(test)]
mod everyday_tests;
#[cfg(test)]
mod find_tests;
#[cfg(test)]
mod frontend_tests;
#[cfg(test)]
mod git_tests;
#[cfg(test)]
mod gnu_tests;
#[cfg(test)]
mod h25_sweep_tests;
#[cfg(test)]
mod h27_sweep_tests;
#[cfg(test)]
mod h28_sweep_tests;
#[cfg(test)]
mod h29_sweep_tests;
#[cfg(test)]
mod h30_sweep_tests;
#[cfg(test)]
mod install_tests;
#[cfg(test)]
mod interp_tests;
#[cfg(test)]
mod js_tests;
#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod npm_tests;
#[cfg(test)]
mod operands_tests;
#[cfg(test)]
mod package_scripts_tests;
#[cfg(test)]
mod pytest_tests;
#[cfg(test)]
mod python_modules_tests;
#[cfg(test)]
mod rg_tests;
#[cfg(test)]
mod subs_tests;
#[cfg(test)]
mod sweep_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::policy::env::EnvRule;
use crate::policy::guards::GuardHit;
use crate::policy::programs;
pub use types::{
    Arity, CodeIn, Copying, Effect, EnvKind, EnvVar, FileRef, Grammar, Keys, Mode, Operands, Opt,
    Sources, Spec, Sub,
};

/// Every spec, sorted by family.
pub fn all() -> &'static [&'static Spec] {
    families::ALL
}

/// The spec for `program` (a basename or path as invoked), by its exact
/// executable name, else by its family (`python3.11` is `python`), else by
/// the program a Debian name is a versioned copy of (`gem3.1`).
pub fn lookup(program: &str) -> Option<&'static Spec> {
    let name = programs::executable_name(program);
    families::by_name(name)
        .or_else(|| families::by_name(&programs::family(program)))
        .or_else(|| families::by_name(&programs::debian_base(program)?))
}

/// The guards `args` (argv without argv[0]) trips for `program`, or `None`
/// when no spec covers the program.
pub fn check(program: &str, args: &[String], cwd: &Path) -> Option<Vec<GuardHit>> {
    check_reading(program, args, cwd).map(|(hits, _)| hits)
}

/// [`check`], with the words of `args` the grammar read as subcommand
/// names (`status` in `git status`): the program never opens them as
/// files.
pub fn check_reading<'a>(
    program: &str,
    args: &'a [String],
    cwd: &Path,
) -> Option<(Vec<GuardHit>, Vec<&'a str>)> {
    let spec = lookup(program)?;
    let reading = grammar::read(spec, args);
    let mut hits = effects::hits(spec, programs::executable_name(program), &reading, cwd);
    hits.extend(package_scripts::hit(
        spec,
        programs::executable_name(program),
        &reading,
        cwd,
    ));
    if spec.family == "python" {
        // `python -m MODULE`: the module table decides (`pip` and `uv` by
        // their own specs).
        hits.extend(python_modules::hits(
            programs::executable_name(program),
            &reading,
            cwd,
        ));
    }
    if spec.family == "go" {
        hits.extend(go_test_binary_flags(spec, &reading));
    }
    let subcommands = reading.path.iter().map(|(_, word)| *word).collect();
    Some((hits, subcommands))
}

/// The testing package's flags that change only what a test binary runs
/// or shows (`-test.run`, `-test.v`, …); every other `-test.` flag writes
/// a file or directory (`-test.coverprofile`, `-test.outputdir`,
/// `-test.testlogfile`, `-test.gocoverdir`, …) or is not known.
const GO_TEST_BINARY_INERT: &[&str] = &[
    "bench",
    "benchmem",
    "benchtime",
    "blockprofilerate",
    "count",
    "cpu",
    "failfast",
    "fullpath",
    "fuzz",
    "fuzzminimizetime",
    "fuzztime",
    "list",
    "memprofilerate",
    "mutexprofilefraction",
    "paniconexit0",
    "parallel",
    "run",
    "short",
    "shuffle",
    "skip",
    "timeout",
    "v",
];

/// `go test … -args -test.coverprofile=../x`: go hands the words after
/// `-args` to the test binary unread, and the binary's own `-test.` flags
/// write where the same `go test` flags would (found by the H27 sweep:
/// `go test -coverprofile=../x` was asked, its `-args` spelling allowed).
/// A `-test.` flag not on [`GO_TEST_BINARY_INERT`] is asked.
fn go_test_binary_flags(spec: &Spec, reading: &grammar::Reading<'_>) -> Option<GuardHit> {
    if reading.sub.is_none_or(|sub| !sub.names.contains(&"test")) {
        return None;
    }
    reading.operands.iter().find_map(|word| {
        let name = word
            .strip_prefix("--test.")
            .or_else(|| word.strip_prefix("-test."))?;
        let name = name.split_once('=').map_or(name, |(n, _)| n);
        (!GO_TEST_BINARY_INERT.contains(&name)).then(|| GuardHit {
            id: spec.ids.writes_file,
            reason: format!(
                "go test {word}: a flag of the test binary that writes a file or directory it names, or one not known to be inert"
            ),
        })
    })
}

/// Whether `program` run with `args` writes, creates or works in a path
/// its arguments name relative to its working directory (an option that
/// writes or names another tree, or operands it writes, extracts, fills or
/// installs from), as its spec reads them: such a path is judged against
/// the working directory, so a `cd` out of the tree would otherwise make
/// `cd ~/.local/bin && sort -o git x` look like a write inside it
/// (`cwd_config::writes_moved_out`). A reading with a problem is asked
/// already, and a program with no spec is judged by its guards.
pub fn writes(program: &str, args: &[String]) -> bool {
    let Some(spec) = lookup(program) else {
        return false;
    };
    let reading = grammar::read(spec, args);
    if reading.problem.is_some() {
        return false;
    }
    let roles = reading.sub.map_or(spec.operands, |sub| sub.operands);
    let by_option = reading.uses.iter().any(|used| {
        !used.negated
            && matches!(
                used.opt.effect,
                Effect::WritesFile(_)
                    | Effect::OtherTree(_)
                    | Effect::FileOrRemote(_)
                    | Effect::Installs(..)
                    | Effect::Mounts(_)
                    | Effect::ReportDest(..)
                    | Effect::Mode(Mode::EditsInPlace)
            )
    });
    let by_operand = match roles {
        Operands::Plain
        | Operands::SetsEnv(_)
        | Operands::ChangesSystemUnless(..)
        | Operands::Saved(_) => false,
        // tar extracting into the directory it runs in, a clone named
        // after its source: no operand needed.
        Operands::Archive { .. } | Operands::Fills(..) => true,
        _ => !reading.operands.is_empty(),
    };
    by_option || by_operand
}

/// The directories (absolute, normalized) that `program` run with `args`
/// in `cwd` fills with names the prompt does not show: a clone, what an
/// archive extracts into, a directory copied whole. Empty when no spec
/// covers the program. Read by `policy::filled_trees`.
pub fn filled_trees(program: &str, args: &[String], cwd: &Path) -> Vec<PathBuf> {
    let Some(spec) = lookup(program) else {
        return Vec::new();
    };
    let reading = grammar::read(spec, args);
    let roles = reading.sub.map_or(spec.operands, |sub| sub.operands);
    operands::filled(spec, roles, &reading, cwd)
        .iter()
        .filter(|dir| !dir.starts_with('~'))
        .filter_map(|dir| crate::policy::guards::parse::normalize(&cwd.join(dir)))
        .collect()
}

#[cfg(test)]
pub(crate) use operands::clone_name as operands_clone_name;

/// The subcommands `args` starts with (`diff`; `pr view` for a nested
/// one), when `program`'s spec has subcommands, reads `args` without a
/// problem down to a subcommand that has none of its own, and no option
/// comes before or between them: the words a prefix
/// rule (`argPrefix`) keeps for an allow-always of this command.
pub fn leading_subcommand(program: &str, args: &[String]) -> Option<Vec<String>> {
    let spec = lookup(program).filter(|s| !s.subs.is_empty())?;
    let reading = grammar::read(spec, args);
    // A group without its subcommand (`gh pr`) keeps no prefix: one would
    // cover every subcommand under it.
    if reading.problem.is_some() || reading.sub.is_none_or(|s| !s.subs.is_empty()) {
        return None;
    }
    let words: Vec<String> = reading.path.iter().map(|(_, w)| (*w).to_owned()).collect();
    let leads = args.len() >= words.len() && args.iter().zip(&words).all(|(a, w)| a == w);
    leads.then_some(words)
}

/// The guards of `program` (an executable name with no spec) when it is a
/// console script of a python module the module table judges (`pylint`,
/// `coverage`, `twine`, `pdb3`); empty for any other program.
pub fn module_script_hits(program: &str, args: &[String], cwd: &Path) -> Vec<GuardHit> {
    python_modules::script_hits(programs::executable_name(program), args, cwd)
}

/// `program` (a semantic wrapper that builds a command line, xargs) named
/// with the command it would run, as its spec reads `args`: `xargs
/// (running grep -n TODO with words from its input)`; the option its spec
/// does not know, when there is one. `None` for other programs.
pub fn wrapped_command(program: &str, args: &[String]) -> Option<String> {
    let spec = lookup(program).filter(|s| s.family == "xargs")?;
    let reading = grammar::read(spec, args);
    let shown = match &reading.problem {
        Some(grammar::Problem::UnknownOption(tok) | grammar::Problem::Ambiguous(tok, _)) => {
            format!("unknown option {tok}, so the command it runs is not known")
        }
        Some(_) => "options it cannot read, so the command it runs is not known".to_owned(),
        None if reading.operands.is_empty() => "running echo with words from its input".to_owned(),
        None => {
            let words: Vec<String> = reading.operands.iter().map(|w| (*w).to_owned()).collect();
            format!(
                "running {} with words from its input",
                crate::policy::quote::join(&words)
            )
        }
    };
    Some(format!("{program} ({shown})"))
}

/// The environment variable `key` (any case) as some spec lists it with
/// `kind`: an exact name first (whatever its kind: `CARGO_TARGET_DIR`
/// exactly is not the prefix `CARGO_TARGET_*`), then a prefix. The rule's
/// reason names the program that reads it.
pub fn env_rule(key: &str, kind: EnvKind) -> Option<&'static EnvRule> {
    let upper = key.to_ascii_uppercase();
    let tables = &*ENV_RULES;
    if let Some((found, rule)) = tables.exact.get(upper.as_str()) {
        return (*found == kind).then_some(rule);
    }
    tables
        .prefixes
        .iter()
        .find(|(k, prefix, _)| *k == kind && upper.starts_with(*prefix))
        .map(|(_, _, rule)| rule)
}

/// Every spec's environment rows, as the environment tables read them.
struct EnvRules {
    exact: foldhash::HashMap<&'static str, (EnvKind, EnvRule)>,
    prefixes: Vec<(EnvKind, &'static str, EnvRule)>,
}

static ENV_RULES: std::sync::LazyLock<EnvRules> = std::sync::LazyLock::new(|| {
    let mut rules = EnvRules {
        exact: foldhash::HashMap::default(),
        prefixes: Vec::new(),
    };
    for spec in all() {
        for var in spec.env {
            let rule = EnvRule {
                name: var.name,
                reason: var.why,
            };
            match var.name.strip_suffix('*') {
                Some(prefix) => rules.prefixes.push((var.kind, prefix, rule)),
                None => {
                    rules.exact.entry(var.name).or_insert((var.kind, rule));
                }
            }
        }
    }
    rules
});
