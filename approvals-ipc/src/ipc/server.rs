//! The listener side of the socket: limits, one task per connection, and
//! graceful shutdown, in the shape of mini-redis's `server.rs`.
//!
//! It decides how many connections are served at once (beyond the limit a
//! new one gets `UNAVAILABLE` and is closed), and owns what connections
//! share: the configuration, the replay cache and the handler. What happens
//! on one connection is in [`super::connection`]. Upholds DESIGN.md
//! invariant 2: a misbehaving client holds at most one connection slot for
//! at most the read timeout, and never stalls the accept loop.

use std::future::Future;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::UnixListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::auth::{self, Token};
use super::codec::{self, DEFAULT_MAX_FRAME};
use super::connection;
use super::control::ControlRequest;
use super::frame::{
    Decision, ErrorBody, ErrorCode, ExecPayload, ExecRequest, Frame, PromptRequest,
};
use super::instance::{ClientNonces, Instance};
use super::peer;
use super::replay::ReplayCache;

/// What the server needs to know; build with [`ServerConfig::new`] and adjust fields.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The shared secret from the approvals file.
    pub token: Token,
    /// How far an `exec` timestamp may be from our clock, both ways.
    pub ttl_ms: u64,
    /// Longest accepted line in bytes.
    pub max_frame: usize,
    /// Connections served at once; more are refused with `UNAVAILABLE`.
    pub max_connections: usize,
    /// How long a connection may stay silent while we wait for a request.
    pub read_timeout: Duration,
    /// How long writing one frame may take before the client is dropped.
    pub write_timeout: Duration,
    /// The only UID allowed to talk to us (default: our own effective UID).
    pub expected_uid: u32,
    /// How many client-made nonces are remembered at once (refuse when full).
    pub replay_capacity: usize,
    /// Whether nonces a client made up are accepted (`socket.requireChallenge` refuses them).
    pub client_nonces: ClientNonces,
    /// Wall-clock ms this server counts as its start (now, in [`ServerConfig::new`]):
    /// a frame signed earlier was signed for an earlier instance and is refused.
    pub started_ms: i64,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
}

impl ServerConfig {
    /// The defaults of DESIGN.md section 5 around the given token.
    pub fn new(token: Token) -> Self {
        ServerConfig {
            token,
            ttl_ms: 10_000,
            max_frame: DEFAULT_MAX_FRAME,
            max_connections: 512,
            read_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
            expected_uid: peer::own_euid(),
            replay_capacity: 65_536,
            client_nonces: ClientNonces::Accept,
            started_ms: auth::wall_clock_ms(),
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

/// What the exec host does with an authenticated request; the server only carries frames.
pub trait Handler: Send + Sync + 'static {
    /// Decides and runs one `system.run`; `Err` becomes an `ok: false` reply.
    fn exec(
        &self,
        request: ExecRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Result<ExecPayload, ErrorBody>> + Send;

    /// Answers OpenClaw's older prompt frame (the token was already checked).
    fn prompt(
        &self,
        request: PromptRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Decision> + Send;

    /// Performs one control operation (list or answer approvals); the frame
    /// was authenticated like an `exec`. `Err` becomes an `ok: false` reply.
    ///
    /// The default refuses with `UNAVAILABLE`, so a handler without
    /// approvals to control serves no control API at all.
    fn control(
        &self,
        request: ControlRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Result<serde_json::Value, ErrorBody>> + Send {
        tracing::debug!(id = %ctx.id, op = request.op(), "control request refused: not served");
        std::future::ready(Err(ErrorBody::new(
            ErrorCode::Unavailable,
            "control API not served",
        )
        .with_reason("control-unavailable")))
    }
}

/// Facts about the requester a handler may use, and a signal that it went away.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The frame's id, for logs and audit.
    pub id: String,
    /// The peer's UID (equal to the expected one).
    pub peer_uid: u32,
    /// The peer's pid when known; a snapshot for display, never for decisions.
    pub peer_pid: Option<i32>,
    /// Fires when the client is gone while the request is pending.
    ///
    /// # Caveats
    ///
    /// End-of-file on the read side alone does not fire it: OpenClaw's
    /// client half-closes right after sending and still waits for the reply.
    /// It fires on a socket error, or when the peer has closed both
    /// directions (hang-up seen while polling), checked every 100 ms.
    pub cancelled: CancellationToken,
}

/// What every connection task shares.
#[derive(Debug)]
pub(super) struct Shared<H> {
    pub(super) config: ServerConfig,
    pub(super) handler: Arc<H>,
    pub(super) replay: Mutex<ReplayCache>,
    pub(super) instance: Instance,
    pub(super) stop: CancellationToken,
}

/// Serves connections until `shutdown` completes, then waits up to the grace period for requests in flight.
///
/// Accept errors (e.g. out of file descriptors) are logged and retried after
/// a short pause rather than ending the server.
pub async fn serve<H: Handler>(
    listener: UnixListener,
    config: ServerConfig,
    handler: Arc<H>,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let limit = Arc::new(Semaphore::new(config.max_connections));
    let grace = config.shutdown_grace;
    let instance = Instance::started_at(config.started_ms, config.client_nonces)
        .map_err(|error| io::Error::other(format!("no randomness for the nonce key: {error}")))?;
    let shared = Arc::new(Shared {
        instance,
        replay: Mutex::new(ReplayCache::new(
            config.replay_capacity,
            // A line passes the TTL check while `now <= ts + ttl` and `ts <= seen + ttl`,
            // so it must be remembered for strictly longer than twice the TTL.
            config.ttl_ms.saturating_mul(2).saturating_add(1),
        )),
        config,
        handler,
        stop: CancellationToken::new(),
    });
    let tracker = TaskTracker::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => match Arc::clone(&limit).try_acquire_owned() {
                    Ok(permit) => {
                        let shared = Arc::clone(&shared);
                        tracker.spawn(async move {
                            connection::run(stream, shared).await;
                            drop(permit);
                        });
                    }
                    Err(_) => {
                        tracing::warn!(limit = shared.config.max_connections, "too many connections, refusing one");
                        let busy = Frame::Error {
                            error: ErrorBody::new(ErrorCode::Unavailable, "too many connections")
                                .with_reason("busy"),
                        };
                        // Best effort without waiting: a fresh socket's buffer has room.
                        let _ = stream.try_write(&codec::encode(&busy));
                    }
                },
                Err(error) => {
                    tracing::warn!(%error, "accept failed; retrying shortly");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    tracing::info!("shutting down: no new connections");
    shared.stop.cancel();
    tracker.close();
    if tokio::time::timeout(grace, tracker.wait()).await.is_err() {
        tracing::warn!(
            in_flight = tracker.len(),
            "requests still in flight after the grace period"
        );
    }
    Ok(())
}
