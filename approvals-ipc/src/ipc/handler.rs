//! What the server hands an authenticated request to: the [`Handler`] the
//! exec host implements, and the [`RequestContext`] it gets with each
//! request.
//!
//! It decides nothing about policy; it is the seam between the protocol and
//! the host. Kept apart from `server` so that `server` and `connection` can
//! both use it while `server` alone depends on `connection`.

use std::future::Future;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::control::ControlRequest;
use super::frame::{Decision, ErrorBody, ErrorCode, ExecPayload, ExecRequest, PromptRequest};

/// What the exec host does with an authenticated request; the server only carries frames.
pub trait Handler: Send + Sync + 'static {
    /// Decides and runs one `system.run`; `Err` becomes an `ok: false` reply.
    fn exec(
        &self,
        request: ExecRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Result<ExecPayload, ErrorBody>> + Send;

    /// Answers OpenClaw's older prompt frame (the token was already checked).
    fn prompt(
        &self,
        request: PromptRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Decision> + Send;

    /// Performs one control operation (list or answer approvals); the frame
    /// was authenticated like an `exec`. `Err` becomes an `ok: false` reply.
    ///
    /// The default refuses with `UNAVAILABLE`, so a handler without
    /// approvals to control serves no control API at all.
    fn control(
        &self,
        request: ControlRequest,
        ctx: RequestContext,
    ) -> impl Future<Output = Result<serde_json::Value, ErrorBody>> + Send {
        tracing::debug!(id = %ctx.id, op = request.op(), "control request refused: not served");
        std::future::ready(Err(ErrorBody::new(
            ErrorCode::Unavailable,
            "control API not served",
        )
        .with_reason("control-unavailable")))
    }
}

/// Facts about the requester a handler may use, and a signal that it went away.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The frame's id, for logs and audit.
    pub id: String,
    /// The peer's UID (equal to the expected one).
    pub peer_uid: u32,
    /// The peer's pid when known; a snapshot for display and for fairness
    /// limits (a reused pid shares a quota), never for authorisation.
    pub peer_pid: Option<i32>,
    /// This connection's number, unique while the server runs, so a
    /// handler can keep per-connection state (a request rate).
    pub connection: u64,
    /// Fires when the client is gone while the request is pending.
    ///
    /// # Caveats
    ///
    /// End-of-file on the read side alone does not fire it: OpenClaw's
    /// client half-closes right after sending and still waits for the reply.
    /// It fires on a socket error, or when the peer has closed both
    /// directions (hang-up seen while polling), checked every 100 ms.
    pub cancelled: CancellationToken,
    /// Where a handler says, before its reply, that the request waits for
    /// an approval; the server writes it as an `exec-pending` frame.
    pub notices: Notices,
}

/// That an `exec` waits for a person, as the handler knows it; the server
/// adds the request id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingNotice {
    /// The approval's full id.
    pub approval_id: String,
    /// The short id people type.
    pub short_id: String,
    /// When the approval times out (Unix ms).
    pub expires_at_ms: i64,
}

/// A handler's way to tell the client something before the reply; a no-op
/// where the frame has no such notice (`control`, OpenClaw's `request`).
#[derive(Debug, Clone, Default)]
pub struct Notices(Option<mpsc::UnboundedSender<PendingNotice>>);

impl Notices {
    /// Notices that reach nobody.
    pub fn none() -> Self {
        Notices(None)
    }

    /// Notices sent to `sender`, which the server drains into frames.
    pub fn to(sender: mpsc::UnboundedSender<PendingNotice>) -> Self {
        Notices(Some(sender))
    }

    /// Tells the client the request waits for this approval; best effort:
    /// a client that is gone needs no notice.
    pub fn approval_pending(&self, notice: PendingNotice) {
        if let Some(sender) = &self.0 {
            let _ = sender.send(notice);
        }
    }
}
