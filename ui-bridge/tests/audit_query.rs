//! The read side: filters, tail, follow, and the human format of what was
//! read back.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use ui_bridge::audit::{
    AuditError, AuditEvent, AuditFilter, AuditLog, AuditRecord, GENESIS_PREV, LogOptions, follow,
    format_human, line_hash, read, scan, tail, verify,
};

mod audit_common;

use audit_common::{lines, log_with, log_with_options, record};

/// Writes a valid chain of the given records (each with its own `ts`), so
/// time filters can be tested without waiting for the clock.
fn chain(records: &[Value]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let mut prev = GENESIS_PREV.to_owned();
    let mut text = String::new();
    for (i, fields) in records.iter().enumerate() {
        let mut line = json!({"v": 1, "seq": i + 1, "ts": fields["ts"], "prev": prev});
        for (k, v) in fields.as_object().unwrap() {
            if k != "ts" {
                line[k] = v.clone();
            }
        }
        let bytes = serde_json::to_string(&line).unwrap();
        prev = line_hash(bytes.as_bytes());
        text.push_str(&bytes);
        text.push('\n');
    }
    fs::write(&path, text).unwrap();
    (dir, path)
}

fn sample() -> (tempfile::TempDir, PathBuf) {
    let (dir, path) = chain(&[
        json!({"ts": 1000, "event": "decision", "agentId": "main", "decision": "allow",
               "risk": {"level": "low", "reasons": []}}),
        json!({"ts": 2000, "event": "decision", "agentId": "ops", "decision": "deny",
               "risk": {"level": "critical", "reasons": ["rm -rf /"]}}),
        json!({"ts": 3000, "event": "decision", "agentId": "main", "decision": "allow-once",
               "decidedBy": "human:alice", "risk": {"level": "high", "reasons": ["sudo"]}}),
        json!({"ts": 4000, "event": "exec.finished", "agentId": "main", "exitCode": 0}),
        json!({"ts": 5000, "event": "decision", "agentId": "main", "decision": "deny",
               "risk": {"level": "medium", "reasons": []}}),
    ]);
    assert_eq!(
        verify(&path).unwrap().lines,
        5,
        "the fixture is a valid chain"
    );
    (dir, path)
}

fn seqs(path: &Path, filter: AuditFilter) -> Vec<u64> {
    read(path, &filter)
        .unwrap()
        .iter()
        .map(|v| v["seq"].as_u64().unwrap())
        .collect()
}

#[test]
fn filters_select_by_agent_decision_risk_and_time() {
    let (_dir, path) = sample();
    let s = |x: &str| Some(x.to_owned());
    let cases: &[(&str, AuditFilter, &[u64])] = &[
        ("no filter", AuditFilter::default(), &[1, 2, 3, 4, 5]),
        (
            "agent",
            AuditFilter {
                agent: s("ops"),
                ..Default::default()
            },
            &[2],
        ),
        (
            "agent exact",
            AuditFilter {
                agent: s("mai"),
                ..Default::default()
            },
            &[],
        ),
        (
            "decision",
            AuditFilter {
                decision: s("deny"),
                ..Default::default()
            },
            &[2, 5],
        ),
        (
            "allow-once",
            AuditFilter {
                decision: s("allow-once"),
                ..Default::default()
            },
            &[3],
        ),
        (
            "risk is a minimum",
            AuditFilter {
                risk: s("high"),
                ..Default::default()
            },
            &[2, 3],
        ),
        (
            "risk low is all rated",
            AuditFilter {
                risk: s("low"),
                ..Default::default()
            },
            &[1, 2, 3, 5],
        ),
        (
            "since is inclusive",
            AuditFilter {
                since_ms: Some(3000),
                ..Default::default()
            },
            &[3, 4, 5],
        ),
        (
            "since the future",
            AuditFilter {
                since_ms: Some(9000),
                ..Default::default()
            },
            &[],
        ),
        (
            "all together",
            AuditFilter {
                since_ms: Some(1500),
                agent: s("main"),
                decision: s("deny"),
                risk: s("medium"),
            },
            &[5],
        ),
    ];
    for (name, filter, want) in cases {
        assert_eq!(seqs(&path, filter.clone()), *want, "{name}");
    }
}

#[test]
fn unknown_filter_values_are_refused_not_matched_against_nothing() {
    let (_dir, path) = sample();
    for filter in [
        AuditFilter {
            decision: Some("allowed".into()),
            ..Default::default()
        },
        AuditFilter {
            decision: Some("DENY".into()),
            ..Default::default()
        },
        AuditFilter {
            risk: Some("severe".into()),
            ..Default::default()
        },
    ] {
        let err = read(&path, &filter).unwrap_err();
        assert!(matches!(err, AuditError::InvalidFilter { .. }), "{err}");
    }
}

#[test]
fn read_skips_damaged_lines_that_verify_reports() {
    let (_dir, path) = sample();
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"not json\n{\"v\":1,\"seq\":7,\"ts\":6000,\"event\":\"decision\"}\npartial")
        .unwrap();
    drop(file);
    assert_eq!(seqs(&path, AuditFilter::default()), [1, 2, 3, 4, 5, 7]);
    assert!(verify(&path).is_err());
}

#[test]
fn tail_returns_the_last_lines_and_where_they_end() {
    let (_dir, path) = sample();
    let len = fs::metadata(&path).unwrap().len();
    let got = tail(&path, 2).unwrap();
    assert_eq!(got.end, len);
    let tail_seqs: Vec<u64> = got
        .lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(tail_seqs, [4, 5]);
    assert_eq!(tail(&path, 100).unwrap().lines.len(), 5);
    assert!(tail(&path, 0).unwrap().lines.is_empty());
}

#[test]
fn tail_leaves_a_partial_last_line_for_follow() {
    let (_dir, path) = sample();
    let complete = fs::metadata(&path).unwrap().len();
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"{\"v\":1,\"seq\"").unwrap();
    drop(file);
    let got = tail(&path, 1).unwrap();
    assert_eq!(got.end, complete);
    assert!(got.lines[0].contains("\"seq\":5"));
}

#[test]
fn follow_delivers_each_new_line_once_and_stops_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    log.append(AuditRecord::new(AuditEvent::Decision)).unwrap();
    let start = tail(&path, 10).unwrap();
    assert_eq!(start.lines.len(), 1);

    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let end = std::thread::scope(|scope| {
        scope.spawn(|| {
            for _ in 0..3 {
                log.append(AuditRecord::new(AuditEvent::ExecStarted))
                    .unwrap();
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        follow(&path, start.end, &stop, Duration::from_millis(5), |line| {
            seen.push(
                serde_json::from_str::<Value>(line).unwrap()["seq"]
                    .as_u64()
                    .unwrap(),
            );
            if seen.len() == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap()
    });
    assert_eq!(seen, [2, 3, 4]);
    assert_eq!(end, fs::metadata(&path).unwrap().len());
}

#[test]
fn follow_waits_for_a_partial_line_to_complete() {
    let (_dir, path) = sample();
    let from = fs::metadata(&path).unwrap().len();
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
            file.write_all(b"{\"half\":").unwrap();
            std::thread::sleep(Duration::from_millis(40));
            file.write_all(b"1}\n").unwrap();
        });
        follow(&path, from, &stop, Duration::from_millis(5), |line| {
            seen.push(line.to_owned());
            stop.store(true, Ordering::Relaxed);
        })
        .unwrap();
    });
    assert_eq!(seen, ["{\"half\":1}"]);
}

#[test]
fn follow_refuses_a_log_that_shrinks() {
    let (_dir, path) = sample();
    let len = fs::metadata(&path).unwrap().len();
    let stop = AtomicBool::new(false);
    let err = follow(&path, len + 10, &stop, Duration::from_millis(5), |_| {}).unwrap_err();
    assert!(matches!(err, AuditError::Shrunk { .. }), "{err}");
}

#[test]
fn follow_returns_at_once_when_already_stopped() {
    let (_dir, path) = sample();
    let stop = AtomicBool::new(true);
    assert_eq!(
        follow(&path, 0, &stop, Duration::from_secs(60), |_| panic!()).unwrap(),
        0
    );
}

#[test]
fn format_human_renders_what_read_returns() {
    let (_dir, path) = sample();
    let records = read(&path, &AuditFilter::default()).unwrap();
    let lines: Vec<String> = records.iter().map(format_human).collect();
    assert_eq!(
        lines[2],
        "1970-01-01T00:00:03.000Z #3 decision allow-once by=human:alice agent=main risk=high"
    );
    assert_eq!(
        lines[3],
        "1970-01-01T00:00:04.000Z #4 exec.finished agent=main exit=0"
    );
}

/// A log that rotates every 1500 bytes (about seven records a file).
fn small_files() -> LogOptions {
    LogOptions {
        rotate_bytes: Some(1500),
        ..LogOptions::default()
    }
}

fn rotated(path: &Path, n: u64) -> PathBuf {
    PathBuf::from(format!("{}.{n}", path.display()))
}

fn seq_of(line: &str) -> u64 {
    serde_json::from_str::<Value>(line).unwrap()["seq"]
        .as_u64()
        .unwrap()
}

#[test]
fn read_and_tail_cross_rotated_files_oldest_first() {
    let (_dir, path) = log_with_options(30, small_files());
    let files = verify(&path).unwrap().files;
    assert!(files >= 4, "{files} files");
    let in_current = lines(&path).len();
    assert!(in_current < 10, "{in_current} lines in the current file");

    let all: Vec<u64> = read(&path, &AuditFilter::default())
        .unwrap()
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(all, (1..=30).collect::<Vec<_>>());

    let got = tail(&path, 10).unwrap();
    let seqs: Vec<u64> = got.lines.iter().map(|l| seq_of(l)).collect();
    assert_eq!(seqs, (21..=30).collect::<Vec<_>>());
    assert_eq!(got.end, fs::metadata(&path).unwrap().len());
    let seqs: Vec<u64> = tail(&path, 100)
        .unwrap()
        .lines
        .iter()
        .map(|l| seq_of(l))
        .collect();
    assert_eq!(seqs, (1..=30).collect::<Vec<_>>());
}

#[test]
fn scan_stops_when_asked_and_holds_one_record_at_a_time() {
    let (_dir, path) = log_with_options(30, small_files());
    let mut seen = Vec::new();
    scan(&path, &AuditFilter::default(), |record| {
        seen.push(record["seq"].as_u64().unwrap());
        if seen.len() == 12 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(seen, (1..=12).collect::<Vec<_>>());
}

#[test]
fn tail_and_read_of_a_log_missing_after_a_rotation_show_the_rotated_records() {
    // As after a crash between a rotation's rename and its new file.
    let (_dir, path) = log_with(5);
    fs::rename(&path, rotated(&path, 1)).unwrap();
    let got = tail(&path, 2).unwrap();
    assert_eq!(
        (
            got.lines.iter().map(|l| seq_of(l)).collect::<Vec<_>>(),
            got.end
        ),
        (vec![4, 5], 0)
    );
    assert_eq!(read(&path, &AuditFilter::default()).unwrap().len(), 5);
    // With neither, it is the log's own "not found".
    fs::remove_file(rotated(&path, 1)).unwrap();
    let err = tail(&path, 2).unwrap_err();
    assert!(
        matches!(&err, AuditError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound),
        "{err}"
    );
}

#[test]
fn follow_goes_on_through_several_rotations_between_two_polls() {
    let (_dir, path) = log_with_options(3, small_files());
    let log = AuditLog::open_with(&path, small_files()).unwrap();
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    // On the first line, while follow holds the file, 27 more records
    // rotate it several times over: nothing may be skipped or repeated.
    follow(&path, 0, &stop, Duration::from_millis(5), |line| {
        seen.push(seq_of(line));
        if seen.len() == 1 {
            for i in 4..=30 {
                log.append(record(i)).unwrap();
            }
            assert!(rotated(&path, 3).exists());
        }
        if seen.last() == Some(&30) {
            stop.store(true, Ordering::Relaxed);
        }
    })
    .unwrap();
    assert_eq!(seen, (1..=30).collect::<Vec<_>>());
}
