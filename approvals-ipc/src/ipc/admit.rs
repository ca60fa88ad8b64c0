//! Admission of one signed frame (`exec` or `control`): the ordered checks
//! of DESIGN.md 5.3 that turn an untrusted frame into an [`Admitted`]
//! request, or a [`Refusal`]. Both frame types go through this one
//! function; only the type the inner JSON must parse as differs.
//!
//! Order: timestamp within the TTL (both directions, overflow-safe) and not
//! before this server instance started, HMAC in constant time, nonce (this
//! connection's challenge, consumed once; never a challenge this instance
//! issued to another connection; or, unless `socket.requireChallenge`
//! refuses them, a client-made nonce not seen within twice the TTL), and
//! only then the inner JSON. Every admitted nonce, challenge or not, is
//! recorded in the shared replay cache so a captured line cannot run again
//! on another connection; the start-time check stops it running again after
//! a restart, when that memory is gone. Upholds DESIGN.md invariant 2; no
//! socket is needed to test it.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde::de::DeserializeOwned;

use super::auth::{self, Token};
use super::error::Refusal;
use super::frame::{ExecFrame, ExecRequest};
use super::instance::{ClientNonces, Instance};
use super::replay::ReplayCache;

/// How many spent challenge nonces a connection remembers to name their reuse `nonce`.
const SPENT_REMEMBERED: usize = 8;

/// Proof that a signed frame passed every check; only [`admit`] makes one.
///
/// `T` is the inner request: [`ExecRequest`] for `exec`,
/// [`ControlRequest`](super::control::ControlRequest) for `control`.
#[derive(Debug)]
pub struct Admitted<T = ExecRequest> {
    request: T,
}

impl<T> Admitted<T> {
    /// The authenticated inner request.
    pub fn into_request(self) -> T {
        self.request
    }
}

/// The challenge nonces of one connection: the outstanding one and a few spent ones.
#[derive(Debug, Default)]
pub struct ChallengeState {
    outstanding: Option<String>,
    spent: VecDeque<String>,
}

impl ChallengeState {
    /// Records the nonce just sent in a `challenge`; it replaces any unused one.
    pub fn issue(&mut self, nonce: String) {
        self.outstanding = Some(nonce);
    }

    fn consume(&mut self, nonce: &str, instance: &Instance) -> NonceKind {
        if self.outstanding.as_deref() == Some(nonce) {
            if let Some(spent) = self.outstanding.take() {
                if self.spent.len() == SPENT_REMEMBERED {
                    self.spent.pop_front();
                }
                self.spent.push_back(spent);
            }
            NonceKind::Challenge
        } else if self.spent.iter().any(|spent| spent == nonce) {
            NonceKind::Spent
        } else if instance.issued(nonce) {
            NonceKind::OtherConnection
        } else {
            NonceKind::ClientMade
        }
    }
}

enum NonceKind {
    /// This connection's outstanding challenge.
    Challenge,
    /// One of this connection's spent challenges.
    Spent,
    /// A challenge this instance issued, but to another connection.
    OtherConnection,
    /// Not ours: the client made it up (or an earlier instance issued it).
    ClientMade,
}

/// What the checks need from the server: the secret, the window and the clocks.
#[derive(Debug)]
pub struct AdmitContext<'a> {
    /// The shared token.
    pub token: &'a Token,
    /// Allowed distance between the frame's `ts` and `now_ms`.
    pub ttl_ms: u64,
    /// Wall clock in ms, compared with the frame's `ts` and used by the replay cache.
    pub now_ms: i64,
    /// The cache shared by all connections.
    pub replay: &'a Mutex<ReplayCache>,
    /// This server instance: its start time, nonce key and nonce policy.
    pub instance: &'a Instance,
}

/// Runs the checks in order and returns the first refusal, or the
/// authenticated request parsed as `T`.
pub fn admit<T: DeserializeOwned>(
    frame: &ExecFrame,
    ctx: &AdmitContext<'_>,
    challenge: &mut ChallengeState,
) -> Result<Admitted<T>, Refusal> {
    if frame.ts.abs_diff(ctx.now_ms) > ctx.ttl_ms {
        return Err(Refusal::Ttl);
    }
    if frame.ts < ctx.instance.started_ms() {
        return Err(Refusal::BeforeStart);
    }
    if !auth::verify(
        ctx.token.expose_secret(),
        &frame.nonce,
        frame.ts,
        &frame.request_json,
        &frame.hmac,
    ) {
        return Err(Refusal::Hmac);
    }
    if !auth::nonce_well_formed(&frame.nonce) {
        return Err(Refusal::Nonce);
    }
    match challenge.consume(&frame.nonce, ctx.instance) {
        NonceKind::Spent | NonceKind::OtherConnection => return Err(Refusal::Nonce),
        NonceKind::ClientMade if ctx.instance.client_nonces() == ClientNonces::Refuse => {
            return Err(Refusal::ClientNonce);
        }
        NonceKind::Challenge | NonceKind::ClientMade => {}
    }
    {
        // A poisoned lock means another connection panicked mid-update; the
        // cache may have lost an entry, so refuse rather than trust it.
        let mut replay = ctx.replay.lock().map_err(|_| Refusal::ReplayCacheFull)?;
        let now = u64::try_from(ctx.now_ms).unwrap_or(0);
        replay.check_and_record(&frame.nonce, now)?;
    }
    let request = serde_json::from_str::<T>(&frame.request_json).map_err(|_| Refusal::Json)?;
    Ok(Admitted { request })
}

#[cfg(test)]
mod tests;
