//! The log on disk: modes, symbolic links refused, rotation, and many
//! writers (each with its own descriptor and lock) keeping one chain.

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::sync::Arc;

use ui_bridge::audit::{AuditError, AuditEvent, AuditLog, AuditRecord, read, verify};

fn record(tag: &str) -> AuditRecord {
    AuditRecord {
        agent_id: Some(tag.into()),
        ..AuditRecord::new(AuditEvent::ExecFinished)
    }
}

fn mode(path: &std::path::Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn creates_the_log_and_lock_0600_in_a_new_0700_directory() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state").join("nested");
    let path = state.join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    log.append(record("a")).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&state.join("exec-audit.jsonl.lock")), 0o600);
    assert_eq!(mode(&state), 0o700);
}

#[test]
fn tightens_an_existing_world_readable_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    fs::write(&path, "").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    AuditLog::open(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn refuses_a_symlinked_log_without_touching_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("elsewhere");
    fs::write(&target, "precious\n").unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    symlink(&target, &path).unwrap();
    let err = AuditLog::open(&path).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert!(matches!(
        verify(&path).unwrap_err(),
        AuditError::Symlink { .. }
    ));
    assert_eq!(fs::read_to_string(&target).unwrap(), "precious\n");
}

#[test]
fn refuses_a_dangling_symlink_instead_of_creating_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("created-through-link");
    let path = dir.path().join("exec-audit.jsonl");
    symlink(&target, &path).unwrap();
    let err = AuditLog::open(&path).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert!(!target.exists());
}

#[test]
fn refuses_a_symlinked_lock_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lock-target");
    let path = dir.path().join("exec-audit.jsonl");
    symlink(&target, dir.path().join("exec-audit.jsonl.lock")).unwrap();
    let err = AuditLog::open(&path).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert!(!target.exists());
}

#[test]
fn refuses_a_symlinked_directory() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    fs::create_dir(&real).unwrap();
    let link = dir.path().join("link");
    symlink(&real, &link).unwrap();
    let err = AuditLog::open(&link.join("exec-audit.jsonl")).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert!(!real.join("exec-audit.jsonl").exists());
}

#[test]
fn refuses_a_directory_or_fifo_at_the_log_path() {
    let dir = tempfile::tempdir().unwrap();
    let as_dir = dir.path().join("is-a-dir");
    fs::create_dir(&as_dir).unwrap();
    assert!(AuditLog::open(&as_dir).is_err());

    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let err = AuditLog::open(&fifo).unwrap_err();
    assert!(matches!(err, AuditError::NotRegular { .. }), "{err}");
    let err = verify(&fifo).unwrap_err();
    assert!(matches!(err, AuditError::NotRegular { .. }), "{err}");
}

#[test]
fn a_log_rotated_by_hand_to_its_next_number_is_left_alone_and_the_chain_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    log.append(record("old-1")).unwrap();
    log.append(record("old-2")).unwrap();
    let rotated = dir.path().join("exec-audit.jsonl.1");
    fs::rename(&path, &rotated).unwrap();

    let entry = log.append(record("new-1")).unwrap();
    assert_eq!(entry.seq, 3);
    assert_eq!(verify(&rotated).unwrap().lines, 2);
    let report = verify(&path).unwrap();
    assert_eq!((report.lines, report.files), (3, 2));
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn a_log_moved_away_under_another_name_is_not_silently_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    log.append(record("old-1")).unwrap();
    log.append(record("old-2")).unwrap();
    fs::rename(&path, dir.path().join("exec-audit.jsonl-20261126")).unwrap();
    // Indistinguishable from someone hiding the log: the head file says 2.
    let err = log.append(record("new-1")).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::HeadAhead {
                head_seq: 2,
                last_seq: 0,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_log_replaced_by_a_symlink_is_refused_on_the_next_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = AuditLog::open(&path).unwrap();
    log.append(record("a")).unwrap();
    let target = dir.path().join("victim");
    fs::write(&target, "").unwrap();
    fs::remove_file(&path).unwrap();
    symlink(&target, &path).unwrap();
    let err = log.append(record("b")).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "");
}

#[test]
fn eight_writers_with_their_own_descriptors_keep_one_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = Arc::new(dir.path().join("exec-audit.jsonl"));
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let path = Arc::clone(&path);
            std::thread::spawn(move || {
                // Each thread opens its own log: its own fd and its own lock
                // description, as a second process would.
                let log = AuditLog::open(&path).unwrap();
                (0..50)
                    .map(|i| log.append(record(&format!("t{t}-{i}"))).unwrap().seq)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let seqs: Vec<u64> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let unique: BTreeSet<u64> = seqs.iter().copied().collect();
    assert_eq!(seqs.len(), 400);
    assert_eq!(unique, (1..=400).collect::<BTreeSet<u64>>());

    let report = verify(&path).unwrap();
    assert_eq!((report.lines, report.last_seq), (400, 400));
    let agents: BTreeSet<String> = read(&path, &Default::default())
        .unwrap()
        .into_iter()
        .map(|v| v["agentId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(agents.len(), 400, "no record lost or duplicated");
}

#[test]
fn one_shared_log_serialises_threads_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exec-audit.jsonl");
    let log = Arc::new(AuditLog::open(&path).unwrap());
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for i in 0..25 {
                    log.append(record(&format!("{t}-{i}"))).unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(verify(&path).unwrap().last_seq, 100);
}
