//! Every way the exec host refuses a request, and the one place that turns
//! each into its wire error.
//!
//! [`HostRefusal::to_wire`] holds every error code, every `reason` code
//! (OpenClaw's, so its node host maps them) and every
//! `SYSTEM_RUN_DENIED: …` message in one match. Nothing decides by a
//! message's text: the type decides, the text only explains.

use approvals_ipc::ipc::{ErrorBody, ErrorCode};
use approvals_ipc::policy::env::EnvRefusal;
use approvals_ipc::policy::{NotGranted, Reason};

/// The wire reason of [`HostRefusal::NotFound`], which `node-host run`
/// reports as exit status 127, as shells do.
pub const NOT_FOUND: &str = "not-found";

/// Why the exec host refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostRefusal {
    /// The request has no command.
    CommandRequired,
    /// The agent id is too long or holds control characters.
    BadAgentId,
    /// The working directory is missing, relative or not a directory.
    CwdUnavailable(String),
    /// An environment override the blocklist refuses.
    EnvOverride(EnvRefusal),
    /// `rawCommand` says something other than the argv.
    RawCommandMismatch,
    /// The approvals file cannot be used, so nothing runs (invariant 6).
    ApprovalsFileUnusable(String),
    /// The policy denied the request.
    Policy(Option<Reason>),
    /// A person denied it.
    UserDenied,
    /// Nobody answered and the ask fallback refused; `reason` is the
    /// evaluation's, `code` the fallback's OpenClaw code.
    NoAnswer {
        /// Why it was asked.
        reason: Option<Reason>,
        /// The fallback's reason code.
        code: &'static str,
    },
    /// Asked, but this host asks nobody itself and the request carried no
    /// approval (a node joined to a gateway): the gateway must ask its
    /// operators and send the approval with the request.
    ApprovalRequired(Option<Reason>),
    /// Allowed as text, but the program does not exist.
    NotFound(String),
    /// The requester went away, or the host stopped, while asking.
    CancelledWhileAsking,
    /// The requester went away while it ran; its processes were killed.
    CancelledWhileRunning,
    /// The host is shutting down.
    ShuttingDown,
    /// Last use or an allow-always entry could not be saved before the run.
    StateNotSaved(Option<String>),
    /// The decision could not be written to the audit log.
    AuditNotWritten(String),
}

impl HostRefusal {
    /// The refusal for an evaluation that may not run.
    pub fn not_granted(not: NotGranted, reason: Option<&Reason>) -> Self {
        match not {
            NotGranted::Denied => Self::Policy(reason.cloned()),
            NotGranted::UserDenied => Self::UserDenied,
            NotGranted::NoAnswer { code } => Self::NoAnswer {
                reason: reason.cloned(),
                code,
            },
            NotGranted::NotFound { word } => Self::NotFound(word),
        }
    }

    /// The error sent to the requester.
    pub fn to_wire(&self) -> ErrorBody {
        let denied = |message: String, reason: &str| {
            ErrorBody::new(
                ErrorCode::Unavailable,
                format!("SYSTEM_RUN_DENIED: {message}"),
            )
            .with_reason(reason)
        };
        match self {
            Self::CommandRequired => ErrorBody::new(ErrorCode::InvalidRequest, "command required"),
            Self::BadAgentId => ErrorBody::new(
                ErrorCode::InvalidRequest,
                format!(
                    "agentId must be at most {} characters without control characters",
                    super::MAX_AGENT_ID_LEN
                ),
            ),
            Self::CwdUnavailable(why) => denied(why.clone(), "cwd-unavailable"),
            Self::EnvOverride(refusal) => denied(refusal.to_string(), "env-override-rejected"),
            Self::RawCommandMismatch => ErrorBody::new(
                ErrorCode::InvalidRequest,
                "rawCommand does not match command",
            )
            .with_reason("raw-command-mismatch"),
            Self::ApprovalsFileUnusable(error) => denied(
                format!("approvals file unusable: {error}"),
                "approvals-file-unusable",
            ),
            Self::Policy(Some(Reason::SecurityDeny)) => {
                ErrorBody::new(ErrorCode::Unavailable, "SYSTEM_RUN_DISABLED: security=deny")
                    .with_reason("security=deny")
            }
            Self::Policy(reason) => {
                let code = match reason {
                    // No approval can lift a denylist hit, so
                    // `approval-required` would mislead; OpenClaw's node
                    // host maps codes it does not know to
                    // `approval-required`, so it still reads as a refusal.
                    Some(r) if r.is_denylist() => "denylist",
                    Some(Reason::AllowlistMiss(_)) => "allowlist-miss",
                    _ => "approval-required",
                };
                let message = reason
                    .as_ref()
                    .map_or_else(|| "denied by policy".to_owned(), ToString::to_string);
                denied(message, code)
            }
            Self::UserDenied => denied("user denied".to_owned(), "approval-required"),
            Self::NoAnswer { reason, code } => {
                let why = reason
                    .as_ref()
                    .map_or_else(|| "approval required".to_owned(), ToString::to_string);
                denied(
                    format!(
                        "approval required ({why}); no approver answered and askFallback does not allow it"
                    ),
                    code,
                )
            }
            Self::ApprovalRequired(reason) => denied(
                match reason {
                    Some(why) => format!("approval required ({why})"),
                    None => "approval required".to_owned(),
                },
                "approval-required",
            ),
            Self::NotFound(word) => denied(
                format!("{word}: command not found on the host PATH"),
                NOT_FOUND,
            ),
            Self::CancelledWhileAsking => denied(
                "request cancelled while waiting for approval".to_owned(),
                "approval-required",
            ),
            Self::CancelledWhileRunning => denied(
                "request cancelled while running; its processes were killed".to_owned(),
                "cancelled",
            ),
            Self::ShuttingDown => denied(
                "the exec host is shutting down; the request was cancelled".to_owned(),
                "approval-required",
            ),
            Self::StateNotSaved(Some(error)) => denied(
                format!("approval state could not be persisted: {error}"),
                "approval-state-write-failed",
            ),
            Self::StateNotSaved(None) => denied(
                "approval state could not be persisted".to_owned(),
                "approval-state-write-failed",
            ),
            Self::AuditNotWritten(why) => denied(
                format!("the decision could not be recorded in the audit log ({why})"),
                "audit-write-failed",
            ),
        }
    }
}

impl From<HostRefusal> for ErrorBody {
    fn from(refusal: HostRefusal) -> Self {
        refusal.to_wire()
    }
}

#[cfg(test)]
mod tests {
    use approvals_ipc::policy::{DenyHit, Miss, Refusal};

    use super::*;

    fn wire(refusal: HostRefusal) -> (ErrorCode, Option<String>, String) {
        let body = refusal.to_wire();
        (body.code, body.reason, body.message)
    }

    #[test]
    fn every_refusal_has_its_code_reason_and_message() {
        let hit = Reason::Denylist(DenyHit {
            entry: 0,
            why: "no rm".into(),
            salvaged: false,
        });
        let miss = Reason::AllowlistMiss(vec![Miss::NotFound { word: "x".into() }]);
        let not_understood = Reason::NotUnderstood(Refusal::CdChain);
        let unavailable = |reason: &str, message: &str| {
            (
                ErrorCode::Unavailable,
                Some(reason.to_owned()),
                format!("SYSTEM_RUN_DENIED: {message}"),
            )
        };
        let cases = [
            (
                HostRefusal::Policy(Some(Reason::SecurityDeny)),
                (
                    ErrorCode::Unavailable,
                    Some("security=deny".to_owned()),
                    "SYSTEM_RUN_DISABLED: security=deny".to_owned(),
                ),
            ),
            (
                HostRefusal::Policy(Some(hit.clone())),
                unavailable("denylist", "denylist: no rm"),
            ),
            (
                HostRefusal::Policy(Some(Reason::DenylistUnparsable {
                    pattern: "(".into(),
                })),
                unavailable(
                    "denylist",
                    "denylist: the denylist commandPattern \"(\" cannot be parsed",
                ),
            ),
            (
                HostRefusal::Policy(Some(miss.clone())),
                unavailable("allowlist-miss", "allowlist-miss: x was not found"),
            ),
            (
                HostRefusal::Policy(Some(not_understood.clone())),
                unavailable("approval-required", &not_understood.to_string()),
            ),
            (
                HostRefusal::Policy(None),
                unavailable("approval-required", "denied by policy"),
            ),
            (
                HostRefusal::UserDenied,
                unavailable("approval-required", "user denied"),
            ),
            (
                HostRefusal::NoAnswer {
                    reason: Some(miss),
                    code: "approval-required",
                },
                unavailable(
                    "approval-required",
                    "approval required (allowlist-miss: x was not found); no approver answered and askFallback does not allow it",
                ),
            ),
            (
                HostRefusal::NotFound("tool".into()),
                unavailable(NOT_FOUND, "tool: command not found on the host PATH"),
            ),
            (
                HostRefusal::CwdUnavailable("working directory /x is not a directory".into()),
                unavailable("cwd-unavailable", "working directory /x is not a directory"),
            ),
            (
                HostRefusal::ApprovalsFileUnusable("cannot parse".into()),
                unavailable(
                    "approvals-file-unusable",
                    "approvals file unusable: cannot parse",
                ),
            ),
            (
                HostRefusal::CancelledWhileRunning,
                unavailable(
                    "cancelled",
                    "request cancelled while running; its processes were killed",
                ),
            ),
            (
                HostRefusal::StateNotSaved(None),
                unavailable(
                    "approval-state-write-failed",
                    "approval state could not be persisted",
                ),
            ),
            (
                HostRefusal::AuditNotWritten("disk full".into()),
                unavailable(
                    "audit-write-failed",
                    "the decision could not be recorded in the audit log (disk full)",
                ),
            ),
            (
                HostRefusal::RawCommandMismatch,
                (
                    ErrorCode::InvalidRequest,
                    Some("raw-command-mismatch".to_owned()),
                    "rawCommand does not match command".to_owned(),
                ),
            ),
            (
                HostRefusal::CommandRequired,
                (
                    ErrorCode::InvalidRequest,
                    None,
                    "command required".to_owned(),
                ),
            ),
        ];
        for (refusal, want) in cases {
            assert_eq!(wire(refusal.clone()), want, "{refusal:?}");
        }
    }

    #[test]
    fn a_refusal_after_the_verdict_keeps_the_evaluations_reason() {
        let miss = Reason::AllowlistMiss(Vec::new());
        assert_eq!(
            HostRefusal::not_granted(NotGranted::Denied, Some(&miss)),
            HostRefusal::Policy(Some(miss.clone()))
        );
        assert_eq!(
            HostRefusal::not_granted(NotGranted::UserDenied, Some(&miss)),
            HostRefusal::UserDenied
        );
        assert_eq!(
            HostRefusal::not_granted(
                NotGranted::NoAnswer {
                    code: "approval-required"
                },
                Some(&miss)
            ),
            HostRefusal::NoAnswer {
                reason: Some(miss),
                code: "approval-required"
            }
        );
        assert_eq!(
            HostRefusal::not_granted(NotGranted::NotFound { word: "t".into() }, None),
            HostRefusal::NotFound("t".into())
        );
    }
}
