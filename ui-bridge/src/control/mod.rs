//! The control API: list pending approvals and answer them from another
//! process (`ui-bridge approvals list|resolve|answer`), over the approvals
//! socket with `control` frames signed like `exec` (DESIGN.md sections 5
//! and 7).
//!
//! It decides, on the bridge side ([`ops`]), what one authenticated control
//! request does to the broker, and on the command-line side ([`client`],
//! [`table`]) how to reach the running bridge and show its answer. It
//! refuses an approver name that could forge or garble the audit trail,
//! chat text addressed to another bot, and (through the broker) unknown,
//! short, ambiguous or already answered ids: the first answer wins and a
//! later one gets `NOT_FOUND`. The token is read from the approvals file
//! and never printed (invariant 9).

pub mod client;
pub mod ops;
pub mod table;

pub use client::{ControlError, ControlTarget, send};
pub use ops::{APPROVER_PREFIX, MAX_APPROVER_LEN, apply, apply_as};
