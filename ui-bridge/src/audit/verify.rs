//! Verifying the chain: every line is a version-1 record, its `prev` is the
//! hash of the line before (64 zeros for the first), and its `seq` is one
//! more than the previous one.
//!
//! It decides whether a file is intact and, if not, names the first line
//! where it stops being so. It refuses (reports) edited, removed, inserted or
//! reordered lines, a partial last line, and a sealed torn write. It
//! follows the chain across rotated files (`<log>.1`, `<log>.2`, …, then
//! the log), so a removed or edited rotated file breaks it, and a chain
//! whose oldest file does not start at `seq` 1 is reported as missing its
//! start. Lines removed from the end, or a tail rewritten into a new
//! consistent chain, are invisible to the chain alone: they are caught
//! against the head file beside the log and against a head kept elsewhere
//! (`--expect-head`, from a journald or syslog copy).

use std::io::BufReader;
use std::path::Path;

use serde::Deserialize;

use super::error::AuditError;
use super::files::{open_log_for_read, rotated_files};
use super::head::{self as head_file, ChainHead, head_path_for};
use super::lines::{LineRead, read_line};
use super::record::{AuditRecord, StoredLine};
use super::{AUDIT_VERSION, GENESIS_PREV, MAX_RECORD_BYTES, line_hash};

/// An intact chain: how long it is and where it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// Number of lines checked (all of them, in every file).
    pub lines: u64,
    /// Hash of the last line; [`GENESIS_PREV`] for an empty log. Anchoring
    /// it elsewhere makes truncation detectable.
    pub head: String,
    /// `seq` of the last record (0 for an empty log).
    pub last_seq: u64,
    /// How many files the chain spans (rotated ones and the current one).
    pub files: usize,
    /// Whether a head file beside the log was found and matched; `false`
    /// means a cut at the end could not be checked here.
    pub head_file_checked: bool,
}

/// Checks the whole chain, across rotated files, and against the head
/// file beside the log when there is one; returns the first break.
pub fn verify(path: &Path) -> Result<VerifyReport, AuditError> {
    verify_against(path, None)
}

/// [`verify`], and also against `expected`, a head kept elsewhere (a
/// journald or syslog copy, a note): the chain must reach its `seq` with
/// the same hash.
pub fn verify_against(
    path: &Path,
    expected: Option<&ChainHead>,
) -> Result<VerifyReport, AuditError> {
    let recorded = head_file::read(path)?;
    let mut walk = Walk {
        lines: 0,
        head: GENESIS_PREV.to_owned(),
        last_seq: 0,
        first: true,
        wanted: [recorded.as_ref(), expected]
            .into_iter()
            .flatten()
            .map(|head| (head.seq, None))
            .collect(),
    };
    let rotated = rotated_files(path)?;
    for (_, file) in &rotated {
        walk.file(file, true).map_err(|source| match source {
            // Already names the file.
            AuditError::MissingStart { .. } => source,
            source => AuditError::InFile {
                path: file.clone(),
                source: Box::new(source),
            },
        })?;
    }
    walk.file(path, false)?;
    let hash_at = |seq: u64| {
        walk.wanted
            .iter()
            .find(|(wanted, _)| *wanted == seq)
            .and_then(|(_, hash)| hash.clone())
    };
    if let Some(recorded) = &recorded {
        let origin = head_path_for(path).display().to_string();
        head_file::check(
            recorded,
            walk.last_seq,
            hash_at(recorded.seq).as_deref(),
            &origin,
        )?;
    }
    if let Some(expected) = expected {
        head_file::check(
            expected,
            walk.last_seq,
            hash_at(expected.seq).as_deref(),
            "the expected head",
        )?;
    }
    Ok(VerifyReport {
        lines: walk.lines,
        head: walk.head,
        last_seq: walk.last_seq,
        files: rotated.len() + 1,
        head_file_checked: recorded.is_some(),
    })
}

/// Where a check of the chain stands, carried from file to file.
struct Walk {
    lines: u64,
    head: String,
    last_seq: u64,
    /// No line seen yet: the next one starts the chain.
    first: bool,
    /// The seqs whose line hash a head check needs, and the hash found.
    wanted: Vec<(u64, Option<String>)>,
}

impl Walk {
    /// Checks one file's lines, continuing the chain; line numbers in
    /// errors count from the file's start.
    fn file(&mut self, path: &Path, rotated: bool) -> Result<(), AuditError> {
        let file = open_log_for_read(path)?;
        let mut reader = BufReader::new(file);
        let mut buf = Vec::new();
        let mut line = 0;
        loop {
            let outcome = read_line(&mut reader, &mut buf, MAX_RECORD_BYTES)
                .map_err(AuditError::io("read", path))?;
            line += 1;
            match outcome {
                LineRead::Eof => return Ok(()),
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
            if rotated && self.first && stored.seq != 1 && stored.prev != GENESIS_PREV {
                // The oldest rotated file left does not start the chain.
                return Err(AuditError::MissingStart {
                    path: path.to_path_buf(),
                    first_seq: stored.seq,
                });
            }
            if stored.prev != self.head {
                return Err(AuditError::BrokenChain {
                    line,
                    expected: std::mem::take(&mut self.head),
                    found: stored.prev,
                });
            }
            let expected = self.last_seq + 1;
            if stored.seq != expected {
                return Err(AuditError::BadSequence {
                    line,
                    expected,
                    found: stored.seq,
                });
            }
            let hash = line_hash(&buf);
            for (seq, found) in &mut self.wanted {
                if *seq == stored.seq {
                    *found = Some(hash.clone());
                }
            }
            self.first = false;
            self.lines += 1;
            self.head = hash;
            self.last_seq = stored.seq;
        }
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
