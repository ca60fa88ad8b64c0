//! `node-host serve`: this machine as a node of an OpenClaw gateway.
//!
//! Joins the gateway (`crate::transport::gateway`: signed handshake,
//! pairing, reconnects), answers each invoke with `crate::invoke` in a task
//! of its own (several run at once), sends results and lifecycle events
//! through one ordered queue (a run's `exec.finished` after its result), and on
//! `node.invoke.cancel` kills that invoke's processes. Runs in the
//! foreground until SIGINT or SIGTERM, logging to stderr (`RUST_LOG`);
//! stopping cancels every running invoke, which kills its processes.
//!
//! It refuses to start, naming the file and the command that fixes it, on a
//! token file that is missing, unreadable or empty, an approvals file that
//! cannot be used, or a state directory it cannot keep private; it starts
//! with a warning when there is no approvals file (everything is then
//! denied) or no credential at all (a gateway with token auth will refuse).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use tokio::signal::unix::{SignalKind, signal};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use ui_bridge::exit::{Exit, Failure};

use approvals_ipc::approvals::{ApprovalsStore, ResolvedPath};

use super::ApprovalsArg;
use super::identity::default_state_dir;
use crate::invoke::{COMMANDS, EventSender, ExecHostChoice, Node, NodeConfig, Outgoing};
use crate::transport::gateway::{
    Gateway, GatewayError, GatewayOptions, Inbound, Invoke, Outbox, TOKEN_FILE, WireError,
};

/// How long stopping waits for cancelled invokes to answer.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Flags of `node-host serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The gateway: ws://127.0.0.1:PORT (plain ws only to loopback unless
    /// --insecure) or wss://HOST:PORT
    #[arg(long, value_name = "URL")]
    gateway: String,

    /// A file holding the gateway's shared token (first line; keep it
    /// 0600). Needed for the first connect; later ones use the device
    /// token the gateway issued, saved in the state directory
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,

    /// The name the gateway's operators see [default: this host's name]
    #[arg(long, value_name = "NAME")]
    display_name: Option<String>,

    /// Which exec host decides and runs system.run: the UI bridge when one
    /// answers (auto), only the bridge (bridge), or this process (local)
    #[arg(long, value_enum, default_value = "auto")]
    exec_host: ExecHostChoice,

    #[command(flatten)]
    approvals: ApprovalsArg,

    /// The bridge socket [default: socket.path from the approvals file]
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,

    /// Where the device identity and tokens live [default:
    /// $CLAWDBOT_STATE_DIR/node, else ~/.clawdbot/node]
    #[arg(long, value_name = "DIR")]
    state_dir: Option<PathBuf>,

    /// Allow plain ws:// to a host that is not loopback: anyone on the
    /// path can read and change what the gateway sends
    #[arg(long)]
    insecure: bool,

    /// Trust a wss:// gateway by the sha256 of its certificate (hex)
    /// instead of the system's roots
    #[arg(long, value_name = "SHA256")]
    tls_fingerprint: Option<String>,
}

/// Runs `node-host serve`.
pub fn run(args: ServeArgs) -> anyhow::Result<Exit> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Failure::internal(format!("cannot start the async runtime: {error}")))?;
    let served = runtime.block_on(serve(args));
    // Runs still going were dropped with the runtime; their processes are
    // dead. What containment kept for later runs goes now.
    drop(runtime);
    ui_bridge::exec::contain::release();
    served
}

async fn serve(args: ServeArgs) -> anyhow::Result<Exit> {
    let resolved = args.approvals.resolve()?;
    let approvals_path = resolved.path.clone();
    check_approvals_file(&resolved)?;
    let state_dir = match args.state_dir {
        Some(dir) => dir,
        None => default_state_dir()?,
    };
    let token = match &args.token_file {
        Some(file) => Some(read_token(file, &state_dir)?),
        None => None,
    };
    let display_name = args.display_name.unwrap_or_else(host_name);
    let (gateway, outbox, mut inbound) = Gateway::new(GatewayOptions {
        url: args.gateway.clone(),
        token,
        display_name,
        state_dir: state_dir.clone(),
        insecure: args.insecure,
        tls_pin: args.tls_fingerprint,
        caps: vec!["system".to_owned()],
        commands: COMMANDS.iter().map(|c| (*c).to_owned()).collect(),
    })
    .map_err(|error| gateway_failure(&error, &state_dir))?;
    if let Some(saved) = gateway.missing_credentials() {
        // A gateway without token auth (loopback, `auth.mode: none`) takes
        // the node as is, so this is said, not refused.
        tracing::warn!(
            "no gateway token: --token-file was not given and {} holds no device token for {}, \
             so a gateway that requires its token will refuse this node; \
             hint: {}",
            saved.display(),
            args.gateway,
            create_token_hint(&default_token_file(&state_dir)),
        );
    }
    let (events_tx, mut events_rx) = tokio::sync::mpsc::unbounded_channel();
    let node = Arc::new(Node::new(
        NodeConfig {
            approvals_path: approvals_path.clone(),
            exec_host: args.exec_host,
            socket: args.socket,
        },
        events_tx.clone(),
    ));
    tracing::info!(
        node = outbox.node_id(),
        gateway = %args.gateway,
        approvals = %approvals_path.display(),
        exec_host = ?args.exec_host,
        "node-host serving"
    );
    let shutdown = CancellationToken::new();
    let client = tokio::spawn(gateway.run(shutdown.clone()));
    let pump = {
        let outbox = outbox.clone();
        tokio::spawn(async move {
            while let Some(item) = events_rx.recv().await {
                pump_one(&outbox, item).await;
            }
        })
    };
    let running: Running = Arc::default();
    let mut tasks = JoinSet::new();
    let mut term = signal(SignalKind::terminate()).context("cannot watch SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot watch SIGINT")?;
    loop {
        tokio::select! {
            message = inbound.recv() => match message {
                Some(Inbound::Invoke(invoke)) => {
                    let cancel = shutdown.child_token();
                    if let Ok(mut map) = running.lock() {
                        map.insert(invoke.id.clone(), cancel.clone());
                    }
                    tasks.spawn(answer(Arc::clone(&node), events_tx.clone(), invoke, cancel, Arc::clone(&running)));
                }
                Some(Inbound::Cancel { invoke_id }) => {
                    let found = running.lock().ok().and_then(|map| map.get(&invoke_id).cloned());
                    match found {
                        Some(cancel) => {
                            tracing::info!(invoke = %invoke_id, "cancelled by the gateway");
                            cancel.cancel();
                        }
                        None => tracing::debug!(invoke = %invoke_id, "cancel for an invoke that is not running"),
                    }
                }
                None => break,
            },
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            _ = term.recv() => { tracing::info!("SIGTERM: stopping"); break; }
            _ = int.recv() => { tracing::info!("SIGINT: stopping"); break; }
        }
    }
    // Cancels every running invoke (killing its processes) and the client.
    shutdown.cancel();
    let _ = tokio::time::timeout(STOP_GRACE, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    node.flush_audit().await;
    pump.abort();
    match client.await {
        Ok(Ok(())) => Ok(Exit::Success),
        Ok(Err(error)) => Err(anyhow::Error::new(error).context("gateway client failed")),
        Err(error) => Err(Failure::internal(format!("gateway client panicked: {error}")).into()),
    }
}

/// The invokes running, by id, for `node.invoke.cancel`.
type Running = Arc<Mutex<HashMap<String, CancellationToken>>>;

/// Answers one invoke: queues its result, and the run's `exec.finished`
/// behind it, for the pump.
async fn answer(
    node: Arc<Node>,
    events: EventSender,
    invoke: Invoke,
    cancel: CancellationToken,
    running: Running,
) {
    let answer = node.handle(&invoke.command, invoke.params, cancel).await;
    if let Err(error) = &answer.result {
        tracing::info!(invoke = %invoke.id, command = %invoke.command, code = %error.code, "{}", error.message);
    }
    if events
        .send(Outgoing::Result {
            invoke_id: invoke.id.clone(),
            before: answer.before,
            result: answer.result,
            then: answer.then,
        })
        .is_err()
    {
        tracing::debug!(invoke = %invoke.id, "stopping; the result is not sent");
    }
    if let Ok(mut map) = running.lock() {
        map.remove(&invoke.id);
    }
}

/// Why `serve` reads a token file, for the messages that name one.
const TOKEN_NEEDED: &str = "the gateway's shared token (gateway.auth.token in the gateway's \
    openclaw.json, or OPENCLAW_GATEWAY_TOKEN on the gateway host) is needed for the first \
    connect; later connects use the device token the gateway issues";

/// Sends one queued item to the gateway, in queue order. An answer with
/// an event before it is sent by a task of its own, since its result must
/// wait for the gateway to acknowledge that event, and other invokes' items
/// must not.
async fn pump_one(outbox: &Outbox, item: Outgoing) {
    match item {
        Outgoing::Event(event) => outbox.event(event.event, event.payload).await,
        Outgoing::Result {
            invoke_id,
            before: None,
            result,
            then,
        } => send_result(outbox, &invoke_id, result, then).await,
        Outgoing::Result {
            invoke_id,
            before: Some(event),
            result,
            then,
        } => {
            let outbox = outbox.clone();
            tokio::spawn(async move {
                outbox.event_acknowledged(event.event, event.payload).await;
                send_result(&outbox, &invoke_id, result, then).await;
            });
        }
    }
}

/// `node.invoke.result`, then the event that follows it.
async fn send_result(
    outbox: &Outbox,
    invoke_id: &str,
    result: Result<serde_json::Value, crate::invoke::InvokeError>,
    then: Option<crate::invoke::NodeEvent>,
) {
    let result = result.map_err(|error| WireError {
        code: error.code,
        message: error.message,
    });
    outbox.result(invoke_id, result).await;
    if let Some(event) = then {
        outbox.event(event.event, event.payload).await;
    }
}

/// The token in `file`: its first line, trimmed. A file others can read
/// is used, with a warning; a missing, unreadable or empty one is refused
/// with the command that creates it.
pub(super) fn read_token(file: &Path, state_dir: &Path) -> anyhow::Result<String> {
    use std::os::unix::fs::PermissionsExt as _;
    let text = std::fs::read_to_string(file).map_err(|error| {
        let shown = file.display();
        let (problem, hint) = if error.kind() == std::io::ErrorKind::NotFound {
            (
                format!("no gateway token file at {shown} (--token-file)"),
                create_token_hint(file),
            )
        } else {
            (
                format!("cannot read the gateway token file {shown} (--token-file): {error}"),
                format!("make it a file this user can read: chown \"$USER\" {shown} && chmod 600 {shown}"),
            )
        };
        Failure::file(format!(
            "{problem}: {TOKEN_NEEDED} (saved in {})\nhint: {hint}",
            state_dir.join(TOKEN_FILE).display(),
        ))
    })?;
    if let Ok(meta) = std::fs::metadata(file)
        && meta.permissions().mode() & 0o077 != 0
    {
        tracing::warn!(
            "the gateway token file {} can be read by others; hint: chmod 600 {}",
            file.display(),
            file.display()
        );
    }
    let token = text.lines().next().unwrap_or_default().trim().to_owned();
    if token.is_empty() {
        return Err(Failure::file(format!(
            "the gateway token file {} (--token-file) is empty: {TOKEN_NEEDED}\nhint: {}",
            file.display(),
            create_token_hint(file)
        ))
        .into());
    }
    Ok(token)
}

/// Where the docs and `service install` examples keep the gateway token:
/// beside the approvals file, in the state directory's parent.
fn default_token_file(state_dir: &Path) -> PathBuf {
    state_dir
        .parent()
        .unwrap_or(state_dir)
        .join("gateway.token")
}

/// The commands that create a private token file at `file` and pass it,
/// quoted for a shell. On a fresh machine the directory (`~/.clawdbot`
/// before any bridge ran) does not exist yet, and `install -m 600` alone
/// would fail, so the hint first creates it private; an existing directory
/// is left as it is (its mode is not the hint's to change).
fn create_token_hint(file: &Path) -> String {
    let quoted = ui_bridge::service::shell_quote(&file.display().to_string());
    let make_dir = file
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty() && !dir.exists())
        .map(|dir| {
            format!(
                "install -d -m 700 {} && ",
                ui_bridge::service::shell_quote(&dir.display().to_string())
            )
        })
        .unwrap_or_default();
    format!(
        "{make_dir}install -m 600 /dev/null {quoted} && printf '%s\\n' \"$TOKEN\" > {quoted}, \
         then pass --token-file {quoted}"
    )
}

/// The exit a gateway client that cannot start stands for, with its
/// message: a URL or pin the user gave is a usage error, a state file a
/// file error, anything else internal.
fn gateway_failure(error: &GatewayError, state_dir: &Path) -> Failure {
    let message = error.to_string();
    match error {
        GatewayError::BadUrl { .. }
        | GatewayError::PlaintextOffLoopback { .. }
        | GatewayError::BadPin { .. } => Failure::usage(message),
        GatewayError::Io { path, .. } => Failure::file(format!(
            "{message}\nhint: the node keeps its identity and tokens in {}; make it a directory \
             you own (chmod 700 {}), or pass --state-dir DIR",
            state_dir.display(),
            path.display()
        )),
        GatewayError::Unsafe { .. } | GatewayError::BadStateFile { .. } => Failure::file(message),
        GatewayError::Random(_) | GatewayError::Tls(_) => Failure::internal(message),
    }
}

/// Refuses to start on an approvals file that cannot be used (every
/// request would be refused, silently for a service), warns when there is
/// none (the built-in policy then denies everything), and logs the file's
/// load warnings.
fn check_approvals_file(resolved: &ResolvedPath) -> anyhow::Result<()> {
    let path = &resolved.path;
    let snapshot = ApprovalsStore::open(path).load()?;
    if !snapshot.exists {
        tracing::warn!(
            "no approvals file at {} ({}), so the built-in policy (security=deny) denies every \
             command; hint: allow a program with `node-host approvals allow /usr/bin/git --approvals {}`, \
             or start `ui-bridge serve --approvals {}` once, which writes a safe default",
            path.display(),
            resolved.source.why(),
            path.display(),
            path.display()
        );
    }
    for warning in &snapshot.warnings {
        tracing::warn!("approvals file {}: {warning}", path.display());
    }
    Ok(())
}

/// This machine's name, for operators.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "node-host".to_owned())
}
