//! `node-host doctor`: the checks `ui-bridge doctor` runs (see
//! `ui_bridge::doctor`), plus, with `--gateway URL`, whether the gateway
//! answers a WebSocket handshake.
//!
//! It refuses nothing; it reports. A gateway that cannot be reached is a
//! problem (exit 1) with the step that failed: the name, the TCP connect,
//! TLS, or the WebSocket upgrade.

use std::time::Duration;

use ui_bridge::doctor::{Check, Finding};
use ui_bridge::exit::{Exit, Failure};

/// How long the gateway probe may take before it counts as unreachable.
const GATEWAY_PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Flags of `node-host doctor`.
#[derive(Debug, clap::Args)]
pub struct NodeDoctorArgs {
    /// The checks both binaries share.
    #[command(flatten)]
    pub common: ui_bridge::doctor::DoctorArgs,
    /// Also check that this gateway answers (ws://127.0.0.1:18789 or
    /// wss://HOST:PORT): TCP connect, TLS, WebSocket upgrade.
    #[arg(long, value_name = "URL")]
    pub gateway: Option<String>,
    /// Allow a plain ws:// gateway off loopback, as `serve --insecure` does.
    #[arg(long, requires = "gateway")]
    pub insecure: bool,
    /// Trust a wss:// gateway by the sha256 of its certificate (hex), as
    /// `serve --tls-fingerprint` does.
    #[arg(long, value_name = "SHA256", requires = "gateway")]
    pub tls_fingerprint: Option<String>,
}

/// Runs the checks and prints the report.
pub fn run(args: NodeDoctorArgs) -> anyhow::Result<Exit> {
    let mut report = ui_bridge::doctor::run(&args.common.options()?);
    if let Some(url) = &args.gateway {
        report.extend(gateway_finding(
            url,
            args.insecure,
            args.tls_fingerprint.as_deref(),
        )?);
    }
    Ok(ui_bridge::doctor::print(&report, args.common.json)?)
}

/// A problem when the gateway does not answer, else nothing.
fn gateway_finding(
    url: &str,
    insecure: bool,
    tls_pin: Option<&str>,
) -> anyhow::Result<Option<Finding>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| Failure::internal(format!("cannot start the async runtime: {error}")))?;
    let outcome = runtime.block_on(async {
        tokio::time::timeout(
            GATEWAY_PROBE_TIMEOUT,
            crate::transport::gateway::probe(url, insecure, tls_pin),
        )
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "no answer within {} s",
                GATEWAY_PROBE_TIMEOUT.as_secs()
            ))
        })
    });
    Ok(outcome.err().map(|why| {
        Finding::problem(
            Check::Gateway,
            url,
            format!("the gateway cannot be reached: {}", first_line(&why)),
            "check that the gateway runs (openclaw gateway status) and listens on that host and port, that a firewall lets the port through, and for wss:// that its certificate is trusted (or pass --tls-fingerprint)",
        )
    }))
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}
