//! How approvals end without an answer: timeout, requester gone, agent
//! cancelled, shutdown; and what list and subscribers show meanwhile.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use approvals_ipc::ipc::Decision;
use tokio::sync::broadcast::error::TryRecvError;
use ui_bridge::broker::{
    ApprovalDisplay, Broker, BrokerEvent, DISCONNECTED_REASON, MAX_TIMEOUT, Outcome, ResolveError,
    SHUTDOWN_REASON,
};

const LONG: Duration = Duration::from_secs(60);

fn display(agent: &str) -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["/bin/rm".into(), "-rf".into(), "build".into()],
        command_text: "rm -rf build".into(),
        cwd: "/tmp".into(),
        agent_id: agent.into(),
        session_key: None,
        segments: vec![],
        risk_level: "high".into(),
        risk_reasons: vec!["recursive delete".into()],
        security: "allowlist".into(),
        ask: "always".into(),
        allowed_decisions: vec![Decision::AllowOnce, Decision::Deny],
        reason: None,
    }
}

fn now_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

fn cancelled(reason: &str) -> Outcome {
    Outcome::Cancelled {
        reason: reason.into(),
    }
}

#[tokio::test]
async fn list_shows_a_submitted_approval_with_its_own_expiry() {
    let broker = Broker::new();
    let before = now_ms();
    let pending = broker.submit(display("main"), Duration::from_millis(1500));
    let after = now_ms();
    let listed = broker.list();
    assert_eq!(listed.len(), 1);
    let approval = &listed[0];
    assert_eq!(approval.id, pending.id);
    assert_eq!(approval.display, display("main"));
    assert!((before..=after).contains(&approval.created_at_ms));
    assert_eq!(approval.expires_at_ms, approval.created_at_ms + 1500);
}

#[tokio::test]
async fn list_is_oldest_first() {
    let broker = Broker::new();
    let pendings: Vec<_> = (0..20)
        .map(|n| broker.submit(display(&format!("agent-{n}")), LONG))
        .collect();
    let listed: Vec<String> = broker.list().into_iter().map(|a| a.id).collect();
    let submitted: Vec<String> = pendings.iter().map(|p| p.id.clone()).collect();
    assert_eq!(listed, submitted);
}

#[tokio::test]
async fn serializes_in_camel_case_for_approvers() {
    let broker = Broker::new();
    let _pending = broker.submit(display("main"), LONG);
    let json = serde_json::to_value(&broker.list()[0]).unwrap();
    for key in ["id", "shortId", "createdAtMs", "expiresAtMs", "display"] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    let shown = &json["display"];
    assert_eq!(
        shown["allowedDecisions"],
        serde_json::json!(["allow-once", "deny"])
    );
    assert_eq!(shown["commandText"], "rm -rf build");
    assert_eq!(
        shown["riskReasons"],
        serde_json::json!(["recursive delete"])
    );
}

#[tokio::test]
async fn times_out_after_its_own_timeout_and_disappears() {
    let broker = Broker::new();
    let mut events = broker.subscribe();
    let started = std::time::Instant::now();
    let pending = broker.submit(display("main"), Duration::from_millis(100));
    let id = pending.id.clone();
    assert_eq!(pending.wait().await, Outcome::TimedOut);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(100), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert!(broker.list().is_empty());
    assert_eq!(
        broker.resolve(&id, Decision::AllowOnce, "late"),
        Err(ResolveError::NotFound)
    );
    assert!(matches!(
        events.recv().await.unwrap(),
        BrokerEvent::Requested(_)
    ));
    assert_eq!(
        events.recv().await.unwrap(),
        BrokerEvent::Resolved {
            id,
            outcome: Outcome::TimedOut
        }
    );
}

#[tokio::test]
async fn an_answer_after_the_deadline_does_not_count_even_before_the_waiter_wakes() {
    let broker = Broker::new();
    let pending = broker.submit(display("main"), Duration::from_millis(50));
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert!(broker.list().is_empty(), "expired approvals are not listed");
    assert_eq!(
        broker.resolve(&pending.id, Decision::AllowOnce, "late"),
        Err(ResolveError::NotFound)
    );
    assert_eq!(pending.wait().await, Outcome::TimedOut);
}

#[tokio::test]
async fn a_zero_timeout_times_out_at_once() {
    let broker = Broker::new();
    let pending = broker.submit(display("main"), Duration::ZERO);
    assert_eq!(pending.wait().await, Outcome::TimedOut);
}

#[tokio::test]
async fn a_huge_timeout_is_cut_to_the_maximum() {
    let broker = Broker::new();
    let _pending = broker.submit(display("main"), Duration::MAX);
    let approval = &broker.list()[0];
    let max_ms = i64::try_from(MAX_TIMEOUT.as_millis()).unwrap();
    assert_eq!(approval.expires_at_ms - approval.created_at_ms, max_ms);
}

#[tokio::test]
async fn dropping_the_pending_cancels_and_removes_it() {
    let broker = Broker::new();
    let mut events = broker.subscribe();
    let pending = broker.submit(display("main"), LONG);
    let id = pending.id.clone();
    drop(pending);
    assert!(broker.list().is_empty());
    assert_eq!(
        broker.resolve(&id, Decision::AllowOnce, "web"),
        Err(ResolveError::NotFound)
    );
    assert!(matches!(
        events.recv().await.unwrap(),
        BrokerEvent::Requested(_)
    ));
    assert_eq!(
        events.recv().await.unwrap(),
        BrokerEvent::Resolved {
            id,
            outcome: cancelled(DISCONNECTED_REASON)
        }
    );
}

#[tokio::test]
async fn dropping_the_wait_future_cancels_it_too() {
    let broker = Broker::new();
    let pending = broker.submit(display("main"), LONG);
    let id = pending.id.clone();
    let gave_up = tokio::time::timeout(Duration::from_millis(30), pending.wait()).await;
    assert!(gave_up.is_err());
    assert!(broker.list().is_empty());
    assert_eq!(
        broker.resolve(&id, Decision::AllowOnce, "web"),
        Err(ResolveError::NotFound)
    );
}

#[tokio::test]
async fn dropping_after_an_answer_publishes_nothing_more() {
    let broker = Broker::new();
    let pending = broker.submit(display("main"), LONG);
    broker.resolve(&pending.id, Decision::Deny, "web").unwrap();
    let mut events = broker.subscribe();
    drop(pending);
    assert_eq!(events.try_recv(), Err(TryRecvError::Empty));
}

#[tokio::test]
async fn cancel_agent_cancels_only_that_agents_approvals() {
    let broker = Broker::new();
    let a1 = broker.submit(display("a"), LONG);
    let b = broker.submit(display("b"), LONG);
    let a2 = broker.submit(display("a"), LONG);
    assert_eq!(broker.cancel_agent("a", "session ended"), 2);
    assert_eq!(broker.cancel_agent("nobody", "session ended"), 0);
    let left: Vec<String> = broker.list().into_iter().map(|p| p.id).collect();
    assert_eq!(left, vec![b.id.clone()]);
    assert_eq!(a1.wait().await, cancelled("session ended"));
    assert_eq!(a2.wait().await, cancelled("session ended"));
    broker.resolve(&b.id, Decision::AllowOnce, "web").unwrap();
    assert!(matches!(b.wait().await, Outcome::Decided { .. }));
}

#[tokio::test]
async fn shutdown_cancels_everything_and_refuses_new_approvals() {
    let broker = Broker::new();
    let pendings: Vec<_> = (0..3)
        .map(|_| broker.submit(display("main"), LONG))
        .collect();
    broker.shutdown();
    assert!(broker.list().is_empty());
    for pending in pendings {
        assert_eq!(pending.wait().await, cancelled(SHUTDOWN_REASON));
    }
    let late = broker.submit(display("main"), LONG);
    assert!(broker.list().is_empty());
    assert_eq!(
        broker.resolve(&late.id, Decision::AllowOnce, "web"),
        Err(ResolveError::NotFound)
    );
    assert_eq!(late.wait().await, cancelled(SHUTDOWN_REASON));
}

#[tokio::test]
async fn a_lagging_subscriber_does_not_block_the_broker_and_can_catch_up() {
    let broker = Broker::new();
    let mut slow = broker.subscribe();
    let pendings: Vec<_> = (0..ui_bridge::broker::EVENT_CAPACITY + 10)
        .map(|_| broker.submit(display("main"), LONG))
        .collect();
    assert!(matches!(
        slow.recv().await,
        Err(tokio::sync::broadcast::error::RecvError::Lagged(_))
    ));
    assert_eq!(broker.list().len(), pendings.len());
}

#[tokio::test]
async fn a_failing_approver_ends_an_approval_only_when_nobody_else_is_attached() {
    let broker = Broker::new();
    let _hook = broker.attach("hook");
    // A person is attached: the failure is noted, the approval stays.
    let terminal = broker.attach("terminal");
    let pending = broker.submit(display("main"), LONG);
    assert!(!broker.fail(&pending.id, "hook", "exit 3"));
    assert_eq!(
        broker.list().len(),
        1,
        "the approval must stay for the person"
    );
    broker
        .resolve(&pending.id, Decision::Deny, "terminal")
        .expect("the person still answers");
    assert!(matches!(
        pending.wait().await,
        Outcome::Decided { approver, .. } if approver == "terminal"
    ));
    // The person left: the next failure ends the approval as failed.
    drop(terminal);
    let pending = broker.submit(display("main"), LONG);
    assert!(broker.fail(&pending.id, "hook", "exit 3"));
    assert!(broker.list().is_empty());
    assert_eq!(
        pending.wait().await,
        Outcome::Failed {
            approver: "hook".into(),
            why: "exit 3".into()
        }
    );
    assert!(broker.has_approver(), "the hook is still attached");
}
