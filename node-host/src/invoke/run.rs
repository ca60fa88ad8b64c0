//! `system.run`: a gateway's request, checked and handed to the exec host.
//!
//! A request that carries the gateway's approval (`approved`,
//! `approvalDecision`, with `runId` the approval id) counts as a person's
//! answer only when it is bound to a plan this node prepared and matches
//! it in every part: argv, canonical working directory, agent, session,
//! environment, the script's bytes, and a policy that has not narrowed
//! since. The exec host then still applies the node's own policy: a
//! `security: deny`, a denylist hit or a hard refusal wins over any
//! approval. Without an approval, a command that needs one is refused
//! `SYSTEM_RUN_DENIED: approval required`, so the gateway asks its
//! operators.
//!
//! Its lifecycle events: `exec.started` is queued only once a run outlives
//! [`STARTED_NOTICE_AFTER`]; `exec.denied` is handed back to go before the
//! refusal, `exec.finished` to go after the result (see the `events`
//! module head for the gateway's reasons).

use std::sync::Arc;

use approvals_ipc::ipc::{Decision, ErrorBody, ErrorCode, ExecPayload, ExecRequest, ExecResponse};
use approvals_ipc::policy::quote;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use ui_bridge::host::GATEWAY_APPROVAL_SOURCE;

use super::events::{self, Outgoing, RunContext, STARTED_NOTICE_AFTER};
use super::exec::{BridgeError, BridgeTarget, ExecHostChoice};
use super::params::{self, RunParams};
use super::plan::{PolicySnapshot, WirePlan, env_hash};
use super::{Answer, InvokeError, Node, NodeEvent, script};

/// The approval source the gateway sets when its operators let an
/// approval expire: the node's ask fallback decides.
const ASK_FALLBACK: &str = "ask-fallback";

/// The reason code of a request whose approval does not fit its plan.
const PLAN_MISS: &str = "execution-plan-miss";

/// Answers `system.run`: the result, the `exec.denied` to send before a
/// refusal, and the `exec.finished` to send after a run.
pub async fn system_run(node: &Arc<Node>, params: Value, cancelled: CancellationToken) -> Answer {
    match checked_run(node, params, cancelled).await {
        Ok((payload, finished)) => Answer {
            before: None,
            result: Ok(payload),
            then: Some(finished),
        },
        Err((error, denied)) => Answer {
            before: denied,
            result: Err(error),
            then: None,
        },
    }
}

/// Decodes, checks and runs the request: the payload and `exec.finished`
/// of a run, or the refusal and (once the request named a command) its
/// `exec.denied`.
async fn checked_run(
    node: &Arc<Node>,
    params: Value,
    cancelled: CancellationToken,
) -> Result<(Value, NodeEvent), (InvokeError, Option<NodeEvent>)> {
    let unheard = |error: InvokeError| (error, None);
    let params: RunParams = params::decode(params).map_err(unheard)?;
    params::argv(&params.command).map_err(unheard)?;
    let claimed = claimed_approval(&params).map_err(unheard)?;
    let run_id = params
        .run_id
        .clone()
        .filter(|id| !id.trim().is_empty())
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let context = RunContext {
        run_id: run_id.clone(),
        session_key: params.session().unwrap_or_else(|| "node".to_owned()),
        command: params
            .raw_command
            .clone()
            .unwrap_or_else(|| quote::join(&params.command)),
        suppress_notify_on_exit: params.suppress_notify_on_exit == Some(true),
    };
    let mut request = ExecRequest {
        command: params.command.clone(),
        raw_command: params.raw_command.clone(),
        cwd: params.cwd.clone(),
        env: params.env.clone(),
        timeout_ms: params::millis(params.timeout_ms).map_err(unheard)?,
        needs_screen_recording: params.needs_screen_recording,
        agent_id: params.agent_id.clone(),
        session_key: params.session_key.clone(),
        run_id: Some(run_id),
        approval_source: params.approval_source.clone().filter(|s| s == ASK_FALLBACK),
        ..ExecRequest::default()
    };
    if let Some(decision) = claimed
        && let Err(refusal) = bind_approval(node, &params, &mut request, decision)
    {
        let denied = context.denied(refusal.reason.as_deref().unwrap_or(PLAN_MISS));
        return Err((refusal, Some(denied)));
    }
    match execute(node, request, cancelled, &context).await {
        ExecResponse::Completed(payload) => {
            Ok((result_payload(&payload), context.finished(&payload)))
        }
        ExecResponse::Refused(body) => {
            let error = InvokeError::from(body);
            let denied = context.denied(error.reason.as_deref().unwrap_or("approval-required"));
            Err((error, Some(denied)))
        }
    }
}

/// The decision the request claims the gateway's operators gave, checked
/// for shape only (whether it holds is [`bind_approval`]'s question).
fn claimed_approval(params: &RunParams) -> Result<Option<Decision>, InvokeError> {
    let explicit = params.approved == Some(true) || params.approval_decision.is_some();
    match params.approval_source.as_deref() {
        None => {}
        Some(ASK_FALLBACK) if explicit => {
            return Err(InvokeError::invalid(
                "approval source cannot be combined with explicit approval",
            ));
        }
        Some(ASK_FALLBACK) => return Ok(None),
        Some(_) => return Err(InvokeError::invalid("approval source invalid")),
    }
    if !explicit {
        return Ok(None);
    }
    match params.approval_decision.as_deref() {
        None | Some("allow-once") => Ok(Some(Decision::AllowOnce)),
        Some("allow-always") => Ok(Some(Decision::AllowAlways)),
        Some("deny") => Err(InvokeError::denied("user denied", "user-denied")),
        Some(other) => Err(InvokeError::invalid(format!(
            "approvalDecision must be allow-once or allow-always, not {}",
            approvals_ipc::policy::unicode::escape_for_display(other)
        ))),
    }
}

/// Checks a claimed approval against the plan this node prepared and, when
/// it holds, makes it the request's answer (audited as approver `gateway`).
fn bind_approval(
    node: &Node,
    params: &RunParams,
    request: &mut ExecRequest,
    decision: Decision,
) -> Result<(), InvokeError> {
    let mismatch =
        |what: &str| InvokeError::denied(format!("execution plan mismatch ({what})"), PLAN_MISS);
    let Some(approval_id) = params.run_id.clone().filter(|id| !id.trim().is_empty()) else {
        return Err(InvokeError::denied(
            "approval requires runId (the approval id)",
            "approval-required",
        ));
    };
    let Some(raw_plan) = params.system_run_plan.clone() else {
        return Err(mismatch(
            "no systemRunPlan: an approval must be bound to the plan system.run.prepare returned",
        ));
    };
    let plan: WirePlan =
        serde_json::from_value(raw_plan).map_err(|_| mismatch("malformed systemRunPlan"))?;
    let Some(bound_env) = node.plans.recall(&plan) else {
        return Err(mismatch(
            "this node did not prepare that plan, or it expired; run system.run.prepare again",
        ));
    };
    if request.command != plan.argv {
        return Err(mismatch("argv differs from the approved plan"));
    }
    let cwd = match request.cwd.as_deref() {
        Some(dir) => std::fs::canonicalize(dir)
            .ok()
            .map(|p| p.to_string_lossy().into_owned()),
        None => None,
    };
    if cwd.is_none() || cwd != plan.cwd {
        return Err(mismatch("working directory differs from the approved plan"));
    }
    if params.session() != plan.session_key {
        return Err(mismatch("session differs from the approved plan"));
    }
    if let Some(raw) = params.raw_command.as_deref()
        && raw != plan.command_text
        && Some(raw) != plan.command_preview.as_deref()
    {
        return Err(mismatch("rawCommand differs from the approved plan"));
    }
    if env_hash(params.env.as_ref()) != bound_env {
        return Err(mismatch("environment differs from the approved plan"));
    }
    // The plan is this node's and the argv is the plan's, so the operand
    // still names the word it was taken from; only its bytes can differ.
    if let Some(operand) = &plan.mutable_file_operand
        && !script::unchanged(operand)
    {
        return Err(InvokeError::denied(
            "approval script operand changed before execution",
            PLAN_MISS,
        ));
    }
    request.cwd = plan.cwd.clone();
    // The agent as the exec host resolves it, as prepare recorded it.
    let judged = node.host.judge(request)?;
    if Some(&judged.agent_id) != plan.agent_id.as_ref() {
        return Err(mismatch("agent differs from the approved plan"));
    }
    let current = PolicySnapshot::of(judged.compiled.policy());
    if !plan
        .policy_snapshot
        .as_ref()
        .is_some_and(|approved| approved.still_holds(&current))
    {
        return Err(InvokeError::denied(
            "exec approval policy changed; request approval again",
            "approval-required",
        ));
    }
    if decision == Decision::AllowOnce && !node.plans.use_once(&approval_id) {
        return Err(InvokeError::denied(
            "this allow-once approval was already used; request approval again",
            "approval-required",
        ));
    }
    request.approval_decision = Some(decision);
    request.approval_source = Some(GATEWAY_APPROVAL_SOURCE.to_owned());
    request.run_id = Some(approval_id);
    Ok(())
}

/// Runs the request on the chosen exec host.
async fn execute(
    node: &Node,
    request: ExecRequest,
    cancelled: CancellationToken,
    context: &RunContext,
) -> ExecResponse {
    match node.config.exec_host {
        ExecHostChoice::Local => local(node, request, cancelled, context).await,
        ExecHostChoice::Bridge => via_bridge(node, &request, &cancelled)
            .await
            .unwrap_or_else(|err| err.unavailable()),
        ExecHostChoice::Auto => match via_bridge(node, &request, &cancelled).await {
            Ok(response) => response,
            Err(BridgeError::NotRunning(why)) => {
                tracing::debug!("no ui-bridge answers ({why}); using the embedded exec host");
                local(node, request, cancelled, context).await
            }
            Err(err) => err.unavailable(),
        },
    }
}

/// Sends the request to the UI bridge; `cancelled` drops the connection,
/// which makes the bridge withdraw the ask or kill the run.
async fn via_bridge(
    node: &Node,
    request: &ExecRequest,
    cancelled: &CancellationToken,
) -> Result<ExecResponse, BridgeError> {
    let bridge = BridgeTarget {
        approvals_path: &node.config.approvals_path,
        socket: node.config.socket.as_ref(),
    };
    tokio::select! {
        response = bridge.exec(request) => response,
        () = cancelled.cancelled() => Ok(cancelled_response()),
    }
}

/// Runs the request on the embedded exec host, sending `exec.started`
/// when the command is still running [`STARTED_NOTICE_AFTER`] after it
/// started.
async fn local(
    node: &Node,
    request: ExecRequest,
    cancelled: CancellationToken,
    context: &RunContext,
) -> ExecResponse {
    let (started_tx, started_rx) = tokio::sync::oneshot::channel();
    let run = node.host.handle_observed(request, cancelled, started_tx);
    let still_running = async {
        match started_rx.await {
            Ok(run_id) => {
                tokio::time::sleep(STARTED_NOTICE_AFTER).await;
                run_id
            }
            // Refused before it started: there is nothing to announce.
            Err(_) => std::future::pending().await,
        }
    };
    tokio::pin!(run, still_running);
    let outcome = tokio::select! {
        biased;
        outcome = &mut run => outcome,
        run_id = &mut still_running => {
            let mut started = context.clone();
            started.run_id = run_id;
            send(node, started.started());
            run.await
        }
    };
    match outcome {
        Ok(payload) => ExecResponse::Completed(payload),
        Err(body) => ExecResponse::Refused(body),
    }
}

fn cancelled_response() -> ExecResponse {
    ExecResponse::Refused(
        ErrorBody::new(
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DENIED: request cancelled; its processes were killed",
        )
        .with_reason("cancelled"),
    )
}

/// The result OpenClaw's gateway and agents read:
/// `{exitCode, timedOut, success, stdout, stderr, error}` (and ours).
fn result_payload(payload: &ExecPayload) -> Value {
    serde_json::to_value(payload).unwrap_or(Value::Null)
}

fn send(node: &Node, event: NodeEvent) {
    events::send(&node.events, Outgoing::Event(event));
}
