//! The process groups of one plan: every command starts in a new session,
//! so it leads a new group, and every group is remembered until it is
//! empty.
//!
//! It decides when a spawn may still happen (not after the plan was stopped)
//! and which groups a signal reaches (all of them, so background children
//! die with their pipeline). It refuses to start a process once the plan was
//! stopped, under the same lock that stops it, so no process slips past a
//! timeout. Upholds DESIGN.md invariant 8 (no process outlives its request).
//!
//! # Caveats
//!
//! A process that leaves its group (`setsid`, `setpgid`) is out of reach of
//! these signals; the run's containment ([`super::contain`]) kills it when
//! the run ends. A group is forgotten once `kill(-pgid, 0)` reports it
//! empty, so a recycled pid is never signalled by us afterwards. A killed
//! grandchild stays a member (a zombie) until its new parent, usually init,
//! reaps it, so after `SIGTERM` the grace period may run to its end even
//! when everything already died.

use std::sync::{Mutex, PoisonError};

use super::contain::{Launch, Scope, Started};
use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// The plan was stopped (timed out) before this spawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stopped;

/// The groups of one plan and whether it was stopped.
#[derive(Debug, Default)]
pub(super) struct Groups {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    pgids: Vec<Pid>,
    stopped: bool,
}

impl Groups {
    /// Starts `launch` through the run's `scope` (a new session, so a new
    /// group) unless the plan was stopped; the group's id (the child's pid)
    /// is recorded before the lock is released, so a concurrent
    /// [`Groups::stop`] signals it too.
    pub(super) fn launch(
        &self,
        scope: &Scope,
        launch: Launch,
    ) -> Result<std::io::Result<Started>, Stopped> {
        let mut inner = self.lock();
        if inner.stopped {
            return Err(Stopped);
        }
        let started = scope.launch(launch);
        if let Ok(child) = &started
            && let Some(pid) = child.id().and_then(|pid| i32::try_from(pid).ok())
        {
            inner.pgids.push(Pid::from_raw(pid));
        }
        Ok(started)
    }

    /// Stops the plan: no further spawn, and `signal` to every group.
    pub(super) fn stop(&self, signal: Signal) {
        let mut inner = self.lock();
        inner.stopped = true;
        signal_groups(&mut inner.pgids, Some(signal));
    }

    /// Sends `signal` to every group that still has members.
    pub(super) fn signal_all(&self, signal: Signal) {
        signal_groups(&mut self.lock().pgids, Some(signal));
    }

    /// Whether any group still has a member (zombies included).
    pub(super) fn any_alive(&self) -> bool {
        let mut inner = self.lock();
        signal_groups(&mut inner.pgids, None);
        !inner.pgids.is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A plan whose future is dropped (its request was cancelled) must not
/// leave descendants behind: the direct children die by `kill_on_drop`, and
/// this kills the rest of every group that still has members.
impl Drop for Groups {
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        signal_groups(&mut inner.pgids, Some(Signal::SIGKILL));
    }
}

/// Signals each group and forgets the empty ones.
fn signal_groups(pgids: &mut Vec<Pid>, signal: Option<Signal>) {
    pgids.retain(|&pgid| match killpg(pgid, signal) {
        Ok(()) => true,
        Err(Errno::ESRCH) => false,
        Err(error) => {
            tracing::warn!(pgid = pgid.as_raw(), ?signal, %error, "cannot signal process group");
            true
        }
    });
}
