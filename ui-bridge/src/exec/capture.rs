//! Output capture: stdout and stderr read concurrently into one shared byte
//! cap.
//!
//! It decides which bytes are kept: the first `cap` bytes of both streams
//! together, in arrival order. It refuses to buffer the rest: bytes beyond
//! the cap are read and dropped, so a chatty child never blocks on a full
//! pipe and never grows our memory. Upholds DESIGN.md invariant 8 (output
//! beyond the cap is dropped, not buffered).

use std::sync::{Mutex, PoisonError};

use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;

/// Size of one read from a capture pipe: small, because every running
/// command holds two of these (256 concurrent runs × 2 × 64 KiB alone would
/// exceed the bridge's 30 MB budget); a pipe buffer is 64 KiB anyway, so
/// larger reads only save a few wake-ups on big outputs.
const READ_CHUNK: usize = 8 * 1024;

/// Size of the first reads from a capture pipe, before [`READ_CHUNK`].
const SMALL_READ: usize = 512;

/// Which captured stream a byte belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    /// The plan's captured stdout.
    Stdout,
    /// The plan's captured stderr.
    Stderr,
}

/// The captured bytes of one plan, shared by the two readers and the
/// builtins that write to stderr.
#[derive(Debug)]
pub(super) struct Capture {
    cap: usize,
    state: Mutex<Captured>,
}

/// What a plan printed, up to the cap.
#[derive(Debug, Default)]
pub(super) struct Captured {
    /// Kept stdout bytes.
    pub stdout: Vec<u8>,
    /// Kept stderr bytes.
    pub stderr: Vec<u8>,
    /// Whether any byte was dropped.
    pub truncated: bool,
}

impl Capture {
    /// A capture keeping at most `cap` bytes over both streams.
    pub(super) fn new(cap: usize) -> Self {
        Self {
            cap,
            state: Mutex::new(Captured::default()),
        }
    }

    /// Keeps what fits under the cap and drops the rest, noting the drop.
    pub(super) fn push(&self, stream: Stream, bytes: &[u8]) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let used = state.stdout.len() + state.stderr.len();
        let room = self.cap.saturating_sub(used);
        let (kept, dropped) = bytes.split_at(room.min(bytes.len()));
        match stream {
            Stream::Stdout => state.stdout.extend_from_slice(kept),
            Stream::Stderr => state.stderr.extend_from_slice(kept),
        }
        if !dropped.is_empty() {
            state.truncated = true;
        }
    }

    /// Takes what was captured so far, leaving the capture empty.
    pub(super) fn take(&self) -> Captured {
        std::mem::take(&mut *self.state.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Reads both capture pipes to end of file, concurrently, into `capture`.
///
/// It runs inside the task that waits for the plan, not in tasks of its
/// own: the child's exit and the pipes' end of file then wake one task once,
/// instead of handing the result across worker threads.
pub(super) async fn drain_both(capture: &Capture, stdout: pipe::Receiver, stderr: pipe::Receiver) {
    tokio::join!(
        drain(stdout, capture, Stream::Stdout),
        drain(stderr, capture, Stream::Stderr)
    );
}

/// Reads one pipe to end of file into the capture.
///
/// Most commands print little or nothing, so reading starts with a small
/// buffer inside the future; the [`READ_CHUNK`] buffer is allocated only
/// once a read fills the small one. Zeroing two 8 KiB buffers per run cost
/// more than the reads, and evicted a third of the L1 cache before the
/// child even ran.
async fn drain(mut pipe: pipe::Receiver, capture: &Capture, stream: Stream) {
    let mut small = [0u8; SMALL_READ];
    let mut large: Vec<u8> = Vec::new();
    loop {
        let buf: &mut [u8] = if large.is_empty() {
            &mut small
        } else {
            &mut large
        };
        match pipe.read(buf).await {
            Ok(0) => return,
            Ok(n) => {
                capture.push(stream, buf.get(..n).unwrap_or_default());
                if n == buf.len() && large.is_empty() {
                    large = vec![0u8; READ_CHUNK];
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => {
                tracing::warn!(?stream, %error, "reading captured output failed");
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_bytes_of_both_streams_under_one_cap() {
        let capture = Capture::new(5);
        capture.push(Stream::Stdout, b"abc");
        capture.push(Stream::Stderr, b"defg");
        capture.push(Stream::Stdout, b"h");
        let got = capture.take();
        assert_eq!(
            (got.stdout, got.stderr, got.truncated),
            (b"abc".to_vec(), b"de".to_vec(), true)
        );
    }

    #[test]
    fn output_exactly_at_the_cap_is_not_truncated() {
        let capture = Capture::new(4);
        capture.push(Stream::Stdout, b"ab");
        capture.push(Stream::Stderr, b"cd");
        capture.push(Stream::Stderr, b"");
        let got = capture.take();
        assert_eq!(
            (got.stdout.len() + got.stderr.len(), got.truncated),
            (4, false)
        );
    }

    #[test]
    fn a_zero_cap_keeps_nothing() {
        let capture = Capture::new(0);
        capture.push(Stream::Stdout, b"x");
        let got = capture.take();
        assert_eq!((got.stdout.len(), got.truncated), (0, true));
    }
}
