//! Pure edits of an [`ApprovalsFile`]: adding and removing allowlist
//! entries, recording their last use, and the exact-command markers that
//! allow-always persists for shells, interpreters and wrappers.
//!
//! Nothing here touches the disk; callers apply these inside
//! [`ApprovalsStore::update`](super::ApprovalsStore::update) so the change is
//! made under the lock on the freshest file (DESIGN.md invariant 7). These
//! edits never loosen anything by themselves beyond what the caller asked:
//! adding an entry never duplicates one, removing only touches the named
//! agent.

use sha2::{Digest, Sha256};

use super::load::WILDCARD_AGENT;
use super::model::{AllowlistEntry, ApprovalsFile};

/// The prefix of an exact-command allowlist marker (OpenClaw's format).
pub const COMMAND_MARKER_PREFIX: &str = "=command:";

/// Lowercase hex SHA-256, used for file hashes (`baseHash`) and markers.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The durable marker for approving exactly this command text:
/// `=command:` + the first 16 hex digits of sha256(trimmed text).
pub fn command_marker(command_text: &str) -> String {
    let digest = sha256_hex(command_text.trim().as_bytes());
    format!("{COMMAND_MARKER_PREFIX}{}", &digest[..16])
}

impl ApprovalsFile {
    /// Appends an entry for `pattern` (trimmed) to the agent's allowlist,
    /// creating the agent if needed; returns whether anything was added
    /// (nothing is added for a blank pattern or one already listed).
    pub fn add_allowlist_entry(
        &mut self,
        agent_id: &str,
        pattern: &str,
        source: Option<&str>,
    ) -> bool {
        let pattern = pattern.trim();
        if pattern.is_empty() {
            return false;
        }
        self.add_entry(agent_id, pattern, None, source)
    }

    /// Appends a prefix rule: `pattern` (trimmed) allowed only when its
    /// arguments start with `prefix`. Nothing is added for a blank pattern,
    /// or when the same rule or a plain entry for the pattern (which covers
    /// more) is already listed.
    pub fn add_prefix_entry(
        &mut self,
        agent_id: &str,
        pattern: &str,
        prefix: &[String],
        source: Option<&str>,
    ) -> bool {
        let pattern = pattern.trim();
        if pattern.is_empty() {
            return false;
        }
        self.add_entry(agent_id, pattern, Some(prefix.to_vec()), source)
    }

    /// Adds the entry unless an entry with the same pattern, no argPattern,
    /// and no prefix or the same prefix already covers it.
    fn add_entry(
        &mut self,
        agent_id: &str,
        pattern: &str,
        prefix: Option<Vec<String>>,
        source: Option<&str>,
    ) -> bool {
        let agent = self.agents.entry(agent_id.to_owned()).or_default();
        let covered = agent.allowlist.iter().any(|entry| {
            entry.pattern.trim() == pattern
                && entry.arg_pattern.is_none()
                && (entry.arg_prefix.is_none() || entry.arg_prefix == prefix)
        });
        if covered {
            return false;
        }
        agent.allowlist.push(AllowlistEntry {
            id: uuid::Uuid::new_v4().to_string(),
            source: source.map(str::to_owned),
            arg_prefix: prefix,
            ..AllowlistEntry::with_pattern(pattern)
        });
        true
    }

    /// Removes every entry whose trimmed pattern equals `pattern` (trimmed)
    /// from that agent's allowlist only; returns whether any was removed.
    pub fn remove_allowlist_entry(&mut self, agent_id: &str, pattern: &str) -> bool {
        let pattern = pattern.trim();
        let Some(agent) = self.agents.get_mut(agent_id) else {
            return false;
        };
        let before = agent.allowlist.len();
        agent
            .allowlist
            .retain(|entry| entry.pattern.trim() != pattern);
        agent.allowlist.len() != before
    }

    /// Records that entries with `pattern` allowed a command: the agent's own
    /// entries when it has any with that pattern, else the wildcard agent's.
    /// Returns whether an entry was updated.
    pub fn record_use(
        &mut self,
        agent_id: &str,
        pattern: &str,
        command_text: &str,
        resolved_path: Option<&str>,
        now_ms: u64,
    ) -> bool {
        let pattern = pattern.trim();
        let holds_pattern = |file: &ApprovalsFile, id: &str| {
            file.agents.get(id).is_some_and(|agent| {
                agent
                    .allowlist
                    .iter()
                    .any(|entry| entry.pattern.trim() == pattern)
            })
        };
        let owner = if holds_pattern(self, agent_id) {
            agent_id
        } else if holds_pattern(self, WILDCARD_AGENT) {
            WILDCARD_AGENT
        } else {
            return false;
        };
        let Some(agent) = self.agents.get_mut(owner) else {
            return false;
        };
        for entry in &mut agent.allowlist {
            if entry.pattern.trim() == pattern {
                entry.last_used_at = Some(now_ms);
                entry.last_used_command = Some(command_text.to_owned());
                entry.last_resolved_path = resolved_path.map(str::to_owned);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_marker_matches_the_openclaw_test_vector() {
        assert_eq!(command_marker("echo ok"), "=command:7d10fced96b38c84");
        assert_eq!(command_marker("  echo ok\n"), "=command:7d10fced96b38c84");
    }

    #[test]
    fn sha256_of_nothing_is_the_missing_file_hash() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn add_creates_the_agent_and_refuses_duplicates_and_blanks() {
        let mut file = ApprovalsFile::default();
        assert!(file.add_allowlist_entry("main", " /usr/bin/git ", Some("allow-always")));
        assert!(!file.add_allowlist_entry("main", "/usr/bin/git", None));
        assert!(!file.add_allowlist_entry("main", "   ", None));
        let entries = &file.agents["main"].allowlist;
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].pattern, "/usr/bin/git");
        assert_eq!(entries[0].source.as_deref(), Some("allow-always"));
        assert!(uuid::Uuid::parse_str(&entries[0].id).is_ok());
    }

    #[test]
    fn add_to_another_agent_is_not_a_duplicate() {
        let mut file = ApprovalsFile::default();
        assert!(file.add_allowlist_entry("main", "/usr/bin/git", None));
        assert!(file.add_allowlist_entry("ops", "/usr/bin/git", None));
    }

    #[test]
    fn remove_touches_only_the_named_agent() {
        let mut file = ApprovalsFile::default();
        file.add_allowlist_entry("main", "/usr/bin/git", None);
        file.add_allowlist_entry("*", "/usr/bin/git", None);
        assert!(file.remove_allowlist_entry("main", "/usr/bin/git"));
        assert!(!file.remove_allowlist_entry("main", "/usr/bin/git"));
        assert!(!file.remove_allowlist_entry("nobody", "/usr/bin/git"));
        assert!(file.agents["main"].allowlist.is_empty());
        assert_eq!(file.agents["*"].allowlist.len(), 1);
    }

    #[test]
    fn record_use_updates_every_entry_with_that_pattern_of_the_agent() {
        let mut file = ApprovalsFile::default();
        file.add_allowlist_entry("main", "/usr/bin/git", None);
        file.add_allowlist_entry("main", "/usr/bin/ls", None);
        assert!(file.record_use(
            "main",
            "/usr/bin/git",
            "git status",
            Some("/usr/bin/git"),
            42
        ));
        let git = &file.agents["main"].allowlist[0];
        assert_eq!(git.last_used_at, Some(42));
        assert_eq!(git.last_used_command.as_deref(), Some("git status"));
        assert_eq!(git.last_resolved_path.as_deref(), Some("/usr/bin/git"));
        assert_eq!(file.agents["main"].allowlist[1].last_used_at, None);
    }

    #[test]
    fn record_use_falls_back_to_the_wildcard_agent() {
        let mut file = ApprovalsFile::default();
        file.add_allowlist_entry("*", "/usr/bin/git", None);
        file.add_allowlist_entry("main", "/usr/bin/ls", None);
        assert!(file.record_use("main", "/usr/bin/git", "git log", None, 7));
        assert_eq!(file.agents["*"].allowlist[0].last_used_at, Some(7));
        assert!(!file.agents.contains_key("ops"));
        assert!(!file.record_use("main", "/usr/bin/absent", "x", None, 7));
    }

    #[test]
    fn record_use_prefers_the_agent_over_the_wildcard() {
        let mut file = ApprovalsFile::default();
        file.add_allowlist_entry("*", "/usr/bin/git", None);
        file.add_allowlist_entry("main", "/usr/bin/git", None);
        assert!(file.record_use("main", "/usr/bin/git", "git log", None, 7));
        assert_eq!(file.agents["main"].allowlist[0].last_used_at, Some(7));
        assert_eq!(file.agents["*"].allowlist[0].last_used_at, None);
    }
}
