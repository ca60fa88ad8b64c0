//! The small values that several frames carry: an error body with its
//! closed code (in `exec-res`, `control-res` and `error`) and a human's
//! decision (in `decision`, in a control `resolve` and in its reply).
//!
//! They live apart from [`super::frame`] and [`super::control`] so that both
//! can use them while `frame` alone depends on `control` (it carries
//! `control-res`), never the reverse. Closed enums: an unknown code or
//! decision is refused at parse time, not guessed.

use serde::{Deserialize, Serialize};

/// The error half of an `exec-res` or an `error` frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// Machine-readable class.
    pub code: ErrorCode,
    /// Human-readable text (`SYSTEM_RUN_DENIED: …` for policy refusals).
    pub message: String,
    /// Short machine-readable cause (`ttl`, `hmac`, `allowlist-miss`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl ErrorBody {
    /// Builds an error body without a reason.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorBody {
            code,
            message: message.into(),
            reason: None,
        }
    }

    /// Adds the machine-readable reason.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }
}

/// The error classes on the wire (SCREAMING_SNAKE_CASE); closed, an unknown code is a protocol error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The frame or request was refused (auth, ttl, replay, json, size).
    InvalidRequest,
    /// The peer is not allowed to talk to us.
    Unauthorized,
    /// Policy refused, or the host cannot serve now.
    Unavailable,
    /// Something did not finish in time.
    Timeout,
    /// The thing named does not exist (an approval already answered, expired or never pending).
    NotFound,
    /// A bug or an unexpected failure on the exec host.
    Internal,
}

/// A human's answer to an approval, in the policy file's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Run this once.
    AllowOnce,
    /// Run it and remember the executable (or exact command).
    AllowAlways,
    /// Do not run it.
    Deny,
}
