//! From a [`Reading`] to the guards it trips: a problem asks, and each
//! option's effect decides on its own (DESIGN.md section 6, Program specs).
//! Inert options, reads and the program's own network use stay allowed;
//! running or loading anything, uploading, setting config, and writing where
//! it matters are asked.

use std::fmt;
use std::path::{Component, Path};

use super::families::ssh;
use super::grammar::{Problem, Reading, Use};
use super::operands;
use super::types::{Effect, FileRef, Keys, KnownWords, Operands, Sources, Spec, Sub};
use crate::policy::cwd_config::repository_markers;
use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::{enters_other_repository, outside};
use crate::policy::guards::scripts::git;

/// File names that other tools run or load when they find them, so a write
/// to one is a write of code even inside the working tree.
const EXECUTED_FILES: &[&str] = &[
    ".bash_profile",
    ".bashrc",
    ".envrc",
    ".gdbinit",
    ".gitattributes",
    ".gitlab-ci.yml",
    ".gitmodules",
    ".irbrc",
    ".justfile",
    ".mise.toml",
    ".npmrc",
    ".pdbrc",
    ".pnpmfile.cjs",
    ".pre-commit-config.yaml",
    ".profile",
    ".proverc",
    ".pylintrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".zshrc",
    "CMakeLists.txt",
    "GNUmakefile",
    "Gemfile",
    "Jenkinsfile",
    "Justfile",
    "Makefile",
    "Rakefile",
    "Rakefile.rb",
    "Taskfile.yml",
    "Vagrantfile",
    "build.gradle",
    "build.gradle.kts",
    "build.rs",
    "bunfig.toml",
    "composer.json",
    "conftest.py",
    "deno.json",
    "deno.jsonc",
    "justfile",
    "makefile",
    "mise.toml",
    "noxfile.py",
    "package.json",
    "pom.xml",
    "pylintrc",
    "pyproject.toml",
    "rakefile",
    "rakefile.rb",
    "rust-toolchain",
    "rust-toolchain.toml",
    "settings.gradle",
    "settings.gradle.kts",
    "setup.py",
    "tox.ini",
];

/// Directories whose files run elsewhere with this user's or the
/// project's credentials: CI workflows (`.github/workflows`, run with
/// the repository's secrets on the next push), git hooks kept in the tree
/// (`.husky`, run by git through `core.hooksPath`), and dev-container
/// definitions (their `postCreateCommand` runs when the editor opens the
/// tree). A write under one is a write of code (found by the H25 sweep:
/// `tee .github/workflows/ci.yml`).
const EXECUTED_DIRS: &[&str] = &[
    ".buildkite",
    ".circleci",
    ".devcontainer",
    ".github",
    ".husky",
];

/// Directories whose files a tool reads as its own state or config.
pub const METADATA_DIRS: &[&str] = &[".cargo", ".git", ".hg", ".jj", ".svn", ".vscode"];

/// The hits of one reading of `program` (as invoked) in `cwd`.
pub fn hits(spec: &Spec, program: &str, reading: &Reading<'_>, cwd: &Path) -> Vec<GuardHit> {
    let mut out = Vec::new();
    let roles = reading.sub.map_or(spec.operands, |sub| sub.operands);
    if reading.sub.is_none()
        && reading.uses.is_empty()
        && reading.problem.is_none()
        && roles == Operands::Plain
    {
        // Nothing to judge (`ls`, `git status`): no text to build.
        return out;
    }
    // The whole path of subcommands (`gh pr view`), each judged by its
    // effect (a group's own effect covers every subcommand under it).
    let shown = Shown {
        program,
        path: &reading.path,
    };
    let mut judged = Vec::new();
    // `cargo install --list` lists instead of installing.
    let prints_instead = reading
        .uses
        .iter()
        .any(|used| !used.negated && matches!(used.opt.effect, Effect::PrintsInstead(_)));
    let innermost = reading.path.len().saturating_sub(1);
    for (depth, (sub, _)) in reading.path.iter().enumerate() {
        if prints_instead && depth == innermost {
            continue;
        }
        if let Some(found) = judge(spec, sub.effect, None, cwd) {
            let at = Shown {
                program,
                path: &reading.path[..=depth],
            };
            judged.push((at.to_string(), found));
        }
    }
    if let Some(sub) = reading.sub
        && !reading.passed.is_empty()
        && let Some(found) = judge(spec, sub.passes, None, cwd)
    {
        judged.push((format!("{shown} -- {}", reading.passed.join(" ")), found));
    }
    for (at, (id, why)) in judged {
        out.push(GuardHit {
            id,
            reason: format!("{at}: {why}"),
        });
    }
    for used in &reading.uses {
        if used.negated {
            continue;
        }
        // `npm ls -g` lists the global prefix that `npm install -g` writes.
        if reading.sub.is_some_and(|sub| {
            used.opt
                .names
                .iter()
                .any(|name| sub.looks_only.contains(name))
        }) {
            continue;
        }
        if let Some((id, why)) = judge(spec, used.opt.effect, used.value, cwd) {
            // A global option comes before the subcommand: `git -c k=v`,
            // not `git log -c k=v` (`-c` means something else to `log`).
            let reason = if used.global {
                format!("{program} {}: {why}", written(used))
            } else {
                format!("{shown} {}: {why}", written(used))
            };
            out.push(GuardHit { id, reason });
        }
    }
    if let Some(problem) = &reading.problem {
        out.push(problem_hit(spec, shown, problem));
    } else {
        operands::hits(spec, roles, shown, reading, cwd, &mut out);
    }
    out
}

/// The program and the subcommands read (`gh pr view`), as the reasons
/// name them: written out only when a reason is, since most readings
/// give none.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shown<'r> {
    /// The program's name.
    pub(super) program: &'r str,
    /// The subcommands, outermost first, with the words they were written as.
    pub(super) path: &'r [(&'static Sub, &'r str)],
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.program)?;
        for (_, word) in self.path {
            write!(f, " {word}")?;
        }
        Ok(())
    }
}

/// The hit for a reading that could not be completed.
fn problem_hit(spec: &Spec, shown: Shown<'_>, problem: &Problem<'_>) -> GuardHit {
    let (id, reason) = match problem {
        Problem::UnknownOption(tok) => (
            spec.ids.unknown_option,
            format!("unknown option {tok} for {shown}: options the spec does not know are asked"),
        ),
        Problem::Ambiguous(tok, candidates) => (
            spec.ids.unknown_option,
            format!(
                "ambiguous option {tok} for {shown} (--{}): asked rather than guessed",
                candidates.join(", --")
            ),
        ),
        Problem::MissingValue(tok) => (
            spec.ids.unknown_option,
            format!(
                "option {tok} for {shown} has no value: argv cannot be read as the program reads it"
            ),
        ),
        Problem::UnexpectedValue(tok) => (
            spec.ids.unknown_option,
            format!(
                "option {tok} for {shown} takes no value: argv cannot be read as the program reads it"
            ),
        ),
        Problem::ArgsFromFile(word) => (
            spec.ids.loads_code,
            format!(
                "{shown} reads more arguments from the file {}, which the prompt does not show",
                &word[1..]
            ),
        ),
        Problem::UnknownSubcommand(word) => (
            spec.ids.unknown_subcommand,
            format!(
                "unknown subcommand {word} for {shown}: `{shown} {word}` may be an alias or a plugin that runs anything"
            ),
        ),
    };
    GuardHit { id, reason }
}

/// The option as the human should see it.
fn written(used: &Use<'_>) -> String {
    match used.value {
        Some(v) if !used.token.contains(v) => format!("{} {v}", used.token),
        _ => used.token.to_owned(),
    }
}

/// `Some((id, reason))` when `effect` with `value` is asked.
fn judge(
    spec: &Spec,
    effect: Effect,
    value: Option<&str>,
    cwd: &Path,
) -> Option<(&'static str, String)> {
    let ids = &spec.ids;
    match effect {
        Effect::Inert
        | Effect::ReadsFile
        | Effect::Network
        | Effect::Mode(_)
        | Effect::PrintsInstead(_) => None,
        Effect::WritesFile(why) => {
            let place = match value {
                None => Some("at a path the prompt does not show"),
                // Standard output, and the null device, which discards what
                // is written to it: an option's value is opened and written,
                // never removed or renamed over (`curl -o /dev/null`).
                Some("-" | NULL_DEVICE) => None,
                Some(path) => risky_write(cwd, path),
            }?;
            Some((ids.writes_file, format!("{why} ({place})")))
        }
        Effect::FormatWrites(why) => {
            let (path, place) = value
                .into_iter()
                .flat_map(format_outputs)
                .find_map(|path| Some((path, risky_write(cwd, path)?)))?;
            Some((ids.writes_file, format!("{why}: {path} ({place})")))
        }
        Effect::RunsProgram(why) => Some((ids.runs_program, why.to_owned())),
        Effect::LoadsCode(why) | Effect::ReadsNames(why) => Some((ids.loads_code, why.to_owned())),
        Effect::Uploads(why) => Some((ids.uploads, why.to_owned())),
        Effect::UploadsIf(refers, why) => {
            let names_file = value.is_none_or(|v| match refers {
                FileRef::AtStart => v.starts_with('@'),
                FileRef::AtOrLtAnywhere => v.contains(['@', '<']),
            });
            names_file.then(|| (ids.uploads, why.to_owned()))
        }
        Effect::SetsConfig(why) => Some((ids.sets_config, why.to_owned())),
        Effect::SetsConfigKey(keys, why) => {
            let inert = match keys {
                Keys::Git => value
                    .map(|v| v.split_once('=').map_or(v, |(k, _)| k))
                    .is_some_and(git::inert),
                Keys::Ssh => value.is_some_and(ssh::inert_line),
            };
            (!inert).then(|| (ids.sets_config, why.to_owned()))
        }
        Effect::FileOrRemote(why) => value
            .filter(|v| remote(v))
            .map(|v| (ids.runs_program, format!("{why} ({v} names another host)"))),
        Effect::LoadsCodeIf(code, why) => value
            .is_none_or(|v| code.loads(v))
            .then(|| (ids.loads_code, why.to_owned())),
        Effect::RunsProgramAtPath(why) => value
            .is_none_or(|v| v.contains('/'))
            .then(|| (ids.runs_program, format!("{why} (a path)"))),
        Effect::Installs(sources, why) => {
            let value = value?;
            let from = elsewhere(sources, cwd, value)?;
            Some((ids.loads_code, format!("{why} ({value} is {from})")))
        }
        Effect::Mounts(why) => {
            // `SOURCE:TARGET[:OPTIONS]`; no colon is an anonymous volume
            // at a container path.
            let (source, _) = value?.split_once(':')?;
            // A volume name has no `/`; a host path has one or starts
            // with `.` or `~`.
            if !source.starts_with(['.', '~']) && !source.contains('/') {
                return None;
            }
            judge(spec, Effect::OtherTree(why), Some(source), cwd)
        }
        Effect::ReportDest(modifiers, why) => {
            let (_, dest) = value?.split_once(':')?;
            if modifiers.contains(&dest) {
                return None;
            }
            judge(spec, Effect::WritesFile(why), Some(dest), cwd)
        }
        Effect::SetsConfigUnless(known, why) => {
            let value = value?;
            (!known_words_only(known, value)).then(|| (ids.sets_config, why.to_owned()))
        }
        Effect::AskedWhen(words, why) => value
            .is_none_or(|v| words.contains(&v))
            .then(|| (ids.runs_program, why.to_owned())),
        Effect::PrintsEnv(why) => Some((
            crate::policy::secrets::ENVIRONMENT_ID,
            format!(
                "{why}, and the environment holds tokens and keys (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, …) that would go back to the agent"
            ),
        )),
        Effect::CopiesEnv(why) => {
            // `NAME=value` sets a literal; a bare `NAME` copies the host's.
            // (A value option always has a value; none is asked.)
            let copied = value.unwrap_or("a variable the prompt does not show");
            if copied.contains('=') || crate::policy::env::holds_no_secret(copied) {
                return None;
            }
            Some((
                crate::policy::secrets::ENVIRONMENT_ID,
                format!(
                    "{why}: {copied} is copied from the host's environment and is not known to hold no secret; the program it reaches is the agent's"
                ),
            ))
        }
        Effect::LoadsFromOutside(why) => {
            let place = match value {
                None => "a file the prompt does not show".to_owned(),
                Some(url) if is_url(url) => format!("{url} is a URL, somewhere else"),
                Some(path) if outside(cwd, path) => {
                    format!("{path} is outside the working directory")
                }
                Some(_) => return None,
            };
            Some((ids.loads_code, format!("{why} ({place})")))
        }
        Effect::FilterRule(why) => {
            let file = merge_file(value?)?;
            judge(spec, Effect::LoadsFromOutside(why), Some(file), cwd)
        }
        Effect::OtherTree(why) => match value {
            // A URL is no directory of the working tree (`pip install -r
            // http://…/req.txt`, found by the H25 sweep).
            Some(url) if is_url(url) => Some((
                ids.other_tree,
                format!("{why} ({url} is a URL, somewhere else)"),
            )),
            // Working inside `.git` (`tar -xf a.tar -C .git` plants a
            // config or hooks) is working in metadata, whoever's tree it is.
            Some(dir) if !outside(cwd, dir) && in_metadata(dir) => Some((
                ids.other_tree,
                format!("{why} ({dir} is inside a tool's metadata directory, whose config and hooks other tools run)"),
            )),
            Some(dir) if !outside(cwd, dir) => enters_other_repository(cwd, dir, repository_markers(spec.family)).then(|| {
                (
                    ids.other_tree,
                    format!(
                        "{why} ({dir} is another repository inside the working directory, with its own config and hooks)"
                    ),
                )
            }),
            _ => Some((
                ids.other_tree,
                format!("{why} (outside the working directory)"),
            )),
        },
    }
}

/// The file an rsync filter rule reads more rules from, when it is a merge
/// rule: `merge FILE`, `. FILE`, `dir-merge FILE`, `: FILE`, each with
/// modifiers after a comma (`merge,- FILE`) or attached to the short
/// form (`.- FILE`, `:n- FILE`), the file after a space or an underscore
/// (rsync 3.2's `parse_rule_tok`). An empty file name is rsync's error.
fn merge_file(rule: &str) -> Option<&str> {
    let rule = rule.trim_start();
    let (keyword, file) = rule
        .split_once([' ', '_'])
        .map_or((rule, ""), |(k, f)| (k, f.trim_start()));
    let name = keyword.split_once(',').map_or(keyword, |(n, _)| n);
    let merge =
        matches!(name, "merge" | "dir-merge") || name.starts_with('.') || name.starts_with(':');
    // A merge rule with no file still reads one (rsync's own default is
    // an error, never nothing): judged as the file the prompt cannot see.
    merge.then_some(if file.is_empty() { "/" } else { file })
}

/// Where `value`, a package as `sources` reads it, comes from when that is
/// not the configured index or the working tree: `None` for a name the
/// index serves or a path inside the tree.
pub(super) fn elsewhere(sources: Sources, cwd: &Path, value: &str) -> Option<&'static str> {
    const URL: &str = "a URL or a version-control source";
    const PATH: &str = "a path outside the working directory";
    let path = value.starts_with(['.', '/', '~']);
    match sources {
        Sources::Npm => {
            if value.contains(':') {
                Some(URL)
            } else if path {
                outside(cwd, value).then_some(PATH)
            } else if !value.starts_with('@') && value.contains('/') {
                // `owner/repo` is a GitHub repository.
                Some(URL)
            } else {
                None
            }
        }
        Sources::Pip => {
            let lower = value.to_ascii_lowercase();
            let vcs = ["git+", "hg+", "svn+", "bzr+"]
                .iter()
                .any(|p| lower.starts_with(p));
            if lower.contains("://") || vcs {
                Some(URL)
            } else if path || value.contains('/') {
                outside(cwd, value).then_some(PATH)
            } else {
                None
            }
        }
        Sources::Go => {
            if value.contains('@') {
                Some("a module version downloaded from elsewhere")
            } else if path {
                outside(cwd, value).then_some(PATH)
            } else {
                None
            }
        }
    }
}

/// The files a curl `-w` format writes: the FILE of each `%output{FILE}`
/// or `%output{>>FILE}` (an unclosed brace runs to the end).
fn format_outputs(format: &str) -> impl Iterator<Item = &str> {
    format.split("%output{").skip(1).map(|rest| {
        let name = rest.split_once('}').map_or(rest, |(name, _)| name);
        name.strip_prefix(">>").unwrap_or(name)
    })
}

/// Whether `value` is a URL: `SCHEME://…`, the scheme a letter then
/// letters, digits, `+`, `-` or `.` (RFC 3986), as `git+https://`.
pub(super) fn is_url(value: &str) -> bool {
    value.split_once("://").is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// The null device: output sent there is discarded.
pub(crate) const NULL_DEVICE: &str = "/dev/null";

/// Whether `value` names a file on another host: `host:path`, a colon
/// before any slash (GNU tar's and rsync's rule).
pub(super) fn remote(value: &str) -> bool {
    value
        .split_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// The place [`risky_write`] names for a file other tools run.
pub(super) const EXECUTED: &str = "into a file other tools run";

/// Whether `path` has a tool's metadata directory (`.git`, `.cargo` …)
/// among its components.
pub(super) fn in_metadata(path: &str) -> bool {
    Path::new(path).components().any(|c| {
        matches!(c, Component::Normal(n) if n.to_str().is_some_and(|n| METADATA_DIRS.contains(&n)))
    })
}

/// Whether `path` has a directory whose files run elsewhere
/// ([`EXECUTED_DIRS`]) among its components.
fn in_executed_dir(path: &Path) -> bool {
    path.components().any(|c| {
        matches!(c, Component::Normal(n) if n.to_str().is_some_and(|n| EXECUTED_DIRS.contains(&n)))
    })
}

/// Whether `path` names a file other tools run or load when they find it
/// ([`EXECUTED_FILES`], a shell script, a rakelib task, a file in a CI,
/// hook or dev-container directory), wherever in the tree it is.
pub(crate) fn executed_file(path: &str) -> bool {
    let p = Path::new(path);
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    EXECUTED_FILES.contains(&name)
        || name.ends_with(".sh")
        || name.ends_with(".rake")
        || in_executed_dir(p)
}

/// Why writing `path` (relative to `cwd`) is asked, or `None` when it is
/// an ordinary file inside the working tree.
pub(crate) fn risky_write(cwd: &Path, path: &str) -> Option<&'static str> {
    if outside(cwd, path) {
        return Some("outside the working directory");
    }
    if in_metadata(path) {
        return Some("into a tool's metadata directory");
    }
    // `rakelib/*.rake` is loaded by every plain `rake`.
    executed_file(path).then_some(EXECUTED)
}

/// Whether every word of the flag list `value` is one of `known`: a lone
/// flag, or a flag with its value as the next word or after `=`. A quote
/// or a first word that is no flag (go's `PATTERN=FLAGS`) is not known.
fn known_words_only(known: KnownWords, value: &str) -> bool {
    if value.contains(['\'', '"', '\\']) {
        return false;
    }
    // go reads a first word without `-` as `PATTERN=FLAGS`, the flags
    // applying to the packages the pattern matches (`all=-N -l`): the
    // pattern chooses where, the flags what; the flags are judged.
    let value = match value.trim_start().split_once('=') {
        Some((pattern, rest))
            if known.package_pattern
                && !pattern.starts_with('-')
                && !pattern.contains(char::is_whitespace)
                && rest.starts_with('-') =>
        {
            rest
        }
        _ => value,
    };
    let mut words = value.split_ascii_whitespace();
    while let Some(word) = words.next() {
        if known.flags.contains(&word) {
            continue;
        }
        if known.with_value.contains(&word) {
            if words.next().is_none() {
                return false;
            }
            continue;
        }
        let with_eq = word
            .split_once('=')
            .is_some_and(|(flag, _)| known.with_value.contains(&flag));
        if !with_eq {
            return false;
        }
    }
    true
}
