use std::path::{Path, PathBuf};

use super::*;
use crate::approvals::ApprovalsFile;
use crate::policy::HostContext;

/// The guard ids of every segment of `e`, in order.
pub(crate) fn guard_ids(e: &Evaluation) -> Vec<&'static str> {
    e.analysis
        .segments
        .iter()
        .flat_map(|s| s.guards.iter().map(|g| g.id))
        .collect()
}

/// The policy of `json`'s `main` agent on a fixed host PATH and home.
pub(crate) fn compiled(json: serde_json::Value) -> CompiledPolicy {
    compiled_with_home(json, PathBuf::from("/home/test"))
}

/// The policy of `json`'s `main` agent on a fixed host PATH and `home`.
pub(crate) fn compiled_with_home(json: serde_json::Value, home: PathBuf) -> CompiledPolicy {
    let text = serde_json::to_vec(&json).unwrap();
    let file = ApprovalsFile::parse(&text, Path::new("test.json"))
        .unwrap()
        .file;
    let host = HostContext {
        path: Some("/usr/local/bin:/usr/bin:/bin".into()),
        home: Some(home),
        state_dirs: Vec::new(),
    };
    CompiledPolicy::compile(file.resolve(Some("main")), &host)
}

fn policy(allow: &[&str], scope: &str) -> CompiledPolicy {
    let entries: Vec<_> = allow
        .iter()
        .map(|p| serde_json::json!({"pattern": p}))
        .collect();
    compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny", "allowAlwaysScope": scope},
        "agents": {"main": {"allowlist": entries}}
    }))
}

/// The evaluation's reason as people read it.
pub(super) fn said(e: &Evaluation) -> Option<String> {
    e.reason.as_ref().map(ToString::to_string)
}

/// Evaluates `argv` in `/tmp`.
pub(super) fn eval(c: &CompiledPolicy, argv: &[&str]) -> Evaluation {
    let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
    c.evaluate(&argv, Path::new("/tmp"), &Default::default())
}

/// The real path of a program in the fixed host PATH.
pub(super) fn real(name: &str) -> String {
    ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn allow_always_persists_the_real_path_of_a_plain_program() {
    let e = eval(&policy(&[], "executable"), &["git", "status"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(e.persist_patterns(), vec![real("git")]);
    assert!(e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
}

#[test]
fn allow_always_persists_inner_executables_of_a_shell_wrapper_regression_issue_23276() {
    let e = eval(&policy(&[], "executable"), &["bash", "-c", "git status"]);
    assert_eq!(e.persist_patterns(), vec![real("git")]);
    let e = eval(&policy(&[], "executable"), &["zsh", "-lc", "whoami"]);
    assert!(!e.persist_patterns().iter().any(|p| p.ends_with("sh")));
}

#[test]
fn allow_always_never_persists_a_shell_interpreter_or_wrapper_path() {
    for argv in [
        &["bash", "-c", "echo \"$(id)\""][..],
        &["python3", "-c", "print(1)"],
        &["sh", "script.sh"],
        &["sudo", "ls"],
        &["xargs", "ls"],
        &["perl", "-e", "1"],
    ] {
        let e = eval(&policy(&[], "executable"), argv);
        assert_eq!(
            e.persist_patterns().len(),
            1,
            "{argv:?}: {:?}",
            e.persist_patterns()
        );
        assert!(
            e.persist_patterns()[0].starts_with("=command:"),
            "{argv:?} must persist an exact-command marker, got {:?}",
            e.persist_patterns()
        );
    }
}

#[test]
fn an_exact_command_marker_allows_only_that_command() {
    let marker = command_marker(&quote::join(&[
        "bash".into(),
        "-c".into(),
        "echo \"$(id)\"".into(),
    ]));
    let c = policy(&[&marker], "executable");
    assert_eq!(
        eval(&c, &["bash", "-c", "echo \"$(id)\""]).decision,
        Verdict::Allow
    );
    assert_eq!(
        eval(&c, &["bash", "-c", "echo \"$(id)\" "]).decision,
        Verdict::Ask
    );
    assert_eq!(eval(&c, &["bash", "-c", "id"]).decision, Verdict::Ask);
}

#[test]
fn command_scope_persists_a_marker_or_a_prefix_rule_never_a_bare_path() {
    let e = eval(&policy(&[], "command"), &["cat", "README"]);
    assert_eq!(e.persist_patterns().len(), 1);
    assert!(e.persist_patterns()[0].starts_with("=command:"));
    assert!(e.persist_prefixes().is_empty());
    let e = eval(&policy(&[], "command"), &["git", "status"]);
    assert!(e.persist_patterns().is_empty());
    assert_eq!(e.persist_prefixes().len(), 1);
    assert_eq!(e.persist_prefixes()[0].1, ["status"]);
}

#[test]
fn guarded_commands_persist_a_marker_not_the_path() {
    let git = real("git");
    let e = eval(
        &policy(&[&git], "executable"),
        &["git", "-c", "core.pager=sh", "log"],
    );
    assert_eq!(e.decision, Verdict::Ask);
    assert!(e.persist_patterns()[0].starts_with("=command:"));
}

#[test]
fn unresolvable_programs_offer_no_allow_always() {
    let e = eval(
        &policy(&[], "executable"),
        &["definitely-not-a-program-xyz"],
    );
    assert_eq!(e.decision, Verdict::Ask);
    assert!(!e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
}

#[test]
fn fallback_never_exceeds_security() {
    let c = compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "full"}
    }));
    let e = eval(&c, &["id"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(
        e.fallback().0,
        Verdict::Deny,
        "allowlist caps a full fallback"
    );
    let c = compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "always", "askFallback": "full"}
    }));
    assert_eq!(eval(&c, &["id"]).fallback().0, Verdict::Allow);
}

#[test]
fn per_entry_guard_switch_turns_guards_off_for_that_entry_only() {
    let git = real("git");
    let c = compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [{"pattern": git, "argGuards": false}]}}
    }));
    assert_eq!(
        eval(&c, &["git", "-c", "a.b=c", "log"]).decision,
        Verdict::Allow
    );
}

#[test]
fn cd_changes_where_later_commands_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::os::unix::fs::symlink(real("ls"), sub.join("tool")).unwrap();
    let c = policy(&[&real("ls")], "executable");
    let argv: Vec<String> = ["sh", "-c", "cd sub && ./tool"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = c.evaluate(&argv, dir.path(), &Default::default());
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.analysis);
    let seg = &e.analysis.segments[0];
    assert_eq!(seg.real_path.as_deref(), Some(real("ls").as_str()));
}

#[test]
fn a_plan_runs_the_resolved_target_without_wrappers() {
    let c = policy(&[&real("ls")], "executable");
    let e = eval(&c, &["nice", "-n", "5", "ls", "-la"]);
    assert_eq!(e.decision, Verdict::Allow);
    let plan = e.checked_plan().expect("plan");
    match &plan.steps()[0].pipeline[0] {
        PlannedCommand::Exec(exec) => {
            assert_eq!(*exec.argv, vec!["ls".to_owned(), "-la".to_owned()]);
            assert!(exec.program.is_absolute());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn allow_always_never_persists_an_interpreter_behind_another_name() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(real("perl"), dir.path().join("tool")).unwrap();
    let c = policy(&[], "executable");
    let argv: Vec<String> = ["./tool", "-e", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = c.evaluate(&argv, dir.path(), &Default::default());
    assert_eq!(e.persist_patterns().len(), 1, "{:?}", e.persist_patterns());
    assert!(
        e.persist_patterns()[0].starts_with("=command:"),
        "{:?}",
        e.persist_patterns()
    );
}

#[test]
fn a_denylist_command_pattern_that_cannot_be_parsed_refuses_everything() {
    let text = br#"{"version": 1, "defaults": {"security": "full", "ask": "off"}}"#;
    let file = ApprovalsFile::parse(text, Path::new("test.json"))
        .unwrap()
        .file;
    let mut policy = file.resolve(Some("main"));
    // The loader warns; the compiled policy fails closed.
    policy.denylist = vec![crate::approvals::DenylistEntry {
        command_pattern: Some("(".to_owned()),
        ..Default::default()
    }];
    let c = CompiledPolicy::compile(policy, &HostContext::default());
    assert!(c.warnings().iter().any(|w| w.contains("cannot be parsed")));
    for command in [&["ls"][..], &["sh", "-c", "echo $HOME"], &["a\u{200B}"]] {
        let e = eval(&c, command);
        assert_eq!(e.decision, Verdict::Deny, "{command:?}");
        assert_eq!(
            said(&e).as_deref(),
            Some("denylist: the denylist commandPattern \"(\" cannot be parsed")
        );
    }
}
