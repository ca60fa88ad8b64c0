//! `node-overhead`: what `node-host serve` itself adds to a spawn, from an
//! invoke received to its result ready to send. It times
//! `Node::invoke("system.run", {"command": ["/bin/true"]})` (parameter
//! decoding, the policy under an allowlist that lists `/bin/true`, the
//! audit record, last-use bookkeeping, containment, the run and the result
//! payload) against the bare spawn `exec-bench` uses as its baseline,
//! interleaved in blocks of 100 from a runtime worker task. The WebSocket
//! frames around it are the gateway's part, measured end to end by
//! `scripts/bench-gateway`.
//!
//! ```text
//! cargo build --release -p approvals-tests --bin node-overhead
//! target/release/node-overhead
//! ```

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use approvals_tests::baseline::{TRUE, median_us, spawn_true};
use node_host::invoke::{ExecHostChoice, Node, NodeConfig};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Runs on each side before timing starts.
const WARM_UP: usize = 50;
/// Measured runs on each side, alternating in blocks of [`BLOCK`].
const RUNS: usize = 2000;
/// How many runs of one side follow each other.
const BLOCK: usize = 100;

fn main() -> ExitCode {
    let measured = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the tokio runtime")
        .and_then(|runtime| runtime.block_on(async { tokio::spawn(measure()).await? }));
    match measured {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("node-overhead: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn measure() -> anyhow::Result<()> {
    let dir = tempfile::tempdir().context("no temp dir")?;
    let approvals = dir.path().join("exec-approvals.json");
    let real = std::fs::canonicalize(TRUE).context("no /bin/true")?;
    let policy = json!({"version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real}]}}});
    std::fs::write(&approvals, policy.to_string()).context("cannot write the policy")?;
    let (events, mut drained) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move { while drained.recv().await.is_some() {} });
    let node = Arc::new(Node::new(
        NodeConfig {
            approvals_path: approvals,
            exec_host: ExecHostChoice::Local,
            socket: None,
        },
        events,
    ));
    let cwd = dir.path().to_string_lossy().into_owned();
    for _ in 0..WARM_UP {
        spawn_true().await?;
        through_node(&node, &cwd).await?;
    }
    let (mut bare, mut ours) = (Vec::with_capacity(RUNS), Vec::with_capacity(RUNS));
    while bare.len() < RUNS {
        for _ in 0..BLOCK {
            bare.push(spawn_true().await?);
        }
        for _ in 0..BLOCK {
            ours.push(through_node(&node, &cwd).await?);
        }
    }
    let (bare_p99, ours_p99) = (p99_us(&bare), p99_us(&ours));
    let (bare, ours) = (median_us(bare), median_us(ours));
    println!(
        "medians of {RUNS}: bare spawn {bare:.1} us, node invoke {ours:.1} us (x{:.2}, added {:.1} us); p99: bare {bare_p99:.1} us, node {ours_p99:.1} us",
        ours / bare,
        ours - bare
    );
    node.flush_audit().await;
    Ok(())
}

async fn through_node(node: &Arc<Node>, cwd: &str) -> anyhow::Result<Duration> {
    let params = json!({"command": [TRUE], "cwd": cwd});
    let started = Instant::now();
    let answer = node
        .invoke("system.run", params, CancellationToken::new())
        .await;
    let elapsed = started.elapsed();
    match answer {
        Ok(payload) if payload["success"] == true => Ok(elapsed),
        other => bail!("the node's {TRUE} failed: {other:?}"),
    }
}

/// The 99th percentile in microseconds.
fn p99_us(samples: &[Duration]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let index = (sorted.len() * 99 / 100).min(sorted.len().saturating_sub(1));
    sorted.get(index).map_or(0.0, |d| d.as_secs_f64() * 1e6)
}
