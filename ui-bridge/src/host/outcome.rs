//! What a decision means for the reply and for the approvals file.
//!
//! It decides the wire error of every refusal (code `UNAVAILABLE`, message
//! `SYSTEM_RUN_DISABLED: security=deny` or `SYSTEM_RUN_DENIED: <reason>`,
//! `reason` one of OpenClaw's codes so its node host maps it), how a
//! person's answer or its absence becomes a run or a refusal (the ask
//! fallback, never looser than `security`), and which state is saved before
//! a run: last use of every matched entry, and the entries an allow-always
//! persists. It refuses an allow-always that was not on offer by running the
//! command once without persisting anything (DESIGN.md invariant 5).

use approvals_ipc::approvals::ApprovalsFile;
use approvals_ipc::ipc::{ErrorBody, ErrorCode};
use approvals_ipc::policy::{ApprovalDecision, Evaluation, SatisfiedBy, Verdict};

/// Why a request may run; also the payload's `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// The policy allowed it without asking.
    Policy,
    /// A person allowed it once.
    AllowOnce,
    /// A person allowed it and its entries are persisted.
    AllowAlways,
    /// Nobody answered and `askFallback` allowed it.
    Fallback,
}

impl Allowed {
    /// The payload's `decision` text.
    pub fn wire_name(self) -> &'static str {
        match self {
            Allowed::Policy => "allow",
            Allowed::AllowOnce => "allow-once",
            Allowed::AllowAlways => "allow-always",
            Allowed::Fallback => "ask-fallback",
        }
    }
}

/// The wire error for a `Verdict::Deny` evaluation.
pub fn denial(evaluation: &Evaluation) -> ErrorBody {
    let reason = evaluation.reason.as_deref().unwrap_or("denied by policy");
    if reason == "security=deny" {
        return ErrorBody::new(ErrorCode::Unavailable, "SYSTEM_RUN_DISABLED: security=deny")
            .with_reason("security=deny");
    }
    ErrorBody::new(
        ErrorCode::Unavailable,
        format!("SYSTEM_RUN_DENIED: {reason}"),
    )
    .with_reason(reason_code(reason))
}

/// OpenClaw's reason code for an evaluation's reason text.
///
/// A denylist hit gets `denylist`: no approval can lift it, so
/// `approval-required` would mislead; OpenClaw's own node host maps codes it
/// does not know to `approval-required`, so it still reads as a refusal.
fn reason_code(reason: &str) -> &'static str {
    if reason.starts_with("denylist:") {
        "denylist"
    } else if reason.starts_with("allowlist-miss") {
        "allowlist-miss"
    } else {
        "approval-required"
    }
}

/// Turns the approvers' answer (or `None`: nobody answered) into a run or a refusal.
pub(super) fn apply_answer(
    evaluation: &Evaluation,
    answer: Option<ApprovalDecision>,
) -> Result<Allowed, ErrorBody> {
    match answer {
        Some(ApprovalDecision::Deny) => Err(ErrorBody::new(
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DENIED: user denied",
        )
        .with_reason("approval-required")),
        Some(ApprovalDecision::AllowOnce) => Ok(Allowed::AllowOnce),
        Some(ApprovalDecision::AllowAlways)
            if evaluation
                .allowed_decisions
                .contains(&ApprovalDecision::AllowAlways) =>
        {
            Ok(Allowed::AllowAlways)
        }
        Some(ApprovalDecision::AllowAlways) => {
            tracing::warn!(
                command = %crate::exec::mask_command(&evaluation.command_text, &[]),
                "allow-always was not on offer for this command; running it once without persisting"
            );
            Ok(Allowed::AllowOnce)
        }
        None => match evaluation.fallback() {
            (Verdict::Allow, why) => {
                tracing::info!(command = %crate::exec::mask_command(&evaluation.command_text, &[]), why, "no approver answered; the ask fallback allows");
                Ok(Allowed::Fallback)
            }
            (_, code) => {
                let why = evaluation.reason.as_deref().unwrap_or("approval required");
                Err(ErrorBody::new(
                    ErrorCode::Unavailable,
                    format!("SYSTEM_RUN_DENIED: approval required ({why}); no approver answered and askFallback does not allow it"),
                )
                .with_reason(code))
            }
        },
    }
}

/// The approvals-file edit to save before a run: owned, so it can move to a blocking thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StateEdit {
    agent_id: String,
    command_text: String,
    /// (pattern, resolved path) of every matched entry.
    uses: Vec<(String, Option<String>)>,
    /// Patterns an allow-always adds.
    persist: Vec<String>,
    now_ms: u64,
}

impl StateEdit {
    /// The edit for a run allowed this way; `None` when nothing needs saving.
    pub(super) fn for_run(
        agent_id: &str,
        evaluation: &Evaluation,
        allowed: Allowed,
    ) -> Option<Self> {
        let persist = match allowed {
            Allowed::AllowAlways => evaluation.persist_patterns.clone(),
            _ => Vec::new(),
        };
        if evaluation.matched_patterns.is_empty() && persist.is_empty() {
            return None;
        }
        let uses = evaluation
            .matched_patterns
            .iter()
            .map(|pattern| (pattern.clone(), resolved_path_for(evaluation, pattern)))
            .collect();
        Some(StateEdit {
            agent_id: agent_id.to_owned(),
            command_text: evaluation.command_text.clone(),
            uses,
            persist,
            now_ms: now_ms(),
        })
    }

    /// Whether the edit adds allowlist entries (which are never skipped).
    pub(super) fn persists(&self) -> bool {
        !self.persist.is_empty()
    }

    /// Applies the edit to the freshest file (under the store's lock).
    pub(super) fn apply(self, file: &mut ApprovalsFile) {
        for pattern in &self.persist {
            file.add_allowlist_entry(&self.agent_id, pattern, Some("allow-always"));
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
