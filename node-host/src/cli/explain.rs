//! `node-host explain`: what the policy decides for a command, and why.
//!
//! Never runs anything. `--batch` evaluates a whole file of commands in one
//! process with each agent's policy compiled once, so a user can try a
//! policy against a shell history before trusting it.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use approvals_ipc::approvals::{ApprovalsFile, ApprovalsStore, PolicySources, ResolvedPath};
use approvals_ipc::policy::env::{EnvRefusal, check_overrides};
use approvals_ipc::policy::unicode::escape_for_display;
use approvals_ipc::policy::{CompiledPolicy, Evaluation, HostContext, real_cwd};
use serde::Deserialize;

use ui_bridge::exit::{Exit, Failure};
use ui_bridge::host::HostRefusal;

use super::ApprovalsArg;

/// Arguments of `node-host explain`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["argv", "shell", "batch"]))]
pub struct ExplainArgs {
    #[command(flatten)]
    approvals: ApprovalsArg,

    /// The agent whose policy applies
    #[arg(long, value_name = "ID", default_value = "main")]
    agent: String,

    /// The working directory the command would run in [default: the current one]
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,

    /// Print one JSON object (one per line with --batch) instead of text
    #[arg(long)]
    json: bool,

    /// An environment override the request carries, as NAME=VALUE
    /// (repeatable): only inert ones (LANG, TZ, RUST_LOG, …) are
    /// auto-allowed; a blocked one (PATH, LD_*, …) is refused by the host
    /// before the policy is consulted (env-override-rejected)
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = parse_env)]
    env: Vec<(String, String)>,

    /// Explain a shell script: the same as `-- /bin/sh -c SCRIPT`
    #[arg(long, value_name = "SCRIPT", conflicts_with = "argv")]
    shell: Option<String>,

    /// Read one case per line from FILE (or - for stdin): {"argv":[...]} or
    /// {"shell":"..."}, with optional "agent", "cwd" and "env" (an object of
    /// overrides, {"NAME":"VALUE"}); write one JSON result per line
    #[arg(long, value_name = "FILE", conflicts_with_all = ["argv", "shell"])]
    batch: Option<String>,

    /// The command to explain, after `--`
    #[arg(last = true, value_name = "ARGV")]
    argv: Vec<String>,
}

/// Runs `node-host explain`.
pub fn run(args: ExplainArgs) -> anyhow::Result<Exit> {
    let resolved = args.approvals.resolve()?;
    let path = resolved.path.clone();
    let file = load(&path)?;
    let host = HostContext::from_process();
    let cwd = match &args.cwd {
        Some(dir) => absolute(dir)?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let mut policies = Policies::new(&file, &host);
    if let Some(batch) = &args.batch {
        return run_batch(
            batch,
            &mut policies,
            &resolved,
            &args.agent,
            &cwd,
            &args.env,
        );
    }
    let argv = match &args.shell {
        Some(script) => shell_argv(script),
        None => args.argv.clone(),
    };
    if argv.is_empty() || argv[0].is_empty() {
        return Err(
            Failure::usage("no command to explain\nhint: node-host explain -- git status").into(),
        );
    }
    let env: BTreeMap<String, String> = args.env.iter().cloned().collect();
    let mut out = std::io::stdout().lock();
    if let Err(refusal) = check_overrides(&env) {
        if args.json {
            serde_json::to_writer(&mut out, &host_refusal(&refusal))?;
            writeln!(out)?;
        } else {
            write_host_refusal(&mut out, &argv, &refusal)?;
        }
        return Ok(Exit::Success);
    }
    let (compiled, sources) = policies.get(&args.agent);
    let evaluation = compiled.evaluate(&argv, &cwd, &env);
    if args.json {
        serde_json::to_writer(&mut out, &annotated(&evaluation, &resolved, sources))?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "file:     {} ({})",
            escape_for_display(&path.to_string_lossy()),
            resolved.source.why()
        )?;
        write_text(
            &mut out,
            &evaluation,
            &env,
            &args.agent,
            compiled.warnings(),
        )?;
        writeln!(
            out,
            "sources:  security from {}, ask from {}, askFallback from {}",
            sources.security, sources.ask, sources.ask_fallback
        )?;
    }
    Ok(Exit::Success)
}

/// The `--json` shape of an evaluation: the evaluation's own fields, plus
/// the approvals file in use and why (`approvalsFile`) and where each of
/// security, ask and askFallback came from (`policySources`).
fn annotated<'a>(
    evaluation: &'a Evaluation,
    resolved: &'a ResolvedPath,
    sources: &'a PolicySources,
) -> Annotated<'a> {
    Annotated {
        evaluation,
        approvals_file: ApprovalsFileJson {
            path: resolved.path.to_string_lossy(),
            source: resolved.source.word(),
            why: resolved.source.why(),
        },
        policy_sources: SourcesJson {
            security: &sources.security,
            ask: &sources.ask,
            ask_fallback: &sources.ask_fallback,
        },
    }
}

/// An evaluation with where its policy came from, written straight to the
/// output (no intermediate JSON tree: `--batch` writes one per line).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotated<'a> {
    #[serde(flatten)]
    evaluation: &'a Evaluation,
    approvals_file: ApprovalsFileJson<'a>,
    policy_sources: SourcesJson<'a>,
}

/// `approvalsFile` of [`Annotated`].
#[derive(serde::Serialize)]
struct ApprovalsFileJson<'a> {
    path: std::borrow::Cow<'a, str>,
    source: &'static str,
    why: &'static str,
}

/// `policySources` of [`Annotated`].
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SourcesJson<'a> {
    security: &'a str,
    ask: &'a str,
    ask_fallback: &'a str,
}

/// `NAME=VALUE` of `--env`: the name is everything before the first `=`.
fn parse_env(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!("expected NAME=VALUE, got {text:?}")),
    }
}

/// The `--json` shape of a request the host refuses before evaluating it
/// (`HostRefusal::EnvOverride`): a deny whose reason is the wire error's
/// own code (`env-override-rejected`) and message.
fn host_refusal(refusal: &EnvRefusal) -> serde_json::Value {
    let wire = HostRefusal::EnvOverride(refusal.clone()).to_wire();
    serde_json::json!({
        "decision": "deny",
        "reason": {"code": wire.reason, "message": wire.message},
        "allowedDecisions": [],
    })
}

fn write_host_refusal(
    out: &mut impl Write,
    argv: &[String],
    refusal: &EnvRefusal,
) -> std::io::Result<()> {
    let command: Vec<String> = argv.iter().map(|a| escape_for_display(a)).collect();
    writeln!(out, "command:  {}", command.join(" "))?;
    let wire = HostRefusal::EnvOverride(refusal.clone()).to_wire();
    writeln!(
        out,
        "decision: deny ({}) [{}]",
        escape_for_display(&wire.message),
        wire.reason.as_deref().unwrap_or("")
    )?;
    writeln!(
        out,
        "          refused by the host before the policy is consulted; no approval lifts it"
    )
}

fn load(path: &Path) -> anyhow::Result<ApprovalsFile> {
    let snapshot = ApprovalsStore::open(path).load()?;
    for warning in &snapshot.warnings {
        eprintln!("warning: {}: {warning}", path.display());
    }
    if !snapshot.exists {
        eprintln!(
            "warning: {} does not exist; the built-in policy (security=deny) applies\nhint: `ui-bridge serve` creates it with a safe default policy",
            path.display()
        );
    }
    Ok(snapshot.file)
}

/// `dir` made absolute and resolved as a host resolves a request's `cwd`.
fn absolute(dir: &Path) -> anyhow::Result<PathBuf> {
    if dir.is_absolute() {
        Ok(real_cwd(dir))
    } else {
        Ok(real_cwd(
            &std::env::current_dir()
                .context("cannot read the current directory")?
                .join(dir),
        ))
    }
}

fn shell_argv(script: &str) -> Vec<String> {
    vec!["/bin/sh".to_owned(), "-c".to_owned(), script.to_owned()]
}

/// Each agent's policy, compiled on first use.
struct Policies<'a> {
    file: &'a ApprovalsFile,
    host: &'a HostContext,
    compiled: HashMap<String, (CompiledPolicy, PolicySources)>,
}

impl<'a> Policies<'a> {
    fn new(file: &'a ApprovalsFile, host: &'a HostContext) -> Self {
        Self {
            file,
            host,
            compiled: HashMap::new(),
        }
    }

    /// The agent's compiled policy and where its knobs came from, both
    /// resolved once (a batch asks for them on every line).
    fn get(&mut self, agent: &str) -> (&CompiledPolicy, &PolicySources) {
        let (compiled, sources) = self.compiled.entry(agent.to_owned()).or_insert_with(|| {
            let policy = self.file.resolve(Some(agent));
            let sources = policy.sources.clone();
            (CompiledPolicy::compile(policy, self.host), sources)
        });
        (compiled, sources)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchCase {
    argv: Option<Vec<String>>,
    shell: Option<String>,
    agent: Option<String>,
    cwd: Option<PathBuf>,
    env: Option<BTreeMap<String, String>>,
}

fn run_batch(
    source: &str,
    policies: &mut Policies<'_>,
    resolved: &ResolvedPath,
    default_agent: &str,
    default_cwd: &Path,
    default_env: &[(String, String)],
) -> anyhow::Result<Exit> {
    let reader: Box<dyn BufRead> = if source == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(source)
            .with_context(|| format!("cannot open the batch file {source}"))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bad_lines = 0usize;
    for (index, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {source}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let case: BatchCase = match serde_json::from_str(&line) {
            Ok(c) => c,
            Err(err) => {
                bad_lines += 1;
                eprintln!("error: {source}:{}: not a batch case: {err}", index + 1);
                serde_json::to_writer(
                    &mut out,
                    &serde_json::json!({"line": index + 1, "error": err.to_string()}),
                )?;
                writeln!(out)?;
                continue;
            }
        };
        let argv = match (case.argv, case.shell) {
            (Some(argv), None) if !argv.is_empty() => argv,
            (None, Some(script)) => shell_argv(&script),
            _ => {
                bad_lines += 1;
                let msg = "a batch case needs exactly one of a non-empty \"argv\" or \"shell\"";
                eprintln!("error: {source}:{}: {msg}", index + 1);
                serde_json::to_writer(
                    &mut out,
                    &serde_json::json!({"line": index + 1, "error": msg}),
                )?;
                writeln!(out)?;
                continue;
            }
        };
        let cwd = case
            .cwd
            .map(|c| real_cwd(&default_cwd.join(c)))
            .unwrap_or_else(|| default_cwd.to_owned());
        let agent = case.agent.as_deref().unwrap_or(default_agent);
        let env = case
            .env
            .unwrap_or_else(|| default_env.iter().cloned().collect());
        match check_overrides(&env) {
            Err(refusal) => serde_json::to_writer(&mut out, &host_refusal(&refusal))?,
            Ok(()) => {
                let (compiled, sources) = policies.get(agent);
                let evaluation = compiled.evaluate(&argv, &cwd, &env);
                serde_json::to_writer(&mut out, &annotated(&evaluation, resolved, sources))?;
            }
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(if bad_lines == 0 {
        Exit::Success
    } else {
        Exit::FileError
    })
}

fn write_text(
    out: &mut impl Write,
    e: &Evaluation,
    env: &BTreeMap<String, String>,
    agent: &str,
    warnings: &[String],
) -> std::io::Result<()> {
    let p = &e.policy;
    writeln!(out, "command:  {}", escape_for_display(e.command_text()))?;
    writeln!(
        out,
        "cwd:      {}",
        escape_for_display(&e.cwd().to_string_lossy())
    )?;
    for (name, value) in env {
        writeln!(
            out,
            "env:      {}={}",
            escape_for_display(name),
            escape_for_display(value)
        )?;
    }
    writeln!(
        out,
        "policy:   agent {agent}: security={} ask={} askFallback={}",
        json_word(&p.security),
        json_word(&p.ask),
        json_word(&p.ask_fallback)
    )?;
    match &e.analysis.reason {
        None => writeln!(
            out,
            "analysis: understood, {} segment(s)",
            e.analysis.segments.len()
        )?,
        Some(reason) => writeln!(
            out,
            "analysis: NOT understood: {reason} [{}]",
            reason.code()
        )?,
    }
    for (i, s) in e.analysis.segments.iter().enumerate() {
        let argv: Vec<String> = s.argv.iter().map(|a| escape_for_display(a)).collect();
        writeln!(out, "  {}. {}", i + 1, argv.join(" "))?;
        if let Some(runner) = s.run_by {
            writeln!(
                out,
                "     run by:       segment {} (`{{}}` is checked as any file under its start point, .git included)",
                runner + 1
            )?;
        }
        writeln!(
            out,
            "     resolved:     {}",
            s.resolved_path.as_deref().unwrap_or("(not found)")
        )?;
        writeln!(
            out,
            "     real path:    {}",
            s.real_path.as_deref().unwrap_or("(not found)")
        )?;
        if let Some(file) = &s.stdin_file {
            writeln!(out, "     stdin from:   {}", escape_for_display(file))?;
        }
        let by = s
            .satisfied_by
            .map(|b| json_word(&b))
            .unwrap_or_else(|| "nothing".to_owned());
        writeln!(out, "     satisfied by: {by}")?;
        if let Some(miss) = &s.miss {
            writeln!(out, "     miss:         {miss} [{}]", miss.code())?;
        }
        for g in &s.guards {
            writeln!(out, "     guard:        {} [{}]", g.reason, g.id)?;
        }
    }
    writeln!(out, "risk:     {}", json_word(&e.risk.level))?;
    for r in &e.risk.reasons {
        writeln!(out, "          - {r}")?;
    }
    let decisions: Vec<String> = e.allowed_decisions.iter().map(json_word).collect();
    write!(out, "decision: {}", json_word(&e.decision))?;
    if let Some(reason) = &e.reason {
        write!(out, " ({reason}) [{}]", reason.code())?;
    }
    writeln!(out)?;
    if !decisions.is_empty() {
        writeln!(out, "a person may answer: {}", decisions.join(", "))?;
        let fallback = e.fallback();
        writeln!(
            out,
            "if nobody answers:   {} ({})",
            json_word(&fallback.0),
            fallback.1
        )?;
    }
    for w in warnings {
        writeln!(out, "warning:  {w}")?;
    }
    Ok(())
}

/// The wire word of an enum value (`on-miss`, `safe-bin`, …).
fn json_word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".to_owned(),
    }
}
