//! The policy engine: from a `system.run` request to `allow`, `ask` or `deny`.
//!
//! The pipeline, DESIGN.md section 6: [`shell`] analysis of wrapper scripts
//! into chains of pipelines; [`wrappers`] unwrapped; a [`plan`] of literal
//! argv per segment; executable resolution ([`resolve`]); allowlist matching
//! ([`matcher`]); [`safe_bins`]; argument [`guards`]; [`risk`]; and the
//! [`decision`]. Upholds invariant 3: nothing the analysis did not fully
//! understand is auto-allowed.
//!
//! ```no_run
//! use approvals_ipc::approvals::ApprovalsFile;
//! use approvals_ipc::policy::{CompiledPolicy, HostContext, Verdict};
//!
//! let file = ApprovalsFile::default();
//! let compiled = CompiledPolicy::compile(file.resolve(Some("main")), &HostContext::from_process());
//! let argv = vec!["git".to_owned(), "status".to_owned()];
//! let evaluation = compiled.evaluate(&argv, std::path::Path::new("/tmp"), &Default::default());
//! assert_eq!(evaluation.decision, Verdict::Deny); // no `defaults`: built-in deny
//! ```

pub mod analysis;
pub mod arg_pattern;
pub mod command_pattern;
pub mod compiled;
pub mod cwd_config;
pub mod decision;
pub mod env;
pub mod expand;
pub mod filled_trees;
pub mod find_exec;
pub mod guards;
pub mod matcher;
pub mod plan;
pub mod programs;
pub mod quote;
pub mod reason;
pub mod resolve;
pub mod risk;
pub mod runnable;
pub mod safe_bins;
pub mod salvage;
pub mod secrets;
pub mod shell;
pub mod specs;
pub mod unicode;
pub mod wrappers;

pub use compiled::{CompiledPolicy, HostContext};
pub use decision::{ApprovalDecision, Evaluation, SatisfiedBy, Verdict, real_cwd};
pub use reason::{DenyHit, Miss, Reason, Refusal};
pub use runnable::{Grant, NotGranted, Runnable};
