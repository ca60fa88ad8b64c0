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

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;

use super::cap::cap_record;
use super::error::AuditError;
use super::files::{
    next_rotated_name, open_lock, open_log_for_append, open_log_for_read, prepare_dir,
    rotated_files, still_names,
};
use super::head::{self as head_file, ChainHead};
use super::lines::{TailLines, last_lines};
use super::lock::FileLock;
use super::record::{AuditRecord, StoredLine};
use super::sink::AuditSink;
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
    options: LogOptions,
}

/// How a log is written beyond the defaults: when it rotates and where
/// copies of its records go.
#[derive(Debug, Clone)]
pub struct LogOptions {
    /// Rotate when an append would take the file past this many bytes;
    /// `None` never rotates.
    pub rotate_bytes: Option<u64>,
    /// Where each appended record is also sent (journald, syslog).
    pub sink: Option<std::sync::Arc<AuditSink>>,
}

impl Default for LogOptions {
    fn default() -> Self {
        Self {
            rotate_bytes: Some(DEFAULT_ROTATE_BYTES),
            sink: None,
        }
    }
}

/// The size at which a log rotates unless told otherwise.
pub const DEFAULT_ROTATE_BYTES: u64 = 64 * 1024 * 1024;

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
        Self::open_with(path, LogOptions::default())
    }

    /// [`AuditLog::open`] with rotation and sink settings.
    pub fn open_with(path: &Path, options: LogOptions) -> Result<Self, AuditError> {
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
            options,
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
        let ts = now_ms();
        let stamped = records.into_iter().map(|record| (ts, record)).collect();
        let mut handles = self.handles.lock().unwrap_or_else(PoisonError::into_inner);
        let Handles { log, lock, head } = &mut *handles;
        let _held = FileLock::acquire(lock, &self.lock_path, LOCK_WAIT)?;
        self.append_locked(log, head, stamped, sync)
    }

    /// Appends what `drain` hands over, calling it only once this process
    /// holds the log (in-process mutex and cross-process lock), so records
    /// drained from a queue reach the file in the order they were queued,
    /// whoever drains them. Each record comes with the `ts` stamped when its
    /// event happened; `W` rides along (the callers' waiters). Without
    /// `block`, returns `None` at once, without calling `drain`, when the
    /// log is busy. When the lock cannot be had, `drain` is still called so
    /// that its waiters learn of the error.
    pub(crate) fn append_drained<W>(
        &self,
        block: bool,
        sync: bool,
        drain: impl FnOnce() -> (Vec<(i64, AuditRecord)>, W),
    ) -> Option<(Result<Vec<AuditEntry>, AuditError>, W)> {
        // A panic in another append cannot leave the handles inconsistent:
        // the file state is re-checked under the lock every time.
        let mut handles = if block {
            self.handles.lock().unwrap_or_else(PoisonError::into_inner)
        } else {
            self.handles.try_lock().ok()?
        };
        let Handles { log, lock, head } = &mut *handles;
        let wait = if block { LOCK_WAIT } else { Duration::ZERO };
        match FileLock::acquire(lock, &self.lock_path, wait) {
            Ok(_held) => {
                let (records, waiters) = drain();
                Some((self.append_locked(log, head, records, sync), waiters))
            }
            Err(_) if !block => None,
            Err(error) => Some((Err(error), drain().1)),
        }
    }

    fn append_locked(
        &self,
        log: &mut File,
        head: &mut Option<Head>,
        records: Vec<(i64, AuditRecord)>,
        sync: bool,
    ) -> Result<Vec<AuditEntry>, AuditError> {
        if records.is_empty() {
            return Ok(Vec::new());
        }
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
        let (mut prev, mut seq) = match head.take() {
            // Nobody appended since our last write: the head is still ours.
            Some(head) if head.len == len => (head.prev, head.seq),
            _ => self.head_from_files(log, len)?,
        };
        let mut bytes = Vec::new();
        let mut entries = Vec::with_capacity(records.len());
        for (ts, mut record) in records {
            cap_record(&mut record);
            seq += 1;
            let line = serde_json::to_vec(&StoredLine {
                v: AUDIT_VERSION,
                seq,
                ts,
                prev: prev.clone(),
                record: &record,
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
        let len = match self.options.rotate_bytes {
            Some(limit) if len > 0 && len + bytes.len() as u64 > limit => self.rotate(log)?,
            _ => len,
        };
        let mut writer = &*log;
        writer
            .write_all(&bytes)
            .map_err(AuditError::io("append to", &self.path))?;
        *head = Some(Head {
            len: len + bytes.len() as u64,
            prev: prev.clone(),
            seq,
        });
        // Not fatal: the records are in the file, and verify still checks
        // the chain; only the cut-detection anchor lags until the next append.
        if let Err(error) = head_file::write(&self.path, &ChainHead { seq, hash: prev }) {
            tracing::error!(%error, "cannot update the audit head file");
        }
        if sync {
            log.sync_data()
                .map_err(AuditError::io("sync", &self.path))?;
        }
        if let Some(sink) = &self.options.sink {
            sink.send(&bytes);
        }
        Ok(entries)
    }

    /// Where the chain stands when our in-memory head is stale: from the
    /// log's last lines, or, for an empty log, from the newest rotated
    /// file. A partial last line is sealed with a newline first. Refuses to
    /// go on when the head file says the chain went further than the log.
    fn head_from_files(&self, log: &File, len: u64) -> Result<(String, u64), AuditError> {
        let found = if len > 0 {
            let tail = last_lines(log, &self.path, len, TAIL_SCAN_LINES, 2 * MAX_RECORD_BYTES)?;
            if tail.unterminated {
                tracing::warn!(path = %self.path.display(), "audit log ends with a partial line; sealing it");
                let mut writer = log;
                writer
                    .write_all(b"\n")
                    .map_err(AuditError::io("append to", &self.path))?;
            }
            chain_head(&tail, &self.path)?
        } else {
            match rotated_files(&self.path)?.pop() {
                Some((_, previous)) => {
                    let file = open_log_for_read(&previous)?;
                    let plen = file
                        .metadata()
                        .map_err(AuditError::io("inspect", &previous))?
                        .len();
                    let tail = last_lines(
                        &file,
                        &previous,
                        plen,
                        TAIL_SCAN_LINES,
                        2 * MAX_RECORD_BYTES,
                    )?;
                    chain_head(&tail, &previous)?
                }
                None => TailHead {
                    prev: GENESIS_PREV.to_owned(),
                    seq: 0,
                    seq_hash: None,
                },
            }
        };
        if let Some(recorded) = head_file::read_locked(&self.path)? {
            let rewritten = recorded.seq == found.seq
                && found.seq_hash.as_deref() != Some(recorded.hash.as_str());
            if recorded.seq > found.seq || rewritten {
                return Err(AuditError::HeadAhead {
                    path: self.path.clone(),
                    head_seq: recorded.seq,
                    last_seq: found.seq,
                });
            }
        }
        Ok((found.prev, found.seq))
    }

    /// Renames the full log to its rotated name and starts a new file;
    /// the chain goes on in it (its first `prev` is the old file's last
    /// line). Returns the new file's length (0).
    fn rotate(&self, log: &mut File) -> Result<u64, AuditError> {
        log.sync_data()
            .map_err(AuditError::io("sync", &self.path))?;
        let rotated = next_rotated_name(&self.path)?;
        std::fs::rename(&self.path, &rotated).map_err(AuditError::io("rotate", &self.path))?;
        tracing::info!(path = %self.path.display(), rotated = %rotated.display(), "audit log rotated");
        *log = open_log_for_append(&self.path)?;
        Ok(0)
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

/// Where a file's chain ends.
struct TailHead {
    /// The hash of the last line's exact bytes, whatever they are.
    prev: String,
    /// The last `seq` (from the last line that parses).
    seq: u64,
    /// The hash of that record's line.
    seq_hash: Option<String>,
}

/// The `prev` for the next line (the hash of the last line's exact bytes,
/// whatever they are) and the last `seq` (from the last line that parses).
fn chain_head(tail: &TailLines, path: &Path) -> Result<TailHead, AuditError> {
    let Some(last) = tail.lines.last() else {
        return Ok(TailHead {
            prev: GENESIS_PREV.to_owned(),
            seq: 0,
            seq_hash: None,
        });
    };
    let (seq, seq_hash) = tail
        .lines
        .iter()
        .rev()
        .filter_map(|line| {
            serde_json::from_slice::<Header>(line)
                .ok()
                .map(|header| (header, line))
        })
        .find(|(header, _)| header.v == AUDIT_VERSION)
        .map(|(header, line)| (header.seq, line_hash(line)))
        .ok_or_else(|| AuditError::CorruptTail {
            path: path.to_path_buf(),
        })?;
    Ok(TailHead {
        prev: line_hash(last),
        seq,
        seq_hash: Some(seq_hash),
    })
}
