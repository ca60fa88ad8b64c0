//! The audit log's writer for long-lived hosts: one ordered queue, group
//! commit behind a writer and a syncer thread (DESIGN.md section 9,
//! invariant 10).
//!
//! What it decides: each record's place and time, and when it reaches the
//! file and the disk. A record is stamped (`ts`) and queued the moment
//! [`AuditTrail::write`] is called, under one mutex, so the queue's order is
//! the order events happened in, and `ts` never goes down along it. Whoever
//! appends drains the queue while holding the log, so the file keeps that
//! order and `seq` follows it (within this process; another process
//! appending to the same file interleaves whole batches).
//!
//! Records a caller waits for are appended at once when nobody else is
//! appending, else by whoever holds the log or by the writer thread, which
//! appends everything queued meanwhile under one lock with one `write`; the
//! caller goes on once they reached the kernel (they survive our process
//! dying), and a second thread fsyncs within [`SYNC_DELAY`] for all of them.
//! An fsync per record costs milliseconds, more than spawning a command;
//! the window only matters if the whole machine fails.
//!
//! Records nobody waits for are only queued: the syncer appends them just
//! before its fsync, within [`SYNC_DELAY`], or an earlier waited write
//! carries them along. It masks nothing: callers hand it records already
//! masked (the exec host's `host::audit_trail` does).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use tokio::sync::oneshot;

use super::{AuditError, AuditLog, AuditRecord, LogOptions, now_ms};

/// How long records wait for their shared fsync.
pub const SYNC_DELAY: Duration = Duration::from_millis(20);

/// The outcome a waiting caller is told.
type Outcome = Result<(), String>;

/// Work for the writer thread.
enum Job {
    /// Append whatever is queued (a waiting caller found the log busy).
    Drain,
    /// Append whatever is queued, fsync, and report.
    Sync(oneshot::Sender<Outcome>),
}

/// The records stamped and not yet appended, in the order their events
/// happened, with whoever waits for them.
#[derive(Default)]
struct Queue {
    /// `(ts, record)` in event order.
    records: Vec<(i64, AuditRecord)>,
    /// Callers told the outcome of the append that takes their records.
    waiters: Vec<oneshot::Sender<Outcome>>,
    /// The last `ts` handed out: a clock stepping back does not reorder.
    last_ts: i64,
}

type Shared = Arc<Mutex<Queue>>;

/// The audit log as a long-lived host writes it, group-committed; cheap to
/// clone.
#[derive(Clone)]
pub struct AuditTrail {
    log: Arc<AuditLog>,
    /// Records stamped and not yet appended.
    queue: Shared,
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
        Self::open_with(path, LogOptions::default())
    }

    /// [`AuditTrail::open`] with rotation and sink settings.
    pub fn open_with(path: &Path, options: LogOptions) -> Result<Self, AuditError> {
        let log = Arc::new(AuditLog::open_with(path, options)?);
        let io = |source| AuditError::Io {
            action: "start the writer for",
            path: path.to_path_buf(),
            source,
        };
        let queue = Shared::default();
        let (sync_tx, sync_rx) = mpsc::sync_channel::<()>(1);
        let (sync_log, sync_queue) = (Arc::clone(&log), Arc::clone(&queue));
        std::thread::Builder::new()
            .name("audit-sync".into())
            .spawn(move || sync_loop(&sync_log, &sync_queue, &sync_rx))
            .map_err(io)?;
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (writer_log, writer_queue) = (Arc::clone(&log), Arc::clone(&queue));
        let writer_sync = sync_tx.clone();
        std::thread::Builder::new()
            .name("audit-writer".into())
            .spawn(move || write_loop(&writer_log, &writer_queue, &job_rx, &writer_sync))
            .map_err(io)?;
        Ok(Self {
            log,
            queue,
            jobs,
            sync: sync_tx,
            path: path.to_path_buf(),
        })
    }

    /// Stamps `records` (already masked) with the time now and queues them,
    /// in order, after everything written before; with `wait`, returns once
    /// they reached the kernel (or failed), else at once, leaving them for
    /// the syncer (within [`SYNC_DELAY`]).
    pub async fn write(&self, records: Vec<AuditRecord>, wait: bool) -> Result<(), String> {
        let outcome = {
            let mut queue = lock(&self.queue);
            let ts = now_ms().max(queue.last_ts);
            queue.last_ts = ts;
            queue
                .records
                .extend(records.into_iter().map(|record| (ts, record)));
            wait.then(|| {
                let (done, outcome) = oneshot::channel();
                queue.waiters.push(done);
                outcome
            })
        };
        let Some(outcome) = outcome else {
            // No thread is woken for it: the syncer is already due if
            // anything was written in the last SYNC_DELAY, and is poked
            // (cheaply) otherwise.
            let _ = self.sync.try_send(());
            return Ok(());
        };
        // Append here when nobody else is appending (a few syscalls); when
        // someone is, they or the writer thread take our records.
        if !drain(&self.log, &self.queue, false) {
            self.jobs
                .send(Job::Drain)
                .map_err(|_| "the audit writer stopped".to_owned())?;
        }
        let _ = self.sync.try_send(());
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

fn lock(queue: &Shared) -> std::sync::MutexGuard<'_, Queue> {
    queue.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Appends everything queued, taking it only once the log is held, and
/// tells its waiters; `false` (nothing taken) when `block` is off and the
/// log is busy.
fn drain(log: &AuditLog, queue: &Shared, block: bool) -> bool {
    let taken = log.append_drained(block, false, || {
        let mut queue = lock(queue);
        (
            std::mem::take(&mut queue.records),
            std::mem::take(&mut queue.waiters),
        )
    });
    let Some((appended, waiters)) = taken else {
        return false;
    };
    let outcome = appended.map(drop).map_err(|error| {
        tracing::error!(%error, "cannot append to the audit log");
        error.to_string()
    });
    for waiter in waiters {
        let _ = waiter.send(outcome.clone());
    }
    true
}

/// The syncer thread: once poked, waits [`SYNC_DELAY`] for more records,
/// appends what is queued, and fsyncs once for all; a final round runs
/// when the last trail is dropped.
fn sync_loop(log: &AuditLog, queue: &Shared, pokes: &mpsc::Receiver<()>) {
    let round = || {
        drain(log, queue, true);
        // A fresh handle each round: the log may have rotated meanwhile.
        // The fsync runs without the log's lock, so appends go on.
        let synced = log
            .sync_handle()
            .and_then(|file| file.sync_data().map_err(AuditError::io("sync", log.path())));
        if let Err(error) = synced {
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

/// The writer thread: appends what is queued when a waiting caller found
/// the log busy, and serves flushes.
fn write_loop(
    log: &AuditLog,
    queue: &Shared,
    jobs: &mpsc::Receiver<Job>,
    sync_tx: &mpsc::SyncSender<()>,
) {
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Drain => {
                drain(log, queue, true);
                // Full means a sync is already scheduled and covers these.
                let _ = sync_tx.try_send(());
            }
            Job::Sync(done) => {
                let (tx, rx) = oneshot::channel();
                lock(queue).waiters.push(tx);
                drain(log, queue, true);
                let appended = rx
                    .blocking_recv()
                    .unwrap_or_else(|_| Err("the audit writer stopped".to_owned()));
                let _ = done.send(appended.and_then(|()| log.sync().map_err(|e| e.to_string())));
            }
        }
    }
    if let Err(error) = log.sync() {
        tracing::error!(%error, "final audit log fsync failed");
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

    /// `(seq, ts, requestId)` of every line, in file order.
    fn stamped(path: &Path) -> Vec<(u64, i64, String)> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).unwrap();
                (
                    value["seq"].as_u64().unwrap(),
                    value["ts"].as_i64().unwrap(),
                    value["requestId"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect()
    }

    fn tagged(tag: String) -> AuditRecord {
        AuditRecord {
            request_id: Some(tag),
            ..AuditRecord::new(AuditEvent::Decision)
        }
    }

    #[tokio::test]
    async fn ts_is_taken_when_the_event_happens_not_when_it_reaches_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let trail = AuditTrail::open(&path).unwrap();
        let before = crate::audit::now_ms();
        trail.write(vec![tagged("a".into())], false).await.unwrap();
        let after = crate::audit::now_ms();
        // Nobody flushes: the syncer appends it SYNC_DELAY later at the
        // earliest, so a ts taken at append time would be past `after`.
        let deadline = Instant::now() + Duration::from_secs(5);
        while events(&path).is_empty() && Instant::now() < deadline {
            tokio::time::sleep(SYNC_DELAY).await;
        }
        let lines = stamped(&path);
        assert_eq!(lines.len(), 1);
        let ts = lines[0].1;
        assert!(before <= ts && ts <= after, "{before} <= {ts} <= {after}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writers_keep_their_order_and_ts_never_goes_down() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let trail = AuditTrail::open(&path).unwrap();
        let (tasks, per_task) = (8, 60);
        let mut set = tokio::task::JoinSet::new();
        for task in 0..tasks {
            let trail = trail.clone();
            set.spawn(async move {
                for step in 0..per_task {
                    // Unwaited records between waited ones: a waited write
                    // must not overtake what its own caller queued before.
                    let wait = step % 3 == 2;
                    trail
                        .write(vec![tagged(format!("{task}-{step}"))], wait)
                        .await
                        .unwrap();
                }
            });
        }
        while let Some(joined) = set.join_next().await {
            joined.unwrap();
        }
        trail.flush().await.unwrap();
        crate::audit::verify(&path).unwrap();
        let lines = stamped(&path);
        assert_eq!(lines.len(), tasks * per_task);
        let mut next = vec![0usize; tasks];
        let mut last_ts = i64::MIN;
        for (seq, ts, tag) in &lines {
            assert!(*ts >= last_ts, "seq {seq}: ts {ts} after {last_ts}");
            last_ts = *ts;
            let (task, step) = tag.split_once('-').unwrap();
            let (task, step): (usize, usize) = (task.parse().unwrap(), step.parse().unwrap());
            assert_eq!(step, next[task], "seq {seq}: task {task} out of order");
            next[task] += 1;
        }
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
