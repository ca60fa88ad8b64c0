//! The node's way to answer: `node.invoke.result` and `node.event`
//! requests sent on whichever connection is current. With no connection
//! the message is dropped (the gateway has already failed the invoke); a
//! result too large for the gateway's `maxPayload` is replaced by an error
//! result, so the gateway is never left waiting on a frame it would refuse.
//!
//! Sending returns once the frame is queued for the connection's writer;
//! the gateway's acknowledgement is awaited (and a refusal logged) by a task
//! of its own, except for [`Outbox::event_acknowledged`], which waits. So no frame waits for the gateway to answer an earlier one:
//! an invoke's `exec.finished` is not held back by its `exec.started` (nor
//! by another invoke's events) for a gateway round trip each. An event the
//! gateway takes but does not act on (`handled: false`, e.g.
//! `unmatched_exec_event` when no invoke of ours authorizes it) is logged
//! as a warning: its session gets no notice.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

use super::WireError;
use super::frames::{self, Response};

/// How long to wait for the gateway to acknowledge a request.
pub const ACK_TIMEOUT: Duration = Duration::from_secs(30);

/// The current connection's queue and frame limit.
#[derive(Debug, Clone)]
pub struct Link {
    /// Frames for the connection's writer.
    pub tx: mpsc::Sender<Outgoing>,
    /// `policy.maxPayload` from hello-ok.
    pub max_payload: usize,
}

/// One request frame for the connection, and where its response goes.
#[derive(Debug)]
pub struct Outgoing {
    /// The request id.
    pub id: String,
    /// The serialized frame.
    pub frame: String,
    /// Gets the gateway's response; `None` when nobody waits for it.
    pub reply: Option<oneshot::Sender<Response>>,
}

/// Cheap to clone; sends on whichever connection is current (drops with a
/// debug log when disconnected).
#[derive(Debug, Clone)]
pub struct Outbox {
    node_id: Arc<str>,
    link: watch::Receiver<Option<Link>>,
}

impl Outbox {
    /// An outbox for `node_id` following `link`.
    pub(super) fn new(node_id: &str, link: watch::Receiver<Option<Link>>) -> Self {
        Self {
            node_id: node_id.into(),
            link,
        }
    }

    /// The device id.
    pub fn node_id(&self) -> &str {
        &self.node_id
    }

    /// node.invoke.result {id, nodeId, ok, payloadJSON | error:{code,message}};
    /// returns once the frame is queued, not when the gateway acknowledges it.
    pub async fn result(&self, invoke_id: &str, outcome: Result<Value, WireError>) {
        let Some(link) = self.current() else {
            tracing::debug!(invoke_id, "not connected; dropping the invoke result");
            return;
        };
        let id = new_id();
        let mut frame = frames::request(
            &id,
            "node.invoke.result",
            result_params(&self.node_id, invoke_id, &outcome),
        );
        if frame.len() > link.max_payload {
            tracing::warn!(
                invoke_id,
                bytes = frame.len(),
                max = link.max_payload,
                "invoke result too large for the gateway; sending an error instead"
            );
            let error = WireError {
                code: "UNAVAILABLE".to_owned(),
                message: format!(
                    "result of {} bytes exceeds the gateway's maxPayload of {} bytes",
                    frame.len(),
                    link.max_payload
                ),
            };
            frame = frames::request(
                &id,
                "node.invoke.result",
                result_params(&self.node_id, invoke_id, &Err(error)),
            );
        }
        if let Some(response) = send(&link, id, frame, "node.invoke.result").await {
            tokio::spawn(acknowledged(response, "node.invoke.result", None));
        }
    }

    /// node.event {event, payloadJSON}; returns once the frame is queued.
    pub async fn event(&self, event: &str, payload: Value) {
        if let Some(response) = self.queue_event(event, payload).await {
            tokio::spawn(acknowledged(response, "node.event", Some(event.to_owned())));
        }
    }

    /// node.event, returning once the gateway has answered it (or could
    /// not: no connection, the connection closed, [`ACK_TIMEOUT`]), for an
    /// event that must be handled before the next frame is sent.
    pub async fn event_acknowledged(&self, event: &str, payload: Value) {
        if let Some(response) = self.queue_event(event, payload).await {
            acknowledged(response, "node.event", Some(event.to_owned())).await;
        }
    }

    async fn queue_event(
        &self,
        event: &str,
        payload: Value,
    ) -> Option<oneshot::Receiver<Response>> {
        let Some(link) = self.current() else {
            tracing::debug!(event, "not connected; dropping the node event");
            return None;
        };
        let id = new_id();
        let params = json!({"event": event, "payloadJSON": payload.to_string()});
        let frame = frames::request(&id, "node.event", params);
        if frame.len() > link.max_payload {
            tracing::warn!(
                event,
                bytes = frame.len(),
                max = link.max_payload,
                "node event too large for the gateway; dropped"
            );
            return None;
        }
        send(&link, id, frame, "node.event").await
    }

    fn current(&self) -> Option<Link> {
        self.link.borrow().clone()
    }
}

/// The params of `node.invoke.result`.
pub fn result_params(node_id: &str, invoke_id: &str, outcome: &Result<Value, WireError>) -> Value {
    match outcome {
        Ok(payload) => {
            json!({"id": invoke_id, "nodeId": node_id, "ok": true, "payloadJSON": payload.to_string()})
        }
        Err(error) => json!({"id": invoke_id, "nodeId": node_id, "ok": false,
            "error": {"code": error.code, "message": error.message}}),
    }
}

/// A fresh request id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Queues the frame for the writer; the gateway's response arrives on the
/// receiver (`None` when the connection has closed).
async fn send(
    link: &Link,
    id: String,
    frame: String,
    method: &'static str,
) -> Option<oneshot::Receiver<Response>> {
    let (reply, response) = oneshot::channel();
    let outgoing = Outgoing {
        id,
        frame,
        reply: Some(reply),
    };
    if link.tx.send(outgoing).await.is_err() {
        tracing::debug!(method, "the connection closed; dropping the request");
        return None;
    }
    Some(response)
}

/// Logs how the gateway answered one request: nothing when it accepted it,
/// a warning when it refused it, did not act on an event, or did not answer
/// within [`ACK_TIMEOUT`].
async fn acknowledged(
    response: oneshot::Receiver<Response>,
    method: &'static str,
    event: Option<String>,
) {
    match tokio::time::timeout(ACK_TIMEOUT, response).await {
        Ok(Ok(res)) if res.ok && res.payload.get("handled") == Some(&Value::Bool(false)) => {
            let reason = res
                .payload
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("-");
            tracing::warn!(
                method,
                event = event.as_deref().unwrap_or("-"),
                reason,
                "the gateway took the event but did not act on it"
            );
        }
        Ok(Ok(res)) if res.ok => tracing::trace!(method, "acknowledged"),
        Ok(Ok(res)) => {
            let error = res.error.unwrap_or_default();
            tracing::warn!(method, code = %error.code, message = %error.message, "the gateway refused the request");
        }
        Ok(Err(_)) => tracing::debug!(
            method,
            "the connection closed before the gateway acknowledged the request"
        ),
        Err(_) => tracing::warn!(
            method,
            "no acknowledgement from the gateway within {ACK_TIMEOUT:?}"
        ),
    }
}
