//! The executor: runs the checked plan of a [`Runnable`] with no shell, a clean
//! environment, each command in a new session with no controlling
//! terminal, a timeout that kills whole process groups, containment that
//! kills every process of the run when it ends (even one that left its
//! session), an output cap, and secret masking.
//!
//! It decides nothing about policy: it takes only a [`Runnable`], which
//! only an allow verdict or a human approval produces, so the plan was
//! checked (or shown to a human) before it gets here, and it runs exactly
//! that: each command's
//! resolved program with its literal argv, our own pipes and chain semantics
//! (`;` always, `&&` after status 0, `||` after a failure; a pipeline's status
//! is its last command's). It refuses to start anything once the timeout
//! fired, and reports a missing working directory or an unstartable program
//! as an error outcome, never a panic; a run that cannot be contained is
//! refused before anything starts. Upholds DESIGN.md invariants 4 (what
//! runs is what was checked) and 8 (no process outlives its run; output
//! beyond the cap is dropped, not buffered), and section 8's masking of
//! secrets before output leaves the process.

mod capture;
pub mod contain;
mod env;
mod groups;
mod mask;
mod pipeline;

use std::os::fd::OwnedFd;
use std::time::Duration;

use approvals_ipc::policy::Runnable;
use approvals_ipc::policy::plan::{ChainOp, Plan};
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::sys::signal::Signal;
use tokio::net::unix::pipe;

use capture::Capture;
use contain::Scope;
use groups::Groups;
use pipeline::{CaptureWriters, Context, ExecError, Status};

pub use env::ChildEnv;
pub use mask::{mask_command, mask_secrets};

/// How long readers may take to drain the capture pipes once every process
/// of the run was killed; only a process that escaped containment (outside
/// Linux, one that left its session) can hold them longer.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How often group membership is polled during the kill grace period.
const GRACE_POLL: Duration = Duration::from_millis(20);

/// Limits of one run, so a request cannot hold the host's time or memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecLimits {
    /// Wall-clock limit for the whole plan; `None` waits forever.
    pub timeout: Option<Duration>,
    /// Bytes kept of stdout and stderr together; the rest is dropped.
    pub output_cap: usize,
    /// Time between `SIGTERM` and `SIGKILL` on timeout, for cleanup.
    pub kill_grace: Duration,
}

impl Default for ExecLimits {
    fn default() -> Self {
        Self {
            timeout: None,
            output_cap: 200_000,
            kill_grace: Duration::from_secs(2),
        }
    }
}

/// What a run produced, in the shape of the socket reply's payload.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecOutcome {
    /// The exit code of the last pipeline run; `None` on timeout, error or
    /// death by signal.
    pub exit_code: Option<i32>,
    /// Whether the timeout fired.
    pub timed_out: bool,
    /// `exit_code == Some(0) && !timed_out && error.is_none()`.
    pub success: bool,
    /// Captured stdout, lossily decoded and masked.
    pub stdout: String,
    /// Captured stderr, lossily decoded and masked.
    pub stderr: String,
    /// Why the plan could not run to its end, or the signal that killed it;
    /// masked.
    pub error: Option<String>,
    /// Whether output beyond the cap was dropped.
    pub truncated: bool,
}

/// Runs what `runnable` allows with exactly `env` (plus each command's
/// inert prefixes), masking secrets the built-in rules know.
///
/// `env` should come from [`approvals_ipc::policy::env::child_env`]. Callers
/// that hold secrets of their own (the socket token) use
/// [`run_masked`], which also lets a host's children inherit its
/// environment when [`ChildEnv::from_process`] found it clean.
///
/// A plan on its own cannot be run, only a [`Runnable`]:
///
/// ```compile_fail
/// async fn f(runnable: &approvals_ipc::policy::Runnable, limits: &ui_bridge::exec::ExecLimits) {
///     let plan = runnable.plan(); // a checked plan, without its grant
///     ui_bridge::exec::run(plan, &[], limits).await; // expected `&Runnable`
/// }
/// ```
pub async fn run(
    runnable: &Runnable,
    env: &[(String, String)],
    limits: &ExecLimits,
) -> ExecOutcome {
    run_masked(runnable, &ChildEnv::exactly(env.to_vec()), limits, &[]).await
}

/// [`run`] with a prepared [`ChildEnv`], also masking each literal in
/// `known_secrets` wherever it appears in the output or the error.
///
/// # Panics
///
/// Must be polled on a tokio runtime with IO and time enabled (it registers
/// its output pipes there).
pub async fn run_masked(
    runnable: &Runnable,
    env: &ChildEnv,
    limits: &ExecLimits,
    known_secrets: &[&str],
) -> ExecOutcome {
    let capture = Capture::new(limits.output_cap);
    let (writers, [stdout, stderr]) = match open_capture() {
        Ok(pair) => pair,
        Err(error) => {
            return finish(Err(ExecError::Pipe(error)), false, &capture, known_secrets);
        }
    };
    // Declared before the groups, so on a drop (cancel) the groups are
    // signalled first and the scope then kills what is left.
    let scope = match Scope::new() {
        Ok(scope) => scope,
        Err(error) => {
            tracing::error!(%error, "run refused: it cannot be contained");
            return finish(Err(error.into()), false, &capture, known_secrets);
        }
    };
    let groups = Groups::default();
    // The futures borrow the scope; they are gone before it ends.
    let (result, timed_out) = {
        let mut drains = std::pin::pin!(capture::drain_both(&capture, stdout, stderr));
        let mut supervised = std::pin::pin!(supervise(
            runnable.plan(),
            env,
            limits,
            &groups,
            &scope,
            &capture,
            writers
        ));
        let mut drained = false;
        let outcome = loop {
            tokio::select! {
                biased;
                outcome = &mut supervised => break outcome,
                () = &mut drains, if !drained => drained = true,
            }
        };
        // The plan is over: nothing of it may keep running.
        groups.signal_all(Signal::SIGKILL);
        if !drained {
            // Something still holds a pipe: kill the whole run now, so the
            // readers reach end of file.
            scope.kill();
            if tokio::time::timeout(DRAIN_GRACE, drains).await.is_err() {
                // Only a process that escaped containment can still hold it.
                tracing::warn!("a process outside the run holds an output pipe; stopped reading");
            }
        }
        outcome
    };
    scope.end().await;
    finish(result, timed_out, &capture, known_secrets)
}

/// Opens the two capture pipes: the write ends (blocking, as children
/// expect) for the plan, the read ends non-blocking and registered with the
/// runtime.
fn open_capture() -> std::io::Result<(CaptureWriters, [pipe::Receiver; 2])> {
    let (stdout_read, stdout) = std::io::pipe()?;
    let (stderr_read, stderr) = std::io::pipe()?;
    let receivers = [reader(stdout_read)?, reader(stderr_read)?];
    Ok((CaptureWriters { stdout, stderr }, receivers))
}

/// The read end of a fresh pipe as a runtime receiver, with one `fcntl`
/// where `from_owned_fd` would check the type and flags first.
fn reader(read_end: std::io::PipeReader) -> std::io::Result<pipe::Receiver> {
    let fd = OwnedFd::from(read_end);
    // A fresh read end has no status flags to keep: set exactly O_NONBLOCK.
    fcntl(&fd, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
    pipe::Receiver::from_owned_fd_unchecked(fd)
}

/// Runs the steps under the timeout: on expiry, stops the plan with
/// `SIGTERM` to every group, waits up to the grace period for the groups to
/// empty, then sends `SIGKILL`.
async fn supervise(
    plan: &Plan,
    env: &ChildEnv,
    limits: &ExecLimits,
    groups: &Groups,
    scope: &Scope,
    capture: &Capture,
    writers: CaptureWriters,
) -> (Result<Status, ExecError>, bool) {
    // The future owns the capture writers: they close when it ends or is
    // dropped, which lets the readers reach end of file.
    let mut body = Box::pin(run_steps(plan, env, groups, scope, capture, writers));
    let Some(timeout) = limits.timeout else {
        return (body.await, false);
    };
    if let Ok(result) = tokio::time::timeout(timeout, &mut body).await {
        return (result, false);
    }
    tracing::info!(
        timeout_ms = timeout.as_millis(),
        "plan timed out; terminating its process groups"
    );
    groups.stop(Signal::SIGTERM);
    let grace_end = tokio::time::Instant::now() + limits.kill_grace;
    let ended = tokio::time::timeout_at(grace_end, &mut body).await.ok();
    while ended.is_some() && groups.any_alive() && tokio::time::Instant::now() < grace_end {
        tokio::time::sleep(GRACE_POLL).await;
    }
    groups.signal_all(Signal::SIGKILL);
    let result = match ended {
        Some(result) => result,
        None => tokio::time::timeout(DRAIN_GRACE, &mut body)
            .await
            .unwrap_or(Err(ExecError::Stopped)),
    };
    (result, true)
}

/// Runs the plan's steps with our chain semantics and returns the status of
/// the last pipeline that ran.
async fn run_steps(
    plan: &Plan,
    env: &ChildEnv,
    groups: &Groups,
    scope: &Scope,
    capture: &Capture,
    writers: CaptureWriters,
) -> Result<Status, ExecError> {
    let cx = Context {
        env,
        groups,
        scope,
        capture,
    };
    if plan.steps().is_empty() || plan.steps().iter().any(|step| step.pipeline.is_empty()) {
        return Err(ExecError::EmptyPlan);
    }
    let mut writers = Some(writers);
    let mut last = Status::Exited(0);
    for (index, step) in plan.steps().iter().enumerate() {
        let runs = match step.op {
            ChainOp::Seq => true,
            ChainOp::And => last.is_success(),
            ChainOp::Or => !last.is_success(),
        };
        if !runs {
            continue;
        }
        let Some(open) = writers.as_ref() else {
            return Err(ExecError::EmptyPlan);
        };
        let running = pipeline::spawn_pipeline(&step.pipeline, &cx, open)?;
        if index + 1 == plan.steps().len() {
            // Nothing else will write: close our ends now, so the pipes end
            // with the last child and the readers finish with its exit.
            writers = None;
        }
        last = pipeline::wait_pipeline(running).await?;
    }
    Ok(last)
}

/// Builds the outcome: decode, mask, and derive `success`.
fn finish(
    result: Result<Status, ExecError>,
    timed_out: bool,
    capture: &Capture,
    known_secrets: &[&str],
) -> ExecOutcome {
    let (exit_code, error) = match result {
        _ if timed_out => (None, None),
        Ok(Status::Exited(code)) => (Some(code), None),
        Ok(Status::Signaled(signal)) => (None, Some(signal_message(signal))),
        Err(error) => (None, Some(error.to_string())),
    };
    if let Some(error) = &error {
        tracing::debug!(%error, "plan ended with an error");
    }
    let captured = capture.take();
    let mask =
        |bytes: &[u8]| mask_secrets(&String::from_utf8_lossy(bytes), known_secrets).into_owned();
    let error = error.map(|text| mask_secrets(&text, known_secrets).into_owned());
    ExecOutcome {
        exit_code,
        timed_out,
        success: exit_code == Some(0) && !timed_out && error.is_none(),
        stdout: mask(&captured.stdout),
        stderr: mask(&captured.stderr),
        error,
        truncated: captured.truncated,
    }
}

fn signal_message(signal: i32) -> String {
    match Signal::try_from(signal) {
        Ok(name) => format!("terminated by signal {name}"),
        Err(_) => format!("terminated by signal {signal}"),
    }
}
