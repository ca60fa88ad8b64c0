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

mod private_fs;

use std::path::{Path, PathBuf};

use self::private_fs::{
    WriteLock, lock_exclusive, prepare_private_dir, read_regular, write_atomic,
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

/// A handle on one approvals file path; cheap, holds no file open.
#[derive(Debug, Clone)]
pub struct ApprovalsStore {
    path: PathBuf,
    lock_path: PathBuf,
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
    /// A store for the file at `path` (no I/O happens until a method runs).
    pub fn open(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let mut lock_name = path.file_name().unwrap_or_default().to_os_string();
        lock_name.push(".lock");
        let lock_path = path.with_file_name(lock_name);
        Self { path, lock_path }
    }

    /// The approvals file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads and normalizes the file; a missing file is an empty one (every
    /// knob built-in, so nothing runs) with the hash of no bytes.
    pub fn load(&self) -> Result<Snapshot, ApprovalsError> {
        let on_disk = self.read()?;
        self.snapshot(&on_disk)
    }

    /// Makes sure the file exists with a socket path and token: creates a
    /// missing file (`defaults: allowlist / on-miss / deny`, no agents),
    /// fills what is missing, and saves only when the bytes would change.
    /// A malformed file is reported, never replaced.
    pub fn ensure(&self) -> Result<Snapshot, ApprovalsError> {
        let _lock = self.lock()?;
        let on_disk = self.read()?;
        let (mut file, warnings) = match &on_disk.bytes {
            Some(bytes) => {
                let loaded = ApprovalsFile::parse(bytes, &self.path)?;
                (loaded.file, loaded.warnings)
            }
            None => (fresh_file(), Vec::new()),
        };
        self.fill_socket(&mut file)?;
        let hash = self.save_if_changed(&file, &on_disk)?;
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
        let _lock = self.lock()?;
        let on_disk = self.read()?;
        let mut file = match &on_disk.bytes {
            Some(bytes) => ApprovalsFile::parse(bytes, &self.path)?.file,
            None => {
                let mut file = fresh_file();
                self.fill_socket(&mut file)?;
                file
            }
        };
        let result = edit(&mut file)?;
        self.save_if_changed(&file, &on_disk)?;
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
        let _lock = self.lock()?;
        let on_disk = self.read()?;
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
        self.write(&bytes)?;
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
        file: &ApprovalsFile,
        on_disk: &OnDisk,
    ) -> Result<String, ApprovalsError> {
        let bytes = serialize(file);
        if on_disk.bytes.as_deref() != Some(bytes.as_slice()) {
            ApprovalsFile::parse(&bytes, &self.path)?;
            self.write(&bytes)?;
        }
        Ok(sha256_hex(&bytes))
    }

    /// Reads the file's bytes, never through a symbolic link.
    fn read(&self) -> Result<OnDisk, ApprovalsError> {
        let bytes = read_regular(&self.path, self.dir())?;
        Ok(OnDisk { bytes })
    }

    /// Creates the private directory if needed and takes the writer lock.
    fn lock(&self) -> Result<WriteLock, ApprovalsError> {
        prepare_private_dir(self.dir())?;
        lock_exclusive(&self.lock_path)
    }

    /// Replaces the file atomically with `bytes`.
    fn write(&self, bytes: &[u8]) -> Result<(), ApprovalsError> {
        write_atomic(&self.path, self.dir(), bytes)
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

/// Pretty JSON with a 2-space indent and a trailing newline, as OpenClaw
/// writes it.
fn serialize(file: &ApprovalsFile) -> Vec<u8> {
    // Invariant: serializing these types cannot fail (string keys only, no
    // non-finite floats: every number is an integer or came from JSON).
    let mut bytes = serde_json::to_vec_pretty(file).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
