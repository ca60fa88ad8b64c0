//! Why a shell script was not understood: one variant per construct.
//!
//! The analysis is an allowlist of syntax; everything else ends here, named,
//! with the offending text, so a user knows what to rewrite and a test can
//! assert the exact construct by its [`ShellRefusal::code`]. Upholds DESIGN.md
//! invariant 3: a refusal means the script is never auto-allowed.

use crate::policy::unicode::{UnicodeRefusal, escape_for_display};

/// Shows agent-controlled text in a message with invisible characters and
/// newlines escaped, so a refusal cannot itself spoof a prompt.
struct Shown<'a>(&'a str);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&escape_for_display(self.0))
    }
}

/// A construct the shell analysis does not auto-allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShellRefusal {
    /// The script has no command at all (empty, blanks or comments only).
    #[error("empty script: there is no command to run")]
    EmptyScript,
    /// The shell grammar rejected the script (unterminated quote, `ls &&`, ...).
    #[error("script does not parse: {}", Shown(message))]
    Parse {
        /// The parser's message.
        message: String,
    },
    /// The parser itself failed (a panic in third-party code, caught).
    #[error("the shell parser failed on this script")]
    ParserFailure,
    /// An invisible, control or format character anywhere in the script.
    #[error("invisible or control character: {0}")]
    UnsafeCharacter(UnicodeRefusal),
    /// A non-ASCII character in a command word (possible lookalike).
    #[error("command word {} has a lookalike character: {refusal}", Shown(word))]
    NonAsciiCommandWord {
        /// The command word.
        word: String,
        /// Which character, where.
        refusal: UnicodeRefusal,
    },
    /// `$(...)`.
    #[error("command substitution is not auto-allowed: {}", Shown(text))]
    CommandSubstitution {
        /// The substitution as written.
        text: String,
    },
    /// `` `...` ``.
    #[error("backtick command substitution is not auto-allowed: {}", Shown(text))]
    BacktickSubstitution {
        /// The substitution as written.
        text: String,
    },
    /// `${ cmd; }` or `${| cmd; }` (bash 5.3 runs a command here).
    #[error("bash function substitution is not auto-allowed: {}", Shown(text))]
    FunctionSubstitution {
        /// The text starting at `${`.
        text: String,
    },
    /// `<(...)` or `>(...)`.
    #[error("process substitution is not auto-allowed: {}", Shown(text))]
    ProcessSubstitution {
        /// The substitution, as far as it can be shown.
        text: String,
    },
    /// `$X`, `${X}`, `$1`, `$@`, `$?`, a lone `$` and every other parameter form.
    #[error(
        "parameter expansion is not auto-allowed: {}\nhint: write the value literally, in single quotes",
        Shown(text)
    )]
    ParameterExpansion {
        /// The expansion as written.
        text: String,
    },
    /// `$((...))` or `$[...]`.
    #[error("arithmetic expansion is not auto-allowed: {}", Shown(text))]
    ArithmeticExpansion {
        /// The expansion as written.
        text: String,
    },
    /// `$'...'`.
    #[error("ANSI-C quoting is not auto-allowed: {}", Shown(text))]
    AnsiCQuoting {
        /// The quoted text as written.
        text: String,
    },
    /// `$"..."`.
    #[error("locale quoting is not auto-allowed: {}", Shown(text))]
    LocaleQuoting {
        /// The quoted text as written.
        text: String,
    },
    /// `{a,b}` or `{1..3}` unquoted.
    #[error(
        "brace expansion is not auto-allowed: {}\nhint: quote the braces",
        Shown(word)
    )]
    BraceExpansion {
        /// The word as written.
        word: String,
    },
    /// An unquoted `*`, `?` or `[` (a file name can become a flag).
    #[error(
        "unquoted glob character {ch:?} is not auto-allowed: {}\nhint: quote it, or list the files",
        Shown(word)
    )]
    Glob {
        /// The word as written.
        word: String,
        /// The glob character.
        ch: char,
    },
    /// `~user`, `~+`, `~-`, or an unquoted `~` after `=` or `:`.
    #[error(
        "tilde form is not auto-allowed: {}\nhint: only a leading ~ or ~/ is expanded",
        Shown(word)
    )]
    Tilde {
        /// The word as written.
        word: String,
    },
    /// A leading `~` when no home directory is known.
    #[error("cannot expand ~ without a home directory: {}", Shown(word))]
    TildeWithoutHome {
        /// The word as written.
        word: String,
    },
    /// `( ... )`.
    #[error("subshell is not auto-allowed")]
    Subshell,
    /// `{ ...; }`.
    #[error("brace group is not auto-allowed")]
    BraceGroup,
    /// `cmd &`.
    #[error("background command (&) is not auto-allowed")]
    Background,
    /// `! cmd`.
    #[error("pipeline negation (!) is not auto-allowed")]
    Negation,
    /// The `time` keyword.
    #[error("the time keyword is not auto-allowed")]
    Time,
    /// `if`, `for`, `while`, `until`, `case`, `select`, `[[ ]]`, `(( ))`.
    #[error("control flow ({keyword}) is not auto-allowed")]
    ControlFlow {
        /// The keyword that opens the construct.
        keyword: &'static str,
    },
    /// `name() { ...; }` or `function name ...`.
    #[error("function definition is not auto-allowed: {}", Shown(name))]
    FunctionDefinition {
        /// The function name as written.
        name: String,
    },
    /// `coproc ...`.
    #[error("coprocess is not auto-allowed")]
    Coprocess,
    /// A builtin that changes how later text is read or run (`eval`, `source`, ...).
    #[error("shell builtin {name} is not auto-allowed: {reason}")]
    Builtin {
        /// The builtin's name.
        name: String,
        /// What it would do.
        reason: &'static str,
    },
    /// A reserved word used as a command (`then`, `done`, `!` mid-pipeline, ...).
    #[error("reserved word {} used as a command is not auto-allowed", Shown(word))]
    ReservedWord {
        /// The word.
        word: String,
    },
    /// `NAME=value` with no command after it.
    #[error("assignment without a command is not auto-allowed: {}", Shown(text))]
    AssignmentOnly {
        /// The assignment as written.
        text: String,
    },
    /// `a=(x y)`, `a[0]=x` or `a+=x`.
    #[error("array or append assignment is not auto-allowed: {}", Shown(text))]
    ComplexAssignment {
        /// The assignment as written.
        text: String,
    },
    /// A redirection other than `2>&1`, stdout/stderr to `/dev/null` or
    /// stdin from a literal file name (`< FILE`, `0< FILE`).
    #[error(
        "redirection is not auto-allowed: {}\nhint: only 2>&1, >/dev/null, 2>/dev/null, &>/dev/null and < FILE are understood",
        Shown(text)
    )]
    Redirection {
        /// The redirection, reconstructed from its parts.
        text: String,
    },
    /// `<<< word`.
    #[error("here-string is not auto-allowed: {}", Shown(text))]
    HereString {
        /// The word after `<<<`.
        text: String,
    },
    /// A descriptor duplication other than `2>&1`.
    #[error("file descriptor duplication is not auto-allowed: {}", Shown(text))]
    FdDuplication {
        /// The redirection, reconstructed from its parts.
        text: String,
    },
    /// More than one heredoc for one command.
    #[error("more than one heredoc for one command is not auto-allowed")]
    MultipleHeredocs,
    /// Two stdin redirections for one command (`< a < b`, a heredoc and
    /// `< FILE`): bash opens every one and keeps the last, so a file it
    /// would open would go unread and unchecked.
    #[error(
        "more than one stdin redirection for one command is not auto-allowed: {}",
        Shown(text)
    )]
    MultipleInputs {
        /// The redirection that came second, as written.
        text: String,
    },
    /// `$` or a backtick in an unquoted heredoc body.
    #[error(
        "shell expansion in unquoted heredoc is not auto-allowed: {}\nhint: quote the delimiter (<<'EOF') to keep the body literal",
        Shown(text)
    )]
    HeredocExpansion {
        /// The body from the expansion on, shortened.
        text: String,
    },
    /// A line continuation in an unquoted heredoc body that the parser and
    /// bash could read differently.
    #[error("line continuation in unquoted heredoc is not auto-allowed: {reason}")]
    HeredocContinuation {
        /// Where the continuation is.
        reason: &'static str,
    },
    /// A command made only of redirections, or an empty command word.
    #[error("command without a command word is not auto-allowed")]
    EmptyCommand,
}

impl ShellRefusal {
    /// A stable short code per construct, for tests, logs and the `explain`
    /// output; never changes once released.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyScript => "empty-script",
            Self::Parse { .. } => "parse-error",
            Self::ParserFailure => "parser-failure",
            Self::UnsafeCharacter(_) => "unsafe-character",
            Self::NonAsciiCommandWord { .. } => "non-ascii-command-word",
            Self::CommandSubstitution { .. } => "command-substitution",
            Self::BacktickSubstitution { .. } => "backtick-substitution",
            Self::FunctionSubstitution { .. } => "function-substitution",
            Self::ProcessSubstitution { .. } => "process-substitution",
            Self::ParameterExpansion { .. } => "parameter-expansion",
            Self::ArithmeticExpansion { .. } => "arithmetic-expansion",
            Self::AnsiCQuoting { .. } => "ansi-c-quoting",
            Self::LocaleQuoting { .. } => "locale-quoting",
            Self::BraceExpansion { .. } => "brace-expansion",
            Self::Glob { .. } => "glob",
            Self::Tilde { .. } => "tilde",
            Self::TildeWithoutHome { .. } => "tilde-without-home",
            Self::Subshell => "subshell",
            Self::BraceGroup => "brace-group",
            Self::Background => "background",
            Self::Negation => "negation",
            Self::Time => "time",
            Self::ControlFlow { .. } => "control-flow",
            Self::FunctionDefinition { .. } => "function-definition",
            Self::Coprocess => "coprocess",
            Self::Builtin { .. } => "builtin",
            Self::ReservedWord { .. } => "reserved-word",
            Self::AssignmentOnly { .. } => "assignment-only",
            Self::ComplexAssignment { .. } => "complex-assignment",
            Self::Redirection { .. } => "redirection",
            Self::HereString { .. } => "here-string",
            Self::FdDuplication { .. } => "fd-duplication",
            Self::MultipleHeredocs => "multiple-heredocs",
            Self::MultipleInputs { .. } => "multiple-inputs",
            Self::HeredocExpansion { .. } => "heredoc-expansion",
            Self::HeredocContinuation { .. } => "heredoc-continuation",
            Self::EmptyCommand => "empty-command",
        }
    }
}
