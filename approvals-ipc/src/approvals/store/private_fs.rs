//! The filesystem steps of the store, each relative to the held state
//! directory and each refusing symbolic links: read a regular file, make the
//! directory private, take the writer lock, replace a file atomically.
//!
//! It decides nothing about content. It refuses to read or write through a
//! symbolic link (file or lock file; the directory was reached by a checked
//! walk, see [`super::held_dir`]), to read more than [`MAX_FILE_BYTES`], to
//! use a file that someone other than root or us owns or may write to, and
//! to leave the directory wider than 0700 or the file wider than 0600. Every
//! call names its file by a name inside the held directory, never by a path,
//! so a directory swapped in after the walk is never read or written. The
//! atomic replace (temp file, fsync, `renameat`, fsync of the directory) is
//! what makes a crash leave the old file or the new one, never a broken one
//! (DESIGN.md invariant 7).

use std::ffi::{OsStr, OsString};
use std::fs::{File, Permissions};
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use nix::errno::Errno;
use nix::fcntl::{OFlag, openat, renameat};
use nix::sys::stat::{FileStat, Mode, SFlag, fchmod};
use nix::unistd::{UnlinkatFlags, fsync, unlinkat};

use super::held_dir::{HeldDir, inode_of, lstat_in, read_error, write_error};
use super::strict_modes::{self, Role};
use super::{DIR_MODE, FILE_MODE, MAX_FILE_BYTES};
use crate::approvals::error::ApprovalsError;

/// Temp names tried before giving up when each one already exists.
const TEMP_ATTEMPTS: usize = 8;

/// How the approvals file is opened for reading: never through a symbolic
/// link, without blocking on a FIFO planted in its place, never as our
/// controlling terminal, not inherited by the commands we run.
const READ: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_NONBLOCK)
    .union(OFlag::O_NOCTTY)
    .union(OFlag::O_CLOEXEC);

/// How the lock file is opened: created when missing, never through a
/// symbolic link, without blocking on a FIFO, not inherited.
const LOCK: OFlag = OFlag::O_RDWR
    .union(OFlag::O_CREAT)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_NONBLOCK)
    .union(OFlag::O_CLOEXEC);

/// How a temp file is created: only if no file of that name exists (so
/// nothing planted is ever written to), never through a symbolic link,
/// not inherited.
const TEMP: OFlag = OFlag::O_WRONLY
    .union(OFlag::O_CREAT)
    .union(OFlag::O_EXCL)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

/// Proof that the writer lock is held; the lock is released when dropped.
pub(super) struct WriteLock {
    _file: File,
}

/// One file inside the held directory: its name there and its full path
/// for messages.
#[derive(Clone, Copy)]
pub(super) struct Entry<'a> {
    /// The name inside the directory.
    pub(super) name: &'a OsStr,
    /// The configured path, for messages.
    pub(super) path: &'a Path,
}

/// Reads a regular file's bytes (`None` when it does not exist), never
/// through a symbolic link, refusing a file another user owns or may write.
pub(super) fn read_regular(
    dir: &HeldDir,
    entry: Entry<'_>,
) -> Result<Option<Vec<u8>>, ApprovalsError> {
    let fd = match openat(dir.fd(), entry.name, READ, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::ENOENT) => return Ok(None),
        Err(errno) => return Err(refusal_or(dir, entry, errno, read_error(entry.path))),
    };
    let file = checked_file(fd, entry)?;
    let read_err = |source| ApprovalsError::Read {
        path: entry.path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    (&file)
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    let size = bytes.len() as u64;
    if size > MAX_FILE_BYTES {
        let on_disk = file.metadata().map(|meta| meta.len()).unwrap_or(size);
        return Err(ApprovalsError::TooLarge {
            path: entry.path.to_path_buf(),
            size: on_disk.max(size),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(Some(bytes))
}

/// Sets the held directory to 0700 when it is ours (one that passed the
/// owner checks may still be 0755); root's is left as root made it.
pub(super) fn make_private(dir: &HeldDir) -> Result<(), ApprovalsError> {
    if dir.inode().uid == nix::unistd::geteuid().as_raw() {
        fchmod(dir.fd(), Mode::from_bits_truncate(DIR_MODE as _))
            .map_err(write_error(dir.path()))?;
    }
    Ok(())
}

/// Takes the exclusive advisory lock on the lock file (created 0600),
/// waiting for other writers. Never locks through a symbolic link.
pub(super) fn lock_exclusive(dir: &HeldDir, entry: Entry<'_>) -> Result<WriteLock, ApprovalsError> {
    let lock_err = |source| ApprovalsError::Lock {
        path: entry.path.to_path_buf(),
        source,
    };
    let fd = openat(dir.fd(), entry.name, LOCK, file_mode())
        .map_err(|errno| refusal_or(dir, entry, errno, |errno| lock_err(io::Error::from(errno))))?;
    let file = checked_file(fd, entry)?;
    file.lock().map_err(lock_err)?;
    Ok(WriteLock { _file: file })
}

/// Replaces the file atomically: a temp file created exclusively with mode
/// 0600 in the held directory, fsync, `renameat` over the file, fsync of the
/// directory. Writes nothing when the temp file cannot be made.
pub(super) fn write_atomic(
    dir: &HeldDir,
    entry: Entry<'_>,
    bytes: &[u8],
) -> Result<(), ApprovalsError> {
    let write_err = |source| ApprovalsError::Write {
        path: entry.path.to_path_buf(),
        source,
    };
    if let Some(stat) = lstat_in(dir.fd(), entry.name, entry.path)? {
        check_regular(entry.path, &stat)?;
    }
    let (temp_name, fd) = create_temp(dir, entry)?;
    let written = (|| {
        let mut file = File::from(fd);
        file.write_all(bytes)?;
        // The creation mode was reduced by the umask; make it exactly 0600.
        file.set_permissions(Permissions::from_mode(FILE_MODE))?;
        file.sync_all()?;
        renameat(dir.fd(), temp_name.as_os_str(), dir.fd(), entry.name).map_err(io::Error::from)
    })();
    if let Err(err) = written {
        if let Err(errno) = unlinkat(dir.fd(), temp_name.as_os_str(), UnlinkatFlags::NoRemoveDir) {
            tracing::warn!(path = %entry.path.display(), %errno, "cannot remove the temp file");
        }
        return Err(write_err(err));
    }
    fsync(dir.fd()).map_err(|errno| write_err(io::Error::from(errno)))?;
    tracing::debug!(path = %entry.path.display(), bytes = bytes.len(), "saved approvals file");
    Ok(())
}

/// Creates `.NAME.XXXXXXXXXXXX` exclusively (mode 0600) in the held directory.
fn create_temp(dir: &HeldDir, entry: Entry<'_>) -> Result<(OsString, OwnedFd), ApprovalsError> {
    let write_err = |source| ApprovalsError::Write {
        path: entry.path.to_path_buf(),
        source,
    };
    let mut last = io::Error::from(Errno::EEXIST);
    for _ in 0..TEMP_ATTEMPTS {
        let mut suffix = [0u8; 6];
        getrandom::fill(&mut suffix).map_err(|err| write_err(io::Error::other(err.to_string())))?;
        let mut name = OsString::from(".");
        name.push(entry.name);
        name.push(".");
        name.push(hex::encode(suffix));
        match openat(dir.fd(), name.as_os_str(), TEMP, file_mode()) {
            Ok(fd) => return Ok((name, fd)),
            Err(Errno::EEXIST) => last = io::Error::from(Errno::EEXIST),
            Err(errno) => return Err(write_err(io::Error::from(errno))),
        }
    }
    Err(write_err(last))
}

/// The opened file, refused unless it is a regular file root or we own and
/// nobody else may write.
fn checked_file(fd: OwnedFd, entry: Entry<'_>) -> Result<File, ApprovalsError> {
    let stat = nix::sys::stat::fstat(&fd).map_err(read_error(entry.path))?;
    check_regular(entry.path, &stat)?;
    strict_modes::check(
        entry.path,
        &inode_of(&stat),
        Role::Private,
        nix::unistd::geteuid().as_raw(),
    )?;
    Ok(File::from(fd))
}

/// Turns a failed open into the refusal it stands for (a symbolic link, or
/// not a regular file), else into `other`'s error.
fn refusal_or(
    dir: &HeldDir,
    entry: Entry<'_>,
    errno: Errno,
    other: impl FnOnce(Errno) -> ApprovalsError,
) -> ApprovalsError {
    if matches!(
        errno,
        Errno::ELOOP | Errno::EMLINK | Errno::EISDIR | Errno::ENXIO
    ) && let Ok(Some(stat)) = lstat_in(dir.fd(), entry.name, entry.path)
        && let Err(refusal) = check_regular(entry.path, &stat)
    {
        return refusal;
    }
    other(errno)
}

/// Refuses a symbolic link or anything but a regular file.
fn check_regular(path: &Path, stat: &FileStat) -> Result<(), ApprovalsError> {
    let kind = SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT;
    if kind == SFlag::S_IFLNK {
        return Err(ApprovalsError::Symlink {
            path: path.to_path_buf(),
        });
    }
    if kind != SFlag::S_IFREG {
        return Err(ApprovalsError::NotA {
            path: path.to_path_buf(),
            expected: "regular file",
        });
    }
    Ok(())
}

/// [`FILE_MODE`] as a creation mode.
fn file_mode() -> Mode {
    Mode::from_bits_truncate(FILE_MODE as _)
}
