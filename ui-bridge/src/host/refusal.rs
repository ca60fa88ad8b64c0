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

use super::approver::{NobodyAnswered, Withdrawn};

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
        /// Why nobody answered.
        why: NobodyAnswered,
    },
    /// The ask ended without a decision (cancelled, or the only approver
    /// failed); denied without the fallback.
    Withdrawn(Withdrawn),
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
                why: NobodyAnswered::TimedOut,
            },
            NotGranted::NotFound { word } => Self::NotFound(word),
        }
    }

    /// What happened, as the audit log's `exec.denied` records it: the
    /// reasons OpenClaw's wire set has no name for (`user-denied`,
    /// `cancelled`, `hook-failed`, `no-approver`, `timeout`), else the wire
    /// reason.
    pub fn audit_reason(&self) -> String {
        match self {
            Self::UserDenied => "user-denied".to_owned(),
            Self::NoAnswer { why, .. } => why.code().to_owned(),
            Self::Withdrawn(why) => why.code(),
            Self::CancelledWhileAsking | Self::CancelledWhileRunning | Self::ShuttingDown => {
                "cancelled".to_owned()
            }
            other => {
                let wire = other.to_wire();
                wire.reason.unwrap_or(wire.message)
            }
        }
    }

    /// The error sent to the requester; `reason` is one of OpenClaw's
    /// names (what its node host understands), the message says exactly
    /// what happened.
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
            Self::UserDenied => denied("user denied".to_owned(), "user-denied"),
            Self::NoAnswer { reason, code, why } => {
                let asked = reason
                    .as_ref()
                    .map_or_else(|| "approval required".to_owned(), ToString::to_string);
                let nobody = match why {
                    NobodyAnswered::TimedOut => "no approver answered in time",
                    NobodyAnswered::NoApprover => {
                        "no approver answered (none is attached: no terminal, no approverCommand)"
                    }
                };
                denied(
                    format!(
                        "approval required ({asked}); {nobody} and askFallback does not allow it"
                    ),
                    code,
                )
            }
            Self::Withdrawn(Withdrawn::Cancelled(why)) => denied(
                format!("the approval was cancelled ({why}); nobody decided"),
                "approval-required",
            ),
            Self::Withdrawn(Withdrawn::ApproverFailed { approver, why }) => denied(
                format!(
                    "the approver {approver} failed and nobody else could answer ({why}); nobody decided"
                ),
                "approval-required",
            ),
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
                unavailable("user-denied", "user denied"),
            ),
            (
                HostRefusal::NoAnswer {
                    reason: Some(miss.clone()),
                    code: "approval-required",
                    why: NobodyAnswered::TimedOut,
                },
                unavailable(
                    "approval-required",
                    "approval required (allowlist-miss: x was not found); no approver answered in time and askFallback does not allow it",
                ),
            ),
            (
                HostRefusal::NoAnswer {
                    reason: Some(miss),
                    code: "approval-required",
                    why: NobodyAnswered::NoApprover,
                },
                unavailable(
                    "approval-required",
                    "approval required (allowlist-miss: x was not found); no approver answered (none is attached: no terminal, no approverCommand) and askFallback does not allow it",
                ),
            ),
            (
                HostRefusal::Withdrawn(Withdrawn::Cancelled("bridge shutting down".into())),
                unavailable(
                    "approval-required",
                    "the approval was cancelled (bridge shutting down); nobody decided",
                ),
            ),
            (
                HostRefusal::Withdrawn(Withdrawn::ApproverFailed {
                    approver: "hook".into(),
                    why: "hook exited with exit status: 3".into(),
                }),
                unavailable(
                    "approval-required",
                    "the approver hook failed and nobody else could answer (hook exited with exit status: 3); nobody decided",
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
    fn the_audit_reason_says_what_happened() {
        let cases = [
            (HostRefusal::UserDenied, "user-denied"),
            (
                HostRefusal::Withdrawn(Withdrawn::Cancelled("x".into())),
                "cancelled",
            ),
            (
                HostRefusal::Withdrawn(Withdrawn::ApproverFailed {
                    approver: "hook".into(),
                    why: "x".into(),
                }),
                "hook-failed",
            ),
            (
                HostRefusal::NoAnswer {
                    reason: None,
                    code: "approval-required",
                    why: NobodyAnswered::NoApprover,
                },
                "no-approver",
            ),
            (
                HostRefusal::NoAnswer {
                    reason: None,
                    code: "approval-required",
                    why: NobodyAnswered::TimedOut,
                },
                "timeout",
            ),
            (HostRefusal::CancelledWhileAsking, "cancelled"),
            (HostRefusal::ShuttingDown, "cancelled"),
            (HostRefusal::Policy(None), "approval-required"),
            (HostRefusal::CommandRequired, "command required"),
        ];
        for (refusal, want) in cases {
            assert_eq!(refusal.audit_reason(), want, "{refusal:?}");
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
                code: "approval-required",
                why: NobodyAnswered::TimedOut,
            }
        );
        assert_eq!(
            HostRefusal::not_granted(NotGranted::NotFound { word: "t".into() }, None),
            HostRefusal::NotFound("t".into())
        );
    }

    /// One refusal of each kind; the match has no wildcard, so a new
    /// variant does not compile until it is listed here (and so checked
    /// against the docs below).
    fn one_of_each() -> Vec<HostRefusal> {
        let all = vec![
            HostRefusal::CommandRequired,
            HostRefusal::BadAgentId,
            HostRefusal::CwdUnavailable("x".into()),
            HostRefusal::EnvOverride(EnvRefusal::PathOverride { key: "PATH".into() }),
            HostRefusal::RawCommandMismatch,
            HostRefusal::ApprovalsFileUnusable("x".into()),
            HostRefusal::Policy(Some(Reason::SecurityDeny)),
            HostRefusal::Policy(Some(Reason::Denylist(DenyHit {
                entry: 0,
                why: "x".into(),
                salvaged: false,
            }))),
            HostRefusal::Policy(Some(Reason::AllowlistMiss(Vec::new()))),
            HostRefusal::Policy(None),
            HostRefusal::UserDenied,
            HostRefusal::NoAnswer {
                reason: None,
                code: "approval-required",
                why: NobodyAnswered::TimedOut,
            },
            HostRefusal::NoAnswer {
                reason: None,
                code: "approval-required",
                why: NobodyAnswered::NoApprover,
            },
            HostRefusal::Withdrawn(Withdrawn::Cancelled("x".into())),
            HostRefusal::Withdrawn(Withdrawn::ApproverFailed {
                approver: "hook".into(),
                why: "x".into(),
            }),
            HostRefusal::ApprovalRequired(None),
            HostRefusal::NotFound("x".into()),
            HostRefusal::CancelledWhileAsking,
            HostRefusal::CancelledWhileRunning,
            HostRefusal::ShuttingDown,
            HostRefusal::StateNotSaved(None),
            HostRefusal::AuditNotWritten("x".into()),
        ];
        for refusal in &all {
            match refusal {
                HostRefusal::CommandRequired
                | HostRefusal::BadAgentId
                | HostRefusal::CwdUnavailable(_)
                | HostRefusal::EnvOverride(_)
                | HostRefusal::RawCommandMismatch
                | HostRefusal::ApprovalsFileUnusable(_)
                | HostRefusal::Policy(_)
                | HostRefusal::UserDenied
                | HostRefusal::NoAnswer { .. }
                | HostRefusal::Withdrawn(_)
                | HostRefusal::ApprovalRequired(_)
                | HostRefusal::NotFound(_)
                | HostRefusal::CancelledWhileAsking
                | HostRefusal::CancelledWhileRunning
                | HostRefusal::ShuttingDown
                | HostRefusal::StateNotSaved(_)
                | HostRefusal::AuditNotWritten(_) => {}
            }
        }
        all
    }

    #[test]
    fn docs_troubleshooting_lists_every_reason_code() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/troubleshooting.md");
        let doc = std::fs::read_to_string(&path).unwrap();
        let mut codes = Vec::new();
        for refusal in one_of_each() {
            codes.extend(refusal.to_wire().reason);
            // The audit reason is the message when there is no code.
            if refusal.to_wire().reason.is_some() {
                codes.push(refusal.audit_reason());
            }
        }
        for refusal in [
            approvals_ipc::ipc::Refusal::Ttl,
            approvals_ipc::ipc::Refusal::BeforeStart,
            approvals_ipc::ipc::Refusal::Hmac,
            approvals_ipc::ipc::Refusal::Nonce,
            approvals_ipc::ipc::Refusal::ClientNonce,
            approvals_ipc::ipc::Refusal::Replay,
            approvals_ipc::ipc::Refusal::ReplayCacheFull,
            approvals_ipc::ipc::Refusal::Json,
            approvals_ipc::ipc::Refusal::TooLarge,
        ] {
            codes.push(refusal.reason().to_owned());
        }
        codes.sort();
        codes.dedup();
        assert!(codes.len() > 20, "{codes:?}");
        for code in codes {
            assert!(
                doc.contains(&format!("`{code}`")),
                "docs/troubleshooting.md does not list the reason {code}"
            );
        }
    }
}
