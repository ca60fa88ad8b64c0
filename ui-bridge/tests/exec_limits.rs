//! The executor's limits with real processes: timeouts kill whole process
//! groups, nothing outlives its plan, and output beyond the cap is drained
//! and dropped (DESIGN.md invariant 8).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use approvals_ipc::policy::Runnable;
use approvals_ipc::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink};
use nix::errno::Errno;
use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use ui_bridge::exec::{ExecLimits, ExecOutcome, run};

fn sh(script: &str, cwd: &Path) -> PlannedExec {
    PlannedExec {
        program: PathBuf::from("/bin/sh"),
        argv: vec!["sh".to_owned(), "-c".to_owned(), script.to_owned()].into(),
        env: Vec::new(),
        cwd: cwd.into(),
        stdin: None,
        stdout: Sink::Stdout,
        stderr: Sink::Stderr,
    }
}

fn plan(steps: Vec<(ChainOp, PlannedExec)>) -> Runnable {
    Runnable::unchecked(Plan::unchecked(
        steps
            .into_iter()
            .map(|(op, exec)| PlanStep {
                op,
                pipeline: vec![PlannedCommand::Exec(exec)],
            })
            .collect(),
    ))
}

fn env() -> Vec<(String, String)> {
    vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())]
}

fn limits(timeout_ms: Option<u64>, cap: usize, grace_ms: u64) -> ExecLimits {
    ExecLimits {
        timeout: timeout_ms.map(Duration::from_millis),
        output_cap: cap,
        kill_grace: Duration::from_millis(grace_ms),
    }
}

fn read_pid(path: &Path) -> Pid {
    let text = std::fs::read_to_string(path).unwrap();
    Pid::from_raw(text.trim().parse().unwrap())
}

/// Waits for init to reap the dead (some inits reap only about once a
/// second), then asks whether the group is gone.
async fn group_is_gone(pgid: Pid) -> bool {
    for _ in 0..250 {
        if killpg(pgid, None) == Err(Errno::ESRCH) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

fn timed_out(stdout: &str) -> ExecOutcome {
    ExecOutcome {
        timed_out: true,
        stdout: stdout.to_owned(),
        ..ExecOutcome::default()
    }
}

#[tokio::test]
async fn timeout_kills_the_whole_process_group_including_background_children() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pgid");
    let script = format!("echo $$ > {}; sleep 300 & sleep 300", pid_file.display());
    let started = Instant::now();
    let out = run(
        &plan(vec![(ChainOp::Seq, sh(&script, dir.path()))]),
        &env(),
        &limits(Some(300), 200_000, 2_000),
    )
    .await;
    assert_eq!(out, timed_out(""));
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(
        group_is_gone(read_pid(&pid_file)).await,
        "a process of the group survived"
    );
}

#[tokio::test]
async fn timeout_escalates_to_sigkill_after_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pgid");
    let script = format!("trap '' TERM; echo $$ > {}; sleep 300", pid_file.display());
    let started = Instant::now();
    let out = run(
        &plan(vec![(ChainOp::Seq, sh(&script, dir.path()))]),
        &env(),
        &limits(Some(200), 200_000, 300),
    )
    .await;
    let elapsed = started.elapsed();
    assert_eq!(out, timed_out(""));
    assert!(
        elapsed >= Duration::from_millis(450),
        "no grace given: {elapsed:?}"
    );
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
    assert!(
        group_is_gone(read_pid(&pid_file)).await,
        "a process ignoring SIGTERM survived"
    );
}

#[tokio::test]
async fn a_timed_out_plan_starts_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let out = run(
        &plan(vec![
            (ChainOp::Seq, sh("echo first; sleep 300", dir.path())),
            (
                ChainOp::Seq,
                sh(&format!("touch {}", marker.display()), dir.path()),
            ),
            (
                ChainOp::Or,
                sh(&format!("touch {}", marker.display()), dir.path()),
            ),
        ]),
        &env(),
        &limits(Some(300), 200_000, 2_000),
    )
    .await;
    assert_eq!(out, timed_out("first\n"));
    assert!(!marker.exists(), "a step ran after the timeout");
}

#[tokio::test]
async fn background_children_die_when_the_plan_ends() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pgid");
    let script = format!("echo $$ > {}; sleep 300 & echo started", pid_file.display());
    let started = Instant::now();
    let out = run(
        &plan(vec![(ChainOp::Seq, sh(&script, dir.path()))]),
        &env(),
        &ExecLimits::default(),
    )
    .await;
    assert_eq!(
        out,
        ExecOutcome {
            exit_code: Some(0),
            success: true,
            stdout: "started\n".to_owned(),
            ..ExecOutcome::default()
        }
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        group_is_gone(read_pid(&pid_file)).await,
        "a background child survived"
    );
}

#[tokio::test]
async fn a_process_that_leaves_its_group_does_not_hang_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let script = format!(
        "setsid sh -c 'echo $$ > {}; exec sleep 30' & sleep 0.2; echo done",
        pid_file.display()
    );
    let started = Instant::now();
    let out = run(
        &plan(vec![(ChainOp::Seq, sh(&script, dir.path()))]),
        &env(),
        &ExecLimits::default(),
    )
    .await;
    let elapsed = started.elapsed();
    if let Ok(text) = std::fs::read_to_string(&pid_file) {
        let _ = kill(Pid::from_raw(text.trim().parse().unwrap()), Signal::SIGKILL);
    }
    assert_eq!((out.stdout.as_str(), out.exit_code), ("done\n", Some(0)));
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
}

#[tokio::test]
async fn output_beyond_the_cap_is_drained_and_dropped_so_the_child_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("finished");
    let script = format!(
        "head -c 5000000 /dev/zero | tr '\\0' a; head -c 1000000 /dev/zero | tr '\\0' b >&2; touch {}",
        marker.display()
    );
    let cap = 10_000;
    let out = run(
        &plan(vec![(ChainOp::Seq, sh(&script, dir.path()))]),
        &env(),
        &limits(Some(20_000), cap, 2_000),
    )
    .await;
    assert!(marker.exists(), "the child was blocked by a full pipe");
    assert_eq!(
        (out.exit_code, out.timed_out, out.truncated),
        (Some(0), false, true)
    );
    assert!(out.stdout.len() + out.stderr.len() <= cap);
    assert_eq!(out.stdout, "a".repeat(cap));
}

#[tokio::test]
async fn output_under_the_cap_is_kept_whole_from_both_streams() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &plan(vec![(
            ChainOp::Seq,
            sh("printf 12345; printf 67890 >&2", dir.path()),
        )]),
        &env(),
        &limits(None, 10, 2_000),
    )
    .await;
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.truncated),
        ("12345", "67890", false)
    );
}
