//! `system.which`: where this host's PATH finds each named program, as
//! OpenClaw's node answers it (`{bins: {name: path}}`, names with a slash
//! skipped, names not found left out).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{InvokeError, params};

/// PATH when the node's own environment has none (OpenClaw's default).
const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// Names looked up at most per request.
const MAX_BINS: usize = 256;

#[derive(Debug, Deserialize)]
struct WhichParams {
    bins: Vec<String>,
}

/// Answers `system.which`.
pub fn system_which(params: Value) -> Result<Value, InvokeError> {
    let params: WhichParams = params::decode(params)?;
    if params.bins.len() > MAX_BINS {
        return Err(InvokeError::invalid(format!(
            "at most {MAX_BINS} bins per request"
        )));
    }
    let path = std::env::var_os("PATH")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| DEFAULT_PATH.into());
    let cwd = std::env::current_dir().unwrap_or_else(|_| "/".into());
    let mut found = BTreeMap::new();
    for name in params.bins {
        let name = name.trim();
        if name.is_empty() || name.contains('/') || name.contains('\\') {
            continue;
        }
        if let Ok(at) = which::which_in(name, Some(&path), &cwd) {
            found.insert(name.to_owned(), at.to_string_lossy().into_owned());
        }
    }
    Ok(json!({ "bins": found }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_programs_and_skips_paths_and_unknown_names() {
        let answer =
            system_which(json!({"bins": ["sh", "/bin/sh", "../sh", "no-such-program-x"]})).unwrap();
        let bins = answer["bins"].as_object().unwrap();
        assert_eq!(bins.len(), 1, "{bins:?}");
        assert!(bins["sh"].as_str().unwrap().ends_with("/sh"));
        assert!(system_which(json!({"bins": "sh"})).is_err());
    }
}
