//! Doctor's file checks: the state directory, the approvals file, the
//! socket and the audit log: who owns them, their modes, symbolic links,
//! whether they parse, answer or verify.
//!
//! It repairs, with `fix`, only modes (chmod 700 for directories, 600 for
//! files and the socket) and a socket nothing answers on (removed after a
//! second probe). A symbolic link, another owner or a file that does not
//! parse is only reported: fixing it needs a person's judgement.

use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use approvals_ipc::approvals::{ApprovalsFile, MAX_FILE_BYTES, socket_path};

use super::{Check, DoctorOptions, Finding};

/// Mode of the state directory and the socket's directory.
const DIR_MODE: u32 = 0o700;
/// Mode of the approvals file, the audit log and the socket.
const FILE_MODE: u32 = 0o600;

/// The state directory: a real directory of ours, mode 0700.
pub(super) fn check_state_dir(dir: &Path, fix: bool, findings: &mut Vec<Finding>) {
    let subject = dir.display().to_string();
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            findings.push(Finding::note(
                Check::StateDir,
                subject,
                "the state directory does not exist yet",
                "run `ui-bridge serve` once: it is created with mode 0700",
            ));
            return;
        }
        Err(error) => {
            findings.push(Finding::problem(
                Check::StateDir,
                subject,
                format!("cannot inspect the state directory: {error}"),
                "check the permissions of its parent directories",
            ));
            return;
        }
    };
    if meta.file_type().is_symlink() {
        findings.push(Finding::problem(
            Check::StateDir,
            &subject,
            "the state directory is a symbolic link; the bridge refuses to write through one, so whoever controls the link target controls your policy",
            format!(
                "replace the link with a real directory: mv the target's files into a new directory at {subject} (mode 0700), or point CLAWDBOT_STATE_DIR at the real directory"
            ),
        ));
        return;
    }
    if !meta.is_dir() {
        findings.push(Finding::problem(
            Check::StateDir,
            &subject,
            "the state directory path is not a directory",
            "move the file away; the state directory is created on first use",
        ));
        return;
    }
    check_owner(Check::StateDir, dir, &meta, findings);
    check_mode(Check::StateDir, dir, &meta, DIR_MODE, fix, findings);
}

/// The approvals file: a regular file of ours, mode 0600, that parses.
/// Returns it when it parses, for the policy checks.
pub(super) fn check_approvals_file(
    path: &Path,
    fix: bool,
    findings: &mut Vec<Finding>,
) -> Option<ApprovalsFile> {
    let subject = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            findings.push(Finding::note(
                Check::ApprovalsFile,
                subject,
                "there is no approvals file yet: every request is denied until there is one",
                "run `ui-bridge serve` once: it creates one (security allowlist, ask on-miss, askFallback deny)",
            ));
            return None;
        }
        Err(error) => {
            findings.push(Finding::problem(
                Check::ApprovalsFile,
                subject,
                format!("cannot inspect the approvals file: {error}"),
                "check the permissions of its directory",
            ));
            return None;
        }
    };
    if meta.file_type().is_symlink() {
        findings.push(Finding::problem(
            Check::ApprovalsFile,
            &subject,
            "the approvals file is a symbolic link; it is never written through, so approvals cannot be saved and every edit fails",
            format!("replace the link with the file itself: cp --remove-destination \"$(readlink -f {subject})\" {subject}"),
        ));
        return None;
    }
    if !meta.is_file() {
        findings.push(Finding::problem(
            Check::ApprovalsFile,
            &subject,
            "the approvals file path is not a regular file",
            "move it away; `ui-bridge serve` creates a fresh file",
        ));
        return None;
    }
    check_owner(Check::ApprovalsFile, path, &meta, findings);
    check_mode(Check::ApprovalsFile, path, &meta, FILE_MODE, fix, findings);
    if meta.len() > MAX_FILE_BYTES {
        findings.push(Finding::problem(
            Check::ApprovalsFile,
            &subject,
            format!(
                "the approvals file is {} bytes, over the {MAX_FILE_BYTES}-byte limit; it is refused and every request denied",
                meta.len()
            ),
            "remove unused allowlist entries",
        ));
        return None;
    }
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            findings.push(Finding::problem(
                Check::ApprovalsFile,
                &subject,
                format!("cannot read the approvals file: {error}"),
                "make it readable by you (chmod 600)",
            ));
            return None;
        }
    };
    match ApprovalsFile::parse(&bytes, path) {
        Ok(loaded) => {
            for warning in &loaded.warnings {
                findings.push(Finding::problem(
                    Check::ApprovalsFile,
                    &subject,
                    format!("part of the file is ignored: {warning}"),
                    "correct or remove that field (see docs/approvals-file.md)",
                ));
            }
            Some(loaded.file)
        }
        Err(error) => {
            findings.push(Finding::problem(
                Check::ApprovalsFile,
                &subject,
                format!(
                    "the approvals file does not parse, so every request is denied: {}",
                    first_line(&error.to_string())
                ),
                "correct the JSON at the line and column shown (it is never overwritten while broken), or move it away to start from a fresh file",
            ));
            None
        }
    }
}

/// The socket: absent (a note), live (mode checked), stale (removable),
/// or something that is not a socket.
pub(super) fn check_socket(
    options: &DoctorOptions,
    file: &ApprovalsFile,
    state_dir: &Path,
    findings: &mut Vec<Finding>,
) {
    let configured = file.socket.as_ref().and_then(|s| s.path.as_deref());
    let path = match &options.socket {
        Some(path) => path.clone(),
        None => match socket_path(configured, &options.approvals_path, options.home.as_deref()) {
            Some(path) => path,
            None => {
                findings.push(Finding::problem(
                    Check::Socket,
                    configured.unwrap_or_default(),
                    "socket.path starts with `~` but there is no home directory",
                    "set HOME, or write socket.path as an absolute path",
                ));
                return;
            }
        },
    };
    let subject = path.display().to_string();
    if let Some(dir) = path.parent()
        && dir != state_dir
        && let Ok(meta) = std::fs::symlink_metadata(dir)
    {
        if meta.file_type().is_symlink() {
            findings.push(Finding::problem(
                Check::Socket,
                dir.display().to_string(),
                "the socket's directory is a symbolic link; the bridge refuses to serve there",
                "use a real directory of yours with mode 0700",
            ));
            return;
        }
        check_owner(Check::Socket, dir, &meta, findings);
        check_mode(Check::Socket, dir, &meta, DIR_MODE, options.fix, findings);
    }
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            findings.push(Finding::note(
                Check::Socket,
                subject,
                "no bridge is listening (there is no socket)",
                "start `ui-bridge serve` to be asked at a terminal; `node-host run` then uses it (without it, --exec-host auto runs the embedded exec host)",
            ));
            return;
        }
        Err(error) => {
            findings.push(Finding::problem(
                Check::Socket,
                subject,
                format!("cannot inspect the socket: {error}"),
                "check the permissions of its directory",
            ));
            return;
        }
    };
    if meta.file_type().is_symlink() {
        findings.push(Finding::problem(
            Check::Socket,
            &subject,
            "the socket path is a symbolic link; the bridge refuses to follow it and will not start",
            format!("remove the link (rm {subject}) and start `ui-bridge serve`"),
        ));
        return;
    }
    if !meta.file_type().is_socket() {
        findings.push(Finding::problem(
            Check::Socket,
            &subject,
            "the socket path holds something that is not a socket; the bridge will not remove it and will not start",
            format!("move it away (mv {subject} {subject}.old) and start `ui-bridge serve`"),
        ));
        return;
    }
    match std::os::unix::net::UnixStream::connect(&path) {
        Ok(_) => {
            check_owner(Check::Socket, &path, &meta, findings);
            check_mode(
                Check::Socket,
                &path,
                &meta,
                FILE_MODE,
                options.fix,
                findings,
            );
        }
        Err(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
            let mut finding = Finding::problem(
                Check::Socket,
                &subject,
                "the socket is stale: nothing answers on it (a bridge stopped without removing it); clients get `no bridge running`",
                format!(
                    "remove it (rm {subject}) or run doctor --fix; `ui-bridge serve` also replaces it on start"
                ),
            );
            if options.fix {
                finding.fixed = remove_stale(&path);
            }
            findings.push(finding);
        }
        Err(error) => findings.push(Finding::problem(
            Check::Socket,
            &subject,
            format!("cannot connect to the socket: {error}"),
            "check that the socket and its directory are yours (ls -l); restart `ui-bridge serve`",
        )),
    }
}

/// Removes a socket after probing it once more, so a bridge that started
/// in between keeps its socket.
fn remove_stale(path: &Path) -> Option<String> {
    let still_stale = matches!(
        std::os::unix::net::UnixStream::connect(path),
        Err(error) if error.kind() == io::ErrorKind::ConnectionRefused
    );
    let is_socket = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket());
    if !(still_stale && is_socket) {
        return None;
    }
    match std::fs::remove_file(path) {
        Ok(()) => Some(format!("removed the stale socket {}", path.display())),
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "cannot remove the stale socket");
            None
        }
    }
}

/// The audit log: absent (a note), mode 0600, and a chain that verifies.
pub(super) fn check_audit_log(path: &Path, fix: bool, findings: &mut Vec<Finding>) {
    let subject = path.display().to_string();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            findings.push(Finding::note(
                Check::AuditLog,
                subject,
                "there is no audit log yet",
                "it is written on the first request",
            ));
            return;
        }
        Err(error) => {
            findings.push(Finding::problem(
                Check::AuditLog,
                subject,
                format!("cannot inspect the audit log: {error}"),
                "check the permissions of its directory",
            ));
            return;
        }
    };
    if meta.file_type().is_symlink() || !meta.is_file() {
        findings.push(Finding::problem(
            Check::AuditLog,
            &subject,
            "the audit log is a symbolic link or not a regular file; no decision can be logged, so requests fail",
            format!("move it away (mv {subject} {subject}.old); a fresh log is started"),
        ));
        return;
    }
    check_owner(Check::AuditLog, path, &meta, findings);
    check_mode(Check::AuditLog, path, &meta, FILE_MODE, fix, findings);
    if let Err(error) = crate::audit::verify(path) {
        findings.push(Finding::problem(
            Check::AuditLog,
            &subject,
            format!(
                "the audit log does not verify: {}",
                first_line(&error.to_string())
            ),
            format!(
                "a line was changed, removed or cut short; keep the file as evidence (mv {subject} {subject}.broken) so a fresh chain starts, and find out who wrote to it (`ui-bridge audit verify` names the line)"
            ),
        ));
    }
}

/// A problem when `path` is not owned by us.
fn check_owner(check: Check, path: &Path, meta: &std::fs::Metadata, findings: &mut Vec<Finding>) {
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me {
        findings.push(Finding::problem(
            check,
            path.display().to_string(),
            format!(
                "owned by uid {}, not by you (uid {me}); the bridge refuses files others own, since they could change your policy",
                meta.uid()
            ),
            format!(
                "as root: chown {me} {}, after checking its content",
                path.display()
            ),
        ));
    }
}

/// A problem when group or others have any access to `path`; with `fix`,
/// chmod to `want` (which keeps the owner's bits the project needs).
fn check_mode(
    check: Check,
    path: &Path,
    meta: &std::fs::Metadata,
    want: u32,
    fix: bool,
    findings: &mut Vec<Finding>,
) {
    let mode = meta.mode() & 0o7777;
    if mode & 0o077 == 0 {
        return;
    }
    let mut finding = Finding::problem(
        check,
        path.display().to_string(),
        format!("mode {mode:04o} lets other users read or change it; it must be {want:04o}"),
        format!("chmod {want:o} {} (or run doctor --fix)", path.display()),
    );
    if fix {
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(want)) {
            Ok(()) => {
                finding.fixed = Some(format!(
                    "chmod {want:o} {} (was {mode:04o})",
                    path.display()
                ))
            }
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "cannot change the mode")
            }
        }
    }
    findings.push(finding);
}

/// The first line of an error message (its `hint:` lines are replaced by
/// the finding's own fix).
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}
