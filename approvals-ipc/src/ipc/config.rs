//! The server's settings and their defaults (DESIGN.md section 5): the
//! token, the TTL, and the bounds on frames, connections, time and the
//! replay cache.
//!
//! It decides nothing at run time; it is kept apart from `server` so that
//! `server` and `connection` can both read it while `server` alone depends on
//! `connection`. Every bound here is finite by construction (invariant 2).

use std::time::Duration;

use super::auth::{self, Token};
use super::codec::DEFAULT_MAX_FRAME;
use super::instance::ClientNonces;
use super::peer;

/// What the server needs to know; build with [`ServerConfig::new`] and adjust fields.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The shared secret from the approvals file.
    pub token: Token,
    /// How far an `exec` timestamp may be from our clock, both ways.
    pub ttl_ms: u64,
    /// Longest accepted line in bytes.
    pub max_frame: usize,
    /// Connections served at once; beyond it an idle connection of the
    /// process holding the most is closed, or, when none is idle, the new
    /// one is refused with `UNAVAILABLE`.
    pub max_connections: usize,
    /// Connections one process (peer pid) may hold at once, below
    /// `max_connections`, so one process cannot lock others out; beyond it
    /// that process's oldest idle connection is closed.
    pub max_connections_per_peer: usize,
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
            max_connections_per_peer: 256,
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
