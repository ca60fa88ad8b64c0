//! The client against our server and against fake servers that misbehave:
//! each failure maps to the `ClientError` variant the node host acts on.

mod ipc_support;

use std::time::Duration;

use approvals_ipc::ipc::{
    Client, ClientConfig, ClientError, ErrorCode, ExecRequest, ExecResponse, Frame,
};
use ipc_support::*;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixListener;

fn request(command: &[&str]) -> ExecRequest {
    ExecRequest {
        command: command.iter().map(|s| s.to_string()).collect(),
        ..ExecRequest::default()
    }
}

/// A fake exec host: sends a challenge, reads one line, then does `then`.
async fn fake_server(then: &'static str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fake.sock");
    let listener = UnixListener::bind(&path).unwrap();
    tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let (reader, mut writer) = stream.into_split();
        let challenge = r#"{"type":"challenge","nonce":"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff","ts":0,"ttlMs":10000}"#;
        writer
            .write_all(format!("{challenge}\n").as_bytes())
            .await
            .unwrap();
        let mut line = String::new();
        let mut reader = BufReader::new(reader);
        reader.read_line(&mut line).await.unwrap();
        let exec: serde_json::Value = serde_json::from_str(&line).unwrap();
        let id = exec["id"].as_str().unwrap().to_owned();
        match then {
            "close" => {}
            "hang" => tokio::time::sleep(Duration::from_secs(30)).await,
            "noise-then-reply" => {
                let lines = [
                    r#"{"type":"decision","id":"zz","decision":"deny"}"#.to_owned(),
                    r#"{"type":"exec-res","id":"other","ok":true,"payload":{"stdout":"wrong"}}"#
                        .to_owned(),
                    format!(
                        r#"{{"type":"exec-res","id":"{id}","ok":true,"payload":{{"stdout":"right"}}}}"#
                    ),
                ];
                for l in lines {
                    writer.write_all(format!("{l}\n").as_bytes()).await.unwrap();
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            "inconsistent" => {
                let l = format!(r#"{{"type":"exec-res","id":"{id}","ok":true}}"#);
                writer.write_all(format!("{l}\n").as_bytes()).await.unwrap();
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            other => panic!("unknown fake behaviour {other}"),
        }
    });
    (dir, path)
}

#[tokio::test]
async fn runs_many_requests_on_one_connection() {
    let server = TestServer::start().await;
    let mut client = Client::connect(&server.path, TOKEN).await.unwrap();
    for i in 0..10 {
        let response = client
            .exec(&request(&["echo", &i.to_string()]))
            .await
            .unwrap();
        let ExecResponse::Completed(payload) = response else {
            panic!("{response:?}")
        };
        assert_eq!(payload.stdout, format!(r#"{{"command":["echo","{i}"]}}"#));
    }
    let refused = client.exec(&request(&["deny"])).await.unwrap();
    let ExecResponse::Refused(error) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(
        (error.code, error.reason.as_deref()),
        (ErrorCode::Unavailable, Some("allowlist-miss"))
    );
    assert!(!client.is_broken());
}

#[tokio::test]
async fn a_wrong_token_is_refused_with_hmac_and_the_connection_ends() {
    let server = TestServer::start().await;
    let mut client = Client::connect(&server.path, "not-the-token")
        .await
        .unwrap();
    let ExecResponse::Refused(error) = client.exec(&request(&["x"])).await.unwrap() else {
        panic!("accepted a wrong token")
    };
    assert_eq!(error.reason.as_deref(), Some("hmac"));
    assert!(matches!(
        client.exec(&request(&["x"])).await,
        Err(ClientError::Closed { .. })
    ));
    assert!(matches!(
        client.exec(&request(&["x"])).await,
        Err(ClientError::Broken)
    ));
}

#[tokio::test]
async fn a_missing_or_dead_socket_is_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.sock");
    assert!(matches!(
        Client::connect(&missing, TOKEN).await,
        Err(ClientError::Unavailable { .. })
    ));
    let dead = dir.path().join("dead.sock");
    drop(UnixListener::bind(&dead).unwrap());
    assert!(matches!(
        Client::connect(&dead, TOKEN).await,
        Err(ClientError::Unavailable { .. })
    ));
}

#[tokio::test]
async fn refuses_a_server_with_another_uid_before_sending() {
    let mut server = TestServer::start().await;
    let config = ClientConfig {
        expected_server_uid: approvals_ipc::ipc::peer::own_euid().wrapping_add(1),
        ..ClientConfig::default()
    };
    let error = Client::connect_with(&server.path, TOKEN, config)
        .await
        .unwrap_err();
    assert!(
        matches!(error, ClientError::ServerUidMismatch { .. }),
        "{error:?}"
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(server.events.try_recv().is_err());
}

#[tokio::test]
async fn a_server_error_frame_is_reported() {
    let server = TestServer::start_with(|c| c.expected_uid = c.expected_uid.wrapping_add(1)).await;
    let mut client = Client::connect(&server.path, TOKEN).await.unwrap();
    match client.exec(&request(&["x"])).await {
        Err(ClientError::Server(error)) => assert_eq!(error.code, ErrorCode::Unauthorized),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_server_that_closes_mid_request_is_closed_not_a_result() {
    let (_dir, path) = fake_server("close").await;
    let mut client = Client::connect(&path, TOKEN).await.unwrap();
    let error = client.exec(&request(&["x"])).await.unwrap_err();
    assert!(
        matches!(
            error,
            ClientError::Closed {
                during: "waiting for the reply"
            }
        ),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("outcome of the command is unknown")
    );
    assert!(client.is_broken());
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let (_dir, path) = fake_server("hang").await;
    let config = ClientConfig {
        response_timeout: Duration::from_millis(200),
        ..ClientConfig::default()
    };
    let mut client = Client::connect_with(&path, TOKEN, config).await.unwrap();
    let error = client.exec(&request(&["x"])).await.unwrap_err();
    assert!(matches!(error, ClientError::Timeout { .. }), "{error:?}");
    assert!(matches!(
        client.exec(&request(&["x"])).await,
        Err(ClientError::Broken)
    ));
}

#[tokio::test]
async fn ignores_other_frames_and_replies_with_other_ids() {
    let (_dir, path) = fake_server("noise-then-reply").await;
    let mut client = Client::connect(&path, TOKEN).await.unwrap();
    match client.exec(&request(&["x"])).await.unwrap() {
        ExecResponse::Completed(payload) => assert_eq!(payload.stdout, "right"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn an_exec_res_without_payload_is_a_protocol_error() {
    let (_dir, path) = fake_server("inconsistent").await;
    let mut client = Client::connect(&path, TOKEN).await.unwrap();
    let error = client.exec(&request(&["x"])).await.unwrap_err();
    assert!(matches!(error, ClientError::Protocol { .. }), "{error:?}");
}

#[tokio::test]
async fn client_frames_are_what_the_server_expects() {
    // Whatever the client sends parses as an exec frame signed over its exact requestJson.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spy.sock");
    let listener = UnixListener::bind(&path).unwrap();
    let spy = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        let (reader, mut writer) = stream.into_split();
        let nonce = "ab".repeat(32);
        let challenge = format!(r#"{{"type":"challenge","nonce":"{nonce}","ts":0,"ttlMs":10000}}"#);
        writer
            .write_all(format!("{challenge}\n").as_bytes())
            .await
            .unwrap();
        let mut line = String::new();
        BufReader::new(reader).read_line(&mut line).await.unwrap();
        (nonce, serde_json::from_str::<Frame>(&line).unwrap())
    });
    let mut client = Client::connect(&path, TOKEN).await.unwrap();
    let _ = tokio::time::timeout(
        Duration::from_millis(300),
        client.exec(&request(&["/bin/ls"])),
    )
    .await;
    let (nonce, frame) = spy.await.unwrap();
    let Frame::Exec(exec) = frame else {
        panic!("{frame:?}")
    };
    assert_eq!(exec.nonce, nonce);
    assert!(approvals_ipc::ipc::verify(
        TOKEN,
        &exec.nonce,
        exec.ts,
        &exec.request_json,
        &exec.hmac
    ));
    assert_eq!(exec.request_json, r#"{"command":["/bin/ls"]}"#);
    assert!((exec.ts - now_ms()).abs() < 5_000);
}
