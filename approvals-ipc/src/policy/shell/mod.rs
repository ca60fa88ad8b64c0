//! Shell scripts (`sh -c SCRIPT`) to chains of pipelines of literal commands.
//!
//! Decides what a script means using a real bash grammar (`brush-parser`,
//! extglob off, tilde handled here): chains joined by `;`, newlines, `&&` and
//! `||`, pipelines joined by `|` (`|&` is `2>&1 |`), and simple commands with
//! literal argv, inert-looking `NAME=value` prefixes (judged later by the
//! policy), a literal heredoc or a literal file name (`< FILE`, judged later
//! by the policy as a file the command reads) as stdin, and stdout/stderr
//! sent to the pipe, the capture or `/dev/null`. Everything else is refused with a
//! [`ShellRefusal`] naming the construct: expansions of every kind,
//! redirections to files, compound commands, builtins that change how later
//! text is read, unquoted globs, invisible characters. Line continuations are
//! joined by the tokenizer exactly where bash joins them, before anything is
//! judged. Upholds DESIGN.md invariant 3 (nothing not fully understood is
//! auto-allowed) and, because the result is built only from the AST's literal
//! words, invariant 4 (what runs is what was checked).

mod builtins;
mod command;
mod heredoc;
mod prescan;
mod redirect;
mod refusal;
mod walk;
mod word;

use brush_parser::ParserOptions;

pub use builtins::RESERVED_WORDS;
pub use refusal::ShellRefusal;

use crate::policy::plan::{ChainOp, Sink};
use crate::policy::unicode;

/// A script the analysis fully understood.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ShellScript {
    /// The chain, in order. Invariant: never empty; the first item's op is
    /// [`ChainOp::Seq`].
    pub items: Vec<ChainItem>,
}

/// One pipeline of the chain and how it joins the previous one.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ChainItem {
    /// `;`/newline, `&&` or `||` before this pipeline.
    pub op: ChainOp,
    /// The commands, left to right. Invariant: never empty.
    pub pipeline: Vec<SimpleCommand>,
}

/// One simple command with every word literal.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SimpleCommand {
    /// `NAME=value` prefixes, values literal; the policy decides which names
    /// are inert.
    pub assignments: Vec<(String, String)>,
    /// Literal words after quote removal. Invariant: never empty, argv[0]
    /// non-empty ASCII and not a refused builtin or reserved word.
    pub argv: Vec<String>,
    /// Words of `argv` that hold an unquoted glob, in argv order: the
    /// analysis expands each against the directory the command runs in
    /// before anything is checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub globs: Vec<GlobWord>,
    /// What a redirection feeds on stdin; `None` means the previous pipe (or
    /// closed stdin for the first command). A redirection overrides the
    /// pipe, as in bash.
    pub stdin: Option<Input>,
    /// Where stdout goes.
    pub stdout: Sink,
    /// Where stderr goes.
    pub stderr: Sink,
}

/// Where a redirection says a command's stdin comes from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum Input {
    /// A heredoc's literal body.
    Heredoc(String),
    /// `< FILE` or `0< FILE`: the literal file name as bash would open it,
    /// relative to the directory the command runs in unless absolute.
    File(String),
}

/// An argv word bash would expand to file names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GlobWord {
    /// Its index in `argv`, where the word as written (quotes removed) is.
    pub index: usize,
    /// The pattern, quoted glob characters escaped with a backslash.
    pub pattern: String,
}

/// Analyses `script` as bash would read it; `home` is what a leading `~`
/// expands to (refused when `None`).
pub fn analyze(script: &str, home: Option<&str>) -> Result<ShellScript, ShellRefusal> {
    analyze_with(script, home, None)
}

/// [`analyze`] with variables whose `$NAME` is known: the request's inert
/// environment overrides, which the shell would run with.
pub fn analyze_with(
    script: &str,
    home: Option<&str>,
    vars: Option<&std::collections::BTreeMap<String, String>>,
) -> Result<ShellScript, ShellRefusal> {
    // The parser is third-party code run on attacker text: a panic in it
    // must refuse the script, not take down the caller.
    std::panic::catch_unwind(|| analyze_unguarded(script, home, vars)).unwrap_or_else(|_| {
        tracing::warn!("shell parser panicked; refusing the script");
        Err(ShellRefusal::ParserFailure)
    })
}

/// [`analyze`] without the panic guard.
fn analyze_unguarded(
    script: &str,
    home: Option<&str>,
    vars: Option<&std::collections::BTreeMap<String, String>>,
) -> Result<ShellScript, ShellRefusal> {
    unicode::check_text(script).map_err(ShellRefusal::UnsafeCharacter)?;
    prescan::refuse_function_substitution(script)?;
    let options = parser_options();
    let tokens = brush_parser::uncached_tokenize_str(script, &options.tokenizer_options())
        .map_err(|e| ShellRefusal::Parse {
            message: e.to_string(),
        })?;
    prescan::refuse_unsafe_tokens(&tokens)?;
    let program =
        brush_parser::parse_tokens(&tokens, &options).map_err(|e| ShellRefusal::Parse {
            message: e.to_string(),
        })?;
    let ctx = word::WordContext {
        options: &options,
        home,
        vars,
    };
    let items = walk::program(&program, &ctx)?;
    if items.is_empty() {
        return Err(ShellRefusal::EmptyScript);
    }
    tracing::trace!(commands = items.len(), "shell script understood");
    Ok(ShellScript { items })
}

/// Bash semantics, with extglob off (bash's default, crates.md pitfall (e))
/// and tilde expansion left to [`word`], which refuses all but `~` and `~/`.
fn parser_options() -> ParserOptions {
    ParserOptions {
        enable_extended_globbing: false,
        posix_mode: false,
        sh_mode: false,
        tilde_expansion_at_word_start: false,
        tilde_expansion_after_colon: false,
        ..ParserOptions::default()
    }
}
