//! `ui-bridge serve`: the approvals socket in front of the exec host.
//!
//! It decides where the socket lives (`--socket`, else `socket.path` from
//! the approvals file, `~` expanded, else beside the file), makes sure the
//! approvals file exists with a token, serves until SIGINT or SIGTERM, and
//! removes its socket on the way out. It refuses to start when the file is
//! malformed (it is never overwritten, invariant 6), when the socket's
//! directory is not private, or when another bridge answers on the socket.
//! The token is handed to the socket server and never logged or printed
//! (invariant 9).
//!
//! It also decides who may answer approvals (DESIGN.md section 7): the
//! terminal approver when stdin is a TTY, the command hook when
//! `--approver-command` or the policy's `defaults.approverCommand` names one
//! (the flag wins; a hook that cannot work is refused before the socket is
//! bound, see `hook::check`), and the web page when `--web` or
//! `defaults.web` names an address (the flag wins; see `crate::web`). All
//! run at once against one broker; the first answer wins. With no approver
//! at all, nobody is waited for and the ask fallback
//! decides at once. On shutdown every pending approval is denied and the
//! terminal is restored before `run` returns.
//!
//! Before any of that, [`restart_in_child_env`] re-executes the bridge
//! without the variables its children must not get (`SHELL`, `LD_*`,
//! `GIT_*` hooks, …; DESIGN.md section 8), so its children can inherit its
//! environment instead of having it rebuilt on every spawn.
//!
//! # Caveats
//!
//! The token is read once at start: after rotating it in the file, restart
//! the bridge. Policy edits, by contrast, apply to the next request.

mod activation;
mod handler;
mod limits;
mod socket;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::approvals::{ApprovalsError, PathSource, socket_path};
use approvals_ipc::ipc::{self, ServerConfig};
use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

use crate::approvers::hook::{self, HookConfig};
use crate::approvers::terminal::{self, Tty};
use crate::broker::Broker;
use crate::host::{BrokerApprovals, ExecHost, ExecHostConfig};

pub use activation::ActivationError;
pub use handler::BridgeHandler;
pub use limits::{Limited, Limits};
pub use socket::{BoundSocket, SOCKET_DIR_MODE, SOCKET_MODE, SocketError, bind};

/// How long the web page may take to finish its requests on shutdown.
const WEB_SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// What `serve` needs, resolved from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// The approvals file.
    pub approvals_path: PathBuf,
    /// Why it is that file (`--approvals`, a state directory variable, an
    /// existing home file, the default), said once at start so a user who
    /// expected another file knows what to change.
    pub approvals_source: PathSource,
    /// The socket path, overriding the file's `socket.path`.
    pub socket: Option<PathBuf>,
    /// Bound on one approval prompt, overriding the policy's `approvalTimeoutMs`.
    pub approval_timeout: Option<Duration>,
    /// The command hook, overriding the policy's `defaults.approverCommand`.
    pub approver_command: Option<String>,
    /// Whether an approval a `node-host serve` relays from its gateway's
    /// operators counts as an answer (off: only this bridge's approvers count).
    pub accept_gateway_approvals: bool,
    /// Where to serve the companion web page, overriding the policy's
    /// `defaults.web`; `None` with no `defaults.web` serves no page.
    pub web: Option<std::net::SocketAddr>,
    /// Where audit records also go, overriding the file's `audit.sink`.
    pub audit_sink: Option<crate::audit::SinkKind>,
}

/// Why `serve` could not start or stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The approvals file is unusable (and was left untouched).
    #[error(transparent)]
    Approvals(#[from] ApprovalsError),
    /// The file has no socket token even after `ensure` (cannot happen).
    #[error("approvals file {} has no socket token", .0.display())]
    NoToken(PathBuf),
    /// `socket.path` starts with `~` and there is no home directory.
    #[error("socket path {0} needs a home directory to expand `~`")]
    NoHome(String),
    /// The socket could not be set up.
    #[error(transparent)]
    Socket(#[from] SocketError),
    /// The web page could not start.
    #[error(transparent)]
    Web(#[from] crate::web::WebError),
    /// The page's address is taken (or not ours to take); says where the
    /// address came from, since `defaults.web` would fail the same way at
    /// every start.
    #[error(
        "cannot listen for the web page on {addr} (from {from}): {error}\nhint: stop what listens there, or pick a free address, e.g. --web 127.0.0.1:0"
    )]
    WebBind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// `--web`, or `defaults.web in FILE`.
        from: String,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// `defaults.web` is not an address.
    #[error("defaults.web in {} is {value:?}, not an address like 127.0.0.1:0\nhint: fix it, or pass --web ADDR", path.display())]
    WebAddress {
        /// The approvals file.
        path: PathBuf,
        /// What it says.
        value: String,
    },
    /// The file's `audit.sink` is not a sink we know.
    #[error("audit.sink in {}: {why}\nhint: use \"journald\" or \"syslog\" (optionally \"syslog:/path/to/socket\"), or remove it", path.display())]
    AuditSink {
        /// The approvals file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The approver hook cannot work; the bridge does not start.
    #[error("{source_of}: {error}")]
    Hook {
        /// What is wrong with it.
        error: hook::HookCheckError,
        /// Where it was configured: the flag, or the approvals file.
        source_of: String,
    },
    /// Signal handlers or the server failed.
    #[error("{op}: {source}")]
    Io {
        /// What failed.
        op: &'static str,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Re-executes this program in the environment its children get (this
/// one minus the blocklist) when that differs from its own, so every spawn
/// can pass the process environment on as it is (see `crate::exec::ChildEnv`)
/// instead of building it per child, which costs the bridge 10–20 µs a
/// request. Returns at once when the environment is already clean, and
/// with the error when re-executing failed (the caller carries on: its
/// children then get the filtered set built per spawn, which is as safe).
///
/// Call it before any thread starts: `exec` replaces the whole process.
pub fn restart_in_child_env() -> std::io::Result<()> {
    use std::os::unix::process::CommandExt as _;
    let env = crate::exec::ChildEnv::from_process();
    if env.inherits() {
        return Ok(());
    }
    let dropped: Vec<String> = std::env::vars_os()
        .map(|(key, _)| key.to_string_lossy().into_owned())
        .filter(|key| !env.vars().iter().any(|(kept, _)| kept == key))
        .collect();
    tracing::info!(
        dropped = %dropped.join(", "),
        "restarting without environment variables commands must not inherit"
    );
    let mut args = std::env::args_os();
    let mut command = std::process::Command::new(std::env::current_exe()?);
    if let Some(arg0) = args.next() {
        command.arg0(arg0);
    }
    Err(command
        .args(args)
        .env_clear()
        .envs(env.vars().iter().map(|(k, v)| (k, v)))
        .exec())
}

/// Serves until SIGINT, SIGTERM or SIGHUP; returns after the socket file is removed.
pub async fn run(options: ServeOptions) -> Result<(), ServeError> {
    let mut host = ExecHost::new(ExecHostConfig {
        gateway_approvals: options.accept_gateway_approvals,
        audit_sink: options.audit_sink.clone(),
        ..ExecHostConfig::new(options.approvals_path.clone())
    });
    // Creates the file if needed, checks who owns it and every directory
    // above it, and holds the directory from now on: a directory swapped in
    // later is refused, never served (issue 9, hole 7).
    let snapshot = host.approvals_store().ensure()?;
    for warning in &snapshot.warnings {
        tracing::warn!(file = %options.approvals_path.display(), %warning, "approvals file");
    }
    // An audit sink the file names but nobody understands refuses the
    // start here, rather than every request later.
    if options.audit_sink.is_none()
        && let Some(text) = snapshot.file.audit.as_ref().and_then(|a| a.sink.as_deref())
    {
        text.parse::<crate::audit::SinkKind>()
            .map_err(|why| ServeError::AuditSink {
                path: options.approvals_path.clone(),
                why,
            })?;
    }
    let socket_config = snapshot.file.socket.clone().unwrap_or_default();
    let token = socket_config
        .token
        .ok_or_else(|| ServeError::NoToken(options.approvals_path.clone()))?;
    let socket_path = match &options.socket {
        Some(path) => path.clone(),
        None => socket_path(
            socket_config.path.as_deref(),
            &options.approvals_path,
            std::env::home_dir().as_deref(),
        )
        .ok_or_else(|| ServeError::NoHome(socket_config.path.clone().unwrap_or_default()))?,
    };

    // Checked before the socket exists, so a bad value leaves nothing behind.
    let web_addr = match options.web {
        Some(addr) => Some(addr),
        None => web_from_policy(&snapshot.file, &options.approvals_path)?,
    };

    // A hook that cannot work is refused before anything is served.
    let hook_command = options.approver_command.clone().or_else(|| {
        snapshot
            .file
            .defaults
            .as_ref()
            .and_then(|defaults| defaults.approver_command.clone())
    });
    if let Some(command) = &hook_command {
        hook::check(command).map_err(|error| ServeError::Hook {
            error,
            source_of: if options.approver_command.is_some() {
                "--approver-command".to_owned()
            } else {
                format!(
                    "defaults.approverCommand in {}",
                    options.approvals_path.display()
                )
            },
        })?;
    }
    // The instance starts before its socket can be reached: a client that
    // connects the moment it is bound and signs at once signed after this.
    let started_ms = ipc::auth::wall_clock_ms();
    // Socket activation (systemd ListenStream=, or a wrapper) hands over a
    // listening socket; otherwise bind it here. Both go through the same
    // directory and mode checks.
    let (listener, bound) = match activation::inherited(&socket_path)? {
        Some(passed) => passed,
        None => socket::bind(&socket_path)?,
    };
    if let Some(timeout) = options.approval_timeout {
        host = host.with_approval_timeout(timeout);
    }
    let shutdown = CancellationToken::new();
    let broker = Broker::new();
    let tty = terminal_if_interactive();
    // Always ask through the broker: besides the terminal and the hook, the
    // control API (`ui-bridge approvals resolve`) can answer any approval.
    host = host.with_approvals(Arc::new(BrokerApprovals::new(broker.clone())));
    if tty.is_none() && hook_command.is_none() && web_addr.is_none() {
        tracing::info!(
            "no terminal and no approverCommand: asks wait for `ui-bridge approvals resolve` until approvalTimeoutMs, then askFallback decides"
        );
    }
    let mut approvers = tokio::task::JoinSet::new();
    if let Some(command) = hook_command {
        tracing::info!(%command, "command hook answers approvals");
        let stopped = shutdown.clone().cancelled_owned();
        approvers.spawn(hook::run(HookConfig::new(command), broker.clone(), stopped));
    }
    if let Some(tty) = tty {
        let stopped = shutdown.clone().cancelled_owned();
        approvers.spawn(terminal::run(broker.clone(), tty, stopped));
    }
    let host = Arc::new(host);
    let audit_config = snapshot.file.audit.clone().unwrap_or_default();
    let handler = Arc::new(
        BridgeHandler::new(Arc::clone(&host), broker.clone(), shutdown.clone()).with_limits(
            Limits::new(
                audit_config
                    .rate_per_connection
                    .unwrap_or(limits::DEFAULT_PER_CONNECTION),
                audit_config
                    .quota_per_process
                    .unwrap_or(limits::DEFAULT_PER_PROCESS),
            ),
        ),
    );
    let mut config = ServerConfig::new(token);
    config.started_ms = started_ms;
    let require_challenge = snapshot
        .file
        .socket
        .as_ref()
        .and_then(|socket| socket.require_challenge)
        .unwrap_or(false);
    if require_challenge {
        config.client_nonces = ipc::ClientNonces::Refuse;
        tracing::info!(
            "socket.requireChallenge: only nonces from this bridge's challenges are accepted"
        );
    }
    let web = match web_addr {
        Some(addr) => {
            let state = crate::web::WebState {
                broker: broker.clone(),
                store: host.approvals_store().clone(),
                audit_path: host.config().audit_path.clone(),
                shutdown: shutdown.clone(),
            };
            let started = match crate::web::start(addr, state).await {
                Ok(started) => started,
                Err(error) => {
                    bound.remove();
                    return Err(match error {
                        crate::web::WebError::Bind { addr, error } => ServeError::WebBind {
                            addr,
                            from: if options.web.is_some() {
                                "--web".to_owned()
                            } else {
                                format!("defaults.web in {}", options.approvals_path.display())
                            },
                            error,
                        },
                        other => other.into(),
                    });
                }
            };
            tracing::info!(addr = %started.addr, "web page ready");
            // Printed once, never logged: the URL carries the page's secret.
            eprintln!("ui-bridge: approvals page at {}", started.login_url);
            Some(started.task)
        }
        None => None,
    };
    let stop = stop_signal(shutdown.clone())?;

    // Said once, on the line below; the log has it at debug level.
    tracing::debug!(socket = %bound.path.display(), approvals = %options.approvals_path.display(), "ready");
    eprintln!(
        "ui-bridge: serving {} (approvals {}: {})",
        bound.path.display(),
        options.approvals_path.display(),
        options.approvals_source.why()
    );
    let served = ipc::serve(listener, config, handler, stop).await;
    shutdown.cancel();
    broker.shutdown();
    // The terminal approver restores the terminal on its way out.
    while approvers.join_next().await.is_some() {}
    if let Some(web) = web {
        // Event streams end on the shutdown token and requests in flight
        // finish first; a connection that does not is dropped, so the
        // page never keeps the bridge from stopping.
        if tokio::time::timeout(WEB_SHUTDOWN_GRACE, web).await.is_err() {
            tracing::warn!("the web page did not stop in time; dropping its connections");
        }
    }
    host.flush_audit().await;
    bound.remove();
    tracing::info!("stopped");
    served.map_err(|source| ServeError::Io {
        op: "serving",
        source,
    })
}

/// The page address the policy asks for (`defaults.web`), if any.
fn web_from_policy(
    file: &approvals_ipc::approvals::ApprovalsFile,
    path: &std::path::Path,
) -> Result<Option<std::net::SocketAddr>, ServeError> {
    // Kept among the fields the model does not name (`extra`), which the
    // store preserves on every save.
    let Some(value) = file.defaults.as_ref().and_then(|d| d.extra.get("web")) else {
        return Ok(None);
    };
    let value = match value {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    value
        .trim()
        .parse()
        .map(Some)
        .map_err(|_| ServeError::WebAddress {
            path: path.to_owned(),
            value,
        })
}

/// The terminal approver's terminal when stdin is one; `None` otherwise.
fn terminal_if_interactive() -> Option<Tty> {
    if !std::io::stdin().is_terminal() {
        return None;
    }
    match Tty::open() {
        Ok(tty) => Some(tty),
        Err(error) => {
            tracing::warn!(%error, "no terminal approver");
            None
        }
    }
}

/// Completes on SIGINT, SIGTERM or SIGHUP (the terminal went away: the
/// same clean shutdown, socket removed), after telling in-flight requests
/// to stop.
fn stop_signal(
    shutdown: CancellationToken,
) -> Result<impl std::future::Future<Output = ()>, ServeError> {
    let io = |source| ServeError::Io {
        op: "installing signal handlers",
        source,
    };
    let mut interrupt = signal(SignalKind::interrupt()).map_err(io)?;
    let mut terminate = signal(SignalKind::terminate()).map_err(io)?;
    let mut hangup = signal(SignalKind::hangup()).map_err(io)?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => tracing::info!("SIGINT: shutting down"),
            _ = terminate.recv() => tracing::info!("SIGTERM: shutting down"),
            _ = hangup.recv() => tracing::info!("SIGHUP: shutting down"),
        }
        shutdown.cancel();
    })
}
