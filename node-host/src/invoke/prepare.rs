//! `system.run.prepare`: the canonical plan a gateway binds its approval
//! to, in the shape OpenClaw's agent exec tool parses
//! (`parsePreparedSystemRunPayload`; reference/openclaw-gateway.md
//! section 8): `plan`, `execPolicy` and `allowAlwaysCoverage`.
//!
//! The request is judged exactly as `system.run` would judge it, so a
//! malformed one (a `rawCommand` that disagrees with its argv, a refused
//! environment override, a missing directory) is refused here already.
//! The plan's working directory is canonical (symlinks resolved); its
//! script operand, when it has one, is hashed; the plan is remembered so
//! that only plans this node made can carry an approval back.

use std::sync::Arc;

use serde_json::{Value, json};
use ui_bridge::host::Judged;

use super::params::{self, RunParams};
use super::plan::{PolicySnapshot, WirePlan, env_hash};
use super::{InvokeError, Node, script};

/// Answers `system.run.prepare`.
pub fn system_run_prepare(node: &Arc<Node>, params: Value) -> Result<Value, InvokeError> {
    let params: RunParams = params::decode(params)?;
    params::argv(&params.command)?;
    let judged = node.host.judge(&params.request())?;
    let plan = plan_of(&params, &judged)?;
    node.plans.remember(&plan, env_hash(params.env.as_ref()));
    let policy = judged.compiled.policy();
    let coverage: Vec<Value> = judged
        .evaluation
        .persist_patterns()
        .iter()
        .map(|pattern| json!({"pattern": pattern}))
        .collect();
    Ok(json!({
        "plan": plan,
        "execPolicy": {"security": policy.security, "ask": policy.ask},
        "allowAlwaysCoverage": {
            "complete": !coverage.is_empty() && judged.evaluation.analysis.ok,
            "patterns": coverage,
        },
    }))
}

/// The plan of a judged request.
fn plan_of(params: &RunParams, judged: &Judged) -> Result<WirePlan, InvokeError> {
    let evaluation = &judged.evaluation;
    let cwd = std::fs::canonicalize(evaluation.cwd()).map_err(|error| {
        InvokeError::denied(
            format!(
                "working directory {} is not usable: {error}",
                evaluation.cwd().display()
            ),
            "cwd-unavailable",
        )
    })?;
    // What people read: the agent's own text when it agrees with the argv
    // (checked by `judge`), else the shell script, else the quoted argv.
    let command_text = params
        .raw_command
        .clone()
        .filter(|raw| !raw.trim().is_empty())
        .or_else(|| evaluation.shell_script().map(str::to_owned))
        .unwrap_or_else(|| evaluation.command_text().to_owned());
    let preview =
        (evaluation.command_text() != command_text).then(|| evaluation.command_text().to_owned());
    Ok(WirePlan {
        argv: params.command.clone(),
        cwd: Some(cwd.to_string_lossy().into_owned()),
        command_text,
        command_preview: preview,
        agent_id: Some(judged.agent_id.clone()),
        session_key: params.session(),
        policy_snapshot: Some(PolicySnapshot::of(judged.compiled.policy())),
        mutable_file_operand: script::operand(&params.command, &cwd),
    })
}
