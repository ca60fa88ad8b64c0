//! The command hook's answers, with real `/bin/sh` hooks: what it prints
//! decides, and a broken hook answers nothing (alone, it ends the approval
//! as failed; with a person at the terminal, it leaves it to them).

use std::time::Duration;

use approvals_ipc::ipc::Decision;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use ui_bridge::approvers::hook::{self, HookConfig};
use ui_bridge::broker::{ApprovalDisplay, Broker, BrokerEvent, Outcome};

const APPROVAL_TIMEOUT: Duration = Duration::from_secs(20);

fn display(allowed: &[Decision]) -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["/usr/bin/touch".into(), "a b\u{200b}".into()],
        command_text: "touch 'a b\\u{200b}'".into(),
        cwd: "/tmp".into(),
        agent_id: "main".into(),
        session_key: Some("agent:main:1".into()),
        segments: vec![],
        risk_level: "medium".into(),
        risk_reasons: vec!["writes a file".into()],
        security: "allowlist".into(),
        ask: "on-miss".into(),
        allowed_decisions: allowed.to_vec(),
        reason: Some("allowlist miss".into()),
    }
}

fn all() -> Vec<Decision> {
    vec![Decision::AllowOnce, Decision::AllowAlways, Decision::Deny]
}

/// A running hook approver; dropping `stop` ends it.
struct Running {
    broker: Broker,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

fn start(command: &str) -> Running {
    let broker = Broker::new();
    let (stop, stopped) = oneshot::channel::<()>();
    let config = HookConfig {
        command: command.into(),
        timeout: Duration::from_secs(10),
    };
    let task = tokio::spawn(hook::run(config, broker.clone(), async {
        let _ = stopped.await;
    }));
    Running { broker, stop, task }
}

impl Running {
    async fn stop(self) {
        drop(self.stop);
        self.task.await.unwrap();
    }
}

/// What the hook decided for one approval offering `allowed`.
async fn decide(command: &str, allowed: &[Decision]) -> Outcome {
    let running = start(command);
    // Let `run` subscribe first; it also catches up from the list.
    let pending = running.broker.submit(display(allowed), APPROVAL_TIMEOUT);
    let outcome = pending.wait().await;
    running.stop().await;
    outcome
}

fn decided_by_hook(decision: Decision) -> impl Fn(&Outcome) -> bool {
    move |outcome| {
        matches!(outcome, Outcome::Decided { decision: d, approver, .. }
            if *d == decision && approver == "hook")
    }
}

#[tokio::test]
async fn the_hooks_answer_decides() {
    let cases = [
        ("echo allow-once", Decision::AllowOnce),
        ("echo allow-always", Decision::AllowAlways),
        ("echo deny", Decision::Deny),
        ("printf '\\n\\n  Once\\n'", Decision::AllowOnce),
        ("echo always", Decision::AllowAlways),
        ("echo REJECT", Decision::Deny),
        (r#"echo '{"decision": "allow-once"}'"#, Decision::AllowOnce),
        (
            r#"echo '{"decision":"allow-always","why":"trusted"}'"#,
            Decision::AllowAlways,
        ),
        ("echo allow-once; echo deny", Decision::AllowOnce),
        ("echo allow-once; echo noise >&2", Decision::AllowOnce),
    ];
    for (command, want) in cases {
        let outcome = decide(command, &all()).await;
        assert!(decided_by_hook(want)(&outcome), "{command}: {outcome:?}");
    }
}

/// Whether the hook failed and, nobody else attached, ended the approval.
fn failed_hook(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Failed { approver, .. } if approver == "hook")
}

#[tokio::test]
async fn a_broken_hook_answers_nothing_and_alone_ends_the_approval_as_failed() {
    let cases = [
        "exit 3",
        "echo allow-once; exit 1",
        "echo",
        "true",
        "echo yes",
        "echo 'allow-once please'",
        r#"echo '{"decision": "sure"}'"#,
        "kill -9 $$",
        "/nonexistent/hook-program",
    ];
    for command in cases {
        let outcome = decide(command, &all()).await;
        assert!(failed_hook(&outcome), "{command}: {outcome:?}");
    }
}

#[tokio::test]
async fn a_decision_the_approval_does_not_offer_is_a_failure_not_an_answer() {
    let offered = [Decision::AllowOnce, Decision::Deny];
    for command in ["echo allow-always", "echo always"] {
        let outcome = decide(command, &offered).await;
        assert!(failed_hook(&outcome), "{command}: {outcome:?}");
    }
}

#[tokio::test]
async fn a_broken_hook_never_beats_the_person_at_the_terminal() {
    let running = start("exit 3");
    // A person is at the terminal: the approval stays for them.
    let _terminal = running.broker.attach("terminal");
    let pending = running
        .broker
        .submit(display(&all()), Duration::from_millis(1500));
    let outcome = pending.wait().await;
    running.stop().await;
    assert_eq!(outcome, Outcome::TimedOut);
}

#[tokio::test]
async fn the_hook_reads_the_approval_as_one_json_line_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stdin.json");
    let command = format!("cat > '{}'; echo deny", file.display());
    let running = start(&command);
    let mut events = running.broker.subscribe();
    let pending = running.broker.submit(display(&all()), APPROVAL_TIMEOUT);
    let BrokerEvent::Requested(approval) = events.recv().await.unwrap() else {
        panic!("expected the request first");
    };
    assert!(decided_by_hook(Decision::Deny)(&pending.wait().await));
    running.stop().await;
    let seen = std::fs::read_to_string(&file).unwrap();
    assert!(seen.ends_with('\n'));
    assert_eq!(seen.lines().count(), 1, "{seen}");
    let parsed: ui_bridge::broker::PendingApproval = serde_json::from_str(&seen).unwrap();
    assert_eq!(parsed, approval);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&seen).unwrap(),
        serde_json::to_value(&approval).unwrap()
    );
}

#[tokio::test]
async fn a_hook_that_ignores_stdin_still_answers() {
    // A large display, so the write would block if nobody drained stdin.
    let running = start("exec 0<&-; echo allow-once");
    let mut shown = display(&all());
    shown.command_text = "x".repeat(512 * 1024);
    let pending = running.broker.submit(shown, APPROVAL_TIMEOUT);
    let outcome = pending.wait().await;
    running.stop().await;
    assert!(
        decided_by_hook(Decision::AllowOnce)(&outcome),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn approvals_pending_before_the_hook_started_are_answered() {
    let broker = Broker::new();
    let pending = broker.submit(display(&all()), APPROVAL_TIMEOUT);
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(hook::run(
        HookConfig::new("echo allow-once"),
        broker.clone(),
        async {
            let _ = stopped.await;
        },
    ));
    assert!(decided_by_hook(Decision::AllowOnce)(&pending.wait().await));
    drop(stop);
    task.await.unwrap();
}

#[tokio::test]
async fn each_approval_gets_its_own_hook_run_concurrently() {
    // Every hook waits until three are running, so a sequential runner
    // would hit the hook timeout instead.
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "d='{}'; touch \"$d/$$\"; while [ \"$(ls \"$d\" | wc -l)\" -lt 3 ]; do sleep 0.02; done; echo deny",
        dir.path().display()
    );
    let running = start(&command);
    let pendings: Vec<_> = (0..3)
        .map(|_| running.broker.submit(display(&all()), APPROVAL_TIMEOUT))
        .collect();
    for pending in pendings {
        let outcome = tokio::time::timeout(Duration::from_secs(8), pending.wait())
            .await
            .expect("hooks ran one after another");
        assert!(decided_by_hook(Decision::Deny)(&outcome), "{outcome:?}");
    }
    running.stop().await;
}
