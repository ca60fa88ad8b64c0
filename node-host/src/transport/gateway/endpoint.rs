//! Which gateway we talk to and how: the `--gateway` URL parsed once into
//! scheme, host and port, plus the TLS mode. Refuses URLs carrying
//! credentials, schemes other than `ws`/`wss`, a pin on a plain URL, and a
//! plain `ws://` to anything but loopback (unless `insecure`), both when
//! parsing and again on the addresses the name resolves to.

use std::io;
use std::net::{IpAddr, SocketAddr};

use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::http::Uri;

use super::error::GatewayError;

/// How the TLS server is authenticated on a `wss://` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsTrust {
    /// The certificate chains to a system root and names the host.
    SystemRoots,
    /// The server's end-entity certificate has this sha256 (DER); the chain
    /// and name are not checked.
    Pinned([u8; 32]),
}

/// A checked gateway URL.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The URL as given (trimmed); also the key of the saved device token.
    pub url: String,
    /// The host, without IPv6 brackets.
    pub host: String,
    /// The port (default 80 for ws, 443 for wss).
    pub port: u16,
    /// `None` for `ws://`.
    pub tls: Option<TlsTrust>,
    /// Plain `ws://` off loopback was allowed by `--insecure`.
    pub insecure: bool,
}

impl Endpoint {
    /// Parses and checks `url`.
    pub fn parse(url: &str, insecure: bool, tls_pin: Option<&str>) -> Result<Self, GatewayError> {
        let url = url.trim();
        let bad = |problem: &str, hint: &'static str| GatewayError::BadUrl {
            url: url.to_owned(),
            problem: problem.to_owned(),
            hint,
        };
        const FORM: &str = "use ws://127.0.0.1:PORT or wss://HOST:PORT";
        if url.contains('@') {
            return Err(GatewayError::BadUrl {
                url: "<not shown: it carries credentials>".to_owned(),
                problem: "credentials in the URL are not supported".to_owned(),
                hint: "pass the gateway token with --token-file",
            });
        }
        let uri: Uri = url.parse().map_err(|_| bad("not a URL", FORM))?;
        let secure = match uri.scheme_str() {
            Some("ws") => false,
            Some("wss") => true,
            _ => return Err(bad("the scheme must be ws or wss", FORM)),
        };
        let host = uri
            .host()
            .map(|h| h.trim_start_matches('[').trim_end_matches(']').to_owned())
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no host", FORM))?;
        let port = uri.port_u16().unwrap_or(if secure { 443 } else { 80 });
        let tls = match (secure, tls_pin) {
            (true, None) => Some(TlsTrust::SystemRoots),
            (true, Some(pin)) => Some(TlsTrust::Pinned(parse_pin(pin)?)),
            (false, Some(_)) => {
                return Err(bad(
                    "a TLS pin was given for a plain ws:// URL",
                    "use wss:// with --tls-pin, or drop the pin",
                ));
            }
            (false, None) => None,
        };
        if tls.is_none() && !insecure && !is_loopback_name(&host) {
            return Err(GatewayError::PlaintextOffLoopback { host });
        }
        Ok(Self {
            url: url.to_owned(),
            host,
            port,
            tls,
            insecure,
        })
    }

    /// Opens the TCP connection, refusing for a plain `ws://` (without
    /// `insecure`) any resolved address that is not loopback.
    pub async fn connect_tcp(&self) -> io::Result<TcpStream> {
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((self.host.as_str(), self.port))
            .await?
            .collect();
        let plain_loopback_only = self.tls.is_none() && !self.insecure;
        let mut last = io::Error::new(io::ErrorKind::NotFound, "the host resolved to no address");
        for addr in addrs {
            if plain_loopback_only && !is_loopback_ip(addr.ip()) {
                last = io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!(
                        "{} resolved to {addr}, which is not loopback; refusing plain ws://",
                        self.host
                    ),
                );
                continue;
            }
            match TcpStream::connect(addr).await {
                Ok(stream) => {
                    // Frames are small and latency matters more than batching.
                    stream.set_nodelay(true)?;
                    return Ok(stream);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }
}

/// True for `localhost` and loopback IP literals (127.0.0.0/8, ::1, and
/// IPv4-mapped loopback).
pub fn is_loopback_name(host: &str) -> bool {
    let lower = host.to_ascii_lowercase();
    if lower == "localhost" || lower == "localhost." {
        return true;
    }
    host.parse::<IpAddr>().is_ok_and(is_loopback_ip)
}

fn is_loopback_ip(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// Parses a sha256 fingerprint: 64 hex digits, colons and case ignored.
pub fn parse_pin(pin: &str) -> Result<[u8; 32], GatewayError> {
    let digits: String = pin.trim().chars().filter(|c| *c != ':').collect();
    let mut out = [0u8; 32];
    hex::decode_to_slice(&digits, &mut out).map_err(|_| GatewayError::BadPin {
        pin: pin.to_owned(),
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ws_is_accepted_only_to_loopback() {
        for url in [
            "ws://127.0.0.1:28789",
            "ws://127.8.9.10:1/",
            "ws://[::1]:28789",
            "ws://localhost:1",
            "ws://LOCALHOST:1",
        ] {
            assert!(Endpoint::parse(url, false, None).is_ok(), "{url}");
        }
        for url in [
            "ws://10.0.0.1:28789",
            "ws://example.com",
            "ws://[::2]:1",
            "ws://localhost.example.com:1",
            "ws://0.0.0.0:1",
        ] {
            let err = Endpoint::parse(url, false, None).unwrap_err();
            assert!(
                matches!(err, GatewayError::PlaintextOffLoopback { .. }),
                "{url}: {err}"
            );
            assert!(
                Endpoint::parse(url, true, None).is_ok(),
                "{url} with insecure"
            );
        }
    }

    #[test]
    fn refuses_other_schemes_credentials_and_a_pin_on_plain_ws() {
        for url in [
            "http://127.0.0.1:1",
            "127.0.0.1:1",
            "ws://",
            "wss://user:pw@host/",
        ] {
            assert!(
                matches!(
                    Endpoint::parse(url, false, None),
                    Err(GatewayError::BadUrl { .. })
                ),
                "{url}"
            );
        }
        let shown = Endpoint::parse("wss://u:secretpw@host/", false, None)
            .unwrap_err()
            .to_string();
        assert!(!shown.contains("secretpw"), "{shown}");
        assert!(Endpoint::parse("ws://127.0.0.1:1", false, Some(&"ab".repeat(32))).is_err());
    }

    #[test]
    fn wss_defaults_to_system_roots_or_takes_a_pin() {
        let e = Endpoint::parse("wss://gw.example.com", false, None).unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.tls),
            ("gw.example.com", 443, Some(TlsTrust::SystemRoots))
        );
        let pin = "AB:".repeat(31) + "AB";
        let e = Endpoint::parse("wss://gw.example.com:8443/", false, Some(&pin)).unwrap();
        assert_eq!(e.tls, Some(TlsTrust::Pinned([0xab; 32])));
        assert!(matches!(
            Endpoint::parse("wss://h", false, Some("abc")),
            Err(GatewayError::BadPin { .. })
        ));
    }

    #[tokio::test]
    async fn a_name_resolving_off_loopback_is_refused_on_plain_ws() {
        let mut endpoint = Endpoint::parse("ws://127.0.0.1:9", false, None).unwrap();
        // As if `localhost` had been pointed elsewhere after parsing.
        endpoint.host = "192.0.2.1".to_owned();
        let err = endpoint.connect_tcp().await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{err}");
    }
}
