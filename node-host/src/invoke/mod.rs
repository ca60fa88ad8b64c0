//! The node's commands: what a gateway may invoke on this machine, each
//! answered as OpenClaw's node host answers it (reference/openclaw.md
//! section 7), whatever carries the invoke (`crate::transport`).
//!
//! [`Node::invoke`] dispatches one command: `system.run.prepare`
//! ([`prepare`]) builds the plan a gateway approval is bound to;
//! `system.run` ([`run`]) checks such an approval against that plan and
//! hands the request to the exec host (the UI bridge or the embedded one);
//! `system.which` ([`which`]); `system.execApprovals.get/set`
//! ([`approvals_file`]). Anything else is `UNAVAILABLE`.

mod approvals_file;
mod error;
mod events;
mod exec;
mod params;
mod plan;
mod prepare;
mod run;
mod script;
mod which;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use ui_bridge::host::{ExecHost, ExecHostConfig, Unanswered};

pub use error::InvokeError;
pub use events::{EventSender, NodeEvent, Outgoing, STARTED_NOTICE_AFTER};
pub use exec::{BridgeError, BridgeTarget, ExecHostChoice};
pub use plan::PreparedPlans;

/// The commands a node declares in its `connect`, and answers.
pub const COMMANDS: &[&str] = &[
    "system.run",
    "system.run.prepare",
    "system.which",
    "system.execApprovals.get",
    "system.execApprovals.set",
];

/// How a node decides and runs what its gateway asks for.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    /// The approvals file whose policy applies.
    pub approvals_path: PathBuf,
    /// Which exec host runs `system.run`.
    pub exec_host: ExecHostChoice,
    /// The bridge socket, overriding the one the approvals file names.
    pub socket: Option<PathBuf>,
}

/// What one invoke produced, and the lifecycle events that go with it.
#[derive(Debug)]
pub struct Answer {
    /// A refusal's `exec.denied`: the gateway must have taken it before
    /// it gets `result`.
    pub before: Option<NodeEvent>,
    /// The payload of a success, or OpenClaw's error code and message.
    pub result: Result<Value, InvokeError>,
    /// A run's `exec.finished`, for the gateway after `result`.
    pub then: Option<NodeEvent>,
}

/// The node's command handlers; share it in an `Arc`.
pub struct Node {
    config: NodeConfig,
    /// The embedded exec host: runs commands with `--exec-host local` (and
    /// in `auto` when no bridge answers), and judges every
    /// `system.run.prepare`.
    host: ExecHost,
    plans: PreparedPlans,
    events: EventSender,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Node {
    /// A node for `config` that sends lifecycle events to `events`.
    pub fn new(config: NodeConfig, events: EventSender) -> Self {
        let host = ExecHost::new(ExecHostConfig {
            // This node checks a gateway approval against its own plan
            // before relaying it (run.rs); nothing else can set the source.
            gateway_approvals: true,
            unanswered: Unanswered::ApprovalRequired,
            ..ExecHostConfig::new(config.approvals_path.clone())
        });
        Node {
            config,
            host,
            plans: PreparedPlans::default(),
            events,
        }
    }

    /// Answers one invoke: the payload of a success, or OpenClaw's error
    /// code and message. `cancelled` (the gateway's `node.invoke.cancel`,
    /// or the node stopping) withdraws an ask and kills a running command.
    /// The answer's lifecycle events are queued as soon as it is ready; a
    /// transport uses [`Node::handle`] to send them in the gateway's order.
    pub async fn invoke(
        self: &Arc<Self>,
        command: &str,
        params: Value,
        cancelled: CancellationToken,
    ) -> Result<Value, InvokeError> {
        let answer = self.handle(command, params, cancelled).await;
        for event in answer.before.into_iter().chain(answer.then) {
            events::send(&self.events, Outgoing::Event(event));
        }
        answer.result
    }

    /// Answers one invoke as [`Node::invoke`] does, handing back the
    /// events that must reach the gateway before and after the result
    /// (see [`events`]' module head for why).
    pub async fn handle(
        self: &Arc<Self>,
        command: &str,
        params: Value,
        cancelled: CancellationToken,
    ) -> Answer {
        let result = match command {
            "system.run" => return run::system_run(self, params, cancelled).await,
            "system.run.prepare" => prepare::system_run_prepare(self, params),
            "system.which" => which::system_which(params),
            "system.execApprovals.get" => approvals_file::get(&self.config.approvals_path),
            "system.execApprovals.set" => approvals_file::set(&self.config.approvals_path, params),
            other => Err(InvokeError::unavailable(format!(
                "command not supported: {}",
                approvals_ipc::policy::unicode::escape_for_display(other)
            ))),
        };
        Answer {
            before: None,
            result,
            then: None,
        }
    }

    /// Waits until the embedded host's audit records are on disk.
    pub async fn flush_audit(&self) {
        self.host.flush_audit().await;
    }
}
