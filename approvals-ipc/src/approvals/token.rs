//! The socket token: a secret that must never be printed, logged or sent.
//!
//! It decides how a fresh token is made (24 bytes from the OS, base64url
//! without padding: 32 characters, as OpenClaw makes it) and refuses to show
//! itself through `Debug` or `Display`. Upholds DESIGN.md invariant 9: the
//! token never leaves the approvals file, except through the one explicitly
//! named accessor [`Token::expose_secret`].

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

/// Random bytes in a fresh token; 24 bytes give 32 base64url characters.
const TOKEN_BYTES: usize = 24;

/// The shared secret of the socket protocol; prints as `<redacted>`.
///
/// It has no `==`: the only comparison is [`Token::ct_eq`], which takes the
/// same time wherever two secrets of one length differ.
///
/// ```compile_fail,E0369
/// use approvals_ipc::approvals::Token;
/// let (token_a, token_b) = (Token::new("a"), Token::new("b"));
/// let _ = token_a == token_b; // `Token` has no `PartialEq`; use `ct_eq`
/// ```
///
/// ```
/// use approvals_ipc::approvals::Token;
/// let (token_a, token_b) = (Token::new("a"), Token::new("b"));
/// assert!(!token_a.ct_eq(&token_b));
/// assert!(token_a.ct_eq(&Token::new("a")));
/// ```
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// Wraps an existing secret, e.g. one read from the file or a test vector.
    pub fn new(secret: impl Into<String>) -> Self {
        Self(secret.into())
    }

    /// A fresh token from the operating system's random source, so a missing
    /// token can be created without any caller choosing it.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Self(URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// The secret itself, for signing and verifying only; the long name makes
    /// every use easy to find in review.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// Compares two secrets in constant time, the only equality `Token` has,
    /// so no check can leak how much of a guessed token was right.
    ///
    /// Only the length may leak (the comparison stops early when lengths
    /// differ); the token's length is public (32 characters when generated).
    pub fn ct_eq(&self, other: &Token) -> bool {
        self.0.as_bytes().ct_eq(other.0.as_bytes()).into()
    }

    /// Whether the secret is empty after trimming, so the loader can unset it.
    pub(crate) fn is_blank(&self) -> bool {
        self.0.trim().is_empty()
    }

    /// The same secret without surrounding whitespace (OpenClaw trims it).
    pub(crate) fn trimmed(&self) -> Self {
        Self(self.0.trim().to_owned())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_token_is_32_base64url_characters_without_padding() {
        let token = Token::generate().unwrap();
        let secret = token.expose_secret();
        assert_eq!(secret.len(), 32);
        assert!(
            secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "not base64url: {secret}"
        );
        assert_eq!(URL_SAFE_NO_PAD.decode(secret).unwrap().len(), TOKEN_BYTES);
    }

    #[test]
    fn generated_tokens_differ() {
        assert!(
            !Token::generate()
                .unwrap()
                .ct_eq(&Token::generate().unwrap())
        );
    }

    #[test]
    fn debug_and_display_never_show_the_secret() {
        let token = Token::new("hunter2-secret");
        let shown = [
            format!("{token:?}"),
            format!("{token:#?}"),
            format!("{token}"),
            format!("{:?}", Some(&token)),
            format!("{:?}", std::slice::from_ref(&token)),
        ];
        assert_eq!(
            shown,
            [
                "<redacted>",
                "<redacted>",
                "<redacted>",
                "Some(<redacted>)",
                "[<redacted>]"
            ]
        );
        for text in &shown {
            assert!(!text.contains("hunter2"), "{text}");
        }
    }

    #[test]
    fn serializes_as_the_plain_string_for_the_file() {
        let token = Token::new("abc");
        assert_eq!(serde_json::to_string(&token).unwrap(), "\"abc\"");
        let back: Token = serde_json::from_str("\"abc\"").unwrap();
        assert!(back.ct_eq(&token));
    }

    #[test]
    fn ct_eq_accepts_only_the_same_bytes() {
        let token = Token::new("abc");
        assert!(token.ct_eq(&Token::new("abc")));
        assert!(Token::new("").ct_eq(&Token::new("")));
        // Unequal at the first, middle and last byte; shorter, longer and
        // empty; case; and a prefix either way round.
        for other in ["xbc", "axc", "abd", "ab", "abcd", "", "ABC", "abc "] {
            assert!(!token.ct_eq(&Token::new(other)), "{other:?}");
            assert!(!Token::new(other).ct_eq(&token), "{other:?} (reversed)");
        }
    }
}
