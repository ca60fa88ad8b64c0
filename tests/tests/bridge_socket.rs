//! `ui-bridge serve` end to end, the socket half: hand-made frames on raw
//! Unix streams against the real binary.
//!
//! Attacks DESIGN.md invariants 1 and 2: a peer of another UID is refused
//! before anything is read; a forged, stale, future, replayed, oversized or
//! malformed frame is refused and its connection closed, while other
//! clients keep being served; a client that goes away kills its command; a
//! bridge that dies mid-request gives its client a clear error, not a hang;
//! and many concurrent clients lose nothing.

use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Client, ClientError, ExecRequest, ExecResponse, auth};
use approvals_tests::{Bridge, TestHome, bin, real_path, unique};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

const TRUE_REQUEST: &str = r#"{"command":["/usr/bin/true"]}"#;

fn allow_true(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("true")}]}}
    }));
}

fn full(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "off", "askFallback": "deny"}
    }));
}

/// A connection that speaks raw lines.
struct Raw {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

impl Raw {
    async fn connect(bridge: &Bridge) -> Raw {
        let stream = UnixStream::connect(&bridge.socket).await.expect("connect");
        let (reader, writer) = stream.into_split();
        Raw {
            reader: BufReader::new(reader),
            writer,
        }
    }

    /// The next frame, or `None` at end of file.
    async fn frame(&mut self) -> Option<Value> {
        let mut line = String::new();
        let read = tokio::time::timeout(Duration::from_secs(10), self.reader.read_line(&mut line))
            .await
            .expect("the bridge answers within 10 s")
            .ok()?;
        if read == 0 {
            return None;
        }
        Some(serde_json::from_str(&line).expect("the bridge sends JSON lines"))
    }

    async fn challenge(&mut self) -> String {
        let frame = self.frame().await.expect("a challenge");
        assert_eq!(frame["type"], "challenge", "{frame}");
        frame["nonce"].as_str().expect("nonce").to_owned()
    }

    /// Writes bytes; the bridge may already have closed, which is fine.
    async fn send(&mut self, bytes: &[u8]) {
        let _ = self.writer.write_all(bytes).await;
    }

    async fn send_exec(&mut self, token: &str, nonce: &str, ts: i64, request_json: &str) {
        let line = exec_line(token, nonce, ts, request_json);
        self.send(line.as_bytes()).await;
    }

    /// Reads frames until end of file; fails if the connection stays open.
    async fn expect_closed(&mut self) {
        while let Some(frame) = self.frame().await {
            assert_ne!(
                frame["type"], "exec-res",
                "unexpected reply after a refusal: {frame}"
            );
        }
    }
}

fn exec_line(token: &str, nonce: &str, ts: i64, request_json: &str) -> String {
    let frame = json!({
        "type": "exec",
        "id": format!("id-{}", unique()),
        "nonce": nonce,
        "ts": ts,
        "hmac": auth::sign(token, nonce, ts, request_json),
        "requestJson": request_json,
    });
    format!("{frame}\n")
}

fn client_nonce() -> String {
    auth::new_nonce().expect("random nonce")
}

/// The refusal reason of an `exec-res` or `error` frame.
fn reason_of(frame: &Value) -> &str {
    frame["error"]["reason"].as_str().unwrap_or("")
}

async fn good_request_succeeds(bridge: &Bridge) {
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("a good client connects");
    let request = ExecRequest {
        command: vec!["/usr/bin/true".into()],
        ..ExecRequest::default()
    };
    match client
        .exec(&request)
        .await
        .expect("a good client is served")
    {
        ExecResponse::Completed(payload) => assert!(payload.success, "{payload:?}"),
        ExecResponse::Refused(error) => panic!("good request refused: {error:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_stale_future_and_malformed_frames_are_refused_while_others_are_served() {
    let home = TestHome::new();
    allow_true(&home);
    let bridge = Bridge::start(&home, &[]);
    let token = bridge.token.clone();
    let now = auth::wall_clock_ms();

    // A silent client holds its connection the whole time.
    let mut silent = Raw::connect(&bridge).await;
    silent.challenge().await;

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "wrong hmac",
            exec_line("not-the-token", &client_nonce(), now, TRUE_REQUEST).into_bytes(),
            "hmac",
        ),
        (
            "stale ts",
            exec_line(&token, &client_nonce(), now - 60_000, TRUE_REQUEST).into_bytes(),
            "ttl",
        ),
        (
            "future ts",
            exec_line(&token, &client_nonce(), now + 60_000, TRUE_REQUEST).into_bytes(),
            "ttl",
        ),
        ("not json", b"{this is not json\n".to_vec(), "json"),
        (
            "bad request json",
            exec_line(&token, &client_nonce(), now, "{\"command\":").into_bytes(),
            "json",
        ),
        (
            "oversized line",
            {
                let mut big = vec![b'a'; 300 * 1024];
                big.push(b'\n');
                big
            },
            "too-large",
        ),
    ];
    for (name, bytes, reason) in cases {
        let mut raw = Raw::connect(&bridge).await;
        raw.challenge().await;
        raw.send(&bytes).await;
        let reply = raw
            .frame()
            .await
            .unwrap_or_else(|| panic!("{name}: no reply"));
        assert_eq!(reason_of(&reply), reason, "{name}: {reply}");
        assert_eq!(reply["error"]["code"], "INVALID_REQUEST", "{name}: {reply}");
        raw.expect_closed().await;
        good_request_succeeds(&bridge).await;
    }

    // The silent client was not served anything more, and is still open.
    silent
        .send(exec_line(&token, &client_nonce(), auth::wall_clock_ms(), TRUE_REQUEST).as_bytes())
        .await;
    let reply = silent
        .frame()
        .await
        .expect("the silent client is still served");
    assert_eq!(reply["ok"], true, "{reply}");
}

#[tokio::test(flavor = "multi_thread")]
async fn replayed_lines_and_reused_challenge_nonces_are_refused() {
    let home = TestHome::new();
    allow_true(&home);
    let bridge = Bridge::start(&home, &[]);
    let token = bridge.token.clone();

    // OpenClaw style: a nonce of the client's own, line sent at once.
    let line = exec_line(&token, &client_nonce(), auth::wall_clock_ms(), TRUE_REQUEST);
    let mut first = Raw::connect(&bridge).await;
    first.send(line.as_bytes()).await;
    let reply = loop {
        let frame = first.frame().await.expect("a reply");
        if frame["type"] == "exec-res" {
            break frame;
        }
    };
    assert_eq!(reply["ok"], true, "{reply}");

    let mut replay = Raw::connect(&bridge).await;
    replay.challenge().await;
    replay.send(line.as_bytes()).await;
    let reply = replay.frame().await.expect("a refusal");
    assert_eq!(reason_of(&reply), "replay", "{reply}");
    replay.expect_closed().await;

    // A challenge nonce is good for one request only.
    let mut raw = Raw::connect(&bridge).await;
    let nonce = raw.challenge().await;
    raw.send_exec(&token, &nonce, auth::wall_clock_ms(), TRUE_REQUEST)
        .await;
    let reply = raw.frame().await.expect("a reply");
    assert_eq!(reply["ok"], true, "{reply}");
    raw.challenge().await;
    raw.send_exec(&token, &nonce, auth::wall_clock_ms(), TRUE_REQUEST)
        .await;
    let reply = raw.frame().await.expect("a refusal");
    assert_eq!(reason_of(&reply), "nonce", "{reply}");
    raw.expect_closed().await;

    // ... and another connection cannot use it: the bridge recognises its
    // own challenge nonces, so it is refused before the replay cache is asked.
    let mut other = Raw::connect(&bridge).await;
    other.challenge().await;
    other
        .send_exec(&token, &nonce, auth::wall_clock_ms(), TRUE_REQUEST)
        .await;
    let reply = other.frame().await.expect("a refusal");
    assert_eq!(reason_of(&reply), "nonce", "{reply}");

    good_request_succeeds(&bridge).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_peer_with_another_uid_is_refused_before_any_request_is_read() {
    if nix_euid() != 0 {
        eprintln!("skipped: needs root to run the bridge under another uid");
        return;
    }
    if !std::path::Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipped: setpriv is missing");
        return;
    }
    let home = TestHome::new();
    full(&home);
    chown_tree(home.path(), 65534);
    let mut cmd = std::process::Command::new("/usr/bin/setpriv");
    cmd.args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
        .arg(bin("ui-bridge"))
        .env("HOME", home.path())
        .env("CLAWDBOT_STATE_DIR", home.state_dir())
        .env_remove("RUST_LOG")
        .current_dir(home.path());
    let bridge = Bridge::spawn(cmd, &home, &[]);

    // We (uid 0) are not the bridge's uid: refused before reading a byte.
    let mut raw = Raw::connect(&bridge).await;
    let first = raw.frame().await.expect("an error frame");
    assert_eq!(
        first,
        json!({"type": "error", "error": {"code": "UNAUTHORIZED", "message": "peer uid mismatch"}})
    );
    raw.send(
        exec_line(
            &bridge.token,
            &client_nonce(),
            auth::wall_clock_ms(),
            TRUE_REQUEST,
        )
        .as_bytes(),
    )
    .await;
    assert_eq!(raw.frame().await, None, "the connection must be closed");

    // And our client refuses a bridge of another uid before sending anything.
    let refused = Client::connect(&bridge.socket, bridge.token.clone()).await;
    assert!(
        matches!(
            refused,
            Err(ClientError::ServerUidMismatch { found: 65534, .. })
        ),
        "{refused:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_goes_away_kills_its_command() {
    let home = TestHome::new();
    full(&home);
    let bridge = Bridge::start(&home, &[]);
    let marker = format!("32.{}", unique().replace('-', ""));
    let script = format!("sleep {marker} & sleep {marker}");
    let request = ExecRequest {
        command: vec!["/bin/sh".into(), "-c".into(), script],
        ..ExecRequest::default()
    };
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect");
    let pending = tokio::spawn(async move { client.exec(&request).await });
    wait_for_process_with(&marker).await;
    pending.abort();
    let _ = pending.await;
    assert_no_process_with(&marker).await;
    good_request_succeeds(&bridge).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bridge_killed_mid_request_gives_the_client_a_clear_error() {
    let home = TestHome::new();
    full(&home);
    let bridge = Bridge::start(&home, &[]);
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect");
    let marker = format!("5.{}", unique().replace('-', ""));
    let request = ExecRequest {
        command: vec!["sleep".into(), marker.clone()],
        ..ExecRequest::default()
    };
    let begun = Instant::now();
    let pending = tokio::spawn(async move { client.exec(&request).await });
    wait_for_process_with(&marker).await;
    bridge.signal("-KILL");
    let outcome = pending.await.expect("client task");
    assert!(
        matches!(outcome, Err(ClientError::Closed { .. })),
        "{outcome:?}"
    );
    assert!(begun.elapsed() < Duration::from_secs(5), "the client hung");
}

#[tokio::test(flavor = "multi_thread")]
async fn many_concurrent_clients_lose_no_request() {
    const CLIENTS: usize = 256;
    const REQUESTS: usize = 20;
    let home = TestHome::new();
    allow_true(&home);
    let bridge = Bridge::start(&home, &[]);
    let mut tasks = Vec::with_capacity(CLIENTS);
    for _ in 0..CLIENTS {
        let socket = bridge.socket.clone();
        let token = bridge.token.clone();
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(&socket, token).await?;
            let request = ExecRequest {
                command: vec!["/usr/bin/true".into()],
                ..ExecRequest::default()
            };
            let mut ok = 0;
            for _ in 0..REQUESTS {
                if let ExecResponse::Completed(payload) = client.exec(&request).await?
                    && payload.success
                {
                    ok += 1;
                }
            }
            Ok::<usize, ClientError>(ok)
        }));
    }
    let mut succeeded = 0;
    for task in tasks {
        succeeded += task
            .await
            .expect("client task")
            .expect("client without errors");
    }
    assert_eq!(succeeded, CLIENTS * REQUESTS, "{}", bridge.log_text());
}

fn nix_euid() -> u32 {
    approvals_ipc::ipc::peer::own_euid()
}

fn chown_tree(path: &std::path::Path, uid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(uid)).expect("chown");
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("read dir") {
            chown_tree(&entry.expect("entry").path(), uid);
        }
    }
}

fn processes_with(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.starts_with("sleep ") && c.contains(marker))
        .collect()
}

async fn wait_for_process_with(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while processes_with(marker).is_empty() {
        assert!(Instant::now() < deadline, "{marker} never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn assert_no_process_with(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let alive = processes_with(marker);
        if alive.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "still running: {alive:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_legacy_prompt_frame_is_allowed_only_by_the_policy_and_the_right_token() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "full"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("ls")}]}}
    }));
    let bridge = Bridge::start(&home, &[]);
    let cases = [
        (bridge.token.as_str(), "ls -la", "allow-once"),
        (bridge.token.as_str(), "ls $(id)", "deny"),
        (bridge.token.as_str(), "id", "deny"),
        ("not-the-token", "ls -la", "deny"),
    ];
    for (token, command, want) in cases {
        let mut raw = Raw::connect(&bridge).await;
        let frame = json!({
            "type": "request", "token": token, "id": "r1",
            "request": {"command": command, "cwd": home.path()}
        });
        raw.send(format!("{frame}\n").as_bytes()).await;
        let reply = loop {
            let frame = raw.frame().await.expect("a decision");
            if frame["type"] == "decision" {
                break frame;
            }
        };
        assert_eq!(
            reply,
            json!({"type": "decision", "id": "r1", "decision": want}),
            "{command} with {token}"
        );
    }
}

/// OpenClaw's node host (reference/openclaw.md sections 8.2 and 13) sends its
/// `exec` line at once with a 16-byte nonce of its own, never reads the
/// challenge, half-closes its side, and ignores every line that is not an
/// `exec-res`. The real bridge must answer it after the client's end of file.
#[tokio::test(flavor = "multi_thread")]
async fn an_openclaw_client_byte_for_byte_is_served_after_it_half_closes() {
    let home = TestHome::new();
    allow_true(&home);
    let bridge = Bridge::start(&home, &[]);
    let stream = UnixStream::connect(&bridge.socket).await.expect("connect");
    let (reader, mut writer) = stream.into_split();
    // 16 random bytes as 32 lowercase hex characters, as OpenClaw makes them.
    let nonce: String = client_nonce().chars().take(32).collect();
    let ts = auth::wall_clock_ms();
    let request_json = r#"{"command":["/usr/bin/true"],"cwd":null,"timeoutMs":null}"#;
    let line = format!(
        "{{\"type\":\"exec\",\"id\":\"{}\",\"nonce\":\"{nonce}\",\"ts\":{ts},\"hmac\":\"{}\",\"requestJson\":{}}}\n",
        "6d1b1b5e-0c1f-4d8a-9a51-3f7a6b2c9e10",
        auth::sign(&bridge.token, &nonce, ts, request_json),
        serde_json::to_string(request_json).expect("json string"),
    );
    writer.write_all(line.as_bytes()).await.expect("send");
    writer.shutdown().await.expect("half-close");
    let mut reader = BufReader::new(reader);
    let reply = loop {
        let mut next = String::new();
        let read = tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut next))
            .await
            .expect("the bridge answers within 10 s")
            .expect("read");
        assert_ne!(read, 0, "the bridge closed without an exec-res");
        let frame: Value = serde_json::from_str(&next).expect("json line");
        if frame["type"] == "exec-res" {
            break frame;
        }
    };
    assert_eq!(reply["id"], "6d1b1b5e-0c1f-4d8a-9a51-3f7a6b2c9e10");
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["payload"]["exitCode"], 0, "{reply}");
    assert_eq!(reply["payload"]["success"], true, "{reply}");
}

/// Sends one line on a fresh connection, OpenClaw style (no challenge read),
/// and returns the `exec-res` it gets.
async fn send_line_once(bridge: &Bridge, line: &str) -> Value {
    let mut raw = Raw::connect(bridge).await;
    raw.send(line.as_bytes()).await;
    loop {
        let frame = raw.frame().await.expect("a reply");
        if frame["type"] == "exec-res" {
            return frame;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_line_captured_before_a_restart_does_not_run_after_it() {
    // Issue 9, hole 8: the replay cache lives in memory, so a restarted
    // bridge has forgotten every nonce; the line's timestamp is still
    // inside the TTL. It must not run a second time.
    let home = TestHome::new();
    let marker = home.path().join("ran");
    let request = json!({
        "command": ["/bin/sh", "-c", format!("echo x >> {}", marker.display())],
    })
    .to_string();
    full(&home);
    let mut bridge = Bridge::start(&home, &[]);
    let token = bridge.token.clone();

    // A line with a client-made nonce, and one signed for a challenge.
    let client_line = exec_line(&token, &client_nonce(), auth::wall_clock_ms(), &request);
    let reply = send_line_once(&bridge, &client_line).await;
    assert_eq!(reply["ok"], true, "{reply}");
    let mut raw = Raw::connect(&bridge).await;
    let nonce = raw.challenge().await;
    let challenge_line = exec_line(&token, &nonce, auth::wall_clock_ms(), &request);
    raw.send(challenge_line.as_bytes()).await;
    let reply = raw.frame().await.expect("a reply");
    assert_eq!(reply["ok"], true, "{reply}");
    drop(raw);
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "x\nx\n");

    bridge.signal("-TERM");
    bridge.wait_exit(Duration::from_secs(10));
    let bridge = Bridge::start(&home, &[]);
    assert_eq!(bridge.token, token, "same token after the restart");
    for line in [&client_line, &challenge_line] {
        let reply = send_line_once(&bridge, line).await;
        assert_eq!(reply["ok"], false, "{reply}");
        assert_eq!(reason_of(&reply), "ttl", "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("before this bridge started"),
            "{reply}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&marker).unwrap(),
        "x\nx\n",
        "a replayed line ran again after the restart"
    );
    // A line signed now still runs.
    let fresh = exec_line(&token, &client_nonce(), auth::wall_clock_ms(), &request);
    assert_eq!(send_line_once(&bridge, &fresh).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread")]
async fn require_challenge_refuses_client_made_nonces_and_serves_challenged_clients() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "socket": {"requireChallenge": true},
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("true")}]}}
    }));
    let bridge = Bridge::start(&home, &[]);
    let token = bridge.token.clone();
    let line = exec_line(&token, &client_nonce(), auth::wall_clock_ms(), TRUE_REQUEST);
    let reply = send_line_once(&bridge, &line).await;
    assert_eq!(reply["ok"], false, "{reply}");
    assert_eq!(reason_of(&reply), "nonce", "{reply}");
    // Our own client reads the challenge, so it is served.
    good_request_succeeds(&bridge).await;
    // So is a raw client that signs with its connection's challenge, but
    // not with a challenge issued to another connection.
    let mut mine = Raw::connect(&bridge).await;
    let mut theirs = Raw::connect(&bridge).await;
    let their_nonce = theirs.challenge().await;
    mine.challenge().await;
    mine.send_exec(&token, &their_nonce, auth::wall_clock_ms(), TRUE_REQUEST)
        .await;
    let reply = mine.frame().await.expect("a refusal");
    assert_eq!(reason_of(&reply), "nonce", "{reply}");
    theirs
        .send_exec(&token, &their_nonce, auth::wall_clock_ms(), TRUE_REQUEST)
        .await;
    let reply = theirs.frame().await.expect("a reply");
    assert_eq!(reply["ok"], true, "{reply}");
}

#[tokio::test]
async fn one_process_holding_hundreds_of_idle_connections_does_not_lock_out_another() {
    // More than the bridge's global cap (512), all from this process and
    // all idle: without a per-process cap the last ones would be refused,
    // and so would every other client.
    const FLOOD: usize = 600;
    let home = TestHome::new();
    allow_true(&home);
    let bridge = Bridge::start(&home, &[]);
    let mut flood = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        let mut raw = Raw::connect(&bridge).await;
        let first = raw.frame().await.expect("a first frame");
        assert_eq!(first["type"], "challenge", "{first}");
        flood.push(raw);
    }
    // This process's oldest idle connections made room for its newer ones.
    let evicted = flood[0].frame().await.expect("an eviction notice");
    assert_eq!(reason_of(&evicted), "evicted", "{evicted}");
    assert_eq!(flood[0].frame().await, None);
    // Another process is served while the flood is still held open.
    let out =
        approvals_tests::output(
            home.command("ui-bridge")
                .args(["approvals", "list", "--json"]),
        );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        bridge.log_text()
    );
    // And so is this process's own next request.
    good_request_succeeds(&bridge).await;
    drop(flood);
}

#[tokio::test]
async fn a_flooding_client_is_refused_past_its_quota_and_the_log_stops_growing() {
    const QUOTA: usize = 5;
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("true")}]}},
        "audit": {"quotaPerProcess": QUOTA}
    }));
    let bridge = Bridge::start(&home, &[]);
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect");
    let request = ExecRequest {
        command: vec!["/usr/bin/true".into()],
        ..ExecRequest::default()
    };
    let mut served = 0;
    let mut limited = Vec::new();
    for _ in 0..4 * QUOTA {
        match client.exec(&request).await.expect("a reply") {
            ExecResponse::Completed(payload) if payload.success => served += 1,
            ExecResponse::Completed(payload) => panic!("failed run: {payload:?}"),
            ExecResponse::Refused(error) => limited.push(error),
        }
    }
    assert_eq!(served, QUOTA);
    assert_eq!(limited.len(), 3 * QUOTA);
    let error = &limited[0];
    assert_eq!(error.reason.as_deref(), Some("rate-limited"), "{error:?}");
    assert!(error.message.contains("audit.quotaPerProcess"), "{error:?}");
    assert!(error.message.contains("retry in"), "{error:?}");
    // Only the served requests reached the log: decision, started, finished.
    let log = home.state_dir().join("exec-audit.jsonl");
    let deadline = Instant::now() + Duration::from_secs(10);
    let count = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    while count() < 3 * QUOTA && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(count(), 3 * QUOTA, "{}", bridge.log_text());
}
