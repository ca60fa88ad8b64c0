//! Who is at the other end of a Unix socket, from the kernel's record of the
//! process that called `connect()` (Linux `SO_PEERCRED`, macOS
//! `getpeereid`), read through tokio so this crate stays free of `unsafe`.
//!
//! It decides nothing by itself: the server compares the UID with the one it
//! expects and refuses before reading a byte (DESIGN.md invariant 1); the
//! client does the same to refuse a server squatting the path. The pid is a
//! snapshot that can be reused: it is logged and handed on, never trusted.

use std::io;

use tokio::net::UnixStream;

/// The peer's effective UID as recorded at `connect()` time.
pub fn peer_uid(stream: &UnixStream) -> io::Result<u32> {
    Ok(stream.peer_cred()?.uid())
}

/// The peer's pid, when the platform reports it; for logs and display only.
pub fn peer_pid(stream: &UnixStream) -> Option<i32> {
    stream.peer_cred().ok().and_then(|cred| cred.pid())
}

/// Our own effective UID: the only UID allowed at either end by default.
pub fn own_euid() -> u32 {
    nix::unistd::geteuid().as_raw()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_socket_pair_reports_our_own_uid_and_pid() {
        let (a, b) = UnixStream::pair().unwrap();
        assert_eq!(peer_uid(&a).unwrap(), own_euid());
        assert_eq!(peer_uid(&b).unwrap(), own_euid());
        #[cfg(any(target_os = "linux", target_os = "macos"))]
        assert_eq!(peer_pid(&a), Some(std::process::id() as i32));
    }
}
