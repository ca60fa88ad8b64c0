//! The approvals file `exec-approvals.json`: its model, load-time
//! normalization, per-agent resolution and safe, locked, atomic saves.
//!
//! - [`model`](ApprovalsFile): OpenClaw's format, unknown fields kept;
//! - `load`: bytes to a normalized file plus warnings, or an error naming
//!   file, line and column;
//! - `resolve`: built-ins ← `defaults` ← `agents."*"` ← `agents.<id>`, and
//!   stricter-wins overrides;
//! - `edit`: pure allowlist edits and exact-command markers;
//! - `store`: lock, read, atomic write, `baseHash` checks.
//!
//! Upholds DESIGN.md invariants 6 (a malformed file denies everything and is
//! never overwritten), 7 (concurrent writers lose nothing) and 9 (the token
//! never leaves the file).
//!
//! ```
//! use std::path::Path;
//! use approvals_ipc::approvals::{ApprovalsFile, Security};
//!
//! let text = br#"{"version": 1, "defaults": {"security": "allowlist"},
//!                 "agents": {"main": {"allowlist": ["/usr/bin/git"]}}}"#;
//! let loaded = ApprovalsFile::parse(text, Path::new("exec-approvals.json")).unwrap();
//! let policy = loaded.file.resolve(None);
//! assert_eq!(policy.security, Security::Allowlist);
//! assert_eq!(policy.sources.security, "defaults.security");
//! assert_eq!(policy.allowlist[0].pattern, "/usr/bin/git");
//! ```

mod edit;
mod error;
mod lenient;
mod load;
mod model;
mod paths;
mod resolve;
mod schema;
mod store;
mod token;

pub use edit::{COMMAND_MARKER_PREFIX, command_marker, sha256_hex};
pub use error::{ApprovalsError, LoadWarning, WarningKind};
pub use load::{Loaded, MAIN_AGENT, WILDCARD_AGENT};
pub use model::*;
pub use paths::{
    APPROVALS_FILE_NAME, HOME_STATE_DIR, OPENCLAW_HOME_STATE_DIR, OPENCLAW_STATE_DIR_ENV,
    PathSource, ResolvedPath, SOCKET_FILE_NAME, STATE_DIR_ENV, default_approvals_path_from_env,
    expand_tilde, resolve_approvals_path, resolve_approvals_path_from_env, socket_path,
};
pub use resolve::{
    BUILTIN_APPROVAL_TIMEOUT_MS, BUILTIN_ASK, BUILTIN_ASK_FALLBACK, BUILTIN_SAFE_BINS,
    BUILTIN_SECURITY, PolicySources, ResolvedPolicy,
};
pub use schema::json_schema;
pub use store::{
    ApprovalsStore, DIR_MODE, FILE_MODE, FileStamp, HeldDir, MAX_FILE_BYTES, MAX_LINKS, Snapshot,
};
pub use token::Token;
