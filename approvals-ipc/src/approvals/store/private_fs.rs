//! The filesystem steps of the store, each refusing symbolic links: read a
//! regular file, prepare a private directory, take the writer lock, replace
//! a file atomically.
//!
//! It decides nothing about content. It refuses to read or write through a
//! symbolic link (file, directory or lock file), to read more than
//! [`MAX_FILE_BYTES`], and to leave the directory wider than 0700 or the
//! file wider than 0600. The atomic replace is what makes a crash leave the
//! old file or the new one, never a broken one (DESIGN.md invariant 7).

use std::fs::{self, DirBuilder, File, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use atomic_write_file::AtomicWriteFile;
use atomic_write_file::unix::OpenOptionsExt as _;

use super::{DIR_MODE, FILE_MODE, MAX_FILE_BYTES};
use crate::approvals::error::ApprovalsError;

/// Proof that the writer lock is held; the lock is released when dropped.
pub(super) struct WriteLock {
    _file: File,
}

/// Reads a regular file's bytes (`None` when it does not exist) without
/// following a symbolic link at `path` or at its directory `dir`.
pub(super) fn read_regular(path: &Path, dir: &Path) -> Result<Option<Vec<u8>>, ApprovalsError> {
    let read_err = |source| ApprovalsError::Read {
        path: path.to_path_buf(),
        source,
    };
    refuse_symlinked_dir(dir)?;
    let before = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(read_err(err)),
    };
    check_regular(path, &before)?;
    let handle = File::open(path).map_err(read_err)?;
    let opened = handle.metadata().map_err(read_err)?;
    if (opened.dev(), opened.ino()) != (before.dev(), before.ino()) {
        // Replaced between lstat and open, possibly by a symbolic link.
        return Err(read_err(io::Error::other(
            "the file was replaced while it was being opened",
        )));
    }
    let mut bytes = Vec::new();
    handle
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    let size = bytes.len() as u64;
    if size > MAX_FILE_BYTES {
        return Err(ApprovalsError::TooLarge {
            path: path.to_path_buf(),
            size: opened.len().max(size),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(Some(bytes))
}

/// Creates `dir` with mode 0700 if needed, refuses a symlinked one, and
/// tightens an existing one to 0700.
pub(super) fn prepare_private_dir(dir: &Path) -> Result<(), ApprovalsError> {
    let write_err = |source| ApprovalsError::Write {
        path: dir.to_path_buf(),
        source,
    };
    if let Err(err) = fs::symlink_metadata(dir) {
        if err.kind() != io::ErrorKind::NotFound {
            return Err(write_err(err));
        }
        DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(dir)
            .map_err(write_err)?;
    }
    let meta = refuse_symlinked_dir(dir)?.ok_or_else(|| {
        write_err(io::Error::new(
            io::ErrorKind::NotFound,
            "the directory vanished after it was created",
        ))
    })?;
    if meta.permissions().mode() & 0o7777 != DIR_MODE {
        fs::set_permissions(dir, Permissions::from_mode(DIR_MODE)).map_err(write_err)?;
    }
    Ok(())
}

/// Takes the exclusive advisory lock on `lock_path` (created 0600), waiting
/// for other writers. Never locks through a symbolic link.
pub(super) fn lock_exclusive(lock_path: &Path) -> Result<WriteLock, ApprovalsError> {
    let lock_err = |source| ApprovalsError::Lock {
        path: lock_path.to_path_buf(),
        source,
    };
    match fs::symlink_metadata(lock_path) {
        Ok(meta) => check_regular(lock_path, &meta)?,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(lock_err(err)),
    }
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(lock_path)
        .map_err(lock_err)?;
    // A symbolic link planted between the check and the open shows up as a
    // different inode here.
    let opened = file.metadata().map_err(lock_err)?;
    let now = fs::symlink_metadata(lock_path).map_err(lock_err)?;
    if now.file_type().is_symlink() || (opened.dev(), opened.ino()) != (now.dev(), now.ino()) {
        return Err(ApprovalsError::Symlink {
            path: lock_path.to_path_buf(),
        });
    }
    file.lock().map_err(lock_err)?;
    Ok(WriteLock { _file: file })
}

/// Replaces `path` atomically: a temp file created exclusively with mode
/// 0600 in the same directory, fsync, rename, fsync of the directory.
pub(super) fn write_atomic(path: &Path, dir: &Path, bytes: &[u8]) -> Result<(), ApprovalsError> {
    let write_err = |source| ApprovalsError::Write {
        path: path.to_path_buf(),
        source,
    };
    refuse_symlinked_dir(dir)?;
    match fs::symlink_metadata(path) {
        Ok(meta) => check_regular(path, &meta)?,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(write_err(err)),
    }
    let mut options = AtomicWriteFile::options();
    options
        .mode(FILE_MODE)
        .preserve_mode(false)
        .preserve_owner(false);
    let mut temp = options.open(path).map_err(write_err)?;
    temp.write_all(bytes).map_err(write_err)?;
    // The creation mode was reduced by the umask; make it exactly 0600.
    temp.as_file()
        .set_permissions(Permissions::from_mode(FILE_MODE))
        .map_err(write_err)?;
    temp.commit().map_err(write_err)?;
    tracing::debug!(path = %path.display(), bytes = bytes.len(), "saved approvals file");
    Ok(())
}

/// Refuses a symbolic link or anything but a regular file.
fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<(), ApprovalsError> {
    if meta.file_type().is_symlink() {
        return Err(ApprovalsError::Symlink {
            path: path.to_path_buf(),
        });
    }
    if !meta.is_file() {
        return Err(ApprovalsError::NotA {
            path: path.to_path_buf(),
            expected: "regular file",
        });
    }
    Ok(())
}

/// Refuses a directory that is a symbolic link or not a directory; returns
/// its metadata, or `None` when it does not exist.
fn refuse_symlinked_dir(dir: &Path) -> Result<Option<fs::Metadata>, ApprovalsError> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(ApprovalsError::Symlink {
            path: dir.to_path_buf(),
        }),
        Ok(meta) if !meta.is_dir() => Err(ApprovalsError::NotA {
            path: dir.to_path_buf(),
            expected: "directory",
        }),
        Ok(meta) => Ok(Some(meta)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ApprovalsError::Read {
            path: dir.to_path_buf(),
            source,
        }),
    }
}
