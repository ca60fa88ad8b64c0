//! Everything the node host and the UI bridge share: the approvals file
//! ([`approvals`]), the policy engine that turns a request into a decision
//! ([`policy`]), and the authenticated socket protocol between them ([`ipc`]).
//!
//! Nothing here prompts a person or spawns a process: a decision is a value,
//! and the crates above it act on it.
#![forbid(unsafe_code)]

pub mod approvals;
pub mod ipc;
pub mod policy;
