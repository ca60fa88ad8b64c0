//! `node-host run`: one `system.run`, forwarded to the UI bridge over its
//! socket or decided and run by the embedded exec host.
//!
//! Prints the command's stdout and stderr as its own and exits with the
//! command's status; a refusal prints `SYSTEM_RUN_DENIED: <reason>` (or the
//! error code and message) and exits 126, a timeout exits 124, a command
//! that cannot be started 127, a bridge that cannot be reached or refuses
//! our token 69, an unusable approvals file 66 (`ui_bridge::exit::Exit`);
//! each error but a plain refusal ends with a `hint:` line naming the file
//! or socket to check. With `--exec-host bridge` a missing bridge fails
//! closed.
//!
//! Unless `--quiet`, it says on stderr, one `node-host:` line each, what it
//! is doing that a user would otherwise guess at: the approvals file's load
//! warnings, a missing approvals file (the built-in policy then denies
//! everything), falling back to the embedded exec host because no bridge
//! answers, and which approval it waits for, where, and until when.
//!
//! The embedded exec host asks the person at the terminal when stdin and
//! stderr are both terminals (the prompt is drawn on stderr; stdout stays
//! the command's); otherwise nobody is asked and askFallback decides.
//! SIGTERM or SIGHUP while asking denies and restores the terminal.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use approvals_ipc::approvals::{ApprovalsStore, PathSource, ResolvedPath};
use approvals_ipc::ipc::{
    ErrorBody, ErrorCode, ExecPayload, ExecPending, ExecRequest, ExecResponse,
};
use approvals_ipc::policy::unicode::escape_for_display;
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

    /// Do not print the `node-host:` progress lines (waiting for approval,
    /// no bridge, no approvals file, load warnings) on stderr
    #[arg(long, short = 'q')]
    quiet: bool,

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
    let ran = runtime.block_on(run_async(args));
    drop(runtime);
    // The run's cgroup, kept for a next run this process will not make.
    ui_bridge::exec::contain::release();
    ran
}

async fn run_async(args: RunArgs) -> anyhow::Result<Exit> {
    let resolved = args.approvals.resolve()?;
    let approvals_path = resolved.path.clone();
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
    let progress = Progress { quiet: args.quiet };
    let file_exists = progress.file_state(&resolved);
    let bridge = BridgeTarget {
        approvals_path: &approvals_path,
        socket: args.socket.as_ref(),
    };
    let local = |request| {
        if !file_exists {
            progress.no_file(&resolved);
        }
        run_local(&approvals_path, request)
    };
    let mut waiting = |pending: &ExecPending, socket: &Path| {
        progress.waiting(pending, socket, &resolved);
    };
    let response = match args.exec_host {
        ExecHostChoice::Local => local(request).await,
        ExecHostChoice::Bridge => match bridge.exec_observed(&request, &mut waiting).await {
            Ok(r) => r,
            Err(err) => bridge_failed(&err),
        },
        ExecHostChoice::Auto => match bridge.exec_observed(&request, &mut waiting).await {
            Ok(r) => r,
            Err(BridgeError::NotRunning(why)) => {
                progress.line(&format!("{why}; the embedded exec host is used"));
                local(request).await
            }
            Err(err) => bridge_failed(&err),
        },
    };
    let hint = (!args.json)
        .then(|| hint(&response, &approvals_path, &bridge))
        .flatten();
    let exit = report(response, args.json)?;
    if let Some(hint) = hint {
        eprintln!("hint: {hint}");
    }
    Ok(exit)
}

/// The `node-host:` progress lines on stderr, unless `--quiet`.
#[derive(Debug, Clone, Copy)]
struct Progress {
    quiet: bool,
}

impl Progress {
    /// One line, prefixed so it is told apart from the command's stderr.
    fn line(&self, text: &str) {
        if !self.quiet {
            eprintln!("node-host: {text}");
        }
    }

    /// Prints the approvals file's load warnings; whether the file exists.
    /// A file that cannot be loaded is left to the exec host, which refuses
    /// and names the problem.
    fn file_state(&self, resolved: &ResolvedPath) -> bool {
        match ApprovalsStore::open(&resolved.path).load() {
            Ok(snapshot) => {
                for warning in &snapshot.warnings {
                    self.line(&format!("warning: {}: {warning}", resolved.path.display()));
                }
                snapshot.exists
            }
            Err(_) => true,
        }
    }

    /// Says that the built-in policy applies, and how to get a file.
    fn no_file(&self, resolved: &ResolvedPath) {
        self.line(&format!(
            "no approvals file at {} ({}), so the built-in policy (security=deny) denies everything; \
             create one by starting the bridge (./scripts/start, or `ui-bridge serve{}`), \
             or allow a program: `node-host approvals allow /usr/bin/git{}`",
            resolved.path.display(),
            resolved.source.why(),
            approvals_flag(resolved),
            approvals_flag(resolved),
        ));
    }

    /// Says which approval the request waits for, where, and until when.
    fn waiting(&self, pending: &ExecPending, socket: &Path, resolved: &ResolvedPath) {
        let now = unix_ms();
        let left_s = (pending.expires_at_ms.saturating_sub(now).max(0) + 999) / 1000;
        self.line(&format!(
            "waiting for approval {short} from the ui-bridge at {socket} until {until} UTC ({left_s} s); \
             answer there, or: ui-bridge approvals resolve {short} once|always|deny{flag}",
            short = escape_for_display(&pending.short_id),
            socket = socket.display(),
            until = clock_utc(pending.expires_at_ms),
            flag = approvals_flag(resolved),
        ));
    }
}

/// ` --approvals PATH` when the file was not found by the defaults, so a
/// command suggested to the user reads the same file.
fn approvals_flag(resolved: &ResolvedPath) -> String {
    match resolved.source {
        PathSource::Flag => format!(" --approvals {}", resolved.path.display()),
        _ => String::new(),
    }
}

/// `HH:MM:SS` of a Unix-ms instant, in UTC.
fn clock_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Now, in Unix milliseconds.
fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The refusal for a bridge that could not be used and no fallback applies.
fn bridge_failed(error: &BridgeError) -> ExecResponse {
    match error {
        BridgeError::File(why) => ExecResponse::Refused(
            ErrorBody::new(
                ErrorCode::Unavailable,
                format!("SYSTEM_RUN_DENIED: approvals file unusable: {why}"),
            )
            .with_reason(APPROVALS_FILE_UNUSABLE),
        ),
        other => other.unavailable(),
    }
}

/// The host's reason for an approvals file it cannot use.
const APPROVALS_FILE_UNUSABLE: &str = "approvals-file-unusable";
/// The reason of a bridge that cannot be reached.
const COMPANION_UNAVAILABLE: &str = "companion-unavailable";

/// The hint after an error: which file or socket to check, and how.
fn hint(response: &ExecResponse, approvals: &Path, bridge: &BridgeTarget<'_>) -> Option<String> {
    let ExecResponse::Refused(error) = response else {
        return None;
    };
    let socket = || {
        bridge
            .socket_path()
            .map_or_else(|| "its socket".to_owned(), |p| p.display().to_string())
    };
    let file = approvals.display();
    match error.reason.as_deref()? {
        APPROVALS_FILE_UNUSABLE => Some(format!(
            "fix {file} (`node-host explain -- true` re-checks it), or pass another file with --approvals"
        )),
        COMPANION_UNAVAILABLE => Some(format!(
            "start the bridge (./scripts/start, or `ui-bridge serve`) so it answers on {}, \
             or use --exec-host auto to fall back to the embedded exec host",
            socket()
        )),
        "hmac" => Some(format!(
            "the bridge at {} does not accept the token node-host read from {file} (socket.token): \
             the two use different approvals files; pass the bridge's file with --approvals \
             (or the same CLAWDBOT_STATE_DIR), or restart the bridge with this one",
            socket()
        )),
        "ttl" => Some(format!(
            "the bridge at {} finds the request's time too far from its clock, or the bridge \
             restarted meanwhile; check the clock, then retry",
            socket()
        )),
        "nonce" | "replay" => Some(format!(
            "the bridge at {} refused the request's nonce; retry",
            socket()
        )),
        _ => None,
    }
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
        ExecResponse::Refused(error) => match error.reason.as_deref() {
            // The host refused to look up a command it could not resolve.
            Some(NOT_FOUND) => Exit::NotFound,
            Some(APPROVALS_FILE_UNUSABLE) => Exit::FileError,
            Some(COMPANION_UNAVAILABLE) => Exit::Unreachable,
            // The bridge did not accept our signature: a token or clock
            // mismatch, not a decision about the command.
            Some("hmac" | "ttl" | "nonce" | "replay")
                if error.code == ErrorCode::InvalidRequest =>
            {
                Exit::Unreachable
            }
            _ => Exit::Refused,
        },
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
