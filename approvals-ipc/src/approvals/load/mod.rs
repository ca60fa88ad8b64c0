//! Turning the bytes of `exec-approvals.json` into an [`ApprovalsFile`] plus
//! the warnings a user should see.
//!
//! It decides what is a fatal error and what is a warning. Fatal, so every
//! request is denied and the file is never overwritten (DESIGN.md invariant
//! 6): invalid JSON, a top level that is not an object, a `version` other
//! than 1, a field of the wrong type, a denylist glob that does not compile.
//! A warning, and the rest still applies: an enum value outside its set, an
//! allowlist or denylist item without a usable pattern, a denylist
//! `commandPattern` that cannot be parsed (kept: it then refuses every
//! command until fixed, see [`crate::policy::command_pattern`]). It also
//! performs OpenClaw's load-time normalization: `agents.default` merges into
//! `agents.main`, bare-string allowlist entries become objects, missing ids
//! are filled, the legacy `commandText` is stripped, socket fields are
//! trimmed.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use super::error::{ApprovalsError, LoadWarning, WarningKind};
use super::lenient::{self, classify_allowlist_item, classify_denylist_item, parse_known};
use super::model::{AllowAlwaysScope, AllowlistEntry, ApprovalsFile, Ask, PolicyLayer, Security};
use crate::policy::command_pattern::CommandPattern;

#[cfg(test)]
mod tests;

/// A file that loaded, with what was ignored on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The normalized file.
    pub file: ApprovalsFile,
    /// Parts that were dropped or rewritten, in file order.
    pub warnings: Vec<LoadWarning>,
}

/// The key the legacy default agent had before OpenClaw renamed it.
const LEGACY_DEFAULT_AGENT: &str = "default";
/// The agent a request without an agent id belongs to.
pub const MAIN_AGENT: &str = "main";
/// The agent key whose layer applies to every agent.
pub const WILDCARD_AGENT: &str = "*";

impl ApprovalsFile {
    /// Parses and normalizes the bytes of an approvals file; `origin` names
    /// the file in errors.
    pub fn parse(bytes: &[u8], origin: &Path) -> Result<Loaded, ApprovalsError> {
        let value: Value = serde_json::from_slice(bytes).map_err(|err| ApprovalsError::Syntax {
            path: origin.to_path_buf(),
            line: err.line(),
            column: err.column(),
            message: strip_position(&err),
        })?;
        check_version(&value, origin)?;
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let file: ApprovalsFile = serde_path_to_error::deserialize(&mut deserializer)
            .map_err(|err| shape_error(err, origin))?;
        finish(file, &value, origin)
    }

    /// Validates and normalizes a file that arrived as a JSON value (a remote
    /// editor's `system.execApprovals.set`); errors carry no line numbers.
    pub fn from_value(value: &Value, origin: &Path) -> Result<Loaded, ApprovalsError> {
        check_version(value, origin)?;
        let file: ApprovalsFile =
            serde_path_to_error::deserialize(value).map_err(|err| ApprovalsError::Shape {
                path: origin.to_path_buf(),
                field: err.path().to_string(),
                line: 0,
                column: 0,
                message: err.into_inner().to_string(),
            })?;
        finish(file, value, origin)
    }
}

/// Refuses a top level that is not an object or whose `version` is not 1.
fn check_version(value: &Value, origin: &Path) -> Result<(), ApprovalsError> {
    let Value::Object(top) = value else {
        return Err(ApprovalsError::Shape {
            path: origin.to_path_buf(),
            field: ".".into(),
            line: 1,
            column: 1,
            message: format!("expected an object, found {}", lenient::kind(value)),
        });
    };
    match top.get("version") {
        Some(version) if version.as_u64() == Some(1) => Ok(()),
        Some(other) => Err(ApprovalsError::UnsupportedVersion {
            path: origin.to_path_buf(),
            found: other.to_string(),
        }),
        None => Err(ApprovalsError::UnsupportedVersion {
            path: origin.to_path_buf(),
            found: "missing".into(),
        }),
    }
}

/// A typed-parse error with the field path, line and column.
fn shape_error(
    err: serde_path_to_error::Error<serde_json::Error>,
    origin: &Path,
) -> ApprovalsError {
    let field = err.path().to_string();
    let inner = err.into_inner();
    ApprovalsError::Shape {
        path: origin.to_path_buf(),
        field,
        line: inner.line(),
        column: inner.column(),
        message: strip_position(&inner),
    }
}

/// serde_json appends " at line L column C"; we report those separately.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_owned()
}

/// The normalization that follows a successful typed parse.
fn finish(mut file: ApprovalsFile, value: &Value, origin: &Path) -> Result<Loaded, ApprovalsError> {
    let mut warnings =
        inspect(value).map_err(|(field, message)| ApprovalsError::InvalidDenylistEntry {
            path: origin.to_path_buf(),
            field,
            message,
        })?;
    if merge_legacy_default_agent(&mut file) {
        warnings.push(LoadWarning {
            field: format!("agents.{LEGACY_DEFAULT_AGENT}"),
            kind: WarningKind::LegacyDefaultAgentMerged,
        });
    }
    normalize_socket(&mut file);
    let layers = file
        .defaults
        .iter_mut()
        .chain(file.agents.values_mut().map(|agent| &mut agent.policy));
    for entry in layers.flat_map(|layer| layer.denylist.iter_mut().flatten()) {
        // Invariant: classify_denylist_item kept only entries with at least
        // one non-blank pattern, so at least one survives this.
        entry.pattern = entry.pattern.take().filter(|p| !p.trim().is_empty());
        entry.command_pattern = entry
            .command_pattern
            .take()
            .filter(|p| !p.trim().is_empty());
    }
    for agent in file.agents.values_mut() {
        for entry in &mut agent.allowlist {
            entry.extra.remove("commandText");
            if entry.id.trim().is_empty() {
                entry.id = uuid::Uuid::new_v4().to_string();
            }
        }
    }
    Ok(Loaded { file, warnings })
}

/// Which enum-valued fields of a layer are checked, and what they accept.
type EnumField = (&'static str, &'static str, fn(&Value) -> bool);

/// The enum-valued fields of a policy layer; an invalid value is dropped.
const ENUM_FIELDS: &[EnumField] = &[
    ("allowAlwaysScope", "command, executable", |v| {
        parse_known::<AllowAlwaysScope>(v).is_some()
    }),
    ("ask", "off, on-miss, always", |v| {
        parse_known::<Ask>(v).is_some()
    }),
    ("askFallback", "deny, allowlist, full", |v| {
        parse_known::<Security>(v).is_some()
    }),
    ("security", "deny, allowlist, full", |v| {
        parse_known::<Security>(v).is_some()
    }),
];

/// A denylist field that does not compile: its path and why.
type BadDenylistField = (String, String);

/// Walks the raw JSON for everything the lenient parse dropped, using the
/// same classifiers, so each dropped value has exactly one warning; and
/// refuses a kept denylist entry whose glob or regex does not compile (the
/// entry would otherwise be ignored and the policy looser than written).
fn inspect(value: &Value) -> Result<Vec<LoadWarning>, BadDenylistField> {
    let mut warnings = Vec::new();
    if let Some(defaults) = value.get("defaults") {
        inspect_layer("defaults", defaults, &mut warnings)?;
    }
    if let Some(Value::Object(agents)) = value.get("agents") {
        for (id, agent) in agents {
            let prefix = format!("agents.{id}");
            inspect_layer(&prefix, agent, &mut warnings)?;
            if let Some(Value::Array(items)) = agent.get("allowlist") {
                for (index, item) in items.iter().enumerate() {
                    if let Err(reason) = classify_allowlist_item(item) {
                        warnings.push(LoadWarning {
                            field: format!("{prefix}.allowlist[{index}]"),
                            kind: WarningKind::AllowlistEntryDropped { reason },
                        });
                    }
                }
            }
        }
    }
    Ok(warnings)
}

/// Warnings for the enum fields and denylist items of one layer object.
fn inspect_layer(
    prefix: &str,
    layer: &Value,
    warnings: &mut Vec<LoadWarning>,
) -> Result<(), BadDenylistField> {
    let Value::Object(layer) = layer else {
        return Ok(());
    };
    for (key, expected, is_known) in ENUM_FIELDS {
        if let Some(found) = layer.get(*key)
            && !found.is_null()
            && !is_known(found)
        {
            warnings.push(LoadWarning {
                field: format!("{prefix}.{key}"),
                kind: WarningKind::InvalidValue {
                    found: found.to_string(),
                    expected,
                },
            });
        }
    }
    if let Some(Value::Array(items)) = layer.get("denylist") {
        for (index, item) in items.iter().enumerate() {
            match classify_denylist_item(item) {
                Ok(entry) => {
                    check_denylist_entry(entry).map_err(|(key, message)| {
                        (format!("{prefix}.denylist[{index}].{key}"), message)
                    })?;
                    if let Some(Value::String(pattern)) = entry.get("commandPattern")
                        && !pattern.trim().is_empty()
                        && let Err(err) = CommandPattern::parse(pattern)
                    {
                        warnings.push(LoadWarning {
                            field: format!("{prefix}.denylist[{index}].commandPattern"),
                            kind: WarningKind::CommandPatternUnparsable {
                                reason: err.to_string(),
                            },
                        });
                    }
                }
                Err(reason) => warnings.push(LoadWarning {
                    field: format!("{prefix}.denylist[{index}]"),
                    kind: WarningKind::DenylistEntryDropped { reason },
                }),
            }
        }
    }
    Ok(())
}

/// Merges the legacy `agents.default` into `agents.main`: main's settings
/// win, allowlists are concatenated main-first and de-duplicated. Returns
/// whether there was anything to merge.
fn merge_legacy_default_agent(file: &mut ApprovalsFile) -> bool {
    let Some(legacy) = file.agents.remove(LEGACY_DEFAULT_AGENT) else {
        return false;
    };
    let main = file.agents.entry(MAIN_AGENT.to_owned()).or_default();
    fill_unset(&mut main.policy, legacy.policy);
    let mut seen = HashSet::new();
    let combined = std::mem::take(&mut main.allowlist)
        .into_iter()
        .chain(legacy.allowlist);
    main.allowlist = combined
        .filter(|entry| seen.insert(dedup_key(entry)))
        .collect();
    true
}

/// Two entries are the same when their trimmed, lower-cased patterns and
/// their argument patterns agree (OpenClaw's key), and their argument
/// prefixes too (ours).
fn dedup_key(entry: &AllowlistEntry) -> (String, Option<String>, Option<Vec<String>>) {
    (
        entry.pattern.trim().to_lowercase(),
        entry.arg_pattern.clone(),
        entry.arg_prefix.clone(),
    )
}

/// Sets every field of `target` that is unset from `source`; fields of
/// `target` always win. Destructures `source` so a new field cannot be
/// forgotten here.
fn fill_unset(target: &mut PolicyLayer, source: PolicyLayer) {
    let PolicyLayer {
        security,
        ask,
        ask_fallback,
        auto_allow_skills,
        safe_bins,
        safe_bin_profiles,
        safe_bin_trusted_dirs,
        denylist,
        arg_guards,
        allow_always_scope,
        approval_timeout_ms,
        approver_command,
        approvers,
        extra,
    } = source;
    target.security = target.security.or(security);
    target.ask = target.ask.or(ask);
    target.ask_fallback = target.ask_fallback.or(ask_fallback);
    target.auto_allow_skills = target.auto_allow_skills.or(auto_allow_skills);
    target.safe_bins = target.safe_bins.take().or(safe_bins);
    target.safe_bin_profiles = target.safe_bin_profiles.take().or(safe_bin_profiles);
    target.safe_bin_trusted_dirs = target
        .safe_bin_trusted_dirs
        .take()
        .or(safe_bin_trusted_dirs);
    target.denylist = target.denylist.take().or(denylist);
    target.arg_guards = target.arg_guards.or(arg_guards);
    target.allow_always_scope = target.allow_always_scope.or(allow_always_scope);
    target.approval_timeout_ms = target.approval_timeout_ms.or(approval_timeout_ms);
    target.approver_command = target.approver_command.take().or(approver_command);
    target.approvers = target.approvers.take().or(approvers);
    for (key, value) in extra {
        target.extra.entry(key).or_insert(value);
    }
}

/// Trims the socket path and token; an empty one becomes unset.
fn normalize_socket(file: &mut ApprovalsFile) {
    let Some(socket) = file.socket.as_mut() else {
        return;
    };
    socket.path = socket
        .path
        .take()
        .map(|path| path.trim().to_owned())
        .filter(|path| !path.is_empty());
    socket.token = socket
        .token
        .take()
        .filter(|token| !token.is_blank())
        .map(|token| token.trimmed());
}

/// Compiles one raw denylist entry's glob, naming the bad key. A
/// `commandPattern` that cannot be parsed is a warning instead: the
/// compiled policy then refuses every command.
/// A value of the wrong type is left to the typed parse.
fn check_denylist_entry(entry: &Value) -> Result<(), (&'static str, String)> {
    if let Some(Value::String(pattern)) = entry.get("pattern") {
        globset::Glob::new(pattern.trim())
            .map_err(|err| ("pattern", format!("invalid glob: {err}")))?;
    }
    Ok(())
}
