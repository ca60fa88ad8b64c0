//! Reading and writing `exec-approvals.json` on disk, safely.
//!
//! It decides how the file is read (never through a symbolic link, never
//! more than [`MAX_FILE_BYTES`]), locked (an exclusive advisory lock on the
//! sibling `exec-approvals.json.lock`, held across every read-modify-write)
//! and written (a temp file created exclusively with mode 0600 in the same
//! 0700 directory, fsync, rename, fsync of the directory). It refuses to
//! overwrite a file it cannot parse (DESIGN.md invariant 6), to write through
//! a symbolic link, and to apply a remote edit made against another version
//! of the file. Concurrent writers never lose an entry and a crash leaves
//! the old file or the new one (invariant 7).
//!
//! Every operation first walks to the directory from `/` and checks who owns
//! it and everything above it ([`strict_modes`]), then works relative to the
//! directory it holds ([`HeldDir`]). A store made with
//! [`ApprovalsStore::pinned`] keeps the first directory it reached and
//! refuses every later operation, with [`ApprovalsError::Replaced`], once the
//! path names another one: a renamed or swapped state directory never takes
//! effect in a running bridge.

mod held_dir;
mod private_fs;
mod strict_modes;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub use self::held_dir::{HeldDir, MAX_LINKS};
use self::private_fs::{
    Entry, WriteLock, lock_exclusive, make_private, read_regular, write_atomic,
};
use super::edit::sha256_hex;
use super::error::{ApprovalsError, LoadWarning};
use super::model::{ApprovalsFile, Ask, PolicyLayer, Security, SocketConfig};
use super::paths::SOCKET_FILE_NAME;
use super::token::Token;

/// Larger files are refused: 10 000 entries take about 2 MB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Mode of the state directory: only the owner may list or enter it.
pub const DIR_MODE: u32 = 0o700;
/// Mode of the approvals file and its lock file: owner read/write only.
pub const FILE_MODE: u32 = 0o600;

/// A handle on one approvals file path; cheap to clone. Unpinned it holds
/// no file open; pinned it holds the state directory it first reached.
#[derive(Debug, Clone)]
pub struct ApprovalsStore {
    path: PathBuf,
    lock_path: PathBuf,
    file_name: OsString,
    lock_name: OsString,
    /// `Some` for a pinned store: the directory held since its first walk,
    /// shared by every clone.
    pin: Option<Arc<OnceLock<Arc<HeldDir>>>>,
}

/// What identifies one version of the file on disk without reading it
/// (device, inode, size, mtime, ctime), for change detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    dev: u64,
    ino: u64,
    size: i64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// The file as read at one moment, with the hash remote editors send back.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The normalized file (an empty one when the file does not exist).
    pub file: ApprovalsFile,
    /// Lowercase hex sha256 of the bytes on disk (of `""` when missing).
    pub hash: String,
    /// What the load ignored.
    pub warnings: Vec<LoadWarning>,
    /// Whether the file existed.
    pub exists: bool,
}

impl Snapshot {
    /// The same snapshot without the socket token, for `get` replies.
    pub fn redacted(&self) -> Snapshot {
        Snapshot {
            file: self.file.redacted(),
            ..self.clone()
        }
    }
}

/// The bytes of the file, if it exists, read without following links.
struct OnDisk {
    bytes: Option<Vec<u8>>,
}

impl OnDisk {
    fn hash(&self) -> String {
        sha256_hex(self.bytes.as_deref().unwrap_or_default())
    }
}

impl ApprovalsStore {
    /// A store for the file at `path` that walks to and checks its
    /// directory afresh on every operation (no I/O happens until one runs).
    pub fn open(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let file_name = path.file_name().unwrap_or_default().to_os_string();
        let mut lock_name = file_name.clone();
        lock_name.push(".lock");
        let lock_path = path.with_file_name(&lock_name);
        Self {
            path,
            lock_path,
            file_name,
            lock_name,
            pin: None,
        }
    }

    /// A store for a long-running host: like [`open`](Self::open), but the
    /// first directory reached is held, and once the path names another
    /// directory every operation is refused with
    /// [`ApprovalsError::Replaced`].
    pub fn pinned(path: impl Into<PathBuf>) -> Self {
        Self {
            pin: Some(Arc::default()),
            ..Self::open(path)
        }
    }

    /// What the file on disk is now, without reading it (`None` when it
    /// does not exist), so a caller can tell whether it changed. A pinned
    /// store refuses with [`ApprovalsError::Replaced`] when its directory
    /// was swapped; the owner checks run on the next [`load`](Self::load).
    pub fn stamp(&self) -> Result<Option<FileStamp>, ApprovalsError> {
        let held = match self.pin.as_ref().and_then(|pin| pin.get()) {
            Some(held) => {
                held.still_at_path()?;
                Arc::clone(held)
            }
            None => match self.held_dir(false)? {
                Some(held) => held,
                None => return Ok(None),
            },
        };
        let stat = held_dir::lstat_in(held.fd(), &self.file_name, &self.path)?;
        Ok(stat.as_ref().map(stamp_of))
    }

    /// The approvals file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads and normalizes the file; a missing file is an empty one (every
    /// knob built-in, so nothing runs) with the hash of no bytes.
    pub fn load(&self) -> Result<Snapshot, ApprovalsError> {
        let on_disk = match self.held_dir(false)? {
            Some(dir) => self.read(&dir)?,
            None => OnDisk { bytes: None },
        };
        self.snapshot(&on_disk)
    }

    /// Makes sure the file exists with a socket path and token: creates a
    /// missing file (`defaults: allowlist / on-miss / deny`, no agents),
    /// fills what is missing, and saves only when the bytes would change.
    /// A malformed file is reported, never replaced.
    pub fn ensure(&self) -> Result<Snapshot, ApprovalsError> {
        let (dir, _lock) = self.lock()?;
        let on_disk = self.read(&dir)?;
        let (mut file, warnings) = match &on_disk.bytes {
            Some(bytes) => {
                let loaded = ApprovalsFile::parse(bytes, &self.path)?;
                (loaded.file, loaded.warnings)
            }
            None => (fresh_file(), Vec::new()),
        };
        self.fill_socket(&mut file)?;
        let hash = self.save_if_changed(&dir, &file, &on_disk)?;
        Ok(Snapshot {
            file,
            hash,
            warnings,
            exists: true,
        })
    }

    /// Applies `edit` to the freshest file under the lock and saves the
    /// result atomically. A missing file starts as [`ensure`](Self::ensure)
    /// would create it; a malformed one is refused and left untouched; when
    /// `edit` fails nothing is written.
    pub fn update<T>(
        &self,
        edit: impl FnOnce(&mut ApprovalsFile) -> Result<T, ApprovalsError>,
    ) -> Result<T, ApprovalsError> {
        let (dir, _lock) = self.lock()?;
        let on_disk = self.read(&dir)?;
        let mut file = match &on_disk.bytes {
            Some(bytes) => ApprovalsFile::parse(bytes, &self.path)?.file,
            None => {
                let mut file = fresh_file();
                self.fill_socket(&mut file)?;
                file
            }
        };
        let result = edit(&mut file)?;
        self.save_if_changed(&dir, &file, &on_disk)?;
        Ok(result)
    }

    /// Replaces the whole file with a remote editor's version, provided the
    /// file still hashes to `base_hash` (the hash the editor read). The
    /// current socket path and token are kept: an editor can neither read
    /// nor change them.
    pub fn replace(
        &self,
        mut new_file: ApprovalsFile,
        base_hash: &str,
    ) -> Result<Snapshot, ApprovalsError> {
        let (dir, _lock) = self.lock()?;
        let on_disk = self.read(&dir)?;
        let current_hash = on_disk.hash();
        if !base_hash.trim().eq_ignore_ascii_case(&current_hash) {
            return Err(ApprovalsError::Conflict {
                path: self.path.clone(),
                expected: base_hash.to_owned(),
                found: current_hash,
            });
        }
        let current_socket = match &on_disk.bytes {
            Some(bytes) => ApprovalsFile::parse(bytes, &self.path)?.file.socket,
            None => None,
        }
        .unwrap_or_default();
        let socket = new_file.socket.get_or_insert_with(SocketConfig::default);
        socket.path = current_socket.path;
        socket.token = current_socket.token;
        self.fill_socket(&mut new_file)?;
        let bytes = serialize(&new_file);
        let checked = ApprovalsFile::parse(&bytes, &self.path)?;
        self.write(&dir, &bytes)?;
        Ok(Snapshot {
            file: checked.file,
            hash: sha256_hex(&bytes),
            warnings: checked.warnings,
            exists: true,
        })
    }

    /// Parses what was read into a snapshot.
    fn snapshot(&self, on_disk: &OnDisk) -> Result<Snapshot, ApprovalsError> {
        let Some(bytes) = &on_disk.bytes else {
            return Ok(Snapshot {
                file: ApprovalsFile::default(),
                hash: on_disk.hash(),
                warnings: Vec::new(),
                exists: false,
            });
        };
        let loaded = ApprovalsFile::parse(bytes, &self.path)?;
        Ok(Snapshot {
            file: loaded.file,
            hash: on_disk.hash(),
            warnings: loaded.warnings,
            exists: true,
        })
    }

    /// Fills a missing socket path (`<dir>/exec-approvals.sock`) and token.
    fn fill_socket(&self, file: &mut ApprovalsFile) -> Result<(), ApprovalsError> {
        let socket = file.socket.get_or_insert_with(SocketConfig::default);
        if socket.path.is_none() {
            let dir = std::path::absolute(self.dir()).unwrap_or_else(|_| self.dir().to_path_buf());
            socket.path = Some(dir.join(SOCKET_FILE_NAME).to_string_lossy().into_owned());
        }
        if socket.token.is_none() {
            let token = Token::generate().map_err(|source| ApprovalsError::Random {
                path: self.path.clone(),
                source,
            })?;
            socket.token = Some(token);
        }
        Ok(())
    }

    /// Writes `file` unless its bytes equal what is on disk; returns the
    /// hash of the file as it now is. Never writes a file it would refuse to
    /// load.
    fn save_if_changed(
        &self,
        dir: &HeldDir,
        file: &ApprovalsFile,
        on_disk: &OnDisk,
    ) -> Result<String, ApprovalsError> {
        let bytes = serialize(file);
        if on_disk.bytes.as_deref() != Some(bytes.as_slice()) {
            ApprovalsFile::parse(&bytes, &self.path)?;
            self.write(dir, &bytes)?;
        }
        Ok(sha256_hex(&bytes))
    }

    /// Walks to the directory (creating it when `create`) with the owner
    /// checks; `None` when it does not exist. A pinned store answers with
    /// the directory it holds, or refuses when the walk reached another.
    fn held_dir(&self, create: bool) -> Result<Option<Arc<HeldDir>>, ApprovalsError> {
        let fresh = if create {
            Some(HeldDir::create(self.dir())?)
        } else {
            HeldDir::open(self.dir())?
        };
        let Some(pin) = &self.pin else {
            return Ok(fresh.map(Arc::new));
        };
        let Some(fresh) = fresh else {
            return match pin.get() {
                Some(held) => Err(held.replaced()),
                None => Ok(None),
            };
        };
        let fresh = Arc::new(fresh);
        let held = pin.get_or_init(|| {
            tracing::debug!(dir = %fresh.real_path().display(), "holding the state directory");
            Arc::clone(&fresh)
        });
        if held.same_dir(&fresh) {
            Ok(Some(Arc::clone(held)))
        } else {
            Err(held.replaced())
        }
    }

    /// Reads the file's bytes in `dir`, never through a symbolic link.
    fn read(&self, dir: &HeldDir) -> Result<OnDisk, ApprovalsError> {
        let bytes = read_regular(dir, self.entry())?;
        Ok(OnDisk { bytes })
    }

    /// Creates the private directory if needed and takes the writer lock.
    fn lock(&self) -> Result<(Arc<HeldDir>, WriteLock), ApprovalsError> {
        let dir = self.held_dir(true)?.ok_or_else(|| ApprovalsError::Write {
            path: self.dir().to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "the directory vanished"),
        })?;
        make_private(&dir)?;
        let lock = lock_exclusive(
            &dir,
            Entry {
                name: &self.lock_name,
                path: &self.lock_path,
            },
        )?;
        Ok((dir, lock))
    }

    /// Replaces the file in `dir` atomically with `bytes`.
    fn write(&self, dir: &HeldDir, bytes: &[u8]) -> Result<(), ApprovalsError> {
        write_atomic(dir, self.entry(), bytes)
    }

    /// The approvals file as a name in its directory.
    fn entry(&self) -> Entry<'_> {
        Entry {
            name: &self.file_name,
            path: &self.path,
        }
    }

    /// The directory holding the file (`.` for a bare file name).
    fn dir(&self) -> &Path {
        match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        }
    }
}

/// A file we create: nothing runs unasked, a person at a terminal is asked,
/// nobody answering means no (DESIGN.md section 4). Safe bins stay unset so
/// the built-in ones apply.
fn fresh_file() -> ApprovalsFile {
    ApprovalsFile {
        defaults: Some(PolicyLayer {
            security: Some(Security::Allowlist),
            ask: Some(Ask::OnMiss),
            ask_fallback: Some(Security::Deny),
            ..PolicyLayer::default()
        }),
        ..ApprovalsFile::default()
    }
}

/// The change-detection stamp of a `stat` result.
// The field widths differ between platforms.
#[allow(clippy::unnecessary_cast)]
fn stamp_of(stat: &nix::sys::stat::FileStat) -> FileStamp {
    FileStamp {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
        size: stat.st_size as i64,
        mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        ctime: (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
    }
}

/// Pretty JSON with a 2-space indent and a trailing newline, as OpenClaw
/// writes it.
fn serialize(file: &ApprovalsFile) -> Vec<u8> {
    // Invariant: serializing these types cannot fail (string keys only, no
    // non-finite floats: every number is an integer or came from JSON).
    let mut bytes = serde_json::to_vec_pretty(file).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
