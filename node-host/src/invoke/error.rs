//! The error of an invoke, in OpenClaw's words: a code the gateway knows
//! and a message (`SYSTEM_RUN_DENIED: …` for a refused run).

use approvals_ipc::ipc::{ErrorBody, ErrorCode};

/// Why an invoke failed: OpenClaw's error code and a message for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct InvokeError {
    /// `INVALID_REQUEST`, `UNAVAILABLE`, `NOT_FOUND`, `TIMEOUT`, …
    pub code: String,
    /// What happened and, where it helps, what to do.
    pub message: String,
    /// OpenClaw's reason code (`approval-required`, `allowlist-miss`, …),
    /// for the `exec.denied` event.
    pub reason: Option<String>,
}

impl InvokeError {
    /// A malformed request.
    pub fn invalid(message: impl Into<String>) -> Self {
        InvokeError {
            code: "INVALID_REQUEST".to_owned(),
            message: message.into(),
            reason: None,
        }
    }

    /// A command this node does not serve, or a run it refused.
    pub fn unavailable(message: impl Into<String>) -> Self {
        InvokeError {
            code: "UNAVAILABLE".to_owned(),
            message: message.into(),
            reason: None,
        }
    }

    /// A refused `system.run`: `SYSTEM_RUN_DENIED: <why>` with its reason code.
    pub fn denied(why: impl std::fmt::Display, reason: &str) -> Self {
        InvokeError {
            code: "UNAVAILABLE".to_owned(),
            message: format!("SYSTEM_RUN_DENIED: {why}"),
            reason: Some(reason.to_owned()),
        }
    }
}

impl From<ErrorBody> for InvokeError {
    fn from(body: ErrorBody) -> Self {
        InvokeError {
            code: code_word(&body.code),
            message: body.message,
            reason: body.reason,
        }
    }
}

/// The wire word of an error code (`UNAVAILABLE`, …).
fn code_word(code: &ErrorCode) -> String {
    match serde_json::to_value(code) {
        Ok(serde_json::Value::String(word)) => word,
        _ => "UNAVAILABLE".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_errors_keep_their_code_message_and_reason() {
        let body = ErrorBody::new(ErrorCode::InvalidRequest, "bad").with_reason("json");
        let error = InvokeError::from(body);
        assert_eq!(error.code, "INVALID_REQUEST");
        assert_eq!(error.message, "bad");
        assert_eq!(error.reason.as_deref(), Some("json"));
        let denied = InvokeError::denied("allowlist miss", "allowlist-miss");
        assert_eq!(denied.code, "UNAVAILABLE");
        assert_eq!(denied.message, "SYSTEM_RUN_DENIED: allowlist miss");
    }
}
