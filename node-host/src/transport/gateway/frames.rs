//! The gateway's JSON text frames (openclaw-gateway.md section 2): `req`,
//! `res` and `event`. Incoming frames are parsed leniently (unknown fields
//! ignored, the gateway adds them over time); an unknown frame `type` is
//! a parse error the caller logs and skips.

use serde::Deserialize;
use serde_json::{Value, json};

/// A frame from the gateway.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Incoming {
    /// A request to us; nodes are not asked anything this way today.
    Req {
        /// The method.
        method: String,
    },
    /// The answer to one of our requests.
    Res(Response),
    /// A pushed event.
    Event(Event),
}

/// `{type:"res", id, ok, payload | error}`.
#[derive(Debug, Deserialize)]
pub struct Response {
    /// The id of our request.
    pub id: String,
    /// Whether it succeeded.
    pub ok: bool,
    /// The result, when `ok`.
    #[serde(default)]
    pub payload: Value,
    /// The error, when not `ok`.
    #[serde(default)]
    pub error: Option<ErrorShape>,
}

/// `error:{code, message, retryable?, retryAfterMs?, details?}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorShape {
    /// OpenClaw's error code (`UNAVAILABLE`, `NOT_PAIRED`, …).
    #[serde(default)]
    pub code: String,
    /// The gateway's message.
    #[serde(default)]
    pub message: String,
    /// How long to wait before retrying.
    #[serde(default)]
    pub retry_after_ms: Option<u64>,
    /// Structured details (`details.code` such as `PAIRING_REQUIRED`).
    #[serde(default)]
    pub details: Option<Value>,
}

impl ErrorShape {
    /// `details.code`, when present.
    pub fn detail_code(&self) -> Option<&str> {
        self.details.as_ref()?.get("code")?.as_str()
    }
}

/// `{type:"event", event, payload, seq?}`.
#[derive(Debug, Deserialize)]
pub struct Event {
    /// The event name.
    pub event: String,
    /// Its payload.
    #[serde(default)]
    pub payload: Value,
}

/// Serializes a request frame.
pub fn request(id: &str, method: &str, params: Value) -> String {
    json!({"type": "req", "id": id, "method": method, "params": params}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_frame_type_and_refuses_unknown_ones() {
        let res: Incoming = serde_json::from_str(
            r#"{"type":"res","id":"1","ok":false,"error":{"code":"UNAVAILABLE","message":"m","retryAfterMs":500,"details":{"code":"X"}},"extra":1}"#,
        )
        .unwrap();
        let Incoming::Res(res) = res else {
            panic!("not a res")
        };
        let error = res.error.unwrap();
        assert_eq!(
            (
                error.code.as_str(),
                error.retry_after_ms,
                error.detail_code()
            ),
            ("UNAVAILABLE", Some(500), Some("X"))
        );
        let event: Incoming =
            serde_json::from_str(r#"{"type":"event","event":"tick","seq":3}"#).unwrap();
        assert!(matches!(event, Incoming::Event(Event { ref event, .. }) if event == "tick"));
        assert!(serde_json::from_str::<Incoming>(r#"{"type":"other"}"#).is_err());
    }
}
