//! The params of `system.run` and `system.run.prepare` as the gateway sends
//! them (reference/openclaw.md section 7.2), decoded strictly: a field of
//! the wrong type refuses the request instead of being dropped.

use std::collections::BTreeMap;

use approvals_ipc::ipc::ExecRequest;
use serde::Deserialize;
use serde_json::Value;

use super::InvokeError;

/// `system.run` params, and those of `system.run.prepare` (which reads the
/// command, its text, cwd, env, agent and session, and ignores the rest).
/// `suppressNotifyOnExit` is passed on in the run's lifecycle events, as
/// OpenClaw's node does; other fields OpenClaw sends for its own UIs
/// (`wakeOnExit`, `security`, `ask`, …) are ignored.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunParams {
    /// The argv; required and non-empty.
    pub command: Vec<String>,
    /// The command as shown to people; must agree with `command`.
    #[serde(default)]
    pub raw_command: Option<String>,
    /// The working directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Environment overrides.
    #[serde(default)]
    pub env: Option<BTreeMap<String, String>>,
    /// Kill the command after this many ms (OpenClaw sends JS numbers).
    #[serde(default)]
    pub timeout_ms: Option<f64>,
    /// macOS screen-recording permission needed.
    #[serde(default)]
    pub needs_screen_recording: Option<bool>,
    /// The agent whose policy applies.
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The session the request belongs to.
    #[serde(default)]
    pub session_key: Option<String>,
    /// The run id; with an approval, the approval's id.
    #[serde(default)]
    pub run_id: Option<String>,
    /// Set by the gateway after its operators approved.
    #[serde(default)]
    pub approved: Option<bool>,
    /// `allow-once` or `allow-always`, set by the gateway with `approved`.
    #[serde(default)]
    pub approval_decision: Option<String>,
    /// `ask-fallback`: the gateway's operators let the approval expire.
    #[serde(default)]
    pub approval_source: Option<String>,
    /// The plan `system.run.prepare` returned, which the approval is bound to.
    #[serde(default)]
    pub system_run_plan: Option<Value>,
    /// The caller reports the outcome itself: the gateway need not turn this
    /// run's lifecycle events into session messages (its agents' exec tool
    /// sets it for the runs it waits on).
    #[serde(default)]
    pub suppress_notify_on_exit: Option<bool>,
}

impl RunParams {
    /// The exec host's request for this command, without timeout, run id
    /// or approval (which only `system.run` sets).
    pub fn request(&self) -> ExecRequest {
        ExecRequest {
            command: self.command.clone(),
            raw_command: self.raw_command.clone(),
            cwd: self.cwd.clone(),
            env: self.env.clone(),
            agent_id: self.agent_id.clone(),
            session_key: self.session_key.clone(),
            ..ExecRequest::default()
        }
    }

    /// The session key, with an empty one taken as none.
    pub fn session(&self) -> Option<String> {
        self.session_key.clone().filter(|s| !s.is_empty())
    }
}

/// Decodes params, naming the field that is wrong.
pub fn decode<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, InvokeError> {
    serde_path_to_error::deserialize(params).map_err(|error| {
        let path = error.path().to_string();
        InvokeError::invalid(format!("invalid params at {path}: {}", error.inner()))
    })
}

/// A JS number of milliseconds as a whole count; negative, fractional
/// beyond u64 or not finite is refused.
pub fn millis(value: Option<f64>) -> Result<Option<u64>, InvokeError> {
    match value {
        None => Ok(None),
        Some(ms) if (0.0..=9_007_199_254_740_991.0).contains(&ms) => {
            // In range and non-negative: the cast only drops the fraction.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(Some(ms as u64))
        }
        Some(ms) => Err(InvokeError::invalid(format!(
            "timeoutMs must be a non-negative number of milliseconds, not {ms}"
        ))),
    }
}

/// The argv, refused when empty or when its program is an empty word.
pub fn argv(command: &[String]) -> Result<(), InvokeError> {
    if command.first().is_none_or(|first| first.trim().is_empty()) {
        return Err(InvokeError::invalid("command required"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn wrong_types_are_refused_with_the_field_named() {
        let error = decode::<RunParams>(json!({"command": "echo hi"})).unwrap_err();
        assert_eq!(error.code, "INVALID_REQUEST");
        assert!(error.message.contains("command"), "{}", error.message);
        let error = decode::<RunParams>(json!({"command": ["x"], "approved": "yes"})).unwrap_err();
        assert!(error.message.contains("approved"), "{}", error.message);
        let ok: RunParams =
            decode(json!({"command": ["x"], "timeoutMs": 5000, "wakeOnExit": true})).unwrap();
        assert_eq!(millis(ok.timeout_ms).unwrap(), Some(5000));
    }

    #[test]
    fn timeouts_must_be_whole_non_negative_numbers() {
        assert_eq!(millis(Some(1.9)).unwrap(), Some(1));
        assert!(millis(Some(-1.0)).is_err());
        assert!(millis(Some(f64::NAN)).is_err());
        assert!(millis(Some(1e300)).is_err());
    }

    #[test]
    fn an_empty_program_is_no_command() {
        assert!(argv(&[]).is_err());
        assert!(argv(&[" ".into()]).is_err());
        assert!(argv(&["ls".into()]).is_ok());
    }
}
