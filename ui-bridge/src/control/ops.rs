//! The bridge side of the control API: one authenticated [`ControlRequest`]
//! applied to the broker.
//!
//! It decides what `list`, `resolve` and `answer` do: `list` returns the
//! pending approvals oldest first; `resolve` answers one by id or unique
//! prefix; `answer` parses chat text with the one shared chat parser
//! (`approvers::chat`, no approver list configured here: the socket's
//! token already authenticated the caller) and then resolves. It refuses
//! approver names that are empty, too long or hold characters that could
//! garble a log line or a terminal, chat text that is not an approval
//! command or targets another bot, and every broker refusal, each with its
//! own wire code: `NOT_FOUND` for an approval that is not pending (never
//! was, or another approver was first), `INVALID_REQUEST` with the
//! candidates for an ambiguous prefix. Upholds DESIGN.md section 7 (first
//! answer wins, later answers get `NOT_FOUND`).

use approvals_ipc::ipc::{ControlRequest, Decision, ErrorBody, ErrorCode};
use approvals_ipc::policy::unicode::escape_for_display;
use serde_json::{Value, json};

use crate::approvers::chat::{self, ChatAnswer, ChatContext, ChatParseError};
use crate::broker::{Broker, ResolveError, decision_word};

/// Prefix of the approver recorded for control answers, so the audit log
/// tells a socket client's answer from the terminal's or a hook's.
pub const APPROVER_PREFIX: &str = "control:";

/// Longest approver name accepted, in characters; a name is a label, not a message.
pub const MAX_APPROVER_LEN: usize = 64;

/// Applies one control request to `broker` with no approver identities
/// configured (anyone may answer); `Err` is the wire error.
pub fn apply(broker: &Broker, request: ControlRequest) -> Result<Value, ErrorBody> {
    apply_as(broker, request, None)
}

/// Applies one control request, accepting answers only from `identities`
/// when the policy lists them (`defaults.approvers`; an empty list accepts
/// nobody: openclaw.md section 10, class 26).
pub fn apply_as(
    broker: &Broker,
    request: ControlRequest,
    identities: Option<&[String]>,
) -> Result<Value, ErrorBody> {
    let check = |approver: &str| -> Result<(), ErrorBody> {
        match identities {
            Some(list) if !list.iter().any(|a| a == approver) => Err(ErrorBody::new(
                ErrorCode::Unauthorized,
                format!(
                    "{} is not one of the approvers listed in defaults.approvers",
                    escape_for_display(approver)
                ),
            )
            .with_reason("not-an-approver")),
            _ => Ok(()),
        }
    };
    match request {
        ControlRequest::List {} => serde_json::to_value(broker.list()).map_err(|error| {
            tracing::error!(%error, "cannot serialize pending approvals");
            ErrorBody::new(ErrorCode::Internal, "cannot serialize pending approvals")
        }),
        ControlRequest::Resolve {
            id,
            decision,
            approver,
        } => {
            check(&approver)?;
            let approver = approver_label(&approver)?;
            resolve(broker, &id, decision, &approver)
        }
        ControlRequest::Answer { text, approver } => {
            check(&approver)?;
            let label = approver_label(&approver)?;
            let ctx = ChatContext {
                bot_username: None,
                approvers: identities,
                sender: Some(&approver),
            };
            let parsed = if text.trim_start().starts_with("approve:") {
                chat::parse_callback(text.trim(), &ctx)
            } else {
                chat::parse_text(&text, &ctx)
            };
            let ChatAnswer::Decide {
                id_prefix,
                decision,
            } = parsed.map_err(chat_refusal)?;
            resolve(broker, &id_prefix, decision, &label)
        }
        ControlRequest::CancelAgent { agent, reason } => {
            let reason = if reason.trim().is_empty() {
                "the agent went away".to_owned()
            } else {
                reason
            };
            let cancelled = broker.cancel_agent(agent.trim(), &reason);
            Ok(json!({"agent": agent.trim(), "cancelled": cancelled}))
        }
    }
}

/// Resolves through the broker and reports the approval that was answered.
fn resolve(
    broker: &Broker,
    id: &str,
    decision: Decision,
    approver: &str,
) -> Result<Value, ErrorBody> {
    match broker.resolve(id, decision, approver) {
        Ok(approval) => Ok(json!({
            "decision": decision_word(decision),
            "approver": approver,
            "approval": approval,
        })),
        Err(error) => {
            tracing::info!(id = %escape_for_display(id), approver, %error, "control answer refused");
            Err(resolve_refusal(&error))
        }
    }
}

/// The wire error for a broker refusal; `NOT_FOUND` stays distinguishable.
pub fn resolve_refusal(error: &ResolveError) -> ErrorBody {
    let (code, reason) = match error {
        ResolveError::NotFound => (ErrorCode::NotFound, "not-found"),
        ResolveError::Ambiguous { .. } => (ErrorCode::InvalidRequest, "ambiguous"),
        ResolveError::DecisionNotAllowed { .. } => {
            (ErrorCode::InvalidRequest, "decision-not-allowed")
        }
        ResolveError::TooShort => (ErrorCode::InvalidRequest, "too-short"),
    };
    ErrorBody::new(code, error.to_string()).with_reason(reason)
}

/// The wire error for chat text that is not a usable answer.
fn chat_refusal(error: ChatParseError) -> ErrorBody {
    let reason = match &error {
        ChatParseError::NotACommand => "not-a-command",
        ChatParseError::OtherBot(_) => "other-bot",
        ChatParseError::Usage(_) => "usage",
        ChatParseError::UnknownDecision(_) => "unknown-decision",
        ChatParseError::NotAnApprover(_) => "not-an-approver",
        ChatParseError::InvalidId(_) => "invalid-id",
    };
    ErrorBody::new(
        ErrorCode::InvalidRequest,
        escape_for_display(&error.to_string()),
    )
    .with_reason(reason)
}

/// `control:<name>` for a printable name of 1 to [`MAX_APPROVER_LEN`]
/// characters without whitespace, control, invisible or confusable characters.
fn approver_label(name: &str) -> Result<String, ErrorBody> {
    let printable = !name.is_empty()
        && name.chars().count() <= MAX_APPROVER_LEN
        && !name.chars().any(char::is_whitespace)
        && escape_for_display(name) == name;
    if printable {
        Ok(format!("{APPROVER_PREFIX}{name}"))
    } else {
        Err(ErrorBody::new(
            ErrorCode::InvalidRequest,
            format!(
                "approver name must be 1 to {MAX_APPROVER_LEN} printable characters without spaces"
            ),
        )
        .with_reason("approver"))
    }
}

#[cfg(test)]
mod tests;
