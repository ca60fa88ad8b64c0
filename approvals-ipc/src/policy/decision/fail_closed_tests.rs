//! Issue 9, holes 1-4: the denylist, risk and argPattern hold whatever the
//! analysis says.

use serde_json::{Value, json};

use super::tests::{compiled, eval, real, said};
use super::*;
use crate::policy::risk::RiskLevel;

fn layer(security: &str, ask: &str, fallback: &str, extra: Value) -> CompiledPolicy {
    let mut defaults = json!({"security": security, "ask": ask, "askFallback": fallback});
    if let (Some(d), Some(e)) = (defaults.as_object_mut(), extra.as_object()) {
        d.extend(e.clone());
    }
    compiled(json!({"version": 1, "defaults": defaults, "agents": {}}))
}

fn full(denylist: Value) -> CompiledPolicy {
    layer("full", "on-miss", "full", json!({ "denylist": denylist }))
}

fn allowlist(entries: Value) -> CompiledPolicy {
    compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": entries}}
    }))
}

const ZWSP: &str = "/tmp/x\u{200B}";

/// The variants of `rm -rf DIR` that the analysis does not understand.
const HIDDEN_RM: &[&[&str]] = &[
    &["rm", "-rf", ZWSP],
    &["r\u{200B}m", "-rf", "/tmp/x"],
    &["sh", "-c", "rm -rf $DIR/x"],
    &["bash", "-lc", "cd /tmp; rm -rf \"${DIR}\"/x"],
    &["sh", "-c", "echo \"$(rm -rf /tmp/x)\""],
    &["sudo", "rm", "-rf", "/tmp/x"],
    &["env", "-i", "rm", "-rf", "/tmp/x"],
];

#[test]
fn a_path_denylist_refuses_rm_that_the_analysis_did_not_understand() {
    let c = full(json!([{"pattern": real("rm"), "reason": "no rm"}]));
    let e = eval(&c, &["rm", "-rf", "/tmp/x"]);
    assert_eq!(e.decision, Verdict::Deny);
    assert_eq!(said(&e).as_deref(), Some("denylist: no rm"));
    for argv in HIDDEN_RM {
        let e = eval(&c, argv);
        assert!(!e.analysis.ok, "{argv:?}");
        assert_eq!(e.decision, Verdict::Deny, "{argv:?}: {:?}", e.reason);
        assert_eq!(
            said(&e).as_deref(),
            Some("denylist: no rm (read from a command that was not understood)"),
            "{argv:?}"
        );
        assert!(e.allowed_decisions.is_empty());
    }
}

#[test]
fn a_command_pattern_denylist_refuses_rm_that_the_analysis_did_not_understand() {
    let c = full(json!([{"commandPattern": "rm -rf", "reason": "no rm -rf"}]));
    for argv in HIDDEN_RM {
        let e = eval(&c, argv);
        assert_eq!(e.decision, Verdict::Deny, "{argv:?}: {:?}", e.reason);
        assert!(
            said(&e)
                .as_deref()
                .is_some_and(|r| r.starts_with("denylist: no rm -rf")),
            "{argv:?}: {:?}",
            e.reason
        );
    }
}

#[test]
fn split_reordered_and_quoted_flags_match_a_command_pattern() {
    let c = full(json!([{"commandPattern": "rm -rf", "reason": "no rm -rf"}]));
    for argv in [
        &["rm", "-rf", "/tmp/x"][..],
        &["rm", "-r", "-f", "/tmp/x"],
        &["rm", "-fr", "/tmp/x"],
        &["rm", "/tmp/x", "-f", "-R", "-r"],
        &["/bin/rm", "-rf", "/tmp/x"],
        &["nice", "rm", "-rf", "/tmp/x"],
        &["sh", "-c", "rm -r -f /tmp/x"],
        &["sh", "-c", "rm -fr /tmp/x"],
        &["sh", "-c", "rm  -rf /tmp/x"],
        &["sh", "-c", "rm -r\"f\" /tmp/x"],
        &["sh", "-c", "'rm' -rf /tmp/x"],
        &["sh", "-c", "ls && rm -f -r /tmp/x"],
    ] {
        let e = eval(&c, argv);
        assert_eq!(e.decision, Verdict::Deny, "{argv:?}: {:?}", e.reason);
        assert_eq!(said(&e).as_deref(), Some("denylist: no rm -rf"), "{argv:?}");
    }
    for argv in [
        &["rm", "-r", "/tmp/x"][..],
        &["rm", "--", "-rf"],
        &["echo", "rm", "-rf"],
        &["sh", "-c", "echo 'rm -rf /tmp/x'"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Allow, "{argv:?}");
    }
}

#[test]
fn a_command_that_is_not_understood_is_never_auto_allowed_under_full_with_a_denylist() {
    let script = ["sh", "-c", "echo $SECRET"];
    // Without a denylist, `full` allows it, as before.
    assert_eq!(eval(&full(json!([])), &script).decision, Verdict::Allow);
    let c = full(json!([{"pattern": "/nonexistent/tool"}]));
    let e = eval(&c, &script);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(
        e.reason.as_ref().map(Reason::code),
        Some("uncertain-with-denylist")
    );
    let reason = said(&e).unwrap_or_default();
    assert!(
        reason.starts_with("not understood: ") && reason.contains("never auto-allowed"),
        "{reason}"
    );
    assert_eq!(
        e.allowed_decisions,
        vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny]
    );
    // `askFallback: full` does not let it through when nobody answers.
    assert_eq!(e.fallback(), (Verdict::Deny, "approval-required"));
    // Nobody can be asked: refused.
    let c = layer(
        "full",
        "off",
        "full",
        json!({"denylist": [{"commandPattern": "shred"}]}),
    );
    assert_eq!(eval(&c, &script).decision, Verdict::Deny);
    // Understood commands are unaffected.
    assert_eq!(eval(&c, &["ls", "/tmp"]).decision, Verdict::Allow);
    assert_eq!(eval(&c, &["ls", "/tmp"]).fallback().0, Verdict::Allow);
}

#[test]
fn an_invisible_character_no_longer_lowers_the_risk() {
    let c = full(json!([]));
    let plain = eval(&c, &["rm", "-rf", "/"]);
    assert_eq!(plain.risk.level, RiskLevel::Critical);
    for argv in [
        &["rm", "-rf", "/", "\u{200B}"][..],
        &["rm", "-rf", "/\u{200B}"],
        &["rm\u{2060}", "-rf", "/"],
        &["sh", "-c", "rm -rf / \u{200B}"],
    ] {
        let e = eval(&c, argv);
        assert_eq!(e.risk.level, RiskLevel::Critical, "{argv:?}");
        assert!(
            e.risk.reasons.iter().any(|r| r.contains("invisible")),
            "{argv:?}: {:?}",
            e.risk.reasons
        );
        assert!(e.risk.reasons.contains(&plain.risk.reasons[0]), "{argv:?}");
    }
    // A hidden character alone is worth a look.
    let e = eval(&c, &["ls", "a\u{200B}"]);
    assert_eq!(e.risk.level, RiskLevel::Medium);
    assert_eq!(
        e.risk.reasons,
        vec!["holds an invisible or format character (U+200B); risk was also assessed without it"]
    );
    assert_eq!(eval(&c, &["ls", "a"]).risk.level, RiskLevel::Low);
    // `$HOME` in shell text the analysis refused is read too.
    let e = eval(&c, &["sh", "-c", "cd /; rm -rf \"$HOME\""]);
    assert_eq!(e.risk.level, RiskLevel::Critical);
}

#[test]
fn an_arg_pattern_allows_git_only_for_the_subcommands_it_names() {
    let c = allowlist(json!([{"pattern": real("git"), "argPattern": "^(status|log)\\0"}]));
    assert!(c.warnings().is_empty(), "{:?}", c.warnings());
    for argv in [
        &["git", "status"][..],
        &["git", "log", "-1"],
        &["sh", "-c", "git status && git log"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Allow, "{argv:?}");
    }
    for argv in [
        &["git", "push"][..],
        &["git"],
        &["git", "-C", "/", "status"],
        &["git", "statusx"],
        &["sh", "-c", "git status && git push"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Ask, "{argv:?}");
    }
    // Path-only entries still match everything, and argPattern wins.
    let c = allowlist(json!([
        {"pattern": real("ls")},
        {"pattern": real("git"), "argPattern": "^status\\0$", "argGuards": false}
    ]));
    assert_eq!(eval(&c, &["ls", "-la"]).decision, Verdict::Allow);
    let e = eval(&c, &["git", "status"]);
    assert_eq!(e.decision, Verdict::Allow);
    assert_eq!(e.matched_patterns(), vec![real("git")]);
}

#[test]
fn an_arg_pattern_allows_a_shell_only_with_its_fixed_script() {
    let c = allowlist(json!([{"pattern": real("sh"), "argPattern": "^-c\\0echo ok\\0$"}]));
    let e = eval(&c, &["sh", "-c", "echo ok"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    for argv in [
        &["sh", "-c", "echo no"][..],
        &["sh", "-c", "echo ok", "x"],
        &["sh", "-c", "echo ok; id"],
        &["sh", "-xc", "echo ok"],
        &["echo", "ok"],
    ] {
        assert_eq!(eval(&c, argv).decision, Verdict::Ask, "{argv:?}");
    }
    // The denylist still holds inside an allowed script.
    let c = compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny",
                     "denylist": [{"pattern": real("echo")}]},
        "agents": {"main": {"allowlist": [{"pattern": real("sh"), "argPattern": "^-c\\0echo ok\\0$"}]}}
    }));
    assert_eq!(eval(&c, &["sh", "-c", "echo ok"]).decision, Verdict::Deny);
}

#[test]
fn an_invalid_arg_pattern_never_matches_and_warns() {
    let c = allowlist(json!([{"pattern": real("git"), "argPattern": "(?<=x)status"}]));
    assert!(
        c.warnings().iter().any(|w| w.contains("argPattern")),
        "{:?}",
        c.warnings()
    );
    assert_eq!(eval(&c, &["git", "status"]).decision, Verdict::Ask);
    let c = allowlist(json!([{"pattern": "*", "argPattern": "["}]));
    assert_eq!(eval(&c, &["ls"]).decision, Verdict::Ask);
}

#[test]
fn a_marker_with_an_arg_pattern_needs_both() {
    let marker = command_marker("ls -la");
    let c = allowlist(json!([{"pattern": marker, "argPattern": "^-la\\0$"}]));
    assert_eq!(eval(&c, &["ls", "-la"]).decision, Verdict::Allow);
    let c = allowlist(json!([{"pattern": marker, "argPattern": "^-l\\0$"}]));
    assert_eq!(eval(&c, &["ls", "-la"]).decision, Verdict::Ask);
}

#[test]
fn only_a_shell_request_matches_an_arg_pattern_as_a_whole() {
    // git is not a shell: its segment is checked, so the `git -c` guard
    // still asks.
    let c = allowlist(json!([{"pattern": real("git"), "argPattern": "^-c\\0"}]));
    let e = eval(&c, &["git", "-c", "core.pager=x", "log"]);
    assert_eq!(e.decision, Verdict::Ask, "{:?}", e.reason);
    // A shell called through a link of another name is still that shell.
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("mysh");
    std::os::unix::fs::symlink(real("sh"), &link).unwrap();
    let c = allowlist(json!([{"pattern": real("sh"), "argPattern": "^-c\\0echo ok\\0$"}]));
    let link = link.to_string_lossy().into_owned();
    assert_eq!(eval(&c, &[&link, "-c", "echo ok"]).decision, Verdict::Allow);
    assert_eq!(eval(&c, &[&link, "-c", "echo no"]).decision, Verdict::Ask);
}

#[test]
fn allow_always_is_offered_only_when_it_can_be_kept() {
    let c = compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "always", "askFallback": "deny"},
        "agents": {"main": {"allowlist": []}}
    }));
    let e = eval(&c, &["ls"]);
    assert_eq!(
        e.allowed_decisions,
        vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny]
    );
    // One program cannot be resolved, so nothing can be persisted for it.
    let c = allowlist(json!([]));
    let e = eval(&c, &["sh", "-c", "ls; nonexistent-program-issue9"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(
        e.allowed_decisions,
        vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny]
    );
}

/// Class 3: programs that run the command they are given are semantic
/// wrappers, never allowed through an entry for everything they wrap.
#[test]
fn setarch_ssh_agent_and_other_command_runners_are_semantic_wrappers() {
    let c = compiled(json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [{"pattern": "*"}]}}
    }));
    for argv in [
        &["setarch", "x86_64", "bash", "-c", "id"][..],
        &["linux64", "sh"],
        &["ssh-agent", "sh", "-c", "id"],
        &["sshpass", "-p", "x", "ssh", "host"],
        &["eatmydata", "rm", "-rf", "/tmp/x"],
        &["torsocks", "curl", "x"],
        &["dbus-run-session", "--", "sh"],
        // Command runners the table did not know: each ran its operand.
        &["runcon", "ctx", "sh"],
        &["setpriv", "--reuid=0", "sh"],
        &["capsh", "--", "-c", "id"],
        &["prlimit", "--nofile=10", "sh"],
        &["daemonize", "/bin/sh"],
        &["start-stop-daemon", "--start", "--exec", "/bin/sh"],
        &["systemd-cat", "sh"],
        &["tmux", "new-session", "-d", "sh -c id"],
        &["screen", "-dm", "sh"],
        &["perf", "record", "--", "sh"],
        &["lldb", "--", "sh"],
        &["catchsegv", "sh"],
        &["fakechroot", "sh"],
        &["rlwrap", "sh"],
        &["schroot", "--", "sh"],
        &["podman", "run", "-v", "/:/h", "x"],
        &["apptainer", "exec", "x.sif", "sh"],
        &["singularity", "exec", "x.sif", "sh"],
        &["flatpak-spawn", "--host", "sh"],
        &["launchctl", "submit", "-l", "x", "--", "sh"],
        &["xdg-open", "x.desktop"],
        // Schedulers: the commands run later, outside this request.
        &["at", "now"],
        &["batch"],
        &["crontab", "jobs.txt"],
    ] {
        let e = eval(&c, argv);
        assert!(!e.analysis.ok, "{argv:?}");
        assert_eq!(
            e.analysis.reason.as_ref().map(|r| r.code()),
            Some("semantic-wrapper"),
            "{argv:?}"
        );
        assert_ne!(e.decision, Verdict::Allow, "{argv:?}");
    }
}
