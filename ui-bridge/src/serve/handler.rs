//! The socket handler of `ui-bridge serve`: hands authenticated frames to
//! the exec host.
//!
//! It decides what an `exec` frame gets (the exec host's answer, or
//! `UNAVAILABLE` when the bridge is shutting down, which also kills the
//! run) and what OpenClaw's older `request` prompt frame gets: `allow-once`
//! only when the policy alone allows the command, `deny` otherwise, since
//! there is no person to ask yet. A `control` frame (list or answer
//! pending approvals) is applied to the bridge's broker by
//! [`crate::control::ops`], and refused `UNAVAILABLE` once the bridge is
//! shutting down. It refuses an `exec` over the rate per connection or
//! the quota per process (`super::limits`) before it is evaluated, and
//! nothing else itself: authentication happened
//! in `approvals_ipc::ipc` before any method is called (DESIGN.md
//! invariants 1 and 2). It holds the bridge's [`Broker`]: the exec host
//! asks people through it, and when the bridge shuts down every pending
//! approval is cancelled, which denies it.

use std::sync::Arc;

use approvals_ipc::ipc::{
    ControlRequest, Decision, ErrorBody, ErrorCode, ExecPayload, ExecRequest, Handler,
    PromptRequest, RequestContext,
};
use tokio_util::sync::CancellationToken;

use super::limits::Limits;
use crate::broker::Broker;
use crate::host::{ExecHost, HostRefusal};

/// Connects the socket server to one exec host.
#[derive(Debug)]
pub struct BridgeHandler {
    host: Arc<ExecHost>,
    /// The pending approvals every approver of this bridge (and the
    /// control API) answers.
    broker: Broker,
    /// Fires when the bridge begins shutting down.
    shutdown: CancellationToken,
    /// The rate per connection and quota per process on `exec` requests.
    limits: Limits,
}

impl BridgeHandler {
    /// A handler for `host` whose requests end when `shutdown` fires; when
    /// it fires, every approval pending in `broker` is cancelled (denied).
    pub fn new(host: Arc<ExecHost>, broker: Broker, shutdown: CancellationToken) -> Self {
        let (on_stop, stopping) = (broker.clone(), shutdown.clone());
        // Not tied to the handler's lifetime: the broker must close even if
        // the handler is dropped first. Outside a runtime, `serve` still
        // shuts the broker down itself.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                stopping.cancelled().await;
                on_stop.shutdown();
            });
        }
        BridgeHandler {
            host,
            broker,
            shutdown,
            limits: Limits::new(
                super::limits::DEFAULT_PER_CONNECTION,
                super::limits::DEFAULT_PER_PROCESS,
            ),
        }
    }

    /// The same handler with other request limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The broker whose approvals this bridge's approvers answer.
    pub fn broker(&self) -> &Broker {
        &self.broker
    }
}

impl Handler for BridgeHandler {
    async fn exec(
        &self,
        request: ExecRequest,
        ctx: RequestContext,
    ) -> Result<ExecPayload, ErrorBody> {
        tracing::debug!(id = %ctx.id, peer_pid = ?ctx.peer_pid, "exec request");
        // Before anything is evaluated or audited: a flood is refused at
        // the cost of a counter, not of a record each.
        self.limits
            .admit(ctx.connection, ctx.peer_pid, std::time::Instant::now())
            .map_err(super::limits::Limited::to_wire)?;
        let handled = crate::host::with_notices(
            ctx.notices.clone(),
            self.host.handle(request, ctx.cancelled.clone()),
        );
        tokio::select! {
            outcome = handled => outcome,
            // Dropping `handle` kills whatever it started.
            () = self.shutdown.cancelled() => Err(HostRefusal::ShuttingDown.to_wire()),
        }
    }

    async fn prompt(&self, request: PromptRequest, ctx: RequestContext) -> Decision {
        // The prompt carries shell text: evaluate it as the script of a
        // shell wrapper, so only text the analysis fully understands and
        // the policy allows is `allow-once`.
        let argv = vec![
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            request.command.clone(),
        ];
        let allowed = !request.command.trim().is_empty()
            && self.host.allowed_by_policy(
                request.agent_id.as_deref(),
                &argv,
                request.cwd.as_deref(),
            );
        let decision = if allowed {
            Decision::AllowOnce
        } else {
            Decision::Deny
        };
        tracing::info!(id = %ctx.id, command = %crate::exec::mask_command(&request.command, &[]), ?decision, "legacy prompt request answered by policy");
        decision
    }

    async fn control(
        &self,
        request: ControlRequest,
        ctx: RequestContext,
    ) -> Result<serde_json::Value, ErrorBody> {
        tracing::debug!(id = %ctx.id, op = request.op(), peer_pid = ?ctx.peer_pid, "control request");
        if self.shutdown.is_cancelled() {
            return Err(ErrorBody::new(
                ErrorCode::Unavailable,
                "the ui-bridge is shutting down; pending approvals were cancelled",
            )
            .with_reason("shutting-down"));
        }
        let identities = self.host.approver_identities()?;
        crate::control::apply_as(&self.broker, request, identities.as_deref())
    }
}
