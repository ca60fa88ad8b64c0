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
    /// `None` when the regex did not compile: the entry never matches.
    args: Option<Regex>,
}

impl ArgEntries {
    /// Compiles every `(index, pattern, argPattern)`; returns the entries
    /// and a warning per pattern that can never match.
    pub fn compile<'a>(
        entries: impl IntoIterator<Item = (usize, &'a str, &'a str)>,
        home: Option<&Path>,
        case_insensitive: bool,
    ) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let mut compiled = Vec::new();
        for (index, pattern, arg_pattern) in entries {
            let (path, w) = PathMatcher::compile([pattern], home, case_insensitive);
            warnings.extend(w);
            let args = match compile_regex(arg_pattern) {
                Ok(regex) => Some(regex),
                Err(err) => {
                    warnings.push(format!(
                        "allowlist entry {pattern:?} has an argPattern {arg_pattern:?} that is not a valid regex ({err}); the entry never matches"
                    ));
                    None
                }
            };
            compiled.push(ArgEntry { index, path, args });
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
            .find(|e| {
                let text = joined.get_or_insert_with(|| join_args(args));
                e.args.as_ref().is_some_and(|re| re.is_match(text))
            })
            .map(|e| e.index)
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
            .find(|e| {
                let text = joined.get_or_insert_with(|| join_args(args));
                e.args.as_ref().is_some_and(|re| re.is_match(text))
            })
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
