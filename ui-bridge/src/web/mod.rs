//! The companion web page: `ui-bridge serve --web [ADDR]`.
//!
//! It decides what a browser on this machine may see and do: the pending
//! approvals, live, with the same display the terminal shows and the same
//! answers (through the same [`Broker`], so the first answer from any
//! approver wins); the policy editor (every save goes through the locked,
//! `baseHash`-checked [`ApprovalsStore::replace`], and the socket token is
//! never sent); a live `explain`; and the audit log with its chain status.
//! It refuses requests that fail the checks in [`auth`] (foreign `Host`, no
//! session, foreign `Origin`). It binds where it is told — loopback unless
//! the user names another address, then it warns — and stops with the
//! bridge. The page is plain HTML, CSS and JavaScript embedded in the
//! binary: nothing to build, nothing fetched from elsewhere. Upholds
//! DESIGN.md section 7 (web control UI) and invariant 9 (the token never
//! leaves the approvals file).

mod answer;
mod assets;
mod audit;
pub mod auth;
mod events;
mod policy;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use approvals_ipc::approvals::{ApprovalsStore, MAX_FILE_BYTES};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use tokio_util::sync::CancellationToken;

use crate::broker::Broker;

pub use auth::Secret;

/// The address `--web` binds when none is named: loopback, a free port.
pub const DEFAULT_ADDR: &str = "127.0.0.1:0";

/// The live feed of pending approvals; checked for `Origin` like a write.
pub const EVENTS_PATH: &str = "/api/events";

/// The approver name web answers carry in the broker and the audit log.
pub const APPROVER: &str = "web";

/// What the page's handlers share; cheap to clone.
#[derive(Clone, Debug)]
pub struct WebState {
    /// Pending approvals, shared with every other approver.
    pub broker: Broker,
    /// The approvals file: read for the editor and explain, written only
    /// through [`ApprovalsStore::replace`].
    pub store: ApprovalsStore,
    /// The audit log the exec host writes, if any.
    pub audit_path: Option<PathBuf>,
    /// Cancelled when the bridge stops; ends every event stream.
    pub shutdown: CancellationToken,
}

/// Why the page could not start.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// The address could not be bound.
    #[error(
        "cannot listen for the web page on {addr}: {error}\nhint: pick a free address, e.g. --web 127.0.0.1:0"
    )]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// What the operating system said (in the message, not a source,
        /// so an error chain does not print it twice).
        error: std::io::Error,
    },
    /// No random secret could be made.
    #[error("cannot make the web page's secret: {0}")]
    Random(getrandom::Error),
}

/// A page that is listening; the task serves until the shutdown token.
#[derive(Debug)]
pub struct Started {
    /// Where it listens (with the real port when `:0` was asked).
    pub addr: SocketAddr,
    /// The URL that logs a browser in (carries the secret; print it once).
    pub login_url: String,
    /// The server task.
    pub task: tokio::task::JoinHandle<()>,
}

/// Binds `addr`, makes a fresh secret and serves the page until
/// `state.shutdown` is cancelled.
pub async fn start(addr: SocketAddr, state: WebState) -> Result<Started, WebError> {
    if !addr.ip().is_loopback() {
        tracing::warn!(%addr, "the web page listens beyond this machine: anyone who can reach it and learns the URL can answer approvals and edit the policy");
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|error| WebError::Bind { addr, error })?;
    let addr = listener
        .local_addr()
        .map_err(|error| WebError::Bind { addr, error })?;
    let secret = Secret::generate(addr.port()).map_err(WebError::Random)?;
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
    } else {
        addr
    };
    let login_url = format!(
        "http://{shown}{}?secret={}",
        auth::LOGIN_PATH,
        secret.expose()
    );
    let shutdown = state.shutdown.clone();
    let app = router(state, Arc::new(secret));
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(shutdown.cancelled_owned())
            .await;
        if let Err(error) = served {
            tracing::error!(%error, "the web page stopped");
        }
    });
    Ok(Started {
        addr,
        login_url,
        task,
    })
}

/// Every route of the page behind the [`auth::guard`]; callable without a
/// server (tests drive it directly).
pub fn router(state: WebState, secret: Arc<Secret>) -> Router {
    let body_limit = usize::try_from(MAX_FILE_BYTES).unwrap_or(usize::MAX);
    let login = Router::new()
        .route(auth::LOGIN_PATH, get(auth::login))
        .with_state(Arc::clone(&secret));
    Router::new()
        .route("/", get(assets::index))
        .route(assets::SCRIPT_PATH.as_str(), get(assets::script))
        .route("/api/session", get(answer::session))
        .route("/api/pending", get(answer::pending))
        .route(EVENTS_PATH, get(events::stream))
        .route("/api/approvals/{id}/answer", post(answer::answer))
        .route("/api/policy", get(policy::read).put(policy::save))
        .route("/api/explain", post(policy::explain))
        .route("/api/audit", get(audit::latest))
        .with_state(state)
        .merge(login)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(secret, auth::guard))
}
