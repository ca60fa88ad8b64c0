//! `node-host service install|uninstall|status`: the node as a per-user
//! service (`node-host serve --gateway URL`), through `ui_bridge::service`.
//! `install` refuses without `--gateway`: a node without a gateway has
//! nothing to serve, and with a `--token-file` it cannot read (the unit
//! would only fail at start).

use std::path::PathBuf;

use ui_bridge::exit::{Exit, Failure};
use ui_bridge::service::{ServiceCommand, ServiceSpec};

/// Flags of `node-host service`.
#[derive(Debug, Clone, clap::Args)]
pub struct NodeServiceArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ServiceCommand,
    /// The gateway the service joins (needed by install).
    #[arg(long, value_name = "URL", global = true)]
    pub gateway: Option<String>,
    /// The gateway token file the service reads.
    #[arg(long, value_name = "FILE", global = true)]
    pub token_file: Option<PathBuf>,
    /// The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json,
    /// else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing
    /// ~/.clawdbot/exec-approvals.json, else an existing
    /// ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]
    #[arg(long, value_name = "FILE", global = true)]
    pub approvals: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: NodeServiceArgs) -> anyhow::Result<Exit> {
    let approvals = match &args.approvals {
        Some(path) => std::path::absolute(path)?,
        None => approvals_ipc::approvals::default_approvals_path_from_env()?,
    };
    let mut serve = vec![
        "serve".to_owned(),
        "--approvals".to_owned(),
        approvals.display().to_string(),
    ];
    match (&args.command, &args.gateway) {
        (_, Some(url)) => serve.extend(["--gateway".to_owned(), url.clone()]),
        (ServiceCommand::Install { .. }, None) => {
            return Err(Failure::usage(
                "service install needs the gateway to join\nhint: node-host service install --gateway wss://HOST:PORT --token-file ~/.clawdbot/gateway.token",
            )
            .into());
        }
        (_, None) => {}
    }
    if let Some(file) = &args.token_file {
        // A unit whose token file is missing would only fail at start, in
        // the journal; refuse now, with the command that creates it.
        if matches!(args.command, ServiceCommand::Install { .. }) {
            let state_dir = approvals.parent().map_or_else(
                || PathBuf::from(super::identity::NODE_STATE_SUBDIR),
                |dir| dir.join(super::identity::NODE_STATE_SUBDIR),
            );
            super::serve::read_token(file, &state_dir)?;
        }
        serve.extend([
            "--token-file".to_owned(),
            std::path::absolute(file)?.display().to_string(),
        ]);
    }
    let spec = ServiceSpec {
        name: "node-host".to_owned(),
        description: "exec-approvals node host (OpenClaw gateway node)".to_owned(),
        exe: std::env::current_exe()?,
        args: serve,
        socket: None,
        after: vec!["network-online.target".to_owned()],
    };
    ui_bridge::service::run(&args.command, &spec)
}
