//! What a person is shown for one pending approval, and the record every
//! approver receives.
//!
//! It decides nothing: the bridge fills these values from the policy
//! evaluation, and the broker only carries them, unchanged, to every
//! approver (terminal, web UI, command hook, gateway). Upholds DESIGN.md
//! section 7 (every approver sees the full display) and principle 3 (the
//! human sees exactly what will run): `argv` is the exact argv that runs,
//! with invisible characters already escaped by the bridge.

use approvals_ipc::ipc::Decision;
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
}

/// A pending approval as every approver receives it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PendingApproval {
    /// A lowercase UUIDv7; answers may use any unique prefix of 4+ characters.
    pub id: String,
    /// When the approval was submitted (Unix milliseconds).
    pub created_at_ms: i64,
    /// When it times out and the ask fallback decides (Unix milliseconds).
    pub expires_at_ms: i64,
    /// What a person is shown.
    pub display: ApprovalDisplay,
}
