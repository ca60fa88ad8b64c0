//! What the executor alone adds to a spawn, in one process: `run_plan_masked`
//! of `/usr/bin/true` (process group, working directory, capture pipes,
//! group kill, masking) against a bare tokio spawn of `/bin/true` with piped
//! output, interleaved in blocks of 100 from a runtime worker task, as
//! `exec-bench` times its two sides. Together with `exec-bench` it splits
//! the bridge's added time into execution and everything before and after
//! it (socket, checks, policy, audit, reply).
//!
//! ```text
//! cargo run --release -p ui-bridge --example exec_overhead            # your environment
//! env -i PATH=/usr/bin:/bin cargo run --release -p ui-bridge --example exec_overhead
//! ```
//!
//! With a clean environment children inherit it (as under `ui-bridge
//! serve`); with a blocked variable such as `SHELL` in it, every spawn gets
//! the filtered set built explicitly, and the output says which.

use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use approvals_ipc::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink};
use tokio::io::AsyncReadExt as _;
use ui_bridge::exec::{ChildEnv, ExecLimits, run_plan_masked};

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
            eprintln!("exec_overhead: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn measure() -> anyhow::Result<()> {
    let cwd = std::env::current_dir().context("no current directory")?;
    let plan = true_plan(cwd);
    let env = ChildEnv::from_process();
    let limits = ExecLimits::default();
    for _ in 0..WARM_UP {
        direct().await?;
        through_executor(&plan, &env, &limits).await?;
    }
    let (mut bare, mut executor) = (Vec::with_capacity(RUNS), Vec::with_capacity(RUNS));
    while bare.len() < RUNS {
        for _ in 0..BLOCK {
            bare.push(direct().await?);
        }
        for _ in 0..BLOCK {
            executor.push(through_executor(&plan, &env, &limits).await?);
        }
    }
    let (bare, executor) = (median_us(bare), median_us(executor));
    println!(
        "children {} the environment; medians of {RUNS}: bare spawn {bare:.1} us, executor {executor:.1} us, added {:.1} us",
        if env.inherits() {
            "inherit"
        } else {
            "get an explicit copy of"
        },
        executor - bare
    );
    Ok(())
}

/// The plan a request for `["/bin/true"]` becomes.
fn true_plan(cwd: PathBuf) -> Plan {
    Plan {
        steps: vec![PlanStep {
            op: ChainOp::Seq,
            pipeline: vec![PlannedCommand::Exec(PlannedExec {
                program: PathBuf::from("/usr/bin/true"),
                argv: vec!["/bin/true".to_owned()],
                env: Vec::new(),
                cwd,
                stdin: None,
                stdout: Sink::Stdout,
                stderr: Sink::Stderr,
            })],
        }],
    }
}

async fn through_executor(
    plan: &Plan,
    env: &ChildEnv,
    limits: &ExecLimits,
) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let outcome = run_plan_masked(plan, env, limits, &[]).await;
    let elapsed = started.elapsed();
    if !outcome.success {
        bail!("the executor's /usr/bin/true failed: {outcome:?}");
    }
    Ok(elapsed)
}

/// Spawns `/bin/true` as `exec-bench`'s direct side does.
async fn direct() -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut child = tokio::process::Command::new("/bin/true")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot spawn /bin/true")?;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let read_out = async {
        match stdout {
            Some(mut pipe) => pipe.read_to_end(&mut out).await.map(drop),
            None => Ok(()),
        }
    };
    let read_err = async {
        match stderr {
            Some(mut pipe) => pipe.read_to_end(&mut err).await.map(drop),
            None => Ok(()),
        }
    };
    let (read_out, read_err) = tokio::join!(read_out, read_err);
    read_out.and(read_err).context("cannot read the output")?;
    let status = child.wait().await.context("cannot wait for /bin/true")?;
    if !status.success() {
        bail!("/bin/true exited with {status}");
    }
    Ok(started.elapsed())
}

fn median_us(mut samples: Vec<Duration>) -> f64 {
    samples.sort_unstable();
    samples
        .get(samples.len() / 2)
        .map_or(0.0, |median| median.as_secs_f64() * 1e6)
}
