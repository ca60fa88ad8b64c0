//! The shell builtins the engine knows, one list: which the shell analysis
//! refuses by name, which only a shell can run, and which the plan models.
//!
//! Our executor runs programs, not a shell (DESIGN.md section 6, "What runs
//! is what was checked"), so a builtin that acts on the shell itself cannot
//! be run faithfully and is refused (invariant 3). Builtins that also exist
//! as programs (`echo`, `test`, `printf`, `pwd`, `kill` …) are not listed:
//! the executor runs the program.

/// How the engine treats one builtin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinHandling {
    /// Changes how later text is read or run: the shell analysis refuses a
    /// script using it, by name, and the plan refuses it as a command.
    RefusedInScript,
    /// Acts on the shell itself or has no program of its own: the plan
    /// refuses it as a command, because our executor cannot run it.
    ShellOnly,
    /// Modelled by the plan (`cd`) or unwrapped as a dispatch wrapper
    /// (`exec`, `command`, `builtin`); our executor runs what it means.
    Modelled,
}

/// One shell builtin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    /// The builtin's name, as a command word.
    pub name: &'static str,
    /// How the analysis and the plan treat it.
    pub handling: BuiltinHandling,
    /// What it would do, shown when it is refused.
    pub reason: &'static str,
}

impl Builtin {
    /// Whether our executor cannot run it: the plan refuses it.
    pub fn is_shell_only(&self) -> bool {
        self.handling != BuiltinHandling::Modelled
    }
}

use BuiltinHandling::{Modelled, RefusedInScript, ShellOnly};

const fn b(name: &'static str, handling: BuiltinHandling, reason: &'static str) -> Builtin {
    Builtin {
        name,
        handling,
        reason,
    }
}

/// Every builtin the engine knows, sorted by name.
pub const BUILTINS: &[Builtin] = &[
    b(".", RefusedInScript, "runs a file as shell code"),
    b(
        ":",
        ShellOnly,
        "does nothing, and has no program of its own",
    ),
    b("alias", RefusedInScript, "changes how later words are read"),
    b(
        "bg",
        ShellOnly,
        "resumes a job of the shell in the background",
    ),
    b("break", ShellOnly, "leaves a loop of the shell"),
    b(
        "builtin",
        Modelled,
        "runs a builtin by name; unwrapped as a dispatch wrapper",
    ),
    b(
        "cd",
        Modelled,
        "changes the working directory; the plan follows it",
    ),
    b(
        "command",
        Modelled,
        "runs a command skipping functions; unwrapped as a dispatch wrapper",
    ),
    b("continue", ShellOnly, "continues a loop of the shell"),
    b("declare", RefusedInScript, "sets variables and attributes"),
    b("disown", ShellOnly, "removes a job from the shell's table"),
    b("enable", RefusedInScript, "loads or swaps builtins"),
    b("eval", RefusedInScript, "runs its arguments as shell code"),
    b(
        "exec",
        Modelled,
        "replaces the shell with a command; unwrapped as a dispatch wrapper",
    ),
    b("exit", ShellOnly, "exits the shell"),
    b(
        "export",
        RefusedInScript,
        "changes the environment of later commands",
    ),
    b("fc", RefusedInScript, "re-runs commands from history"),
    b(
        "fg",
        ShellOnly,
        "brings a job of the shell to the foreground",
    ),
    b("getopts", ShellOnly, "parses options into shell variables"),
    b("hash", RefusedInScript, "changes where commands are found"),
    b(
        "history",
        RefusedInScript,
        "reads or edits the command history",
    ),
    b("jobs", ShellOnly, "lists the shell's jobs"),
    b(
        "let",
        RefusedInScript,
        "evaluates arithmetic with side effects",
    ),
    b("local", RefusedInScript, "sets variables"),
    b("logout", ShellOnly, "exits a login shell"),
    b("mapfile", RefusedInScript, "reads input into variables"),
    b("popd", RefusedInScript, "changes the working directory"),
    b("pushd", RefusedInScript, "changes the working directory"),
    b("read", RefusedInScript, "reads input into variables"),
    b("readarray", RefusedInScript, "reads input into variables"),
    b("readonly", RefusedInScript, "sets variables and attributes"),
    b(
        "return",
        ShellOnly,
        "returns from a shell function or sourced file",
    ),
    b(
        "set",
        RefusedInScript,
        "changes shell options or positional parameters",
    ),
    b(
        "shift",
        ShellOnly,
        "shifts the shell's positional parameters",
    ),
    b("shopt", RefusedInScript, "changes shell options"),
    b("source", RefusedInScript, "runs a file as shell code"),
    b("suspend", ShellOnly, "suspends the shell"),
    b("times", ShellOnly, "reports the shell's own times"),
    b("trap", RefusedInScript, "runs code on signals or exit"),
    b("type", ShellOnly, "reports how the shell would read a name"),
    b("typeset", RefusedInScript, "sets variables and attributes"),
    b(
        "ulimit",
        RefusedInScript,
        "changes resource limits of later commands",
    ),
    b(
        "umask",
        RefusedInScript,
        "changes the file creation mask of later commands",
    ),
    b(
        "unalias",
        RefusedInScript,
        "changes how later words are read",
    ),
    b("unset", RefusedInScript, "removes variables or functions"),
    b("wait", ShellOnly, "waits for the shell's background jobs"),
];

/// The row for `word`, matched exactly: the shell runs a builtin only by
/// its exact name.
pub fn builtin(word: &str) -> Option<&'static Builtin> {
    BY_NAME.get(word).copied()
}

/// The builtins by name, built once: every command word is looked up.
static BY_NAME: std::sync::LazyLock<foldhash::HashMap<&'static str, &'static Builtin>> =
    std::sync::LazyLock::new(|| BUILTINS.iter().map(|b| (b.name, b)).collect());

/// What a builtin the shell analysis refuses would do, if `word` names one.
pub fn refused_in_script(word: &str) -> Option<&'static str> {
    builtin(word)
        .filter(|b| b.handling == RefusedInScript)
        .map(|b| b.reason)
}

/// Whether `word` is a builtin our executor cannot run (the plan refuses it).
pub fn is_shell_only(word: &str) -> bool {
    builtin(word).is_some_and(Builtin::is_shell_only)
}
