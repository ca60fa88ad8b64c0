//! The readable form of `node-host approvals get`: the file, its hash, the
//! defaults and each agent's knobs, effective policy and allowlist.
//!
//! It decides how the policy looks to a person and refuses to show what
//! must not be seen: it only ever receives a redacted snapshot (DESIGN.md
//! invariant 9), and every string taken from the file is escaped, since
//! `lastUsedCommand` and agent ids are agent-controlled text.

use std::io::Write;
use std::path::Path;

use approvals_ipc::approvals::{AgentLayer, ApprovalsFile, PolicyLayer, Snapshot};
use approvals_ipc::policy::unicode::escape_for_display;

use super::never_matches;

/// The readable form of `get`. Everything taken from the file is escaped:
/// `lastUsedCommand` in particular is agent-controlled text.
pub(super) fn write_summary(
    out: &mut impl Write,
    path: &Path,
    snapshot: &Snapshot,
) -> std::io::Result<()> {
    let file = &snapshot.file;
    writeln!(
        out,
        "file:     {}",
        escape_for_display(&path.to_string_lossy())
    )?;
    writeln!(out, "hash:     {}", snapshot.hash)?;
    if !snapshot.exists {
        writeln!(
            out,
            "status:   missing: the built-in policy applies (security=deny)"
        )?;
    }
    if let Some(socket) = &file.socket {
        let socket_path = socket.path.as_deref().unwrap_or("(beside the file)");
        writeln!(out, "socket:   {}", escape_for_display(socket_path))?;
    }
    writeln!(out, "defaults: {}", layer_words(file.defaults.as_ref()))?;
    for (id, agent) in &file.agents {
        write_agent(out, file, id, agent)?;
    }
    Ok(())
}

fn write_agent(
    out: &mut impl Write,
    file: &ApprovalsFile,
    id: &str,
    agent: &AgentLayer,
) -> std::io::Result<()> {
    let resolved = file.resolve(Some(id));
    writeln!(
        out,
        "agent {}: {} (effective: security={} ask={} askFallback={})",
        escape_for_display(id),
        layer_words(Some(&agent.policy)),
        word(&resolved.security),
        word(&resolved.ask),
        word(&resolved.ask_fallback),
    )?;
    let now_ms = now_ms();
    for entry in &agent.allowlist {
        write!(out, "  - {}", escape_for_display(&entry.pattern))?;
        if let Some(source) = &entry.source {
            write!(out, "  [{}]", escape_for_display(source))?;
        }
        if let Some(at) = entry.last_used_at {
            write!(out, "  last used {} ago", age(now_ms.saturating_sub(at)))?;
            if let Some(command) = &entry.last_used_command {
                write!(out, ": {}", escape_for_display(command))?;
            }
        }
        if let Some(warning) = never_matches(&entry.pattern) {
            let first = warning.lines().next().unwrap_or_default();
            write!(out, "  (warning: {first})")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `security=… ask=… askFallback=…` for the knobs a layer sets.
fn layer_words(layer: Option<&PolicyLayer>) -> String {
    let mut words = Vec::new();
    if let Some(layer) = layer {
        if let Some(v) = &layer.security {
            words.push(format!("security={}", word(v)));
        }
        if let Some(v) = &layer.ask {
            words.push(format!("ask={}", word(v)));
        }
        if let Some(v) = &layer.ask_fallback {
            words.push(format!("askFallback={}", word(v)));
        }
    }
    if words.is_empty() {
        "(inherits)".to_owned()
    } else {
        words.join(" ")
    }
}

/// The wire word of an enum value (`on-miss`, `allowlist`, …).
fn word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".to_owned(),
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// A coarse age (`42s`, `5m`, `3h`, `2d`) for last-used times.
fn age(ms: u64) -> String {
    let secs = ms / 1000;
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86_400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn age_uses_the_largest_whole_unit() {
        let cases = [
            (0, "0s"),
            (59_999, "59s"),
            (60_000, "1m"),
            (3_600_000, "1h"),
            (86_400_000 * 3, "3d"),
        ];
        for (ms, text) in cases {
            assert_eq!(age(ms), text);
        }
    }

    #[test]
    fn summary_never_shows_the_token_and_escapes_file_text() {
        let text = br#"{"version":1,
            "socket":{"path":"/tmp/s.sock","token":"c2VjcmV0LXRva2VuLXZhbHVlLTEyMzQ1"},
            "agents":{"main":{"allowlist":[{"pattern":"/usr/bin/git",
              "lastUsedAt":1,"lastUsedCommand":"git \u001b[31mlog"}]}}}"#;
        let loaded = ApprovalsFile::parse(text, Path::new("x.json")).unwrap();
        let snapshot = Snapshot {
            file: loaded.file,
            hash: "h".into(),
            warnings: Vec::new(),
            exists: true,
        }
        .redacted();
        let mut out = Vec::new();
        write_summary(&mut out, Path::new("x.json"), &snapshot).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains("c2VjcmV0"), "{out}");
        assert!(!out.contains('\u{1b}'), "{out}");
        assert!(out.contains(r"git \e[31mlog"), "{out}");
    }
}
