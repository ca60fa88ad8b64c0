//! The audit view's server side: the latest decisions and the chain status.
//!
//! It decides which records the page sees — the newest first, at most
//! [`MAX_RECORDS`], filtered by agent, decision, minimum risk and age with
//! the same [`AuditFilter`] `ui-bridge audit query` uses — and reports
//! whether the hash chain verifies ([`verify`], DESIGN.md section 9). It
//! refuses filter values the audit module does not know (400, with its
//! message) and never writes to the log. Records are sent as stored; the
//! page shows them as text only.

use std::collections::VecDeque;
use std::ops::ControlFlow;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::WebState;
use super::answer::error;
use crate::audit::{AuditError, AuditFilter, now_ms, parse_duration, scan, verify};

/// The most records one answer carries.
pub const MAX_RECORDS: usize = 500;

/// The filters of `GET /api/audit`; empty strings mean "any".
#[derive(Debug, Default, Deserialize)]
pub struct AuditQuery {
    agent: Option<String>,
    decision: Option<String>,
    risk: Option<String>,
    /// An age such as `15m`, `1h`, `7d`.
    since: Option<String>,
    limit: Option<usize>,
}

/// `GET /api/audit`.
pub async fn latest(State(state): State<WebState>, Query(query): Query<AuditQuery>) -> Response {
    let Some(path) = state.audit_path.clone() else {
        return Json(json!({"records": [], "matched": 0, "verify": {"status": "off"}}))
            .into_response();
    };
    let given = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
    let since_ms = match given(query.since) {
        Some(age) => match parse_duration(&age) {
            Ok(age) => Some(now_ms() - i64::try_from(age.as_millis()).unwrap_or(i64::MAX)),
            Err(err) => return error(StatusCode::BAD_REQUEST, err.to_string()),
        },
        None => None,
    };
    let filter = AuditFilter {
        since_ms,
        agent: given(query.agent),
        decision: given(query.decision),
        risk: given(query.risk),
    };
    let limit = query.limit.unwrap_or(100).clamp(1, MAX_RECORDS);
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, AuditError> {
        if !path.exists() {
            return Ok(json!({
                "path": path.display().to_string(),
                "records": [],
                "matched": 0,
                "verify": {"status": "empty"},
            }));
        }
        // Only the newest `limit` matches are kept, whatever the log's size.
        let mut newest = VecDeque::with_capacity(limit);
        let mut matched = 0usize;
        scan(&path, &filter, |record| {
            matched += 1;
            if newest.len() == limit {
                newest.pop_front();
            }
            newest.push_back(record);
            ControlFlow::Continue(())
        })?;
        let latest: Vec<Value> = newest.into_iter().rev().collect();
        let chain = match verify(&path) {
            Ok(report) => json!({
                "status": "intact",
                "lines": report.lines,
                "lastSeq": report.last_seq,
                "head": report.head,
            }),
            Err(err) => json!({"status": "broken", "error": err.to_string()}),
        };
        Ok(json!({
            "path": path.display().to_string(),
            "records": latest,
            "matched": matched,
            "verify": chain,
        }))
    })
    .await;
    match answer {
        Ok(Ok(value)) => Json(value).into_response(),
        Ok(Err(err @ AuditError::InvalidFilter { .. })) => {
            error(StatusCode::BAD_REQUEST, err.to_string())
        }
        Ok(Err(err)) => error(StatusCode::UNPROCESSABLE_ENTITY, err.to_string()),
        Err(join) => error(StatusCode::INTERNAL_SERVER_ERROR, join.to_string()),
    }
}
