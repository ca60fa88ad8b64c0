//! `system.execApprovals.get` and `.set`: the node's approvals file as a
//! gateway reads and edits it (reference/openclaw.md section 7.6). The
//! socket token never leaves the node; an edit applies only if the file
//! still has the hash the editor read, and keeps the socket path and token.

use std::path::Path;

use approvals_ipc::approvals::{ApprovalsError, ApprovalsFile, ApprovalsStore, sha256_hex};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{InvokeError, params};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SetParams {
    file: Value,
    #[serde(default)]
    base_hash: Option<String>,
}

/// Answers `system.execApprovals.get`: `{path, exists, hash, file}`.
pub fn get(path: &Path) -> Result<Value, InvokeError> {
    let snapshot = ApprovalsStore::open(path)
        .load()
        .map_err(|error| InvokeError::unavailable(format!("approvals file unusable: {error}")))?
        .redacted();
    Ok(json!({
        "path": path,
        "exists": snapshot.exists,
        "hash": snapshot.hash,
        "file": snapshot.file,
    }))
}

/// Answers `system.execApprovals.set`: replaces the policy when `baseHash`
/// is the file's current hash (required when the file exists).
pub fn set(path: &Path, params: Value) -> Result<Value, InvokeError> {
    let params: SetParams = params::decode(params)?;
    let bytes = serde_json::to_vec(&params.file)
        .map_err(|error| InvokeError::invalid(format!("file: {error}")))?;
    let parsed = ApprovalsFile::parse(&bytes, Path::new("<system.execApprovals.set file>"))
        .map_err(|error| {
            InvokeError::invalid(format!("file is not a valid approvals file: {error}"))
        })?;
    let store = ApprovalsStore::open(path);
    let exists = store
        .load()
        .map_err(|error| InvokeError::unavailable(format!("approvals file unusable: {error}")))?
        .exists;
    let base_hash = match params.base_hash.filter(|h| !h.trim().is_empty()) {
        Some(hash) => hash,
        None if exists => {
            return Err(InvokeError::invalid(
                "exec approvals base hash required; reload and retry",
            ));
        }
        // A file that does not exist hashes as no bytes.
        None => sha256_hex(b""),
    };
    match store.replace(parsed.file, &base_hash) {
        Ok(_) => get(path),
        Err(ApprovalsError::Conflict { .. }) => Err(InvokeError::invalid(
            "exec approvals changed; reload and retry",
        )),
        Err(error) => Err(InvokeError::unavailable(format!(
            "cannot save the approvals file: {error}"
        ))),
    }
}
