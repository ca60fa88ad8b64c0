//! Where the approvals file and its socket live by default, and `~`
//! expansion.
//!
//! It decides the default location (`$CLAWDBOT_STATE_DIR/exec-approvals.json`,
//! else `~/.clawdbot/exec-approvals.json`) with a pure function of the
//! environment values, so tests never touch the process environment. It
//! refuses to guess: with no state directory and no home directory there is
//! no default, and a `~` path with no home directory is not expanded into a
//! relative path.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use super::error::ApprovalsError;

/// The file name of the approvals file inside the state directory.
pub const APPROVALS_FILE_NAME: &str = "exec-approvals.json";
/// The file name of the bridge socket inside the state directory.
pub const SOCKET_FILE_NAME: &str = "exec-approvals.sock";
/// The environment variable that moves the state directory.
pub const STATE_DIR_ENV: &str = "CLAWDBOT_STATE_DIR";
/// The state directory under the home directory when the variable is unset.
pub const HOME_STATE_DIR: &str = ".clawdbot";

/// The default approvals path for the given `CLAWDBOT_STATE_DIR` value and
/// home directory; an empty state dir counts as unset.
pub fn default_approvals_path(
    state_dir: Option<&OsStr>,
    home: Option<&Path>,
) -> Result<PathBuf, ApprovalsError> {
    if let Some(state_dir) = state_dir.filter(|dir| !dir.is_empty()) {
        let dir =
            expand_tilde(Path::new(state_dir), home).ok_or(ApprovalsError::NoHomeDirectory)?;
        return Ok(dir.join(APPROVALS_FILE_NAME));
    }
    let home = home.ok_or(ApprovalsError::NoHomeDirectory)?;
    Ok(home.join(HOME_STATE_DIR).join(APPROVALS_FILE_NAME))
}

/// [`default_approvals_path`] for the real environment of this process.
pub fn default_approvals_path_from_env() -> Result<PathBuf, ApprovalsError> {
    let state_dir = std::env::var_os(STATE_DIR_ENV);
    let home = std::env::home_dir();
    default_approvals_path(state_dir.as_deref(), home.as_deref())
}

/// Where the bridge socket is for an approvals file: `socket.path` from the
/// file (with `~` expanded), else `exec-approvals.sock` beside the file.
pub fn socket_path(
    configured: Option<&str>,
    approvals_path: &Path,
    home: Option<&Path>,
) -> Option<PathBuf> {
    match configured.filter(|p| !p.trim().is_empty()) {
        Some(p) => expand_tilde(Path::new(p.trim()), home),
        None => Some(
            approvals_path
                .parent()
                .unwrap_or(Path::new("."))
                .join(SOCKET_FILE_NAME),
        ),
    }
}

/// Replaces a leading `~` component with `home`; `~user` and paths without a
/// leading `~` are returned unchanged. `None` when `~` needs a home directory
/// and there is none.
pub fn expand_tilde(path: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let mut components = path.components();
    match components.next() {
        Some(Component::Normal(first)) if first == "~" => Some(home?.join(components.as_path())),
        _ => Some(path.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_table() {
        let home = Some(Path::new("/home/u"));
        let cases: &[(Option<&str>, Option<&Path>, Option<&str>)] = &[
            (None, home, Some("/home/u/.clawdbot/exec-approvals.json")),
            (
                Some(""),
                home,
                Some("/home/u/.clawdbot/exec-approvals.json"),
            ),
            (
                Some("/srv/state"),
                home,
                Some("/srv/state/exec-approvals.json"),
            ),
            (
                Some("/srv/state"),
                None,
                Some("/srv/state/exec-approvals.json"),
            ),
            (
                Some("~/state"),
                home,
                Some("/home/u/state/exec-approvals.json"),
            ),
            (Some("~/state"), None, None),
            (None, None, None),
        ];
        for (state_dir, home, expected) in cases {
            let got = default_approvals_path(state_dir.map(OsStr::new), *home).ok();
            assert_eq!(
                got.as_deref(),
                expected.map(Path::new),
                "state_dir={state_dir:?} home={home:?}"
            );
        }
    }

    #[test]
    fn expand_tilde_table() {
        let home = Some(Path::new("/home/u"));
        let cases: &[(&str, Option<&Path>, Option<&str>)] = &[
            ("~", home, Some("/home/u")),
            ("~/", home, Some("/home/u")),
            ("~/.clawdbot/x.sock", home, Some("/home/u/.clawdbot/x.sock")),
            ("~user/x", home, Some("~user/x")),
            ("/abs/~/x", home, Some("/abs/~/x")),
            ("rel/x", home, Some("rel/x")),
            ("~/x", None, None),
            ("/abs", None, Some("/abs")),
        ];
        for (path, home, expected) in cases {
            assert_eq!(
                expand_tilde(Path::new(path), *home).as_deref(),
                expected.map(Path::new),
                "path={path:?}"
            );
        }
    }
}
