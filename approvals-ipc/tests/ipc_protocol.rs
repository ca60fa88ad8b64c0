//! The wire protocol, driven byte for byte over a real socket: challenge,
//! signed exec, every refusal reason, the legacy request frame, and an
//! OpenClaw-style client that half-closes (DESIGN.md section 5, invariants 1, 2).

mod ipc_support;

use ipc_support::*;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

const ECHO: &str = r#"{"command":["/bin/echo","hi"],"cwd":null,"timeoutMs":null}"#;

fn stdout_of(frame: &Value) -> Value {
    assert_eq!(frame["type"], "exec-res", "{frame}");
    assert_eq!(frame["ok"], true, "{frame}");
    serde_json::from_str(frame["payload"]["stdout"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn serves_a_challenge_signed_exec_and_sends_a_fresh_challenge() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let challenge = raw.frame().await.unwrap();
    assert_eq!(challenge["type"], "challenge");
    assert_eq!(challenge["ttlMs"], 10_000);
    assert!((challenge["ts"].as_i64().unwrap() - now_ms()).abs() < 5_000);
    let nonce = challenge["nonce"].as_str().unwrap().to_owned();
    assert_eq!(nonce.len(), 64);
    raw.send(&exec_line("req-1", &nonce, now_ms(), ECHO)).await;
    let reply = raw.frame().await.unwrap();
    assert_eq!(reply["id"], "req-1");
    assert_eq!(stdout_of(&reply), json!({"command": ["/bin/echo", "hi"]}));
    assert_eq!(
        reply["payload"],
        json!({"exitCode": 0, "timedOut": false, "success": true,
               "stdout": reply["payload"]["stdout"], "stderr": "", "truncated": false,
               "decision": "allowlist"})
    );
    let next = raw.challenge().await;
    assert_ne!(next, nonce);
}

#[tokio::test]
async fn carries_many_requests_on_one_connection() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    for i in 0..20 {
        let nonce = raw.challenge().await;
        let json =
            json!({"command": ["n", i.to_string()], "runId": format!("run-{i}")}).to_string();
        raw.send(&exec_line(&format!("id-{i}"), &nonce, now_ms(), &json))
            .await;
        let reply = raw.frame().await.unwrap();
        assert_eq!(reply["id"], format!("id-{i}"));
        assert_eq!(reply["payload"]["runId"], format!("run-{i}"));
    }
}

#[tokio::test]
async fn handler_refusal_is_an_exec_res_and_the_connection_stays_usable() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    raw.send(&exec_line("d", &nonce, now_ms(), r#"{"command":["deny"]}"#))
        .await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "exec-res", "id": "d", "ok": false, "error": {
            "code": "UNAVAILABLE", "message": "SYSTEM_RUN_DENIED: allowlist miss",
            "reason": "allowlist-miss"}})
    );
    let nonce = raw.challenge().await;
    raw.send(&exec_line("e", &nonce, now_ms(), ECHO)).await;
    assert_eq!(raw.frame().await.unwrap()["ok"], true);
}

#[tokio::test]
async fn an_exec_waiting_for_a_person_is_announced_before_its_reply() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    raw.send(&exec_line(
        "p-1",
        &nonce,
        now_ms(),
        r#"{"command":["pending"]}"#,
    ))
    .await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "exec-pending", "id": "p-1",
               "approvalId": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
               "shortId": "3fa8", "expiresAtMs": 1_700_000_120_000_i64})
    );
    let reply = raw.frame().await.unwrap();
    assert_eq!(
        (reply["type"].clone(), reply["id"].clone()),
        (json!("exec-res"), json!("p-1"))
    );
    // Our client takes the notice and still gets its reply.
    let mut client = approvals_ipc::ipc::Client::connect(&server.path, TOKEN)
        .await
        .unwrap();
    let request = approvals_ipc::ipc::ExecRequest {
        command: vec!["pending".into()],
        ..Default::default()
    };
    let mut seen = Vec::new();
    let response = client
        .exec_observed(&request, &mut |p| seen.push(p.short_id.clone()))
        .await
        .unwrap();
    assert!(matches!(
        response,
        approvals_ipc::ipc::ExecResponse::Completed(_)
    ));
    assert_eq!(seen, ["3fa8"]);
}

#[tokio::test]
async fn accepts_the_openclaw_hmac_vector_bytes_when_the_clock_matches() {
    // The vector's ts is fixed in 2023, so run it through a server with a TTL wide enough.
    // It is also older than any server, so this one counts as started before it.
    let server = TestServer::start_with(|c| {
        c.ttl_ms = u64::MAX / 4;
        c.started_ms = 0;
    })
    .await;
    let mut raw = Raw::connect(&server.path).await;
    raw.challenge().await;
    let line = r#"{"type":"exec","id":"v","nonce":"00112233445566778899aabbccddeeff","ts":1700000000000,"hmac":"37a2d4ed3207260d3a320434f22802c52fdbf28988962b0a2655b05bf6251a9c","requestJson":"{\"command\":[\"/bin/echo\",\"hi\"],\"cwd\":null,\"timeoutMs\":null}"}"#;
    raw.send(line).await;
    let reply = raw.frame().await.unwrap();
    assert_eq!(stdout_of(&reply)["command"], json!(["/bin/echo", "hi"]));
}

#[tokio::test]
async fn refuses_each_bad_exec_frame_with_its_reason_and_closes() {
    let old = || now_ms() - 10_500;
    let future = || now_ms() + 10_500;
    type MakeLine = Box<dyn Fn(&str) -> String>;
    let cases: Vec<(&str, MakeLine, &str)> = vec![
        (
            "wrong hmac",
            Box::new(|n: &str| exec_line_with("other-token", "x", n, now_ms(), ECHO)),
            "hmac",
        ),
        (
            "ts too old",
            Box::new(move |n: &str| exec_line("x", n, old(), ECHO)),
            "ttl",
        ),
        (
            "ts in the future",
            Box::new(move |n: &str| exec_line("x", n, future(), ECHO)),
            "ttl",
        ),
        (
            "bad request json",
            Box::new(|n: &str| exec_line("x", n, now_ms(), r#"{"cmd":1}"#)),
            "json",
        ),
        (
            "tampered body",
            Box::new(|n: &str| {
                let mut frame: Value =
                    serde_json::from_str(&exec_line("x", n, now_ms(), ECHO)).unwrap();
                frame["requestJson"] = json!(r#"{"command":["/bin/sh","-c","id"]}"#);
                frame.to_string()
            }),
            "hmac",
        ),
    ];
    let server = TestServer::start().await;
    for (name, line, reason) in cases {
        let mut raw = Raw::connect(&server.path).await;
        let nonce = raw.challenge().await;
        raw.send(&line(&nonce)).await;
        let reply = raw.frame().await.unwrap();
        assert_eq!(reply["id"], "x", "{name}");
        assert_eq!(refusal_reason(&reply), reason, "{name}");
        assert_eq!(
            raw.frame().await,
            None,
            "{name}: connection closed after a refusal"
        );
    }
    // And the server still serves.
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    raw.send(&exec_line("ok", &nonce, now_ms(), ECHO)).await;
    assert_eq!(raw.frame().await.unwrap()["ok"], true);
}

#[tokio::test]
async fn refuses_a_replayed_exec_line_with_a_client_nonce() {
    let server = TestServer::start().await;
    let line = exec_line("r", &own_nonce(), now_ms(), ECHO);
    let mut first = Raw::connect(&server.path).await;
    first.send(&line).await;
    first.challenge().await;
    assert_eq!(first.frame().await.unwrap()["ok"], true);

    let mut second = Raw::connect(&server.path).await;
    second.send(&line).await;
    second.challenge().await;
    assert_eq!(refusal_reason(&second.frame().await.unwrap()), "replay");
}

#[tokio::test]
async fn refuses_a_challenge_nonce_used_twice() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    let line = exec_line("c", &nonce, now_ms(), ECHO);
    raw.send(&line).await;
    assert_eq!(raw.frame().await.unwrap()["ok"], true);
    raw.challenge().await;
    raw.send(&line).await;
    assert_eq!(refusal_reason(&raw.frame().await.unwrap()), "nonce");
    assert_eq!(raw.frame().await, None);

    // The same line on another connection: the server recognises its own
    // challenge nonce, issued to another connection.
    let mut other = Raw::connect(&server.path).await;
    other.challenge().await;
    other.send(&line).await;
    assert_eq!(refusal_reason(&other.frame().await.unwrap()), "nonce");
}

#[tokio::test]
async fn closes_an_oversized_line_with_too_large() {
    let server = TestServer::start_with(|c| c.max_frame = 4096).await;
    let mut raw = Raw::connect(&server.path).await;
    raw.challenge().await;
    // Never send a newline: the server must not wait for one.
    let big = vec![b'x'; 64 * 1024];
    let _ = raw.writer.write_all(&big).await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "error", "error": {"code": "INVALID_REQUEST",
               "message": "frame too large", "reason": "too-large"}})
    );
    assert_eq!(raw.frame().await, None);
}

#[tokio::test]
async fn closes_on_malformed_json_or_unexpected_frames() {
    let server = TestServer::start().await;
    let cases = [
        ("{not json", "INVALID_REQUEST", Some("json")),
        (
            r#"{"type":"exec","id":"x"}"#,
            "INVALID_REQUEST",
            Some("json"),
        ),
        (r#"{"type":"hello"}"#, "INVALID_REQUEST", Some("json")),
        (
            r#"{"type":"decision","id":"x","decision":"allow-once"}"#,
            "INVALID_REQUEST",
            None,
        ),
        (
            r#"{"type":"challenge","nonce":"ab","ts":1,"ttlMs":1}"#,
            "INVALID_REQUEST",
            None,
        ),
    ];
    for (line, code, reason) in cases {
        let mut raw = Raw::connect(&server.path).await;
        raw.challenge().await;
        raw.send(line).await;
        let reply = raw.frame().await.unwrap();
        assert_eq!(reply["type"], "error", "{line}");
        assert_eq!(reply["error"]["code"], code, "{line}");
        assert_eq!(reply["error"]["reason"].as_str(), reason, "{line}");
        assert_eq!(raw.frame().await, None, "{line}");
    }
}

#[tokio::test]
async fn refuses_a_peer_with_another_uid_before_reading() {
    let server = TestServer::start_with(|c| c.expected_uid = c.expected_uid.wrapping_add(1)).await;
    let mut raw = Raw::connect(&server.path).await;
    // A perfectly valid request, sent at once, must not be served.
    raw.send(&exec_line("u", &own_nonce(), now_ms(), ECHO))
        .await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "error", "error": {"code": "UNAUTHORIZED", "message": "peer uid mismatch"}})
    );
    assert_eq!(raw.frame().await, None);
    let mut server = server;
    assert!(server.events.try_recv().is_err(), "handler never ran");
}

/// OpenClaw's client (reference/openclaw.md 8.2 and 13): its own nonce, no
/// challenge read, the line written at once, then a half-close; it ignores
/// every line that is not `exec-res`.
#[tokio::test]
async fn an_openclaw_client_that_half_closes_still_gets_its_reply() {
    let server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let ts = now_ms();
    let nonce = own_nonce();
    let request_json = r#"{"command":["wait","300"],"rawCommand":"wait 300","cwd":"/tmp","env":null,"timeoutMs":5000,"needsScreenRecording":false,"agentId":"main","sessionKey":"s","approvalDecision":null,"policySnapshot":{"x":1}}"#;
    let line = format!(
        r#"{{"type":"exec","id":"oc-1","nonce":"{nonce}","ts":{ts},"hmac":"{}","requestJson":{}}}"#,
        approvals_ipc::ipc::sign(TOKEN, &nonce, ts, request_json),
        serde_json::to_string(request_json).unwrap()
    );
    raw.writer
        .write_all(format!("{line}\n").as_bytes())
        .await
        .unwrap();
    raw.writer.shutdown().await.unwrap();
    let mut reply = None;
    while let Some(frame) = raw.frame().await {
        if frame["type"] == "exec-res" {
            reply = Some(frame);
            break;
        }
    }
    let reply = reply.expect("an exec-res after the half-close");
    assert_eq!(reply["id"], "oc-1");
    let echoed = stdout_of(&reply);
    assert_eq!(echoed["agentId"], "main");
    assert_eq!(echoed["policySnapshot"], json!({"x": 1}));
    let mut server = server;
    assert_eq!(server.event().await, "started oc-1");
    assert_eq!(
        server.event().await,
        "completed oc-1",
        "half-close is not a cancellation"
    );
}

#[tokio::test]
async fn serves_the_legacy_request_frame_with_the_right_token_only() {
    let mut server = TestServer::start().await;
    let request = json!({"command": "ls -la", "cwd": "/tmp", "agentId": "main",
                         "resolvedPath": "/bin/ls", "allowedDecisions": ["allow-once", "deny"]});

    let mut raw = Raw::connect(&server.path).await;
    raw.challenge().await;
    raw.send(
        &json!({"type": "request", "token": TOKEN, "id": "p1", "request": request}).to_string(),
    )
    .await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "decision", "id": "p1", "decision": "allow-once"})
    );
    assert_eq!(server.event().await, "prompt ls -la");

    let mut raw = Raw::connect(&server.path).await;
    raw.challenge().await;
    raw.send(
        &json!({"type": "request", "token": "test-tokeN", "id": "p2", "request": request})
            .to_string(),
    )
    .await;
    assert_eq!(
        raw.frame().await.unwrap(),
        json!({"type": "decision", "id": "p2", "decision": "deny"})
    );
    assert_eq!(raw.frame().await, None);
    assert!(
        server.events.try_recv().is_err(),
        "no prompt for a wrong token"
    );
}
