//! `node-host run`: one `system.run`, forwarded to the UI bridge over its
//! socket or decided and run by the embedded exec host.
//!
//! Prints the command's stdout and stderr as its own and exits with the
//! command's status; a refusal prints `SYSTEM_RUN_DENIED: <reason>` (or the
//! error code and message) and exits 126, a timeout exits 124, a command
//! that cannot be started 127 (`ui_bridge::exit::Exit`). With
//! `--exec-host bridge` a missing bridge fails closed.
//!
//! The embedded exec host asks the person at the terminal when stdin and
//! stderr are both terminals (the prompt is drawn on stderr; stdout stays
//! the command's); otherwise nobody is asked and askFallback decides.
//! SIGTERM or SIGHUP while asking denies and restores the terminal.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use approvals_ipc::ipc::{ErrorBody, ErrorCode, ExecPayload, ExecRequest, ExecResponse};
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio_util::sync::CancellationToken;
use ui_bridge::approvers::terminal::{self, Tty};
use ui_bridge::broker::Broker;
use ui_bridge::exit::{Exit, Failure};
use ui_bridge::host::{BrokerApprovals, ExecHost, ExecHostConfig, NOT_FOUND};

use super::ApprovalsArg;
use crate::invoke::{BridgeError, BridgeTarget, ExecHostChoice};

/// Arguments of `node-host run`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["argv", "shell"]))]
pub struct RunArgs {
    #[command(flatten)]
    approvals: ApprovalsArg,

    /// The bridge socket [default: socket.path from the approvals file, else
    /// exec-approvals.sock beside it]
    #[arg(long, value_name = "PATH")]
    socket: Option<PathBuf>,

    /// Which exec host decides and runs the command
    #[arg(long, value_enum, default_value = "auto")]
    exec_host: ExecHostChoice,

    /// The agent whose policy applies
    #[arg(long, value_name = "ID", default_value = "main")]
    agent: String,

    /// The session the request belongs to (shown to approvers, audited)
    #[arg(long, value_name = "KEY")]
    session: Option<String>,

    /// The working directory [default: the current one]
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,

    /// An environment override for the command (repeatable); PATH and
    /// loader or interpreter hooks are refused
    #[arg(long = "env", value_name = "K=V", value_parser = parse_env)]
    env: Vec<(String, String)>,

    /// Kill the command (and everything it started) after this many ms
    #[arg(long, value_name = "N")]
    timeout_ms: Option<u64>,

    /// Print the exec-res payload (or error) as JSON instead of the output
    #[arg(long)]
    json: bool,

    /// Run a shell script: the same as `-- /bin/sh -c SCRIPT`
    #[arg(long, value_name = "SCRIPT", conflicts_with = "argv")]
    shell: Option<String>,

    /// The command to run, after `--`
    #[arg(last = true, value_name = "ARGV")]
    argv: Vec<String>,
}

fn parse_env(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_owned(), v.to_owned())),
        _ => Err(format!("expected K=V, found {text:?}")),
    }
}

/// Runs `node-host run`.
pub fn run(args: RunArgs) -> anyhow::Result<Exit> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| Failure::internal(format!("cannot start the async runtime: {error}")))?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: RunArgs) -> anyhow::Result<Exit> {
    let approvals_path = args.approvals.path()?;
    let command = match &args.shell {
        Some(script) => vec!["/bin/sh".to_owned(), "-c".to_owned(), script.clone()],
        None => args.argv.clone(),
    };
    if command.is_empty() || command[0].is_empty() {
        return Err(Failure::usage("no command to run\nhint: node-host run -- git status").into());
    }
    let cwd = match &args.cwd {
        Some(dir) if dir.is_absolute() => dir.clone(),
        Some(dir) => std::env::current_dir()?.join(dir),
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let env: BTreeMap<String, String> = args.env.iter().cloned().collect();
    let request = ExecRequest {
        command,
        cwd: Some(cwd.to_string_lossy().into_owned()),
        env: (!env.is_empty()).then_some(env),
        timeout_ms: args.timeout_ms,
        agent_id: Some(args.agent.clone()),
        session_key: args.session.clone(),
        ..ExecRequest::default()
    };
    let bridge = BridgeTarget {
        approvals_path: &approvals_path,
        socket: args.socket.as_ref(),
    };
    let response = match args.exec_host {
        ExecHostChoice::Local => run_local(&approvals_path, request).await,
        ExecHostChoice::Bridge => match bridge.exec(&request).await {
            Ok(r) => r,
            Err(err) => err.unavailable(),
        },
        ExecHostChoice::Auto => match bridge.exec(&request).await {
            Ok(r) => r,
            Err(BridgeError::NotRunning(why)) => {
                tracing::info!("no ui-bridge answers ({why}); using the embedded exec host");
                run_local(&approvals_path, request).await
            }
            Err(err) => err.unavailable(),
        },
    };
    report(response, args.json)
}

async fn run_local(approvals_path: &Path, request: ExecRequest) -> ExecResponse {
    let host = ExecHost::new(ExecHostConfig::new(approvals_path.to_owned()));
    // Watched before anything runs: a stop signal must end the run (and
    // kill its processes), not kill node-host and strand them.
    let mut signals = StopSignals::install();
    let Some(tty) = interactive_terminal() else {
        let response = tokio::select! {
            outcome = host.handle(request, CancellationToken::new()) => respond(outcome),
            // Dropping `handle` kills whatever it started.
            why = signals.recv() => stopped_by(why),
        };
        host.flush_audit().await;
        return response;
    };
    let broker = Broker::new();
    let host = host.with_approvals(std::sync::Arc::new(BrokerApprovals::new(broker.clone())));
    let stop = CancellationToken::new();
    let approver = tokio::spawn(terminal::run(
        broker.clone(),
        tty,
        stop.clone().cancelled_owned(),
    ));
    let cancelled = CancellationToken::new();
    let response = tokio::select! {
        outcome = host.handle(request, cancelled.clone()) => respond(outcome),
        why = signals.recv() => {
            // Denies a pending approval and kills a running command.
            cancelled.cancel();
            stopped_by(why)
        }
    };
    host.flush_audit().await;
    broker.shutdown();
    stop.cancel();
    // The approver restores the terminal before the command's output prints.
    if let Err(error) = approver.await {
        tracing::error!(%error, "terminal approver failed");
    }
    response
}

/// The terminal to ask on, when stdin and stderr are both terminals.
fn interactive_terminal() -> Option<Tty> {
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return None;
    }
    match Tty::open() {
        Ok(tty) => Some(tty),
        Err(error) => {
            tracing::warn!(%error, "cannot prompt on the terminal; askFallback decides");
            None
        }
    }
}

/// The refusal of a local run that a signal stopped.
fn stopped_by(why: &str) -> ExecResponse {
    ExecResponse::Refused(
        ErrorBody::new(
            ErrorCode::Unavailable,
            format!("SYSTEM_RUN_DENIED: node-host stopped by {why}"),
        )
        .with_reason("cancelled"),
    )
}

/// SIGTERM, SIGHUP and SIGINT, watched so that they stop a local run
/// (whose processes, in sessions of their own, do not get the terminal's
/// SIGINT) instead of killing node-host.
struct StopSignals(Option<[Signal; 3]>);

impl StopSignals {
    /// Installs the handlers; without them a stop signal kills node-host
    /// as before, and the run's processes are stranded.
    fn install() -> Self {
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(term), Ok(hup), Ok(int)) => Self(Some([term, hup, int])),
            _ => {
                tracing::warn!(
                    "cannot watch SIGTERM/SIGHUP/SIGINT; if killed, the terminal may stay raw and the run's processes may outlive it"
                );
                Self(None)
            }
        }
    }

    /// Completes with the first signal's name; never, without handlers.
    async fn recv(&mut self) -> &'static str {
        let Some([term, hup, int]) = &mut self.0 else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = hup.recv() => "SIGHUP",
            _ = int.recv() => "SIGINT",
        }
    }
}

fn respond(outcome: Result<ExecPayload, ErrorBody>) -> ExecResponse {
    match outcome {
        Ok(payload) => ExecResponse::Completed(payload),
        Err(body) => ExecResponse::Refused(body),
    }
}

fn report(response: ExecResponse, json: bool) -> anyhow::Result<Exit> {
    let code = exit_code(&response);
    if json {
        let value = match &response {
            ExecResponse::Completed(payload) => serde_json::json!({"ok": true, "payload": payload}),
            ExecResponse::Refused(error) => serde_json::json!({"ok": false, "error": error}),
        };
        let mut out = std::io::stdout().lock();
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
        return Ok(code);
    }
    match &response {
        ExecResponse::Completed(payload) => write_output(payload)?,
        ExecResponse::Refused(error) => {
            // A refusal of the run (`UNAVAILABLE`) carries its own
            // `SYSTEM_RUN_DENIED: …` text; other errors are named by code.
            let message = if error.code == ErrorCode::Unavailable {
                error.message.clone()
            } else {
                format!("{}: {}", json_word(&error.code), error.message)
            };
            eprintln!("{message}");
        }
    }
    Ok(code)
}

fn write_output(payload: &ExecPayload) -> std::io::Result<()> {
    std::io::stdout()
        .lock()
        .write_all(payload.stdout.as_bytes())?;
    let mut err = std::io::stderr().lock();
    err.write_all(payload.stderr.as_bytes())?;
    if payload.truncated {
        writeln!(err, "node-host: output truncated at the exec host's cap")?;
    }
    if payload.timed_out {
        writeln!(err, "node-host: the command timed out and was killed")?;
    }
    if let Some(error) = &payload.error {
        writeln!(err, "node-host: {error}")?;
    }
    Ok(())
}

/// How `node-host run` ends for a response: the command's own status when
/// it ran to an end, else the shared code for what happened instead.
fn exit_code(response: &ExecResponse) -> Exit {
    match response {
        // The host refused to look up a command it could not resolve.
        ExecResponse::Refused(error) if error.reason.as_deref() == Some(NOT_FOUND) => {
            Exit::NotFound
        }
        ExecResponse::Refused(_) => Exit::Refused,
        ExecResponse::Completed(p) if p.timed_out => Exit::TimedOut,
        ExecResponse::Completed(p) => match p.exit_code {
            // A status outside 0..=255 cannot come from a Unix process;
            // report it as the generic failure rather than truncate it.
            Some(code) => Exit::Command(u8::try_from(code).unwrap_or(1)),
            None if p.error.is_some() => Exit::NotFound,
            None => Exit::Signalled,
        },
    }
}

fn json_word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".to_owned(),
    }
}
