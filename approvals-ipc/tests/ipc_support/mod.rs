//! Shared fixtures for the socket protocol tests: a server on a temp socket
//! with an echoing handler, and a raw line-level connection for speaking the
//! wire format byte for byte.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::ipc::{
    Decision, ErrorBody, ErrorCode, ExecPayload, ExecRequest, Handler, PendingNotice,
    PromptRequest, RequestContext, ServerConfig, Token, serve, sign,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

pub const TOKEN: &str = "test-token";
/// Generous bound for any single read in a test, so a bug fails instead of hanging.
pub const STEP: Duration = Duration::from_secs(10);

/// Echoes the request back; `wait MS` waits for MS or cancellation, `deny` refuses.
pub struct EchoHandler {
    events: mpsc::UnboundedSender<String>,
}

impl Handler for EchoHandler {
    async fn exec(
        &self,
        request: ExecRequest,
        ctx: RequestContext,
    ) -> Result<ExecPayload, ErrorBody> {
        match request.command.first().map(String::as_str) {
            Some("wait") => {
                let ms = request
                    .command
                    .get(1)
                    .and_then(|ms| ms.parse().ok())
                    .unwrap_or(1_000);
                let _ = self.events.send(format!("started {}", ctx.id));
                tokio::select! {
                    () = ctx.cancelled.cancelled() => {
                        let _ = self.events.send(format!("cancelled {}", ctx.id));
                    }
                    () = tokio::time::sleep(Duration::from_millis(ms)) => {
                        let _ = self.events.send(format!("completed {}", ctx.id));
                    }
                }
            }
            Some("pending") => {
                // Waits for a person, as the bridge's handler says.
                ctx.notices.approval_pending(PendingNotice {
                    approval_id: "3fa85f64-5717-4562-b3fc-2c963f66afa6".into(),
                    short_id: "3fa8".into(),
                    expires_at_ms: 1_700_000_120_000,
                });
            }
            Some("deny") => {
                return Err(ErrorBody::new(
                    ErrorCode::Unavailable,
                    "SYSTEM_RUN_DENIED: allowlist miss",
                )
                .with_reason("allowlist-miss"));
            }
            _ => {}
        }
        Ok(ExecPayload {
            exit_code: Some(0),
            success: true,
            stdout: serde_json::to_string(&request).unwrap(),
            run_id: request.run_id,
            decision: Some("allowlist".into()),
            ..ExecPayload::default()
        })
    }

    async fn prompt(&self, request: PromptRequest, _ctx: RequestContext) -> Decision {
        let _ = self.events.send(format!("prompt {}", request.command));
        Decision::AllowOnce
    }
}

pub struct TestServer {
    pub path: PathBuf,
    pub events: mpsc::UnboundedReceiver<String>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    _dir: tempfile::TempDir,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    pub async fn start_with(configure: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let mut config = ServerConfig::new(Token::new(TOKEN));
        configure(&mut config);
        let (events_tx, events) = mpsc::unbounded_channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let handler = Arc::new(EchoHandler { events: events_tx });
        let task = tokio::spawn(serve(listener, config, handler, async move {
            let _ = stopped.await;
        }));
        TestServer {
            path,
            events,
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
        }
    }

    pub async fn event(&mut self) -> String {
        tokio::time::timeout(STEP, self.events.recv())
            .await
            .expect("event in time")
            .expect("event channel open")
    }

    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let task = self.task.take().unwrap();
        tokio::time::timeout(STEP, task)
            .await
            .expect("serve returns")
            .unwrap()
    }
}

/// A line-level connection that speaks the wire format directly.
pub struct Raw {
    pub reader: BufReader<OwnedReadHalf>,
    pub writer: OwnedWriteHalf,
}

impl Raw {
    pub async fn connect(path: &std::path::Path) -> Raw {
        let (reader, writer) = UnixStream::connect(path).await.unwrap().into_split();
        Raw {
            reader: BufReader::new(reader),
            writer,
        }
    }

    /// The next frame as JSON, or `None` at end of file.
    pub async fn frame(&mut self) -> Option<Value> {
        let mut line = String::new();
        let n = tokio::time::timeout(STEP, self.reader.read_line(&mut line))
            .await
            .expect("a line in time")
            .unwrap_or(0);
        (n > 0).then(|| serde_json::from_str(&line).expect("server sends json lines"))
    }

    /// Reads a challenge and returns its nonce.
    pub async fn challenge(&mut self) -> String {
        let frame = self.frame().await.expect("a challenge");
        assert_eq!(frame["type"], "challenge", "{frame}");
        frame["nonce"].as_str().unwrap().to_owned()
    }

    pub async fn send(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
    }
}

pub fn now_ms() -> i64 {
    approvals_ipc::ipc::auth::wall_clock_ms()
}

/// An `exec` line signed with `token`.
pub fn exec_line_with(token: &str, id: &str, nonce: &str, ts: i64, request_json: &str) -> String {
    json!({
        "type": "exec",
        "id": id,
        "nonce": nonce,
        "ts": ts,
        "hmac": sign(token, nonce, ts, request_json),
        "requestJson": request_json,
    })
    .to_string()
}

/// An `exec` line signed with the test token.
pub fn exec_line(id: &str, nonce: &str, ts: i64, request_json: &str) -> String {
    exec_line_with(TOKEN, id, nonce, ts, request_json)
}

/// A fresh client-made nonce (OpenClaw style: 16 random bytes, hex).
pub fn own_nonce() -> String {
    approvals_ipc::ipc::auth::new_nonce().unwrap()[..32].to_owned()
}

/// The `exec-res` error reason, or a panic naming what came instead.
pub fn refusal_reason(frame: &Value) -> &str {
    assert_eq!(frame["type"], "exec-res", "{frame}");
    assert_eq!(frame["ok"], false, "{frame}");
    assert_eq!(frame["error"]["code"], "INVALID_REQUEST", "{frame}");
    frame["error"]["reason"].as_str().unwrap()
}
