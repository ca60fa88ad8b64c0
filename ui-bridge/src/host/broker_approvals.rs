//! The exec host's ask step answered by people: every ask becomes a pending
//! approval in the [`Broker`], which every approver (terminal, command hook,
//! web UI) sees at once.
//!
//! What a person is shown is `crate::broker::approval_display`'s work. This
//! module maps the broker's outcome back: an answer is returned; a timeout
//! is unanswered (`timeout`, or `no-approver` when no approver was attached;
//! the ask fallback decides); a cancellation — the bridge shutting down, or
//! a session or policy change — and a failed hook with nobody else to answer
//! are withdrawn, which the exec host denies, so neither can reach an
//! allowing fallback, and neither is recorded as a person's decision. Dropping the future
//! drops the broker's `Pending`, which withdraws the approval.
//!
//! A request served over the socket is told its approval's short id and
//! expiry the moment it is submitted ([`with_notices`]), so `node-host run`
//! can say what it waits for.

use std::future::Future;
use std::time::Duration;

use approvals_ipc::ipc::{Decision, ExecRequest, Notices, PendingNotice};
use approvals_ipc::policy::{ApprovalDecision, Evaluation};

use super::approver::{Answer, Approvals, AskFuture, Asked, NobodyAnswered, Withdrawn};
use crate::broker::{Broker, Outcome, approval_display};

tokio::task_local! {
    /// Where the request being served wants to hear that it waits for an
    /// approval; set per request by the socket handler.
    static NOTICES: Notices;
}

/// Runs `request` (an exec host's handling of one request) so that an
/// approval it submits is announced to `notices` before it is answered.
pub async fn with_notices<F: Future>(notices: Notices, request: F) -> F::Output {
    NOTICES.scope(notices, request).await
}

/// Asks the people behind a broker; the bridge and `node-host run` use it.
#[derive(Debug, Clone)]
pub struct BrokerApprovals {
    broker: Broker,
}

impl BrokerApprovals {
    /// Asks through `broker`; approvers attach to the same broker.
    pub fn new(broker: Broker) -> Self {
        BrokerApprovals { broker }
    }
}

impl Approvals for BrokerApprovals {
    fn ask<'a>(
        &'a self,
        evaluation: &'a Evaluation,
        request: &'a ExecRequest,
        timeout: Duration,
    ) -> AskFuture<'a> {
        let display = approval_display(evaluation, request);
        Box::pin(async move {
            // Dropping this future drops `pending`, withdrawing the approval.
            let pending = self.broker.submit(display, timeout);
            let id = pending.id.clone();
            // Outside a socket request (node-host run's own host) nobody listens.
            let _ = NOTICES.try_with(|notices| {
                notices.approval_pending(PendingNotice {
                    approval_id: id.clone(),
                    short_id: pending.short_id.clone(),
                    expires_at_ms: pending.expires_at_ms,
                });
            });
            let outcome = pending.wait().await;
            let attached = self.broker.has_approver();
            answer_of(&id, outcome, attached)
        })
    }
}

/// What the broker's outcome means for the exec host; `attached` says
/// whether any approver was there to answer.
fn answer_of(id: &str, outcome: Outcome, attached: bool) -> Asked {
    let answer = |decision, approver: &str| Answer {
        decision,
        approver: approver.to_owned(),
        approval_id: Some(id.to_owned()),
    };
    match outcome {
        Outcome::Decided {
            decision, approver, ..
        } => {
            // The broker logged the answer already.
            tracing::debug!(id, approver, ?decision, "approval answered");
            let decision = match decision {
                Decision::AllowOnce => ApprovalDecision::AllowOnce,
                Decision::AllowAlways => ApprovalDecision::AllowAlways,
                Decision::Deny => ApprovalDecision::Deny,
            };
            Asked::Answered(answer(decision, &approver))
        }
        Outcome::TimedOut if attached => Asked::Unanswered(NobodyAnswered::TimedOut),
        Outcome::TimedOut => Asked::Unanswered(NobodyAnswered::NoApprover),
        Outcome::Cancelled { reason } => {
            // Fail closed: a withdrawn approval must never fall back to an
            // allowing askFallback.
            tracing::debug!(id, reason, "approval cancelled; denying");
            Asked::Withdrawn(Withdrawn::Cancelled(reason))
        }
        Outcome::Failed { approver, why } => {
            tracing::debug!(id, approver, why, "approver failed; denying");
            Asked::Withdrawn(Withdrawn::ApproverFailed { approver, why })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::SHUTDOWN_REASON;

    #[test]
    fn every_cancellation_and_failure_is_withdrawn_and_only_a_timeout_falls_back() {
        let deny = |decision| {
            Asked::Answered(Answer {
                decision,
                approver: "hook".to_owned(),
                approval_id: Some("id".to_owned()),
            })
        };
        let decided = |decision, approver: &str| Outcome::Decided {
            decision,
            approver: approver.to_owned(),
            latency_ms: 1,
        };
        let cases = [
            (
                Outcome::TimedOut,
                true,
                Asked::Unanswered(NobodyAnswered::TimedOut),
            ),
            (
                Outcome::TimedOut,
                false,
                Asked::Unanswered(NobodyAnswered::NoApprover),
            ),
            (
                Outcome::Cancelled {
                    reason: SHUTDOWN_REASON.to_owned(),
                },
                true,
                Asked::Withdrawn(Withdrawn::Cancelled(SHUTDOWN_REASON.to_owned())),
            ),
            (
                Outcome::Failed {
                    approver: "hook".to_owned(),
                    why: "exit 3".to_owned(),
                },
                false,
                Asked::Withdrawn(Withdrawn::ApproverFailed {
                    approver: "hook".to_owned(),
                    why: "exit 3".to_owned(),
                }),
            ),
            (
                decided(Decision::AllowOnce, "hook"),
                true,
                deny(ApprovalDecision::AllowOnce),
            ),
            (
                decided(Decision::AllowAlways, "hook"),
                true,
                deny(ApprovalDecision::AllowAlways),
            ),
            (
                decided(Decision::Deny, "hook"),
                false,
                deny(ApprovalDecision::Deny),
            ),
        ];
        for (outcome, attached, want) in cases {
            assert_eq!(
                answer_of("id", outcome.clone(), attached),
                want,
                "{outcome:?}"
            );
        }
    }
}
