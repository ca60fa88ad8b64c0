//! The exec host's side of the audit log (DESIGN.md section 9, invariant
//! 10): turns one request's evaluation and outcome into records — one per
//! decision and per outcome, with the lifecycle events `exec.started`,
//! `exec.finished` and `exec.denied` whose `runId` is the approval id when a
//! person was asked — and hands them to the writer, `crate::audit::AuditTrail`.
//!
//! The decision is written, and waited for, before the command runs (a
//! decision that cannot be recorded refuses the run); `exec.finished` and
//! refusals are queued without waiting. They follow their run's
//! `exec.started` in the log, but may follow a later request's records too:
//! `ts` is taken when the record is written here, and `seq` follows the
//! same order. An `exec.denied` record names the run, not the command: the
//! decision record before it holds the argv. Command text, argv and reasons
//! are masked (the socket token and the secret patterns of
//! `crate::exec::mask_command`, which keeps every word but a secret's own
//! bytes) before they are written.

use std::borrow::Cow;
use std::time::Duration;

use approvals_ipc::policy::Evaluation;
use approvals_ipc::policy::risk::RiskLevel as PolicyRisk;

use crate::audit::{AuditRecord, AuditRisk, AuditTrail, RiskLevel};
use crate::exec::mask_command;

/// Masks the fields that may carry secrets: argv, command text, reason.
fn mask(record: &mut AuditRecord, known: &[&str]) {
    if let Some(argv) = record.argv.as_mut() {
        for word in argv.iter_mut() {
            mask_in_place(word, known);
        }
    }
    for text in [&mut record.command_text, &mut record.reason]
        .into_iter()
        .flatten()
    {
        mask_in_place(text, known);
    }
}

/// Replaces `text` with its masked form unless masking returned `text`
/// itself (a borrowed result may also be a placeholder, which must win).
/// Command masking: every word but a secret's own bytes stays readable.
fn mask_in_place(text: &mut String, known: &[&str]) {
    let replacement = match mask_command(text, known) {
        Cow::Borrowed(same) if std::ptr::eq(same, text.as_str()) => None,
        other => Some(other.into_owned()),
    };
    if let Some(masked) = replacement {
        *text = masked;
    }
}

/// The fields every record of one request shares.
pub fn base_record(
    event: crate::audit::AuditEvent,
    evaluation: &Evaluation,
    agent_id: &str,
    session_key: Option<&str>,
    run_id: &str,
) -> AuditRecord {
    let resolved: Vec<String> = evaluation
        .analysis
        .segments
        .iter()
        .filter_map(|s| s.real_path.clone().or_else(|| s.resolved_path.clone()))
        .collect();
    AuditRecord {
        run_id: Some(run_id.to_owned()),
        agent_id: Some(agent_id.to_owned()),
        session_key: session_key.map(str::to_owned),
        argv: Some(evaluation.argv().to_vec()),
        command_text: Some(evaluation.command_text().to_owned()),
        cwd: Some(evaluation.cwd().to_string_lossy().into_owned()),
        resolved_paths: Some(resolved),
        risk: Some(AuditRisk {
            level: match evaluation.risk.level {
                PolicyRisk::Low => RiskLevel::Low,
                PolicyRisk::Medium => RiskLevel::Medium,
                PolicyRisk::High => RiskLevel::High,
                PolicyRisk::Critical => RiskLevel::Critical,
            },
            reasons: evaluation.risk.reasons.clone(),
        }),
        host: Some("node".to_owned()),
        ..AuditRecord::new(event)
    }
}

/// The records of a request refused before it could be evaluated (a bad
/// agent id, working directory or environment override, an unusable
/// approvals file): what was asked, as sent, and why it was refused. Masked
/// with the built-in secret patterns only (the token may be unknown here);
/// failures are logged, the refusal stands.
pub(super) async fn refused_unevaluated(
    audit: Result<Option<&AuditTrail>, String>,
    request: &ExecRequest,
    refusal: &HostRefusal,
) {
    let trail = match audit {
        Ok(Some(trail)) => trail,
        Ok(None) => return,
        Err(why) => {
            tracing::error!(%why, "cannot record a refusal in the audit log");
            return;
        }
    };
    let error = refusal.to_wire();
    let base = AuditRecord {
        run_id: Some(
            request
                .run_id
                .clone()
                .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
        ),
        agent_id: request.agent_id.clone(),
        session_key: request.session_key.clone(),
        argv: Some(request.command.clone()),
        command_text: Some(approvals_ipc::policy::quote::join(&request.command)),
        cwd: request.cwd.clone(),
        host: Some("node".to_owned()),
        decision: Some(AuditDecision::Deny),
        ..AuditRecord::new(AuditEvent::Decision)
    };
    let mut records = vec![
        AuditRecord {
            decided_by: Some(DecidedBy::Policy),
            reason: Some(error.message.clone()),
            ..base.clone()
        },
        AuditRecord {
            reason: Some(error.reason.clone().unwrap_or(error.message)),
            ..outcome_of(&base, AuditEvent::ExecDenied)
        },
    ];
    for record in &mut records {
        mask(record, &[]);
    }
    if let Err(why) = trail.write(records, false).await {
        tracing::error!(%why, "cannot record a refusal in the audit log");
    }
}

/// The outcome record `event` of a request whose decision record is
/// `decision`: the same ids, without what was asked (argv, command text,
/// working directory, resolved paths, risk), which the decision record
/// already holds and `runId` joins. A refused request's argv is logged once,
/// so a flood of refusals costs the disk half as much.
fn outcome_of(decision: &AuditRecord, event: AuditEvent) -> AuditRecord {
    AuditRecord {
        request_id: decision.request_id.clone(),
        run_id: decision.run_id.clone(),
        agent_id: decision.agent_id.clone(),
        session_key: decision.session_key.clone(),
        host: decision.host.clone(),
        decision: decision.decision,
        ..AuditRecord::new(event)
    }
}

/// Who decided a request, for the decision record.
#[derive(Debug, Clone)]
pub(super) struct Decider {
    pub(super) by: DecidedBy,
    pub(super) approver: Option<String>,
    pub(super) approval_id: Option<String>,
}

impl Decider {
    pub(super) fn of(by: DecidedBy) -> Self {
        Self {
            by,
            approver: None,
            approval_id: None,
        }
    }

    /// What satisfied an auto-allowed request: `full` security is the
    /// policy; otherwise safe bins or skills when nothing else was needed.
    pub(super) fn policy(evaluation: &Evaluation) -> Self {
        use approvals_ipc::approvals::Security;
        use approvals_ipc::policy::SatisfiedBy;
        let by = if evaluation.policy.security == Security::Full {
            DecidedBy::Policy
        } else {
            let segments = &evaluation.analysis.segments;
            let all = |kind| {
                !segments.is_empty() && segments.iter().all(|s| s.satisfied_by == Some(kind))
            };
            if all(SatisfiedBy::SafeBin) {
                DecidedBy::SafeBin
            } else if all(SatisfiedBy::Skill) {
                DecidedBy::Skill
            } else {
                DecidedBy::Allowlist
            }
        };
        Self::of(by)
    }
}

/// The audit records of one request.
pub(super) struct Trail<'a> {
    pub(super) audit: Result<Option<&'a AuditTrail>, String>,
    pub(super) evaluation: &'a Evaluation,
    pub(super) agent_id: &'a str,
    pub(super) session_key: Option<&'a str>,
    pub(super) run_id: &'a str,
    pub(super) secrets: &'a [String],
    /// The fields every record of this request shares, masked once.
    pub(super) template: std::sync::OnceLock<AuditRecord>,
}

use approvals_ipc::ipc::{ErrorBody, ExecPayload, ExecRequest};
use approvals_ipc::policy::Grant;

use super::HostRefusal;
use crate::audit::{AuditDecision, AuditEvent, DecidedBy};

impl Trail<'_> {
    /// A record of this request, its shared fields masked (once per
    /// request, however many records it writes).
    fn record(&self, event: AuditEvent) -> AuditRecord {
        let template = self.template.get_or_init(|| {
            let mut record = base_record(
                event,
                self.evaluation,
                self.agent_id,
                self.session_key,
                self.run_id,
            );
            self.mask(&mut record);
            record
        });
        AuditRecord {
            event,
            ..template.clone()
        }
    }

    fn mask(&self, record: &mut AuditRecord) {
        let known: Vec<&str> = self.secrets.iter().map(String::as_str).collect();
        mask(record, &known);
    }

    /// `text` with secrets masked, for a reason.
    fn masked(&self, mut text: String) -> String {
        let known: Vec<&str> = self.secrets.iter().map(String::as_str).collect();
        mask_in_place(&mut text, &known);
        text
    }

    async fn write(&self, records: Vec<AuditRecord>, wait: bool) -> Result<(), HostRefusal> {
        let refused = HostRefusal::AuditNotWritten;
        match &self.audit {
            Ok(None) => Ok(()),
            Ok(Some(trail)) => trail.write(records, wait).await.map_err(refused),
            Err(why) => Err(HostRefusal::AuditNotWritten(why.clone())),
        }
    }

    fn decision_record(
        &self,
        result: Result<Grant, &ErrorBody>,
        decider: &Decider,
        latency: Duration,
    ) -> AuditRecord {
        let (decision, reason) = match result {
            Ok(Grant::AllowOnce) => (AuditDecision::AllowOnce, None),
            Ok(Grant::AllowAlways) => (AuditDecision::AllowAlways, None),
            Ok(Grant::Policy | Grant::Fallback) => (
                AuditDecision::Allow,
                self.evaluation.reason.as_ref().map(ToString::to_string),
            ),
            Err(error) => (AuditDecision::Deny, Some(error.message.clone())),
        };
        AuditRecord {
            decision: Some(decision),
            decided_by: Some(decider.by.clone()),
            approver: decider.approver.clone(),
            reason: reason.map(|text| self.masked(text)),
            decision_latency_ms: Some(u64::try_from(latency.as_millis()).unwrap_or(u64::MAX)),
            ..self.record(AuditEvent::Decision)
        }
    }

    /// The decision record and `exec.started`, in the kernel before the
    /// plan runs; a run whose decision cannot be recorded is refused.
    pub(super) async fn allowed(
        &self,
        allowed: Grant,
        decider: &Decider,
        latency: Duration,
    ) -> Result<(), HostRefusal> {
        let records = vec![
            self.decision_record(Ok(allowed), decider, latency),
            self.record(AuditEvent::ExecStarted),
        ];
        self.write(records, true).await
    }

    /// The decision record and the `exec.denied` lifecycle event; a refusal
    /// stands whether or not it could be recorded (failures are logged).
    pub(super) async fn refused(
        &self,
        refusal: &HostRefusal,
        decider: &Decider,
        latency: Duration,
    ) {
        let error = refusal.to_wire();
        let records = vec![
            self.decision_record(Err(&error), decider, latency),
            AuditRecord {
                decision: Some(AuditDecision::Deny),
                // What happened (`user-denied`, `cancelled`, `hook-failed`…),
                // not only the wire's coarser OpenClaw name.
                reason: Some(self.masked(refusal.audit_reason())),
                ..outcome_of(&self.record(AuditEvent::ExecDenied), AuditEvent::ExecDenied)
            },
        ];
        let _ = self.write(records, false).await;
    }

    /// The `exec.finished` lifecycle event, queued without waiting (the
    /// command already ran and its decision is recorded).
    pub(super) async fn finished(&self, payload: &ExecPayload, duration: Duration) {
        let record = AuditRecord {
            exit_code: payload.exit_code,
            timed_out: Some(payload.timed_out),
            truncated: Some(payload.truncated),
            duration_ms: Some(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)),
            ..self.record(AuditEvent::ExecFinished)
        };
        let _ = self.write(vec![record], false).await;
    }
}
