//! The page itself: one HTML file with its stylesheet inlined, and one
//! script, embedded in the binary at build time (no build step, nothing
//! fetched from elsewhere).
//!
//! It decides the content type of each and how the stylesheet reaches the
//! browser: inside the HTML, so the first paint waits for no second request
//! (a linked stylesheet blocks rendering until it arrives, and the deferred
//! script then runs before the first frame). The inline `<style>` is
//! allowed by its SHA-256 in the Content-Security-Policy
//! ([`STYLE_SOURCE`]), never by `'unsafe-inline'`; the HTML holds no
//! inline script. The CSP and the other headers come from `auth::guard`.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The page's markup as written, with a `<link>` to `app.css`.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's behaviour.
const APP_JS: &str = include_str!("assets/app.js");
/// The page's look, light and dark.
const APP_CSS: &str = include_str!("assets/app.css");
/// The stylesheet link in `index.html` that [`PAGE`] replaces.
const STYLESHEET_LINK: &str = r#"<link rel="stylesheet" href="/app.css">"#;

/// The page as served: the stylesheet link replaced by the stylesheet.
/// Invariant: holds exactly one `<style>` element, whose text is `APP_CSS`
/// (the text [`STYLE_SOURCE`] hashes).
static PAGE: LazyLock<String> =
    LazyLock::new(|| INDEX_HTML.replacen(STYLESHEET_LINK, &format!("<style>{APP_CSS}</style>"), 1));

/// The CSP source that allows the inline stylesheet and nothing else:
/// `'sha256-<base64 of the SHA-256 of its text>'`.
pub static STYLE_SOURCE: LazyLock<String> =
    LazyLock::new(|| format!("'sha256-{}'", STANDARD.encode(Sha256::digest(APP_CSS))));

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        PAGE.as_str(),
    )
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_served_page_inlines_the_stylesheet_the_csp_hash_allows() {
        assert!(
            INDEX_HTML.contains(STYLESHEET_LINK),
            "index.html lost its stylesheet link"
        );
        assert!(
            !PAGE.contains("<link rel=\"stylesheet\""),
            "a stylesheet is still linked"
        );
        assert_eq!(PAGE.matches("<style>").count(), 1);
        let inline = PAGE
            .split_once("<style>")
            .and_then(|(_, rest)| rest.split_once("</style>"))
            .map(|(css, _)| css)
            .expect("an inline stylesheet");
        assert_eq!(inline, APP_CSS);
        // The same hash a browser computes over the element's text.
        let expected = format!(
            "'sha256-{}'",
            STANDARD.encode(Sha256::digest(inline.as_bytes()))
        );
        assert_eq!(*STYLE_SOURCE, expected);
        assert!(!PAGE.contains("<script>"), "inline script in the page");
    }
}
