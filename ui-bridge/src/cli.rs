//! The `ui-bridge` command line: what was typed, turned into what to do.
//!
//! One variant per subcommand: `serve`, `audit`, and `approvals` (list and answer
//! pending approvals of a running bridge). It refuses nothing itself beyond
//! clap's usage checks (an unknown decision word is one): the subcommands
//! validate their own inputs and name the file or socket at fault.

pub mod audit;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// The exec host: serves the approvals socket, decides under your policy,
/// and runs only what was checked.
#[derive(Debug, Parser)]
#[command(name = "ui-bridge", version = ui_bridge::VERSION, about, long_about = None, after_help = ui_bridge::exit::HELP_TABLE)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the approvals socket: decide and run `system.run` requests.
    ///
    /// Creates the approvals file when it is missing (security allowlist,
    /// ask on-miss, askFallback deny, a fresh random token) and never
    /// rewrites a file it cannot parse. Listens on a Unix socket in a
    /// private directory (mode 0700, the socket 0600); only processes of
    /// your own user may connect, and every request must be signed with the
    /// token from the approvals file. Commands run without a shell, exactly
    /// as checked, with loader and interpreter hooks removed from their
    /// environment. Edits to the approvals file apply to the next request
    /// without a restart.
    ///
    /// Approvals: when stdin is a terminal, a prompt on it asks you (keys o
    /// allow once, a allow always, d deny; e unfolds segments, j/k scroll on
    /// a small screen); with --web a page in your browser asks too; with
    /// --approver-command a program answers too. The first answer wins.
    /// With none, askFallback decides.
    ///
    /// Stops on SIGINT, SIGTERM or SIGHUP: cancels requests in flight (their
    /// processes are killed), removes the socket and exits 0. Logs go to
    /// stderr; set RUST_LOG (e.g. RUST_LOG=debug) for more.
    ///
    /// Examples:
    ///   ui-bridge serve
    ///   ui-bridge serve --approvals ./exec-approvals.json --socket /run/user/1000/clawdbot/exec.sock
    ///   ui-bridge serve --approver-command 'notify-and-wait.sh'
    ///   ui-bridge serve --web
    ///   ui-bridge serve --web 127.0.0.1:8787
    #[command(verbatim_doc_comment)]
    Serve(ServeArgs),

    /// Read and check the audit log: tail, query, verify.
    ///
    /// Every decision and outcome is one line of a hash-chained JSON-lines
    /// log (exec-audit.jsonl beside the approvals file). `tail` and `query`
    /// print records (escaped, or --json); `verify` checks that no line was
    /// changed, removed or inserted. Exit status: 0 done, 66 the chain is
    /// broken or the log unreadable, 64 usage error.
    ///
    /// Examples:
    ///   ui-bridge audit tail -n 20 -f
    ///   ui-bridge audit query --since 1h --decision deny
    ///   ui-bridge audit verify
    #[command(verbatim_doc_comment)]
    Audit(audit::AuditArgs),

    /// List and answer the pending approvals of a running bridge.
    ///
    /// Talks to the `ui-bridge serve` on the approvals socket, signing each
    /// request with the token from the approvals file (never printed). The
    /// first answer wins: when another approver (the terminal, a hook, a
    /// second `resolve`) was first, yours fails with "approval not found".
    ///
    /// Exit status: 0 done, 126 refused or no bridge running, 64 usage error,
    /// 66 the approvals file is unusable.
    ///
    /// Examples:
    ///   ui-bridge approvals list
    ///   ui-bridge approvals list --json
    ///   ui-bridge approvals resolve 0199a3f2 once
    ///   ui-bridge approvals resolve 0199a3f2-7c1e deny --approver alice
    ///   ui-bridge approvals answer '/approve 0199a3f2 always'
    ///   ui-bridge approvals answer 'approve:0199a3f2:deny'
    ///   ui-bridge approvals cancel-agent main --reason 'session ended'
    #[command(verbatim_doc_comment)]
    Approvals(ApprovalsArgs),

    /// Check the setup for what is unsafe or broken, and say how to fix it.
    ///
    /// Looks at the state directory and the approvals file (owner, mode,
    /// symbolic links, whether it parses), the socket (live, stale, mode),
    /// the token (present, long enough), allowlist entries that trust a
    /// shell, an interpreter, a wrapper, `*`, a bare name or a
    /// world-writable directory, safe bins that never apply, `ask: off`
    /// with `security: full`, and the audit log's hash chain. Each finding
    /// says what is wrong and how to fix it. Exit status: 0 nothing wrong,
    /// 1 something is wrong, 64 usage error.
    ///
    /// Examples:
    ///   ui-bridge doctor
    ///   ui-bridge doctor --fix
    ///   ui-bridge doctor --json --approvals ./exec-approvals.json
    #[command(verbatim_doc_comment)]
    Doctor(ui_bridge::doctor::DoctorArgs),

    /// Print the completion script for a shell on stdout.
    ///
    /// Examples:
    ///   ui-bridge completions bash > ~/.local/share/bash-completion/completions/ui-bridge
    ///   ui-bridge completions zsh > ~/.zfunc/_ui-bridge
    ///   ui-bridge completions fish > ~/.config/fish/completions/ui-bridge.fish
    #[command(verbatim_doc_comment)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: ui_bridge::cli_docs::Shell,
    },

    /// Install, remove or show the per-user service (systemd user units
    /// with socket activation on Linux, a launchd agent on macOS).
    ///
    /// `install` writes ui-bridge.service and ui-bridge.socket (the bridge
    /// then starts on the first request) and prints the systemctl command
    /// that enables them; `uninstall` removes them; `status` lists them.
    /// Files not written by `install` are never overwritten or removed.
    ///
    /// Examples:
    ///   ui-bridge service install
    ///   ui-bridge service status
    ///   ui-bridge service uninstall
    #[command(verbatim_doc_comment)]
    Service(ui_bridge::service::BridgeServiceArgs),

    /// Print the JSON Schema of the approvals file on stdout.
    ///
    /// Generated from the types the loader reads. Point an editor at it
    /// with a "$schema" key in the file (kept on save, ignored by the
    /// loader) to get validation and completion; the repository keeps a
    /// copy in docs/exec-approvals.schema.json.
    ///
    /// Examples:
    ///   ui-bridge schema > ~/.clawdbot/exec-approvals.schema.json
    #[command(verbatim_doc_comment)]
    Schema,

    /// Write the man pages (ui-bridge.1 and one per subcommand) into a directory.
    Man {
        /// Where to write them.
        #[arg(long, value_name = "DIR", default_value = "docs/man")]
        out: PathBuf,
    },
}

/// Flags of `ui-bridge serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json,
    /// else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing
    /// ~/.clawdbot/exec-approvals.json, else an existing
    /// ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]
    #[arg(long, value_name = "FILE")]
    pub approvals: Option<PathBuf>,
    /// The socket to listen on [default: socket.path from the approvals
    /// file, else exec-approvals.sock beside it]. Its directory must be
    /// yours with mode 0700; when missing it is created so, but only under
    /// an existing parent directory you own.
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// How long an approval prompt waits before askFallback decides
    /// [default: approvalTimeoutMs from the policy, else 120000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub approval_timeout_ms: Option<u64>,
    /// A program that answers approvals: run as `/bin/sh -c CMD` with the
    /// approval as one JSON line on stdin; it prints allow-once,
    /// allow-always or deny and exits 0. Checked at start (sh syntax, and its
    /// program must exist and be executable). A hook that fails answers
    /// nothing (`hook-failed`): the terminal prompt stays; with no terminal
    /// the request is denied [default: approverCommand from the policy
    /// defaults]
    #[arg(long, value_name = "CMD")]
    pub approver_command: Option<String>,
    /// Count an approval that `node-host serve` relays from its gateway's
    /// operators (checked by the node against the plan it prepared) as an
    /// answer, audited as approver `gateway`. Without it only this bridge's
    /// own approvers answer. `defaults.approvers`, when set, must name
    /// `gateway` too.
    #[arg(long)]
    pub accept_gateway_approvals: bool,
    /// Serve the approvals page (pending approvals live, the policy
    /// editor, the audit log) on ADDR [default ADDR: 127.0.0.1:0, a free
    /// loopback port; without the flag: `web` from the policy defaults,
    /// else no page]. Prints a login URL with a fresh secret once; keep it
    /// private. An address beyond loopback is served with a warning.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = ui_bridge::web::DEFAULT_ADDR)]
    pub web: Option<std::net::SocketAddr>,
    /// Also send every audit record to journald or syslog (RFC 5424),
    /// optionally at another socket: journald, syslog, syslog:/run/x.sock
    /// [default: audit.sink from the approvals file; none]
    #[arg(long, value_name = "SINK", value_parser = parse_sink)]
    pub audit_sink: Option<ui_bridge::audit::SinkKind>,
}

fn parse_sink(text: &str) -> Result<ui_bridge::audit::SinkKind, String> {
    text.parse()
}

/// Flags of `ui-bridge approvals`, shared by its subcommands.
#[derive(Debug, Clone, clap::Args)]
pub struct ApprovalsArgs {
    /// What to do with the pending approvals.
    #[command(subcommand)]
    pub command: ApprovalsCommand,
    /// The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json,
    /// else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing
    /// ~/.clawdbot/exec-approvals.json, else an existing
    /// ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]
    #[arg(long, value_name = "FILE", global = true)]
    pub approvals: Option<PathBuf>,
    /// The bridge's socket [default: socket.path from the approvals file,
    /// else exec-approvals.sock beside it]
    #[arg(long, value_name = "PATH", global = true)]
    pub socket: Option<PathBuf>,
}

/// The `ui-bridge approvals` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum ApprovalsCommand {
    /// Show the pending approvals, oldest first: id, age, time left, agent,
    /// risk and the command (invisible characters escaped).
    List {
        /// Print the bridge's JSON (an array of pending approvals) instead.
        #[arg(long)]
        json: bool,
    },
    /// Answer one pending approval by id or unique prefix (4+ characters).
    Resolve {
        /// The approval id, or a unique prefix of it.
        id: String,
        /// allow-once (once, allow), allow-always (always) or deny (reject, block).
        #[arg(value_parser = parse_decision)]
        decision: approvals_ipc::ipc::Decision,
        /// Who answers, recorded as control:NAME [default: $USER, else cli]
        #[arg(long, value_name = "NAME")]
        approver: Option<String>,
    },
    /// Deny every pending approval of one agent (the agent went away).
    CancelAgent {
        /// The agent id (e.g. main).
        agent: String,
        /// Why, shown to approvers [default: the agent went away]
        #[arg(long, value_name = "TEXT", default_value = "")]
        reason: String,
    },
    /// Answer with chat text: `/approve ID DECISION`, `/deny ID`, or button
    /// data `approve:ID:once|always|deny`.
    Answer {
        /// The chat text (quote it).
        text: String,
        /// Who answers, recorded as control:NAME [default: $USER, else cli]
        #[arg(long, value_name = "NAME")]
        approver: Option<String>,
    },
}

/// A decision word as chat approvers accept it.
fn parse_decision(word: &str) -> Result<approvals_ipc::ipc::Decision, String> {
    ui_bridge::approvers::chat::alias(word).ok_or_else(|| {
        format!(
            "unknown decision `{word}`, expected allow-once, allow-always or deny (or once, always)"
        )
    })
}

impl ApprovalsArgs {
    /// The control request this subcommand sends.
    pub fn request(&self) -> approvals_ipc::ipc::ControlRequest {
        use approvals_ipc::ipc::ControlRequest;
        let approver = |name: &Option<String>| {
            name.clone()
                .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
                .unwrap_or_else(|| "cli".to_owned())
        };
        match &self.command {
            ApprovalsCommand::List { .. } => ControlRequest::List {},
            ApprovalsCommand::Resolve {
                id,
                decision,
                approver: name,
            } => ControlRequest::Resolve {
                id: id.clone(),
                decision: *decision,
                approver: approver(name),
            },
            ApprovalsCommand::Answer {
                text,
                approver: name,
            } => ControlRequest::Answer {
                text: text.clone(),
                approver: approver(name),
            },
            ApprovalsCommand::CancelAgent { agent, reason } => ControlRequest::CancelAgent {
                agent: agent.clone(),
                reason: reason.clone(),
            },
        }
    }

    /// The bridge to talk to, with defaults filled in.
    pub fn target(&self) -> anyhow::Result<ui_bridge::control::ControlTarget> {
        let approvals_path = match &self.approvals {
            Some(path) => path.clone(),
            None => approvals_ipc::approvals::default_approvals_path_from_env()?,
        };
        Ok(ui_bridge::control::ControlTarget {
            approvals_path,
            socket: self.socket.clone(),
            home: std::env::home_dir(),
        })
    }
}

impl ServeArgs {
    /// What `serve` will do, with defaults filled in.
    pub fn options(&self) -> anyhow::Result<ui_bridge::serve::ServeOptions> {
        let resolved = match &self.approvals {
            Some(path) => approvals_ipc::approvals::ResolvedPath {
                path: path.clone(),
                source: approvals_ipc::approvals::PathSource::Flag,
            },
            None => approvals_ipc::approvals::resolve_approvals_path_from_env()?,
        };
        Ok(ui_bridge::serve::ServeOptions {
            approvals_path: resolved.path,
            approvals_source: resolved.source,
            socket: self.socket.clone(),
            approval_timeout: self.approval_timeout_ms.map(Duration::from_millis),
            approver_command: self.approver_command.clone(),
            accept_gateway_approvals: self.accept_gateway_approvals,
            web: self.web,
            audit_sink: self.audit_sink.clone(),
        })
    }
}
