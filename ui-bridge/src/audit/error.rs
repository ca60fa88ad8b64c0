//! The audit log's errors: one enum, each variant naming the file or line
//! and what was expected, so `audit verify` can point at the damage.

use std::io;
use std::path::PathBuf;

/// Why the log could not be opened, appended to, read or verified.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// An I/O step failed on a file we name.
    #[error("cannot {action} audit log {path}: {source}")]
    Io {
        /// What we were doing (`open`, `lock`, `read`, `append`…).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The log, its lock file or its directory is a symbolic link.
    #[error(
        "refusing the audit log path {path}: it is a symbolic link\nhint: point the log at a real file"
    )]
    Symlink {
        /// The symlinked path.
        path: PathBuf,
    },
    /// The path names something other than a regular file (or directory, for
    /// the parent).
    #[error("refusing the audit log path {path}: not a regular file")]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// The log belongs to another user, who could read or rewrite it.
    #[error("refusing the audit log {path}: owned by uid {owner}, not by this user")]
    OwnedByOther {
        /// The log.
        path: PathBuf,
        /// Its owner.
        owner: u32,
    },
    /// A record serialised to more than the line limit.
    #[error("audit record too large: {size} bytes, the limit is {limit}")]
    RecordTooLarge {
        /// Its size.
        size: usize,
        /// [`super::MAX_RECORD_BYTES`].
        limit: usize,
    },
    /// A record could not be serialised.
    #[error("cannot serialise an audit record: {0}")]
    Serialize(#[source] serde_json::Error),
    /// The last lines are not records, so the next `seq` is unknown.
    #[error(
        "cannot append to audit log {path}: none of its last lines is a record\nhint: run `ui-bridge audit verify`, then move the damaged log, its rotated files and its .head file aside; a new log starts a new chain"
    )]
    CorruptTail {
        /// The log.
        path: PathBuf,
    },
    /// A line is longer than [`super::MAX_RECORD_BYTES`].
    #[error("audit log {path}: line {line} is longer than {limit} bytes")]
    LineTooLong {
        /// The log.
        path: PathBuf,
        /// 1-based line number (counted from the end for tails: 0).
        line: u64,
        /// The limit.
        limit: usize,
    },
    /// A line is not a valid record (a sealed torn write, or an edit).
    #[error("line {line}: not a valid audit record: {message}")]
    Parse {
        /// 1-based line number.
        line: u64,
        /// What the parser said.
        message: String,
    },
    /// The file ends without a newline: a write was cut short.
    #[error(
        "line {line}: truncated record (the file does not end with a newline; a crash mid-write?)"
    )]
    Truncated {
        /// 1-based number of the partial line.
        line: u64,
    },
    /// A line's `prev` is not the hash of the line before it: that line was
    /// changed, or lines were removed, inserted or reordered between them.
    #[error(
        "line {line}: chain broken: prev is {found} but the previous line hashes to {expected} (a line before it was changed, removed, inserted or reordered)"
    )]
    BrokenChain {
        /// 1-based number of the line whose `prev` does not match.
        line: u64,
        /// The hash of the previous line (or the genesis value).
        expected: String,
        /// The `prev` the line carries.
        found: String,
    },
    /// A line's `seq` does not follow the previous one.
    #[error("line {line}: sequence is {found}, expected {expected}")]
    BadSequence {
        /// 1-based line number.
        line: u64,
        /// Previous `seq` + 1.
        expected: u64,
        /// The line's `seq`.
        found: u64,
    },
    /// A line has a format version we do not know.
    #[error("line {line}: unsupported record version {found}, expected 1")]
    UnsupportedVersion {
        /// 1-based line number.
        line: u64,
        /// Its `v`.
        found: u64,
    },
    /// A followed log got shorter: it was truncated or replaced, which an
    /// append-only log never does.
    #[error("audit log {path} shrank from {from} to {to} bytes while following it")]
    Shrunk {
        /// The log.
        path: PathBuf,
        /// The offset we had read to.
        from: u64,
        /// Its new length.
        to: u64,
    },
    /// The head file beside the log is not a head.
    #[error(
        "audit head file {path} is not valid: {message}\nhint: it is rewritten by every append; if it was damaged, move it aside and keep the head printed by `ui-bridge audit verify` elsewhere"
    )]
    BadHead {
        /// The head file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },
    /// The log ends before the head recorded outside it: lines were
    /// removed from the end.
    #[error(
        "audit log cut short: the head in {origin} is seq {head_seq}, but the log ends at seq {last_seq}\nhint: records after seq {last_seq} were removed; restore them from a backup or your log collector"
    )]
    CutShort {
        /// Where the head came from (the head file, `--expect-head`).
        origin: String,
        /// The head's `seq`.
        head_seq: u64,
        /// The log's last `seq`.
        last_seq: u64,
    },
    /// The line at the head's `seq` is not the one the head recorded: the
    /// end of the log was rewritten into a new, consistent chain.
    #[error(
        "audit log rewritten from the end: the head in {origin} says seq {seq} hashes to {expected}, the log's line there hashes to {found}\nhint: the records from seq {seq} on were replaced; compare with a backup or your log collector"
    )]
    TailRewritten {
        /// Where the head came from.
        origin: String,
        /// The head's `seq`.
        seq: u64,
        /// The head's hash.
        expected: String,
        /// The hash the log holds there.
        found: String,
    },
    /// The writer found its log ending before the head file: someone cut
    /// it, and appending would hide that.
    #[error(
        "refusing to append to audit log {path}: it ends at seq {last_seq}, but its head file says seq {head_seq} was written\nhint: the log was cut short; run `ui-bridge audit verify`, then, to start a new chain, move the log, its rotated files and {path}.head aside"
    )]
    HeadAhead {
        /// The log.
        path: PathBuf,
        /// The head file's `seq`.
        head_seq: u64,
        /// The log's last `seq`.
        last_seq: u64,
    },
    /// The oldest file of a rotated log does not start the chain: files
    /// before it were removed.
    #[error(
        "audit log {path} starts at seq {first_seq}, not 1: the rotated files before it are missing\nhint: restore the missing files from a backup; a log that was pruned on purpose cannot prove what it no longer holds"
    )]
    MissingStart {
        /// The oldest file present.
        path: PathBuf,
        /// Its first `seq`.
        first_seq: u64,
    },
    /// A chain error in a rotated file (not the current one).
    #[error("{}: {source}", path.display())]
    InFile {
        /// The rotated file.
        path: PathBuf,
        /// What is wrong in it.
        #[source]
        source: Box<AuditError>,
    },
    /// A query filter value is not understood.
    #[error("invalid audit filter {field}: {message}")]
    InvalidFilter {
        /// The filter field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl AuditError {
    /// Wraps an I/O error with the action and file, the context every I/O
    /// edge must carry.
    pub(crate) fn io(
        action: &'static str,
        path: &std::path::Path,
    ) -> impl FnOnce(io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| Self::Io {
            action,
            path,
            source,
        }
    }
}
