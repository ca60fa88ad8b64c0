//! The writer: one [`AuditLog`] per process appends records under an
//! in-process mutex and a cross-process lock on `<log>.lock`.
//!
//! It decides each record's `seq`, `ts` and `prev` from the file's last line
//! (read by seeking from the end, never the whole file), and writes the
//! lines of one batch in one `write`, followed by `sync_data` unless the
//! caller group-commits (see [`AuditLog::append_batch`]). It refuses
//! to append when the tail holds no record it can continue from, or when it
//! cannot take the lock within [`LOCK_WAIT`]; a caller that cannot log must
//! not run the command. A partial last line left by a crash is sealed with a
//! newline and chained over, as the module documentation of
//! [`crate::audit`] describes.

use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::error::AuditError;
use super::files::{open_lock, open_log_for_append, prepare_dir, still_names};
use super::lines::{TailLines, last_lines};
use super::record::{AuditRecord, StoredLine};
use super::{AUDIT_VERSION, GENESIS_PREV, MAX_RECORD_BYTES, line_hash, lock_path_for, now_ms};

/// How long an append waits for another process's lock before refusing.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// How many trailing lines an append looks through for the last `seq` when
/// the very last line is damaged.
const TAIL_SCAN_LINES: usize = 16;

/// The append-only, hash-chained log, opened once per process and shared
/// (it is `Sync`); several processes may append to the same file.
///
/// # Caveats
///
/// [`AuditLog::append`] does blocking file I/O and an fsync; from async code
/// call it inside `tokio::task::spawn_blocking`.
#[derive(Debug)]
pub struct AuditLog {
    path: PathBuf,
    lock_path: PathBuf,
    handles: Mutex<Handles>,
}

#[derive(Debug)]
struct Handles {
    log: File,
    lock: File,
    /// The chain head after our own last append, valid while the file
    /// still has the length we left it at (nobody else appended).
    head: Option<Head>,
}

/// Where the chain stands at a known file length.
#[derive(Debug, Clone)]
struct Head {
    len: u64,
    prev: String,
    seq: u64,
}

/// What an append wrote: enough to show the new chain head or anchor it
/// elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// The record's sequence number (1 for the first record of a file).
    pub seq: u64,
    /// The record's timestamp, milliseconds since the epoch.
    pub ts: i64,
    /// The `prev` it carries.
    pub prev: String,
    /// The hash of the line just written: the new chain head.
    pub hash: String,
}

impl AuditLog {
    /// Opens (creating 0600, in a 0700 directory if missing) the log at
    /// `path`; refuses a symbolic link, a non-regular file, or a file of
    /// another user.
    pub fn open(path: &Path) -> Result<Self, AuditError> {
        prepare_dir(path)?;
        let lock_path = lock_path_for(path);
        let lock = open_lock(&lock_path)?;
        let log = open_log_for_append(path)?;
        Ok(Self {
            path: path.to_path_buf(),
            lock_path,
            handles: Mutex::new(Handles {
                log,
                lock,
                head: None,
            }),
        })
    }

    /// The log's path, for messages and for the read-side functions.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record, filling `v`, `seq`, `ts` and `prev`, and returns
    /// once it is synced to disk.
    pub fn append(&self, record: AuditRecord) -> Result<AuditEntry, AuditError> {
        let mut entries = self.append_batch(vec![record], true)?;
        entries.pop().ok_or_else(|| AuditError::CorruptTail {
            path: self.path.clone(),
        })
    }

    /// Appends several records in order, under one lock and with one
    /// `write`; with `sync` false it returns once the kernel has them (they
    /// survive our process dying) and leaves the fsync to a later
    /// [`AuditLog::sync`] or [`AuditLog::sync_handle`]: group commit for
    /// writers on a hot path.
    pub fn append_batch(
        &self,
        records: Vec<AuditRecord>,
        sync: bool,
    ) -> Result<Vec<AuditEntry>, AuditError> {
        // A panic in another append cannot leave the handles inconsistent:
        // the file state is re-checked under the lock every time.
        let mut handles = self.handles.lock().unwrap_or_else(PoisonError::into_inner);
        let Handles { log, lock, head } = &mut *handles;
        let _held = FileLock::acquire(lock, &self.lock_path, LOCK_WAIT)?;
        self.append_locked(log, head, records, sync)
    }

    /// [`AuditLog::append_batch`] without waiting: `Err(records)` when
    /// another thread or process holds the log right now.
    pub fn try_append_batch(
        &self,
        records: Vec<AuditRecord>,
        sync: bool,
    ) -> Result<Result<Vec<AuditEntry>, AuditError>, Vec<AuditRecord>> {
        let Ok(mut handles) = self.handles.try_lock() else {
            return Err(records);
        };
        let Handles { log, lock, head } = &mut *handles;
        let Ok(_held) = FileLock::acquire(lock, &self.lock_path, Duration::ZERO) else {
            return Err(records);
        };
        Ok(self.append_locked(log, head, records, sync))
    }

    fn append_locked(
        &self,
        log: &mut File,
        head: &mut Option<Head>,
        records: Vec<AuditRecord>,
        sync: bool,
    ) -> Result<Vec<AuditEntry>, AuditError> {
        let len = match still_names(&self.path, log)? {
            Some(meta) => meta.len(),
            None => {
                tracing::warn!(path = %self.path.display(), "audit log was moved or replaced; reopening it");
                prepare_dir(&self.path)?;
                *log = open_log_for_append(&self.path)?;
                *head = None;
                log.metadata()
                    .map_err(AuditError::io("inspect", &self.path))?
                    .len()
            }
        };
        let log = &*log;
        let mut bytes = Vec::new();
        let (mut prev, mut seq) = match head.take() {
            // Nobody appended since our last write: the head is still ours.
            Some(head) if head.len == len => (head.prev, head.seq),
            _ => {
                let tail = last_lines(log, &self.path, len, TAIL_SCAN_LINES, 2 * MAX_RECORD_BYTES)?;
                if tail.unterminated {
                    tracing::warn!(path = %self.path.display(), "audit log ends with a partial line; sealing it");
                    bytes.push(b'\n');
                }
                chain_head(&tail, &self.path)?
            }
        };
        let mut entries = Vec::with_capacity(records.len());
        for record in &records {
            let ts = now_ms();
            seq += 1;
            let line = serde_json::to_vec(&StoredLine {
                v: AUDIT_VERSION,
                seq,
                ts,
                prev: prev.clone(),
                record,
            })
            .map_err(AuditError::Serialize)?;
            if line.len() > MAX_RECORD_BYTES {
                return Err(AuditError::RecordTooLarge {
                    size: line.len(),
                    limit: MAX_RECORD_BYTES,
                });
            }
            // serde_json escapes control characters inside strings, so a
            // serialised value never contains a raw newline.
            debug_assert!(!line.contains(&b'\n'));
            let hash = line_hash(&line);
            bytes.extend_from_slice(&line);
            bytes.push(b'\n');
            entries.push(AuditEntry {
                seq,
                ts,
                prev: std::mem::replace(&mut prev, hash.clone()),
                hash,
            });
        }
        let mut writer = log;
        writer
            .write_all(&bytes)
            .map_err(AuditError::io("append to", &self.path))?;
        *head = Some(Head {
            len: len + bytes.len() as u64,
            prev,
            seq,
        });
        if sync {
            log.sync_data()
                .map_err(AuditError::io("sync", &self.path))?;
        }
        Ok(entries)
    }

    /// Flushes every record appended so far to disk.
    pub fn sync(&self) -> Result<(), AuditError> {
        let handles = self.handles.lock().unwrap_or_else(PoisonError::into_inner);
        handles
            .log
            .sync_data()
            .map_err(AuditError::io("sync", &self.path))
    }

    /// A second handle on the log file, so another thread can fsync while
    /// appends go on.
    pub fn sync_handle(&self) -> Result<File, AuditError> {
        let handles = self.handles.lock().unwrap_or_else(PoisonError::into_inner);
        handles
            .log
            .try_clone()
            .map_err(AuditError::io("duplicate", &self.path))
    }
}

/// The fields an append needs from an earlier line.
#[derive(Deserialize)]
struct Header {
    v: u64,
    seq: u64,
}

/// The `prev` for the next line (the hash of the last line's exact bytes,
/// whatever they are) and the last `seq` (from the last line that parses).
fn chain_head(tail: &TailLines, path: &Path) -> Result<(String, u64), AuditError> {
    let Some(last) = tail.lines.last() else {
        return Ok((GENESIS_PREV.to_owned(), 0));
    };
    let prev = line_hash(last);
    let seq = tail
        .lines
        .iter()
        .rev()
        .filter_map(|line| serde_json::from_slice::<Header>(line).ok())
        .find(|header| header.v == AUDIT_VERSION)
        .map(|header| header.seq)
        .ok_or_else(|| AuditError::CorruptTail {
            path: path.to_path_buf(),
        })?;
    Ok((prev, seq))
}

/// The cross-process writer lock, released on drop.
struct FileLock<'a> {
    file: &'a File,
}

impl<'a> FileLock<'a> {
    /// Takes the exclusive lock, waiting at most [`LOCK_WAIT`].
    fn acquire(file: &'a File, lock_path: &Path, wait: Duration) -> Result<Self, AuditError> {
        let deadline = Instant::now() + wait;
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Self { file }),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(AuditError::io("lock", lock_path)(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "another process held the audit lock for too long",
                    )));
                }
                Err(TryLockError::Error(err)) => {
                    return Err(AuditError::io("lock", lock_path)(err));
                }
            }
        }
    }
}

impl Drop for FileLock<'_> {
    fn drop(&mut self) {
        if let Err(err) = self.file.unlock() {
            tracing::warn!(error = %err, "cannot release the audit lock");
        }
    }
}
