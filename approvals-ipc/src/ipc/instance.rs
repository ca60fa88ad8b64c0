//! This server instance's identity on the wire: when it started, and a key
//! of its own that tags every challenge nonce it issues.
//!
//! The replay cache lives in memory, so on its own it forgets every nonce
//! when the bridge restarts, and a line captured before a restart would run
//! again inside its TTL. Two facts close that (issue 9, hole 8): a frame
//! whose `ts` predates this instance's start cannot have been signed for it,
//! and a nonce this instance issued carries a tag only this instance can
//! make, so it recognises its own challenges on any connection and can tell
//! them from nonces a client made up (OpenClaw's clients do that). Where no
//! such legacy client runs, `socket.requireChallenge` refuses client-made
//! nonces altogether.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// Random bytes at the front of an issued nonce.
const RANDOM_BYTES: usize = 16;
/// Tag bytes after them: HMAC-SHA256(instance key, random part), truncated.
const TAG_BYTES: usize = 16;

/// Whether nonces a client made up (rather than read from our challenge) are accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ClientNonces {
    /// Accepted once each within the replay window (OpenClaw's node host sends them).
    #[default]
    Accept,
    /// Refused: only a challenge this instance issued on the same connection counts.
    Refuse,
}

/// One server instance: its start time, its nonce key and its nonce policy.
pub struct Instance {
    key: [u8; 32],
    started_ms: i64,
    client_nonces: ClientNonces,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("key", &"<redacted>")
            .field("started_ms", &self.started_ms)
            .field("client_nonces", &self.client_nonces)
            .finish()
    }
}

impl Instance {
    /// A new instance, with a fresh random key, that counts as started at
    /// `started_ms` (the wall clock, as frames' `ts`).
    pub fn started_at(
        started_ms: i64,
        client_nonces: ClientNonces,
    ) -> Result<Self, getrandom::Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)?;
        Ok(Instance {
            key,
            started_ms,
            client_nonces,
        })
    }

    /// Wall-clock ms at which this instance started; older timestamps were signed for another.
    pub fn started_ms(&self) -> i64 {
        self.started_ms
    }

    /// Whether client-made nonces are accepted.
    pub fn client_nonces(&self) -> ClientNonces {
        self.client_nonces
    }

    /// A fresh challenge nonce that only this instance can recognise
    /// (64 hex digits, the same shape as before).
    pub fn issue_nonce(&self) -> Result<String, getrandom::Error> {
        let mut bytes = [0u8; RANDOM_BYTES + TAG_BYTES];
        let (random, tag) = bytes.split_at_mut(RANDOM_BYTES);
        getrandom::fill(random)?;
        tag.copy_from_slice(&self.tag(random));
        Ok(hex::encode(bytes))
    }

    /// Whether this instance issued `nonce` (checked in constant time).
    pub fn issued(&self, nonce: &str) -> bool {
        let mut bytes = [0u8; RANDOM_BYTES + TAG_BYTES];
        if hex::decode_to_slice(nonce, &mut bytes).is_err() {
            return false;
        }
        let (random, tag) = bytes.split_at(RANDOM_BYTES);
        self.tag(random).ct_eq(tag).into()
    }

    fn tag(&self, random: &[u8]) -> [u8; TAG_BYTES] {
        // Invariant: HMAC takes keys of any length, so this cannot fail.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key)
            .expect("hmac accepts a 32-byte key");
        mac.update(random);
        let full = mac.finalize().into_bytes();
        let mut tag = [0u8; TAG_BYTES];
        tag.copy_from_slice(&full[..TAG_BYTES]);
        tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::auth;

    fn instance() -> Instance {
        Instance::started_at(0, ClientNonces::Accept).unwrap()
    }

    #[test]
    fn recognises_its_own_nonces_and_no_other_instances() {
        let one = instance();
        let two = instance();
        let nonce = one.issue_nonce().unwrap();
        assert_eq!(nonce.len(), 64);
        assert!(auth::nonce_well_formed(&nonce));
        assert!(one.issued(&nonce));
        assert!(!two.issued(&nonce), "another instance (a restart) must not");
        assert_ne!(one.issue_nonce().unwrap(), nonce);
    }

    #[test]
    fn a_client_made_or_altered_nonce_is_not_recognised() {
        let one = instance();
        let nonce = one.issue_nonce().unwrap();
        assert!(!one.issued(&auth::new_nonce().unwrap()));
        // Flip one digit of the random part, then of the tag.
        for at in [0, 40] {
            let mut altered = nonce.clone().into_bytes();
            altered[at] = if altered[at] == b'0' { b'1' } else { b'0' };
            assert!(!one.issued(std::str::from_utf8(&altered).unwrap()));
        }
        assert!(!one.issued(&nonce[..62]));
        assert!(!one.issued(&format!("{nonce}00")));
        assert!(!one.issued(""));
        assert!(!one.issued(&"z".repeat(64)));
    }

    #[test]
    fn debug_hides_the_key() {
        let shown = format!("{:?}", instance());
        assert!(shown.contains("<redacted>"), "{shown}");
    }
}
