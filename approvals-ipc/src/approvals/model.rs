//! Policy knobs shared by the file model and the policy engine.

use serde::{Deserialize, Serialize};

/// How much may run at all; ordered from strictest to loosest, so "stricter
/// wins" is `min`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Security {
    /// Nothing runs.
    Deny,
    /// Only what the allowlist, safe bins or skills satisfy runs unasked.
    Allowlist,
    /// Everything runs unless denylisted.
    Full,
}

/// When a person is asked; ordered from loosest to strictest, so "stricter
/// wins" is `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    /// Never ask: a miss is refused.
    Off,
    /// Ask when the allowlist does not satisfy the command.
    OnMiss,
    /// Ask every time, even for allowlisted commands.
    Always,
}
