//! The exec host: runs checked plans (`exec`), holds pending approvals
//! (`broker`), asks people (`approvers`), lets other processes list and
//! answer approvals (`control`), and keeps the decision log (`audit`);
//! `exit` holds the exit statuses both binaries share.
//!
//! Layering (DESIGN.md section 2): nothing here knows about the gateway;
//! `node-host` embeds this library when no bridge process runs.

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`). Denied
// rather than forbidden only so that two modules may make the system calls
// of a contained spawn: `exec::contain::session` (`setsid` and a cgroup move
// between fork and exec, `pre_exec`) and `exec::contain::spawn` (the
// `vfork`-style clone, its child's calls up to `execve`, and pidfds); they
// allow `unsafe` for that alone, with a `SAFETY:` line per block.
#![deny(unsafe_code)]

pub mod approvers;
pub mod audit;
pub mod broker;
pub mod control;
pub mod exec;
pub mod exit;
pub mod host;
pub mod serve;
