//! The server under misbehaving and many clients: idle timeouts, slow
//! writers, oversized lines, a full replay cache, the connection limit,
//! disconnects while a request is pending, shutdown, and 200 concurrent
//! clients (DESIGN.md invariant 2: refused without stalling the server).

mod ipc_support;

use std::time::Duration;

use approvals_ipc::ipc::{Client, ExecRequest, ExecResponse};
use ipc_support::*;
use serde_json::json;
use tokio::io::AsyncWriteExt;

const ECHO: &str = r#"{"command":["/bin/echo","hi"]}"#;

async fn served(path: &std::path::Path) -> bool {
    let mut client = Client::connect(path, TOKEN).await.unwrap();
    let request = ExecRequest {
        command: vec!["/bin/echo".into(), "ok".into()],
        ..ExecRequest::default()
    };
    matches!(client.exec(&request).await, Ok(ExecResponse::Completed(p)) if p.success)
}

#[tokio::test]
async fn a_silent_client_times_out_while_another_is_served() {
    let server = TestServer::start_with(|c| c.read_timeout = Duration::from_millis(1_000)).await;
    let mut silent = Raw::connect(&server.path).await;
    silent.challenge().await;
    // Meanwhile, others are served at once.
    let started = tokio::time::Instant::now();
    for _ in 0..3 {
        assert!(served(&server.path).await);
    }
    assert!(started.elapsed() < Duration::from_millis(1_000));
    assert_eq!(
        silent.frame().await.unwrap(),
        json!({"type": "error", "error": {"code": "TIMEOUT", "message": "idle connection closed", "reason": "idle"}})
    );
    assert_eq!(silent.frame().await, None);
    assert!(started.elapsed() >= Duration::from_millis(900));
}

#[tokio::test]
async fn a_slow_partial_line_is_cut_off_by_the_read_timeout() {
    let server = TestServer::start_with(|c| c.read_timeout = Duration::from_millis(300)).await;
    let mut slow = Raw::connect(&server.path).await;
    slow.challenge().await;
    let writer = tokio::spawn(async move {
        for _ in 0..20 {
            if slow.writer.write_all(b"{").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        slow.frame().await
    });
    assert!(served(&server.path).await);
    let last = writer.await.unwrap().unwrap();
    assert_eq!(last["error"]["code"], "TIMEOUT");
}

#[tokio::test]
async fn keeps_serving_while_other_connections_misbehave() {
    let server = TestServer::start_with(|c| c.max_frame = 1024).await;
    let mut oversized = Raw::connect(&server.path).await;
    let mut garbage = Raw::connect(&server.path).await;
    let mut never_reads = tokio::net::UnixStream::connect(&server.path).await.unwrap();
    let _ = oversized.writer.write_all(&[b'a'; 8192]).await;
    garbage.send("\u{0}\u{1}not json").await;
    never_reads.write_all(b"{\"type\":").await.unwrap();
    for _ in 0..5 {
        assert!(served(&server.path).await);
    }
    oversized.challenge().await;
    assert_eq!(
        oversized.frame().await.unwrap()["error"]["reason"],
        "too-large"
    );
    garbage.challenge().await;
    assert_eq!(garbage.frame().await.unwrap()["error"]["reason"], "json");
}

#[tokio::test]
async fn refuses_new_client_nonces_when_the_replay_cache_is_full() {
    let server = TestServer::start_with(|c| c.replay_capacity = 2).await;
    let mut reasons = Vec::new();
    for i in 0..3 {
        let mut raw = Raw::connect(&server.path).await;
        raw.send(&exec_line(&format!("f{i}"), &own_nonce(), now_ms(), ECHO))
            .await;
        raw.challenge().await;
        let reply = raw.frame().await.unwrap();
        reasons.push(if reply["ok"] == true {
            "ok".to_owned()
        } else {
            assert_eq!(
                reply["error"]["message"],
                "replay cache full: too many recent requests, retry shortly"
            );
            refusal_reason(&reply).to_owned()
        });
    }
    assert_eq!(reasons, ["ok", "ok", "replay"]);
}

#[tokio::test]
async fn beyond_the_limit_the_oldest_idle_connection_makes_room() {
    let server = TestServer::start_with(|c| c.max_connections = 2).await;
    let mut a = Raw::connect(&server.path).await;
    let mut b = Raw::connect(&server.path).await;
    a.challenge().await;
    b.challenge().await;
    let mut c = Raw::connect(&server.path).await;
    c.challenge().await;
    let evicted = a.frame().await.unwrap();
    assert_eq!(evicted["error"]["code"], "UNAVAILABLE", "{evicted}");
    assert_eq!(evicted["error"]["reason"], "evicted", "{evicted}");
    assert_eq!(a.frame().await, None);
    assert!(served(&server.path).await, "and the newest one is served");
}

#[tokio::test]
async fn beyond_the_limit_with_every_connection_busy_a_new_one_is_refused() {
    let mut server = TestServer::start_with(|c| c.max_connections = 2).await;
    let mut busy = Vec::new();
    for name in ["one", "two"] {
        let mut raw = Raw::connect(&server.path).await;
        let nonce = raw.challenge().await;
        raw.send(&exec_line(
            name,
            &nonce,
            now_ms(),
            r#"{"command":["wait","5000"]}"#,
        ))
        .await;
        assert_eq!(server.event().await, format!("started {name}"));
        busy.push(raw);
    }
    let mut c = Raw::connect(&server.path).await;
    let refused = c.frame().await.unwrap();
    assert_eq!(refused["error"]["code"], "UNAVAILABLE", "{refused}");
    // All three are this test's process: its own cap is reached first.
    assert_eq!(refused["error"]["reason"], "peer-busy", "{refused}");
    assert_eq!(c.frame().await, None);
    drop(busy);
    // The slots free once the server notices the closes.
    let mut freed = false;
    for _ in 0..50 {
        let mut d = Raw::connect(&server.path).await;
        if d.frame().await.unwrap()["type"] == "challenge" {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(freed);
}

#[tokio::test]
async fn a_client_that_disconnects_cancels_its_pending_request() {
    let mut server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    raw.send(&exec_line(
        "gone",
        &nonce,
        now_ms(),
        r#"{"command":["wait","5000"]}"#,
    ))
    .await;
    assert_eq!(server.event().await, "started gone");
    let started = tokio::time::Instant::now();
    drop(raw);
    assert_eq!(server.event().await, "cancelled gone");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_client_that_only_half_closes_does_not_cancel() {
    let mut server = TestServer::start().await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    raw.send(&exec_line(
        "half",
        &nonce,
        now_ms(),
        r#"{"command":["wait","400"]}"#,
    ))
    .await;
    raw.writer.shutdown().await.unwrap();
    assert_eq!(server.event().await, "started half");
    assert_eq!(server.event().await, "completed half");
    let reply = raw.frame().await.unwrap();
    assert_eq!(
        (reply["id"].clone(), reply["ok"].clone()),
        (json!("half"), json!(true))
    );
}

#[tokio::test]
async fn shutdown_stops_accepting_and_returns() {
    let server = TestServer::start().await;
    let path = server.path.clone();
    assert!(served(&path).await);
    let mut idle = Raw::connect(&path).await;
    idle.challenge().await;
    server.shutdown().await.unwrap();
    assert_eq!(idle.frame().await.unwrap()["error"]["code"], "UNAVAILABLE");
    assert!(tokio::net::UnixStream::connect(&path).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_two_hundred_concurrent_clients() {
    let server = TestServer::start().await;
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..200 {
        let path = server.path.clone();
        tasks.spawn(async move {
            let mut client = Client::connect(&path, TOKEN).await.unwrap();
            let mut seen = Vec::new();
            for j in 0..3 {
                let request = ExecRequest {
                    command: vec![format!("c{i}"), format!("r{j}")],
                    ..ExecRequest::default()
                };
                match client.exec(&request).await.unwrap() {
                    ExecResponse::Completed(payload) => seen.push(payload.stdout),
                    ExecResponse::Refused(error) => panic!("refused: {error:?}"),
                }
            }
            (i, seen)
        });
    }
    let mut done = 0;
    while let Some(result) = tasks.join_next().await {
        let (i, seen) = result.unwrap();
        for (j, stdout) in seen.iter().enumerate() {
            assert_eq!(
                stdout,
                &json!({"command": [format!("c{i}"), format!("r{j}")]}).to_string()
            );
        }
        done += 1;
    }
    assert_eq!(done, 200);
}
