//! One connection to the gateway, from TCP connect to close: the WebSocket
//! (and TLS) handshake, `connect.challenge` → `connect` → `hello-ok`, then
//! the session: responses matched to our requests by id, node-bound events
//! decoded and handed on, and the `tick` watchdog (no frame for twice the
//! tick interval closes the socket with 4000). Every wait before hello-ok is
//! bounded by [`HANDSHAKE_TIMEOUT`]; frames over `maxPayload` end the
//! connection. The caller decides when to try again.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;

use super::endpoint::Endpoint;
use super::frames::{self, ErrorShape, Incoming, Response};
use super::handshake::{self, Challenge, ConnectInput, DEFAULT_MAX_PAYLOAD, HelloOk, Refusal};
use super::identity::DeviceIdentity;
use super::inbound::{self, Decoded};
use super::outbox::{Link, Outgoing, new_id, result_params};
use super::secret::Secret;
use super::token_store::TokenStore;
use super::{Inbound, WireError};

/// Bound on each step before hello-ok (TCP, TLS, WebSocket, challenge,
/// connect response).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Close code the gateway's own clients use for a tick timeout.
const TICK_TIMEOUT_CLOSE: u16 = 4000;
/// Frames queued for the writer.
const OUTGOING_QUEUE: usize = 256;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Everything a connection needs, fixed for the life of the client.
pub struct Settings {
    /// Where.
    pub endpoint: Endpoint,
    /// The TLS client for `wss://`.
    pub tls: Option<Arc<rustls::ClientConfig>>,
    /// Who.
    pub identity: DeviceIdentity,
    /// Saved device tokens.
    pub tokens: TokenStore,
    /// The shared gateway token.
    pub shared_token: Option<Secret>,
    /// `client.displayName`.
    pub display_name: String,
    /// `client.instanceId`.
    pub instance_id: String,
    /// Declared capabilities.
    pub caps: Vec<String>,
    /// Declared commands.
    pub commands: Vec<String>,
    /// Where decoded invokes go.
    pub inbound: mpsc::Sender<Inbound>,
    /// Published for the [`super::Outbox`] while a session is up.
    pub link: watch::Sender<Option<Link>>,
}

/// How one attempt ended.
#[derive(Debug)]
pub enum Attempt {
    /// `shutdown` fired.
    Shutdown,
    /// No session: the gateway could not be reached or broke the handshake.
    Failed(String),
    /// The gateway refused `connect`.
    Refused {
        /// What it means for the next attempt.
        refusal: Refusal,
        /// The gateway's error.
        error: ErrorShape,
        /// Whether `auth.token` was our saved device token.
        used_device_token: bool,
    },
    /// A session was up for `lasted`, then ended.
    Ended {
        /// How long it was up.
        lasted: Duration,
        /// Why it ended.
        reason: String,
    },
}

/// Connects once and serves until the connection ends or `shutdown` fires.
pub async fn run_once(settings: &Settings, shutdown: &CancellationToken) -> Attempt {
    tokio::select! {
        () = shutdown.cancelled() => Attempt::Shutdown,
        attempt = connect_and_serve(settings, shutdown) => attempt,
    }
}

async fn connect_and_serve(settings: &Settings, shutdown: &CancellationToken) -> Attempt {
    let (token, used_device_token) = choose_token(settings);
    let mut socket = match timeout(HANDSHAKE_TIMEOUT, open(settings)).await {
        Ok(Ok(socket)) => socket,
        Ok(Err(reason)) => return Attempt::Failed(reason),
        Err(_) => {
            return Attempt::Failed(format!(
                "no WebSocket handshake within {HANDSHAKE_TIMEOUT:?}"
            ));
        }
    };
    let hello = match timeout(
        HANDSHAKE_TIMEOUT,
        handshake(settings, &mut socket, token.as_ref()),
    )
    .await
    {
        Ok(Ok(hello)) => hello,
        Ok(Err(HandshakeEnd::Failed(reason))) => return Attempt::Failed(reason),
        Ok(Err(HandshakeEnd::Refused(refusal, error))) => {
            let code = match refusal {
                Refusal::Unavailable { .. } => CloseCode::Again,
                _ => CloseCode::Policy,
            };
            close(&mut socket, code, "connect failed").await;
            return Attempt::Refused {
                refusal,
                error,
                used_device_token,
            };
        }
        Err(_) => return Attempt::Failed(format!("no hello-ok within {HANDSHAKE_TIMEOUT:?}")),
    };
    tracing::info!(url = %settings.endpoint.url, protocol = hello.protocol, device_id = settings.identity.device_id(), "connected to the gateway");
    if let Some(issued) = &hello.device_token
        && token.as_ref() != Some(issued)
        && let Err(error) = settings.tokens.save(
            &settings.endpoint.url,
            settings.identity.device_id(),
            issued,
        )
    {
        tracing::warn!(%error, "cannot save the device token; the shared token will be used next time");
    }
    let started = Instant::now();
    match serve(settings, socket, &hello, shutdown).await {
        None => Attempt::Shutdown,
        Some(reason) => Attempt::Ended {
            lasted: started.elapsed(),
            reason,
        },
    }
}

/// The saved device token for this gateway, else the shared token.
fn choose_token(settings: &Settings) -> (Option<Secret>, bool) {
    match settings
        .tokens
        .load(&settings.endpoint.url, settings.identity.device_id())
    {
        Ok(Some(token)) => (Some(token), true),
        Ok(None) => (settings.shared_token.clone(), false),
        Err(error) => {
            tracing::warn!(%error, "cannot read the saved device token; using the shared token");
            (settings.shared_token.clone(), false)
        }
    }
}

async fn open(settings: &Settings) -> Result<Socket, String> {
    let tcp = settings.endpoint.connect_tcp().await.map_err(|e| {
        format!(
            "cannot reach {}:{}: {e}",
            settings.endpoint.host, settings.endpoint.port
        )
    })?;
    let connector = match &settings.tls {
        Some(config) => Connector::Rustls(config.clone()),
        None => Connector::Plain,
    };
    let config = WebSocketConfig::default()
        .max_message_size(Some(DEFAULT_MAX_PAYLOAD))
        .max_frame_size(Some(DEFAULT_MAX_PAYLOAD));
    let (socket, _response) = tokio_tungstenite::client_async_tls_with_config(
        settings.endpoint.url.as_str(),
        tcp,
        Some(config),
        Some(connector),
    )
    .await
    .map_err(|e| {
        format!(
            "WebSocket handshake with {} failed: {e}",
            settings.endpoint.url
        )
    })?;
    Ok(socket)
}

enum HandshakeEnd {
    Failed(String),
    Refused(Refusal, ErrorShape),
}

async fn handshake(
    settings: &Settings,
    socket: &mut Socket,
    token: Option<&Secret>,
) -> Result<HelloOk, HandshakeEnd> {
    let challenge = loop {
        match next_frame(socket).await? {
            Incoming::Event(event) if event.event == "connect.challenge" => {
                break serde_json::from_value::<Challenge>(event.payload).map_err(|e| {
                    HandshakeEnd::Failed(format!("malformed connect.challenge: {e}"))
                })?;
            }
            other => {
                tracing::debug!(frame = ?frame_kind(&other), "ignoring a frame before connect.challenge")
            }
        }
    };
    let id = new_id();
    let params = handshake::connect_params(
        &ConnectInput {
            identity: &settings.identity,
            token,
            display_name: &settings.display_name,
            instance_id: &settings.instance_id,
            caps: &settings.caps,
            commands: &settings.commands,
        },
        &challenge,
    );
    socket
        .send(Message::text(frames::request(&id, "connect", params)))
        .await
        .map_err(|e| HandshakeEnd::Failed(format!("cannot send connect: {e}")))?;
    loop {
        match next_frame(socket).await? {
            Incoming::Res(res) if res.id == id => {
                if !res.ok {
                    let error = res.error.unwrap_or_default();
                    return Err(HandshakeEnd::Refused(handshake::classify(&error), error));
                }
                return handshake::parse_hello(&res.payload).map_err(HandshakeEnd::Failed);
            }
            other => {
                tracing::debug!(frame = ?frame_kind(&other), "ignoring a frame before hello-ok")
            }
        }
    }
}

/// The next parsed text frame before hello-ok; skips what is not a frame.
async fn next_frame(socket: &mut Socket) -> Result<Incoming, HandshakeEnd> {
    loop {
        let message = match socket.next().await {
            None => {
                return Err(HandshakeEnd::Failed(
                    "the gateway closed the connection during the handshake".to_owned(),
                ));
            }
            Some(Err(e)) => {
                return Err(HandshakeEnd::Failed(format!(
                    "connection failed during the handshake: {e}"
                )));
            }
            Some(Ok(message)) => message,
        };
        match message {
            Message::Text(text) => match serde_json::from_str(text.as_str()) {
                Ok(frame) => return Ok(frame),
                Err(e) => tracing::debug!(error = %e, "skipping an unparsable frame"),
            },
            Message::Close(frame) => {
                return Err(HandshakeEnd::Failed(format!(
                    "the gateway closed the connection during the handshake ({})",
                    describe_close(frame.as_ref())
                )));
            }
            _ => {}
        }
    }
}

/// Serves one session; `None` when `shutdown` ended it, else why it ended.
async fn serve(
    settings: &Settings,
    mut socket: Socket,
    hello: &HelloOk,
    shutdown: &CancellationToken,
) -> Option<String> {
    let (tx, mut rx) = mpsc::channel::<Outgoing>(OUTGOING_QUEUE);
    settings.link.send_replace(Some(Link {
        tx,
        max_payload: hello.max_payload,
    }));
    let mut session = Session {
        settings,
        pending: HashMap::new(),
        max_payload: hello.max_payload,
    };
    let silence = hello.tick_interval.saturating_mul(2);
    let mut deadline = Instant::now() + silence;
    let end = loop {
        tokio::select! {
            biased;
            () = shutdown.cancelled() => {
                close(&mut socket, CloseCode::Away, "node shutting down").await;
                break None;
            }
            () = sleep_until(deadline) => {
                close(&mut socket, CloseCode::from(TICK_TIMEOUT_CLOSE), "tick timeout").await;
                break Some(format!("no frame from the gateway for {silence:?} (tick timeout)"));
            }
            message = socket.next() => {
                deadline = Instant::now() + silence;
                match message {
                    None => break Some("the gateway closed the connection".to_owned()),
                    Some(Err(e)) => break Some(format!("connection failed: {e}")),
                    Some(Ok(Message::Close(frame))) => break Some(format!("the gateway closed the connection ({})", describe_close(frame.as_ref()))),
                    Some(Ok(Message::Text(text))) => {
                        if text.len() > session.max_payload {
                            close(&mut socket, CloseCode::Size, "frame exceeds maxPayload").await;
                            break Some(format!("the gateway sent a frame of {} bytes, over maxPayload", text.len()));
                        }
                        let mut failed = None;
                        for frame in session.handle(text.as_str()) {
                            if let Err(e) = socket.send(Message::text(frame)).await {
                                failed = Some(e);
                                break;
                            }
                        }
                        if let Some(e) = failed {
                            break Some(format!("cannot send to the gateway: {e}"));
                        }
                    }
                    Some(Ok(_)) => {}
                }
            }
            Some(out) = rx.recv() => {
                if let Some(reply) = out.reply {
                    session.pending.retain(|_, waiting: &mut oneshot::Sender<Response>| !waiting.is_closed());
                    session.pending.insert(out.id, reply);
                }
                if let Err(e) = socket.send(Message::text(out.frame)).await {
                    break Some(format!("cannot send to the gateway: {e}"));
                }
            }
        }
    };
    settings.link.send_replace(None);
    end
}

/// The state of one session besides the socket.
struct Session<'a> {
    settings: &'a Settings,
    pending: HashMap<String, oneshot::Sender<Response>>,
    max_payload: usize,
}

impl Session<'_> {
    /// Handles one text frame; returns frames to send back.
    fn handle(&mut self, text: &str) -> Vec<String> {
        let frame = match serde_json::from_str::<Incoming>(text) {
            Ok(frame) => frame,
            Err(e) => {
                tracing::debug!(error = %e, "skipping an unparsable frame");
                return Vec::new();
            }
        };
        match frame {
            Incoming::Res(res) => {
                match self.pending.remove(&res.id) {
                    // The requester may have given up; nothing to do then.
                    Some(waiting) => drop(waiting.send(res)),
                    None => {
                        tracing::debug!(id = %res.id, ok = res.ok, "response to no pending request")
                    }
                }
                Vec::new()
            }
            Incoming::Req { method, .. } => {
                tracing::debug!(%method, "ignoring a request from the gateway");
                Vec::new()
            }
            Incoming::Event(event) => self.event(&event.event, &event.payload),
        }
    }

    fn event(&mut self, name: &str, payload: &Value) -> Vec<String> {
        let our_id = self.settings.identity.device_id();
        let decoded = match name {
            "tick" => return Vec::new(),
            "node.invoke.request" => inbound::invoke_request(payload, our_id),
            "node.invoke.cancel" => inbound::invoke_cancel(payload, our_id),
            "node.pair.resolved" => {
                let field = |k: &str| {
                    payload
                        .get(k)
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned()
                };
                tracing::info!(request_id = %field("requestId"), decision = %field("decision"), "node pairing resolved");
                return Vec::new();
            }
            _ => {
                tracing::debug!(event = name, "ignoring an event");
                return Vec::new();
            }
        };
        match decoded {
            Decoded::Deliver(inbound) => self.deliver(inbound),
            Decoded::Reject { id, error } => {
                tracing::warn!(invoke_id = %id, message = %error.message, "refusing an undecodable invoke");
                vec![self.result_frame(&id, error)]
            }
            Decoded::NotOurs { node_id } => {
                tracing::warn!(event = name, %node_id, "ignoring an event for another node");
                Vec::new()
            }
            Decoded::Malformed(what) => {
                tracing::warn!(event = name, "ignoring a malformed event: {what}");
                Vec::new()
            }
        }
    }

    /// Hands an invoke on; a full or closed queue answers it `UNAVAILABLE`.
    fn deliver(&mut self, inbound: Inbound) -> Vec<String> {
        let refused = match self.settings.inbound.try_send(inbound) {
            Ok(()) => return Vec::new(),
            Err(mpsc::error::TrySendError::Full(inbound)) => {
                (inbound, "node busy: too many invokes waiting")
            }
            Err(mpsc::error::TrySendError::Closed(inbound)) => (inbound, "node is shutting down"),
        };
        match refused {
            (Inbound::Invoke(invoke), message) => {
                tracing::warn!(invoke_id = %invoke.id, "{message}; refusing the invoke");
                vec![self.result_frame(
                    &invoke.id,
                    WireError {
                        code: "UNAVAILABLE".to_owned(),
                        message: message.to_owned(),
                    },
                )]
            }
            (Inbound::Cancel { invoke_id }, message) => {
                tracing::error!(%invoke_id, "{message}; a cancel was lost");
                Vec::new()
            }
        }
    }

    fn result_frame(&self, invoke_id: &str, error: WireError) -> String {
        let params = result_params(self.settings.identity.device_id(), invoke_id, &Err(error));
        frames::request(&new_id(), "node.invoke.result", params)
    }
}

async fn close(socket: &mut Socket, code: CloseCode, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    // Best effort: the connection is being abandoned either way.
    let _ = timeout(Duration::from_secs(1), socket.close(Some(frame))).await;
}

fn describe_close(frame: Option<&CloseFrame>) -> String {
    match frame {
        Some(frame) => format!("code {}: {}", u16::from(frame.code), frame.reason.as_str()),
        None => "no close code".to_owned(),
    }
}

fn frame_kind(frame: &Incoming) -> &'static str {
    match frame {
        Incoming::Req { .. } => "req",
        Incoming::Res(_) => "res",
        Incoming::Event(_) => "event",
    }
}
