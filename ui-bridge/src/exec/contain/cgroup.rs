//! A cgroup v2 per run, made below this process's own cgroup.
//!
//! It decides where runs' cgroups go (our own cgroup, found through
//! `/proc/self/cgroup` and the `cgroup2` mount in `/proc/self/mountinfo`),
//! whether that place is usable (a probe cgroup can be made, joined and
//! removed), and how a run ends: `rmdir` when it is already empty, else
//! `cgroup.kill` (or `SIGKILL` to each member on kernels before 5.14) until
//! it is empty, then `rmdir`. It refuses nothing itself; the caller turns
//! any error into a refused run.
//!
//! Our own cgroup holds this process, so it has no controllers enabled for
//! its children (cgroup v2's no-internal-process rule): its children are
//! plain domain cgroups that only group processes, which is all we need.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// The cgroup that holds the runs' cgroups: this process's own.
#[derive(Debug)]
pub(super) struct Parent {
    dir: PathBuf,
}

impl Parent {
    /// Finds our own cgroup and checks that a run's cgroup can be made,
    /// joined and removed there.
    pub(super) fn probe() -> Result<Self, ContainError> {
        let dir = own_dir().map_err(|error| ContainError::CgroupUnusable {
            path: PathBuf::from("/proc/self/cgroup"),
            reason: error.to_string(),
        })?;
        let parent = Self { dir };
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

    /// Makes a fresh cgroup for one run.
    pub(super) fn create_run(&self) -> Result<RunCgroup, ContainError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        self.create_named(&NEXT.fetch_add(1, Ordering::Relaxed).to_string())
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
            OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
                .map(|procs| (dir_fd, OwnedFd::from(procs)))
        });
        match opened {
            Ok((dir_fd, procs)) => Ok(RunCgroup {
                dir,
                dir_fd: Arc::new(dir_fd),
                procs: Arc::new(procs),
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

    /// Ends the run: an empty cgroup is removed at once; otherwise its
    /// members are killed until it can be removed, within [`EMPTY_WAIT`].
    pub(super) async fn end(&self) {
        let deadline = Instant::now() + EMPTY_WAIT;
        while self.remove().is_err() {
            self.kill();
            if Instant::now() >= deadline {
                tracing::warn!(cgroup = %self.dir.display(), "a run's cgroup did not empty in time; left in place");
                return;
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
        let dir = self.dir.clone();
        let dir_fd = Arc::clone(&self.dir_fd);
        let procs = Arc::clone(&self.procs);
        let spawned = std::thread::Builder::new()
            .name("cgroup-reaper".into())
            .spawn(move || {
                let run = RunCgroup { dir, dir_fd, procs };
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
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("spawn sleep");
        write_file(
            &run.dir.join("cgroup.procs"),
            child.id().to_string().as_bytes(),
        )
        .expect("move the child in");
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
