//! The policy editor's server side: read, save, explain.
//!
//! It decides what the page may read (the approvals file without its socket
//! token, with the hash of the bytes on disk as `baseHash`) and how a save
//! lands: only through [`ApprovalsStore::replace`], which holds the file's
//! lock, refuses when the file no longer hashes to the page's `baseHash`,
//! keeps the socket path and token from disk, and writes atomically
//! (DESIGN.md section 4, invariants 7 and 9). It refuses a save whose file
//! does not load (with the loader's message, file untouched) and answers a
//! concurrent edit with 409 and both versions — the page's, as sent, and
//! the file's now — so nothing is lost. `explain` evaluates a command the
//! way `node-host explain` does (the same compiled policy and evaluation),
//! never running it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use approvals_ipc::approvals::{ApprovalsError, ApprovalsFile, ApprovalsStore, Snapshot};
use approvals_ipc::policy::{CompiledPolicy, HostContext, real_cwd};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::WebState;
use super::answer::error;

/// `GET /api/policy`: the file without its token, and its hash.
pub async fn read(State(state): State<WebState>) -> Response {
    let store = state.store.clone();
    match blocking(move || store.load()).await {
        Ok(snapshot) => Json(view(&state.store, &snapshot)).into_response(),
        Err(failure) => failure,
    }
}

/// The body of a save.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveBody {
    /// The whole file as the page edited it (without a token).
    file: Value,
    /// The hash of the file the page read.
    base_hash: String,
}

/// `PUT /api/policy`: replaces the file if nobody changed it meanwhile.
pub async fn save(State(state): State<WebState>, Json(body): Json<SaveBody>) -> Response {
    let bytes = match serde_json::to_vec(&body.file) {
        Ok(bytes) => bytes,
        Err(err) => return error(StatusCode::BAD_REQUEST, err.to_string()),
    };
    let file = match ApprovalsFile::parse(&bytes, state.store.path()) {
        Ok(loaded) => loaded.file,
        Err(err) => {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("not saved: {err}"),
            );
        }
    };
    let store = state.store.clone();
    let base_hash = body.base_hash.clone();
    let saved = tokio::task::spawn_blocking(move || store.replace(file, &base_hash)).await;
    match saved {
        Ok(Ok(snapshot)) => {
            tracing::info!(file = %state.store.path().display(), "policy saved from the web page");
            Json(view(&state.store, &snapshot)).into_response()
        }
        Ok(Err(ApprovalsError::Conflict { .. })) => {
            let store = state.store.clone();
            let current = match blocking(move || store.load()).await {
                Ok(snapshot) => view(&state.store, &snapshot),
                Err(failure) => return failure,
            };
            (
                StatusCode::CONFLICT,
                Json(json!({
                    "error": "the approvals file changed since this page read it; nothing was saved",
                    "yours": body.file,
                    "yoursBaseHash": body.base_hash,
                    "current": current,
                })),
            )
                .into_response()
        }
        Ok(Err(err)) => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("not saved: {err}"),
        ),
        Err(join) => error(StatusCode::INTERNAL_SERVER_ERROR, join.to_string()),
    }
}

/// The body of an explain.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainBody {
    /// A shell command line, explained as `/bin/sh -c TEXT`.
    command: Option<String>,
    /// Or an exact argv.
    argv: Option<Vec<String>>,
    /// The agent whose policy applies [default: main].
    agent: Option<String>,
    /// The working directory [default: the bridge's home directory].
    cwd: Option<PathBuf>,
}

/// `POST /api/explain`: the decision and why, as `node-host explain --json`.
pub async fn explain(State(state): State<WebState>, Json(body): Json<ExplainBody>) -> Response {
    let argv = match (body.argv, body.command) {
        (Some(argv), None) if !argv.is_empty() => argv,
        (None, Some(text)) if !text.trim().is_empty() => {
            vec!["/bin/sh".to_owned(), "-c".to_owned(), text]
        }
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "give exactly one of a non-empty command or argv".to_owned(),
            );
        }
    };
    let agent = body
        .agent
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| approvals_ipc::approvals::MAIN_AGENT.to_owned());
    let cwd = body
        .cwd
        .filter(|dir| dir.is_absolute())
        .or_else(std::env::home_dir)
        .unwrap_or_else(|| PathBuf::from("/"));
    let store = state.store.clone();
    let evaluated = blocking(move || {
        let snapshot = store.load()?;
        let compiled = CompiledPolicy::compile(
            snapshot.file.resolve(Some(&agent)),
            &HostContext::from_process(),
        );
        let evaluation = compiled.evaluate(&argv, &real_cwd(&cwd), &BTreeMap::new());
        let (fallback, why) = evaluation.fallback();
        Ok(json!({
            "agent": agent,
            "cwd": cwd.display().to_string(),
            "evaluation": evaluation,
            "fallback": {"decision": fallback, "reason": why},
            "warnings": compiled.warnings(),
        }))
    })
    .await;
    match evaluated {
        Ok(value) => Json(value).into_response(),
        Err(failure) => failure,
    }
}

/// The file as the page sees it: no token, plus hash, path and warnings.
fn view(store: &ApprovalsStore, snapshot: &Snapshot) -> Value {
    json!({
        "path": store.path().display().to_string(),
        "exists": snapshot.exists,
        "hash": snapshot.hash,
        "file": snapshot.file.redacted(),
        "warnings": snapshot.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// Runs file work off the async threads; an approvals error becomes a 422
/// (the file is unusable, with the loader's message) and a panic a 500.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApprovalsError> + Send + 'static,
) -> Result<T, Response> {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(err)) => Err(error(StatusCode::UNPROCESSABLE_ENTITY, err.to_string())),
        Err(join) => Err(error(StatusCode::INTERNAL_SERVER_ERROR, join.to_string())),
    }
}
