//! The compiled allowlist: every pattern of a policy indexed once, so the
//! cost of a lookup does not grow with the number of entries.
//!
//! Exact paths and exact-command markers are hash lookups. Globs are indexed
//! by their literal directory prefix (`/opt/tool/bin/*` under
//! `/opt/tool/bin`): a lookup tries only the globs filed under one of the
//! path's own directories, a handful of hash lookups for any allowlist size.
//! (A `globset::GlobSet` of 10 000 globs spent most of a lookup walking its
//! pattern set; see BENCHMARKS.md.)
//!
//! Patterns are globs over the executable's real path: `*` stays within one
//! component, `**` crosses components (where it is not a whole component
//! it acts like `*`, which only narrows a match), `?` is one character and a
//! leading `~` is the home directory. Other glob syntax (`[...]`, `{a,b}`,
//! backslash escapes) is literal, as in OpenClaw. A pattern without glob
//! characters also matches its own canonical path. A bare name never
//! matches; a lone `*` matches every executable. `=command:<hex>` markers are
//! exact-command approvals, looked up by the command text's digest.

mod glob;

use std::path::Path;

use foldhash::HashMap;

use glob::PathGlob;

/// Patterns compiled once per file version; indices refer to the order the
/// patterns were given in.
#[derive(Debug, Clone)]
pub struct PathMatcher {
    any: Option<usize>,
    /// Exact paths, each with the indices of its entries in order (two
    /// entries can share a canonical path: `~/.cargo/bin/cargo` and
    /// `~/.cargo/bin/rustc` are both `…/rustup`).
    exact: HashMap<String, Vec<usize>>,
    /// Globs by literal directory prefix, each with its entry index.
    globs: HashMap<String, Vec<(PathGlob, usize)>>,
    /// `prefix_lens[n]`: some key of `globs` is `n` bytes long; a path's
    /// prefixes of other lengths are not looked up at all.
    prefix_lens: Vec<bool>,
    /// The lowest entry index of any glob.
    first_glob: Option<usize>,
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
        Self::compile_some(patterns.into_iter().map(Some), home, case_insensitive)
    }

    /// [`PathMatcher::compile`] where a `None` pattern holds its index but
    /// never matches (an allowlist entry matched elsewhere, e.g. one with an
    /// `argPattern`).
    pub fn compile_some<'a>(
        patterns: impl IntoIterator<Item = Option<&'a str>>,
        home: Option<&Path>,
        case_insensitive: bool,
    ) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let mut any = None;
        let mut exact = HashMap::default();
        let mut markers = HashMap::default();
        let mut globs: HashMap<String, Vec<(PathGlob, usize)>> = HashMap::default();
        let fold = |s: &str| {
            if case_insensitive {
                s.to_lowercase()
            } else {
                s.to_owned()
            }
        };
        for (index, raw) in patterns.into_iter().enumerate() {
            let Some(raw) = raw else {
                continue;
            };
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
                add_exact(&mut exact, fold(&expanded), index);
                if let Ok(canonical) = std::fs::canonicalize(&expanded)
                    && let Some(c) = canonical.to_str()
                {
                    add_exact(&mut exact, fold(c), index);
                }
                continue;
            }
            let glob = PathGlob::parse(&fold(&expanded));
            globs
                .entry(glob.literal_prefix())
                .or_default()
                .push((glob, index));
        }
        let first_glob = globs.values().flatten().map(|(_, index)| *index).min();
        let mut prefix_lens = vec![false; globs.keys().map(String::len).max().map_or(0, |n| n + 1)];
        for key in globs.keys() {
            if let Some(slot) = prefix_lens.get_mut(key.len()) {
                *slot = true;
            }
        }
        let matcher = Self {
            any,
            exact,
            first_glob,
            globs,
            prefix_lens,
            markers,
            case_insensitive,
        };
        (matcher, warnings)
    }

    /// The first entry (by index) whose pattern matches the real path.
    pub fn match_path(&self, real: &Path) -> Option<usize> {
        self.match_path_where(real, |_| true)
    }

    /// The first entry (by index) whose pattern matches the real path and
    /// that `accept` takes (the multi-call identity rule: an entry covers a
    /// multi-call binary only under its own name).
    pub fn match_path_where(&self, real: &Path, accept: impl Fn(usize) -> bool) -> Option<usize> {
        let text = real.to_str()?;
        let folded;
        let text = if self.case_insensitive {
            folded = text.to_lowercase();
            folded.as_str()
        } else {
            text
        };
        let any = self.any.filter(|i| accept(*i));
        let exact = self
            .exact
            .get(text)
            .and_then(|indices| indices.iter().copied().find(|i| accept(*i)));
        // No glob can come before an exact hit that precedes every glob.
        let globs_can_win = exact.is_none_or(|e| self.first_glob.is_some_and(|g| g < e));
        let glob = if globs_can_win {
            self.first_glob_match(text, &accept)
        } else {
            None
        };
        [any, exact, glob].into_iter().flatten().min()
    }

    /// The lowest entry index of a glob matching `text`: only globs filed
    /// under one of the path's directory prefixes (or the path) are tried.
    fn first_glob_match(&self, text: &str, accept: &impl Fn(usize) -> bool) -> Option<usize> {
        let mut parts: Option<Vec<&str>> = None;
        let mut best: Option<usize> = None;
        let ends = text
            .match_indices('/')
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()));
        for end in ends {
            if !self.prefix_lens.get(end).copied().unwrap_or(false) {
                continue;
            }
            let Some(bucket) = self.globs.get(&text[..end]) else {
                continue;
            };
            let parts = parts.get_or_insert_with(|| text.split('/').collect());
            for (glob, index) in bucket {
                if best.is_none_or(|b| *index < b) && glob.matches(parts) && accept(*index) {
                    best = Some(*index);
                }
            }
        }
        best
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

/// Files `index` under an exact path once, keeping indices in order.
fn add_exact(exact: &mut HashMap<String, Vec<usize>>, key: String, index: usize) {
    let indices = exact.entry(key).or_default();
    if !indices.contains(&index) {
        indices.push(index);
    }
}

/// Whether one file name matches one component of a pattern with the
/// allowlist's own glob rules (`*` and `?`; everything else literal), for
/// the multi-call identity rule.
pub(crate) fn name_matches(component: &str, name: &str) -> bool {
    if component.contains(['*', '?']) {
        glob::PathGlob::parse(component).matches(&[name])
    } else {
        component == name
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

#[cfg(test)]
mod tests;
