//! The ask step of the exec host, behind a small trait so the broker
//! (DESIGN.md section 7) can plug in without touching the pipeline.
//!
//! It decides nothing itself: an [`Approvals`] implementation returns what a
//! person answered ([`Asked`]), why nobody did (the exec host then applies
//! the ask fallback), or why the ask was withdrawn (denied, never through
//! the fallback). The default, [`NoApprovers`], never answers, so
//! until a broker is configured every ask is decided by `askFallback`. A
//! decision carried inside the request (`approvalDecision`) never reaches
//! this step: a same-UID client must not approve itself (openclaw.md
//! section 10, class 22; DESIGN.md invariant 4).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use approvals_ipc::ipc::ExecRequest;
use approvals_ipc::policy::{ApprovalDecision, Evaluation};

/// The future an approver returns; boxed so approvers can be chosen at run time.
pub type AskFuture<'a> = Pin<Box<dyn Future<Output = Asked> + Send + 'a>>;

/// How an ask ended: the reason it gives is what the audit log records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// Someone answered.
    Answered(Answer),
    /// Nobody answered in time; the ask fallback decides.
    Unanswered(NobodyAnswered),
    /// The ask ended without anyone deciding and must not fall back to an
    /// allowing `askFallback`: the request is denied.
    Withdrawn(Withdrawn),
}

/// Why nobody answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NobodyAnswered {
    /// Approvers were there, but the approval expired (`timeout`).
    TimedOut,
    /// No approver was attached at all (`no-approver`).
    NoApprover,
}

impl NobodyAnswered {
    /// The reason code the audit log records.
    pub fn code(self) -> &'static str {
        match self {
            Self::TimedOut => "timeout",
            Self::NoApprover => "no-approver",
        }
    }
}

/// Why an ask ended with no decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdrawn {
    /// Cancelled (the requester left, the bridge stopped, the policy or
    /// session changed); `cancelled`.
    Cancelled(String),
    /// The only approver that could answer failed; `hook-failed` for the hook.
    ApproverFailed {
        /// Which approver.
        approver: String,
        /// What went wrong.
        why: String,
    },
}

impl Withdrawn {
    /// The reason code the audit log records.
    pub fn code(&self) -> String {
        match self {
            Self::Cancelled(_) => "cancelled".to_owned(),
            Self::ApproverFailed { approver, .. } => format!("{approver}-failed"),
        }
    }
}

/// A person's answer, with who gave it and which approval it answered (the
/// approval id becomes the run id of the lifecycle events).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What they decided.
    pub decision: ApprovalDecision,
    /// Who answered (`terminal`, `hook`, `control:<name>`, …).
    pub approver: String,
    /// The broker's approval id, when a broker asked.
    pub approval_id: Option<String>,
}

/// Whoever may answer an ask: the broker and its approvers, or nobody.
pub trait Approvals: Send + Sync {
    /// Asks about one evaluated request for at most `timeout` (shown to
    /// people as the approval's expiry).
    ///
    /// # Cancel safety
    ///
    /// The exec host drops this future when the requester goes away or the
    /// approval timeout passes; an implementation must withdraw its pending
    /// approval on drop.
    fn ask<'a>(
        &'a self,
        evaluation: &'a Evaluation,
        request: &'a ExecRequest,
        timeout: Duration,
    ) -> AskFuture<'a>;
}

/// The approver used until a broker is configured: there is nobody to ask
/// (`no-approver`), so the ask fallback decides.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoApprovers;

impl Approvals for NoApprovers {
    fn ask<'a>(&'a self, _: &'a Evaluation, _: &'a ExecRequest, _: Duration) -> AskFuture<'a> {
        Box::pin(std::future::ready(Asked::Unanswered(
            NobodyAnswered::NoApprover,
        )))
    }
}
