//! The cryptographic pieces of the protocol: the shared token, the request
//! HMAC, constant-time comparisons and challenge nonces.
//!
//! It decides whether a signature or a token is right and refuses anything
//! else without revealing where it differed (constant-time comparisons). The
//! token never appears in `Debug` output or logs (DESIGN.md invariant 9); the
//! HMAC check is half of invariant 2. The token type itself lives with the
//! approvals file that holds it ([`crate::approvals::Token`]) and is
//! re-exported here for the protocol's callers.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The socket token is the approvals file's secret; one type, so a second
/// copy with a non-constant-time `==` cannot creep back in.
pub use crate::approvals::Token;

type HmacSha256 = Hmac<Sha256>;

/// Length in bytes of a challenge nonce before hex encoding.
pub const NONCE_BYTES: usize = 32;

/// Signs a request the way OpenClaw does: lowercase hex HMAC-SHA256 of `nonce:ts:requestJson`.
pub fn sign(token: &str, nonce: &str, ts: i64, request_json: &str) -> String {
    hex::encode(
        keyed(token, nonce, ts, request_json)
            .finalize()
            .into_bytes(),
    )
}

/// Checks a presented signature in constant time; anything not 32 bytes of hex fails.
pub fn verify(token: &str, nonce: &str, ts: i64, request_json: &str, presented_hex: &str) -> bool {
    let Ok(presented) = hex::decode(presented_hex) else {
        return false;
    };
    keyed(token, nonce, ts, request_json)
        .verify_slice(&presented)
        .is_ok()
}

fn keyed(token: &str, nonce: &str, ts: i64, request_json: &str) -> HmacSha256 {
    // Invariant: HMAC accepts keys of any length (RFC 2104 hashes long keys
    // and pads short ones), so `new_from_slice` cannot fail for HMAC-SHA256
    // whatever token the file holds; the hmac crate itself relies on this.
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(token.as_bytes())
        .expect("hmac accepts keys of any length");
    mac.update(nonce.as_bytes());
    mac.update(b":");
    mac.update(ts.to_string().as_bytes());
    mac.update(b":");
    mac.update(request_json.as_bytes());
    mac
}

/// Makes a fresh challenge nonce: 32 bytes from the OS CSPRNG, lowercase hex.
pub fn new_nonce() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; NONCE_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(hex::encode(bytes))
}

/// Wall clock in ms since the epoch, as on the wire; before 1970 reads as 0 (every ts then fails the TTL).
pub fn wall_clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Whether a nonce has the shape we accept (16..=64 bytes of hex), bounding what the replay cache stores.
pub fn nonce_well_formed(nonce: &str) -> bool {
    (32..=128).contains(&nonce.len()) && nonce.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTOR_JSON: &str = r#"{"command":["/bin/echo","hi"],"cwd":null,"timeoutMs":null}"#;
    const VECTOR_HMAC: &str = "37a2d4ed3207260d3a320434f22802c52fdbf28988962b0a2655b05bf6251a9c";
    const VECTOR_NONCE: &str = "00112233445566778899aabbccddeeff";

    #[test]
    fn signs_the_openclaw_test_vector() {
        assert_eq!(
            sign("test-token", VECTOR_NONCE, 1_700_000_000_000, VECTOR_JSON),
            VECTOR_HMAC
        );
    }

    #[test]
    fn verifies_the_vector_and_refuses_every_alteration() {
        let ok = |token, nonce, ts, json, mac| verify(token, nonce, ts, json, mac);
        assert!(ok(
            "test-token",
            VECTOR_NONCE,
            1_700_000_000_000,
            VECTOR_JSON,
            VECTOR_HMAC
        ));
        let upper = VECTOR_HMAC.to_uppercase();
        let cases: &[(&str, &str, i64, &str, &str)] = &[
            (
                "test-tokeN",
                VECTOR_NONCE,
                1_700_000_000_000,
                VECTOR_JSON,
                VECTOR_HMAC,
            ),
            (
                "test-token",
                "00112233445566778899aabbccddeefe",
                1_700_000_000_000,
                VECTOR_JSON,
                VECTOR_HMAC,
            ),
            (
                "test-token",
                VECTOR_NONCE,
                1_700_000_000_001,
                VECTOR_JSON,
                VECTOR_HMAC,
            ),
            (
                "test-token",
                VECTOR_NONCE,
                1_700_000_000_000,
                r#"{"command":["/bin/echo","ho"],"cwd":null,"timeoutMs":null}"#,
                VECTOR_HMAC,
            ),
            (
                "test-token",
                VECTOR_NONCE,
                1_700_000_000_000,
                VECTOR_JSON,
                &VECTOR_HMAC[..62],
            ),
            (
                "test-token",
                VECTOR_NONCE,
                1_700_000_000_000,
                VECTOR_JSON,
                "zz",
            ),
            (
                "test-token",
                VECTOR_NONCE,
                1_700_000_000_000,
                VECTOR_JSON,
                "",
            ),
        ];
        for (token, nonce, ts, json, mac) in cases {
            assert!(
                !ok(token, nonce, *ts, json, mac),
                "accepted {token} {nonce} {ts} {json} {mac}"
            );
        }
        // Hex case does not change the bytes compared.
        assert!(ok(
            "test-token",
            VECTOR_NONCE,
            1_700_000_000_000,
            VECTOR_JSON,
            &upper
        ));
    }

    #[test]
    fn wall_clock_reads_the_system_clock_in_milliseconds() {
        // The TTL check and the replay cache compare frames' `ts` with this
        // value; a constant here would admit any `ts` near that constant.
        let read = || {
            let since = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap();
            i64::try_from(since.as_millis()).unwrap()
        };
        let before = read();
        let got = wall_clock_ms();
        let after = read();
        assert!(
            before <= got && got <= after,
            "{before} <= {got} <= {after}"
        );
    }

    #[test]
    fn nonces_are_fresh_hex_of_the_right_length() {
        let a = new_nonce().unwrap();
        let b = new_nonce().unwrap();
        assert_eq!(a.len(), NONCE_BYTES * 2);
        assert!(nonce_well_formed(&a));
        assert_ne!(a, b);
        assert_eq!(a, a.to_lowercase());
    }

    #[test]
    fn nonce_shape_bounds_length_and_alphabet() {
        assert!(nonce_well_formed(VECTOR_NONCE));
        for bad in [
            "",
            "00112233",
            "g0112233445566778899aabbccddeeff",
            &"a".repeat(129),
        ] {
            assert!(!nonce_well_formed(bad), "{bad}");
        }
    }
}
