//! `ui-bridge doctor` and `node-host doctor` end to end: real files, real
//! sockets, the real binaries, in private temp homes.
//!
//! Pins issue 15's "doctor flags each risky setting in a test fixture and
//! passes a clean one": every risky setting of one fixture is named with a
//! fix, a clean setup passes (exit 0), `--fix` repairs modes and a stale
//! socket and says so, and an unreachable gateway is a problem.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

/// A token as long as the ones `ui-bridge serve` makes (32 characters).
const GOOD_TOKEN: &str = "abcdefghijklmnopqrstuvwxyz012345";

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path).expect("stat").mode() & 0o7777
}

/// `BIN doctor --json ARGS` with PATH limited to the system directories
/// (plus `extra_path` first): (exit code, report).
fn doctor(home: &TestHome, bin: &str, args: &[&str], extra_path: Option<&Path>) -> (i32, Value) {
    let path = match extra_path {
        Some(dir) => format!("{}:/usr/bin:/bin", dir.display()),
        None => "/usr/bin:/bin".to_owned(),
    };
    let out = output(
        home.command(bin)
            .env("PATH", path)
            .arg("doctor")
            .arg("--json")
            .args(args),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "doctor --json prints JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().expect("exit code"), report)
}

/// The open problems as (check, subject, problem) triples.
fn problems(report: &Value) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] == "problem" && f.get("fixed").is_none())
        .map(|f| {
            assert!(
                f["fix"].as_str().is_some_and(|s| !s.is_empty()),
                "every finding says how to fix it: {f}"
            );
            (
                f["check"].as_str().unwrap_or_default().to_owned(),
                f["subject"].as_str().unwrap_or_default().to_owned(),
                f["problem"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn assert_flags(found: &[(String, String, String)], check: &str, subject: &str, problem: &str) {
    assert!(
        found
            .iter()
            .any(|(c, s, p)| c == check && s.contains(subject) && p.contains(problem)),
        "expected a {check} problem on {subject:?} saying {problem:?}; found {found:#?}"
    );
}

/// Writes a stale socket: bound, then closed, so nothing answers on it.
fn stale_socket(path: &Path) {
    drop(std::os::unix::net::UnixListener::bind(path).expect("bind"));
    assert!(path.exists());
}

fn clean_policy(token: &str) -> Value {
    json!({
        "version": 1,
        "socket": {"token": token},
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("ls")}]}}
    })
}

#[test]
fn doctor_flags_each_risky_setting_with_a_fix() {
    let home = TestHome::new();
    let world = home.path().join("shared");
    std::fs::create_dir(&world).expect("mkdir");
    chmod(&world, 0o777);
    let bin = home.path().join("bin");
    std::fs::create_dir(&bin).expect("mkdir");
    std::fs::write(bin.join("wc"), "#!/bin/sh\n").expect("write");
    chmod(&bin.join("wc"), 0o755);
    home.write_approvals(&json!({
        "version": 1,
        "socket": {"token": "short"},
        "defaults": {"security": "full", "ask": "off", "askFallback": "deny",
                     "safeBins": ["wc", "frobnicate"]},
        "agents": {"main": {"allowlist": [
            {"pattern": real_path("sh")},
            {"pattern": real_path("python3")},
            {"pattern": real_path("env")},
            {"pattern": "git"},
            {"pattern": "*"},
            {"pattern": "/usr/bin/*"},
            {"pattern": format!("{}/tool", world.display())}
        ]}}
    }));
    chmod(&home.state_dir(), 0o755);
    chmod(&home.approvals(), 0o644);
    stale_socket(&home.state_dir().join("exec-approvals.sock"));
    std::fs::write(home.state_dir().join("exec-audit.jsonl"), "not a record\n").expect("write");
    chmod(&home.state_dir().join("exec-audit.jsonl"), 0o600);

    for bin_name in ["ui-bridge", "node-host"] {
        let (code, report) = doctor(&home, bin_name, &[], Some(&bin));
        assert_eq!(code, 1, "{bin_name}: {report:#}");
        assert_eq!(report["ok"], false);
        let found = problems(&report);
        let state = home.state_dir().display().to_string();
        assert_flags(&found, "state-dir", &state, "mode 0755");
        assert_flags(&found, "approvals-file", "exec-approvals.json", "mode 0644");
        assert_flags(&found, "socket", "exec-approvals.sock", "stale");
        assert_flags(&found, "token", "socket.token", "5 characters");
        assert_flags(&found, "allowlist", "allowlist[0]", "a shell");
        assert_flags(&found, "allowlist", "allowlist[1]", "an interpreter");
        assert_flags(&found, "allowlist", "allowlist[2]", "a wrapper");
        assert_flags(&found, "allowlist", "allowlist[3]", "bare name");
        assert_flags(&found, "allowlist", "allowlist[4]", "every executable");
        assert_flags(&found, "allowlist", "allowlist[5]", "a shell");
        assert_flags(
            &found,
            "allowlist",
            "allowlist[6]",
            "writable by every user",
        );
        assert_flags(&found, "safe-bins", "frobnicate", "no profile");
        assert_flags(
            &found,
            "safe-bins",
            "\"wc\"",
            "outside the trusted directories",
        );
        assert_flags(&found, "ask-off-full", "agent main", "ask off");
        assert_flags(&found, "audit-log", "exec-audit.jsonl", "does not verify");
        // The token is never shown.
        assert!(!report.to_string().contains("\"short\""), "{report}");
    }
}

#[test]
fn doctor_flags_a_file_that_does_not_parse() {
    let home = TestHome::new();
    home.write_approvals(&json!({}));
    std::fs::write(home.approvals(), "{\"version\": 1, \"agents\": [}\n").expect("write");
    let (code, report) = doctor(&home, "ui-bridge", &[], None);
    assert_eq!(code, 1, "{report:#}");
    assert_flags(
        &problems(&report),
        "approvals-file",
        "exec-approvals.json",
        "does not parse",
    );
}

#[test]
fn doctor_flags_a_symlinked_state_dir() {
    let home = TestHome::new();
    let real = home.path().join("real-state");
    std::fs::create_dir(&real).expect("mkdir");
    chmod(&real, 0o700);
    std::os::unix::fs::symlink(&real, home.state_dir()).expect("symlink");
    std::fs::write(
        real.join("exec-approvals.json"),
        clean_policy(GOOD_TOKEN).to_string(),
    )
    .expect("write");
    chmod(&real.join("exec-approvals.json"), 0o600);
    let (code, report) = doctor(&home, "ui-bridge", &[], None);
    assert_eq!(code, 1, "{report:#}");
    assert_flags(
        &problems(&report),
        "state-dir",
        ".clawdbot",
        "symbolic link",
    );
}

#[test]
fn doctor_passes_a_clean_setup() {
    let home = TestHome::new();
    home.write_approvals(&clean_policy(GOOD_TOKEN));
    for bin_name in ["ui-bridge", "node-host"] {
        let (code, report) = doctor(&home, bin_name, &[], None);
        assert_eq!(problems(&report), Vec::new(), "{bin_name}: {report:#}");
        assert_eq!((code, &report["ok"]), (0, &json!(true)), "{report:#}");
    }
}

#[test]
fn doctor_passes_the_setup_a_running_bridge_made() {
    let home = TestHome::new();
    let bridge = Bridge::start(&home, &[]);
    let mut file = home.read_approvals();
    file["agents"] = json!({"main": {"allowlist": [{"pattern": real_path("ls")}]}});
    home.write_approvals(&file);
    let (code, report) = doctor(&home, "ui-bridge", &[], None);
    assert_eq!(problems(&report), Vec::new(), "{report:#}");
    assert_eq!(code, 0);
    // A live socket with a loose mode is a problem, and --fix tightens it.
    chmod(&bridge.socket, 0o666);
    let (code, report) = doctor(&home, "ui-bridge", &[], None);
    assert_eq!(code, 1);
    assert_flags(
        &problems(&report),
        "socket",
        "exec-approvals.sock",
        "mode 0666",
    );
    let (code, _) = doctor(&home, "ui-bridge", &["--fix"], None);
    assert_eq!(code, 0);
    assert_eq!(mode_of(&bridge.socket), 0o600);
}

#[test]
fn doctor_fix_repairs_modes_and_removes_a_stale_socket() {
    let home = TestHome::new();
    home.write_approvals(&clean_policy(GOOD_TOKEN));
    let socket = home.state_dir().join("exec-approvals.sock");
    let audit = home.state_dir().join("exec-audit.jsonl");
    std::fs::write(&audit, "").expect("write");
    chmod(&home.state_dir(), 0o755);
    chmod(&home.approvals(), 0o644);
    chmod(&audit, 0o640);
    stale_socket(&socket);

    let out = output(
        home.command("ui-bridge")
            .env("PATH", "/usr/bin:/bin")
            .args(["doctor", "--fix"]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for did in [
        format!("did: chmod 700 {} (was 0755)", home.state_dir().display()),
        format!("did: chmod 600 {} (was 0644)", home.approvals().display()),
        format!("did: chmod 600 {} (was 0640)", audit.display()),
        format!("did: removed the stale socket {}", socket.display()),
    ] {
        assert!(text.contains(&did), "missing {did:?} in:\n{text}");
    }
    assert_eq!(
        (
            mode_of(&home.state_dir()),
            mode_of(&home.approvals()),
            mode_of(&audit)
        ),
        (0o700, 0o600, 0o600)
    );
    assert!(!socket.exists(), "the stale socket is removed");
    let (code, report) = doctor(&home, "ui-bridge", &[], None);
    assert_eq!((code, problems(&report)), (0, Vec::new()), "{report:#}");
}

#[test]
fn node_host_doctor_flags_an_unreachable_gateway() {
    let home = TestHome::new();
    home.write_approvals(&clean_policy(GOOD_TOKEN));
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let url = format!("ws://127.0.0.1:{port}");
    let (code, report) = doctor(&home, "node-host", &["--gateway", &url], None);
    assert_eq!(code, 1, "{report:#}");
    assert_flags(&problems(&report), "gateway", &url, "cannot be reached");
}

/// A minimal WebSocket server in Python (the standard library has SHA-1
/// and base64): answers one upgrade (`answer_upgrade`) or one plain HTTP
/// 200 that is not an upgrade. Returns the child and its port.
fn one_shot_server(answer_upgrade: bool) -> (std::process::Child, u16) {
    use std::io::BufRead as _;
    const SCRIPT: &str = r#"
import base64, hashlib, socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); data = b""
while b"\r\n\r\n" not in data:
    chunk = c.recv(4096)
    if not chunk: sys.exit(0)
    data += chunk
if sys.argv[1] == "upgrade":
    key = [l.split(b":", 1)[1].strip() for l in data.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key:")][0]
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    c.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
else:
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
c.recv(4096)
"#;
    let mut child = Command::new("python3")
        .args([
            "-c",
            SCRIPT,
            if answer_upgrade { "upgrade" } else { "plain" },
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 must be installed");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("port line");
    (child, line.trim().parse().expect("a port"))
}

#[test]
fn node_host_doctor_reaches_a_gateway_that_answers_the_upgrade() {
    let home = TestHome::new();
    home.write_approvals(&clean_policy(GOOD_TOKEN));
    let (mut server, port) = one_shot_server(true);
    let url = format!("ws://127.0.0.1:{port}");
    let (code, report) = doctor(&home, "node-host", &["--gateway", &url], None);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!((code, problems(&report)), (0, Vec::new()), "{report:#}");
}

#[test]
fn node_host_doctor_flags_a_server_that_is_not_a_gateway() {
    let home = TestHome::new();
    home.write_approvals(&clean_policy(GOOD_TOKEN));
    let (mut server, port) = one_shot_server(false);
    let url = format!("ws://127.0.0.1:{port}");
    let (code, report) = doctor(&home, "node-host", &["--gateway", &url], None);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(code, 1, "{report:#}");
    assert_flags(&problems(&report), "gateway", &url, "WebSocket handshake");
}
