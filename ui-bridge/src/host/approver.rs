//! The ask step of the exec host, behind a small trait so the broker
//! (DESIGN.md section 7) can plug in without touching the pipeline.
//!
//! It decides nothing itself: an [`Approvals`] implementation returns what a
//! person answered, or `None` when nobody did, and the exec host then
//! applies the ask fallback. The default, [`NoApprovers`], never answers, so
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
pub type AskFuture<'a> = Pin<Box<dyn Future<Output = Option<Answer>> + Send + 'a>>;

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
    /// people as the approval's expiry); `None` means nobody answered in time.
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

/// The approver used until a broker is configured: never answers, so the ask fallback decides.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoApprovers;

impl Approvals for NoApprovers {
    fn ask<'a>(&'a self, _: &'a Evaluation, _: &'a ExecRequest, _: Duration) -> AskFuture<'a> {
        Box::pin(std::future::ready(None))
    }
}
