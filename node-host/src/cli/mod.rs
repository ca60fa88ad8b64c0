//! The `node-host` command line: one module per subcommand.

mod approvals;
mod doctor;
mod explain;
pub mod identity;
mod run;
mod serve;
mod service;

use std::path::PathBuf;
use std::process::ExitCode;

use approvals_ipc::approvals::{PathSource, ResolvedPath};
use clap::{Parser, Subcommand};
use ui_bridge::exit::Exit;

/// Runs shell commands for an AI agent only when your exec-approvals policy
/// says so.
#[derive(Debug, Parser)]
#[command(name = "node-host", version = ui_bridge::VERSION, about, long_about = None, after_help = ui_bridge::exit::HELP_TABLE)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show what the policy decides for a command, and why, without running it.
    ///
    /// Reads the approvals file, analyses the command exactly as a
    /// `system.run` request would be analysed (shell wrappers parsed,
    /// dispatch wrappers unwrapped, executables resolved on this host's
    /// PATH), and prints the decision taken before any person is asked.
    /// Exit status is 0 whatever the decision; 64 for usage errors, 66 for
    /// file errors (a batch file with bad lines included).
    ///
    /// Examples:
    ///   node-host explain -- git status
    ///   node-host explain --shell 'cd src && make test'
    ///   node-host explain --json --agent main -- rm -rf build
    ///   node-host explain --batch history.jsonl
    #[command(verbatim_doc_comment)]
    Explain(explain::ExplainArgs),

    /// Run one command under the policy, through the UI bridge or the
    /// embedded exec host.
    ///
    /// Forwards the request over the bridge's socket (authenticated with the
    /// token in the approvals file) or, with `--exec-host local` or when no
    /// bridge answers in `auto` mode, decides and runs it in this process.
    /// Prints the command's stdout and stderr and exits with its status; a
    /// refusal prints `SYSTEM_RUN_DENIED: <reason>` and exits 126; a timeout
    /// exits 124; a command that cannot be started exits 127; a bridge that
    /// does not answer or refuses the token exits 69, an unusable approvals
    /// file 66, each with a `hint:` naming the file or socket to check.
    /// The command's stdin is empty; its output (200 000 bytes at most) is
    /// printed when it ends. `node-host:` lines on stderr say what it is
    /// doing (waiting for approval <short id>, no bridge, no approvals
    /// file, load warnings); --quiet silences them.
    ///
    /// Examples:
    ///   node-host run -- git status
    ///   node-host run --shell 'make test 2>&1 | tail -n 20'
    ///   node-host run --exec-host bridge --timeout-ms 5000 -- ls -la
    #[command(verbatim_doc_comment)]
    Run(run::RunArgs),

    /// Read or edit the approvals file: get, allow, revoke, set.
    ///
    /// `get` prints the policy without the socket token, and the file's
    /// hash; `allow` and `revoke` edit one agent's allowlist under the
    /// file's lock; `set` replaces the policy only if the file still has
    /// the hash you read. Exit status: 0 done, 126 edit refused (the file
    /// changed, or the entry is absent), 64 usage error, 66 unreadable or
    /// malformed file.
    ///
    /// Examples:
    ///   node-host approvals get
    ///   node-host approvals allow /usr/bin/git --agent main
    ///   node-host approvals revoke /usr/bin/git
    ///   node-host approvals set policy.json --base-hash <hash from get>
    #[command(verbatim_doc_comment)]
    Approvals(approvals::ApprovalsArgs),

    /// Print the device id a gateway pairs this node as.
    ///
    /// Creates the identity (an Ed25519 key in device.json, 0600 in a
    /// 0700 state directory) when there is none. The id is the hex sha256
    /// of the public key, as `openclaw devices list` and `openclaw nodes
    /// pending` show it.
    ///
    /// Examples:
    ///   node-host identity
    ///   node-host identity --json --state-dir /var/lib/node-host
    #[command(verbatim_doc_comment)]
    Identity(identity::IdentityArgs),

    /// Join an OpenClaw gateway as a node and serve system.run under the
    /// policy, in the foreground (logs on stderr; RUST_LOG=debug for more).
    ///
    /// Declares system.run, system.run.prepare, system.which and
    /// system.execApprovals.get/set. A command the policy allows runs; one
    /// that needs approval is refused `SYSTEM_RUN_DENIED: approval required`
    /// until the gateway's operators approve the plan system.run.prepare
    /// returned; the node's own deny always wins. Reconnects by itself.
    ///
    /// Joining, in three steps:
    ///   1. node-host serve --gateway ws://127.0.0.1:18789 --token-file ~/.clawdbot/gateway.token
    ///   2. on the gateway: openclaw nodes pending, then openclaw nodes approve <requestId>
    ///      (node-host identity prints the node id to look for)
    ///   3. allow programs: node-host approvals allow /usr/bin/git
    ///
    /// Examples:
    ///   node-host serve --gateway wss://gw.example.net:18789 --token-file gw.token
    ///   node-host serve --gateway ws://127.0.0.1:18789 --exec-host local --display-name build-01
    #[command(verbatim_doc_comment)]
    Serve(serve::ServeArgs),

    /// Check the setup for what is unsafe or broken, and say how to fix it.
    ///
    /// Runs the checks of `ui-bridge doctor` (state directory, approvals
    /// file, socket, token, risky allowlist entries, safe bins, ask off
    /// with security full, the audit chain) and, with --gateway, whether
    /// the gateway answers a WebSocket handshake. Exit status: 0 nothing
    /// wrong, 1 something is wrong, 64 usage error.
    ///
    /// Examples:
    ///   node-host doctor
    ///   node-host doctor --gateway wss://gw.example.net:18789
    ///   node-host doctor --fix --json
    #[command(verbatim_doc_comment)]
    Doctor(doctor::NodeDoctorArgs),

    /// Install, remove or show the node as a per-user service (a systemd
    /// user unit on Linux, a launchd agent on macOS).
    ///
    /// `install` writes node-host.service running `node-host serve
    /// --gateway URL` and prints the systemctl command that enables it;
    /// `uninstall` removes it; `status` lists it. Files not written by
    /// `install` are never overwritten or removed.
    ///
    /// Examples:
    ///   node-host service install --gateway wss://gw.example.net:18789 --token-file ~/.clawdbot/gateway.token
    ///   node-host service status
    ///   node-host service uninstall
    #[command(verbatim_doc_comment)]
    Service(service::NodeServiceArgs),

    /// Print the completion script for a shell on stdout.
    ///
    /// Examples:
    ///   node-host completions bash > ~/.local/share/bash-completion/completions/node-host
    ///   node-host completions zsh > ~/.zfunc/_node-host
    ///   node-host completions fish > ~/.config/fish/completions/node-host.fish
    #[command(verbatim_doc_comment)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: ui_bridge::cli_docs::Shell,
    },

    /// Write the man pages (node-host.1 and one per subcommand) into a directory.
    Man {
        /// Where to write them.
        #[arg(long, value_name = "DIR", default_value = "docs/man")]
        out: PathBuf,
    },
}

/// Where the approvals file is, from a flag or the defaults.
#[derive(Debug, Clone, clap::Args)]
pub struct ApprovalsArg {
    /// The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json,
    /// else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing
    /// ~/.clawdbot/exec-approvals.json, else an existing
    /// ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]
    #[arg(long, value_name = "FILE")]
    pub approvals: Option<PathBuf>,
}

impl ApprovalsArg {
    /// The path to use.
    pub fn path(&self) -> anyhow::Result<PathBuf> {
        Ok(self.resolve()?.path)
    }

    /// The path to use and why it was chosen, for commands that say so.
    pub fn resolve(&self) -> anyhow::Result<ResolvedPath> {
        match &self.approvals {
            Some(path) => Ok(ResolvedPath {
                path: path.clone(),
                source: PathSource::Flag,
            }),
            None => Ok(approvals_ipc::approvals::resolve_approvals_path_from_env()?),
        }
    }
}

/// Parses the command line, runs it and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage(&error).into(),
    };
    // A service says what it is doing; one-shot commands stay quiet.
    // `run` prints the approvals file's load warnings itself (one
    // `node-host:` line each, silenced by --quiet), so the embedded exec
    // host's log of the same warnings would only repeat them.
    init_tracing(match cli.command {
        Command::Serve(_) => "info",
        Command::Run(_) => "warn,ui_bridge::host::policy_cache=error",
        _ => "warn",
    });
    let result = match cli.command {
        Command::Explain(args) => explain::run(args),
        Command::Run(args) => run::run(args),
        Command::Approvals(args) => approvals::run(args),
        Command::Identity(args) => identity::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Service(args) => service::run(args),
        Command::Completions { shell } => completions(shell),
        Command::Man { out } => man(&out),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(err) => {
            if is_broken_pipe(&err) {
                return Exit::Success.into();
            }
            eprintln!("error: {err:#}");
            Exit::of_error(err.chain()).into()
        }
    }
}

/// Prints the completion script for `shell`.
fn completions(shell: ui_bridge::cli_docs::Shell) -> anyhow::Result<Exit> {
    use clap::CommandFactory as _;
    use std::io::Write as _;
    let script = ui_bridge::cli_docs::completions(Cli::command(), shell);
    std::io::stdout().write_all(&script)?;
    Ok(Exit::Success)
}

/// Writes the man pages into `out` and lists them.
fn man(out: &std::path::Path) -> anyhow::Result<Exit> {
    use clap::CommandFactory as _;
    let written = ui_bridge::cli_docs::write_man_pages(Cli::command(), out).map_err(|error| {
        ui_bridge::exit::Failure::file(format!(
            "cannot write man pages into {}: {error}",
            out.display()
        ))
    })?;
    for path in written {
        println!("{}", path.display());
    }
    Ok(Exit::Success)
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

fn init_tracing(default_level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        // Colour codes only for a person: a journal or a log file gets
        // plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
