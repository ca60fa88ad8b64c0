//! The exit statuses of both binaries, `ui-bridge` and `node-host`: one
//! enum, so the same outcome has the same number whichever binary reports
//! it, and one table ([`Exit::code`]) a reviewer can check in one place.
//!
//! It decides which number an outcome gets, and which outcome an error that
//! reached a binary's edge stands for ([`Exit::of_error`]): a usage error, a
//! file that cannot be used, a refusal, or — for anything it does not
//! recognise — an internal failure. It never turns an error into success.
//!
//! The numbers: `node-host run` passes the command's own status through, so
//! its own outcomes take the values shells and `timeout(1)` give them (124
//! timed out, 126 refused — a shell's "found but cannot run" — and 127 not
//! found), which scripts and OpenClaw's callers already read; the other
//! errors take `sysexits.h` values (64 usage, 66 file, 69 bridge
//! unreachable or refusing our credentials, 70 internal), above the small
//! numbers most commands exit with. A command that itself exits
//! with one of these numbers is indistinguishable from that outcome; the
//! message on stderr tells them apart.

use std::error::Error;
use std::process::ExitCode;

use approvals_ipc::approvals::ApprovalsError;

use crate::audit::{AuditError, DurationError};
use crate::control::ControlError;
use crate::serve::{ServeError, SocketError};

/// How a binary ends; `main` maps it to the process's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Done as asked (0).
    Success,
    /// The command ran and exited with this status, passed through as is.
    Command(u8),
    /// The command was killed by a signal, so it has no status to pass
    /// through (1, the generic failure).
    Signalled,
    /// `doctor` found something wrong that is still unfixed (1, the
    /// generic failure, as linters and `systemctl is-active` use it).
    Unhealthy,
    /// Refused: by the policy (askFallback included, when nobody
    /// answered), a person, the approvals file (a stale edit, an absent
    /// entry) or the bridge (an unknown approval) (126, a shell's "found
    /// but cannot run").
    Refused,
    /// The bridge cannot be used: none answers on the socket, it went away
    /// mid-request, or it refused our credentials (a token that is not
    /// its token, a clock too far off) (69, `EX_UNAVAILABLE`).
    Unreachable,
    /// The command ran out of time and was killed (124, as `timeout(1)`).
    TimedOut,
    /// The command line asks for something impossible: a bad flag or value
    /// (64, `EX_USAGE`).
    Usage,
    /// A file cannot be used: the approvals file, the audit log or a socket
    /// path is missing, unreadable, malformed, unsafe or broken (a broken
    /// audit chain included), or reading or writing it failed (66,
    /// `EX_NOINPUT`).
    FileError,
    /// The command was not found or could not be started (127, as shells do).
    NotFound,
    /// Something failed that no input explains (70, `EX_SOFTWARE`).
    Internal,
}

impl Exit {
    /// The exit status; the whole table, in one place.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Command(code) => code,
            Exit::Signalled | Exit::Unhealthy => 1,
            Exit::Usage => 64,
            Exit::FileError => 66,
            Exit::Unreachable => 69,
            Exit::Internal => 70,
            Exit::TimedOut => 124,
            Exit::Refused => 126,
            Exit::NotFound => 127,
        }
    }

    /// The outcome an error stands for, from its outermost cause this
    /// module knows; [`Exit::Internal`] when it knows none.
    ///
    /// Pass `anyhow::Error::chain()`: a context line added on the way out
    /// does not change the outcome.
    pub fn of_error<'a>(chain: impl IntoIterator<Item = &'a (dyn Error + 'static)>) -> Exit {
        chain
            .into_iter()
            .find_map(known_cause)
            .unwrap_or(Exit::Internal)
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

/// The outcome of one cause, if it is an error this module knows.
fn known_cause(cause: &(dyn Error + 'static)) -> Option<Exit> {
    if let Some(failure) = cause.downcast_ref::<Failure>() {
        return Some(failure.exit);
    }
    if let Some(error) = cause.downcast_ref::<ApprovalsError>() {
        return Some(approvals_exit(error));
    }
    if let Some(error) = cause.downcast_ref::<AuditError>() {
        return Some(match error {
            AuditError::InvalidFilter { .. } => Exit::Usage,
            _ => Exit::FileError,
        });
    }
    if let Some(error) = cause.downcast_ref::<ControlError>() {
        return Some(match error {
            ControlError::Approvals { .. } | ControlError::NoHome(_) => Exit::FileError,
            ControlError::NoBridge { .. } | ControlError::NoToken(_) => Exit::Unreachable,
            ControlError::NotFound(_) | ControlError::Refused(_) | ControlError::Client(_) => {
                Exit::Refused
            }
        });
    }
    if let Some(error) = cause.downcast_ref::<ServeError>() {
        // `Approvals` and `Socket` are transparent: their causes are not
        // in the chain, so they are classified here.
        return Some(match error {
            ServeError::Approvals(error) => approvals_exit(error),
            ServeError::NoToken(_)
            | ServeError::NoHome(_)
            | ServeError::Socket(_)
            | ServeError::WebAddress { .. }
            | ServeError::AuditSink { .. } => Exit::FileError,
            // The address asked for cannot be served: pick another.
            ServeError::Web(_) | ServeError::WebBind { .. } => Exit::Usage,
            ServeError::Hook { .. } => Exit::Usage,
            ServeError::Io { .. } => Exit::Internal,
        });
    }
    if cause.is::<SocketError>() || cause.is::<std::io::Error>() {
        return Some(Exit::FileError);
    }
    if cause.is::<DurationError>() {
        return Some(Exit::Usage);
    }
    None
}

/// A stale edit is refused; every other approvals-file error is the file's.
fn approvals_exit(error: &ApprovalsError) -> Exit {
    match error {
        ApprovalsError::Conflict { .. } => Exit::Refused,
        _ => Exit::FileError,
    }
}

/// An error whose outcome the code that raised it knows, for failures no
/// typed error carries (a missing argument found after parsing, a hint in
/// place of an OS error).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    /// How the binary ends.
    pub exit: Exit,
    /// The whole message, with its `hint:` line.
    pub message: String,
}

impl Failure {
    /// A usage error: the command line asks for something impossible.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// A failure no input explains (a runtime that cannot start).
    pub fn internal(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::Internal,
            message: message.into(),
        }
    }

    /// A file that cannot be used.
    pub fn file(message: impl Into<String>) -> Self {
        Failure {
            exit: Exit::FileError,
            message: message.into(),
        }
    }
}

/// The exit-code table for `--help` (clap's `after_help`), so the help
/// teaches what README.md's table says.
pub const HELP_TABLE: &str = "\
Exit status:
  0    done (node-host run: the command's own status, passed through)
  1    node-host run: the command was killed by a signal;
       doctor: something is wrong (each finding says how to fix it)
  64   usage error: a bad flag or value
  66   file error: the approvals file, audit log or socket path is missing,
       unreadable, malformed or unsafe, or the audit chain is broken
  69   bridge unreachable: no ui-bridge answers on the socket, it went away,
       or it refused our token (the approvals files disagree)
  70   internal failure
  124  the command timed out (as timeout(1))
  126  refused: by the policy (askFallback included), a person, the
       approvals file or the bridge
  127  command not found or could not be started (as shells do)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_documented_one() {
        let table = [
            (Exit::Success, 0),
            (Exit::Command(3), 3),
            (Exit::Signalled, 1),
            (Exit::Unhealthy, 1),
            (Exit::Usage, 64),
            (Exit::FileError, 66),
            (Exit::Unreachable, 69),
            (Exit::Internal, 70),
            (Exit::TimedOut, 124),
            (Exit::Refused, 126),
            (Exit::NotFound, 127),
        ];
        for (exit, code) in table {
            assert_eq!(exit.code(), code, "{exit:?}");
            if !matches!(exit, Exit::Command(_)) {
                assert!(
                    HELP_TABLE.contains(&format!("\n  {code} ")),
                    "{code} missing from the help"
                );
            }
        }
    }

    #[test]
    fn errors_map_to_their_outcome_through_context() {
        let usage = anyhow::Error::new(Failure::usage("no command")).context("explain");
        assert_eq!(Exit::of_error(usage.chain()), Exit::Usage);
        let io = anyhow::Error::new(std::io::Error::other("disk")).context("cannot read x");
        assert_eq!(Exit::of_error(io.chain()), Exit::FileError);
        let unknown = anyhow::anyhow!("what");
        assert_eq!(Exit::of_error(unknown.chain()), Exit::Internal);
    }
}
