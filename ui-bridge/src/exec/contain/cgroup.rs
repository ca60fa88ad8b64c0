//! A cgroup v2 per run, made below this process's own cgroup.
//!
//! It decides where runs' cgroups go (our own cgroup, found through
//! `/proc/self/cgroup` and the `cgroup2` mount in `/proc/self/mountinfo`),
//! whether that place is usable (a probe cgroup can be made, joined and
//! removed), and how a run ends: at once when its `cgroup.events` says it
//! is no longer populated, else after `cgroup.kill` (or `SIGKILL` to each
//! member on kernels before 5.14) until it is not. An emptied cgroup is
//! kept, up to [`SPARES`] of them, for the next run instead of removed and
//! made again: the `mkdir` and `rmdir` were most of what containment adds
//! to a short run. It refuses nothing itself; the caller turns any error
//! into a refused run.
//!
//! Our own cgroup holds this process, so it has no controllers enabled for
//! its children (cgroup v2's no-internal-process rule): its children are
//! plain domain cgroups that only group processes, which is all we need.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::fd::OwnedFd;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::ContainError;

/// How long a run's end waits for its cgroup to empty before giving up on
/// removing it (its processes were killed; only the directory is left).
const EMPTY_WAIT: Duration = Duration::from_secs(5);

/// How long a destructor blocks for its run's cgroup to empty, so a host
/// that shuts down right after does not leave the directory behind.
const BLOCKING_WAIT: Duration = Duration::from_millis(200);

/// How often an ending run checks whether its cgroup is empty.
const EMPTY_POLL: Duration = Duration::from_millis(2);

/// How many emptied run cgroups are kept for later runs; one more is
/// removed. A few cover the runs a host has going at once.
const SPARES: usize = 4;

/// The cgroup that holds the runs' cgroups: this process's own.
#[derive(Debug)]
pub(super) struct Parent {
    dir: PathBuf,
    /// Emptied cgroups of ended runs, handed to the next runs.
    spares: Mutex<Vec<RunCgroup>>,
}

impl Parent {
    /// Finds our own cgroup and checks that a run's cgroup can be made,
    /// joined and removed there.
    pub(super) fn probe() -> Result<Self, ContainError> {
        let dir = own_dir().map_err(|error| ContainError::CgroupUnusable {
            path: PathBuf::from("/proc/self/cgroup"),
            reason: error.to_string(),
        })?;
        let parent = Self {
            dir,
            spares: Mutex::new(Vec::with_capacity(SPARES)),
        };
        parent.remove_stale();
        let probe = parent.create_named("probe").map_err(|error| match error {
            ContainError::RunCgroup { path, reason } => {
                ContainError::CgroupUnusable { path, reason }
            }
            other => other,
        })?;
        probe
            .remove()
            .map_err(|error| ContainError::CgroupUnusable {
                path: probe.dir.clone(),
                reason: error.to_string(),
            })?;
        Ok(parent)
    }

    /// Removes the empty cgroups of hosts that were killed before they
    /// could (named for a pid that no longer runs); a cgroup still holding
    /// processes is left alone.
    fn remove_stale(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|name| name.strip_prefix("exec-approvals."))
                .and_then(|rest| rest.split_once('.'))
                .and_then(|(pid, _)| pid.parse::<u32>().ok())
            else {
                continue;
            };
            if !Path::new(&format!("/proc/{pid}")).exists() && fs::remove_dir(entry.path()).is_ok()
            {
                tracing::debug!(cgroup = %entry.path().display(), "removed a stale run cgroup");
            }
        }
    }

    /// A cgroup for one run: an emptied one kept from an ended run, else
    /// a fresh one.
    pub(super) fn create_run(&self) -> Result<RunCgroup, ContainError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        if let Some(spare) = self.lock_spares().pop() {
            return Ok(spare);
        }
        self.create_named(&NEXT.fetch_add(1, Ordering::Relaxed).to_string())
    }

    /// Takes back the cgroup of a run that [`RunCgroup::end`] found empty,
    /// for a later run, or removes it when enough are kept. One that is
    /// populated again (a same-user process moved itself in) is not
    /// reused: ending it kills that process, as any run's end would. One
    /// that was killed is not reused either (see [`RunCgroup::killed`]).
    pub(super) fn recycle(&self, run: RunCgroup) {
        if !matches!(run.populated(), Ok(false)) {
            run.end_blocking();
            return;
        }
        if run.killed.load(Ordering::Relaxed) {
            if let Err(error) = run.remove() {
                tracing::warn!(cgroup = %run.dir.display(), %error, "cannot remove an ended run's cgroup");
            }
            return;
        }
        let mut spares = self.lock_spares();
        if spares.len() < SPARES {
            spares.push(run);
            return;
        }
        drop(spares);
        if let Err(error) = run.remove() {
            tracing::warn!(cgroup = %run.dir.display(), %error, "cannot remove an ended run's cgroup");
        }
    }

    /// Removes the kept cgroups, for a host that is shutting down (a host
    /// that does not is cleaned up after by the next one's
    /// [`Parent::probe`]).
    pub(super) fn remove_spares(&self) {
        for spare in self.lock_spares().drain(..) {
            if let Err(error) = spare.remove() {
                tracing::debug!(cgroup = %spare.dir.display(), %error, "cannot remove a kept run cgroup");
            }
        }
    }

    fn lock_spares(&self) -> std::sync::MutexGuard<'_, Vec<RunCgroup>> {
        // The list holds no invariant a panicking holder could break.
        self.spares.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn create_named(&self, suffix: &str) -> Result<RunCgroup, ContainError> {
        let dir = self
            .dir
            .join(format!("exec-approvals.{}.{suffix}", std::process::id()));
        let failed = |error: io::Error| ContainError::RunCgroup {
            path: dir.clone(),
            reason: error.to_string(),
        };
        fs::create_dir(&dir).map_err(failed)?;
        let opened = File::open(&dir).map(OwnedFd::from).and_then(|dir_fd| {
            let procs = OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))?;
            let events = File::open(dir.join("cgroup.events"))?;
            Ok((dir_fd, OwnedFd::from(procs), events))
        });
        match opened {
            Ok((dir_fd, procs, events)) => Ok(RunCgroup {
                dir,
                dir_fd: Arc::new(dir_fd),
                procs: Arc::new(procs),
                events: Arc::new(events),
                killed: Arc::new(AtomicBool::new(false)),
            }),
            Err(error) => {
                let _ = fs::remove_dir(&dir);
                Err(failed(error))
            }
        }
    }
}

/// One run's cgroup; its `cgroup.procs` is held open so each stage can
/// join it between fork and exec.
#[derive(Debug)]
pub(super) struct RunCgroup {
    dir: PathBuf,
    /// The directory, open, for `clone3`'s `CLONE_INTO_CGROUP`.
    dir_fd: Arc<OwnedFd>,
    procs: Arc<OwnedFd>,
    /// The open `cgroup.events`, read again from offset 0 for `populated`.
    events: Arc<File>,
    /// Whether `cgroup.kill` was written: such a cgroup is not reused.
    /// Linux counts kills per cgroup and, on kernels with the fix for
    /// the fork/kill race (6.14 and later), compares that count for a
    /// child cloned into a cgroup (`CLONE_INTO_CGROUP`) with the one read
    /// from its parent's cgroup, killing the child when they differ: in a
    /// cgroup killed once, every later `clone3` child would die at birth.
    killed: Arc<AtomicBool>,
}

/// How [`RunCgroup::end`] left a run's cgroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended {
    /// No process left in it: it can serve another run.
    Empty,
    /// Removed (whether it was populated could not be read).
    Removed,
    /// Still populated when the wait ran out; left in place.
    LeftInPlace,
}

impl RunCgroup {
    /// The open `cgroup.procs`, for a child to write itself into.
    pub(super) fn procs(&self) -> Arc<OwnedFd> {
        Arc::clone(&self.procs)
    }

    /// The open directory and `cgroup.procs`, for a cloned child to start
    /// in ([`super::spawn`]).
    pub(super) fn fds(&self) -> super::spawn::CgroupFds<'_> {
        super::spawn::CgroupFds {
            dir: &self.dir_fd,
            procs: &self.procs,
        }
    }

    /// `SIGKILL` to every member, at once.
    pub(super) fn kill(&self) {
        // An empty cgroup has no one to kill, and writing `cgroup.kill`
        // would unfit it for reuse. Only a member can fork into it, so it
        // stays empty.
        if matches!(self.populated(), Ok(false)) {
            return;
        }
        self.killed.store(true, Ordering::Relaxed);
        match write_file(&self.dir.join("cgroup.kill"), b"1") {
            Ok(()) => {}
            // Kernels before 5.14 have no cgroup.kill.
            Err(error) if error.kind() == io::ErrorKind::NotFound => self.kill_each(),
            Err(error) => {
                tracing::warn!(cgroup = %self.dir.display(), %error, "cgroup.kill failed; killing each member");
                self.kill_each();
            }
        }
    }

    /// Kills each member listed in `cgroup.procs`; a fork racing this is
    /// caught by the next round of [`RunCgroup::end`].
    fn kill_each(&self) {
        let Ok(listed) = fs::read_to_string(self.dir.join("cgroup.procs")) else {
            return;
        };
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        let listed = listed
            .lines()
            .filter_map(|line| line.trim().parse::<i32>().ok());
        for pid in listed.filter(|&pid| super::procfs::may_kill(pid, me)) {
            match kill(Pid::from_raw(pid), Signal::SIGKILL) {
                Ok(()) | Err(Errno::ESRCH) => {}
                Err(error) => tracing::warn!(pid, %error, "cannot kill a member of a run's cgroup"),
            }
        }
    }

    /// Removes the cgroup; fails (`EBUSY`) while it has members.
    fn remove(&self) -> io::Result<()> {
        match fs::remove_dir(&self.dir) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }

    /// Whether any process is in the cgroup (or in one below it), from the
    /// `populated` line of `cgroup.events`, which the kernel updates as
    /// the last member exits.
    fn populated(&self) -> io::Result<bool> {
        let mut buf = [0_u8; 256];
        let read = self.events.read_at(&mut buf, 0)?;
        let text = std::str::from_utf8(buf.get(..read).unwrap_or_default())
            .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
        populated_line(text).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("no populated line in cgroup.events: {text:?}"),
            )
        })
    }

    /// Ends the run: once no process is left in the cgroup (its members
    /// killed until none is, within [`EMPTY_WAIT`]) it is [`Ended::Empty`]
    /// and may serve another run. Where `cgroup.events` cannot be read,
    /// `rmdir`, which fails while the cgroup has members, decides instead.
    pub(super) async fn end(&self) -> Ended {
        let deadline = Instant::now() + EMPTY_WAIT;
        loop {
            match self.populated() {
                Ok(false) => return Ended::Empty,
                Ok(true) => {}
                Err(error) => {
                    tracing::debug!(cgroup = %self.dir.display(), %error, "cannot read cgroup.events; removing instead");
                    if self.remove().is_ok() {
                        return Ended::Removed;
                    }
                }
            }
            self.kill();
            if Instant::now() >= deadline {
                tracing::warn!(cgroup = %self.dir.display(), "a run's cgroup did not empty in time; left in place");
                return Ended::LeftInPlace;
            }
            tokio::time::sleep(EMPTY_POLL).await;
        }
    }

    /// [`RunCgroup::end`] from a destructor: kills now, waits briefly
    /// (killed processes die within milliseconds), and leaves the rest of
    /// the wait to a short-lived thread.
    pub(super) fn end_blocking(&self) {
        let deadline = Instant::now() + BLOCKING_WAIT;
        while self.remove().is_err() {
            self.kill();
            if Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(EMPTY_POLL);
        }
        if self.remove().is_ok() {
            return;
        }
        let run = RunCgroup {
            dir: self.dir.clone(),
            dir_fd: Arc::clone(&self.dir_fd),
            procs: Arc::clone(&self.procs),
            events: Arc::clone(&self.events),
            killed: Arc::clone(&self.killed),
        };
        let spawned = std::thread::Builder::new()
            .name("cgroup-reaper".into())
            .spawn(move || {
                let deadline = Instant::now() + EMPTY_WAIT;
                while run.remove().is_err() && Instant::now() < deadline {
                    run.kill();
                    std::thread::sleep(EMPTY_POLL);
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(cgroup = %self.dir.display(), %error, "cannot wait for a run's cgroup to empty; left in place");
        }
    }
}

/// Writes `bytes` to an existing kernel file in one `write`.
fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    OpenOptions::new().write(true).open(path)?.write_all(bytes)
}

/// The value of the `populated` line of a `cgroup.events` file.
fn populated_line(events: &str) -> Option<bool> {
    events
        .lines()
        .find_map(|line| line.strip_prefix("populated "))
        .and_then(|value| match value.trim() {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        })
}

/// This process's cgroup v2 directory.
fn own_dir() -> io::Result<PathBuf> {
    let membership = fs::read_to_string("/proc/self/cgroup")?;
    let path = unified_path(&membership).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "no cgroup v2 entry (0::) in /proc/self/cgroup",
        )
    })?;
    let mounts = fs::read_to_string("/proc/self/mountinfo")?;
    let (root, mount_point) = cgroup2_mount(&mounts).ok_or_else(|| {
        io::Error::new(io::ErrorKind::NotFound, "no cgroup2 file system is mounted")
    })?;
    let relative = Path::new(path)
        .strip_prefix(root)
        .map_err(|_| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("our cgroup {path} lies outside the cgroup2 mount's root {root}"),
            )
        })?
        .to_owned();
    let dir = PathBuf::from(mount_point).join(relative);
    // A cgroup directory has cgroup.procs; anything else is not one.
    File::open(dir.join("cgroup.procs"))?;
    Ok(dir)
}

/// The path of the `0::` (cgroup v2) line of `/proc/self/cgroup`.
fn unified_path(membership: &str) -> Option<&str> {
    membership
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .map(str::trim_end)
        .filter(|path| path.starts_with('/'))
}

/// The root and mount point of the first `cgroup2` mount in `mountinfo`.
fn cgroup2_mount(mountinfo: &str) -> Option<(&str, &str)> {
    mountinfo.lines().find_map(|line| {
        let (fields, after) = line.split_once(" - ")?;
        if after.split_whitespace().next()? != "cgroup2" {
            return None;
        }
        let mut fields = fields.split_whitespace();
        let root = fields.nth(3)?;
        let mount_point = fields.next()?;
        // Mount points with spaces are escaped (\040); we do not guess.
        (!mount_point.contains('\\')).then_some((root, mount_point))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_unified_line_among_v1_lines() {
        let hybrid = "9:name=systemd:/\n4:memory:/x\n0::/user.slice/a.scope\n";
        assert_eq!(unified_path(hybrid), Some("/user.slice/a.scope"));
        assert_eq!(unified_path("1:cpu:/\n"), None);
        assert_eq!(unified_path("0::relative\n"), None);
    }

    #[test]
    fn finds_the_cgroup2_mount_and_skips_v1_and_tmpfs() {
        let mountinfo = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
41 31 0:38 /sub /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
        assert_eq!(
            cgroup2_mount(mountinfo),
            Some(("/sub", "/sys/fs/cgroup/unified"))
        );
        assert_eq!(
            cgroup2_mount("32 31 0:29 / /a rw - cgroup cgroup rw\n"),
            None
        );
        assert_eq!(
            cgroup2_mount("41 31 0:38 / /a\\040b rw - cgroup2 cgroup2 rw\n"),
            None
        );
    }

    #[test]
    fn reads_the_populated_line_and_nothing_else() {
        assert_eq!(populated_line("populated 0\nfrozen 0\n"), Some(false));
        assert_eq!(populated_line("frozen 1\npopulated 1\n"), Some(true));
        assert_eq!(populated_line("frozen 0\n"), None);
        assert_eq!(populated_line("populated yes\n"), None);
        assert_eq!(populated_line("unpopulated 0\n"), None);
    }

    /// Our own cgroup as a parent, or `None` (with a note) where none is
    /// writable.
    fn usable_parent() -> Option<Parent> {
        Parent::probe()
            .inspect_err(|error| eprintln!("skipping: {error}"))
            .ok()
    }

    /// A `sleep` moved into `run`'s cgroup from outside any run, as a
    /// same-user process could.
    fn intruder(run: &RunCgroup) -> std::process::Child {
        let child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("spawn sleep");
        write_file(
            &run.dir.join("cgroup.procs"),
            child.id().to_string().as_bytes(),
        )
        .expect("move the child in");
        child
    }

    #[tokio::test]
    async fn an_emptied_cgroup_serves_the_next_run_and_one_populated_again_is_killed_and_removed() {
        use std::os::unix::process::ExitStatusExt as _;
        let Some(parent) = usable_parent() else {
            return;
        };
        let first = parent.create_run().expect("a run cgroup");
        let dir = first.dir.clone();
        assert_eq!(first.end().await, Ended::Empty);
        parent.recycle(first);
        let second = parent.create_run().expect("a run cgroup");
        assert_eq!(second.dir, dir, "the emptied cgroup is handed out again");

        let mut child = intruder(&second);
        parent.recycle(second);
        let status = child.wait().expect("wait");
        let third = parent.create_run().expect("a run cgroup");
        assert_eq!(
            (status.signal(), dir.exists(), third.dir == dir),
            (Some(libc::SIGKILL), false, false),
            "a cgroup populated again is not reused: its member is killed and it is removed"
        );
        assert_eq!(third.end().await, Ended::Empty);
        parent.recycle(third);
        parent.remove_spares();
    }

    #[tokio::test]
    async fn a_populated_cgroup_ends_only_once_its_members_are_dead() {
        use std::os::unix::process::ExitStatusExt as _;
        let Some(parent) = usable_parent() else {
            return;
        };
        let run = parent.create_run().expect("a run cgroup");
        let mut child = intruder(&run);
        let (ended, status) = tokio::join!(run.end(), async {
            // Reaped on a thread: end() must not depend on the reaping.
            tokio::task::spawn_blocking(move || child.wait().expect("wait"))
                .await
                .expect("join")
        });
        assert_eq!(
            (ended, status.signal()),
            (Ended::Empty, Some(libc::SIGKILL))
        );
        run.remove().expect("an ended cgroup is empty");
    }

    #[tokio::test]
    async fn a_killed_cgroup_is_removed_not_reused_and_an_empty_one_is_not_killed() {
        let Some(parent) = usable_parent() else {
            return;
        };
        let empty = parent.create_run().expect("a run cgroup");
        let kept = empty.dir.clone();
        empty.kill();
        assert_eq!(empty.end().await, Ended::Empty);
        parent.recycle(empty);
        let reused = parent.create_run().expect("a run cgroup");
        assert_eq!(
            reused.dir, kept,
            "killing an empty cgroup leaves it fit for reuse"
        );
        reused.remove().expect("an unused cgroup is empty");

        let run = parent.create_run().expect("a run cgroup");
        let dir = run.dir.clone();
        let mut child = intruder(&run);
        run.kill();
        child.wait().expect("wait");
        assert_eq!(run.end().await, Ended::Empty);
        parent.recycle(run);
        let next = parent.create_run().expect("a run cgroup");
        assert_eq!((dir.exists(), next.dir == dir), (false, false));
        next.remove().expect("an unused cgroup is empty");
    }

    #[tokio::test]
    async fn no_more_than_the_spares_are_kept_and_release_removes_them() {
        let Some(parent) = usable_parent() else {
            return;
        };
        let mut runs = Vec::new();
        for _ in 0..=SPARES {
            runs.push(parent.create_run().expect("a run cgroup"));
        }
        let dirs: Vec<PathBuf> = runs.iter().map(|run| run.dir.clone()).collect();
        for run in runs {
            assert_eq!(run.end().await, Ended::Empty);
            parent.recycle(run);
        }
        let kept = dirs.iter().filter(|dir| dir.exists()).count();
        assert_eq!(kept, SPARES);
        parent.remove_spares();
        assert!(dirs.iter().all(|dir| !dir.exists()));
    }

    #[test]
    fn killing_each_member_empties_a_run_cgroup_for_removal() {
        use std::os::unix::process::ExitStatusExt as _;
        let parent = match Parent::probe() {
            Ok(parent) => parent,
            Err(error) => {
                eprintln!("skipping: {error}");
                return;
            }
        };
        let run = parent.create_run().expect("a run cgroup");
        let mut child = intruder(&run);
        assert!(
            run.remove().is_err(),
            "a populated cgroup cannot be removed"
        );
        run.kill_each();
        let status = child.wait().expect("wait");
        run.end_blocking();
        assert_eq!(
            (status.signal(), run.dir.exists()),
            (Some(libc::SIGKILL), false)
        );
    }
}
