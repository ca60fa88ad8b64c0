//! Allowlist `argPattern`: an entry that also says which arguments it
//! allows, with OpenClaw's semantics (openclaw.md section 3.2).
//!
//! The arguments (argv[1..]) are joined with `\0` and a trailing `\0` is
//! added, so `git status` is tested as `"status\0"` and `sh -c 'echo ok'` as
//! `"-c\0echo ok\0"`. The regex is unanchored, as JavaScript's `test` is;
//! write `^…$` to pin the whole argument list. `\0` in the pattern means
//! the NUL separator. A regex that does not compile never matches (the
//! entry allows nothing) and is reported as a warning. An entry with an
//! `argPattern` matches only when both its path pattern and its
//! `argPattern` match, on every platform. Upholds DESIGN.md invariant 3:
//! an entry never allows more than its user wrote.
//!
//! `argPrefix` (our extension, in the spirit of Codex's `prefix_rule` and
//! Claude Code's `Bash(git diff:*)`): the words the arguments must start
//! with, compared word by word after the analysis has made argv literal, so
//! `["diff"]` allows `git diff …` and nothing else. Prefix words are exact:
//! an abbreviation, a bundle or an option before them makes the entry not
//! match, and the argument guards and program specs still judge the rest of
//! the arguments. A prefix entry never covers a shell's `-c` script.

use std::path::Path;

use regex::Regex;

use crate::policy::matcher::PathMatcher;

/// The allowlist entries that carry an `argPattern`, each with its own path
/// matcher and regex.
#[derive(Debug, Clone, Default)]
pub struct ArgEntries {
    entries: Vec<ArgEntry>,
}

#[derive(Debug, Clone)]
struct ArgEntry {
    /// The index of the entry in the allowlist.
    index: usize,
    /// Its path pattern alone.
    path: PathMatcher,
    /// The argPattern: `None` when there is none; `Some(None)` when the
    /// regex did not compile, and the entry never matches.
    args: Option<Option<Regex>>,
    /// The argPrefix, if any.
    prefix: Option<Vec<String>>,
}

impl ArgEntry {
    /// Whether `args` (and `joined`, their `\0` form, made on demand)
    /// satisfy this entry's argPattern and argPrefix.
    fn matches(&self, args: &[String], joined: &mut Option<String>) -> bool {
        let prefix_ok = self.prefix.as_ref().is_none_or(|p| {
            p.len() <= args.len() && p.iter().zip(args).all(|(want, got)| want == got)
        });
        prefix_ok
            && match &self.args {
                None => true,
                Some(None) => false,
                Some(Some(re)) => re.is_match(joined.get_or_insert_with(|| join_args(args))),
            }
    }
}

/// What an entry says about its arguments, for [`ArgEntries::compile`].
#[derive(Debug, Clone, Copy)]
pub struct ArgRule<'a> {
    /// The entry's index in the allowlist.
    pub index: usize,
    /// Its path pattern.
    pub pattern: &'a str,
    /// Its argPattern, if any.
    pub regex: Option<&'a str>,
    /// Its argPrefix, if any.
    pub prefix: Option<&'a [String]>,
}

impl ArgEntries {
    /// Compiles every entry's rule; returns the entries and a warning per
    /// pattern that can never match.
    pub fn compile<'a>(
        entries: impl IntoIterator<Item = ArgRule<'a>>,
        home: Option<&Path>,
        case_insensitive: bool,
    ) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let mut compiled = Vec::new();
        for rule in entries {
            let pattern = rule.pattern;
            let (path, w) = PathMatcher::compile([pattern], home, case_insensitive);
            warnings.extend(w);
            let args = rule.regex.map(|arg_pattern| match compile_regex(arg_pattern) {
                Ok(regex) => Some(regex),
                Err(err) => {
                    warnings.push(format!(
                        "allowlist entry {pattern:?} has an argPattern {arg_pattern:?} that is not a valid regex ({err}); the entry never matches"
                    ));
                    None
                }
            });
            compiled.push(ArgEntry {
                index: rule.index,
                path,
                args,
                prefix: rule.prefix.map(<[String]>::to_vec),
            });
        }
        (Self { entries: compiled }, warnings)
    }

    /// The first entry (by index) whose path pattern matches `real` and
    /// whose argPattern matches `args`.
    pub fn match_path(&self, real: &Path, args: &[String]) -> Option<usize> {
        self.match_path_where(real, args, |_| true)
    }

    /// [`ArgEntries::match_path`] among the entries (by allowlist index)
    /// that `accept` takes.
    pub fn match_path_where(
        &self,
        real: &Path,
        args: &[String],
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let mut joined: Option<String> = None;
        self.entries
            .iter()
            .filter(|e| accept(e.index) && e.path.match_path(real).is_some())
            .find(|e| e.matches(args, &mut joined))
            .map(|e| e.index)
    }

    /// Whether the entry at allowlist `index` has an argPrefix (so it never
    /// covers a shell script as a whole).
    pub fn has_prefix(&self, index: usize) -> bool {
        self.entries
            .iter()
            .any(|e| e.index == index && e.prefix.is_some())
    }

    /// The first entry whose exact-command marker is `marker` and whose
    /// argPattern matches `args`.
    pub fn match_marker(&self, marker: &str, args: &[String]) -> Option<usize> {
        self.first(args, |path| path.match_marker(marker).is_some())
    }

    /// Whether no entry has an argPattern (so nothing needs joining).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn first(&self, args: &[String], path_hit: impl Fn(&PathMatcher) -> bool) -> Option<usize> {
        let mut joined: Option<String> = None;
        self.entries
            .iter()
            .filter(|e| path_hit(&e.path))
            .find(|e| e.matches(args, &mut joined))
            .map(|e| e.index)
    }
}

/// The arguments as an argPattern sees them: each followed by `\0`.
pub fn join_args(args: &[String]) -> String {
    let mut out = String::with_capacity(args.iter().map(|a| a.len() + 1).sum());
    for arg in args {
        out.push_str(arg);
        out.push('\0');
    }
    out
}

/// Compiles an argPattern: JavaScript's `\0` (NUL) becomes `\x00`, which
/// the `regex` crate spells differently; everything else is passed as is.
pub fn compile_regex(source: &str) -> Result<Regex, regex::Error> {
    let mut translated = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            translated.push(c);
            continue;
        }
        match chars.next() {
            Some('0') if !chars.peek().is_some_and(char::is_ascii_digit) => {
                translated.push_str("\\x00");
            }
            Some(n) => {
                translated.push('\\');
                translated.push(n);
            }
            None => translated.push('\\'),
        }
    }
    Regex::new(&translated)
}

#[cfg(test)]
mod tests;
