//! The audit log: an append-only, hash-chained JSON-lines record of every
//! decision and every outcome (DESIGN.md section 9, invariant 10).
//!
//! Each line is one JSON object
//! `{"v":1,"seq":N,"ts":<ms>,"prev":"<sha256 hex>","event":…, …fields}` where
//! `prev` is the SHA-256 of the previous line's exact bytes (without its
//! newline), or 64 zeros for the first line. Hashing the bytes as written
//! needs no JSON canonicalisation, and [`verify`] re-hashes them in order.
//!
//! What it decides: the sequence number, time and chain link of each record
//! ([`AuditLog::append`]), whether a file is an unbroken chain ([`verify`]),
//! and which records a query or a tail shows ([`read`], [`scan`], [`tail`],
//! [`follow`], [`format_human`]); for a long-lived host, when queued records
//! reach the file and the disk ([`AuditTrail`], group commit behind a writer
//! and a syncer thread). What it refuses: a log path (or its lock
//! file, or its directory) that is a symbolic link, a log that is not a
//! regular file or belongs to another user, a record over
//! [`MAX_RECORD_BYTES`], and appending after a tail it cannot make sense of.
//! It never rewrites or truncates the file; rotation only renames it.
//!
//! Crash recovery, as chosen: a crash mid-write can leave a last line without
//! its newline. The next append, under the lock, first writes the missing
//! `\n`, which seals the fragment as a line of its own, then chains the new
//! record over the fragment's exact bytes, continuing `seq` from the last
//! record that still parses. The fragment stays in the file as evidence:
//! [`verify`] reports it (`Truncated` while it is the unsealed last line,
//! `Parse` once sealed), so a damaged log is never reported as intact.
//!
//! Under pressure: each text field is capped ([`FIELD_CAP`], with the
//! SHA-256 of the full value), the log rotates by size with the chain
//! carried into the next file (`<log>.N`), and a head file beside it
//! (`<log>.head`, see [`ChainHead`]) lets [`verify`] catch a log cut short
//! or rewritten from the end; copies go to journald or syslog through an
//! [`AuditSink`] when configured. docs/audit.md says what the chain can
//! and cannot prove.
//!
//! Secrets: [`AuditRecord`] has no token field; masking argv and command
//! text is the caller's job, with [`redact_argv`] and [`mask`] for values the
//! caller knows to be secret.

mod cap;
mod duration;
mod error;
mod files;
mod head;
mod human;
mod lines;
mod lock;
mod log;
mod query;
mod record;
mod redact;
mod sink;
mod verify;
mod writer;

pub use cap::{FIELD_CAP, LIST_CAP};
pub use duration::{DurationError, parse_duration};
pub use error::AuditError;
pub use head::{ChainHead, head_path_for};
pub use human::format_human;
pub use log::{AuditEntry, AuditLog, DEFAULT_ROTATE_BYTES, LogOptions};
pub use query::{AuditFilter, Tail, follow, read, scan, tail};
pub use record::{AuditDecision, AuditEvent, AuditRecord, AuditRisk, DecidedBy, RiskLevel};
pub use redact::{REDACTED_KNOWN_SECRET, mask, redact_argv, redact_text};
pub use sink::{AuditSink, SinkKind};
pub use verify::{VerifyReport, verify, verify_against};
pub use writer::{AuditTrail, SYNC_DELAY};

use std::path::{Path, PathBuf};

/// The log's file name inside the state directory, next to the approvals file.
pub const AUDIT_FILE_NAME: &str = "exec-audit.jsonl";

/// The record format version written in every line's `v`; a reader refuses
/// other versions rather than guess at their meaning.
pub const AUDIT_VERSION: u64 = 1;

/// The `prev` of the first line: there is no previous line to hash.
pub const GENESIS_PREV: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The largest line (without its newline) we write or read back; a bound so
/// that reading a hostile file cannot exhaust memory.
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// The default log path for a state directory (`~/.clawdbot` or
/// `$CLAWDBOT_STATE_DIR`), so every command agrees on where the log lives.
pub fn default_audit_path(state_dir: &Path) -> PathBuf {
    state_dir.join(AUDIT_FILE_NAME)
}

/// The sibling lock file that serialises writers across processes; a lock on
/// the log itself would do too, but a separate file keeps readers unaffected.
pub fn lock_path_for(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Lower-case hex SHA-256 of one line's exact bytes, the chain's link.
pub fn line_hash(line: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(line))
}

/// Milliseconds since the Unix epoch, the unit of `ts` and of filters; a
/// clock before 1970 reads as 0 rather than failing an append.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
