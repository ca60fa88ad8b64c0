//! Who may own the policy (issue 9, hole 7), end to end with the real
//! binaries and a real second UID (65534, `nobody`).
//!
//! Attacks: a state directory, a directory above it, or the approvals file
//! owned by another user; a state directory or file that group or others
//! may write; a state directory renamed away and replaced by one holding
//! `security: full` while the bridge runs; the node host's embedded exec
//! host reading a policy another user owns. Checks that a world-writable
//! sticky parent such as `/tmp` is still accepted when the directory in it
//! is ours. Giving a file to another UID needs root: as another user these
//! tests say so and pass without checking anything.

use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Client, ExecRequest, ExecResponse};
use approvals_tests::{Bridge, TestHome, output};
use serde_json::{Value, json};

/// The second UID that owns what the attacker controls.
const NOBODY: u32 = 65534;

/// How long a bridge that should refuse to start may take to exit.
const START_LIMIT: Duration = Duration::from_secs(20);

/// Whether we run as root: a file we just made is owned by our effective UID.
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::tempdir().expect("temp dir");
    std::fs::metadata(probe.path())
        .expect("stat temp dir")
        .uid()
        == 0
}

/// Skips the test (returning `true`) when we cannot chown to another UID.
fn skip_unless_root() -> bool {
    if is_root() {
        return false;
    }
    eprintln!("skipped: only root can give files to another uid");
    true
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A policy that runs nothing.
fn deny_all() -> Value {
    json!({
        "version": 1,
        "defaults": {"security": "deny", "ask": "off", "askFallback": "deny"}
    })
}

/// A policy that runs everything: what an attacker plants.
fn run_everything() -> Value {
    json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "off", "askFallback": "full"}
    })
}

/// Writes `policy` as the approvals file in `dir` (0700 dir, 0600 file).
fn write_policy(dir: &Path, policy: &Value) -> PathBuf {
    std::fs::create_dir_all(dir).expect("state dir");
    set_mode(dir, 0o700);
    let file = dir.join("exec-approvals.json");
    std::fs::write(&file, format!("{policy:#}\n")).expect("write approvals");
    set_mode(&file, 0o600);
    file
}

/// `ui-bridge serve` with the state directory `state` and the socket in a
/// directory of its own, so that only the approvals file's checks can
/// refuse (the socket's directory has checks of its own).
fn serve_command(home: &TestHome, state: &Path) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.env("CLAWDBOT_STATE_DIR", state)
        .args(["serve", "--approval-timeout-ms", "1500", "--socket"])
        .arg(home.path().join("run").join("bridge.sock"));
    cmd
}

/// Starts `ui-bridge serve` and expects it to refuse: returns its stderr
/// once it exits, and fails the test if it is still serving after
/// [`START_LIMIT`].
fn refused_at_start(mut cmd: Command) -> String {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ui-bridge");
    let deadline = Instant::now() + START_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for ui-bridge") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ui-bridge started and served instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use std::io::Read;
        let _ = pipe.read_to_string(&mut stderr);
    }
    assert!(!status.success(), "ui-bridge exited 0: {stderr}");
    stderr
}

/// Asserts that `stderr` names `path` and contains `fix`.
fn assert_names(stderr: &str, path: &Path, fix: &str) {
    assert!(
        stderr.contains(&format!("refusing to use {}:", path.display())),
        "the refusal names {}: {stderr}",
        path.display()
    );
    assert!(stderr.contains(fix), "the refusal says `{fix}`: {stderr}");
}

#[test]
fn a_state_directory_owned_by_another_uid_is_refused_at_start() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let state = home.path().join("state");
    let file = write_policy(&state, &run_everything());
    chown(&file, Some(NOBODY), None).expect("chown file");
    chown(&state, Some(NOBODY), None).expect("chown dir");
    let stderr = refused_at_start(serve_command(&home, &state));
    assert_names(&stderr, &state, "owned by uid 65534");
    assert!(
        stderr.contains(&format!("chown 0 {}", state.display())),
        "{stderr}"
    );
}

#[test]
fn a_parent_directory_owned_by_another_uid_is_refused_at_start() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let parent = home.path().join("theirs");
    let state = parent.join("state");
    write_policy(&state, &run_everything());
    set_mode(&parent, 0o755);
    chown(&parent, Some(NOBODY), None).expect("chown parent");
    let stderr = refused_at_start(serve_command(&home, &state));
    assert_names(&stderr, &parent, "owned by uid 65534");
}

#[test]
fn a_group_or_world_writable_state_directory_or_file_is_refused_with_the_chmod_fix() {
    let home = TestHome::new();
    let state = home.path().join("state");
    let file = write_policy(&state, &deny_all());
    for (path, mode) in [
        (&state, 0o770),
        (&state, 0o777),
        (&file, 0o620),
        (&file, 0o666),
    ] {
        set_mode(path, mode);
        let stderr = refused_at_start(serve_command(&home, &state));
        assert_names(&stderr, path, &format!("chmod go-w {}", path.display()));
        set_mode(path, if path == &state { 0o700 } else { 0o600 });
    }
}

#[test]
fn a_writable_parent_that_is_not_sticky_is_refused() {
    let home = TestHome::new();
    let parent = home.path().join("shared");
    let state = parent.join("state");
    write_policy(&state, &deny_all());
    set_mode(&parent, 0o777);
    let stderr = refused_at_start(serve_command(&home, &state));
    assert_names(
        &stderr,
        &parent,
        &format!("chmod go-w {}", parent.display()),
    );
}

#[test]
fn a_world_writable_sticky_parent_is_accepted_when_the_directory_in_it_is_ours() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let sticky = home.path().join("tmp");
    let state = sticky.join("state");
    write_policy(&state, &deny_all());
    set_mode(&sticky, 0o1777);
    // Another user may create entries in a sticky directory: one of theirs
    // is still refused.
    chown(&state, Some(NOBODY), None).expect("chown dir");
    let stderr = refused_at_start(serve_command(&home, &state));
    assert_names(&stderr, &state, "owned by uid 65534");
    // Ours is served.
    chown(&state, Some(0), None).expect("chown dir back");
    let socket = home.path().join("run").join("bridge.sock");
    let socket_arg = socket.to_string_lossy().into_owned();
    let bridge = Bridge::spawn(
        bridge_in(&home, &state),
        &home,
        &[
            "--socket",
            &socket_arg,
            "--approvals",
            &state.join("exec-approvals.json").to_string_lossy(),
        ],
    );
    assert!(bridge.socket.exists());
}

/// A `ui-bridge` command with the state directory set, for [`Bridge::spawn`]
/// (which adds `serve` itself).
fn bridge_in(home: &TestHome, state: &Path) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.env("CLAWDBOT_STATE_DIR", state);
    cmd
}

#[test]
fn an_approvals_file_owned_by_another_uid_is_refused_at_start() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let state = home.path().join("state");
    let file = write_policy(&state, &run_everything());
    chown(&file, Some(NOBODY), None).expect("chown file");
    let stderr = refused_at_start(serve_command(&home, &state));
    assert_names(&stderr, &file, "owned by uid 65534");
}

/// Sends `argv` to the bridge and returns the refusal, failing if it ran.
async fn refused(bridge: &Bridge, argv: &[&str]) -> String {
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect to the bridge");
    let request = ExecRequest {
        command: argv.iter().map(|a| (*a).to_owned()).collect(),
        ..ExecRequest::default()
    };
    match client.exec(&request).await.expect("a reply") {
        ExecResponse::Completed(payload) => panic!("ran: {payload:?}"),
        ExecResponse::Refused(error) => error.message,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_state_directory_swapped_while_the_bridge_runs_does_not_take_effect() {
    let home = TestHome::new();
    let state = home.state_dir();
    write_policy(&state, &deny_all());
    let socket = home.path().join("run").join("bridge.sock");
    let socket_arg = socket.to_string_lossy().into_owned();
    let bridge = Bridge::start(&home, &["--socket", &socket_arg]);
    let marker = home.path().join("pwned");
    let touch = ["/usr/bin/touch", marker.to_str().expect("utf-8 temp path")];
    let before = refused(&bridge, &touch).await;
    assert!(before.starts_with("SYSTEM_RUN_DISABLED"), "{before}");

    // The swap: the policy's directory goes away and one that runs
    // everything takes its place.
    std::fs::rename(&state, home.path().join("state.old")).expect("rename away");
    write_policy(&state, &run_everything());
    let after = refused(&bridge, &touch).await;
    assert!(!marker.exists(), "the planted policy ran the command");
    assert!(
        after.contains("was moved or replaced") && after.contains("restart"),
        "{after}"
    );

    // Moving the real one back is not enough to trust the new one either:
    // the bridge still serves only from the directory it holds.
    std::fs::rename(&state, home.path().join("state.planted")).expect("rename planted");
    std::fs::rename(home.path().join("state.old"), &state).expect("rename back");
    let back = refused(&bridge, &touch).await;
    assert!(back.starts_with("SYSTEM_RUN_DISABLED"), "{back}");
    assert!(!marker.exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_given_to_another_uid_while_the_bridge_runs_is_refused_at_the_next_load() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let state = home.state_dir();
    write_policy(&state, &deny_all());
    let bridge = Bridge::start(&home, &[]);
    let marker = home.path().join("pwned");
    let touch = ["/usr/bin/touch", marker.to_str().expect("utf-8 temp path")];
    // Someone else's file, with a policy that runs everything, at the path.
    let mut planted = run_everything();
    planted["socket"] = json!({"token": bridge.token});
    let temp = state.join("planted.json");
    std::fs::write(&temp, format!("{planted:#}\n")).expect("write planted");
    chown(&temp, Some(NOBODY), None).expect("chown planted");
    std::fs::rename(&temp, home.approvals()).expect("plant");
    let refusal = refused(&bridge, &touch).await;
    assert!(!marker.exists(), "the planted policy ran the command");
    assert!(refusal.contains("owned by uid 65534"), "{refusal}");
}

#[test]
fn the_node_hosts_embedded_exec_host_refuses_a_policy_another_uid_owns() {
    if skip_unless_root() {
        return;
    }
    let home = TestHome::new();
    let state = home.path().join("state");
    let file = write_policy(&state, &run_everything());
    chown(&file, Some(NOBODY), None).expect("chown file");
    let marker = home.path().join("pwned");
    let out = output(
        home.command("node-host")
            .env("CLAWDBOT_STATE_DIR", &state)
            .args(["run", "--exec-host", "local", "--", "/usr/bin/touch"])
            .arg(&marker),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!marker.exists(), "the command ran: {stderr}");
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("refusing to use {}", file.display())),
        "{stderr}"
    );
}
