//! The control API on the socket: list pending approvals and answer them
//! (DESIGN.md section 7), carried in `control` frames that are signed and
//! admitted exactly like `exec` frames (section 5.3, the same `admit`).
//!
//! It decides the shape of the inner request (`requestJson`) and of the
//! reply. It refuses, at parse time, an unknown `op`, an unknown decision
//! and any field it does not know: the set of valid control requests and
//! the set of valid `system.run` requests are disjoint (a control request
//! has no `command`, and an exec request has no `op` and is refused here
//! for its `command` field), so a signed line of one kind can never be read
//! as the other. Upholds invariant 2 together with `admit`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answer::{Decision, ErrorBody};

/// The inner request of a `control` frame; `op` selects the variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "op",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ControlRequest {
    /// The pending approvals, oldest first.
    ///
    /// A struct variant, so that `deny_unknown_fields` applies to it too
    /// (serde ignores it on unit variants of a tagged enum).
    List {},
    /// Answers one pending approval by full id or unique prefix.
    Resolve {
        /// The approval id, or a unique prefix of 4+ characters.
        id: String,
        /// The answer.
        decision: Decision,
        /// Who answers, recorded as `control:<approver>`.
        approver: String,
    },
    /// Answers with chat text (`/approve <id> once`, `/deny <id>`,
    /// `approve:<id>:<once|always|deny>`), parsed by the bridge's one chat parser.
    Answer {
        /// The chat text or button callback data.
        text: String,
        /// Who answers, recorded as `control:<approver>`.
        approver: String,
    },
    /// Cancels (denies) every pending approval of one agent: the agent went
    /// away, so nobody should approve what it asked.
    CancelAgent {
        /// The agent id.
        agent: String,
        /// Why, shown to approvers and recorded.
        reason: String,
    },
}

impl ControlRequest {
    /// The wire name of the operation, for logs.
    pub fn op(&self) -> &'static str {
        match self {
            ControlRequest::List {} => "list",
            ControlRequest::Resolve { .. } => "resolve",
            ControlRequest::Answer { .. } => "answer",
            ControlRequest::CancelAgent { .. } => "cancel-agent",
        }
    }
}

/// The fields of a `control-res` frame: `ok` with a payload, or not with an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ControlRes {
    /// The `control` id this answers.
    pub id: String,
    /// Whether `payload` (true) or `error` (false) is present.
    pub ok: bool,
    /// What the operation returned (a list, or the approval that was answered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Why the operation was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
}

impl ControlRes {
    /// Builds the frame for an outcome, so `ok` always agrees with what is present.
    pub fn new(id: String, outcome: Result<Value, ErrorBody>) -> Self {
        match outcome {
            Ok(payload) => ControlRes {
                id,
                ok: true,
                payload: Some(payload),
                error: None,
            },
            Err(error) => ControlRes {
                id,
                ok: false,
                payload: None,
                error: Some(error),
            },
        }
    }

    /// Reads the outcome back; `None` when `ok` disagrees with what is present.
    ///
    /// A `null` payload reads back as absent, so `ok: true` without an
    /// error is [`Value::Null`].
    pub fn into_response(self) -> Option<ControlResponse> {
        match (self.ok, self.payload, self.error) {
            (true, payload, None) => Some(ControlResponse::Done(payload.unwrap_or(Value::Null))),
            (false, None, Some(error)) => Some(ControlResponse::Refused(error)),
            _ => None,
        }
    }
}

/// What a client gets back for one `control`.
#[derive(Debug, Clone, PartialEq)]
pub enum ControlResponse {
    /// The bridge performed the operation (`ok: true`).
    Done(Value),
    /// The bridge refused it (`ok: false`), e.g. `NOT_FOUND`.
    Refused(ErrorBody),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::answer::ErrorCode;

    #[test]
    fn control_requests_round_trip_with_wire_names() {
        let cases = [
            (ControlRequest::List {}, r#"{"op":"list"}"#),
            (
                ControlRequest::Resolve {
                    id: "0190abcd".into(),
                    decision: Decision::AllowOnce,
                    approver: "alice".into(),
                },
                r#"{"op":"resolve","id":"0190abcd","decision":"allow-once","approver":"alice"}"#,
            ),
            (
                ControlRequest::Answer {
                    text: "/deny 0190".into(),
                    approver: "bob".into(),
                },
                r#"{"op":"answer","text":"/deny 0190","approver":"bob"}"#,
            ),
        ];
        for (request, wire) in cases {
            assert_eq!(serde_json::to_string(&request).unwrap(), wire);
            assert_eq!(
                serde_json::from_str::<ControlRequest>(wire).unwrap(),
                request
            );
        }
    }

    #[test]
    fn refuses_unknown_ops_decisions_fields_and_missing_fields() {
        let refused = [
            r#"{"op":"delete"}"#,
            r#"{"op":"list","extra":1}"#,
            r#"{"op":"resolve","id":"0190","decision":"yes","approver":"a"}"#,
            r#"{"op":"resolve","id":"0190","decision":"once","approver":"a"}"#,
            r#"{"op":"resolve","id":"0190","decision":"deny"}"#,
            r#"{"op":"answer","text":"/deny 0190"}"#,
            r#"{"text":"/deny 0190","approver":"a"}"#,
            r#"[]"#,
        ];
        for wire in refused {
            assert!(
                serde_json::from_str::<ControlRequest>(wire).is_err(),
                "{wire}"
            );
        }
    }

    #[test]
    fn control_res_round_trips_and_rejects_inconsistent_ok() {
        let refused = ControlRes::new(
            "i".into(),
            Err(ErrorBody::new(
                ErrorCode::NotFound,
                "unknown or expired approval id",
            )),
        );
        let wire = serde_json::to_string(&refused).unwrap();
        assert_eq!(
            wire,
            r#"{"id":"i","ok":false,"error":{"code":"NOT_FOUND","message":"unknown or expired approval id"}}"#
        );
        let back: ControlRes = serde_json::from_str(&wire).unwrap();
        assert!(matches!(
            back.into_response(),
            Some(ControlResponse::Refused(ErrorBody {
                code: ErrorCode::NotFound,
                ..
            }))
        ));
        let done = ControlRes::new("i".into(), Ok(serde_json::json!([])));
        assert_eq!(
            done.into_response(),
            Some(ControlResponse::Done(serde_json::json!([])))
        );
        let null: ControlRes =
            serde_json::from_str(r#"{"id":"i","ok":true,"payload":null}"#).unwrap();
        assert_eq!(
            null.into_response(),
            Some(ControlResponse::Done(Value::Null))
        );
        let inconsistent = [
            r#"{"id":"i","ok":true,"error":{"code":"INTERNAL","message":"x"}}"#,
            r#"{"id":"i","ok":false}"#,
            r#"{"id":"i","ok":false,"payload":1,"error":{"code":"INTERNAL","message":"x"}}"#,
        ];
        for wire in inconsistent {
            let res: ControlRes = serde_json::from_str(wire).unwrap();
            assert_eq!(res.into_response(), None, "{wire}");
        }
    }
}
