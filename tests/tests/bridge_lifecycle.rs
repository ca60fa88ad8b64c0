//! `ui-bridge serve` end to end, its life: start, refuse to start, stop.
//!
//! Attacks DESIGN.md sections 4 and 5 at startup and shutdown: the socket
//! lives in a private directory with mode 0600; a live socket means another
//! bridge and a refusal to start; a stale one is replaced; a symbolic link
//! or a foreign file at the socket path is never followed or removed; a
//! malformed approvals file stops the start and is never overwritten
//! (invariant 6); SIGTERM cancels requests in flight, kills their
//! processes, removes the socket and exits 0.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Client, ClientError, ExecRequest, ExecResponse};
use approvals_tests::status::FILE_ERROR;
use approvals_tests::{Bridge, TestHome, output, unique};
use serde_json::json;

fn full(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "off", "askFallback": "deny"}
    }));
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .expect("stat")
        .permissions()
        .mode()
        & 0o7777
}

/// Runs `ui-bridge serve` expecting it to refuse to start; returns its stderr.
fn refused_start(home: &TestHome, args: &[&str]) -> String {
    let mut cmd = home.command("ui-bridge");
    cmd.arg("serve").args(args);
    let out = output(&mut cmd);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(FILE_ERROR), "{stderr}");
    stderr
}

#[tokio::test(flavor = "multi_thread")]
async fn first_start_creates_a_private_socket_and_a_safe_policy() {
    let home = TestHome::new();
    let socket_dir = home.path().join(format!("run-{}", unique()));
    let socket = socket_dir.join("bridge.sock");
    let socket_arg = socket.to_string_lossy().into_owned();
    let bridge = Bridge::start(&home, &["--socket", &socket_arg]);
    assert_eq!(mode(&socket_dir), 0o700);
    assert_eq!(mode(&socket), 0o600);
    assert!(
        std::fs::symlink_metadata(&socket)
            .expect("stat")
            .file_type()
            .is_socket()
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(home.approvals()).expect("created"))
            .expect("json");
    assert_eq!(
        file["defaults"],
        json!({"security": "allowlist", "ask": "on-miss", "askFallback": "deny"})
    );
    assert!(
        !bridge.log_text().contains(&bridge.token),
        "the token was logged"
    );

    // Nothing is allowlisted yet and nobody answers: refused.
    let mut client = Client::connect(&socket, bridge.token.clone())
        .await
        .expect("connect");
    let request = ExecRequest {
        command: vec!["/usr/bin/true".into()],
        ..ExecRequest::default()
    };
    let reply = client.exec(&request).await.expect("reply");
    assert!(
        matches!(&reply, ExecResponse::Refused(e) if e.reason.as_deref() == Some("approval-required")),
        "{reply:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_cancels_requests_in_flight_removes_the_socket_and_exits_zero() {
    let home = TestHome::new();
    full(&home);
    let mut bridge = Bridge::start(&home, &[]);
    let marker = format!("33.{}", unique().replace('-', ""));
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect");
    let request = ExecRequest {
        command: vec![
            "/bin/sh".into(),
            "-c".into(),
            format!("sleep {marker} & sleep {marker}"),
        ],
        ..ExecRequest::default()
    };
    let pending = tokio::spawn(async move { client.exec(&request).await });
    wait_for_sleep(&marker, true).await;
    let begun = Instant::now();
    bridge.signal("-TERM");
    let status = bridge.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(0), "{}", bridge.log_text());
    assert!(begun.elapsed() < Duration::from_secs(8));
    assert!(!bridge.socket.exists(), "the socket file must be removed");
    match pending.await.expect("client task") {
        Ok(ExecResponse::Refused(error)) => {
            assert!(error.message.contains("shutting down"), "{error:?}")
        }
        Err(ClientError::Closed { .. }) => {}
        other => panic!("the in-flight request must be refused or closed: {other:?}"),
    }
    wait_for_sleep(&marker, false).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_bridge_on_a_live_socket_refuses_to_start() {
    let home = TestHome::new();
    full(&home);
    let bridge = Bridge::start(&home, &[]);
    let stderr = refused_start(&home, &[]);
    assert!(
        stderr.contains(&format!(
            "another ui-bridge is already serving {}",
            bridge.socket.display()
        )),
        "{stderr}"
    );
    // The first one still serves.
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("the first bridge still serves");
    let request = ExecRequest {
        command: vec!["/usr/bin/true".into()],
        ..ExecRequest::default()
    };
    assert!(matches!(
        client.exec(&request).await,
        Ok(ExecResponse::Completed(_))
    ));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stale_socket_is_replaced() {
    let home = TestHome::new();
    full(&home);
    let socket = home.state_dir().join("exec-approvals.sock");
    drop(std::os::unix::net::UnixListener::bind(&socket).expect("bind a socket to leave behind"));
    assert!(socket.exists());
    let bridge = Bridge::start(&home, &[]);
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect to the new bridge");
    let request = ExecRequest {
        command: vec!["/usr/bin/true".into()],
        ..ExecRequest::default()
    };
    assert!(matches!(
        client.exec(&request).await,
        Ok(ExecResponse::Completed(_))
    ));
}

#[test]
fn unsafe_socket_paths_and_a_malformed_file_refuse_to_start() {
    let home = TestHome::new();
    full(&home);
    let elsewhere = home.path().join("elsewhere.sock");
    let link = home.state_dir().join("link.sock");
    std::os::unix::fs::symlink(&elsewhere, &link).expect("symlink");
    let stderr = refused_start(&home, &["--socket", &link.to_string_lossy()]);
    assert!(stderr.contains("is a symbolic link"), "{stderr}");

    let plain = home.state_dir().join("plain-file");
    std::fs::write(&plain, "keep me").expect("write");
    let stderr = refused_start(&home, &["--socket", &plain.to_string_lossy()]);
    assert!(stderr.contains("is not a socket"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&plain).expect("kept"), "keep me");

    let open_dir = home.path().join("open");
    std::fs::create_dir(&open_dir).expect("mkdir");
    std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let stderr = refused_start(
        &home,
        &["--socket", &open_dir.join("s.sock").to_string_lossy()],
    );
    assert!(stderr.contains("has mode 0755"), "{stderr}");

    let dir_link = home.path().join("dir-link");
    std::os::unix::fs::symlink(home.state_dir(), &dir_link).expect("symlink");
    let stderr = refused_start(
        &home,
        &["--socket", &dir_link.join("s.sock").to_string_lossy()],
    );
    assert!(stderr.contains("symbolic link"), "{stderr}");

    let broken = "{\"version\": 1,\n  \"defaults\": [\n";
    std::fs::write(home.approvals(), broken).expect("break the file");
    let stderr = refused_start(&home, &[]);
    assert!(
        stderr.contains(&home.approvals().display().to_string()),
        "the error must name the file: {stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(home.approvals()).expect("kept"),
        broken
    );
}

#[test]
fn sighup_is_a_clean_shutdown_that_removes_the_socket() {
    let home = TestHome::new();
    full(&home);
    let mut bridge = Bridge::start(&home, &[]);
    assert!(bridge.socket.exists());
    bridge.signal("-HUP");
    let status = bridge.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(0), "{}", bridge.log_text());
    assert!(
        !bridge.socket.exists(),
        "SIGHUP left the socket file behind"
    );
    assert!(
        bridge.log_text().contains("SIGHUP"),
        "{}",
        bridge.log_text()
    );
}

#[test]
fn socket_creates_only_its_own_directory_under_a_parent_we_own() {
    let home = TestHome::new();
    full(&home);
    // Two missing levels: refused, and nothing is created.
    let missing = home.path().join(format!("missing-{}", unique()));
    let deep = missing.join("sub").join("s.sock");
    let stderr = refused_start(&home, &["--socket", &deep.to_string_lossy()]);
    assert!(
        stderr.contains("does not exist, and neither does"),
        "{stderr}"
    );
    assert!(stderr.contains(&missing.display().to_string()), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(!missing.exists(), "a directory was created anyway");
    // At the root of the file system too (as root the parent `/` is ours,
    // so the grandparent is what is missing).
    let at_root = format!("/h2-missing-{}/sub/s.sock", unique());
    let stderr = refused_start(&home, &["--socket", &at_root]);
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!Path::new(&at_root).parent().expect("parent").exists());

    // A parent we do not own: refused (as root every directory is ours).
    if !nix_is_root() {
        let stderr = refused_start(&home, &["--socket", "/h2-not-ours/s.sock"]);
        assert!(stderr.contains("belongs to uid 0"), "{stderr}");
        assert!(!Path::new("/h2-not-ours").exists());
    }
}

/// Whether the tests run as root (CI does).
fn nix_is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| {
            use std::os::unix::fs::MetadataExt;
            m.uid() == 0
        })
        .unwrap_or(false)
}

#[test]
fn help_teaches_serve() {
    let home = TestHome::new();
    let top = output(home.command("ui-bridge").arg("--help"));
    assert!(String::from_utf8_lossy(&top.stdout).contains("serve"));
    let serve = output(home.command("ui-bridge").args(["serve", "--help"]));
    let text = String::from_utf8_lossy(&serve.stdout);
    for flag in [
        "--approvals",
        "--socket",
        "--approval-timeout-ms",
        "SIGTERM",
        "SIGHUP",
    ] {
        assert!(text.contains(flag), "serve --help lacks {flag}: {text}");
    }
}

async fn wait_for_sleep(marker: &str, alive: bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .any(|c| {
                String::from_utf8_lossy(&c)
                    .replace('\0', " ")
                    .starts_with(&format!("sleep {marker}"))
            });
        if found == alive {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "sleep {marker} alive={found}, expected alive={alive}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
