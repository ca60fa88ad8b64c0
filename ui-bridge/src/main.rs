//! `ui-bridge`: the exec host binary. Thin: parse the command line, run the
//! subcommand, map the outcome to an exit code (`ui_bridge::exit::Exit`,
//! the table both binaries share).

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`).
#![forbid(unsafe_code)]

mod cli;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

use cli::{ApprovalsArgs, ApprovalsCommand, Cli, Command};
use ui_bridge::exit::{Exit, Failure};

fn main() -> ExitCode {
    init_tracing();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage(&error).into(),
    };
    match run(cli) {
        Ok(exit) => exit.into(),
        Err(error) => {
            eprintln!("error: {error:#}");
            Exit::of_error(error.chain()).into()
        }
    }
}

/// Prints clap's message; `--help` and `--version` succeed, anything else
/// is a usage error.
fn usage(error: &clap::Error) -> Exit {
    // Nothing better to do if stderr is gone; the exit status still tells.
    let _ = error.print();
    if error.use_stderr() {
        Exit::Usage
    } else {
        Exit::Success
    }
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Serve(args) => {
            let options = args.options()?;
            if let Err(error) = ui_bridge::serve::restart_in_child_env() {
                tracing::warn!(%error, "cannot restart in a clean environment; each child's environment is built per spawn");
            }
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .map_err(|error| {
                    Failure::internal(format!("cannot start the async runtime: {error}"))
                })?;
            runtime.block_on(ui_bridge::serve::run(options))?;
            // Tasks still holding a request after the grace period are
            // dropped here, which kills their processes.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            ui_bridge::exec::contain::release();
            Ok(Exit::Success)
        }
        // stdout was flushed by the subcommand; nothing else is pending.
        Command::Audit(args) => cli::audit::run(args),
        Command::Approvals(args) => approvals(&args).map(|()| Exit::Success),
        Command::Doctor(args) => {
            let report = ui_bridge::doctor::run(&args.options()?);
            Ok(ui_bridge::doctor::print(&report, args.json)?)
        }
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            use std::io::Write as _;
            let script = ui_bridge::cli_docs::completions(Cli::command(), shell);
            std::io::stdout().write_all(&script)?;
            Ok(Exit::Success)
        }
        Command::Service(args) => ui_bridge::service::run(&args.command, &args.spec()?),
        Command::Schema => {
            let schema = approvals_ipc::approvals::json_schema();
            println!("{}", serde_json::to_string_pretty(&schema)?);
            Ok(Exit::Success)
        }
        Command::Man { out } => {
            use clap::CommandFactory as _;
            for path in
                ui_bridge::cli_docs::write_man_pages(Cli::command(), &out).map_err(|error| {
                    Failure::file(format!(
                        "cannot write man pages into {}: {error}",
                        out.display()
                    ))
                })?
            {
                println!("{}", path.display());
            }
            Ok(Exit::Success)
        }
    }
}

/// Runs one `ui-bridge approvals` subcommand against the running bridge
/// and prints its answer on stdout.
fn approvals(args: &ApprovalsArgs) -> anyhow::Result<()> {
    let target = args.target()?;
    let request = args.request();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| Failure::internal(format!("cannot start the async runtime: {error}")))?;
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

/// Logs to stderr, `info` unless `RUST_LOG` says otherwise; held back
/// while the terminal approver's prompt is drawn, and repeats counted.
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(ui_bridge::approvers::terminal::PromptAwareStderr)
        .with_target(false)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}
