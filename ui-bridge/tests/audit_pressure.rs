//! The audit log under attack: a log cut short, a tail rewritten into a new
//! consistent chain, rotated files removed, and rotation carrying the chain
//! across files. Each test damages real files and runs the real verifier
//! and writer.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use ui_bridge::audit::{
    AuditError, AuditLog, ChainHead, LogOptions, head_path_for, line_hash, verify, verify_against,
};

mod audit_common;

use audit_common::{lines, log_with, log_with_options, record, write_lines};

/// A well-formed line continuing `prev` at `seq`, as an attacker would
/// forge it: the chain alone cannot tell it from a real one.
fn forged(seq: u64, prev: &str, what: &str) -> String {
    json!({"v": 1, "seq": seq, "ts": 1, "prev": prev, "event": "decision",
           "argv": ["echo", what], "decision": "allow", "decidedBy": "allowlist"})
    .to_string()
}

/// `kept` lines of the log followed by `extra` forged ones, chained.
fn rewrite_tail(path: &Path, kept: usize, extra: usize) {
    let mut stored = lines(path);
    stored.truncate(kept);
    for i in 0..extra {
        let prev = line_hash(stored.last().unwrap().as_bytes());
        stored.push(forged((kept + i + 1) as u64, &prev, "forged"));
    }
    write_lines(path, &stored);
}

#[test]
fn a_log_cut_short_is_caught_by_the_head_file() {
    let (_dir, path) = log_with(5);
    assert!(verify(&path).unwrap().head_file_checked);
    let mut stored = lines(&path);
    stored.truncate(3);
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::CutShort {
                head_seq: 5,
                last_seq: 3,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_tail_rewritten_into_a_consistent_chain_is_caught_by_the_head_file() {
    for extra in [2, 6] {
        let (_dir, path) = log_with(5);
        rewrite_tail(&path, 3, extra);
        let err = verify(&path).unwrap_err();
        assert!(
            matches!(err, AuditError::TailRewritten { seq: 5, .. }),
            "{extra}: {err}"
        );
    }
}

#[test]
fn a_rewritten_head_file_is_caught_by_a_head_kept_elsewhere() {
    let (_dir, path) = log_with(5);
    let shipped = verify(&path).unwrap();
    let elsewhere = ChainHead {
        seq: shipped.last_seq,
        hash: shipped.head,
    };
    rewrite_tail(&path, 3, 2);
    // The attacker fixes the head file up too.
    let forged_head = ChainHead {
        seq: 5,
        hash: line_hash(lines(&path)[4].as_bytes()),
    };
    fs::write(
        head_path_for(&path),
        serde_json::to_string(&forged_head).unwrap(),
    )
    .unwrap();
    verify(&path).unwrap();
    let err = verify_against(&path, Some(&elsewhere)).unwrap_err();
    assert!(
        matches!(err, AuditError::TailRewritten { seq: 5, .. }),
        "{err}"
    );
}

#[test]
fn the_writer_refuses_to_extend_a_log_cut_short() {
    let (_dir, path) = log_with(5);
    let mut stored = lines(&path);
    stored.truncate(3);
    write_lines(&path, &stored);
    let err = AuditLog::open(&path)
        .unwrap()
        .append(record(6))
        .unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::HeadAhead {
                head_seq: 5,
                last_seq: 3,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(lines(&path).len(), 3, "nothing appended over the cut");
}

fn small_files() -> LogOptions {
    LogOptions {
        rotate_bytes: Some(1500),
        ..LogOptions::default()
    }
}

fn rotated(path: &Path, n: u64) -> PathBuf {
    PathBuf::from(format!("{}.{n}", path.display()))
}

#[test]
fn rotation_carries_the_chain_across_files_and_verify_follows_it() {
    let (_dir, path) = log_with_options(30, small_files());
    let report = verify(&path).unwrap();
    assert_eq!((report.lines, report.last_seq), (30, 30));
    assert!(report.files >= 3, "{report:?}");
    for n in 1..report.files as u64 {
        let size = fs::metadata(rotated(&path, n)).unwrap().len();
        assert!(size <= 1500, "file {n} has {size} bytes");
    }
    // The current file's first line chains to the last rotated file's last.
    let last_rotated = lines(&rotated(&path, report.files as u64 - 1));
    let first: Value = serde_json::from_str(&lines(&path)[0]).unwrap();
    assert_eq!(
        first["prev"],
        line_hash(last_rotated.last().unwrap().as_bytes())
    );
}

#[test]
fn a_deleted_rotated_file_breaks_the_chain() {
    let (_dir, path) = log_with_options(30, small_files());
    fs::remove_file(rotated(&path, 2)).unwrap();
    let err = verify(&path).unwrap_err();
    match err {
        AuditError::InFile { path: file, source } => {
            assert_eq!(file, rotated(&path, 3));
            assert!(
                matches!(*source, AuditError::BrokenChain { line: 1, .. }),
                "{source}"
            );
        }
        other => panic!("unexpected {other}"),
    }
}

#[test]
fn a_deleted_oldest_file_is_reported_as_a_missing_start() {
    let (_dir, path) = log_with_options(30, small_files());
    fs::remove_file(rotated(&path, 1)).unwrap();
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(&err, AuditError::MissingStart { path: file, .. } if *file == rotated(&path, 2)),
        "{err}"
    );
}

#[test]
fn a_writer_finding_an_empty_log_continues_the_chain_of_the_rotated_one() {
    // As after a crash between the rename and the first write.
    let (_dir, path) = log_with(3);
    fs::rename(&path, rotated(&path, 1)).unwrap();
    fs::write(&path, "").unwrap();
    AuditLog::open(&path).unwrap().append(record(4)).unwrap();
    let report = verify(&path).unwrap();
    assert_eq!((report.lines, report.last_seq, report.files), (4, 4, 2));
}
