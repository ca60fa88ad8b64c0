//! Where the approvals file and its socket live by default, and `~`
//! expansion.
//!
//! It decides the default location, in DESIGN.md section 4's order:
//! `$CLAWDBOT_STATE_DIR`, then `$OPENCLAW_STATE_DIR`, then an existing
//! `~/.clawdbot/exec-approvals.json`, then an existing
//! `~/.openclaw/exec-approvals.json` (current OpenClaw's home), else
//! `~/.clawdbot` (created by whoever first writes the file). It is a pure
//! function of the environment values and a file-exists probe, so tests
//! never touch the process environment, and it says why it chose a path
//! ([`PathSource`]) so commands can tell the user. It refuses to guess:
//! with no state directory and no home directory there is no default, and a
//! `~` path with no home directory is not expanded into a relative path.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use super::error::ApprovalsError;

/// The file name of the approvals file inside the state directory.
pub const APPROVALS_FILE_NAME: &str = "exec-approvals.json";
/// The file name of the bridge socket inside the state directory.
pub const SOCKET_FILE_NAME: &str = "exec-approvals.sock";
/// The environment variable that moves the state directory.
pub const STATE_DIR_ENV: &str = "CLAWDBOT_STATE_DIR";
/// Current OpenClaw's variable for the same directory, read after ours.
pub const OPENCLAW_STATE_DIR_ENV: &str = "OPENCLAW_STATE_DIR";
/// The state directory under the home directory when the variable is unset.
pub const HOME_STATE_DIR: &str = ".clawdbot";
/// Current OpenClaw's state directory under the home directory.
pub const OPENCLAW_HOME_STATE_DIR: &str = ".openclaw";

/// Why an approvals path was chosen, so a command can say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathSource {
    /// Given on the command line (`--approvals`).
    Flag,
    /// `$CLAWDBOT_STATE_DIR` is set.
    ClawdbotStateDir,
    /// `$OPENCLAW_STATE_DIR` is set (and `$CLAWDBOT_STATE_DIR` is not).
    OpenclawStateDir,
    /// `~/.clawdbot/exec-approvals.json` exists.
    ExistingClawdbot,
    /// `~/.openclaw/exec-approvals.json` exists and the `~/.clawdbot` one does not.
    ExistingOpenclaw,
    /// Neither home file exists: the default, created on first write.
    DefaultClawdbot,
}

impl PathSource {
    /// A short word for `--json` output.
    pub fn word(self) -> &'static str {
        match self {
            PathSource::Flag => "flag",
            PathSource::ClawdbotStateDir => "CLAWDBOT_STATE_DIR",
            PathSource::OpenclawStateDir => "OPENCLAW_STATE_DIR",
            PathSource::ExistingClawdbot => "existing-clawdbot",
            PathSource::ExistingOpenclaw => "existing-openclaw",
            PathSource::DefaultClawdbot => "default",
        }
    }

    /// Why this path, in words a user can act on.
    pub fn why(self) -> &'static str {
        match self {
            PathSource::Flag => "given with --approvals",
            PathSource::ClawdbotStateDir => "CLAWDBOT_STATE_DIR is set",
            PathSource::OpenclawStateDir => {
                "OPENCLAW_STATE_DIR is set (and CLAWDBOT_STATE_DIR is not)"
            }
            PathSource::ExistingClawdbot => "~/.clawdbot/exec-approvals.json exists",
            PathSource::ExistingOpenclaw => {
                "~/.openclaw/exec-approvals.json exists (OpenClaw's) and ~/.clawdbot/exec-approvals.json does not"
            }
            PathSource::DefaultClawdbot => {
                "no state directory variable is set and neither ~/.clawdbot nor ~/.openclaw holds the file"
            }
        }
    }
}

/// An approvals path and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The approvals file.
    pub path: PathBuf,
    /// Why it is this one.
    pub source: PathSource,
}

/// The default approvals path for the given `CLAWDBOT_STATE_DIR` and
/// `OPENCLAW_STATE_DIR` values and home directory, with `exists` probing the
/// two home candidates; an empty variable counts as unset.
pub fn resolve_approvals_path(
    state_dir: Option<&OsStr>,
    openclaw_state_dir: Option<&OsStr>,
    home: Option<&Path>,
    exists: impl Fn(&Path) -> bool,
) -> Result<ResolvedPath, ApprovalsError> {
    let variables = [
        (state_dir, PathSource::ClawdbotStateDir),
        (openclaw_state_dir, PathSource::OpenclawStateDir),
    ];
    for (dir, source) in variables {
        if let Some(dir) = dir.filter(|dir| !dir.is_empty()) {
            let dir = expand_tilde(Path::new(dir), home).ok_or(ApprovalsError::NoHomeDirectory)?;
            return Ok(ResolvedPath {
                path: dir.join(APPROVALS_FILE_NAME),
                source,
            });
        }
    }
    let home = home.ok_or(ApprovalsError::NoHomeDirectory)?;
    let clawdbot = home.join(HOME_STATE_DIR).join(APPROVALS_FILE_NAME);
    if exists(&clawdbot) {
        return Ok(ResolvedPath {
            path: clawdbot,
            source: PathSource::ExistingClawdbot,
        });
    }
    let openclaw = home.join(OPENCLAW_HOME_STATE_DIR).join(APPROVALS_FILE_NAME);
    if exists(&openclaw) {
        return Ok(ResolvedPath {
            path: openclaw,
            source: PathSource::ExistingOpenclaw,
        });
    }
    Ok(ResolvedPath {
        path: clawdbot,
        source: PathSource::DefaultClawdbot,
    })
}

/// [`resolve_approvals_path`] for the real environment of this process.
pub fn resolve_approvals_path_from_env() -> Result<ResolvedPath, ApprovalsError> {
    let state_dir = std::env::var_os(STATE_DIR_ENV);
    let openclaw_state_dir = std::env::var_os(OPENCLAW_STATE_DIR_ENV);
    let home = std::env::home_dir();
    // A path that cannot be probed (a directory we may not search) counts
    // as present: the loader then names the real problem instead of this
    // silently choosing another file.
    resolve_approvals_path(
        state_dir.as_deref(),
        openclaw_state_dir.as_deref(),
        home.as_deref(),
        |path| path.try_exists().unwrap_or(true),
    )
}

/// The default approvals path of this process's environment
/// ([`resolve_approvals_path_from_env`] without the reason).
pub fn default_approvals_path_from_env() -> Result<PathBuf, ApprovalsError> {
    resolve_approvals_path_from_env().map(|resolved| resolved.path)
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
    fn default_path_order() {
        use PathSource::*;
        let home = Some(Path::new("/home/u"));
        let claw = "/home/u/.clawdbot/exec-approvals.json";
        let open = "/home/u/.openclaw/exec-approvals.json";
        // (CLAWDBOT_STATE_DIR, OPENCLAW_STATE_DIR, home, existing files, expected)
        type Case<'a> = (
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a Path>,
            &'a [&'a str],
            Option<(&'a str, PathSource)>,
        );
        let cases: &[Case] = &[
            (None, None, home, &[], Some((claw, DefaultClawdbot))),
            (
                None,
                None,
                home,
                &[claw, open],
                Some((claw, ExistingClawdbot)),
            ),
            (None, None, home, &[open], Some((open, ExistingOpenclaw))),
            (
                Some(""),
                Some(""),
                home,
                &[open],
                Some((open, ExistingOpenclaw)),
            ),
            (
                Some("/srv/state"),
                Some("/srv/oc"),
                home,
                &[claw, open],
                Some(("/srv/state/exec-approvals.json", ClawdbotStateDir)),
            ),
            (
                None,
                Some("/srv/oc"),
                home,
                &[claw],
                Some(("/srv/oc/exec-approvals.json", OpenclawStateDir)),
            ),
            (
                Some("/srv/state"),
                None,
                None,
                &[],
                Some(("/srv/state/exec-approvals.json", ClawdbotStateDir)),
            ),
            (
                Some("~/state"),
                None,
                home,
                &[],
                Some(("/home/u/state/exec-approvals.json", ClawdbotStateDir)),
            ),
            (Some("~/state"), None, None, &[], None),
            (None, Some("~/oc"), None, &[], None),
            (None, None, None, &[], None),
        ];
        for (state_dir, openclaw, home, existing, expected) in cases {
            let got = resolve_approvals_path(
                state_dir.map(OsStr::new),
                openclaw.map(OsStr::new),
                *home,
                |path| existing.iter().any(|e| Path::new(e) == path),
            )
            .ok()
            .map(|r| (r.path, r.source));
            let expected = expected.map(|(p, s)| (PathBuf::from(p), s));
            assert_eq!(
                got, expected,
                "state_dir={state_dir:?} openclaw={openclaw:?} home={home:?} existing={existing:?}"
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
