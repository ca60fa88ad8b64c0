//! From a request's argv to segments and a plan: unwrap the shell wrapper,
//! parse its script, unwrap dispatch wrappers, follow `cd`, check
//! assignments, resolve every executable and every file read on stdin
//! (`< FILE`: only an existing regular file or `/dev/null`, by its real
//! path, so the decision judges and the executor opens the same file).
//!
//! Anything not fully understood ends the analysis with a reason; the
//! decision then never auto-allows (DESIGN.md invariant 3).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::policy::compiled::CompiledPolicy;
use crate::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink, Stdin};
use crate::policy::reason::Refusal;
use crate::policy::resolve::Resolution;
use crate::policy::risk::{self, Risk};
use crate::policy::shell::{self, ChainItem, GlobWord, Input, ShellScript, SimpleCommand};
use crate::policy::wrappers::{self, Unwrapped};
use crate::policy::{env, expand, find_exec, unicode};

/// One simple command as the policy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// The target's argv after wrappers were removed (shared with the plan).
    pub argv: Arc<[String]>,
    /// Where argv[0] resolved to.
    pub resolution: Resolution,
    /// The working directory it runs in (shared with the plan).
    pub cwd: Arc<Path>,
    /// Whether it reads data on stdin (a pipe, a heredoc or a file).
    pub stdin_is_input: bool,
    /// The file it reads on stdin (`< FILE`), which the decision judges as
    /// a file the program reads.
    pub stdin_file: Option<StdinFile>,
    /// Its index in the plan: (step, position in the pipeline).
    pub position: (usize, usize),
    /// For a command another segment runs (`find … -exec grep …`), that
    /// segment and what it hands over.
    pub run_by: Option<RunBy>,
    /// Whether the command lines this segment runs (find's `-exec`) are
    /// segments of their own, checked like any other, so its spec need not
    /// ask about them.
    pub runs_checked: bool,
}

/// A file a command reads on stdin (`< FILE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdinFile {
    /// The name as written, quotes removed and `~` expanded: what the
    /// secrets check reads lexically.
    pub word: String,
    /// Its real path (absolute, every link resolved): what the plan opens.
    pub real: PathBuf,
}

/// The segment that runs a command (find), and the directory whose files
/// it hands that command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunBy {
    /// The index in [`Analysis::segments`] of the segment that runs it.
    pub segment: usize,
    /// The start point whose every file `{}` may be (absolute).
    pub start: PathBuf,
    /// find follows links under it (`-L`): `{}` may be wherever they lead.
    pub follows_links: bool,
}

/// The analysis of one request.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The segments understood so far (all of them when `refusal` is `None`).
    pub segments: Vec<Segment>,
    /// The plan, when everything was understood.
    pub plan: Option<Plan>,
    /// Why the analysis stopped, when it did.
    pub refusal: Option<Refusal>,
    /// The shell script, for shell-wrapper requests.
    pub script: Option<String>,
    /// The risk the rules find in the exact pipelines (none when the
    /// analysis stopped: the decision then reads the raw text instead).
    pub risk: Risk,
}

impl Analysis {
    fn refused(reason: Refusal, segments: Vec<Segment>, script: Option<String>) -> Self {
        Self {
            segments,
            plan: None,
            refusal: Some(reason),
            script,
            risk: Risk::default(),
        }
    }
}

/// Analyses `argv` as requested to run in `cwd`.
pub fn analyze(compiled: &CompiledPolicy, argv: &[String], cwd: &Path) -> Analysis {
    analyze_with(compiled, argv, cwd, None)
}

/// [`analyze`] for a request whose inert environment overrides `vars` a
/// shell script may name (`$NODE_ENV`): they are its values there.
pub fn analyze_with(
    compiled: &CompiledPolicy,
    argv: &[String],
    cwd: &Path,
    vars: Option<&BTreeMap<String, String>>,
) -> Analysis {
    analyze_in(compiled, argv, Arc::from(cwd), vars)
}

/// [`analyze_with`] in a directory the caller already holds shared: every
/// segment and planned command shares it rather than a copy of its own.
pub(crate) fn analyze_in(
    compiled: &CompiledPolicy,
    argv: &[String],
    cwd: Arc<Path>,
    vars: Option<&BTreeMap<String, String>>,
) -> Analysis {
    if argv.is_empty() || argv[0].is_empty() {
        return Analysis::refused(Refusal::EmptyCommand, Vec::new(), None);
    }
    for word in argv {
        if let Err(err) = unicode::check_text(word) {
            let script = match wrappers::unwrap(argv) {
                Ok(Unwrapped::Shell { script, .. }) => Some(script.to_owned()),
                _ => None,
            };
            return Analysis::refused(err.into(), Vec::new(), script);
        }
    }
    match wrappers::unwrap(argv) {
        Err(err) => {
            let segment = whole_argv_segment(compiled, argv, &cwd);
            Analysis::refused(err.into(), vec![segment], None)
        }
        Ok(Unwrapped::Target { start, .. }) => {
            let command = SimpleCommand {
                assignments: Vec::new(),
                argv: argv[start..].to_vec(),
                globs: Vec::new(),
                stdin: None,
                stdout: Sink::Stdout,
                stderr: Sink::Stderr,
            };
            let script = ShellScript {
                items: vec![shell::ChainItem {
                    op: ChainOp::Seq,
                    pipeline: vec![command],
                }],
            };
            plan_script(compiled, script, cwd, None)
        }
        Ok(Unwrapped::Shell { script, .. }) => {
            let home = compiled.home().and_then(Path::to_str);
            match shell::analyze_with(script, home, vars)
                .map_err(Refusal::from)
                .and_then(|parsed| inline_nested_shells(parsed, home, vars))
            {
                Ok(parsed) => plan_script(compiled, parsed, cwd, Some(script.to_owned())),
                Err(err) => {
                    let segment = whole_argv_segment(compiled, argv, &cwd);
                    Analysis::refused(err, vec![segment], Some(script.to_owned()))
                }
            }
        }
    }
}

/// `script` with each nested `sh -c SCRIPT` read one level deep, where
/// putting the inner commands in its place runs the same thing: the nested
/// shell is the whole outer script (its chain replaces it), or it stands
/// alone in its pipeline and its script is one pipeline (that pipeline
/// replaces it), or its script is one simple command (which replaces it).
/// It must have no wrapper, prefix, heredoc, redirection or glob of its own.
/// A shell inside the inner script is refused when planned: one level only.
fn inline_nested_shells(
    mut script: ShellScript,
    home: Option<&str>,
    vars: Option<&BTreeMap<String, String>>,
) -> Result<ShellScript, Refusal> {
    let whole = script.items.len() == 1 && script.items[0].pipeline.len() == 1;
    for item in &mut script.items {
        let alone = item.pipeline.len() == 1;
        let mut position = 0;
        while position < item.pipeline.len() {
            let command = &item.pipeline[position];
            let Ok(Unwrapped::Shell {
                shell,
                script: inner,
                wrappers,
            }) = wrappers::unwrap(&command.argv)
            else {
                position += 1;
                continue;
            };
            let refused = || Refusal::NestedShell {
                shell: shell.to_owned(),
            };
            let plain = wrappers.is_empty()
                && command.assignments.is_empty()
                && command.globs.is_empty()
                && command.stdin.is_none()
                && command.stdout == Sink::Stdout
                && command.stderr == Sink::Stderr;
            if !plain {
                return Err(refused());
            }
            let mut parsed = shell::analyze_with(inner, home, vars)?;
            if whole {
                return Ok(parsed);
            }
            let inner_items = std::mem::take(&mut parsed.items);
            let [only] = <[ChainItem; 1]>::try_from(inner_items).map_err(|_| refused())?;
            let replacement = match (alone, only.pipeline.len()) {
                (true, _) | (false, 1) => only.pipeline,
                _ => return Err(refused()),
            };
            if position > 0 && replacement.first().is_some_and(|c| c.stdin.is_some()) {
                // A heredoc would replace the pipe the command reads.
                return Err(refused());
            }
            let count = replacement.len();
            item.pipeline.splice(position..=position, replacement);
            position += count;
        }
    }
    Ok(script)
}

/// A segment for the request as a whole, shown when its inside was not
/// understood.
fn whole_argv_segment(compiled: &CompiledPolicy, argv: &[String], cwd: &Arc<Path>) -> Segment {
    Segment {
        argv: argv.into(),
        resolution: compiled.resolver.resolve(&argv[0], cwd),
        cwd: Arc::clone(cwd),
        stdin_is_input: false,
        stdin_file: None,
        position: (0, 0),
        run_by: None,
        runs_checked: false,
    }
}

fn plan_script(
    compiled: &CompiledPolicy,
    script: ShellScript,
    cwd: Arc<Path>,
    text: Option<String>,
) -> Analysis {
    let mut cwd = cwd;
    let mut segments = Vec::new();
    let mut steps = Vec::with_capacity(script.items.len());
    let mut risk = Risk::default();
    let mut changed_dir = false;
    for (step_index, item) in script.items.into_iter().enumerate() {
        if changed_dir && item.op != ChainOp::And {
            return Analysis::refused(Refusal::CdChain, segments, text);
        }
        let pipeline_len = item.pipeline.len();
        let mut pipeline = Vec::with_capacity(pipeline_len);
        // A `cd` is alone in its pipeline: its words as written are what
        // the risk rules read of it.
        let mut cd_words = None;
        for (position, command) in item.pipeline.into_iter().enumerate() {
            let planned = match plan_command(compiled, command, &cwd, pipeline_len) {
                Ok(p) => p,
                Err(reason) => return Analysis::refused(reason, segments, text),
            };
            match planned {
                Planned::Cd { dir, words } => {
                    pipeline.push(PlannedCommand::Cd { dir: dir.clone() });
                    cd_words = Some(words);
                    cwd = Arc::from(dir);
                    changed_dir = true;
                }
                Planned::Exec {
                    exec,
                    resolution,
                    nested,
                    stdin_file,
                } => {
                    let stdin_is_input = position > 0 || exec.stdin.is_some();
                    let runner = segments.len();
                    segments.push(Segment {
                        argv: exec.argv.clone(),
                        resolution,
                        cwd: cwd.clone(),
                        stdin_is_input,
                        stdin_file,
                        position: (step_index, position),
                        run_by: None,
                        runs_checked: !nested.is_empty(),
                    });
                    segments.extend(nested.into_iter().map(|(command, resolution)| Segment {
                        run_by: Some(RunBy {
                            segment: runner,
                            start: normalize(&cwd.join(&command.start)),
                            follows_links: command.follows_links,
                        }),
                        argv: command.argv.into(),
                        resolution,
                        cwd: cwd.clone(),
                        // find's stdin is what the commands it runs read;
                        // its file, if any, is judged once, on find.
                        stdin_is_input,
                        stdin_file: None,
                        position: (step_index, position),
                        runs_checked: false,
                    }));
                    pipeline.push(PlannedCommand::Exec(*exec));
                }
            }
        }
        match &cd_words {
            Some(words) => risk::assess_pipeline(std::slice::from_ref(words), &mut risk),
            None => {
                let argvs: smallvec::SmallVec<[&[String]; 4]> = pipeline
                    .iter()
                    .filter_map(|command| match command {
                        PlannedCommand::Exec(exec) => Some(&exec.argv[..]),
                        PlannedCommand::Cd { .. } => None,
                    })
                    .collect();
                risk::assess_pipeline(&argvs, &mut risk);
            }
        }
        steps.push(PlanStep {
            op: item.op,
            pipeline,
        });
    }
    // An unresolved program cannot be planned; the decision reports it.
    let resolved = segments.iter().all(|s| s.resolution.resolved.is_some());
    let plan = resolved
        .then(|| Plan::new(steps))
        .and_then(|planned| match planned {
            Ok(plan) => Some(plan),
            Err(error) => {
                // A bug in the analysis: plan nothing, so nothing runs as checked.
                tracing::error!(%error, "the analysis built an invalid plan");
                None
            }
        });
    Analysis {
        segments,
        plan,
        refusal: None,
        script: text,
        risk,
    }
}

enum Planned {
    /// A `cd` to `dir`, written as `words`.
    Cd { dir: PathBuf, words: Vec<String> },
    Exec {
        /// Boxed: the variant is the large one of a short-lived value.
        exec: Box<PlannedExec>,
        resolution: Resolution,
        /// The commands it runs that are checked as segments of their own.
        nested: Vec<(find_exec::ExecCommand, Resolution)>,
        /// The file it reads on stdin.
        stdin_file: Option<StdinFile>,
    },
}

fn plan_command(
    compiled: &CompiledPolicy,
    command: SimpleCommand,
    cwd: &Arc<Path>,
    pipeline_len: usize,
) -> Result<Planned, Refusal> {
    for (name, value) in &command.assignments {
        if let Err(why) = env::check_inert(name, value) {
            return Err(Refusal::Assignment {
                name: name.clone(),
                value: value.clone(),
                why,
            });
        }
    }
    let SimpleCommand {
        assignments,
        argv: written,
        globs,
        stdin,
        stdout,
        stderr,
    } = command;
    let expanded = expand_globs(&written, &globs, cwd)?;
    let argv = expanded.as_ref().unwrap_or(&written);
    let start = match wrappers::unwrap(argv)? {
        Unwrapped::Target { start, .. } => start,
        Unwrapped::Shell { shell, .. } => {
            return Err(Refusal::NestedShell {
                shell: shell.to_owned(),
            });
        }
    };
    let target = &argv[start..];
    let Some(word) = target.first() else {
        return Err(Refusal::EmptyCommand);
    };
    unicode::check_command_word(word)?;
    if word == "cd" {
        if pipeline_len > 1 || !assignments.is_empty() || stdin.is_some() {
            // A heredoc or `< FILE` on `cd` included.
            return Err(Refusal::CdInPipeline);
        }
        let dir = cd_target(compiled, &target[1..], cwd)?;
        return Ok(Planned::Cd {
            dir,
            words: written,
        });
    }
    if crate::policy::programs::builtins::is_shell_only(word) {
        return Err(Refusal::ShellBuiltin { word: word.clone() });
    }
    let resolution = compiled.resolver.resolve(word, cwd);
    if let Some(real_name) = resolution
        .real
        .as_deref()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        && crate::policy::programs::program(real_name)
            .is_some_and(|p| p.is_shell() || p.is_wrapper())
        && real_name != wrappers::basename(word)
        && !applet_link(real_name, wrappers::basename(word))
    {
        // A shell or wrapper under another name (a link an agent made)
        // would skip the unwrapping its own name gets.
        return Err(Refusal::Disguised {
            word: word.clone(),
            real_name: real_name.to_owned(),
        });
    }
    // The real path: what was matched is what runs, whatever happens to
    // links later.
    let program = match &resolution.real {
        Some(real) => real.clone(),
        None => PathBuf::from(word),
    };
    // The words from the target on, without the dispatch wrappers.
    let mut argv = expanded.unwrap_or(written);
    argv.drain(..start);
    let nested = find_commands(compiled, &resolution, &mut argv, cwd);
    let (stdin, stdin_file) = match stdin {
        None => (None, None),
        Some(Input::Heredoc(body)) => (Some(Stdin::Heredoc(body)), None),
        Some(Input::File(word)) => {
            let real = stdin_path(&word, cwd)?;
            (
                Some(Stdin::File(real.clone())),
                Some(StdinFile { word, real }),
            )
        }
    };
    let exec = PlannedExec {
        program,
        argv: argv.into(),
        env: assignments,
        cwd: Arc::clone(cwd),
        stdin,
        stdout,
        stderr,
    };
    Ok(Planned::Exec {
        exec: Box::new(exec),
        resolution,
        nested,
        stdin_file,
    })
}

/// The one device `< FILE` may name: it reads as empty.
const DEV_NULL: &str = "/dev/null";

/// Directories of devices and kernel files: reading one can block (a
/// terminal, a FIFO), read hardware or another process's memory and
/// environment (`/proc/PID/mem`, `/proc/PID/environ`), or is bash's own
/// network emulation (`/dev/tcp/HOST/PORT`), never a file's contents.
const KERNEL_DIRS: &[&str] = &["/dev", "/proc", "/sys"];

/// The real path of the file `< word` opens for a command run in `cwd`,
/// when it is `/dev/null` or an existing regular file outside
/// [`KERNEL_DIRS`]; otherwise why it is not auto-allowed. A missing file
/// is refused rather than allowed: an earlier command of the same request
/// may make it (as a link to anything), and nothing would have judged it.
fn stdin_path(word: &str, cwd: &Path) -> Result<PathBuf, Refusal> {
    let refused = |why: &'static str| Refusal::InputFile {
        path: word.to_owned(),
        why,
    };
    let kernel = |path: &Path| {
        path != Path::new(DEV_NULL) && KERNEL_DIRS.iter().any(|dir| path.starts_with(dir))
    };
    // The kernel reads `..` after following links; only the spelling is
    // judged lexically here, the real path below as the kernel finds it.
    let joined = cwd.join(word);
    if kernel(&normalize(&joined)) {
        return Err(refused(
            "a device or kernel file, which can block or read hardware or process memory",
        ));
    }
    let real = match std::fs::canonicalize(&joined) {
        Ok(real) => real,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(refused(
                "it does not exist (bash would not run the command; an earlier command could make it a link to anything)",
            ));
        }
        Err(_) => return Err(refused("it cannot be resolved to a real path")),
    };
    if real == Path::new(DEV_NULL) {
        return Ok(real);
    }
    if kernel(&real) {
        return Err(refused(
            "it leads to a device or kernel file, which can block or read hardware or process memory",
        ));
    }
    match std::fs::metadata(&real) {
        Ok(meta) if meta.is_file() => Ok(real),
        Ok(_) => Err(refused(
            "not a regular file (a directory, FIFO, socket or device)",
        )),
        Err(_) => Err(refused("it cannot be resolved to a real path")),
    }
}

/// When `argv` is find's and every command it runs can be checked as a
/// segment of its own ([`find_exec`]), those commands with where they
/// resolve, and `argv` rewritten so find runs each by the real path that
/// was checked; otherwise nothing, and find's spec asks about them.
fn find_commands(
    compiled: &CompiledPolicy,
    resolution: &Resolution,
    argv: &mut [String],
    cwd: &Path,
) -> Vec<(find_exec::ExecCommand, Resolution)> {
    let is_find = resolution
        .real
        .as_deref()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .and_then(crate::policy::specs::lookup)
        .is_some_and(|spec| spec.family == crate::policy::specs::families::find::FIND.family);
    if !is_find {
        return Vec::new();
    }
    let Some(commands) = find_exec::commands(&argv[1..]) else {
        return Vec::new();
    };
    let mut nested = Vec::with_capacity(commands.len());
    let mut rewrites = Vec::with_capacity(commands.len());
    for command in commands {
        let word = &command.argv[0];
        let resolution = compiled.resolver.resolve(word, cwd);
        let real_name = resolution
            .real
            .as_deref()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str());
        match (&resolution.real, real_name) {
            // A link to a program of another name (a multi-call binary, a
            // renamed shell) would run as a name that was not checked.
            (Some(real), Some(name)) if name == wrappers::basename(word) => {
                if crate::policy::programs::runs_other_code(name) {
                    return Vec::new();
                }
                let Some(real) = real.to_str() else {
                    return Vec::new();
                };
                rewrites.push((command.program_word + 1, real.to_owned()));
            }
            // Not found: the decision reports it, and nothing is planned.
            (None, _) => {}
            _ => return Vec::new(),
        }
        nested.push((command, resolution));
    }
    for (index, real) in rewrites {
        if let Some(slot) = argv.get_mut(index) {
            *slot = real;
        }
    }
    nested
}

/// `argv` (a command's words, whose words `globs` hold unquoted globs)
/// with every glob expanded in `cwd`, as bash would expand it there;
/// `None` when it has no glob.
fn expand_globs(
    argv: &[String],
    globs: &[GlobWord],
    cwd: &Path,
) -> Result<Option<Vec<String>>, Refusal> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut expanded = Vec::with_capacity(argv.len() + 8);
    let mut globs = globs.iter().peekable();
    for (index, word) in argv.iter().enumerate() {
        match globs.next_if(|g| g.index == index) {
            Some(glob) => expanded.extend(expand::expand(&glob.pattern, word, cwd)?),
            None => expanded.push(word.clone()),
        }
    }
    Ok(Some(expanded))
}

/// Whether `word` is an applet link of a multi-call applet runner
/// (`/bin/ls` → busybox on Alpine): the binary acts as the applet its
/// argv[0] names, so it is judged as that applet (the decision's
/// multi-call identity rule covers it only under that name). An applet
/// named like a shell or wrapper (`sh`, `env`, `xargs`) stays disguised:
/// its own name's unwrapping would be skipped.
fn applet_link(real_name: &str, invoked: &str) -> bool {
    let runner = crate::policy::programs::program(real_name).is_some_and(|p| {
        p.is(crate::policy::programs::Kind::AppletRunner)
            && p.is(crate::policy::programs::Kind::MultiCall)
    });
    runner && !wrappers::is_shell(invoked) && !wrappers::is_wrapper(invoked)
}

fn cd_target(compiled: &CompiledPolicy, args: &[String], cwd: &Path) -> Result<PathBuf, Refusal> {
    match args {
        [] => compiled
            .home()
            .map(Path::to_owned)
            .ok_or(Refusal::CdWithoutHome),
        [dir] if dir.starts_with('-') => Err(Refusal::CdOption { arg: dir.clone() }),
        [dir] => Ok(normalize(&cwd.join(dir))),
        _ => Err(Refusal::CdOperands),
    }
}

/// Lexical normalization, as `cd` (logical mode) does it: `.` dropped, `..`
/// removes the previous component.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push("/");
    }
    out
}

#[cfg(test)]
mod nested_tests;
