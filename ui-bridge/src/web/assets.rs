//! The page itself: one HTML file with its stylesheet inlined, and one
//! script under a content-hashed URL, embedded in the binary at build time
//! (no build step, nothing fetched from elsewhere).
//!
//! It decides the content type of each, how the stylesheet reaches the
//! browser, and which response a browser may keep. The stylesheet is inside
//! the HTML, so the first paint waits for no second request; the inline
//! `<style>` is allowed by its SHA-256 in the Content-Security-Policy
//! ([`STYLE_SOURCE`]), never by `'unsafe-inline'`, and the HTML holds no
//! inline script. The script is served at `/app.<hash>.js` ([`SCRIPT_PATH`],
//! the first 16 hex digits of its SHA-256) and marked [`Immutable`], so a
//! browser runs it from its cache in every later tab instead of fetching it
//! again: new bytes get a new URL, and any other `/app.*.js` is a 404. The
//! script holds no secret and no state (the same bytes are in every copy of
//! this binary); the HTML and every API response stay `no-store`
//! (`auth::guard`), and the `<script>` carries the script's SHA-256 as its
//! `integrity`, so a browser refuses a cached copy that is not these bytes.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The page's markup as written, with a `<link>` to `app.css` and a
/// `<script>` of `/app.js`.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's behaviour.
const APP_JS: &str = include_str!("assets/app.js");
/// The page's look, light and dark.
const APP_CSS: &str = include_str!("assets/app.css");
/// The stylesheet link in `index.html` that [`PAGE`] replaces.
const STYLESHEET_LINK: &str = r#"<link rel="stylesheet" href="/app.css">"#;
/// The script element in `index.html` that [`PAGE`] points at [`SCRIPT_PATH`].
const SCRIPT_TAG: &str = r#"<script src="/app.js" defer></script>"#;

/// The SHA-256 of the script, computed once.
static SCRIPT_DIGEST: LazyLock<[u8; 32]> = LazyLock::new(|| Sha256::digest(APP_JS).into());

/// Where the script is served: `/app.<first 16 hex digits of its SHA-256>.js`.
/// A new script is a new URL, so a browser never runs a stale cached copy.
pub static SCRIPT_PATH: LazyLock<String> =
    LazyLock::new(|| format!("/app.{}.js", hex::encode(&SCRIPT_DIGEST[..8])));

/// The page as served: the stylesheet link replaced by the stylesheet, and
/// the script element pointed at [`SCRIPT_PATH`] with its `integrity`.
/// Invariant: holds exactly one `<style>` element, whose text is `APP_CSS`
/// (the text [`STYLE_SOURCE`] hashes), and one `<script>`, with a `src`.
static PAGE: LazyLock<String> = LazyLock::new(|| {
    let script = format!(
        r#"<script src="{}" integrity="sha256-{}" defer></script>"#,
        *SCRIPT_PATH,
        STANDARD.encode(*SCRIPT_DIGEST)
    );
    INDEX_HTML
        .replacen(STYLESHEET_LINK, &format!("<style>{APP_CSS}</style>"), 1)
        .replacen(SCRIPT_TAG, &script, 1)
});

/// The CSP source that allows the inline stylesheet and nothing else:
/// `'sha256-<base64 of the SHA-256 of its text>'`.
pub static STYLE_SOURCE: LazyLock<String> =
    LazyLock::new(|| format!("'sha256-{}'", STANDARD.encode(Sha256::digest(APP_CSS))));

/// Marks a response the browser may keep for good: `auth::guard` gives it
/// a year's immutable cache lifetime instead of `no-store`. Only
/// [`script`] sets it: its URL changes whenever its bytes do.
#[derive(Clone, Copy, Debug)]
pub struct Immutable;

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        PAGE.as_str(),
    )
}

/// `GET /app.<hash>.js` ([`SCRIPT_PATH`]).
pub async fn script() -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
        .into_response();
    response.extensions_mut().insert(Immutable);
    response
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

    #[test]
    fn the_served_page_loads_the_script_by_its_hash_and_nothing_else() {
        assert!(
            INDEX_HTML.contains(SCRIPT_TAG),
            "index.html lost its script element"
        );
        assert_eq!(PAGE.matches("<script").count(), 1, "one script element");
        let digest = Sha256::digest(APP_JS.as_bytes());
        let path = format!("/app.{}.js", hex::encode(&digest[..8]));
        assert_eq!(*SCRIPT_PATH, path);
        let tag = format!(
            r#"<script src="{path}" integrity="sha256-{}" defer></script>"#,
            STANDARD.encode(digest)
        );
        assert!(PAGE.contains(&tag), "the page does not load {tag}");
        assert!(!PAGE.contains("\"/app.js\""), "the unhashed URL is left");
    }
}
