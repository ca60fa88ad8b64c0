//! The baseline both latency tools compare against: `/bin/true` spawned
//! the way an exec host must at least (stdin null, stdout and stderr piped
//! and read to end of file, waited for), with nothing else around it.

use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use tokio::io::AsyncReadExt as _;

/// The command both sides of a comparison run: the cheapest real process.
pub const TRUE: &str = "/bin/true";

/// Spawns [`TRUE`] directly and times it from spawn to reaped exit.
pub async fn spawn_true() -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut child = tokio::process::Command::new(TRUE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot spawn {TRUE}"))?;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
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
    let status = child.wait().await.context("cannot wait for the child")?;
    let elapsed = started.elapsed();
    if !status.success() {
        bail!("{TRUE} exited with {status}");
    }
    Ok(elapsed)
}

/// The median of `samples` in microseconds (0 for none).
pub fn median_us(mut samples: Vec<Duration>) -> f64 {
    samples.sort_unstable();
    samples
        .get(samples.len() / 2)
        .map_or(0.0, |median| median.as_secs_f64() * 1e6)
}
