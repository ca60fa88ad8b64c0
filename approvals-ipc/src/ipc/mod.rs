//! The socket protocol between the node host and the UI bridge (DESIGN.md
//! section 5): JSON lines over a Unix stream socket, a peer UID check, a
//! per-connection challenge, HMAC-signed `exec` frames with a TTL and a
//! bounded replay cache, OpenClaw's older token-authenticated `request`, and
//! `control` frames (list and answer pending approvals) signed like `exec`.
//!
//! It decides only whether a frame is authentic and well-formed; what to do
//! with an authenticated request is the [`Handler`]'s job. It refuses, with a
//! typed [`Refusal`], a peer of another UID before reading anything
//! (invariant 1) and a frame with a wrong HMAC, a stale or future timestamp,
//! a reused nonce, bad JSON or an oversized line, without stalling other
//! connections (invariant 2). The token never appears in logs (invariant 9).
//!
//! Modules: [`frame`] (wire types), [`answer`] (error bodies and decisions,
//! shared by `frame` and `control`), [`auth`] (HMAC, token, nonces),
//! [`replay`] (nonce memory), [`instance`] (start time and the key that
//! tags our own challenge nonces), `admit` (the ordered checks, shared by `exec`
//! and `control`), [`control`] (the control API's types), [`codec`]
//! (bounded lines), [`peer`] (credentials), `server` and `connection` (the
//! listener and one connection; they share `config` and `handler`), `slots`
//! (the connection caps and which idle connection makes room),
//! [`client`].

mod admit;
pub mod answer;
pub mod auth;
pub mod client;
pub mod codec;
mod config;
mod connection;
pub mod control;
pub mod error;
pub mod frame;
mod handler;
pub mod instance;
pub mod peer;
pub mod replay;
mod server;
mod slots;
mod stream;

pub use admit::{AdmitContext, Admitted, ChallengeState, admit};
pub use auth::{Token, sign, verify};
pub use client::{Client, ClientConfig};
pub use config::ServerConfig;
pub use control::{ControlRequest, ControlRes, ControlResponse};
pub use error::{ClientError, FrameError, Refusal};
pub use frame::{
    Decision, ErrorBody, ErrorCode, ExecFrame, ExecPayload, ExecPending, ExecRequest, ExecRes,
    ExecResponse, Frame, PromptRequest,
};
pub use handler::{Handler, Notices, PendingNotice, RequestContext};
pub use instance::{ClientNonces, Instance};
pub use server::serve;
