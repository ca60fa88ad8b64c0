//! A policy compiled once per file version: the resolved agent policy plus
//! its matchers, safe-bin profiles and host facts, ready to evaluate many
//! requests without re-reading or re-compiling anything.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::approvals::{DenylistEntry, ResolvedPolicy};
use crate::policy::arg_pattern::{ArgEntries, ArgRule};
use crate::policy::command_pattern::CommandPattern;
use crate::policy::matcher::{CASE_INSENSITIVE_PATHS, PathMatcher};
use crate::policy::reason::DenyHit;
use crate::policy::resolve::Resolver;
use crate::policy::safe_bins::{self, SafeBinProfile};
use crate::policy::secrets::Secrets;

/// Facts about the host that resolution depends on, read once.
#[derive(Debug, Clone, Default)]
pub struct HostContext {
    /// The host's own `PATH` (never the request's).
    pub path: Option<OsString>,
    /// The home directory, for `~` in patterns and scripts.
    pub home: Option<PathBuf>,
    /// The guardrail's state directories named by the environment
    /// (`$CLAWDBOT_STATE_DIR`, `$OPENCLAW_STATE_DIR`), which no command may
    /// name ([`Secrets`]); the ones under home are protected anyway.
    pub state_dirs: Vec<PathBuf>,
}

impl HostContext {
    /// Reads `PATH` and the home directory of this process.
    pub fn from_process() -> Self {
        Self {
            path: std::env::var_os("PATH"),
            home: std::env::home_dir(),
            state_dirs: [
                crate::approvals::STATE_DIR_ENV,
                crate::approvals::OPENCLAW_STATE_DIR_ENV,
            ]
            .iter()
            .filter_map(std::env::var_os)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .collect(),
        }
    }
}

/// The denylist, compiled. Each match returns the entry it matched, and the
/// reason is read from that entry, so a pattern can never be shown with
/// another entry's reason.
#[derive(Debug, Clone)]
pub(crate) struct Denylist {
    /// The entries as written.
    entries: Vec<DenylistEntry>,
    /// Path globs over real paths, indexed by entry (entries without a
    /// `pattern` hold none).
    paths: PathMatcher,
    /// Parsed command patterns, each with its entry's index.
    commands: Vec<(usize, CommandPattern)>,
    /// The first `commandPattern` that could not be parsed: it matches every
    /// command (fail closed).
    unparsable: Option<String>,
}

impl Denylist {
    /// Whether the policy has any denylist entry at all.
    pub(crate) fn any(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The pattern of an unparsable `commandPattern`, which refuses every
    /// command until it is fixed.
    pub(crate) fn unparsable(&self) -> Option<&str> {
        self.unparsable.as_deref()
    }

    /// The first entry whose path glob matches the real path, or whose
    /// command pattern matches `argv` (resolved to `real`).
    pub(crate) fn match_segment(
        &self,
        argv: &[String],
        real: Option<&Path>,
        salvaged: bool,
    ) -> Option<DenyHit> {
        if !self.any() {
            return None;
        }
        let by_path = real
            .and_then(|real| self.paths.match_path(real))
            .and_then(|i| Some((i, self.entries.get(i)?.pattern.as_deref()?)))
            .map(|(i, pattern)| (i, format!("matches {pattern}")));
        let by_command = || {
            self.commands
                .iter()
                .find(|(_, pattern)| pattern.matches(argv, real))
                .and_then(|(i, _)| Some((*i, self.entries.get(*i)?.command_pattern.as_deref()?)))
                .map(|(i, pattern)| (i, format!("matches {pattern:?}")))
        };
        let (entry, matched) = by_path.or_else(by_command)?;
        let why = self
            .entries
            .get(entry)
            .and_then(|e| e.reason.clone())
            .unwrap_or(matched);
        Some(DenyHit {
            entry,
            why,
            salvaged,
        })
    }
}

/// An agent's policy ready for evaluation.
#[derive(Debug, Clone)]
pub struct CompiledPolicy {
    pub(crate) policy: ResolvedPolicy,
    pub(crate) resolver: Resolver,
    pub(crate) home: Option<PathBuf>,
    pub(crate) allow: PathMatcher,
    /// Allowlist entries with an `argPattern`; `allow` skips them.
    pub(crate) allow_args: ArgEntries,
    pub(crate) deny: Denylist,
    pub(crate) safe_bins: HashMap<String, SafeBinProfile>,
    pub(crate) trusted_dirs: Vec<PathBuf>,
    /// Skill CLIs by real path, each with the file names it was given as
    /// (a multi-call binary is trusted only as those names).
    pub(crate) skill_bins: HashMap<PathBuf, Vec<String>>,
    /// Paths no allowed command may name.
    pub(crate) secrets: Secrets,
    warnings: Vec<String>,
}

impl CompiledPolicy {
    /// Compiles `policy` for this host; problems that make an entry useless
    /// become warnings (see [`CompiledPolicy::warnings`]), never errors, and
    /// never widen what is allowed.
    pub fn compile(policy: ResolvedPolicy, host: &HostContext) -> Self {
        let mut warnings = Vec::new();
        let home = host.home.clone();
        let (allow, w) = PathMatcher::compile_some(
            policy.allowlist.iter().map(|e| {
                (e.arg_pattern.is_none() && e.arg_prefix.is_none()).then_some(e.pattern.as_str())
            }),
            home.as_deref(),
            CASE_INSENSITIVE_PATHS,
        );
        warnings.extend(w);
        let (allow_args, w) = ArgEntries::compile(
            policy
                .allowlist
                .iter()
                .enumerate()
                .filter(|(_, e)| e.arg_pattern.is_some() || e.arg_prefix.is_some())
                .map(|(index, e)| ArgRule {
                    index,
                    pattern: e.pattern.as_str(),
                    regex: e.arg_pattern.as_deref(),
                    prefix: e.arg_prefix.as_deref(),
                }),
            home.as_deref(),
            CASE_INSENSITIVE_PATHS,
        );
        warnings.extend(w);
        let deny = compile_denylist(&policy, home.as_deref(), &mut warnings);
        let mut safe_bins = HashMap::new();
        for bin in &policy.safe_bins {
            let profile = match policy.safe_bin_profiles.get(bin) {
                Some(json) => match safe_bins::profile_from_json(bin, json) {
                    Ok(p) => Some(p),
                    Err(err) => {
                        warnings.push(format!(
                            "safe bin {bin:?} has an invalid profile ({err}); it is not safe"
                        ));
                        None
                    }
                },
                None => safe_bins::builtin_profile(bin),
            };
            match profile {
                Some(p) => {
                    safe_bins.insert(bin.clone(), p);
                }
                None if !policy.safe_bin_profiles.contains_key(bin) => warnings.push(format!(
                    "safe bin {bin:?} has no profile; it is never safe\nhint: add safeBinProfiles.{bin} or remove it from safeBins"
                )),
                None => {}
            }
        }
        let (trusted_dirs, w) = safe_bins::trusted_dirs(&policy.safe_bin_trusted_dirs);
        warnings.extend(w);
        let resolver = Resolver::new(host.path.clone());
        let secrets = Secrets::for_host(home.as_deref(), &host.state_dirs);
        Self {
            policy,
            resolver,
            home,
            allow,
            allow_args,
            deny,
            safe_bins,
            trusted_dirs,
            skill_bins: HashMap::new(),
            secrets,
            warnings,
        }
    }

    /// Adds the real paths of skill CLIs (from the gateway) that
    /// `autoAllowSkills` may trust.
    pub fn with_skill_bins(mut self, bins: impl IntoIterator<Item = PathBuf>) -> Self {
        self.skill_bins = HashMap::new();
        for bin in bins {
            let Ok(real) = std::fs::canonicalize(&bin) else {
                continue;
            };
            let names = self.skill_bins.entry(real).or_default();
            if let Some(name) = bin.file_name().and_then(|n| n.to_str())
                && !names.iter().any(|n| n == name)
            {
                names.push(name.to_owned());
            }
        }
        self
    }

    /// The resolved policy this was compiled from.
    pub fn policy(&self) -> &ResolvedPolicy {
        &self.policy
    }

    /// Entries and settings that can never take effect, for `doctor` and
    /// `explain`.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The home directory used for `~`.
    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }
}

fn compile_denylist(
    policy: &ResolvedPolicy,
    home: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Denylist {
    let mut commands = Vec::new();
    let mut unparsable = None;
    for (i, entry) in policy.denylist.iter().enumerate() {
        let Some(c) = &entry.command_pattern else {
            continue;
        };
        match CommandPattern::parse(c) {
            Ok(pattern) => commands.push((i, pattern)),
            Err(err) => {
                warnings.push(format!(
                    "denylist commandPattern {c:?} cannot be parsed ({err}); it matches every command, so every command is refused until it is fixed\nhint: write the command as words, e.g. \"rm -rf\" (see docs/approvals-file.md)"
                ));
                unparsable.get_or_insert_with(|| c.clone());
            }
        }
    }
    let (paths, w) = PathMatcher::compile_some(
        policy.denylist.iter().map(|e| e.pattern.as_deref()),
        home,
        CASE_INSENSITIVE_PATHS,
    );
    warnings.extend(w.into_iter().map(|w| w.replace("allowlist", "denylist")));
    Denylist {
        entries: policy.denylist.clone(),
        paths,
        commands,
        unparsable,
    }
}

#[cfg(test)]
mod tests;
