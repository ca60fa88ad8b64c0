//! Reading lines from the log with a bound: the last few lines by seeking
//! from the end (an append must not read the whole file), and one line at a
//! time from the front (verify, query).
//!
//! It refuses to hold more than a caller-given number of bytes, so a hostile
//! or damaged file with a giant line cannot exhaust memory; it reports a
//! last line without its newline instead of hiding it.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::error::AuditError;

/// How far back we read per step.
const CHUNK: u64 = 64 * 1024;

/// The last lines of a file, oldest first, without their newlines.
#[derive(Debug, Default)]
pub(crate) struct TailLines {
    /// The lines.
    pub lines: Vec<Vec<u8>>,
    /// The file does not end with a newline: the last line is partial.
    pub unterminated: bool,
}

/// Reads up to `n` last lines of the first `len` bytes of `file`, holding at
/// most about `max_bytes`; fewer lines come back when they do not fit, and
/// an error when not even the last one does.
pub(crate) fn last_lines(
    file: &File,
    path: &Path,
    len: u64,
    n: usize,
    max_bytes: usize,
) -> Result<TailLines, AuditError> {
    if len == 0 || n == 0 {
        return Ok(TailLines::default());
    }
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut pos = len;
    let mut boundaries = 0usize;
    let mut total = 0usize;
    while pos > 0 {
        let size = CHUNK.min(pos);
        pos -= size;
        // `size` is at most CHUNK, which fits in usize.
        let mut chunk = vec![0u8; usize::try_from(size).unwrap_or(0)];
        file.read_exact_at(&mut chunk, pos)
            .map_err(AuditError::io("read", path))?;
        let counted = if pos + size == len && chunk.last() == Some(&b'\n') {
            &chunk[..chunk.len() - 1]
        } else {
            &chunk[..]
        };
        boundaries += counted.iter().filter(|b| **b == b'\n').count();
        total += chunk.len();
        chunks.push(chunk);
        if boundaries >= n || total > max_bytes {
            break;
        }
    }
    let mut region = Vec::with_capacity(total);
    for chunk in chunks.iter().rev() {
        region.extend_from_slice(chunk);
    }
    let unterminated = region.last() != Some(&b'\n');
    if !unterminated {
        region.pop();
    }
    let mut segments: Vec<Vec<u8>> = region.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
    if pos > 0 {
        // The first segment may have started before `pos`.
        segments.remove(0);
    }
    if segments.is_empty() {
        return Err(AuditError::LineTooLong {
            path: path.to_path_buf(),
            line: 0,
            limit: max_bytes,
        });
    }
    let skip = segments.len().saturating_sub(n);
    segments.drain(..skip);
    Ok(TailLines {
        lines: segments,
        unterminated,
    })
}

/// What one bounded line read found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// No more bytes.
    Eof,
    /// A line ended by `\n` (the newline is not in the buffer).
    Complete,
    /// The last bytes of the file, without a newline.
    Unterminated,
    /// More than the limit without a newline; the buffer holds a prefix.
    TooLong,
}

/// Reads one line into `buf` (cleared first), refusing to buffer more than
/// `limit` bytes of it.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let read = reader
        .by_ref()
        .take(limit as u64 + 1)
        .read_until(b'\n', buf)?;
    if read == 0 {
        Ok(LineRead::Eof)
    } else if buf.last() == Some(&b'\n') {
        buf.pop();
        Ok(LineRead::Complete)
    } else if buf.len() > limit {
        Ok(LineRead::TooLong)
    } else {
        Ok(LineRead::Unterminated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file_with(bytes: &[u8]) -> (tempfile::NamedTempFile, u64) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        (file, bytes.len() as u64)
    }

    fn tail_of(bytes: &[u8], n: usize, max: usize) -> Result<(Vec<String>, bool), AuditError> {
        let (file, len) = file_with(bytes);
        let got = last_lines(file.as_file(), file.path(), len, n, max)?;
        let lines = got
            .lines
            .iter()
            .map(|l| String::from_utf8(l.clone()).unwrap())
            .collect();
        Ok((lines, got.unterminated))
    }

    #[test]
    fn last_lines_table() {
        let cases: &[(&[u8], usize, &[&str], bool)] = &[
            (b"", 3, &[], false),
            (b"a\n", 1, &["a"], false),
            (b"a\nb\nc\n", 2, &["b", "c"], false),
            (b"a\nb\nc\n", 9, &["a", "b", "c"], false),
            (b"a\nb\npart", 1, &["part"], true),
            (b"a\nb\npart", 2, &["b", "part"], true),
            (b"a\n\n", 1, &[""], false),
            (b"\n", 1, &[""], false),
        ];
        for (bytes, n, want, unterminated) in cases {
            let (got, unt) = tail_of(bytes, *n, 1 << 20).unwrap();
            assert_eq!(
                (got.iter().map(String::as_str).collect::<Vec<_>>(), unt),
                (want.to_vec(), *unterminated),
                "{bytes:?} n={n}"
            );
        }
    }

    #[test]
    fn last_lines_crosses_chunk_boundaries_without_reading_everything() {
        let line = "x".repeat(1000);
        let mut bytes = Vec::new();
        for i in 0..500 {
            bytes.extend_from_slice(format!("{i:04}{line}\n").as_bytes());
        }
        let (got, _) = tail_of(&bytes, 3, 1 << 20).unwrap();
        assert_eq!(got.len(), 3);
        assert!(got[0].starts_with("0497"));
        assert!(got[2].starts_with("0499"));
    }

    #[test]
    fn last_lines_refuses_a_last_line_over_the_bound() {
        let mut bytes = b"short\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'y', 300_000));
        bytes.push(b'\n');
        let err = tail_of(&bytes, 1, 100_000).unwrap_err();
        assert!(matches!(err, AuditError::LineTooLong { .. }), "{err}");
    }

    #[test]
    fn read_line_reports_each_outcome() {
        let mut reader = io::Cursor::new(b"ab\ncdefgh\nxy".to_vec());
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut reader, &mut buf, 4).unwrap(),
            LineRead::Complete
        );
        assert_eq!(buf, b"ab");
        assert_eq!(
            read_line(&mut reader, &mut buf, 4).unwrap(),
            LineRead::TooLong
        );
        let mut reader = io::Cursor::new(b"xy".to_vec());
        assert_eq!(
            read_line(&mut reader, &mut buf, 4).unwrap(),
            LineRead::Unterminated
        );
        assert_eq!(read_line(&mut reader, &mut buf, 4).unwrap(), LineRead::Eof);
    }
}
