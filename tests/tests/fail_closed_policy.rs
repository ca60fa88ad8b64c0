//! Issue 9, holes 1-4, end to end: the denylist, risk, `argPattern` and
//! `commandPattern` hold whatever the shell analysis makes of a command.
//! The real binaries (`node-host explain`, `node-host run`, `ui-bridge
//! serve`, `ui-bridge approvals list`, the audit log) and real programs.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

const ZWSP: &str = "\u{200B}";

fn decision(home: &TestHome, argv: &[&str]) -> (String, Value) {
    let mut args = vec!["--"];
    args.extend_from_slice(argv);
    let v = home.explain(&args);
    (v["decision"].as_str().unwrap_or("?").to_owned(), v)
}

/// `security: full`, nobody asked, with `denylist`.
fn full_policy(denylist: Value) -> Value {
    json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "off", "askFallback": "full", "denylist": denylist},
        "agents": {}
    })
}

/// Starts a bridge and gives it `policy`, keeping the socket and token it made.
fn bridge_with(home: &TestHome, policy: &Value, args: &[&str]) -> Bridge {
    let bridge = Bridge::start(home, args);
    let mut file = home.read_approvals();
    file["defaults"] = policy["defaults"].clone();
    file["agents"] = policy["agents"].clone();
    home.write_approvals(&file);
    bridge
}

fn run(home: &TestHome, argv: &[&str]) -> (Option<i32>, String) {
    let out = output(
        home.command("node-host")
            .args(["run", "--exec-host", "bridge", "--"])
            .args(argv),
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A directory in the test home that a denied `rm -rf` must leave alone.
fn victim(home: &TestHome) -> std::path::PathBuf {
    let dir = home.path().join("victim");
    std::fs::create_dir_all(dir.join("sub")).expect("victim dir");
    std::fs::write(dir.join("sub/file"), "keep me").expect("victim file");
    dir
}

#[test]
fn a_path_denylisted_rm_hidden_by_a_zero_width_space_or_a_variable_is_refused_and_never_runs() {
    let home = TestHome::new();
    let policy = full_policy(json!([{"pattern": real_path("rm"), "reason": "no rm"}]));
    let _bridge = bridge_with(&home, &policy, &[]);
    let dir = victim(&home);
    let dir_text = dir.to_str().expect("utf-8 temp path");
    let hidden_arg = [dir_text, "-v", ZWSP].join("");
    let attempts: Vec<Vec<&str>> = vec![
        vec!["rm", "-rf", dir_text],
        vec!["rm", "-rf", dir_text, ZWSP],
        vec!["rm", "-rf", &hidden_arg, dir_text],
        vec!["sh", "-c", "rm -rf \"$HOME\"/victim"],
        vec!["sh", "-c", "cd \"$HOME\" && rm -rf victim"],
    ];
    for argv in &attempts {
        let (code, stderr) = run(&home, argv);
        assert_eq!(code, Some(126), "{argv:?} was not refused: {stderr}");
        assert!(stderr.contains("no rm"), "{argv:?}: {stderr}");
        assert!(dir.join("sub/file").exists(), "{argv:?} removed the victim");
    }
}

#[test]
fn a_command_pattern_denylist_refuses_the_zero_width_space_and_variable_variants() {
    let home = TestHome::new();
    home.write_approvals(&full_policy(
        json!([{"commandPattern": "rm -rf", "reason": "no rm -rf"}]),
    ));
    let zw = format!("/tmp/x{ZWSP}");
    let zw_flag = format!("-r{ZWSP}f");
    for argv in [
        &["rm", "-rf", "/tmp/x", ZWSP][..],
        &["rm", "-rf", &zw],
        // Raw text `rm '-r\u{200B}f'` never held "rm -rf".
        &["rm", &zw_flag, "/tmp/x"],
        &["sh", "-c", "\"rm\" -rf \"$HOME\"/x"],
        &["sh", "-c", "rm -rf $HOME/x"],
        &["sh", "-c", "rm -rf \"${HOME}\"/x"],
        &["bash", "-c", "echo \"$(rm -rf $HOME)\""],
    ] {
        let (d, v) = decision(&home, argv);
        assert_eq!(d, "deny", "{argv:?}: {v}");
        assert_eq!(v["reason"]["code"], "denylist", "{argv:?}: {v}");
        assert!(
            v["reason"]["message"]
                .as_str()
                .is_some_and(|r| r.starts_with("denylist: no rm -rf")),
            "{argv:?}: {v}"
        );
    }
}

#[test]
fn under_full_a_command_that_is_not_understood_asks_when_a_denylist_is_set() {
    let home = TestHome::new();
    let mut policy = full_policy(json!([{"pattern": "/nonexistent/tool"}]));
    policy["defaults"]["ask"] = json!("on-miss");
    home.write_approvals(&policy);
    let (d, v) = decision(&home, &["sh", "-c", "echo $SECRET"]);
    assert_eq!(d, "ask", "{v}");
    assert_eq!(v["allowedDecisions"], json!(["allow-once", "deny"]));
    let out = output(
        home.command("node-host")
            .args(["explain", "--", "sh", "-c", "echo $SECRET"]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("if nobody answers:   deny (approval-required)"),
        "{text}"
    );
    // Understood commands still run unasked.
    let (d, _) = decision(&home, &["ls", "/"]);
    assert_eq!(d, "allow");
}

#[test]
fn split_and_reordered_flags_match_a_command_pattern() {
    let home = TestHome::new();
    home.write_approvals(&full_policy(
        json!([{"commandPattern": "rm -rf", "reason": "no rm -rf"}]),
    ));
    for script in [
        "rm -r -f /tmp/x",
        "rm -fr /tmp/x",
        "rm  -rf /tmp/x",
        "rm -r\"f\" /tmp/x",
        "'rm' -rf /tmp/x",
        "rm /tmp/x -f -r",
        "ls && rm -f -r /tmp/x",
    ] {
        let (d, v) = decision(&home, &["sh", "-c", script]);
        assert_eq!(d, "deny", "{script}: {v}");
        assert_eq!(v["reason"]["code"], "denylist", "{script}");
        assert_eq!(v["reason"]["message"], "denylist: no rm -rf", "{script}");
    }
    for argv in [&["rm", "-r", "-f", "/tmp/x"][..], &["rm", "-fr", "/tmp/x"]] {
        assert_eq!(decision(&home, argv).0, "deny", "{argv:?}");
    }
    for argv in [&["rm", "-r", "/tmp/x"][..], &["echo", "rm", "-rf"]] {
        assert_eq!(decision(&home, argv).0, "allow", "{argv:?}");
    }
}

#[test]
fn a_command_pattern_that_cannot_be_parsed_warns_and_refuses_everything() {
    let home = TestHome::new();
    home.write_approvals(&full_policy(json!([{"commandPattern": "rm\\s+-rf"}])));
    let out = output(home.command("node-host").args(["explain", "--", "ls"]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decision: deny"), "{text}");
    assert!(
        text.contains("warning:  denylist commandPattern \"rm\\\\s+-rf\" cannot be parsed"),
        "{text}"
    );
}

#[test]
fn an_invisible_character_no_longer_lowers_the_risk_in_explain() {
    let home = TestHome::new();
    home.write_approvals(&full_policy(json!([])));
    let plain = home.explain(&["--", "rm", "-rf", "/"]);
    assert_eq!(plain["risk"]["level"], "critical");
    for argv in [
        &["--", "rm", "-rf", "/", ZWSP][..],
        &["--", "rm", "-rf", &format!("/{ZWSP}")],
        &["--", "sh", "-c", &format!("rm -rf / {ZWSP}")],
    ] {
        let v = home.explain(argv);
        assert_eq!(v["risk"]["level"], "critical", "{argv:?}: {v}");
        assert!(
            v["risk"]["reasons"].to_string().contains("U+200B"),
            "{argv:?}: {v}"
        );
    }
}

/// `node-host run` in the background, waiting for a person.
fn run_waiting(home: &TestHome, argv: &[&str]) -> Child {
    home.command("node-host")
        .args(["run", "--exec-host", "bridge", "--"])
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host")
}

/// The pending approvals as `ui-bridge approvals list --json` prints them,
/// once there are `n`.
fn pending(home: &TestHome, n: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let out = output(
            home.command("ui-bridge")
                .args(["approvals", "list", "--json"]),
        );
        let list: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        if list.as_array().is_some_and(|a| a.len() == n) {
            return list;
        }
        assert!(Instant::now() < deadline, "never saw {n} pending: {list}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_invisible_character_no_longer_lowers_the_risk_in_the_prompt_list_and_audit() {
    let home = TestHome::new();
    let policy = json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {}
    });
    let _bridge = bridge_with(&home, &policy, &["--approval-timeout-ms", "20000"]);
    // A top-level directory that does not exist: critical, and harmless.
    let target = format!("/nonexistent-issue9-{}", std::process::id());
    let mut node = run_waiting(&home, &["rm", "-rf", &target, ZWSP]);
    let list = pending(&home, 1);
    let text = list.to_string();
    assert!(text.contains("\"riskLevel\":\"critical\""), "{text}");
    assert!(text.contains("U+200B"), "{text}");
    let id = list[0]["id"].as_str().expect("id").to_owned();
    let out = output(
        home.command("ui-bridge")
            .args(["approvals", "resolve", &id, "deny"]),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = node.wait().expect("node-host finishes");
    assert_eq!(status.code(), Some(126));
    // The audit line is written beside the answer; wait for it.
    let deadline = Instant::now() + Duration::from_secs(20);
    let line = loop {
        let audit =
            std::fs::read_to_string(home.state_dir().join("exec-audit.jsonl")).unwrap_or_default();
        if let Some(line) = audit.lines().find(|l| l.contains("nonexistent-issue9")) {
            break line.to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "no audit line for the command: {audit}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(line.contains("\"critical\""), "{line}");
    assert!(line.contains("U+200B"), "{line}");
}

#[test]
fn an_arg_pattern_allows_git_only_for_status_and_log() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [
            {"pattern": real_path("git"), "argPattern": "^(status|log)\\0"}
        ]}}
    }));
    for argv in [&["git", "status"][..], &["git", "log", "--oneline"]] {
        assert_eq!(decision(&home, argv).0, "allow", "{argv:?}");
    }
    for argv in [
        &["git", "push"][..],
        &["git", "-c", "x=y", "status"],
        &["git", "reset", "--hard"],
        &["git"],
    ] {
        assert_eq!(decision(&home, argv).0, "deny", "{argv:?}");
    }
}

#[test]
fn an_arg_pattern_allows_sh_only_with_c_and_its_fixed_script() {
    let home = TestHome::new();
    let policy = json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [
            {"pattern": real_path("sh"), "argPattern": "^-c\\0echo fixed-script\\0$"}
        ]}}
    });
    let _bridge = bridge_with(&home, &policy, &[]);
    let out = output(home.command("node-host").args([
        "run",
        "--exec-host",
        "bridge",
        "--",
        "sh",
        "-c",
        "echo fixed-script",
    ]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "fixed-script\n");
    for argv in [
        &["sh", "-c", "echo other"][..],
        &["sh", "-c", "echo fixed-script; id"],
        &["sh", "-c", "echo fixed-script", "extra"],
        &["sh", "script.sh"],
    ] {
        let (code, stderr) = run(&home, argv);
        assert_eq!(code, Some(126), "{argv:?}: {stderr}");
    }
}

#[test]
fn an_invalid_arg_pattern_never_matches_and_explain_warns() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [
            {"pattern": real_path("git"), "argPattern": "(?<=a)status"}
        ]}}
    }));
    let out = output(
        home.command("node-host")
            .args(["explain", "--", "git", "status"]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decision: deny"), "{text}");
    assert!(
        text.contains("argPattern \"(?<=a)status\" that is not a valid regex"),
        "{text}"
    );
}
