//! Issue 11, class 6: a request's environment overrides are decided by the
//! same list of inert variables as `NAME=value` prefixes; one that is not
//! inert is never auto-allowed, and no exact-command approval covers it.

use serde_json::{Value, json};

use super::tests::{compiled, real};
use super::*;
use crate::approvals::command_marker;

fn layer(security: &str, ask: &str, extra: Value) -> CompiledPolicy {
    layer_with(security, ask, extra, json!([]))
}

fn layer_with(security: &str, ask: &str, extra: Value, allowlist: Value) -> CompiledPolicy {
    let mut defaults = json!({"security": security, "ask": ask, "askFallback": "full"});
    if let (Some(d), Some(e)) = (defaults.as_object_mut(), extra.as_object()) {
        d.extend(e.clone());
    }
    compiled(json!({
        "version": 1,
        "defaults": defaults,
        "agents": {"main": {"allowlist": allowlist}}
    }))
}

fn allowlisted(names: &[&str], ask: &str) -> CompiledPolicy {
    let entries: Vec<Value> = names.iter().map(|n| json!({"pattern": real(n)})).collect();
    layer_with("allowlist", ask, json!({}), Value::Array(entries))
}

fn run(c: &CompiledPolicy, argv: &[&str], env: &[(&str, &str)]) -> Evaluation {
    let argv: Vec<String> = argv.iter().map(|a| (*a).to_owned()).collect();
    let env: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    c.evaluate(&argv, Path::new("/tmp"), &env)
}

fn codes(e: &Evaluation) -> (Option<&'static str>, Option<&'static str>) {
    (
        e.reason.as_ref().map(Reason::code),
        e.reason.as_ref().and_then(Reason::detail_code),
    )
}

const TAR: &[&str] = &["tar", "tf", "a.tar"];
const TAR_TO_COMMAND: &[(&str, &str)] = &[("TAR_OPTIONS", "--to-command=sh")];

#[test]
fn tar_options_to_command_override_is_not_auto_allowed_under_allowlist() {
    let c = allowlisted(&["tar"], "on-miss");
    assert_eq!(run(&c, TAR, &[]).decision, Verdict::Allow);
    let e = run(&c, TAR, TAR_TO_COMMAND);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(codes(&e), (Some("not-understood"), Some("env-override")));
    let said = e.reason.as_ref().map(ToString::to_string).unwrap();
    assert!(
        said.contains("TAR_OPTIONS") && said.contains("--to-command"),
        "{said}"
    );
    assert!(!e.analysis.ok);
    assert_eq!(
        e.analysis.reason.as_ref().map(Refusal::code),
        Some("env-override")
    );
    // Allow-always would keep the argv, never the environment: not offered.
    assert_eq!(
        e.allowed_decisions,
        vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny]
    );
    // Nobody answers: the allowlist fallback does not let it through.
    let c = layer_with(
        "allowlist",
        "on-miss",
        json!({"askFallback": "allowlist"}),
        json!([{"pattern": real("tar")}]),
    );
    assert_eq!(
        run(&c, TAR, TAR_TO_COMMAND).fallback(),
        (Verdict::Deny, "approval-required")
    );
    // Nobody can be asked: refused.
    let c = allowlisted(&["tar"], "off");
    assert_eq!(run(&c, TAR, TAR_TO_COMMAND).decision, Verdict::Deny);
}

#[test]
fn tar_options_to_command_override_is_not_auto_allowed_under_full_with_a_denylist() {
    // Without a denylist, `full` allows what it does not understand, as before.
    let c = layer("full", "on-miss", json!({}));
    assert_eq!(run(&c, TAR, TAR_TO_COMMAND).decision, Verdict::Allow);
    let c = layer(
        "full",
        "on-miss",
        json!({"denylist": [{"pattern": "/nonexistent/tool"}]}),
    );
    let e = run(&c, TAR, TAR_TO_COMMAND);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(
        codes(&e),
        (Some("uncertain-with-denylist"), Some("env-override"))
    );
    assert_eq!(e.fallback(), (Verdict::Deny, "approval-required"));
    let c = layer(
        "full",
        "off",
        json!({"denylist": [{"pattern": "/nonexistent/tool"}]}),
    );
    assert_eq!(run(&c, TAR, TAR_TO_COMMAND).decision, Verdict::Deny);
}

#[test]
fn an_exact_command_approval_does_not_cover_a_hook_override() {
    let marker = command_marker(&quote::join(
        &TAR.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>(),
    ));
    let c = layer_with(
        "allowlist",
        "on-miss",
        json!({}),
        json!([{"pattern": marker}]),
    );
    assert_eq!(run(&c, TAR, &[]).decision, Verdict::Allow);
    let e = run(&c, TAR, &[("GIT_AUTHOR_NAME", "x")]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(codes(&e), (Some("not-understood"), Some("env-override")));
}

#[test]
fn an_override_not_inert_keeps_the_checked_plan_for_a_person_to_allow() {
    let c = allowlisted(&["tar"], "on-miss");
    let e = run(&c, TAR, TAR_TO_COMMAND);
    assert!(e.checked_plan().is_some());
    assert!(e.runnable(Some(ApprovalDecision::AllowOnce)).is_ok());
    assert!(matches!(
        e.runnable(Some(ApprovalDecision::Deny)),
        Err(NotGranted::UserDenied)
    ));
}

#[test]
fn lc_all_path_prefix_is_not_inert() {
    let c = allowlisted(&["ls"], "on-miss");
    let e = run(&c, &["sh", "-c", "LC_ALL=/tmp/evil ls"], &[]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(codes(&e), (Some("not-understood"), Some("assignment")));
    let e = run(&c, &["ls"], &[("LC_ALL", "/tmp/evil")]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(codes(&e), (Some("not-understood"), Some("env-override")));
    let said = e.reason.as_ref().map(ToString::to_string).unwrap();
    assert!(said.contains("locale name"), "{said}");
}

#[test]
fn everyday_inert_prefixes_and_overrides_are_allowed_for_an_allowlisted_program() {
    let c = allowlisted(&["ls"], "on-miss");
    for script in [
        "RUST_BACKTRACE=1 ls",
        "RUST_BACKTRACE=full RUST_LOG=my_crate=debug,warn ls -l",
        "LANG=C.UTF-8 TZ=Europe/Berlin ls",
        "NO_COLOR=1 COLUMNS=120 TERM=dumb ls",
        "CI=true NODE_ENV=test DEBUG='app:*' ls",
    ] {
        let e = run(&c, &["sh", "-c", script], &[]);
        assert_eq!(e.decision, Verdict::Allow, "{script}: {:?}", e.reason);
    }
    for env in [
        &[("NODE_ENV", "test")][..],
        &[("RUST_BACKTRACE", "1"), ("RUST_LOG", "debug")],
        &[("LANG", "C"), ("LC_ALL", "C.UTF-8"), ("TZ", "UTC")],
        &[("PYTHONUNBUFFERED", "1"), ("FORCE_COLOR", "0")],
    ] {
        let e = run(&c, &["ls"], env);
        assert_eq!(e.decision, Verdict::Allow, "{env:?}: {:?}", e.reason);
    }
    // An inert name with a value outside its syntax is not inert.
    let e = run(&c, &["ls"], &[("NODE_ENV", "$(id)")]);
    assert_eq!(codes(&e), (Some("not-understood"), Some("env-override")));
}

#[test]
fn a_person_is_told_every_override_that_is_not_inert() {
    let c = allowlisted(&["ls"], "on-miss");
    let e = run(
        &c,
        &["ls"],
        &[("AAA", "1"), ("LANG", "C"), ("ZZZ_HOOK", "/tmp/evil")],
    );
    let said = e.reason.as_ref().map(ToString::to_string).unwrap();
    assert!(
        said.contains("AAA=\"1\"") && said.contains("also not inert: ZZZ_HOOK=\"/tmp/evil\""),
        "{said}"
    );
    assert!(!said.contains("LANG=\"C\""), "{said}");
}

/// `$NAME` of a request's inert override is its value in the script: what
/// the shell would see, checked as such.
#[test]
fn a_script_naming_an_inert_override_sees_its_value() {
    let c = allowlisted(&["echo", "ls"], "on-miss");
    let e = run(
        &c,
        &["sh", "-c", "echo $NODE_ENV \"${RUST_LOG}\""],
        &[("NODE_ENV", "test"), ("RUST_LOG", "info")],
    );
    assert!(e.analysis.ok, "{:?}", e.analysis.reason);
    assert_eq!(*e.analysis.segments[0].argv, ["echo", "test", "info"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn a_variable_the_request_does_not_set_inertly_stays_an_expansion() {
    let c = allowlisted(&["echo", "ls"], "on-miss");
    // Not given at all: the host's value is unknown to the check.
    let e = run(&c, &["sh", "-c", "echo $NODE_ENV"], &[]);
    assert_eq!(
        e.analysis.reason.as_ref().map(|r| r.code()),
        Some("parameter-expansion")
    );
    // Given, but not inert: never a value the check trusts.
    let e = run(&c, &["sh", "-c", "ls $GIT_DIR"], &[("GIT_DIR", "/tmp/x")]);
    assert_ne!(e.decision, Verdict::Allow);
    // Inert, but it would split into two words unquoted.
    let e = run(&c, &["sh", "-c", "echo $DEBUG"], &[("DEBUG", "a b")]);
    if env::check_inert("DEBUG", "a b").is_ok() {
        assert_eq!(
            e.analysis.reason.as_ref().map(|r| r.code()),
            Some("parameter-expansion")
        );
    }
    assert_ne!(e.decision, Verdict::Allow);
}
