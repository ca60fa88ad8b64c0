//! The node runner: the `node-host` command line and what it drives.
//!
//! Layering (DESIGN.md section 2): `node-host → ui-bridge → approvals-ipc`.

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`).
#![forbid(unsafe_code)]

pub mod cli;
pub mod invoke;
pub mod transport;
