//! Unit tests of the exec host: validation tables, reason mapping, the ask
//! step with fake approvers, the policy cache's change detection, and
//! cancellation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Decision, ErrorCode, ExecRequest};
use approvals_ipc::policy::{ApprovalDecision, Evaluation};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn request(words: &[&str]) -> ExecRequest {
    ExecRequest {
        command: argv(words),
        ..ExecRequest::default()
    }
}

fn real(name: &str) -> String {
    std::fs::canonicalize(Path::new("/usr/bin").join(name))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// A private approvals file and a host reading it.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(policy: &Value) -> Self {
        let fixture = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        fixture.write(policy);
        fixture
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("exec-approvals.json")
    }

    fn write(&self, policy: &Value) {
        std::fs::write(self.path(), serde_json::to_vec_pretty(policy).unwrap()).unwrap();
    }

    fn host(&self) -> ExecHost {
        ExecHost::new(ExecHostConfig::new(self.path()))
    }

    fn file(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.path()).unwrap()).unwrap()
    }
}

fn policy(security: &str, ask: &str, fallback: &str, allow: &[&str]) -> Value {
    let allowlist: Vec<Value> = allow.iter().map(|p| json!({"pattern": p})).collect();
    json!({
        "version": 1,
        "socket": {"token": "unit-test-token-123456"},
        "defaults": {"security": security, "ask": ask, "askFallback": fallback},
        "agents": {"main": {"allowlist": allowlist}}
    })
}

#[test]
fn validation_refuses_what_cannot_be_judged() {
    let home = Path::new("/");
    let env = |k: &str| Some(BTreeMap::from([(k.to_owned(), "x".to_owned())]));
    let cases: Vec<(ExecRequest, ErrorCode, Option<&str>)> = vec![
        (request(&[]), ErrorCode::InvalidRequest, None),
        (request(&["  "]), ErrorCode::InvalidRequest, None),
        (
            ExecRequest {
                cwd: Some("/nonexistent/dir".into()),
                ..request(&["ls"])
            },
            ErrorCode::Unavailable,
            Some("cwd-unavailable"),
        ),
        (
            ExecRequest {
                cwd: Some("relative/dir".into()),
                ..request(&["ls"])
            },
            ErrorCode::Unavailable,
            Some("cwd-unavailable"),
        ),
        (
            ExecRequest {
                cwd: Some("/etc/hostname".into()),
                ..request(&["ls"])
            },
            ErrorCode::Unavailable,
            Some("cwd-unavailable"),
        ),
        (
            ExecRequest {
                env: env("LD_PRELOAD"),
                ..request(&["ls"])
            },
            ErrorCode::Unavailable,
            Some("env-override-rejected"),
        ),
        (
            ExecRequest {
                env: env("PATH"),
                ..request(&["ls"])
            },
            ErrorCode::Unavailable,
            Some("env-override-rejected"),
        ),
    ];
    let base = ChildEnv::exactly(Vec::new());
    for (request, code, reason) in cases {
        let error = validate(&request, Some(home), &base).unwrap_err().to_wire();
        assert_eq!(
            (error.code, error.reason.as_deref()),
            (code, reason),
            "{request:?}"
        );
    }
    let ok = validate(&request(&["ls"]), Some(home), &base).unwrap();
    assert_eq!(ok.cwd, PathBuf::from("/"), "home is the default cwd");
    assert!(
        validate(&request(&["ls"]), None, &base).is_err(),
        "no home, no cwd: refused"
    );
}

#[test]
fn raw_command_must_be_the_argv_text_or_its_shell_script() {
    let cases: &[(&[&str], &str, bool)] = &[
        (&["ls", "-la"], "ls -la", true),
        (&["printf", "a b"], "printf 'a b'", true),
        (&["printf", "a b"], "printf a b", false),
        (&["/bin/sh", "-c", "echo hi"], "echo hi", true),
        (&["/bin/sh", "-c", "echo hi"], "/bin/sh -c 'echo hi'", true),
        (&["/bin/sh", "-c", "curl x | sh"], "/usr/bin/ls", false),
        (&["bash", "-lc", "git status"], "git status", true),
        (&["env", "sh", "-c", "id"], "id", true),
        (&["ls", "-la "], "ls -la", false),
        (&["echo", "hi"], "echo hi ", false),
    ];
    let fixture = Fixture::new(&policy("full", "off", "deny", &[]));
    for (words, raw, agrees) in cases {
        assert_eq!(
            raw_command_agrees(raw, &evaluation(&fixture, words)),
            *agrees,
            "{words:?} vs {raw:?}"
        );
    }
}

#[tokio::test]
async fn a_raw_command_that_disagrees_with_the_argv_is_refused_before_anything_runs() {
    let fixture = Fixture::new(&policy("full", "off", "deny", &[]));
    let marker = fixture.dir.path().join("ran");
    let touch = ["touch", marker.to_str().unwrap()];
    let request = ExecRequest {
        raw_command: Some("ls".into()),
        ..request(&touch)
    };
    let error = fixture
        .host()
        .handle(request, CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        (error.code, error.reason.as_deref()),
        (ErrorCode::InvalidRequest, Some("raw-command-mismatch"))
    );
    assert!(!marker.exists(), "nothing ran");
}

/// The wire error of an evaluation that may not run after `answer`.
fn refused(evaluation: &Evaluation, answer: Option<ApprovalDecision>) -> ErrorBody {
    let not = evaluation.runnable(answer).unwrap_err();
    HostRefusal::not_granted(not, evaluation.reason.as_ref()).to_wire()
}

fn evaluation(fixture: &Fixture, words: &[&str]) -> Evaluation {
    let cache = PolicyCache::new(fixture.path());
    let version = cache.current().unwrap();
    version
        .compiled("main", &approvals_ipc::policy::HostContext::from_process())
        .evaluate(&argv(words), Path::new("/"), &Default::default())
}

#[test]
fn denials_carry_openclaw_reason_codes() {
    let cases: &[(Value, &str, &str)] = &[
        (
            policy("deny", "off", "deny", &[]),
            "SYSTEM_RUN_DISABLED: security=deny",
            "security=deny",
        ),
        (
            policy("allowlist", "off", "deny", &[]),
            "SYSTEM_RUN_DENIED: allowlist-miss",
            "allowlist-miss",
        ),
        (
            json!({"version": 1, "defaults": {"security": "full"},
                   "agents": {"main": {"denylist": [{"pattern": real("id"), "reason": "no ids"}]}}}),
            "SYSTEM_RUN_DENIED: denylist",
            "denylist",
        ),
    ];
    for (policy, message, reason) in cases {
        let fixture = Fixture::new(policy);
        let error = refused(&evaluation(&fixture, &["id"]), None);
        assert_eq!(error.code, ErrorCode::Unavailable);
        assert!(error.message.starts_with(message), "{policy}: {error:?}");
        assert_eq!(error.reason.as_deref(), Some(*reason), "{policy}");
    }
}

#[test]
fn answers_and_their_absence_become_runs_or_refusals() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "deny", &[]));
    let asked = evaluation(&fixture, &["id"]);
    let cases: &[(Option<ApprovalDecision>, Result<Grant, &str>)] = &[
        (Some(ApprovalDecision::AllowOnce), Ok(Grant::AllowOnce)),
        (Some(ApprovalDecision::AllowAlways), Ok(Grant::AllowAlways)),
        (Some(ApprovalDecision::Deny), Err("user-denied")),
        (None, Err("approval-required")),
    ];
    for (answer, want) in cases {
        let got = asked
            .runnable(*answer)
            .map(|r| r.grant())
            .map_err(|_| refused(&asked, *answer).reason.unwrap_or_default());
        assert_eq!(
            got.as_ref().map_err(String::as_str),
            want.as_ref().map_err(|r| *r),
            "{answer:?}"
        );
    }

    // allow-always is not offered under `ask: always`: a person's
    // allow-always runs the command once, persisting nothing.
    let always = Fixture::new(&policy("allowlist", "always", "deny", &[]));
    let asked_always = evaluation(&always, &["id"]);
    let offered = &asked_always.allowed_decisions;
    assert!(
        !offered.contains(&ApprovalDecision::AllowAlways),
        "{offered:?}"
    );
    assert_eq!(
        asked_always
            .runnable(Some(ApprovalDecision::AllowAlways))
            .unwrap()
            .grant(),
        Grant::AllowOnce
    );

    let full_fallback = Fixture::new(&policy("full", "always", "full", &[]));
    assert_eq!(
        evaluation(&full_fallback, &["id"])
            .runnable(None)
            .unwrap()
            .grant(),
        Grant::Fallback
    );
}

#[test]
fn the_cache_rereads_a_changed_file_and_keeps_policies_across_usage_only_writes() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("ls")]));
    let cache = PolicyCache::new(fixture.path());
    let host = approvals_ipc::policy::HostContext::from_process();
    let first = cache.current().unwrap();
    let compiled = first.compiled("main", &host);
    assert!(
        Arc::ptr_eq(&first, &cache.current().unwrap()),
        "unchanged file: no re-read"
    );

    let pattern = real("ls");
    cache
        .store()
        .update(|file| {
            file.record_use("main", &pattern, "ls", Some(&pattern), 42);
            Ok(())
        })
        .unwrap();
    let second = cache.current().unwrap();
    assert!(!Arc::ptr_eq(&first, &second), "a changed file is re-read");
    assert!(
        Arc::ptr_eq(&compiled, &second.compiled("main", &host)),
        "a usage-only change keeps the compiled policy"
    );

    fixture.write(&policy("deny", "off", "deny", &[]));
    let third = cache.current().unwrap();
    let recompiled = third.compiled("main", &host);
    assert!(!Arc::ptr_eq(&compiled, &recompiled));
    assert_eq!(
        recompiled.policy().security,
        approvals_ipc::approvals::Security::Deny
    );
}

#[test]
fn the_cache_fails_closed_on_a_malformed_file_and_denies_without_one() {
    let fixture = Fixture::new(&policy("full", "off", "deny", &[]));
    let cache = PolicyCache::new(fixture.path());
    assert!(cache.current().is_ok());
    std::fs::write(fixture.path(), "{\"version\": 1,\n \"defaults\": nope}").unwrap();
    let Unusable(error) = cache.current().unwrap_err();
    assert!(
        error.contains(&fixture.path().display().to_string()),
        "{error}"
    );
    assert!(error.contains("line 2"), "{error}");

    std::fs::remove_file(fixture.path()).unwrap();
    let missing = cache.current().unwrap();
    let host = approvals_ipc::policy::HostContext::from_process();
    assert_eq!(
        missing.compiled("main", &host).policy().security,
        approvals_ipc::approvals::Security::Deny
    );
}

#[test]
fn agent_ids_no_policy_file_could_hold_are_refused() {
    for bad in ["a\nb", &"x".repeat(200)] {
        let request = ExecRequest {
            agent_id: Some(bad.to_owned()),
            ..request(&["ls"])
        };
        assert_eq!(
            agent_of(&request).unwrap_err().to_wire().code,
            ErrorCode::InvalidRequest
        );
    }
    assert_eq!(agent_of(&request(&["ls"])).unwrap(), "main");
}

/// Answers every ask with a fixed decision and counts the asks.
struct Fixed(Option<ApprovalDecision>, Mutex<usize>);

impl Approvals for Fixed {
    fn ask<'a>(&'a self, _: &'a Evaluation, _: &'a ExecRequest, _: Duration) -> AskFuture<'a> {
        *self.1.lock().unwrap() += 1;
        Box::pin(std::future::ready(match self.0 {
            Some(decision) => Asked::Answered(Answer {
                decision,
                approver: "test".to_owned(),
                approval_id: Some("0192-test-approval".to_owned()),
            }),
            None => Asked::Unanswered(NobodyAnswered::TimedOut),
        }))
    }
}

#[tokio::test]
async fn a_plugged_in_approver_decides_asks_and_allow_always_is_saved_first() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "deny", &[]));
    let approver = Arc::new(Fixed(Some(ApprovalDecision::AllowAlways), Mutex::new(0)));
    let host = fixture.host().with_approvals(approver.clone());
    let payload = host
        .handle(
            request(&["/usr/bin/printf", "hi"]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        (payload.stdout.as_str(), payload.decision.as_deref()),
        ("hi", Some("allow-always"))
    );
    assert_eq!(*approver.1.lock().unwrap(), 1);
    assert_eq!(
        fixture.file()["agents"]["main"]["allowlist"][0]["pattern"],
        real("printf").as_str()
    );

    // Next time the policy allows it without asking.
    let again = host
        .handle(
            request(&["/usr/bin/printf", "hi"]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(again.decision.as_deref(), Some("allow"));
    assert_eq!(*approver.1.lock().unwrap(), 1);
}

#[tokio::test]
async fn an_approval_decision_sent_by_the_client_is_not_trusted() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "deny", &[]));
    let marker = fixture.dir.path().join("ran");
    let mut request = request(&["/usr/bin/touch", &marker.to_string_lossy()]);
    request.approval_decision = Some(Decision::AllowOnce);
    request.approval_source = Some("ask-fallback".into());
    let error = fixture
        .host()
        .handle(request, CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.reason.as_deref(), Some("approval-required"));
    assert!(!marker.exists());
}

#[tokio::test]
async fn cancelling_a_running_request_kills_it_promptly() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("sleep")]));
    let host = fixture.host();
    let cancelled = CancellationToken::new();
    let trigger = cancelled.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        trigger.cancel();
    });
    let begun = Instant::now();
    let error = host
        .handle(request(&["sleep", "30"]), cancelled)
        .await
        .unwrap_err();
    assert_eq!(error.reason.as_deref(), Some("cancelled"));
    assert!(begun.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn the_socket_token_is_masked_in_output() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("printf")]));
    let payload = fixture
        .host()
        .handle(
            request(&["printf", "token=unit-test-token-123456"]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert!(
        !payload.stdout.contains("unit-test-token-123456"),
        "{}",
        payload.stdout
    );
}

#[test]
fn the_legacy_prompt_is_allowed_only_by_the_policy_alone() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "full", &[&real("ls")]));
    let host = fixture.host();
    let sh = |text: &str| argv(&["/bin/sh", "-c", text]);
    assert!(host.allowed_by_policy(None, &sh("ls -la"), Some("/")));
    assert!(!host.allowed_by_policy(None, &sh("ls $(id)"), Some("/")));
    assert!(!host.allowed_by_policy(None, &sh("id"), Some("/")));
    assert!(!host.allowed_by_policy(None, &sh("ls"), Some("/nonexistent")));
}

#[tokio::test]
async fn every_allowlist_match_records_its_use_the_first_before_running() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("printf")]));
    let host = fixture.host();
    let entry = |f: &Fixture| f.file()["agents"]["main"]["allowlist"][0].clone();
    host.handle(request(&["printf", "one"]), CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        entry(&fixture)["lastUsedCommand"],
        "printf one",
        "written before the reply"
    );
    // A second use within the interval is batched, not lost.
    host.handle(request(&["printf", "two"]), CancellationToken::new())
        .await
        .unwrap();
    let deadline = Instant::now() + USE_FLUSH_DELAY * 5;
    while entry(&fixture)["lastUsedCommand"] != "printf two" {
        assert!(
            Instant::now() < deadline,
            "the second use was never recorded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(entry(&fixture)["lastResolvedPath"], real("printf").as_str());
}

#[tokio::test]
async fn last_use_is_not_written_on_an_entry_a_person_approved_past() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "deny", &[&real("printf")]));
    let approver = Arc::new(Fixed(Some(ApprovalDecision::AllowOnce), Mutex::new(0)));
    let host = fixture.host().with_approvals(approver.clone());
    let entry = |f: &Fixture| f.file()["agents"]["main"]["allowlist"][0].clone();
    // printf is allowlisted, id is not: a person approved the whole chain.
    host.handle(
        request(&["/bin/sh", "-c", "printf approved-past && id"]),
        CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(*approver.1.lock().unwrap(), 1, "the chain was asked about");
    let printf = entry(&fixture);
    assert!(
        printf.get("lastUsedCommand").is_none() && printf.get("lastUsedAt").is_none(),
        "the printf entry did not allow that command: {printf}"
    );
    // The entry alone allowing a command still records it.
    host.handle(request(&["printf", "alone"]), CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(entry(&fixture)["lastUsedCommand"], "printf alone");

    // Under `ask: always` the entry matches every segment, but a person
    // allowed the command: still not the entry's use.
    let always = Fixture::new(&policy("allowlist", "always", "deny", &[&real("printf")]));
    let host = always.host().with_approvals(approver.clone());
    host.handle(request(&["printf", "asked"]), CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(*approver.1.lock().unwrap(), 2, "ask: always asked");
    assert!(
        entry(&always).get("lastUsedCommand").is_none(),
        "{}",
        entry(&always)
    );
}

#[tokio::test]
async fn every_decision_and_outcome_is_audited_with_the_token_masked() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("printf")]));
    let host = fixture.host();
    host.handle(
        request(&["printf", "unit-test-token-123456"]),
        CancellationToken::new(),
    )
    .await
    .unwrap();
    host.handle(request(&["id"]), CancellationToken::new())
        .await
        .unwrap_err();
    host.flush_audit().await;
    let log = fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("unit-test-token-123456"), "{text}");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let events: Vec<(&str, Option<&str>, Option<&str>)> = records
        .iter()
        .map(|r| {
            (
                r["event"].as_str().unwrap(),
                r["decision"].as_str(),
                r["decidedBy"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        events,
        vec![
            ("decision", Some("allow"), Some("allowlist")),
            ("exec.started", None, None),
            ("exec.finished", None, None),
            ("decision", Some("deny"), Some("policy")),
            ("exec.denied", Some("deny"), None),
        ]
    );
    assert_eq!(records[2]["exitCode"], 0);
    assert_eq!(
        records[0]["runId"], records[2]["runId"],
        "one run id per request"
    );
    crate::audit::verify(&log).unwrap();
}

#[tokio::test]
async fn an_approved_run_takes_the_approval_id_as_its_run_id() {
    let fixture = Fixture::new(&policy("allowlist", "on-miss", "deny", &[]));
    let approver = Arc::new(Fixed(Some(ApprovalDecision::AllowOnce), Mutex::new(0)));
    let payload = fixture
        .host()
        .with_approvals(approver)
        .handle(
            request(&["/usr/bin/printf", "hi"]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(payload.run_id.as_deref(), Some("0192-test-approval"));
    let text =
        std::fs::read_to_string(fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME)).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["decidedBy"], "human:test");
    assert_eq!(first["runId"], "0192-test-approval");
}

#[test]
fn an_unopenable_audit_log_refuses_every_run() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("printf")]));
    std::os::unix::fs::symlink(
        "/dev/null",
        fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME),
    )
    .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let error = runtime
        .block_on(
            fixture
                .host()
                .handle(request(&["printf", "x"]), CancellationToken::new()),
        )
        .unwrap_err();
    assert_eq!(error.reason.as_deref(), Some("audit-write-failed"));
}

#[tokio::test]
async fn the_working_directory_is_resolved_once_so_a_retargeted_link_changes_nothing() {
    let fixture = Fixture::new(&policy("allowlist", "off", "deny", &[&real("pwd")]));
    let real_dir = fixture.dir.path().join("real");
    std::fs::create_dir(&real_dir).unwrap();
    let link = fixture.dir.path().join("link");
    std::os::unix::fs::symlink(&real_dir, &link).unwrap();
    let request = ExecRequest {
        cwd: Some(link.to_string_lossy().into_owned()),
        ..request(&["pwd", "-P"])
    };
    let validated = validate(&request, None, &ChildEnv::exactly(Vec::new())).unwrap();
    assert_eq!(validated.cwd, std::fs::canonicalize(&real_dir).unwrap());
    let payload = fixture
        .host()
        .handle(request, CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        payload.stdout.trim(),
        std::fs::canonicalize(&real_dir).unwrap().to_string_lossy()
    );
}

#[tokio::test]
async fn a_private_key_header_does_not_hide_the_rest_of_the_command_in_the_audit() {
    // Issue 9, hole 9: the audit must show what ran; only the key's own
    // bytes are masked.
    let fixture = Fixture::new(&policy("full", "off", "deny", &[]));
    let key_line = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
    let script = format!(
        "printf '%s\\n' '-----BEGIN PRIVATE KEY-----' {key_line} '-----END PRIVATE KEY-----'; echo after-the-header-xyz"
    );
    fixture
        .host()
        .handle(
            request(&["/bin/sh", "-c", &script]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    fixture.host().flush_audit().await;
    let text =
        std::fs::read_to_string(fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME)).unwrap();
    assert!(!text.contains(key_line), "the key line is masked: {text}");
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "decision");
    let command_text = first["commandText"].as_str().unwrap();
    assert!(
        command_text.contains(
            "[REDACTED:private-key] '\\''-----END PRIVATE KEY-----'\\''; echo after-the-header-xyz"
        ),
        "{command_text}"
    );
    let logged_script = first["argv"][2].as_str().unwrap();
    assert_eq!(
        logged_script,
        script.replace(key_line, "[REDACTED:private-key]")
    );

    // A header alone, planted to blank what follows it: nothing is masked.
    let planted = "echo '-----BEGIN PRIVATE KEY-----'; echo planted-xyz; true";
    fixture
        .host()
        .handle(
            request(&["/bin/sh", "-c", planted]),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    fixture.host().flush_audit().await;
    let text =
        std::fs::read_to_string(fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME)).unwrap();
    let decisions: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["event"] == "decision")
        .collect();
    assert_eq!(decisions.len(), 2);
    assert_eq!(decisions[1]["argv"][2], planted);
    crate::audit::verify(&fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME)).unwrap();
}

#[test]
fn the_cache_refuses_every_request_once_its_directory_is_swapped_regression_issue_9_hole_7() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let plant = |security: &str| {
        std::fs::create_dir(&state).unwrap();
        let file = state.join("exec-approvals.json");
        let text = serde_json::to_vec(&policy(security, "off", "deny", &[])).unwrap();
        std::fs::write(file, text).unwrap();
    };
    plant("deny");
    let cache = PolicyCache::new(state.join("exec-approvals.json"));
    let first = cache.current().unwrap();
    assert_eq!(
        first.file.defaults.as_ref().and_then(|d| d.security),
        Some(approvals_ipc::approvals::Security::Deny)
    );
    std::fs::rename(&state, tmp.path().join("moved")).unwrap();
    plant("full");
    for _ in 0..2 {
        let Unusable(error) = cache.current().unwrap_err();
        assert!(error.contains("was moved or replaced"), "{error}");
        assert!(error.contains(&state.display().to_string()), "{error}");
    }
}

#[tokio::test]
async fn refusals_before_the_evaluation_are_audited_too() {
    let fixture = Fixture::new(&policy("full", "off", "deny", &[]));
    let host = fixture.host();
    let refused = [
        (
            ExecRequest {
                cwd: Some("/nonexistent-dir-xyz".into()),
                ..request(&["ls"])
            },
            "cwd-unavailable",
        ),
        (
            ExecRequest {
                env: Some(BTreeMap::from([(
                    "LD_PRELOAD".to_owned(),
                    "/tmp/x.so".to_owned(),
                )])),
                ..request(&["ls"])
            },
            "env-override-rejected",
        ),
        (
            ExecRequest {
                raw_command: Some("ls".into()),
                ..request(&["id"])
            },
            "raw-command-mismatch",
        ),
    ];
    for (request, _) in &refused {
        host.handle(request.clone(), CancellationToken::new())
            .await
            .unwrap_err();
    }
    host.flush_audit().await;
    let log = fixture.dir.path().join(crate::audit::AUDIT_FILE_NAME);
    let text = std::fs::read_to_string(&log).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The argv is in the decision record only; `exec.denied` joins it by
    // run id (logged once, not twice).
    let denied: Vec<(&str, &str)> = records
        .iter()
        .filter(|r| r["event"] == "exec.denied")
        .map(|r| {
            assert!(r.get("argv").is_none(), "argv logged twice: {r}");
            let decision = records
                .iter()
                .find(|d| d["event"] == "decision" && d["runId"] == r["runId"])
                .unwrap();
            (
                r["reason"].as_str().unwrap_or(""),
                decision["argv"][0].as_str().unwrap_or(""),
            )
        })
        .collect();
    let want: Vec<(&str, &str)> = refused
        .iter()
        .map(|(request, reason)| (*reason, request.command[0].as_str()))
        .collect();
    assert_eq!(denied, want, "{text}");
    let decisions = records
        .iter()
        .filter(|r| r["event"] == "decision" && r["decision"] == "deny")
        .count();
    assert_eq!(decisions, refused.len(), "{text}");
    crate::audit::verify(&log).unwrap();
}

fn with_env(mut request: ExecRequest, pairs: &[(&str, &str)]) -> ExecRequest {
    request.env = Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    );
    request
}

#[tokio::test]
async fn an_override_that_is_not_inert_is_never_auto_allowed_and_an_inert_one_runs() {
    // Issue 11, class 6: overrides that pass the blocklist are decided, not
    // just filtered.
    let fixture = Fixture::new(&policy(
        "allowlist",
        "on-miss",
        "allowlist",
        &[&real("touch")],
    ));
    let host = fixture.host();
    let marker = fixture.dir.path().join("ran");
    // Run in the fixture's directory: touch writing outside the request's
    // directory would be asked for that reason alone.
    let touch = || ExecRequest {
        cwd: Some(fixture.dir.path().to_string_lossy().into_owned()),
        ..request(&["touch", "ran"])
    };
    let error = host
        .handle(
            with_env(touch(), &[("GIT_AUTHOR_NAME", "x")]),
            CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(error.reason.as_deref(), Some("approval-required"));
    assert!(!marker.exists());
    host.handle(
        with_env(touch(), &[("NODE_ENV", "test"), ("RUST_BACKTRACE", "1")]),
        CancellationToken::new(),
    )
    .await
    .unwrap();
    assert!(marker.exists());
}

#[tokio::test]
async fn an_override_that_is_not_inert_is_not_auto_allowed_under_full_with_a_denylist() {
    let mut file = policy("full", "on-miss", "full", &[]);
    file["defaults"]["denylist"] = json!([{"pattern": "/nonexistent/tool"}]);
    let fixture = Fixture::new(&file);
    let marker = fixture.dir.path().join("ran");
    let error = fixture
        .host()
        .handle(
            with_env(
                request(&["touch", &marker.to_string_lossy()]),
                &[("LC_ALL", "/tmp/evil")],
            ),
            CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(error.reason.as_deref(), Some("approval-required"));
    assert!(!marker.exists());
}

#[tokio::test]
async fn tar_options_to_command_and_other_hook_overrides_are_refused_by_the_host() {
    let fixture = Fixture::new(&policy("full", "off", "full", &[]));
    let host = fixture.host();
    let marker = fixture.dir.path().join("ran");
    for (key, value) in [
        ("TAR_OPTIONS", "--to-command=sh"),
        ("GOFLAGS", "-toolexec=/tmp/x"),
        ("GIT_COMMON_DIR", "/tmp/evil"),
        ("MAKEFILES", "/tmp/evil.mk"),
        ("LUA_INIT", "os.execute('id')"),
        ("CARGO_HOME", "/tmp/evil"),
        ("OPENSSL_CONF", "/tmp/evil.cnf"),
    ] {
        let error = host
            .handle(
                with_env(
                    request(&["touch", &marker.to_string_lossy()]),
                    &[(key, value)],
                ),
                CancellationToken::new(),
            )
            .await
            .unwrap_err();
        assert_eq!(
            error.reason.as_deref(),
            Some("env-override-rejected"),
            "{key}"
        );
        assert!(error.message.contains(key), "{}", error.message);
        assert!(!marker.exists());
    }
}
