//! The audit log's writer for long-lived hosts: group commit behind one
//! writer thread and one syncer thread (DESIGN.md section 9, invariant 10).
//!
//! What it decides: when queued records reach the file and when they are
//! fsynced. Records a caller waits for are appended at once when nobody else
//! is appending, else by the writer thread, which appends everything queued
//! meanwhile under one lock with one `write`, so they reach the kernel (and
//! survive our process dying) before the caller goes on; a second thread
//! fsyncs within [`SYNC_DELAY`] for all of them. An fsync per record costs
//! milliseconds, more than spawning a command; the window only matters if
//! the whole machine fails.
//!
//! Records nobody waits for are only queued in memory: the syncer appends
//! them just before its fsync, within [`SYNC_DELAY`], so a caller never pays
//! for a wake-up of another thread. Order across callers is by `seq`, not
//! `ts`. It masks nothing: callers hand it records already masked (the exec
//! host's `host::audit_trail` does).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use tokio::sync::oneshot;

use super::{AuditError, AuditLog, AuditRecord};

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

/// The audit log as a long-lived host writes it, group-committed; cheap to
/// clone.
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
