//! The frames on the socket, as typed values: one JSON object per line with a
//! kebab-case `type` tag, and the inner `system.run` request and its result.
//!
//! Shapes follow DESIGN.md section 5 and OpenClaw's wire format
//! (reference/openclaw.md 8.2) so either side can talk to the other. Parsing
//! refuses what it does not know where that matters (an unknown frame type, an
//! unknown error code, an unknown decision) and keeps unknown inner request
//! fields in `extra` so nothing a newer client sent is silently lost.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use super::answer::{Decision, ErrorBody, ErrorCode};
use super::auth::Token;
use super::control::ControlRes;

/// One line on the socket; the `type` field selects the variant. No `==`:
/// the `request` variant holds the token, which compares only in constant time.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Frame {
    /// Server → client: the nonce the next `exec` must be signed with.
    Challenge {
        /// 32 random bytes, lowercase hex.
        nonce: String,
        /// Server wall clock in ms, so a client can see its skew.
        ts: i64,
        /// How far `ts` of an `exec` may be from the server clock.
        ttl_ms: u64,
    },
    /// Client → server: an HMAC-signed `system.run` request.
    Exec(ExecFrame),
    /// Server → client: the answer to an `exec` with the same id.
    ExecRes(ExecRes),
    /// Server → client, informational, before the `exec-res`: the request
    /// waits for a person's approval. OpenClaw's client ignores it.
    ExecPending(ExecPending),
    /// Client → server: an HMAC-signed control request (list or answer
    /// approvals), with the same fields and checks as `exec`.
    Control(ExecFrame),
    /// Server → client: the answer to a `control` with the same id.
    ControlRes(ControlRes),
    /// Client → server: OpenClaw's older prompt frame, authenticated by the token in clear.
    Request {
        /// The shared token; compared in constant time.
        token: Token,
        /// Echoed in the `decision`.
        id: String,
        /// What to show the human.
        request: PromptRequest,
    },
    /// Server → client: the answer to a `request`.
    Decision {
        /// The `request` id.
        id: String,
        /// What the human (or the fallback) decided.
        decision: Decision,
    },
    /// Server → client: a connection-level refusal; the server closes afterwards.
    Error {
        /// What went wrong.
        error: ErrorBody,
    },
}

impl Frame {
    /// The wire name of this frame's type, for logs and protocol errors.
    pub fn kind(&self) -> &'static str {
        match self {
            Frame::Challenge { .. } => "challenge",
            Frame::Exec(_) => "exec",
            Frame::ExecRes(_) => "exec-res",
            Frame::ExecPending(_) => "exec-pending",
            Frame::Control(_) => "control",
            Frame::ControlRes(_) => "control-res",
            Frame::Request { .. } => "request",
            Frame::Decision { .. } => "decision",
            Frame::Error { .. } => "error",
        }
    }
}

/// The fields of an `exec` (or `control`) frame, kept apart so the admission checks take one value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecFrame {
    /// Request id, echoed in the `exec-res`.
    pub id: String,
    /// The challenge nonce, or (OpenClaw) a nonce the client made.
    pub nonce: String,
    /// Client wall clock in ms.
    pub ts: i64,
    /// Lowercase hex HMAC-SHA256 of `nonce:ts:requestJson`.
    pub hmac: String,
    /// The inner request as a JSON string; these exact bytes are signed.
    pub request_json: String,
}

/// The fields of an `exec-pending` frame: which approval an `exec` waits
/// for, so the client can tell its user what to answer and until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecPending {
    /// The `exec` id this is about.
    pub id: String,
    /// The approval's full id.
    pub approval_id: String,
    /// The short id people type (unique among the pending approvals).
    pub short_id: String,
    /// When the approval times out and askFallback decides (Unix ms).
    pub expires_at_ms: i64,
}

/// The fields of an `exec-res` frame: `ok` with a payload, or not with an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecRes {
    /// The `exec` id this answers.
    pub id: String,
    /// Whether `payload` (true) or `error` (false) is present.
    pub ok: bool,
    /// The result of a command that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<ExecPayload>,
    /// Why nothing ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

impl ExecRes {
    /// Builds the frame for an outcome, so `ok` always agrees with what is present.
    pub fn new(id: String, outcome: Result<ExecPayload, ErrorBody>) -> Self {
        match outcome {
            Ok(payload) => ExecRes {
                id,
                ok: true,
                payload: Some(payload),
                error: None,
            },
            Err(error) => ExecRes {
                id,
                ok: false,
                payload: None,
                error: Some(error),
            },
        }
    }

    /// Reads the outcome back; `None` when `ok` disagrees with what is present.
    pub fn into_response(self) -> Option<ExecResponse> {
        match (self.ok, self.payload, self.error) {
            (true, Some(payload), None) => Some(ExecResponse::Completed(payload)),
            (false, None, Some(error)) => Some(ExecResponse::Refused(error)),
            _ => None,
        }
    }
}

/// What a client gets back for one `exec`.
#[derive(Debug, Clone, PartialEq)]
pub enum ExecResponse {
    /// The exec host handled the request (`ok: true`).
    Completed(ExecPayload),
    /// The exec host refused it or failed (`ok: false`).
    Refused(ErrorBody),
}

/// The inner `system.run` request, carried as `requestJson`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecRequest {
    /// The argv to run.
    pub command: Vec<String>,
    /// The command as the agent wrote it, for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_command: Option<String>,
    /// Working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Environment overrides (the exec host filters them again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,
    /// Run timeout in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// macOS screen-recording permission needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_screen_recording: Option<bool>,
    /// Agent whose policy applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Session, for display and audit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// Run id for lifecycle events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// A decision already obtained elsewhere (the gateway).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_decision: Option<Decision>,
    /// Where that decision came from (`ask-fallback`, `auto-review`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_source: Option<String>,
    /// Fields we do not model (e.g. `policySnapshot`), kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of a command that ran.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecPayload {
    /// Exit code; `None` when killed by a signal or never started.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// The run timeout fired.
    #[serde(default)]
    pub timed_out: bool,
    /// Exited with 0 and did not time out.
    #[serde(default)]
    pub success: bool,
    /// Captured (capped, masked) stdout.
    #[serde(default)]
    pub stdout: String,
    /// Captured (capped, masked) stderr.
    #[serde(default)]
    pub stderr: String,
    /// Why the command could not run or finish, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Output beyond the cap was dropped.
    #[serde(default)]
    pub truncated: bool,
    /// The run id, echoed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// How it was allowed (`allow-once`, `allowlist`, …), for the caller's events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
}

/// OpenClaw's older prompt request; lenient, since only a human reads it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptRequest {
    /// The command text to show.
    #[serde(default)]
    pub command: String,
    /// Working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Host label (`node`, `gateway`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Security mode in effect, as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security: Option<String>,
    /// Ask mode in effect, as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<String>,
    /// Agent asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Resolved executable path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<String>,
    /// Session, for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// Decisions the caller accepts, as sent (unknown ones are kept as text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_decisions: Option<Vec<String>>,
    /// Fields we do not model, kept as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::control::ControlRequest;

    #[test]
    fn frames_round_trip_with_wire_names() {
        let cases: &[(Frame, &str)] = &[
            (
                Frame::Challenge {
                    nonce: "ab".into(),
                    ts: 5,
                    ttl_ms: 10_000,
                },
                r#"{"type":"challenge","nonce":"ab","ts":5,"ttlMs":10000}"#,
            ),
            (
                Frame::Exec(ExecFrame {
                    id: "i".into(),
                    nonce: "n".into(),
                    ts: 1,
                    hmac: "h".into(),
                    request_json: "{}".into(),
                }),
                r#"{"type":"exec","id":"i","nonce":"n","ts":1,"hmac":"h","requestJson":"{}"}"#,
            ),
            (
                Frame::ExecRes(ExecRes::new(
                    "i".into(),
                    Err(ErrorBody::new(ErrorCode::InvalidRequest, "m").with_reason("ttl")),
                )),
                r#"{"type":"exec-res","id":"i","ok":false,"error":{"code":"INVALID_REQUEST","message":"m","reason":"ttl"}}"#,
            ),
            (
                Frame::Control(ExecFrame {
                    id: "i".into(),
                    nonce: "n".into(),
                    ts: 1,
                    hmac: "h".into(),
                    request_json: r#"{"op":"list"}"#.into(),
                }),
                r#"{"type":"control","id":"i","nonce":"n","ts":1,"hmac":"h","requestJson":"{\"op\":\"list\"}"}"#,
            ),
            (
                Frame::ControlRes(ControlRes::new(
                    "i".into(),
                    Err(ErrorBody::new(ErrorCode::NotFound, "m")),
                )),
                r#"{"type":"control-res","id":"i","ok":false,"error":{"code":"NOT_FOUND","message":"m"}}"#,
            ),
            (
                Frame::Decision {
                    id: "i".into(),
                    decision: Decision::AllowAlways,
                },
                r#"{"type":"decision","id":"i","decision":"allow-always"}"#,
            ),
            (
                Frame::Error {
                    error: ErrorBody::new(ErrorCode::Unauthorized, "peer uid mismatch"),
                },
                r#"{"type":"error","error":{"code":"UNAUTHORIZED","message":"peer uid mismatch"}}"#,
            ),
        ];
        for (frame, wire) in cases {
            assert_eq!(&serde_json::to_string(frame).unwrap(), wire);
            // `Frame` has no `==` (its `request` variant holds the token),
            // so the parsed frame is compared by what it puts back on the wire.
            let parsed = serde_json::from_str::<Frame>(wire).unwrap();
            assert_eq!(&serde_json::to_string(&parsed).unwrap(), wire);
        }
    }

    #[test]
    fn exec_request_keeps_unknown_fields_and_accepts_nulls() {
        let json = r#"{"command":["/bin/echo","hi"],"cwd":null,"timeoutMs":null,"policySnapshot":{"a":1}}"#;
        let request: ExecRequest = serde_json::from_str(json).unwrap();
        assert_eq!(request.command, ["/bin/echo", "hi"]);
        assert_eq!(request.cwd, None);
        assert_eq!(request.extra["policySnapshot"], serde_json::json!({"a": 1}));
        let back = serde_json::to_string(&request).unwrap();
        assert_eq!(
            back,
            r#"{"command":["/bin/echo","hi"],"policySnapshot":{"a":1}}"#
        );
    }

    #[test]
    fn refuses_unknown_decision_error_code_and_frame_type() {
        assert!(serde_json::from_str::<Decision>(r#""allow-forever""#).is_err());
        assert!(serde_json::from_str::<ErrorCode>(r#""NOPE""#).is_err());
        assert!(serde_json::from_str::<Frame>(r#"{"type":"hello"}"#).is_err());
        assert!(
            serde_json::from_str::<ExecRequest>(r#"{"command":["x"],"approvalDecision":"yes"}"#)
                .is_err()
        );
    }

    #[test]
    fn exec_res_with_inconsistent_ok_is_not_a_response() {
        let both = ExecRes {
            id: "i".into(),
            ok: true,
            payload: Some(ExecPayload::default()),
            error: Some(ErrorBody::new(ErrorCode::Internal, "x")),
        };
        assert_eq!(both.into_response(), None);
        let neither = ExecRes {
            id: "i".into(),
            ok: false,
            payload: None,
            error: None,
        };
        assert_eq!(neither.into_response(), None);
    }

    #[test]
    fn prompt_request_is_lenient() {
        let request: PromptRequest = serde_json::from_str(
            r#"{"command":"ls","allowedDecisions":["allow-once","later"],"x":1}"#,
        )
        .unwrap();
        assert_eq!(request.command, "ls");
        assert_eq!(
            request.allowed_decisions,
            Some(vec!["allow-once".into(), "later".into()])
        );
        assert_eq!(request.extra["x"], 1);
    }

    // Lives here, not in `control`, because `control` must not depend on
    // `frame`.
    #[test]
    fn control_and_exec_request_json_never_parse_as_each_other() {
        let exec = r#"{"command":["/bin/id"]}"#;
        let exec_with_op = r#"{"command":["/bin/id"],"op":"list"}"#;
        assert!(serde_json::from_str::<ControlRequest>(exec).is_err());
        assert!(serde_json::from_str::<ControlRequest>(exec_with_op).is_err());
        let control = serde_json::to_string(&ControlRequest::List {}).unwrap();
        assert!(serde_json::from_str::<ExecRequest>(&control).is_err());
    }
}
