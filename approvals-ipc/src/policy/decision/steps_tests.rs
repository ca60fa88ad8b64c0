//! Each pure step of [`decide`] on its own: the verdict table, what a
//! person is offered, the ask fallback, what allow-always keeps, and what
//! may run after each answer.

use serde_json::json;

use super::tests::{compiled, eval, real, said};
use super::*;
use crate::approvals::{Ask, Security};
use crate::policy::reason::DenyHit;

const SECURITIES: [Security; 3] = [Security::Deny, Security::Allowlist, Security::Full];
const ASKS: [Ask; 3] = [Ask::Off, Ask::OnMiss, Ask::Always];

fn resolved(security: Security, ask: Ask) -> ResolvedPolicy {
    let mut policy = compiled(json!({"version": 1})).policy;
    policy.security = security;
    policy.ask = ask;
    policy
}

fn miss() -> Reason {
    Reason::AllowlistMiss(vec![Miss::NotFound { word: "x".into() }])
}

fn hit() -> Reason {
    Reason::Denylist(DenyHit {
        entry: 0,
        why: "no".into(),
        salvaged: false,
    })
}

/// DESIGN.md section 6's table, written out on its own: a denylist hit or
/// `security: deny` refuses; `ask: always` always asks; otherwise `full`,
/// or an allowlist every segment satisfies, allows, unless the command is
/// uncertain under a denylist (then it asks, or with `ask: off` refuses);
/// an allowlist miss asks, or with `ask: off` refuses.
fn expected(
    security: Security,
    ask: Ask,
    satisfied: bool,
    denied: bool,
    uncertain: bool,
) -> Verdict {
    if denied || security == Security::Deny {
        return Verdict::Deny;
    }
    if ask == Ask::Always {
        return Verdict::Ask;
    }
    let allowed = security == Security::Full || satisfied;
    match (allowed && !uncertain, ask) {
        (true, _) => Verdict::Allow,
        (false, Ask::Off) => Verdict::Deny,
        (false, _) => Verdict::Ask,
    }
}

#[test]
fn the_verdict_follows_the_policy_table_in_every_combination() {
    for security in SECURITIES {
        for ask in ASKS {
            for satisfied in [false, true] {
                for denied in [false, true] {
                    for uncertain in [false, true] {
                        let policy = resolved(security, ask);
                        let refusal = Refusal::CdChain;
                        let (got, reason) = verdict(
                            &policy,
                            denied.then(hit),
                            satisfied,
                            miss,
                            uncertain.then_some(&refusal),
                        );
                        let case = format!(
                            "{security:?} {ask:?} satisfied={satisfied} denied={denied} uncertain={uncertain}"
                        );
                        assert_eq!(
                            got,
                            expected(security, ask, satisfied, denied, uncertain),
                            "{case}"
                        );
                        assert_eq!(got == Verdict::Allow, reason.is_none(), "{case}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_verdict_names_what_decided() {
    let code = |security, ask, satisfied, denied: bool, uncertain: bool| {
        let refusal = Refusal::CdChain;
        verdict(
            &resolved(security, ask),
            denied.then(hit),
            satisfied,
            miss,
            uncertain.then_some(&refusal),
        )
        .1
        .map(|r| r.code())
    };
    assert_eq!(
        code(Security::Full, Ask::OnMiss, false, true, false),
        Some("denylist"),
        "a denylist hit wins over everything"
    );
    assert_eq!(
        code(Security::Deny, Ask::Always, true, false, false),
        Some("security-deny")
    );
    assert_eq!(
        code(Security::Full, Ask::Always, false, false, false),
        Some("ask-always")
    );
    assert_eq!(
        code(Security::Allowlist, Ask::Always, true, false, false),
        Some("ask-always")
    );
    assert_eq!(
        code(Security::Allowlist, Ask::Always, false, false, false),
        Some("allowlist-miss"),
        "an unsatisfied allowlist says what is missing, even under ask: always"
    );
    assert_eq!(
        code(Security::Allowlist, Ask::Off, false, false, false),
        Some("allowlist-miss")
    );
    assert_eq!(
        code(Security::Full, Ask::OnMiss, false, false, true),
        Some("uncertain-with-denylist")
    );
    assert_eq!(
        code(Security::Allowlist, Ask::OnMiss, false, false, true),
        Some("allowlist-miss"),
        "uncertainty only overrides an allow"
    );
}

#[test]
fn full_security_with_ask_always_asks_end_to_end() {
    let c = compiled(json!({"version": 1, "defaults": {"security": "full", "ask": "always"}}));
    let e = eval(&c, &["id"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(e.reason.as_ref().map(Reason::code), Some("ask-always"));
    assert!(
        e.runnable(None).is_err() || e.fallback().0 == Verdict::Allow,
        "without an answer only the fallback may run it"
    );
}

#[test]
fn a_person_is_offered_allow_always_only_when_it_can_be_kept() {
    let all = vec![
        ApprovalDecision::AllowOnce,
        ApprovalDecision::AllowAlways,
        ApprovalDecision::Deny,
    ];
    let no_always = vec![ApprovalDecision::AllowOnce, ApprovalDecision::Deny];
    assert_eq!(offered(Verdict::Ask, Ask::OnMiss, true, false), all);
    assert_eq!(offered(Verdict::Ask, Ask::Off, true, false), all);
    assert_eq!(offered(Verdict::Ask, Ask::Always, true, false), no_always);
    assert_eq!(offered(Verdict::Ask, Ask::OnMiss, false, false), no_always);
    assert_eq!(offered(Verdict::Ask, Ask::OnMiss, true, true), no_always);
    for verdict in [Verdict::Allow, Verdict::Deny] {
        assert!(offered(verdict, Ask::OnMiss, true, false).is_empty());
    }
}

#[test]
fn allow_always_is_not_offered_when_nothing_can_be_persisted() {
    let c =
        compiled(json!({"version": 1, "defaults": {"security": "allowlist", "ask": "on-miss"}}));
    // A program that does not exist: nothing to persist by path.
    let e = eval(&c, &["definitely-not-a-program-xyz", "-v"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert!(!e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
    // An empty script: nothing to persist at all.
    let e = eval(&c, &["sh", "-c", "cd /tmp"]);
    assert!(
        e.persist_patterns().is_empty(),
        "{:?}",
        e.persist_patterns()
    );
    assert!(!e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
}

#[test]
fn the_fallback_is_capped_by_security_and_refuses_the_uncertain() {
    let view = |security, fallback| PolicyView {
        security,
        ask: Ask::OnMiss,
        ask_fallback: fallback,
    };
    let cases = [
        (Security::Full, Security::Full, false, false, Verdict::Allow),
        (Security::Full, Security::Full, false, true, Verdict::Deny),
        (
            Security::Allowlist,
            Security::Full,
            false,
            false,
            Verdict::Deny,
        ),
        (
            Security::Allowlist,
            Security::Full,
            true,
            false,
            Verdict::Allow,
        ),
        (
            Security::Allowlist,
            Security::Allowlist,
            true,
            true,
            Verdict::Deny,
        ),
        (
            Security::Full,
            Security::Allowlist,
            true,
            false,
            Verdict::Allow,
        ),
        (
            Security::Full,
            Security::Allowlist,
            false,
            false,
            Verdict::Deny,
        ),
        (Security::Full, Security::Deny, true, false, Verdict::Deny),
        (Security::Deny, Security::Full, true, false, Verdict::Deny),
    ];
    for (security, fallback_to, satisfied, uncertain, want) in cases {
        let (got, code) = fallback(&view(security, fallback_to), satisfied, uncertain);
        assert_eq!(
            got, want,
            "{security:?} fallback {fallback_to:?} satisfied={satisfied} uncertain={uncertain}"
        );
        if got == Verdict::Deny {
            assert_eq!(code, "approval-required");
        }
    }
}

#[test]
fn allow_always_of_an_interpreter_running_a_script_keeps_the_exact_command() {
    let c =
        compiled(json!({"version": 1, "defaults": {"security": "allowlist", "ask": "on-miss"}}));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("job.py"), "print(1)\n").unwrap();
    let argv = vec!["python3".to_owned(), "job.py".to_owned()];
    let e = c.evaluate(&argv, dir.path(), &Default::default());
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(e.persist_patterns().len(), 1);
    assert!(
        e.persist_patterns()[0].starts_with("=command:"),
        "never the interpreter's path: {:?}",
        e.persist_patterns()
    );
}

#[test]
fn runs_code_knows_shells_interpreters_and_wrappers_by_either_name() {
    let c = compiled(json!({"version": 1}));
    for (argv, runs) in [
        (&["python3", "x.py"][..], true),
        (&["bash", "x.sh"], true),
        (&["ls", "-l"], false),
    ] {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        let a = analysis::analyze(&c, &argv, Path::new("/tmp"));
        let segment = &a.segments[0];
        let real = segment.resolution.real.clone().unwrap();
        assert_eq!(runs_code(segment, &real), runs, "{argv:?}");
    }
}

#[test]
fn what_may_run_follows_the_verdict_and_the_answer() {
    let ask = compiled(
        json!({"version": 1, "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"}}),
    );
    let e = eval(&ask, &["id"]);
    assert_eq!(e.decision, Verdict::Ask);
    let grant = |answer| e.runnable(answer).map(|r| r.grant());
    assert_eq!(
        grant(Some(ApprovalDecision::AllowOnce)),
        Ok(Grant::AllowOnce)
    );
    assert_eq!(
        grant(Some(ApprovalDecision::AllowAlways)),
        Ok(Grant::AllowAlways)
    );
    assert_eq!(
        grant(Some(ApprovalDecision::Deny)),
        Err(NotGranted::UserDenied)
    );
    assert_eq!(
        grant(None),
        Err(NotGranted::NoAnswer {
            code: "approval-required"
        })
    );
    let ran = e.runnable(Some(ApprovalDecision::AllowOnce)).unwrap();
    assert_eq!(
        Some(ran.plan()),
        e.checked_plan(),
        "what runs is what was checked"
    );

    let deny = compiled(json!({"version": 1, "defaults": {"security": "deny"}}));
    let e = eval(&deny, &["id"]);
    for answer in [
        None,
        Some(ApprovalDecision::AllowOnce),
        Some(ApprovalDecision::AllowAlways),
    ] {
        assert_eq!(
            e.runnable(answer).map(|r| r.grant()),
            Err(NotGranted::Denied),
            "no answer lifts a deny verdict"
        );
    }

    let allow = compiled(json!({"version": 1, "defaults": {"security": "full", "ask": "off"}}));
    let e = eval(&allow, &["id"]);
    assert_eq!(e.runnable(None).map(|r| r.grant()), Ok(Grant::Policy));
    assert_eq!(
        e.runnable(Some(ApprovalDecision::Deny)).map(|r| r.grant()),
        Ok(Grant::Policy),
        "an allow verdict needs no answer"
    );
}

#[test]
fn a_command_allowed_as_text_runs_its_argv_with_the_program_resolved_once() {
    let full = compiled(json!({"version": 1, "defaults": {"security": "full", "ask": "off"}}));
    let e = eval(&full, &["sh", "-c", "echo $SECRET"]);
    assert!(!e.analysis.ok);
    assert!(e.checked_plan().is_none());
    let ran = e.runnable(None).unwrap();
    let PlannedCommand::Exec(exec) = &ran.plan().steps()[0].pipeline[0] else {
        panic!("{ran:?}");
    };
    assert_eq!(exec.program.to_string_lossy(), real("sh"));
    assert_eq!(*exec.argv, ["sh", "-c", "echo $SECRET"]);
    let e = eval(&full, &["definitely-not-a-program-xyz"]);
    assert_eq!(
        e.runnable(None).map(|r| r.grant()),
        Err(NotGranted::NotFound {
            word: "definitely-not-a-program-xyz".into()
        }),
        "never looked up again at run time"
    );
}

#[test]
fn the_denylist_hit_names_its_own_entry() {
    let c = compiled(json!({"version": 1, "defaults": {"security": "full"},
    "agents": {"main": {"denylist": [
        {"pattern": "/nonexistent/a", "reason": "first"},
        {"commandPattern": "id -u", "reason": "second"},
        {"pattern": real("id"), "reason": "third"}
    ]}}}));
    let e = eval(&c, &["id", "-u"]);
    let Some(Reason::Denylist(hit)) = &e.reason else {
        panic!("{:?}", e.reason);
    };
    assert_eq!(
        (hit.entry, hit.why.as_str()),
        (2, "third"),
        "a path hit wins"
    );
    let e = eval(&c, &["sh", "-c", "id -u $X"]);
    let Some(Reason::Denylist(hit)) = &e.reason else {
        panic!("{:?}", e.reason);
    };
    assert!(hit.salvaged);
    assert_eq!(
        said(&e).as_deref(),
        Some("denylist: third (read from a command that was not understood)")
    );
}

#[test]
fn matched_patterns_lists_each_entry_once_with_the_marker_last() {
    let id = real("id");
    let marker = command_marker(&quote::join(&["sh".into(), "-c".into(), "id && id".into()]));
    let c = compiled(
        json!({"version": 1, "defaults": {"security": "allowlist", "ask": "off"},
        "agents": {"main": {"allowlist": [{"pattern": id}, {"pattern": marker}]}}}),
    );
    let e = eval(&c, &["sh", "-c", "id && id"]);
    assert_eq!(e.decision, Verdict::Allow);
    assert_eq!(e.matched_patterns(), [id.clone(), marker]);
    let e = eval(&c, &["sh", "-c", "id && id -u"]);
    assert_eq!(e.matched_patterns(), [id]);
}

#[test]
fn an_evaluation_carries_the_request_it_judged() {
    let c = compiled(json!({"version": 1, "defaults": {"security": "full", "ask": "off"}}));
    let argv: Vec<String> = ["env", "sh", "-c", "echo 'a b'"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = c.evaluate(&argv, Path::new("/tmp/./x/.."), &Default::default());
    assert_eq!(e.argv(), argv.as_slice());
    assert_eq!(e.cwd(), Path::new("/tmp"), "normalized as cd does");
    assert_eq!(e.command_text(), "env sh -c 'echo '\\''a b'\\'''");
    assert_eq!(e.shell_script(), Some("echo 'a b'"));
    assert_eq!(eval(&c, &["ls"]).shell_script(), None);
}

#[test]
fn an_allow_always_that_was_not_offered_runs_once_and_keeps_nothing() {
    let c = compiled(json!({"version": 1, "defaults": {"security": "allowlist", "ask": "always"}}));
    let e = eval(&c, &["id"]);
    assert!(!e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
    assert_eq!(
        e.runnable(Some(ApprovalDecision::AllowAlways))
            .map(|r| r.grant()),
        Ok(Grant::AllowOnce)
    );
}

#[test]
fn the_miss_reason_is_the_refusal_else_the_guards_else_the_misses() {
    let check = |guards: Vec<GuardHit>, miss: Option<Miss>| SegmentCheck {
        satisfied_by: guards.is_empty().then_some(SatisfiedBy::Allowlist),
        entry: None,
        guards,
        miss,
    };
    let guard = GuardHit {
        id: "git.config-override",
        reason: "git -c".into(),
    };
    let missing = Miss::NotFound { word: "x".into() };
    let guarded = check(vec![guard.clone()], None);
    let unsatisfied = SegmentCheck {
        satisfied_by: None,
        ..check(Vec::new(), Some(missing.clone()))
    };
    let code = |refusal: Option<&Refusal>, checks: &[SegmentCheck]| miss_reason(refusal, checks);
    assert_eq!(
        code(Some(&Refusal::CdChain), std::slice::from_ref(&guarded)),
        Reason::NotUnderstood(Refusal::CdChain)
    );
    assert_eq!(
        code(None, &[guarded, check(Vec::new(), None)]),
        Reason::ArgumentGuard(vec![guard])
    );
    assert_eq!(
        code(None, &[check(Vec::new(), None), unsatisfied]),
        Reason::AllowlistMiss(vec![missing])
    );
}

#[test]
fn allow_always_of_a_command_not_understood_keeps_its_exact_text_unless_there_is_none() {
    let c =
        compiled(json!({"version": 1, "defaults": {"security": "allowlist", "ask": "on-miss"}}));
    let e = eval(&c, &["sh", "-c", "echo $SECRET"]);
    assert!(!e.analysis.ok);
    assert!(
        e.allowed_decisions.contains(&ApprovalDecision::AllowAlways),
        "{:?}",
        e.allowed_decisions
    );
    assert!(e.persist_patterns()[0].starts_with("=command:"));
    // Refused before any segment was read (an invisible character): no
    // allow-always.
    let e = eval(&c, &["ls", "a\u{200B}"]);
    assert!(!e.analysis.ok && e.analysis.segments.is_empty());
    assert_eq!(e.decision, Verdict::Ask);
    assert!(!e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
}

#[test]
fn command_scope_keeps_the_exact_text_of_a_script_with_no_program() {
    let c = compiled(
        json!({"version": 1, "defaults": {"security": "allowlist", "ask": "on-miss", "allowAlwaysScope": "command"}}),
    );
    let e = eval(&c, &["sh", "-c", "cd /tmp"]);
    assert!(e.analysis.ok && e.analysis.segments.is_empty());
    assert_eq!(e.decision, Verdict::Ask);
    assert!(e.persist_patterns()[0].starts_with("=command:"));
    assert!(e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
}
