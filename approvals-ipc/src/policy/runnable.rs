//! The proof that a request may run: a [`Runnable`] exists only when the
//! policy allowed the request, or when it asked and a person (or the ask
//! fallback) allowed it. The executor takes nothing else (DESIGN.md
//! invariant 4: run exactly what was checked).
//!
//! The one way to get one is to evaluate a request and ask for it:
//!
//! ```no_run
//! use approvals_ipc::approvals::ApprovalsFile;
//! use approvals_ipc::policy::{CompiledPolicy, HostContext};
//!
//! let file = ApprovalsFile::default();
//! let compiled = CompiledPolicy::compile(file.resolve(Some("main")), &HostContext::from_process());
//! let evaluation = compiled.evaluate(&["true".to_owned()], std::path::Path::new("/tmp"), &Default::default());
//! assert!(evaluation.runnable(None).is_err()); // no `defaults`: the built-in deny
//! ```
//!
//! Outside this crate, a runnable cannot be forged, not even from a checked
//! plan:
//!
//! ```compile_fail
//! use approvals_ipc::policy::{Grant, Runnable};
//! fn forge(checked: &Runnable) -> Runnable {
//!     Runnable { plan: checked.plan().clone(), grant: Grant::AllowAlways } // private fields
//! }
//! ```

use crate::policy::plan::Plan;

/// How a request came to be allowed; also the reply's `decision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// The policy allowed it without asking.
    Policy,
    /// A person allowed it once.
    AllowOnce,
    /// A person allowed it and its allowlist entries are persisted.
    AllowAlways,
    /// Nobody answered and `askFallback` allowed it.
    Fallback,
}

impl Grant {
    /// The reply's `decision` text.
    pub fn wire_name(self) -> &'static str {
        match self {
            Grant::Policy => "allow",
            Grant::AllowOnce => "allow-once",
            Grant::AllowAlways => "allow-always",
            Grant::Fallback => "ask-fallback",
        }
    }
}

/// Why a request may not run after its verdict and any answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotGranted {
    /// The policy denied it (the evaluation's reason says why).
    #[error("denied by policy")]
    Denied,
    /// A person denied it.
    #[error("user denied")]
    UserDenied,
    /// Nobody answered and `askFallback` does not allow it.
    #[error("no approver answered and askFallback does not allow it")]
    NoAnswer {
        /// The OpenClaw reason code of the fallback's refusal.
        code: &'static str,
    },
    /// The command was allowed as text, but its program was not found, so
    /// there is nothing to run without looking it up again.
    #[error("{word}: command not found")]
    NotFound {
        /// The command word.
        word: String,
    },
}

/// A checked plan with the grant that lets it run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runnable {
    plan: Plan,
    grant: Grant,
}

impl Runnable {
    /// Only an evaluation makes one (see [`crate::policy::Evaluation::runnable`]).
    pub(crate) fn new(plan: Plan, grant: Grant) -> Self {
        Self { plan, grant }
    }

    /// A runnable for tests of the executor itself. Production builds do not
    /// have it: the `test-plans` feature is enabled only by test targets.
    /// (Mutants of it survive the crate's own tests: it is compiled only
    /// with `test-plans`, for the executor's tests in ui-bridge.)
    #[cfg(feature = "test-plans")]
    pub fn unchecked(plan: Plan) -> Self {
        Self {
            plan,
            grant: Grant::Policy,
        }
    }

    /// What runs.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Why it may run.
    pub fn grant(&self) -> Grant {
        self.grant
    }
}

#[cfg(test)]
mod tests {
    use super::Grant;

    #[test]
    fn each_grant_has_its_own_wire_name() {
        let names = [
            Grant::Policy,
            Grant::AllowOnce,
            Grant::AllowAlways,
            Grant::Fallback,
        ]
        .map(Grant::wire_name);
        assert_eq!(
            names,
            ["allow", "allow-once", "allow-always", "ask-fallback"]
        );
    }
}
