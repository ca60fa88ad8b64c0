//! Trusted directories: where a safe bin must live to be trusted without an
//! allowlist entry.
//!
//! `/bin` and `/usr/bin` are always trusted. Extra directories from the
//! policy are dropped, with a warning the user can act on, when an agent or
//! an ordinary user process could plant a binary there: relative paths,
//! temporary directories, per-user and package-manager directories, and
//! directories that are group- or world-writable or missing. PATH is never a
//! source of trust (openclaw.md class 4). Upholds DESIGN.md section 6.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Component, Path, PathBuf};

use super::DEFAULT_TRUSTED_DIRS;

/// Path prefixes never trusted, with why.
pub(crate) const UNTRUSTED_PREFIXES: &[(&str, &str)] = &[
    ("/Users/", "home directories are writable by the user"),
    ("/dev/shm", "world-writable"),
    ("/home/", "home directories are writable by the user"),
    (
        "/opt/homebrew",
        "package-manager directory writable by the user",
    ),
    ("/private/tmp", "world-writable"),
    ("/private/var/tmp", "world-writable"),
    ("/root/", "home directory of root, not a system directory"),
    (
        "/snap/bin",
        "package-manager shims, not the binaries themselves",
    ),
    ("/tmp", "world-writable"),
    (
        "/usr/local/bin",
        "package-manager directory often writable by the user",
    ),
    ("/var/tmp", "world-writable"),
];

/// Path fragments never trusted anywhere in a path, with why.
pub(crate) const UNTRUSTED_FRAGMENTS: &[(&str, &str)] = &[
    ("/.local/bin", "per-user install directory"),
    ("/.nvm", "per-user node version manager"),
];

/// Returns the trusted directories (defaults first, then accepted extras,
/// without duplicates) and a warning per dropped extra.
pub fn trusted_dirs(extra: &[String]) -> (Vec<PathBuf>, Vec<String>) {
    let mut dirs: Vec<PathBuf> = DEFAULT_TRUSTED_DIRS.iter().map(PathBuf::from).collect();
    let mut warnings = Vec::new();
    for raw in extra {
        match accept(raw) {
            Ok(dir) => {
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
            Err(why) => {
                tracing::warn!(dir = %raw, reason = %why, "safe-bin trusted dir dropped");
                warnings.push(format!("safe-bin trusted dir `{raw}` ignored: {why}"));
            }
        }
    }
    (dirs, warnings)
}

/// True when `real_path` (symlinks resolved) sits directly in one of `dirs`.
pub fn in_trusted_dir(real_path: &Path, dirs: &[PathBuf]) -> bool {
    real_path
        .parent()
        .is_some_and(|p| dirs.iter().any(|d| d == p))
}

/// The normalized directory, or why it is not trusted.
fn accept(raw: &str) -> Result<PathBuf, String> {
    let dir = lexical_dir(raw)?;
    let text = format!("{}/", dir.display());
    for (prefix, why) in UNTRUSTED_PREFIXES {
        let bare = prefix.trim_end_matches('/');
        if text.starts_with(&format!("{bare}/")) {
            return Err(format!("under `{bare}`, {why}"));
        }
    }
    for (fragment, why) in UNTRUSTED_FRAGMENTS {
        if text.contains(&format!("{fragment}/")) {
            return Err(format!("contains `{fragment}`, {why}"));
        }
    }
    let meta = std::fs::metadata(&dir).map_err(|e| format!("cannot be read ({e})"))?;
    if !meta.is_dir() {
        return Err("not a directory".to_owned());
    }
    if meta.permissions().mode() & 0o022 != 0 {
        return Err("group- or world-writable".to_owned());
    }
    Ok(dir)
}

/// An absolute, `..`-free, normalized form of `raw`, or why there is none.
fn lexical_dir(raw: &str) -> Result<PathBuf, String> {
    let path = Path::new(raw);
    if !path.is_absolute() {
        return Err("not an absolute path".to_owned());
    }
    let mut out = PathBuf::from("/");
    for comp in path.components() {
        match comp {
            Component::RootDir | Component::CurDir => {}
            Component::Normal(part) => out.push(part),
            Component::ParentDir | Component::Prefix(_) => {
                return Err("contains `..`".to_owned());
            }
        }
    }
    if out == Path::new("/") {
        return Err("the root directory is too broad".to_owned());
    }
    Ok(out)
}
