//! The node handshake (openclaw-gateway.md section 3): the `connect`
//! request answering `connect.challenge`, the v3 signature over it, the
//! `hello-ok` we need from the reply, and what a refused `connect` means
//! for the next attempt.

use std::time::Duration;

use serde_json::{Value, json};

use super::frames::ErrorShape;
use super::identity::DeviceIdentity;
use super::secret::Secret;

/// `client.id`: the gateway's name for a headless node host.
pub const CLIENT_ID: &str = "node-host";
/// `client.mode` and `role`.
pub const NODE: &str = "node";
/// Protocol versions we speak.
pub const MIN_PROTOCOL: u64 = 3;
/// See [`MIN_PROTOCOL`].
pub const MAX_PROTOCOL: u64 = 4;
/// `policy.maxPayload` when hello-ok has none (the gateway's 25 MiB).
pub const DEFAULT_MAX_PAYLOAD: usize = 25 * 1024 * 1024;
/// `policy.tickIntervalMs` when hello-ok has none.
pub const DEFAULT_TICK: Duration = Duration::from_secs(15);

/// `connect.challenge`'s payload.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Challenge {
    /// Echoed as `device.nonce` and signed.
    pub nonce: String,
    /// Echoed as `device.signedAt` and signed.
    pub ts: u64,
}

/// What goes into `connect` besides the challenge.
#[derive(Debug)]
pub struct ConnectInput<'a> {
    /// Our key.
    pub identity: &'a DeviceIdentity,
    /// `auth.token`: the saved device token, else the shared token.
    pub token: Option<&'a Secret>,
    /// `client.displayName`.
    pub display_name: &'a str,
    /// `client.instanceId`: one per process.
    pub instance_id: &'a str,
    /// Declared capabilities.
    pub caps: &'a [String],
    /// Declared commands.
    pub commands: &'a [String],
}

/// `client.platform` and `client.deviceFamily` as OpenClaw's own node host
/// reports them (its gateway derives the default command allowlist from the
/// pair): `linux`/`Linux`, `macos`/`Mac`, `windows`/`Windows`.
pub fn platform() -> (&'static str, Option<&'static str>) {
    let os = std::env::consts::OS;
    let family = match os {
        "linux" => Some("Linux"),
        "macos" => Some("Mac"),
        "windows" => Some("Windows"),
        _ => None,
    };
    (os, family)
}

/// The `connect` request's params, signed for `challenge`.
pub fn connect_params(input: &ConnectInput<'_>, challenge: &Challenge) -> Value {
    let (platform, device_family) = platform();
    let token = input.token.map(Secret::expose).unwrap_or("");
    let payload = signature_payload(&SignedFields {
        device_id: input.identity.device_id(),
        signed_at: challenge.ts,
        token,
        nonce: &challenge.nonce,
        platform,
        device_family: device_family.unwrap_or(""),
    });
    let auth = match input.token {
        Some(token) => json!({"token": token.expose()}),
        None => json!({}),
    };
    // The gateway's schema refuses `null` for optional fields: absent ones
    // (deviceFamily off the three desktop OSes, modelIdentifier,
    // permissions) are left out, and sign as "".
    let mut client = json!({
        "id": CLIENT_ID,
        "displayName": input.display_name,
        "version": env!("CARGO_PKG_VERSION"),
        "platform": platform,
        "mode": NODE,
        "instanceId": input.instance_id,
    });
    if let (Some(family), Some(fields)) = (device_family, client.as_object_mut()) {
        fields.insert("deviceFamily".to_owned(), json!(family));
    }
    json!({
        "minProtocol": MIN_PROTOCOL,
        "maxProtocol": MAX_PROTOCOL,
        "client": client,
        "caps": input.caps,
        "commands": input.commands,
        "auth": auth,
        "role": NODE,
        "scopes": [],
        "device": {
            "id": input.identity.device_id(),
            "publicKey": input.identity.public_key(),
            "signature": input.identity.sign(&payload),
            "signedAt": challenge.ts,
            "nonce": challenge.nonce,
        },
    })
}

/// The parts of the v3 payload that vary.
struct SignedFields<'a> {
    device_id: &'a str,
    signed_at: u64,
    token: &'a str,
    nonce: &'a str,
    platform: &'a str,
    device_family: &'a str,
}

/// `v3|deviceId|client.id|client.mode|role|scopes|signedAt|token|nonce|platform|deviceFamily`,
/// the last two lowercased; scopes are empty for a node.
fn signature_payload(f: &SignedFields<'_>) -> String {
    [
        "v3",
        f.device_id,
        CLIENT_ID,
        NODE,
        NODE,
        "",
        &f.signed_at.to_string(),
        f.token,
        f.nonce,
        &f.platform.to_lowercase(),
        &f.device_family.to_lowercase(),
    ]
    .join("|")
}

/// What we keep from `hello-ok`.
#[derive(Debug)]
pub struct HelloOk {
    /// The protocol the gateway chose.
    pub protocol: u64,
    /// The largest frame either side may send.
    pub max_payload: usize,
    /// How often the gateway sends `tick`.
    pub tick_interval: Duration,
    /// A device token to use next time.
    pub device_token: Option<Secret>,
}

/// Reads `hello-ok`; refuses a payload of another type or protocol.
pub fn parse_hello(payload: &Value) -> Result<HelloOk, String> {
    if payload.get("type").and_then(Value::as_str) != Some("hello-ok") {
        return Err("the connect response is not hello-ok".to_owned());
    }
    let protocol = payload
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or("hello-ok has no protocol")?;
    if !(MIN_PROTOCOL..=MAX_PROTOCOL).contains(&protocol) {
        return Err(format!(
            "the gateway chose protocol {protocol}, which we do not speak"
        ));
    }
    let policy = payload.get("policy");
    let number = |key: &str| policy.and_then(|p| p.get(key)).and_then(Value::as_u64);
    Ok(HelloOk {
        protocol,
        max_payload: number("maxPayload")
            .and_then(|n| usize::try_from(n).ok())
            .filter(|n| *n > 0)
            .unwrap_or(DEFAULT_MAX_PAYLOAD),
        tick_interval: number("tickIntervalMs")
            .filter(|n| *n > 0)
            .map_or(DEFAULT_TICK, Duration::from_millis),
        device_token: payload
            .pointer("/auth/deviceToken")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(Secret::new),
    })
}

/// Why the gateway refused `connect`, as far as the next attempt cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The gateway is starting or busy: wait this long, then retry.
    Unavailable {
        /// `retryAfterMs`, when given.
        retry_after: Option<Duration>,
    },
    /// An operator must approve this device first.
    PairingRequired {
        /// The pending request to approve, when the gateway named it.
        request_id: Option<String>,
    },
    /// The token was refused (wrong shared token, stale device token) or
    /// the device signature was.
    AuthRejected {
        /// `details.code`, e.g. `AUTH_TOKEN_MISMATCH`.
        detail: String,
    },
    /// Anything else.
    Other,
}

/// Classifies a `connect` error.
pub fn classify(error: &ErrorShape) -> Refusal {
    let detail = error.detail_code().unwrap_or("");
    if detail == "PAIRING_REQUIRED" || error.code == "NOT_PAIRED" {
        return Refusal::PairingRequired {
            request_id: error
                .details
                .as_ref()
                .and_then(|d| d.get("requestId"))
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
    }
    if detail.starts_with("AUTH_") || detail.starts_with("DEVICE_AUTH_") {
        return Refusal::AuthRejected {
            detail: detail.to_owned(),
        };
    }
    if error.code == "UNAVAILABLE" {
        return Refusal::Unavailable {
            retry_after: error.retry_after_ms.map(Duration::from_millis),
        };
    }
    Refusal::Other
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ed25519_dalek::{Signature, Verifier as _, VerifyingKey};

    use super::*;

    #[test]
    fn the_v3_payload_has_the_documented_field_order() {
        let payload = signature_payload(&SignedFields {
            device_id: "dev",
            signed_at: 1_700_000_000_123,
            token: "tok",
            nonce: "n-1",
            platform: "Linux",
            device_family: "Linux",
        });
        assert_eq!(
            payload,
            "v3|dev|node-host|node|node||1700000000123|tok|n-1|linux|linux"
        );
    }

    #[test]
    fn connect_carries_a_signature_the_published_key_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let identity = DeviceIdentity::load_or_create(&dir.path().join("state")).unwrap();
        let token = Secret::new("gwtok123");
        let caps = vec!["system".to_owned()];
        let commands = vec!["system.run".to_owned()];
        let input = ConnectInput {
            identity: &identity,
            token: Some(&token),
            display_name: "n",
            instance_id: "i",
            caps: &caps,
            commands: &commands,
        };
        let challenge = Challenge {
            nonce: "abc".to_owned(),
            ts: 42,
        };
        let params = connect_params(&input, &challenge);
        let (platform, family) = platform();
        let expected = format!(
            "v3|{}|node-host|node|node||42|gwtok123|abc|{}|{}",
            identity.device_id(),
            platform,
            family.unwrap_or("").to_lowercase()
        );
        let key: [u8; 32] = URL_SAFE_NO_PAD
            .decode(params["device"]["publicKey"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let sig: [u8; 64] = URL_SAFE_NO_PAD
            .decode(params["device"]["signature"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let key = VerifyingKey::from_bytes(&key).unwrap();
        assert!(
            key.verify(expected.as_bytes(), &Signature::from_bytes(&sig))
                .is_ok()
        );
        assert_eq!(params["auth"], json!({"token": "gwtok123"}));
        assert_eq!(
            (params["role"].clone(), params["scopes"].clone()),
            (json!("node"), json!([]))
        );
    }

    #[test]
    fn hello_ok_gives_limits_and_the_device_token() {
        let hello = parse_hello(&json!({"type":"hello-ok","protocol":4,
            "auth":{"deviceToken":"dt"},"policy":{"maxPayload":1000,"tickIntervalMs":50}}))
        .unwrap();
        assert_eq!(
            (hello.max_payload, hello.tick_interval),
            (1000, Duration::from_millis(50))
        );
        assert_eq!(hello.device_token, Some(Secret::new("dt")));
        assert!(parse_hello(&json!({"type":"hello-ok","protocol":5})).is_err());
        assert!(parse_hello(&json!({"type":"other","protocol":4})).is_err());
    }

    #[test]
    fn refusals_are_classified_by_their_codes() {
        let e = |code: &str, details: Value, retry: Option<u64>| ErrorShape {
            code: code.to_owned(),
            retry_after_ms: retry,
            details: Some(details),
            ..ErrorShape::default()
        };
        assert_eq!(
            classify(&e(
                "UNAVAILABLE",
                json!({"reason":"startup-sidecars"}),
                Some(500)
            )),
            Refusal::Unavailable {
                retry_after: Some(Duration::from_millis(500))
            }
        );
        assert_eq!(
            classify(&e(
                "NOT_PAIRED",
                json!({"code":"PAIRING_REQUIRED","requestId":"r1"}),
                None
            )),
            Refusal::PairingRequired {
                request_id: Some("r1".to_owned())
            }
        );
        assert_eq!(
            classify(&e(
                "INVALID_REQUEST",
                json!({"code":"AUTH_DEVICE_TOKEN_MISMATCH"}),
                None
            )),
            Refusal::AuthRejected {
                detail: "AUTH_DEVICE_TOKEN_MISMATCH".to_owned()
            }
        );
        assert_eq!(
            classify(&e("INVALID_REQUEST", json!({}), None)),
            Refusal::Other
        );
    }
}
