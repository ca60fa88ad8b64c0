//! Who may talk to the companion page, checked on every request.
//!
//! It decides, in this order: whether the `Host` header names this bridge
//! the way a browser on this machine (or at the end of an SSH tunnel) would
//! — `localhost` or an IP literal, never a DNS name, which is what a DNS
//! rebinding attack needs; whether the request carries the session cookie
//! that `/login?secret=…` hands out (the random per-start secret, compared
//! in constant time); and, for every state-changing request and the event
//! stream, whether it comes from this page (`Origin` equal to
//! `http://<Host>`, or `Sec-Fetch-Site: same-origin` on a stream without
//! `Origin`). It refuses everything else with 401 or 403 and a sentence
//! that says what to do. Every response carries a strict
//! Content-Security-Policy (no inline script, `default-src 'self'`, the one
//! inline stylesheet allowed by its hash), and no response is framed or
//! cached, except the page's content-hashed script, which holds no secret
//! (marked `assets::Immutable`). The approvals socket token is never part
//! of this: the page never sees it (DESIGN.md invariant 9).

use std::fmt::Write as _;
use std::sync::{Arc, LazyLock};

use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use subtle::ConstantTimeEq;

use super::assets::Immutable;

/// The path that trades the printed secret for a session cookie.
pub const LOGIN_PATH: &str = "/login";

/// The page's Content-Security-Policy: only our own script and requests,
/// only the page's own inline stylesheet (by its hash); no inline script,
/// no frames, no plugins.
pub static CONTENT_SECURITY_POLICY: LazyLock<HeaderValue> = LazyLock::new(|| {
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src {}; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        *super::assets::STYLE_SOURCE
    );
    // Invariant: the policy is ASCII (fixed text and base64), a valid header value.
    HeaderValue::from_str(&policy)
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"))
});

/// The random secret of one `serve --web` run, and the cookie that carries it.
pub struct Secret {
    /// 32 random bytes as lowercase hex.
    value: String,
    /// `ea_session_<port>`, so two bridges on one machine keep their own.
    cookie_name: String,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secret")
            .field("cookie_name", &self.cookie_name)
            .finish_non_exhaustive()
    }
}

impl Secret {
    /// A fresh secret from the operating system's random source.
    pub fn generate(port: u16) -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        let mut value = String::with_capacity(64);
        for byte in bytes {
            // Writing to a String cannot fail.
            let _ = write!(value, "{byte:02x}");
        }
        Ok(Self::with_value(value, port))
    }

    /// A secret with a known value (for tests of the router).
    pub fn with_value(value: impl Into<String>, port: u16) -> Self {
        Secret {
            value: value.into(),
            cookie_name: format!("ea_session_{port}"),
        }
    }

    /// The secret itself, for the login URL printed once at start.
    pub fn expose(&self) -> &str {
        &self.value
    }

    /// Whether `candidate` is the secret, in constant time.
    fn matches(&self, candidate: &str) -> bool {
        candidate.len() == self.value.len()
            && bool::from(candidate.as_bytes().ct_eq(self.value.as_bytes()))
    }

    /// Whether the request's cookies hold this session.
    fn in_cookies(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|line| line.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == self.cookie_name && self.matches(value))
    }
}

/// Why a request was refused; each variant is one answer the user can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No `Host`, or one that is not `localhost` or an IP address.
    ForeignHost(String),
    /// No valid session cookie.
    NoSession,
    /// A state change or event stream from another origin.
    ForeignOrigin(String),
    /// `/login` with a wrong or missing secret.
    WrongSecret,
}

impl Refusal {
    fn status(&self) -> StatusCode {
        match self {
            Refusal::ForeignHost(_) | Refusal::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            Refusal::NoSession | Refusal::WrongSecret => StatusCode::UNAUTHORIZED,
        }
    }

    fn message(&self) -> String {
        let escape = approvals_ipc::policy::unicode::escape_for_display;
        match self {
            Refusal::ForeignHost(host) => format!(
                "refused: Host {:?} is not localhost or an IP address (protection against DNS rebinding)\nhint: open the page as http://127.0.0.1:PORT/ or http://localhost:PORT/",
                escape(host)
            ),
            Refusal::NoSession => "unauthorized: this page needs the secret printed by `ui-bridge serve --web`\nhint: open the http://…/login?secret=… URL it printed at start; restart it to get a new one".to_owned(),
            Refusal::ForeignOrigin(origin) => format!(
                "refused: request from origin {:?}, not from this page (cross-site requests cannot answer approvals or edit the policy)",
                escape(origin)
            ),
            Refusal::WrongSecret => "unauthorized: wrong or missing secret\nhint: copy the whole URL `ui-bridge serve --web` printed; the secret changes at every start".to_owned(),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        tracing::warn!(refusal = ?self, "web request refused");
        let mut response = (self.status(), self.message() + "\n").into_response();
        secure_headers(response.headers_mut());
        response
    }
}

/// Middleware: host check, session check, origin check, security headers.
pub async fn guard(State(secret): State<Arc<Secret>>, request: Request, next: Next) -> Response {
    match check(
        &secret,
        request.method(),
        request.uri().path(),
        request.headers(),
    ) {
        Ok(()) => {
            let mut response = next.run(request).await;
            let immutable = response.extensions().get::<Immutable>().is_some();
            secure_headers(response.headers_mut());
            if immutable {
                response.headers_mut().insert(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(CACHE_FOREVER),
                );
            }
            response
        }
        Err(refusal) => refusal.into_response(),
    }
}

/// `Cache-Control` of a response marked `assets::Immutable`: this browser
/// alone (`private`: it was served to a session, so no shared cache keeps
/// it) may keep it for a year without asking again.
pub const CACHE_FOREVER: &str = "private, max-age=31536000, immutable";

/// The checks of [`guard`], in order, without the network.
pub fn check(
    secret: &Secret,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> Result<(), Refusal> {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if !is_local_host(host) {
        return Err(Refusal::ForeignHost(host.to_owned()));
    }
    if path == LOGIN_PATH {
        return Ok(());
    }
    if !secret.in_cookies(headers) {
        return Err(Refusal::NoSession);
    }
    let changes_state = !matches!(*method, Method::GET | Method::HEAD);
    if changes_state || path == super::EVENTS_PATH {
        same_origin(host, headers, changes_state)?;
    }
    Ok(())
}

/// Whether `host` is the literal name `localhost` (no subdomains) or an IP
/// literal, with any port or none (an SSH tunnel may forward from another
/// port). A DNS name, which a rebinding attack needs, is refused.
fn is_local_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        // `[::1]:8080`
        Some(rest) => match rest.split_once(']') {
            Some((ip, port)) if port.is_empty() || valid_port(port) => {
                return ip.parse::<std::net::Ipv6Addr>().is_ok();
            }
            _ => return false,
        },
        None => match host.rsplit_once(':') {
            Some((name, port)) if valid_port(&format!(":{port}")) => name,
            Some(_) => return false,
            None => host,
        },
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::Ipv4Addr>().is_ok()
}

/// `:1234`.
fn valid_port(text: &str) -> bool {
    text.strip_prefix(':')
        .is_some_and(|digits| digits.parse::<u16>().is_ok())
}

/// Refuses a request whose `Origin` is not `http://<host>`. A state change
/// must carry `Origin` (browsers always send it on such requests); a read
/// without one is accepted only if `Sec-Fetch-Site`, when present, says it
/// comes from this page.
fn same_origin(host: &str, headers: &HeaderMap, origin_required: bool) -> Result<(), Refusal> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    match text(header::ORIGIN.as_str()) {
        Some(origin) if origin == format!("http://{host}") => Ok(()),
        Some(origin) => Err(Refusal::ForeignOrigin(origin.to_owned())),
        None if origin_required => Err(Refusal::ForeignOrigin("(none)".to_owned())),
        None => match text("sec-fetch-site") {
            None | Some("same-origin" | "none") => Ok(()),
            Some(site) => Err(Refusal::ForeignOrigin(format!("(sec-fetch-site {site})"))),
        },
    }
}

/// `/login?secret=…`: sets the session cookie and sends the browser to a
/// clean URL, so the secret leaves the address bar.
pub async fn login(State(secret): State<Arc<Secret>>, Query(query): Query<LoginQuery>) -> Response {
    if !query.secret.as_deref().is_some_and(|s| secret.matches(s)) {
        return Refusal::WrongSecret.into_response();
    }
    let cookie = format!(
        "{}={}; HttpOnly; SameSite=Strict; Path=/",
        secret.cookie_name, secret.value
    );
    let mut response = Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header(header::LOCATION, "/")
        .body(Body::empty())
        .unwrap_or_default();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

/// The query of `/login`.
#[derive(Debug, Deserialize)]
pub struct LoginQuery {
    secret: Option<String>,
}

/// Headers every response gets: CSP, no framing, no sniffing, no referrer
/// (the login URL carries the secret), no caching ([`guard`] then lets the
/// one [`Immutable`] response be cached), and an opener policy that keeps
/// the page out of other sites' browsing context groups, though it costs
/// each new tab's first paint a renderer process (BENCHMARKS.md, issue 14,
/// run 13; docs/security.md, "Opener policy kept").
fn secure_headers(headers: &mut HeaderMap) {
    let set = |headers: &mut HeaderMap, name: header::HeaderName, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY.clone(),
    );
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "no-referrer");
    set(headers, header::CACHE_CONTROL, "no-store");
    set(
        headers,
        header::HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    set(
        headers,
        header::HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).expect("header value"));
        }
        map
    }

    #[test]
    fn local_hosts_are_localhost_and_ip_literals_only() {
        for good in [
            "127.0.0.1:8080",
            "localhost:1",
            "LOCALHOST:65535",
            "[::1]:9",
            "192.168.1.5:80",
            "127.0.0.1",
        ] {
            assert!(is_local_host(good), "{good}");
        }
        for bad in [
            "",
            "evil.example:8080",
            "127.0.0.1.nip.io:8080",
            "localhost.evil.example:1",
            "127.0.0.1:99999",
            "[::1]x:1",
            "[evil]:1",
        ] {
            assert!(!is_local_host(bad), "{bad}");
        }
    }

    #[test]
    fn state_changes_need_the_session_and_this_origin() {
        let secret = Secret::with_value("s3cret", 8080);
        let cookie = "ea_session_8080=s3cret";
        let post = |pairs: &[(&'static str, &str)]| {
            check(&secret, &Method::POST, "/api/x", &headers(pairs))
        };
        assert_eq!(
            post(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8080")
            ]),
            Err(Refusal::NoSession)
        );
        assert_eq!(
            post(&[
                ("host", "127.0.0.1:8080"),
                ("cookie", "ea_session_8080=nope")
            ]),
            Err(Refusal::NoSession)
        );
        assert_eq!(
            post(&[("host", "127.0.0.1:8080"), ("cookie", cookie)]),
            Err(Refusal::ForeignOrigin("(none)".to_owned()))
        );
        assert_eq!(
            post(&[
                ("host", "127.0.0.1:8080"),
                ("cookie", cookie),
                ("origin", "http://evil.example")
            ]),
            Err(Refusal::ForeignOrigin("http://evil.example".to_owned()))
        );
        assert_eq!(
            post(&[
                ("host", "evil.example:8080"),
                ("cookie", cookie),
                ("origin", "http://evil.example:8080")
            ]),
            Err(Refusal::ForeignHost("evil.example:8080".to_owned()))
        );
        assert_eq!(
            post(&[
                ("host", "127.0.0.1:8080"),
                ("cookie", "a=b; ea_session_8080=s3cret"),
                ("origin", "http://127.0.0.1:8080")
            ]),
            Ok(())
        );
    }

    #[test]
    fn the_event_stream_refuses_cross_site_readers() {
        let secret = Secret::with_value("s3cret", 1);
        let get = |pairs: &[(&'static str, &str)]| {
            check(
                &secret,
                &Method::GET,
                super::super::EVENTS_PATH,
                &headers(pairs),
            )
        };
        let base = [("host", "localhost:1"), ("cookie", "ea_session_1=s3cret")];
        assert_eq!(get(&base), Ok(()));
        assert_eq!(
            get(&[base[0], base[1], ("sec-fetch-site", "cross-site")]),
            Err(Refusal::ForeignOrigin(
                "(sec-fetch-site cross-site)".to_owned()
            ))
        );
        assert_eq!(
            get(&[base[0], base[1], ("origin", "http://localhost:2")]),
            Err(Refusal::ForeignOrigin("http://localhost:2".to_owned()))
        );
    }

    #[test]
    fn the_secret_is_64_hex_characters_and_differs_each_time() {
        let a = Secret::generate(1).expect("random");
        let b = Secret::generate(1).expect("random");
        assert_eq!(a.expose().len(), 64);
        assert!(a.expose().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.expose(), b.expose());
    }
}
