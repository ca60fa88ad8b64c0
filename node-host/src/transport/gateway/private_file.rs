//! The state directory's files, kept private: the directory is created
//! 0700 and files 0600, and a directory or file that another user owns or
//! that group or others may access is refused with the command that fixes
//! it. Files are never opened through a symbolic link and are replaced
//! atomically (temp file, fsync, rename), so a crash leaves the old file or
//! the new one.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::error::GatewayError;

/// Mode of the state directory.
pub const DIR_MODE: u32 = 0o700;
/// Mode of every state file.
pub const FILE_MODE: u32 = 0o600;
/// State files are small; anything bigger is not ours.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Creates `dir` 0700 when missing; refuses one another user owns or that
/// group or others may access.
pub fn ensure_private_dir(dir: &Path) -> Result<(), GatewayError> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
        .map_err(|source| io_error(dir, "create the state directory", source))?;
    let meta =
        fs::metadata(dir).map_err(|source| io_error(dir, "inspect the state directory", source))?;
    if !meta.is_dir() {
        return Err(unsafe_path(
            dir,
            "is not a directory".to_owned(),
            "choose another --state-dir".to_owned(),
        ));
    }
    check_owner_and_mode(dir, &meta, DIR_MODE)
}

/// Reads a private file; `None` when it does not exist.
pub fn read_private(path: &Path) -> Result<Option<Vec<u8>>, GatewayError> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(unsafe_path(
                path,
                "is a symbolic link".to_owned(),
                format!(
                    "replace it with the real file: mv \"$(readlink -f {0})\" {0}",
                    path.display()
                ),
            ));
        }
        Err(source) => return Err(io_error(path, "open", source)),
    };
    let meta = file
        .metadata()
        .map_err(|source| io_error(path, "inspect", source))?;
    if !meta.is_file() {
        return Err(unsafe_path(
            path,
            "is not a regular file".to_owned(),
            format!("remove it: rm -r {}", path.display()),
        ));
    }
    check_owner_and_mode(path, &meta, FILE_MODE)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| io_error(path, "read", source))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(GatewayError::BadStateFile {
            path: path.to_owned(),
            reason: format!("larger than {MAX_FILE_BYTES} bytes"),
        });
    }
    Ok(Some(bytes))
}

/// Replaces `path` with `bytes`, atomically and 0600.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), GatewayError> {
    let temp = temp_path(path)?;
    let result = write_temp(&temp, bytes)
        .and_then(|()| fs::rename(&temp, path).map_err(|source| io_error(path, "replace", source)));
    if result.is_err() {
        // Best effort: the temp file holds nothing others may read (0600).
        let _ = fs::remove_file(&temp);
    }
    result?;
    if let Some(dir) = path.parent()
        && let Ok(dir) = File::open(dir)
    {
        // Best effort: the rename is already visible; fsync makes it durable.
        let _ = dir.sync_all();
    }
    Ok(())
}

fn write_temp(temp: &Path, bytes: &[u8]) -> Result<(), GatewayError> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(temp)
        .map_err(|source| io_error(temp, "create", source))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|source| io_error(temp, "write", source))
}

fn temp_path(path: &Path) -> Result<PathBuf, GatewayError> {
    let name = path.file_name().ok_or_else(|| GatewayError::BadStateFile {
        path: path.to_owned(),
        reason: "has no file name".to_owned(),
    })?;
    let mut temp = name.to_os_string();
    temp.push(format!(".{}.tmp", uuid::Uuid::new_v4().simple()));
    Ok(path.with_file_name(temp))
}

/// Refuses a path another user owns or whose mode is wider than `wanted`.
fn check_owner_and_mode(path: &Path, meta: &fs::Metadata, wanted: u32) -> Result<(), GatewayError> {
    let euid = nix::unistd::geteuid().as_raw();
    if meta.uid() != euid {
        return Err(unsafe_path(
            path,
            format!("is owned by uid {}, not by us (uid {euid})", meta.uid()),
            format!("chown {euid} {}", path.display()),
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(unsafe_path(
            path,
            format!("has mode {mode:03o}: group or others may access it"),
            format!("chmod {wanted:03o} {}", path.display()),
        ));
    }
    Ok(())
}

fn unsafe_path(path: &Path, problem: String, hint: String) -> GatewayError {
    GatewayError::Unsafe {
        path: path.to_owned(),
        problem,
        hint,
    }
}

fn io_error(path: &Path, action: &'static str, source: io::Error) -> GatewayError {
    GatewayError::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).map(|m| m.mode() & 0o777).unwrap_or(0)
    }

    #[test]
    fn creates_the_directory_0700_and_files_0600() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("state");
        ensure_private_dir(&dir).unwrap();
        let file = dir.join("device.json");
        write_private(&file, b"{}").unwrap();
        assert_eq!((mode(&dir), mode(&file)), (0o700, 0o600));
        assert_eq!(read_private(&file).unwrap(), Some(b"{}".to_vec()));
    }

    #[test]
    fn refuses_a_group_readable_file_and_says_how_to_fix_it() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("device.json");
        fs::write(&file, b"{}").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let err = read_private(&file).unwrap_err();
        assert!(matches!(err, GatewayError::Unsafe { .. }), "{err}");
        assert!(err.to_string().contains("chmod 600"), "{err}");
    }

    #[test]
    fn refuses_a_world_readable_state_directory() {
        let root = tempfile::tempdir().unwrap();
        fs::set_permissions(root.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let err = ensure_private_dir(root.path()).unwrap_err();
        assert!(err.to_string().contains("chmod 700"), "{err}");
    }

    #[test]
    fn refuses_to_read_through_a_symbolic_link() {
        let root = tempfile::tempdir().unwrap();
        let real = root.path().join("real.json");
        write_private(&real, b"{}").unwrap();
        let link = root.path().join("device.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let err = read_private(&link).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }

    #[test]
    fn a_missing_file_reads_as_none() {
        let root = tempfile::tempdir().unwrap();
        assert_eq!(read_private(&root.path().join("absent")).unwrap(), None);
    }
}
