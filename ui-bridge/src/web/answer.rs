//! Answering pending approvals from the page.
//!
//! It decides what an answer from the page does: exactly what the terminal's
//! answer does — [`Broker::resolve`](crate::broker::Broker::resolve) by full
//! id, approver [`APPROVER`](super::APPROVER) — so the first answer from any
//! approver wins and every other page and the terminal see the approval
//! leave at once. It refuses decisions the approval does not offer (409,
//! with what is offered), answers to approvals that already ended (404),
//! and decision words it does not know (400). It also tells the page the
//! arming delay the terminal uses, so a key meant for one approval cannot
//! answer the next one on either.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::{APPROVER, WebState};
use crate::approvers::terminal::ARM_DELAY;
use crate::broker::{PendingApproval, ResolveError, decision_word};

/// `GET /api/session`: what the page needs to know about this bridge.
pub async fn session(State(state): State<WebState>) -> Json<serde_json::Value> {
    Json(json!({
        "armDelayMs": u64::try_from(ARM_DELAY.as_millis()).unwrap_or(u64::MAX),
        "approver": APPROVER,
        "approvalsFile": state.store.path().display().to_string(),
        "auditLog": state.audit_path.as_ref().map(|p| p.display().to_string()),
    }))
}

/// `GET /api/pending`: every pending approval, oldest first.
pub async fn pending(State(state): State<WebState>) -> Json<Vec<PendingApproval>> {
    Json(state.broker.list())
}

/// The body of an answer.
#[derive(Debug, Deserialize)]
pub struct AnswerBody {
    /// `allow-once`, `allow-always` or `deny`.
    decision: String,
}

/// `POST /api/approvals/{id}/answer`.
pub async fn answer(
    State(state): State<WebState>,
    Path(id): Path<String>,
    Json(body): Json<AnswerBody>,
) -> Response {
    use approvals_ipc::ipc::Decision;
    let decision = match body.decision.as_str() {
        "allow-once" => Decision::AllowOnce,
        "allow-always" => Decision::AllowAlways,
        "deny" => Decision::Deny,
        other => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("unknown decision {other:?}: expected allow-once, allow-always or deny"),
            );
        }
    };
    match state.broker.resolve(&id, decision, APPROVER) {
        Ok(approval) => Json(json!({
            "id": approval.id,
            "decision": decision_word(decision),
            "approver": APPROVER,
        }))
        .into_response(),
        Err(ResolveError::NotFound) => error(
            StatusCode::NOT_FOUND,
            "that approval already ended (answered elsewhere, timed out or cancelled)".to_owned(),
        ),
        Err(refused @ ResolveError::DecisionNotAllowed { .. }) => {
            error(StatusCode::CONFLICT, refused.to_string())
        }
        Err(refused) => error(StatusCode::BAD_REQUEST, refused.to_string()),
    }
}

/// A JSON error body `{"error": message}`.
pub(super) fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}
