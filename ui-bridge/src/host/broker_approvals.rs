//! The exec host's ask step answered by people: every ask becomes a pending
//! approval in the [`Broker`], which every approver (terminal, command hook,
//! web UI) sees at once.
//!
//! What a person is shown is `crate::broker::approval_display`'s work. This
//! module maps the broker's outcome back: an answer is returned, a timeout is
//! `None` (the ask fallback decides), and a cancellation — the bridge
//! shutting down, or a session or policy change — is an explicit deny, so no
//! withdrawn approval can reach an allowing fallback. Dropping the future
//! drops the broker's `Pending`, which withdraws the approval.
//!
//! A request served over the socket is told its approval's short id and
//! expiry the moment it is submitted ([`with_notices`]), so `node-host run`
//! can say what it waits for.

use std::future::Future;
use std::time::Duration;

use approvals_ipc::ipc::{Decision, ExecRequest, Notices, PendingNotice};
use approvals_ipc::policy::{ApprovalDecision, Evaluation};

use super::approver::{Answer, Approvals, AskFuture};
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
            answer_of(&id, pending.wait().await)
        })
    }
}

/// What the broker's outcome means for the exec host.
fn answer_of(id: &str, outcome: Outcome) -> Option<Answer> {
    let answer = |decision, approver: &str| Answer {
        decision,
        approver: approver.to_owned(),
        approval_id: Some(id.to_owned()),
    };
    match outcome {
        Outcome::Decided {
            decision, approver, ..
        } => {
            tracing::info!(id, approver, ?decision, "approval answered");
            let decision = match decision {
                Decision::AllowOnce => ApprovalDecision::AllowOnce,
                Decision::AllowAlways => ApprovalDecision::AllowAlways,
                Decision::Deny => ApprovalDecision::Deny,
            };
            Some(answer(decision, &approver))
        }
        Outcome::TimedOut => None,
        Outcome::Cancelled { reason } => {
            // Fail closed: a withdrawn approval must never fall back to an
            // allowing askFallback.
            tracing::info!(id, reason, "approval cancelled; denying");
            Some(answer(ApprovalDecision::Deny, "broker:cancelled"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::SHUTDOWN_REASON;

    #[test]
    fn every_cancellation_denies_and_only_a_timeout_lets_the_fallback_decide() {
        let cases = [
            (Outcome::TimedOut, None),
            (
                Outcome::Cancelled {
                    reason: SHUTDOWN_REASON.to_owned(),
                },
                Some(ApprovalDecision::Deny),
            ),
            (
                Outcome::Cancelled {
                    reason: "policy changed".to_owned(),
                },
                Some(ApprovalDecision::Deny),
            ),
            (
                Outcome::Decided {
                    decision: Decision::AllowAlways,
                    approver: "terminal".to_owned(),
                    latency_ms: 1,
                },
                Some(ApprovalDecision::AllowAlways),
            ),
            (
                Outcome::Decided {
                    decision: Decision::AllowOnce,
                    approver: "hook".to_owned(),
                    latency_ms: 1,
                },
                Some(ApprovalDecision::AllowOnce),
            ),
            (
                Outcome::Decided {
                    decision: Decision::Deny,
                    approver: "hook".to_owned(),
                    latency_ms: 1,
                },
                Some(ApprovalDecision::Deny),
            ),
        ];
        for (outcome, want) in cases {
            assert_eq!(
                answer_of("id", outcome.clone()).map(|a| a.decision),
                want,
                "{outcome:?}"
            );
        }
    }
}
