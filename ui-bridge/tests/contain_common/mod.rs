//! Shared by `contain_subreaper.rs` and `contain_cgroup.rs`: each test
//! binary contains its runs one way, chosen before its first run.
//!
//! Escapees are `setsid` children and `setsid` double-forked grandchildren
//! that write their pid and sleep; a test checks that they die with their
//! run (a zombie counts as dead) within a generous deadline.
//!
//! The tests of one binary take turns ([`serial`]): under the subreaper an
//! orphan that left its session belongs to no run, and any run that ends
//! kills it, so a neighbour's run ending would kill this test's escapees
//! before they write their pids.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use approvals_ipc::policy::Runnable;
use approvals_ipc::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink};
use ui_bridge::exec::contain::{Requested, choose_for_process};
use ui_bridge::exec::{ExecLimits, run};

/// How long an escapee may take to appear, or to die.
const DEADLINE: Duration = Duration::from_secs(20);

/// Held for the whole of each test.
pub async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    TURN.lock().await
}

/// Chooses `requested` for this test process; false (with a printed
/// reason) where it cannot be had.
pub fn contained(requested: Requested, name: &str) -> bool {
    match choose_for_process(requested) {
        Ok(chosen) => {
            assert_eq!(chosen, name, "this test binary must contain one way");
            true
        }
        Err(error) => {
            eprintln!("skipping: {error}");
            false
        }
    }
}

fn sh(script: &str, cwd: &Path) -> Runnable {
    Runnable::unchecked(Plan::unchecked(vec![PlanStep {
        op: ChainOp::Seq,
        pipeline: vec![PlannedCommand::Exec(PlannedExec {
            program: PathBuf::from("/bin/sh"),
            argv: vec!["sh".to_owned(), "-c".to_owned(), script.to_owned()].into(),
            env: Vec::new(),
            cwd: cwd.into(),
            stdin: None,
            stdout: Sink::Stdout,
            stderr: Sink::Stderr,
        })],
    }]))
}

fn env() -> Vec<(String, String)> {
    vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())]
}

fn limits(timeout_ms: Option<u64>) -> ExecLimits {
    ExecLimits {
        timeout: timeout_ms.map(Duration::from_millis),
        kill_grace: Duration::from_millis(200),
        ..ExecLimits::default()
    }
}

/// Script text: a `setsid` child writing `a`, a double-forked `setsid`
/// grandchild writing `b`, a wait for both, then `tail`. The escapees keep
/// the run's output pipes open, so the run kills them to finish reading.
fn escaping(dir: &Path, tail: &str) -> String {
    escaping_with(dir, tail, "")
}

/// [`escaping`] with `redirect` after each escapee (`>/dev/null 2>&1`
/// lets go of the output, so nothing but the run's end kills them).
fn escaping_with(dir: &Path, tail: &str, redirect: &str) -> String {
    let (a, b) = (dir.join("a"), dir.join("b"));
    format!(
        "setsid sh -c 'echo $$ > {a}; exec sleep 300' {redirect} & \
         (setsid sh -c 'echo $$ > {b}; exec sleep 300' {redirect} &); \
         while [ ! -s {a} ] || [ ! -s {b} ]; do sleep 0.02; done; {tail}",
        a = a.display(),
        b = b.display()
    )
}

/// The pids in `names` under `dir`, once written; killed on drop.
pub struct Escapees(Vec<i32>);

impl Escapees {
    async fn read(dir: &Path, names: &[&str]) -> Self {
        let deadline = Instant::now() + DEADLINE;
        let mut pids = Vec::new();
        for name in names {
            loop {
                let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
                if let Ok(pid) = text.trim().parse() {
                    pids.push(pid);
                    break;
                }
                assert!(Instant::now() < deadline, "{name} never written");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        Self(pids)
    }

    async fn assert_gone(&self) {
        let deadline = Instant::now() + DEADLINE;
        for &pid in &self.0 {
            while alive(pid) {
                assert!(Instant::now() < deadline, "pid {pid} outlived its run");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }

    fn assert_alive(&self) {
        for &pid in &self.0 {
            assert!(alive(pid), "pid {pid} was killed with another run");
        }
    }
}

impl Drop for Escapees {
    fn drop(&mut self) {
        for &pid in &self.0 {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// A run that ends normally takes its escapees with it.
pub async fn escapees_die_when_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &sh(&escaping(dir.path(), "echo done"), dir.path()),
        &env(),
        &limits(None),
    )
    .await;
    assert_eq!(
        (out.stdout.as_str(), out.exit_code),
        ("done\n", Some(0)),
        "{out:?}"
    );
    Escapees::read(dir.path(), &["a", "b"])
        .await
        .assert_gone()
        .await;
}

/// Escapees that let go of the run's output still die when it completes.
pub async fn quiet_escapees_die_when_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let script = escaping_with(dir.path(), "echo done", ">/dev/null 2>&1 </dev/null");
    let out = run(&sh(&script, dir.path()), &env(), &limits(None)).await;
    assert_eq!(
        (out.stdout.as_str(), out.exit_code),
        ("done\n", Some(0)),
        "{out:?}"
    );
    Escapees::read(dir.path(), &["a", "b"])
        .await
        .assert_gone()
        .await;
}

/// A run that times out takes its escapees with it.
pub async fn escapees_die_when_the_run_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &sh(&escaping(dir.path(), "sleep 100"), dir.path()),
        &env(),
        &limits(Some(1500)),
    )
    .await;
    assert!(out.timed_out, "{out:?}");
    Escapees::read(dir.path(), &["a", "b"])
        .await
        .assert_gone()
        .await;
}

/// A run whose future is dropped (cancelled) takes its escapees with it.
pub async fn escapees_die_when_the_run_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let plan = sh(&escaping(dir.path(), "sleep 100"), dir.path());
    let env = env();
    let limits = limits(None);
    let escapees = tokio::select! {
        out = run(&plan, &env, &limits) => panic!("the run ended: {out:?}"),
        escapees = Escapees::read(dir.path(), &["a", "b"]) => escapees,
    };
    escapees.assert_gone().await;
}

/// An escapee that kept its live run's session is that run's: another run
/// ending spares it, and it dies when its own run ends.
pub async fn an_escapee_of_a_live_run_waits_for_its_own_run() {
    let dir = tempfile::tempdir().unwrap();
    let kept = format!(
        "(sh -c 'echo $$ > {c}; exec sleep 300' &); sleep 100",
        c = dir.path().join("c").display()
    );
    let long_plan = sh(&kept, dir.path());
    let env = env();
    let no_limit = limits(None);
    let mut long = Box::pin(run(&long_plan, &env, &no_limit));
    let kept = tokio::select! {
        out = &mut long => panic!("the long run ended: {out:?}"),
        kept = Escapees::read(dir.path(), &["c"]) => kept,
    };
    let other = tempfile::tempdir().unwrap();
    let short = sh(&escaping(other.path(), "echo done"), other.path());
    let out = tokio::select! {
        out = run(&short, &env, &no_limit) => out,
        out = &mut long => panic!("the long run ended: {out:?}"),
    };
    assert_eq!(out.exit_code, Some(0), "{out:?}");
    Escapees::read(other.path(), &["a", "b"])
        .await
        .assert_gone()
        .await;
    kept.assert_alive();
    drop(long);
    kept.assert_gone().await;
}

/// A stage starts as its run's containment says, before its program runs:
/// it leads a new session, has no signal blocked, does not ignore `SIGPIPE`
/// (the host does), and, under a cgroup, is in its run's cgroup (named
/// `exec-approvals.<host pid>.<n>`). Read by the program itself from
/// `/proc/self`, so this is the state `execve` handed over.
pub async fn a_stage_starts_in_a_new_session_with_default_signals(in_run_cgroup: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = Runnable::unchecked(Plan::unchecked(vec![PlanStep {
        op: ChainOp::Seq,
        pipeline: vec![PlannedCommand::Exec(PlannedExec {
            program: PathBuf::from("/bin/cat"),
            argv: [
                "cat",
                "/proc/self/stat",
                "/proc/self/status",
                "/proc/self/cgroup",
            ]
            .map(str::to_owned)
            .into(),
            env: Vec::new(),
            cwd: dir.path().into(),
            stdin: None,
            stdout: Sink::Stdout,
            stderr: Sink::Stderr,
        })],
    }]));
    let outcome = run(&plan, &env(), &limits(None)).await;
    assert!(outcome.success, "{outcome:?}");
    let text = outcome.stdout;
    // /proc/self/stat: pid (comm) state ppid pgrp session ...
    let stat = text.lines().next().unwrap_or_default();
    let after_comm = stat
        .rsplit_once(") ")
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    let pid = stat.split_whitespace().next().unwrap_or_default();
    assert_eq!(
        (fields.get(2).copied(), fields.get(3).copied()),
        (Some(pid), Some(pid)),
        "the stage leads its own group and session: {stat}"
    );
    let status = |key: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(key))
            .map(|value| u64::from_str_radix(value.trim(), 16).expect("a hex mask"))
            .unwrap_or_else(|| panic!("no {key} in {text}"))
    };
    assert_eq!(status("SigBlk:"), 0, "no signal is blocked");
    let sigpipe = 1u64 << (libc::SIGPIPE - 1);
    assert_eq!(status("SigIgn:") & sigpipe, 0, "SIGPIPE is not ignored");
    let cgroup = text
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .unwrap_or_default();
    let own = format!("/exec-approvals.{}.", std::process::id());
    assert_eq!(
        cgroup.contains(&own),
        in_run_cgroup,
        "cgroup {cgroup:?}, run cgroup expected: {in_run_cgroup}"
    );
}

/// Makes this test binary's runs spawn by `fork` (the path for kernels
/// without pidfds) while alive; held under [`serial`], as the choice is
/// the process's.
pub struct ByFork;

impl ByFork {
    pub fn new() -> Self {
        ui_bridge::exec::contain::spawn_by_fork(true);
        Self
    }
}

impl Drop for ByFork {
    fn drop(&mut self) {
        ui_bridge::exec::contain::spawn_by_fork(false);
    }
}
