//! Containment without a cgroup: this process is the child subreaper
//! (`PR_SET_CHILD_SUBREAPER`), so every orphan of a run's processes is
//! re-parented to us instead of to init, and stays findable through
//! `/proc`.
//!
//! It decides which remaining processes belong to an ending run, and kills
//! them:
//!
//! - the run's own stages still alive (a timed-out or cancelled run), with
//!   every descendant they have, whatever its session;
//! - each orphan (a child of ours we did not spawn) whose session or
//!   process group is one of the run's stages' (each stage leads its own
//!   session), with its descendants: a double fork that kept its session;
//! - each orphan that belongs to no live run at all (it left its session
//!   with `setsid`/`setpgid` and its parent died, so nothing ties it to a
//!   run any more), with its descendants. This is conservative: such an
//!   orphan of a run still going dies when any other run ends, not only
//!   when its own does.
//!
//! An orphan whose session or group is a live run's stays for that run.
//!
//! It refuses to reap what it does not own: tokio reaps the children we
//! spawned (their pids are registered from spawn until they are gone from
//! our children list), and we reap only orphans, by pid, with `WNOHANG`,
//! never `waitpid(-1)`. A sweep holds out spawns (an orphan check between a
//! spawn and its registration would see a stranger), so spawns take a
//! shared lock and sweeps an exclusive one. Upholds DESIGN.md invariant 8.
//!
//! # Caveats
//!
//! A pid registered as ours is trusted until it leaves our children list;
//! if tokio reaps it and the pid is reused by an orphan before the next
//! sweep, that orphan is skipped by that sweep.

use std::collections::{HashMap, HashSet};
use std::io;
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

use super::ContainError;
use super::procfs::{self, Stat};

/// How long an ending run keeps killing before it gives up (and logs).
const END_WAIT: Duration = Duration::from_secs(5);

/// Pause between kill rounds, for killed processes to become zombies and
/// their children to be re-parented to us.
const ROUND_PAUSE: Duration = Duration::from_millis(2);

/// Makes this process the child subreaper, once.
pub(super) fn enable() -> Result<(), ContainError> {
    nix::sys::prctl::set_child_subreaper(true).map_err(|errno| ContainError::Subreaper {
        reason: errno.desc().to_owned(),
    })
}

/// Which runs are live and which of our children tokio owns.
#[derive(Debug, Default)]
struct Registry {
    /// Held shared by spawns, exclusively by sweeps.
    gate: RwLock<()>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    /// Each live run's stages, by run; each stage leads its own session.
    runs: HashMap<u64, Vec<i32>>,
    /// Children we spawned, which tokio reaps; never reaped by us.
    owned: HashSet<i32>,
}

fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(Registry::default)
}

impl Registry {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One live run under the subreaper.
#[derive(Debug)]
pub(super) struct Run {
    id: u64,
}

impl Run {
    /// Registers a new run, with no stages yet.
    pub(super) fn new() -> Self {
        let mut state = registry().state();
        let id = state.next;
        state.next += 1;
        state.runs.insert(id, Vec::new());
        Self { id }
    }

    /// Spawns a stage and registers it before any sweep can look.
    pub(super) fn spawn(&self, command: &mut Command) -> io::Result<Child> {
        self.register(|| command.spawn(), |child: &Child| child.id().unwrap_or(0))
    }

    /// Starts a stage with `start` and registers its pid (from `pid_of`;
    /// 0 for none) before any sweep can look: the stage is ours to reap,
    /// never an orphan's.
    pub(super) fn register<T>(
        &self,
        start: impl FnOnce() -> io::Result<T>,
        pid_of: impl FnOnce(&T) -> u32,
    ) -> io::Result<T> {
        let registry = registry();
        let _gate = registry.gate.read().unwrap_or_else(PoisonError::into_inner);
        let child = start()?;
        if let Ok(pid) = i32::try_from(pid_of(&child))
            && pid > 0
        {
            let mut state = registry.state();
            state.owned.insert(pid);
            state.runs.entry(self.id).or_default().push(pid);
        }
        Ok(child)
    }

    /// One round: kills every live process of this run (and every orphan
    /// no live run claims) and reaps orphan zombies; true when it found a
    /// live one, so another round should follow.
    pub(super) fn sweep(&self) -> bool {
        let registry = registry();
        let _gate = registry
            .gate
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let mut state = registry.state();
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let children = procfs::children(me);
        state.owned.retain(|pid| children.contains(pid));
        let roots = roots(&state, self.id, &children);
        drop(state);
        let mut found = false;
        for pid in descendants(roots) {
            found = true;
            if !procfs::may_kill(pid, me) {
                continue;
            }
            match kill(Pid::from_raw(pid), Signal::SIGKILL) {
                Ok(()) | Err(Errno::ESRCH) => {}
                Err(error) => tracing::warn!(pid, %error, "cannot kill a process of an ended run"),
            }
        }
        found
    }

    /// Ends the run: sweeps until nothing of it is left, within a bound.
    pub(super) async fn end(&self) {
        let deadline = Instant::now() + END_WAIT;
        while self.sweep() {
            if Instant::now() >= deadline {
                tracing::warn!("processes of an ended run kept appearing; gave up killing them");
                return;
            }
            tokio::time::sleep(ROUND_PAUSE).await;
        }
    }

    /// [`Run::end`] from a destructor.
    pub(super) fn end_blocking(&self) {
        let deadline = Instant::now() + END_WAIT;
        while self.sweep() && Instant::now() < deadline {
            std::thread::sleep(ROUND_PAUSE);
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        registry().state().runs.remove(&self.id);
    }
}

/// The processes to kill with their descendants, from our `children`:
/// reaps orphan zombies on the way.
fn roots(state: &State, run: u64, children: &[i32]) -> Vec<i32> {
    let mine: &[i32] = state.runs.get(&run).map_or(&[], Vec::as_slice);
    let others: HashSet<i32> = state
        .runs
        .iter()
        .filter(|(id, _)| **id != run)
        .flat_map(|(_, stages)| stages.iter().copied())
        .collect();
    let mut roots = Vec::new();
    for &pid in children {
        if state.owned.contains(&pid) {
            // Tokio reaps it; it is a root only if it is this run's stage.
            if mine.contains(&pid) {
                roots.push(pid);
            }
            continue;
        }
        let Some(stat) = procfs::stat(pid) else {
            continue;
        };
        if stat.zombie {
            reap(pid);
            continue;
        }
        match claim(&stat, mine, &others) {
            Claim::Ours | Claim::Nobody => roots.push(pid),
            Claim::Other => {}
        }
    }
    roots
}

/// Who an orphan belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// Its session or group is one of this run's stages'.
    Ours,
    /// Its session or group is another live run's.
    Other,
    /// No live run's: it left its session and lost its parent.
    Nobody,
}

fn claim(stat: &Stat, mine: &[i32], others: &HashSet<i32>) -> Claim {
    let of = |leader: i32| mine.contains(&leader);
    if of(stat.session) || of(stat.pgrp) {
        Claim::Ours
    } else if others.contains(&stat.session) || others.contains(&stat.pgrp) {
        Claim::Other
    } else {
        Claim::Nobody
    }
}

/// Every live process in the trees under `roots`, roots included.
fn descendants(roots: Vec<i32>) -> Vec<i32> {
    let mut seen = HashSet::new();
    let mut live = Vec::new();
    let mut queue = roots;
    while let Some(pid) = queue.pop() {
        if !seen.insert(pid) {
            continue;
        }
        if procfs::stat(pid).is_some_and(|stat| !stat.zombie) {
            live.push(pid);
        }
        queue.extend(procfs::children(pid));
    }
    live
}

/// Reaps an orphan zombie by pid; never waits for anything else.
fn reap(pid: i32) {
    match waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)) {
        Ok(_) | Err(Errno::ECHILD) => {}
        Err(error) => tracing::debug!(pid, %error, "cannot reap an orphan"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn orphan(session: i32, pgrp: i32) -> Stat {
        Stat {
            pid: 99,
            ppid: 1,
            pgrp,
            session,
            zombie: false,
        }
    }

    #[test]
    fn an_orphan_is_claimed_by_its_session_or_group_else_by_nobody() {
        let mine = [10, 20];
        let others: HashSet<i32> = [30].into();
        let cases = [
            (orphan(10, 10), Claim::Ours),
            (orphan(5, 20), Claim::Ours),
            (orphan(30, 31), Claim::Other),
            (orphan(31, 30), Claim::Other),
            (orphan(20, 30), Claim::Ours),
            (orphan(99, 99), Claim::Nobody),
        ];
        for (stat, want) in cases {
            assert_eq!(claim(&stat, &mine, &others), want, "{stat:?}");
        }
    }
}
