//! `node-host identity`: prints the device id a gateway pairs this node as
//! (creating the identity when there is none), so an operator can match it
//! against `openclaw devices list` / `openclaw nodes pending`.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use ui_bridge::exit::{Exit, Failure};

use crate::transport::gateway::DeviceIdentity;

/// The directory under the approvals state directory that holds the
/// node's gateway identity and tokens.
pub const NODE_STATE_SUBDIR: &str = "node";

/// Flags of `node-host identity`.
#[derive(Debug, clap::Args)]
pub struct IdentityArgs {
    /// The node's state directory, holding device.json [default:
    /// $CLAWDBOT_STATE_DIR/node, else ~/.clawdbot/node]
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// Print `{"deviceId": …, "publicKey": …}` instead of the bare id.
    #[arg(long)]
    pub json: bool,
}

/// Prints the device id (and public key with `--json`).
pub fn run(args: IdentityArgs) -> anyhow::Result<Exit> {
    let state_dir = match args.state_dir {
        Some(dir) => dir,
        None => default_state_dir()?,
    };
    let identity = DeviceIdentity::load_or_create(&state_dir).map_err(|error| Failure {
        exit: Exit::FileError,
        message: format!(
            "cannot load the device identity in {}: {error}",
            state_dir.display()
        ),
    })?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let shown = serde_json::json!({
            "deviceId": identity.device_id(),
            "publicKey": identity.public_key(),
        });
        writeln!(out, "{shown}")?;
    } else {
        writeln!(out, "{}", identity.device_id())?;
    }
    Ok(Exit::Success)
}

/// `$CLAWDBOT_STATE_DIR/node`, else `~/.clawdbot/node`: beside the
/// approvals file, in the same private state directory.
pub fn default_state_dir() -> anyhow::Result<PathBuf> {
    let approvals = approvals_ipc::approvals::default_approvals_path_from_env()?;
    let parent = approvals
        .parent()
        .context("the approvals path has no parent directory")?;
    Ok(parent.join(NODE_STATE_SUBDIR))
}
