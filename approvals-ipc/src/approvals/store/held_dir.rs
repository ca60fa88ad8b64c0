//! The state directory, opened by a checked walk from `/` and held open.
//!
//! It decides how the directory that holds the approvals file is reached:
//! one component at a time from `/`, each opened with `openat` and
//! `O_NOFOLLOW | O_DIRECTORY` relative to the one before and checked with
//! `fstat` by the StrictModes rule ([`super::strict_modes`]). A symbolic link
//! on the way (`/var -> /private/var`) is followed only when root or we own
//! it, at most [`MAX_LINKS`] times; the state directory itself may not be a
//! link. The result is a [`HeldDir`]: a file descriptor of the very
//! directory that was checked, so reads, the lock and the atomic replace
//! work relative to it and a directory renamed or swapped in afterwards
//! cannot take effect. [`HeldDir::still_at_path`] tells whether the path
//! still names it.
//!
//! It refuses a directory on the way, or the state directory, that someone
//! other than root or us owns or may write to (sticky parents excepted), a
//! path that is not a directory, and more links than the bound.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, open, openat, readlinkat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstat, fstatat, mkdirat};

use super::strict_modes::{self, Inode, Role};
use crate::approvals::error::ApprovalsError;

/// Symbolic links one walk may follow, as Linux's `MAXSYMLINKS`.
pub const MAX_LINKS: usize = 40;

/// How directories on the way are opened: only to search them, so a parent
/// we may enter but not list (mode 0711) still works where the OS allows it.
#[cfg(any(target_os = "linux", target_os = "android"))]
const SEARCH: OFlag = OFlag::O_PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const SEARCH: OFlag = OFlag::O_RDONLY;

/// How each directory on the way is opened: a directory, never through a
/// symbolic link (one planted after the `fstatat` fails the open), and not
/// inherited by the commands we run.
const STEP: OFlag = SEARCH
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

/// How the state directory is held: readable, so that it can be fsynced
/// after a rename, and not inherited by the commands we run.
const HOLD: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_CLOEXEC);

/// A directory opened by a checked walk; operations relative to it cannot be
/// redirected by renaming or replacing anything on its path.
#[derive(Debug)]
pub struct HeldDir {
    /// Invariant: an `O_RDONLY` descriptor of the directory `inode` names,
    /// reached by a walk in which every level passed the StrictModes rule.
    fd: OwnedFd,
    /// The path as configured, made absolute (symbolic links not resolved).
    path: PathBuf,
    /// The path the walk took, links resolved: what error messages name.
    real: PathBuf,
    inode: Inode,
}

/// One directory of the walk so far.
struct Level {
    fd: OwnedFd,
    path: PathBuf,
}

impl HeldDir {
    /// Walks to the existing directory `path` and holds it; `None` when it
    /// (or a directory above it) does not exist.
    pub fn open(path: &Path) -> Result<Option<HeldDir>, ApprovalsError> {
        walk(path, false)
    }

    /// Walks to `path`, creating missing directories with mode 0700, and
    /// holds it.
    pub fn create(path: &Path) -> Result<HeldDir, ApprovalsError> {
        walk(path, true)?.ok_or_else(|| ApprovalsError::Write {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::NotFound, "the directory vanished"),
        })
    }

    /// The path as configured (absolute).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path the walk took, with symbolic links resolved.
    pub fn real_path(&self) -> &Path {
        &self.real
    }

    /// The held directory, for `openat`-style calls.
    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Device, inode, owner and mode of the held directory when it was opened.
    pub(crate) fn inode(&self) -> Inode {
        self.inode
    }

    /// Whether another walk reached the very same directory.
    pub(crate) fn same_dir(&self, other: &HeldDir) -> bool {
        self.inode.same_file(&other.inode)
    }

    /// Refuses with [`ApprovalsError::Replaced`] unless the configured path
    /// still names the held directory: one `stat`, cheap enough for every
    /// request. A path that no longer resolves at all (removed, a file or a
    /// link loop in its place) counts as replaced too. It does not re-check
    /// owners; [`HeldDir::open`] does.
    pub fn still_at_path(&self) -> Result<(), ApprovalsError> {
        match std::fs::metadata(&self.path) {
            Ok(meta) if (meta.dev(), meta.ino()) == (self.inode.dev, self.inode.ino) => Ok(()),
            Ok(_) => Err(self.replaced()),
            Err(error) => {
                tracing::debug!(path = %self.path.display(), %error, "the held directory's path no longer resolves");
                Err(self.replaced())
            }
        }
    }

    /// The refusal for a path that now names another directory.
    pub(crate) fn replaced(&self) -> ApprovalsError {
        ApprovalsError::Replaced {
            path: self.path.clone(),
        }
    }
}

/// The walk behind [`HeldDir::open`] and [`HeldDir::create`].
fn walk(path: &Path, create: bool) -> Result<Option<HeldDir>, ApprovalsError> {
    let absolute = std::path::absolute(path).map_err(|source| ApprovalsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let euid = nix::unistd::geteuid().as_raw();
    let root_path = PathBuf::from("/");
    let root = open("/", STEP, Mode::empty()).map_err(read_error(&root_path))?;
    let root_inode = inode_of(&fstat(&root).map_err(read_error(&root_path))?);
    strict_modes::check(&root_path, &root_inode, Role::Parent, euid)?;
    // `current` is where the walk is; `above` holds the directories over it,
    // the root first, so `..` and an absolute link can go back up.
    let mut current = Level {
        fd: root,
        path: root_path,
    };
    let mut above: Vec<Level> = Vec::new();
    let mut pending = components(&absolute);
    let mut links = 0;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            // The root stays: `/..` is `/`.
            if let Some(up) = above.pop() {
                current = up;
            }
            continue;
        }
        let parent = &current;
        let here = parent.path.join(&name);
        let stat = match lstat_in(parent.fd.as_fd(), &name, &here)? {
            Some(stat) => stat,
            None if create => {
                match mkdirat(parent.fd.as_fd(), name.as_os_str(), Mode::S_IRWXU) {
                    Ok(()) | Err(Errno::EEXIST) => {}
                    Err(errno) => return Err(write_error(&here)(errno)),
                }
                tracing::debug!(path = %here.display(), "created state directory");
                lstat_in(parent.fd.as_fd(), &name, &here)?
                    .ok_or_else(|| write_error(&here)(Errno::ENOENT))?
            }
            None => return Ok(None),
        };
        let inode = inode_of(&stat);
        let kind = SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT;
        if kind == SFlag::S_IFLNK {
            if pending.is_empty() {
                return Err(ApprovalsError::Symlink { path: here });
            }
            strict_modes::check(&here, &inode, Role::Link, euid)?;
            links += 1;
            if links > MAX_LINKS {
                return Err(ApprovalsError::TooManyLinks {
                    path: absolute,
                    limit: MAX_LINKS,
                });
            }
            let target = PathBuf::from(
                readlinkat(parent.fd.as_fd(), name.as_os_str()).map_err(read_error(&here))?,
            );
            if target.has_root()
                && let Some(root) = above.drain(..).next()
            {
                current = root;
            }
            for part in components(&target).into_iter().rev() {
                pending.push_front(part);
            }
            continue;
        }
        if kind != SFlag::S_IFDIR {
            return Err(ApprovalsError::NotA {
                path: here,
                expected: "directory",
            });
        }
        let fd = openat(parent.fd.as_fd(), name.as_os_str(), STEP, Mode::empty())
            .map_err(read_error(&here))?;
        let opened = inode_of(&fstat(&fd).map_err(read_error(&here))?);
        strict_modes::check(&here, &opened, Role::Parent, euid)?;
        above.push(std::mem::replace(&mut current, Level { fd, path: here }));
    }
    let top = current;
    let fd = openat(top.fd.as_fd(), ".", HOLD, Mode::empty()).map_err(read_error(&top.path))?;
    let inode = inode_of(&fstat(&fd).map_err(read_error(&top.path))?);
    strict_modes::check(&top.path, &inode, Role::Private, euid)?;
    Ok(Some(HeldDir {
        fd,
        path: absolute,
        real: top.path,
        inode,
    }))
}

/// `fstatat` without following a link; `None` when the name does not exist.
pub(crate) fn lstat_in(
    dir: BorrowedFd<'_>,
    name: &std::ffi::OsStr,
    path: &Path,
) -> Result<Option<FileStat>, ApprovalsError> {
    match fstatat(dir, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(stat) => Ok(Some(stat)),
        Err(Errno::ENOENT) => Ok(None),
        Err(errno) => Err(read_error(path)(errno)),
    }
}

/// The owner, mode and identity of a `stat` result.
// `st_mode` and `st_dev` have other widths on other platforms.
#[allow(clippy::unnecessary_cast)]
pub(crate) fn inode_of(stat: &FileStat) -> Inode {
    Inode {
        uid: stat.st_uid,
        mode: stat.st_mode as u32,
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
    }
}

/// The path's components as names to walk: `/` and `.` dropped, `..` kept.
fn components(path: &Path) -> VecDeque<OsString> {
    path.components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect()
}

/// A failed system call while reading `path`.
pub(crate) fn read_error(path: &Path) -> impl FnOnce(Errno) -> ApprovalsError + use<> {
    let path = path.to_path_buf();
    move |errno| ApprovalsError::Read {
        path,
        source: io::Error::from(errno),
    }
}

/// A failed system call while writing `path`.
pub(crate) fn write_error(path: &Path) -> impl FnOnce(Errno) -> ApprovalsError + use<> {
    let path = path.to_path_buf();
    move |errno| ApprovalsError::Write {
        path,
        source: io::Error::from(errno),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    /// A second UID to own things; only root can give files away.
    const NOBODY: u32 = 65534;

    fn is_root() -> bool {
        nix::unistd::geteuid().is_root()
    }

    fn set_mode(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    fn private_dir(root: &Path, name: &str) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir(&dir).unwrap();
        set_mode(&dir, 0o700);
        dir
    }

    #[test]
    fn holds_an_existing_private_directory_and_names_its_real_path() {
        let tmp = tempfile::tempdir().unwrap();
        let state = private_dir(tmp.path(), "state");
        let held = HeldDir::open(&state).unwrap().unwrap();
        let meta = std::fs::metadata(&state).unwrap();
        assert_eq!(
            (held.inode().dev, held.inode().ino),
            (meta.dev(), meta.ino())
        );
        assert_eq!(held.path(), state);
        assert_eq!(held.real_path(), state.canonicalize().unwrap());
        held.still_at_path().unwrap();
    }

    #[test]
    fn a_missing_directory_is_none_and_create_makes_it_0700() {
        let tmp = tempfile::tempdir().unwrap();
        let state = tmp.path().join("a/b/state");
        assert!(HeldDir::open(&state).unwrap().is_none());
        let held = HeldDir::create(&state).unwrap();
        for dir in [tmp.path().join("a"), tmp.path().join("a/b"), state.clone()] {
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode & 0o077, 0, "{}: {mode:o}", dir.display());
        }
        assert!(held.same_dir(&HeldDir::open(&state).unwrap().unwrap()));
    }

    #[test]
    fn a_group_or_world_writable_state_directory_is_refused_even_when_sticky() {
        let tmp = tempfile::tempdir().unwrap();
        let state = private_dir(tmp.path(), "state");
        for mode in [0o770, 0o702, 0o1777] {
            set_mode(&state, mode);
            let err = HeldDir::open(&state).unwrap_err();
            assert!(
                matches!(&err, ApprovalsError::WritableByOthers { path, mode: m } if *path == state && *m == mode),
                "{mode:o}: {err:?}"
            );
        }
    }

    #[test]
    fn a_writable_parent_is_refused_unless_sticky() {
        let tmp = tempfile::tempdir().unwrap();
        let parent = private_dir(tmp.path(), "parent");
        let state = private_dir(&parent, "state");
        set_mode(&parent, 0o777);
        let err = HeldDir::open(&state).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::WritableByOthers { path, .. } if *path == parent),
            "{err:?}"
        );
        set_mode(&parent, 0o1777);
        HeldDir::open(&state).unwrap().unwrap();
    }

    #[test]
    fn a_symlinked_parent_is_followed_and_a_symlinked_state_directory_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let real = private_dir(tmp.path(), "real");
        let state = private_dir(&real, "state");
        symlink(&real, tmp.path().join("abs-link")).unwrap();
        symlink("real", tmp.path().join("rel-link")).unwrap();
        for via in [
            "abs-link/state",
            "rel-link/state",
            "real/../rel-link/./state",
        ] {
            let held = HeldDir::open(&tmp.path().join(via)).unwrap().unwrap();
            assert_eq!(held.real_path(), state.canonicalize().unwrap(), "{via}");
        }
        symlink(&state, tmp.path().join("state-link")).unwrap();
        let err = HeldDir::open(&tmp.path().join("state-link")).unwrap_err();
        assert!(matches!(err, ApprovalsError::Symlink { .. }), "{err:?}");
    }

    #[test]
    fn a_symlink_loop_stops_at_the_bound() {
        let tmp = tempfile::tempdir().unwrap();
        symlink("loop-b", tmp.path().join("loop-a")).unwrap();
        symlink("loop-a", tmp.path().join("loop-b")).unwrap();
        let err = HeldDir::open(&tmp.path().join("loop-a/state")).unwrap_err();
        assert!(
            matches!(
                err,
                ApprovalsError::TooManyLinks {
                    limit: MAX_LINKS,
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn a_chain_of_links_up_to_the_bound_is_followed() {
        let tmp = tempfile::tempdir().unwrap();
        private_dir(tmp.path(), "l0");
        private_dir(&tmp.path().join("l0"), "state");
        for i in 1..=MAX_LINKS {
            symlink(format!("l{}", i - 1), tmp.path().join(format!("l{i}"))).unwrap();
        }
        let last = tmp.path().join(format!("l{MAX_LINKS}/state"));
        HeldDir::open(&last).unwrap().unwrap();
        symlink(format!("l{MAX_LINKS}"), tmp.path().join("one-more")).unwrap();
        let err = HeldDir::open(&tmp.path().join("one-more/state")).unwrap_err();
        assert!(
            matches!(err, ApprovalsError::TooManyLinks { .. }),
            "{err:?}"
        );
    }

    #[test]
    fn a_file_on_the_way_is_not_a_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        for path in [file.clone(), file.join("state")] {
            let err = HeldDir::open(&path).unwrap_err();
            assert!(
                matches!(&err, ApprovalsError::NotA { path: p, expected: "directory" } if *p == file),
                "{err:?}"
            );
        }
    }

    #[test]
    fn dot_dot_at_the_root_stays_at_the_root() {
        let held = HeldDir::open(Path::new("/../..")).unwrap().unwrap();
        assert_eq!(held.real_path(), Path::new("/"));
    }

    #[test]
    fn a_renamed_or_replaced_directory_is_no_longer_at_the_path() {
        let tmp = tempfile::tempdir().unwrap();
        let state = private_dir(tmp.path(), "state");
        let held = HeldDir::open(&state).unwrap().unwrap();
        std::fs::rename(&state, tmp.path().join("moved")).unwrap();
        let err = held.still_at_path().unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::Replaced { path } if *path == state),
            "{err:?}"
        );
        private_dir(tmp.path(), "state");
        let err = held.still_at_path().unwrap_err();
        assert!(matches!(err, ApprovalsError::Replaced { .. }), "{err:?}");
        assert!(!held.same_dir(&HeldDir::open(&state).unwrap().unwrap()));
    }

    #[test]
    fn a_file_or_a_link_loop_in_place_of_the_directory_counts_as_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let state = private_dir(tmp.path(), "state");
        let held = HeldDir::open(&state).unwrap().unwrap();
        std::fs::rename(&state, tmp.path().join("moved")).unwrap();
        std::fs::write(&state, "not a directory").unwrap();
        assert!(matches!(
            held.still_at_path(),
            Err(ApprovalsError::Replaced { .. })
        ));
        std::fs::remove_file(&state).unwrap();
        symlink("state", &state).unwrap();
        assert!(matches!(
            held.still_at_path(),
            Err(ApprovalsError::Replaced { .. })
        ));
    }

    #[test]
    fn directories_and_links_owned_by_another_uid_are_refused() {
        if !is_root() {
            eprintln!("skipped: only root can give a directory to another uid");
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let parent = private_dir(tmp.path(), "parent");
        let state = private_dir(&parent, "state");
        std::os::unix::fs::chown(&state, Some(NOBODY), None).unwrap();
        let err = HeldDir::open(&state).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotOwned { path, owner: NOBODY, expected: 0 } if *path == state),
            "{err:?}"
        );
        std::os::unix::fs::chown(&state, Some(0), None).unwrap();
        std::os::unix::fs::chown(&parent, Some(NOBODY), None).unwrap();
        let err = HeldDir::open(&state).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotOwned { path, .. } if *path == parent),
            "{err:?}"
        );
        std::os::unix::fs::chown(&parent, Some(0), None).unwrap();
        let link = tmp.path().join("link");
        symlink("parent", &link).unwrap();
        std::os::unix::fs::lchown(&link, Some(NOBODY), None).unwrap();
        let err = HeldDir::open(&link.join("state")).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotOwned { path, .. } if *path == link),
            "{err:?}"
        );
    }
}
