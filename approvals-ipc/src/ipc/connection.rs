//! One connection on the server: peer check, challenge, then frames until
//! the client goes away, times out or misbehaves.
//!
//! It refuses a peer with another UID before reading a byte (DESIGN.md
//! invariant 1), and closes the connection after any refusal, oversized or
//! malformed line, unexpected frame type or idle timeout (invariant 2).
//! End-of-file from the client is not the end of the connection: OpenClaw's
//! client half-closes after sending and still reads the reply, so a pending
//! reply is always written.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::UnixStream;
use tokio_util::sync::CancellationToken;

use super::admit::{self, AdmitContext, ChallengeState};
use super::auth::{self, Token};
use serde::de::DeserializeOwned;

use super::codec::{self, LineReader};
use super::config::ServerConfig;
use super::control::{ControlRequest, ControlRes};
use super::error::{FrameError, Refusal};
use super::frame::{
    Decision, ErrorBody, ErrorCode, ExecFrame, ExecPending, ExecRequest, ExecRes, Frame,
    PromptRequest,
};
use super::handler::{Handler, Notices, PendingNotice, RequestContext};
use super::instance::Instance;
use super::peer;
use super::replay::ReplayCache;
use super::slots::Slot;
use super::stream::{self, ReadHalf, WriteHalf};

/// How often a pending request checks whether a half-closed client hung up entirely.
const HANGUP_POLL: Duration = Duration::from_millis(100);

type ReadResult = Result<Option<String>, FrameError>;

/// What every connection task shares; built once by `server::serve`.
#[derive(Debug)]
pub(super) struct Shared<H> {
    pub(super) config: ServerConfig,
    pub(super) handler: Arc<H>,
    pub(super) replay: Mutex<ReplayCache>,
    pub(super) instance: Instance,
    pub(super) stop: CancellationToken,
}

/// Serves one accepted stream to the end; its slot is freed on return.
pub(super) async fn run<H: Handler>(stream: UnixStream, shared: Arc<Shared<H>>, slot: Slot) {
    let peer_uid = match peer::peer_uid(&stream) {
        Ok(uid) => uid,
        Err(error) => {
            tracing::warn!(%error, "cannot read peer credentials; closing");
            return;
        }
    };
    let peer_pid = peer::peer_pid(&stream);
    let (reader, writer) = match stream::split(stream) {
        Ok(halves) => halves,
        Err(error) => {
            tracing::warn!(%error, "cannot register the connection; closing");
            return;
        }
    };
    let mut conn = Connection {
        reader: LineReader::new(reader, shared.config.max_frame),
        writer,
        challenge: ChallengeState::default(),
        stashed: None,
        peer_uid,
        peer_pid,
        shared,
        slot,
    };
    if peer_uid != conn.shared.config.expected_uid {
        tracing::warn!(
            peer_uid,
            ?peer_pid,
            expected_uid = conn.shared.config.expected_uid,
            reason = Refusal::PeerUid.reason(),
            "refusing peer with another uid"
        );
        conn.send_error(ErrorBody::new(ErrorCode::Unauthorized, "peer uid mismatch"))
            .await;
        return;
    }
    tracing::debug!(peer_uid, ?peer_pid, "connection accepted");
    conn.serve().await;
    tracing::debug!(peer_uid, ?peer_pid, "connection closed");
}

struct Connection<H> {
    reader: LineReader<ReadHalf>,
    writer: WriteHalf,
    challenge: ChallengeState,
    /// A read that completed while a request was pending, to handle next.
    stashed: Option<ReadResult>,
    peer_uid: u32,
    peer_pid: Option<i32>,
    shared: Arc<Shared<H>>,
    /// Idle while waiting for a request; closed to make room when evicted.
    slot: Slot,
}

/// Whether to keep the connection after handling a frame.
enum Next {
    /// Serve the next request; its challenge went out with the reply.
    ChallengeSent,
    /// End the connection.
    Close,
}

impl<H: Handler> Connection<H> {
    async fn serve(&mut self) {
        // The first challenge goes out alone; later ones ride with replies.
        let mut challenge_sent = false;
        loop {
            if !challenge_sent && !self.send_challenge().await {
                return;
            }
            let line = match self.read_request().await {
                Some(Ok(Some(line))) => line,
                Some(Ok(None)) | None => return,
                Some(Err(FrameError::TooLarge { limit })) => {
                    tracing::warn!(
                        limit,
                        reason = Refusal::TooLarge.reason(),
                        "oversized frame"
                    );
                    self.send_error(refusal_body(Refusal::TooLarge)).await;
                    return;
                }
                Some(Err(FrameError::Utf8)) => {
                    self.send_error(
                        ErrorBody::new(ErrorCode::InvalidRequest, "frame is not valid utf-8")
                            .with_reason(Refusal::Json.reason()),
                    )
                    .await;
                    return;
                }
                Some(Err(FrameError::Io(error))) => {
                    tracing::debug!(%error, "read failed");
                    return;
                }
            };
            let next = match parse_frame(&line) {
                Ok(Frame::Exec(frame)) => self.on_exec(frame).await,
                Ok(Frame::Control(frame)) => self.on_control(frame).await,
                Ok(Frame::Request { token, id, request }) => {
                    self.on_request(token, id, request).await
                }
                Ok(other) => {
                    tracing::warn!(kind = other.kind(), "unexpected frame type from client");
                    let message = format!("unexpected frame type `{}`", other.kind());
                    self.send_error(ErrorBody::new(ErrorCode::InvalidRequest, message))
                        .await;
                    Next::Close
                }
                Err(message) => {
                    tracing::warn!("malformed frame from client");
                    self.send_error(
                        ErrorBody::new(ErrorCode::InvalidRequest, message)
                            .with_reason(Refusal::Json.reason()),
                    )
                    .await;
                    Next::Close
                }
            };
            match next {
                Next::Close => return,
                Next::ChallengeSent => challenge_sent = true,
            }
        }
    }

    /// The next line, or `None` when the connection should end quietly-ish.
    async fn read_request(&mut self) -> Option<ReadResult> {
        if let Some(stashed) = self.stashed.take() {
            return Some(stashed);
        }
        let timeout = self.shared.config.read_timeout;
        if !self.slot.set_idle(true) {
            return None;
        }
        let evicted = self.slot.evicted().clone();
        let read = tokio::select! {
            () = evicted.cancelled() => {
                tracing::debug!(peer_pid = ?self.peer_pid, "idle connection closed to make room for another");
                self.send_error(
                    ErrorBody::new(
                        ErrorCode::Unavailable,
                        "idle connection closed to make room for another; reconnect when you have a request",
                    )
                    .with_reason("evicted"),
                )
                .await;
                None
            }
            () = self.shared.stop.cancelled() => {
                self.send_error(ErrorBody::new(ErrorCode::Unavailable, "exec host shutting down"))
                    .await;
                None
            }
            read = tokio::time::timeout(timeout, self.reader.next_line()) => match read {
                Ok(read) => Some(read),
                Err(_) => {
                    tracing::debug!(?timeout, "idle connection timed out");
                    self.send_error(
                        ErrorBody::new(ErrorCode::Timeout, "idle connection closed")
                            .with_reason("idle"),
                    )
                    .await;
                    None
                }
            },
        };
        // A request arrived: not idle any more, unless it lost the race
        // with an eviction (then the client was idle until that instant).
        if matches!(read, Some(Ok(Some(_)))) && !self.slot.set_idle(false) {
            return None;
        }
        read
    }

    async fn on_exec(&mut self, frame: ExecFrame) -> Next {
        self.on_signed(
            frame,
            "exec",
            true,
            |id, outcome| Frame::ExecRes(ExecRes::new(id, outcome)),
            |shared, request: ExecRequest, ctx| async move { shared.handler.exec(request, ctx).await },
        )
        .await
    }

    async fn on_control(&mut self, frame: ExecFrame) -> Next {
        self.on_signed(
            frame,
            "control",
            false,
            |id, outcome| Frame::ControlRes(ControlRes::new(id, outcome)),
            |shared, request: ControlRequest, ctx| async move {
                shared.handler.control(request, ctx).await
            },
        )
        .await
    }

    /// Serves one signed frame: admission checks, then `run` under
    /// [`Connection::watch_client`] (passing on its `exec-pending` notices
    /// when `notify`), then the reply built by `wrap` (which also wraps a
    /// refusal).
    async fn on_signed<T, O, Run, Fut>(
        &mut self,
        frame: ExecFrame,
        kind: &'static str,
        notify: bool,
        wrap: fn(String, Result<O, ErrorBody>) -> Frame,
        run: Run,
    ) -> Next
    where
        T: DeserializeOwned,
        Run: FnOnce(Arc<Shared<H>>, T, RequestContext) -> Fut,
        Fut: Future<Output = Result<O, ErrorBody>>,
    {
        let Some((id, request)) = self
            .admit_signed::<T>(frame, kind, |id, body| wrap(id, Err(body)))
            .await
        else {
            return Next::Close;
        };
        let mut ctx = self.context(id.clone());
        let (sender, mut notices) = tokio::sync::mpsc::unbounded_channel();
        if notify {
            ctx.notices = Notices::to(sender);
        }
        let cancelled = ctx.cancelled.clone();
        let outcome = self
            .watch_client(
                run(Arc::clone(&self.shared), request, ctx),
                &cancelled,
                Some((&id, &mut notices)),
            )
            .await;
        // A notice sent just before the handler finished still precedes
        // the reply, so a client always hears of an approval that was asked.
        while let Ok(notice) = notices.try_recv() {
            self.send(&pending_frame(&id, notice)).await;
        }
        self.reply(&wrap(id, outcome)).await
    }

    /// Runs the admission checks on a signed frame (`exec` or `control`);
    /// on a refusal, answers with `refused(id, body)` and returns `None`,
    /// after which the connection closes.
    async fn admit_signed<T: DeserializeOwned>(
        &mut self,
        frame: ExecFrame,
        kind: &'static str,
        refused: impl FnOnce(String, ErrorBody) -> Frame,
    ) -> Option<(String, T)> {
        let shared = Arc::clone(&self.shared);
        let ctx = AdmitContext {
            token: &shared.config.token,
            ttl_ms: shared.config.ttl_ms,
            now_ms: auth::wall_clock_ms(),
            replay: &shared.replay,
            instance: &shared.instance,
        };
        let admitted = admit::admit::<T>(&frame, &ctx, &mut self.challenge);
        let id = frame.id;
        match admitted {
            Ok(admitted) => Some((id, admitted.into_request())),
            Err(refusal) => {
                tracing::warn!(id, kind, reason = refusal.reason(), peer_pid = ?self.peer_pid, "refused signed frame");
                self.send(&refused(id, refusal_body(refusal))).await;
                None
            }
        }
    }

    /// Sends a reply; the connection continues only if it was written.
    /// Sends a reply and the next challenge in one write, so the client
    /// wakes once and the next request can be signed at once.
    async fn reply(&mut self, frame: &Frame) -> Next {
        let Some(challenge) = self.next_challenge() else {
            self.send_error(ErrorBody::new(
                ErrorCode::Internal,
                "cannot create a challenge",
            ))
            .await;
            return Next::Close;
        };
        let mut bytes = codec::encode(frame);
        bytes.extend_from_slice(&codec::encode(&challenge));
        if self.send_bytes(&bytes, frame.kind()).await {
            Next::ChallengeSent
        } else {
            Next::Close
        }
    }

    async fn on_request(&mut self, token: Token, id: String, request: PromptRequest) -> Next {
        if !self.shared.config.token.ct_eq(&token) {
            tracing::warn!(id, peer_pid = ?self.peer_pid, "legacy request with a wrong token");
            let deny = Frame::Decision {
                id,
                decision: Decision::Deny,
            };
            self.send(&deny).await;
            return Next::Close;
        }
        let shared = Arc::clone(&self.shared);
        let ctx = self.context(id.clone());
        let cancelled = ctx.cancelled.clone();
        let decision = self
            .watch_client(shared.handler.prompt(request, ctx), &cancelled, None)
            .await;
        self.reply(&Frame::Decision { id, decision }).await
    }

    /// Drives a handler future while watching for the client to disappear.
    ///
    /// A line or EOF read meanwhile is stashed for the main loop; a socket
    /// error fires `cancelled` at once; after EOF (maybe a half-close) the
    /// write side is polled for a hang-up, which fires `cancelled` too.
    ///
    /// With `notices` (the request id and the handler's notice channel),
    /// each notice is written at once as an `exec-pending` frame; a failed
    /// write is left for the reply to find.
    async fn watch_client<F: Future>(
        &mut self,
        handler: F,
        cancelled: &CancellationToken,
        mut notices: Option<(
            &str,
            &mut tokio::sync::mpsc::UnboundedReceiver<PendingNotice>,
        )>,
    ) -> F::Output {
        tokio::pin!(handler);
        let mut ticker = tokio::time::interval(HANGUP_POLL);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let reading = self.stashed.is_none();
            let listening = notices.is_some();
            tokio::select! {
                output = &mut handler => return output,
                notice = async {
                    match notices.as_mut() {
                        Some((_, receiver)) => receiver.recv().await,
                        None => std::future::pending().await,
                    }
                }, if listening => {
                    match (notice, &notices) {
                        (Some(notice), Some((id, _))) => {
                            let frame = pending_frame(id, notice);
                            self.send(&frame).await;
                        }
                        // Every sender is gone: nothing more will come.
                        _ => notices = None,
                    }
                }
                read = self.reader.next_line(), if reading => {
                    if let Err(FrameError::Io(error)) = &read {
                        tracing::debug!(%error, "client socket failed while a request was pending");
                        cancelled.cancel();
                    }
                    self.stashed = Some(read);
                }
                _ = ticker.tick(), if !reading && !cancelled.is_cancelled() => {
                    if self.writer.peer_hung_up() {
                        tracing::debug!("client hung up while a request was pending");
                        cancelled.cancel();
                    }
                }
            }
        }
    }

    fn context(&self, id: String) -> RequestContext {
        RequestContext {
            id,
            peer_uid: self.peer_uid,
            peer_pid: self.peer_pid,
            connection: self.slot.id(),
            cancelled: CancellationToken::new(),
            notices: Notices::none(),
        }
    }

    async fn send_challenge(&mut self) -> bool {
        let Some(frame) = self.next_challenge() else {
            self.send_error(ErrorBody::new(
                ErrorCode::Internal,
                "cannot create a challenge",
            ))
            .await;
            return false;
        };
        self.send(&frame).await
    }

    /// Issues a fresh challenge nonce for this connection; `None` without
    /// randomness.
    fn next_challenge(&mut self) -> Option<Frame> {
        let nonce = match self.shared.instance.issue_nonce() {
            Ok(nonce) => nonce,
            Err(error) => {
                tracing::error!(%error, "no randomness for a challenge nonce");
                return None;
            }
        };
        self.challenge.issue(nonce.clone());
        Some(Frame::Challenge {
            nonce,
            ts: auth::wall_clock_ms(),
            ttl_ms: self.shared.config.ttl_ms,
        })
    }

    async fn send_error(&mut self, error: ErrorBody) {
        self.send(&Frame::Error { error }).await;
    }

    /// Writes one frame within the write timeout; `false` when the client is gone or stuck.
    async fn send(&mut self, frame: &Frame) -> bool {
        self.send_bytes(&codec::encode(frame), frame.kind()).await
    }

    /// Writes encoded frames within the write timeout; `false` when the client is gone or stuck.
    async fn send_bytes(&mut self, bytes: &[u8], kind: &'static str) -> bool {
        use tokio::io::AsyncWriteExt;
        let timeout = self.shared.config.write_timeout;
        let write = async {
            self.writer.write_all(bytes).await?;
            self.writer.flush().await
        };
        match tokio::time::timeout(timeout, write).await {
            Ok(Ok(())) => true,
            Ok(Err(error)) => {
                tracing::debug!(%error, kind, "write failed");
                false
            }
            Err(_) => {
                tracing::warn!(?timeout, kind, "client did not read a frame in time");
                false
            }
        }
    }
}

/// The `exec-pending` frame of a handler's notice about request `id`.
fn pending_frame(id: &str, notice: PendingNotice) -> Frame {
    Frame::ExecPending(ExecPending {
        id: id.to_owned(),
        approval_id: notice.approval_id,
        short_id: notice.short_id,
        expires_at_ms: notice.expires_at_ms,
    })
}

fn refusal_body(refusal: Refusal) -> ErrorBody {
    ErrorBody::new(ErrorCode::InvalidRequest, refusal.to_string()).with_reason(refusal.reason())
}

/// Parses a client line into a frame, or a message saying what is wrong with it.
fn parse_frame(line: &str) -> Result<Frame, String> {
    serde_json::from_str::<Frame>(line).map_err(|error| {
        let Ok(serde_json::Value::Object(object)) = serde_json::from_str(line) else {
            return "malformed frame: not a json object".to_owned();
        };
        match object.get("type").and_then(serde_json::Value::as_str) {
            Some(
                kind @ ("challenge" | "exec" | "exec-res" | "exec-pending" | "control"
                | "control-res" | "request" | "decision" | "error"),
            ) => {
                format!("malformed `{kind}` frame: {error}")
            }
            _ => "unknown frame type".to_owned(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_frame_names_what_is_wrong() {
        let cases = [
            ("not json", "malformed frame: not a json object"),
            ("[1]", "malformed frame: not a json object"),
            (r#"{"type":"hello"}"#, "unknown frame type"),
            (r#"{"no":"type"}"#, "unknown frame type"),
            (r#"{"type":7}"#, "unknown frame type"),
        ];
        for (line, want) in cases {
            assert_eq!(parse_frame(line).unwrap_err(), want, "{line}");
        }
        let missing = parse_frame(r#"{"type":"exec","id":"x"}"#).unwrap_err();
        assert!(
            missing.starts_with("malformed `exec` frame: missing field"),
            "{missing}"
        );
    }
}
