use std::path::Path;

use serde_json::json;

use super::*;

fn file(value: serde_json::Value) -> ApprovalsFile {
    let mut value = value;
    value["version"] = json!(1);
    let loaded = ApprovalsFile::parse(value.to_string().as_bytes(), Path::new("/t")).unwrap();
    assert_eq!(loaded.warnings, vec![]);
    loaded.file
}

/// security, ask, askFallback and their three sources.
type Knobs<'a> = (Security, Ask, Security, [&'a str; 3]);

fn knobs(policy: &ResolvedPolicy) -> Knobs<'_> {
    (
        policy.security,
        policy.ask,
        policy.ask_fallback,
        [
            policy.sources.security.as_str(),
            policy.sources.ask.as_str(),
            policy.sources.ask_fallback.as_str(),
        ],
    )
}

#[test]
fn precedence_table() {
    use Ask::*;
    use Security::*;
    let cases: Vec<(serde_json::Value, Option<&str>, Knobs)> = vec![
        (json!({}), None, (Deny, OnMiss, Deny, ["built-in"; 3])),
        (
            json!({"defaults": {"security": "full", "ask": "off"}}),
            None,
            (
                Full,
                Off,
                Deny,
                ["defaults.security", "defaults.ask", "built-in"],
            ),
        ),
        (
            json!({"defaults": {"security": "full"}, "agents": {"*": {"security": "allowlist"}}}),
            Some("ops"),
            (
                Allowlist,
                OnMiss,
                Deny,
                ["agents.*.security", "built-in", "built-in"],
            ),
        ),
        (
            json!({"defaults": {"security": "full", "askFallback": "allowlist"},
                   "agents": {"*": {"security": "allowlist", "ask": "always"},
                              "main": {"security": "deny"}}}),
            None,
            (
                Deny,
                Always,
                Allowlist,
                [
                    "agents.main.security",
                    "agents.*.ask",
                    "defaults.askFallback",
                ],
            ),
        ),
        (
            // Another agent's layer never applies.
            json!({"agents": {"main": {"security": "full"}}}),
            Some("ops"),
            (Deny, OnMiss, Deny, ["built-in"; 3]),
        ),
        (
            // A blank agent id means main.
            json!({"agents": {"main": {"ask": "off"}}}),
            Some("  "),
            (Deny, Off, Deny, ["built-in", "agents.main.ask", "built-in"]),
        ),
        (
            // A less specific layer is not loosened by a more specific one's silence.
            json!({"defaults": {"ask": "always"}, "agents": {"main": {"security": "full"}}}),
            Some("main"),
            (
                Full,
                Always,
                Deny,
                ["agents.main.security", "defaults.ask", "built-in"],
            ),
        ),
    ];
    for (body, agent, expected) in cases {
        let policy = file(body.clone()).resolve(agent);
        assert_eq!(knobs(&policy), expected, "{body} for {agent:?}");
    }
}

#[test]
fn builtins_apply_to_an_empty_file() {
    let policy = ApprovalsFile::default().resolve(None);
    assert_eq!(
        policy,
        ResolvedPolicy {
            agent_id: "main".into(),
            security: Security::Deny,
            ask: Ask::OnMiss,
            ask_fallback: Security::Deny,
            auto_allow_skills: false,
            allowlist: vec![],
            safe_bins: ["cut", "head", "tail", "tr", "uniq", "wc"]
                .map(String::from)
                .to_vec(),
            safe_bin_profiles: BTreeMap::new(),
            safe_bin_trusted_dirs: vec![],
            denylist: vec![],
            arg_guards: true,
            allow_always_scope: AllowAlwaysScope::Executable,
            approval_timeout_ms: 120_000,
            approver_command: None,
            approvers: None,
            sources: PolicySources {
                security: "built-in".into(),
                ask: "built-in".into(),
                ask_fallback: "built-in".into(),
            },
        }
    );
}

#[test]
fn allowlist_is_the_wildcard_entries_followed_by_the_agents() {
    let f = file(json!({"agents": {
        "main": {"allowlist": ["/m1", "/m2"]},
        "*": {"allowlist": ["/w1"]},
        "ops": {"allowlist": ["/o1"]}}}));
    let patterns = |agent| -> Vec<String> {
        f.resolve(agent)
            .allowlist
            .into_iter()
            .map(|e| e.pattern)
            .collect()
    };
    assert_eq!(patterns(None), ["/w1", "/m1", "/m2"]);
    assert_eq!(patterns(Some("ops")), ["/w1", "/o1"]);
    assert_eq!(patterns(Some("nobody")), ["/w1"]);
    assert_eq!(patterns(Some("*")), ["/w1"], "the wildcard is not doubled");
}

#[test]
fn extension_scalars_take_the_most_specific_layer() {
    let f = file(json!({
        "defaults": {"safeBins": ["wc"], "argGuards": false, "approvalTimeoutMs": 5,
                     "allowAlwaysScope": "command", "approverCommand": "/bin/d",
                     "autoAllowSkills": true},
        "agents": {"main": {"safeBins": [], "approvalTimeoutMs": 9, "approverCommand": "/bin/m"}}
    }));
    let main = f.resolve(None);
    assert_eq!(main.safe_bins, Vec::<String>::new());
    assert_eq!(main.approval_timeout_ms, 9);
    assert_eq!(main.approver_command.as_deref(), Some("/bin/m"));
    assert!(!main.arg_guards);
    assert!(main.auto_allow_skills);
    assert_eq!(main.allow_always_scope, AllowAlwaysScope::Command);
    let ops = f.resolve(Some("ops"));
    assert_eq!(ops.safe_bins, ["wc"]);
    assert_eq!(ops.approval_timeout_ms, 5);
}

#[test]
fn denylist_and_trusted_dirs_are_the_union_of_all_layers() {
    let f = file(json!({
        "defaults": {"denylist": [{"pattern": "/d"}], "safeBinTrustedDirs": ["/opt/a", "/opt/b"]},
        "agents": {
            "*": {"denylist": [{"commandPattern": "w"}], "safeBinTrustedDirs": ["/opt/b"]},
            "main": {"denylist": [], "safeBinTrustedDirs": ["/opt/c"]},
            "ops": {"denylist": [{"pattern": "/o"}]}}
    }));
    let main = f.resolve(None);
    let denied: Vec<_> = main
        .denylist
        .iter()
        .map(|e| (e.pattern.as_deref(), e.command_pattern.as_deref()))
        .collect();
    assert_eq!(denied, [(Some("/d"), None), (None, Some("w"))]);
    assert_eq!(main.safe_bin_trusted_dirs, ["/opt/a", "/opt/b", "/opt/c"]);
    assert_eq!(f.resolve(Some("ops")).denylist.len(), 3);
}

#[test]
fn safe_bin_profiles_merge_per_bin() {
    let f = file(json!({
        "defaults": {"safeBinProfiles": {"cut": {"a": 1}, "wc": {"b": 2}}},
        "agents": {"main": {"safeBinProfiles": {"cut": {"c": 3}}}}
    }));
    let profiles = f.resolve(None).safe_bin_profiles;
    assert_eq!(profiles["cut"], json!({"c": 3}));
    assert_eq!(profiles["wc"], json!({"b": 2}));
}

#[test]
fn overrides_combine_stricter_wins_table() {
    use Ask::*;
    use Security::*;
    let all_security = [Deny, Allowlist, Full];
    let all_ask = [Off, OnMiss, Always];
    for file_security in all_security {
        for file_ask in all_ask {
            for override_security in [None, Some(Deny), Some(Allowlist), Some(Full)] {
                for override_ask in [None, Some(Off), Some(OnMiss), Some(Always)] {
                    let f = file(json!({"defaults": {
                        "security": file_security, "ask": file_ask, "askFallback": "full"}}));
                    let policy = f
                        .resolve(None)
                        .with_overrides(override_security, override_ask);
                    let security =
                        override_security.map_or(file_security, |o| o.min(file_security));
                    let ask = override_ask.map_or(file_ask, |o| o.max(file_ask));
                    assert_eq!(policy.security, security);
                    assert_eq!(policy.ask, ask);
                    assert!(
                        policy.security <= file_security,
                        "never looser than the file"
                    );
                    assert!(policy.ask >= file_ask, "never asks less than the file");
                    assert_eq!(
                        policy.ask_fallback,
                        override_security.map_or(Full, |o| o.min(Full)),
                        "a security override caps the fallback"
                    );
                    let expected_source = if security < file_security {
                        "override"
                    } else {
                        "defaults.security"
                    };
                    assert_eq!(policy.sources.security, expected_source);
                }
            }
        }
    }
}

#[test]
fn builtin_safe_bins_are_sorted_unique_and_explained() {
    for pair in BUILTIN_SAFE_BINS.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{pair:?} not sorted or duplicated");
    }
    for (bin, reason) in BUILTIN_SAFE_BINS {
        assert!(!reason.trim().is_empty(), "{bin} has no reason");
    }
    let names: Vec<_> = BUILTIN_SAFE_BINS.iter().map(|(bin, _)| *bin).collect();
    assert_eq!(names, ["cut", "head", "tail", "tr", "uniq", "wc"]);
}
