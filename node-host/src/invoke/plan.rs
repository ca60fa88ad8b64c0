//! The plan a gateway approval is bound to: what `system.run.prepare`
//! returns (in the shape OpenClaw's `normalizeSystemRunApprovalPlan`
//! accepts), the policy snapshot inside it, and the node's memory of the
//! plans it prepared.
//!
//! A plan that comes back with an approval must be one this node prepared
//! (its digest is remembered for [`PLAN_TTL`]), so neither its script hash
//! nor its policy snapshot can be made up by whoever asked for the
//! approval. An `allow-once` approval id is honoured once.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use approvals_ipc::approvals::{Ask, ResolvedPolicy, Security};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a prepared plan can be approved and run: longer than any
/// approval timeout a gateway applies.
pub const PLAN_TTL: Duration = Duration::from_secs(2 * 3600);

/// Prepared plans (and used approval ids) kept at most; beyond it the
/// oldest are forgotten, so their approvals are refused (asked again).
pub const PLAN_CAP: usize = 4096;

/// The plan, as sent to and returned by the gateway.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePlan {
    /// The argv that runs.
    pub argv: Vec<String>,
    /// The canonical working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The command as people read it.
    pub command_text: String,
    /// Display text, only when it differs from `commandText`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_preview: Option<String>,
    /// The agent whose policy applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The session of the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// The agent's policy when the plan was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_snapshot: Option<PolicySnapshot>,
    /// The script the command runs, hashed, re-checked before it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutable_file_operand: Option<FileOperand>,
}

/// A script operand of the argv and the sha256 of its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileOperand {
    /// Which argv word names it.
    pub argv_index: usize,
    /// Its absolute path.
    pub path: String,
    /// Lowercase hex sha256 of its content.
    pub sha256: String,
}

/// OpenClaw's policy snapshot (`ExecApprovalPolicySnapshotSchema`, a
/// closed object: no other fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicySnapshot {
    /// Effective security.
    pub security: Security,
    /// Effective ask mode.
    pub ask: Ask,
    /// Effective ask fallback.
    pub ask_fallback: Security,
    /// Whether skill CLIs are trusted.
    pub auto_allow_skills: bool,
    /// The agent's allowlist, sorted.
    pub allowlist_rules: Vec<PolicyRule>,
}

/// One allowlist entry as the snapshot shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicyRule {
    /// The executable glob.
    pub pattern: String,
    /// The argument regex, when the entry has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// `allow-always` for entries an approval added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl PolicySnapshot {
    /// The snapshot of one agent's resolved policy.
    pub fn of(policy: &ResolvedPolicy) -> Self {
        let mut rules: Vec<PolicyRule> = policy
            .allowlist
            .iter()
            .map(|entry| PolicyRule {
                pattern: entry.pattern.clone(),
                arg_pattern: entry.arg_pattern.clone(),
                source: entry
                    .source
                    .as_deref()
                    .filter(|s| *s == "allow-always")
                    .map(str::to_owned),
            })
            .collect();
        rules.sort();
        rules.dedup();
        PolicySnapshot {
            security: policy.security,
            ask: policy.ask,
            ask_fallback: policy.ask_fallback,
            auto_allow_skills: policy.auto_allow_skills,
            allowlist_rules: rules,
        }
    }

    /// Whether an approval made under `self` still holds under `current`:
    /// the same modes, and every rule still there (rules added since, as
    /// an allow-always adds them, do not void it). As OpenClaw's
    /// `isExecApprovalPolicySnapshotCurrent`.
    pub fn still_holds(&self, current: &PolicySnapshot) -> bool {
        self.security == current.security
            && self.ask == current.ask
            && self.ask_fallback == current.ask_fallback
            && self.auto_allow_skills == current.auto_allow_skills
            && self.allowlist_rules.iter().all(|rule| {
                current.allowlist_rules.contains(rule)
                    || current.allowlist_rules.iter().any(|c| {
                        c.pattern == rule.pattern
                            && c.arg_pattern == rule.arg_pattern
                            && c.source.is_some()
                            && rule.source.is_none()
                    })
            })
    }
}

impl WirePlan {
    /// What identifies the plan: everything but the display-only preview,
    /// with the snapshot's rules in one order.
    fn digest(&self) -> String {
        let mut canonical = self.clone();
        canonical.command_preview = None;
        if let Some(snapshot) = canonical.policy_snapshot.as_mut() {
            snapshot.allowlist_rules.sort();
        }
        // A struct of strings, numbers and enums always serializes.
        let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
        hex::encode(Sha256::digest(&bytes))
    }
}

/// The hash an approval binds the environment overrides with (`None`
/// without overrides): sha256 of the sorted `[[key, value], …]` JSON.
pub fn env_hash(env: Option<&BTreeMap<String, String>>) -> Option<String> {
    let env = env.filter(|e| !e.is_empty())?;
    let pairs: Vec<[&str; 2]> = env.iter().map(|(k, v)| [k.as_str(), v.as_str()]).collect();
    let bytes = serde_json::to_vec(&pairs).unwrap_or_default();
    Some(hex::encode(Sha256::digest(&bytes)))
}

/// What the node remembers of one prepared plan.
#[derive(Debug, Clone)]
struct Prepared {
    at: Instant,
    env_hash: Option<String>,
}

/// The plans this node prepared, and the allow-once approvals it honoured.
#[derive(Debug, Default)]
pub struct PreparedPlans {
    inner: Mutex<Memory>,
}

#[derive(Debug, Default)]
struct Memory {
    plans: HashMap<String, Prepared>,
    used_once: HashMap<String, Instant>,
    /// When the newest used id the cap made the node forget was used: a
    /// plan prepared before it might be that approval's, so it is no
    /// longer recalled (a forgotten use must not let a replay run).
    forgot_uses_until: Option<Instant>,
}

/// Drops entries older than [`PLAN_TTL`], then the oldest beyond the cap;
/// the time of the newest entry the cap dropped.
fn prune<V>(
    map: &mut HashMap<String, V>,
    at: impl Fn(&V) -> Instant,
    now: Instant,
) -> Option<Instant> {
    map.retain(|_, v| now.duration_since(at(v)) < PLAN_TTL);
    let mut dropped = None;
    while map.len() >= PLAN_CAP {
        let Some((oldest, when)) = map
            .iter()
            .min_by_key(|(_, v)| at(v))
            .map(|(k, v)| (k.clone(), at(v)))
        else {
            break;
        };
        tracing::warn!(
            "more than {PLAN_CAP} prepared plans or used approvals; forgetting the oldest (its approval will be refused)"
        );
        map.remove(&oldest);
        dropped = dropped.max(Some(when));
    }
    dropped
}

impl PreparedPlans {
    /// Remembers a plan this node returned from `system.run.prepare`.
    pub fn remember(&self, plan: &WirePlan, env_hash: Option<String>) {
        let now = Instant::now();
        if let Ok(mut memory) = self.inner.lock() {
            prune(&mut memory.plans, |p| p.at, now);
            memory
                .plans
                .insert(plan.digest(), Prepared { at: now, env_hash });
        }
    }

    /// The environment hash bound to `plan` when this node prepared it
    /// (within [`PLAN_TTL`]); `None` when it did not.
    pub fn recall(&self, plan: &WirePlan) -> Option<Option<String>> {
        let memory = self.inner.lock().ok()?;
        let prepared = memory.plans.get(&plan.digest())?;
        let after_forgotten = memory.forgot_uses_until.is_none_or(|t| prepared.at > t);
        (after_forgotten && prepared.at.elapsed() < PLAN_TTL).then(|| prepared.env_hash.clone())
    }

    /// Marks an allow-once approval id used; `false` when it already was
    /// (a replay), or when the memory cannot be read (fail closed).
    pub fn use_once(&self, approval_id: &str) -> bool {
        let now = Instant::now();
        let Ok(mut memory) = self.inner.lock() else {
            return false;
        };
        if let Some(forgotten) = prune(&mut memory.used_once, |at| *at, now) {
            memory.forgot_uses_until = memory.forgot_uses_until.max(Some(forgotten));
        }
        memory
            .used_once
            .insert(approval_id.to_owned(), now)
            .is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> WirePlan {
        WirePlan {
            argv: vec!["/bin/echo".into(), "hi".into()],
            cwd: Some("/tmp".into()),
            command_text: "/bin/echo hi".into(),
            command_preview: None,
            agent_id: Some("main".into()),
            session_key: None,
            policy_snapshot: Some(PolicySnapshot {
                security: Security::Allowlist,
                ask: Ask::OnMiss,
                ask_fallback: Security::Deny,
                auto_allow_skills: false,
                allowlist_rules: vec![
                    PolicyRule {
                        pattern: "/usr/bin/b".into(),
                        arg_pattern: None,
                        source: None,
                    },
                    PolicyRule {
                        pattern: "/usr/bin/a".into(),
                        arg_pattern: None,
                        source: None,
                    },
                ],
            }),
            mutable_file_operand: None,
        }
    }

    #[test]
    fn only_prepared_plans_are_recalled_whatever_the_rule_order() {
        let plans = PreparedPlans::default();
        let prepared = plan();
        plans.remember(&prepared, Some("e".into()));
        let mut returned = prepared.clone();
        returned
            .policy_snapshot
            .as_mut()
            .unwrap()
            .allowlist_rules
            .reverse();
        returned.command_preview = Some("echo hi".into());
        assert_eq!(plans.recall(&returned), Some(Some("e".into())));
        for change in [
            |p: &mut WirePlan| p.argv[1] = "bye".into(),
            |p: &mut WirePlan| p.cwd = Some("/".into()),
            |p: &mut WirePlan| p.agent_id = Some("other".into()),
            |p: &mut WirePlan| p.session_key = Some("s".into()),
            |p: &mut WirePlan| {
                p.mutable_file_operand = Some(FileOperand {
                    argv_index: 1,
                    path: "/x".into(),
                    sha256: "0".into(),
                })
            },
            |p: &mut WirePlan| p.policy_snapshot.as_mut().unwrap().security = Security::Full,
        ] {
            let mut forged = prepared.clone();
            change(&mut forged);
            assert_eq!(plans.recall(&forged), None, "{forged:?}");
        }
    }

    #[test]
    fn an_allow_once_approval_is_used_once() {
        let plans = PreparedPlans::default();
        assert!(plans.use_once("a1"));
        assert!(!plans.use_once("a1"));
        assert!(plans.use_once("a2"));
    }

    #[test]
    fn a_used_approval_the_cap_forgets_cannot_be_replayed() {
        let plans = PreparedPlans::default();
        let approved = plan();
        plans.remember(&approved, None);
        assert!(plans.use_once("first"));
        for i in 0..PLAN_CAP {
            assert!(plans.use_once(&format!("other-{i}")));
        }
        // "first" is forgotten, so its plan no longer binds an approval...
        assert_eq!(plans.recall(&approved), None);
        // ...until it is prepared again.
        plans.remember(&approved, None);
        assert_eq!(plans.recall(&approved), Some(None));
    }

    #[test]
    fn snapshots_hold_while_modes_stay_and_no_rule_is_removed() {
        let before = plan().policy_snapshot.unwrap();
        let mut grown = before.clone();
        grown.allowlist_rules.push(PolicyRule {
            pattern: "/usr/bin/c".into(),
            arg_pattern: None,
            source: Some("allow-always".into()),
        });
        assert!(before.still_holds(&grown));
        let mut shrunk = before.clone();
        shrunk.allowlist_rules.pop();
        assert!(!before.still_holds(&shrunk));
        let mut stricter = before.clone();
        stricter.ask = Ask::Always;
        assert!(!before.still_holds(&stricter));
        let mut fallback = before.clone();
        fallback.ask_fallback = Security::Full;
        assert!(!before.still_holds(&fallback));
    }

    #[test]
    fn a_snapshot_is_void_when_any_mode_changes_or_a_rule_is_replaced() {
        let before = plan().policy_snapshot.unwrap();
        assert!(before.still_holds(&before));
        let mut wider = before.clone();
        wider.security = Security::Full;
        assert!(!before.still_holds(&wider));
        let mut skills = before.clone();
        skills.auto_allow_skills = true;
        assert!(!before.still_holds(&skills));
        // The same pattern, now added by an allow-always: still there.
        let mut marked = before.clone();
        marked.allowlist_rules[0].source = Some("allow-always".into());
        assert!(before.still_holds(&marked));
        // A rule replaced by another pattern, or narrowed to some
        // arguments, is gone, whatever its source.
        let mut replaced = before.clone();
        replaced.allowlist_rules[0] = PolicyRule {
            pattern: "/usr/bin/z".into(),
            arg_pattern: None,
            source: Some("allow-always".into()),
        };
        assert!(!before.still_holds(&replaced));
        let mut narrowed = before.clone();
        narrowed.allowlist_rules[0].arg_pattern = Some("^--version$".into());
        narrowed.allowlist_rules[0].source = Some("allow-always".into());
        assert!(!before.still_holds(&narrowed));
    }

    #[test]
    fn pruning_keeps_what_is_younger_than_the_ttl_and_drops_the_oldest_at_the_cap() {
        let t0 = Instant::now();
        let hour = Duration::from_secs(3600);
        let mut map: HashMap<String, Instant> = HashMap::from([("p".to_owned(), t0)]);
        // A gateway may wait an hour for its operators; the plan is kept.
        assert_eq!(
            prune(&mut map, |at| *at, t0 + hour + Duration::from_secs(60)),
            None
        );
        assert!(map.contains_key("p"));
        prune(&mut map, |at| *at, t0 + PLAN_TTL - Duration::from_nanos(1));
        assert!(map.contains_key("p"));
        // Expired is not forgotten by the cap.
        assert_eq!(prune(&mut map, |at| *at, t0 + PLAN_TTL), None);
        assert!(map.is_empty());
        let mut full: HashMap<String, Instant> = (0..PLAN_CAP)
            .map(|i| (format!("p{i}"), t0 + Duration::from_secs(i as u64)))
            .collect();
        prune(
            &mut full,
            |at| *at,
            t0 + Duration::from_secs(PLAN_CAP as u64),
        );
        assert_eq!(full.len(), PLAN_CAP - 1);
        assert!(!full.contains_key("p0"));
        assert!(full.contains_key("p1"));
    }

    #[test]
    fn env_hash_binds_keys_and_values() {
        let mut env = BTreeMap::new();
        assert_eq!(env_hash(Some(&env)), None);
        env.insert("A".to_owned(), "1".to_owned());
        let one = env_hash(Some(&env));
        env.insert("A".to_owned(), "2".to_owned());
        assert_ne!(one, env_hash(Some(&env)));
        assert!(one.is_some());
    }
}
