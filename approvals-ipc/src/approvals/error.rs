//! What can go wrong with the approvals file, as values: errors that make
//! the file unusable (so every request is denied, DESIGN.md invariant 6) and
//! warnings about parts that were dropped while the rest still applies.
//!
//! Every error names the file; parse errors also give line and column, and
//! each message ends with a `hint:` line saying what to do.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why the approvals file could not be read, parsed or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApprovalsError {
    /// Reading failed for a reason other than the file being absent.
    #[error("cannot read {}: {source}\nhint: check the file's permissions", path.display())]
    Read {
        /// The file or directory that could not be read.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// Creating the directory, the temp file, or renaming it failed.
    #[error("cannot write {}: {source}\nhint: check that the directory is yours and writable", path.display())]
    Write {
        /// The file or directory that could not be written.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The sibling lock file could not be opened or locked.
    #[error("cannot lock {}: {source}\nhint: check that the directory is yours and writable", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file is not valid JSON.
    #[error("cannot parse {} at line {line}, column {column}: {message}\nhint: fix the JSON syntax; until then every command is refused and the file is never overwritten", path.display())]
    Syntax {
        /// The approvals file.
        path: PathBuf,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// The file is JSON but a field has the wrong type (e.g. `agents` is a
    /// list).
    #[error("cannot load {} at line {line}, column {column}: field `{field}`: {message}\nhint: fix that field; until then every command is refused and the file is never overwritten", path.display())]
    Shape {
        /// The approvals file.
        path: PathBuf,
        /// Path of the offending field, e.g. `agents.main.allowlist`.
        field: String,
        /// 1-based line of the error (0 when unknown).
        line: usize,
        /// 1-based column of the error (0 when unknown).
        column: usize,
        /// What was expected and found.
        message: String,
    },
    /// `version` is missing or not 1.
    #[error("cannot load {}: unsupported version {found} (expected 1)\nhint: this program reads version 1 files; set \"version\": 1 if the file is otherwise in that format", path.display())]
    UnsupportedVersion {
        /// The approvals file.
        path: PathBuf,
        /// The value found, as JSON (`missing` when absent).
        found: String,
    },
    /// A denylist glob or regex does not compile; dropping it would loosen
    /// the policy, so the whole file is refused instead.
    #[error("cannot load {}: field `{field}`: {message}\nhint: fix or remove that denylist entry; until then every command is refused", path.display())]
    InvalidDenylistEntry {
        /// The approvals file.
        path: PathBuf,
        /// e.g. `agents.main.denylist[2].commandPattern`.
        field: String,
        /// Why the glob or regex was refused.
        message: String,
    },
    /// The file is larger than any sane policy.
    #[error("cannot load {}: the file is {size} bytes, more than the limit of {limit}\nhint: the file is probably not an approvals file", path.display())]
    TooLarge {
        /// The approvals file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES).
        limit: u64,
    },
    /// The file, its directory or the lock file is a symbolic link.
    #[error("refusing to use {}: it is a symbolic link\nhint: replace the link with the real file or directory, or pass the real path with --approvals", path.display())]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// The path exists but is not a regular file (or the directory is not a
    /// directory).
    #[error("refusing to use {}: it is not a {expected}\nhint: move it away or pass another path with --approvals", path.display())]
    NotA {
        /// The path.
        path: PathBuf,
        /// `regular file` or `directory`.
        expected: &'static str,
    },
    /// The file, its directory or a directory above them belongs to a user
    /// other than us and root, who could replace the policy (StrictModes).
    #[error("refusing to use {}: it is owned by uid {owner}, not by us (uid {expected}) or root\nhint: chown {expected} {} (or keep the approvals file where only you and root can change it); until then every command is refused", path.display(), path.display())]
    NotOwned {
        /// The file, directory or symbolic link.
        path: PathBuf,
        /// Its owner.
        owner: u32,
        /// Our effective UID.
        expected: u32,
    },
    /// Group or others may write to the file, its directory or a directory
    /// above them that is not sticky, so they could replace the policy.
    #[error("refusing to use {}: mode {mode:04o} lets group or others write to it\nhint: chmod go-w {}; until then every command is refused", path.display(), path.display())]
    WritableByOthers {
        /// The file or directory.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The directory held open since start is no longer what the path
    /// names: it was renamed, removed or replaced by another one.
    #[error("refusing every request: the directory {} was moved or replaced after it was opened\nhint: check who changed it, then restart the bridge (or node host) to use the directory now at that path", path.display())]
    Replaced {
        /// The directory path as configured.
        path: PathBuf,
    },
    /// Resolving the directory path followed more symbolic links than allowed.
    #[error("cannot resolve {}: more than {limit} symbolic links on the way\nhint: pass the real path with --approvals", path.display())]
    TooManyLinks {
        /// The path being resolved.
        path: PathBuf,
        /// The bound.
        limit: usize,
    },
    /// A remote editor's `baseHash` does not match the file on disk.
    #[error("{} changed since it was read (base hash {expected}, current {found})\nhint: reload the file and apply the change again", path.display())]
    Conflict {
        /// The approvals file.
        path: PathBuf,
        /// The hash the editor read.
        expected: String,
        /// The hash of the file now.
        found: String,
    },
    /// The operating system's random source failed while making a token.
    #[error("cannot create a socket token for {}: {source}", path.display())]
    Random {
        /// The approvals file.
        path: PathBuf,
        /// The underlying error.
        source: getrandom::Error,
    },
    /// Neither `CLAWDBOT_STATE_DIR`, `OPENCLAW_STATE_DIR` nor a home
    /// directory tells where the file is (or a state directory starts with
    /// `~` and there is no home directory).
    #[error(
        "cannot locate the approvals file: no home directory to find it in (or to expand ~ in CLAWDBOT_STATE_DIR / OPENCLAW_STATE_DIR)\nhint: pass --approvals PATH or set CLAWDBOT_STATE_DIR to an absolute path"
    )]
    NoHomeDirectory,
}

/// A part of the file that was ignored while the rest still applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadWarning {
    /// Where, e.g. `agents.main.security` or `agents.main.allowlist[3]`.
    pub field: String,
    /// What was ignored and why.
    pub kind: WarningKind,
}

/// Why a part of the file was ignored or rewritten at load.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// An enum field held a value outside its set; the field counts as unset.
    InvalidValue {
        /// The value found, as JSON.
        found: String,
        /// The accepted values, e.g. `deny, allowlist, full`.
        expected: &'static str,
    },
    /// An allowlist item had no usable pattern.
    AllowlistEntryDropped {
        /// Why.
        reason: &'static str,
    },
    /// A denylist item had neither `pattern` nor `commandPattern`.
    DenylistEntryDropped {
        /// Why.
        reason: &'static str,
    },
    /// The legacy `agents.default` was merged into `agents.main`.
    LegacyDefaultAgentMerged,
    /// A denylist `commandPattern` is not a command written as words (for
    /// example an old regex); it is kept, and matches every command (fail
    /// closed) until it is fixed.
    CommandPatternUnparsable {
        /// Why it cannot be parsed.
        reason: String,
    },
}

impl fmt::Display for LoadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = &self.field;
        match &self.kind {
            WarningKind::InvalidValue { found, expected } => write!(
                f,
                "{field}: invalid value {found} (expected one of {expected}); ignored"
            ),
            WarningKind::AllowlistEntryDropped { reason } => {
                write!(f, "{field}: allowlist entry dropped: {reason}")
            }
            WarningKind::DenylistEntryDropped { reason } => {
                write!(f, "{field}: denylist entry dropped: {reason}")
            }
            WarningKind::LegacyDefaultAgentMerged => {
                write!(f, "{field}: legacy agent merged into agents.main")
            }
            WarningKind::CommandPatternUnparsable { reason } => write!(
                f,
                "{field}: cannot be parsed ({reason}); it matches every command, so every command is refused until it is fixed"
            ),
        }
    }
}
