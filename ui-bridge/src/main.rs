//! `ui-bridge`: the exec host binary. Thin: parse the command line, run the
//! subcommand, map the outcome to an exit code.

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`).
#![forbid(unsafe_code)]

mod cli;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use cli::{ApprovalsArgs, ApprovalsCommand, Cli, Command};

/// Exit code for usage errors and for a bridge that cannot start.
const EXIT_FAILURE: u8 = 2;

/// Exit code for a control request the bridge refused, or no bridge to ask.
const EXIT_REFUSED: u8 = 1;

fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            if error.is::<ui_bridge::control::ControlError>() {
                ExitCode::from(EXIT_REFUSED)
            } else {
                ExitCode::from(EXIT_FAILURE)
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => {
            let options = args.options()?;
            if let Err(error) = ui_bridge::serve::restart_in_child_env() {
                tracing::warn!(%error, "cannot restart in a clean environment; each child's environment is built per spawn");
            }
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            runtime.block_on(ui_bridge::serve::run(options))?;
            // Tasks still holding a request after the grace period are
            // dropped here, which kills their processes.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            Ok(())
        }
        Command::Audit(args) => match cli::audit::run(args)? {
            0 => Ok(()),
            // stdout was flushed by the subcommand; nothing else is pending.
            code => std::process::exit(i32::from(code)),
        },
        Command::Approvals(args) => approvals(&args),
    }
}

/// Runs one `ui-bridge approvals` subcommand against the running bridge
/// and prints its answer on stdout.
fn approvals(args: &ApprovalsArgs) -> anyhow::Result<()> {
    let target = args.target()?;
    let request = args.request();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let payload = runtime.block_on(ui_bridge::control::send(&target, &request))?;
    let out = match args.command {
        ApprovalsCommand::List { json: true } => serde_json::to_string_pretty(&payload)? + "\n",
        ApprovalsCommand::List { json: false } => {
            let pending: Vec<ui_bridge::broker::PendingApproval> = serde_json::from_value(payload)?;
            let now = approvals_ipc::ipc::auth::wall_clock_ms();
            ui_bridge::control::table::render_list(&pending, now)
        }
        ApprovalsCommand::Resolve { .. } | ApprovalsCommand::Answer { .. } => {
            ui_bridge::control::table::render_resolved(&payload)
        }
        ApprovalsCommand::CancelAgent { .. } => format!(
            "cancelled {} pending approval(s) of agent {}\n",
            payload["cancelled"],
            approvals_ipc::policy::unicode::escape_for_display(
                payload["agent"].as_str().unwrap_or("")
            )
        ),
    };
    print!("{out}");
    Ok(())
}

/// Logs to stderr, `info` unless `RUST_LOG` says otherwise.
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}
