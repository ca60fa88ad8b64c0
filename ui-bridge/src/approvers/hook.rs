//! The command hook: a program the user configured answers approvals.
//!
//! For every pending approval it runs `/bin/sh -c COMMAND` (the user's own
//! configuration, so a shell is expected here) in a new session of its own
//! (so with no controlling terminal: it cannot type into or draw over the
//! terminal approver) inside its own run containment, writes the approval as
//! one JSON line on stdin, and reads the first non-empty stdout line as the
//! answer: `allow-once`, `allow-always`, `deny` or an alias ([`ALIASES`]),
//! or a one-line JSON object `{"decision": "…"}`. The answer counts only
//! when the hook exits 0.
//!
//! A broken hook answers nothing: a hook that cannot start, exits non-zero,
//! prints nothing, prints anything else, or gives a decision the approval
//! does not offer (say `allow-always` under `ask: always`) is reported to the
//! broker as failed (`hook-failed`, logged with the cause). It never beats
//! the person at the terminal: while the terminal approver is attached the
//! approval stays for it (and for the timeout); with nobody else to answer,
//! the approval ends as failed and the request is denied, never as "user
//! denied" and never through `askFallback`. A hook that cannot answer
//! correctly does not get a second try at allowing. [`check`] refuses, at
//! start, a hook whose program does not exist or whose text `sh` cannot
//! parse. A hook that does
//! not finish within its timeout is killed, with every process it started,
//! and resolves nothing: the approval stays for other approvers or for the
//! broker's timeout (then `askFallback`). A hook still running when the
//! approval is answered elsewhere is killed. When the hook ends, whatever it
//! left running dies too, even a process that left its session
//! ([`crate::exec::contain`]); a hook whose containment cannot be set up is
//! not started, and the approval is denied. Upholds DESIGN.md section 7
//! (first valid answer wins) and invariant 8 (no process outlives its run).
//!
//! # Caveats
//!
//! The hook inherits the bridge's environment, since desktop notifiers need
//! it (`DISPLAY`, `DBUS_SESSION_BUS_ADDRESS`); under `ui-bridge serve` that
//! environment no longer holds the variables commands never get (`SHELL`,
//! `LD_*`, …), since the bridge restarts itself without them.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::ipc::Decision;
use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::oneshot;
use tokio::sync::oneshot::error::TryRecvError;
use tokio::task::JoinSet;

use crate::broker::{Broker, BrokerEvent, PendingApproval, ResolveError, decision_word};
use crate::exec::contain::{ContainError, Scope};

mod check;

pub use check::{HookCheckError, check};

/// How long a hook may take when the configuration does not say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How much of the hook's stdout is kept; the rest is read and dropped.
pub const STDOUT_CAP: usize = 64 * 1024;

/// How much of the hook's stderr reaches the log.
const STDERR_CAP: usize = 4 * 1024;

/// How long to wait for a killed hook to be reaped.
const REAP_GRACE: Duration = Duration::from_secs(2);

/// The approver name the hook's answers carry in the broker and audit log.
pub const APPROVER: &str = "hook";

/// The words a hook may print, with why each is accepted; sorted, unique.
///
/// Matches OpenClaw's `/approve` aliases, so one script serves both.
pub const ALIASES: &[(&str, Decision, &str)] = &[
    (
        "allow",
        Decision::AllowOnce,
        "openclaw alias: a bare allow is the narrow one",
    ),
    (
        "allow-always",
        Decision::AllowAlways,
        "the policy file's word",
    ),
    ("allow-once", Decision::AllowOnce, "the policy file's word"),
    (
        "allowalways",
        Decision::AllowAlways,
        "openclaw alias without the dash",
    ),
    (
        "allowonce",
        Decision::AllowOnce,
        "openclaw alias without the dash",
    ),
    ("always", Decision::AllowAlways, "openclaw alias"),
    ("block", Decision::Deny, "openclaw alias"),
    ("deny", Decision::Deny, "the policy file's word"),
    ("once", Decision::AllowOnce, "openclaw alias"),
    ("reject", Decision::Deny, "openclaw alias"),
];

/// The user's hook: which command answers approvals, and how long it may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookConfig {
    /// Run as `/bin/sh -c COMMAND`; it is the user's own configuration.
    pub command: String,
    /// Killed (whole group) after this long, without resolving anything.
    pub timeout: Duration,
}

impl HookConfig {
    /// A hook with the default timeout.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// Why a hook gave no usable answer.
#[derive(Debug, thiserror::Error)]
enum HookError {
    #[error("cannot start the hook /bin/sh: {0}")]
    Spawn(#[source] io::Error),
    #[error("cannot start the hook: {0}")]
    Contain(#[source] ContainError),
    #[error("cannot read the hook's output: {0}")]
    Io(#[source] io::Error),
    #[error("hook exited with {0}\nhint: a hook answers on stdout and exits 0")]
    Failed(ExitStatus),
    #[error("hook printed no answer\nhint: print allow-once, allow-always or deny")]
    NoAnswer,
    #[error("hook answer is not a decision: {0:?}\nhint: print allow-once, allow-always or deny")]
    Garbage(String),
    #[error("hook did not answer within {0:?}")]
    TimedOut(Duration),
    #[error("approval was answered elsewhere")]
    Superseded,
}

impl HookError {
    /// Whether the hook is broken (reported as `hook-failed`) rather than
    /// slow or no longer needed (left to others without a word).
    fn fails(&self) -> bool {
        !matches!(self, Self::TimedOut(_) | Self::Superseded)
    }
}

/// Runs the hook for every approval until `shutdown` completes; on shutdown
/// every running hook is killed before this returns.
///
/// # Cancel safety
///
/// Dropping the future aborts every hook task, and each aborted task kills
/// its hook's process group as it is dropped.
pub async fn run(config: HookConfig, broker: Broker, shutdown: impl Future<Output = ()>) {
    let config = Arc::new(config);
    let _attached = broker.attach(APPROVER);
    let mut events = broker.subscribe();
    let mut hooks = Hooks {
        config,
        broker,
        running: HashMap::new(),
        tasks: JoinSet::new(),
    };
    // Subscribed first, so nothing submitted from now on is missed.
    hooks.catch_up();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            Some(joined) = hooks.tasks.join_next() => {
                if let Err(error) = joined {
                    tracing::error!(%error, "hook task failed");
                }
            }
            event = events.recv() => match event {
                Ok(BrokerEvent::Requested(approval)) => hooks.start(approval),
                // Dropping the sender tells a running hook to stop.
                Ok(BrokerEvent::Resolved { id, .. }) => drop(hooks.running.remove(&id)),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "hook approver lagged; catching up from the pending list");
                    hooks.catch_up();
                }
                Err(RecvError::Closed) => break,
            },
        }
    }
    hooks.running.clear();
    while hooks.tasks.join_next().await.is_some() {}
}

/// The hooks of one `run`: one entry per approval still pending.
struct Hooks {
    config: Arc<HookConfig>,
    broker: Broker,
    /// Approvals a hook was started for; removed when the approval ends,
    /// which stops the hook if it still runs.
    running: HashMap<String, oneshot::Sender<()>>,
    tasks: JoinSet<()>,
}

impl Hooks {
    /// Starts a hook for `approval` unless one was already started.
    fn start(&mut self, approval: PendingApproval) {
        if self.running.contains_key(&approval.id) {
            return;
        }
        let (stop, stopped) = oneshot::channel();
        self.running.insert(approval.id.clone(), stop);
        let (config, broker) = (Arc::clone(&self.config), self.broker.clone());
        self.tasks.spawn(answer(config, broker, approval, stopped));
    }

    /// Forgets approvals that ended and starts hooks for new ones.
    fn catch_up(&mut self) {
        let pending = self.broker.list();
        self.running
            .retain(|id, _| pending.iter().any(|approval| approval.id == *id));
        for approval in pending {
            self.start(approval);
        }
    }
}

/// Runs the hook for one approval and resolves the broker with its answer;
/// a broken hook answers nothing and is reported to the broker as failed
/// (`hook-failed`), which never beats a person at the terminal.
async fn answer(
    config: Arc<HookConfig>,
    broker: Broker,
    approval: PendingApproval,
    stopped: oneshot::Receiver<()>,
) {
    let id = approval.id.clone();
    let error = match ask(&config, &approval, stopped).await {
        Ok(decision) => match broker.resolve(&id, decision, APPROVER) {
            Ok(_) => return,
            Err(ResolveError::NotFound) => {
                tracing::debug!(id, "hook answered after the approval ended");
                return;
            }
            Err(refused) => {
                tracing::warn!(
                    id,
                    decision = decision_word(decision),
                    %refused,
                    "hook answer refused"
                );
                format!("its answer was refused: {refused}")
            }
        },
        Err(error) if error.fails() => error.to_string(),
        Err(error) => {
            tracing::info!(id, %error, "hook stopped without answering");
            return;
        }
    };
    broker.fail(&id, APPROVER, &error);
}

/// Runs the hook and returns its decision; kills the group on timeout or
/// when `stopped` fires.
async fn ask(
    config: &HookConfig,
    approval: &PendingApproval,
    mut stopped: oneshot::Receiver<()>,
) -> Result<Decision, HookError> {
    // Answered elsewhere before the hook could start: do not start it.
    if !matches!(stopped.try_recv(), Err(TryRecvError::Empty)) {
        return Err(HookError::Superseded);
    }
    let mut line =
        serde_json::to_vec(approval).map_err(|error| HookError::Io(io::Error::other(error)))?;
    line.push(b'\n');
    let scope = Scope::new().map_err(HookError::Contain)?;
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(&config.command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // A new session: the hook leads its own group, with no terminal.
    let mut child = scope.spawn(&mut command).map_err(HookError::Spawn)?;
    let mut group = Group::of(&child);
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let talk = async {
        let (_, out, err, status) = tokio::join!(
            feed(stdin, &line),
            read_capped(stdout, STDOUT_CAP),
            read_capped(stderr, STDERR_CAP),
            async {
                let status = child.wait().await;
                // Stragglers would hold the pipes open and outlive the hook.
                group.kill();
                scope.kill();
                status
            },
        );
        (out, err, status)
    };
    let finished = tokio::select! {
        biased;
        _ = &mut stopped => Err(HookError::Superseded),
        done = tokio::time::timeout(config.timeout, talk) => {
            done.map_err(|_| HookError::TimedOut(config.timeout))
        }
    };
    let (out, err, status) = match finished {
        Ok(done) => done,
        Err(error) => {
            group.kill();
            if reap(&mut child, &approval.id).await {
                group.disarm();
            }
            scope.end().await;
            return Err(error);
        }
    };
    group.disarm();
    scope.end().await;
    log_stderr(&approval.id, &err.map_err(HookError::Io)?);
    let status = status.map_err(HookError::Io)?;
    if !status.success() {
        return Err(HookError::Failed(status));
    }
    parse_answer(&out.map_err(HookError::Io)?)
}

/// The decision in a hook's stdout: its first non-empty line.
fn parse_answer(stdout: &[u8]) -> Result<Decision, HookError> {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .ok_or(HookError::NoAnswer)?;
    let word = if line.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(line).map_err(|_| garbage(line))?;
        match value.get("decision").and_then(serde_json::Value::as_str) {
            Some(word) => word.to_owned(),
            None => return Err(garbage(line)),
        }
    } else {
        line.to_owned()
    };
    let word = word.trim().to_ascii_lowercase();
    ALIASES
        .iter()
        .find(|(alias, _, _)| *alias == word)
        .map(|&(_, decision, _)| decision)
        .ok_or_else(|| garbage(line))
}

/// A refusal that quotes at most the start of what the hook printed.
fn garbage(line: &str) -> HookError {
    HookError::Garbage(line.chars().take(200).collect())
}

/// Writes the approval and closes stdin; a hook that does not read it is fine.
async fn feed(stdin: Option<ChildStdin>, line: &[u8]) {
    if let Some(mut stdin) = stdin
        && let Err(error) = stdin.write_all(line).await
    {
        tracing::debug!(%error, "hook did not read its stdin");
    }
}

/// Reads to end of file, keeping the first `cap` bytes and dropping the
/// rest, so a chatty hook neither blocks on a full pipe nor fills memory.
async fn read_capped(reader: Option<impl AsyncRead + Unpin>, cap: usize) -> io::Result<Vec<u8>> {
    let mut kept = Vec::new();
    let Some(mut reader) = reader else {
        return Ok(kept);
    };
    let mut chunk = [0u8; 8192];
    loop {
        let read = reader.read(&mut chunk).await?;
        if read == 0 {
            return Ok(kept);
        }
        let room = cap.saturating_sub(kept.len()).min(read);
        kept.extend_from_slice(&chunk[..room]);
    }
}

/// Logs what the hook wrote on stderr, escaped.
fn log_stderr(id: &str, stderr: &[u8]) {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim();
    if !text.is_empty() {
        tracing::info!(id, stderr = ?text, "hook stderr");
    }
}

/// Waits for a killed hook so it does not linger as a zombie; false if it
/// did not die in time.
async fn reap(child: &mut Child, id: &str) -> bool {
    let reaped = tokio::time::timeout(REAP_GRACE, child.wait()).await.is_ok();
    if !reaped {
        tracing::warn!(id, "killed hook was not reaped in time");
    }
    reaped
}

/// The hook's process group (its session's); killed on drop unless
/// disarmed.
struct Group(Option<Pid>);

impl Group {
    /// The group the child leads (it started a new session).
    fn of(child: &Child) -> Self {
        Self(
            child
                .id()
                .and_then(|pid| i32::try_from(pid).ok())
                .map(Pid::from_raw),
        )
    }

    /// `SIGKILL` to every member; an empty group is not an error.
    fn kill(&self) {
        if let Some(pgid) = self.0 {
            match killpg(pgid, Signal::SIGKILL) {
                Ok(()) | Err(Errno::ESRCH) => {}
                Err(error) => {
                    tracing::warn!(pgid = pgid.as_raw(), %error, "cannot kill hook group");
                }
            }
        }
    }

    /// The hook finished and its group was killed: signal it no more, as
    /// its id may be reused.
    fn disarm(&mut self) {
        self.0 = None;
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_sorted_unique_lowercase_and_explained() {
        for pair in ALIASES.windows(2) {
            assert!(
                pair[0].0 < pair[1].0,
                "{:?} before {:?}",
                pair[0].0,
                pair[1].0
            );
        }
        for (word, _, reason) in ALIASES {
            assert_eq!(*word, word.to_ascii_lowercase());
            assert!(!reason.is_empty(), "{word}");
        }
    }

    #[test]
    fn parses_words_aliases_and_json_answers() {
        let cases: &[(&str, Option<Decision>)] = &[
            ("allow-once\n", Some(Decision::AllowOnce)),
            (
                "\n\n  ALLOW-ALWAYS  \r\nignored\n",
                Some(Decision::AllowAlways),
            ),
            ("deny", Some(Decision::Deny)),
            ("Once", Some(Decision::AllowOnce)),
            ("allow", Some(Decision::AllowOnce)),
            ("always", Some(Decision::AllowAlways)),
            ("reject", Some(Decision::Deny)),
            ("block", Some(Decision::Deny)),
            (r#"{"decision": "allow-once"}"#, Some(Decision::AllowOnce)),
            (
                r#"{"decision":"Always","note":"x"}"#,
                Some(Decision::AllowAlways),
            ),
            (r#"{"decision":"deny"}"#, Some(Decision::Deny)),
            ("allow-once please", None),
            ("yes", None),
            ("allow_once", None),
            ("deny\u{200b}", None),
            (r#"{"decision": true}"#, None),
            (r#"{"verdict": "allow-once"}"#, None),
            ("{\n\"decision\": \"allow-once\"}", None),
            (r#"["allow-once"]"#, None),
            ("allow-once\u{fffd}", None),
        ];
        for (stdout, want) in cases {
            let got = parse_answer(stdout.as_bytes()).ok();
            assert_eq!(got, *want, "{stdout:?}");
        }
    }

    #[test]
    fn an_empty_answer_is_no_answer() {
        for stdout in ["", "\n", "  \n\t\n"] {
            assert!(matches!(
                parse_answer(stdout.as_bytes()),
                Err(HookError::NoAnswer)
            ));
        }
    }

    #[test]
    fn only_timeouts_and_answers_elsewhere_are_not_failures() {
        let leave = [HookError::TimedOut(DEFAULT_TIMEOUT), HookError::Superseded];
        assert!(leave.iter().all(|error| !error.fails()));
        let deny = [
            HookError::NoAnswer,
            HookError::Garbage("x".into()),
            HookError::Spawn(io::Error::other("x")),
            HookError::Contain(ContainError::UnknownMode { value: "x".into() }),
            HookError::Io(io::Error::other("x")),
        ];
        assert!(deny.iter().all(HookError::fails));
    }
}
