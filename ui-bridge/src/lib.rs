//! The exec host: runs checked plans (`exec`), holds pending approvals
//! (`broker`), asks people (`approvers`), lets other processes list and
//! answer approvals (`control`), keeps the decision log (`audit`) and
//! serves the companion page (`web`);
//! `exit` holds the exit statuses both binaries share.
//!
//! Layering (DESIGN.md section 2): nothing here knows about the gateway;
//! `node-host` embeds this library when no bridge process runs.

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`). Denied
// rather than forbidden only so that three modules may make the system
// calls that need it: `exec::contain::session` (`setsid` and a cgroup move
// between fork and exec, `pre_exec`), `exec::contain::spawn` (the
// `vfork`-style clone, its child's calls up to `execve`, and pidfds), and
// `serve::activation`, which takes ownership of the socket systemd passes
// as fd 3; they allow `unsafe` for that alone, with a `SAFETY:` line per
// block.
#![deny(unsafe_code)]

pub mod approvers;
pub mod audit;
pub mod broker;
pub mod cli_docs;
pub mod control;
pub mod doctor;
pub mod exec;
pub mod exit;
pub mod host;
pub mod serve;
pub mod service;
pub mod web;

/// What `--version` prints after the program name: the crate version and
/// the git commit it was built from ("unknown" outside a git checkout), so
/// a bug report names the exact build.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("GIT_COMMIT"),
    ")"
);
