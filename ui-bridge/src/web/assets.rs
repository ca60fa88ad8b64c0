//! The page itself: one HTML file, one stylesheet, one script, embedded in
//! the binary at build time (no build step, nothing fetched from elsewhere).
//!
//! It decides only the content type of each; the CSP and the other headers
//! come from `auth::guard`. The HTML holds no inline script or style, so the
//! strict Content-Security-Policy applies without exceptions.

use axum::http::header;
use axum::response::IntoResponse;

/// The page's markup.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's behaviour.
const APP_JS: &str = include_str!("assets/app.js");
/// The page's look, light and dark.
const APP_CSS: &str = include_str!("assets/app.css");

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        INDEX_HTML,
    )
}

/// `GET /app.js`.
pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
}

/// `GET /app.css`.
pub async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS)
}
