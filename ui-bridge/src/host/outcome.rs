//! What an allowed run changes in the approvals file, saved before it
//! runs: last use (`lastUsed*`) of the entries that allowed it, and the
//! entries an allow-always persists. Only a [`Grant::AllowAlways`] persists
//! anything; the policy grants it only when allow-always was on offer
//! (DESIGN.md invariant 5). Last use is recorded only when the entries
//! themselves allowed the command (every segment satisfied, and no person
//! had to approve it): an entry that matched one segment of a command a
//! person approved past did not allow that command, so it never shows it.

use approvals_ipc::approvals::ApprovalsFile;
use approvals_ipc::policy::{Evaluation, Grant, SatisfiedBy};

/// The approvals-file edit to save before a run: owned, so it can move to a blocking thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StateEdit {
    agent_id: String,
    command_text: String,
    /// (pattern, resolved path) of every matched entry.
    uses: Vec<(String, Option<String>)>,
    /// Patterns an allow-always adds.
    persist: Vec<String>,
    /// Prefix rules an allow-always adds: (pattern, argument prefix).
    persist_prefixes: Vec<(String, Vec<String>)>,
    now_ms: u64,
}

impl StateEdit {
    /// The edit for a run allowed this way; `None` when nothing needs saving.
    pub(super) fn for_run(agent_id: &str, evaluation: &Evaluation, grant: Grant) -> Option<Self> {
        let (persist, persist_prefixes) = match grant {
            Grant::AllowAlways => (
                evaluation.persist_patterns().to_vec(),
                evaluation.persist_prefixes().to_vec(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let uses: Vec<(String, Option<String>)> = if allowed_by_entries(evaluation, grant) {
            evaluation
                .matched_patterns()
                .iter()
                .map(|pattern| (pattern.clone(), resolved_path_for(evaluation, pattern)))
                .collect()
        } else {
            Vec::new()
        };
        if uses.is_empty() && persist.is_empty() && persist_prefixes.is_empty() {
            return None;
        }
        Some(StateEdit {
            agent_id: agent_id.to_owned(),
            command_text: evaluation.command_text().to_owned(),
            uses,
            persist,
            persist_prefixes,
            now_ms: now_ms(),
        })
    }

    /// Whether the edit adds allowlist entries (which are never skipped).
    pub(super) fn persists(&self) -> bool {
        !self.persist.is_empty() || !self.persist_prefixes.is_empty()
    }

    /// Applies the edit to the freshest file (under the store's lock).
    pub(super) fn apply(self, file: &mut ApprovalsFile) {
        for pattern in &self.persist {
            file.add_allowlist_entry(&self.agent_id, pattern, Some("allow-always"));
        }
        for (pattern, prefix) in &self.persist_prefixes {
            file.add_prefix_entry(&self.agent_id, pattern, prefix, Some("allow-always"));
        }
        for (pattern, resolved) in &self.uses {
            file.record_use(
                &self.agent_id,
                pattern,
                &self.command_text,
                resolved.as_deref(),
                self.now_ms,
            );
        }
    }
}

/// Whether the policy's entries allowed the run by themselves: no person
/// approved it, and every segment was satisfied (by the allowlist, a safe
/// bin or a skill).
fn allowed_by_entries(evaluation: &Evaluation, grant: Grant) -> bool {
    let segments = &evaluation.analysis.segments;
    matches!(grant, Grant::Policy | Grant::Fallback)
        && !segments.is_empty()
        && segments.iter().all(|s| s.satisfied_by.is_some())
}

/// The real path a pattern allowed: the allowlisted segment whose real path
/// is the pattern itself (an exact path entry), else the first allowlisted
/// segment. Display metadata only; decisions never read it.
fn resolved_path_for(evaluation: &Evaluation, pattern: &str) -> Option<String> {
    let allowlisted = || {
        evaluation
            .analysis
            .segments
            .iter()
            .filter(|s| s.satisfied_by == Some(SatisfiedBy::Allowlist))
    };
    allowlisted()
        .find(|s| s.real_path.as_deref() == Some(pattern))
        .or_else(|| allowlisted().next())
        .and_then(|s| s.real_path.clone())
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
