//! The `fork` spawn path, for the approver hook and for kernels without
//! pidfds (runs otherwise start through [`super::spawn`]): the child
//! starts a new session (so it has no controlling terminal and leads its
//! own process group) and, under a cgroup, moves itself into its run's
//! cgroup before the program starts and can fork.
//!
//! It refuses to start a child whose session or cgroup move failed: the
//! error comes back from `spawn`, so the run fails closed. Upholds DESIGN.md
//! invariant 8 and keeps commands off the approver's terminal.
//!
//! With `spawn`, the only modules of the crate allowed `unsafe` code (the
//! crate denies it elsewhere): `pre_exec` is `unsafe` because its closure
//! runs in a forked copy of a multi-threaded process, where only
//! async-signal-safe calls are sound.

#![allow(unsafe_code)]

#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;
#[cfg(target_os = "linux")]
use std::sync::Arc;

use tokio::process::Command;

/// Makes `command`'s child start a new session and, when `cgroup_procs` is
/// an open `cgroup.procs`, join that cgroup, before `exec`.
#[cfg(target_os = "linux")]
pub(super) fn isolate(command: &mut Command, cgroup_procs: Option<Arc<OwnedFd>>) {
    // SAFETY: the closure runs in the child between fork and exec. It only
    // calls write(2) on a descriptor the parent holds open for the whole
    // spawn (the `Arc` lives in the closure, which the `Command` keeps) and
    // setsid(2); both are async-signal-safe, and nothing here allocates,
    // locks or touches the parent's state: errors are raw errno values.
    unsafe {
        command.pre_exec(move || {
            if let Some(procs) = &cgroup_procs {
                // "0" moves the writing process, i.e. this child.
                match nix::unistd::write(procs, b"0") {
                    Ok(1) => {}
                    Ok(_) => return Err(std::io::Error::from_raw_os_error(libc::EIO)),
                    Err(errno) => return Err(std::io::Error::from_raw_os_error(errno as i32)),
                }
            }
            nix::unistd::setsid()
                .map(drop)
                .map_err(|errno| std::io::Error::from_raw_os_error(errno as i32))
        });
    }
}

/// Makes `command`'s child start a new session before `exec`.
#[cfg(not(target_os = "linux"))]
pub(super) fn isolate(command: &mut Command) {
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls setsid(2), which is async-signal-safe; it allocates nothing.
    unsafe {
        command.pre_exec(|| {
            nix::unistd::setsid()
                .map(drop)
                .map_err(|errno| std::io::Error::from_raw_os_error(errno as i32))
        });
    }
}
