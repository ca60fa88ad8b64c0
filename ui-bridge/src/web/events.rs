//! The page's live feed of pending approvals (server-sent events).
//!
//! It decides what a page hears: first a `snapshot` with every approval
//! still pending (so a reload shows exactly what the broker holds: nothing
//! lives only in the page), then `requested` and `resolved` as the broker
//! announces them, and a fresh `snapshot` whenever the page fell behind
//! (the broker's channel is bounded; a lagging reader never slows it). The
//! stream ends when the bridge shuts down, so shutdown never waits on an
//! open tab. Every field was escaped by the broker's display builder
//! (DESIGN.md principle 3); the page renders it as text, never as HTML.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde_json::json;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::{APPROVER, WebState};
use crate::broker::{Attached, Broker, BrokerEvent, Outcome, decision_word};

/// How often an idle stream sends a comment, so proxies and tunnels keep it.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// `GET /api/events`.
pub async fn stream(
    State(state): State<WebState>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    // Subscribe before listing, so nothing falls between the two.
    let events = state.broker.subscribe();
    let feed = Feed {
        // An open page is a person who can answer: while it listens, a
        // failing hook leaves approvals to it instead of ending them.
        _attached: state.broker.attach(APPROVER),
        broker: state.broker.clone(),
        events,
        shutdown: state.shutdown.clone(),
        snapshot_due: true,
    };
    let stream = futures_util::stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// One page's position in the broker's events.
struct Feed {
    _attached: Attached,
    broker: Broker,
    events: Receiver<BrokerEvent>,
    shutdown: CancellationToken,
    snapshot_due: bool,
}

impl Feed {
    /// The next event for the page; `None` ends the stream.
    async fn next(&mut self) -> Option<Event> {
        if std::mem::take(&mut self.snapshot_due) {
            return Some(snapshot(&self.broker));
        }
        let received = tokio::select! {
            () = self.shutdown.cancelled() => return None,
            received = self.events.recv() => received,
        };
        match received {
            Ok(BrokerEvent::Requested(approval)) => Some(json_event("requested", &approval)),
            Ok(BrokerEvent::Resolved { id, outcome }) => {
                Some(json_event("resolved", &resolved(&id, &outcome)))
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(missed, "web page fell behind; sending a snapshot");
                Some(snapshot(&self.broker))
            }
            Err(RecvError::Closed) => None,
        }
    }
}

/// Every pending approval, oldest first.
fn snapshot(broker: &Broker) -> Event {
    json_event("snapshot", &json!({ "pending": broker.list() }))
}

/// How an approval ended, in the page's words.
fn resolved(id: &str, outcome: &Outcome) -> serde_json::Value {
    match outcome {
        Outcome::Decided {
            decision, approver, ..
        } => {
            json!({"id": id, "outcome": "decided", "decision": decision_word(*decision), "approver": approver})
        }
        Outcome::TimedOut => json!({"id": id, "outcome": "timed-out"}),
        Outcome::Cancelled { reason } => {
            json!({"id": id, "outcome": "cancelled", "reason": reason})
        }
        Outcome::Failed { approver, why } => {
            json!({"id": id, "outcome": "failed", "approver": approver, "reason": why})
        }
    }
}

/// A named event with a JSON body.
fn json_event(name: &str, value: &impl serde::Serialize) -> Event {
    let data = serde_json::to_string(value).unwrap_or_else(|error| {
        tracing::error!(%error, "cannot serialize a web event");
        "null".to_owned()
    });
    Event::default().event(name).data(data)
}
