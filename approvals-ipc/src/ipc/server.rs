//! The listener side of the socket: limits, one task per connection, and
//! graceful shutdown, in the shape of mini-redis's `server.rs`.
//!
//! It hands each accepted connection a slot from [`super::slots`] (a global
//! cap and a per-process cap, idle connections closed first to make room;
//! when none can be, the new one gets `UNAVAILABLE` and is closed), and
//! owns what connections share: the configuration, the replay cache and the
//! handler. What happens on one connection is in [`super::connection`].
//! Upholds DESIGN.md invariant 2: a misbehaving client holds its slots only
//! while it has requests in flight or up to the read timeout, and never
//! stalls the accept loop.

use std::future::Future;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::UnixListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::codec;
use super::config::ServerConfig;
use super::connection::{self, Shared};
use super::frame::{ErrorBody, ErrorCode, Frame};
use super::handler::Handler;
use super::instance::Instance;
use super::peer;
use super::replay::ReplayCache;
use super::slots::Slots;

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
    let slots = Slots::new(config.max_connections, config.max_connections_per_peer);
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
                Ok((stream, _)) => match slots.admit(peer::peer_pid(&stream)) {
                    Ok(slot) => {
                        let shared = Arc::clone(&shared);
                        tracker.spawn(connection::run(stream, shared, slot));
                    }
                    Err(refused) => {
                        tracing::warn!(reason = refused.reason(), "no connection slot, refusing one");
                        let busy = Frame::Error {
                            error: ErrorBody::new(ErrorCode::Unavailable, refused.message())
                                .with_reason(refused.reason()),
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
