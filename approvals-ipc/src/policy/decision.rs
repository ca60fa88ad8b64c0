//! The decision function of DESIGN.md section 6: from an analysis and a
//! compiled policy to `allow`, `ask` (with the decisions a person may give)
//! or `deny` with a reason, plus what allow-always would persist.
//!
//! Upholds invariants 3 (nothing not understood is auto-allowed) and 5
//! (allow-always never widens to a shell, interpreter or wrapper).

use std::path::Path;

use serde::Serialize;

use crate::approvals::{AllowAlwaysScope, Ask, Security, command_marker};
use crate::policy::analysis::{self, Analysis, Segment};
use crate::policy::compiled::CompiledPolicy;
use crate::policy::plan::{ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink};
use crate::policy::risk::{self, Risk};
use crate::policy::{guards, quote, safe_bins, salvage, wrappers};

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
    /// The target's argv, wrappers removed.
    pub argv: Vec<String>,
    /// The lexical path argv[0] resolved to.
    pub resolved_path: Option<String>,
    /// The real path (symlinks resolved), which allowlists match.
    pub real_path: Option<String>,
    /// What satisfied it, if anything.
    pub satisfied_by: Option<SatisfiedBy>,
    /// Argument guards that escalate it to a person.
    pub guards: Vec<String>,
    /// Why it is not satisfied, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub miss: Option<String>,
}

/// The analysis part of an evaluation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnalysisReport {
    /// Whether the command was fully understood.
    pub ok: bool,
    /// Why not, when it was not.
    pub reason: Option<String>,
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

/// Everything decided about one request; serializes to the `explain --json`
/// shape.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// What happens before any person is asked.
    pub decision: Verdict,
    /// Why, in words a user can act on (`null` for a plain allow).
    pub reason: Option<String>,
    /// The decisions a person may give when asked.
    pub allowed_decisions: Vec<ApprovalDecision>,
    /// The effective policy.
    pub policy: PolicyView,
    /// What the analysis understood.
    pub analysis: AnalysisReport,
    /// Risk level and reasons, for the prompt.
    pub risk: Risk,
    /// The command as one line of text (quoted argv).
    #[serde(skip)]
    pub command_text: String,
    /// The checked plan, when the analysis understood everything.
    #[serde(skip)]
    pub plan: Option<Plan>,
    /// The argv as requested.
    #[serde(skip)]
    pub argv: Vec<String>,
    /// The working directory as requested.
    #[serde(skip)]
    pub cwd: std::path::PathBuf,
    /// Allowlist patterns that matched (to record their use).
    #[serde(skip)]
    pub matched_patterns: Vec<String>,
    /// Patterns an allow-always answer would persist.
    #[serde(skip)]
    pub persist_patterns: Vec<String>,
    /// Whether every segment is satisfied (for the `allowlist` fallback).
    #[serde(skip)]
    pub satisfied: bool,
    /// Not understood while a denylist is set: it might run a denied
    /// program, so neither `security: full` nor a fallback may allow it.
    #[serde(skip)]
    pub uncertain: bool,
}

impl Evaluation {
    /// The verdict when nobody answered in time: `askFallback`, never looser
    /// than `security`.
    pub fn fallback(&self) -> (Verdict, &'static str) {
        if self.uncertain {
            return (Verdict::Deny, "approval-required");
        }
        match self.policy.ask_fallback.min(self.policy.security) {
            Security::Deny => (Verdict::Deny, "approval-required"),
            Security::Allowlist if self.satisfied => (Verdict::Allow, "fallback allowlist"),
            Security::Allowlist => (Verdict::Deny, "approval-required"),
            Security::Full => (Verdict::Allow, "fallback full"),
        }
    }

    /// What the executor runs once this request is allowed: the checked
    /// plan, or, for a command a person approved as text, exactly the argv
    /// they saw with its program resolved once.
    pub fn exec_plan(&self, compiled: &CompiledPolicy) -> Plan {
        if let Some(plan) = &self.plan {
            return plan.clone();
        }
        let word = self.argv.first().map(String::as_str).unwrap_or("");
        let resolution = compiled.resolver.resolve(word, &self.cwd);
        Plan {
            steps: vec![PlanStep {
                op: ChainOp::Seq,
                pipeline: vec![PlannedCommand::Exec(PlannedExec {
                    program: resolution
                        .real
                        .unwrap_or_else(|| std::path::PathBuf::from(word)),
                    argv: self.argv.clone(),
                    env: Vec::new(),
                    cwd: self.cwd.clone(),
                    stdin: None,
                    stdout: Sink::Stdout,
                    stderr: Sink::Stderr,
                })],
            }],
        }
    }
}

impl CompiledPolicy {
    /// Evaluates one request: `argv` to run in `cwd`.
    pub fn evaluate(&self, argv: &[String], cwd: &Path) -> Evaluation {
        let cwd = analysis::normalize(cwd);
        let analysis = analysis::analyze(self, argv, &cwd);
        let command_text = quote::join(argv);
        decide(self, analysis, argv, cwd, command_text)
    }
}

fn decide(
    compiled: &CompiledPolicy,
    analysis: Analysis,
    argv: &[String],
    cwd: std::path::PathBuf,
    command_text: String,
) -> Evaluation {
    let policy = &compiled.policy;
    let view = PolicyView {
        security: policy.security,
        ask: policy.ask,
        ask_fallback: policy.ask_fallback,
    };
    let args = argv.get(1..).unwrap_or(&[]);
    let marker = (compiled.allow.has_markers() || !compiled.allow_args.is_empty())
        .then(|| command_marker(&command_text));
    let marker_entry = marker
        .as_deref()
        .and_then(|m| {
            compiled
                .allow
                .match_marker(m)
                .or_else(|| compiled.allow_args.match_marker(m, args))
        })
        .or_else(|| shell_arg_entry(compiled, argv, &cwd));
    let analysis_ok = analysis.refusal.is_none();
    let uncertain = !analysis_ok && compiled.deny.any;

    let mut matched_patterns = Vec::new();
    let mut reports = Vec::with_capacity(analysis.segments.len());
    let mut all_satisfied = analysis_ok && !analysis.segments.is_empty();
    let mut guarded = Vec::new();
    let mut denied: Option<String> = compiled.deny.unparsable.clone();
    let mut persist = Vec::new();
    let mut needs_marker = policy.allow_always_scope == AllowAlwaysScope::Command || !analysis_ok;
    let mut persistable = true;

    for segment in &analysis.segments {
        let report = check_segment(compiled, segment, marker_entry.is_some());
        if denied.is_none() {
            denied = denylisted(compiled, segment);
        }
        if let Some(i) = report.entry
            && let Some(entry) = policy.allowlist.get(i)
            && !matched_patterns.contains(&entry.pattern)
        {
            matched_patterns.push(entry.pattern.clone());
        }
        let satisfied = report.satisfied_by.is_some() && report.guards.is_empty();
        if !report.guards.is_empty() {
            guarded.extend(report.guards.iter().cloned());
        }
        if !satisfied {
            all_satisfied = false;
            match &segment.resolution.real {
                None => persistable = false,
                Some(real) => {
                    let names = [
                        program_name(segment),
                        real.file_name().and_then(|n| n.to_str()).unwrap_or(""),
                    ];
                    let runs_code = names.iter().any(|name| {
                        wrappers::is_shell(name)
                            || wrappers::is_wrapper(name)
                            || is_interpreter(name)
                    });
                    if !report.guards.is_empty() || runs_code {
                        needs_marker = true;
                    } else {
                        let pattern = real.to_string_lossy().into_owned();
                        if !persist.contains(&pattern) {
                            persist.push(pattern);
                        }
                    }
                }
            }
        }
        reports.push(SegmentReport {
            argv: segment.argv.clone(),
            resolved_path: path_string(segment.resolution.resolved.as_deref()),
            real_path: path_string(segment.resolution.real.as_deref()),
            satisfied_by: report.satisfied_by,
            guards: report.guards,
            miss: (!satisfied).then_some(report.miss).flatten(),
        });
    }
    if analysis.segments.is_empty() {
        persistable = analysis_ok;
    }
    // What a command that was not understood would most likely run is
    // still checked against the denylist, and read for risk. An understood
    // command needs no salvage: its segments are exactly what runs.
    let salvaged = (!analysis_ok).then(|| salvage::salvage(argv));
    if denied.is_none()
        && let Some(salvaged) = &salvaged
    {
        denied = salvaged.commands().find_map(|cmd| {
            let word = cmd.first().filter(|w| !w.is_empty())?;
            let resolution = compiled.resolver.resolve(word, &cwd);
            let real = resolution.real.as_deref();
            compiled
                .deny
                .match_path(real)
                .or_else(|| compiled.deny.match_command(cmd, real))
                .map(|why| format!("{why} (read from a command that was not understood)"))
        });
    }
    if marker_entry.is_some() {
        // A person approved this exact command text before.
        all_satisfied = true;
        if let Some(entry) = marker_entry.and_then(|i| policy.allowlist.get(i))
            && !matched_patterns.contains(&entry.pattern)
        {
            matched_patterns.push(entry.pattern.clone());
        }
    }
    if needs_marker {
        persist = vec![command_marker(&command_text)];
    }
    // The crude reading of raw text is only needed when the analysis could
    // not read the script itself; otherwise the exact pipelines say it all.
    let raw_text = analysis
        .script
        .as_deref()
        .filter(|_| analysis.refusal.is_some());
    let mut risk = risk::assess(&analysis.pipelines, raw_text);
    // The raw argv and text too: the higher reading wins, so a command the
    // analysis refused (an invisible character, a `$VAR`) keeps its level.
    if let Some(salvaged) = &salvaged {
        risk.merge(risk::assess(&salvaged.pipelines, None));
        if let Some(ch) = salvaged.hidden {
            risk.note_hidden(ch);
        }
    }

    let miss_reason = || -> String {
        if let Some(refusal) = &analysis.refusal {
            return format!("not understood: {refusal}");
        }
        if !guarded.is_empty() {
            return format!("argument guard: {}", guarded.join("; "));
        }
        let misses: Vec<String> = reports.iter().filter_map(|r| r.miss.clone()).collect();
        format!("allowlist-miss: {}", misses.join("; "))
    };

    let mut allowed = vec![
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowAlways,
        ApprovalDecision::Deny,
    ];
    if policy.ask == Ask::Always || !persistable || persist.is_empty() || uncertain {
        allowed.retain(|d| *d != ApprovalDecision::AllowAlways);
    }
    let (decision, reason) = if let Some(why) = denied {
        (Verdict::Deny, Some(format!("denylist: {why}")))
    } else {
        match policy.security {
            Security::Deny => (Verdict::Deny, Some("security=deny".to_owned())),
            Security::Full if policy.ask == Ask::Always => {
                (Verdict::Ask, Some("ask=always".to_owned()))
            }
            Security::Full => (Verdict::Allow, None),
            Security::Allowlist if all_satisfied && policy.ask != Ask::Always => {
                (Verdict::Allow, None)
            }
            Security::Allowlist if all_satisfied => (Verdict::Ask, Some("ask=always".to_owned())),
            Security::Allowlist if policy.ask == Ask::Off => (Verdict::Deny, Some(miss_reason())),
            Security::Allowlist => (Verdict::Ask, Some(miss_reason())),
        }
    };
    let (decision, reason) = match &analysis.refusal {
        Some(refusal) if uncertain && decision == Verdict::Allow => {
            let why = format!(
                "not understood: {refusal}; a denylist is set and this command might run a denied program, so it is never auto-allowed"
            );
            if policy.ask == Ask::Off {
                (Verdict::Deny, Some(why))
            } else {
                (Verdict::Ask, Some(why))
            }
        }
        _ => (decision, reason),
    };
    if decision != Verdict::Ask {
        allowed.clear();
    }
    Evaluation {
        decision,
        reason,
        allowed_decisions: allowed,
        policy: view,
        analysis: AnalysisReport {
            ok: analysis_ok,
            reason: analysis.refusal.clone(),
            segments: reports,
        },
        risk,
        command_text,
        plan: analysis.plan,
        argv: argv.to_vec(),
        cwd,
        matched_patterns,
        persist_patterns: persist,
        satisfied: all_satisfied,
        uncertain,
    }
}

struct SegmentCheck {
    satisfied_by: Option<SatisfiedBy>,
    entry: Option<usize>,
    guards: Vec<String>,
    miss: Option<String>,
}

fn check_segment(compiled: &CompiledPolicy, segment: &Segment, by_marker: bool) -> SegmentCheck {
    let policy = &compiled.policy;
    let Some(real) = segment.resolution.real.as_deref() else {
        return SegmentCheck {
            satisfied_by: by_marker.then_some(SatisfiedBy::Allowlist),
            entry: None,
            guards: Vec::new(),
            miss: Some(format!("{} was not found", segment.argv[0])),
        };
    };
    let args = segment.argv.get(1..).unwrap_or(&[]);
    let entry = compiled
        .allow_args
        .match_path(real, args)
        .or_else(|| compiled.allow.match_path(real));
    let name = program_name(segment);
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
            miss = Some(format!(
                "{name} is a safe bin but {} is not in a trusted directory",
                real.display()
            ));
        } else {
            match safe_bins::check_usage(name, profile, &segment.argv[1..]) {
                Ok(()) => satisfied_by = Some(SatisfiedBy::SafeBin),
                Err(err) => miss = Some(format!("{name} is a safe bin, but {err}")),
            }
        }
    } else if policy.auto_allow_skills
        && compiled.skill_bins.contains(real)
        && !segment.argv[0].contains('/')
    {
        satisfied_by = Some(SatisfiedBy::Skill);
    }
    if satisfied_by.is_none() && miss.is_none() {
        miss = Some(format!("{} is not in the allowlist", real.display()));
    }
    let guards_on = policy.arg_guards
        && entry
            .and_then(|i| policy.allowlist.get(i))
            .is_none_or(|e| e.arg_guards != Some(false));
    let guards = if guards_on && satisfied_by == Some(SatisfiedBy::Allowlist) && !by_marker {
        let guard_name = real.file_name().and_then(|n| n.to_str()).unwrap_or(name);
        let mut hits = guards::check(
            guard_name,
            &segment.argv,
            &segment.cwd,
            segment.stdin_is_input,
        );
        if hits.is_empty() && guard_name != name {
            hits = guards::check(name, &segment.argv, &segment.cwd, segment.stdin_is_input);
        }
        hits.into_iter().map(|h| h.reason).collect()
    } else {
        Vec::new()
    };
    SegmentCheck {
        satisfied_by,
        entry,
        guards,
        miss,
    }
}

fn denylisted(compiled: &CompiledPolicy, segment: &Segment) -> Option<String> {
    let real = segment.resolution.real.as_deref();
    compiled
        .deny
        .match_path(real)
        .or_else(|| compiled.deny.match_command(&segment.argv, real))
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
    compiled.allow_args.match_path(&real, args)
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

fn path_string(path: Option<&Path>) -> Option<String> {
    path.map(|p| p.to_string_lossy().into_owned())
}

/// Programs that run code given to them; allow-always never persists them
/// by path.
pub fn is_interpreter(name: &str) -> bool {
    crate::policy::programs::is_interpreter(name)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fail_closed_tests;
