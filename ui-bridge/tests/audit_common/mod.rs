//! What the audit log suites share: logs of numbered records written by
//! the real writer, and the raw lines an attack edits.

// Each suite that includes this module uses only some of its helpers.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use ui_bridge::audit::{AuditDecision, AuditEvent, AuditLog, AuditRecord, DecidedBy, LogOptions};

/// The `n`th record of a test log: an allowlisted `echo record-n`.
pub fn record(n: usize) -> AuditRecord {
    AuditRecord {
        agent_id: Some("main".into()),
        argv: Some(vec!["echo".into(), format!("record-{n}")]),
        decision: Some(AuditDecision::Allow),
        decided_by: Some(DecidedBy::Allowlist),
        ..AuditRecord::new(AuditEvent::Decision)
    }
}

/// A log with `n` records; returns the dir guard and the log path.
pub fn log_with(n: usize) -> (tempfile::TempDir, PathBuf) {
    log_with_options(n, LogOptions::default())
}

/// [`log_with`], written with `options` (rotation, sinks).
pub fn log_with_options(n: usize, options: LogOptions) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open_with(&path, options).unwrap();
    for i in 1..=n {
        log.append(record(i)).unwrap();
    }
    (dir, path)
}

/// The log's lines as stored.
pub fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Replaces the log with `lines`, each ended by a newline.
pub fn write_lines(path: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    fs::write(path, text).unwrap();
}
