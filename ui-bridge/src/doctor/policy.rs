//! Doctor's policy checks: the token, allowlist entries that trust more than
//! one program (or nothing), safe bins that can never apply, and `ask: off`
//! with `security: full`.
//!
//! It reads the approvals file only; it changes nothing. What counts as a
//! shell, an interpreter or a wrapper is the policy's own table
//! (`approvals_ipc::policy::programs`), and a pattern is matched with the
//! policy's own matcher, so doctor flags exactly what the policy would
//! trust (DESIGN.md invariant 5 keeps allow-always from adding such
//! entries; a person can still write one by hand).

use std::ffi::OsString;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use approvals_ipc::approvals::{ApprovalsFile, Ask, Security, expand_tilde};
use approvals_ipc::policy::matcher::{CASE_INSENSITIVE_PATHS, PathMatcher};
use approvals_ipc::policy::programs::{self, PROGRAMS};
use approvals_ipc::policy::resolve::Resolver;
use approvals_ipc::policy::safe_bins;

use super::{Check, Finding};

/// The shortest token doctor accepts: what `ui-bridge serve` generates (24
/// random bytes, 32 base64url characters, 192 bits).
pub const MIN_TOKEN_CHARS: usize = 32;

/// Directories an executable glob is tried in, besides its own literal
/// directory, to see whether it can match a shell, an interpreter or a
/// wrapper.
const COMMON_BIN_DIRS: &[&str] = &["/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"];

/// The token: present and at least [`MIN_TOKEN_CHARS`] long. Never shows it.
pub(super) fn check_token(file: &ApprovalsFile, path: &Path, findings: &mut Vec<Finding>) {
    let subject = format!("{} socket.token", path.display());
    let token = file.socket.as_ref().and_then(|s| s.token.as_ref());
    match token {
        None => findings.push(Finding::problem(
            Check::Token,
            subject,
            "there is no socket token: no client can sign a request, so the bridge cannot be used",
            "start `ui-bridge serve` once: it writes a fresh random token into the file",
        )),
        Some(token) if token.expose_secret().chars().count() < MIN_TOKEN_CHARS => {
            findings.push(Finding::problem(
                Check::Token,
                subject,
                format!(
                    "the socket token has {} characters, fewer than {MIN_TOKEN_CHARS}: a short secret can be guessed",
                    token.expose_secret().chars().count()
                ),
                "delete socket.token from the file and restart `ui-bridge serve`: it writes a fresh 32-character random token (running clients read it again on their next request)",
            ));
        }
        Some(_) => {}
    }
}

/// Every allowlist entry of every agent, for what it trusts.
pub(super) fn check_allowlists(
    file: &ApprovalsFile,
    home: Option<&Path>,
    findings: &mut Vec<Finding>,
) {
    for (agent, layer) in &file.agents {
        for (index, entry) in layer.allowlist.iter().enumerate() {
            let subject = format!("agents.{agent}.allowlist[{index}] {:?}", entry.pattern);
            for (problem, fix) in entry_risks(entry.pattern.trim(), home) {
                findings.push(Finding::problem(Check::Allowlist, &subject, problem, fix));
            }
        }
    }
}

/// What one pattern trusts that it should not, as (problem, fix) pairs.
fn entry_risks(pattern: &str, home: Option<&Path>) -> Vec<(String, String)> {
    let mut risks = Vec::new();
    if pattern.starts_with("=command:") || pattern.starts_with("=node-command:") {
        return risks;
    }
    if pattern == "*" {
        risks.push((
            "`*` trusts every executable: any command an agent sends runs unasked".to_owned(),
            "remove it and allow the programs you use one by one (node-host approvals allow /usr/bin/git)".to_owned(),
        ));
        return risks;
    }
    let Some(expanded) = expand_tilde(Path::new(pattern), home) else {
        risks.push((
            "the pattern starts with `~` but there is no home directory, so it never matches"
                .to_owned(),
            "set HOME or write the absolute path".to_owned(),
        ));
        return risks;
    };
    let text = expanded.to_string_lossy().into_owned();
    if !text.starts_with('/') {
        risks.push((
            "a bare name never matches: entries are paths of executables".to_owned(),
            format!(
                "write the full path (e.g. \"{}\"; `command -v {pattern}` prints it)",
                guess_path(pattern)
            ),
        ));
        return risks;
    }
    let (matcher, _) = PathMatcher::compile([text.as_str()], home, CASE_INSENSITIVE_PATHS);
    if matcher.allows_everything() {
        risks.push((
            "the pattern matches every executable".to_owned(),
            "allow the programs you use one by one".to_owned(),
        ));
    }
    if let Some((path, what)) = runs_other_code(&text, &matcher) {
        risks.push((
            format!(
                "trusts {what} ({path}): through it an agent runs any code it likes, so the entry allows everything"
            ),
            "remove the entry; allow the programs the scripts run instead, or let a person approve each command (allow-always then saves the exact command)".to_owned(),
        ));
    }
    if let Some(dir) = writable_dir(&literal_dir(&text)) {
        risks.push((
            format!(
                "{} is writable by every user: anyone can put a program there that this entry then trusts",
                dir.display()
            ),
            format!(
                "install the program in a directory only you or root can write (chmod o-w {} if it is yours)",
                dir.display()
            ),
        ));
    }
    risks
}

/// The first shell, interpreter or wrapper the pattern matches, with what it is.
fn runs_other_code(text: &str, matcher: &PathMatcher) -> Option<(String, &'static str)> {
    if !text.contains(['*', '?']) {
        let path = Path::new(text);
        let real = std::fs::canonicalize(path).ok();
        return [Some(path), real.as_deref()]
            .into_iter()
            .flatten()
            .filter_map(|p| p.file_name()?.to_str())
            .find_map(|name| Some((text.to_owned(), kind_word(name)?)));
    }
    let own_dir = literal_dir(text);
    let dirs = std::iter::once(own_dir).chain(COMMON_BIN_DIRS.iter().map(PathBuf::from));
    // The worst match is named: one installed here before one that is not,
    // then a shell before an interpreter before a wrapper.
    let mut best: Option<((bool, u8), String, &'static str)> = None;
    for dir in dirs {
        for program in PROGRAMS
            .iter()
            .filter(|p| programs::runs_other_code(p.name))
        {
            let candidate = dir.join(program.name);
            if matcher.match_path(&candidate).is_none() {
                continue;
            }
            let Some(what) = kind_word(program.name) else {
                continue;
            };
            let rank = (!candidate.exists(), kind_rank(what));
            if best.as_ref().is_none_or(|(r, ..)| rank < *r) {
                best = Some((rank, candidate.display().to_string(), what));
            }
        }
    }
    best.map(|(_, path, what)| (path, what))
}

/// Which of [`kind_word`]'s words is worse: a shell runs anything at all.
fn kind_rank(what: &str) -> u8 {
    match what {
        "a shell" => 0,
        "an interpreter" => 1,
        _ => 2,
    }
}

/// "a shell", "an interpreter" or "a wrapper", from the policy's table.
fn kind_word(name: &str) -> Option<&'static str> {
    if programs::is_shell(name) {
        Some("a shell")
    } else if programs::is_interpreter(name) {
        Some("an interpreter")
    } else if programs::is_wrapper(name) {
        Some("a wrapper")
    } else {
        None
    }
}

/// The directory part of a pattern before its first glob character.
fn literal_dir(text: &str) -> PathBuf {
    let path = Path::new(text);
    let mut dir = PathBuf::new();
    for component in path.components() {
        if component.as_os_str().to_string_lossy().contains(['*', '?']) {
            return dir;
        }
        dir.push(component);
    }
    path.parent().map(Path::to_owned).unwrap_or_default()
}

/// The first of `dir` and its ancestors that anyone may write into: `dir`
/// itself world-writable (sticky or not: others can add files there), or
/// an ancestor world-writable and not sticky (others can rename `dir`).
fn writable_dir(dir: &Path) -> Option<PathBuf> {
    let mut current = Some(dir);
    let mut own = true;
    while let Some(d) = current {
        if let Ok(meta) = std::fs::metadata(d) {
            let mode = meta.mode();
            let world = mode & 0o002 != 0;
            let sticky = mode & 0o1000 != 0;
            if world && (own || !sticky) {
                return Some(d.to_owned());
            }
        }
        own = false;
        current = d.parent().filter(|p| !p.as_os_str().is_empty());
    }
    None
}

/// `/usr/bin/NAME` as the likely full path of a bare name.
fn guess_path(name: &str) -> String {
    Resolver::new(std::env::var_os("PATH"))
        .resolve(name, Path::new("/"))
        .resolved
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| format!("/usr/bin/{name}"))
}

/// The safe bins of every agent: each needs a profile and must resolve
/// inside a trusted directory, or it never applies.
pub(super) fn check_safe_bins(
    file: &ApprovalsFile,
    path_env: Option<OsString>,
    findings: &mut Vec<Finding>,
) {
    let resolver = Resolver::new(path_env);
    let mut seen = Vec::new();
    for policy in every_agent(file) {
        let (trusted, dropped) = safe_bins::trusted_dirs(&policy.safe_bin_trusted_dirs);
        for why in dropped {
            push_once(
                findings,
                &mut seen,
                Finding::problem(
                    Check::SafeBins,
                    "safeBinTrustedDirs",
                    why,
                    "list only directories that only root can write, such as /usr/local/bin",
                ),
            );
        }
        for bin in &policy.safe_bins {
            let subject = format!("safeBins {bin:?}");
            let profile = match policy.safe_bin_profiles.get(bin) {
                Some(json) => safe_bins::profile_from_json(bin, json).map_err(|e| e.to_string()),
                None => safe_bins::builtin_profile(bin)
                    .ok_or_else(|| "it has no profile, so it is never allowed".to_owned()),
            };
            if let Err(why) = profile {
                push_once(
                    findings,
                    &mut seen,
                    Finding::problem(
                        Check::SafeBins,
                        &subject,
                        why,
                        format!(
                            "add safeBinProfiles.{bin} (its allowed flags, see docs/policy.md) or remove it from safeBins"
                        ),
                    ),
                );
                continue;
            }
            let resolution = resolver.resolve(bin, Path::new("/"));
            match resolution.real {
                None => push_once(
                    findings,
                    &mut seen,
                    Finding::note(
                        Check::SafeBins,
                        &subject,
                        "not found on PATH",
                        "install it, or remove it from safeBins",
                    ),
                ),
                Some(real) if !safe_bins::in_trusted_dir(&real, &trusted) => push_once(
                    findings,
                    &mut seen,
                    Finding::problem(
                        Check::SafeBins,
                        &subject,
                        format!(
                            "resolves to {}, outside the trusted directories ({}), so it is never allowed as a safe bin",
                            real.display(),
                            trusted
                                .iter()
                                .map(|d| d.display().to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        format!(
                            "use the system's {bin} (put /usr/bin first on PATH), add {} to safeBinTrustedDirs if only root can write it, or remove it from safeBins",
                            real.parent().unwrap_or(Path::new("/")).display()
                        ),
                    ),
                ),
                Some(_) => {}
            }
        }
    }
}

/// `security: full` with `ask: off`: everything runs unasked.
pub(super) fn check_ask_off_full(file: &ApprovalsFile, findings: &mut Vec<Finding>) {
    let mut seen = Vec::new();
    for policy in every_agent(file) {
        if policy.security == Security::Full && policy.ask == Ask::Off {
            push_once(
                findings,
                &mut seen,
                Finding::problem(
                    Check::AskOffFull,
                    format!("agent {}", policy.agent_id),
                    format!(
                        "security full ({}) with ask off ({}): every command runs without anyone being asked; only the denylist stops one",
                        policy.sources.security, policy.sources.ask
                    ),
                    "set security to allowlist (and allow what the agent needs), or ask to on-miss or always",
                ),
            );
        }
    }
}

/// The resolved policy of the default agent and of every named one.
fn every_agent(file: &ApprovalsFile) -> Vec<approvals_ipc::approvals::ResolvedPolicy> {
    std::iter::once(None)
        .chain(
            file.agents
                .keys()
                .filter(|k| k.as_str() != approvals_ipc::approvals::WILDCARD_AGENT)
                .map(|k| Some(k.as_str())),
        )
        .map(|agent| file.resolve(agent))
        .collect()
}

/// Adds a finding unless the same one (another agent's copy) is there.
fn push_once(findings: &mut Vec<Finding>, seen: &mut Vec<(String, String)>, finding: Finding) {
    let key = (finding.subject.clone(), finding.problem.clone());
    if !seen.contains(&key) {
        seen.push(key);
        findings.push(finding);
    }
}
