//! Executable resolution: which file a command word names, lexically and
//! after every symlink is resolved.
//!
//! A word with a `/` resolves against the command's working directory; a
//! bare name is looked up on the host's own `PATH`, never on a `PATH` the
//! request supplies (openclaw.md section 10, class 4). Matching uses the real
//! path so a link an agent made cannot borrow a trusted name, and the plan
//! executes the real path, so retargeting a link after the check changes
//! nothing.
//!
//! Lookups are cached for [`CACHE_TTL`]: resolution is a handful of path
//! walks in the kernel and dominates the cost of an evaluation. A stale entry
//! can only delay seeing a newly installed program; it can never make us run
//! something other than what was checked, because what runs is the cached
//! real path that the policy matched.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a lookup is reused before the file system is asked again.
pub const CACHE_TTL: Duration = Duration::from_secs(1);
/// How many lookups are remembered; the cache is emptied when it is full.
const CACHE_CAPACITY: usize = 4096;

/// Where a command word points: `None` fields mean "not found".
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    /// The path found by lexical lookup (cwd join or `PATH` search).
    pub resolved: Option<PathBuf>,
    /// `resolved` with every symlink resolved; what allowlists match.
    pub real: Option<PathBuf>,
}

/// Resolves command words against a fixed host `PATH`, built once per policy.
#[derive(Debug, Clone)]
pub struct Resolver {
    path_dirs: Vec<PathBuf>,
    cache: Arc<Mutex<Cache>>,
}

/// Remembered lookups. A bare name or an absolute path resolves the same
/// anywhere, so it is looked up by the word alone (borrowed, without
/// allocating); a relative path with a `/` depends on the working directory.
#[derive(Debug, Default)]
struct Cache {
    by_word: foldhash::HashMap<String, (Instant, Resolution)>,
    by_cwd: foldhash::HashMap<(PathBuf, String), (Instant, Resolution)>,
}

impl Cache {
    fn get(&self, word: &str, cwd: Option<&Path>) -> Option<&(Instant, Resolution)> {
        match cwd {
            None => self.by_word.get(word),
            Some(cwd) => self.by_cwd.get(&(cwd.to_owned(), word.to_owned())),
        }
    }

    fn insert(&mut self, word: &str, cwd: Option<&Path>, entry: (Instant, Resolution)) {
        if self.by_word.len() + self.by_cwd.len() >= CACHE_CAPACITY {
            self.by_word.clear();
            self.by_cwd.clear();
        }
        match cwd {
            None => self.by_word.insert(word.to_owned(), entry),
            Some(cwd) => self.by_cwd.insert((cwd.to_owned(), word.to_owned()), entry),
        };
    }
}

impl Resolver {
    /// Builds a resolver over the host's `PATH` value (as read from the
    /// host environment by the caller); relative `PATH` entries are dropped
    /// because they would make the lookup depend on the request's cwd.
    pub fn new(host_path: Option<OsString>) -> Self {
        let path_dirs = host_path
            .map(|p| {
                std::env::split_paths(&p)
                    .filter(|d| d.is_absolute())
                    .collect()
            })
            .unwrap_or_else(|| {
                DEFAULT_PATH
                    .split(':')
                    .map(PathBuf::from)
                    .collect::<Vec<_>>()
            });
        Self {
            path_dirs,
            cache: Arc::default(),
        }
    }

    /// Resolves `word` for a command that runs in `cwd`.
    pub fn resolve(&self, word: &str, cwd: &Path) -> Resolution {
        let depends_on = (word.contains('/') && !word.starts_with('/')).then_some(cwd);
        let now = Instant::now();
        if let Ok(cache) = self.cache.lock()
            && let Some((at, hit)) = cache.get(word, depends_on)
            && now.duration_since(*at) < CACHE_TTL
        {
            return hit.clone();
        }
        let resolution = self.resolve_uncached(word, cwd);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(word, depends_on, (now, resolution.clone()));
        }
        resolution
    }

    fn resolve_uncached(&self, word: &str, cwd: &Path) -> Resolution {
        let resolved = if word.is_empty() {
            None
        } else if word.contains('/') {
            let candidate = if word.starts_with('/') {
                PathBuf::from(word)
            } else {
                cwd.join(word)
            };
            is_executable_file(&candidate).then_some(candidate)
        } else {
            self.path_dirs
                .iter()
                .map(|dir| dir.join(word))
                .find(|candidate| is_executable_file(candidate))
        };
        let real = resolved
            .as_deref()
            .and_then(|p| std::fs::canonicalize(p).ok());
        Resolution { resolved, real }
    }

    /// The directories searched, in order; shown by `explain`.
    pub fn path_dirs(&self) -> &[PathBuf] {
        &self.path_dirs
    }
}

/// The search path used when the host has no `PATH` at all.
const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn resolves_bare_names_on_the_host_path_only() {
        let r = Resolver::new(Some("/usr/bin:/bin".into()));
        let res = r.resolve("sh", Path::new("/"));
        assert!(res.resolved.is_some());
        assert!(res.real.is_some());
    }

    #[test]
    fn relative_path_entries_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let r = Resolver::new(Some(".:bin".into()));
        assert_eq!(r.resolve("tool", dir.path()), Resolution::default());
    }

    #[test]
    fn words_with_a_slash_resolve_against_cwd_and_real_path_follows_links() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("trusted-name");
        symlink("/bin/sh", &link).unwrap();
        let r = Resolver::new(Some("/nonexistent".into()));
        let res = r.resolve("./trusted-name", dir.path());
        assert_eq!(res.resolved, Some(dir.path().join("./trusted-name")));
        assert_eq!(res.real, std::fs::canonicalize("/bin/sh").ok());
    }

    #[test]
    fn non_executable_files_do_not_resolve() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("data");
        std::fs::write(&f, "x").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        let r = Resolver::new(Some(dir.path().as_os_str().to_owned()));
        assert_eq!(r.resolve("data", dir.path()), Resolution::default());
        assert_eq!(r.resolve("./data", dir.path()), Resolution::default());
    }
}
