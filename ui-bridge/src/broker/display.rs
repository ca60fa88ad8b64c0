//! What a person is shown for one pending approval, and the record every
//! approver receives.
//!
//! It decides what a person is shown for one request ([`approval_display`]):
//! the exact argv, command text, cwd, agent, session, each segment's resolved
//! and real path and guards, risk, security and ask, and why it asks — with
//! every field passed through `escape_for_display`, so zero-width, bidi and
//! control characters are visible as `\u{…}`. The broker then only carries
//! these values, unchanged, to every approver (terminal, web UI, command
//! hook, gateway). Upholds DESIGN.md section 7 (every approver sees the full
//! display) and principle 3 (the human sees exactly what will run): `argv` is
//! the exact argv that runs, with invisible characters escaped.

use approvals_ipc::ipc::{Decision, ExecRequest};
use approvals_ipc::policy::guards::distinct_reasons;
use approvals_ipc::policy::unicode::escape_for_display;
use approvals_ipc::policy::{ApprovalDecision, Evaluation};
use serde::{Deserialize, Serialize};

/// What a person is shown; built by the bridge from the policy evaluation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalDisplay {
    /// The exact argv that will run, invisible characters escaped.
    pub argv: Vec<String>,
    /// The command as text (the shell script when a shell wrapper was used).
    pub command_text: String,
    /// The working directory the command runs in.
    pub cwd: String,
    /// The agent asking, so a person knows whose request this is.
    pub agent_id: String,
    /// The agent's session, when the request carried one.
    pub session_key: Option<String>,
    /// One row per simple command of the plan, with its resolved executable.
    pub segments: Vec<DisplaySegment>,
    /// `low`, `medium`, `high` or `critical`, so a person weighs the answer.
    pub risk_level: String,
    /// Why the risk level is what it is.
    pub risk_reasons: Vec<String>,
    /// The effective `security` mode, as in the policy file.
    pub security: String,
    /// The effective `ask` mode, as in the policy file.
    pub ask: String,
    /// The answers this approval accepts; the broker refuses any other.
    ///
    /// Invariant: `deny` is always accepted, listed here or not (refusing to
    /// deny could only keep a command alive that a person rejected).
    pub allowed_decisions: Vec<Decision>,
    /// Why a person is asked (allowlist miss, guard, `ask: always` …).
    pub reason: Option<String>,
}

/// One simple command of the plan as a person sees it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DisplaySegment {
    /// The segment's literal argv.
    pub argv: Vec<String>,
    /// The executable as found on PATH or relative to cwd, if it resolved.
    pub resolved_path: Option<String>,
    /// The executable with symlinks resolved: what really runs.
    pub real_path: Option<String>,
    /// The argument guards that escalated this segment to a question.
    pub guards: Vec<String>,
    /// The real path of the file it reads on stdin (`< FILE`), so a person
    /// sees which file the command is fed. Absent from older peers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin_file: Option<String>,
}

/// A pending approval as every approver receives it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// A lowercase random UUID (v4); answers may use any unique prefix of
    /// 4+ characters.
    pub id: String,
    /// The id's first characters, unique among the pending approvals for
    /// this approval's whole life: what people are shown and type.
    #[serde(default)]
    pub short_id: String,
    /// When the approval was submitted (Unix milliseconds).
    pub created_at_ms: i64,
    /// When it times out and the ask fallback decides (Unix milliseconds).
    pub expires_at_ms: i64,
    /// What a person is shown.
    pub display: ApprovalDisplay,
}

impl PendingApproval {
    /// The id to show a person: the short id, or the full id when a peer
    /// sent none.
    pub fn shown_id(&self) -> &str {
        if self.short_id.is_empty() {
            &self.id
        } else {
            &self.short_id
        }
    }
}

/// The display for one evaluated request, every text escaped for a terminal.
pub fn approval_display(evaluation: &Evaluation, request: &ExecRequest) -> ApprovalDisplay {
    let escape_all =
        |items: &[String]| -> Vec<String> { items.iter().map(|s| escape_for_display(s)).collect() };
    let escape_opt = |item: &Option<String>| item.as_deref().map(escape_for_display);
    let agent = crate::host::agent_named(request);
    let segments = evaluation
        .analysis
        .segments
        .iter()
        .map(|segment| DisplaySegment {
            argv: escape_all(&segment.argv),
            resolved_path: escape_opt(&segment.resolved_path),
            real_path: escape_opt(&segment.real_path),
            guards: distinct_reasons(&segment.guards)
                .into_iter()
                .map(escape_for_display)
                .collect(),
            stdin_file: escape_opt(&segment.stdin_file),
        })
        .collect();
    let reason = evaluation
        .reason
        .as_ref()
        .map(ToString::to_string)
        .or_else(|| evaluation.analysis.reason.as_ref().map(ToString::to_string))
        .map(|why| escape_for_display(&why));
    ApprovalDisplay {
        argv: escape_all(evaluation.argv()),
        command_text: escape_for_display(evaluation.command_text()),
        cwd: escape_for_display(&evaluation.cwd().to_string_lossy()),
        agent_id: escape_for_display(agent),
        session_key: escape_opt(&request.session_key),
        segments,
        risk_level: word(&evaluation.risk.level),
        risk_reasons: escape_all(&evaluation.risk.reasons),
        security: word(&evaluation.policy.security),
        ask: word(&evaluation.policy.ask),
        allowed_decisions: evaluation
            .allowed_decisions
            .iter()
            .map(|decision| match decision {
                ApprovalDecision::AllowOnce => Decision::AllowOnce,
                ApprovalDecision::AllowAlways => Decision::AllowAlways,
                ApprovalDecision::Deny => Decision::Deny,
            })
            .collect(),
        reason,
    }
}

/// The policy file's word for an enum value (`allowlist`, `on-miss`, `high`).
fn word<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        _ => "unknown".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_words_are_the_policy_file_words() {
        use approvals_ipc::approvals::{Ask, Security};
        assert_eq!(word(&Security::Allowlist), "allowlist");
        assert_eq!(word(&Ask::OnMiss), "on-miss");
        assert_eq!(
            word(&approvals_ipc::policy::risk::RiskLevel::Critical),
            "critical"
        );
    }
}
