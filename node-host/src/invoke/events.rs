//! Lifecycle events of `system.run` (`exec.started`, `exec.finished`,
//! `exec.denied`), in the payload OpenClaw's gateway turns into session
//! messages (reference/openclaw.md section 7.7), with `runId` equal to the
//! approval id when the gateway's operators approved the run.
//!
//! They reach the gateway in the order its handling needs
//! (`server-node-events` and `node-registry` of openclaw 2026.9.6): the
//! gateway honours an exec event only while it holds the authorization it
//! made when it sent the invoke; a failed result drops it, and
//! `exec.finished` or `exec.denied` consumes it. The gateway also handles
//! the frames of one connection concurrently, so a result sent right
//! behind an event can overtake it. Hence:
//!
//! - `exec.denied` goes first, and its error result only once the gateway
//!   has acknowledged it (as OpenClaw's node does);
//! - `exec.finished` goes right after its successful result, which keeps
//!   the authorization; the gateway's session lookup for the event is off
//!   the caller's wait;
//! - `exec.started` goes only for a run still going after
//!   [`STARTED_NOTICE_AFTER`]: a run that has already finished needs no
//!   "started" notice, and each one costs the gateway a session lookup
//!   (and, without `suppressNotifyOnExit`, a session message and an agent
//!   wake).
//!
//! Everything the node sends passes through one [`Outgoing`] queue, so
//! that order is the order the gateway sees.

use std::time::Duration;

use approvals_ipc::ipc::ExecPayload;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::InvokeError;

/// Characters of output an `exec.finished` event carries (OpenClaw's tail).
pub const OUTPUT_EVENT_TAIL: usize = 20_000;

/// How long a run goes before the node sends `exec.started` for it. A
/// quicker run gets only `exec.finished`. OpenClaw's own in-progress notice
/// for approved runs waits 10 s (`tools.exec.approvalRunningNoticeMs`).
pub const STARTED_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// One `node.event` for the gateway.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeEvent {
    /// `exec.started`, `exec.finished` or `exec.denied`.
    pub event: &'static str,
    /// The event's payload (sent as `payloadJSON`).
    pub payload: Value,
}

/// What the node hands its transport, in the order the gateway must see it.
#[derive(Debug)]
pub enum Outgoing {
    /// A lifecycle event (`node.event`).
    Event(NodeEvent),
    /// The answer to one invoke (`node.invoke.result`) and the events that
    /// go with it.
    Result {
        /// The gateway's invoke id.
        invoke_id: String,
        /// Sent first, and acknowledged by the gateway before `result`.
        before: Option<NodeEvent>,
        /// The payload of a success, or OpenClaw's error code and message.
        result: Result<Value, InvokeError>,
        /// Sent after the result, never before it.
        then: Option<NodeEvent>,
    },
}

/// Where events and results go; the transport drains it in order.
/// Unbounded: a run adds at most three items, and a send must never hold
/// up a run.
pub type EventSender = mpsc::UnboundedSender<Outgoing>;

/// Queues `item` for the transport; a transport that has stopped taking
/// items is only worth a debug line (the node is stopping).
pub fn send(events: &EventSender, item: Outgoing) {
    if events.send(item).is_err() {
        tracing::debug!("no one takes node events any more");
    }
}

/// The fields every lifecycle event of one run shares.
#[derive(Debug, Clone)]
pub struct RunContext {
    /// The run id (the approval id when there was one).
    pub run_id: String,
    /// The session the request came from (`node` when it named none).
    pub session_key: String,
    /// The command as people read it.
    pub command: String,
    /// The request's `suppressNotifyOnExit`, passed on in every event so
    /// the gateway skips the session message its caller does not want.
    pub suppress_notify_on_exit: bool,
}

impl RunContext {
    fn base(&self) -> serde_json::Map<String, Value> {
        let mut map = serde_json::Map::new();
        map.insert("sessionKey".into(), json!(self.session_key));
        map.insert("runId".into(), json!(self.run_id));
        map.insert("host".into(), json!("node"));
        map.insert("command".into(), json!(self.command));
        map.insert(
            "suppressNotifyOnExit".into(),
            json!(self.suppress_notify_on_exit),
        );
        map
    }

    /// The command has been running for [`STARTED_NOTICE_AFTER`].
    pub fn started(&self) -> NodeEvent {
        NodeEvent {
            event: "exec.started",
            payload: Value::Object(self.base()),
        }
    }

    /// The command ended: exit code, timeout, and the tail of its output.
    pub fn finished(&self, payload: &ExecPayload) -> NodeEvent {
        let mut map = self.base();
        map.insert("exitCode".into(), json!(payload.exit_code));
        map.insert("timedOut".into(), json!(payload.timed_out));
        map.insert("success".into(), json!(payload.success));
        map.insert("output".into(), json!(output_tail(payload)));
        NodeEvent {
            event: "exec.finished",
            payload: Value::Object(map),
        }
    }

    /// The run was refused, and why (OpenClaw's reason code).
    pub fn denied(&self, reason: &str) -> NodeEvent {
        let mut map = self.base();
        map.insert("reason".into(), json!(reason));
        NodeEvent {
            event: "exec.denied",
            payload: Value::Object(map),
        }
    }
}

/// The last [`OUTPUT_EVENT_TAIL`] characters of stdout and stderr together,
/// marked when cut, as OpenClaw's node sends them.
pub fn output_tail(payload: &ExecPayload) -> String {
    let mut all = payload.stdout.clone();
    if !payload.stderr.is_empty() {
        if !all.is_empty() && !all.ends_with('\n') {
            all.push('\n');
        }
        all.push_str(&payload.stderr);
    }
    let count = all.chars().count();
    if count <= OUTPUT_EVENT_TAIL {
        return all;
    }
    let tail: String = all.chars().skip(count - OUTPUT_EVENT_TAIL).collect();
    format!("... (truncated) {tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_tail_keeps_the_end_and_marks_the_cut() {
        let payload = ExecPayload {
            stdout: "a".repeat(OUTPUT_EVENT_TAIL),
            stderr: "END".into(),
            ..ExecPayload::default()
        };
        let tail = output_tail(&payload);
        assert!(tail.starts_with("... (truncated) "));
        assert!(tail.ends_with("a\nEND"));
        assert_eq!(
            tail.chars().count(),
            "... (truncated) ".len() + OUTPUT_EVENT_TAIL
        );
        let short = ExecPayload {
            stdout: "hi\n".into(),
            ..ExecPayload::default()
        };
        assert_eq!(output_tail(&short), "hi\n");
    }

    #[test]
    fn events_carry_run_session_and_reason() {
        let context = RunContext {
            run_id: "r1".into(),
            session_key: "s".into(),
            command: "echo hi".into(),
            suppress_notify_on_exit: true,
        };
        let denied = context.denied("allowlist-miss");
        assert_eq!(denied.event, "exec.denied");
        assert_eq!(denied.payload["runId"], "r1");
        assert_eq!(denied.payload["reason"], "allowlist-miss");
        assert_eq!(denied.payload["host"], "node");
        assert_eq!(denied.payload["suppressNotifyOnExit"], true);
        let finished = context.finished(&ExecPayload {
            exit_code: Some(3),
            ..ExecPayload::default()
        });
        assert_eq!(finished.payload["exitCode"], 3);
        assert_eq!(finished.payload["sessionKey"], "s");
    }
}
