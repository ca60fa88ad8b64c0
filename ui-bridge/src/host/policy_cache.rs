//! The approvals file as the exec host sees it: re-read only when it
//! changed, compiled once per agent and file version.
//!
//! It decides, per request, which compiled policy applies: a cheap stamp
//! of the file (device, inode, length, mtime, ctime, taken with `fstatat`
//! in the held state directory) is compared with the one of the last read,
//! and only a change re-reads, re-hashes and re-parses the file. It refuses
//! to serve from a file it cannot use: a malformed or unreadable file makes
//! every request fail closed with the loader's error, which names the file,
//! line and column (DESIGN.md invariant 6); a missing file is the built-in
//! `security: deny`. The store is pinned: the state directory is held from
//! the first load on, every load checks who owns it, the file and every
//! directory above them (StrictModes), and once the path names another
//! directory (renamed away, replaced) every request is refused until the
//! host restarts.
//! Compiled policies survive a change that only touched last-used metadata
//! (our own `record_use` writes), so a busy allowlist is not recompiled on
//! every request.
//!
//! # Caveats
//!
//! The stamp is taken before the read: a write that lands between the two
//! is read now and seen as a change again on the next request, never
//! missed. Owners and modes are checked when the file is loaded, not on
//! every request: a `chmod` or `chown` of a directory above the state
//! directory (which only its owner, us or root, can make) counts from the
//! next change of the file; a swapped directory is seen at once.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use approvals_ipc::approvals::{ApprovalsError, ApprovalsFile, ApprovalsStore, FileStamp};
use approvals_ipc::policy::{CompiledPolicy, HostContext};

/// Agents whose compiled policy is kept; agent ids come from requests, so
/// the cache must not grow without bound. Beyond it, policies are compiled
/// per request.
const MAX_CACHED_AGENTS: usize = 64;

/// Reads of a file that keeps being replaced mid-open before giving up.
const READ_ATTEMPTS: u32 = 5;

/// One usable version of the file: its policies, compiled on first use per agent.
#[derive(Debug)]
pub struct PolicyVersion {
    /// The normalized file (empty when it does not exist).
    pub file: ApprovalsFile,
    /// sha256 of the bytes read, for logs.
    pub hash: String,
    /// The file with last-used metadata removed: equal keys compile alike.
    policy_key: ApprovalsFile,
    compiled: Mutex<HashMap<String, Arc<CompiledPolicy>>>,
}

impl PolicyVersion {
    /// The compiled policy of `agent_id`, compiled now if needed.
    pub fn compiled(&self, agent_id: &str, host: &HostContext) -> Arc<CompiledPolicy> {
        let mut cache = self.compiled.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(compiled) = cache.get(agent_id) {
            return Arc::clone(compiled);
        }
        let compiled = Arc::new(CompiledPolicy::compile(
            self.file.resolve(Some(agent_id)),
            host,
        ));
        if cache.len() < MAX_CACHED_AGENTS {
            cache.insert(agent_id.to_owned(), Arc::clone(&compiled));
        }
        compiled
    }

    /// The socket token, to mask in command output.
    pub fn token(&self) -> Option<&str> {
        self.file
            .socket
            .as_ref()
            .and_then(|socket| socket.token.as_ref())
            .map(|token| token.expose_secret())
    }
}

/// Why no policy can be used; every request is refused with this text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable(pub String);

#[derive(Debug)]
struct Cached {
    fingerprint: Option<FileStamp>,
    outcome: Result<Arc<PolicyVersion>, Unusable>,
}

/// The file at one path, with its last read remembered.
#[derive(Debug)]
pub struct PolicyCache {
    store: ApprovalsStore,
    path: PathBuf,
    cached: Mutex<Option<Cached>>,
}

impl PolicyCache {
    /// A cache for the approvals file at `path`; nothing is read yet.
    pub fn new(path: PathBuf) -> Self {
        PolicyCache {
            store: ApprovalsStore::pinned(path.clone()),
            path,
            cached: Mutex::new(None),
        }
    }

    /// The store, for writes (`record_use`, allow-always).
    pub fn store(&self) -> &ApprovalsStore {
        &self.store
    }

    /// The current version of the file, re-read only when its stamp changed.
    ///
    /// A read that fails because the file was replaced mid-open (an atomic
    /// save, often our own `record_use`) is retried a few times before the
    /// file counts as unusable.
    pub fn current(&self) -> Result<Arc<PolicyVersion>, Unusable> {
        let mut cached = self.cached.lock().unwrap_or_else(PoisonError::into_inner);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let fingerprint = self.store.stamp().map_err(|error| {
                tracing::error!(%error, "approvals file unusable; refusing every request");
                Unusable(error.to_string())
            })?;
            if let Some(hit) = cached.as_ref()
                && hit.fingerprint == fingerprint
            {
                return hit.outcome.clone();
            }
            let previous = cached.as_ref().and_then(|c| c.outcome.clone().ok());
            let outcome = match self.read(previous) {
                Err(ApprovalsError::Read { .. }) if attempt < READ_ATTEMPTS => continue,
                outcome => outcome.map_err(|error| Unusable(error.to_string())),
            };
            if let Err(Unusable(error)) = &outcome {
                tracing::error!(%error, "approvals file unusable; refusing every request");
            }
            *cached = Some(Cached {
                fingerprint,
                outcome: outcome.clone(),
            });
            return outcome;
        }
    }

    /// Reads and parses the file; keeps `previous`'s compiled policies when
    /// only last-used metadata changed.
    fn read(
        &self,
        previous: Option<Arc<PolicyVersion>>,
    ) -> Result<Arc<PolicyVersion>, ApprovalsError> {
        let snapshot = self.store.load()?;
        for warning in &snapshot.warnings {
            tracing::warn!(file = %self.path.display(), %warning, "approvals file");
        }
        let policy_key = without_usage(&snapshot.file);
        let compiled = match previous {
            Some(previous) if previous.policy_key == policy_key => {
                let kept = previous
                    .compiled
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                tracing::debug!(hash = %snapshot.hash, "approvals file changed (usage only); policies kept");
                kept
            }
            _ => {
                tracing::info!(file = %self.path.display(), hash = %snapshot.hash, exists = snapshot.exists, "approvals file loaded");
                HashMap::new()
            }
        };
        Ok(Arc::new(PolicyVersion {
            file: snapshot.file,
            hash: snapshot.hash,
            policy_key,
            compiled: Mutex::new(compiled),
        }))
    }
}

/// The file without `lastUsed*` fields and entry ids, which never change a
/// decision (ids missing on disk are filled with fresh random ones at every
/// load).
fn without_usage(file: &ApprovalsFile) -> ApprovalsFile {
    let mut key = file.clone();
    for agent in key.agents.values_mut() {
        for entry in &mut agent.allowlist {
            entry.id.clear();
            entry.last_used_at = None;
            entry.last_used_command = None;
            entry.last_resolved_path = None;
        }
    }
    key
}
