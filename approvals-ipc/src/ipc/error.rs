//! The errors of the socket protocol: why the server refused a frame
//! ([`Refusal`], one variant per wire `reason`), why a line could not be read
//! ([`FrameError`]) and why a client call failed ([`ClientError`]).
//!
//! Refusals are a closed enum so that tests assert variants, never message
//! text, and so that every refusal the server can send has exactly one wire
//! reason (DESIGN.md section 5.3, invariants 1 and 2).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use super::answer::ErrorBody;

/// Why the server refused a frame; closed so every wire reason has one variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum Refusal {
    /// `|now - ts|` exceeded the TTL in either direction.
    #[error("expired request: timestamp outside the allowed window")]
    Ttl,
    /// `ts` predates this server's start: the line was signed for an earlier
    /// instance (a replay across a restart), whatever the TTL says.
    #[error("expired request: signed before this bridge started")]
    BeforeStart,
    /// The HMAC did not verify (wrong token, altered frame, or not hex).
    #[error("invalid auth: hmac does not match")]
    Hmac,
    /// The challenge nonce of this connection was already spent, was issued
    /// to another connection, or the nonce is malformed.
    #[error("invalid nonce: already used, issued to another connection, or malformed")]
    Nonce,
    /// A nonce the client made up, refused by `socket.requireChallenge`.
    #[error(
        "client-made nonce refused: this bridge requires signing with the nonce of its challenge"
    )]
    ClientNonce,
    /// A client-made nonce was already seen within twice the TTL.
    #[error("replayed request: nonce already seen")]
    Replay,
    /// The replay cache is full of unexpired nonces, so a new one cannot be remembered.
    #[error("replay cache full: too many recent requests, retry shortly")]
    ReplayCacheFull,
    /// `requestJson` (or the frame itself) is not the expected JSON.
    #[error("invalid payload: request json does not parse")]
    Json,
    /// A line exceeded the frame limit.
    #[error("frame too large")]
    TooLarge,
    /// The peer runs under another UID than the one expected.
    #[error("peer uid mismatch")]
    PeerUid,
}

impl Refusal {
    /// The `reason` string sent on the wire, shared with OpenClaw's reasons.
    ///
    /// `peer-uid` is only logged: the wire error for a foreign UID carries
    /// no reason, exactly as DESIGN.md 5.1 specifies.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Ttl | Refusal::BeforeStart => "ttl",
            Refusal::Hmac => "hmac",
            Refusal::Nonce | Refusal::ClientNonce => "nonce",
            Refusal::Replay | Refusal::ReplayCacheFull => "replay",
            Refusal::Json => "json",
            Refusal::TooLarge => "too-large",
            Refusal::PeerUid => "peer-uid",
        }
    }
}

/// Why a line could not be read off the socket.
#[derive(Debug, Error)]
pub enum FrameError {
    /// The line grew beyond the limit before a newline arrived.
    #[error("frame too large: more than {limit} bytes without a newline")]
    TooLarge {
        /// The configured limit in bytes.
        limit: usize,
    },
    /// The line is not valid UTF-8.
    #[error("frame is not valid utf-8")]
    Utf8,
    /// The socket failed.
    #[error("socket read failed")]
    Io(#[from] io::Error),
}

/// Why a client call failed; the node host maps [`ClientError::Unavailable`]
/// to `COMPANION_UNAVAILABLE`.
#[derive(Debug, Error)]
pub enum ClientError {
    /// Nothing listens at the socket path (missing file or refused connection).
    #[error(
        "exec host unavailable at {path}\nhint: start the ui bridge or use the local exec host"
    )]
    Unavailable {
        /// The socket path.
        path: PathBuf,
        /// The connect error.
        #[source]
        source: io::Error,
    },
    /// The process serving the socket runs under another UID (a squatted path).
    #[error("exec host at {path} runs as uid {found}, expected uid {expected}")]
    ServerUidMismatch {
        /// The socket path.
        path: PathBuf,
        /// The UID we require.
        expected: u32,
        /// The UID the server runs as.
        found: u32,
    },
    /// The server closed the connection before answering.
    #[error(
        "exec host closed the connection while {during}; the outcome of the command is unknown"
    )]
    Closed {
        /// What the client was waiting for.
        during: &'static str,
    },
    /// The server did not answer in time.
    #[error("exec host did not answer within {after:?} while {during}")]
    Timeout {
        /// The timeout that elapsed.
        after: Duration,
        /// What the client was waiting for.
        during: &'static str,
    },
    /// The server sent an `error` frame (and will close the connection).
    #[error("exec host refused the connection: {}", .0.message)]
    Server(ErrorBody),
    /// The server sent something that breaks the protocol.
    #[error("protocol error: {detail}")]
    Protocol {
        /// What was wrong.
        detail: String,
    },
    /// A socket operation failed.
    #[error("socket {op} failed")]
    Io {
        /// The operation (connect, read, write).
        op: &'static str,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// An earlier failure left the connection in an unknown state.
    #[error("connection unusable after an earlier failure\nhint: connect again")]
    Broken,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_has_its_wire_reason() {
        let table = [
            (Refusal::Ttl, "ttl"),
            (Refusal::BeforeStart, "ttl"),
            (Refusal::ClientNonce, "nonce"),
            (Refusal::Hmac, "hmac"),
            (Refusal::Nonce, "nonce"),
            (Refusal::Replay, "replay"),
            (Refusal::ReplayCacheFull, "replay"),
            (Refusal::Json, "json"),
            (Refusal::TooLarge, "too-large"),
            (Refusal::PeerUid, "peer-uid"),
        ];
        for (refusal, reason) in table {
            assert_eq!(refusal.reason(), reason);
            let message = refusal.to_string();
            assert!(
                !message.ends_with('.') && message == message.to_lowercase(),
                "{message}"
            );
        }
    }
}
