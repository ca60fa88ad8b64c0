//! A recording TCP relay between a node and the real gateway, so a suite
//! can check what crossed the wire and in which order: the frames our node
//! sent and the gateway's answers to them, exactly as the bytes went, with
//! no part of ours standing in for the gateway.
//!
//! It relays bytes unchanged in both directions and, after the HTTP
//! upgrade, decodes the WebSocket text frames it sees (RFC 6455: masked
//! from the client, unmasked from the server; neither side here negotiates
//! compression or fragments a message). Each accepted connection gets a
//! fresh upstream connection, so it follows the node across gateway
//! restarts.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Which way a frame went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the node to the gateway.
    ToGateway,
    /// From the gateway to the node.
    ToNode,
}

/// One decoded text frame.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Which way it went.
    pub direction: Direction,
    /// Its JSON (`Value::Null` when the text was not JSON).
    pub json: Value,
}

/// A running relay; it stops taking connections when dropped.
pub struct WireTap {
    port: u16,
    frames: Arc<Mutex<Vec<Frame>>>,
    listener: TcpListener,
}

impl WireTap {
    /// Listens on a free loopback port and relays each connection to
    /// `127.0.0.1:upstream_port`.
    pub fn start(upstream_port: u16) -> WireTap {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the wire tap");
        let port = listener.local_addr().expect("tap address").port();
        let frames = Arc::new(Mutex::new(Vec::new()));
        let accepting = listener.try_clone().expect("clone the tap listener");
        let recorded = Arc::clone(&frames);
        std::thread::spawn(move || {
            for client in accepting.incoming() {
                let Ok(client) = client else { break };
                let recorded = Arc::clone(&recorded);
                std::thread::spawn(move || relay(client, upstream_port, &recorded));
            }
        });
        WireTap {
            port,
            frames,
            listener,
        }
    }

    /// The URL a node should be given instead of the gateway's.
    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// Every frame so far, in the order each direction carried them.
    pub fn frames(&self) -> Vec<Frame> {
        self.frames.lock().map(|f| f.clone()).unwrap_or_default()
    }

    /// Waits until `done` holds for the frames so far, up to `limit`; the
    /// frames at that point (or at the deadline, for the caller to report).
    pub fn wait_for(&self, limit: Duration, done: impl Fn(&[Frame]) -> bool) -> Vec<Frame> {
        let deadline = Instant::now() + limit;
        loop {
            let frames = self.frames();
            if done(&frames) || Instant::now() > deadline {
                return frames;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for WireTap {
    fn drop(&mut self) {
        // Wake the accept loop with a connection it then finds closed; the
        // relays end with their sockets.
        let _ = self.listener.set_nonblocking(true);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// Relays one connection both ways until either side closes.
fn relay(client: TcpStream, upstream_port: u16, frames: &Arc<Mutex<Vec<Frame>>>) {
    let Ok(upstream) = TcpStream::connect(("127.0.0.1", upstream_port)) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = upstream.set_nodelay(true);
    let (Ok(client_read), Ok(upstream_read)) = (client.try_clone(), upstream.try_clone()) else {
        return;
    };
    let up_frames = Arc::clone(frames);
    let up = std::thread::spawn(move || {
        pump(client_read, upstream, Direction::ToGateway, &up_frames);
    });
    pump(upstream_read, client, Direction::ToNode, frames);
    let _ = up.join();
}

/// Copies `from` to `to`, recording the WebSocket text frames after the
/// HTTP upgrade's blank line.
fn pump(mut from: TcpStream, mut to: TcpStream, direction: Direction, frames: &Mutex<Vec<Frame>>) {
    let mut buffer = Vec::new();
    let mut upgraded = false;
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if to.write_all(&chunk[..n]).is_err() {
            break;
        }
        buffer.extend_from_slice(&chunk[..n]);
        if !upgraded {
            let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            buffer.drain(..end + 4);
            upgraded = true;
        }
        while let Some((text, used)) = next_frame(&buffer) {
            buffer.drain(..used);
            if let Some(text) = text
                && let Ok(mut all) = frames.lock()
            {
                let json = serde_json::from_slice(&text).unwrap_or(Value::Null);
                all.push(Frame { direction, json });
            }
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}

/// The first whole frame in `buffer`: its payload when it is a text frame,
/// and how many bytes it took; `None` until the frame is complete.
fn next_frame(buffer: &[u8]) -> Option<(Option<Vec<u8>>, usize)> {
    let (&first, &second) = (buffer.first()?, buffer.get(1)?);
    let opcode = first & 0x0f;
    let masked = second & 0x80 != 0;
    let (len, mut at) = match second & 0x7f {
        126 => (
            u16::from_be_bytes([*buffer.get(2)?, *buffer.get(3)?]) as usize,
            4,
        ),
        127 => {
            let bytes: [u8; 8] = buffer.get(2..10)?.try_into().ok()?;
            (usize::try_from(u64::from_be_bytes(bytes)).ok()?, 10)
        }
        short => (usize::from(short), 2),
    };
    let mask = if masked {
        let key: [u8; 4] = buffer.get(at..at + 4)?.try_into().ok()?;
        at += 4;
        Some(key)
    } else {
        None
    };
    let mut payload = buffer.get(at..at + len)?.to_vec();
    if let Some(key) = mask {
        for (i, byte) in payload.iter_mut().enumerate() {
            *byte ^= key[i % 4];
        }
    }
    Some(((opcode == 1).then_some(payload), at + len))
}
