//! Containment: every process a run starts, and every process those start,
//! dies with the run, on timeout, cancel, host shutdown and normal end
//! alike, including a descendant that left the run's sessions (`setsid`)
//! or double-forked to be adopted by someone else.
//!
//! It decides how a run is contained, once per process, from
//! [`MODE_VAR`] (`auto`, `cgroup` or `subreaper`):
//!
//! - **cgroup** (Linux, a writable cgroup v2 below our own): each run gets
//!   a child cgroup; every stage is born in it (`clone3` with
//!   `CLONE_INTO_CGROUP`, see [`spawn`]) or moves itself into it before
//!   `execve`, so before it can fork, and the run ends once the cgroup
//!   holds no process, with `cgroup.kill` (or by killing each member where
//!   the kernel lacks it) while it does; the emptied cgroup is kept for a
//!   later run (see [`cgroup`]). Nothing can leave a cgroup without
//!   write access to another one, so this is exact.
//! - **subreaper** (Linux): this process becomes the child subreaper, so
//!   orphans of any run are re-parented to it instead of to init, and a run
//!   ends by killing every remaining descendant it can attribute to itself
//!   (see [`subreaper`] for the rules) and every orphan it cannot attribute
//!   to any live run.
//! - `auto` picks the cgroup when one is usable, else the subreaper.
//!
//! Every stage (and the approver hook) also starts in a new session with
//! no controlling terminal, so it can neither reach the approver's
//! terminal through `/dev/tty` nor inject keys into it with `TIOCSTI`.
//!
//! It refuses, failing closed: a run whose containment cannot be set up is
//! not started ([`ContainError`] says why and what to change), and an
//! unknown [`MODE_VAR`] value, or `cgroup` where no cgroup is usable,
//! refuses every run. Upholds DESIGN.md invariant 8 (no process outlives
//! its run).
//!
//! # Caveats
//!
//! Outside Linux only the sessions contain a run: a process that calls
//! `setsid` there escapes, as before. A host killed with `SIGKILL` cannot
//! clean up: under a cgroup its runs' processes stay in their cgroups,
//! under the subreaper they are re-parented to init.

#[cfg(target_os = "linux")]
mod cgroup;
mod launch;
#[cfg(target_os = "linux")]
mod procfs;
mod session;
#[cfg(target_os = "linux")]
mod spawn;
#[cfg(target_os = "linux")]
mod subreaper;

use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether [`Scope::launch`] must take the `fork` path even where the
/// `clone` one is available (set by [`spawn_by_fork`]).
static FORCE_FORK: AtomicBool = AtomicBool::new(false);

/// Makes this process's later runs spawn by `fork` (tokio's `Command`
/// with a `pre_exec`), the path kept for kernels without pidfds, instead
/// of the `vfork`-style clone; `false` restores the default. For
/// benchmarks that compare the two in one process, and tests of the
/// fallback.
pub fn spawn_by_fork(fork: bool) {
    FORCE_FORK.store(fork, Ordering::Relaxed);
}

/// Whether runs are spawned by the `vfork`-style clone.
#[cfg(target_os = "linux")]
fn by_clone() -> bool {
    !FORCE_FORK.load(Ordering::Relaxed) && spawn::available()
}

use tokio::process::{Child, Command};

pub use launch::{EnvBase, Launch};

/// The environment variable that chooses how runs are contained, so an
/// operator (or a test) can require one mechanism.
pub const MODE_VAR: &str = "EXEC_APPROVALS_CONTAINMENT";

/// The mechanism the operator asked for in [`MODE_VAR`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    /// A cgroup when one is usable, else the subreaper.
    Auto,
    /// A cgroup per run, or no run at all.
    Cgroup,
    /// The child subreaper, even where a cgroup would do.
    Subreaper,
}

impl Requested {
    /// Parses the variable's value; unset or empty means [`Requested::Auto`].
    pub fn parse(value: Option<&str>) -> Result<Self, ContainError> {
        match value.map(str::trim) {
            None | Some("" | "auto") => Ok(Self::Auto),
            Some("cgroup") => Ok(Self::Cgroup),
            Some("subreaper") => Ok(Self::Subreaper),
            Some(other) => Err(ContainError::UnknownMode {
                value: other.to_owned(),
            }),
        }
    }
}

/// Why a run cannot be contained; the run is refused rather than started
/// without containment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContainError {
    /// [`MODE_VAR`] holds a value we do not know.
    #[error("{MODE_VAR}={value:?} is not a containment mode\nhint: use auto, cgroup or subreaper")]
    UnknownMode {
        /// The value found.
        value: String,
    },
    /// `cgroup` was required and no writable cgroup v2 is at hand.
    #[error(
        "no writable cgroup v2 for runs at {}: {reason}\nhint: run the host in a delegated cgroup (e.g. `systemd-run --user --scope -p Delegate=yes …`) or set {MODE_VAR}=subreaper",
        .path.display()
    )]
    CgroupUnusable {
        /// Where the runs' cgroups would go.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A run's own cgroup could not be made.
    #[error(
        "cannot create the run's cgroup {}: {reason}\nhint: check the cgroup's permissions and limits (cgroup.max.descendants) or set {MODE_VAR}=subreaper",
        .path.display()
    )]
    RunCgroup {
        /// The cgroup directory.
        path: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// This process could not become the child subreaper.
    #[error(
        "cannot become the child subreaper: {reason}\nhint: set {MODE_VAR}=cgroup on a host with a writable cgroup v2"
    )]
    Subreaper {
        /// The operating system's reason.
        reason: String,
    },
    /// The requested mechanism does not exist on this platform.
    #[error(
        "{MODE_VAR}={mode} needs Linux\nhint: unset {MODE_VAR}; here runs are contained by their sessions only"
    )]
    Unsupported {
        /// The mechanism asked for.
        mode: &'static str,
    },
}

/// The mechanism in force for this process.
#[derive(Debug)]
enum Mechanism {
    /// A cgroup per run, below this directory.
    #[cfg(target_os = "linux")]
    Cgroup(cgroup::Parent),
    /// This process is the child subreaper.
    #[cfg(target_os = "linux")]
    Subreaper,
    /// Sessions only (not Linux).
    #[cfg(not(target_os = "linux"))]
    Sessions,
}

/// The mechanism of this process, chosen once and kept for its life.
static CHOSEN: OnceLock<Result<Mechanism, ContainError>> = OnceLock::new();

/// The mechanism, chosen from [`MODE_VAR`] on first use.
fn mechanism() -> Result<&'static Mechanism, ContainError> {
    CHOSEN
        .get_or_init(|| {
            Requested::parse(std::env::var(MODE_VAR).ok().as_deref()).and_then(choose_logged)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Chooses the mechanism for this process in code rather than through
/// [`MODE_VAR`], before the first run (tests pick one per test binary);
/// returns the name of the mechanism in force, which is the one chosen
/// first if runs were already contained.
pub fn choose_for_process(requested: Requested) -> Result<&'static str, ContainError> {
    let chosen = CHOSEN.get_or_init(|| choose_logged(requested));
    chosen.as_ref().map(Mechanism::name).map_err(Clone::clone)
}

fn choose_logged(requested: Requested) -> Result<Mechanism, ContainError> {
    let chosen = choose(requested);
    match &chosen {
        Ok(mechanism) => tracing::info!(?requested, ?mechanism, "run containment"),
        Err(error) => {
            tracing::error!(?requested, %error, "runs cannot be contained; every run is refused");
        }
    }
    chosen
}

impl Mechanism {
    fn name(&self) -> &'static str {
        match self {
            #[cfg(target_os = "linux")]
            Mechanism::Cgroup(_) => "cgroup",
            #[cfg(target_os = "linux")]
            Mechanism::Subreaper => "subreaper",
            #[cfg(not(target_os = "linux"))]
            Mechanism::Sessions => "sessions",
        }
    }
}

#[cfg(target_os = "linux")]
fn choose(requested: Requested) -> Result<Mechanism, ContainError> {
    match requested {
        Requested::Cgroup => cgroup::Parent::probe().map(Mechanism::Cgroup),
        Requested::Subreaper => subreaper::enable().map(|()| Mechanism::Subreaper),
        Requested::Auto => match cgroup::Parent::probe() {
            Ok(parent) => Ok(Mechanism::Cgroup(parent)),
            Err(error) => {
                tracing::info!(%error, "no usable cgroup; runs are contained by the child subreaper");
                subreaper::enable().map(|()| Mechanism::Subreaper)
            }
        },
    }
}

#[cfg(not(target_os = "linux"))]
fn choose(requested: Requested) -> Result<Mechanism, ContainError> {
    match requested {
        Requested::Auto => Ok(Mechanism::Sessions),
        Requested::Cgroup => Err(ContainError::Unsupported { mode: "cgroup" }),
        Requested::Subreaper => Err(ContainError::Unsupported { mode: "subreaper" }),
    }
}

/// One run's containment: spawn every process of the run through it, and
/// end it when the run ends; dropping it kills whatever is left.
///
/// Also used for the approver hook, which is a run of its own.
#[derive(Debug)]
pub struct Scope {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    #[cfg(target_os = "linux")]
    Cgroup(&'static cgroup::Parent, cgroup::RunCgroup),
    #[cfg(target_os = "linux")]
    Subreaper(subreaper::Run),
    #[cfg(not(target_os = "linux"))]
    Sessions,
    /// [`Scope::end`] did the work of `Drop`.
    Ended,
}

impl Scope {
    /// Sets up containment for one run; an error means the run must not
    /// start.
    pub fn new() -> Result<Self, ContainError> {
        let kind = match mechanism()? {
            #[cfg(target_os = "linux")]
            Mechanism::Cgroup(parent) => Kind::Cgroup(parent, parent.create_run()?),
            #[cfg(target_os = "linux")]
            Mechanism::Subreaper => Kind::Subreaper(subreaper::Run::new()),
            #[cfg(not(target_os = "linux"))]
            Mechanism::Sessions => Kind::Sessions,
        };
        Ok(Self { kind })
    }

    /// Spawns `command` in a new session with no controlling terminal, as
    /// a member of this run (in its cgroup before it can fork).
    pub fn spawn(&self, command: &mut Command) -> io::Result<Child> {
        match &self.kind {
            #[cfg(target_os = "linux")]
            Kind::Cgroup(_, run) => {
                session::isolate(command, Some(run.procs()));
                command.spawn()
            }
            #[cfg(target_os = "linux")]
            Kind::Subreaper(run) => {
                session::isolate(command, None);
                run.spawn(command)
            }
            #[cfg(not(target_os = "linux"))]
            Kind::Sessions => {
                session::isolate(command);
                command.spawn()
            }
            Kind::Ended => Err(ended()),
        }
    }

    /// Starts `launch` in a new session with no controlling terminal, as a
    /// member of this run (in its cgroup before it can fork). On Linux
    /// with pidfds this is a `vfork`-style clone ([`spawn`]) rather than
    /// the `fork` of [`Scope::spawn`].
    ///
    /// # Panics
    ///
    /// Must be called on a tokio runtime (the child's pidfd is registered
    /// there).
    pub fn launch(&self, launch: Launch) -> io::Result<Started> {
        match &self.kind {
            #[cfg(target_os = "linux")]
            Kind::Cgroup(_, run) if by_clone() => {
                spawn::spawn(&launch, Some(run.fds())).map(Started::Direct)
            }
            #[cfg(target_os = "linux")]
            Kind::Subreaper(run) if by_clone() => run
                .register(|| spawn::spawn(&launch, None), spawn::Process::id)
                .map(Started::Direct),
            _ => self
                .spawn(&mut launch.into_command())
                .map(|child| Started::Forked(Box::new(child))),
        }
    }

    /// Kills every process of the run now, without waiting for them to die:
    /// for when stragglers must let go of the run's pipes.
    pub fn kill(&self) {
        match &self.kind {
            #[cfg(target_os = "linux")]
            Kind::Cgroup(_, run) => run.kill(),
            #[cfg(target_os = "linux")]
            Kind::Subreaper(run) => {
                run.sweep();
            }
            #[cfg(not(target_os = "linux"))]
            Kind::Sessions => {}
            Kind::Ended => {}
        }
    }

    /// Ends the run: kills every process left in it and waits, within a
    /// bound, until none is left. It takes the scope, so nothing can be
    /// spawned into, or killed through, a cgroup that then serves another
    /// run.
    pub async fn end(mut self) {
        match &self.kind {
            #[cfg(target_os = "linux")]
            Kind::Cgroup(_, run) => {
                let ended = run.end().await;
                if let Kind::Cgroup(parent, run) = std::mem::replace(&mut self.kind, Kind::Ended)
                    && ended == cgroup::Ended::Empty
                {
                    parent.recycle(run);
                }
            }
            #[cfg(target_os = "linux")]
            Kind::Subreaper(run) => run.end().await,
            #[cfg(not(target_os = "linux"))]
            Kind::Sessions => {}
            Kind::Ended => {}
        }
        self.kind = Kind::Ended;
    }
}

/// The error for a scope used after its end, which is a bug.
fn ended() -> io::Error {
    io::Error::other("this run's containment has ended; nothing more can start in it")
}

/// Removes what containment keeps between runs (the emptied run cgroups
/// kept for reuse), for a host that is shutting down.
pub fn release() {
    #[cfg(target_os = "linux")]
    if let Some(Ok(Mechanism::Cgroup(parent))) = CHOSEN.get() {
        parent.remove_spares();
    }
}

/// A program started by [`Scope::launch`]: killed if dropped before it
/// exited.
#[derive(Debug)]
pub enum Started {
    /// Cloned `vfork`-style and waited for through its pidfd.
    #[cfg(target_os = "linux")]
    Direct(spawn::Process),
    /// Forked by tokio's `Command` (no pidfds, or not Linux).
    Forked(Box<Child>),
}

impl Started {
    /// The process id (also its group's and session's id), while it has
    /// not been reaped.
    pub fn id(&self) -> Option<u32> {
        match self {
            #[cfg(target_os = "linux")]
            Started::Direct(process) => Some(process.id()),
            Started::Forked(child) => child.id(),
        }
    }

    /// Waits for the program to exit and reaps it.
    pub async fn wait(&mut self) -> io::Result<ExitStatus> {
        match self {
            #[cfg(target_os = "linux")]
            Started::Direct(process) => process.wait().await,
            Started::Forked(child) => child.wait().await,
        }
    }
}

/// A run dropped before its end (cancelled, or its host shutting down)
/// still takes its processes with it.
impl Drop for Scope {
    fn drop(&mut self) {
        match &self.kind {
            #[cfg(target_os = "linux")]
            Kind::Cgroup(_, run) => run.end_blocking(),
            #[cfg(target_os = "linux")]
            Kind::Subreaper(run) => run.end_blocking(),
            #[cfg(not(target_os = "linux"))]
            Kind::Sessions => {}
            Kind::Ended => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_variable_accepts_three_words_and_refuses_the_rest() {
        let cases: &[(Option<&str>, Result<Requested, ContainError>)] = &[
            (None, Ok(Requested::Auto)),
            (Some(""), Ok(Requested::Auto)),
            (Some("auto"), Ok(Requested::Auto)),
            (Some(" cgroup "), Ok(Requested::Cgroup)),
            (Some("subreaper"), Ok(Requested::Subreaper)),
            (
                Some("none"),
                Err(ContainError::UnknownMode {
                    value: "none".into(),
                }),
            ),
            (
                Some("Cgroup"),
                Err(ContainError::UnknownMode {
                    value: "Cgroup".into(),
                }),
            ),
        ];
        for (value, want) in cases {
            assert_eq!(&Requested::parse(*value), want, "{value:?}");
        }
    }
}
