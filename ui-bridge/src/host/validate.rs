//! The first step of every request: is it well-formed enough to evaluate?
//!
//! It decides the argv, the working directory and the environment overrides
//! a request will be judged and run with. It refuses an empty command, a
//! working directory that is not an existing absolute directory
//! (`cwd-unavailable`), an environment override of `PATH`, of a loader or
//! interpreter hook, or with a bad name or value (DESIGN.md section 8), and a
//! `rawCommand` that does not say the same thing as the argv: the text a
//! person or a log sees must be the argv that is checked and run (openclaw.md
//! section 10, class 3; DESIGN.md invariant 4).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use approvals_ipc::ipc::{ErrorBody, ErrorCode, ExecRequest};
use approvals_ipc::policy::{env, quote, wrappers};

/// A request that passed validation: what the policy will evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    /// The argv, non-empty.
    pub argv: Vec<String>,
    /// An existing absolute directory.
    pub cwd: PathBuf,
    /// Overrides that passed [`env::check_overrides`].
    pub overrides: BTreeMap<String, String>,
}

/// Checks `request`; `home` is the working directory when the request names none.
pub fn validate(request: &ExecRequest, home: Option<&Path>) -> Result<Validated, ErrorBody> {
    if request.command.is_empty() || request.command[0].trim().is_empty() {
        return Err(ErrorBody::new(
            ErrorCode::InvalidRequest,
            "command required",
        ));
    }
    let cwd = working_dir(request.cwd.as_deref(), home)?;
    let overrides = request.env.clone().unwrap_or_default();
    if let Err(refusal) = env::check_overrides(&overrides) {
        return Err(ErrorBody::new(
            ErrorCode::Unavailable,
            format!("SYSTEM_RUN_DENIED: {refusal}"),
        )
        .with_reason("env-override-rejected"));
    }
    if let Some(raw) = &request.raw_command
        && !raw_command_agrees(raw, &request.command)
    {
        return Err(ErrorBody::new(
            ErrorCode::InvalidRequest,
            "rawCommand does not match command",
        )
        .with_reason("raw-command-mismatch"));
    }
    Ok(Validated {
        argv: request.command.clone(),
        cwd,
        overrides,
    })
}

/// The requested working directory, or home, with every link resolved; it
/// must exist now, be a directory and be absolute (a relative one would
/// depend on where the bridge happened to start).
fn working_dir(requested: Option<&str>, home: Option<&Path>) -> Result<PathBuf, ErrorBody> {
    let unavailable = |message: String| {
        Err(ErrorBody::new(ErrorCode::Unavailable, message).with_reason("cwd-unavailable"))
    };
    let cwd = match requested.filter(|cwd| !cwd.trim().is_empty()) {
        Some(cwd) => PathBuf::from(cwd),
        None => match home {
            Some(home) => home.to_path_buf(),
            None => {
                return unavailable(
                    "SYSTEM_RUN_DENIED: no working directory: the request names none and there is no home directory".to_owned(),
                );
            }
        },
    };
    if !cwd.is_absolute() {
        return unavailable(format!(
            "SYSTEM_RUN_DENIED: working directory {} is not an absolute path",
            cwd.display()
        ));
    }
    match std::fs::metadata(&cwd) {
        // The real directory is what is checked, shown and used, so a link
        // retargeted after the check (or during an approval) changes
        // nothing (openclaw.md section 10, class 13).
        Ok(meta) if meta.is_dir() => std::fs::canonicalize(&cwd).or_else(|error| {
            unavailable(format!(
                "SYSTEM_RUN_DENIED: working directory {} is unavailable: {error}",
                cwd.display()
            ))
        }),
        Ok(_) => unavailable(format!(
            "SYSTEM_RUN_DENIED: working directory {} is not a directory",
            cwd.display()
        )),
        Err(error) => unavailable(format!(
            "SYSTEM_RUN_DENIED: working directory {} is unavailable: {error}",
            cwd.display()
        )),
    }
}

/// Whether `raw` is the argv's own text: its quoted form, or the script of
/// a shell wrapper (`sh -c SCRIPT`, through transparent wrappers).
pub fn raw_command_agrees(raw: &str, argv: &[String]) -> bool {
    if raw == quote::join(argv) {
        return true;
    }
    matches!(wrappers::unwrap(argv), Ok(wrappers::Unwrapped::Shell { script, .. }) if script == raw)
}
