//! The JSON Schema of `exec-approvals.json`, generated from the very types
//! the loader reads (`schemars` follows their `serde` attributes), so an
//! editor validates and completes the file the way the loader reads it.
//!
//! It decides nothing the loader does not: fields we do not know are
//! allowed (they are kept on save), and a `$schema` key is declared so an
//! editor can point at this schema; the loader keeps that key like any
//! other unknown top-level field. What the schema cannot say: the loader
//! also tolerates an unknown enum value or an allowlist item without a
//! pattern (dropped with a warning); the schema flags those, as it should.

use serde_json::Value;

use super::model::ApprovalsFile;

/// The schema, as a JSON value (draft 2020-12).
pub fn json_schema() -> Value {
    let mut schema = schemars::schema_for!(ApprovalsFile);
    schema.insert("title".into(), "exec-approvals.json".into());
    let mut value = schema.to_value();
    if let Some(properties) = value.get_mut("properties").and_then(Value::as_object_mut) {
        properties.insert(
            "$schema".into(),
            serde_json::json!({
                "description": "Where editors find this schema (a path or URL); kept on save, ignored by the loader.",
                "type": "string"
            }),
        );
    }
    value
}
