//! The exec host's side of the audit log (DESIGN.md section 9, invariant
//! 10): one record per decision and per outcome, with the lifecycle events
//! `exec.started`, `exec.finished` and `exec.denied` whose `runId` is the
//! approval id when a person was asked.
//!
//! Records are written before the command runs (a decision that cannot be
//! recorded refuses the run) and group-committed: each append reaches the
//! kernel at once, and one fsync follows within [`SYNC_DELAY`] for all the
//! records written meanwhile. An fsync per record costs milliseconds, more
//! than spawning the command; the window only matters if the whole machine
//! fails. Command text and argv are masked (the socket token and the
//! secret patterns of `crate::exec::mask_secrets`) before they are written.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use approvals_ipc::policy::Evaluation;
use approvals_ipc::policy::risk::RiskLevel as PolicyRisk;

use crate::audit::{AuditError, AuditLog, AuditRecord, AuditRisk, RiskLevel};
use crate::exec::mask_secrets;

/// How long records wait for their shared fsync.
pub const SYNC_DELAY: Duration = Duration::from_millis(20);

/// The audit log as the exec host writes it; cheap to clone.
#[derive(Clone)]
pub struct AuditTrail {
    log: Arc<AuditLog>,
    sync_scheduled: Arc<AtomicBool>,
}

impl std::fmt::Debug for AuditTrail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditTrail")
            .field("path", &self.log.path())
            .finish_non_exhaustive()
    }
}

impl AuditTrail {
    /// Opens (creating) the log at `path`.
    pub fn open(path: &Path) -> Result<Self, AuditError> {
        Ok(Self {
            log: Arc::new(AuditLog::open(path)?),
            sync_scheduled: Arc::default(),
        })
    }

    /// Writes one record (masked with `secrets`) and schedules its fsync.
    pub async fn write(
        &self,
        mut record: AuditRecord,
        secrets: &[String],
    ) -> Result<(), AuditError> {
        let known: Vec<&str> = secrets.iter().map(String::as_str).collect();
        if let Some(argv) = record.argv.as_mut() {
            for word in argv.iter_mut() {
                *word = mask_secrets(word, &known).into_owned();
            }
        }
        if let Some(text) = record.command_text.as_mut() {
            *text = mask_secrets(text, &known).into_owned();
        }
        if let Some(reason) = record.reason.as_mut() {
            *reason = mask_secrets(reason, &known).into_owned();
        }
        let log = Arc::clone(&self.log);
        tokio::task::spawn_blocking(move || log.append_unsynced(record))
            .await
            .map_err(|e| AuditError::Io {
                action: "append to",
                path: self.log.path().to_path_buf(),
                source: std::io::Error::other(e.to_string()),
            })??;
        self.schedule_sync();
        Ok(())
    }

    fn schedule_sync(&self) {
        if self.sync_scheduled.swap(true, Ordering::AcqRel) {
            return;
        }
        let log = Arc::clone(&self.log);
        let scheduled = Arc::clone(&self.sync_scheduled);
        tokio::spawn(async move {
            tokio::time::sleep(SYNC_DELAY).await;
            scheduled.store(false, Ordering::Release);
            let synced = tokio::task::spawn_blocking(move || log.sync()).await;
            if !matches!(synced, Ok(Ok(()))) {
                tracing::error!("audit log fsync failed");
            }
        });
    }

    /// Flushes everything written so far (for shutdown and short-lived hosts).
    pub async fn flush(&self) {
        let log = Arc::clone(&self.log);
        if !matches!(
            tokio::task::spawn_blocking(move || log.sync()).await,
            Ok(Ok(()))
        ) {
            tracing::error!("audit log fsync failed");
        }
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
        argv: Some(evaluation.argv.clone()),
        command_text: Some(evaluation.command_text.clone()),
        cwd: Some(evaluation.cwd.to_string_lossy().into_owned()),
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
}

use approvals_ipc::ipc::{ErrorBody, ErrorCode, ExecPayload};

use super::Allowed;
use crate::audit::{AuditDecision, AuditEvent, DecidedBy};

impl Trail<'_> {
    fn record(&self, event: AuditEvent) -> AuditRecord {
        base_record(
            event,
            self.evaluation,
            self.agent_id,
            self.session_key,
            self.run_id,
        )
    }

    async fn write(&self, record: AuditRecord) -> Result<(), ErrorBody> {
        let refused = |why: String| {
            ErrorBody::new(
                ErrorCode::Unavailable,
                format!(
                    "SYSTEM_RUN_DENIED: the decision could not be recorded in the audit log ({why})"
                ),
            )
            .with_reason("audit-write-failed")
        };
        match &self.audit {
            Ok(None) => Ok(()),
            Ok(Some(trail)) => trail
                .write(record, self.secrets)
                .await
                .map_err(|e| refused(e.to_string())),
            Err(why) => Err(refused(why.clone())),
        }
    }

    /// The decision record; a run whose decision cannot be recorded is refused.
    pub(super) async fn decision(
        &self,
        result: Result<Allowed, &ErrorBody>,
        decider: &Decider,
        latency: Duration,
    ) -> Result<(), ErrorBody> {
        let (decision, reason) = match result {
            Ok(Allowed::AllowOnce) => (AuditDecision::AllowOnce, None),
            Ok(Allowed::AllowAlways) => (AuditDecision::AllowAlways, None),
            Ok(Allowed::Policy | Allowed::Fallback) => {
                (AuditDecision::Allow, self.evaluation.reason.clone())
            }
            Err(error) => (AuditDecision::Deny, Some(error.message.clone())),
        };
        self.write(AuditRecord {
            decision: Some(decision),
            decided_by: Some(decider.by.clone()),
            approver: decider.approver.clone(),
            reason,
            decision_latency_ms: Some(u64::try_from(latency.as_millis()).unwrap_or(u64::MAX)),
            ..self.record(AuditEvent::Decision)
        })
        .await
    }

    /// The `exec.denied` lifecycle event.
    pub(super) async fn denied(&self, error: &ErrorBody) -> Result<(), ErrorBody> {
        self.write(AuditRecord {
            decision: Some(AuditDecision::Deny),
            reason: Some(
                error
                    .reason
                    .clone()
                    .unwrap_or_else(|| error.message.clone()),
            ),
            ..self.record(AuditEvent::ExecDenied)
        })
        .await
    }

    /// The `exec.started` lifecycle event, written before the plan runs.
    pub(super) async fn started(&self) -> Result<(), ErrorBody> {
        self.write(self.record(AuditEvent::ExecStarted)).await
    }

    /// The `exec.finished` lifecycle event; a failure is logged (the command
    /// already ran and its decision is recorded).
    pub(super) async fn finished(&self, payload: &ExecPayload, duration: Duration) {
        let record = AuditRecord {
            exit_code: payload.exit_code,
            timed_out: Some(payload.timed_out),
            truncated: Some(payload.truncated),
            duration_ms: Some(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)),
            ..self.record(AuditEvent::ExecFinished)
        };
        if let Err(error) = self.write(record).await {
            tracing::error!(message = %error.message, "cannot record exec.finished");
        }
    }
}
