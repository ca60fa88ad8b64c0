//! The router called directly, without a server: answers reach the broker
//! as approver `web`, the first answer wins, and a decision the approval does
//! not offer is refused; only the content-hashed script may be cached.

use std::sync::Arc;
use std::time::Duration;

use approvals_ipc::approvals::ApprovalsStore;
use approvals_ipc::ipc::Decision;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;

use super::{Secret, WebState, router};
use crate::broker::{ApprovalDisplay, Broker, Outcome};

const HOST: &str = "127.0.0.1:8080";
const COOKIE: &str = "ea_session_8080=test-secret";

fn display(allowed: Vec<Decision>) -> ApprovalDisplay {
    ApprovalDisplay {
        argv: vec!["id".into()],
        command_text: "id".into(),
        cwd: "/".into(),
        agent_id: "main".into(),
        session_key: None,
        segments: Vec::new(),
        risk_level: "low".into(),
        risk_reasons: Vec::new(),
        security: "allowlist".into(),
        ask: "on-miss".into(),
        allowed_decisions: allowed,
        reason: None,
    }
}

fn app(broker: &Broker, dir: &tempfile::TempDir) -> axum::Router {
    let state = WebState {
        broker: broker.clone(),
        store: ApprovalsStore::open(dir.path().join("exec-approvals.json")),
        audit_path: None,
        shutdown: CancellationToken::new(),
    };
    router(state, Arc::new(Secret::with_value("test-secret", 8080)))
}

fn answer(id: &str, decision: &str) -> Request<Body> {
    Request::post(format!("/api/approvals/{id}/answer"))
        .header(header::HOST, HOST)
        .header(header::COOKIE, COOKIE)
        .header(header::ORIGIN, format!("http://{HOST}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(format!(r#"{{"decision":"{decision}"}}"#)))
        .expect("request")
}

#[tokio::test]
async fn an_answer_from_the_page_resolves_the_broker_as_web_and_only_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::new();
    let pending = broker.submit(
        display(vec![Decision::AllowOnce, Decision::Deny]),
        Duration::from_secs(60),
    );
    let id = pending.id.clone();
    let first = app(&broker, &dir)
        .oneshot(answer(&id, "allow-once"))
        .await
        .expect("answer");
    assert_eq!(first.status(), StatusCode::OK);
    match pending.wait().await {
        Outcome::Decided {
            decision, approver, ..
        } => assert_eq!((decision, approver.as_str()), (Decision::AllowOnce, "web")),
        other => panic!("not decided by the page: {other:?}"),
    }
    let second = app(&broker, &dir)
        .oneshot(answer(&id, "deny"))
        .await
        .expect("answer");
    assert_eq!(second.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_decision_the_approval_does_not_offer_is_refused_and_it_keeps_waiting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::new();
    let pending = broker.submit(
        display(vec![Decision::AllowOnce, Decision::Deny]),
        Duration::from_secs(60),
    );
    let refused = app(&broker, &dir)
        .oneshot(answer(&pending.id, "allow-always"))
        .await
        .expect("answer");
    assert_eq!(refused.status(), StatusCode::CONFLICT);
    let unknown = app(&broker, &dir)
        .oneshot(answer(&pending.id, "yes"))
        .await
        .expect("answer");
    assert_eq!(unknown.status(), StatusCode::BAD_REQUEST);
    assert_eq!(broker.list().len(), 1, "the approval still waits");
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, HOST)
        .header(header::COOKIE, COOKIE)
        .body(Body::empty())
        .expect("request")
}

#[tokio::test]
async fn only_the_hashed_script_is_cacheable_and_any_other_script_url_is_a_404() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broker = Broker::new();
    let cache = |response: &axum::response::Response| {
        response
            .headers()
            .get(header::CACHE_CONTROL)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let script = app(&broker, &dir)
        .oneshot(get(super::assets::SCRIPT_PATH.as_str()))
        .await
        .expect("script");
    assert_eq!(script.status(), StatusCode::OK);
    assert_eq!(cache(&script).as_deref(), Some(super::auth::CACHE_FOREVER));
    assert!(
        script
            .headers()
            .contains_key(header::CONTENT_SECURITY_POLICY)
    );
    for path in [
        "/",
        "/api/session",
        "/api/pending",
        "/api/policy",
        "/app.js",
        "/app.0000000000000000.js",
    ] {
        let response = app(&broker, &dir).oneshot(get(path)).await.expect(path);
        let expected = if path.starts_with("/app.") {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        assert_eq!(response.status(), expected, "{path}");
        assert_eq!(cache(&response).as_deref(), Some("no-store"), "{path}");
    }
    // The login redirect, which sets the cookie, is not kept either.
    let login = Request::get("/login?secret=test-secret")
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request");
    let login = app(&broker, &dir).oneshot(login).await.expect("login");
    assert_eq!(login.status(), StatusCode::SEE_OTHER);
    assert_eq!(cache(&login).as_deref(), Some("no-store"));
    // Without the session the script is refused like everything else.
    let anonymous = Request::get(super::assets::SCRIPT_PATH.as_str())
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request");
    let refused = app(&broker, &dir).oneshot(anonymous).await.expect("script");
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(cache(&refused).as_deref(), Some("no-store"));
}
