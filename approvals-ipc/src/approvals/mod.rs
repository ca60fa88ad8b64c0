//! The approvals file `exec-approvals.json`: its model, load-time
//! normalization, per-agent resolution and safe, locked, atomic saves.
//!
//! Upholds DESIGN.md invariants 6 (a malformed file denies everything and is
//! never overwritten), 7 (concurrent writers lose nothing) and 9 (the token
//! never leaves the file).

mod model;

pub use model::*;
