//! A policy compiled once per file version: the resolved agent policy plus
//! its matchers, safe-bin profiles and host facts, ready to evaluate many
//! requests without re-reading or re-compiling anything.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::approvals::ResolvedPolicy;
use crate::policy::arg_pattern::ArgEntries;
use crate::policy::command_pattern::CommandPattern;
use crate::policy::matcher::{CASE_INSENSITIVE_PATHS, PathMatcher};
use crate::policy::resolve::Resolver;
use crate::policy::safe_bins::{self, SafeBinProfile};

/// Facts about the host that resolution depends on, read once.
#[derive(Debug, Clone, Default)]
pub struct HostContext {
    /// The host's own `PATH` (never the request's).
    pub path: Option<OsString>,
    /// The home directory, for `~` in patterns and scripts.
    pub home: Option<PathBuf>,
}

impl HostContext {
    /// Reads `PATH` and the home directory of this process.
    pub fn from_process() -> Self {
        Self {
            path: std::env::var_os("PATH"),
            home: std::env::home_dir(),
        }
    }
}

/// The denylist, compiled: path globs and parsed command patterns, each
/// with the reason to show.
#[derive(Debug, Clone)]
pub(crate) struct Denylist {
    pub(crate) paths: PathMatcher,
    pub(crate) path_reasons: Vec<String>,
    pub(crate) commands: Vec<(CommandPattern, String)>,
    /// Set when a `commandPattern` could not be parsed: the entry then
    /// matches every command (fail closed), with this reason.
    pub(crate) unparsable: Option<String>,
    /// Whether the policy has any denylist entry at all.
    pub(crate) any: bool,
}

impl Denylist {
    /// The reason of the first command pattern `argv` (resolved to `real`)
    /// matches, counting an unparsable pattern as a match.
    pub(crate) fn match_command(&self, argv: &[String], real: Option<&Path>) -> Option<String> {
        if let Some(why) = &self.unparsable {
            return Some(why.clone());
        }
        self.commands
            .iter()
            .find(|(pattern, _)| pattern.matches(argv, real))
            .map(|(_, reason)| reason.clone())
    }

    /// The reason of the first path pattern the real path matches.
    pub(crate) fn match_path(&self, real: Option<&Path>) -> Option<String> {
        let i = self.paths.match_path(real?)?;
        self.path_reasons.get(i).cloned()
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
    pub(crate) skill_bins: HashSet<PathBuf>,
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
            policy
                .allowlist
                .iter()
                .map(|e| e.arg_pattern.is_none().then_some(e.pattern.as_str())),
            home.as_deref(),
            CASE_INSENSITIVE_PATHS,
        );
        warnings.extend(w);
        let (allow_args, w) = ArgEntries::compile(
            policy.allowlist.iter().enumerate().filter_map(|(i, e)| {
                e.arg_pattern
                    .as_deref()
                    .map(|args| (i, e.pattern.as_str(), args))
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
        Self {
            policy,
            resolver,
            home,
            allow,
            allow_args,
            deny,
            safe_bins,
            trusted_dirs,
            skill_bins: HashSet::new(),
            warnings,
        }
    }

    /// Adds the real paths of skill CLIs (from the gateway) that
    /// `autoAllowSkills` may trust.
    pub fn with_skill_bins(mut self, bins: impl IntoIterator<Item = PathBuf>) -> Self {
        self.skill_bins = bins
            .into_iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
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
    let mut path_patterns = Vec::new();
    let mut path_reasons = Vec::new();
    let mut commands = Vec::new();
    let mut unparsable = None;
    for entry in &policy.denylist {
        let reason = entry.reason.clone();
        if let Some(p) = &entry.pattern {
            path_patterns.push(p.as_str());
            path_reasons.push(reason.clone().unwrap_or_else(|| format!("matches {p}")));
        }
        if let Some(c) = &entry.command_pattern {
            match CommandPattern::parse(c) {
                Ok(pattern) => {
                    commands.push((pattern, reason.unwrap_or_else(|| format!("matches {c:?}"))));
                }
                Err(err) => {
                    warnings.push(format!(
                        "denylist commandPattern {c:?} cannot be parsed ({err}); it matches every command, so every command is refused until it is fixed\nhint: write the command as words, e.g. \"rm -rf\" (see docs/approvals-file.md)"
                    ));
                    unparsable.get_or_insert_with(|| {
                        format!("the denylist commandPattern {c:?} cannot be parsed")
                    });
                }
            }
        }
    }
    let (paths, w) = PathMatcher::compile(path_patterns, home, CASE_INSENSITIVE_PATHS);
    warnings.extend(w.into_iter().map(|w| w.replace("allowlist", "denylist")));
    Denylist {
        paths,
        path_reasons,
        commands,
        unparsable,
        any: !policy.denylist.is_empty(),
    }
}
