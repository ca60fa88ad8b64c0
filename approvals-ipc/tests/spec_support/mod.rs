//! Helpers shared by the `*_spec_conformance` integration tests.
#![allow(dead_code)]

use std::process::Output;

use approvals_ipc::policy::specs::{self, Spec};

/// The spec of `family`; a test naming one that does not exist is wrong.
pub fn spec(family: &str) -> &'static Spec {
    specs::all()
        .iter()
        .copied()
        .find(|s| s.family == family)
        .expect("a spec")
}

/// A program's stdout and stderr together, as the probes read them.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
