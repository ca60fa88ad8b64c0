//! The exec host's ask step answered by people: every ask becomes a pending
//! approval in the [`Broker`], which every approver (terminal, command hook,
//! web UI) sees at once.
//!
//! It decides what a person is shown for one request — the exact argv,
//! command text, cwd, agent, session, each segment's resolved and real path
//! and guards, risk, security and ask, and why it asks — with every field
//! passed through `escape_for_display`, so zero-width, bidi and control
//! characters are visible as `\u{…}` (DESIGN.md principle 3, section 7). It
//! maps the broker's outcome back: an answer is returned, a timeout is
//! `None` (the ask fallback decides), and a cancellation — the bridge
//! shutting down, or a session or policy change — is an explicit deny, so no
//! withdrawn approval can reach an allowing fallback. Dropping the future
//! drops the broker's `Pending`, which withdraws the approval.

use std::time::Duration;

use approvals_ipc::ipc::{Decision, ExecRequest};
use approvals_ipc::policy::unicode::escape_for_display;
use approvals_ipc::policy::{ApprovalDecision, Evaluation};
use serde::Serialize;

use super::approver::{Answer, Approvals, AskFuture};
use crate::broker::{ApprovalDisplay, Broker, DisplaySegment, Outcome};

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

/// The display for one evaluated request, every text escaped for a terminal.
pub fn approval_display(evaluation: &Evaluation, request: &ExecRequest) -> ApprovalDisplay {
    let escape_all =
        |items: &[String]| -> Vec<String> { items.iter().map(|s| escape_for_display(s)).collect() };
    let escape_opt = |item: &Option<String>| item.as_deref().map(escape_for_display);
    let agent = super::agent_named(request);
    let segments = evaluation
        .analysis
        .segments
        .iter()
        .map(|segment| DisplaySegment {
            argv: escape_all(&segment.argv),
            resolved_path: escape_opt(&segment.resolved_path),
            real_path: escape_opt(&segment.real_path),
            guards: escape_all(&segment.guards),
        })
        .collect();
    let reason = evaluation
        .reason
        .as_ref()
        .or(evaluation.analysis.reason.as_ref())
        .map(|why| escape_for_display(why));
    ApprovalDisplay {
        argv: escape_all(&evaluation.argv),
        command_text: escape_for_display(&evaluation.command_text),
        cwd: escape_for_display(&evaluation.cwd.to_string_lossy()),
        agent_id: escape_for_display(agent),
        session_key: escape_opt(&request.session_key),
        segments,
        risk_level: word(&evaluation.risk.level),
        risk_reasons: escape_all(&evaluation.risk.reasons),
        security: word(&evaluation.policy.security),
        ask: word(&evaluation.policy.ask),
        allowed_decisions: evaluation
            .allowed_decisions
            .iter()
            .map(|decision| match decision {
                ApprovalDecision::AllowOnce => Decision::AllowOnce,
                ApprovalDecision::AllowAlways => Decision::AllowAlways,
                ApprovalDecision::Deny => Decision::Deny,
            })
            .collect(),
        reason,
    }
}

/// The policy file's word for an enum value (`allowlist`, `on-miss`, `high`).
fn word<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        _ => "unknown".to_owned(),
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

    #[test]
    fn enum_words_are_the_policy_file_words() {
        use approvals_ipc::approvals::{Ask, Security};
        assert_eq!(word(&Security::Allowlist), "allowlist");
        assert_eq!(word(&Ask::OnMiss), "on-miss");
        assert_eq!(
            word(&approvals_ipc::policy::risk::RiskLevel::Critical),
            "critical"
        );
    }
}
