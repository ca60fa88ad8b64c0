//! git config: which keys are inert, and what a `git config` call does.
//!
//! A config key is inert only when it is on `INERT_KEYS`, a positive list
//! of keys that change how git displays or records things and never name a
//! program, a file or URL to load, or a file to write. Every other key,
//! known to be dangerous (`core.pager`, `alias.*`, `include.path`,
//! `url.*.insteadOf`, `trace2.*`, …) or merely unknown, is not inert:
//! unknown means ask. `git -c KEY=VALUE` fires `git.config-override`
//! unless KEY is inert; `--config-env` always fires its own guard.
//!
//! `git config` is read the way git 2.47's `builtin/config.c` reads it: the
//! subcommands `get`/`list` (read) and `set`/`unset` (write) when one is the
//! first word, else the legacy modes, parsed with `PARSE_OPT_STOP_AT_NON_OPTION`
//! (`git config core.pager --get` *sets* core.pager to `--get`). A read
//! (`--get`, `--get-all`, `--get-regexp`, `--list`, one key and no action, …)
//! never fires. A write fires unless its key is inert. `--edit`, `--file`,
//! section renames and removals, any option the reader does not know
//! (abbreviations included) and any option after an operand always fire.

use super::super::parse::{Invocation, OptName};
use super::GIT_CONFIG_KEYS;

/// Config keys (lowercase) that only change how git shows or records
/// things, each with why. `name.*` matches every key below `name.`.
pub(crate) const INERT_KEYS: &[(&str, &str)] = &[
    ("advice.*", "turns hints on or off"),
    ("color.*", "chooses output colors"),
    ("column.*", "lays lists out in columns"),
    (
        "commit.gpgsign",
        "signs with the signing program already configured; names none",
    ),
    ("core.abbrev", "the length of abbreviated hashes"),
    ("core.autocrlf", "line-ending conversion, done inside git"),
    (
        "core.quotepath",
        "how unusual path names are quoted in output",
    ),
    (
        "diff.algorithm",
        "which diff algorithm git's own diff uses (helper H28's sweep)",
    ),
    ("diff.colormoved", "how moved lines are coloured"),
    ("diff.context", "how many context lines a diff shows"),
    (
        "diff.indentheuristic",
        "where git's own diff places hunk boundaries",
    ),
    (
        "diff.mnemonicprefix",
        "the a/ b/ prefixes a diff shows paths with",
    ),
    (
        "diff.noprefix",
        "shows diff paths without the a/ b/ prefixes",
    ),
    ("diff.renames", "whether a diff detects renames"),
    ("diff.statgraphwidth", "the width of a --stat graph"),
    ("fetch.prune", "prunes remote-tracking branches on fetch"),
    (
        "format.pretty",
        "the default log format; its placeholders expand inside git",
    ),
    (
        "init.defaultbranch",
        "the name of a new repository's first branch",
    ),
    ("log.abbrevcommit", "log output format"),
    ("log.date", "log output format"),
    ("log.decorate", "log output format"),
    ("log.follow", "log follows renames"),
    ("log.showroot", "log output format"),
    (
        "log.showsignature",
        "verifies signatures with the program already configured; names none",
    ),
    ("merge.conflictstyle", "how conflict markers look"),
    ("pull.ff", "whether pull may fast-forward"),
    ("pull.rebase", "whether pull rebases or merges"),
    (
        "push.autosetupremote",
        "sets the upstream on the first push",
    ),
    ("push.default", "which branch a bare push pushes"),
    ("rebase.autostash", "stashes local changes around a rebase"),
    (
        "tag.gpgsign",
        "signs with the signing program already configured; names none",
    ),
    ("user.email", "the identity recorded in commits"),
    ("user.name", "the identity recorded in commits"),
];

/// True when `key` (any case) is on `INERT_KEYS`. A key with anything but
/// letters, digits, `-` and `.`, or an empty part, is never inert.
pub(crate) fn inert(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let well_formed = key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && key.split('.').count() >= 2
        && key.split('.').all(|part| !part.is_empty());
    well_formed
        && INERT_KEYS
            .iter()
            .any(|(pattern, _)| match pattern.strip_suffix('*') {
                Some(prefix) => key.starts_with(prefix) && key.len() > prefix.len(),
                None => key == *pattern,
            })
}

/// Why `key` is not inert, in words.
fn not_inert(key: &str) -> &'static str {
    let lower = key.to_ascii_lowercase();
    GIT_CONFIG_KEYS
        .iter()
        .find(|(pattern, _)| super::key_matches(pattern, &lower))
        .map_or("not on the list of inert keys", |(_, why)| why)
}

/// `git -c KEY=VALUE` whose key is not inert; a `-c` spelled any other way
/// (`-cKEY=VALUE`, no value) fires too.
pub(crate) fn config_override(inv: &Invocation<'_>) -> Option<String> {
    inv.global_opts()
        .filter(|o| o.name == OptName::Short('c'))
        .find(|o| {
            let key = o
                .value
                .filter(|_| o.token == "-c")
                .map(|v| v.split_once('=').map_or(v, |(k, _)| k));
            !key.is_some_and(inert)
        })
        .map(|o| o.shown())
}

/// What an option of `git config` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Chooses, shapes or filters what is read or written.
    Shape,
    /// A read action.
    Read,
    /// A write action on one key.
    Write,
    /// Renames or removes a whole section.
    Section,
    /// Opens an editor.
    Edit,
    /// Reads or writes a file named on the command line.
    File,
}

/// The long options of `git config` (git 2.47, every mode), whether each
/// takes a value, and its role. Only exact spellings are known.
const OPTIONS: &[(&str, bool, Role)] = &[
    ("add", false, Role::Write),
    ("all", false, Role::Shape),
    ("append", false, Role::Shape),
    ("blob", true, Role::Shape),
    ("bool", false, Role::Shape),
    ("bool-or-int", false, Role::Shape),
    ("bool-or-str", false, Role::Shape),
    ("comment", true, Role::Shape),
    ("default", true, Role::Shape),
    ("edit", false, Role::Edit),
    ("expiry-date", false, Role::Shape),
    ("file", true, Role::File),
    ("fixed-value", false, Role::Shape),
    ("get", false, Role::Read),
    ("get-all", false, Role::Read),
    ("get-color", false, Role::Read),
    ("get-colorbool", false, Role::Read),
    ("get-regexp", false, Role::Read),
    ("get-urlmatch", false, Role::Read),
    ("global", false, Role::Shape),
    ("includes", false, Role::Shape),
    ("int", false, Role::Shape),
    ("list", false, Role::Read),
    ("local", false, Role::Shape),
    ("name-only", false, Role::Shape),
    ("null", false, Role::Shape),
    ("path", false, Role::Shape),
    ("regexp", false, Role::Shape),
    ("remove-section", false, Role::Section),
    ("rename-section", false, Role::Section),
    ("replace-all", false, Role::Write),
    ("show-names", false, Role::Shape),
    ("show-origin", false, Role::Shape),
    ("show-scope", false, Role::Shape),
    ("system", false, Role::Shape),
    ("type", true, Role::Shape),
    ("unset", false, Role::Write),
    ("unset-all", false, Role::Write),
    ("url", true, Role::Shape),
    ("value", true, Role::Shape),
    ("worktree", false, Role::Shape),
];

/// Short options: `-e` edit, `-f FILE`, `-l` list, `-t TYPE`, `-z` null.
fn short(c: char) -> Option<(bool, Role)> {
    match c {
        'e' => Some((false, Role::Edit)),
        'f' => Some((true, Role::File)),
        'l' => Some((false, Role::Read)),
        't' => Some((true, Role::Shape)),
        'z' => Some((false, Role::Shape)),
        _ => None,
    }
}

/// One `git config` call, read.
#[derive(Default)]
struct Call<'a> {
    /// Each option's role, with its token.
    roles: Vec<(Role, &'a str)>,
    /// An option the reader does not know.
    unknown: Option<&'a str>,
    /// Operands, after the options.
    operands: Vec<&'a str>,
}

/// Reads options until the first operand (`PARSE_OPT_STOP_AT_NON_OPTION`).
fn read_call<'a>(tokens: &[&'a str]) -> Call<'a> {
    let mut call = Call::default();
    let mut i = 0;
    while i < tokens.len() {
        let tok = tokens[i];
        if tok == "--" || tok == "--end-of-options" {
            call.operands.extend(&tokens[i + 1..]);
            return call;
        }
        if tok == "-" || !tok.starts_with('-') {
            call.operands.extend(&tokens[i..]);
            return call;
        }
        if let Some(body) = tok.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let found = OPTIONS.iter().find(|(n, _, _)| *n == name);
            let negated = name.strip_prefix("no-").and_then(|n| {
                OPTIONS
                    .iter()
                    .find(|(o, _, role)| *o == n && matches!(role, Role::Shape | Role::File))
            });
            match (found, negated) {
                (Some(&(_, takes_value, role)), _) => {
                    if takes_value && inline.is_none() {
                        i += 1;
                    }
                    call.roles.push((role, tok));
                }
                (None, Some(_)) if inline.is_none() => call.roles.push((Role::Shape, tok)),
                _ => call.unknown = call.unknown.or(Some(tok)),
            }
        } else {
            let cluster = &tok[1..];
            for (pos, c) in cluster.char_indices() {
                let Some((takes_value, role)) = short(c) else {
                    call.unknown = call.unknown.or(Some(tok));
                    break;
                };
                call.roles.push((role, tok));
                if takes_value {
                    if pos + c.len_utf8() == cluster.len() {
                        i += 1;
                    }
                    break;
                }
            }
        }
        i += 1;
    }
    call
}

/// `git config` that writes a key not known to be inert, opens an editor,
/// works on a file named on the command line, renames or removes a section,
/// or cannot be read; `None` for a read or a write of an inert key.
pub(crate) fn git_config(inv: &Invocation<'_>) -> Option<String> {
    if inv.subcommand != Some("config") {
        return None;
    }
    let tokens = inv.operands.get(1..).unwrap_or(&[]);
    let (subcommand, rest) = match tokens.split_first() {
        Some((&sub @ ("get" | "list" | "set" | "unset"), rest)) => (Some(sub), rest),
        Some((&sub @ "edit", _)) => return Some(format!("config {sub} (opens an editor)")),
        Some((&sub @ ("rename-section" | "remove-section"), _)) => {
            return Some(format!("config {sub} (renames or removes a whole section)"));
        }
        _ => (None, tokens),
    };
    let call = read_call(rest);
    let has = |role: Role| call.roles.iter().find(|(r, _)| *r == role).map(|(_, t)| *t);
    if let Some(tok) = has(Role::Edit) {
        return Some(format!("config {tok} (opens an editor)"));
    }
    if let Some(tok) = has(Role::File) {
        return Some(format!("config {tok} (reads or writes a file it is given)"));
    }
    if let Some(tok) = has(Role::Section) {
        return Some(format!("config {tok} (renames or removes a whole section)"));
    }
    if let Some(tok) = call.unknown {
        return Some(format!("config {tok} (an option the guard does not read)"));
    }
    if let Some(tok) = call.operands.iter().find(|o| o.starts_with('-')) {
        return Some(format!(
            "config {tok} (an option-like word after an operand)"
        ));
    }
    let writes = has(Role::Write).is_some() || matches!(subcommand, Some("set" | "unset"));
    let reads = match subcommand {
        Some(sub) => matches!(sub, "get" | "list"),
        None => has(Role::Read).is_some() || call.operands.len() <= 1,
    };
    if reads && !writes {
        return None;
    }
    match call.operands.first() {
        None => Some("config (a write without a key)".to_owned()),
        Some(key) if inert(key) => None,
        Some(key) => Some(format!("config {key} ({})", not_inert(key))),
    }
}
