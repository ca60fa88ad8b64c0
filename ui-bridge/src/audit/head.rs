//! The chain head kept outside the log: `<log>.head`, a small 0600 JSON
//! file `{"seq":N,"hash":"<sha256 of line N>"}` rewritten atomically (a
//! temporary file renamed over it) after every append, under the writers'
//! lock.
//!
//! It decides whether a log was cut short or rewritten from the end: the
//! chain alone cannot see lines removed from the end, or the last lines
//! replaced by a consistent new chain, but the head can ([`check`]). The
//! writer refuses to append to a log that ends before its head, so a cut
//! log is not silently extended over the gap. It cannot stop someone with
//! our UID from rewriting the head too: a copy of the head outside the
//! machine (a journald or syslog sink, `audit verify --expect-head`) can.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::AuditError;

/// The head of a chain: the last record's `seq` and the hash of its line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainHead {
    /// The last record's `seq`.
    pub seq: u64,
    /// SHA-256 (hex) of that record's line.
    pub hash: String,
}

impl std::fmt::Display for ChainHead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.seq, self.hash)
    }
}

impl std::str::FromStr for ChainHead {
    type Err = String;

    /// Parses `SEQ:HASH`, as `audit verify` prints it.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (seq, hash) = text
            .split_once(':')
            .ok_or_else(|| format!("expected SEQ:HASH, got `{text}`"))?;
        let seq = seq
            .parse()
            .map_err(|_| format!("`{seq}` is not a sequence number"))?;
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{hash}` is not a SHA-256 hex digest"));
        }
        Ok(Self {
            seq,
            hash: hash.to_ascii_lowercase(),
        })
    }
}

/// The head file of the log at `log`.
pub fn head_path_for(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".head");
    PathBuf::from(name)
}

/// The head recorded beside `log`, `None` when there is no head file.
pub fn read(log: &Path) -> Result<Option<ChainHead>, AuditError> {
    let path = head_path_for(log);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(AuditError::io("read the head file of", log)(err)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|err| AuditError::BadHead {
            path,
            message: err.to_string(),
        })
}

/// Replaces the head file atomically: a reader sees the old head or the
/// new one, never a mix.
pub(crate) fn write(log: &Path, head: &ChainHead) -> Result<(), AuditError> {
    let path = head_path_for(log);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io = AuditError::io("write the head file of", log);
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&tmp)?;
        let mut bytes = serde_json::to_vec(head).map_err(io::Error::other)?;
        bytes.push(b'\n');
        file.write_all(&bytes)?;
        fs::rename(&tmp, &path)
    })();
    result.map_err(io)
}

/// Checks a verified chain against a head recorded elsewhere: the chain
/// must reach `expected.seq`, and its line there must hash to
/// `expected.hash`. `hash_at` is the hash the chain holds at that `seq`.
pub fn check(
    expected: &ChainHead,
    last_seq: u64,
    hash_at: Option<&str>,
    source: &str,
) -> Result<(), AuditError> {
    if last_seq < expected.seq {
        return Err(AuditError::CutShort {
            origin: source.to_owned(),
            head_seq: expected.seq,
            last_seq,
        });
    }
    match hash_at {
        Some(hash) if hash == expected.hash => Ok(()),
        found => Err(AuditError::TailRewritten {
            origin: source.to_owned(),
            seq: expected.seq,
            expected: expected.hash.clone(),
            found: found.unwrap_or("nothing").to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_round_trips_through_its_file_and_its_text_form() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        assert_eq!(read(&log).unwrap(), None);
        let head = ChainHead {
            seq: 7,
            hash: "ab".repeat(32),
        };
        write(&log, &head).unwrap();
        assert_eq!(read(&log).unwrap(), Some(head.clone()));
        assert_eq!(head.to_string().parse::<ChainHead>(), Ok(head));
        assert!("7".parse::<ChainHead>().is_err());
        assert!("x:ab".parse::<ChainHead>().is_err());
    }

    #[test]
    fn check_names_a_cut_and_a_rewrite() {
        let head = ChainHead {
            seq: 5,
            hash: "a".repeat(64),
        };
        assert!(check(&head, 5, Some(&"a".repeat(64)), "f").is_ok());
        assert!(check(&head, 9, Some(&"a".repeat(64)), "f").is_ok());
        assert!(matches!(
            check(&head, 4, None, "f"),
            Err(AuditError::CutShort {
                head_seq: 5,
                last_seq: 4,
                ..
            })
        ));
        assert!(matches!(
            check(&head, 5, Some(&"b".repeat(64)), "f"),
            Err(AuditError::TailRewritten { seq: 5, .. })
        ));
    }
}
