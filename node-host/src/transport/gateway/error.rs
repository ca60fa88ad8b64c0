//! Why the gateway client cannot start: a bad URL or pin, or a state
//! directory, identity or token file that is unsafe or unreadable. Failures
//! while connected are not errors here; they are logged and retried.

use std::io;
use std::path::PathBuf;

/// One reason the gateway client refused to start, with the input that
/// caused it and, where there is one, the fix.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The `--gateway` URL cannot be used as given.
    #[error("gateway url {url:?}: {problem}\nhint: {hint}")]
    BadUrl {
        /// The URL as given (never one carrying credentials; see `problem`).
        url: String,
        /// What is wrong with it.
        problem: String,
        /// What to pass instead.
        hint: &'static str,
    },
    /// A plain `ws://` URL names a host that is not loopback.
    #[error(
        "refusing plain ws:// to {host}: it is not a loopback address, so the token and every command would cross the network unencrypted\nhint: use wss://{host}, or pass --insecure if this network is trusted"
    )]
    PlaintextOffLoopback {
        /// The host named in the URL.
        host: String,
    },
    /// The `--tls-pin` value is not a sha256 fingerprint.
    #[error(
        "tls pin {pin:?} is not a sha256 certificate fingerprint\nhint: give 64 hex digits (colons allowed), e.g. from `openssl x509 -noout -fingerprint -sha256`"
    )]
    BadPin {
        /// The pin as given.
        pin: String,
    },
    /// A filesystem step on the state directory failed.
    #[error("{path}: cannot {action}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What we were doing.
        action: &'static str,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// A state file or directory others could read or replace.
    #[error("{path}: {problem}\nhint: {hint}")]
    Unsafe {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
        /// The command that fixes it.
        hint: String,
    },
    /// The device identity or token file is not in our format, or its parts
    /// do not agree.
    #[error(
        "{path}: not a usable device state file: {reason}\nhint: move it aside to create a new identity (the gateway will then ask to pair the node again)"
    )]
    BadStateFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The OS random source failed while creating a device key.
    #[error("cannot read random bytes for a new device key: {0}")]
    Random(String),
    /// The TLS client could not be set up.
    #[error("tls setup failed: {0}")]
    Tls(String),
}
