//! The effective policy for one agent: built-ins ← `defaults` ← `agents."*"`
//! ← `agents.<id>`, the most specific layer that sets a field winning.
//!
//! It decides which layer each knob comes from and records it, so `explain`
//! can say why. Lists that only ever make the policy stricter (`denylist`) or
//! that name extra trusted places (`safeBinTrustedDirs`) are the union of all
//! layers; the allowlist is the wildcard's entries followed by the agent's.
//! Overrides from flags or gateway config can only tighten
//! ([`ResolvedPolicy::with_overrides`]: security `min`, ask `max`), never
//! loosen (DESIGN.md section 4, "stricter wins").

use std::collections::BTreeMap;

use serde_json::Value;

use super::load::{MAIN_AGENT, WILDCARD_AGENT};
use super::model::{
    AllowAlwaysScope, AllowlistEntry, ApprovalsFile, Ask, DenylistEntry, PolicyLayer, Security,
};

#[cfg(test)]
mod tests;

/// Built-in `security`: a file without `defaults` runs nothing, as in
/// OpenClaw.
pub const BUILTIN_SECURITY: Security = Security::Deny;
/// Built-in `ask`: a person is asked when the allowlist misses.
pub const BUILTIN_ASK: Ask = Ask::OnMiss;
/// Built-in `askFallback`: nobody answered, nothing runs.
pub const BUILTIN_ASK_FALLBACK: Security = Security::Deny;
/// Built-in `approvalTimeoutMs`: two minutes to answer a prompt.
pub const BUILTIN_APPROVAL_TIMEOUT_MS: u64 = 120_000;

/// Built-in safe bins: stdin-only filters that cannot name a file or run a
/// program when their arguments fit their profile. Sorted by name.
pub const BUILTIN_SAFE_BINS: &[(&str, &str)] = &[
    (
        "cut",
        "selects fields of stdin lines; no file operands allowed",
    ),
    (
        "head",
        "prints the first lines of stdin; no file operands allowed",
    ),
    (
        "tail",
        "prints the last lines of stdin; following files is refused",
    ),
    (
        "tr",
        "translates characters of stdin; its operands are sets, not files",
    ),
    (
        "uniq",
        "collapses repeated stdin lines; no output file allowed",
    ),
    ("wc", "counts stdin; --files0-from is refused"),
];

/// What the policy engine needs for one agent, with no `Option` left.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedPolicy {
    /// The agent this was resolved for (`main` when the request named none).
    pub agent_id: String,
    /// How much may run.
    pub security: Security,
    /// When a person is asked.
    pub ask: Ask,
    /// What decides when nobody answers in time.
    pub ask_fallback: Security,
    /// Whether skill CLIs count as allowlisted.
    pub auto_allow_skills: bool,
    /// The wildcard agent's entries followed by this agent's.
    pub allowlist: Vec<AllowlistEntry>,
    /// Stdin-only filters allowed without an entry.
    pub safe_bins: Vec<String>,
    /// Per-bin profiles (raw JSON), merged per bin, most specific layer winning.
    pub safe_bin_profiles: BTreeMap<String, Value>,
    /// Extra trusted directories for safe bins: the union of all layers
    /// (the engine adds its built-in `/bin` and `/usr/bin`).
    pub safe_bin_trusted_dirs: Vec<String>,
    /// Refused commands: the union of all layers, least specific first.
    pub denylist: Vec<DenylistEntry>,
    /// Whether the built-in argument guards apply.
    pub arg_guards: bool,
    /// What allow-always persists.
    pub allow_always_scope: AllowAlwaysScope,
    /// How long a prompt waits.
    pub approval_timeout_ms: u64,
    /// A program that answers approvals, if configured.
    pub approver_command: Option<String>,
    /// Approver identities whose answers count (`None`: anyone).
    pub approvers: Option<Vec<String>>,
    /// Where security, ask and askFallback came from.
    pub sources: PolicySources,
}

/// Where each of the three main knobs came from, e.g. `agents.main.security`,
/// `defaults.ask`, `built-in` or `override`, so `explain` can say why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicySources {
    /// Source of `security`.
    pub security: String,
    /// Source of `ask`.
    pub ask: String,
    /// Source of `askFallback`.
    pub ask_fallback: String,
}

/// The source name of a value nobody set.
const BUILTIN_SOURCE: &str = "built-in";
/// The source name of a value tightened by an override.
const OVERRIDE_SOURCE: &str = "override";

/// One layer of the resolution and the prefix its sources are named with.
struct Layer<'a> {
    prefix: String,
    policy: &'a PolicyLayer,
}

impl ApprovalsFile {
    /// The effective policy for `agent_id` (`main` when `None` or blank).
    pub fn resolve(&self, agent_id: Option<&str>) -> ResolvedPolicy {
        let agent_id = agent_id
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .unwrap_or(MAIN_AGENT);
        let wildcard = self.agents.get(WILDCARD_AGENT);
        let agent = (agent_id != WILDCARD_AGENT)
            .then(|| self.agents.get(agent_id))
            .flatten();

        // Least specific first.
        let mut layers = Vec::with_capacity(3);
        if let Some(defaults) = &self.defaults {
            layers.push(Layer {
                prefix: "defaults".into(),
                policy: defaults,
            });
        }
        for (id, layer) in [(WILDCARD_AGENT, wildcard), (agent_id, agent)] {
            if let Some(layer) = layer {
                layers.push(Layer {
                    prefix: format!("agents.{id}"),
                    policy: &layer.policy,
                });
            }
        }

        let (security, security_source) =
            pick(&layers, "security", |l| l.security).unwrap_or((BUILTIN_SECURITY, None));
        let (ask, ask_source) = pick(&layers, "ask", |l| l.ask).unwrap_or((BUILTIN_ASK, None));
        let (ask_fallback, ask_fallback_source) = pick(&layers, "askFallback", |l| l.ask_fallback)
            .unwrap_or((BUILTIN_ASK_FALLBACK, None));

        let mut safe_bin_profiles = BTreeMap::new();
        let mut safe_bin_trusted_dirs: Vec<String> = Vec::new();
        let mut denylist = Vec::new();
        for layer in &layers {
            for (bin, profile) in layer.policy.safe_bin_profiles.iter().flatten() {
                safe_bin_profiles.insert(bin.clone(), profile.clone());
            }
            for dir in layer.policy.safe_bin_trusted_dirs.iter().flatten() {
                if !safe_bin_trusted_dirs.contains(dir) {
                    safe_bin_trusted_dirs.push(dir.clone());
                }
            }
            denylist.extend(layer.policy.denylist.iter().flatten().cloned());
        }

        ResolvedPolicy {
            agent_id: agent_id.to_owned(),
            security,
            ask,
            ask_fallback,
            auto_allow_skills: most_specific(&layers, |l| l.auto_allow_skills).unwrap_or(false),
            allowlist: wildcard
                .into_iter()
                .chain(agent)
                .flat_map(|layer| layer.allowlist.iter().cloned())
                .collect(),
            safe_bins: most_specific(&layers, |l| l.safe_bins.clone()).unwrap_or_else(|| {
                BUILTIN_SAFE_BINS
                    .iter()
                    .map(|(bin, _)| (*bin).to_owned())
                    .collect()
            }),
            safe_bin_profiles,
            safe_bin_trusted_dirs,
            denylist,
            arg_guards: most_specific(&layers, |l| l.arg_guards).unwrap_or(true),
            allow_always_scope: most_specific(&layers, |l| l.allow_always_scope)
                .unwrap_or_default(),
            approval_timeout_ms: most_specific(&layers, |l| l.approval_timeout_ms)
                .unwrap_or(BUILTIN_APPROVAL_TIMEOUT_MS),
            approver_command: most_specific(&layers, |l| l.approver_command.clone()),
            approvers: most_specific(&layers, |l| l.approvers.clone()),
            sources: PolicySources {
                security: source_name(security_source),
                ask: source_name(ask_source),
                ask_fallback: source_name(ask_fallback_source),
            },
        }
    }
}

/// The value of the most specific layer that sets it, with its source name
/// (`<prefix>.<key>`).
fn pick<T>(
    layers: &[Layer<'_>],
    key: &str,
    get: impl Fn(&PolicyLayer) -> Option<T>,
) -> Option<(T, Option<String>)> {
    layers.iter().rev().find_map(|layer| {
        get(layer.policy).map(|value| (value, Some(format!("{}.{key}", layer.prefix))))
    })
}

/// The value of the most specific layer that sets it.
fn most_specific<T>(layers: &[Layer<'_>], get: impl Fn(&PolicyLayer) -> Option<T>) -> Option<T> {
    layers.iter().rev().find_map(|layer| get(layer.policy))
}

/// `built-in` when no layer set the value.
fn source_name(source: Option<String>) -> String {
    source.unwrap_or_else(|| BUILTIN_SOURCE.to_owned())
}

impl ResolvedPolicy {
    /// Combines overrides from flags or gateway config, stricter wins:
    /// security is the `min`, ask the `max`. A security override also caps
    /// `askFallback`, so a timed-out prompt cannot run more than the
    /// override allows. A source becomes `override` only when the override
    /// actually tightened the value.
    pub fn with_overrides(mut self, security: Option<Security>, ask: Option<Ask>) -> Self {
        if let Some(security) = security {
            if security < self.security {
                self.security = security;
                self.sources.security = OVERRIDE_SOURCE.to_owned();
            }
            if security < self.ask_fallback {
                self.ask_fallback = security;
                self.sources.ask_fallback = OVERRIDE_SOURCE.to_owned();
            }
        }
        if let Some(ask) = ask
            && ask > self.ask
        {
            self.ask = ask;
            self.sources.ask = OVERRIDE_SOURCE.to_owned();
        }
        self
    }
}
