//! `ui-bridge serve` end to end, the exec host half: the real binary, a
//! real approvals file in a private home, and `approvals_ipc::ipc::Client`
//! as the node side.
//!
//! Each test attacks one property of DESIGN.md sections 3 and 8: what the
//! policy refuses never runs, what runs is exactly what was checked, the
//! environment carries no hooks, timeouts kill whole process groups, and
//! output beyond the cap is dropped while the command keeps running.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Client, ErrorBody, ErrorCode, ExecPayload, ExecRequest, ExecResponse};
use approvals_tests::{Bridge, TestHome, real_path, unique};
use serde_json::{Value, json};

fn policy(security: &str, ask: &str, fallback: &str, allow: &[&str]) -> Value {
    // These tests run `env` to see the child's environment. Printing it is
    // asked by its guard (`secrets.environment`: it holds tokens), so its
    // entry turns the argument guards off, as a user who wants a bare
    // `env` allowed would.
    let allowlist: Vec<Value> = allow
        .iter()
        .map(|p| {
            if p.ends_with("/env") {
                json!({"pattern": p, "argGuards": false})
            } else {
                json!({"pattern": p})
            }
        })
        .collect();
    json!({
        "version": 1,
        "defaults": {"security": security, "ask": ask, "askFallback": fallback},
        "agents": {"main": {"allowlist": allowlist}}
    })
}

fn request(argv: &[&str]) -> ExecRequest {
    ExecRequest {
        command: argv.iter().map(|a| (*a).to_owned()).collect(),
        ..ExecRequest::default()
    }
}

async fn exec(bridge: &Bridge, request: &ExecRequest) -> ExecResponse {
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect to the bridge");
    client.exec(request).await.expect("a reply from the bridge")
}

async fn completed(bridge: &Bridge, request: &ExecRequest) -> ExecPayload {
    match exec(bridge, request).await {
        ExecResponse::Completed(payload) => payload,
        ExecResponse::Refused(error) => panic!(
            "{:?} was refused: {error:?}\n{}",
            request.command,
            bridge.log_text()
        ),
    }
}

async fn refused(bridge: &Bridge, request: &ExecRequest) -> ErrorBody {
    match exec(bridge, request).await {
        ExecResponse::Refused(error) => error,
        ExecResponse::Completed(payload) => {
            panic!("{:?} ran: {payload:?}", request.command)
        }
    }
}

fn started(home: &TestHome, policy: &Value) -> Bridge {
    home.write_approvals(policy);
    Bridge::start(home, &[])
}

#[tokio::test(flavor = "multi_thread")]
async fn allowlisted_commands_run_and_report_output_and_exit_status() {
    let home = TestHome::new();
    let bridge = started(
        &home,
        &policy(
            "allowlist",
            "off",
            "deny",
            &[&real_path("printf"), &real_path("ls")],
        ),
    );
    let mut printf = request(&["printf", "%s|%s\\n", "a b", "c"]);
    printf.run_id = Some("run-1".into());
    let payload = completed(&bridge, &printf).await;
    assert_eq!(
        payload,
        ExecPayload {
            exit_code: Some(0),
            timed_out: false,
            success: true,
            stdout: "a b|c\n".into(),
            stderr: String::new(),
            error: None,
            truncated: false,
            run_id: Some("run-1".into()),
            decision: Some("allow".into()),
        }
    );

    let missing = completed(&bridge, &request(&["/usr/bin/ls", "/nonexistent-dir"])).await;
    assert_eq!(missing.exit_code, Some(2), "{missing:?}");
    assert!(!missing.success);
    assert!(missing.stdout.is_empty());
    assert!(missing.stderr.contains("/nonexistent-dir"), "{missing:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn output_beyond_the_cap_is_dropped_while_the_command_keeps_running() {
    let home = TestHome::new();
    let marker = home.path().join(format!("after-write-{}", unique()));
    let bridge = started(
        &home,
        &policy(
            "allowlist",
            "off",
            "deny",
            &[&real_path("head"), &real_path("touch")],
        ),
    );
    let big = completed(&bridge, &request(&["head", "-c", "300000", "/dev/zero"])).await;
    assert!(big.truncated, "300 000 bytes must exceed the 200 000 cap");
    assert_eq!(big.stdout.len(), 200_000);
    assert_eq!(big.exit_code, Some(0));

    let script = format!("head -c 300000 /dev/zero; touch {}", marker.display());
    let then = completed(&bridge, &request(&["/bin/sh", "-c", &script])).await;
    assert!(then.truncated);
    assert_eq!(then.exit_code, Some(0), "{}", then.stderr);
    assert!(marker.exists(), "the command must run on after the cap");
}

#[tokio::test(flavor = "multi_thread")]
async fn commands_outside_the_policy_are_refused_with_openclaw_reasons() {
    let home = TestHome::new();
    let marker = home.path().join("ran");
    let touch = real_path("touch");
    let marker_text = marker.to_string_lossy().into_owned();
    let argv = ["touch", marker_text.as_str()];
    let cases: &[(Value, ErrorCode, &str, &str)] = &[
        (
            policy("allowlist", "off", "deny", &[&real_path("ls")]),
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DENIED: allowlist-miss",
            "allowlist-miss",
        ),
        (
            policy("allowlist", "on-miss", "deny", &[&real_path("ls")]),
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DENIED: approval required",
            "approval-required",
        ),
        (
            policy("deny", "off", "full", &[&touch]),
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DISABLED: security=deny",
            "security=deny",
        ),
        (
            // `security` caps the fallback: a full fallback under
            // allowlist still needs the allowlist.
            policy("allowlist", "on-miss", "full", &[&real_path("ls")]),
            ErrorCode::Unavailable,
            "SYSTEM_RUN_DENIED: approval required",
            "approval-required",
        ),
    ];
    for (policy, code, message, reason) in cases {
        home.write_approvals(policy);
        let bridge = Bridge::start(&home, &[]);
        let mut request = request(&argv);
        // A client cannot approve itself (class 22).
        request.approval_decision = Some(approvals_ipc::ipc::Decision::AllowAlways);
        let error = refused(&bridge, &request).await;
        assert_eq!(error.code, *code, "{policy}");
        assert!(error.message.starts_with(message), "{policy}: {error:?}");
        assert_eq!(error.reason.as_deref(), Some(*reason), "{policy}");
        assert!(!marker.exists(), "{policy}: the refused command ran");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_command_a_missing_cwd_and_a_lying_raw_command_are_refused() {
    let home = TestHome::new();
    let bridge = started(&home, &policy("full", "off", "deny", &[]));
    let empty = refused(&bridge, &request(&[])).await;
    assert_eq!(
        (empty.code, empty.message.as_str()),
        (ErrorCode::InvalidRequest, "command required")
    );

    let mut gone = request(&["/usr/bin/true"]);
    gone.cwd = Some("/nonexistent/cwd".into());
    let error = refused(&bridge, &gone).await;
    assert_eq!(
        (error.code, error.reason.as_deref()),
        (ErrorCode::Unavailable, Some("cwd-unavailable"))
    );

    // Class 3: the text shown must be the argv that runs.
    let mut lying = request(&["/bin/sh", "-c", "echo pwned"]);
    lying.raw_command = Some("/usr/bin/ls".into());
    let error = refused(&bridge, &lying).await;
    assert_eq!(
        (error.code, error.message.as_str()),
        (
            ErrorCode::InvalidRequest,
            "rawCommand does not match command"
        )
    );

    let mut honest = request(&["/bin/sh", "-c", "echo ok"]);
    honest.raw_command = Some("echo ok".into());
    assert_eq!(completed(&bridge, &honest).await.stdout, "ok\n");
    let mut quoted = request(&["printf", "a b"]);
    quoted.raw_command = Some("printf 'a b'".into());
    assert_eq!(completed(&bridge, &quoted).await.stdout, "a b");
}

#[tokio::test(flavor = "multi_thread")]
async fn env_overrides_of_hooks_and_path_are_refused_and_host_hooks_are_stripped() {
    let (_home, bridge) = env_bridge(&[
        ("BASH_ENV", "/tmp/x"),
        ("NODE_OPTIONS", "--require /tmp/evil.js"),
    ]);

    for key in ["LD_PRELOAD", "PATH", "path", "NODE_OPTIONS"] {
        let mut request = request(&["env"]);
        request.env = Some(BTreeMap::from([(key.to_owned(), "/tmp/x".to_owned())]));
        let error = refused(&bridge, &request).await;
        assert_eq!(error.code, ErrorCode::Unavailable, "{key}");
        assert!(
            error
                .message
                .starts_with("SYSTEM_RUN_DENIED: environment override rejected"),
            "{key}: {error:?}"
        );
    }

    // An override that passes the blocklist is still decided: one that is
    // not inert is not auto-allowed (issue 11, class 6).
    let mut not_inert = request(&["env"]);
    not_inert.env = Some(BTreeMap::from([("GREETING".to_owned(), "hi".to_owned())]));
    let error = refused(&bridge, &not_inert).await;
    assert_eq!(
        error.reason.as_deref(),
        Some("approval-required"),
        "{error:?}"
    );

    // With and without overrides: a bridge whose own environment holds
    // blocked variables must not let its children inherit it.
    let mut with_override = request(&["env"]);
    with_override.env = Some(BTreeMap::from([("NODE_ENV".to_owned(), "test".to_owned())]));
    for (request, set) in [(with_override, true), (request(&["env"]), false)] {
        let payload = completed(&bridge, &request).await;
        let vars: Vec<&str> = payload.stdout.lines().collect();
        assert_eq!(vars.contains(&"NODE_ENV=test"), set, "{vars:?}");
        assert_kept_and_stripped(&vars, &["BASH_ENV", "NODE_OPTIONS"]);
    }
}

/// A bridge allowlisting `env`, started with `extra` and
/// `BRIDGE_PLAIN_VAR=kept` added to the test's environment.
fn env_bridge(extra: &[(&str, &str)]) -> (TestHome, Bridge) {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "off", "deny", &[&real_path("env")]));
    let mut cmd = home.command("ui-bridge");
    cmd.envs(extra.iter().copied())
        .env("BRIDGE_PLAIN_VAR", "kept");
    let bridge = Bridge::spawn(cmd, &home, &[]);
    (home, bridge)
}

/// `vars` (`KEY=value` lines) keep the bridge's plain variable and lack
/// every key of `stripped`.
fn assert_kept_and_stripped<S: AsRef<str> + std::fmt::Debug>(vars: &[S], stripped: &[&str]) {
    assert!(
        vars.iter().any(|v| v.as_ref() == "BRIDGE_PLAIN_VAR=kept"),
        "{vars:?}"
    );
    for key in stripped {
        let prefix = format!("{key}=");
        assert!(
            !vars.iter().any(|v| v.as_ref().starts_with(&prefix)),
            "{key} leaked: {vars:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bridge_restarts_itself_without_the_variables_children_must_not_get() {
    let (_home, bridge) = env_bridge(&[("SHELL", "/bin/sh"), ("LD_PRELOAD", "")]);

    // Same process (the pid the test started), new environment.
    let environ = std::fs::read(format!("/proc/{}/environ", bridge.pid())).expect("environ");
    let own: Vec<String> = environ
        .split(|b| *b == 0)
        .filter(|v| !v.is_empty())
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect();
    assert_kept_and_stripped(&own, &["SHELL", "LD_PRELOAD"]);
    let log = bridge.log_text();
    let dropped = log
        .lines()
        .find_map(|line| line.split_once("dropped=").map(|(_, list)| list))
        .unwrap_or_else(|| panic!("no restart logged: {log}"));
    let dropped: Vec<&str> = dropped.split(", ").collect();
    assert!(
        dropped.contains(&"SHELL") && dropped.contains(&"LD_PRELOAD"),
        "{log}"
    );

    // And its children, inheriting that environment, lack them too.
    let payload = completed(&bridge, &request(&["env"])).await;
    let vars: Vec<&str> = payload.stdout.lines().collect();
    assert_kept_and_stripped(&vars, &["SHELL", "LD_PRELOAD"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bridge_with_a_clean_environment_passes_exactly_that_environment_on() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "off", "deny", &[&real_path("env")]));
    let mut cmd = home.command("ui-bridge");
    let own = [
        ("HOME".to_owned(), home.path().display().to_string()),
        (
            "CLAWDBOT_STATE_DIR".to_owned(),
            home.state_dir().display().to_string(),
        ),
        ("PATH".to_owned(), "/usr/bin:/bin".to_owned()),
        ("BRIDGE_PLAIN_VAR".to_owned(), "kept".to_owned()),
    ];
    cmd.env_clear().envs(own.iter().cloned());
    let bridge = Bridge::spawn(cmd, &home, &[]);

    let payload = completed(&bridge, &request(&["env"])).await;
    let mut vars: Vec<&str> = payload.stdout.lines().collect();
    vars.sort_unstable();
    let mut expected: Vec<String> = own.iter().map(|(k, v)| format!("{k}={v}")).collect();
    expected.sort_unstable();
    assert_eq!(vars, expected);

    // An inert prefix adds to the inherited environment, nothing more.
    let mut prefixed = request(&["/bin/sh", "-c", "LC_ALL=C env"]);
    prefixed.raw_command = Some("LC_ALL=C env".into());
    let payload = completed(&bridge, &prefixed).await;
    let mut vars: Vec<&str> = payload.stdout.lines().collect();
    vars.sort_unstable();
    expected.push("LC_ALL=C".to_owned());
    expected.sort_unstable();
    assert_eq!(vars, expected);
}

#[tokio::test(flavor = "multi_thread")]
async fn what_runs_is_what_the_shell_would_have_run() {
    let home = TestHome::new();
    let allow: Vec<String> = ["ls", "echo", "printf", "wc", "tr"]
        .iter()
        .map(|n| real_path(n))
        .collect();
    let allow: Vec<&str> = allow.iter().map(String::as_str).collect();
    let bridge = started(&home, &policy("allowlist", "off", "deny", &allow));
    let scripts = [
        "printf \"a b\\n\" | tr a-z A-Z && echo done; ls /nonexistent || echo fallback",
        "echo one; echo two | wc -l",
        "ls /nonexistent && echo never",
        "printf 'x\\ny\\n' | tr -d y | wc -c",
    ];
    for script in scripts {
        let ours = completed(&bridge, &request(&["/bin/sh", "-c", script])).await;
        assert_eq!(ours.decision.as_deref(), Some("allow"), "{script}");
        let theirs = std::process::Command::new("/bin/sh")
            .args(["-c", script])
            .current_dir(home.path())
            .output()
            .expect("run /bin/sh");
        assert_eq!(
            (ours.stdout.as_str(), ours.exit_code),
            (
                String::from_utf8_lossy(&theirs.stdout).as_ref(),
                theirs.status.code()
            ),
            "{script}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_script_the_analysis_does_not_understand_is_refused_and_nothing_runs() {
    let home = TestHome::new();
    let marker = home.path().join("substituted");
    let allow = [real_path("echo"), real_path("touch"), real_path("id")];
    let allow: Vec<&str> = allow.iter().map(String::as_str).collect();
    let bridge = started(&home, &policy("allowlist", "on-miss", "deny", &allow));
    for script in [
        format!("echo \"$(touch {})\"", marker.display()),
        format!("echo `touch {}`", marker.display()),
        format!("touch {} &", marker.display()),
        format!("eval 'touch {}'", marker.display()),
    ] {
        let error = refused(&bridge, &request(&["/bin/sh", "-c", &script])).await;
        assert_eq!(
            error.reason.as_deref(),
            Some("approval-required"),
            "{script}"
        );
        assert!(!marker.exists(), "{script} ran");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_timed_out_command_is_killed_with_its_children() {
    let home = TestHome::new();
    let bridge = started(
        &home,
        &policy("allowlist", "off", "deny", &[&real_path("sleep")]),
    );
    let mut sleep = request(&["sleep", "30"]);
    sleep.timeout_ms = Some(300);
    let begun = Instant::now();
    let payload = completed(&bridge, &sleep).await;
    assert!(payload.timed_out, "{payload:?}");
    assert!(!payload.success);
    assert!(begun.elapsed() < Duration::from_secs(10));

    // A real shell (security full) that backgrounds a child: the whole
    // process group must die.
    home.write_approvals(&policy("full", "off", "deny", &[]));
    let marker = format!("31.{}", unique().replace('-', ""));
    let script = format!("sleep {marker} & sleep {marker}");
    let mut shell = request(&["/bin/sh", "-c", &script]);
    shell.timeout_ms = Some(300);
    let begun = Instant::now();
    let payload = completed(&bridge, &shell).await;
    assert!(payload.timed_out, "{payload:?}");
    assert!(begun.elapsed() < Duration::from_secs(10));
    assert_no_process_with(&marker);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_malformed_approvals_file_refuses_every_request_and_is_left_untouched() {
    let home = TestHome::new();
    let bridge = started(&home, &policy("full", "off", "deny", &[]));
    assert!(
        completed(&bridge, &request(&["/usr/bin/true"]))
            .await
            .success
    );

    let token = bridge.token.clone();
    let broken = format!(
        "{{\"version\": 1, \"socket\": {{\"token\": \"{token}\"}},\n \"defaults\": {{\"security\": \"full\",,}}}}\n"
    );
    std::fs::write(home.approvals(), &broken).expect("break the file");
    for argv in [&["/usr/bin/true"][..], &["/bin/sh", "-c", "echo hi"]] {
        let error = refused(&bridge, &request(argv)).await;
        assert_eq!(error.code, ErrorCode::Unavailable);
        assert!(
            error
                .message
                .starts_with("SYSTEM_RUN_DENIED: approvals file unusable: cannot parse"),
            "{error:?}"
        );
        assert!(
            error
                .message
                .contains(&home.approvals().display().to_string())
                && error.message.contains("line 2"),
            "the message must name the file and line: {error:?}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(home.approvals()).expect("read back"),
        broken
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn allowlist_use_is_recorded_before_the_command_runs() {
    let home = TestHome::new();
    let printf = real_path("printf");
    let bridge = started(&home, &policy("allowlist", "off", "deny", &[&printf]));
    completed(&bridge, &request(&["printf", "hi"])).await;
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(home.approvals()).expect("read"))
            .expect("json");
    let entry = &file["agents"]["main"]["allowlist"][0];
    assert_eq!(entry["lastUsedCommand"], "printf hi");
    assert_eq!(entry["lastResolvedPath"], printf.as_str());
    assert!(entry["lastUsedAt"].as_u64().is_some_and(|t| t > 0));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_state_write_refuses_the_run() {
    let home = TestHome::new();
    let marker = home.path().join("ran");
    let bridge = started(
        &home,
        &policy("allowlist", "off", "deny", &[&real_path("touch")]),
    );
    // A directory where the lock file must go makes every write fail.
    let lock = home.state_dir().join("exec-approvals.json.lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir(&lock).expect("block the lock file");
    let error = refused(&bridge, &request(&["touch", &marker.to_string_lossy()])).await;
    assert_eq!(error.reason.as_deref(), Some("approval-state-write-failed"));
    assert!(!marker.exists());
}

/// Fails when a process whose command line contains `marker` still runs.
fn assert_no_process_with(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let alive: Vec<String> = std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(marker) && !c.contains("-c"))
            .collect();
        if alive.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "still running: {alive:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
