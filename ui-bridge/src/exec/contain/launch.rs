//! What a run starts, prepared in full before anything is spawned: the
//! program, its argv, its exact environment, its working directory and its
//! three stdio descriptors, as C strings and owned descriptors.
//!
//! It decides the final environment (a base, then overrides, later entries
//! winning) and refuses anything a process cannot receive intact (a NUL
//! byte in an argument, variable or path). Being prepared in the parent is
//! what lets the Linux spawn path (`spawn`) run its child on our memory
//! without allocating; [`Launch::into_command`] is the same start as a
//! tokio `Command`, for the `fork` path.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;
use std::process::Stdio;

use tokio::process::Command;

/// Where a [`Launch`]'s environment comes from.
#[derive(Debug, Clone, Copy)]
pub enum EnvBase<'a> {
    /// This process's own environment.
    Inherit,
    /// Exactly these variables.
    Exactly(&'a [(String, String)]),
}

/// One program to start, prepared in the parent so that a child sharing
/// our memory only has to make system calls.
#[derive(Debug)]
pub struct Launch {
    program: CString,
    argv: Vec<CString>,
    /// `KEY=value` entries.
    envp: Vec<CString>,
    cwd: CString,
    /// stdin, stdout, stderr; each numbered 3 or above, so that no `dup2`
    /// onto 0, 1 or 2 can overwrite a descriptor still to be placed.
    stdio: [OwnedFd; 3],
}

impl Launch {
    /// Prepares `program` with its full `argv` (argv\[0\] first), the
    /// environment `base` plus `overrides` (later entries win), the working
    /// directory and the stdin, stdout and stderr descriptors.
    pub fn new(
        program: &Path,
        argv: &[String],
        base: EnvBase<'_>,
        overrides: &[(String, String)],
        cwd: &Path,
        stdio: [OwnedFd; 3],
    ) -> io::Result<Self> {
        let mut vars: Vec<(OsString, OsString)> = match base {
            EnvBase::Inherit => std::env::vars_os().collect(),
            EnvBase::Exactly(vars) => vars
                .iter()
                .map(|(key, value)| (key.into(), value.into()))
                .collect(),
        };
        for (key, value) in overrides {
            match vars
                .iter_mut()
                .find(|(known, _)| known.as_os_str() == OsStr::new(key))
            {
                Some(slot) => slot.1 = value.into(),
                None => vars.push((key.into(), value.into())),
            }
        }
        let envp = vars
            .into_iter()
            .map(|(key, value)| {
                let mut entry = key.into_vec();
                entry.push(b'=');
                entry.extend_from_slice(value.as_bytes());
                c_string(entry)
            })
            .collect::<io::Result<_>>()?;
        let [stdin, stdout, stderr] = stdio;
        Ok(Self {
            program: c_string(program.as_os_str().as_bytes().to_vec())?,
            argv: argv
                .iter()
                .map(|arg| c_string(arg.as_bytes().to_vec()))
                .collect::<io::Result<_>>()?,
            envp,
            cwd: c_string(cwd.as_os_str().as_bytes().to_vec())?,
            stdio: [
                above_stdio(stdin)?,
                above_stdio(stdout)?,
                above_stdio(stderr)?,
            ],
        })
    }

    /// The program's path.
    pub(super) fn program(&self) -> &CString {
        &self.program
    }

    /// The full argv, argv\[0\] first.
    pub(super) fn argv(&self) -> &[CString] {
        &self.argv
    }

    /// The exact environment, as `KEY=value` entries.
    pub(super) fn envp(&self) -> &[CString] {
        &self.envp
    }

    /// The working directory.
    pub(super) fn cwd(&self) -> &CString {
        &self.cwd
    }

    /// stdin, stdout and stderr, each numbered 3 or above.
    pub(super) fn stdio(&self) -> &[OwnedFd; 3] {
        &self.stdio
    }

    /// The same start as a tokio `Command` (cleared environment, then
    /// exactly ours), killed when dropped, for the `fork` spawn path.
    pub(super) fn into_command(self) -> Command {
        let os = |text: &CString| OsStr::from_bytes(text.as_bytes()).to_owned();
        let mut command = Command::new(os(&self.program));
        if let Some((argv0, args)) = self.argv.split_first() {
            command.arg0(os(argv0)).args(args.iter().map(os));
        }
        command.env_clear();
        for entry in &self.envp {
            let bytes = entry.as_bytes();
            // Every entry was built as KEY=value, with no '=' in KEY.
            let split = bytes.iter().position(|&b| b == b'=').unwrap_or(bytes.len());
            let (key, value) = bytes.split_at(split);
            let value = value.get(1..).unwrap_or_default();
            command.env(OsStr::from_bytes(key), OsStr::from_bytes(value));
        }
        let [stdin, stdout, stderr] = self.stdio;
        command
            .current_dir(os(&self.cwd))
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::from(stdout))
            .stderr(Stdio::from(stderr))
            .kill_on_drop(true);
        command
    }
}

fn c_string(bytes: Vec<u8>) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "an argument, variable or path contains a NUL byte",
        )
    })
}

/// `fd` itself when it is numbered 3 or above, else a close-on-exec
/// duplicate that is (std duplicates with `F_DUPFD_CLOEXEC` from 3).
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        Ok(fd)
    } else {
        fd.try_clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn null() -> OwnedFd {
        OwnedFd::from(std::fs::File::open("/dev/null").expect("/dev/null"))
    }

    #[test]
    fn overrides_replace_base_variables_and_add_new_ones() {
        let base = [
            ("A".to_owned(), "1".to_owned()),
            ("B".to_owned(), "2".to_owned()),
        ];
        let overrides = [
            ("B".to_owned(), "3".to_owned()),
            ("C".to_owned(), "4".to_owned()),
        ];
        let launch = Launch::new(
            Path::new("/bin/true"),
            &["true".to_owned()],
            EnvBase::Exactly(&base),
            &overrides,
            Path::new("/"),
            [null(), null(), null()],
        )
        .expect("launch");
        let envp: Vec<&[u8]> = launch.envp().iter().map(|entry| entry.as_bytes()).collect();
        assert_eq!(envp, [&b"A=1"[..], b"B=3", b"C=4"]);
    }

    #[test]
    fn a_nul_byte_is_refused() {
        let launch = Launch::new(
            Path::new("/bin/true"),
            &["tr\0ue".to_owned()],
            EnvBase::Exactly(&[]),
            &[],
            Path::new("/"),
            [null(), null(), null()],
        );
        assert_eq!(
            launch.map(drop).map_err(|error| error.kind()),
            Err(io::ErrorKind::InvalidInput)
        );
    }
}
