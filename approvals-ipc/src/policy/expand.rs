//! Pathname expansion of unquoted globs, as bash does it, before the check:
//! we expand, then check, then run what we checked (DESIGN.md section 6).
//!
//! bash with its default options (no `dotglob`, `nullglob`, `failglob`,
//! `globstar` or `extglob`): the pattern is split at `/`; each component with
//! a glob character matches the names of the directory so far, a leading `.`
//! only by a pattern that starts with a literal `.`, `**` like `*`; matches
//! are sorted; a pattern that matches nothing stays the word as written.
//! Names are sorted bytewise (bash sorts by the locale's collation, so only
//! the order can differ, and we run the order we checked). A name that
//! starts with `-` becomes an option, which the check then reads as one.
//! Anything we cannot expand exactly (an invalid pattern, a directory we
//! cannot read, too many names) is refused, never guessed.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use thiserror::Error;

/// The most names one glob may expand to; more is refused, so a request
/// cannot make the check walk a huge tree or build a huge argv.
pub const MAX_MATCHES: usize = 4096;

/// Why a glob was not expanded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GlobError {
    /// The pattern is not one we can match exactly.
    #[error("the glob {pattern:?} is not a pattern we can expand exactly: {why}")]
    Invalid {
        /// The glob as written.
        pattern: String,
        /// What is wrong with it.
        why: String,
    },
    /// It matched more names than [`MAX_MATCHES`].
    #[error("the glob {pattern:?} matches more than {MAX_MATCHES} names; name the files instead")]
    TooMany {
        /// The glob as written.
        pattern: String,
    },
}

/// The words `pattern` expands to in `cwd`; `written` is the word bash
/// passes when nothing matches. `pattern` escapes quoted glob characters
/// with `\`.
pub fn expand(pattern: &str, written: &str, cwd: &Path) -> Result<Vec<String>, GlobError> {
    let invalid = |why: String| GlobError::Invalid {
        pattern: written.to_owned(),
        why,
    };
    if pattern.contains("[:") || pattern.contains("[=") || pattern.contains("[.") {
        return Err(invalid(
            "POSIX character classes are not expanded here".to_owned(),
        ));
    }
    let absolute = pattern.starts_with('/');
    let components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    // Each candidate: (path to read from, the text of the word so far).
    let mut found: Vec<(PathBuf, String)> = vec![if absolute {
        (PathBuf::from("/"), "/".to_owned())
    } else {
        (cwd.to_owned(), String::new())
    }];
    for (i, component) in components.iter().enumerate() {
        let last = i + 1 == components.len();
        let mut next = Vec::new();
        if !has_glob(component) {
            let name = unescape(component);
            for (dir, text) in found {
                let path = dir.join(&name);
                // A literal component must exist (bash matches it by lstat
                // through the directory), except that it is not checked
                // for the last one only when the pattern had globs before.
                if path.symlink_metadata().is_ok() {
                    next.push((path, join(&text, &name)));
                }
            }
        } else {
            let matcher = GlobBuilder::new(&collapse_stars(component))
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| invalid(e.to_string()))?
                .compile_matcher();
            let dot_ok = component.starts_with('.');
            for (dir, text) in found {
                if !last && !dir.is_dir() {
                    continue;
                }
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut names = Vec::new();
                for entry in entries {
                    let entry = entry.map_err(|e| invalid(e.to_string()))?;
                    let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                        return Err(invalid("a file name is not UTF-8".to_owned()));
                    };
                    if name.starts_with('.') && !dot_ok {
                        continue;
                    }
                    if matcher.is_match(&name) {
                        names.push(name);
                    }
                    if names.len() > MAX_MATCHES {
                        return Err(GlobError::TooMany {
                            pattern: written.to_owned(),
                        });
                    }
                }
                names.sort_unstable();
                for name in names {
                    next.push((dir.join(&name), join(&text, &name)));
                }
            }
        }
        if next.len() > MAX_MATCHES {
            return Err(GlobError::TooMany {
                pattern: written.to_owned(),
            });
        }
        found = next;
    }
    if found.is_empty() {
        return Ok(vec![written.to_owned()]);
    }
    let trailing_slash = pattern.ends_with('/');
    let mut words: Vec<String> = found
        .into_iter()
        .filter(|(path, _)| !trailing_slash || path.is_dir())
        .map(|(_, text)| if trailing_slash { text + "/" } else { text })
        .collect();
    if words.is_empty() {
        words.push(written.to_owned());
    }
    words.sort_unstable();
    Ok(words)
}

/// `text/name`, or `name` at the start of a relative word.
fn join(text: &str, name: &str) -> String {
    if text.is_empty() {
        name.to_owned()
    } else if text.ends_with('/') {
        format!("{text}{name}")
    } else {
        format!("{text}/{name}")
    }
}

/// Whether a component has an unescaped glob character.
fn has_glob(component: &str) -> bool {
    let mut escaped = false;
    for c in component.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '*' | '?' | '[' => return true,
            _ => {}
        }
    }
    false
}

/// A component with its escapes removed.
fn unescape(component: &str) -> String {
    let mut out = String::with_capacity(component.len());
    let mut escaped = false;
    for c in component.chars() {
        if c == '\\' && !escaped {
            escaped = true;
            continue;
        }
        escaped = false;
        out.push(c);
    }
    out
}

/// Runs of unescaped `*` as one `*`: without `globstar`, bash reads `**`
/// as `*`, while globset would read it as "any depth".
fn collapse_stars(component: &str) -> String {
    let mut out = String::with_capacity(component.len());
    let mut escaped = false;
    for c in component.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '*' && out.ends_with('*') && !out.ends_with("\\*") {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests;
