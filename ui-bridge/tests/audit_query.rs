//! The read side: filters, tail, follow, and the human format of what was
//! read back.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use ui_bridge::audit::{
    AuditError, AuditEvent, AuditFilter, AuditLog, AuditRecord, GENESIS_PREV, follow, format_human,
    line_hash, read, tail, verify,
};

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
