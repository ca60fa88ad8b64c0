//! The plan: what will run, as literal argv per segment with resolved
//! executables, joined by our own chain and pipe semantics.
//!
//! A plan is what the policy checked and what the executor runs: no shell
//! re-reads any text (DESIGN.md invariant 4).

use std::path::PathBuf;

/// How a pipeline joins the one before it; the first step's operator is
/// [`ChainOp::Seq`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChainOp {
    /// `;` or a newline: run regardless of the previous status.
    Seq,
    /// `&&`: run only if the previous pipeline succeeded.
    And,
    /// `||`: run only if the previous pipeline failed.
    Or,
}

/// Where a command's stdout or stderr goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sink {
    /// The command's own stdout: the next pipe, or the captured stdout.
    Stdout,
    /// The captured stderr.
    Stderr,
    /// `/dev/null`.
    Null,
}

/// One step of a plan: a pipeline of commands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlanStep {
    /// How this step joins the previous one.
    pub op: ChainOp,
    /// The commands of the pipeline, left to right; never empty.
    pub pipeline: Vec<PlannedCommand>,
}

/// One command of a pipeline, exactly as it will run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PlannedCommand {
    /// Run a program.
    Exec(PlannedExec),
    /// The `cd DIR` builtin: later commands of the chain run in `dir`; fails
    /// (status 1) when `dir` is not a directory at run time.
    Cd {
        /// The absolute target directory.
        dir: PathBuf,
    },
}

/// A program to run, with everything the executor needs and nothing it must
/// re-interpret.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedExec {
    /// The absolute real path that is executed (symlinks resolved, never a
    /// bare name looked up again at run time).
    pub program: PathBuf,
    /// The full argv, argv[0] as the command wrote it; wrappers that were
    /// unwrapped are gone.
    pub argv: Vec<String>,
    /// Inert `NAME=value` prefixes to add to the environment.
    pub env: Vec<(String, String)>,
    /// The working directory (absolute).
    pub cwd: PathBuf,
    /// Literal heredoc body to feed on stdin; `None` means stdin is the
    /// previous pipe (or closed for the first command).
    pub stdin: Option<String>,
    /// Where stdout goes.
    pub stdout: Sink,
    /// Where stderr goes.
    pub stderr: Sink,
}

/// A whole plan: steps joined by chain operators.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// The steps, in order; never empty.
    pub steps: Vec<PlanStep>,
}
