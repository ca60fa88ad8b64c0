//! `ui-bridge serve`: the approvals socket in front of the exec host.
//!
//! It decides where the socket lives (`--socket`, else `socket.path` from
//! the approvals file, `~` expanded, else beside the file), makes sure the
//! approvals file exists with a token, serves until SIGINT or SIGTERM, and
//! removes its socket on the way out. It refuses to start when the file is
//! malformed (it is never overwritten, invariant 6), when the socket's
//! directory is not private, or when another bridge answers on the socket.
//! The token is handed to the socket server and never logged or printed
//! (invariant 9).

mod handler;
mod socket;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::approvals::{ApprovalsError, ApprovalsStore, expand_tilde};
use approvals_ipc::ipc::{self, ServerConfig};
use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

use crate::host::{ExecHost, ExecHostConfig};

pub use handler::BridgeHandler;
pub use socket::{BoundSocket, SOCKET_DIR_MODE, SOCKET_MODE, SocketError, bind};

/// What `serve` needs, resolved from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// The approvals file.
    pub approvals_path: PathBuf,
    /// The socket path, overriding the file's `socket.path`.
    pub socket: Option<PathBuf>,
    /// Bound on one approval prompt, overriding the policy's `approvalTimeoutMs`.
    pub approval_timeout: Option<Duration>,
}

/// Why `serve` could not start or stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The approvals file is unusable (and was left untouched).
    #[error(transparent)]
    Approvals(#[from] ApprovalsError),
    /// The file has no socket token even after `ensure` (cannot happen).
    #[error("approvals file {} has no socket token", .0.display())]
    NoToken(PathBuf),
    /// `socket.path` starts with `~` and there is no home directory.
    #[error("socket path {0} needs a home directory to expand `~`")]
    NoHome(String),
    /// The socket could not be set up.
    #[error(transparent)]
    Socket(#[from] SocketError),
    /// Signal handlers or the server failed.
    #[error("{op}: {source}")]
    Io {
        /// What failed.
        op: &'static str,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Serves until SIGINT or SIGTERM; returns after the socket file is removed.
pub async fn run(options: ServeOptions) -> Result<(), ServeError> {
    let store = ApprovalsStore::open(options.approvals_path.clone());
    let snapshot = store.ensure()?;
    for warning in &snapshot.warnings {
        tracing::warn!(file = %options.approvals_path.display(), %warning, "approvals file");
    }
    let socket_config = snapshot.file.socket.clone().unwrap_or_default();
    let token = socket_config
        .token
        .ok_or_else(|| ServeError::NoToken(options.approvals_path.clone()))?;
    let socket_path = match (&options.socket, &socket_config.path) {
        (Some(path), _) => path.clone(),
        (None, Some(path)) => {
            let home = std::env::home_dir();
            expand_tilde(path.as_ref(), home.as_deref())
                .ok_or_else(|| ServeError::NoHome(path.clone()))?
        }
        (None, None) => options
            .approvals_path
            .with_file_name(approvals_ipc::approvals::SOCKET_FILE_NAME),
    };

    let (listener, bound) = socket::bind(&socket_path)?;
    let mut host = ExecHost::new(ExecHostConfig::new(options.approvals_path.clone()));
    if let Some(timeout) = options.approval_timeout {
        host = host.with_approval_timeout(timeout);
    }
    let shutdown = CancellationToken::new();
    let broker = crate::broker::Broker::new();
    let handler = Arc::new(BridgeHandler::new(Arc::new(host), broker, shutdown.clone()));
    let config = ServerConfig::new(ipc::Token::new(token.expose_secret()));
    let stop = stop_signal(shutdown.clone())?;

    tracing::info!(socket = %bound.path.display(), approvals = %options.approvals_path.display(), "ready");
    eprintln!(
        "ui-bridge: serving {} (approvals {})",
        bound.path.display(),
        options.approvals_path.display()
    );
    let served = ipc::serve(listener, config, handler, stop).await;
    bound.remove();
    tracing::info!("stopped");
    served.map_err(|source| ServeError::Io {
        op: "serving",
        source,
    })
}

/// Completes on SIGINT or SIGTERM, after telling in-flight requests to stop.
fn stop_signal(
    shutdown: CancellationToken,
) -> Result<impl std::future::Future<Output = ()>, ServeError> {
    let io = |source| ServeError::Io {
        op: "installing signal handlers",
        source,
    };
    let mut interrupt = signal(SignalKind::interrupt()).map_err(io)?;
    let mut terminate = signal(SignalKind::terminate()).map_err(io)?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => tracing::info!("SIGINT: shutting down"),
            _ = terminate.recv() => tracing::info!("SIGTERM: shutting down"),
        }
        shutdown.cancel();
    })
}
