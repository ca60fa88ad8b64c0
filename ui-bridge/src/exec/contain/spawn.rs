//! The run's spawn path on Linux: a `vfork`-style clone (the child shares
//! our memory and we wait until it has called `execve`), as glibc's
//! `posix_spawn` does, instead of the `fork` std falls back to once a
//! `pre_exec` closure is set. A `fork` copies the page tables of the whole
//! multi-threaded host and write-protects its memory; this copies nothing,
//! so a contained spawn costs what a bare `posix_spawn` costs.
//!
//! Under a cgroup the child is born in its run's cgroup (`clone3` with
//! `CLONE_INTO_CGROUP`, x86_64); elsewhere, or where `clone3` is missing or
//! filtered, glibc's `clone` is used and the child writes `0` to the run's
//! open `cgroup.procs` before anything else. Either way it is in the cgroup
//! before `execve`, so before it can fork.
//!
//! It decides nothing: everything the child needs (paths, argv, the exact
//! environment, its three descriptors) is prepared by [`Launch::new`] in the
//! parent, and the child only makes system calls, in this order: reset
//! caught signals to their defaults, join the cgroup (the write, if it was
//! not born there), `setsid`, `dup2` its stdio, `chdir`, unblock signals,
//! `execve`. It refuses, failing closed: any step that fails makes the
//! child `_exit(127)` before `execve`, and the errno comes back from
//! [`spawn`] as the error of the spawn, so nothing uncontained runs.
//!
//! The child is waited for through a pidfd (readable once it exits), and a
//! [`Process`] dropped before its exit is killed and reaped, as tokio's
//! `kill_on_drop` does.
//!
//! This module and `session` are the only ones of the crate allowed
//! `unsafe`: `clone` shares our memory with the child, whose steps are raw
//! system calls on borrowed descriptors and C strings, and `nix` has no
//! `pidfd_open`.

#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::errno::Errno;
use nix::sched::CloneFlags;
use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, pthread_sigmask};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use super::launch::Launch;

/// Stack of the cloned child until it calls `execve`: it only runs the
/// system calls above, in frames of a few hundred bytes.
const CHILD_STACK: usize = 64 * 1024;

/// Exit status of a child whose setup failed before `execve`, as a shell
/// reports a command it could not run.
const SETUP_FAILED: libc::c_int = 127;

/// Whether this kernel has pidfds (Linux 5.3), which [`spawn`] waits
/// through; checked once.
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        let available = pidfd_open(Pid::this()).is_ok();
        if !available {
            tracing::info!("no pidfd_open on this kernel; runs are spawned by fork");
        }
        available
    })
}

/// `pidfd_open(2)`, close-on-exec.
fn pidfd_open(pid: Pid) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and a flags word and returns a new
    // descriptor or -1; no memory is passed.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid.as_raw(), 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = RawFd::try_from(fd).map_err(|_| io::Error::other("pidfd out of range"))?;
    // SAFETY: the kernel returned a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Blocks every signal on this thread while alive, so no handler of ours
/// runs in the child (it shares our memory) before it reset them; restores
/// the thread's mask on drop.
struct SignalsBlocked {
    previous: SigSet,
}

impl SignalsBlocked {
    fn new() -> io::Result<Self> {
        let mut previous = SigSet::empty();
        pthread_sigmask(
            SigmaskHow::SIG_SETMASK,
            Some(&SigSet::all()),
            Some(&mut previous),
        )?;
        Ok(Self { previous })
    }
}

impl Drop for SignalsBlocked {
    fn drop(&mut self) {
        if let Err(error) = pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&self.previous), None) {
            tracing::error!(%error, "cannot restore this thread's signal mask after a spawn");
        }
    }
}

/// The run's cgroup, for a child to start in.
#[derive(Debug, Clone, Copy)]
pub struct CgroupFds<'a> {
    /// The cgroup's directory, for `clone3`'s `CLONE_INTO_CGROUP`.
    pub dir: &'a OwnedFd,
    /// Its `cgroup.procs`, open for writing, for the child to move itself
    /// in where `clone3` is not at hand.
    pub procs: &'a OwnedFd,
}

/// Everything the child reads, prepared by the parent.
struct ChildData<'a> {
    last_signal: libc::c_int,
    /// `cgroup.procs` to write `0` to; `None` when the child starts in its
    /// cgroup (`CLONE_INTO_CGROUP`) or there is none.
    procs: Option<RawFd>,
    stdio: [RawFd; 3],
    cwd: *const libc::c_char,
    program: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    /// The child's errno when a step failed; 0 once it reached `execve`.
    failure: &'a AtomicI32,
}

/// The cloned child: sets itself up and calls `execve`; on any failure it
/// stores the errno for the parent and exits with [`SETUP_FAILED`].
extern "C" fn child_main(data: *mut libc::c_void) -> ! {
    // SAFETY: `data` is the `ChildData` that `spawn` keeps alive (its thread
    // is suspended by CLONE_VFORK until this child calls execve or exits).
    let data = unsafe { &*data.cast::<ChildData<'_>>() };
    let errno = child_setup(data.last_signal, data.procs, data.stdio, data.cwd);
    if errno == 0 {
        // SAFETY: every pointer is to a NUL-terminated string or a
        // null-terminated array of them, owned by the suspended parent.
        unsafe { libc::execve(data.program, data.argv, data.envp) };
    }
    data.failure.store(
        if errno == 0 { Errno::last_raw() } else { errno },
        Ordering::Relaxed,
    );
    // SAFETY: _exit ends the child without running anything of ours (no
    // destructors, no atexit handlers, no stdio flush).
    unsafe { libc::_exit(SETUP_FAILED) }
}

/// Starts `launch` in a new session, in `cgroup` if given, and returns it
/// once it has called `execve`; an error means no program of ours runs (the
/// child, if any, was reaped).
///
/// # Panics
///
/// Outside a tokio runtime (the pidfd is registered with it).
pub fn spawn(launch: &Launch, cgroup: Option<CgroupFds<'_>>) -> io::Result<Process> {
    let argv: Vec<*const libc::c_char> = launch
        .argv()
        .iter()
        .map(|arg| arg.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp: Vec<*const libc::c_char> = launch
        .envp()
        .iter()
        .map(|entry| entry.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let failure = AtomicI32::new(0);
    let mut data = ChildData {
        last_signal: libc::SIGRTMAX(),
        procs: None,
        stdio: launch.stdio().each_ref().map(AsRawFd::as_raw_fd),
        cwd: launch.cwd().as_ptr(),
        program: launch.program().as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        failure: &failure,
    };
    // 16-byte aligned, so the top of the stack is too.
    let mut stack = vec![0u128; CHILD_STACK / 16];
    let blocked = SignalsBlocked::new()?;
    let (pid, pidfd) = match clone3::start(&mut stack, cgroup.map(|fds| fds.dir), &data) {
        Some(started) => started?,
        None => {
            // No clone3 here: the glibc clone, and the child moves itself
            // into the cgroup before execve.
            data.procs = cgroup.map(|fds| fds.procs.as_raw_fd());
            let stack = bytes_of(&mut stack);
            let data = &raw const data;
            let child = Box::new(move || -> isize { child_main(data.cast_mut().cast()) });
            // SAFETY: CLONE_VM | CLONE_VFORK: the child runs `child_main` on
            // its own stack, sharing our memory, while this thread is
            // suspended until it calls execve or exits; it only makes
            // async-signal-safe system calls on data prepared above (no
            // allocation, no lock, no unwinding: every error is an errno
            // value), and every signal stays blocked until its handlers
            // are reset to their defaults.
            let pid = unsafe {
                nix::sched::clone(
                    child,
                    stack,
                    CloneFlags::CLONE_VM | CloneFlags::CLONE_VFORK,
                    Some(libc::SIGCHLD),
                )
            }?;
            (pid, None)
        }
    };
    drop(blocked);
    let errno = failure.load(Ordering::Relaxed);
    if errno != 0 {
        // It exited before execve: reap it.
        let _ = waitpid(pid, None);
        return Err(io::Error::from_raw_os_error(errno));
    }
    let pidfd = match pidfd {
        Some(pidfd) => Ok(pidfd),
        None => pidfd_open(pid),
    };
    match pidfd.and_then(register) {
        Ok(pidfd) => Ok(Process {
            pid,
            pidfd: Some(pidfd),
        }),
        Err(error) => {
            let _ = kill(pid, Signal::SIGKILL);
            let _ = waitpid(pid, None);
            Err(error)
        }
    }
}

/// The child's stack as bytes, for `nix::sched::clone`.
fn bytes_of(stack: &mut [u128]) -> &mut [u8] {
    let len = std::mem::size_of_val(stack);
    // SAFETY: any bytes are valid u8s; same allocation, same length in
    // bytes, and the borrow of `stack` is held for the result's lifetime.
    unsafe { std::slice::from_raw_parts_mut(stack.as_mut_ptr().cast::<u8>(), len) }
}

/// `clone3` with `CLONE_VM | CLONE_VFORK | CLONE_PIDFD` and, for a cgroup,
/// `CLONE_INTO_CGROUP`: the child starts inside the run's cgroup, which
/// spares the cgroup migration (a write to `cgroup.procs` takes the
/// kernel's cgroup threadgroup lock for writing, which can wait for an RCU
/// grace period: milliseconds on a busy host). Only on x86_64, where it is
/// tested: the child must start on its own stack, which takes a few
/// instructions of assembly; elsewhere [`clone3::start`] returns `None`.
#[cfg(target_arch = "x86_64")]
mod clone3 {
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::sync::atomic::{AtomicBool, Ordering};

    use nix::unistd::Pid;

    use super::ChildData;

    const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

    /// `struct clone_args` of the kernel (version 2, with `cgroup`).
    #[repr(C)]
    #[derive(Default)]
    struct CloneArgs {
        flags: u64,
        pidfd: u64,
        child_tid: u64,
        parent_tid: u64,
        exit_signal: u64,
        stack: u64,
        stack_size: u64,
        tls: u64,
        set_tid: u64,
        set_tid_size: u64,
        cgroup: u64,
    }

    /// Set once `clone3` (or its cgroup field) proved missing or filtered
    /// (old kernels, some seccomp profiles), so later spawns go straight
    /// to the fallback.
    static MISSING: AtomicBool = AtomicBool::new(false);

    /// Clones the child running [`super::child_main`] on `stack`; `None`
    /// when this kernel has no usable `clone3`. Call with every signal
    /// blocked.
    pub(super) fn start(
        stack: &mut [u128],
        cgroup_dir: Option<&OwnedFd>,
        data: &ChildData<'_>,
    ) -> Option<io::Result<(Pid, Option<OwnedFd>)>> {
        if MISSING.load(Ordering::Relaxed) {
            return None;
        }
        let mut pidfd: libc::c_int = -1;
        let mut args = CloneArgs {
            flags: (libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD) as u64
                | cgroup_dir.map_or(0, |_| CLONE_INTO_CGROUP),
            pidfd: (&raw mut pidfd) as u64,
            exit_signal: libc::SIGCHLD as u64,
            stack: stack.as_mut_ptr() as u64,
            stack_size: std::mem::size_of_val(stack) as u64,
            cgroup: cgroup_dir.map_or(0, |dir| dir.as_raw_fd() as u64),
            ..CloneArgs::default()
        };
        let entry: extern "C" fn(*mut libc::c_void) -> ! = super::child_main;
        let ret: i64;
        // SAFETY: clone3 with CLONE_VM | CLONE_VFORK suspends this thread
        // until the child calls execve or exits. The child starts on
        // `stack` (the kernel sets its stack pointer to the 16-aligned top)
        // and only calls `child_main(data)`, which never returns; the
        // parent's registers and stack are left as the syscall leaves them
        // (rcx and r11 clobbered). `args`, `pidfd`, `stack` and `data`
        // outlive the call.
        unsafe {
            std::arch::asm!(
                "syscall",
                "test rax, rax",
                "jnz 2f",
                "mov rdi, r12",
                "call r13",
                "ud2",
                "2:",
                inlateout("rax") libc::SYS_clone3 => ret,
                in("rdi") &raw mut args,
                in("rsi") std::mem::size_of::<CloneArgs>(),
                in("r12") std::ptr::from_ref(data).cast_mut(),
                in("r13") entry,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        if ret < 0 {
            let errno = i32::try_from(-ret).unwrap_or(libc::EINVAL);
            if matches!(errno, libc::ENOSYS | libc::E2BIG) {
                tracing::info!(errno, "no usable clone3; runs join their cgroup by a write");
                MISSING.store(true, Ordering::Relaxed);
                return None;
            }
            return Some(Err(io::Error::from_raw_os_error(errno)));
        }
        let pid = Pid::from_raw(i32::try_from(ret).unwrap_or(i32::MAX));
        // SAFETY: CLONE_PIDFD stored a new descriptor that nothing else owns.
        let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
        Some(Ok((pid, pidfd)))
    }
}

/// No `clone3` path off x86_64: [`spawn`] uses glibc's `clone`.
#[cfg(not(target_arch = "x86_64"))]
mod clone3 {
    use std::io;
    use std::os::fd::OwnedFd;

    use nix::unistd::Pid;

    use super::ChildData;

    /// Always `None`: see the x86_64 version.
    pub(super) fn start(
        _stack: &mut [u128],
        _cgroup_dir: Option<&OwnedFd>,
        _data: &ChildData<'_>,
    ) -> Option<io::Result<(Pid, Option<OwnedFd>)>> {
        None
    }
}

/// `pidfd` registered with the runtime, for readability (its process
/// exited).
fn register(pidfd: OwnedFd) -> io::Result<AsyncFd<OwnedFd>> {
    // SAFETY: an `OwnedFd` is an open descriptor that stays open, and the
    // same, until the `AsyncFd` that owns it drops it.
    Ok(unsafe { AsyncFd::register_with_interest(pidfd, Interest::READABLE) }?)
}

/// What the child does before `execve`; returns 0 or the errno of the
/// step that failed. Runs in the cloned child: system calls only.
fn child_setup(
    last_signal: libc::c_int,
    procs: Option<RawFd>,
    stdio: [RawFd; 3],
    cwd: *const libc::c_char,
) -> i32 {
    // SAFETY: each call is a plain system call on descriptors the parent
    // keeps open and a NUL-terminated path it owns; sigaction's pointers
    // are to locals.
    unsafe {
        // Our handlers would run on our memory: every caught signal goes
        // back to its default, and SIGPIPE too (Rust ignores it; std resets
        // it for children).
        for signal in 1..=last_signal {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &raw mut current) != 0 {
                continue;
            }
            if (current.sa_sigaction != libc::SIG_DFL && current.sa_sigaction != libc::SIG_IGN)
                || signal == libc::SIGPIPE
            {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &raw const default, std::ptr::null_mut());
            }
        }
        if let Some(procs) = procs {
            // "0" moves the writing process, i.e. this child.
            match libc::write(procs, b"0".as_ptr().cast(), 1) {
                1 => {}
                -1 => return Errno::last_raw(),
                _ => return libc::EIO,
            }
        }
        if libc::setsid() < 0 {
            return Errno::last_raw();
        }
        for (target, fd) in stdio.into_iter().enumerate() {
            // Each source is numbered 3 or above (`above_stdio`).
            if libc::dup2(fd, target as libc::c_int) < 0 {
                return Errno::last_raw();
            }
        }
        if libc::chdir(cwd) < 0 {
            return Errno::last_raw();
        }
    }
    match pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&SigSet::empty()), None) {
        Ok(()) => 0,
        Err(errno) => errno as i32,
    }
}

/// A started program of a run: waited for through its pidfd, killed and
/// reaped when dropped before it exited.
#[derive(Debug)]
pub struct Process {
    pid: Pid,
    /// `None` once reaped.
    pidfd: Option<AsyncFd<OwnedFd>>,
}

impl Process {
    /// The process id (and, as it leads a new session, its group's id).
    pub fn id(&self) -> u32 {
        self.pid.as_raw().unsigned_abs()
    }

    /// Waits for the program to exit and reaps it.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            let Some(pidfd) = &self.pidfd else {
                return Err(io::Error::other("the process was already reaped"));
            };
            let mut ready = pidfd.readable().await?;
            match waitpid(self.pid, Some(WaitPidFlag::WNOHANG)).map_err(io::Error::from)? {
                WaitStatus::StillAlive => ready.clear_ready(),
                status => {
                    if let Some(status) = exit_status(status) {
                        self.pidfd = None;
                        return Ok(status);
                    }
                    ready.clear_ready();
                }
            }
        }
    }
}

/// The std form of a final wait status; `None` for a stop or continue.
fn exit_status(status: WaitStatus) -> Option<ExitStatus> {
    match status {
        WaitStatus::Exited(_, code) => Some(ExitStatus::from_raw((code & 0xff) << 8)),
        WaitStatus::Signaled(_, signal, core) => Some(ExitStatus::from_raw(
            signal as i32 | if core { 0x80 } else { 0 },
        )),
        _ => None,
    }
}

/// Kills a program dropped before it exited (a cancelled or timed-out run)
/// and reaps it without blocking the caller.
impl Drop for Process {
    fn drop(&mut self) {
        let Some(pidfd) = self.pidfd.take() else {
            return;
        };
        let pid = self.pid;
        // Not reaped yet, so the pid is still this child's.
        let _ = kill(pid, Signal::SIGKILL);
        if matches!(
            waitpid(pid, Some(WaitPidFlag::WNOHANG)),
            Ok(status) if exit_status(status).is_some()
        ) {
            return;
        }
        let reap = async move {
            while let Ok(mut ready) = pidfd.readable().await {
                match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
                    Ok(status) if exit_status(status).is_some() => return,
                    Err(_) => return,
                    Ok(_) => ready.clear_ready(),
                }
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn(reap)),
            Err(_) => {
                let _ = std::thread::Builder::new()
                    .name("reaper".into())
                    .spawn(move || waitpid(pid, None));
            }
        }
    }
}
