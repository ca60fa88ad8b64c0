//! The approvals store against a real filesystem: creation, modes, locks,
//! refusals and concurrent writers (DESIGN.md invariants 6, 7 and 9).

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use approvals_ipc::approvals::{
    ApprovalsError, ApprovalsFile, ApprovalsStore, Ask, Security, WarningKind, sha256_hex,
};
use serde_json::{Value, json};

const EMPTY_HASH: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const MALFORMED: &str = "{\n  \"version\": 1,\n  \"agents\": {\"main\": [}\n}\n";

struct Env {
    _dir: tempfile::TempDir,
    state: PathBuf,
    path: PathBuf,
}

/// A temp dir with a not-yet-existing state dir inside it.
fn env() -> Env {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let path = state.join("exec-approvals.json");
    Env {
        _dir: dir,
        state,
        path,
    }
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

fn write_file(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn json_on_disk(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

#[test]
fn missing_file_loads_as_empty_with_the_hash_of_nothing_and_creates_nothing() {
    let env = env();
    let snapshot = ApprovalsStore::open(&env.path).load().unwrap();
    assert!(!snapshot.exists);
    assert_eq!(snapshot.hash, EMPTY_HASH);
    assert_eq!(snapshot.file, ApprovalsFile::default());
    assert_eq!(snapshot.warnings, vec![]);
    assert!(!env.state.exists());
    assert_eq!(snapshot.file.resolve(None).security, Security::Deny);
}

#[test]
fn ensure_creates_a_private_file_that_asks_before_anything_runs() {
    let env = env();
    let snapshot = ApprovalsStore::open(&env.path).ensure().unwrap();
    assert!(snapshot.exists);
    assert_eq!(mode(&env.state), 0o700);
    assert_eq!(mode(&env.path), 0o600);
    let bytes = fs::read(&env.path).unwrap();
    assert_eq!(snapshot.hash, sha256_hex(&bytes));
    assert!(bytes.ends_with(b"}\n"));
    assert!(String::from_utf8_lossy(&bytes).contains("\n  \"defaults\": {\n    \"security\""));

    let on_disk = json_on_disk(&env.path);
    let token = on_disk["socket"]["token"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    let expected = json!({
        "version": 1,
        "socket": {
            "path": env.state.join("exec-approvals.sock").to_str().unwrap(),
            "token": token,
        },
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {},
    });
    assert_eq!(on_disk, expected);

    let policy = snapshot.file.resolve(None);
    assert_eq!(
        (policy.security, policy.ask, policy.ask_fallback),
        (Security::Allowlist, Ask::OnMiss, Security::Deny)
    );
    assert_eq!(
        policy.safe_bins,
        ["cut", "head", "tail", "tr", "uniq", "wc"]
    );
}

#[test]
fn ensure_twice_does_not_rewrite_the_file() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let first = store.ensure().unwrap();
    let inode = fs::metadata(&env.path).unwrap().ino();
    let second = store.ensure().unwrap();
    assert_eq!(first, second);
    assert_eq!(fs::metadata(&env.path).unwrap().ino(), inode, "rewritten");
}

#[test]
fn ensure_fills_a_missing_token_and_keeps_everything_else() {
    let env = env();
    write_file(
        &env.path,
        r#"{"version": 1, "mine": {"keep": true}, "socket": {"path": "/run/s.sock"},
            "agents": {"main": {"security": "full", "allowlist": [{"id": "x", "pattern": "/bin/ls", "note": 1}]}}}"#,
    );
    ApprovalsStore::open(&env.path).ensure().unwrap();
    let on_disk = json_on_disk(&env.path);
    assert_eq!(on_disk["mine"], json!({"keep": true}));
    assert_eq!(on_disk["socket"]["path"], json!("/run/s.sock"));
    assert_eq!(on_disk["socket"]["token"].as_str().unwrap().len(), 32);
    assert_eq!(
        on_disk["agents"]["main"],
        json!({"security": "full", "allowlist": [{"id": "x", "pattern": "/bin/ls", "note": 1}]})
    );
    assert!(
        on_disk.get("defaults").is_none(),
        "an existing file keeps built-in deny"
    );
}

#[test]
fn an_existing_directory_is_tightened_to_0700_and_files_written_0600() {
    let env = env();
    write_file(&env.path, r#"{"version": 1}"#);
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&env.path, fs::Permissions::from_mode(0o644)).unwrap();
    ApprovalsStore::open(&env.path).ensure().unwrap();
    assert_eq!(mode(&env.state), 0o700);
    assert_eq!(
        mode(&env.path),
        0o600,
        "the old file's mode is not inherited"
    );
    assert_eq!(mode(&env.state.join("exec-approvals.json.lock")), 0o600);
}

#[test]
fn a_malformed_file_is_reported_with_line_and_column_and_never_overwritten() {
    let env = env();
    write_file(&env.path, MALFORMED);
    let store = ApprovalsStore::open(&env.path);

    let err = store.load().unwrap_err();
    assert!(
        matches!(err, ApprovalsError::Syntax { line: 3, column: 23, ref path, .. } if *path == env.path),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "cannot parse {} at line 3, column 23: ",
            env.path.display()
        )),
        "{err}"
    );

    assert!(matches!(store.ensure(), Err(ApprovalsError::Syntax { .. })));
    let mut called = false;
    let result = store.update(|_| {
        called = true;
        Ok(())
    });
    assert!(matches!(result, Err(ApprovalsError::Syntax { .. })));
    assert!(!called, "the edit must not run on a malformed file");
    let replaced = store.replace(ApprovalsFile::default(), &sha256_hex(MALFORMED.as_bytes()));
    assert!(matches!(replaced, Err(ApprovalsError::Syntax { .. })));
    assert_eq!(fs::read_to_string(&env.path).unwrap(), MALFORMED);
}

#[test]
fn a_file_with_the_wrong_shape_is_never_overwritten() {
    let env = env();
    let text = "{\"version\": 1,\n \"agents\": [\"main\"]}";
    write_file(&env.path, text);
    let store = ApprovalsStore::open(&env.path);
    let err = store.ensure().unwrap_err();
    assert!(
        matches!(err, ApprovalsError::Shape { line: 2, ref field, .. } if field == "agents"),
        "{err:?}"
    );
    assert!(
        store
            .update(|f| Ok(f.add_allowlist_entry("main", "/bin/ls", None)))
            .is_err()
    );
    assert_eq!(fs::read_to_string(&env.path).unwrap(), text);
}

#[test]
fn a_symlinked_file_is_refused_for_reads_and_writes() {
    let env = env();
    let target = env._dir.path().join("elsewhere.json");
    write_file(&target, r#"{"version": 1}"#);
    fs::create_dir_all(&env.state).unwrap();
    symlink(&target, &env.path).unwrap();
    let store = ApprovalsStore::open(&env.path);
    assert!(matches!(store.load(), Err(ApprovalsError::Symlink { ref path }) if *path == env.path));
    assert!(matches!(
        store.ensure(),
        Err(ApprovalsError::Symlink { .. })
    ));
    assert!(matches!(
        store.update(|_| Ok(())),
        Err(ApprovalsError::Symlink { .. })
    ));
    assert!(matches!(
        store.replace(ApprovalsFile::default(), EMPTY_HASH),
        Err(ApprovalsError::Symlink { .. })
    ));
    assert_eq!(fs::read_to_string(&target).unwrap(), r#"{"version": 1}"#);
    assert!(
        fs::symlink_metadata(&env.path)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_symlinked_directory_is_refused() {
    let env = env();
    let real = env._dir.path().join("real");
    fs::create_dir(&real).unwrap();
    symlink(&real, &env.state).unwrap();
    let store = ApprovalsStore::open(&env.path);
    assert!(
        matches!(store.load(), Err(ApprovalsError::Symlink { ref path }) if *path == env.state)
    );
    assert!(matches!(
        store.ensure(),
        Err(ApprovalsError::Symlink { .. })
    ));
    assert_eq!(
        fs::read_dir(&real).unwrap().count(),
        0,
        "nothing written through the link"
    );
}

#[test]
fn a_symlinked_lock_file_is_refused() {
    let env = env();
    fs::create_dir_all(&env.state).unwrap();
    let target = env._dir.path().join("victim");
    symlink(&target, env.state.join("exec-approvals.json.lock")).unwrap();
    let err = ApprovalsStore::open(&env.path).ensure().unwrap_err();
    assert!(matches!(err, ApprovalsError::Symlink { .. }), "{err:?}");
    assert!(!target.exists());
}

#[test]
fn a_directory_at_the_file_path_is_refused() {
    let env = env();
    fs::create_dir_all(&env.path).unwrap();
    let err = ApprovalsStore::open(&env.path).load().unwrap_err();
    assert!(matches!(err, ApprovalsError::NotA { .. }), "{err:?}");
}

#[test]
fn update_edits_the_freshest_file_and_writes_nothing_when_the_edit_fails() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    store.ensure().unwrap();
    // Another writer changes the file behind this store's back.
    ApprovalsStore::open(&env.path)
        .update(|f| Ok(f.add_allowlist_entry("main", "/usr/bin/git", None)))
        .unwrap();
    let added = store
        .update(|f| Ok(f.add_allowlist_entry("main", "/bin/ls", Some("allow-always"))))
        .unwrap();
    assert!(added);
    let patterns = |file: &ApprovalsFile| -> Vec<String> {
        file.agents["main"]
            .allowlist
            .iter()
            .map(|e| e.pattern.clone())
            .collect()
    };
    assert_eq!(
        patterns(&store.load().unwrap().file),
        ["/usr/bin/git", "/bin/ls"]
    );

    let before = fs::read(&env.path).unwrap();
    let err = store.update(|f| -> Result<(), ApprovalsError> {
        f.agents.clear();
        Err(ApprovalsError::NoHomeDirectory)
    });
    assert!(err.is_err());
    assert_eq!(fs::read(&env.path).unwrap(), before);
}

#[test]
fn update_of_a_missing_file_starts_from_the_created_defaults() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    store
        .update(|f| Ok(f.add_allowlist_entry("main", "/usr/bin/git", None)))
        .unwrap();
    let snapshot = store.load().unwrap();
    assert_eq!(snapshot.file.resolve(None).security, Security::Allowlist);
    assert!(snapshot.file.socket.unwrap().token.is_some());
    assert_eq!(mode(&env.path), 0o600);
}

#[test]
fn record_use_is_persisted_through_update() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    store
        .update(|f| Ok(f.add_allowlist_entry("*", "/usr/bin/git", None)))
        .unwrap();
    store
        .update(|f| {
            Ok(f.record_use(
                "main",
                "/usr/bin/git",
                "git status",
                Some("/usr/bin/git"),
                1737150000000,
            ))
        })
        .unwrap();
    let on_disk = json_on_disk(&env.path);
    let entry = &on_disk["agents"]["*"]["allowlist"][0];
    assert_eq!(entry["lastUsedAt"], json!(1737150000000u64));
    assert_eq!(entry["lastUsedCommand"], json!("git status"));
    assert_eq!(entry["lastResolvedPath"], json!("/usr/bin/git"));
}

#[test]
fn replace_refuses_a_stale_base_hash_and_leaves_the_file_alone() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let snapshot = store.ensure().unwrap();
    store
        .update(|f| Ok(f.add_allowlist_entry("main", "/bin/ls", None)))
        .unwrap();
    let before = fs::read(&env.path).unwrap();
    let err = store
        .replace(ApprovalsFile::default(), &snapshot.hash)
        .unwrap_err();
    assert!(
        matches!(err, ApprovalsError::Conflict { ref expected, ref found, .. }
            if *expected == snapshot.hash && *found == sha256_hex(&before)),
        "{err:?}"
    );
    assert_eq!(fs::read(&env.path).unwrap(), before);
}

#[test]
fn replace_keeps_the_current_socket_path_and_token() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let current = store.ensure().unwrap();
    let old_socket = current.file.socket.clone().unwrap();

    let edited = json!({"version": 1,
        "socket": {"path": "/tmp/evil.sock", "token": "attacker-chosen"},
        "defaults": {"security": "full", "ask": "sometimes"},
        "agents": {"main": {"allowlist": ["/bin/ls"]}}});
    let incoming = ApprovalsFile::from_value(&edited, &env.path).unwrap();
    assert_eq!(incoming.warnings.len(), 1);
    let snapshot = store.replace(incoming.file, &current.hash).unwrap();

    let socket = snapshot.file.socket.clone().unwrap();
    assert_eq!(socket.path, old_socket.path);
    assert_eq!(
        socket.token.as_ref().map(|t| t.expose_secret()),
        old_socket.token.as_ref().map(|t| t.expose_secret())
    );
    assert_eq!(snapshot.hash, sha256_hex(&fs::read(&env.path).unwrap()));
    assert_eq!(store.load().unwrap().file, snapshot.file);
    assert_eq!(snapshot.file.resolve(None).security, Security::Full);
    assert_eq!(mode(&env.path), 0o600);
}

#[test]
fn replace_of_a_missing_file_needs_the_hash_of_nothing() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let wrong = store.replace(ApprovalsFile::default(), &sha256_hex(b"x"));
    assert!(matches!(wrong, Err(ApprovalsError::Conflict { .. })));
    assert!(!env.path.exists());
    let snapshot = store
        .replace(ApprovalsFile::default(), &EMPTY_HASH.to_uppercase())
        .unwrap();
    assert!(
        snapshot.file.socket.unwrap().token.is_some(),
        "a token is created"
    );
}

#[test]
fn replace_never_writes_a_file_it_would_refuse_to_load() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let current = store.ensure().unwrap();
    let before = fs::read(&env.path).unwrap();
    let mut bad = ApprovalsFile {
        version: 2,
        ..ApprovalsFile::default()
    };
    assert!(matches!(
        store.replace(bad.clone(), &current.hash),
        Err(ApprovalsError::UnsupportedVersion { .. })
    ));
    bad.version = 1;
    bad.defaults = Some(approvals_ipc::approvals::PolicyLayer {
        denylist: Some(vec![approvals_ipc::approvals::DenylistEntry {
            pattern: Some("/usr/bin/[x".into()),
            ..Default::default()
        }]),
        ..Default::default()
    });
    assert!(matches!(
        store.replace(bad, &current.hash),
        Err(ApprovalsError::InvalidDenylistEntry { .. })
    ));
    assert_eq!(fs::read(&env.path).unwrap(), before);
}

#[test]
fn redacted_snapshot_has_no_token_anywhere() {
    let env = env();
    let snapshot = ApprovalsStore::open(&env.path).ensure().unwrap();
    let token = snapshot
        .file
        .socket
        .as_ref()
        .and_then(|s| s.token.as_ref())
        .unwrap()
        .expose_secret()
        .to_owned();
    let redacted = snapshot.redacted();
    let text = serde_json::to_string(&redacted.file).unwrap();
    assert!(!text.contains(&token));
    assert!(!format!("{snapshot:?}").contains(&token));
    assert_eq!(redacted.hash, snapshot.hash);
}

#[test]
fn a_leftover_temp_file_from_a_crashed_write_does_not_affect_load() {
    let env = env();
    let store = ApprovalsStore::open(&env.path);
    let snapshot = store.ensure().unwrap();
    let leftover = env.state.join(".exec-approvals.json.Ab12Cd");
    fs::write(
        &leftover,
        "{\"version\": 1, \"defaults\": {\"security\": \"fu",
    )
    .unwrap();
    assert_eq!(store.load().unwrap(), snapshot);
    store
        .update(|f| Ok(f.add_allowlist_entry("main", "/bin/ls", None)))
        .unwrap();
    assert_eq!(store.load().unwrap().file.agents["main"].allowlist.len(), 1);
}

#[test]
fn warnings_are_reported_by_load_and_the_rest_applies() {
    let env = env();
    write_file(
        &env.path,
        r#"{"version": 1, "defaults": {"security": "yolo", "ask": "always"}}"#,
    );
    let snapshot = ApprovalsStore::open(&env.path).load().unwrap();
    assert_eq!(snapshot.warnings.len(), 1);
    assert_eq!(snapshot.warnings[0].field, "defaults.security");
    assert!(matches!(
        snapshot.warnings[0].kind,
        WarningKind::InvalidValue { .. }
    ));
    let policy = snapshot.file.resolve(None);
    assert_eq!((policy.security, policy.ask), (Security::Deny, Ask::Always));
}

#[test]
fn concurrent_writers_through_separate_stores_lose_no_entry() {
    const THREADS: usize = 8;
    const PER_THREAD: usize = 50;
    let env = env();
    ApprovalsStore::open(&env.path).ensure().unwrap();
    let path = Arc::new(env.path.clone());
    let handles: Vec<_> = (0..THREADS)
        .map(|thread| {
            let path = Arc::clone(&path);
            std::thread::spawn(move || {
                for i in 0..PER_THREAD {
                    let store = ApprovalsStore::open(path.as_path());
                    let pattern = format!("/opt/t{thread}/bin{i}");
                    let added = store
                        .update(|f| Ok(f.add_allowlist_entry("main", &pattern, None)))
                        .unwrap();
                    assert!(added);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let snapshot = ApprovalsStore::open(&env.path).load().unwrap();
    let mut patterns: Vec<String> = snapshot.file.agents["main"]
        .allowlist
        .iter()
        .map(|e| e.pattern.clone())
        .collect();
    patterns.sort();
    let mut expected: Vec<String> = (0..THREADS)
        .flat_map(|t| (0..PER_THREAD).map(move |i| format!("/opt/t{t}/bin{i}")))
        .collect();
    expected.sort();
    assert_eq!(patterns, expected);
}

#[test]
fn the_example_file_loads_with_zero_warnings() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../exec-approvals.json.example");
    let bytes = fs::read(&path).unwrap();
    let loaded = ApprovalsFile::parse(&bytes, &path).unwrap();
    assert_eq!(loaded.warnings, vec![]);
    let policy = loaded.file.resolve(None);
    assert_eq!(policy.security, Security::Allowlist);
    assert!(!policy.allowlist.is_empty());
}

// Issue 9, hole 7: who owns the policy.

/// Whether we run as root: a file we just made is owned by our effective UID.
fn is_root() -> bool {
    let probe = tempfile::tempdir().unwrap();
    fs::metadata(probe.path()).unwrap().uid() == 0
}

const NOBODY: u32 = 65534;

#[test]
fn a_pinned_store_refuses_every_operation_once_its_directory_is_swapped_regression_issue_9_hole_7()
{
    let env = env();
    let store = ApprovalsStore::pinned(&env.path);
    store.ensure().unwrap();
    let stamp = store.stamp().unwrap();
    assert!(stamp.is_some());
    assert_eq!(store.stamp().unwrap(), stamp, "nothing changed");
    fs::rename(&env.state, env._dir.path().join("moved")).unwrap();
    fs::create_dir(&env.state).unwrap();
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o700)).unwrap();
    write_file(
        &env.path,
        r#"{"version": 1, "defaults": {"security": "full"}}"#,
    );
    let replaced = |err: ApprovalsError| matches!(&err, ApprovalsError::Replaced { path } if *path == env.state);
    assert!(replaced(store.stamp().unwrap_err()));
    assert!(replaced(store.load().unwrap_err()));
    assert!(replaced(store.ensure().unwrap_err()));
    assert!(replaced(store.clone().update(|_| Ok(())).unwrap_err()));
    // The directory vanishing altogether is refused the same way.
    fs::remove_dir_all(&env.state).unwrap();
    assert!(replaced(store.load().unwrap_err()));
    assert!(replaced(store.stamp().unwrap_err()));
    // An unpinned store just reads what is there now.
    assert!(!ApprovalsStore::open(&env.path).load().unwrap().exists);
}

#[test]
fn a_pinned_store_writes_into_the_directory_it_holds() {
    let env = env();
    let store = ApprovalsStore::pinned(&env.path);
    // Nothing to hold yet: a missing directory is an empty policy.
    assert_eq!(store.stamp().unwrap(), None);
    assert!(!store.load().unwrap().exists);
    store.ensure().unwrap();
    store
        .update(|f| Ok(f.add_allowlist_entry("main", "/usr/bin/git", None)))
        .unwrap();
    let names: Vec<_> = fs::read_dir(&env.state)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, ["exec-approvals.json", "exec-approvals.json.lock"]);
    assert_eq!(mode(&env.path), 0o600);
    assert_eq!(mode(&env.state.join("exec-approvals.json.lock")), 0o600);
    assert!(store.load().unwrap().file.agents["main"].allowlist.len() == 1);
}

#[test]
fn a_file_or_lock_file_writable_by_group_or_others_is_refused() {
    let env = env();
    ApprovalsStore::open(&env.path).ensure().unwrap();
    for (path, bad) in [
        (env.path.clone(), 0o660),
        (env.path.clone(), 0o602),
        (env.state.join("exec-approvals.json.lock"), 0o666),
    ] {
        fs::set_permissions(&path, fs::Permissions::from_mode(bad)).unwrap();
        let err = ApprovalsStore::open(&env.path).ensure().unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::WritableByOthers { path: p, mode } if *p == path && *mode == bad),
            "{bad:o}: {err:?}"
        );
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    }
    // Read-only for others is fine.
    fs::set_permissions(&env.path, fs::Permissions::from_mode(0o644)).unwrap();
    ApprovalsStore::open(&env.path).load().unwrap();
}

#[test]
fn a_group_writable_state_directory_is_refused_not_tightened() {
    let env = env();
    ApprovalsStore::open(&env.path).ensure().unwrap();
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o770)).unwrap();
    let err = ApprovalsStore::open(&env.path).ensure().unwrap_err();
    assert!(
        matches!(&err, ApprovalsError::WritableByOthers { path, mode: 0o770 } if *path == env.state),
        "{err:?}"
    );
    assert_eq!(mode(&env.state), 0o770, "a refusal changes nothing");
    let err = ApprovalsStore::open(&env.path).load().unwrap_err();
    assert!(
        matches!(err, ApprovalsError::WritableByOthers { .. }),
        "{err:?}"
    );
}

#[test]
fn files_owned_by_another_uid_are_refused_and_the_message_names_the_fix() {
    if !is_root() {
        eprintln!("skipped: only root can give files to another uid");
        return;
    }
    let env = env();
    ApprovalsStore::open(&env.path).ensure().unwrap();
    let lock = env.state.join("exec-approvals.json.lock");
    for path in [&env.path, &lock, &env.state] {
        std::os::unix::fs::chown(path, Some(NOBODY), None).unwrap();
        let err = ApprovalsStore::open(&env.path).ensure().unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotOwned { path: p, owner: NOBODY, expected: 0 } if p == path),
            "{}: {err:?}",
            path.display()
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("hint: chown 0 {}", path.display())),
            "{text}"
        );
        std::os::unix::fs::chown(path, Some(0), None).unwrap();
    }
    // A root-owned directory is trusted, and kept as it is.
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o755)).unwrap();
    ApprovalsStore::open(&env.path).load().unwrap();
}

#[test]
fn writing_a_directory_of_ours_tightens_it_to_0700() {
    let env = env();
    fs::create_dir(&env.state).unwrap();
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o755)).unwrap();
    ApprovalsStore::open(&env.path).load().unwrap();
    assert_eq!(mode(&env.state), 0o755, "reading changes nothing");
    ApprovalsStore::open(&env.path).ensure().unwrap();
    assert_eq!(mode(&env.state), 0o700);
}

#[test]
fn a_fifo_at_the_file_or_lock_path_is_refused_without_blocking() {
    let env = env();
    fs::create_dir_all(&env.state).unwrap();
    for name in ["exec-approvals.json", "exec-approvals.json.lock"] {
        let fifo = env.state.join(name);
        // The first round's `ensure` made a lock file.
        let _ = fs::remove_file(&fifo);
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let err = ApprovalsStore::open(&env.path).ensure().unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotA { path, expected: "regular file" } if *path == fifo),
            "{name}: {err:?}"
        );
        fs::remove_file(&fifo).unwrap();
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused_with_its_size_and_one_at_the_limit_is_read() {
    use approvals_ipc::approvals::MAX_FILE_BYTES;
    let env = env();
    fs::create_dir_all(&env.state).unwrap();
    let file = fs::File::create(&env.path).unwrap();
    file.set_len(MAX_FILE_BYTES + 100).unwrap();
    let err = ApprovalsStore::open(&env.path).load().unwrap_err();
    assert!(
        matches!(err, ApprovalsError::TooLarge { size, limit: MAX_FILE_BYTES, .. } if size == MAX_FILE_BYTES + 100),
        "{err:?}"
    );
    file.set_len(MAX_FILE_BYTES).unwrap();
    let err = ApprovalsStore::open(&env.path).load().unwrap_err();
    assert!(matches!(err, ApprovalsError::Syntax { .. }), "{err:?}");
}
