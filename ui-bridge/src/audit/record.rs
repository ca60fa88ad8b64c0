//! The audit record: what one line says about a decision or an outcome.
//!
//! It fixes the vocabulary of the log (events, decisions, who decided, risk
//! levels) as closed enums so a record cannot name a decider or decision
//! that does not exist; a `human:` decider must name the approver. It has no
//! field for the socket token, so the token cannot reach the log
//! (DESIGN.md invariant 9).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// What happened; one record per decision and per outcome (DESIGN.md
/// section 3, step 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AuditEvent {
    /// The exec host decided allow, deny or ask.
    #[serde(rename = "decision")]
    Decision,
    /// The command was started.
    #[serde(rename = "exec.started")]
    ExecStarted,
    /// The command finished (exit code, duration, timeout, truncation).
    #[serde(rename = "exec.finished")]
    ExecFinished,
    /// The command was refused and did not run.
    #[serde(rename = "exec.denied")]
    ExecDenied,
}

/// The decision recorded, in the policy file's words, so queries can filter
/// on the same strings the user configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuditDecision {
    /// Allowed by policy without asking.
    Allow,
    /// Refused.
    Deny,
    /// A human (or the fallback) allowed this run only.
    AllowOnce,
    /// A human allowed it and it was remembered.
    AllowAlways,
    /// A human is being asked.
    Ask,
}

/// Ordered risk levels, so `--risk high` can mean "high or worse".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    /// Nothing notable.
    Low,
    /// Worth a look.
    Medium,
    /// Likely destructive or exfiltrating.
    High,
    /// Known-dangerous pattern (for example `rm -rf /`).
    Critical,
}

impl FromStr for RiskLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "low" => Ok(Self::Low),
            "medium" => Ok(Self::Medium),
            "high" => Ok(Self::High),
            "critical" => Ok(Self::Critical),
            other => Err(format!(
                "unknown risk level `{other}`, expected low, medium, high or critical"
            )),
        }
    }
}

/// A request's risk as the policy assessed it, with the reasons shown to the
/// human, so the log explains why a prompt looked the way it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRisk {
    /// The level.
    pub level: RiskLevel,
    /// Why, one phrase per rule that fired.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// Who or what made a decision; `human:<approver>` carries the approver's
/// identity so a person's answer is attributable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum DecidedBy {
    /// The security mode decided (deny, full, denylist, ask off).
    Policy,
    /// An allowlist entry matched.
    Allowlist,
    /// A safe-bin profile matched.
    SafeBin,
    /// A skill's bin matched.
    Skill,
    /// A person answered; the text is their identity. Invariant: non-empty
    /// (enforced by [`DecidedBy::human`] and by parsing).
    Human(String),
    /// Nobody answered and `askFallback` decided.
    Fallback,
    /// Nobody answered and the approval expired.
    Timeout,
}

impl DecidedBy {
    /// A human decider; `None` for an empty identity, which would make the
    /// record unattributable.
    pub fn human(approver: &str) -> Option<Self> {
        (!approver.is_empty()).then(|| Self::Human(approver.to_owned()))
    }
}

impl fmt::Display for DecidedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Policy => f.write_str("policy"),
            Self::Allowlist => f.write_str("allowlist"),
            Self::SafeBin => f.write_str("safe-bin"),
            Self::Skill => f.write_str("skill"),
            Self::Human(who) => write!(f, "human:{who}"),
            Self::Fallback => f.write_str("fallback"),
            Self::Timeout => f.write_str("timeout"),
        }
    }
}

impl From<DecidedBy> for String {
    fn from(value: DecidedBy) -> Self {
        value.to_string()
    }
}

impl TryFrom<String> for DecidedBy {
    type Error = String;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        match value.as_str() {
            "policy" => Ok(Self::Policy),
            "allowlist" => Ok(Self::Allowlist),
            "safe-bin" => Ok(Self::SafeBin),
            "skill" => Ok(Self::Skill),
            "fallback" => Ok(Self::Fallback),
            "timeout" => Ok(Self::Timeout),
            other => match other.strip_prefix("human:") {
                Some(who) if !who.is_empty() => Ok(Self::Human(who.to_owned())),
                _ => Err(format!(
                    "unknown decider `{other}`, expected policy, allowlist, safe-bin, skill, \
                     human:<approver>, fallback or timeout"
                )),
            },
        }
    }
}

/// One audit record before the log adds `v`, `seq`, `ts` and `prev`; every
/// optional field is left out of the line when `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    /// What happened.
    pub event: AuditEvent,
    /// The socket frame or approval id the record belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The gateway's run id, to join with `exec.*` events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// The agent that asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The agent's session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// The argv as requested (masked by the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argv: Option<Vec<String>>,
    /// The command text shown to the human (masked by the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_text: Option<String>,
    /// The working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The resolved executables, one per planned command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_paths: Option<Vec<String>>,
    /// The assessed risk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<AuditRisk>,
    /// The decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<AuditDecision>,
    /// Who or what decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidedBy>,
    /// The approver channel or identity that answered (terminal, web, hook…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approver: Option<String>,
    /// Why: the refusal reason or the policy's explanation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Time from request to decision, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_latency_ms: Option<u64>,
    /// The command's exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Whether the command was killed at its timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<bool>,
    /// How long the command ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Whether output went over the cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// Where it ran (`node`, `gateway`, a host name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

impl AuditRecord {
    /// A record of `event` with every other field empty, to be filled with
    /// struct-update syntax.
    pub fn new(event: AuditEvent) -> Self {
        Self {
            event,
            request_id: None,
            run_id: None,
            agent_id: None,
            session_key: None,
            argv: None,
            command_text: None,
            cwd: None,
            resolved_paths: None,
            risk: None,
            decision: None,
            decided_by: None,
            approver: None,
            reason: None,
            decision_latency_ms: None,
            exit_code: None,
            timed_out: None,
            duration_ms: None,
            truncated: None,
            host: None,
        }
    }
}

/// One line as stored: the chain header followed by the record's fields.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct StoredLine<R> {
    /// Format version, [`super::AUDIT_VERSION`].
    pub v: u64,
    /// 1 for the first record, then +1 per record.
    pub seq: u64,
    /// Milliseconds since the epoch when appended.
    pub ts: i64,
    /// Hash of the previous line's bytes.
    pub prev: String,
    /// The record.
    #[serde(flatten)]
    pub record: R,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_by_round_trips_every_spelling() {
        for text in [
            "policy",
            "allowlist",
            "safe-bin",
            "skill",
            "human:alice",
            "human:telegram:42",
            "fallback",
            "timeout",
        ] {
            let parsed = DecidedBy::try_from(text.to_owned()).unwrap();
            assert_eq!(parsed.to_string(), text);
        }
    }

    #[test]
    fn decided_by_refuses_anonymous_human_and_unknown_names() {
        for text in ["human:", "human", "Policy", "", "bot"] {
            assert!(DecidedBy::try_from(text.to_owned()).is_err(), "{text}");
        }
        assert_eq!(DecidedBy::human(""), None);
    }

    #[test]
    fn record_serialises_camel_case_and_skips_empty_fields() {
        let record = AuditRecord {
            agent_id: Some("main".into()),
            decision: Some(AuditDecision::AllowAlways),
            decided_by: Some(DecidedBy::Human("bob".into())),
            decision_latency_ms: Some(12),
            risk: Some(AuditRisk {
                level: RiskLevel::High,
                reasons: vec!["sudo".into()],
            }),
            ..AuditRecord::new(AuditEvent::Decision)
        };
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "event": "decision",
                "agentId": "main",
                "risk": {"level": "high", "reasons": ["sudo"]},
                "decision": "allow-always",
                "decidedBy": "human:bob",
                "decisionLatencyMs": 12
            })
        );
    }

    #[test]
    fn risk_levels_are_ordered_low_to_critical() {
        assert!(RiskLevel::Low < RiskLevel::Medium);
        assert!(RiskLevel::Medium < RiskLevel::High);
        assert!(RiskLevel::High < RiskLevel::Critical);
        assert_eq!("high".parse::<RiskLevel>(), Ok(RiskLevel::High));
        assert!("HIGH".parse::<RiskLevel>().is_err());
    }
}
