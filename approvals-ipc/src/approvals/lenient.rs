//! Tolerant reading of the few fields where OpenClaw tolerates bad input:
//! enum values, allowlist entries and denylist entries.
//!
//! It decides which values are dropped instead of failing the whole file, and
//! it is the single place that decides it: the typed parse (the `serde`
//! helpers below) and the warning walk in `load` call the same classifiers,
//! so a value is never dropped without a warning. Everything else with a
//! wrong shape still fails the load, so a malformed file denies everything
//! (DESIGN.md invariant 6).

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::model::{AllowlistEntry, DenylistEntry};

/// A known enum value, or `None` when the value is null or not one of the
/// known strings.
pub(crate) fn parse_known<T: DeserializeOwned>(value: &Value) -> Option<T> {
    if value.is_null() {
        return None;
    }
    T::deserialize(value).ok()
}

/// `serde` helper: an optional enum field whose unknown values are dropped.
pub(crate) fn known_value<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Value::deserialize(deserializer)?;
    Ok(parse_known(&value))
}

/// Whether an allowlist item is kept (as the object to parse) or dropped
/// (with the reason for the warning).
pub(crate) fn classify_allowlist_item(item: &Value) -> Result<Value, &'static str> {
    match item {
        Value::String(pattern) if pattern.trim().is_empty() => Err("empty pattern"),
        Value::String(pattern) => {
            let mut object = Map::new();
            object.insert("pattern".into(), Value::String(pattern.trim().to_owned()));
            Ok(Value::Object(object))
        }
        Value::Object(object) => match object.get("pattern") {
            Some(Value::String(pattern)) if !pattern.trim().is_empty() => Ok(item.clone()),
            _ => Err("no non-empty string `pattern`"),
        },
        _ => Err("neither an object nor a string"),
    }
}

/// Whether a denylist item is kept or dropped (with the reason).
pub(crate) fn classify_denylist_item(item: &Value) -> Result<&Value, &'static str> {
    let Value::Object(object) = item else {
        return Err("not an object");
    };
    let has_text =
        |key: &str| matches!(object.get(key), Some(Value::String(text)) if !text.trim().is_empty());
    if has_text("pattern") || has_text("commandPattern") {
        Ok(item)
    } else {
        Err("neither `pattern` nor `commandPattern` is set")
    }
}

/// `serde` helper: an allowlist whose bare strings become objects and whose
/// entries without a pattern are dropped.
pub(crate) fn allowlist<'de, D>(deserializer: D) -> Result<Vec<AllowlistEntry>, D::Error>
where
    D: Deserializer<'de>,
{
    let items = match Value::deserialize(deserializer)? {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        other => {
            return Err(D::Error::custom(format!(
                "expected an array of allowlist entries, found {}",
                kind(&other)
            )));
        }
    };
    let mut entries = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        if let Ok(object) = classify_allowlist_item(item) {
            let entry = AllowlistEntry::deserialize(object)
                .map_err(|err| D::Error::custom(format!("allowlist entry {index}: {err}")))?;
            entries.push(entry);
        }
    }
    Ok(entries)
}

/// `serde` helper: a denylist whose entries without any pattern are dropped.
pub(crate) fn denylist<'de, D>(deserializer: D) -> Result<Option<Vec<DenylistEntry>>, D::Error>
where
    D: Deserializer<'de>,
{
    let items = match Value::deserialize(deserializer)? {
        Value::Null => return Ok(None),
        Value::Array(items) => items,
        other => {
            return Err(D::Error::custom(format!(
                "expected an array of denylist entries, found {}",
                kind(&other)
            )));
        }
    };
    let mut entries = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        if let Ok(object) = classify_denylist_item(item) {
            let entry = DenylistEntry::deserialize(object)
                .map_err(|err| D::Error::custom(format!("denylist entry {index}: {err}")))?;
            entries.push(entry);
        }
    }
    Ok(Some(entries))
}

/// A JSON type name for messages ("found an object").
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
