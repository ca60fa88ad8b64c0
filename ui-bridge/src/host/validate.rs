//! The first step of every request: is it well-formed enough to evaluate?
//!
//! It decides the argv, the working directory and the environment a request
//! will be judged and run with. It refuses an empty command, a working
//! directory that is not an existing absolute directory (`cwd-unavailable`),
//! and an environment override of `PATH`, of a loader or interpreter hook,
//! or with a bad name or value (DESIGN.md section 8), checked once, here,
//! into the environment the child gets; the overrides that pass are then
//! decided by the policy like any other part of the request (only inert
//! ones are auto-allowed). After the evaluation,
//! [`raw_command_agrees`] refuses a `rawCommand` that does not say the same
//! thing as the analysed argv: the text a person or a log sees must be the
//! argv that is checked and run (openclaw.md section 10, class 3; DESIGN.md
//! invariant 4).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use approvals_ipc::ipc::ExecRequest;
use approvals_ipc::policy::Evaluation;

use super::HostRefusal;
use crate::exec::ChildEnv;

/// A request that passed validation: what the policy will evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    /// The argv, non-empty.
    pub argv: Vec<String>,
    /// An existing absolute directory.
    pub cwd: PathBuf,
    /// The child environment with the request's overrides, when it has
    /// any; `None` runs with the host's filtered environment.
    pub env: Option<ChildEnv>,
    /// The request's overrides, which passed the blocklist: what the policy
    /// decides (only inert ones are auto-allowed) and what `env` applies.
    pub overrides: BTreeMap<String, String>,
}

/// Checks `request`; `home` is the working directory when the request names
/// none, and `base` the environment its overrides apply to.
pub fn validate(
    request: &ExecRequest,
    home: Option<&Path>,
    base: &ChildEnv,
) -> Result<Validated, HostRefusal> {
    if request.command.is_empty() || request.command[0].trim().is_empty() {
        return Err(HostRefusal::CommandRequired);
    }
    let cwd = working_dir(request.cwd.as_deref(), home)?;
    let overrides = request.env.clone().unwrap_or_default();
    let env = if overrides.is_empty() {
        None
    } else {
        Some(
            base.with_overrides(&overrides)
                .map_err(HostRefusal::EnvOverride)?,
        )
    };
    Ok(Validated {
        argv: request.command.clone(),
        cwd,
        env,
        overrides,
    })
}

/// The requested working directory, or home, with every link resolved; it
/// must exist now, be a directory and be absolute (a relative one would
/// depend on where the bridge happened to start).
fn working_dir(requested: Option<&str>, home: Option<&Path>) -> Result<PathBuf, HostRefusal> {
    let unavailable = |message: String| Err(HostRefusal::CwdUnavailable(message));
    let cwd = match requested.filter(|cwd| !cwd.trim().is_empty()) {
        Some(cwd) => PathBuf::from(cwd),
        None => match home {
            Some(home) => home.to_path_buf(),
            None => {
                return unavailable(
                    "no working directory: the request names none and there is no home directory"
                        .to_owned(),
                );
            }
        },
    };
    if !cwd.is_absolute() {
        return unavailable(format!(
            "working directory {} is not an absolute path",
            cwd.display()
        ));
    }
    match std::fs::metadata(&cwd) {
        // The real directory is what is checked, shown and used, so a link
        // retargeted after the check (or during an approval) changes
        // nothing (openclaw.md section 10, class 13).
        Ok(meta) if meta.is_dir() => std::fs::canonicalize(&cwd).or_else(|error| {
            unavailable(format!(
                "working directory {} is unavailable: {error}",
                cwd.display()
            ))
        }),
        Ok(_) => unavailable(format!(
            "working directory {} is not a directory",
            cwd.display()
        )),
        Err(error) => unavailable(format!(
            "working directory {} is unavailable: {error}",
            cwd.display()
        )),
    }
}

/// Whether `raw` is the analysed request's own text: its quoted argv, or
/// the script of its shell wrapper (`sh -c SCRIPT`, through transparent
/// wrappers), as the analysis read it.
pub fn raw_command_agrees(raw: &str, evaluation: &Evaluation) -> bool {
    raw == evaluation.command_text() || evaluation.shell_script() == Some(raw)
}
