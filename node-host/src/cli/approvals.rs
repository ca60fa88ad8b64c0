//! `node-host approvals get|allow|revoke|set`: read and edit the approvals
//! file from a terminal.
//!
//! It decides what a person sees of the file (everything but the socket
//! token, plus the file's hash) and how an edit reaches the disk: `allow`
//! and `revoke` under the store's exclusive lock on the freshest file,
//! `set` only when the file still has the hash its editor read. It refuses
//! an edit of a file it cannot parse (the file stays byte-for-byte as it
//! was), a stale base hash, a revoke of an entry that is not there, and
//! patterns or agent names holding invisible characters. Upholds DESIGN.md
//! invariants 6 (a malformed file is never overwritten), 7 (concurrent
//! writers lose nothing; a killed writer leaves the old or the new file)
//! and 9 (the token never leaves the file).
//!
//! Exit status (`ui_bridge::exit::Exit`): 0 done, 126 edit refused
//! (conflict, absent entry), 64 usage error, 66 an unreadable or malformed
//! file.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use approvals_ipc::approvals::{
    ApprovalsError, ApprovalsFile, ApprovalsStore, LoadWarning, MAX_FILE_BYTES,
};
use approvals_ipc::policy::matcher::{CASE_INSENSITIVE_PATHS, PathMatcher};
use approvals_ipc::policy::unicode::{check_text, escape_for_display};
use serde_json::json;

use ui_bridge::exit::{Exit, Failure};

use super::ApprovalsArg;

mod summary;

use self::summary::write_summary;

/// The `source` recorded on entries added here, so a reviewer can tell them
/// from allow-always entries.
pub const SOURCE_CLI: &str = "cli";

/// Arguments of `node-host approvals`.
#[derive(Debug, clap::Args)]
pub struct ApprovalsArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Print the policy (never the socket token) and the file's hash
    ///
    /// The hash is the sha256 of the file's bytes: pass it to
    /// `approvals set --base-hash` so an edit made meanwhile is not lost.
    /// Without --json a readable summary; with --json one object
    /// {"path", "exists", "hash", "file", "warnings"} where "file" is the
    /// normalized file without socket.token.
    ///
    /// Examples:
    ///   node-host approvals get
    ///   node-host approvals get --json > policy.json
    #[command(verbatim_doc_comment)]
    Get(GetArgs),

    /// Add an allowlist entry (a glob over the executable's real path)
    ///
    /// Taken under the file's exclusive lock, so concurrent edits are
    /// never lost; the entry is marked source "cli". A bare name such as
    /// `git` never matches anything: use the full path. Creates the file
    /// (with the safe default policy) when it is missing.
    ///
    /// Examples:
    ///   node-host approvals allow /usr/bin/git
    ///   node-host approvals allow '~/Projects/**/bin/*' --agent main
    ///   node-host approvals allow /usr/bin/rg --agent '*'
    #[command(verbatim_doc_comment)]
    Allow(EntryArgs),

    /// Remove an allowlist entry of one agent
    ///
    /// Exits 1 when that agent has no entry with exactly this pattern
    /// (entries of other agents, including "*", are not touched).
    ///
    /// Examples:
    ///   node-host approvals revoke /usr/bin/git
    ///   node-host approvals revoke /usr/bin/rg --agent '*'
    #[command(verbatim_doc_comment)]
    Revoke(EntryArgs),

    /// Replace the policy with FILE's content, if nobody changed it meanwhile
    ///
    /// Refused (exit 126) unless the approvals file still hashes to
    /// --base-hash, the hash `approvals get` printed when FILE was made.
    /// FILE may be an approvals file, or the output of `approvals get
    /// --json` as is: its "file" is the policy and its "hash" the base
    /// hash (so --base-hash may be left out). The socket path and token of
    /// the current file are kept; any in FILE are ignored. Prints the new
    /// hash on stdout.
    ///
    /// Examples:
    ///   node-host approvals get --json > policy.json
    ///   $EDITOR policy.json          # edit "file"; leave "hash" as it is
    ///   node-host approvals set policy.json
    ///   node-host approvals set plain-policy.json --base-hash <hash from get>
    #[command(verbatim_doc_comment)]
    Set(SetArgs),
}

#[derive(Debug, clap::Args)]
struct GetArgs {
    #[command(flatten)]
    approvals: ApprovalsArg,

    /// Print one JSON object instead of a summary
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct EntryArgs {
    #[command(flatten)]
    approvals: ApprovalsArg,

    /// The pattern: an absolute path or glob (`*` one component, `**` any,
    /// `~` home), `*` for every executable, or an `=command:` marker
    #[arg(value_name = "PATTERN")]
    pattern: String,

    /// The agent whose allowlist changes (`*` for every agent)
    #[arg(long, value_name = "ID", default_value = "main")]
    agent: String,
}

#[derive(Debug, clap::Args)]
struct SetArgs {
    #[command(flatten)]
    approvals: ApprovalsArg,

    /// The new policy, in the approvals file format (- for stdin)
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// The hash printed by `approvals get` when FILE was made (64 hex
    /// digits); required unless FILE is `approvals get --json` output
    #[arg(long, value_name = "H", value_parser = parse_hash)]
    base_hash: Option<String>,
}

/// Runs `node-host approvals`.
pub fn run(args: ApprovalsArgs) -> anyhow::Result<Exit> {
    match args.action {
        Action::Get(args) => get(&args),
        Action::Allow(args) => allow(&args),
        Action::Revoke(args) => revoke(&args),
        Action::Set(args) => set(&args),
    }
}

fn get(args: &GetArgs) -> anyhow::Result<Exit> {
    let path = args.approvals.path()?;
    // Invariant 9: everything below sees only the redacted snapshot.
    let snapshot = ApprovalsStore::open(&path).load()?.redacted();
    print_warnings(&path, &snapshot.warnings);
    let mut out = std::io::stdout().lock();
    if args.json {
        let warnings: Vec<String> = snapshot.warnings.iter().map(ToString::to_string).collect();
        let value = json!({
            "path": path,
            "exists": snapshot.exists,
            "hash": snapshot.hash,
            "file": snapshot.file,
            "warnings": warnings,
        });
        serde_json::to_writer_pretty(&mut out, &value)?;
        writeln!(out)?;
    } else {
        write_summary(&mut out, &path, &snapshot)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn allow(args: &EntryArgs) -> anyhow::Result<Exit> {
    let (pattern, agent) = checked_entry(args)?;
    if let Some(warning) = never_matches(pattern) {
        // Saving it would only look like permission: refuse and say what
        // would match.
        let hint = match on_path(pattern) {
            Some(found) => format!(
                "node-host approvals allow {} (where {} is on PATH; patterns are real paths)",
                found.display(),
                escape_for_display(pattern)
            ),
            None => "give the program's full path, e.g. node-host approvals allow /usr/bin/git"
                .to_owned(),
        };
        return Err(Failure::usage(format!(
            "refusing {}: {warning}\nhint: {hint}",
            escape_for_display(pattern)
        ))
        .into());
    }
    let path = args.approvals.path()?;
    let added = ApprovalsStore::open(&path)
        .update(|file| Ok(file.add_allowlist_entry(agent, pattern, Some(SOURCE_CLI))))?;
    let shown = escape_for_display(pattern);
    let agent_shown = escape_for_display(agent);
    if added {
        eprintln!(
            "allowed {shown} for agent {agent_shown} in {}",
            path.display()
        );
    } else {
        eprintln!("{shown} is already allowed for agent {agent_shown}; nothing changed");
    }
    Ok(Exit::Success)
}

fn revoke(args: &EntryArgs) -> anyhow::Result<Exit> {
    let (pattern, agent) = checked_entry(args)?;
    let path = args.approvals.path()?;
    let store = ApprovalsStore::open(&path);
    // A missing file has no entries; do not create one just to refuse.
    let (removed, holders) = if store.load()?.exists {
        store.update(|file| {
            let removed = file.remove_allowlist_entry(agent, pattern);
            Ok((removed, agents_holding(file, pattern)))
        })?
    } else {
        (false, Vec::new())
    };
    let shown = escape_for_display(pattern);
    let agent_shown = escape_for_display(agent);
    if removed {
        eprintln!(
            "revoked {shown} for agent {agent_shown} in {}",
            path.display()
        );
        return Ok(Exit::Success);
    }
    let hint = if holders.is_empty() {
        "`node-host approvals get` lists the entries".to_owned()
    } else {
        let names: Vec<String> = holders.iter().map(|a| escape_for_display(a)).collect();
        format!("agent(s) {} hold it: pass --agent", names.join(", "))
    };
    Ok(refused(&format!(
        "agent {agent_shown} has no allowlist entry {shown} in {}\nhint: {hint}",
        path.display()
    )))
}

fn set(args: &SetArgs) -> anyhow::Result<Exit> {
    let (bytes, origin) = read_input(&args.file)?;
    let (bytes, carried_hash) = match unwrap_get_output(&bytes) {
        Some((file, hash)) => (file, Some(hash)),
        None => (bytes, None),
    };
    let base_hash = match (&args.base_hash, carried_hash) {
        (Some(flag), _) => flag.clone(),
        (None, Some(hash)) => hash,
        (None, None) => {
            return Err(Failure::usage(format!(
                "--base-hash is required: {} is not `node-host approvals get --json` output, which carries its hash\nhint: node-host approvals set {} --base-hash <hash from approvals get>",
                origin.display(),
                origin.display()
            ))
            .into());
        }
    };
    let loaded = ApprovalsFile::parse(&bytes, &origin)?;
    print_warnings(&origin, &loaded.warnings);
    let socket_of = |file: &ApprovalsFile| file.socket.as_ref().and_then(|s| s.path.clone());
    let wanted_socket = socket_of(&loaded.file);
    if loaded
        .file
        .socket
        .as_ref()
        .is_some_and(|s| s.token.is_some())
    {
        eprintln!(
            "warning: {}: socket.token ignored; the current token is kept",
            origin.display()
        );
    }
    let path = args.approvals.path()?;
    let snapshot = match ApprovalsStore::open(&path).replace(loaded.file, &base_hash) {
        Ok(snapshot) => snapshot,
        Err(err @ ApprovalsError::Conflict { .. }) => return Ok(refused(&err.to_string())),
        Err(err) => return Err(err.into()),
    };
    if wanted_socket.is_some() && wanted_socket != socket_of(&snapshot.file) {
        eprintln!(
            "warning: {}: socket.path ignored; the current socket path is kept",
            origin.display()
        );
    }
    println!("{}", snapshot.hash);
    eprintln!("replaced the policy in {}", path.display());
    Ok(Exit::Success)
}

/// The policy and base hash inside `approvals get --json` output (an object
/// with a "file" object and a 64-hex "hash"); `None` for anything else,
/// which is then read as an approvals file.
fn unwrap_get_output(bytes: &[u8]) -> Option<(Vec<u8>, String)> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let object = value.as_object()?;
    if object.contains_key("version") {
        return None;
    }
    let file = object.get("file").filter(|f| f.is_object())?;
    let hash = parse_hash(object.get("hash")?.as_str()?).ok()?;
    Some((serde_json::to_vec_pretty(file).ok()?, hash))
}

/// Prints a refusal and returns [`Exit::Refused`], distinct from usage and
/// file errors so scripts can reload and retry.
fn refused(message: &str) -> Exit {
    eprintln!("error: {message}");
    Exit::Refused
}

fn print_warnings(path: &Path, warnings: &[LoadWarning]) {
    for warning in warnings {
        eprintln!("warning: {}: {warning}", path.display());
    }
}

/// The trimmed pattern and agent, refused when blank or when they hold
/// characters a person could not see in `get`.
fn checked_entry(args: &EntryArgs) -> anyhow::Result<(&str, &str)> {
    let pattern = args.pattern.trim();
    let agent = args.agent.trim();
    if pattern.is_empty() {
        return Err(Failure::usage(
            "the pattern is empty\nhint: node-host approvals allow /usr/bin/git",
        )
        .into());
    }
    if agent.is_empty() {
        return Err(Failure::usage(
            "the agent id is empty\nhint: --agent main, or --agent '*' for every agent",
        )
        .into());
    }
    check_text(pattern).map_err(|err| {
        Failure::usage(format!(
            "refusing the pattern {}: {err}\nhint: type the pattern without invisible characters",
            escape_for_display(pattern)
        ))
    })?;
    check_text(agent).map_err(|err| {
        Failure::usage(format!(
            "refusing the agent id {}: {err}\nhint: type the id without invisible characters",
            escape_for_display(agent)
        ))
    })?;
    Ok((pattern, agent))
}

/// Why `pattern` can never match, in the matcher's own words, so this
/// warning and the policy engine always agree.
fn never_matches(pattern: &str) -> Option<String> {
    let home = std::env::home_dir();
    let (_, warnings) = PathMatcher::compile([pattern], home.as_deref(), CASE_INSENSITIVE_PATHS);
    warnings.into_iter().next()
}

/// Where a bare program name is found on this process's PATH, symlinks
/// resolved as the matcher resolves them; `None` for anything else.
fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') || name.is_empty() {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .and_then(|found| std::fs::canonicalize(found).ok())
}

/// The agents whose allowlist has an entry with this pattern, for the hint
/// of a revoke that named the wrong agent.
fn agents_holding(file: &ApprovalsFile, pattern: &str) -> Vec<String> {
    file.agents
        .iter()
        .filter(|(_, agent)| agent.allowlist.iter().any(|e| e.pattern.trim() == pattern))
        .map(|(id, _)| id.clone())
        .collect()
}

/// Reads the new policy from a file or stdin (`-`), at most
/// [`MAX_FILE_BYTES`]; returns the bytes and the name errors should use.
fn read_input(file: &Path) -> anyhow::Result<(Vec<u8>, PathBuf)> {
    let mut bytes = Vec::new();
    let origin = if file == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read the new policy from stdin")?;
        PathBuf::from("<stdin>")
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {}", file.display()))?;
        file.to_owned()
    };
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Failure::file(format!(
            "{} is larger than {MAX_FILE_BYTES} bytes\nhint: it is probably not an approvals file",
            origin.display()
        ))
        .into());
    }
    Ok((bytes, origin))
}

/// `--base-hash`: 64 hex digits, compared case-insensitively.
fn parse_hash(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err("expected the 64 hex digits printed by `node-host approvals get`".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_hash_must_be_64_hex_digits() {
        let good = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";
        assert_eq!(parse_hash(good), Ok(good.to_ascii_lowercase()));
        for bad in [
            "",
            "abc",
            &good[1..],
            &format!("{good}0"),
            &good.replace('E', "g"),
        ] {
            assert!(parse_hash(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn never_matches_flags_bare_and_relative_names_only() {
        let cases = [
            ("git", true),
            ("bin/git", true),
            ("/usr/bin/git", false),
            ("/opt/**/bin/*", false),
            ("*", false),
            ("=command:7d10fced96b38c84", false),
        ];
        for (pattern, never) in cases {
            assert_eq!(never_matches(pattern).is_some(), never, "{pattern}");
        }
    }
}
