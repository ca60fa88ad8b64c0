//! The approver hook's check at start: a hook that cannot work is refused
//! before the bridge serves, not discovered on the first approval.
//!
//! It decides what "cannot work" means, cheaply and without running the
//! hook: the command is not empty; `/bin/sh -n` parses it (syntax only,
//! nothing runs); and its program — the first word after any `NAME=value`
//! assignments — exists and is executable: a word with a `/` as a path, any
//! other word on `PATH` or as a shell builtin or keyword. A first word the
//! shell would expand (`$HOOK`, a glob, quotes it cannot see through) cannot
//! be checked without running it, so only the syntax is checked then. A
//! hook that passes can still fail when it runs; that is reported per
//! approval as `hook-failed`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Words `sh` runs itself, so they need no program on `PATH`.
const SHELL_WORDS: &[&str] = &[
    "!", ".", ":", "[", "break", "case", "cd", "command", "continue", "echo", "eval", "exec",
    "exit", "export", "false", "for", "if", "printf", "read", "readonly", "return", "set", "shift",
    "test", "times", "trap", "true", "type", "ulimit", "umask", "unset", "until", "wait", "while",
    "{", "(",
];

/// Why a hook is refused at start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HookCheckError {
    /// The command is empty or blank.
    #[error(
        "the approver hook is empty\nhint: give a command that prints allow-once, allow-always or deny"
    )]
    Empty,
    /// `sh -n` refused it.
    #[error(
        "the approver hook `{command}` is not valid sh: {why}\nhint: try it by hand with: sh -n -c '…'"
    )]
    Syntax {
        /// The hook.
        command: String,
        /// What `sh` said.
        why: String,
    },
    /// `sh` itself could not be run to check it.
    #[error("cannot check the approver hook with /bin/sh: {0}")]
    NoShell(String),
    /// A program named by path does not exist.
    #[error("the approver hook's program {} does not exist\nhint: fix the path, or give the full path of an existing program", .0.display())]
    Missing(PathBuf),
    /// A program named by path is not a file.
    #[error("the approver hook's program {} is not a file", .0.display())]
    NotAFile(PathBuf),
    /// A program named by path cannot be executed.
    #[error("the approver hook's program {} is not executable\nhint: chmod +x {}", .0.display(), .0.display())]
    NotExecutable(PathBuf),
    /// A bare program name is not on `PATH`.
    #[error(
        "the approver hook's program `{0}` is not on PATH\nhint: give its full path, or install it"
    )]
    NotOnPath(String),
}

/// Checks `command` as described in the module docs; `Ok` means it may run.
pub fn check(command: &str) -> Result<(), HookCheckError> {
    if command.trim().is_empty() {
        return Err(HookCheckError::Empty);
    }
    syntax(command)?;
    match program(command) {
        Some(word) => executable(&word),
        None => Ok(()),
    }
}

/// `/bin/sh -n -c COMMAND`: parses, runs nothing.
fn syntax(command: &str) -> Result<(), HookCheckError> {
    let out = Command::new("/bin/sh")
        .args(["-n", "-c", command])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|error| HookCheckError::NoShell(error.to_string()))?;
    if out.status.success() {
        return Ok(());
    }
    let why = String::from_utf8_lossy(&out.stderr);
    let why = why.lines().next().unwrap_or("it does not parse").trim();
    Err(HookCheckError::Syntax {
        command: command.to_owned(),
        why: why.chars().take(200).collect(),
    })
}

/// The program word of `command`, unquoted; `None` when it cannot be known
/// without the shell expanding it, or when the shell runs it itself.
fn program(command: &str) -> Option<String> {
    let mut rest = command.trim_start();
    loop {
        let (word, after) = first_word(rest)?;
        let is_assignment = word.split_once('=').is_some_and(|(name, _)| is_name(name));
        if !is_assignment {
            if SHELL_WORDS.contains(&word.as_str()) {
                return None;
            }
            return Some(word);
        }
        rest = after.trim_start();
    }
}

/// The first word and what follows it; `None` for a word the shell would
/// expand, or quoting this reader does not follow.
fn first_word(text: &str) -> Option<(String, &str)> {
    let end = |c: char| c.is_whitespace() || ";&|<>()".contains(c);
    if let Some(quote @ ('\'' | '"')) = text.chars().next() {
        let body = &text[1..];
        let close = body.find(quote)?;
        let word = &body[..close];
        let after = &body[close + 1..];
        if after.chars().next().is_some_and(|c| !end(c)) {
            return None;
        }
        if quote == '"' && word.contains(['$', '`', '\\']) {
            return None;
        }
        return Some((word.to_owned(), after));
    }
    let stop = text.find(end).unwrap_or(text.len());
    let word = &text[..stop];
    if word.is_empty() || word.contains(['$', '`', '\\', '\'', '"', '*', '?', '[', '~', '{']) {
        return None;
    }
    Some((word.to_owned(), &text[stop..]))
}

/// Whether `name` is a shell variable name.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The program exists and may be executed.
fn executable(word: &str) -> Result<(), HookCheckError> {
    if word.contains('/') {
        return runnable_file(Path::new(word));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join(word);
        if runnable_file(&candidate).is_ok() {
            return Ok(());
        }
    }
    Err(HookCheckError::NotOnPath(word.to_owned()))
}

/// `path` is a file with an execute bit the bridge's user may use.
fn runnable_file(path: &Path) -> Result<(), HookCheckError> {
    let meta = std::fs::metadata(path).map_err(|_| HookCheckError::Missing(path.to_owned()))?;
    if !meta.is_file() {
        return Err(HookCheckError::NotAFile(path.to_owned()));
    }
    let any_x = meta.permissions().mode() & 0o111 != 0;
    if !any_x || nix::unistd::access(path, nix::unistd::AccessFlags::X_OK).is_err() {
        return Err(HookCheckError::NotExecutable(path.to_owned()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn working_hooks_pass() {
        for hook in [
            "echo allow-once",
            "printf deny",
            "cat >/dev/null; echo deny",
            "FOO=1 sh -c 'echo deny'",
            "/bin/sh -c 'echo allow-once'",
            "'/bin/sh' -c 'echo deny'",
            "$HOOK",
            "exit 1",
        ] {
            assert_eq!(check(hook), Ok(()), "{hook}");
        }
    }

    #[test]
    fn broken_hooks_are_refused_with_the_cause() {
        let dir = tempfile::tempdir().expect("tempdir");
        let plain = dir.path().join("not-executable");
        std::fs::write(&plain, "#!/bin/sh\necho allow-once\n").expect("write");
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let missing = dir.path().join("missing-hook");
        let cases = [
            ("", HookCheckError::Empty),
            ("   ", HookCheckError::Empty),
            (
                "no-such-program-h2x allow",
                HookCheckError::NotOnPath("no-such-program-h2x".into()),
            ),
            (
                &format!("{} --flag", missing.display()),
                HookCheckError::Missing(missing.clone()),
            ),
            (
                &format!("{}", plain.display()),
                HookCheckError::NotExecutable(plain.clone()),
            ),
            (
                &format!("{}", dir.path().display()),
                HookCheckError::NotAFile(dir.path().to_owned()),
            ),
        ];
        for (hook, want) in cases {
            assert_eq!(check(hook), Err(want), "{hook}");
        }
        assert!(
            matches!(check("echo 'unclosed"), Err(HookCheckError::Syntax { .. })),
            "{:?}",
            check("echo 'unclosed")
        );
    }

    #[test]
    fn the_program_word_skips_assignments_and_follows_simple_quotes() {
        let cases = [
            ("A=1 B=2 notify-send x", Some("notify-send")),
            ("'/opt/my hook' --x", Some("/opt/my hook")),
            ("\"/opt/hook\"; echo", Some("/opt/hook")),
            ("hook|tee", Some("hook")),
            ("\"$HOME/hook\"", None),
            ("~/hook", None),
            ("if true; then echo deny; fi", None),
        ];
        for (command, want) in cases {
            assert_eq!(program(command).as_deref(), want, "{command}");
        }
    }
}
