//! JSON-lines framing with a hard byte limit.
//!
//! Reading refuses a line longer than the limit as soon as the limit is
//! passed, so a peer cannot make the server buffer more than the limit plus
//! one read chunk (DESIGN.md invariant 2). Lines are decoded as UTF-8 only
//! once complete, so a multi-byte character split across reads survives.
//! `\r\n` endings are accepted; a final line without a newline at EOF counts.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::error::FrameError;
use super::frame::Frame;

/// The default frame limit, 256 KiB, as in OpenClaw's app.
pub const DEFAULT_MAX_FRAME: usize = 256 * 1024;

const READ_CHUNK: usize = 8 * 1024;

/// Reads newline-terminated lines, refusing any longer than the limit.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Invariant: `buf[..scanned]` holds no newline.
    scanned: usize,
    max: usize,
    eof: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Wraps a reader; `max` bounds a line in bytes, without its newline.
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            buf: Vec::new(),
            scanned: 0,
            max,
            eof: false,
        }
    }

    /// The next line without its ending, or `None` at a clean end of input.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: the buffer changes only after a read completes, so a
    /// cancelled call loses nothing and the next call resumes.
    pub async fn next_line(&mut self) -> Result<Option<String>, FrameError> {
        loop {
            if let Some(offset) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + offset;
                if end > self.max.saturating_add(1) {
                    return Err(FrameError::TooLarge { limit: self.max });
                }
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.scanned = 0;
                return self.finish(line).map(Some);
            }
            self.scanned = self.buf.len();
            // A trailing `\r` may still precede the newline, so allow one byte of slack.
            if self.buf.len() > self.max.saturating_add(1) {
                return Err(FrameError::TooLarge { limit: self.max });
            }
            if self.eof {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                let line = std::mem::take(&mut self.buf);
                self.scanned = 0;
                return self.finish(line).map(Some);
            }
            // Straight into the buffer's spare room: no zeroed chunk per read
            // (read_buf is cancel-safe: nothing is appended unless it completes).
            self.buf.reserve(READ_CHUNK);
            if self.inner.read_buf(&mut self.buf).await? == 0 {
                self.eof = true;
            }
        }
    }

    fn finish(&self, line: Vec<u8>) -> Result<String, FrameError> {
        if line.len() > self.max {
            return Err(FrameError::TooLarge { limit: self.max });
        }
        String::from_utf8(line).map_err(|_| FrameError::Utf8)
    }
}

/// Serializes a frame as one line, newline included.
pub fn encode(frame: &Frame) -> Vec<u8> {
    // Serializing these types cannot fail: every map key is a string and no
    // field has a custom serializer. Fall back to an INTERNAL error line anyway.
    let mut line = serde_json::to_vec(frame).unwrap_or_else(|_| {
        br#"{"type":"error","error":{"code":"INTERNAL","message":"frame serialization failed"}}"#
            .to_vec()
    });
    line.push(b'\n');
    line
}

/// Writes one frame as a line.
pub async fn write_frame<W: AsyncWrite + Unpin>(
    writer: &mut W,
    frame: &Frame,
) -> std::io::Result<()> {
    writer.write_all(&encode(frame)).await?;
    writer.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    async fn lines_of(input: &[u8], max: usize) -> Vec<Result<Option<String>, String>> {
        let (mut tx, rx) = tokio::io::duplex(64);
        let input = input.to_vec();
        let writer = tokio::spawn(async move {
            // Byte by byte, to split multi-byte characters across reads.
            for b in input {
                if tx.write_all(&[b]).await.is_err() {
                    return;
                }
            }
        });
        let mut reader = LineReader::new(rx, max);
        let mut out = Vec::new();
        loop {
            match reader.next_line().await {
                Ok(None) => {
                    out.push(Ok(None));
                    break;
                }
                Ok(Some(line)) => out.push(Ok(Some(line))),
                Err(e) => {
                    out.push(Err(e.to_string()));
                    break;
                }
            }
        }
        drop(reader);
        let _ = writer.await;
        out
    }

    #[tokio::test]
    async fn splits_lines_and_survives_split_utf8() {
        let got = lines_of("a\r\nbé€😀\n\nlast".as_bytes(), 64).await;
        assert_eq!(
            got,
            vec![
                Ok(Some("a".into())),
                Ok(Some("bé€😀".into())),
                Ok(Some(String::new())),
                Ok(Some("last".into())),
                Ok(None)
            ]
        );
    }

    #[tokio::test]
    async fn accepts_a_line_of_exactly_the_limit() {
        let got = lines_of(b"12345\n123456\n", 5).await;
        assert_eq!(
            got,
            vec![
                Ok(Some("12345".into())),
                Err("frame too large: more than 5 bytes without a newline".into())
            ]
        );
    }

    #[tokio::test]
    async fn refuses_an_endless_line_without_buffering_it() {
        let (mut tx, rx) = tokio::io::duplex(1024);
        let writer = tokio::spawn(async move {
            let block = [b'x'; 1024];
            for _ in 0..1024 {
                if tx.write_all(&block).await.is_err() {
                    return true;
                }
            }
            false
        });
        let mut reader = LineReader::new(rx, 4096);
        assert!(matches!(
            reader.next_line().await,
            Err(FrameError::TooLarge { limit: 4096 })
        ));
        assert!(reader.buf.len() <= 4096 + 1 + READ_CHUNK);
        drop(reader);
        assert!(writer.await.unwrap(), "writer should see the reader gone");
    }

    #[tokio::test]
    async fn refuses_invalid_utf8() {
        let got = lines_of(b"\xff\xfe\n", 64).await;
        assert_eq!(got, vec![Err("frame is not valid utf-8".into())]);
    }

    #[tokio::test]
    async fn an_unterminated_final_line_over_the_limit_is_too_large() {
        let got = lines_of(b"123456", 5).await;
        assert_eq!(
            got,
            vec![Err(
                "frame too large: more than 5 bytes without a newline".into()
            )]
        );
    }
}
