//! The node's client of the OpenClaw gateway (protocol v4, v3 accepted):
//! it keeps one signed, authenticated WebSocket session up, reconnecting
//! forever with capped, jittered backoff, hands decoded invokes to the node
//! through a channel and sends results back through an [`Outbox`].
//!
//! It refuses a plain `ws://` off loopback unless told `insecure`, trusts
//! TLS only through the system roots or an exact certificate pin, keeps the
//! device key and tokens 0600 in a 0700 directory, and never prints a
//! token (see [`secret::Secret`]). It decides nothing about commands.

mod backoff;
mod connection;
mod endpoint;
mod error;
mod frames;
mod handshake;
mod identity;
mod inbound;
mod outbox;
mod private_file;
mod secret;
mod tls;
mod token_store;

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

pub use self::endpoint::is_loopback_name;
pub use self::error::GatewayError;
pub use self::identity::{DeviceIdentity, IDENTITY_FILE};
pub use self::outbox::Outbox;
pub use self::token_store::TOKEN_FILE;

use self::backoff::Backoff;
use self::connection::{Attempt, Settings};
use self::endpoint::Endpoint;
use self::handshake::Refusal;
use self::secret::Secret;
use self::token_store::TokenStore;

/// Invokes waiting for the node before new ones are refused `UNAVAILABLE`.
pub const INBOUND_QUEUE: usize = 256;
/// A session shorter than this counts as one failed attempt when
/// reconnecting (any established session resets the backoff first).
pub const STABLE_AFTER: Duration = Duration::from_secs(10);
/// The longest `retryAfterMs` we honour as given.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// How to reach the gateway and what to declare to it.
#[derive(Debug, Clone)]
pub struct GatewayOptions {
    /// `ws://…` (loopback only unless `insecure`) or `wss://…`.
    pub url: String,
    /// Shared gateway token (from --token-file).
    pub token: Option<String>,
    /// `client.displayName`.
    pub display_name: String,
    /// Holds `device.json` and `device-tokens.json`; created 0700.
    pub state_dir: PathBuf,
    /// Allows plain `ws://` to a non-loopback host: weakens transport security.
    pub insecure: bool,
    /// Hex sha256 of the server certificate (DER); replaces chain validation.
    pub tls_pin: Option<String>,
    /// Declared capabilities, e.g. `["system"]`.
    pub caps: Vec<String>,
    /// Declared commands.
    pub commands: Vec<String>,
}

/// One node.invoke.request, params decoded from `paramsJSON` (or `params`).
#[derive(Debug, Clone, PartialEq)]
pub struct Invoke {
    /// The invoke id, echoed in the result.
    pub id: String,
    /// The command, e.g. `system.run`.
    pub command: String,
    /// The decoded params.
    pub params: serde_json::Value,
    /// The gateway's deadline for the result.
    pub timeout_ms: Option<u64>,
    /// The caller's idempotency key.
    pub idempotency_key: Option<String>,
    /// The agent session, when the gateway names one.
    pub session_key: Option<String>,
}

/// What the gateway asks of the node.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    /// Run a command and answer through [`Outbox::result`].
    Invoke(Invoke),
    /// Stop the invoke with this id.
    Cancel {
        /// The invoke to stop.
        invoke_id: String,
    },
}

/// An error result of an invoke: OpenClaw's code (`UNAVAILABLE`, `INVALID_REQUEST`, …) and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// OpenClaw's error code.
    pub code: String,
    /// The message shown to the caller.
    pub message: String,
}

/// The gateway client; [`Gateway::run`] drives it.
pub struct Gateway {
    settings: Settings,
}

impl Gateway {
    /// Loads or creates the identity; fails on a bad URL / unreadable identity.
    pub fn new(
        options: GatewayOptions,
    ) -> Result<(Gateway, Outbox, mpsc::Receiver<Inbound>), GatewayError> {
        let endpoint = Endpoint::parse(&options.url, options.insecure, options.tls_pin.as_deref())?;
        let tls = endpoint.tls.as_ref().map(tls::client_config).transpose()?;
        let identity = DeviceIdentity::load_or_create(&options.state_dir)?;
        let tokens = TokenStore::new(&options.state_dir);
        // Fail now, not at the first connect, on an unreadable token file.
        tokens.load(&endpoint.url, identity.device_id())?;
        let (inbound, receiver) = mpsc::channel(INBOUND_QUEUE);
        let (link, link_rx) = watch::channel(None);
        let outbox = Outbox::new(identity.device_id(), link_rx);
        let settings = Settings {
            endpoint,
            tls,
            identity,
            tokens,
            shared_token: options
                .token
                .filter(|t| !t.trim().is_empty())
                .map(|t| Secret::new(t.trim())),
            display_name: options.display_name,
            instance_id: uuid::Uuid::new_v4().to_string(),
            caps: options.caps,
            commands: options.commands,
            inbound,
            link,
        };
        Ok((Gateway { settings }, outbox, receiver))
    }

    /// The device id the gateway knows this node by.
    pub fn node_id(&self) -> &str {
        self.settings.identity.device_id()
    }

    /// Whether the node can authenticate without a shared token: a device
    /// token for this gateway is saved, or a shared token was given. When
    /// neither holds, returns the file that would hold a device token, so
    /// the start-up warning can name it.
    pub fn missing_credentials(&self) -> Option<&std::path::Path> {
        let settings = &self.settings;
        let saved = settings
            .tokens
            .load(&settings.endpoint.url, settings.identity.device_id())
            .ok()
            .flatten();
        if settings.shared_token.is_some() || saved.is_some() {
            None
        } else {
            Some(settings.tokens.path())
        }
    }

    /// Connects and reconnects until `shutdown` fires.
    pub async fn run(self, shutdown: CancellationToken) -> Result<(), GatewayError> {
        let settings = &self.settings;
        let mut backoff = Backoff::new(backoff::BASE, backoff::CAP);
        loop {
            let attempt = connection::run_once(settings, &shutdown).await;
            let delay = match attempt {
                Attempt::Shutdown => return Ok(()),
                Attempt::Failed(reason) => {
                    let delay = backoff.next_delay();
                    tracing::warn!(url = %settings.endpoint.url, "gateway connection failed: {reason}; retrying in {delay:?}");
                    delay
                }
                Attempt::Ended { lasted, reason } => {
                    // The gateway took us, so failures before do not count;
                    // a session cut short counts as one failure itself.
                    backoff.reset();
                    if lasted < STABLE_AFTER {
                        backoff.next_delay();
                    }
                    let delay = backoff.next_delay();
                    tracing::warn!(url = %settings.endpoint.url, "gateway connection lost after {lasted:?}: {reason}; reconnecting in {delay:?}");
                    delay
                }
                Attempt::Refused {
                    refusal,
                    error,
                    used_device_token,
                } => refused(settings, &mut backoff, &refusal, &error, used_device_token),
            };
            tokio::select! {
                () = shutdown.cancelled() => return Ok(()),
                () = tokio::time::sleep(delay) => {}
            }
        }
    }
}

/// Logs what the operator must do about a refused `connect` and returns
/// the wait before the next attempt.
fn refused(
    settings: &Settings,
    backoff: &mut Backoff,
    refusal: &Refusal,
    error: &frames::ErrorShape,
    used_device_token: bool,
) -> Duration {
    let device_id = settings.identity.device_id();
    let gateway_says = format!(
        "{} {}: {}",
        error.code,
        error.detail_code().unwrap_or("-"),
        error.message
    );
    match refusal {
        Refusal::Unavailable {
            retry_after: Some(wait),
        } => {
            let wait = (*wait).min(MAX_RETRY_AFTER);
            tracing::info!(
                "gateway unavailable ({gateway_says}); retrying in {wait:?} as it asked"
            );
            wait
        }
        Refusal::AuthRejected { detail } if used_device_token => {
            if let Err(e) = settings.tokens.forget(&settings.endpoint.url) {
                tracing::error!(error = %e, "cannot forget the refused device token");
            }
            let delay = backoff.next_delay();
            if settings.shared_token.is_some() {
                tracing::warn!(
                    "the gateway refused the saved device token ({detail}); retrying with the shared token in {delay:?}"
                );
            } else {
                tracing::error!(
                    "the gateway refused the saved device token ({detail}) and no shared token is configured\nhint: pass the gateway token with --token-file; retrying in {delay:?}"
                );
            }
            delay
        }
        Refusal::AuthRejected { detail } if detail.starts_with("DEVICE_AUTH_") => {
            let delay = backoff.next_delay();
            tracing::error!(
                "the gateway refused this device's signature ({gateway_says})\nhint: if device.json was replaced, remove the old device on the gateway with `openclaw devices list` / `openclaw devices remove <deviceId>`; device id {device_id}; retrying in {delay:?}"
            );
            delay
        }
        Refusal::AuthRejected { .. } => {
            let delay = backoff.next_delay();
            tracing::error!(
                "the gateway refused our credentials ({gateway_says})\nhint: put the gateway's token (gateway.auth.token, or OPENCLAW_GATEWAY_TOKEN on the gateway host) in the file given to --token-file; retrying in {delay:?}"
            );
            delay
        }
        Refusal::PairingRequired { request_id } => {
            let delay = backoff.next_delay();
            let approve = request_id.as_deref().map_or_else(
                || "openclaw devices approve <requestId>".to_owned(),
                |id| format!("openclaw devices approve {id}"),
            );
            tracing::error!(
                "the gateway has not approved this device yet (device id {device_id})\nhint: on the gateway host run `openclaw devices list`, then `{approve}`; retrying in {delay:?}"
            );
            delay
        }
        Refusal::Unavailable { retry_after: None } | Refusal::Other => {
            let delay = backoff.next_delay();
            tracing::error!(
                "the gateway refused the connection ({gateway_says}); retrying in {delay:?}"
            );
            delay
        }
    }
}

/// Checks that a gateway answers a WebSocket handshake at `url` (TCP, TLS
/// when `wss://`, then the HTTP upgrade) and closes again, for `node-host
/// doctor`; the error says which step failed, in words a user can act on.
pub async fn probe(url: &str, insecure: bool, tls_pin: Option<&str>) -> Result<(), String> {
    let endpoint =
        endpoint::Endpoint::parse(url, insecure, tls_pin).map_err(|error| error.to_string())?;
    let tls = endpoint
        .tls
        .as_ref()
        .map(tls::client_config)
        .transpose()
        .map_err(|error| error.to_string())?;
    let tcp = endpoint
        .connect_tcp()
        .await
        .map_err(|error| format!("cannot reach {}:{}: {error}", endpoint.host, endpoint.port))?;
    let connector = match tls {
        Some(config) => tokio_tungstenite::Connector::Rustls(config),
        None => tokio_tungstenite::Connector::Plain,
    };
    let (mut socket, _response) = tokio_tungstenite::client_async_tls_with_config(
        endpoint.url.as_str(),
        tcp,
        None,
        Some(connector),
    )
    .await
    .map_err(|error| format!("WebSocket handshake with {} failed: {error}", endpoint.url))?;
    // The handshake answered; how the close goes does not matter.
    let _ = socket.close(None).await;
    Ok(())
}
