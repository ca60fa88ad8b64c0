//! The broker's answer rules: ids and prefixes, first answer wins, offered
//! decisions only.

use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::ipc::Decision;
use ui_bridge::broker::{
    ApprovalDisplay, Broker, BrokerEvent, DisplaySegment, Outcome, Pending, ResolveError,
};

const LONG: Duration = Duration::from_secs(60);

fn display(agent: &str, allowed: &[Decision]) -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["/usr/bin/git".into(), "push".into()],
        command_text: "git push".into(),
        cwd: "/home/u/project".into(),
        agent_id: agent.into(),
        session_key: Some("s1".into()),
        segments: vec![DisplaySegment {
            argv: vec!["git".into(), "push".into()],
            resolved_path: Some("/usr/bin/git".into()),
            real_path: Some("/usr/bin/git".into()),
            guards: vec![],
            stdin_file: None,
        }],
        risk_level: "low".into(),
        risk_reasons: vec![],
        security: "allowlist".into(),
        ask: "on-miss".into(),
        allowed_decisions: allowed.to_vec(),
        reason: Some("allowlist miss".into()),
    }
}

fn all() -> Vec<Decision> {
    vec![Decision::AllowOnce, Decision::AllowAlways, Decision::Deny]
}

#[tokio::test]
async fn ids_are_lowercase_random_uuids() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &all()), LONG);
    let uuid = uuid::Uuid::parse_str(&pending.id).unwrap();
    // Random, not time-ordered: ids made together differ from the start.
    assert_eq!(uuid.get_version_num(), 4);
    assert_eq!(pending.id, uuid.hyphenated().to_string());
    assert_eq!(pending.id, pending.id.to_lowercase());
}

#[tokio::test]
async fn resolves_by_full_id_and_the_requester_gets_the_decision() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &all()), LONG);
    let id = pending.id.clone();
    let answered = broker
        .resolve(&id, Decision::AllowOnce, "terminal")
        .unwrap();
    assert_eq!(answered.id, id);
    assert_eq!(answered.display, display("main", &all()));
    match pending.wait().await {
        Outcome::Decided {
            decision,
            approver,
            latency_ms,
        } => {
            assert_eq!(
                (decision, approver.as_str()),
                (Decision::AllowOnce, "terminal")
            );
            assert!(latency_ms < 10_000);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(broker.list().is_empty());
}

#[tokio::test]
async fn resolves_by_a_four_character_prefix_in_either_case() {
    for (make_prefix, decision) in [
        (
            (|id: &str| id[..4].to_owned()) as fn(&str) -> String,
            Decision::Deny,
        ),
        (|id: &str| id[..4].to_uppercase(), Decision::AllowAlways),
        (|id: &str| id[..13].to_uppercase(), Decision::AllowOnce),
    ] {
        let broker = Broker::new();
        let pending = broker.submit(display("main", &all()), LONG);
        let prefix = make_prefix(&pending.id);
        let answered = broker.resolve(&prefix, decision, "web").unwrap();
        assert_eq!(answered.id, pending.id, "{prefix}");
        assert!(matches!(
            pending.wait().await,
            Outcome::Decided { decision: d, .. } if d == decision
        ));
    }
}

#[tokio::test]
async fn refuses_prefixes_shorter_than_four_characters() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &all()), LONG);
    for short in ["", &pending.id[..1], &pending.id[..3]] {
        assert_eq!(
            broker.resolve(short, Decision::AllowOnce, "web"),
            Err(ResolveError::TooShort),
            "{short:?}"
        );
    }
    assert_eq!(broker.list().len(), 1, "a refused answer leaves it pending");
}

#[tokio::test]
async fn short_ids_stay_unique_among_many_pending_and_answer_their_own() {
    let broker = Broker::new();
    let pendings: Vec<Pending> = (0..300)
        .map(|_| broker.submit(display("main", &all()), LONG))
        .collect();
    let listed = broker.list();
    let mut shorts: Vec<&str> = listed.iter().map(|a| a.short_id.as_str()).collect();
    for approval in &listed {
        assert_eq!(approval.short_id.len(), 4, "{}", approval.short_id);
        assert!(approval.id.starts_with(&approval.short_id));
        // No other pending id starts with it: typing it names this one.
        let others = listed
            .iter()
            .filter(|o| o.id.starts_with(&approval.short_id));
        assert_eq!(others.count(), 1, "{}", approval.short_id);
    }
    shorts.sort_unstable();
    shorts.dedup();
    assert_eq!(shorts.len(), pendings.len());
    // Each short id answers its own approval, and it stays the same for
    // the approval's life while others come and go.
    for pending in pendings.iter().step_by(7) {
        let answered = broker
            .resolve(&pending.short_id, Decision::Deny, "web")
            .unwrap();
        assert_eq!(answered.id, pending.id);
        assert_eq!(answered.short_id, pending.short_id);
    }
}

#[tokio::test]
async fn unknown_ids_are_not_found() {
    let broker = Broker::new();
    let _pending = broker.submit(display("main", &all()), LONG);
    for unknown in ["ffff", "zzzz", "00000000-0000-7000-8000-000000000000"] {
        assert_eq!(
            broker.resolve(unknown, Decision::Deny, "web"),
            Err(ResolveError::NotFound)
        );
    }
}

#[tokio::test]
async fn a_later_answer_is_not_found_so_allow_once_cannot_be_replayed() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &all()), LONG);
    let id = pending.id.clone();
    broker
        .resolve(&id, Decision::AllowOnce, "terminal")
        .unwrap();
    for decision in [Decision::AllowOnce, Decision::Deny] {
        assert_eq!(
            broker.resolve(&id, decision, "web"),
            Err(ResolveError::NotFound)
        );
    }
    assert!(matches!(
        pending.wait().await,
        Outcome::Decided {
            decision: Decision::AllowOnce,
            ..
        }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_answers_yield_exactly_one_winner() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &all()), LONG);
    let id: Arc<str> = pending.id.clone().into();
    let start = Arc::new(tokio::sync::Barrier::new(50));
    let mut tasks = Vec::new();
    for n in 0..50 {
        let (broker, id, start) = (broker.clone(), Arc::clone(&id), Arc::clone(&start));
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let decision = if n % 2 == 0 {
                Decision::AllowOnce
            } else {
                Decision::Deny
            };
            (
                n,
                decision,
                broker.resolve(&id, decision, &format!("approver-{n}")),
            )
        }));
    }
    let mut winners = Vec::new();
    for task in tasks {
        let (n, decision, result) = task.await.unwrap();
        match result {
            Ok(_) => winners.push((n, decision)),
            Err(ResolveError::NotFound) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    let (n, decision) = winners[0];
    match pending.wait().await {
        Outcome::Decided {
            decision: got,
            approver,
            ..
        } => assert_eq!((got, approver), (decision, format!("approver-{n}"))),
        other => panic!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn refuses_a_decision_the_approval_does_not_offer() {
    let broker = Broker::new();
    let offered = [Decision::AllowOnce, Decision::Deny];
    let pending = broker.submit(display("main", &offered), LONG);
    assert_eq!(
        broker.resolve(&pending.id, Decision::AllowAlways, "web"),
        Err(ResolveError::DecisionNotAllowed {
            decision: Decision::AllowAlways,
            allowed: offered.to_vec(),
        })
    );
    assert_eq!(
        broker.list().len(),
        1,
        "still pending after a refused answer"
    );
    broker
        .resolve(&pending.id, Decision::AllowOnce, "web")
        .unwrap();
}

#[tokio::test]
async fn deny_is_accepted_even_when_not_listed() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &[Decision::AllowOnce]), LONG);
    broker.resolve(&pending.id, Decision::Deny, "web").unwrap();
    assert!(matches!(
        pending.wait().await,
        Outcome::Decided {
            decision: Decision::Deny,
            ..
        }
    ));
}

#[tokio::test]
async fn an_approval_offering_nothing_but_deny_refuses_every_allow() {
    let broker = Broker::new();
    let pending = broker.submit(display("main", &[]), LONG);
    for decision in [Decision::AllowOnce, Decision::AllowAlways] {
        assert!(matches!(
            broker.resolve(&pending.id, decision, "web"),
            Err(ResolveError::DecisionNotAllowed { .. })
        ));
    }
}

#[tokio::test]
async fn subscribers_see_the_request_and_its_resolution() {
    let broker = Broker::new();
    let mut first = broker.subscribe();
    let mut second = broker.subscribe();
    let pending = broker.submit(display("main", &all()), LONG);
    let listed = broker.list();
    assert_eq!(listed.len(), 1);
    broker.resolve(&pending.id, Decision::Deny, "hook").unwrap();
    for events in [&mut first, &mut second] {
        assert_eq!(
            events.recv().await.unwrap(),
            BrokerEvent::Requested(listed[0].clone())
        );
        match events.recv().await.unwrap() {
            BrokerEvent::Resolved {
                id,
                outcome:
                    Outcome::Decided {
                        decision, approver, ..
                    },
            } => {
                assert_eq!(id, pending.id);
                assert_eq!((decision, approver.as_str()), (Decision::Deny, "hook"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
