//! How many audited requests one client may make: a rate per connection
//! and a quota per process, so one client cannot fill the disk with audit
//! records (DESIGN.md invariant 2, applied to the log).
//!
//! It decides, before a request is evaluated (and so before anything is
//! audited for it), whether it may go on. A connection gets a token
//! bucket: [`Limits::per_connection`] requests a second, with a burst of
//! twice that. A process (peer pid; every peer shares our UID) gets
//! [`Limits::per_process`] requests a minute, in windows that start with
//! its first request. It refuses with `UNAVAILABLE`, reason
//! `rate-limited`, and a message saying which limit and when to retry. A
//! refused request is not audited one by one: the first refusal of a
//! window is logged (tracing), the rest only counted, so the refusals
//! themselves cannot fill the disk either.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{ErrorBody, ErrorCode};

/// The default rate per connection, requests a second.
pub const DEFAULT_PER_CONNECTION: u32 = 50;

/// The default quota per process, requests a minute.
pub const DEFAULT_PER_PROCESS: u32 = 12_000;

/// The quota window.
const WINDOW: Duration = Duration::from_secs(60);

/// Beyond this many tracked connections or processes, stale entries are
/// dropped (a full bucket or an expired window carries no state).
const PRUNE_ABOVE: usize = 1024;

/// The limits and what each client has used.
#[derive(Debug)]
pub struct Limits {
    /// Requests a second per connection (burst: twice that).
    pub per_connection: u32,
    /// Requests a minute per process.
    pub per_process: u32,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    buckets: HashMap<u64, Bucket>,
    windows: HashMap<Option<i32>, Window>,
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

#[derive(Debug)]
struct Window {
    start: Instant,
    used: u32,
    refused: u32,
}

/// Which limit refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limited {
    /// The connection's rate.
    Connection {
        /// Requests a second allowed.
        rate: u32,
    },
    /// The process's quota.
    Process {
        /// Requests a minute allowed.
        quota: u32,
        /// Seconds until the window ends.
        retry_in: u64,
    },
}

impl Limited {
    /// The refusal the client gets.
    pub fn to_wire(self) -> ErrorBody {
        let message = match self {
            Self::Connection { rate } => format!(
                "too many requests on this connection (limit {rate} a second, audit.ratePerConnection); slow down and retry"
            ),
            Self::Process { quota, retry_in } => format!(
                "too many requests from this process (limit {quota} a minute, audit.quotaPerProcess); retry in {retry_in} s"
            ),
        };
        ErrorBody::new(ErrorCode::Unavailable, message).with_reason("rate-limited")
    }
}

impl Limits {
    /// Limits of `per_connection` requests a second and `per_process` a
    /// minute (each at least 1).
    pub fn new(per_connection: u32, per_process: u32) -> Self {
        Self {
            per_connection: per_connection.max(1),
            per_process: per_process.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// Counts one request of `connection` from `peer` at `now`; `Err` when
    /// a limit refuses it (a refused request uses up nothing).
    pub fn admit(&self, connection: u64, peer: Option<i32>, now: Instant) -> Result<(), Limited> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.prune(now, f64::from(self.per_connection) * 2.0);
        let burst = f64::from(self.per_connection) * 2.0;
        let rate = f64::from(self.per_connection);
        let bucket = state.buckets.entry(connection).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let refilled = (bucket.tokens
            + now.saturating_duration_since(bucket.at).as_secs_f64() * rate)
            .min(burst);
        bucket.at = now;
        bucket.tokens = refilled;
        if refilled < 1.0 {
            return Err(Limited::Connection {
                rate: self.per_connection,
            });
        }
        let window = state.windows.entry(peer).or_insert(Window {
            start: now,
            used: 0,
            refused: 0,
        });
        if now.saturating_duration_since(window.start) >= WINDOW {
            if window.refused > 0 {
                tracing::warn!(
                    ?peer,
                    refused = window.refused,
                    "requests refused by the per-process quota in the last window"
                );
            }
            *window = Window {
                start: now,
                used: 0,
                refused: 0,
            };
        }
        if window.used >= self.per_process {
            if window.refused == 0 {
                tracing::warn!(
                    ?peer,
                    quota = self.per_process,
                    "process over its request quota; refusing until the window ends"
                );
            }
            window.refused += 1;
            let retry_in = WINDOW
                .saturating_sub(now.saturating_duration_since(window.start))
                .as_secs()
                .max(1);
            return Err(Limited::Process {
                quota: self.per_process,
                retry_in,
            });
        }
        window.used += 1;
        if let Some(bucket) = state.buckets.get_mut(&connection) {
            bucket.tokens -= 1.0;
        }
        Ok(())
    }
}

impl State {
    /// Drops entries that carry no state any more, once there are many.
    fn prune(&mut self, now: Instant, burst: f64) {
        if self.buckets.len() > PRUNE_ABOVE {
            self.buckets.retain(|_, bucket| {
                bucket.tokens < burst && now.saturating_duration_since(bucket.at) < WINDOW
            });
        }
        if self.windows.len() > PRUNE_ABOVE {
            self.windows
                .retain(|_, window| now.saturating_duration_since(window.start) < WINDOW);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_gets_its_burst_then_its_rate() {
        let limits = Limits::new(2, 1000);
        let t0 = Instant::now();
        for _ in 0..4 {
            limits.admit(1, Some(7), t0).unwrap();
        }
        assert_eq!(
            limits.admit(1, Some(7), t0),
            Err(Limited::Connection { rate: 2 })
        );
        // Another connection of the same process has its own bucket.
        limits.admit(2, Some(7), t0).unwrap();
        // Half a second later one token is back.
        let later = t0 + Duration::from_millis(500);
        limits.admit(1, Some(7), later).unwrap();
        assert!(limits.admit(1, Some(7), later).is_err());
    }

    #[test]
    fn a_process_gets_its_quota_per_window_across_connections() {
        let limits = Limits::new(1000, 3);
        let t0 = Instant::now();
        for connection in 0..3 {
            limits.admit(connection, Some(7), t0).unwrap();
        }
        let refused = limits.admit(9, Some(7), t0).unwrap_err();
        assert_eq!(
            refused,
            Limited::Process {
                quota: 3,
                retry_in: 60
            }
        );
        // Another process is not affected.
        limits.admit(9, Some(8), t0).unwrap();
        // A new window starts a minute later.
        limits.admit(9, Some(7), t0 + WINDOW).unwrap();
    }

    #[test]
    fn a_refused_request_uses_up_nothing() {
        let limits = Limits::new(1, 2);
        let t0 = Instant::now();
        limits.admit(1, Some(7), t0).unwrap();
        limits.admit(1, Some(7), t0).unwrap();
        for _ in 0..10 {
            assert!(limits.admit(2, Some(7), t0).is_err());
        }
        let next = t0 + WINDOW;
        limits.admit(2, Some(7), next).unwrap();
        limits.admit(2, Some(7), next).unwrap();
    }

    #[test]
    fn the_refusal_says_which_limit_and_what_to_do() {
        let body = Limited::Process {
            quota: 5,
            retry_in: 12,
        }
        .to_wire();
        assert_eq!(body.reason.as_deref(), Some("rate-limited"));
        assert!(body.message.contains("retry in 12 s"), "{}", body.message);
        assert!(body.message.contains("audit.quotaPerProcess"));
    }
}
