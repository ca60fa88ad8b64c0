//! The plan: what will run, as literal argv per segment with resolved
//! executables, joined by our own chain and pipe semantics.
//!
//! A plan is what the policy checked and what the executor runs: no shell
//! re-reads any text (DESIGN.md invariant 4).

use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// What a command reads on stdin when a redirection says so.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum Stdin {
    /// A heredoc's literal body, fed through a pipe.
    Heredoc(String),
    /// `< FILE`: the file's real path (absolute, every link resolved when
    /// it was checked), which the executor opens read-only, refusing a link
    /// anywhere on it, so the file that runs is the file that was judged.
    File(PathBuf),
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
    /// unwrapped are gone. Shared with the analysis' segment and report.
    pub argv: Arc<[String]>,
    /// Inert `NAME=value` prefixes to add to the environment.
    pub env: Vec<(String, String)>,
    /// The working directory (absolute), shared with the analysis.
    pub cwd: Arc<Path>,
    /// The heredoc body or file to feed on stdin, overriding the pipe as
    /// in bash; `None` means stdin is the previous pipe (or closed for the
    /// first command).
    pub stdin: Option<Stdin>,
    /// Where stdout goes.
    pub stdout: Sink,
    /// Where stderr goes.
    pub stderr: Sink,
}

/// A whole plan: steps joined by chain operators, as the analysis checked
/// them.
///
/// Only the analysis builds one (DESIGN.md invariant 4: what runs is what
/// was checked), and its constructor holds the invariants the executor
/// relies on. Code outside this crate can read a plan but not make one:
///
/// ```compile_fail
/// use approvals_ipc::policy::plan::Plan;
/// let forged = Plan { steps: Vec::new() }; // private field: does not compile
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    steps: Vec<PlanStep>,
}

/// Why a plan could not be built; each is a bug in the analysis, which then
/// plans nothing (fail closed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// No steps.
    #[error("a plan needs at least one step")]
    NoSteps,
    /// A step with an empty pipeline.
    #[error("step {0} has no command")]
    EmptyPipeline(usize),
    /// A program that is not an absolute path (it would be looked up again).
    #[error("step {0}: the program {1} is not an absolute path")]
    RelativeProgram(usize, String),
    /// An empty argv.
    #[error("step {0}: a command has no argv")]
    EmptyArgv(usize),
    /// A working directory or `cd` target that is not absolute.
    #[error("step {0}: the directory {1} is not absolute")]
    RelativeDir(usize, String),
    /// A stdin file that is not an absolute path (it would be opened
    /// relative to whatever directory the executor is in).
    #[error("step {0}: the stdin file {1} is not an absolute path")]
    RelativeInput(usize, String),
    /// The first step joined to nothing by `&&` or `||`.
    #[error("the first step must not depend on a previous one")]
    FirstStepChained,
}

impl Plan {
    /// A plan of `steps`, checked: at least one step, no empty pipeline, the
    /// first step unconditional, every program, directory and stdin file
    /// absolute and every argv non-empty.
    pub(crate) fn new(steps: Vec<PlanStep>) -> Result<Self, PlanError> {
        let first = steps.first().ok_or(PlanError::NoSteps)?;
        if first.op != ChainOp::Seq {
            return Err(PlanError::FirstStepChained);
        }
        for (i, step) in steps.iter().enumerate() {
            if step.pipeline.is_empty() {
                return Err(PlanError::EmptyPipeline(i));
            }
            for command in &step.pipeline {
                match command {
                    PlannedCommand::Exec(exec) => {
                        if !exec.program.is_absolute() {
                            let shown = exec.program.display().to_string();
                            return Err(PlanError::RelativeProgram(i, shown));
                        }
                        if exec.argv.is_empty() {
                            return Err(PlanError::EmptyArgv(i));
                        }
                        if !exec.cwd.is_absolute() {
                            return Err(PlanError::RelativeDir(i, exec.cwd.display().to_string()));
                        }
                        if let Some(Stdin::File(path)) = &exec.stdin
                            && !path.is_absolute()
                        {
                            return Err(PlanError::RelativeInput(i, path.display().to_string()));
                        }
                    }
                    PlannedCommand::Cd { dir } if !dir.is_absolute() => {
                        return Err(PlanError::RelativeDir(i, dir.display().to_string()));
                    }
                    PlannedCommand::Cd { .. } => {}
                }
            }
        }
        Ok(Self { steps })
    }

    /// A plan built without the analysis or its checks, for tests of the
    /// executor itself (empty plans included). Production builds do not
    /// have it: the `test-plans` feature is enabled only by test targets.
    /// (Mutants of it survive the crate's own tests: it is compiled only
    /// with `test-plans`, for the executor's tests in ui-bridge.)
    #[cfg(feature = "test-plans")]
    pub fn unchecked(steps: Vec<PlanStep>) -> Self {
        Self { steps }
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[PlanStep] {
        &self.steps
    }
}
