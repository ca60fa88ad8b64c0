//! The cross-process lock on `<log>.lock`: writers hold it exclusively for
//! an append (the record and the head file), readers of the head file hold
//! it shared so they never see a head half written.

use std::fs::{File, TryLockError};
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::error::AuditError;

/// The lock, held until dropped.
pub(crate) struct FileLock<'a> {
    file: &'a File,
}

impl<'a> FileLock<'a> {
    /// Takes the lock exclusively (an append), waiting at most `wait`.
    pub(crate) fn acquire(
        file: &'a File,
        lock_path: &Path,
        wait: Duration,
    ) -> Result<Self, AuditError> {
        Self::take(file, lock_path, wait, File::try_lock)
    }

    /// Takes the lock shared (a read that must not race an append),
    /// waiting at most `wait`.
    pub(crate) fn acquire_shared(
        file: &'a File,
        lock_path: &Path,
        wait: Duration,
    ) -> Result<Self, AuditError> {
        Self::take(file, lock_path, wait, File::try_lock_shared)
    }

    fn take(
        file: &'a File,
        lock_path: &Path,
        wait: Duration,
        try_lock: fn(&File) -> Result<(), TryLockError>,
    ) -> Result<Self, AuditError> {
        let deadline = Instant::now() + wait;
        let mut pause = Duration::from_millis(1);
        loop {
            match try_lock(file) {
                Ok(()) => return Ok(Self { file }),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(AuditError::io("lock", lock_path)(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "another process held the audit lock for too long",
                    )));
                }
                Err(TryLockError::Error(err)) => {
                    return Err(AuditError::io("lock", lock_path)(err));
                }
            }
        }
    }
}

impl Drop for FileLock<'_> {
    fn drop(&mut self) {
        if let Err(err) = self.file.unlock() {
            tracing::warn!(error = %err, "cannot release the audit lock");
        }
    }
}
