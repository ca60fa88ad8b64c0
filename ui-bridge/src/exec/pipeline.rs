//! One pipeline of a plan: its commands spawned directly (no shell), wired
//! with our own pipes, each in a new session of its own (no controlling
//! terminal; a process group cannot span sessions), inside the run's
//! containment, and waited for.
//!
//! It decides each command's stdin (heredoc body, the file of `< FILE`,
//! previous pipe, or null; a redirection overrides the pipe, as in bash),
//! stdout and stderr (next pipe, captured stream, or `/dev/null`, as the
//! plan's [`Sink`]s say), environment (cleared, then exactly what was given)
//! and working directory. It refuses to start a command whose working
//! directory is missing, whose argv is empty or whose environment cannot be
//! passed intact. A command whose stdin file cannot be opened as the file
//! that was checked ([`open_stdin`]) is not started: like bash, it fails
//! with status 1 and a message on stderr, and the chain goes on from that
//! status. Upholds DESIGN.md invariant 4: what runs is the plan's argv,
//! program and stdin file, never text re-read by a shell.

use std::io::{PipeReader, PipeWriter};
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use approvals_ipc::policy::plan::{PlannedCommand, PlannedExec, Sink, Stdin};
use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::task::JoinHandle;

use super::ChildEnv;
use super::capture::{Capture, Stream};
use super::contain::{EnvBase, Launch, Scope, Started};
use super::groups::{Groups, Stopped};

/// How a command or pipeline ended, as a shell would see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal.
    Signaled(i32),
}

impl Status {
    /// Whether `&&` continues and `||` skips.
    pub(super) fn is_success(self) -> bool {
        self == Status::Exited(0)
    }

    fn from_exit(status: ExitStatus) -> Self {
        match (status.code(), status.signal()) {
            (Some(code), _) => Status::Exited(code),
            (None, Some(signal)) => Status::Signaled(signal),
            // Neither a code nor a signal: count it as a failure.
            (None, None) => Status::Exited(-1),
        }
    }
}

/// Why a plan could not run to its end.
#[derive(Debug, thiserror::Error)]
pub(super) enum ExecError {
    /// The plan was stopped by its timeout; not reported as an error.
    #[error("stopped by the timeout")]
    Stopped,
    /// A plan or pipeline without commands says nothing to run; refusing is
    /// safer than reporting a success.
    #[error("the plan has an empty step; nothing was run")]
    EmptyPlan,
    /// The working directory is gone or is not a directory.
    #[error("working directory {} does not exist or is not a directory", .cwd.display())]
    MissingCwd {
        /// The planned working directory.
        cwd: PathBuf,
    },
    /// A plan with an empty argv cannot say what argv[0] is.
    #[error("cannot run {}: the planned argv is empty", .program.display())]
    EmptyArgv {
        /// The planned program.
        program: PathBuf,
    },
    /// A variable name or value a process cannot receive intact.
    #[error(
        "cannot pass environment variable {key:?}: names must be non-empty without '=' or NUL, values without NUL"
    )]
    BadEnv {
        /// The offending name.
        key: String,
    },
    /// The program could not be started.
    #[error("cannot run {}: {source}", .program.display())]
    Spawn {
        /// The planned program.
        program: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The run could not be contained, so nothing of it was started.
    #[error("the run was refused: {0}")]
    Contain(#[from] super::contain::ContainError),
    /// A pipe for stdio could not be made.
    #[error("cannot create a pipe: {0}")]
    Pipe(#[source] std::io::Error),
    /// `/dev/null`, for a stream the plan discards, could not be opened.
    #[error("cannot open /dev/null: {0}")]
    DevNull(#[source] std::io::Error),
    /// Waiting for a started program failed.
    #[error("cannot wait for {}: {source}", .program.display())]
    Wait {
        /// The planned program.
        program: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

impl From<Stopped> for ExecError {
    fn from(_: Stopped) -> Self {
        ExecError::Stopped
    }
}

/// The write ends of the plan's two capture pipes, cloned into each child
/// that writes to a captured stream.
#[derive(Debug)]
pub(super) struct CaptureWriters {
    /// Write end of the captured stdout.
    pub stdout: PipeWriter,
    /// Write end of the captured stderr.
    pub stderr: PipeWriter,
}

/// What one plan's pipelines share.
pub(super) struct Context<'a> {
    /// The base environment of every child (already filtered).
    pub env: &'a ChildEnv,
    /// The plan's process groups.
    pub groups: &'a Groups,
    /// The run's containment, which every process is spawned through.
    pub scope: &'a Scope,
    /// Captured output, for builtins' messages.
    pub capture: &'a Capture,
}

/// One started member of a pipeline.
enum Member {
    Process { child: Started, program: PathBuf },
    Builtin(Status),
}

/// A started pipeline, to be waited for.
///
/// Dropping it kills the direct children ([`Started`]); the caller still
/// signals the groups for their descendants.
pub(super) struct Running {
    members: Vec<Member>,
    feeders: Vec<JoinHandle<()>>,
}

/// Starts every command of `pipeline`, each in a new session, its
/// captured streams cloned from `writers`.
pub(super) fn spawn_pipeline(
    pipeline: &[PlannedCommand],
    cx: &Context<'_>,
    writers: &CaptureWriters,
) -> Result<Running, ExecError> {
    let mut members = Vec::with_capacity(pipeline.len());
    let mut feeders: Vec<JoinHandle<()>> = Vec::new();
    let mut previous: Option<PipeReader> = None;
    let last_index = pipeline.len().saturating_sub(1);

    for (index, command) in pipeline.iter().enumerate() {
        let stdin = previous.take();
        let (own_stdout, next) = if index == last_index {
            (writers.stdout.try_clone().map_err(ExecError::Pipe)?, None)
        } else {
            let (reader, writer) = std::io::pipe().map_err(ExecError::Pipe)?;
            (writer, Some(reader))
        };
        match command {
            PlannedCommand::Cd { dir } => members.push(Member::Builtin(cd(dir, cx.capture))),
            PlannedCommand::Exec(exec) => {
                let stdin = match &exec.stdin {
                    Some(Stdin::File(path)) => match open_stdin(path) {
                        Ok(file) => StdinFd::File(file),
                        Err(error) => {
                            // As bash: the command does not run, its status
                            // is 1, and the pipeline's other members run.
                            let line = format!("{}: {error}\n", path.display());
                            cx.capture.push(Stream::Stderr, line.as_bytes());
                            members.push(Member::Builtin(Status::Exited(1)));
                            drop(own_stdout);
                            previous = next;
                            continue;
                        }
                    },
                    _ => StdinFd::Piped(stdin),
                };
                let launch = build_launch(exec, cx, writers, stdin, &own_stdout, &mut feeders)?;
                // The launch is consumed: our copies of the child's stdio
                // close as soon as it started.
                let child = cx
                    .groups
                    .launch(cx.scope, launch)?
                    .map_err(|source| spawn_error(exec, source))?;
                members.push(Member::Process {
                    child,
                    program: exec.program.clone(),
                });
            }
        }
        drop(own_stdout);
        previous = next;
    }
    drop(previous);
    Ok(Running { members, feeders })
}

/// Waits for every member of a started pipeline and returns the last
/// one's status.
///
/// # Cancel safety
///
/// Dropping the future kills the direct children ([`Started`]); the
/// caller still signals the groups for their descendants.
pub(super) async fn wait_pipeline(running: Running) -> Result<Status, ExecError> {
    let Running { members, feeders } = running;
    let mut status = Status::Exited(0);
    for member in members {
        status = match member {
            Member::Builtin(status) => status,
            Member::Process { mut child, program } => {
                let exit = child
                    .wait()
                    .await
                    .map_err(|source| ExecError::Wait { program, source })?;
                Status::from_exit(exit)
            }
        };
    }
    for feeder in feeders {
        feeder.abort();
    }
    Ok(status)
}

/// Why a spawn failed: the child's `chdir` fails like a missing program,
/// so the working directory is checked here, on the error path only.
fn spawn_error(exec: &PlannedExec, source: std::io::Error) -> ExecError {
    if std::fs::metadata(&exec.cwd).is_ok_and(|meta| meta.is_dir()) {
        ExecError::Spawn {
            program: exec.program.clone(),
            source,
        }
    } else {
        ExecError::MissingCwd {
            cwd: exec.cwd.to_path_buf(),
        }
    }
}

/// The `cd` builtin: only its status matters, since later commands carry
/// their own absolute working directory.
fn cd(dir: &Path, capture: &Capture) -> Status {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Status::Exited(0),
        Ok(_) => {
            let line = format!("cd: {}: Not a directory\n", dir.display());
            capture.push(Stream::Stderr, line.as_bytes());
            Status::Exited(1)
        }
        Err(_) => {
            let line = format!("cd: {}: No such file or directory\n", dir.display());
            capture.push(Stream::Stderr, line.as_bytes());
            Status::Exited(1)
        }
    }
}

/// Prepares the start of one planned program: argv as planned, exactly
/// the given environment, planned cwd and stdio.
fn build_launch(
    exec: &PlannedExec,
    cx: &Context<'_>,
    writers: &CaptureWriters,
    stdin: StdinFd,
    own_stdout: &PipeWriter,
    feeders: &mut Vec<JoinHandle<()>>,
) -> Result<Launch, ExecError> {
    if exec.argv.is_empty() {
        return Err(ExecError::EmptyArgv {
            program: exec.program.clone(),
        });
    }
    let base = if cx.env.inherits() {
        // This process's environment is exactly the filtered one.
        EnvBase::Inherit
    } else {
        EnvBase::Exactly(cx.env.vars())
    };
    let explicit: &[(String, String)] = match base {
        EnvBase::Inherit => &[],
        EnvBase::Exactly(vars) => vars,
    };
    for (key, value) in explicit.iter().chain(&exec.env) {
        if key.is_empty() || key.contains(['=', '\0']) || value.contains('\0') {
            return Err(ExecError::BadEnv { key: key.clone() });
        }
    }

    // A redirection overrides the pipe (dropping our read end of it, so
    // the writer sees a closed pipe), as in bash.
    let stdin = match (&exec.stdin, stdin) {
        (_, StdinFd::File(file)) => file,
        (Some(Stdin::Heredoc(body)), StdinFd::Piped(_)) => {
            let (reader, writer) = std::io::pipe().map_err(ExecError::Pipe)?;
            feeders.push(feed(writer, body.clone())?);
            OwnedFd::from(reader)
        }
        // The caller opens a planned file: never reached, but a plan's
        // file is never replaced by the pipe.
        (Some(Stdin::File(path)), StdinFd::Piped(_)) => {
            return Err(ExecError::Spawn {
                program: exec.program.clone(),
                source: std::io::Error::other(format!(
                    "stdin file {} was not opened",
                    path.display()
                )),
            });
        }
        (None, StdinFd::Piped(Some(reader))) => OwnedFd::from(reader),
        (None, StdinFd::Piped(None)) => null(false)?,
    };
    let stdio = [
        stdin,
        fd_for(exec.stdout, own_stdout, writers)?,
        fd_for(exec.stderr, own_stdout, writers)?,
    ];
    Launch::new(&exec.program, &exec.argv, base, &exec.env, &exec.cwd, stdio).map_err(|source| {
        ExecError::Spawn {
            program: exec.program.clone(),
            source,
        }
    })
}

/// What a command's stdin is before its redirections: the previous pipe
/// (if any), or the file its `< FILE` opened.
enum StdinFd {
    /// The read end of the previous command's pipe, or `None` first.
    Piped(Option<PipeReader>),
    /// The planned stdin file, opened by [`open_stdin`].
    File(OwnedFd),
}

/// Opens the planned stdin file (`< FILE`) as the file the policy
/// checked: read-only, close-on-exec, never as a controlling terminal,
/// and never through a link. The plan holds the file's real path, which
/// had no link on it when it was checked, so a link found on it now was
/// put there since: on Linux `openat2` with `RESOLVE_NO_SYMLINKS` fails
/// on a link anywhere on the path; where `openat2` is missing (a kernel
/// before 5.6, a seccomp filter refusing it) and on other systems,
/// `O_NOFOLLOW` fails on a link as the last component. It is opened
/// without blocking and must be a regular file (or `/dev/null`, the one
/// device the policy allows), so a FIFO or device swapped in since the
/// check neither blocks the run nor is read.
pub(super) fn open_stdin(path: &Path) -> std::io::Result<OwnedFd> {
    let fd = open_no_links(path)?;
    let meta = std::fs::File::from(fd.try_clone()?).metadata()?;
    let null_device = path == Path::new("/dev/null")
        && std::os::unix::fs::FileTypeExt::is_char_device(&meta.file_type());
    if !meta.is_file() && !null_device {
        return Err(std::io::Error::other(
            "not a regular file (it changed since it was checked)",
        ));
    }
    // The command reads it as bash would give it: blocking.
    let flags = nix::fcntl::fcntl(&fd, nix::fcntl::FcntlArg::F_GETFL)?;
    let flags = nix::fcntl::OFlag::from_bits_retain(flags) - nix::fcntl::OFlag::O_NONBLOCK;
    nix::fcntl::fcntl(&fd, nix::fcntl::FcntlArg::F_SETFL(flags))?;
    Ok(fd)
}

/// `path` opened read-only without following a link on it (see
/// [`open_stdin`]).
#[cfg(target_os = "linux")]
fn open_no_links(path: &Path) -> std::io::Result<OwnedFd> {
    use nix::errno::Errno;
    use nix::fcntl::{OFlag, OpenHow, ResolveFlag, openat2};

    let how = OpenHow::new()
        .flags(OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOCTTY | OFlag::O_NONBLOCK)
        .resolve(ResolveFlag::RESOLVE_NO_SYMLINKS);
    match openat2(nix::fcntl::AT_FDCWD, path, how) {
        Ok(fd) => Ok(fd),
        Err(Errno::ENOSYS | Errno::EPERM) => open_no_final_link(path),
        Err(Errno::ELOOP) => Err(std::io::Error::other(
            "a symbolic link is on its path now (it changed since it was checked)",
        )),
        Err(errno) => Err(errno.into()),
    }
}

/// Without `openat2`: `O_NOFOLLOW` refuses a link as the last component.
#[cfg(not(target_os = "linux"))]
fn open_no_links(path: &Path) -> std::io::Result<OwnedFd> {
    open_no_final_link(path)
}

/// `path` opened read-only, failing when its last component is a link.
fn open_no_final_link(path: &Path) -> std::io::Result<OwnedFd> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NOCTTY | libc::O_NONBLOCK)
        .open(path)
        .map(OwnedFd::from)
}

/// `/dev/null`, for reading or for writing.
fn null(write: bool) -> Result<OwnedFd, ExecError> {
    std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .open("/dev/null")
        .map(OwnedFd::from)
        .map_err(ExecError::DevNull)
}

/// Maps a planned sink to a file descriptor: `Stdout` is the command's own
/// stdout (the next pipe or the captured stdout), whatever its stdout field
/// says, so `2>&1` and `>/dev/null` compose as the planner resolved them.
fn fd_for(
    sink: Sink,
    own_stdout: &PipeWriter,
    writers: &CaptureWriters,
) -> Result<OwnedFd, ExecError> {
    let writer = match sink {
        Sink::Null => return null(true),
        Sink::Stdout => own_stdout,
        Sink::Stderr => &writers.stderr,
    };
    writer
        .try_clone()
        .map(OwnedFd::from)
        .map_err(ExecError::Pipe)
}

/// Writes a heredoc body into a pipe from a task; a reader that exits early
/// ends the task with a broken pipe, which is not an error.
fn feed(writer: PipeWriter, body: String) -> Result<JoinHandle<()>, ExecError> {
    let mut sender = pipe::Sender::from_owned_fd(OwnedFd::from(writer)).map_err(ExecError::Pipe)?;
    Ok(tokio::spawn(async move {
        if let Err(error) = sender.write_all(body.as_bytes()).await {
            tracing::debug!(%error, "heredoc reader stopped early");
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A regular file opened for stdin is close-on-exec, so no other
    /// process this host starts inherits it, and reads blocking again.
    #[test]
    fn a_stdin_file_is_opened_close_on_exec_and_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().canonicalize().unwrap().join("in.txt");
        std::fs::write(&file, "x").unwrap();
        for opened in [
            open_stdin(&file).unwrap(),
            open_no_final_link(&file).unwrap(),
        ] {
            let fd_flags = nix::fcntl::fcntl(&opened, nix::fcntl::FcntlArg::F_GETFD).unwrap();
            let cloexec = nix::fcntl::FdFlag::from_bits_retain(fd_flags);
            assert!(cloexec.contains(nix::fcntl::FdFlag::FD_CLOEXEC));
        }
        let opened = open_stdin(&file).unwrap();
        let flags = nix::fcntl::fcntl(&opened, nix::fcntl::FcntlArg::F_GETFL).unwrap();
        let flags = nix::fcntl::OFlag::from_bits_retain(flags);
        assert!(!flags.contains(nix::fcntl::OFlag::O_NONBLOCK), "{flags:?}");
        assert!(open_stdin(Path::new("/dev/null")).is_ok());
    }

    /// Only `/dev/null` among devices, and never a link, even where
    /// `openat2` is missing and only the last component is checked.
    #[test]
    fn devices_other_than_dev_null_and_links_are_not_opened() {
        for device in ["/dev/zero", "/dev/full", "/dev/urandom"] {
            assert!(open_stdin(Path::new(device)).is_err(), "{device}");
        }
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::write(real.join("target"), "x").unwrap();
        std::os::unix::fs::symlink(real.join("target"), real.join("link")).unwrap();
        assert!(open_stdin(&real.join("link")).is_err());
        assert!(open_no_final_link(&real.join("link")).is_err());
        assert!(open_no_final_link(&real.join("target")).is_ok());
        let fifo = real.join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        // Returns at once (no writer would ever come) and is refused.
        assert!(open_no_final_link(&fifo).is_ok());
        assert!(open_stdin(&fifo).is_err());
    }
}
