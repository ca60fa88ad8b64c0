//! The command hook's processes: a hook that hangs is killed with its whole
//! group and resolves nothing; a hook is killed when someone else answers
//! or the approver shuts down; stragglers never outlive the hook.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::time::{Duration, Instant};

use approvals_ipc::ipc::Decision;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use ui_bridge::approvers::hook::{self, HookConfig};
use ui_bridge::broker::{ApprovalDisplay, Broker, Outcome};

fn display() -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["/bin/ls".into()],
        command_text: "ls".into(),
        cwd: "/".into(),
        agent_id: "main".into(),
        session_key: None,
        segments: vec![],
        risk_level: "low".into(),
        risk_reasons: vec![],
        security: "allowlist".into(),
        ask: "on-miss".into(),
        allowed_decisions: vec![Decision::AllowOnce, Decision::AllowAlways, Decision::Deny],
        reason: None,
    }
}

struct Running {
    broker: Broker,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

fn start(command: &str, hook_timeout: Duration) -> Running {
    let broker = Broker::new();
    let (stop, stopped) = oneshot::channel::<()>();
    let config = HookConfig {
        command: command.into(),
        timeout: hook_timeout,
    };
    let task = tokio::spawn(hook::run(config, broker.clone(), async {
        let _ = stopped.await;
    }));
    Running { broker, stop, task }
}

/// The hook's `$$`, which is its process group id (the hook leads its group).
async fn hook_pid(file: &Path) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "hook never wrote its pid");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Processes of group `pgid` that are still running (zombies excluded:
/// this machine's init may never reap orphans, and a zombie runs nothing).
fn live_members(pgid: i32) -> Vec<i32> {
    let mut live = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the command name: state, ppid, pgrp, ...
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            live.push(pid);
        }
    }
    live
}

async fn group_dies(pgid: i32, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let live = live_members(pgid);
        if live.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "group {pgid} still has {live:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_hanging_hook_is_killed_with_its_group_and_the_approval_stays_pending() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    // A grandchild too, so killing only the shell would not be enough.
    let command = format!("echo $$ > '{}'; sleep 30 & sleep 30", file.display());
    let running = start(&command, Duration::from_millis(300));
    let started = Instant::now();
    let pending = running.broker.submit(display(), Duration::from_secs(30));
    let pgid = hook_pid(&file).await;
    assert!(live_members(pgid).len() >= 2, "hook and its children run");
    group_dies(pgid, Duration::from_secs(3)).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
    let listed = running.broker.list();
    assert_eq!(listed.len(), 1, "a timed-out hook resolves nothing");
    assert_eq!(listed[0].id, pending.id);
    // Another approver can still answer.
    running
        .broker
        .resolve(&pending.id, Decision::AllowOnce, "terminal")
        .unwrap();
    assert!(matches!(
        pending.wait().await,
        Outcome::Decided { approver, .. } if approver == "terminal"
    ));
    drop(running.stop);
    running.task.await.unwrap();
}

#[tokio::test]
async fn a_hanging_hook_leaves_the_decision_to_the_broker_timeout() {
    let running = start("sleep 30", Duration::from_millis(100));
    let pending = running.broker.submit(display(), Duration::from_millis(400));
    assert_eq!(pending.wait().await, Outcome::TimedOut);
    drop(running.stop);
    running.task.await.unwrap();
}

#[tokio::test]
async fn the_hook_is_killed_when_someone_else_answers_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let command = format!(
        "echo $$ > '{}'; sleep 30 & sleep 30; echo allow-always",
        file.display()
    );
    let running = start(&command, Duration::from_secs(60));
    let pending = running.broker.submit(display(), Duration::from_secs(60));
    let pgid = hook_pid(&file).await;
    running
        .broker
        .resolve(&pending.id, Decision::Deny, "terminal")
        .unwrap();
    group_dies(pgid, Duration::from_secs(3)).await;
    assert!(matches!(
        pending.wait().await,
        Outcome::Decided { decision: Decision::Deny, approver, .. } if approver == "terminal"
    ));
    drop(running.stop);
    running.task.await.unwrap();
}

#[tokio::test]
async fn the_hook_is_killed_when_its_requester_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let command = format!("echo $$ > '{}'; exec sleep 30", file.display());
    let running = start(&command, Duration::from_secs(60));
    let pending = running.broker.submit(display(), Duration::from_secs(60));
    let pgid = hook_pid(&file).await;
    drop(pending);
    group_dies(pgid, Duration::from_secs(3)).await;
    drop(running.stop);
    running.task.await.unwrap();
}

#[tokio::test]
async fn shutting_the_approver_down_kills_running_hooks_and_returns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let command = format!("echo $$ > '{}'; sleep 30 & sleep 30", file.display());
    let running = start(&command, Duration::from_secs(60));
    let pending = running.broker.submit(display(), Duration::from_secs(60));
    let pgid = hook_pid(&file).await;
    drop(running.stop);
    tokio::time::timeout(Duration::from_secs(5), running.task)
        .await
        .expect("run returned")
        .unwrap();
    assert_eq!(live_members(pgid), Vec::<i32>::new());
    assert_eq!(
        running.broker.list().len(),
        1,
        "shutdown of the hook resolves nothing"
    );
    drop(pending);
}

#[tokio::test]
async fn a_straggler_holding_stdout_does_not_delay_the_answer_and_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let command = format!("echo $$ > '{}'; sleep 30 & echo allow-once", file.display());
    let running = start(&command, Duration::from_secs(20));
    let started = Instant::now();
    let pending = running.broker.submit(display(), Duration::from_secs(30));
    let outcome = pending.wait().await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(
        outcome,
        Outcome::Decided { decision: Decision::AllowOnce, approver, .. } if approver == "hook"
    ));
    group_dies(hook_pid(&file).await, Duration::from_secs(3)).await;
    drop(running.stop);
    running.task.await.unwrap();
}

#[tokio::test]
async fn a_flood_of_output_is_capped_and_still_a_failure() {
    // 1 MiB of garbage before exiting 0: read and dropped, then a failed
    // hook (nobody else attached: the approval ends as failed).
    let running = start(
        "head -c 1048576 /dev/zero | tr '\\0' x",
        Duration::from_secs(20),
    );
    let pending = running.broker.submit(display(), Duration::from_secs(30));
    assert!(matches!(
        pending.wait().await,
        Outcome::Failed { approver, .. } if approver == "hook"
    ));
    drop(running.stop);
    running.task.await.unwrap();
}
