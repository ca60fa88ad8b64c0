//! `exec-overhead`: what the executor alone adds to a spawn, in one
//! process. It times `run_masked` of the plan a request for
//! `["/bin/true"]` becomes (containment, new session, working directory,
//! capture pipes, group kill, masking) against the bare spawn exec-bench
//! uses as its baseline, and the same executor made to spawn by `fork`
//! (`spawn_by_fork`, the path for kernels without pidfds), interleaved in
//! blocks of 100 from a runtime worker task.
//! Together with `exec-bench` it splits the bridge's added time into
//! execution and everything before and after it (socket, checks, policy,
//! audit, reply).
//!
//! ```text
//! cargo build --release -p approvals-tests --bin exec-overhead
//! target/release/exec-overhead                                  # your environment
//! env -i PATH=/usr/bin:/bin target/release/exec-overhead        # a clean one
//! ```
//!
//! With a clean environment children inherit it (as under `ui-bridge
//! serve`); with a blocked variable such as `SHELL` in it, every spawn gets
//! the filtered set built explicitly, and the output says which.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use approvals_ipc::approvals::ApprovalsFile;
use approvals_ipc::policy::{CompiledPolicy, HostContext, Runnable};
use approvals_tests::baseline::{TRUE, median_us, spawn_true};
use ui_bridge::exec::contain::spawn_by_fork;
use ui_bridge::exec::{ChildEnv, ExecLimits, run_masked};

/// Runs on each side before timing starts.
const WARM_UP: usize = 50;
/// Measured runs on each side, alternating in blocks of [`BLOCK`].
const RUNS: usize = 2000;
/// How many runs of one side follow each other.
const BLOCK: usize = 100;

fn main() -> ExitCode {
    let measured = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")
        .and_then(|runtime| {
            // Timed from a worker task, as the bridge's requests run.
            runtime.block_on(async { tokio::spawn(measure()).await? })
        });
    match measured {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("exec-overhead: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn measure() -> anyhow::Result<()> {
    let cwd = std::env::current_dir().context("no current directory")?;
    let plan = true_plan(cwd)?;
    let env = ChildEnv::from_process();
    let limits = ExecLimits::default();
    for _ in 0..WARM_UP {
        spawn_true().await?;
        through_executor(&plan, &env, &limits).await?;
    }
    let mut bare = Vec::with_capacity(RUNS);
    let (mut executor, mut forked) = (Vec::with_capacity(RUNS), Vec::with_capacity(RUNS));
    while bare.len() < RUNS {
        for _ in 0..BLOCK {
            bare.push(spawn_true().await?);
        }
        for _ in 0..BLOCK {
            executor.push(through_executor(&plan, &env, &limits).await?);
        }
        spawn_by_fork(true);
        for _ in 0..BLOCK {
            forked.push(through_executor(&plan, &env, &limits).await?);
        }
        spawn_by_fork(false);
    }
    let (bare, executor, forked) = (median_us(bare), median_us(executor), median_us(forked));
    println!(
        "children {} the environment; medians of {RUNS}: bare spawn {bare:.1} us, executor {executor:.1} us (added {:.1} us, {:.2}x), executor spawning by fork {forked:.1} us (added {:.1} us, {:.2}x)",
        if env.inherits() {
            "inherit"
        } else {
            "get an explicit copy of"
        },
        executor - bare,
        executor / bare,
        forked - bare,
        forked / bare,
    );
    Ok(())
}

/// What a request for `["/bin/true"]` becomes under `security: full`: the
/// policy's own checked plan, as the exec host runs it.
fn true_plan(cwd: PathBuf) -> anyhow::Result<Runnable> {
    let text = br#"{"version": 1, "defaults": {"security": "full", "ask": "off"}}"#;
    let file = ApprovalsFile::parse(text, std::path::Path::new("bench.json"))
        .context("cannot parse the benchmark policy")?
        .file;
    let compiled =
        CompiledPolicy::compile(file.resolve(Some("main")), &HostContext::from_process());
    compiled
        .evaluate(&[TRUE.to_owned()], &cwd, &Default::default())
        .runnable(None)
        .with_context(|| format!("the policy does not let {TRUE} run"))
}

async fn through_executor(
    plan: &Runnable,
    env: &ChildEnv,
    limits: &ExecLimits,
) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let outcome = run_masked(plan, env, limits, &[]).await;
    let elapsed = started.elapsed();
    if !outcome.success {
        bail!("the executor's {TRUE} failed: {outcome:?}");
    }
    Ok(elapsed)
}
