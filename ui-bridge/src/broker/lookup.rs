//! Which pending approval an answer names, which id a new approval gets,
//! and why an answer is refused.
//!
//! Ids are random UUIDs (v4), and a new id is drawn until its first
//! [`MIN_PREFIX_LEN`] characters are not the short id of any pending
//! approval ([`fresh_id`]). So every pending approval's short id — those
//! first characters — is unique among the pending ones for its whole life,
//! and is a prefix of its full id, which is what the lookup accepts anyway:
//! a person types four characters such as `3fa8`. (A UUIDv7, used before,
//! starts with its creation time, so two requests made together needed
//! 28 characters to tell apart.)
//!
//! It decides how an id typed by a person (a full id or a prefix of it)
//! maps to one pending approval: case-insensitive, at least
//! [`MIN_PREFIX_LEN`] characters, and only when exactly one pending approval
//! starts with it. It refuses short prefixes (too easy to hit the wrong
//! approval) and ambiguous ones (listing the candidates so the person can
//! type more). Upholds DESIGN.md section 7 (short ids unique among the
//! pending ones; any unique prefix of 4+ characters is accepted; later
//! answers get `NOT_FOUND`).
//!
//! # Caveats
//!
//! With tens of thousands of approvals pending the four-character space
//! fills up; after [`FRESH_ID_TRIES`] draws the id is taken anyway and its
//! short id grows until it is unique, which may make an older short id
//! ambiguous (the lookup then lists the candidates).

use approvals_ipc::ipc::Decision;
use uuid::Uuid;

/// The shortest prefix accepted, so a stray short word never picks an approval.
pub const MIN_PREFIX_LEN: usize = 4;

/// How many random ids are drawn before one that shares a pending short id
/// is accepted anyway; reached only with a crowded broker.
pub const FRESH_ID_TRIES: usize = 64;

/// The short id of `id` among `others` (the other pending full ids): its
/// shortest prefix of at least [`MIN_PREFIX_LEN`] characters that no other
/// starts with; the whole id when none is shorter.
pub fn short_id_of<'a>(id: &str, others: impl IntoIterator<Item = &'a str> + Clone) -> String {
    let chars: Vec<(usize, char)> = id.char_indices().collect();
    for len in MIN_PREFIX_LEN..chars.len() {
        let prefix = &id[..chars[len].0];
        // A hyphen is not worth typing: the prefix must end on a digit or letter.
        if prefix.ends_with('-') {
            continue;
        }
        if !others
            .clone()
            .into_iter()
            .any(|other| other.starts_with(prefix))
        {
            return prefix.to_owned();
        }
    }
    id.to_owned()
}

/// A new full id and its short id, given the pending approvals as (full
/// id, short id) pairs: the id does not start with any pending short id, so
/// those stay unique, and its own short id is unique among the pending.
pub(super) fn fresh_id<'a>(
    pending: impl Iterator<Item = (&'a str, &'a str)> + Clone,
) -> (String, String) {
    let mut id = new_id();
    for _ in 0..FRESH_ID_TRIES {
        let taken = pending
            .clone()
            .any(|(full, short)| full == id || id.starts_with(short));
        if !taken {
            break;
        }
        id = new_id();
    }
    let short = short_id_of(&id, pending.map(|(full, _)| full));
    (id, short)
}

/// A fresh lowercase random UUID.
fn new_id() -> String {
    Uuid::new_v4().hyphenated().to_string()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_id_is_the_shortest_unique_prefix_of_four_or_more() {
        let id = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
        assert_eq!(short_id_of(id, []), "3fa8");
        assert_eq!(
            short_id_of(id, ["3fa9aaaa-0000-4000-8000-000000000000"]),
            "3fa8"
        );
        assert_eq!(
            short_id_of(id, ["3fa85000-0000-4000-8000-000000000000"]),
            "3fa85f"
        );
        // Never ends on the hyphen.
        assert_eq!(
            short_id_of(id, ["3fa85f64-0000-4000-8000-000000000000"]),
            "3fa85f64-5"
        );
    }

    #[test]
    fn a_fresh_id_never_starts_with_a_pending_short_id() {
        let mut pending: Vec<(String, String)> = Vec::new();
        for _ in 0..500 {
            let (id, short) = fresh_id(pending.iter().map(|(f, s)| (f.as_str(), s.as_str())));
            assert!(id.starts_with(&short), "{short} is not a prefix of {id}");
            assert!(short.len() >= MIN_PREFIX_LEN);
            for (full, other) in &pending {
                assert!(!id.starts_with(other.as_str()), "{id} starts with {other}");
                assert!(!full.starts_with(&short), "{full} starts with {short}");
            }
            pending.push((id, short));
        }
    }
}
