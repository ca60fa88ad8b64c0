//! Which exec host decides and runs a request, and the way to the UI
//! bridge: its socket, authenticated with the token in the approvals file.
//! Shared by `node-host run` and `node-host serve`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use approvals_ipc::approvals::{ApprovalsStore, socket_path};
use approvals_ipc::ipc::{
    Client, ClientConfig, ClientError, ErrorBody, ErrorCode, ExecPending, ExecRequest, ExecResponse,
};

/// Which exec host decides and runs the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExecHostChoice {
    /// The UI bridge when one answers on the socket, else the embedded host
    Auto,
    /// Only the UI bridge; fail closed when none runs
    Bridge,
    /// The embedded exec host in this process
    Local,
}

/// Why the bridge path did not produce a response.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// Nothing serves the socket: `auto` may fall back to the local host.
    #[error("{0}")]
    NotRunning(String),
    /// Something is wrong with the bridge: never fall back.
    #[error("{0}")]
    Failed(String),
    /// The approvals file (which holds the bridge's token) cannot be used:
    /// never fall back, since the embedded host could not use it either.
    #[error("{0}")]
    File(String),
}

impl BridgeError {
    /// The refusal sent when the bridge cannot be used and no fallback applies.
    pub fn unavailable(&self) -> ExecResponse {
        ExecResponse::Refused(
            ErrorBody::new(
                ErrorCode::Unavailable,
                format!("COMPANION_UNAVAILABLE: {self}"),
            )
            .with_reason("companion-unavailable"),
        )
    }
}

/// Where the bridge is: the approvals file holding its token and socket
/// path, or an explicit socket.
#[derive(Debug, Clone)]
pub struct BridgeTarget<'a> {
    /// The approvals file (its `socket.token` authenticates us).
    pub approvals_path: &'a Path,
    /// The socket, overriding `socket.path` from the file.
    pub socket: Option<&'a PathBuf>,
}

impl BridgeTarget<'_> {
    /// Sends one request to the bridge and waits for its reply.
    ///
    /// # Cancel safety
    ///
    /// Dropping the future closes the connection, which the bridge takes as
    /// the requester going away: it withdraws the ask or kills the run.
    pub async fn exec(&self, request: &ExecRequest) -> Result<ExecResponse, BridgeError> {
        self.exec_observed(request, &mut |_, _| {}).await
    }

    /// [`BridgeTarget::exec`], calling `on_pending` with each `exec-pending`
    /// frame and the socket it came from while the request waits for a person.
    ///
    /// # Cancel safety
    ///
    /// As [`BridgeTarget::exec`].
    pub async fn exec_observed(
        &self,
        request: &ExecRequest,
        on_pending: &mut (dyn FnMut(&ExecPending, &Path) + Send),
    ) -> Result<ExecResponse, BridgeError> {
        let snapshot = ApprovalsStore::open(self.approvals_path)
            .load()
            .map_err(|e| BridgeError::File(e.to_string()))?;
        let socket_config = snapshot.file.socket.as_ref();
        let token = socket_config
            .and_then(|s| s.token.as_ref())
            .map(|t| t.expose_secret().to_owned());
        let socket = match self.socket {
            Some(p) => p.clone(),
            None => socket_path(
                socket_config.and_then(|s| s.path.as_deref()),
                self.approvals_path,
                std::env::home_dir().as_deref(),
            )
            .ok_or_else(|| {
                BridgeError::Failed("cannot expand ~ in socket.path: no home directory".to_owned())
            })?,
        };
        let Some(token) = token else {
            return Err(BridgeError::NotRunning(format!(
                "no ui-bridge has started with {} (it holds no socket token)",
                self.approvals_path.display()
            )));
        };
        let config = ClientConfig {
            response_timeout: response_timeout(request.timeout_ms),
            ..ClientConfig::default()
        };
        let mut client = match Client::connect_with(&socket, token, config).await {
            Ok(c) => c,
            Err(ClientError::Unavailable { path, source }) => {
                return Err(BridgeError::NotRunning(format!(
                    "no ui-bridge at {}: {source}",
                    path.display()
                )));
            }
            Err(err) => return Err(BridgeError::Failed(err.to_string())),
        };
        client
            .exec_observed(request, &mut |pending| on_pending(pending, &socket))
            .await
            .map_err(|e| BridgeError::Failed(format!("the ui-bridge at {}: {e}", socket.display())))
    }
}

impl BridgeTarget<'_> {
    /// The socket the bridge is expected on, for messages; `None` when
    /// the file cannot be read or `~` cannot be expanded.
    pub fn socket_path(&self) -> Option<PathBuf> {
        if let Some(socket) = self.socket {
            return Some(socket.clone());
        }
        let snapshot = ApprovalsStore::open(self.approvals_path).load().ok()?;
        socket_path(
            snapshot
                .file
                .socket
                .as_ref()
                .and_then(|s| s.path.as_deref()),
            self.approvals_path,
            std::env::home_dir().as_deref(),
        )
    }
}

/// How long to wait for a reply: approval time plus run time, generously.
fn response_timeout(timeout_ms: Option<u64>) -> Duration {
    let approval = Duration::from_secs(30 * 60);
    approval
        + timeout_ms
            .map(Duration::from_millis)
            .unwrap_or(Duration::from_secs(24 * 3600))
}
