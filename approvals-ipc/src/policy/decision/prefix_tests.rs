//! Prefix rules (`argPrefix`): what they allow, what cannot escape them,
//! and what an allow-always keeps under `allowAlwaysScope: command`.

use serde_json::json;

use super::tests::{compiled, eval};
use super::*;

fn git_only_for(prefixes: &[&[&str]], scope: &str) -> CompiledPolicy {
    let entries: Vec<_> = prefixes
        .iter()
        .map(|p| json!({"pattern": "/usr/**/git", "argPrefix": p}))
        .collect();
    compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "allowAlwaysScope": scope},
        "agents": {"main": {"allowlist": entries}}
    }))
}

#[test]
fn a_prefix_rule_allows_its_subcommands_and_asks_for_the_rest() {
    let c = git_only_for(&[&["status"], &["log"], &["diff"]], "executable");
    for argv in [
        &["git", "status"][..],
        &["git", "log", "--oneline", "-5"],
        &["git", "diff", "--stat"],
        &["sh", "-c", "git status && git log -1"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Allow, "{argv:?}");
    }
    for argv in [
        &["git", "push"][..],
        &["git", "-C", "..", "status"],
        &["git", "--no-pager", "log"],
        &["git", "stat"],
        &["git"],
        &["sh", "-c", "git status && git push"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Ask, "{argv:?}");
    }
}

#[test]
fn a_prefix_rule_on_a_shell_never_covers_its_script() {
    let c = compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [
            {"pattern": "/usr/bin/dash", "argPrefix": ["-c"]},
            {"pattern": "/bin/dash", "argPrefix": ["-c"]}
        ]}}
    }));
    let e = eval(&c, &["sh", "-c", "rm -rf /tmp/x"]);
    assert_eq!(e.decision, Verdict::Ask);
}

#[test]
fn arguments_after_the_prefix_are_still_judged_by_the_guards() {
    let c = git_only_for(&[&["log"]], "executable");
    let e = eval(&c, &["git", "log", "--upload-pack=/tmp/evil"]);
    assert_ne!(e.decision, Verdict::Allow);
}

#[test]
fn allow_always_under_command_scope_keeps_a_prefix_rule_when_the_program_has_subcommands() {
    let c = compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "allowAlwaysScope": "command"},
        "agents": {"main": {"allowlist": []}}
    }));
    let e = eval(&c, &["ls", "-la"]);
    // ls has no subcommands: the exact command is kept.
    assert!(e.persist_prefixes().is_empty());
    assert_eq!(e.persist_patterns().len(), 1);
    assert!(e.persist_patterns()[0].starts_with("=command:"));
    if crate::policy::specs::lookup("git").is_some_and(|s| !s.subs.is_empty()) {
        let e = eval(&c, &["git", "diff", "--stat"]);
        assert!(
            e.persist_patterns().is_empty(),
            "{:?}",
            e.persist_patterns()
        );
        let [(path, prefix)] = e.persist_prefixes() else {
            panic!("{:?}", e.persist_prefixes());
        };
        assert!(path.ends_with("/git"), "{path}");
        assert_eq!(prefix, &["diff"]);
        // An option before the subcommand: the exact command.
        let e = eval(&c, &["git", "--no-pager", "diff"]);
        assert!(e.persist_prefixes().is_empty());
    }
}
