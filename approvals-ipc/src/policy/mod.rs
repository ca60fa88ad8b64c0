//! The policy engine: from a `system.run` request to `allow`, `ask` or `deny`.
//!
//! The pipeline, DESIGN.md section 6: [`shell`] analysis of wrapper scripts
//! into chains of pipelines, a [`plan`] of literal argv per segment with
//! wrappers unwrapped, executable resolution, allowlist matching, [`safe_bins`],
//! argument [`guards`], [`risk`] and the decision. Upholds invariant 3: nothing
//! the analysis did not fully understand is auto-allowed.

pub mod env;
pub mod guards;
pub mod plan;
pub mod risk;
pub mod safe_bins;
pub mod shell;
pub mod unicode;
