//! `exec-bench`: the end-to-end latency and load benchmark of DESIGN.md
//! section 11, measured side by side in one run.
//!
//! It decides what is compared: spawning `/bin/true` directly the way an
//! exec host must (stdin null, stdout and stderr piped and read to EOF,
//! wait) against a `system.run` of `["/bin/true"]` through client → socket
//! → bridge → policy → executor → reply on one warm connection, interleaved
//! in blocks so machine noise hits both alike; then many concurrent clients.
//! It builds nothing and refuses to run without a release `ui-bridge` next
//! to itself, and it treats any refused, failed or lost request as a failed
//! run (exit status 1), since section 11 demands that none is lost. The
//! bridge runs in a private temporary home, never the user's own
//! `~/.clawdbot`, and is killed on the way out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use approvals_ipc::approvals::Token;
use approvals_ipc::ipc::{Client, ExecRequest, ExecResponse};
use approvals_tests::baseline::{TRUE, spawn_true};
use serde_json::json;

/// Requests sent on the measured connection before timing starts.
const WARM_UP: usize = 50;
/// Direct and bridge measurements alternate in blocks of this many.
const BLOCK: usize = 100;
/// How long the bridge may take to answer on its socket.
const READY_DEADLINE: Duration = Duration::from_secs(20);
/// How often readiness is probed while waiting for the socket.
const READY_POLL: Duration = Duration::from_micros(500);
/// Bridge starts timed with a blocked variable in the environment, which
/// makes `ui-bridge serve` restart itself once without it.
const RESTART_STARTS: usize = 5;
/// Lines of the bridge's log shown when the run fails.
const LOG_TAIL_LINES: usize = 20;

const USAGE: &str =
    "usage: exec-bench [--iterations N] [--clients C] [--requests R] [--security MODE]

Measures a system.run of /bin/true through a real ui-bridge against spawning
/bin/true directly, then C concurrent clients sending R requests each.
Needs target/release/ui-bridge next to this binary:
  cargo build --release -p ui-bridge -p approvals-tests
  cargo run --release -p approvals-tests --bin exec-bench

  --iterations N  measured runs on each side (default 2000)
  --clients C     concurrent connections in the load phase (default 256)
  --requests R    requests per connection in the load phase (default 20)
  --security MODE allowlist (default: /bin/true allowlisted, ask off) or full
                  (diagnostic: no allowlist entry matches, so no use is saved)";

/// What to measure, from the command line.
#[derive(Debug, Clone, Copy)]
struct Options {
    iterations: usize,
    clients: usize,
    requests: usize,
    /// `allowlist` (the budget's case) or `full`, to isolate the cost of
    /// recording allowlist use in the approvals file.
    security: Security,
}

/// The policy mode the bridge runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Security {
    /// `/bin/true` allowed by an allowlist entry, whose use is saved per run.
    Allowlist,
    /// Everything allowed, with an empty allowlist, so nothing is saved.
    Full,
}

impl Security {
    fn name(self) -> &'static str {
        match self {
            Security::Allowlist => "allowlist",
            Security::Full => "full",
        }
    }
}

impl Options {
    /// Parses `--iterations`, `--clients` and `--requests`; `None` for `--help`.
    fn parse(args: impl IntoIterator<Item = String>) -> anyhow::Result<Option<Options>> {
        let mut options = Options {
            iterations: 2000,
            clients: 256,
            requests: 20,
            security: Security::Allowlist,
        };
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let slot = match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--security" => {
                    options.security = match args.next().as_deref() {
                        Some("allowlist") => Security::Allowlist,
                        Some("full") => Security::Full,
                        _ => bail!("--security needs allowlist or full\n\n{USAGE}"),
                    };
                    continue;
                }
                "--iterations" => &mut options.iterations,
                "--clients" => &mut options.clients,
                "--requests" => &mut options.requests,
                other => bail!("unknown argument {other:?}\n\n{USAGE}"),
            };
            let value = args
                .next()
                .with_context(|| format!("{flag} needs a number\n\n{USAGE}"))?;
            *slot = value
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .with_context(|| format!("{flag} needs a positive number, not {value:?}"))?;
        }
        Ok(Some(options))
    }
}

fn main() -> ExitCode {
    // Run in the environment a bridge gives its children (this one minus
    // the blocklist), as `ui-bridge serve` does: both sides' children then
    // get the same variables, and the bridge started from here lets its
    // children inherit them, as a cleanly started bridge does, instead of
    // building them per spawn (which `cargo run`'s `LD_LIBRARY_PATH` would
    // force). Returns only when nothing needs dropping.
    if let Err(error) = ui_bridge::serve::restart_in_child_env() {
        eprintln!("exec-bench: cannot re-run in the filtered environment: {error}");
        return ExitCode::from(2);
    }
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("exec-bench: {error:#}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("exec-bench: cannot start the tokio runtime: {error}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(options)) {
        Ok(report) if report.load.failures == 0 => ExitCode::SUCCESS,
        Ok(report) => {
            eprintln!(
                "exec-bench: {} of {} load requests failed; first: {}",
                report.load.failures,
                report.load.total,
                report.load.first_error.as_deref().unwrap_or("unknown")
            );
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("exec-bench: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Everything one run measured.
struct Report {
    options: Options,
    direct: Stats,
    bridge: Stats,
    idle_rss_kb: u64,
    ready: Duration,
    /// Median start to ready when the bridge restarts without `SHELL`.
    ready_restarting: Duration,
    load: LoadResult,
    load_latency: Option<Stats>,
    peak_rss_kb: u64,
}

async fn run(options: Options) -> anyhow::Result<Report> {
    let ui_bridge = sibling_binary("ui-bridge")?;
    let true_path = std::fs::canonicalize(TRUE)
        .with_context(|| format!("{TRUE} is needed as the benchmark command"))?;
    let bridge = Bridge::start(&ui_bridge, &true_path, options.security, &[])?;
    let outcome = measure(options, &bridge).await;
    if outcome.is_err() || outcome.as_ref().is_ok_and(|r| r.load.failures > 0) {
        eprintln!(
            "--- last lines of the bridge log ---\n{}",
            bridge.log_tail()
        );
    }
    drop(bridge);
    let mut report = outcome?;
    let mut restarts = Vec::with_capacity(RESTART_STARTS);
    for _ in 0..RESTART_STARTS {
        let bridge = Bridge::start(
            &ui_bridge,
            &true_path,
            options.security,
            &[("SHELL", "/bin/sh")],
        )?;
        restarts.push(bridge.ready_after);
    }
    restarts.sort_unstable();
    report.ready_restarting = restarts[restarts.len() / 2];
    print_report(&report);
    Ok(report)
}

async fn measure(options: Options, bridge: &Bridge) -> anyhow::Result<Report> {
    let pid = bridge.child.id();
    println!(
        "bridge pid {pid}, ready after {:.1} ms",
        ms(bridge.ready_after)
    );
    let idle_rss_kb = proc_status_kb(pid, "VmRSS")?;

    let request = ExecRequest {
        command: vec![TRUE.to_owned()],
        ..ExecRequest::default()
    };
    // Both sides are timed from a task on a runtime worker, as the bridge's
    // own connection tasks run: code in `block_on` runs on the main thread,
    // and every wake-up would cost it a hand-off from the worker that polled
    // the event, inflating the direct baseline most of all.
    let latency = tokio::spawn(latency(
        bridge.socket.clone(),
        bridge.token.expose_secret().to_owned(),
        request.clone(),
        options.iterations,
    ));
    let (direct, through_bridge) = latency.await.context("the latency task failed")??;

    let load_started = Instant::now();
    let load = load(bridge, &request, options.clients, options.requests).await;
    println!(
        "load phase took {:.2} s",
        load_started.elapsed().as_secs_f64()
    );
    let peak_rss_kb = proc_status_kb(pid, "VmHWM")?;
    Ok(Report {
        options,
        direct: Stats::of(direct).context("no direct measurements")?,
        bridge: Stats::of(through_bridge).context("no bridge measurements")?,
        idle_rss_kb,
        ready: bridge.ready_after,
        ready_restarting: Duration::ZERO,
        load_latency: Stats::of(load.latencies.clone()),
        load,
        peak_rss_kb,
    })
}

/// Times `iterations` direct spawns and as many requests through the
/// bridge on one warm connection, alternating in blocks of [`BLOCK`].
async fn latency(
    socket: PathBuf,
    token: String,
    request: ExecRequest,
    iterations: usize,
) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let mut client = Client::connect(&socket, token)
        .await
        .context("cannot connect to the bridge")?;
    for _ in 0..WARM_UP {
        exec_once(&mut client, &request)
            .await
            .context("warm-up request failed")?;
    }
    for _ in 0..WARM_UP.min(iterations) {
        spawn_true().await?;
    }
    let mut direct = Vec::with_capacity(iterations);
    let mut through_bridge = Vec::with_capacity(iterations);
    while direct.len() < iterations {
        let block = BLOCK.min(iterations - direct.len());
        for _ in 0..block {
            direct.push(spawn_true().await?);
        }
        for _ in 0..block {
            through_bridge.push(
                exec_once(&mut client, &request)
                    .await
                    .context("measured request failed")?,
            );
        }
    }
    Ok((direct, through_bridge))
}

/// A binary built next to this one, so the bench measures exactly the
/// profile it was built with and never builds anything itself.
fn sibling_binary(name: &str) -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find this executable's path")?;
    let dir = exe
        .parent()
        .context("this executable has no parent directory")?;
    let path = dir.join(name);
    if !path.is_file() {
        bail!(
            "{} is missing\nhint: cargo build --release -p ui-bridge",
            path.display()
        );
    }
    Ok(path)
}

/// A running `ui-bridge serve` in a private temporary home, killed when dropped.
struct Bridge {
    child: Child,
    socket: PathBuf,
    token: Token,
    log: PathBuf,
    ready_after: Duration,
    /// Removed (with the log) after the child is gone.
    _home: tempfile::TempDir,
}

impl Bridge {
    /// Writes a policy allowing only `true_path` (security allowlist, ask
    /// off), starts the bridge with `extra_env` added to this process's
    /// environment and waits until its socket accepts.
    fn start(
        ui_bridge: &Path,
        true_path: &Path,
        security: Security,
        extra_env: &[(&str, &str)],
    ) -> anyhow::Result<Bridge> {
        let home = tempfile::tempdir().context("cannot create a temporary home")?;
        let state = home.path().join(".clawdbot");
        create_private_dir(&state)?;
        let token = Token::generate().context("cannot generate a socket token")?;
        // Under `full` no entry may match, or its use would still be saved.
        let allowlist = match security {
            Security::Allowlist => json!([{"pattern": true_path.to_string_lossy()}]),
            Security::Full => json!([]),
        };
        let policy = json!({
            "version": 1,
            "socket": {"token": token.expose_secret()},
            "defaults": {"security": security.name(), "ask": "off", "askFallback": "deny"},
            "agents": {"main": {"allowlist": allowlist}}
        });
        let approvals = state.join("exec-approvals.json");
        write_private(&approvals, &serde_json::to_vec_pretty(&policy)?)?;
        let socket = state.join("exec-approvals.sock");
        let log = home.path().join("ui-bridge.log");
        let log_file = std::fs::File::create(&log)
            .with_context(|| format!("cannot create {}", log.display()))?;

        let started = Instant::now();
        let child = std::process::Command::new(ui_bridge)
            .arg("serve")
            .env("HOME", home.path())
            .env("CLAWDBOT_STATE_DIR", &state)
            .env_remove("RUST_LOG")
            .envs(extra_env.iter().copied())
            .current_dir(home.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .with_context(|| format!("cannot start {}", ui_bridge.display()))?;
        let mut bridge = Bridge {
            child,
            socket,
            token,
            log,
            ready_after: Duration::ZERO,
            _home: home,
        };
        loop {
            if std::os::unix::net::UnixStream::connect(&bridge.socket).is_ok() {
                bridge.ready_after = started.elapsed();
                return Ok(bridge);
            }
            if let Some(status) = bridge.child.try_wait().context("cannot watch the bridge")? {
                bail!(
                    "ui-bridge exited with {status} before serving\n{}",
                    bridge.log_tail()
                );
            }
            if started.elapsed() > READY_DEADLINE {
                bail!(
                    "ui-bridge did not answer on {} within {READY_DEADLINE:?}\n{}",
                    bridge.socket.display(),
                    bridge.log_tail()
                );
            }
            std::thread::sleep(READY_POLL);
        }
    }

    /// The bridge's warnings and errors (else the end of its stderr), to
    /// explain a failure; every allowed run logs a line, which would bury them.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let mut lines: Vec<&str> = text
            .lines()
            .filter(|line| line.contains(" WARN ") || line.contains(" ERROR "))
            .collect();
        if lines.is_empty() {
            lines = text.lines().collect();
        }
        lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n")
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

fn write_private(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut file| file.write_all(bytes))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A `/proc/<pid>/status` field in kB (`VmRSS`, `VmHWM`).
fn proc_status_kb(pid: u32, field: &str) -> anyhow::Result<u64> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
    text.lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|n| n.trim().parse().ok())
        .with_context(|| format!("{path} has no readable {field}"))
}

/// Sends one request and times it; anything but a successful run is an error.
async fn exec_once(client: &mut Client, request: &ExecRequest) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let response = client.exec(request).await;
    let elapsed = started.elapsed();
    match response {
        Ok(ExecResponse::Completed(payload)) if payload.success => Ok(elapsed),
        Ok(ExecResponse::Completed(payload)) => bail!(
            "ran but did not succeed: exit code {:?}, error {:?}",
            payload.exit_code,
            payload.error
        ),
        Ok(ExecResponse::Refused(body)) => bail!("refused: {}", body.message),
        Err(error) => Err(anyhow::Error::new(error).context("request failed")),
    }
}

/// What the load phase counted.
#[derive(Debug, Default)]
struct LoadResult {
    total: usize,
    failures: usize,
    first_error: Option<String>,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

/// What one client of the load phase saw.
#[derive(Default)]
struct ClientResult {
    failures: usize,
    first_error: Option<String>,
    latencies: Vec<Duration>,
}

impl ClientResult {
    fn fail(&mut self, count: usize, error: &anyhow::Error) {
        self.failures += count;
        self.first_error.get_or_insert_with(|| format!("{error:#}"));
    }
}

/// `clients` connections, all open before any sends, each sending
/// `requests` requests in turn; a broken connection is reopened.
async fn load(
    bridge: &Bridge,
    request: &ExecRequest,
    clients: usize,
    requests: usize,
) -> LoadResult {
    let barrier = Arc::new(tokio::sync::Barrier::new(clients + 1));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..clients {
        let barrier = Arc::clone(&barrier);
        let socket = bridge.socket.clone();
        let token = bridge.token.clone();
        let request = request.clone();
        tasks.spawn(async move {
            let mut result = ClientResult::default();
            let mut client = Client::connect(&socket, token.expose_secret()).await;
            barrier.wait().await;
            for sent in 0..requests {
                if client.as_ref().map_or(true, Client::is_broken) {
                    client = Client::connect(&socket, token.expose_secret()).await;
                }
                let connected = match client.as_mut() {
                    Ok(connected) => connected,
                    Err(error) => {
                        let error = anyhow::anyhow!("cannot connect: {error}");
                        result.fail(requests - sent, &error);
                        break;
                    }
                };
                match exec_once(connected, &request).await {
                    Ok(latency) => result.latencies.push(latency),
                    Err(error) => result.fail(1, &error),
                }
            }
            result
        });
    }
    barrier.wait().await;
    let started = Instant::now();
    let mut total = LoadResult {
        total: clients * requests,
        ..LoadResult::default()
    };
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(result) => {
                total.failures += result.failures;
                if total.first_error.is_none() {
                    total.first_error = result.first_error;
                }
                total.latencies.extend(result.latencies);
            }
            Err(error) => {
                total.failures += requests;
                total
                    .first_error
                    .get_or_insert_with(|| format!("client task failed: {error}"));
            }
        }
    }
    total.elapsed = started.elapsed();
    total
}

/// Order statistics of one series of latencies.
#[derive(Debug, Clone, Copy)]
struct Stats {
    median: Duration,
    p90: Duration,
    p99: Duration,
    mean: Duration,
}

impl Stats {
    /// Nearest-rank percentiles; `None` for an empty series.
    fn of(mut samples: Vec<Duration>) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        samples.sort_unstable();
        let rank = |p: usize| samples[(samples.len() * p).div_ceil(100).max(1) - 1];
        let total: Duration = samples.iter().sum();
        Some(Stats {
            median: rank(50),
            p90: rank(90),
            p99: rank(99),
            mean: total / u32::try_from(samples.len()).unwrap_or(u32::MAX),
        })
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn mb(kb: u64) -> f64 {
    // Exact for any realistic RSS.
    #[allow(clippy::cast_precision_loss)]
    let kb = kb as f64;
    kb / 1024.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(f64::MIN_POSITIVE)
}

fn print_report(r: &Report) {
    let throughput = {
        #[allow(clippy::cast_precision_loss)]
        let done = (r.load.total - r.load.failures) as f64;
        done / r.load.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    };
    let row = |name: &str, s: &Stats| {
        format!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} |",
            ms(s.median),
            ms(s.p90),
            ms(s.p99),
            ms(s.mean)
        )
    };
    let mut out = String::new();
    let o = r.options;
    let _ = writeln!(
        out,
        "\nLatency of {TRUE}, {} runs each side, interleaved in blocks of {BLOCK}, \
         security {} (ms):\n",
        o.iterations,
        o.security.name()
    );
    let _ = writeln!(out, "| path | median | p90 | p99 | mean |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    let _ = writeln!(out, "{}", row("direct spawn", &r.direct));
    let _ = writeln!(out, "{}", row("through the bridge", &r.bridge));
    if let Some(load) = &r.load_latency {
        let _ = writeln!(
            out,
            "{}",
            row(&format!("under load ({} clients)", o.clients), load)
        );
    }
    let _ = writeln!(out, "\n| measure | value | budget |");
    let _ = writeln!(out, "|---|---:|---:|");
    let _ = writeln!(
        out,
        "| bridge / direct, median | {:.2}x | 1.3x |",
        ratio(r.bridge.median, r.direct.median)
    );
    let _ = writeln!(
        out,
        "| bridge / direct, p99 | {:.2}x | |",
        ratio(r.bridge.p99, r.direct.p99)
    );
    // The ratio moves with the machine's spawn speed; the added time does not.
    let _ = writeln!(
        out,
        "| bridge - direct, median | {:.0} us | |",
        (ms(r.bridge.median) - ms(r.direct.median)) * 1000.0
    );
    let _ = writeln!(
        out,
        "| bridge start to ready | {:.1} ms | 50 ms |",
        ms(r.ready)
    );
    let _ = writeln!(
        out,
        "| bridge start to ready, restarting without SHELL (median of {RESTART_STARTS}) | {:.1} ms | 50 ms |",
        ms(r.ready_restarting)
    );
    let _ = writeln!(
        out,
        "| bridge idle RSS | {:.1} MB | 10 MB |",
        mb(r.idle_rss_kb)
    );
    let _ = writeln!(
        out,
        "| load: {} clients x {} requests, failed | {} of {} | 0 |",
        o.clients, o.requests, r.load.failures, r.load.total
    );
    let _ = writeln!(out, "| load: throughput | {throughput:.0} req/s | |");
    let _ = writeln!(
        out,
        "| bridge peak RSS (VmHWM) | {:.1} MB | 30 MB |",
        mb(r.peak_rss_kb)
    );
    if let Some(error) = &r.load.first_error {
        let _ = writeln!(out, "\nfirst load error: {error}");
    }
    print!("{out}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parses_defaults_and_every_flag() {
        let o = Options::parse(args(&[])).unwrap().unwrap();
        assert_eq!((o.iterations, o.clients, o.requests), (2000, 256, 20));
        assert_eq!(o.security, Security::Allowlist);
        let o = Options::parse(args(&[
            "--iterations",
            "5",
            "--clients",
            "3",
            "--requests",
            "2",
            "--security",
            "full",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!((o.iterations, o.clients, o.requests), (5, 3, 2));
        assert_eq!(o.security, Security::Full);
        assert!(Options::parse(args(&["--help"])).unwrap().is_none());
    }

    #[test]
    fn refuses_unknown_missing_zero_and_non_numeric_arguments() {
        for bad in [
            &["--fast"][..],
            &["--iterations"],
            &["--clients", "0"],
            &["--requests", "-1"],
            &["--iterations", "ten"],
            &["--security"],
            &["--security", "deny"],
        ] {
            assert!(Options::parse(args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let samples: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let s = Stats::of(samples).unwrap();
        assert_eq!(s.median, Duration::from_millis(50));
        assert_eq!(s.p90, Duration::from_millis(90));
        assert_eq!(s.p99, Duration::from_millis(99));
        assert_eq!(s.mean, Duration::from_micros(50_500));
        let one = Stats::of(vec![Duration::from_millis(7)]).unwrap();
        let seven = Duration::from_millis(7);
        assert_eq!(
            (one.median, one.p90, one.p99, one.mean),
            (seven, seven, seven, seven)
        );
        assert!(Stats::of(Vec::new()).is_none());
    }

    #[test]
    fn reads_kilobytes_from_proc_status() {
        let kb = proc_status_kb(std::process::id(), "VmRSS").unwrap();
        assert!(kb > 0);
        assert!(proc_status_kb(std::process::id(), "NoSuchField").is_err());
    }
}
