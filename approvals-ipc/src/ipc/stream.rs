//! A Unix stream registered with the runtime for read readiness only.
//!
//! tokio's `UnixStream` registers for reading and writing, so every time the
//! peer reads, the kernel's write-space wake-up reaches our epoll and wakes
//! this thread for nothing. On the request path that is two wasted context
//! switches per request (the client wakes when the bridge reads the
//! request, the bridge when the client reads the reply). Here writes go
//! straight to the socket; only a write that would block registers a second,
//! write-only interest until the socket drains.

use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream as StdUnixStream;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::socket::{MsgFlags, send};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};

/// The shared socket of a [`ReadHalf`] and a [`WriteHalf`].
#[derive(Debug)]
struct Shared {
    fd: AsyncFd<StdUnixStream>,
}

/// Splits a connected tokio stream into halves that wake only for input.
///
/// # Errors
///
/// When the socket cannot be taken from tokio or registered again.
pub(crate) fn split(stream: tokio::net::UnixStream) -> io::Result<(ReadHalf, WriteHalf)> {
    // `into_std` deregisters the socket and leaves it non-blocking.
    let std = stream.into_std()?;
    let shared = Arc::new(Shared {
        fd: register(std, Interest::READABLE)?,
    });
    Ok((
        ReadHalf(Arc::clone(&shared)),
        WriteHalf {
            shared,
            waiting: None,
        },
    ))
}

/// Registers a descriptor the value owns with the runtime.
///
/// tokio deprecated its safe constructors because an arbitrary `AsRawFd`
/// type may hand out a different descriptor later; the two types used here
/// own theirs and always return the same one, which is exactly what the
/// replacement's safety contract asks for.
#[allow(deprecated)]
fn register<T: AsRawFd>(owner: T, interest: Interest) -> io::Result<AsyncFd<T>> {
    AsyncFd::with_interest(owner, interest)
}

/// The reading side: readiness comes from the read-only registration.
#[derive(Debug)]
pub(crate) struct ReadHalf(Arc<Shared>);

/// The writing side: writes directly; registers for write space only while a
/// write would block.
#[derive(Debug)]
pub(crate) struct WriteHalf {
    shared: Arc<Shared>,
    /// A write-only registration of a duplicate descriptor, alive while a
    /// write waits for space.
    waiting: Option<AsyncFd<OwnedFd>>,
}

impl WriteHalf {
    /// Whether the peer closed the connection in both directions (a
    /// half-close is not a hang-up); asks the kernel now, without waiting.
    pub(crate) fn peer_hung_up(&self) -> bool {
        let mut fds = [PollFd::new(
            self.shared.fd.get_ref().as_fd(),
            PollFlags::POLLOUT,
        )];
        match poll(&mut fds, PollTimeout::ZERO) {
            Ok(_) => fds[0]
                .revents()
                .is_some_and(|r| r.intersects(PollFlags::POLLHUP | PollFlags::POLLERR)),
            Err(_) => true,
        }
    }
}

impl AsyncRead for ReadHalf {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.0.fd.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|inner| inner.get_ref().read(unfilled)) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
                Ok(Err(error)) => return Poll::Ready(Err(error)),
                // Readiness was stale and is now cleared: wait again.
                Err(_would_block) => {}
            }
        }
    }
}

impl AsyncWrite for WriteHalf {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            if let Some(waiting) = &self.waiting {
                let mut guard = ready!(waiting.poll_write_ready(cx))?;
                guard.clear_ready();
            }
            let fd = self.shared.fd.get_ref().as_fd();
            // MSG_NOSIGNAL: a vanished peer is an error, not a SIGPIPE.
            match send(fd.as_raw_fd(), data, MsgFlags::MSG_NOSIGNAL) {
                Ok(n) => {
                    self.waiting = None;
                    return Poll::Ready(Ok(n));
                }
                Err(nix::errno::Errno::EINTR) => {}
                Err(nix::errno::Errno::EAGAIN) => {
                    if self.waiting.is_none() {
                        // Registering reports space that appeared meanwhile,
                        // so no wake-up is lost between the send and here.
                        let dup = fd.try_clone_to_owned()?;
                        self.waiting = Some(register(dup, Interest::WRITABLE)?);
                    }
                }
                Err(errno) => return Poll::Ready(Err(io::Error::from(errno))),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(self.shared.fd.get_ref().shutdown(std::net::Shutdown::Write))
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn a_write_larger_than_the_socket_buffer_completes_as_the_peer_reads() {
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let (_read, mut write) = split(a).unwrap();
        let (mut peer_read, _peer_write) = split(b).unwrap();
        // Far beyond a Unix socket's buffer: the writer must wait for space.
        let sent: Vec<u8> = (0..4 * 1024 * 1024).map(|i| (i % 251) as u8).collect();
        let expected = sent.clone();
        let writer = tokio::spawn(async move {
            write.write_all(&sent).await.unwrap();
            write.shutdown().await.unwrap();
        });
        let mut got = Vec::new();
        peer_read.read_to_end(&mut got).await.unwrap();
        writer.await.unwrap();
        assert!(got == expected, "{} bytes arrived", got.len());
    }

    #[tokio::test]
    async fn a_hang_up_is_seen_and_a_half_close_is_not() {
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let (_read, write) = split(a).unwrap();
        let (_peer_read, mut peer_write) = split(b).unwrap();
        assert!(!write.peer_hung_up());
        peer_write.shutdown().await.unwrap();
        assert!(!write.peer_hung_up(), "a half-close is not a hang-up");
        drop((_peer_read, peer_write));
        assert!(write.peer_hung_up());
    }

    #[tokio::test]
    async fn a_write_to_a_closed_peer_is_an_error_not_a_signal() {
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let (_read, mut write) = split(a).unwrap();
        drop(b);
        let error = write.write_all(b"hello").await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
