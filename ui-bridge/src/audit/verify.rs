//! Verifying the chain: every line is a version-1 record, its `prev` is the
//! hash of the line before (64 zeros for the first), and its `seq` is one
//! more than the previous one.
//!
//! It decides whether a file is intact and, if not, names the first line
//! where it stops being so. It refuses (reports) edited, removed, inserted or
//! reordered lines, a partial last line, and a sealed torn write. What it
//! cannot see on its own is the removal of lines from the end: compare the
//! reported head with one recorded elsewhere for that.

use std::io::BufReader;
use std::path::Path;

use serde::Deserialize;

use super::error::AuditError;
use super::files::open_log_for_read;
use super::lines::{LineRead, read_line};
use super::record::{AuditRecord, StoredLine};
use super::{AUDIT_VERSION, GENESIS_PREV, MAX_RECORD_BYTES, line_hash};

/// An intact chain: how long it is and where it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// Number of lines checked (all of them).
    pub lines: u64,
    /// Hash of the last line; [`GENESIS_PREV`] for an empty log. Anchoring
    /// it elsewhere makes truncation detectable.
    pub head: String,
    /// `seq` of the last record (0 for an empty log).
    pub last_seq: u64,
}

/// Checks the whole chain, returning the first break as an error.
pub fn verify(path: &Path) -> Result<VerifyReport, AuditError> {
    let file = open_log_for_read(path)?;
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut report = VerifyReport {
        lines: 0,
        head: GENESIS_PREV.to_owned(),
        last_seq: 0,
    };
    loop {
        let outcome = read_line(&mut reader, &mut buf, MAX_RECORD_BYTES)
            .map_err(AuditError::io("read", path))?;
        let line = report.lines + 1;
        match outcome {
            LineRead::Eof => return Ok(report),
            LineRead::Unterminated => return Err(AuditError::Truncated { line }),
            LineRead::TooLong => {
                return Err(AuditError::LineTooLong {
                    path: path.to_path_buf(),
                    line,
                    limit: MAX_RECORD_BYTES,
                });
            }
            LineRead::Complete => {}
        }
        let stored = parse_line(&buf, line)?;
        if stored.prev != report.head {
            return Err(AuditError::BrokenChain {
                line,
                expected: report.head,
                found: stored.prev,
            });
        }
        let expected = report.last_seq + 1;
        if stored.seq != expected {
            return Err(AuditError::BadSequence {
                line,
                expected,
                found: stored.seq,
            });
        }
        report = VerifyReport {
            lines: line,
            head: line_hash(&buf),
            last_seq: stored.seq,
        };
    }
}

/// Parses one line as a version-1 record, naming the version when that is
/// what is wrong.
fn parse_line(bytes: &[u8], line: u64) -> Result<StoredLine<AuditRecord>, AuditError> {
    #[derive(Deserialize)]
    struct Version {
        v: u64,
    }
    match serde_json::from_slice::<StoredLine<AuditRecord>>(bytes) {
        Ok(stored) if stored.v == AUDIT_VERSION => Ok(stored),
        Ok(stored) => Err(AuditError::UnsupportedVersion {
            line,
            found: stored.v,
        }),
        Err(err) => match serde_json::from_slice::<Version>(bytes) {
            Ok(version) if version.v != AUDIT_VERSION => Err(AuditError::UnsupportedVersion {
                line,
                found: version.v,
            }),
            _ => Err(AuditError::Parse {
                line,
                message: err.to_string(),
            }),
        },
    }
}
