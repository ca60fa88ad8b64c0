//! Whether a path holds a link, at the fewest system calls the path allows.
//!
//! [`Secrets::named_by`](super::Secrets::named_by) asks this for every
//! argument that can name a file, so its cost is paid on every evaluation
//! (DESIGN.md section 9 budgets a whole argv evaluation at 2 µs, and one
//! path system call here costs about 0.7 µs). Most paths hold no link, and
//! proving that is the common case:
//!
//! - a name one component below a directory known to hold no link (the
//!   root, or the segment's real working directory): one `readlink`;
//! - any other path, on Linux: one `openat2` with `RESOLVE_NO_SYMLINKS`,
//!   which fails on the first link anywhere on the path (a dangling one
//!   included) instead of following it;
//! - only when one of those finds a link, or cannot answer, is the path
//!   resolved as the kernel would ([`resolve`]).
//!
//! Nothing is cached: a link an earlier request brought (a clone, an
//! archive) must be seen by the next one.

use std::path::{Path, PathBuf};

/// Where `path` (absolute) leads when a link on it leads elsewhere; `None`
/// when no link is on it, so that its real path is its lexical one.
/// `one_below_real`: `path` is one name below a directory that holds no
/// link, so only that name is looked at.
pub(crate) fn linked(path: &Path, one_below_real: bool) -> Option<PathBuf> {
    if one_below_real {
        // Only the last component can be a link. `readlink` answers that
        // alone (`EINVAL` for anything else, `ENOENT` for nothing), at
        // about two thirds of the cost of an `lstat`, which also fills in
        // the attributes nobody reads here.
        return match std::fs::read_link(path) {
            Ok(_) => resolve(path),
            Err(_) => None,
        };
    }
    match no_link_on(path) {
        Some(true) => None,
        Some(false) | None => {
            let real = resolve(path)?;
            (real != crate::policy::analysis::normalize(path)).then_some(real)
        }
    }
}

/// The real path of a working directory (absolute): itself when no link is
/// on it, else where its links lead; itself when it cannot be resolved (a
/// directory a command makes before it moves there).
pub(crate) fn real_dir(dir: &Path) -> PathBuf {
    match no_link_on(dir) {
        Some(true) => dir.to_path_buf(),
        _ => resolve(dir).unwrap_or_else(|| dir.to_path_buf()),
    }
}

/// `Some(true)` when no component of `path` is a link (whether or not the
/// path exists: a missing component holds no link and nothing below it
/// exists), `Some(false)` when one is, `None` when the kernel cannot say
/// (an unreadable directory, a kernel before 5.6).
#[cfg(target_os = "linux")]
fn no_link_on(path: &Path) -> Option<bool> {
    use nix::errno::Errno;
    use nix::fcntl::{OFlag, OpenHow, ResolveFlag, openat2};

    // `O_PATH` opens nothing for reading; without `O_NOFOLLOW`, a link as
    // the last component fails like any other.
    let how = OpenHow::new()
        .flags(OFlag::O_PATH | OFlag::O_CLOEXEC)
        .resolve(ResolveFlag::RESOLVE_NO_SYMLINKS);
    match openat2(nix::fcntl::AT_FDCWD, path, how) {
        Ok(_fd) => Some(true),
        Err(Errno::ENOENT) => Some(true),
        Err(Errno::ELOOP) => Some(false),
        Err(_) => None,
    }
}

/// Without `openat2`, every path is resolved.
#[cfg(not(target_os = "linux"))]
fn no_link_on(_path: &Path) -> Option<bool> {
    None
}

/// Where `path` leads once every link in it is followed: the real path of
/// the file; when it does not exist, the real path of its directory joined
/// with its last component, after following that component while it is a
/// dangling link (a file about to be written through one); when the
/// directory does not exist either, the real path of its nearest existing
/// ancestor joined with the rest (`home/.aws/credentials` with `home` → `~`
/// and no `~/.aws` yet leads to `~/.aws/credentials`: an earlier part of
/// the command, or the host, may make it). `None` after as many links as
/// the kernel follows, or for a path with no existing ancestor.
pub(super) fn resolve(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        if let Ok(real) = std::fs::canonicalize(&path) {
            return Some(real);
        }
        let Ok(dir) = std::fs::canonicalize(path.parent()?) else {
            return below_existing_ancestor(&path);
        };
        let last = dir.join(path.file_name()?);
        match std::fs::read_link(&last) {
            Ok(target) => path = dir.join(target),
            Err(_) => return Some(last),
        }
    }
    None
}

/// `path` (whose directory does not exist) as the real path of its
/// nearest existing ancestor joined with the components below it, `.`
/// dropped and `..` taking one back (the kernel would refuse a `..` after
/// a missing directory; reading it lexically can only name more paths).
fn below_existing_ancestor(path: &Path) -> Option<PathBuf> {
    let parts: Vec<_> = path.components().collect();
    (1..parts.len()).rev().find_map(|k| {
        let base: PathBuf = parts[..k].iter().collect();
        let mut out = std::fs::canonicalize(&base).ok()?;
        out.extend(&parts[k..]);
        crate::policy::guards::parse::normalize(&out)
    })
}

#[cfg(test)]
#[path = "links_tests.rs"]
mod tests;
