//! The node runner: the `node-host` command line and what it drives.
//!
//! Layering (DESIGN.md section 2): `node-host → ui-bridge → approvals-ipc`.

pub mod cli;
