//! The control API over a real socket: `control` frames are admitted
//! exactly like `exec` frames (ttl, hmac, nonce, replay, json), answered
//! with `control-res`, and refused by a handler that does not serve them
//! (DESIGN.md sections 5 and 7, invariant 2).

mod ipc_support;

use std::sync::{Arc, Mutex};

use approvals_ipc::ipc::{
    Client, ControlRequest, ControlResponse, Decision, ErrorBody, ErrorCode, ExecPayload,
    ExecRequest, Handler, PromptRequest, RequestContext, ServerConfig, Token, serve, sign,
};
use ipc_support::{Raw, STEP, TOKEN, TestServer, now_ms, own_nonce};
use serde_json::{Value, json};
use tokio::net::UnixListener;

/// A handler with a fixed set of pending approvals that `resolve` removes.
#[derive(Default)]
struct ApprovalsHandler {
    pending: Mutex<Vec<String>>,
    /// Every control request that reached the handler, as `op` names.
    seen: Mutex<Vec<String>>,
}

impl Handler for ApprovalsHandler {
    async fn exec(&self, _: ExecRequest, _: RequestContext) -> Result<ExecPayload, ErrorBody> {
        Err(ErrorBody::new(ErrorCode::Unavailable, "no exec here"))
    }

    async fn prompt(&self, _: PromptRequest, _: RequestContext) -> Decision {
        Decision::Deny
    }

    async fn control(
        &self,
        request: ControlRequest,
        _: RequestContext,
    ) -> Result<Value, ErrorBody> {
        self.seen.lock().unwrap().push(request.op().to_owned());
        let mut pending = self.pending.lock().unwrap();
        match request {
            ControlRequest::List {} => Ok(json!(*pending)),
            ControlRequest::Resolve {
                id,
                decision,
                approver,
            } => {
                let Some(at) = pending.iter().position(|p| p.starts_with(&id)) else {
                    return Err(ErrorBody::new(
                        ErrorCode::NotFound,
                        "unknown or expired approval id",
                    ));
                };
                let full = pending.remove(at);
                Ok(json!({"id": full, "decision": decision, "approver": approver}))
            }
            ControlRequest::Answer { .. } | ControlRequest::CancelAgent { .. } => Err(
                ErrorBody::new(ErrorCode::InvalidRequest, "not in this test"),
            ),
        }
    }
}

struct ControlServer {
    path: std::path::PathBuf,
    handler: Arc<ApprovalsHandler>,
    _stop: tokio::sync::oneshot::Sender<()>,
    _dir: tempfile::TempDir,
}

async fn start(pending: &[&str]) -> ControlServer {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sock");
    let listener = UnixListener::bind(&path).unwrap();
    let handler = Arc::new(ApprovalsHandler {
        pending: Mutex::new(pending.iter().map(|p| (*p).to_owned()).collect()),
        seen: Mutex::default(),
    });
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = ServerConfig::new(Token::new(TOKEN));
    tokio::spawn(serve(listener, config, Arc::clone(&handler), async move {
        let _ = stopped.await;
    }));
    ControlServer {
        path,
        handler,
        _stop: stop,
        _dir: dir,
    }
}

fn control_line(token: &str, id: &str, nonce: &str, ts: i64, request_json: &str) -> String {
    json!({
        "type": "control", "id": id, "nonce": nonce, "ts": ts,
        "hmac": sign(token, nonce, ts, request_json), "requestJson": request_json,
    })
    .to_string()
}

fn resolve(id: &str) -> ControlRequest {
    ControlRequest::Resolve {
        id: id.into(),
        decision: Decision::AllowOnce,
        approver: "alice".into(),
    }
}

/// The `control-res` refusal reason, checking the frame's shape on the way.
fn control_refusal(frame: &Value, id: &str) -> String {
    assert_eq!(frame["type"], "control-res", "{frame}");
    assert_eq!(frame["id"], id, "{frame}");
    assert_eq!(frame["ok"], false, "{frame}");
    assert_eq!(frame["error"]["code"], "INVALID_REQUEST", "{frame}");
    frame["error"]["reason"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn lists_and_resolves_through_the_client_and_a_second_answer_is_not_found() {
    let server = start(&["aaaa-1", "bbbb-2"]).await;
    let mut client = Client::connect(&server.path, TOKEN).await.unwrap();
    assert_eq!(
        client.control(&ControlRequest::List {}).await.unwrap(),
        ControlResponse::Done(json!(["aaaa-1", "bbbb-2"]))
    );
    assert_eq!(
        client.control(&resolve("aaaa")).await.unwrap(),
        ControlResponse::Done(
            json!({"id": "aaaa-1", "decision": "allow-once", "approver": "alice"})
        )
    );
    match client.control(&resolve("aaaa")).await.unwrap() {
        ControlResponse::Refused(error) => assert_eq!(error.code, ErrorCode::NotFound),
        other => panic!("second answer must be NOT_FOUND, got {other:?}"),
    }
    assert_eq!(
        client.control(&ControlRequest::List {}).await.unwrap(),
        ControlResponse::Done(json!(["bbbb-2"]))
    );
    // Exec still works on the same connection after control requests.
    let exec = client
        .exec(&ExecRequest {
            command: vec!["x".into()],
            ..ExecRequest::default()
        })
        .await
        .unwrap();
    assert!(matches!(exec, approvals_ipc::ipc::ExecResponse::Refused(_)));
}

#[tokio::test]
async fn refuses_a_control_frame_with_a_wrong_hmac_before_the_handler_sees_it() {
    let server = start(&["aaaa-1"]).await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    let body = r#"{"op":"resolve","id":"aaaa","decision":"allow-once","approver":"mallory"}"#;
    raw.send(&control_line("not-the-token", "c1", &nonce, now_ms(), body))
        .await;
    let reply = raw.frame().await.unwrap();
    assert_eq!(control_refusal(&reply, "c1"), "hmac");
    assert_eq!(raw.frame().await, None, "the connection is closed");
    assert!(server.handler.seen.lock().unwrap().is_empty());
    assert_eq!(*server.handler.pending.lock().unwrap(), ["aaaa-1"]);
}

#[tokio::test]
async fn refuses_stale_and_future_control_frames() {
    let server = start(&["aaaa-1"]).await;
    // Well past the 10 s window either way, so the time the frame takes to
    // arrive cannot bring it back inside.
    for skew in [-10_500, 10_500] {
        let mut raw = Raw::connect(&server.path).await;
        let nonce = raw.challenge().await;
        let ts = now_ms() + skew;
        raw.send(&control_line(TOKEN, "c", &nonce, ts, r#"{"op":"list"}"#))
            .await;
        assert_eq!(control_refusal(&raw.frame().await.unwrap(), "c"), "ttl");
    }
    assert!(server.handler.seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn refuses_a_replayed_control_frame_on_another_connection() {
    let server = start(&["aaaa-1", "aaab-2"]).await;
    let body = r#"{"op":"resolve","id":"aaa","decision":"allow-once","approver":"alice"}"#;
    let nonce = own_nonce();
    let line = control_line(TOKEN, "c1", &nonce, now_ms(), body);
    let mut first = Raw::connect(&server.path).await;
    first.challenge().await;
    first.send(&line).await;
    let reply = first.frame().await.unwrap();
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["payload"]["id"], "aaaa-1");
    // The captured line, sent again: it must not resolve the next approval.
    let mut second = Raw::connect(&server.path).await;
    second.challenge().await;
    second.send(&line).await;
    assert_eq!(
        control_refusal(&second.frame().await.unwrap(), "c1"),
        "replay"
    );
    assert_eq!(*server.handler.seen.lock().unwrap(), ["resolve"]);
    assert_eq!(*server.handler.pending.lock().unwrap(), ["aaab-2"]);
}

#[tokio::test]
async fn refuses_a_spent_challenge_nonce_on_the_same_connection() {
    let server = start(&[]).await;
    let mut raw = Raw::connect(&server.path).await;
    let nonce = raw.challenge().await;
    let line = control_line(TOKEN, "c", &nonce, now_ms(), r#"{"op":"list"}"#);
    raw.send(&line).await;
    assert_eq!(raw.frame().await.unwrap()["ok"], true);
    raw.challenge().await;
    raw.send(&line).await;
    assert_eq!(control_refusal(&raw.frame().await.unwrap(), "c"), "nonce");
}

#[tokio::test]
async fn refuses_control_json_it_does_not_know_after_authentication() {
    let server = start(&["aaaa-1"]).await;
    let bad = [
        r#"{"op":"delete","id":"aaaa"}"#,
        r#"{"op":"list","all":true}"#,
        r#"{"op":"resolve","id":"aaaa","decision":"yes","approver":"a"}"#,
        r#"{"command":["/bin/id"]}"#,
    ];
    for body in bad {
        let mut raw = Raw::connect(&server.path).await;
        let nonce = raw.challenge().await;
        raw.send(&control_line(TOKEN, "c", &nonce, now_ms(), body))
            .await;
        assert_eq!(
            control_refusal(&raw.frame().await.unwrap(), "c"),
            "json",
            "{body}"
        );
    }
    assert!(server.handler.seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_handler_without_control_refuses_it_as_unavailable() {
    let server = TestServer::start().await;
    let mut client = Client::connect(&server.path, TOKEN).await.unwrap();
    let reply = tokio::time::timeout(STEP, client.control(&ControlRequest::List {}))
        .await
        .unwrap()
        .unwrap();
    match reply {
        ControlResponse::Refused(error) => {
            assert_eq!(error.code, ErrorCode::Unavailable);
            assert_eq!(error.message, "control API not served");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // The connection stays usable for exec.
    let exec = client
        .exec(&ExecRequest {
            command: vec!["/bin/echo".into()],
            ..ExecRequest::default()
        })
        .await
        .unwrap();
    assert!(matches!(
        exec,
        approvals_ipc::ipc::ExecResponse::Completed(_)
    ));
    server.shutdown().await.unwrap();
}
