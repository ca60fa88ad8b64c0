//! Who may own the approvals file and the directories above it, as a pure
//! rule (OpenSSH's `StrictModes`).
//!
//! It decides, for one inode already opened or stat'ed, whether the policy
//! may be trusted through it: every directory from `/` down to the state
//! directory, the state directory, the approvals file and its lock file
//! must be owned by our effective UID or by root and must not be writable by
//! group or others. A parent directory with the sticky bit (`/tmp`) may be
//! writable by others: nobody but its owner and a child's owner can rename
//! or remove that child, and the child is checked in turn. A symbolic link
//! on the way may only be followed when root or we own it. Anything else is
//! refused with an error that names the path and the fix; a user who can
//! rename any directory on the path could otherwise put a policy of their
//! own in its place.

use std::path::Path;

use crate::approvals::error::ApprovalsError;

/// Group-write and other-write permission bits.
const WRITABLE_BY_OTHERS: u32 = 0o022;
/// The sticky bit: in such a directory only an entry's owner may rename it.
const STICKY: u32 = 0o1000;
/// The UID every system trusts anyway.
const ROOT: u32 = 0;

/// What the rule needs to know of one inode, from `fstat` or `fstatat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Inode {
    /// Owner UID.
    pub(crate) uid: u32,
    /// `st_mode`: permission bits (type bits may be present and are ignored).
    pub(crate) mode: u32,
    /// Device of the filesystem holding it.
    pub(crate) dev: u64,
    /// Inode number on that device.
    pub(crate) ino: u64,
}

impl Inode {
    /// Whether both name the very same file (device and inode).
    pub(crate) fn same_file(&self, other: &Inode) -> bool {
        (self.dev, self.ino) == (other.dev, other.ino)
    }
}

/// Which place an inode holds on the path; each has its own rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A directory above the state directory: sticky ones may be writable by others.
    Parent,
    /// A symbolic link followed on the way: only its owner matters.
    Link,
    /// The state directory, the approvals file or its lock file.
    Private,
}

/// Refuses `inode` at `path` unless root or `euid` owns it and, for its
/// `role`, nobody else may write to it.
pub(crate) fn check(
    path: &Path,
    inode: &Inode,
    role: Role,
    euid: u32,
) -> Result<(), ApprovalsError> {
    if inode.uid != euid && inode.uid != ROOT {
        return Err(ApprovalsError::NotOwned {
            path: path.to_path_buf(),
            owner: inode.uid,
            expected: euid,
        });
    }
    let writable = inode.mode & WRITABLE_BY_OTHERS != 0;
    let excused = match role {
        Role::Link => true,
        Role::Parent => inode.mode & STICKY != 0,
        Role::Private => false,
    };
    if writable && !excused {
        return Err(ApprovalsError::WritableByOthers {
            path: path.to_path_buf(),
            mode: inode.mode & 0o7777,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: u32 = 1000;
    const OTHER: u32 = 65534;

    fn inode(uid: u32, mode: u32) -> Inode {
        Inode {
            uid,
            mode,
            dev: 1,
            ino: 2,
        }
    }

    /// What `check` says, reduced to a comparable word.
    fn verdict(uid: u32, mode: u32, role: Role) -> &'static str {
        match check(Path::new("/p"), &inode(uid, mode), role, US) {
            Ok(()) => "ok",
            Err(ApprovalsError::NotOwned { .. }) => "not-owned",
            Err(ApprovalsError::WritableByOthers { .. }) => "writable",
            Err(_) => "other",
        }
    }

    #[test]
    fn strict_modes_table() {
        use Role::*;
        // (owner, mode with type bits, role, verdict)
        let cases: &[(u32, u32, Role, &str)] = &[
            (US, 0o040700, Private, "ok"),
            (ROOT, 0o040755, Private, "ok"),
            (US, 0o100644, Private, "ok"),
            (OTHER, 0o040700, Private, "not-owned"),
            (OTHER, 0o100600, Private, "not-owned"),
            (US, 0o040770, Private, "writable"),
            (US, 0o040705, Private, "ok"),
            (US, 0o040702, Private, "writable"),
            (US, 0o100620, Private, "writable"),
            (US, 0o041777, Private, "writable"),
            (ROOT, 0o040755, Parent, "ok"),
            (US, 0o040755, Parent, "ok"),
            (OTHER, 0o040755, Parent, "not-owned"),
            (OTHER, 0o041777, Parent, "not-owned"),
            (ROOT, 0o040775, Parent, "writable"),
            (ROOT, 0o040757, Parent, "writable"),
            (ROOT, 0o041777, Parent, "ok"),
            (US, 0o041770, Parent, "ok"),
            (ROOT, 0o120777, Link, "ok"),
            (US, 0o120777, Link, "ok"),
            (OTHER, 0o120777, Link, "not-owned"),
        ];
        for &(uid, mode, role, expected) in cases {
            assert_eq!(
                verdict(uid, mode, role),
                expected,
                "uid={uid} mode={mode:o} role={role:?}"
            );
        }
    }

    #[test]
    fn refusals_carry_the_path_the_owner_and_the_mode() {
        let path = Path::new("/srv/state");
        let err = check(path, &inode(OTHER, 0o040700), Role::Private, US).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::NotOwned { path: p, owner: OTHER, expected: US } if p == path),
            "{err:?}"
        );
        let err = check(path, &inode(US, 0o040775), Role::Private, US).unwrap_err();
        assert!(
            matches!(&err, ApprovalsError::WritableByOthers { path: p, mode: 0o775 } if p == path),
            "{err:?}"
        );
    }

    #[test]
    fn same_file_compares_device_and_inode() {
        let a = inode(US, 0o700);
        assert!(a.same_file(&Inode {
            uid: 0,
            mode: 0,
            ..a
        }));
        assert!(!a.same_file(&Inode { ino: 3, ..a }));
        assert!(!a.same_file(&Inode { dev: 9, ..a }));
    }
}
