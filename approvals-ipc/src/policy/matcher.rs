//! The compiled allowlist: every pattern of a policy in one set matcher, so
//! the cost of a lookup does not grow with the number of entries.
//!
//! Patterns are globs over the executable's real path: `*` stays within one
//! component, `**` crosses components (where it is not a whole component
//! it acts like `*`, which only narrows a match), `?` is one character and a
//! leading `~` is the home directory. Other glob syntax (`[...]`, `{a,b}`,
//! backslash escapes) is literal, as in OpenClaw. A pattern without glob
//! characters also matches its own canonical path. A bare name never
//! matches; a lone `*` matches every executable. `=command:<hex>` markers are
//! exact-command approvals, looked up by the command text's digest.

use std::collections::HashMap;
use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// Patterns compiled once per file version; indices refer to the order the
/// patterns were given in.
#[derive(Debug, Clone)]
pub struct PathMatcher {
    any: Option<usize>,
    exact: HashMap<String, usize>,
    globs: GlobSet,
    glob_entries: Vec<usize>,
    markers: HashMap<String, usize>,
    case_insensitive: bool,
}

/// Whether paths compare case-insensitively: the file systems macOS ships
/// with are, Linux ones are not (openclaw.md section 3.2).
pub const CASE_INSENSITIVE_PATHS: bool = cfg!(target_os = "macos");

impl PathMatcher {
    /// Compiles `patterns` (in entry order); returns the matcher and a
    /// warning per pattern that can never match.
    pub fn compile<'a>(
        patterns: impl IntoIterator<Item = &'a str>,
        home: Option<&Path>,
        case_insensitive: bool,
    ) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let mut any = None;
        let mut exact = HashMap::new();
        let mut markers = HashMap::new();
        let mut builder = GlobSetBuilder::new();
        let mut glob_entries = Vec::new();
        let fold = |s: &str| {
            if case_insensitive {
                s.to_lowercase()
            } else {
                s.to_owned()
            }
        };
        for (index, raw) in patterns.into_iter().enumerate() {
            let pattern = raw.trim();
            if pattern == "*" {
                any.get_or_insert(index);
                continue;
            }
            if pattern.starts_with("=command:") || pattern.starts_with("=node-command:") {
                let key = pattern.replacen("=node-command:", "=command:", 1);
                markers.entry(key).or_insert(index);
                continue;
            }
            let expanded = match expand_home(pattern, home) {
                Some(p) => p,
                None => {
                    warnings.push(format!(
                        "allowlist pattern {pattern:?} uses `~` but no home directory is known; it never matches"
                    ));
                    continue;
                }
            };
            if !expanded.starts_with('/') {
                warnings.push(format!(
                    "allowlist pattern {pattern:?} is not an absolute path; bare names never match\nhint: use the full path, e.g. \"/usr/bin/{pattern}\""
                ));
                continue;
            }
            if !expanded.contains(['*', '?']) {
                exact.entry(fold(&expanded)).or_insert(index);
                if let Ok(canonical) = std::fs::canonicalize(&expanded)
                    && let Some(c) = canonical.to_str()
                {
                    exact.entry(fold(c)).or_insert(index);
                }
                continue;
            }
            let glob_text = literal_brackets(&expanded);
            match GlobBuilder::new(&glob_text)
                .literal_separator(true)
                .backslash_escape(false)
                .case_insensitive(case_insensitive)
                .build()
            {
                Ok(glob) => {
                    builder.add(glob);
                    glob_entries.push(index);
                }
                Err(err) => warnings.push(format!(
                    "allowlist pattern {pattern:?} is not a valid glob ({err}); it never matches"
                )),
            }
        }
        let globs = builder.build().unwrap_or_else(|err| {
            warnings.push(format!(
                "allowlist globs could not be compiled ({err}); none of them match"
            ));
            glob_entries.clear();
            GlobSet::empty()
        });
        let matcher = Self {
            any,
            exact,
            globs,
            glob_entries,
            markers,
            case_insensitive,
        };
        (matcher, warnings)
    }

    /// The first entry (by index) whose pattern matches the real path.
    pub fn match_path(&self, real: &Path) -> Option<usize> {
        let text = real.to_str()?;
        let exact = if self.case_insensitive {
            self.exact.get(&text.to_lowercase()).copied()
        } else {
            self.exact.get(text).copied()
        };
        let glob = if self.globs.is_empty() {
            None
        } else {
            self.globs
                .matches(real)
                .into_iter()
                .filter_map(|i| self.glob_entries.get(i).copied())
                .min()
        };
        [self.any, exact, glob].into_iter().flatten().min()
    }

    /// The entry holding this exact-command marker, if any.
    pub fn match_marker(&self, marker: &str) -> Option<usize> {
        self.markers.get(marker).copied()
    }

    /// Whether any exact-command marker exists (so hashing the command
    /// text can be skipped).
    pub fn has_markers(&self) -> bool {
        !self.markers.is_empty()
    }

    /// Whether a lone `*` entry allows every executable.
    pub fn allows_everything(&self) -> bool {
        self.any.is_some()
    }
}

/// Expands a leading `~` or `~/`; `None` when there is one but no home.
fn expand_home(pattern: &str, home: Option<&Path>) -> Option<String> {
    if pattern == "~" || pattern.starts_with("~/") {
        let home = home?.to_str()?;
        Some(format!("{}{}", home.trim_end_matches('/'), &pattern[1..]))
    } else {
        Some(pattern.to_owned())
    }
}

/// Makes `[`, `]`, `{` and `}` literal so only `*`, `**` and `?` are special.
fn literal_brackets(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    for c in pattern.chars() {
        match c {
            '[' | ']' | '{' | '}' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
