//! Redirections to where a command's stdin, stdout and stderr go.
//!
//! Decides the sinks the way the shell's fd table does, applying
//! redirections left to right: `>/dev/null` and `1>/dev/null` send stdout to
//! [`Sink::Null`], `2>/dev/null` stderr, `&>/dev/null` both, and `2>&1` copies
//! wherever stdout goes at that moment (so `>/dev/null 2>&1` silences both,
//! `2>&1 >/dev/null` keeps stderr on stdout). One heredoc per command becomes
//! literal stdin, and so does `< FILE` or `0< FILE` with a literal file name
//! (quotes, `~` and inert `$VAR` resolved as for argv words): the analysis
//! then judges FILE as a file the command reads, and our executor opens the
//! file that was judged. One stdin source per command: a second heredoc or
//! input file is refused. Refuses every other redirection (output files,
//! appends, `<>`, other descriptors, descriptor duplications, here-strings,
//! process substitutions, a target with a glob, braces or an expansion),
//! since our executor must not open files the policy never saw. Upholds
//! DESIGN.md invariant 3.

use brush_parser::ast::{IoFileRedirectKind, IoFileRedirectTarget, IoRedirect};

use super::word::{WordContext, literal};
use super::{Input, ShellRefusal, heredoc};
use crate::policy::plan::Sink;

/// The only file a redirection may name.
const DEV_NULL: &str = "/dev/null";

/// The I/O of one command as its redirections leave it.
pub(super) struct Io {
    /// The heredoc body or input file, if a redirection gave one.
    pub stdin: Option<Input>,
    /// Where stdout goes.
    pub stdout: Sink,
    /// Where stderr goes.
    pub stderr: Sink,
}

impl Default for Io {
    fn default() -> Self {
        Self {
            stdin: None,
            stdout: Sink::Stdout,
            stderr: Sink::Stderr,
        }
    }
}

impl Io {
    /// Applies one redirection, in source order.
    pub(super) fn apply(
        &mut self,
        redirect: &IoRedirect,
        ctx: &WordContext<'_>,
    ) -> Result<(), ShellRefusal> {
        match redirect {
            IoRedirect::File(fd, kind, target) => self.apply_file(*fd, kind, target, ctx),
            IoRedirect::OutputAndError(word, append) => {
                if !append && literal(&word.value, ctx)? == DEV_NULL {
                    self.stdout = Sink::Null;
                    self.stderr = Sink::Null;
                    Ok(())
                } else {
                    let op = if *append { "&>>" } else { "&>" };
                    Err(ShellRefusal::Redirection {
                        text: format!("{op}{}", word.value),
                    })
                }
            }
            IoRedirect::HereString(_, word) => Err(ShellRefusal::HereString {
                text: word.value.clone(),
            }),
            IoRedirect::HereDocument(fd, doc) => {
                if !matches!(fd, None | Some(0)) {
                    return Err(ShellRefusal::Redirection {
                        text: format!("{}<<{}", fd_prefix(*fd), doc.here_end.value),
                    });
                }
                match self.stdin {
                    Some(Input::Heredoc(_)) => return Err(ShellRefusal::MultipleHeredocs),
                    Some(Input::File(_)) => {
                        return Err(ShellRefusal::MultipleInputs {
                            text: format!("{}<<{}", fd_prefix(*fd), doc.here_end.value),
                        });
                    }
                    None => {}
                }
                self.stdin = Some(Input::Heredoc(heredoc::body(doc)?));
                Ok(())
            }
        }
    }

    /// Applies `[fd]OP target`.
    fn apply_file(
        &mut self,
        fd: Option<i32>,
        kind: &IoFileRedirectKind,
        target: &IoFileRedirectTarget,
        ctx: &WordContext<'_>,
    ) -> Result<(), ShellRefusal> {
        let text = || format!("{}{}{}", fd_prefix(fd), operator(kind), target_text(target));
        match (kind, target) {
            (_, IoFileRedirectTarget::ProcessSubstitution(..)) => {
                Err(ShellRefusal::ProcessSubstitution { text: text() })
            }
            (IoFileRedirectKind::Write, IoFileRedirectTarget::Filename(word))
                if literal(&word.value, ctx)? == DEV_NULL =>
            {
                match fd {
                    None | Some(1) => self.stdout = Sink::Null,
                    Some(2) => self.stderr = Sink::Null,
                    Some(_) => return Err(ShellRefusal::Redirection { text: text() }),
                }
                Ok(())
            }
            (IoFileRedirectKind::Read, IoFileRedirectTarget::Filename(word))
                if matches!(fd, None | Some(0)) =>
            {
                // A glob, brace or expansion in the name is refused here:
                // bash would pick the file, not us.
                let name = literal(&word.value, ctx)?;
                if name.is_empty() {
                    return Err(ShellRefusal::Redirection { text: text() });
                }
                if self.stdin.is_some() {
                    return Err(ShellRefusal::MultipleInputs { text: text() });
                }
                self.stdin = Some(Input::File(name));
                Ok(())
            }
            (IoFileRedirectKind::DuplicateOutput, IoFileRedirectTarget::Fd(1)) if fd == Some(2) => {
                self.stderr = self.stdout;
                Ok(())
            }
            (IoFileRedirectKind::DuplicateOutput, IoFileRedirectTarget::Duplicate(word))
                if fd == Some(2) && word.value == "1" =>
            {
                self.stderr = self.stdout;
                Ok(())
            }
            (IoFileRedirectKind::DuplicateOutput | IoFileRedirectKind::DuplicateInput, _) => {
                Err(ShellRefusal::FdDuplication { text: text() })
            }
            _ => Err(ShellRefusal::Redirection { text: text() }),
        }
    }
}

/// `2` in `2>x`, empty when the default descriptor is meant.
fn fd_prefix(fd: Option<i32>) -> String {
    fd.map(|fd| fd.to_string()).unwrap_or_default()
}

/// The operator as written, for messages.
fn operator(kind: &IoFileRedirectKind) -> &'static str {
    match kind {
        IoFileRedirectKind::Read => "<",
        IoFileRedirectKind::Write => ">",
        IoFileRedirectKind::Append => ">>",
        IoFileRedirectKind::ReadAndWrite => "<>",
        IoFileRedirectKind::Clobber => ">|",
        IoFileRedirectKind::DuplicateInput => "<&",
        IoFileRedirectKind::DuplicateOutput => ">&",
    }
}

/// The target as written, for messages.
fn target_text(target: &IoFileRedirectTarget) -> String {
    match target {
        IoFileRedirectTarget::Filename(word) | IoFileRedirectTarget::Duplicate(word) => {
            word.value.clone()
        }
        IoFileRedirectTarget::Fd(fd) => fd.to_string(),
        IoFileRedirectTarget::ProcessSubstitution(..) => "(...)".to_owned(),
    }
}
