//! How this node reaches the outside world: the OpenClaw gateway WebSocket
//! client. Nothing here decides policy; it carries invokes in and results out,
//! and refuses unsafe transports (plain `ws://` off loopback, unpinned or
//! unverified TLS).

pub mod gateway;
