//! Connection slots: how many connections the server holds at once, and
//! how many of them one process may hold.
//!
//! It decides who gets a slot. Every peer shares our UID, so the unit of
//! fairness is the process that called `connect()` (its pid, from the
//! kernel). A process at its own cap ([`ServerConfig::max_connections_per_peer`])
//! gets a new slot only by giving up its oldest idle one; at the global cap
//! ([`ServerConfig::max_connections`]) the oldest idle connection of the
//! process holding the most is closed to make room. A connection is idle
//! while it waits for a request; one with a request in flight is never
//! closed here. It refuses a connection only when no idle one can make
//! room. Upholds DESIGN.md invariant 2: one process holding hundreds of
//! idle connections cannot lock out another client.
//!
//! # Caveats
//!
//! A pid is a snapshot: a process that forks children gets a cap per
//! child. The global eviction still takes from whichever process holds the
//! most, and the read timeout still closes every idle connection.
//!
//! [`ServerConfig::max_connections_per_peer`]: super::ServerConfig::max_connections_per_peer
//! [`ServerConfig::max_connections`]: super::ServerConfig::max_connections

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use tokio_util::sync::CancellationToken;

/// Who holds a connection: the peer's pid, `None` when the platform does
/// not say (all such peers share one bucket).
pub(super) type PeerKey = Option<i32>;

/// Why a connection got no slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoSlot {
    /// This process holds its cap, all with requests in flight.
    PeerFull {
        /// The per-process cap.
        limit: usize,
    },
    /// The server holds its cap, all with requests in flight.
    Full {
        /// The global cap.
        limit: usize,
    },
}

impl NoSlot {
    /// The wire reason: `peer-busy` or `busy`.
    pub(super) fn reason(self) -> &'static str {
        match self {
            Self::PeerFull { .. } => "peer-busy",
            Self::Full { .. } => "busy",
        }
    }

    /// What the client is told, with the next step.
    pub(super) fn message(self) -> String {
        match self {
            Self::PeerFull { limit } => format!(
                "too many connections from this process ({limit}, all busy); wait for a reply or close a connection, then retry"
            ),
            Self::Full { limit } => {
                format!("too many connections ({limit}, all busy); retry when a request finishes")
            }
        }
    }
}

/// The slot table shared by the accept loop and every connection.
#[derive(Debug)]
pub(super) struct Slots {
    max_total: usize,
    max_per_peer: usize,
    inner: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    next_id: u64,
    /// By id, so the lowest id is the oldest.
    conns: BTreeMap<u64, Entry>,
    per_peer: HashMap<PeerKey, usize>,
}

#[derive(Debug)]
struct Entry {
    peer: PeerKey,
    idle: bool,
    close: CancellationToken,
}

/// One connection's slot; dropping it frees the slot.
#[derive(Debug)]
pub(super) struct Slot {
    slots: Arc<Slots>,
    id: u64,
    close: CancellationToken,
}

impl Slots {
    /// A table for at most `max_total` connections, `max_per_peer` of them
    /// per process (both at least 1).
    pub(super) fn new(max_total: usize, max_per_peer: usize) -> Arc<Self> {
        let max_total = max_total.max(1);
        Arc::new(Self {
            max_total,
            max_per_peer: max_per_peer.clamp(1, max_total),
            inner: Mutex::new(Table::default()),
        })
    }

    /// A slot for a new connection of `peer`, closing an idle connection to
    /// make room when a cap is reached; the new connection starts idle.
    pub(super) fn admit(self: &Arc<Self>, peer: PeerKey) -> Result<Slot, NoSlot> {
        let mut table = self.table();
        if table.per_peer.get(&peer).copied().unwrap_or(0) >= self.max_per_peer {
            let victim = table
                .conns
                .iter()
                .find(|(_, entry)| entry.idle && entry.peer == peer)
                .map(|(id, _)| *id)
                .ok_or(NoSlot::PeerFull {
                    limit: self.max_per_peer,
                })?;
            tracing::info!(
                ?peer,
                limit = self.max_per_peer,
                "process at its connection cap: closing its oldest idle connection"
            );
            table.evict(victim);
        }
        if table.conns.len() >= self.max_total {
            let victim = table.heaviest_idle().ok_or(NoSlot::Full {
                limit: self.max_total,
            })?;
            tracing::info!(
                limit = self.max_total,
                "server at its connection cap: closing an idle connection of the process holding the most"
            );
            table.evict(victim);
        }
        let id = table.next_id;
        table.next_id += 1;
        let close = CancellationToken::new();
        table.conns.insert(
            id,
            Entry {
                peer,
                idle: true,
                close: close.clone(),
            },
        );
        *table.per_peer.entry(peer).or_insert(0) += 1;
        Ok(Slot {
            slots: Arc::clone(self),
            id,
            close,
        })
    }

    /// Connections held now, for tests and logs.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.table().conns.len()
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Table {
    /// The oldest idle connection of the process holding the most
    /// connections.
    fn heaviest_idle(&self) -> Option<u64> {
        self.conns
            .iter()
            .filter(|(_, entry)| entry.idle)
            .max_by_key(|(id, entry)| {
                let held = self.per_peer.get(&entry.peer).copied().unwrap_or(0);
                // Most held first, then the oldest (lowest id).
                (held, std::cmp::Reverse(**id))
            })
            .map(|(id, _)| *id)
    }

    /// Frees `id`'s slot now and tells its connection to close.
    fn evict(&mut self, id: u64) {
        if let Some(entry) = self.remove(id) {
            entry.close.cancel();
        }
    }

    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.conns.remove(&id)?;
        if let Some(count) = self.per_peer.get_mut(&entry.peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_peer.remove(&entry.peer);
            }
        }
        Some(entry)
    }
}

impl Slot {
    /// Marks the connection idle (waiting for a request) or busy; `false`
    /// when it was closed to make room, so it must end now.
    pub(super) fn set_idle(&self, idle: bool) -> bool {
        let mut table = self.slots.table();
        match table.conns.get_mut(&self.id) {
            Some(entry) => {
                entry.idle = idle;
                true
            }
            None => false,
        }
    }

    /// The connection's number, unique while the server runs.
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Fires when the connection was closed to make room for another.
    pub(super) fn evicted(&self) -> &CancellationToken {
        &self.close
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.table().remove(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_at_its_cap_gives_up_its_oldest_idle_connection() {
        let slots = Slots::new(10, 2);
        let first = slots.admit(Some(1)).unwrap();
        let second = slots.admit(Some(1)).unwrap();
        let third = slots.admit(Some(1)).unwrap();
        assert!(first.evicted().is_cancelled());
        assert!(!second.evicted().is_cancelled());
        assert!(!third.evicted().is_cancelled());
        assert!(!first.set_idle(false), "an evicted slot stays closed");
        assert_eq!(slots.held(), 2);
    }

    #[test]
    fn a_process_whose_connections_are_all_busy_is_refused() {
        let slots = Slots::new(10, 2);
        let held: Vec<Slot> = (0..2).map(|_| slots.admit(Some(1)).unwrap()).collect();
        for slot in &held {
            assert!(slot.set_idle(false));
        }
        assert_eq!(
            slots.admit(Some(1)).unwrap_err(),
            NoSlot::PeerFull { limit: 2 }
        );
        // Another process is not affected.
        assert!(slots.admit(Some(2)).is_ok());
    }

    #[test]
    fn at_the_global_cap_the_heaviest_process_loses_an_idle_connection() {
        let slots = Slots::new(4, 3);
        let light = slots.admit(Some(1)).unwrap();
        let heavy: Vec<Slot> = (0..3).map(|_| slots.admit(Some(2)).unwrap()).collect();
        let newcomer = slots.admit(Some(3)).unwrap();
        assert!(
            !light.evicted().is_cancelled(),
            "the light process keeps its slot"
        );
        assert!(
            heavy[0].evicted().is_cancelled(),
            "the heavy one's oldest goes"
        );
        assert!(!heavy[1].evicted().is_cancelled());
        assert!(!newcomer.evicted().is_cancelled());
        assert_eq!(slots.held(), 4);
    }

    #[test]
    fn busy_connections_are_never_closed_and_a_full_busy_server_refuses() {
        let slots = Slots::new(2, 2);
        let held: Vec<Slot> = (0..2).map(|_| slots.admit(Some(1)).unwrap()).collect();
        for slot in &held {
            assert!(slot.set_idle(false));
        }
        assert_eq!(slots.admit(Some(2)).unwrap_err(), NoSlot::Full { limit: 2 });
        assert!(held.iter().all(|slot| !slot.evicted().is_cancelled()));
        drop(held);
        assert_eq!(slots.held(), 0);
        assert!(slots.admit(Some(2)).is_ok());
    }
}
