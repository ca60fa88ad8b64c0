use std::time::Duration;

use approvals_ipc::ipc::{ControlRequest, Decision, ErrorCode};

use super::*;
use crate::broker::{ApprovalDisplay, Broker, Outcome, Pending};

const LONG: Duration = Duration::from_secs(60);

fn display(command: &str, allowed: &[Decision]) -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["/usr/bin/id".into()],
        command_text: command.into(),
        cwd: "/tmp".into(),
        agent_id: "main".into(),
        session_key: None,
        segments: vec![],
        risk_level: "low".into(),
        risk_reasons: vec![],
        security: "allowlist".into(),
        ask: "on-miss".into(),
        allowed_decisions: allowed.to_vec(),
        reason: None,
    }
}

fn once_only() -> Vec<Decision> {
    vec![Decision::AllowOnce, Decision::Deny]
}

fn resolve(id: &str, decision: Decision, approver: &str) -> ControlRequest {
    ControlRequest::Resolve {
        id: id.into(),
        decision,
        approver: approver.into(),
    }
}

fn answer(text: &str) -> ControlRequest {
    ControlRequest::Answer {
        text: text.into(),
        approver: "alice".into(),
    }
}

async fn decided(pending: Pending) -> (Decision, String) {
    match tokio::time::timeout(Duration::from_secs(5), pending.wait())
        .await
        .unwrap()
    {
        Outcome::Decided {
            decision, approver, ..
        } => (decision, approver),
        other => panic!("expected a decision, got {other:?}"),
    }
}

#[tokio::test]
async fn lists_pending_approvals_oldest_first() {
    let broker = Broker::new();
    let first = broker.submit(display("first", &once_only()), LONG);
    let second = broker.submit(display("second", &once_only()), LONG);
    let listed = apply(&broker, ControlRequest::List {}).unwrap();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [first.id.as_str(), second.id.as_str()]);
    assert_eq!(listed[0]["display"]["commandText"], "first");
}

#[tokio::test]
async fn resolves_by_prefix_as_a_control_approver() {
    let broker = Broker::new();
    let pending = broker.submit(display("id", &once_only()), LONG);
    let got = apply(
        &broker,
        resolve(
            &pending.id[..8].to_uppercase(),
            Decision::AllowOnce,
            "alice",
        ),
    )
    .unwrap();
    assert_eq!(got["decision"], "allow-once");
    assert_eq!(got["approver"], "control:alice");
    assert_eq!(got["approval"]["id"], pending.id.as_str());
    assert_eq!(
        decided(pending).await,
        (Decision::AllowOnce, "control:alice".to_owned())
    );
}

#[tokio::test]
async fn the_second_answer_gets_not_found() {
    let broker = Broker::new();
    let pending = broker.submit(display("id", &once_only()), LONG);
    let id = pending.id.clone();
    apply(&broker, resolve(&id, Decision::Deny, "alice")).unwrap();
    let late = apply(&broker, answer(&format!("/approve {id} once"))).unwrap_err();
    assert_eq!(late.code, ErrorCode::NotFound);
    assert_eq!(late.reason.as_deref(), Some("not-found"));
    assert_eq!(decided(pending).await.0, Decision::Deny);
}

#[tokio::test]
async fn short_ids_of_approvals_made_together_answer_their_own() {
    let broker = Broker::new();
    let a = broker.submit(display("a", &once_only()), LONG);
    let b = broker.submit(display("b", &once_only()), LONG);
    assert_ne!(a.short_id, b.short_id);
    let got = apply(&broker, resolve(&b.short_id, Decision::AllowOnce, "x")).unwrap();
    assert_eq!(got["approval"]["id"], b.id.as_str());
    assert_eq!(decided(b).await.0, Decision::AllowOnce);
    assert_eq!(broker.list().len(), 1, "only b was answered");
    assert_eq!(broker.list()[0].id, a.id);
}

#[tokio::test]
async fn refuses_short_prefixes_and_decisions_not_offered() {
    let broker = Broker::new();
    let pending = broker.submit(display("id", &once_only()), LONG);
    let short = apply(&broker, resolve(&pending.id[..3], Decision::Deny, "x")).unwrap_err();
    assert_eq!(short.reason.as_deref(), Some("too-short"));
    let always = apply(&broker, resolve(&pending.id, Decision::AllowAlways, "x")).unwrap_err();
    assert_eq!(always.code, ErrorCode::InvalidRequest);
    assert_eq!(always.reason.as_deref(), Some("decision-not-allowed"));
    assert_eq!(broker.list().len(), 1);
}

#[tokio::test]
async fn answers_chat_text_and_callback_data_with_the_shared_parser() {
    let cases = [
        ("/approve {id} once", Decision::AllowOnce),
        ("/approve deny {id}", Decision::Deny),
        ("/deny {id}", Decision::Deny),
        ("approve:{id}:once", Decision::AllowOnce),
        ("  approve:{id}:deny ", Decision::Deny),
        ("approve {id} allow-once", Decision::AllowOnce),
    ];
    for (template, want) in cases {
        let broker = Broker::new();
        let pending = broker.submit(display("id", &once_only()), LONG);
        let text = template.replace("{id}", &pending.id[..13]);
        let got = apply(&broker, answer(&text)).unwrap();
        assert_eq!(got["decision"], decision_word(want), "{text}");
        assert_eq!(decided(pending).await.0, want, "{text}");
    }
}

#[tokio::test]
async fn refuses_chat_text_that_is_not_an_answer_for_us() {
    let cases = [
        ("/approve@otherbot {id} once", "other-bot"),
        ("hello there", "not-a-command"),
        ("deny {id}", "not-a-command"),
        ("/approve {id}", "usage"),
        ("/approve {id} maybe", "unknown-decision"),
        ("/approve zzzz-{id} once", "invalid-id"),
        ("approve:{id}:allow-once", "unknown-decision"),
    ];
    for (template, reason) in cases {
        let broker = Broker::new();
        let pending = broker.submit(display("id", &once_only()), LONG);
        let text = template.replace("{id}", &pending.id);
        let error = apply(&broker, answer(&text)).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidRequest, "{text}");
        assert_eq!(error.reason.as_deref(), Some(reason), "{text}");
        assert_eq!(broker.list().len(), 1, "{text}: nothing was answered");
    }
}

#[tokio::test]
async fn refuses_approver_names_that_could_garble_the_audit_trail() {
    let long = "a".repeat(MAX_APPROVER_LEN + 1);
    let bad = [
        "",
        "two words",
        "tab\there",
        "line\nbreak",
        "zero\u{200B}width",
        "bidi\u{202E}txet",
        "esc\u{1b}[31m",
        long.as_str(),
    ];
    let broker = Broker::new();
    let pending = broker.submit(display("id", &once_only()), LONG);
    for name in bad {
        let error = apply(&broker, resolve(&pending.id, Decision::AllowOnce, name)).unwrap_err();
        assert_eq!(error.reason.as_deref(), Some("approver"), "{name:?}");
        let error = apply(
            &broker,
            ControlRequest::Answer {
                text: format!("/deny {}", pending.id),
                approver: name.to_owned(),
            },
        )
        .unwrap_err();
        assert_eq!(error.reason.as_deref(), Some("approver"), "{name:?}");
    }
    assert_eq!(broker.list().len(), 1);
    let longest = "b".repeat(MAX_APPROVER_LEN);
    apply(&broker, resolve(&pending.id, Decision::Deny, &longest)).unwrap();
}

#[test]
fn every_resolve_error_has_its_own_wire_reason() {
    let cases = [
        (ResolveError::NotFound, ErrorCode::NotFound, "not-found"),
        (
            ResolveError::Ambiguous {
                candidates: vec!["a".into(), "b".into()],
            },
            ErrorCode::InvalidRequest,
            "ambiguous",
        ),
        (
            ResolveError::DecisionNotAllowed {
                decision: Decision::AllowAlways,
                allowed: vec![Decision::AllowOnce],
            },
            ErrorCode::InvalidRequest,
            "decision-not-allowed",
        ),
        (
            ResolveError::TooShort,
            ErrorCode::InvalidRequest,
            "too-short",
        ),
    ];
    for (error, code, reason) in cases {
        let body = resolve_refusal(&error);
        assert_eq!((body.code, body.reason.as_deref()), (code, Some(reason)));
        assert_eq!(body.message, error.to_string());
    }
}

#[tokio::test]
async fn only_configured_approver_identities_may_answer() {
    let broker = Broker::new();
    let pending = broker.submit(display("id", &once_only()), LONG);
    let listed = vec!["alice".to_owned()];
    for request in [
        resolve(&pending.id, Decision::AllowOnce, "mallory"),
        ControlRequest::Answer {
            text: format!("/approve {} once", pending.id),
            approver: "mallory".into(),
        },
    ] {
        let error = apply_as(&broker, request, Some(&listed)).unwrap_err();
        assert_eq!(error.code, ErrorCode::Unauthorized, "{error:?}");
    }
    // An empty list accepts nobody (openclaw.md section 10, class 26).
    let error = apply_as(
        &broker,
        resolve(&pending.id, Decision::AllowOnce, "alice"),
        Some(&[]),
    )
    .unwrap_err();
    assert_eq!(error.code, ErrorCode::Unauthorized);
    assert_eq!(broker.list().len(), 1, "nothing was answered");
    apply_as(
        &broker,
        answer(&format!("/approve {} once", pending.id)),
        Some(&listed),
    )
    .unwrap();
    assert_eq!(
        decided(pending).await,
        (Decision::AllowOnce, "control:alice".to_owned())
    );
}
