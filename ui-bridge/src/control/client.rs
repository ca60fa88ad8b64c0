//! The command-line side of the control API: find the running bridge from
//! the approvals file, send one signed control request, and turn the reply
//! into a value or an error a person can act on.
//!
//! It decides where the socket is (`--socket`, else `socket.path` from the
//! file, else beside it) and which token signs the request (the file's). It
//! refuses to create or repair the approvals file (only `serve` does), and
//! reports a missing bridge, a missing token, and every bridge refusal as a
//! [`ControlError`]; `NOT_FOUND` keeps its own variant so callers and
//! scripts can tell "someone else answered first" apart. The token is never
//! printed or logged (invariant 9).

use std::path::{Path, PathBuf};
use std::time::Duration;

use approvals_ipc::approvals::{ApprovalsStore, socket_path};
use approvals_ipc::ipc::{
    Client, ClientConfig, ClientError, ControlRequest, ControlResponse, ErrorBody, ErrorCode,
};
use serde_json::Value;

/// How long a control request may take; the bridge answers at once.
const CONTROL_TIMEOUT: Duration = Duration::from_secs(10);

/// Which bridge to talk to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlTarget {
    /// The approvals file holding the socket path and token.
    pub approvals_path: PathBuf,
    /// The socket, overriding the file's `socket.path`.
    pub socket: Option<PathBuf>,
    /// The home directory for `~` in `socket.path`.
    pub home: Option<PathBuf>,
}

/// Why a control command did not get what it asked for.
#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    /// Nothing serves the socket.
    #[error("no ui-bridge is running at {}\nhint: start one with `ui-bridge serve`", .socket.display())]
    NoBridge {
        /// The socket path tried.
        socket: PathBuf,
    },
    /// The approvals file has no token, so no bridge ever served it.
    #[error("{} has no socket token: no ui-bridge has started with it\nhint: start one with `ui-bridge serve`", .0.display())]
    NoToken(PathBuf),
    /// The approvals file cannot be read or parsed. The cause is part of
    /// the message, not a `source`, so it is printed once.
    #[error("cannot use approvals file {}: {error}", .path.display())]
    Approvals {
        /// The file.
        path: PathBuf,
        /// Why.
        error: approvals_ipc::approvals::ApprovalsError,
    },
    /// `socket.path` starts with `~` and there is no home directory.
    #[error("cannot expand ~ in socket.path of {}: no home directory", .0.display())]
    NoHome(PathBuf),
    /// The approval is not pending: never was, timed out, or another approver answered first.
    #[error("approval not found: {}", .0.message)]
    NotFound(ErrorBody),
    /// The bridge refused the request (ambiguous prefix, decision not offered, bad text …).
    #[error("refused: {}", .0.message)]
    Refused(ErrorBody),
    /// The socket conversation failed (the cause is in the message, once).
    #[error("talking to the ui-bridge failed: {0}")]
    Client(ClientError),
}

impl ControlTarget {
    /// The socket path and token for this target, read from the approvals file.
    fn resolve(&self) -> Result<(PathBuf, String), ControlError> {
        let snapshot = ApprovalsStore::open(&self.approvals_path)
            .load()
            .map_err(|error| ControlError::Approvals {
                path: self.approvals_path.clone(),
                error,
            })?;
        let socket_config = snapshot.file.socket.as_ref();
        let token = socket_config
            .and_then(|s| s.token.as_ref())
            .map(|t| t.expose_secret().to_owned())
            .ok_or_else(|| ControlError::NoToken(self.approvals_path.clone()))?;
        let socket = match &self.socket {
            Some(path) => path.clone(),
            None => socket_path(
                socket_config.and_then(|s| s.path.as_deref()),
                &self.approvals_path,
                self.home.as_deref(),
            )
            .ok_or_else(|| ControlError::NoHome(self.approvals_path.clone()))?,
        };
        Ok((socket, token))
    }
}

/// Sends one control request to the running bridge and returns its payload.
pub async fn send(target: &ControlTarget, request: &ControlRequest) -> Result<Value, ControlError> {
    let (socket, token) = target.resolve()?;
    let config = ClientConfig {
        io_timeout: CONTROL_TIMEOUT,
        response_timeout: CONTROL_TIMEOUT,
        ..ClientConfig::default()
    };
    let mut client = Client::connect_with(&socket, token, config)
        .await
        .map_err(|error| connect_error(&socket, error))?;
    match client
        .control(request)
        .await
        .map_err(ControlError::Client)?
    {
        ControlResponse::Done(payload) => Ok(payload),
        ControlResponse::Refused(error) if error.code == ErrorCode::NotFound => {
            Err(ControlError::NotFound(error))
        }
        ControlResponse::Refused(error) => Err(ControlError::Refused(error)),
    }
}

fn connect_error(socket: &Path, error: ClientError) -> ControlError {
    match error {
        ClientError::Unavailable { .. } => ControlError::NoBridge {
            socket: socket.to_owned(),
        },
        other => ControlError::Client(other),
    }
}
