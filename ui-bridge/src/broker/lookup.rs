//! Which pending approval an answer names, and why an answer is refused.
//!
//! It decides how an id typed by a person (a full UUIDv7 or a prefix of it)
//! maps to one pending approval: case-insensitive, at least
//! [`MIN_PREFIX_LEN`] characters, and only when exactly one pending approval
//! starts with it. It refuses short prefixes (too easy to hit the wrong
//! approval) and ambiguous ones (listing the candidates so the person can
//! type more). Upholds DESIGN.md section 7 (any unique prefix of 4+
//! characters is accepted; later answers get `NOT_FOUND`).
//!
//! # Caveats
//!
//! A UUIDv7 starts with its creation time, so approvals created close
//! together share their first 8–12 characters: a 4-character prefix is
//! unique only when few approvals are pending. Approvers should show enough
//! of the id (or the full id) to be unambiguous.

use approvals_ipc::ipc::Decision;

/// The shortest prefix accepted, so a stray short word never picks an approval.
pub const MIN_PREFIX_LEN: usize = 4;

/// Why an answer did not resolve an approval.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No pending approval has this id or prefix (never existed, already
    /// answered, timed out or cancelled).
    #[error("unknown or expired approval id")]
    NotFound,
    /// More than one pending approval starts with the prefix.
    #[error(
        "ambiguous approval id prefix; matches: {}\nhint: type more of the id, or the full id",
        candidates.join(", ")
    )]
    Ambiguous {
        /// The full ids that start with the prefix, in id order.
        candidates: Vec<String>,
    },
    /// The approval does not offer this decision (e.g. `allow-always` when
    /// `ask` is `always`).
    #[error(
        "decision {} is not offered for this approval; allowed: {}",
        decision_word(*decision),
        allowed.iter().map(|d| decision_word(*d)).collect::<Vec<_>>().join(", ")
    )]
    DecisionNotAllowed {
        /// The decision that was refused.
        decision: Decision,
        /// What the approval accepts.
        allowed: Vec<Decision>,
    },
    /// The prefix has fewer than [`MIN_PREFIX_LEN`] characters.
    #[error("approval id prefix is too short: at least {MIN_PREFIX_LEN} characters are needed")]
    TooShort,
}

/// The policy file's word for a decision, for messages and logs.
pub fn decision_word(decision: Decision) -> &'static str {
    match decision {
        Decision::AllowOnce => "allow-once",
        Decision::AllowAlways => "allow-always",
        Decision::Deny => "deny",
    }
}

/// The lowercase key to look up, or `TooShort`.
///
/// Ids are lowercase ASCII, so ASCII case folding is enough; any other
/// character can never match.
pub(super) fn normalize(id_or_prefix: &str) -> Result<String, ResolveError> {
    if id_or_prefix.chars().count() < MIN_PREFIX_LEN {
        return Err(ResolveError::TooShort);
    }
    Ok(id_or_prefix.to_ascii_lowercase())
}

/// The one id among `matches` (ids starting with the prefix), or why not.
pub(super) fn pick(mut matches: Vec<String>) -> Result<String, ResolveError> {
    match matches.len() {
        0 => Err(ResolveError::NotFound),
        1 => Ok(matches.remove(0)),
        _ => Err(ResolveError::Ambiguous {
            candidates: matches,
        }),
    }
}
