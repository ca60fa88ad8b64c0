//! The shape of `exec-approvals.json`: what each object may hold, in
//! OpenClaw's camelCase, with every field we do not know kept verbatim.
//!
//! This module decides nothing about policy; it only says what the file can
//! express. It refuses nothing either: lenient parsing of enum values and
//! allowlist entries lives in `lenient`, validation in `load`. Every object
//! carries an `extra` map so fields written by another implementation survive
//! a load/save cycle (DESIGN.md section 4: "fields we do not know are kept on
//! save"; principle "nothing the user wrote is ever lost").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::token::Token;

/// How much may run at all; ordered from strictest to loosest, so "stricter
/// wins" is `min`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Security {
    /// Nothing runs.
    Deny,
    /// Only what the allowlist, safe bins or skills satisfy runs unasked.
    Allowlist,
    /// Everything runs unless denylisted.
    Full,
}

/// When a person is asked; ordered from loosest to strictest, so "stricter
/// wins" is `max`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    /// Never ask: a miss is refused.
    Off,
    /// Ask when the allowlist does not satisfy the command.
    OnMiss,
    /// Ask every time, even for allowlisted commands.
    Always,
}

/// What an allow-always decision persists, so a user can forbid path-wide
/// trust; ordered from narrowest to widest.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum AllowAlwaysScope {
    /// Every allow-always becomes an exact-command entry (`=command:<hash>`).
    Command,
    /// Persist the resolved executable path (shells, interpreters and
    /// wrappers still get exact-command entries).
    #[default]
    Executable,
}

/// The whole approvals file, as it is on disk after load-time normalization.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalsFile {
    /// Format version. Invariant: always 1 (the loader refuses anything else).
    #[schemars(range(min = 1, max = 1))]
    pub version: u32,
    /// Where the UI bridge listens and the secret clients sign with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket: Option<SocketConfig>,
    /// Policy for every agent, below the per-agent layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defaults: Option<PolicyLayer>,
    /// Per-agent policy; key `*` applies to every agent. Sorted by key on save.
    #[serde(default)]
    pub agents: BTreeMap<String, AgentLayer>,
    /// Where audit records go besides the local log, and when it rotates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<AuditConfig>,
    /// Top-level fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for ApprovalsFile {
    fn default() -> Self {
        Self {
            version: 1,
            socket: None,
            defaults: None,
            agents: BTreeMap::new(),
            audit: None,
            extra: Map::new(),
        }
    }
}

impl ApprovalsFile {
    /// A copy without the socket token, for `approvals get`, the web UI and
    /// `system.execApprovals.get` (DESIGN.md invariant 9).
    pub fn redacted(&self) -> ApprovalsFile {
        let mut copy = self.clone();
        if let Some(socket) = copy.socket.as_mut() {
            socket.token = None;
        }
        copy
    }
}

/// The `audit` object: fleet logging and rotation of the audit log. The
/// values are checked where they are used (an unknown sink refuses every
/// run, naming this file), so the loader keeps them as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditConfig {
    /// Also send each record to `journald` or `syslog`, optionally
    /// followed by `:SOCKET` for another socket than the system one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sink: Option<String>,
    /// Rotate the log when it would grow past this many bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotate_bytes: Option<u64>,
    /// Audited requests a second one connection may make (burst: twice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_per_connection: Option<u32>,
    /// Audited requests a minute one process may make.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota_per_process: Option<u32>,
    /// Fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `socket` object: where the bridge listens and how clients prove
/// they may talk to it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SocketConfig {
    /// Unix socket path; `~` is expanded by the user of the value.
    /// Invariant: trimmed and non-empty after load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Shared secret for the socket HMAC. Invariant: trimmed and non-empty
    /// after load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub token: Option<Token>,
    /// Refuse nonces a client made up: only our own challenge nonces count.
    /// For machines without OpenClaw's legacy node host, which never reads
    /// a challenge; off (`None`) by default so those clients keep working.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require_challenge: Option<bool>,
    /// Fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PartialEq for SocketConfig {
    /// Field by field, the token through [`Token::ct_eq`]: `Token` has no
    /// `==`, so comparing files cannot leak the secret through timing.
    fn eq(&self, other: &Self) -> bool {
        let SocketConfig {
            path,
            token,
            require_challenge,
            extra,
        } = self;
        let same_token = match (token, &other.token) {
            (Some(mine), Some(theirs)) => mine.ct_eq(theirs),
            (None, None) => true,
            (Some(_), None) | (None, Some(_)) => false,
        };
        same_token
            && *path == other.path
            && *require_challenge == other.require_challenge
            && *extra == other.extra
    }
}

/// The policy knobs shared by `defaults` and every agent; `None` means
/// "not set here", so a less specific layer decides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PolicyLayer {
    /// How much may run; an invalid value is dropped at load with a warning.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::known_value"
    )]
    #[schemars(with = "Option<Security>")]
    pub security: Option<Security>,
    /// When a person is asked; an invalid value is dropped at load.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::known_value"
    )]
    #[schemars(with = "Option<Ask>")]
    pub ask: Option<Ask>,
    /// What decides when a person was asked but nobody answered in time.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::known_value"
    )]
    #[schemars(with = "Option<Security>")]
    pub ask_fallback: Option<Security>,
    /// Treat skill CLIs announced by the gateway as allowlisted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_allow_skills: Option<bool>,
    /// Stdin-only filters allowed without an entry (extension; replaces, not
    /// extends, the list of a less specific layer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_bins: Option<Vec<String>>,
    /// Per-bin argument profiles, kept raw: the policy engine parses them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_bin_profiles: Option<BTreeMap<String, Value>>,
    /// Extra directories a safe bin may resolve into (extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_bin_trusted_dirs: Option<Vec<String>>,
    /// Commands refused even under `security: full` (extension).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::denylist"
    )]
    #[schemars(with = "Option<Vec<DenylistEntry>>")]
    pub denylist: Option<Vec<DenylistEntry>>,
    /// Built-in argument guards (`git -c`, `find -exec` …); on by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_guards: Option<bool>,
    /// What allow-always persists (extension).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::known_value"
    )]
    #[schemars(with = "Option<AllowAlwaysScope>")]
    pub allow_always_scope: Option<AllowAlwaysScope>,
    /// How long a pending approval waits for a person (extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_timeout_ms: Option<u64>,
    /// A program that answers approvals on stdout (extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approver_command: Option<String>,
    /// The identities whose answers count when an integration reports one
    /// (chat user ids, `ui-bridge approvals --approver NAME`); an empty list
    /// accepts nobody (extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approvers: Option<Vec<String>>,
    /// Fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One agent's object: the policy knobs plus its allowlist.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentLayer {
    /// The knobs this agent sets (and the unknown fields of the object).
    #[serde(flatten)]
    pub policy: PolicyLayer,
    /// Trusted executables (path globs) and exact-command markers.
    /// Bare strings are accepted and become objects; entries without a
    /// pattern are dropped at load with a warning.
    #[serde(default, deserialize_with = "lenient::allowlist")]
    #[schemars(with = "Vec<AllowlistItem>")]
    pub allowlist: Vec<AllowlistEntry>,
}

/// How an allowlist item may be written: a bare pattern string (made an
/// object at load) or an object. Only the schema uses it.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum AllowlistItem {
    /// A path glob, as OpenClaw's older files wrote entries.
    Pattern(String),
    /// An entry with its metadata.
    Entry(Box<AllowlistEntry>),
}

/// One allowlist entry, with the last-use metadata the UI shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AllowlistEntry {
    /// Stable identity for editors. Invariant: non-empty after load (a
    /// missing one is filled with a random UUID).
    #[serde(default)]
    pub id: String,
    /// Path glob over the real executable path, `*`, or a durable marker
    /// `=command:<16 hex>`. Invariant: non-blank.
    pub pattern: String,
    /// When the entry last allowed a command, in ms since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_at: Option<u64>,
    /// The command text of that last use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used_command: Option<String>,
    /// The resolved executable path of that last use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_resolved_path: Option<String>,
    /// Who made the entry, e.g. `allow-always`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Argument regex the command must also match, over argv[1..] joined
    /// with `\0` plus a trailing `\0` (OpenClaw); checked on every platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_pattern: Option<String>,
    /// Words the arguments must start with (our extension: a prefix rule,
    /// `["diff"]` for `git diff …`); matched exactly on the literal argv,
    /// the argument guards still judge the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_prefix: Option<Vec<String>>,
    /// `false` switches the built-in argument guards off for this entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_guards: Option<bool>,
    /// Fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl AllowlistEntry {
    /// An entry for `pattern` with nothing else set, for migrations and tests.
    pub fn with_pattern(pattern: impl Into<String>) -> Self {
        Self {
            pattern: pattern.into(),
            ..Self::default()
        }
    }
}

/// One denylist entry: a command refused even under `security: full`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DenylistEntry {
    /// Optional identity for editors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Path glob over the real executable path. Invariant: a valid glob
    /// (checked at load).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// A command written as words (program, options, words), matched
    /// against each parsed segment; see [`crate::policy::command_pattern`].
    /// One that cannot be parsed refuses every command. At least one of
    /// `pattern` and `command_pattern` is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_pattern: Option<String>,
    /// Why the command is refused, shown to the agent and the human.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Fields we do not know, kept for the next save.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
