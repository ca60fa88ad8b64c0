//! Socket activation end to end: a listening socket passed to a real
//! `ui-bridge serve` the way systemd passes one (fd 3, `LISTEN_PID` the
//! bridge's pid, `LISTEN_FDS=1`), and a real `node-host run` served
//! through it.
//!
//! The wrapper is a few lines of Python (what `systemd-socket-activate`
//! does): bind and listen, move the socket to fd 3, set the variables,
//! then exec the bridge so the pid stays the same.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use approvals_tests::{TestHome, bin, output, real_path};
use serde_json::json;

const WRAPPER: &str = r#"
import os, socket, sys
path, bridge = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path); os.chmod(path, 0o666); s.listen(16)
if s.fileno() != 3:
    os.dup2(s.fileno(), 3)
os.set_inheritable(3, True)
os.environ["LISTEN_PID"] = str(os.getpid())
os.environ["LISTEN_FDS"] = "1"
os.execv(bridge, [bridge] + sys.argv[3:])
"#;

/// Starts the bridge behind the wrapper, with the socket bound at `bound`.
fn activated_bridge(home: &TestHome, bound: &Path, log: &Path) -> std::process::Child {
    let mut cmd = Command::new("python3");
    cmd.env("HOME", home.path())
        .env("CLAWDBOT_STATE_DIR", home.state_dir())
        .env_remove("RUST_LOG")
        .arg("-c")
        .arg(WRAPPER)
        .arg(bound)
        .arg(bin("ui-bridge"))
        .args(["serve", "--approval-timeout-ms", "1500"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("log"));
    cmd.spawn().expect("python3 must be installed")
}

fn policy(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "socket": {"token": "abcdefghijklmnopqrstuvwxyz012345"},
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("echo")}]}}
    }));
}

fn wait_for_log(log: &Path, needle: &str, child: &mut std::process::Child) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        if let Ok(Some(status)) = child.try_wait() {
            return format!("{text}\n(exited: {status})");
        }
        assert!(Instant::now() < deadline, "no {needle:?} in time: {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_socket_activated_bridge_serves_node_host_run() {
    use std::os::unix::fs::MetadataExt;
    let home = TestHome::new();
    policy(&home);
    let socket = home.state_dir().join("exec-approvals.sock");
    let log = home.path().join("bridge.log");
    let mut bridge = activated_bridge(&home, &socket, &log);
    let text = wait_for_log(&log, "ui-bridge: serving", &mut bridge);
    assert!(
        text.contains("socket activation"),
        "the bridge says it serves the passed socket: {text}"
    );
    // The same mode `bind` sets, whatever the passer chose.
    let mode = std::fs::metadata(&socket).expect("socket").mode() & 0o777;
    assert_eq!(mode, 0o600);

    let out = output(home.command("node-host").args([
        "run",
        "--exec-host",
        "bridge",
        "--",
        "echo",
        "activated",
    ]));
    let _ = Command::new("kill")
        .args(["-TERM", &bridge.id().to_string()])
        .status();
    let status = bridge.wait().expect("wait");
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).trim()
        ),
        (Some(0), "activated"),
        "node-host run through the activated bridge: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    assert!(status.success(), "the bridge stops cleanly on SIGTERM");
    assert!(
        socket.exists(),
        "the socket file belongs to the service manager and stays"
    );
}

#[test]
fn a_passed_socket_at_another_path_is_refused() {
    let home = TestHome::new();
    policy(&home);
    let elsewhere = home.path().join("other.sock");
    let log = home.path().join("bridge.log");
    let mut bridge = activated_bridge(&home, &elsewhere, &log);
    let status = bridge.wait().expect("wait");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!status.success(), "{text}");
    assert!(
        text.contains("socket activation passed a socket at")
            && text.contains(&elsewhere.display().to_string()),
        "names both paths: {text}"
    );
}
