//! Opening the log's files without following symbolic links.
//!
//! It decides nothing about content. It refuses a log, lock file or parent
//! directory that is a symbolic link (the final component is opened with
//! `O_NOFOLLOW`, so there is no check-then-open race), a log that is not a
//! regular file, and a log owned by another user; it creates the directory
//! 0700 and the files 0600, and tightens a log that is wider than 0600.

use std::fs::{self, DirBuilder, File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::error::AuditError;

/// Mode of a directory we create.
const DIR_MODE: u32 = 0o700;
/// Mode of the log and its lock file.
const FILE_MODE: u32 = 0o600;

/// Creates the log's directory (0700) when missing; refuses a symlinked or
/// non-directory parent. An existing directory's mode is left alone: it may
/// be shared with the approvals file, whose store owns it.
pub(crate) fn prepare_dir(path: &Path) -> Result<(), AuditError> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(AuditError::Symlink {
            path: dir.to_path_buf(),
        }),
        Ok(meta) if !meta.is_dir() => Err(AuditError::NotRegular {
            path: dir.to_path_buf(),
        }),
        Ok(_) => Ok(()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(dir)
            .map_err(AuditError::io("create the directory of", path)),
        Err(err) => Err(AuditError::io("inspect the directory of", path)(err)),
    }
}

/// Opens (creating 0600) the log for appending and reading.
pub(crate) fn open_log_for_append(path: &Path) -> Result<File, AuditError> {
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|err| refine_open_error(path, "open", err))?;
    check_log(path, &file)?;
    Ok(file)
}

/// Opens an existing log read-only, for verify, query, tail and follow.
pub(crate) fn open_log_for_read(path: &Path) -> Result<File, AuditError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|err| refine_open_error(path, "open", err))?;
    let meta = file.metadata().map_err(AuditError::io("inspect", path))?;
    if !meta.is_file() {
        return Err(AuditError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// Opens (creating 0600) the writers' lock file.
pub(crate) fn open_lock(lock_path: &Path) -> Result<File, AuditError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW)
        .open(lock_path)
        .map_err(|err| refine_open_error(lock_path, "open the lock file", err))?;
    let meta = file
        .metadata()
        .map_err(AuditError::io("inspect the lock file", lock_path))?;
    if !meta.is_file() {
        return Err(AuditError::NotRegular {
            path: lock_path.to_path_buf(),
        });
    }
    Ok(file)
}

/// The metadata of `file` when `path` still names it (same device and
/// inode); `None` when it was renamed away, removed or replaced.
pub(crate) fn still_names(path: &Path, file: &File) -> Result<Option<fs::Metadata>, AuditError> {
    let opened = file.metadata().map_err(AuditError::io("inspect", path))?;
    match fs::symlink_metadata(path) {
        Ok(now) if (now.dev(), now.ino()) == (opened.dev(), opened.ino()) => Ok(Some(opened)),
        Ok(_) => Ok(None),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(AuditError::io("inspect", path)(err)),
    }
}

/// A log must be a regular file of ours, no wider than 0600.
fn check_log(path: &Path, file: &File) -> Result<(), AuditError> {
    let meta = file.metadata().map_err(AuditError::io("inspect", path))?;
    if !meta.is_file() {
        return Err(AuditError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me {
        return Err(AuditError::OwnedByOther {
            path: path.to_path_buf(),
            owner: meta.uid(),
        });
    }
    if meta.mode() & 0o7777 != FILE_MODE {
        tracing::warn!(path = %path.display(), mode = format_args!("{:o}", meta.mode() & 0o7777), "tightening the audit log to 0600");
        file.set_permissions(Permissions::from_mode(FILE_MODE))
            .map_err(AuditError::io("restrict the mode of", path))?;
    }
    Ok(())
}

/// `O_NOFOLLOW` on a symlink fails with `ELOOP`; say so plainly.
fn refine_open_error(path: &Path, action: &'static str, err: io::Error) -> AuditError {
    if err.raw_os_error() == Some(libc::ELOOP) {
        AuditError::Symlink {
            path: path.to_path_buf(),
        }
    } else {
        AuditError::io(action, path)(err)
    }
}

/// The rotated files of the log at `path` (`<name>.1`, `<name>.2`, …),
/// oldest (lowest number) first; numbers only grow, so a rotated file keeps
/// its name for good.
pub(crate) fn rotated_files(path: &Path) -> Result<Vec<(u64, std::path::PathBuf)>, AuditError> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(Vec::new());
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut prefix = name.to_owned();
    prefix.push(".");
    let prefix = prefix.to_string_lossy().into_owned();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(AuditError::io("list the directory of", path)(err)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(AuditError::io("list the directory of", path))?;
        let file_name = entry.file_name();
        let Some(number) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        found.push((number, dir.join(file_name)));
    }
    found.sort();
    Ok(found)
}

/// The name the current log takes when it is rotated: one past the
/// highest number in use.
pub(crate) fn next_rotated_name(path: &Path) -> Result<std::path::PathBuf, AuditError> {
    let next = rotated_files(path)?
        .last()
        .map_or(1, |(number, _)| number + 1);
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{next}"));
    Ok(std::path::PathBuf::from(name))
}
