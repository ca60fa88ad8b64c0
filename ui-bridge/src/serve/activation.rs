//! Socket activation: serving a listening socket that systemd (a `.socket`
//! unit with `ListenStream=`) or a wrapper passed in, so the bridge starts
//! on the first connection instead of at login.
//!
//! It decides whether this process was handed a socket (the `sd_listen_fds`
//! protocol: `LISTEN_PID` is our pid, `LISTEN_FDS` counts descriptors from
//! fd 3) and takes it only when it is exactly one listening Unix stream
//! socket bound to the path the bridge would have bound itself. It keeps the
//! checks `bind` makes: the socket's directory is ours and private, the
//! socket file is mode 0600 (set here, as `bind` does). It refuses a socket
//! of another kind, at another path, or more than one, saying which and
//! what to change in the unit. The descriptor is marked close-on-exec so no
//! command the bridge runs inherits it. The socket file stays when the
//! bridge exits: systemd owns it and listens on it for the next start.
//!
//! This module holds one `unsafe` block (taking ownership of fd 3, which
//! only the activation protocol can make ours); the crate denies `unsafe`
//! elsewhere except `exec::contain::session`.

#![allow(unsafe_code)]

use std::os::fd::{AsFd as _, FromRawFd as _, OwnedFd};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::socket::{
    AddressFamily, SockType, SockaddrLike as _, UnixAddr, getsockname, getsockopt, sockopt,
};
use tokio::net::UnixListener;

use super::socket::{BoundSocket, SOCKET_MODE, SocketError, prepare_dir};

/// The first descriptor the activation protocol passes (`SD_LISTEN_FDS_START`).
const LISTEN_FDS_START: i32 = 3;

/// Set once fd 3 has been taken, so it is never owned twice.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Why a passed socket was refused.
#[derive(Debug, thiserror::Error)]
pub enum ActivationError {
    /// `LISTEN_FDS` is not a number, or not 1.
    #[error(
        "socket activation passed LISTEN_FDS={0:?}; the bridge serves exactly one socket\nhint: give the .socket unit a single ListenStream= line"
    )]
    Count(String),
    /// fd 3 is not a listening Unix stream socket.
    #[error(
        "socket activation passed fd 3, which is not a listening Unix stream socket ({0})\nhint: use ListenStream=/path/to/exec-approvals.sock in the .socket unit"
    )]
    Kind(String),
    /// The socket is bound elsewhere than the bridge's socket path.
    #[error(
        "socket activation passed a socket at {found}, but the bridge's socket is {expected}\nhint: make ListenStream= in the .socket unit and socket.path (or --socket) name the same path"
    )]
    Path {
        /// Where the passed socket is bound.
        found: String,
        /// Where the bridge would listen.
        expected: PathBuf,
    },
}

/// The socket passed by socket activation for `path`, checked; `None` when
/// this process was not socket-activated.
///
/// # Panics
///
/// Must run inside a tokio runtime (the listener registers with it).
pub fn inherited(path: &Path) -> Result<Option<(UnixListener, BoundSocket)>, SocketError> {
    let pid = std::env::var("LISTEN_PID").ok();
    if pid.as_deref().and_then(|p| p.trim().parse::<u32>().ok()) != Some(std::process::id()) {
        return Ok(None);
    }
    let count = std::env::var("LISTEN_FDS").unwrap_or_default();
    if count.trim() != "1" {
        return Err(activation(ActivationError::Count(count)));
    }
    if TAKEN.swap(true, Ordering::SeqCst) {
        return Ok(None);
    }
    // SAFETY: the activation protocol (LISTEN_PID is this process, checked
    // above) hands fd 3 to this process; nothing else in the bridge opens
    // or owns it, and `TAKEN` makes sure it is wrapped only once.
    let fd = unsafe { OwnedFd::from_raw_fd(LISTEN_FDS_START) };
    check_kind(&fd)?;
    let path = std::path::absolute(path).map_err(|source| SocketError::Io {
        op: "resolve",
        path: path.to_owned(),
        source,
    })?;
    let bound_at = getsockname::<UnixAddr>(std::os::fd::AsRawFd::as_raw_fd(&fd))
        .ok()
        .and_then(|addr| addr.path().map(Path::to_owned));
    if bound_at.as_deref() != Some(path.as_path()) {
        return Err(activation(ActivationError::Path {
            found: bound_at.map_or_else(|| "no path".to_owned(), |p| p.display().to_string()),
            expected: path,
        }));
    }
    let Some(dir) = path.parent() else {
        return Err(SocketError::BadPath(path));
    };
    prepare_dir(dir)?;
    let io_error = |op| {
        let path = path.clone();
        move |source| SocketError::Io { op, path, source }
    };
    nix::fcntl::fcntl(
        fd.as_fd(),
        nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
    )
    .map_err(|errno| io_error("mark close-on-exec")(std::io::Error::from(errno)))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(SOCKET_MODE))
        .map_err(io_error("chmod"))?;
    let meta = std::fs::symlink_metadata(&path).map_err(io_error("inspect"))?;
    let std_listener = std::os::unix::net::UnixListener::from(fd);
    std_listener
        .set_nonblocking(true)
        .map_err(io_error("set non-blocking"))?;
    let listener = UnixListener::from_std(std_listener).map_err(io_error("register"))?;
    tracing::info!(socket = %path.display(), "serving the socket passed by socket activation");
    Ok(Some((
        listener,
        BoundSocket::inherited(path, meta.dev(), meta.ino()),
    )))
}

/// Refuses fd 3 unless it is a listening Unix stream socket.
fn check_kind(fd: &OwnedFd) -> Result<(), SocketError> {
    let kind = |what: String| activation(ActivationError::Kind(what));
    let sock_type = getsockopt(fd, sockopt::SockType).map_err(|e| kind(e.to_string()))?;
    if sock_type != SockType::Stream {
        return Err(kind(format!("type {sock_type:?}")));
    }
    let listening = getsockopt(fd, sockopt::AcceptConn).map_err(|e| kind(e.to_string()))?;
    if !listening {
        return Err(kind("not listening".to_owned()));
    }
    let family =
        getsockname::<nix::sys::socket::SockaddrStorage>(std::os::fd::AsRawFd::as_raw_fd(fd))
            .ok()
            .and_then(|addr| addr.family());
    if family != Some(AddressFamily::Unix) {
        return Err(kind(format!("family {family:?}")));
    }
    Ok(())
}

fn activation(error: ActivationError) -> SocketError {
    SocketError::Activation(error)
}
