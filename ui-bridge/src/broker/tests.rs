//! Unit tests for the id lookup rules; the broker's behaviour is tested
//! through its public API in `ui-bridge/tests/broker_*.rs`.

use approvals_ipc::ipc::Decision;

use super::lookup::{normalize, pick};
use super::{MIN_PREFIX_LEN, ResolveError};

#[test]
fn refuses_prefixes_shorter_than_the_minimum() {
    for short in ["", "a", "01", "019", "é1b"] {
        assert_eq!(normalize(short), Err(ResolveError::TooShort), "{short:?}");
    }
}

#[test]
fn accepts_prefixes_of_the_minimum_length_folded_to_lowercase() {
    let cases = [
        ("0198", "0198"),
        ("ABCD", "abcd"),
        ("0198AbCd-", "0198abcd-"),
    ];
    for (input, want) in cases {
        assert_eq!(normalize(input).as_deref(), Ok(want), "{input:?}");
    }
    assert_eq!(MIN_PREFIX_LEN, 4);
}

#[test]
fn counts_characters_not_bytes_for_the_minimum() {
    // Four bytes, two characters: still too short.
    assert_eq!(normalize("éé"), Err(ResolveError::TooShort));
}

#[test]
fn picks_only_a_single_match() {
    assert_eq!(pick(vec![]), Err(ResolveError::NotFound));
    assert_eq!(pick(vec!["a".into()]), Ok("a".into()));
    assert_eq!(
        pick(vec!["a".into(), "b".into()]),
        Err(ResolveError::Ambiguous {
            candidates: vec!["a".into(), "b".into()]
        })
    );
}

#[test]
fn messages_are_lowercase_phrases_without_a_final_period() {
    let errors = [
        ResolveError::NotFound,
        ResolveError::TooShort,
        ResolveError::Ambiguous {
            candidates: vec!["0198a".into(), "0198b".into()],
        },
        ResolveError::DecisionNotAllowed {
            decision: Decision::AllowAlways,
            allowed: vec![Decision::AllowOnce, Decision::Deny],
        },
    ];
    for error in errors {
        let text = error.to_string();
        let first = text.chars().next().unwrap();
        assert!(first.is_lowercase(), "{text}");
        assert!(!text.ends_with('.'), "{text}");
    }
    let refused = ResolveError::DecisionNotAllowed {
        decision: Decision::AllowAlways,
        allowed: vec![Decision::AllowOnce, Decision::Deny],
    };
    assert_eq!(
        refused.to_string(),
        "decision allow-always is not offered for this approval; allowed: allow-once, deny"
    );
}
