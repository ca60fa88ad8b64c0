//! The socket file: where it may live, when an old one may be replaced, and
//! removing it on the way out.
//!
//! It decides that the socket lives in a directory that is ours and private
//! (owned by our effective UID, mode 0700, not a symbolic link; when missing,
//! created so — only that last directory, under an existing parent we own;
//! anything more is refused with a hint), below directories that only root or we own and nobody else
//! may write (sticky ones excepted; the same walk as the approvals file's,
//! see `approvals_ipc::approvals::HeldDir`), and that the socket itself is
//! mode 0600. It refuses a symbolic link at the socket path, a path that is
//! something other than a socket, and a socket something still answers on
//! ("another ui-bridge is already serving"); a socket nothing answers on is
//! stale and replaced (DESIGN.md section 5). On shutdown it removes the
//! socket only if the path still holds the very socket it bound. Supports
//! invariant 1: a foreign UID cannot even reach the socket.

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use approvals_ipc::approvals::{ApprovalsError, HeldDir};
use tokio::net::UnixListener;

/// Mode of the socket's directory.
pub const SOCKET_DIR_MODE: u32 = 0o700;
/// Mode of the socket file.
pub const SOCKET_MODE: u32 = 0o600;

/// Why the socket could not be set up; each names the path and what to do.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    /// The socket path has no parent directory or no file name.
    #[error("socket path {} has no directory or file name", .0.display())]
    BadPath(PathBuf),
    /// The directory could not be created or inspected.
    #[error("cannot prepare socket directory {}: {source}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The socket's directory is missing and so is its parent.
    #[error("socket directory {} does not exist, and neither does {}\nhint: only the socket's own directory is created; create {} first, or pass --socket in an existing directory", dir.display(), parent.display(), parent.display())]
    NoParent {
        /// The socket's directory.
        dir: PathBuf,
        /// Its missing parent.
        parent: PathBuf,
    },
    /// The socket's directory is missing and its parent is not ours.
    #[error("socket directory {} does not exist, and its parent {} belongs to uid {owner}, not us\nhint: create it yourself (mode 0700), or pass --socket in a directory you own", dir.display(), parent.display())]
    ParentNotOurs {
        /// The socket's directory.
        dir: PathBuf,
        /// Its parent.
        parent: PathBuf,
        /// The parent's owner.
        owner: u32,
    },
    /// The directory is a symbolic link or not a directory.
    #[error("socket directory {} is a symbolic link or not a directory\nhint: use a real directory owned by you with mode 0700", .0.display())]
    DirNotPlain(PathBuf),
    /// The directory belongs to someone else.
    #[error("socket directory {} is owned by uid {found}, not by us (uid {expected})\nhint: choose a directory you own", path.display())]
    DirOwner {
        /// The directory.
        path: PathBuf,
        /// Its owner.
        found: u32,
        /// Our effective UID.
        expected: u32,
    },
    /// Group or others may enter or list the directory.
    #[error("socket directory {} has mode {mode:04o}; others could reach the socket\nhint: chmod 700 {}", path.display(), path.display())]
    DirMode {
        /// The directory.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// A directory above the socket's is owned or writable by another user,
    /// who could swap the directory and the socket with it.
    #[error("socket directory {}: {source}", path.display())]
    Unsafe {
        /// The socket's directory.
        path: PathBuf,
        /// Which directory on the way failed, and the fix.
        source: ApprovalsError,
    },
    /// Something answers on the socket.
    #[error("another ui-bridge is already serving {}\nhint: stop it first, or pass --socket PATH", .0.display())]
    InUse(PathBuf),
    /// The path is a symbolic link.
    #[error("socket path {} is a symbolic link; refusing to follow it", .0.display())]
    Symlink(PathBuf),
    /// The path is a regular file or something else that is not a socket.
    #[error("socket path {} exists and is not a socket; refusing to remove it", .0.display())]
    NotSocket(PathBuf),
    /// A socket passed by socket activation was refused.
    #[error(transparent)]
    Activation(#[from] super::activation::ActivationError),
    /// Binding, inspecting or removing the socket failed.
    #[error("cannot {op} socket {}: {source}", path.display())]
    Io {
        /// What was attempted.
        op: &'static str,
        /// The socket path.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
}

/// The socket file we bound, identified so that only it is removed later.
#[derive(Debug)]
pub struct BoundSocket {
    /// The socket path (absolute).
    pub path: PathBuf,
    dev: u64,
    ino: u64,
    /// Passed by socket activation: the service manager owns the file and
    /// keeps listening on it, so it is not removed on the way out.
    inherited: bool,
}

impl BoundSocket {
    /// A socket passed by socket activation, left in place on exit.
    pub(super) fn inherited(path: PathBuf, dev: u64, ino: u64) -> Self {
        Self {
            path,
            dev,
            ino,
            inherited: true,
        }
    }

    /// Removes the socket file if the path still holds the socket we bound
    /// (never one passed by socket activation).
    pub fn remove(&self) {
        if self.inherited {
            return;
        }
        match std::fs::symlink_metadata(&self.path) {
            Ok(meta) if meta.dev() == self.dev && meta.ino() == self.ino => {
                if let Err(error) = std::fs::remove_file(&self.path) {
                    tracing::warn!(path = %self.path.display(), %error, "cannot remove the socket file");
                }
            }
            Ok(_) => {
                tracing::warn!(path = %self.path.display(), "socket path now holds another file; leaving it")
            }
            Err(error) => {
                tracing::debug!(path = %self.path.display(), %error, "socket file already gone")
            }
        }
    }
}

/// Prepares the directory, replaces a stale socket, binds and sets mode 0600.
///
/// # Panics
///
/// Must run inside a tokio runtime (the listener registers with it).
pub fn bind(path: &Path) -> Result<(UnixListener, BoundSocket), SocketError> {
    let path = std::path::absolute(path).map_err(|source| SocketError::Io {
        op: "resolve",
        path: path.to_owned(),
        source,
    })?;
    let (Some(dir), Some(_)) = (path.parent(), path.file_name()) else {
        return Err(SocketError::BadPath(path));
    };
    prepare_dir(dir)?;
    clear_stale(&path)?;
    let io_error = |op| {
        let path = path.clone();
        move |source| SocketError::Io { op, path, source }
    };
    let listener = UnixListener::bind(&path).map_err(io_error("bind"))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(SOCKET_MODE))
        .map_err(io_error("chmod"))?;
    let meta = std::fs::symlink_metadata(&path).map_err(io_error("inspect"))?;
    let bound = BoundSocket {
        dev: meta.dev(),
        ino: meta.ino(),
        path,
        inherited: false,
    };
    Ok((listener, bound))
}

/// Creates `dir` (mode 0700) when missing, then checks it is a plain
/// directory of ours that nobody else may enter.
pub(super) fn prepare_dir(dir: &Path) -> Result<(), SocketError> {
    let dir_error = |source| SocketError::Dir {
        path: dir.to_owned(),
        source,
    };
    create_last_component(dir)?;
    let meta = std::fs::symlink_metadata(dir).map_err(dir_error)?;
    if !meta.file_type().is_dir() {
        return Err(SocketError::DirNotPlain(dir.to_owned()));
    }
    let expected = nix::unistd::geteuid().as_raw();
    if meta.uid() != expected {
        return Err(SocketError::DirOwner {
            path: dir.to_owned(),
            found: meta.uid(),
            expected,
        });
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o077 != 0 {
        return Err(SocketError::DirMode {
            path: dir.to_owned(),
            mode,
        });
    }
    HeldDir::open(dir).map_err(|source| SocketError::Unsafe {
        path: dir.to_owned(),
        source,
    })?;
    Ok(())
}

/// Creates `dir` (mode 0700) when it is missing, but only that last
/// component, and only under an existing parent we own: a mistyped
/// `--socket` must not leave a trail of directories anywhere on disk.
fn create_last_component(dir: &Path) -> Result<(), SocketError> {
    match std::fs::symlink_metadata(dir) {
        Ok(_) => return Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(SocketError::Dir {
                path: dir.to_owned(),
                source,
            });
        }
    }
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => return Err(SocketError::BadPath(dir.to_owned())),
    };
    let parent_meta = match std::fs::symlink_metadata(parent) {
        Ok(meta) if meta.file_type().is_dir() => meta,
        _ => {
            return Err(SocketError::NoParent {
                dir: dir.to_owned(),
                parent: parent.to_owned(),
            });
        }
    };
    let expected = nix::unistd::geteuid().as_raw();
    if parent_meta.uid() != expected {
        return Err(SocketError::ParentNotOurs {
            dir: dir.to_owned(),
            parent: parent.to_owned(),
            owner: parent_meta.uid(),
        });
    }
    std::fs::DirBuilder::new()
        .mode(SOCKET_DIR_MODE)
        .create(dir)
        .map_err(|source| SocketError::Dir {
            path: dir.to_owned(),
            source,
        })?;
    tracing::info!(dir = %dir.display(), "created the socket directory (mode 0700)");
    Ok(())
}

/// Removes a socket nothing answers on; refuses a live one, a link, or a non-socket.
fn clear_stale(path: &Path) -> Result<(), SocketError> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(SocketError::Io {
                op: "inspect",
                path: path.to_owned(),
                source,
            });
        }
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(SocketError::Symlink(path.to_owned()));
    }
    if !kind.is_socket() {
        return Err(SocketError::NotSocket(path.to_owned()));
    }
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(_) => Err(SocketError::InUse(path.to_owned())),
        Err(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
            tracing::info!(path = %path.display(), "replacing a stale socket nothing answers on");
            std::fs::remove_file(path).map_err(|source| SocketError::Io {
                op: "remove stale",
                path: path.to_owned(),
                source,
            })
        }
        Err(source) => Err(SocketError::Io {
            op: "probe",
            path: path.to_owned(),
            source,
        }),
    }
}
