//! Why the policy decided what it did, as types: the analysis refusal, the
//! per-segment miss, the denylist hit and the verdict's reason.
//!
//! Every reason carries a stable kebab-case [`Reason::code`] beside its
//! human text. Code that acts on a reason (the wire error, the audit, the
//! ask fallback) matches the type or the code, never the text, so rewording
//! a message changes nothing on the wire. The codes are documented in
//! `docs/policy.md` and never change once released.

use std::fmt;

use serde::ser::SerializeStruct;

use crate::policy::env::NotInert;
use crate::policy::guards::{GuardHit, distinct_reasons};
use crate::policy::safe_bins::SafeBinRefusal;
use crate::policy::shell::ShellRefusal;
use crate::policy::unicode::UnicodeRefusal;
use crate::policy::wrappers::WrapperRefusal;

/// Why the analysis did not understand a command (DESIGN.md invariant 3:
/// such a command is never auto-allowed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No command at all.
    #[error("empty command")]
    EmptyCommand,
    /// An invisible, control or format character in an argument.
    #[error(transparent)]
    Unicode(UnicodeRefusal),
    /// A wrapper that cannot be seen through.
    #[error(transparent)]
    Wrapper(WrapperRefusal),
    /// A shell construct outside the analysed grammar.
    #[error(transparent)]
    Shell(ShellRefusal),
    /// A `NAME=value` prefix of a variable that is not inert.
    #[error("the assignment {name}={value} is not auto-allowed: {why}")]
    Assignment {
        /// The variable.
        name: String,
        /// Its value as written.
        value: String,
        /// Why it is not inert.
        why: NotInert,
    },
    /// A request's environment override that is not inert (checked by the
    /// same list as assignments); a person decides, and sees every override
    /// that is not inert, since an approval runs with all of them.
    #[error(
        "the environment override {name}={value:?} is not auto-allowed: {why}{}",
        also(others)
    )]
    EnvOverride {
        /// The first variable (in name order) that is not inert.
        name: String,
        /// Its value as sent.
        value: String,
        /// Why it is not inert.
        why: NotInert,
        /// The request's other overrides that are not inert, as
        /// `NAME="value"`.
        others: Vec<String>,
    },
    /// An unquoted glob we could not expand exactly.
    #[error("{0}")]
    Glob(#[from] crate::policy::expand::GlobError),
    /// `sh -c` inside a script.
    #[error(
        "a nested shell ({shell} -c) inside a script is not auto-allowed: only one level is read, \
         standing alone in its pipeline or chain, without wrappers, prefixes or redirections"
    )]
    NestedShell {
        /// The shell word.
        shell: String,
    },
    /// A builtin our executor cannot run faithfully.
    #[error("the shell builtin `{word}` is not auto-allowed")]
    ShellBuiltin {
        /// The builtin.
        word: String,
    },
    /// A shell or wrapper called by another name (a link an agent made).
    #[error("{word} is really {real_name}, a shell or wrapper; call it by its own name")]
    Disguised {
        /// The word as written.
        word: String,
        /// The file name it resolves to.
        real_name: String,
    },
    /// `cd` followed by something other than `&&`.
    #[error(
        "after `cd`, only `&&` may join commands (otherwise the directory later commands run in depends on success)"
    )]
    CdChain,
    /// `cd` inside a pipeline, or with prefixes or redirections.
    #[error("`cd` inside a pipeline or with redirections is not auto-allowed")]
    CdInPipeline,
    /// `cd` with no operand and no home directory.
    #[error("`cd` without a directory needs a home directory")]
    CdWithoutHome,
    /// `cd -`, `cd -P` and the like.
    #[error("`cd {arg}` is not auto-allowed")]
    CdOption {
        /// The operand as written.
        arg: String,
    },
    /// `cd a b`.
    #[error("`cd` with more than one argument is not auto-allowed")]
    CdOperands,
    /// `< FILE` naming something other than an existing regular file or
    /// `/dev/null`: a missing file (an earlier command may make it, as a
    /// link to anything), a directory, a FIFO or device that can block or
    /// read hardware, or a kernel file under `/proc`, `/sys` or `/dev`.
    #[error("stdin from {path} is not auto-allowed: {why}")]
    InputFile {
        /// The file name as written (quotes removed).
        path: String,
        /// What it is instead of a regular file.
        why: &'static str,
    },
}

impl Refusal {
    /// The stable code of this refusal; a shell construct keeps its own
    /// [`ShellRefusal::code`].
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyCommand => "empty-command",
            Self::Unicode(_) => "unsafe-character",
            Self::Wrapper(WrapperRefusal::Semantic { .. }) => "semantic-wrapper",
            Self::Wrapper(WrapperRefusal::Option { .. }) => "wrapper-option",
            Self::Wrapper(WrapperRefusal::Shell { .. }) => "shell-invocation",
            Self::Wrapper(WrapperRefusal::TooDeep) => "wrappers-too-deep",
            Self::Shell(refusal) => refusal.code(),
            Self::Assignment { .. } => "assignment",
            Self::EnvOverride { .. } => "env-override",
            Self::Glob(_) => "glob-expansion",
            Self::NestedShell { .. } => "nested-shell",
            Self::ShellBuiltin { .. } => "builtin",
            Self::Disguised { .. } => "disguised-program",
            Self::CdChain => "cd-chain",
            Self::CdInPipeline => "cd-in-pipeline",
            Self::CdWithoutHome => "cd-without-home",
            Self::CdOption { .. } => "cd-option",
            Self::CdOperands => "cd-operands",
            Self::InputFile { .. } => "input-file",
        }
    }
}

/// `; also not inert: A="1", B="2"`, or nothing.
fn also(others: &[String]) -> String {
    if others.is_empty() {
        String::new()
    } else {
        format!("; also not inert: {}", others.join(", "))
    }
}

impl From<ShellRefusal> for Refusal {
    fn from(refusal: ShellRefusal) -> Self {
        Self::Shell(refusal)
    }
}

impl From<WrapperRefusal> for Refusal {
    fn from(refusal: WrapperRefusal) -> Self {
        Self::Wrapper(refusal)
    }
}

impl From<UnicodeRefusal> for Refusal {
    fn from(refusal: UnicodeRefusal) -> Self {
        Self::Unicode(refusal)
    }
}

/// The note [`Miss::NotAllowlisted`] adds when the command word resolved
/// through a link: entries match the real path, not the link.
fn link_note(via: Option<&str>) -> String {
    via.map(|link| {
        format!(" ({link} leads to it through a symbolic link; allowlist entries match the real path, so add an entry for the real path)")
    })
    .unwrap_or_default()
}

/// Why one understood segment is not satisfied under `security: allowlist`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Miss {
    /// argv[0] resolved to nothing.
    #[error("{word} was not found")]
    NotFound {
        /// The command word.
        word: String,
    },
    /// No allowlist entry, safe bin or skill covers the real path. When
    /// the command word resolved through a link (`/usr/bin/npm` →
    /// `/usr/lib/node_modules/npm/bin/npm-cli.js`), the message names the
    /// link too: an entry for `/usr/bin/*` does not cover it, and a person
    /// reading only the real path would not see why.
    #[error("{real} is not in the allowlist{}", link_note(.via.as_deref()))]
    NotAllowlisted {
        /// The real path, shown.
        real: String,
        /// The path the command word resolved to, when a link leads from
        /// it to `real`.
        via: Option<String>,
    },
    /// The real path is a multi-call binary (rustup, busybox, toybox,
    /// coreutils) that an allowlist entry covers, but only under the entry's
    /// own name: the binary acts by the name it is invoked as, so an entry
    /// for `cargo` does not cover `rustc` through the same file.
    #[error(
        "{real} is a multi-call binary invoked as {invoked:?}; no allowlist entry for it names {invoked:?}"
    )]
    MultiCallName {
        /// The name it was invoked as (the lexical path's file name).
        invoked: String,
        /// The real path, shown.
        real: String,
    },
    /// A safe bin outside the trusted directories.
    #[error("{name} is a safe bin but {real} is not in a trusted directory")]
    SafeBinUntrusted {
        /// The safe bin's name.
        name: String,
        /// Its real path, shown.
        real: String,
    },
    /// A safe bin used beyond its profile.
    #[error("{name} is a safe bin, but {refusal}")]
    SafeBinUsage {
        /// The safe bin's name.
        name: String,
        /// What its profile refused.
        refusal: SafeBinRefusal,
    },
}

impl Miss {
    /// The stable code of this miss.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound { .. } => "not-found",
            Self::NotAllowlisted { .. } => "not-allowlisted",
            Self::MultiCallName { .. } => "multi-call-name",
            Self::SafeBinUntrusted { .. } => "safe-bin-untrusted-dir",
            Self::SafeBinUsage { .. } => "safe-bin-usage",
        }
    }

    /// The finer code beneath [`Miss::code`], where there is one (which
    /// safe-bin rule refused).
    pub fn detail_code(&self) -> Option<&'static str> {
        match self {
            Self::SafeBinUsage { refusal, .. } => Some(refusal.code()),
            _ => None,
        }
    }
}

/// A denylist entry a command matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenyHit {
    /// The entry's index in the agent's denylist.
    pub entry: usize,
    /// The entry's reason, or what it matched when it gives none.
    pub why: String,
    /// Whether the hit was read from a command the analysis did not
    /// understand (salvaged), rather than from an understood segment.
    pub salvaged: bool,
}

impl fmt::Display for DenyHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)?;
        if self.salvaged {
            f.write_str(" (read from a command that was not understood)")?;
        }
        Ok(())
    }
}

/// Why a request got its verdict; `None` on an evaluation means a plain
/// allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The agent's `security` is `deny`.
    SecurityDeny,
    /// `ask: always` asks even for what the policy allows.
    AskAlways,
    /// A denylist entry matched; no approval lifts it.
    Denylist(DenyHit),
    /// A `commandPattern` in the denylist cannot be parsed, so it refuses
    /// every command until it is fixed.
    DenylistUnparsable {
        /// The pattern as written.
        pattern: String,
    },
    /// The analysis did not understand the command.
    NotUnderstood(Refusal),
    /// Allowlisted, but arguments a guard escalates to a person.
    ArgumentGuard(Vec<GuardHit>),
    /// Segments nothing satisfies.
    AllowlistMiss(Vec<Miss>),
    /// Not understood while a denylist is set: it might run a denied
    /// program, so neither `security: full` nor a fallback allows it.
    Uncertain(Refusal),
}

impl Reason {
    /// The stable code, documented in `docs/policy.md`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::SecurityDeny => "security-deny",
            Self::AskAlways => "ask-always",
            Self::Denylist(_) => "denylist",
            Self::DenylistUnparsable { .. } => "denylist-unparsable",
            Self::NotUnderstood(_) => "not-understood",
            Self::ArgumentGuard(_) => "argument-guard",
            Self::AllowlistMiss(_) => "allowlist-miss",
            Self::Uncertain(_) => "uncertain-with-denylist",
        }
    }

    /// The finer code beneath [`Reason::code`]: the analysis refusal's code,
    /// the first guard's id or the first miss's code.
    pub fn detail_code(&self) -> Option<&'static str> {
        match self {
            Self::NotUnderstood(refusal) | Self::Uncertain(refusal) => Some(refusal.code()),
            Self::ArgumentGuard(hits) => hits.first().map(|h| h.id),
            Self::AllowlistMiss(misses) => misses.first().map(Miss::code),
            _ => None,
        }
    }

    /// Whether a denylist decided: no approval can lift it.
    pub fn is_denylist(&self) -> bool {
        matches!(self, Self::Denylist(_) | Self::DenylistUnparsable { .. })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SecurityDeny => f.write_str("security=deny"),
            Self::AskAlways => f.write_str("ask=always"),
            Self::Denylist(hit) => write!(f, "denylist: {hit}"),
            Self::DenylistUnparsable { pattern } => {
                write!(
                    f,
                    "denylist: the denylist commandPattern {pattern:?} cannot be parsed"
                )
            }
            Self::NotUnderstood(refusal) => write!(f, "not understood: {refusal}"),
            Self::ArgumentGuard(hits) => {
                f.write_str("argument guard: ")?;
                join(f, distinct_reasons(hits).into_iter())
            }
            Self::AllowlistMiss(misses) => {
                f.write_str("allowlist-miss: ")?;
                join(f, misses.iter())
            }
            Self::Uncertain(refusal) => write!(
                f,
                "not understood: {refusal}; a denylist is set and this command might run a denied program, so it is never auto-allowed"
            ),
        }
    }
}

fn join<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = T>,
) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// `{"code", "message"}` (plus `"detail"` where there is a finer code): the
/// `explain --json` shape of a reason.
impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        coded(serializer, self.code(), self.detail_code(), self)
    }
}

impl serde::Serialize for Refusal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        coded(serializer, self.code(), None, self)
    }
}

impl serde::Serialize for Miss {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        coded(serializer, self.code(), self.detail_code(), self)
    }
}

fn coded<S: serde::Serializer>(
    serializer: S,
    code: &str,
    detail: Option<&str>,
    message: &dyn fmt::Display,
) -> Result<S::Ok, S::Error> {
    // The field count is a hint serde_json ignores (mutants of it survive).
    let mut s = serializer.serialize_struct("Reason", 2 + usize::from(detail.is_some()))?;
    s.serialize_field("code", code)?;
    if let Some(detail) = detail {
        s.serialize_field("detail", detail)?;
    }
    s.serialize_field("message", &message.to_string())?;
    s.end()
}

#[cfg(test)]
mod tests;
