//! The exec host: from one authenticated `system.run` request to a reply,
//! deciding under the approvals file and running only what was checked.
//!
//! The pipeline of [`ExecHost::handle`] is DESIGN.md section 3, steps 4 to
//! 7: validate the request ([`validate`]); load the policy of its agent
//! ([`policy_cache`], re-read only when the file changed); decide (allow,
//! deny, or ask through [`Approvals`] with the ask fallback when nobody
//! answers); save allowlist use **before** running, refusing to run when
//! that write fails; run the plan with `crate::exec`; reply. It refuses a
//! request whose `rawCommand` disagrees with its argv, an environment
//! override of `PATH` or a hook variable, a missing working directory, and
//! every request while the approvals file is malformed (invariant 6). It
//! never trusts an `approvalDecision` sent by the client (openclaw.md
//! section 10, class 22). What runs is the evaluation's checked plan, or the
//! exact argv a person approved (invariant 4); a cancelled request kills its
//! processes (invariant 8).

mod approver;
mod audit_trail;
mod broker_approvals;
mod outcome;
mod policy_cache;
mod refusal;
mod validate;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use approvals_ipc::approvals::ApprovalsStore;
use approvals_ipc::ipc::{Decision, ErrorBody, ExecPayload, ExecRequest};
use approvals_ipc::policy::{
    ApprovalDecision, CompiledPolicy, Evaluation, Grant, HostContext, Runnable, Verdict,
};
use tokio_util::sync::CancellationToken;

use crate::exec::{ChildEnv, ExecLimits, run_masked};

pub use crate::audit::AuditTrail;
use crate::audit::DecidedBy;
pub use crate::broker::approval_display;
pub use approver::{Answer, Approvals, AskFuture, Asked, NoApprovers, NobodyAnswered, Withdrawn};
use audit_trail::{Decider, Trail};
pub use broker_approvals::{BrokerApprovals, with_notices};
pub use policy_cache::{PolicyCache, PolicyVersion, Unusable};
pub use refusal::{HostRefusal, NOT_FOUND};
pub use validate::{Validated, raw_command_agrees, validate};

/// The agent whose policy applies when a request names none.
pub const DEFAULT_AGENT: &str = "main";

/// How often last-use metadata of one entry is written before the run. The
/// write is an fsynced, locked file replacement (milliseconds); doing it
/// before every run would dominate the cost of a `system.run`, and the
/// metadata is display only. Within the interval a use is still recorded,
/// by a batched write at most [`USE_FLUSH_DELAY`] later. Allow-always
/// entries are always written before the run.
pub const USE_RECORD_INTERVAL: Duration = Duration::from_secs(60);

/// How long deferred last-use records wait to be written together.
pub const USE_FLUSH_DELAY: Duration = Duration::from_secs(1);

/// Extra time an ask gets beyond its timeout before the host stops waiting.
const ASK_GRACE: Duration = Duration::from_millis(500);

/// Longest agent id accepted; ids are map keys in the approvals file, not prose.
const MAX_AGENT_ID_LEN: usize = 128;

/// How the exec host runs commands; node-host and ui-bridge fill it from their flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecHostConfig {
    /// The approvals file whose policy applies (re-read when it changes).
    pub approvals_path: PathBuf,
    /// Bytes of stdout and stderr kept together (OpenClaw: 200 000).
    pub output_cap: usize,
    /// Time between `SIGTERM` and `SIGKILL` when a run times out.
    pub kill_grace: Duration,
    /// Run timeout when the request sets no `timeoutMs`; `None` waits forever.
    pub default_timeout: Option<Duration>,
    /// The audit log (DESIGN.md section 9); `None` records nothing.
    pub audit_path: Option<PathBuf>,
    /// Where audit records also go, overriding the file's `audit.sink`
    /// (`ui-bridge serve --audit-sink`).
    pub audit_sink: Option<crate::audit::SinkKind>,
    /// Whether a request relayed by a node host with `approvalSource:
    /// "gateway"` carries an answer (the gateway operators' decision, which
    /// the node host checked against the plan it prepared). Off by default:
    /// a requester must never approve itself (openclaw.md class 22).
    pub gateway_approvals: bool,
    /// What an ask that nobody answered comes to.
    pub unanswered: Unanswered,
}

/// What an ask that no approver answered comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unanswered {
    /// `askFallback` decides (a bridge, `node-host run`).
    #[default]
    AskFallback,
    /// Refused as needing approval, so the requester gets an approval
    /// elsewhere (a node joined to a gateway, as OpenClaw's node answers);
    /// only a request with `approvalSource: "ask-fallback"` (the gateway's
    /// operators let the approval expire) goes to `askFallback`.
    ApprovalRequired,
}

/// The `approvalSource` of a request whose `approvalDecision` a node host
/// relays from the gateway's operators.
pub const GATEWAY_APPROVAL_SOURCE: &str = "gateway";

/// The approver name a relayed gateway answer is audited under.
pub const GATEWAY_APPROVER: &str = "gateway";

impl ExecHostConfig {
    /// The defaults of DESIGN.md section 8 for the file at `approvals_path`.
    pub fn new(approvals_path: PathBuf) -> Self {
        ExecHostConfig {
            audit_path: Some(approvals_path.with_file_name(crate::audit::AUDIT_FILE_NAME)),
            audit_sink: None,
            approvals_path,
            output_cap: 200_000,
            kill_grace: Duration::from_secs(2),
            default_timeout: None,
            gateway_approvals: false,
            unanswered: Unanswered::AskFallback,
        }
    }
}

/// A request judged by [`ExecHost::judge`]: its agent, its evaluation and
/// the agent's policy it was judged under.
#[derive(Debug)]
pub struct Judged {
    /// The agent whose policy applied.
    pub agent_id: String,
    /// What the policy decided before anyone is asked.
    pub evaluation: Evaluation,
    /// The agent's compiled policy.
    pub compiled: Arc<CompiledPolicy>,
}

/// Decides and runs `system.run` requests; `Send + Sync`, share it in an `Arc`.
pub struct ExecHost {
    config: ExecHostConfig,
    policies: PolicyCache,
    host: HostContext,
    /// The host environment minus the blocklist, filtered once at start:
    /// what every child gets before its request's overrides.
    base_env: ChildEnv,
    approvals: Arc<dyn Approvals>,
    /// Bound on one ask; `None` uses the policy's `approvalTimeoutMs`.
    approval_timeout: Option<Duration>,
    /// When each (agent, pattern) last had its use written to the file.
    recorded_uses: Mutex<HashMap<(String, String), Instant>>,
    /// Last-use records waiting for the next batched write.
    deferred_uses: Arc<Mutex<Vec<outcome::StateEdit>>>,
    /// Where decisions and outcomes are recorded, opened on first use.
    audit: tokio::sync::OnceCell<Option<AuditTrail>>,
}

impl std::fmt::Debug for ExecHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecHost")
            .field("config", &self.config)
            .field("approval_timeout", &self.approval_timeout)
            .finish_non_exhaustive()
    }
}

impl ExecHost {
    /// An exec host for this process's environment, with nobody to ask (the ask fallback decides).
    pub fn new(config: ExecHostConfig) -> Self {
        let base_env = ChildEnv::from_process();
        ExecHost {
            policies: PolicyCache::new(config.approvals_path.clone()),
            host: HostContext::from_process(),
            base_env,
            approvals: Arc::new(NoApprovers),
            approval_timeout: None,
            recorded_uses: Mutex::default(),
            deferred_uses: Arc::default(),
            audit: tokio::sync::OnceCell::new(),
            config,
        }
    }

    /// Asks `approvals` (the broker) before the ask fallback decides.
    pub fn with_approvals(mut self, approvals: Arc<dyn Approvals>) -> Self {
        self.approvals = approvals;
        self
    }

    /// Bounds every ask by `timeout` instead of the policy's `approvalTimeoutMs`.
    pub fn with_approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = Some(timeout);
        self
    }

    /// The pinned store of the approvals file, so a bridge can create the
    /// file and hold its directory at start, before any request is served.
    pub fn approvals_store(&self) -> &ApprovalsStore {
        self.policies.store()
    }

    /// The configuration this host was built with.
    pub fn config(&self) -> &ExecHostConfig {
        &self.config
    }

    /// Decides and runs one request; the `Err` is the wire error (code, message, reason).
    ///
    /// # Cancel safety
    ///
    /// When `cancelled` fires (the requester went away, the host is
    /// shutting down), a pending ask is withdrawn and a running plan is
    /// killed, process groups included; the request is answered `UNAVAILABLE`.
    /// Dropping the future has the same effect on the processes.
    pub async fn handle(
        &self,
        request: ExecRequest,
        cancelled: CancellationToken,
    ) -> Result<ExecPayload, ErrorBody> {
        self.handle_request(request, cancelled, None)
            .await
            .map_err(|refusal| refusal.to_wire())
    }

    /// [`ExecHost::handle`], telling `started` the run id the moment the
    /// command is about to start (after the decision and its audit record),
    /// for a node host's `exec.started` event. `started` is dropped unsent
    /// when nothing runs.
    pub async fn handle_observed(
        &self,
        request: ExecRequest,
        cancelled: CancellationToken,
        started: tokio::sync::oneshot::Sender<String>,
    ) -> Result<ExecPayload, ErrorBody> {
        self.handle_request(request, cancelled, Some(started))
            .await
            .map_err(|refusal| refusal.to_wire())
    }

    async fn handle_request(
        &self,
        request: ExecRequest,
        cancelled: CancellationToken,
        started: Option<tokio::sync::oneshot::Sender<String>>,
    ) -> Result<ExecPayload, HostRefusal> {
        let (agent_id, validated, version) = match self.admit(&request) {
            Ok(admitted) => admitted,
            Err(refusal) => {
                // Refused before it could be evaluated; still a decision
                // the audit log must hold.
                audit_trail::refused_unevaluated(self.audit_trail().await, &request, &refusal)
                    .await;
                return Err(refusal);
            }
        };
        let compiled = version.compiled(&agent_id, &self.host);
        let begun = Instant::now();
        let evaluation = compiled.evaluate(&validated.argv, &validated.cwd, &validated.overrides);
        let secrets: Vec<String> = version.token().into_iter().map(str::to_owned).collect();
        let raw_agrees = request
            .raw_command
            .as_deref()
            .is_none_or(|raw| raw_command_agrees(raw, &evaluation));
        let (decided, decider) = if raw_agrees {
            self.decide(&evaluation, &compiled, &request, &cancelled)
                .await
        } else {
            // Refused like a policy denial, and recorded with the evaluation
            // of what the argv would have run.
            (
                Err(HostRefusal::RawCommandMismatch),
                Decider::of(DecidedBy::Policy),
            )
        };
        let run_id = decider
            .approval_id
            .clone()
            .or_else(|| request.run_id.clone())
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
        let trail = Trail {
            audit: self.audit_trail().await,
            evaluation: &evaluation,
            agent_id: &agent_id,
            session_key: request.session_key.as_deref(),
            run_id: &run_id,
            secrets: &secrets,
            template: std::sync::OnceLock::new(),
        };
        let decision_latency = begun.elapsed();
        let runnable = match decided {
            Ok(runnable) => runnable,
            Err(refusal) => {
                // A refusal stands whether or not it could be recorded.
                trail.refused(&refusal, &decider, decision_latency).await;
                return Err(refusal);
            }
        };
        let grant = runnable.grant();
        // Every decision is in the audit log; this is for debugging only.
        tracing::debug!(
            agent = %agent_id,
            command = %crate::exec::mask_command(evaluation.command_text(), &[]),
            decision = grant.wire_name(),
            run_id = %run_id,
            "allowed"
        );
        if let Err(refusal) = self
            .save_decision_state(&agent_id, &evaluation, grant)
            .await
        {
            trail.refused(&refusal, &decider, decision_latency).await;
            return Err(refusal);
        }
        let limits = ExecLimits {
            timeout: request
                .timeout_ms
                .filter(|ms| *ms > 0)
                .map(Duration::from_millis)
                .or(self.config.default_timeout),
            output_cap: self.config.output_cap,
            kill_grace: self.config.kill_grace,
        };
        let env = validated.env.as_ref().unwrap_or(&self.base_env);
        let known: Vec<&str> = secrets.iter().map(String::as_str).collect();
        trail.allowed(grant, &decider, decision_latency).await?;
        if let Some(started) = started {
            // Nobody listening any more is no reason not to run.
            let _ = started.send(run_id.clone());
        }
        let ran = Instant::now();
        let outcome = tokio::select! {
            outcome = run_masked(&runnable, env, &limits, &known) => outcome,
            () = cancelled.cancelled() => {
                // Dropping the run kills its children and their process groups.
                tracing::info!(command = %crate::exec::mask_command(evaluation.command_text(), &[]), "request cancelled while running; processes killed");
                return Err(HostRefusal::CancelledWhileRunning);
            }
        };
        let payload = ExecPayload {
            exit_code: outcome.exit_code,
            timed_out: outcome.timed_out,
            success: outcome.success,
            stdout: outcome.stdout,
            stderr: outcome.stderr,
            error: outcome.error,
            truncated: outcome.truncated,
            run_id: Some(run_id.clone()),
            decision: Some(grant.wire_name().to_owned()),
        };
        trail.finished(&payload, ran.elapsed()).await;
        Ok(payload)
    }

    /// What a request must pass before it is evaluated: a usable agent id,
    /// working directory and environment, and a usable approvals file.
    fn admit(
        &self,
        request: &ExecRequest,
    ) -> Result<(String, Validated, Arc<PolicyVersion>), HostRefusal> {
        let agent_id = agent_of(request)?;
        let validated = validate(request, self.host.home.as_deref(), &self.base_env)?;
        if let Some(claimed) = request.approval_decision
            && !self.takes_relayed_answers(request)
        {
            // Class 22: an approval must come from a person through our own
            // approvers, never from the requester.
            tracing::warn!(?claimed, agent = %agent_id, "ignoring approvalDecision sent by the client");
        }
        let version = self
            .policies
            .current()
            .map_err(|Unusable(error)| HostRefusal::ApprovalsFileUnusable(error))?;
        Ok((agent_id, validated, version))
    }

    /// Judges a request exactly as [`ExecHost::handle`] would before asking
    /// anyone, without asking or running: for `system.run.prepare`, which
    /// binds a gateway approval to the plan this yields.
    pub fn judge(&self, request: &ExecRequest) -> Result<Judged, ErrorBody> {
        let (agent_id, validated, version) =
            self.admit(request).map_err(|refusal| refusal.to_wire())?;
        let compiled = version.compiled(&agent_id, &self.host);
        let evaluation = compiled.evaluate(&validated.argv, &validated.cwd, &validated.overrides);
        if let Some(raw) = request.raw_command.as_deref()
            && !raw_command_agrees(raw, &evaluation)
        {
            return Err(HostRefusal::RawCommandMismatch.to_wire());
        }
        Ok(Judged {
            agent_id,
            evaluation,
            compiled,
        })
    }

    /// The approver identities the policy accepts answers from
    /// (`defaults.approvers`); `None` accepts anyone. An unusable file is an
    /// error: no answer counts until it is fixed.
    pub fn approver_identities(&self) -> Result<Option<Vec<String>>, ErrorBody> {
        let version = self
            .policies
            .current()
            .map_err(|Unusable(error)| HostRefusal::ApprovalsFileUnusable(error).to_wire())?;
        Ok(version
            .file
            .defaults
            .as_ref()
            .and_then(|defaults| defaults.approvers.clone()))
    }

    /// Waits until every audit record of this host is on disk: for hosts
    /// that exit right after a request (`node-host run`).
    pub async fn flush_audit(&self) {
        if let Some(Some(trail)) = self.audit.get()
            && let Err(error) = trail.flush().await
        {
            tracing::error!(%error, "cannot flush the audit log");
        }
    }

    /// The audit trail, opened on first use; `None` when auditing is off.
    /// A log that cannot be opened is reported once and every later decision
    /// is refused (see [`Trail::decision`]).
    async fn audit_trail(&self) -> Result<Option<&AuditTrail>, String> {
        let Some(path) = &self.config.audit_path else {
            return Ok(None);
        };
        let opened = self
            .audit
            .get_or_init(|| async {
                let options = match self.audit_options() {
                    Ok(options) => options,
                    Err(error) => {
                        tracing::error!(%error, "unusable audit settings; refusing to run anything");
                        return None;
                    }
                };
                match AuditTrail::open_with(path, options) {
                    Ok(trail) => Some(trail),
                    Err(error) => {
                        tracing::error!(%error, "cannot open the audit log; refusing to run anything");
                        None
                    }
                }
            })
            .await;
        match opened {
            Some(trail) => Ok(Some(trail)),
            None => Err(format!("cannot open the audit log {}", path.display())),
        }
    }

    /// How the audit log is written: `--audit-sink` (the config) or the
    /// file's `audit.sink`, and its `audit.rotateBytes`. An unusable file
    /// leaves the defaults (its requests are refused anyway); a sink that
    /// is not understood is an error naming the file.
    fn audit_options(&self) -> Result<crate::audit::LogOptions, String> {
        let file_audit = self
            .policies
            .current()
            .ok()
            .and_then(|version| version.file.audit.clone())
            .unwrap_or_default();
        let sink = match (&self.config.audit_sink, &file_audit.sink) {
            (Some(kind), _) => Some(kind.clone()),
            (None, Some(text)) => Some(text.parse::<crate::audit::SinkKind>().map_err(|why| {
                format!(
                    "audit.sink in {}: {why}",
                    self.config.approvals_path.display()
                )
            })?),
            (None, None) => None,
        };
        if let Some(kind) = &sink {
            tracing::info!(sink = ?kind, "audit records also go to the sink");
        }
        Ok(crate::audit::LogOptions {
            rotate_bytes: file_audit
                .rotate_bytes
                .or(Some(crate::audit::DEFAULT_ROTATE_BYTES)),
            sink: sink.map(|kind| Arc::new(crate::audit::AuditSink::new(kind))),
        })
    }

    /// The policy alone, for OpenClaw's older prompt frame: whether `argv`
    /// in `cwd` runs without asking anyone. Any doubt (unusable file,
    /// missing cwd) is `false`.
    pub fn allowed_by_policy(
        &self,
        agent_id: Option<&str>,
        argv: &[String],
        cwd: Option<&str>,
    ) -> bool {
        let request = ExecRequest {
            command: argv.to_vec(),
            cwd: cwd.map(str::to_owned),
            agent_id: agent_id.map(str::to_owned),
            ..ExecRequest::default()
        };
        let Ok(agent_id) = agent_of(&request) else {
            return false;
        };
        let Ok(validated) = validate(&request, self.host.home.as_deref(), &self.base_env) else {
            return false;
        };
        let Ok(version) = self.policies.current() else {
            return false;
        };
        let compiled = version.compiled(&agent_id, &self.host);
        compiled
            .evaluate(&validated.argv, &validated.cwd, &validated.overrides)
            .decision
            == Verdict::Allow
    }

    /// Allow, deny or ask; an ask is answered by the approvers or, when
    /// nobody answers, by the ask fallback. Also says who decided.
    async fn decide(
        &self,
        evaluation: &Evaluation,
        compiled: &CompiledPolicy,
        request: &ExecRequest,
        cancelled: &CancellationToken,
    ) -> (Result<Runnable, HostRefusal>, Decider) {
        let refused = |not| HostRefusal::not_granted(not, evaluation.reason.as_ref());
        match evaluation.decision {
            Verdict::Allow => (
                evaluation.runnable(None).map_err(refused),
                Decider::policy(evaluation),
            ),
            Verdict::Deny => (
                evaluation.runnable(None).map_err(refused),
                Decider::of(DecidedBy::Policy),
            ),
            Verdict::Ask => {
                if let Some(answer) = self.relayed_answer(request) {
                    let decider = Decider {
                        by: DecidedBy::Human(GATEWAY_APPROVER.to_owned()),
                        approver: Some(GATEWAY_APPROVER.to_owned()),
                        approval_id: answer.approval_id.clone(),
                    };
                    return (
                        evaluation.runnable(Some(answer.decision)).map_err(refused),
                        decider,
                    );
                }
                let timeout = self
                    .approval_timeout
                    .unwrap_or(Duration::from_millis(compiled.policy().approval_timeout_ms));
                let asked = self.approvals.ask(evaluation, request, timeout);
                // The approvers time out on their own; the grace lets their
                // `TimedOut` (not a withdrawal) end the approval.
                let asked = tokio::select! {
                    asked = tokio::time::timeout(timeout + ASK_GRACE, asked) => {
                        asked.unwrap_or(Asked::Unanswered(NobodyAnswered::TimedOut))
                    }
                    () = cancelled.cancelled() => {
                        return (Err(HostRefusal::CancelledWhileAsking), Decider::of(DecidedBy::Policy));
                    }
                };
                let (answer, unanswered) = match asked {
                    Asked::Answered(answer) => (Some(answer), None),
                    Asked::Unanswered(why) => (None, Some(why)),
                    Asked::Withdrawn(why) => {
                        // Nobody decided: not a person's deny, and never the fallback.
                        let decider = Decider {
                            by: DecidedBy::Policy,
                            approver: match &why {
                                Withdrawn::ApproverFailed { approver, .. } => {
                                    Some(approver.clone())
                                }
                                Withdrawn::Cancelled(_) => None,
                            },
                            approval_id: None,
                        };
                        return (Err(HostRefusal::Withdrawn(why)), decider);
                    }
                };
                if answer.is_none()
                    && self.config.unanswered == Unanswered::ApprovalRequired
                    && request.approval_source.as_deref() != Some("ask-fallback")
                {
                    return (
                        Err(HostRefusal::ApprovalRequired(evaluation.reason.clone())),
                        Decider::of(DecidedBy::Policy),
                    );
                }
                let decider = match &answer {
                    Some(a) => Decider {
                        by: DecidedBy::human(&a.approver).unwrap_or(DecidedBy::Policy),
                        approver: Some(a.approver.clone()),
                        approval_id: a.approval_id.clone(),
                    },
                    None => Decider::of(DecidedBy::Fallback),
                };
                let refused = |not| match (refused(not), unanswered) {
                    (HostRefusal::NoAnswer { reason, code, .. }, Some(why)) => {
                        HostRefusal::NoAnswer { reason, code, why }
                    }
                    (other, _) => other,
                };
                (
                    evaluation
                        .runnable(answer.map(|a| a.decision))
                        .map_err(refused),
                    decider,
                )
            }
        }
    }

    /// Whether this host takes answers relayed from a gateway and the
    /// request says it carries one.
    fn takes_relayed_answers(&self, request: &ExecRequest) -> bool {
        self.config.gateway_approvals
            && request.approval_source.as_deref() == Some(GATEWAY_APPROVAL_SOURCE)
    }

    /// The gateway operators' answer a node host relays in the request,
    /// when this host accepts such answers (`gateway_approvals`) and the
    /// policy's `defaults.approvers`, if set, names `gateway`.
    fn relayed_answer(&self, request: &ExecRequest) -> Option<Answer> {
        if !self.takes_relayed_answers(request) {
            return None;
        }
        let decision = request.approval_decision?;
        match self.approver_identities() {
            Ok(None) => {}
            Ok(Some(names)) if names.iter().any(|n| n == GATEWAY_APPROVER) => {}
            Ok(Some(_)) | Err(_) => {
                tracing::warn!("defaults.approvers does not name gateway; ignoring its answer");
                return None;
            }
        }
        Some(Answer {
            decision: match decision {
                Decision::AllowOnce => ApprovalDecision::AllowOnce,
                Decision::AllowAlways => ApprovalDecision::AllowAlways,
                Decision::Deny => ApprovalDecision::Deny,
            },
            approver: GATEWAY_APPROVER.to_owned(),
            approval_id: request.run_id.clone(),
        })
    }

    /// Saves allowlist use (and allow-always entries) before anything runs;
    /// a failed write refuses the run (DESIGN.md section 3, step 6).
    async fn save_decision_state(
        &self,
        agent_id: &str,
        evaluation: &Evaluation,
        grant: Grant,
    ) -> Result<(), HostRefusal> {
        let Some(edit) = outcome::StateEdit::for_run(agent_id, evaluation, grant) else {
            return Ok(());
        };
        let now = Instant::now();
        let keys: Vec<(String, String)> = evaluation
            .matched_patterns()
            .iter()
            .map(|p| (agent_id.to_owned(), p.clone()))
            .collect();
        if !edit.persists() {
            let recorded = self.recorded_uses.lock().map(|recorded| {
                keys.iter().all(|k| {
                    recorded
                        .get(k)
                        .is_some_and(|at| now.duration_since(*at) < USE_RECORD_INTERVAL)
                })
            });
            if recorded.unwrap_or(false) {
                self.defer_use(edit);
                return Ok(());
            }
        }
        let store = self.policies.store().clone();
        let saved = tokio::task::spawn_blocking(move || {
            store.update(|file| {
                edit.apply(file);
                Ok(())
            })
        })
        .await;
        match saved {
            Ok(Ok(())) => {
                if let Ok(mut recorded) = self.recorded_uses.lock() {
                    if recorded.len() > 4096 {
                        recorded.clear();
                    }
                    recorded.extend(keys.into_iter().map(|k| (k, now)));
                }
                Ok(())
            }
            Ok(Err(error)) => {
                tracing::error!(%error, "cannot save approval state; refusing to run");
                Err(HostRefusal::StateNotSaved(Some(error.to_string())))
            }
            Err(error) => {
                tracing::error!(%error, "approval state writer failed; refusing to run");
                Err(HostRefusal::StateNotSaved(None))
            }
        }
    }
}

impl ExecHost {
    /// Queues a last-use record for one batched write shortly after; a
    /// failure is logged (the metadata is display only).
    fn defer_use(&self, edit: outcome::StateEdit) {
        let Ok(mut queue) = self.deferred_uses.lock() else {
            return;
        };
        queue.push(edit);
        if queue.len() > 1 {
            // A flush is already scheduled and will take this one too.
            return;
        }
        let queue = Arc::clone(&self.deferred_uses);
        let store = self.policies.store().clone();
        tokio::spawn(async move {
            tokio::time::sleep(USE_FLUSH_DELAY).await;
            let edits = match queue.lock() {
                Ok(mut q) => std::mem::take(&mut *q),
                Err(_) => return,
            };
            let written = tokio::task::spawn_blocking(move || {
                store.update(|file| {
                    for edit in edits {
                        edit.apply(file);
                    }
                    Ok(())
                })
            })
            .await;
            if !matches!(written, Ok(Ok(()))) {
                tracing::warn!("could not write batched last-use metadata");
            }
        });
    }
}

/// The agent a request names (trimmed), or `main` when it names none.
pub(crate) fn agent_named(request: &ExecRequest) -> &str {
    request
        .agent_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .unwrap_or(DEFAULT_AGENT)
}

/// The agent named by the request, or `main`; refuses ids no policy file could hold.
fn agent_of(request: &ExecRequest) -> Result<String, HostRefusal> {
    let agent = agent_named(request);
    if agent.len() > MAX_AGENT_ID_LEN || agent.chars().any(char::is_control) {
        return Err(HostRefusal::BadAgentId);
    }
    Ok(agent.to_owned())
}
