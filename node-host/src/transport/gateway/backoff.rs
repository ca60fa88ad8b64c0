//! How long to wait before reconnecting: capped exponential backoff with
//! full jitter (a uniform delay between zero and the current ceiling), so
//! that a fleet of nodes does not reconnect in lockstep after a gateway
//! restart. The ceiling doubles per failed attempt up to the cap and drops
//! back to the base once the gateway accepts us (see `STABLE_AFTER` in the
//! parent module for sessions cut short).

use std::time::Duration;

/// First ceiling.
pub const BASE: Duration = Duration::from_millis(250);
/// Largest ceiling.
pub const CAP: Duration = Duration::from_secs(30);

/// Backoff state of one reconnect loop.
#[derive(Debug, Clone)]
pub struct Backoff {
    base: Duration,
    cap: Duration,
    failures: u32,
}

impl Backoff {
    /// A backoff starting at `base` and never above `cap`.
    pub fn new(base: Duration, cap: Duration) -> Self {
        Self {
            base,
            cap,
            failures: 0,
        }
    }

    /// The ceiling the next delay is drawn under.
    pub fn ceiling(&self) -> Duration {
        let factor = 1u32.checked_shl(self.failures.min(31)).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// The next delay, uniform in `0..=ceiling`; raises the ceiling.
    pub fn next_delay(&mut self) -> Duration {
        let ceiling = self.ceiling();
        self.failures = self.failures.saturating_add(1);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        // Without randomness the delay is the ceiling: slower, never faster.
        let jittered = getrandom::u64().map_or(millis, |r| r % millis.saturating_add(1));
        Duration::from_millis(jittered)
    }

    /// Back to the base after the gateway accepted a connection.
    pub fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_doubles_to_the_cap_and_resets() {
        let mut b = Backoff::new(BASE, CAP);
        let mut ceilings = Vec::new();
        for _ in 0..10 {
            ceilings.push(b.ceiling().as_millis());
            let delay = b.next_delay();
            assert!(delay <= Duration::from_millis(*ceilings.last().unwrap() as u64));
        }
        assert_eq!(
            ceilings,
            [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
        );
        for _ in 0..100 {
            b.next_delay();
        }
        assert_eq!(b.ceiling(), CAP);
        b.reset();
        assert_eq!(b.ceiling(), BASE);
    }

    #[test]
    fn delays_are_jittered_not_fixed() {
        let mut b = Backoff::new(Duration::from_secs(30), CAP);
        let delays: std::collections::BTreeSet<_> = (0..20)
            .map(|_| {
                b.reset();
                b.next_delay()
            })
            .collect();
        assert!(delays.len() > 1, "{delays:?}");
    }
}
