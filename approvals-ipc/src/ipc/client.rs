//! The node host's side of the socket: connect, check who serves it, then
//! send HMAC-signed `exec` (and `control`) frames answered on the same
//! connection.
//!
//! It refuses a server running under another UID before sending anything (a
//! path squatted by another user would otherwise receive our signed
//! requests), and treats any failure mid-request as leaving the connection
//! unusable, since the outcome of the command is then unknown. Every wait is
//! bounded by a timeout. Supports DESIGN.md invariant 1 from the client side.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::net::UnixStream;
use tokio::time::Instant;

use super::auth::{self, Token};
use super::codec::{self, DEFAULT_MAX_FRAME, LineReader};
use super::control::{ControlRequest, ControlResponse};
use super::error::{ClientError, FrameError};
use super::frame::{ExecFrame, ExecPending, ExecRequest, ExecResponse, Frame};
use super::peer;
use super::stream::{self, ReadHalf, WriteHalf};

/// Client limits; the defaults suit a request that may wait for a human.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Bound on connecting, reading a challenge and writing a frame.
    pub io_timeout: Duration,
    /// Bound on waiting for the `exec-res` (approval plus run time).
    pub response_timeout: Duration,
    /// Longest line accepted from the server.
    pub max_frame: usize,
    /// The only UID the server may run as (default: our own effective UID).
    pub expected_server_uid: u32,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            io_timeout: Duration::from_secs(10),
            response_timeout: Duration::from_secs(180),
            // Replies carry captured output, so allow more than a request.
            max_frame: 16 * DEFAULT_MAX_FRAME,
            expected_server_uid: peer::own_euid(),
        }
    }
}

/// One authenticated connection to the exec host, carrying many requests in turn.
///
/// # Caveats
///
/// The server closes a connection left idle longer than its read timeout;
/// after any error this client is unusable ([`ClientError::Broken`]) and the
/// caller should connect again.
#[derive(Debug)]
pub struct Client {
    token: Token,
    config: ClientConfig,
    reader: LineReader<ReadHalf>,
    writer: WriteHalf,
    /// A challenge nonce already read and not yet used.
    challenge: Option<String>,
    broken: bool,
}

impl Client {
    /// Connects with default limits and checks the server's UID before sending anything.
    pub async fn connect(path: &Path, token: impl Into<String>) -> Result<Client, ClientError> {
        Client::connect_with(path, token, ClientConfig::default()).await
    }

    /// Connects with the given limits and checks the server's UID before sending anything.
    pub async fn connect_with(
        path: &Path,
        token: impl Into<String>,
        config: ClientConfig,
    ) -> Result<Client, ClientError> {
        let stream = match tokio::time::timeout(config.io_timeout, UnixStream::connect(path)).await
        {
            Err(_) => {
                return Err(ClientError::Timeout {
                    after: config.io_timeout,
                    during: "connecting",
                });
            }
            Ok(Err(source)) => return Err(connect_error(path, source)),
            Ok(Ok(stream)) => stream,
        };
        let found = peer::peer_uid(&stream).map_err(|source| ClientError::Io {
            op: "peer credentials",
            source,
        })?;
        if found != config.expected_server_uid {
            return Err(ClientError::ServerUidMismatch {
                path: path.to_owned(),
                expected: config.expected_server_uid,
                found,
            });
        }
        let (reader, writer) = stream::split(stream).map_err(|source| ClientError::Io {
            op: "register the socket",
            source,
        })?;
        Ok(Client {
            token: Token::new(token),
            reader: LineReader::new(reader, config.max_frame),
            writer,
            config,
            challenge: None,
            broken: false,
        })
    }

    /// Whether an earlier failure left this connection unusable.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Sends one signed request and waits for its reply.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: dropping the future mid-request leaves the
    /// connection in an unknown state; connect again.
    pub async fn exec(&mut self, request: &ExecRequest) -> Result<ExecResponse, ClientError> {
        self.exec_observed(request, &mut |_| {}).await
    }

    /// [`Client::exec`], calling `on_pending` for each `exec-pending` frame
    /// the server sends while the request waits for a person.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe, as [`Client::exec`].
    pub async fn exec_observed(
        &mut self,
        request: &ExecRequest,
        on_pending: &mut (dyn FnMut(&ExecPending) + Send),
    ) -> Result<ExecResponse, ClientError> {
        let reply = self.round_trip(request, Frame::Exec, on_pending).await?;
        match reply {
            Frame::ExecRes(res) => res.into_response().ok_or_else(|| ClientError::Protocol {
                detail: "exec-res with `ok` disagreeing with its payload or error".into(),
            }),
            other => Err(mismatched_reply("exec", &other)),
        }
    }

    /// Sends one signed control request (list or answer approvals) and waits for its reply.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe, as [`Client::exec`].
    pub async fn control(
        &mut self,
        request: &ControlRequest,
    ) -> Result<ControlResponse, ClientError> {
        let reply = self
            .round_trip(request, Frame::Control, &mut |_| {})
            .await?;
        match reply {
            Frame::ControlRes(res) => res.into_response().ok_or_else(|| ClientError::Protocol {
                detail: "control-res with `ok` disagreeing with its payload or error".into(),
            }),
            other => Err(mismatched_reply("control", &other)),
        }
    }

    /// Signs `request`, sends it wrapped by `wrap`, and returns the reply
    /// frame with the same id; marks the connection broken until it completes.
    async fn round_trip<T: serde::Serialize>(
        &mut self,
        request: &T,
        wrap: fn(ExecFrame) -> Frame,
        on_pending: &mut (dyn FnMut(&ExecPending) + Send),
    ) -> Result<Frame, ClientError> {
        if self.broken {
            return Err(ClientError::Broken);
        }
        // Assume the worst until the exchange completes.
        self.broken = true;
        let reply = self.exchange(request, wrap, on_pending).await?;
        self.broken = false;
        Ok(reply)
    }

    async fn exchange<T: serde::Serialize>(
        &mut self,
        request: &T,
        wrap: fn(ExecFrame) -> Frame,
        on_pending: &mut (dyn FnMut(&ExecPending) + Send),
    ) -> Result<Frame, ClientError> {
        let nonce = match self.challenge.take() {
            Some(nonce) => nonce,
            None => self.read_challenge().await?,
        };
        let request_json =
            serde_json::to_string(request).map_err(|error| ClientError::Protocol {
                detail: format!("cannot serialize the request: {error}"),
            })?;
        let ts = auth::wall_clock_ms();
        let id = uuid::Uuid::new_v4().to_string();
        let frame = wrap(ExecFrame {
            hmac: auth::sign(self.token.expose_secret(), &nonce, ts, &request_json),
            id: id.clone(),
            nonce,
            ts,
            request_json,
        });
        self.write(&frame).await?;
        let deadline = Instant::now() + self.config.response_timeout;
        loop {
            match self
                .read_frame(
                    deadline,
                    self.config.response_timeout,
                    "waiting for the reply",
                )
                .await?
            {
                Some(Frame::ExecRes(res)) if res.id == id => return Ok(Frame::ExecRes(res)),
                Some(Frame::ControlRes(res)) if res.id == id => {
                    return Ok(Frame::ControlRes(res));
                }
                Some(Frame::ExecPending(pending)) if pending.id == id => on_pending(&pending),
                Some(Frame::Challenge { nonce, .. }) => self.challenge = Some(nonce),
                Some(Frame::Error { error }) => return Err(ClientError::Server(error)),
                Some(other) => tracing::debug!(
                    kind = other.kind(),
                    "ignoring frame while waiting for the reply"
                ),
                None => {}
            }
        }
    }

    async fn read_challenge(&mut self) -> Result<String, ClientError> {
        let deadline = Instant::now() + self.config.io_timeout;
        loop {
            match self
                .read_frame(deadline, self.config.io_timeout, "waiting for a challenge")
                .await?
            {
                Some(Frame::Challenge { nonce, .. }) => return Ok(nonce),
                Some(Frame::Error { error }) => return Err(ClientError::Server(error)),
                Some(other) => tracing::debug!(
                    kind = other.kind(),
                    "ignoring frame while waiting for a challenge"
                ),
                None => {}
            }
        }
    }

    /// The next frame; `None` for a frame of a type this client does not
    /// know (a newer server's informational frame), which is skipped.
    async fn read_frame(
        &mut self,
        deadline: Instant,
        after: Duration,
        during: &'static str,
    ) -> Result<Option<Frame>, ClientError> {
        let line = match tokio::time::timeout_at(deadline, self.reader.next_line()).await {
            Err(_) => return Err(ClientError::Timeout { after, during }),
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => return Err(ClientError::Closed { during }),
            Ok(Err(FrameError::Io(source))) => {
                return Err(ClientError::Io { op: "read", source });
            }
            Ok(Err(error)) => {
                return Err(ClientError::Protocol {
                    detail: error.to_string(),
                });
            }
        };
        match serde_json::from_str(&line) {
            Ok(frame) => Ok(Some(frame)),
            Err(error) => {
                if let Some(kind) = unknown_kind(&line) {
                    tracing::debug!(kind, "ignoring a frame of a type this client does not know");
                    return Ok(None);
                }
                Err(ClientError::Protocol {
                    detail: format!("unreadable frame from the exec host: {error}"),
                })
            }
        }
    }

    async fn write(&mut self, frame: &Frame) -> Result<(), ClientError> {
        match tokio::time::timeout(
            self.config.io_timeout,
            codec::write_frame(&mut self.writer, frame),
        )
        .await
        {
            Err(_) => Err(ClientError::Timeout {
                after: self.config.io_timeout,
                during: "sending the request",
            }),
            Ok(Err(source)) if is_disconnect(&source) => Err(ClientError::Closed {
                during: "sending the request",
            }),
            Ok(Err(source)) => Err(ClientError::Io {
                op: "write",
                source,
            }),
            Ok(Ok(())) => Ok(()),
        }
    }
}

/// The `type` of a JSON object line when it is not one of our frame types.
fn unknown_kind(line: &str) -> Option<String> {
    const KNOWN: [&str; 9] = [
        "challenge",
        "exec",
        "exec-res",
        "exec-pending",
        "control",
        "control-res",
        "request",
        "decision",
        "error",
    ];
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let kind = value.get("type")?.as_str()?;
    (!KNOWN.contains(&kind)).then(|| kind.to_owned())
}

/// A reply of the wrong kind for the request sent (e.g. `exec-res` for a `control`).
fn mismatched_reply(sent: &str, got: &Frame) -> ClientError {
    ClientError::Protocol {
        detail: format!("`{}` frame in reply to `{sent}`", got.kind()),
    }
}

fn connect_error(path: &Path, source: io::Error) -> ClientError {
    match source.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused => ClientError::Unavailable {
            path: PathBuf::from(path),
            source,
        },
        _ => ClientError::Io {
            op: "connect",
            source,
        },
    }
}

fn is_disconnect(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset | io::ErrorKind::NotConnected
    )
}
