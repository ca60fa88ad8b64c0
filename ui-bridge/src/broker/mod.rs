//! The approval broker: pending approvals, first answer wins, timeouts.
//!
//! It decides which answer counts for a pending approval: the first valid
//! one, taken atomically under one lock, so two racing answers yield exactly
//! one `Ok` and one `NotFound`. It refuses decisions the approval does not
//! offer, answers after the approval's own deadline, and approvals submitted
//! after shutdown. An approval leaves the broker the moment it is decided,
//! timed out or cancelled (no grace period, so an `allow-once` cannot be
//! replayed: openclaw.md section 10, class 23). A requester that drops its
//! [`Pending`] cancels its approval. Upholds DESIGN.md section 3 step 5 and
//! section 7; on [`Outcome::TimedOut`] the caller applies `askFallback`, and
//! on [`Outcome::Cancelled`] it denies.
//!
//! # Caveats
//!
//! Events go out on a bounded broadcast channel: a subscriber that lags
//! loses events (it sees `Lagged`) and should call [`Broker::list`] to
//! catch up; it never slows the broker down.

mod display;
mod lookup;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use approvals_ipc::ipc::Decision;
use tokio::sync::{broadcast, oneshot};
use tokio::time::Instant;

pub use display::{ApprovalDisplay, DisplaySegment, PendingApproval, approval_display};
pub use lookup::{MIN_PREFIX_LEN, ResolveError, decision_word, short_id_of};

/// How long an approval waits when the policy does not say (OpenClaw's default).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest wait accepted; longer timeouts are cut to this, and the
/// approval's `expiresAtMs` shows the cut value.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// How many events a subscriber may fall behind before it lags.
pub const EVENT_CAPACITY: usize = 256;

/// The reason every pending approval gets when the bridge stops.
pub const SHUTDOWN_REASON: &str = "bridge shutting down";

/// The reason an approval gets when its requester went away.
pub const DISCONNECTED_REASON: &str = "requester disconnected";

/// How one approval ended, as its requester sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An approver answered in time.
    Decided {
        /// The answer.
        decision: Decision,
        /// Who answered (`hook`, `terminal`, a web client's name …).
        approver: String,
        /// Milliseconds from submission to the answer, for the audit log.
        latency_ms: u64,
    },
    /// Nobody answered before the deadline: `askFallback` decides.
    TimedOut,
    /// The approval was withdrawn; the requester denies.
    Cancelled {
        /// Why, as a lowercase phrase.
        reason: String,
    },
    /// Every approver that could answer failed (a broken command hook, and
    /// no person at a terminal): nobody decided, and the requester denies
    /// without falling back.
    Failed {
        /// The approver that failed (`hook`).
        approver: String,
        /// What went wrong, for the log and the requester's message.
        why: String,
    },
}

/// What approvers hear about; every subscriber receives every event.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "few events, and approvers match on the plain record"
)]
pub enum BrokerEvent {
    /// A new approval waits for an answer.
    Requested(PendingApproval),
    /// An approval ended and left the broker.
    Resolved {
        /// The approval's full id.
        id: String,
        /// How it ended.
        outcome: Outcome,
    },
}

/// The shared set of pending approvals; cheap to clone, one per bridge.
#[derive(Clone, Debug)]
pub struct Broker {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: Mutex<State>,
    events: broadcast::Sender<BrokerEvent>,
    /// Approvers that answer in person (the terminal), by name: while one
    /// is attached, a failing approver never ends an approval.
    attached: Mutex<Vec<String>>,
}

#[derive(Debug, Default)]
struct State {
    /// Keyed by full id, so a prefix is a range scan.
    entries: BTreeMap<String, Entry>,
    /// Submission order, for `list`.
    next_seq: u64,
    /// Set by `shutdown`: nothing new is accepted.
    closed: bool,
}

#[derive(Debug)]
struct Entry {
    seq: u64,
    approval: PendingApproval,
    started: Instant,
    deadline: Instant,
    /// Invariant: sent to only while the state lock is held, in the same
    /// critical section that removes the entry, so a waiter that finds the
    /// entry gone always finds its outcome in the channel.
    reply: oneshot::Sender<Outcome>,
}

impl Default for Broker {
    fn default() -> Self {
        Self::new()
    }
}

impl Broker {
    /// An empty broker; the bridge makes one and hands clones to approvers.
    pub fn new() -> Self {
        let (events, _) = broadcast::channel(EVENT_CAPACITY);
        Self {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                events,
                attached: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Registers an approval and tells every subscriber; the requester
    /// waits on the returned [`Pending`] (dropping it cancels the approval).
    ///
    /// After [`Broker::shutdown`] nothing is registered and the `Pending`
    /// ends at once as cancelled.
    pub fn submit(&self, display: ApprovalDisplay, timeout: Duration) -> Pending {
        let timeout = timeout.min(MAX_TIMEOUT);
        let started = Instant::now();
        let created_at_ms = unix_ms();
        let timeout_ms = i64::try_from(timeout.as_millis()).unwrap_or(i64::MAX);
        let (reply, rx) = oneshot::channel();
        let mut state = self.inner.lock();
        let (id, short_id) = lookup::fresh_id(
            state
                .entries
                .values()
                .map(|e| (e.approval.id.as_str(), e.approval.short_id.as_str())),
        );
        let pending = Pending {
            id: id.clone(),
            short_id: short_id.clone(),
            expires_at_ms: created_at_ms.saturating_add(timeout_ms),
            deadline: started + timeout,
            rx,
            inner: Arc::clone(&self.inner),
        };
        if state.closed {
            tracing::warn!(id, "approval refused: the bridge is shutting down");
            // The receiver is alive in `pending`; a send cannot fail here.
            let _ = reply.send(Outcome::Cancelled {
                reason: SHUTDOWN_REASON.to_owned(),
            });
            return pending;
        }
        let approval = PendingApproval {
            id: id.clone(),
            short_id,
            created_at_ms,
            expires_at_ms: created_at_ms.saturating_add(timeout_ms),
            display,
        };
        tracing::info!(
            id,
            short_id = approval.short_id,
            agent = approval.display.agent_id,
            timeout_ms,
            "approval requested"
        );
        let seq = state.next_seq;
        state.next_seq += 1;
        // No subscriber is fine: approvers may join later and call `list`.
        let _ = self
            .inner
            .events
            .send(BrokerEvent::Requested(approval.clone()));
        state.entries.insert(
            id,
            Entry {
                seq,
                approval,
                started,
                deadline: pending.deadline,
                reply,
            },
        );
        pending
    }

    /// Answers the approval named by a full id or a unique prefix of
    /// [`MIN_PREFIX_LEN`]+ characters (case-insensitive); the first valid
    /// answer wins and the approval leaves the broker.
    ///
    /// `deny` is always accepted; other decisions only when the approval
    /// offers them. Returns the approval that was answered.
    pub fn resolve(
        &self,
        id_or_prefix: &str,
        decision: Decision,
        approver: &str,
    ) -> Result<PendingApproval, ResolveError> {
        let key = lookup::normalize(id_or_prefix)?;
        let now = Instant::now();
        let mut state = self.inner.lock();
        let matches = state
            .entries
            .range(key.clone()..)
            .take_while(|(id, _)| id.starts_with(&key))
            .filter(|(_, entry)| entry.deadline > now)
            .map(|(id, _)| id.clone())
            .collect();
        let id = lookup::pick(matches)?;
        let Some(entry) = state.entries.get(&id) else {
            return Err(ResolveError::NotFound);
        };
        let allowed = &entry.approval.display.allowed_decisions;
        if decision != Decision::Deny && !allowed.contains(&decision) {
            return Err(ResolveError::DecisionNotAllowed {
                decision,
                allowed: allowed.clone(),
            });
        }
        let Some(entry) = state.entries.remove(&id) else {
            return Err(ResolveError::NotFound);
        };
        let latency_ms = u64::try_from(entry.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        tracing::info!(
            id,
            decision = decision_word(decision),
            approver,
            latency_ms,
            "approval answered"
        );
        let outcome = Outcome::Decided {
            decision,
            approver: approver.to_owned(),
            latency_ms,
        };
        self.inner.finish(entry.reply, id, outcome);
        Ok(entry.approval)
    }

    /// Says that `approver` answers approvals until the returned guard is
    /// dropped; a failure of any other approver then leaves approvals to it.
    pub fn attach(&self, approver: &str) -> Attached {
        self.inner.attached().push(approver.to_owned());
        Attached {
            inner: Arc::clone(&self.inner),
            name: approver.to_owned(),
        }
    }

    /// Whether any approver is attached.
    pub fn has_approver(&self) -> bool {
        !self.inner.attached().is_empty()
    }

    /// Whether an approver other than `except` is attached.
    pub fn has_other_approver(&self, except: &str) -> bool {
        self.inner.attached().iter().any(|name| name != except)
    }

    /// Reports that `approver` could not answer `id` (a broken hook). It
    /// never decides: while another approver is attached the approval stays
    /// for it (and for the timeout); with nobody else, the approval ends as
    /// [`Outcome::Failed`], which the requester denies. Returns whether the
    /// approval ended.
    pub fn fail(&self, id: &str, approver: &str, why: &str) -> bool {
        if self.has_other_approver(approver) {
            tracing::warn!(
                id,
                approver,
                why,
                reason = "hook-failed",
                "approver failed; the approval stays for the others"
            );
            return false;
        }
        let outcome = Outcome::Failed {
            approver: approver.to_owned(),
            why: why.to_owned(),
        };
        let ended = self.inner.end(id, outcome);
        if ended {
            tracing::warn!(
                id,
                approver,
                why,
                reason = "hook-failed",
                "approver failed and nobody else can answer; denied"
            );
        }
        ended
    }

    /// Every approval still waiting, oldest first; how a lagging or late
    /// subscriber catches up.
    pub fn list(&self) -> Vec<PendingApproval> {
        let now = Instant::now();
        let state = self.inner.lock();
        let mut live: Vec<&Entry> = state
            .entries
            .values()
            .filter(|entry| entry.deadline > now)
            .collect();
        live.sort_by_key(|entry| entry.seq);
        live.into_iter()
            .map(|entry| entry.approval.clone())
            .collect()
    }

    /// Every future event, from now on; call [`Broker::list`] after
    /// subscribing to see what was already pending.
    pub fn subscribe(&self) -> broadcast::Receiver<BrokerEvent> {
        self.inner.events.subscribe()
    }

    /// Cancels every pending approval of one agent (its session ended, or
    /// the policy changed under it); returns how many were cancelled.
    pub fn cancel_agent(&self, agent_id: &str, reason: &str) -> usize {
        let mut state = self.inner.lock();
        let ids: Vec<String> = state
            .entries
            .iter()
            .filter(|(_, entry)| entry.approval.display.agent_id == agent_id)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            if let Some(entry) = state.entries.remove(id) {
                tracing::info!(id, agent = agent_id, reason, "approval cancelled");
                let outcome = Outcome::Cancelled {
                    reason: reason.to_owned(),
                };
                self.inner.finish(entry.reply, id.clone(), outcome);
            }
        }
        ids.len()
    }

    /// Cancels every pending approval (each requester denies) and refuses
    /// new ones, so nothing waits on a bridge that is going away.
    pub fn shutdown(&self) {
        let mut state = self.inner.lock();
        state.closed = true;
        let entries = std::mem::take(&mut state.entries);
        if !entries.is_empty() {
            tracing::info!(
                count = entries.len(),
                "cancelling pending approvals on shutdown"
            );
        }
        for (id, entry) in entries {
            let outcome = Outcome::Cancelled {
                reason: SHUTDOWN_REASON.to_owned(),
            };
            self.inner.finish(entry.reply, id, outcome);
        }
    }
}

impl Inner {
    /// The attached approvers; a poisoned lock still holds a valid list.
    fn attached(&self) -> MutexGuard<'_, Vec<String>> {
        self.attached.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the state lock; a poisoned lock still holds consistent state,
    /// since every critical section only inserts or removes whole entries.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells the requester and every subscriber how an approval ended.
    /// Called with the state lock held (see [`Entry::reply`]).
    fn finish(&self, reply: oneshot::Sender<Outcome>, id: String, outcome: Outcome) {
        // A requester that is gone has nothing left to tell.
        let _ = reply.send(outcome.clone());
        let _ = self.events.send(BrokerEvent::Resolved { id, outcome });
    }

    /// Removes `id` if still pending, ending it with `outcome`; false when
    /// something else already ended it.
    fn end(&self, id: &str, outcome: Outcome) -> bool {
        let mut state = self.lock();
        match state.entries.remove(id) {
            Some(entry) => {
                self.finish(entry.reply, id.to_owned(), outcome);
                true
            }
            None => false,
        }
    }
}

/// An attached approver (see [`Broker::attach`]); detaches on drop.
#[derive(Debug)]
pub struct Attached {
    inner: Arc<Inner>,
    name: String,
}

impl Drop for Attached {
    fn drop(&mut self) {
        let mut attached = self.inner.attached();
        if let Some(at) = attached.iter().position(|name| *name == self.name) {
            attached.remove(at);
        }
    }
}

/// The requester's handle on one approval.
///
/// Dropping it before it resolves (the requester disconnected) cancels the
/// approval: it leaves [`Broker::list`] and later answers get `NotFound`.
#[derive(Debug)]
pub struct Pending {
    /// The approval's full id (also in the `Requested` event).
    pub id: String,
    /// The short id people type, unique among the pending approvals.
    pub short_id: String,
    /// When it times out (Unix milliseconds), for a requester to show.
    pub expires_at_ms: i64,
    deadline: Instant,
    rx: oneshot::Receiver<Outcome>,
    inner: Arc<Inner>,
}

impl Pending {
    /// Waits for the first answer, the deadline ([`Outcome::TimedOut`]) or a
    /// cancellation.
    ///
    /// # Cancel safety
    ///
    /// Dropping the future drops the `Pending`, which cancels the approval.
    pub async fn wait(mut self) -> Outcome {
        tokio::select! {
            biased;
            outcome = &mut self.rx => return outcome.unwrap_or_else(|_| vanished()),
            () = tokio::time::sleep_until(self.deadline) => {}
        }
        if self.inner.end(&self.id, Outcome::TimedOut) {
            tracing::info!(id = self.id, "approval timed out");
            return Outcome::TimedOut;
        }
        // Ended concurrently: its outcome was sent before the entry left.
        self.rx.try_recv().unwrap_or_else(|_| vanished())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let reason = DISCONNECTED_REASON.to_owned();
        if self.inner.end(&self.id, Outcome::Cancelled { reason }) {
            tracing::info!(id = self.id, "approval cancelled: requester disconnected");
        }
    }
}

/// The fail-closed outcome for a reply channel closed without an answer,
/// which the entry invariant rules out.
fn vanished() -> Outcome {
    tracing::error!("approval ended without an outcome");
    Outcome::Cancelled {
        reason: "approval ended without an outcome".to_owned(),
    }
}

/// Now, in Unix milliseconds (0 if the clock is before 1970).
fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
