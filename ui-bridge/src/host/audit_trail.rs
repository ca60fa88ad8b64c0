//! The exec host's side of the audit log (DESIGN.md section 9, invariant
//! 10): one record per decision and per outcome, with the lifecycle events
//! `exec.started`, `exec.finished` and `exec.denied` whose `runId` is the
//! approval id when a person was asked.
//!
//! The decision is written before the command runs (a decision that cannot
//! be recorded refuses the run). Writes are group-committed by one writer
//! thread: records queued meanwhile are appended under one lock with one
//! `write`, so they reach the kernel (and survive our process dying) before
//! the command starts, and a second thread fsyncs within [`SYNC_DELAY`] for
//! all of them. An fsync per record costs milliseconds, more than spawning
//! the command; the window only matters if the whole machine fails.
//!
//! Records nobody waits for (`exec.finished`, refusals) are only queued in
//! memory: the syncer appends them just before its fsync, within
//! [`SYNC_DELAY`], so a reply never pays for a wake-up of another thread.
//! They follow their run's `exec.started` in the log, but may follow a
//! later request's records too: order across runs is by `seq`, not `ts`. Command
//! text, argv and reasons are masked (the socket token and the secret
//! patterns of `crate::exec::mask_command`, which keeps every word but a
//! secret's own bytes) before they are written.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use approvals_ipc::policy::Evaluation;
use approvals_ipc::policy::risk::RiskLevel as PolicyRisk;
use tokio::sync::oneshot;

use crate::audit::{AuditError, AuditLog, AuditRecord, AuditRisk, RiskLevel};
use crate::exec::mask_command;

/// How long records wait for their shared fsync.
pub const SYNC_DELAY: Duration = Duration::from_millis(20);

/// Most records appended in one batch.
const MAX_BATCH: usize = 512;

/// Work for the writer thread.
enum Job {
    /// Append these records; report the outcome if anyone waits.
    Append {
        records: Vec<AuditRecord>,
        done: Option<oneshot::Sender<Result<(), String>>>,
    },
    /// Fsync now and report.
    Sync(oneshot::Sender<Result<(), String>>),
}

/// Records queued without waiting, appended by the next batch or sync.
type Unwaited = Arc<Mutex<Vec<AuditRecord>>>;

/// The audit log as the exec host writes it; cheap to clone.
#[derive(Clone)]
pub struct AuditTrail {
    log: Arc<AuditLog>,
    /// Records nobody waits for, appended before the next fsync.
    unwaited: Unwaited,
    jobs: mpsc::Sender<Job>,
    sync: mpsc::SyncSender<()>,
    path: PathBuf,
}

impl std::fmt::Debug for AuditTrail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditTrail")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl AuditTrail {
    /// Opens (creating) the log at `path` and starts its writer and syncer
    /// threads; they stop when the last clone is dropped, after a final
    /// fsync.
    pub fn open(path: &Path) -> Result<Self, AuditError> {
        let log = Arc::new(AuditLog::open(path)?);
        let sync_file = log.sync_handle()?;
        let io = |source| AuditError::Io {
            action: "start the writer for",
            path: path.to_path_buf(),
            source,
        };
        let unwaited = Unwaited::default();
        let (sync_tx, sync_rx) = mpsc::sync_channel::<()>(1);
        let (sync_log, sync_unwaited) = (Arc::clone(&log), Arc::clone(&unwaited));
        std::thread::Builder::new()
            .name("audit-sync".into())
            .spawn(move || sync_loop(&sync_log, &sync_unwaited, &sync_file, &sync_rx))
            .map_err(io)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        let (writer_log, writer_unwaited) = (Arc::clone(&log), Arc::clone(&unwaited));
        let writer_sync = sync_tx.clone();
        std::thread::Builder::new()
            .name("audit-writer".into())
            .spawn(move || write_loop(&writer_log, &writer_unwaited, &queue, &writer_sync))
            .map_err(io)?;
        Ok(Self {
            log,
            unwaited,
            jobs,
            sync: sync_tx,
            path: path.to_path_buf(),
        })
    }

    /// Appends `records`, already masked, in order; with `wait`, returns
    /// once they reached the kernel (or failed), else at once, leaving them
    /// for the syncer (within [`SYNC_DELAY`]).
    pub async fn write(&self, records: Vec<AuditRecord>, wait: bool) -> Result<(), String> {
        if !wait {
            // Off the caller's path, and no thread is woken for it: the
            // syncer is already due if anything was written in the last
            // SYNC_DELAY, and is poked (cheaply) otherwise.
            lock(&self.unwaited).extend(records);
            let _ = self.sync.try_send(());
            return Ok(());
        }
        self.append_now_or_queue(records).await
    }

    /// Appends here when nobody else is appending (a few syscalls), else
    /// hands the records to the writer thread and waits for it.
    async fn append_now_or_queue(&self, mut records: Vec<AuditRecord>) -> Result<(), String> {
        {
            match self.log.try_append_batch(records, false) {
                Ok(appended) => {
                    let _ = self.sync.try_send(());
                    return appended.map(drop).map_err(|error| {
                        tracing::error!(%error, "cannot append to the audit log");
                        error.to_string()
                    });
                }
                Err(busy) => records = busy,
            }
        }
        let (done, outcome) = oneshot::channel();
        self.jobs
            .send(Job::Append {
                records,
                done: Some(done),
            })
            .map_err(|_| "the audit writer stopped".to_owned())?;
        outcome
            .await
            .unwrap_or_else(|_| Err("the audit writer stopped".to_owned()))
    }

    /// Flushes everything written so far to disk (for short-lived hosts).
    pub async fn flush(&self) -> Result<(), String> {
        let (tx, rx) = oneshot::channel();
        self.jobs
            .send(Job::Sync(tx))
            .map_err(|_| "the audit writer stopped".to_owned())?;
        rx.await
            .unwrap_or_else(|_| Err("the audit writer stopped".to_owned()))
    }
}

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

fn lock(unwaited: &Unwaited) -> std::sync::MutexGuard<'_, Vec<AuditRecord>> {
    unwaited.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The syncer thread: once poked, waits [`SYNC_DELAY`] for more records,
/// appends the unwaited ones, and fsyncs once for all; a final round runs
/// when the last trail is dropped.
fn sync_loop(log: &AuditLog, unwaited: &Unwaited, file: &File, pokes: &mpsc::Receiver<()>) {
    let round = || {
        // Held while appending: a flush that finds the queue empty then
        // knows these records are in the file before it syncs.
        let mut queued = lock(unwaited);
        let _ = append(log, std::mem::take(&mut *queued));
        drop(queued);
        if let Err(error) = file.sync_data() {
            tracing::error!(%error, "audit log fsync failed");
        }
    };
    while pokes.recv().is_ok() {
        std::thread::sleep(SYNC_DELAY);
        while pokes.try_recv().is_ok() {}
        round();
    }
    round();
}

/// The writer thread: batches queued records, after any unwaited ones, into
/// one append each.
fn write_loop(
    log: &AuditLog,
    unwaited: &Unwaited,
    queue: &mpsc::Receiver<Job>,
    sync_tx: &mpsc::SyncSender<()>,
) {
    while let Ok(first) = queue.recv() {
        let mut pending = vec![first];
        while pending.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => pending.push(job),
                Err(_) => break,
            }
        }
        let mut records = std::mem::take(&mut *lock(unwaited));
        let mut waiters = Vec::new();
        for job in pending {
            match job {
                Job::Append { records: r, done } => {
                    records.extend(r);
                    waiters.extend(done);
                }
                Job::Sync(done) => {
                    // Append what came before it first, so the sync covers it.
                    let appended = append(log, std::mem::take(&mut records));
                    for waiter in waiters.drain(..) {
                        let _ = waiter.send(appended.clone());
                    }
                    let _ =
                        done.send(appended.and_then(|()| log.sync().map_err(|e| e.to_string())));
                }
            }
        }
        let appended = append(log, records);
        for waiter in waiters {
            let _ = waiter.send(appended.clone());
        }
        // Full means a sync is already scheduled and will cover these too.
        let _ = sync_tx.try_send(());
    }
    if let Err(error) = log.sync() {
        tracing::error!(%error, "final audit log fsync failed");
    }
}

fn append(log: &AuditLog, records: Vec<AuditRecord>) -> Result<(), String> {
    if records.is_empty() {
        return Ok(());
    }
    log.append_batch(records, false).map(drop).map_err(|error| {
        tracing::error!(%error, "cannot append to the audit log");
        error.to_string()
    })
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
    /// The fields every record of this request shares, masked once.
    pub(super) template: std::sync::OnceLock<AuditRecord>,
}

use approvals_ipc::ipc::{ErrorBody, ErrorCode, ExecPayload};

use super::Allowed;
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

    async fn write(&self, records: Vec<AuditRecord>, wait: bool) -> Result<(), ErrorBody> {
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
            Ok(Some(trail)) => trail.write(records, wait).await.map_err(refused),
            Err(why) => Err(refused(why.clone())),
        }
    }

    fn decision_record(
        &self,
        result: Result<Allowed, &ErrorBody>,
        decider: &Decider,
        latency: Duration,
    ) -> AuditRecord {
        let (decision, reason) = match result {
            Ok(Allowed::AllowOnce) => (AuditDecision::AllowOnce, None),
            Ok(Allowed::AllowAlways) => (AuditDecision::AllowAlways, None),
            Ok(Allowed::Policy | Allowed::Fallback) => {
                (AuditDecision::Allow, self.evaluation.reason.clone())
            }
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
        allowed: Allowed,
        decider: &Decider,
        latency: Duration,
    ) -> Result<(), ErrorBody> {
        let records = vec![
            self.decision_record(Ok(allowed), decider, latency),
            self.record(AuditEvent::ExecStarted),
        ];
        self.write(records, true).await
    }

    /// The decision record and the `exec.denied` lifecycle event; a refusal
    /// stands whether or not it could be recorded (failures are logged).
    pub(super) async fn refused(&self, error: &ErrorBody, decider: &Decider, latency: Duration) {
        let records = vec![
            self.decision_record(Err(error), decider, latency),
            AuditRecord {
                decision: Some(AuditDecision::Deny),
                reason: Some(
                    self.masked(
                        error
                            .reason
                            .clone()
                            .unwrap_or_else(|| error.message.clone()),
                    ),
                ),
                ..self.record(AuditEvent::ExecDenied)
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

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::audit::AuditEvent;

    fn events(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter_map(|record| record["event"].as_str().map(str::to_owned))
            .collect()
    }

    /// A trail in a fresh directory holding one unwaited record of `event`.
    async fn trail_with_unwaited(event: AuditEvent) -> (tempfile::TempDir, PathBuf, AuditTrail) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let trail = AuditTrail::open(&path).unwrap();
        trail
            .write(vec![AuditRecord::new(event)], false)
            .await
            .unwrap();
        (dir, path, trail)
    }

    #[tokio::test]
    async fn unwaited_records_reach_the_file_without_a_flush() {
        let (_dir, path, _trail) = trail_with_unwaited(AuditEvent::ExecFinished).await;
        // Nobody flushes: the syncer must append it on its own, soon.
        let deadline = Instant::now() + Duration::from_secs(5);
        while events(&path).is_empty() && Instant::now() < deadline {
            tokio::time::sleep(SYNC_DELAY).await;
        }
        assert_eq!(events(&path), vec!["exec.finished"]);
        crate::audit::verify(&path).unwrap();
    }

    #[tokio::test]
    async fn a_waited_write_follows_unwaited_ones_queued_before_it_on_flush() {
        let (_dir, path, trail) = trail_with_unwaited(AuditEvent::ExecDenied).await;
        trail.flush().await.unwrap();
        trail
            .write(vec![AuditRecord::new(AuditEvent::Decision)], true)
            .await
            .unwrap();
        assert_eq!(events(&path), vec!["exec.denied", "decision"]);
    }
}
