//! The hash chain: what `verify` accepts and the first line it reports for
//! each kind of damage (edit, deletion, insertion, reordering, crash).

use std::fs;
use std::io::Write;

use serde_json::Value;
use ui_bridge::audit::{AuditError, AuditLog, AuditRecord, GENESIS_PREV, line_hash, verify};

mod audit_common;

use audit_common::{lines, log_with, record, write_lines};

#[test]
fn three_appends_verify_and_chain_from_genesis() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    let entries: Vec<_> = (1..=3).map(|i| log.append(record(i)).unwrap()).collect();

    assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(entries[0].prev, GENESIS_PREV);
    assert_eq!(entries[1].prev, entries[0].hash);
    assert_eq!(entries[2].prev, entries[1].hash);

    let report = verify(&path).unwrap();
    assert_eq!(report.lines, 3);
    assert_eq!(report.last_seq, 3);
    assert_eq!(report.head, entries[2].hash);

    let stored = lines(&path);
    assert_eq!(line_hash(stored[2].as_bytes()), entries[2].hash);
    let first: Value = serde_json::from_str(&stored[0]).unwrap();
    let keys: Vec<&str> = first
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "v",
            "seq",
            "ts",
            "prev",
            "event",
            "agentId",
            "argv",
            "decision",
            "decidedBy"
        ],
        "header first, then the record, empty fields left out"
    );
    assert_eq!(first["v"], 1);
}

#[test]
fn an_empty_log_verifies_with_the_genesis_head() {
    let (_dir, path) = log_with(0);
    let report = verify(&path).unwrap();
    assert_eq!((report.lines, report.last_seq), (0, 0));
    assert_eq!(report.head, GENESIS_PREV);
}

#[test]
fn an_edit_inside_a_string_of_the_middle_line_breaks_the_link_to_it() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored[1] = stored[1].replace("record-2", "record-X");
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    // Line 2 still parses; its hash no longer matches line 3's prev.
    assert!(
        matches!(err, AuditError::BrokenChain { line: 3, .. }),
        "{err}"
    );
}

#[test]
fn an_edit_that_breaks_the_json_is_reported_on_that_line() {
    let (_dir, path) = log_with(3);
    let mut bytes = fs::read(&path).unwrap();
    let second_line_start = bytes.iter().position(|b| *b == b'\n').unwrap() + 1;
    bytes[second_line_start] = b'[';
    fs::write(&path, bytes).unwrap();
    let err = verify(&path).unwrap_err();
    assert!(matches!(err, AuditError::Parse { line: 2, .. }), "{err}");
}

#[test]
fn an_edited_sequence_number_is_reported_on_that_line() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored[1] = stored[1].replace("\"seq\":2", "\"seq\":5");
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::BadSequence {
                line: 2,
                expected: 2,
                found: 5
            }
        ),
        "{err}"
    );
}

#[test]
fn an_unknown_version_is_reported_not_guessed() {
    let (_dir, path) = log_with(2);
    let mut stored = lines(&path);
    stored[1] = stored[1].replacen("\"v\":1", "\"v\":2", 1);
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(err, AuditError::UnsupportedVersion { line: 2, found: 2 }),
        "{err}"
    );
}

#[test]
fn a_deleted_middle_line_is_reported_where_the_gap_is() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored.remove(1);
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(err, AuditError::BrokenChain { line: 2, .. }),
        "{err}"
    );
}

#[test]
fn a_deleted_first_line_is_reported_on_line_one() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored.remove(0);
    write_lines(&path, &stored);
    match verify(&path).unwrap_err() {
        AuditError::BrokenChain { line, expected, .. } => {
            assert_eq!(line, 1);
            assert_eq!(expected, GENESIS_PREV);
        }
        err => panic!("unexpected {err}"),
    }
}

#[test]
fn reordered_lines_are_reported() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored.swap(1, 2);
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(err, AuditError::BrokenChain { line: 2, .. }),
        "{err}"
    );
}

#[test]
fn a_duplicated_line_is_reported() {
    let (_dir, path) = log_with(3);
    let mut stored = lines(&path);
    stored.insert(2, stored[1].clone());
    write_lines(&path, &stored);
    let err = verify(&path).unwrap_err();
    assert!(
        matches!(err, AuditError::BrokenChain { line: 3, .. }),
        "{err}"
    );
}

#[test]
fn a_partial_last_line_is_reported_as_truncated() {
    let (_dir, path) = log_with(3);
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(br#"{"v":1,"seq":4,"ts":17"#).unwrap();
    drop(file);
    let err = verify(&path).unwrap_err();
    assert!(matches!(err, AuditError::Truncated { line: 4 }), "{err}");
}

#[test]
fn a_complete_record_missing_only_its_newline_is_still_truncated() {
    let (_dir, path) = log_with(2);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.trim_end_matches('\n')).unwrap();
    let err = verify(&path).unwrap_err();
    assert!(matches!(err, AuditError::Truncated { line: 2 }), "{err}");
}

#[test]
fn append_after_a_crash_seals_the_fragment_and_chains_over_it() {
    let (_dir, path) = log_with(3);
    let fragment = br#"{"v":1,"seq":4,"ts":17"#;
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(fragment).unwrap();
    drop(file);
    let before = fs::read(&path).unwrap();

    let log = AuditLog::open(&path).unwrap();
    let entry = log.append(record(5)).unwrap();
    // seq continues from the last real record; prev covers the fragment.
    assert_eq!(entry.seq, 4);
    assert_eq!(entry.prev, line_hash(fragment));

    let stored = lines(&path);
    assert_eq!(stored.len(), 5);
    assert_eq!(stored[3].as_bytes(), fragment);
    // The damage stays visible: the sealed fragment is reported.
    let err = verify(&path).unwrap_err();
    assert!(matches!(err, AuditError::Parse { line: 4, .. }), "{err}");
    // Nothing was rewritten: the old bytes, then the seal, then the record.
    let after = fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(after[before.len()], b'\n');
    // The chain after the fragment is intact: the new line links to it.
    let last: Value = serde_json::from_str(&stored[4]).unwrap();
    assert_eq!(last["prev"], line_hash(stored[3].as_bytes()).as_str());
}

#[test]
fn append_refuses_a_tail_without_any_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    fs::write(&path, "garbage\nmore garbage\n").unwrap();
    let log = AuditLog::open(&path).unwrap();
    let err = log.append(record(1)).unwrap_err();
    assert!(matches!(err, AuditError::CorruptTail { .. }), "{err}");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "garbage\nmore garbage\n"
    );
}

#[test]
fn append_never_rewrites_earlier_bytes() {
    let (_dir, path) = log_with(3);
    let before = fs::read(&path).unwrap();
    AuditLog::open(&path).unwrap().append(record(4)).unwrap();
    let after = fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(verify(&path).unwrap().lines, 4);
}

#[test]
fn a_huge_field_is_capped_with_its_hash_and_the_record_written() {
    let (_dir, path) = log_with(1);
    let full = "x".repeat(ui_bridge::audit::MAX_RECORD_BYTES);
    let huge = AuditRecord {
        command_text: Some(full.clone()),
        ..record(2)
    };
    let log = AuditLog::open(&path).unwrap();
    log.append(huge).unwrap();
    assert_eq!(verify(&path).unwrap().lines, 2);
    let stored: Value = serde_json::from_str(&lines(&path)[1]).unwrap();
    let text = stored["commandText"].as_str().unwrap();
    assert!(text.len() <= ui_bridge::audit::FIELD_CAP, "{}", text.len());
    assert!(text.contains(&line_hash(full.as_bytes())), "{text}");
}

#[test]
fn control_characters_in_fields_cannot_split_a_record() {
    let (_dir, path) = log_with(0);
    let log = AuditLog::open(&path).unwrap();
    let hostile = AuditRecord {
        command_text: Some("echo ok\n{\"v\":1,\"seq\":99}\r\u{2028}".into()),
        ..record(1)
    };
    log.append(hostile.clone()).unwrap();
    assert_eq!(lines(&path).len(), 1);
    let stored: Value = serde_json::from_str(&lines(&path)[0]).unwrap();
    assert_eq!(
        stored["commandText"],
        hostile.command_text.unwrap().as_str()
    );
    assert_eq!(verify(&path).unwrap().lines, 1);
}
