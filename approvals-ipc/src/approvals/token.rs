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

    /// Whether the secret is empty after trimming, so the loader can unset it.
    pub(crate) fn is_blank(&self) -> bool {
        self.0.trim().is_empty()
    }

    /// The same secret without surrounding whitespace (OpenClaw trims it).
    pub(crate) fn trimmed(&self) -> Self {
        Self(self.0.trim().to_owned())
    }
}

impl PartialEq for Token {
    /// Constant-time comparison, so equality checks cannot leak the secret.
    fn eq(&self, other: &Self) -> bool {
        self.0.as_bytes().ct_eq(other.0.as_bytes()).into()
    }
}

impl Eq for Token {}

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
        assert_ne!(Token::generate().unwrap(), Token::generate().unwrap());
    }

    #[test]
    fn debug_and_display_never_show_the_secret() {
        let token = Token::new("hunter2-secret");
        assert_eq!(format!("{token:?}"), "<redacted>");
        assert_eq!(format!("{token}"), "<redacted>");
        assert_eq!(format!("{:?}", Some(&token)), "Some(<redacted>)");
    }

    #[test]
    fn serializes_as_the_plain_string_for_the_file() {
        let token = Token::new("abc");
        assert_eq!(serde_json::to_string(&token).unwrap(), "\"abc\"");
        let back: Token = serde_json::from_str("\"abc\"").unwrap();
        assert_eq!(back, token);
    }

    #[test]
    fn equality_compares_the_whole_secret() {
        assert_ne!(Token::new("abc"), Token::new("abd"));
        assert_ne!(Token::new("abc"), Token::new("abcd"));
        assert_eq!(Token::new("abc"), Token::new("abc"));
    }
}
