//! The chain head kept outside the log: `<log>.head`, a small 0600 JSON
//! file `{"seq":N,"hash":"<sha256 of line N>"}` overwritten in place after
//! every append, under the writers' lock. Every head is written at the same
//! width (the `seq` padded with spaces), so an update is one `pwrite` of
//! [`HEAD_LEN`] bytes at offset 0: no truncation and no rename, which on
//! ext4 each force the new data out to disk (`auto_da_alloc`) and cost a
//! run about 200 µs. A reader racing that write could see half of each
//! head, so [`read`] holds the writers' lock shared while it reads.
//!
//! It decides whether a log was cut short or rewritten from the end: the
//! chain alone cannot see lines removed from the end, or the last lines
//! replaced by a consistent new chain, but the head can ([`check`]). The
//! writer refuses to append to a log that ends before its head, so a cut
//! log is not silently extended over the gap. It cannot stop someone with
//! our UID from rewriting the head too: a copy of the head outside the
//! machine (a journald or syslog sink, `audit verify --expect-head`) can.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt as _, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::AuditError;
use super::lock::FileLock;
use super::lock_path_for;
use super::log::LOCK_WAIT;

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

/// The length of every head line the writer puts down: `{"seq":`, the
/// `seq` padded to the 20 digits of the largest `u64`, `,"hash":"`, 64 hex
/// digits, `"}` and a newline.
const HEAD_LEN: usize = 7 + 20 + 9 + 64 + 2 + 1;

/// The head recorded beside `log`, `None` when there is no head file; read
/// under the writers' lock, held shared, when a writer ever made one.
pub fn read(log: &Path) -> Result<Option<ChainHead>, AuditError> {
    let lock_path = lock_path_for(log);
    let lock = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&lock_path);
    match lock {
        Ok(lock) => {
            let _held = FileLock::acquire_shared(&lock, &lock_path, LOCK_WAIT)?;
            read_locked(log)
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => read_locked(log),
        Err(err) => Err(AuditError::io("open the lock file", &lock_path)(err)),
    }
}

/// [`read`] for a caller that already holds the writers' lock.
pub(crate) fn read_locked(log: &Path) -> Result<Option<ChainHead>, AuditError> {
    let path = head_path_for(log);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(AuditError::io("read the head file of", log)(err)),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|err| AuditError::BadHead {
            path,
            message: err.to_string(),
        })
}

/// The head as the writer lays it down: always [`HEAD_LEN`] bytes.
fn line(head: &ChainHead) -> Vec<u8> {
    format!(
        "{{\"seq\":{:<20},\"hash\":\"{:<64}\"}}\n",
        head.seq, head.hash
    )
    .into_bytes()
}

/// Overwrites the head file in place (creating it 0600 when missing),
/// cutting off anything an older or hand-written file had beyond the line.
/// The caller holds the writers' lock.
pub(crate) fn write(log: &Path, head: &ChainHead) -> Result<(), AuditError> {
    let path = head_path_for(log);
    let bytes = line(head);
    debug_assert_eq!(bytes.len(), HEAD_LEN, "a head line of another width");
    let result = (|| {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)?;
        file.write_all_at(&bytes, 0)?;
        if file.metadata()?.len() != bytes.len() as u64 {
            file.set_len(bytes.len() as u64)?;
        }
        Ok(())
    })();
    result.map_err(AuditError::io("write the head file of", log))
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
    fn every_head_line_has_the_same_length() {
        for seq in [0, 7, 1_000_000, u64::MAX] {
            let head = ChainHead {
                seq,
                hash: "0f".repeat(32),
            };
            assert_eq!(line(&head).len(), HEAD_LEN, "seq {seq}");
        }
    }

    #[test]
    fn a_longer_file_is_cut_to_the_new_head_and_a_shorter_one_grown() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        let old = format!(
            "{{\"seq\":3,\"hash\":\"{}\"}}\n{}",
            "cd".repeat(32),
            " ".repeat(300)
        );
        fs::write(head_path_for(&log), old).unwrap();
        let head = ChainHead {
            seq: 12,
            hash: "ab".repeat(32),
        };
        write(&log, &head).unwrap();
        assert_eq!(fs::read(head_path_for(&log)).unwrap().len(), HEAD_LEN);
        assert_eq!(read(&log).unwrap(), Some(head));
        fs::write(head_path_for(&log), "{}").unwrap();
        let next = ChainHead {
            seq: 13,
            hash: "ef".repeat(32),
        };
        write(&log, &next).unwrap();
        assert_eq!(read(&log).unwrap(), Some(next));
    }

    #[test]
    fn a_reader_racing_the_writer_sees_only_heads_that_were_written() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        let head_at = |seq: u64| ChainHead {
            seq,
            hash: format!("{:064x}", seq.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        };
        write(&log, &head_at(1)).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (log, stop) = (log.clone(), stop.clone());
            std::thread::spawn(move || {
                let lock_path = lock_path_for(&log);
                let lock = super::super::files::open_lock(&lock_path).unwrap();
                let mut seq = 1;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    seq += 1;
                    let _held = FileLock::acquire(&lock, &lock_path, LOCK_WAIT).unwrap();
                    write(&log, &head_at(seq)).unwrap();
                }
            })
        };
        for _ in 0..20_000 {
            let seen = read(&log).unwrap().unwrap();
            assert_eq!(seen, head_at(seen.seq), "a torn head was read");
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        writer.join().unwrap();
    }

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
