//! A string that must never reach a log line, a `Debug` dump or an error
//! message: the shared gateway token and the device token.

use std::fmt;

/// A credential; `Debug` prints `<redacted>` and there is no `Display`.
///
/// Invariant: the only way to read the value is [`Secret::expose`], so each
/// place that puts it on the wire is easy to find.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a credential.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The credential itself, for the wire and the signature only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::Secret;

    #[test]
    fn debug_output_never_shows_the_secret() {
        let secret = Secret::new("gwtok123");
        let shown = format!("{secret:?} {:?}", Some(&secret));
        assert_eq!(shown, "<redacted> Some(<redacted>)");
    }
}
