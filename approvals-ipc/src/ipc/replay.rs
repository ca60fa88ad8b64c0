//! The shared, bounded memory of recently used nonces.
//!
//! OpenClaw clients make their own nonce and never read a challenge, so the
//! only thing that stops a captured `exec` line from running twice is
//! remembering its nonce for as long as its timestamp could pass the TTL
//! check (twice the TTL). The cache is bounded; when it is full of unexpired
//! nonces it refuses new ones rather than forgetting old ones, because
//! forgetting would reopen the replay window (DESIGN.md invariant 2).
//!
//! Time is passed in, so tests need no sleeping. The server passes the same
//! wall clock its TTL check reads: a clock stepped back keeps entries longer,
//! and a clock stepped forward forgets only nonces whose timestamps the TTL
//! check now refuses anyway. (A monotonic clock here would let a backward
//! step make an old, forgotten line pass the TTL check again.)

use std::collections::{HashSet, VecDeque};

use super::error::Refusal;

/// Remembers nonces until they expire; refuses when full rather than forget.
#[derive(Debug)]
pub struct ReplayCache {
    capacity: usize,
    window_ms: u64,
    seen: HashSet<String>,
    /// Insertion order with expiry; Invariant: holds exactly the nonces in `seen`.
    order: VecDeque<(u64, String)>,
}

impl ReplayCache {
    /// A cache holding at most `capacity` nonces, each for `window_ms` (more than twice the TTL).
    pub fn new(capacity: usize, window_ms: u64) -> Self {
        ReplayCache {
            capacity,
            window_ms,
            seen: HashSet::new(),
            order: VecDeque::new(),
        }
    }

    /// Records `nonce` as used at `now_ms`, refusing a nonce seen within the window.
    ///
    /// Purging stops at the first live entry in insertion order; if the
    /// clock stood still or ran backwards, entries are kept longer, never
    /// shorter.
    pub fn check_and_record(&mut self, nonce: &str, now_ms: u64) -> Result<(), Refusal> {
        self.purge(now_ms);
        if self.seen.contains(nonce) {
            return Err(Refusal::Replay);
        }
        if self.seen.len() >= self.capacity {
            return Err(Refusal::ReplayCacheFull);
        }
        let expiry = now_ms.saturating_add(self.window_ms);
        self.seen.insert(nonce.to_owned());
        self.order.push_back((expiry, nonce.to_owned()));
        Ok(())
    }

    /// How many nonces are remembered now (including ones not yet purged).
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    fn purge(&mut self, now_ms: u64) {
        while let Some((expiry, _)) = self.order.front() {
            if *expiry > now_ms {
                break;
            }
            if let Some((_, nonce)) = self.order.pop_front() {
                self.seen.remove(&nonce);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_nonce_seen_within_the_window() {
        let mut cache = ReplayCache::new(4, 20_000);
        assert_eq!(cache.check_and_record("a", 1_000), Ok(()));
        assert_eq!(cache.check_and_record("a", 1_000), Err(Refusal::Replay));
        assert_eq!(cache.check_and_record("a", 20_999), Err(Refusal::Replay));
        // Expired exactly at insertion + window.
        assert_eq!(cache.check_and_record("a", 21_000), Ok(()));
    }

    #[test]
    fn refuses_when_full_of_live_nonces_instead_of_forgetting() {
        let mut cache = ReplayCache::new(2, 20_000);
        assert_eq!(cache.check_and_record("a", 0), Ok(()));
        assert_eq!(cache.check_and_record("b", 1), Ok(()));
        assert_eq!(
            cache.check_and_record("c", 2),
            Err(Refusal::ReplayCacheFull)
        );
        // The old ones are still remembered.
        assert_eq!(cache.check_and_record("a", 3), Err(Refusal::Replay));
        assert_eq!(cache.len(), 2);
        // Once "a" expires there is room again.
        assert_eq!(cache.check_and_record("c", 20_000), Ok(()));
        assert_eq!(cache.check_and_record("b", 20_000), Err(Refusal::Replay));
    }

    #[test]
    fn clock_running_backwards_keeps_entries() {
        let mut cache = ReplayCache::new(8, 100);
        assert_eq!(cache.check_and_record("a", 1_000), Ok(()));
        assert_eq!(cache.check_and_record("b", 500), Ok(()));
        assert_eq!(cache.check_and_record("b", 650), Err(Refusal::Replay));
        assert_eq!(cache.check_and_record("a", 1_050), Err(Refusal::Replay));
    }

    #[test]
    fn reports_what_it_remembers_until_the_window_passes() {
        let mut cache = ReplayCache::new(4, 100);
        assert!(cache.is_empty());
        assert_eq!(cache.check_and_record("a", 0), Ok(()));
        // A remembered nonce makes the cache non-empty; a caller that took
        // `is_empty` as "nothing to replay against" would be wrong.
        assert!(!cache.is_empty());
        assert_eq!(cache.len(), 1);
        // Purged on the next record once its window has passed.
        assert_eq!(cache.check_and_record("b", 100), Ok(()));
        assert_eq!(cache.len(), 1);
        assert!(!cache.is_empty());
    }

    #[test]
    fn zero_capacity_refuses_everything() {
        let mut cache = ReplayCache::new(0, 100);
        assert_eq!(
            cache.check_and_record("a", 0),
            Err(Refusal::ReplayCacheFull)
        );
        assert!(cache.is_empty());
    }

    proptest::proptest! {
        #[test]
        fn never_accepts_a_nonce_twice_within_the_window(
            ops in proptest::collection::vec((0u8..6, 0u64..50), 1..200)
        ) {
            let window = 30;
            let mut cache = ReplayCache::new(4, window);
            let mut now = 0u64;
            let mut accepted: Vec<(u8, u64)> = Vec::new();
            for (nonce, step) in ops {
                now += step;
                if cache.check_and_record(&nonce.to_string(), now).is_ok() {
                    for (n, at) in &accepted {
                        proptest::prop_assert!(!(*n == nonce && now < at + window));
                    }
                    accepted.push((nonce, now));
                }
                proptest::prop_assert!(cache.len() <= 4);
            }
        }
    }
}
