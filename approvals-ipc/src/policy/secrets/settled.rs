//! Paths that hold no link and that only root can change: checked once a
//! second instead of on every evaluation.
//!
//! An agent's commands run as the user. A name in a directory that only
//! root can write (`/tmp` in `/`, `/usr/include` in `/usr`) cannot be
//! replaced by a link those commands make, and neither can a root-owned
//! name in a sticky directory (`/tmp/.X11-unix`). So once such a path and
//! every directory above it were found to be no link, that stays true
//! until root changes it; the finding is reused for [`TTL`]. Anything the
//! user can change (their home, their projects, their own entries in
//! `/tmp`) is never settled, and a node running as root settles nothing:
//! its commands can change everything.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a settled path is trusted before it is looked at again.
pub const TTL: Duration = Duration::from_secs(1);
/// How many paths are remembered; the memory is emptied when it is full.
const CAPACITY: usize = 4096;

/// Which names inside a settled directory are settled once they are found
/// to be no link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Children {
    /// Every name: a root-owned directory that only root can write.
    Any,
    /// Root-owned names only: a root-owned sticky directory anyone can
    /// write (`/tmp`), where nobody else can rename or remove them.
    RootOwned,
    /// None: a directory someone else can write, or not a directory.
    NoneOf,
}

/// What is known of one path.
#[derive(Debug, Clone, Copy)]
enum State {
    /// No link, and only root can change that; which of its names are.
    Settled(Children),
    /// A link, or a path the user can change: looked at every time.
    Unsettled,
}

/// The settled paths of one host, shared by the evaluations of a policy.
#[derive(Debug, Clone)]
pub(super) struct Settled {
    /// The user the commands run as; `None` for root, for whom nothing
    /// settles.
    user: Option<u32>,
    known: Arc<Mutex<Known>>,
}

/// Each path looked at (its bytes), when, and what was found.
type Known = foldhash::HashMap<Vec<u8>, (Instant, State)>;

impl Settled {
    /// The settled paths for commands run as this process's user.
    pub(super) fn for_this_user() -> Self {
        let uid = nix::unistd::geteuid();
        Self::for_user((!uid.is_root()).then_some(uid.as_raw()))
    }

    /// The settled paths for commands run as `user` (`None`: root).
    pub(super) fn for_user(user: Option<u32>) -> Self {
        Settled {
            user,
            known: Arc::default(),
        }
    }

    /// Whether `path` (absolute and normalized: no `.`, `..` or `//`) is
    /// settled: no link, and only root can make it one. Costs one `lstat`
    /// per component not yet looked at, none once every one was.
    pub(super) fn holds_no_link(&self, path: &Path) -> bool {
        let Some(user) = self.user else {
            return false;
        };
        let bytes = path.as_os_str().as_encoded_bytes();
        // Not normalized (or a hidden name, which costs nothing to leave
        // to the usual look).
        let plain = bytes.starts_with(b"/")
            && !bytes.windows(2).any(|w| w == b"//" || w == b"/.")
            && (bytes.len() == 1 || !bytes.ends_with(b"/"));
        if !plain {
            return false;
        }
        let now = Instant::now();
        let Ok(mut known) = self.known.lock() else {
            return false;
        };
        if known.len() >= CAPACITY {
            known.clear();
        }
        // "/" first, then each longer prefix: `/tmp`, `/tmp/x`.
        let ends = std::iter::once(1).chain(
            bytes
                .iter()
                .enumerate()
                .skip(1)
                .filter(|(_, b)| **b == b'/')
                .map(|(i, _)| i)
                .chain(std::iter::once(bytes.len()))
                .filter(|&end| end > 1),
        );
        let mut above = Children::Any;
        for end in ends {
            let prefix = &bytes[..end];
            let state = match known.get(prefix) {
                Some((at, state)) if now.duration_since(*at) < TTL => *state,
                _ => {
                    if above == Children::NoneOf {
                        return false;
                    }
                    let state = look_at(prefix, above, user);
                    known.insert(prefix.to_vec(), (now, state));
                    state
                }
            };
            match state {
                State::Settled(children) => above = children,
                State::Unsettled => return false,
            }
        }
        true
    }
}

/// What `lstat` says of `path`, a name in a directory whose names are
/// settled as `above` says.
fn look_at(path: &[u8], above: Children, user: u32) -> State {
    let path = Path::new(std::ffi::OsStr::from_bytes(path));
    match std::fs::symlink_metadata(path) {
        Ok(meta) => state_of(
            meta.file_type().is_symlink(),
            meta.is_dir(),
            meta.uid(),
            meta.mode(),
            above,
            user,
        ),
        Err(_) => State::Unsettled,
    }
}

/// The state of a name (a link or not, a directory or not, its owner and
/// mode) in a directory whose names are settled as `above` says, for
/// commands run as `user` (not root).
fn state_of(link: bool, dir: bool, owner: u32, mode: u32, above: Children, user: u32) -> State {
    let admitted = match above {
        Children::Any => true,
        Children::RootOwned => owner == 0,
        Children::NoneOf => false,
    };
    if link || !admitted || user == 0 {
        return State::Unsettled;
    }
    let children = if !dir || owner != 0 {
        Children::NoneOf
    } else if mode & 0o022 == 0 {
        Children::Any
    } else if mode & 0o1000 != 0 {
        Children::RootOwned
    } else {
        Children::NoneOf
    };
    State::Settled(children)
}

#[cfg(test)]
#[path = "settled_tests.rs"]
mod tests;
