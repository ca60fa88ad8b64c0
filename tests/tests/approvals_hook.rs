//! The command hook end to end: the real `ui-bridge serve
//! --approver-command …` answering real `node-host run` requests, for every
//! way a hook can answer, fail, hang, or lose its requester.

use std::process::Stdio;
use std::time::{Duration, Instant};

use approvals_tests::status::USAGE;
use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

/// Asks on a miss; `echo` is allowlisted, `printf` is not.
fn policy(ask: &str, ask_fallback: &str, approver_command: Option<&str>) -> Value {
    let mut defaults = json!({"security": "allowlist", "ask": ask, "askFallback": ask_fallback});
    if let Some(command) = approver_command {
        defaults["approverCommand"] = json!(command);
    }
    json!({
        "version": 1,
        "defaults": defaults,
        "agents": {"main": {"allowlist": [{"pattern": real_path("echo")}]}}
    })
}

/// A `ui-bridge serve` without a terminal, killed when dropped.
/// The real bridge with the broker's own 120 s timeout unless a test sets
/// one: hooks, not the harness's short default, decide these approvals.
fn start(home: &TestHome, args: &[&str]) -> Bridge {
    let mut args = args.to_vec();
    if !args.contains(&"--approval-timeout-ms") {
        args.extend(["--approval-timeout-ms", "120000"]);
    }
    Bridge::start(home, &args)
}

fn run(home: &TestHome, args: &[&str]) -> (Option<i32>, String, String) {
    let out = output(
        home.command("node-host")
            .args(["run", "--exec-host", "bridge"])
            .args(args)
            .stdin(Stdio::null()),
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A bridge whose hook is `hook`, over a policy that asks on a miss.
fn bridge_with_hook(home: &TestHome, hook: &str, extra: &[&str]) -> Bridge {
    home.write_approvals(&policy("on-miss", "deny", None));
    let mut args = vec!["--approver-command", hook];
    args.extend_from_slice(extra);
    start(home, &args)
}

#[test]
fn a_hook_that_allows_once_lets_the_command_run() {
    let home = TestHome::new();
    let _bridge = bridge_with_hook(&home, "echo allow-once", &[]);
    let (code, stdout, stderr) = run(&home, &["--", "printf", "%s", "hooked"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "hooked"), "{stderr}");
}

#[test]
fn a_hook_reads_the_escaped_approval_on_stdin() {
    let home = TestHome::new();
    let seen = home.path().join("seen.json");
    let hook = format!("cat >> '{}'; echo deny", seen.display());
    let _bridge = bridge_with_hook(&home, &hook, &[]);
    assert_eq!(run(&home, &["--", "printf", "plain"]).0, Some(126));
    assert_eq!(run(&home, &["--", "printf", "a\u{200b}b"]).0, Some(126));
    let text = std::fs::read_to_string(&seen).expect("hook input");
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    let plain = &lines[0]["display"];
    assert_eq!(plain["argv"], json!(["printf", "plain"]));
    assert_eq!(plain["segments"][0]["realPath"], real_path("printf"));
    assert_eq!(plain["agentId"], "main");
    assert_eq!(plain["security"], "allowlist");
    assert_eq!(
        plain["allowedDecisions"],
        json!(["allow-once", "allow-always", "deny"])
    );
    // The invisible character arrives escaped, never raw.
    assert_eq!(lines[1]["display"]["argv"][1], "a\\u{200B}b");
    assert!(!text.contains('\u{200b}'));
}

#[test]
fn a_hook_that_denies_refuses_the_command() {
    let home = TestHome::new();
    let _bridge = bridge_with_hook(&home, "echo deny", &[]);
    let (code, _, stderr) = run(&home, &["--", "printf", "x"]);
    assert_eq!(code, Some(126));
    assert!(stderr.contains("user denied"), "{stderr}");
}

/// The audit records of `home` about `marker`'s command, waiting until the
/// `exec.denied` one is written.
fn denied_records(home: &TestHome, marker: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text =
            std::fs::read_to_string(home.state_dir().join("exec-audit.jsonl")).unwrap_or_default();
        let all: Vec<Value> = text
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        // `exec.denied` carries no argv (it is logged once, in the
        // decision): it is joined to its decision by `runId`.
        let run_ids: Vec<Value> = all
            .iter()
            .filter(|r| {
                r["commandText"]
                    .as_str()
                    .is_some_and(|c| c.contains(marker))
            })
            .map(|r| r["runId"].clone())
            .collect();
        let records: Vec<Value> = all
            .into_iter()
            .filter(|r| run_ids.contains(&r["runId"]))
            .collect();
        if records.iter().any(|r| r["event"] == "exec.denied") {
            return records;
        }
        assert!(
            Instant::now() < deadline,
            "no exec.denied for {marker}: {text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_crashing_hook_answers_nothing_and_is_audited_as_hook_failed() {
    let home = TestHome::new();
    let _bridge = bridge_with_hook(&home, "echo allow-once; exit 3", &[]);
    let (code, stdout, stderr) = run(&home, &["--", "printf", "crash-marker"]);
    assert_eq!(code, Some(126), "{stdout}{stderr}");
    // Nobody else could answer (no terminal): denied at once, and said so,
    // never as a person's deny.
    assert!(stderr.contains("the approver hook failed"), "{stderr}");
    assert!(!stderr.contains("user denied"), "{stderr}");
    let records = denied_records(&home, "crash-marker");
    let denied = records
        .iter()
        .find(|r| r["event"] == "exec.denied")
        .expect("exec.denied");
    assert_eq!(denied["reason"], "hook-failed", "{records:?}");
    let decision = records
        .iter()
        .find(|r| r["event"] == "decision")
        .expect("decision");
    assert_eq!(decision["decidedBy"], "policy", "{decision}");
    assert_eq!(decision["approver"], "hook", "{decision}");
}

#[test]
fn a_hook_that_denies_is_audited_as_user_denied() {
    let home = TestHome::new();
    let _bridge = bridge_with_hook(&home, "echo deny", &[]);
    let (code, _, stderr) = run(&home, &["--", "printf", "deny-marker"]);
    assert_eq!(code, Some(126), "{stderr}");
    let records = denied_records(&home, "deny-marker");
    let denied = records
        .iter()
        .find(|r| r["event"] == "exec.denied")
        .expect("exec.denied");
    assert_eq!(denied["reason"], "user-denied", "{records:?}");
    let decision = records
        .iter()
        .find(|r| r["event"] == "decision")
        .expect("decision");
    assert_eq!(decision["decidedBy"], "human:hook", "{decision}");
}

#[test]
fn a_broken_hook_is_refused_at_start() {
    let home = TestHome::new();
    home.write_approvals(&policy("on-miss", "deny", None));
    let plain = home.path().join("hook-not-executable.sh");
    std::fs::write(&plain, "#!/bin/sh\necho allow-once\n").expect("write hook");
    let missing = home.path().join("no-such-hook.sh");
    let cases = [
        ("no-such-program-for-hooks --x", "is not on PATH"),
        (missing.to_str().expect("utf-8"), "does not exist"),
        (plain.to_str().expect("utf-8"), "is not executable"),
        ("echo 'unclosed", "is not valid sh"),
    ];
    for (hook, why) in cases {
        let out = output(
            home.command("ui-bridge")
                .args(["serve", "--approver-command", hook])
                .stdin(Stdio::null()),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(USAGE), "{hook}: {stderr}");
        assert!(stderr.contains(why), "{hook}: {stderr}");
        assert!(stderr.contains("--approver-command"), "{hook}: {stderr}");
        assert!(
            !home.state_dir().join("exec-approvals.sock").exists(),
            "{hook}: a socket was left behind"
        );
    }
    // From the policy file, the message names the file.
    home.write_approvals(&policy(
        "on-miss",
        "deny",
        Some("no-such-program-for-hooks"),
    ));
    let out = output(home.command("ui-bridge").arg("serve").stdin(Stdio::null()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(USAGE), "{stderr}");
    assert!(stderr.contains("defaults.approverCommand"), "{stderr}");
    assert!(stderr.contains("exec-approvals.json"), "{stderr}");
}

#[test]
fn a_hanging_hook_leaves_the_decision_to_the_ask_fallback() {
    // Unsatisfied command, askFallback deny: refused after the timeout.
    let home = TestHome::new();
    let _bridge = bridge_with_hook(&home, "sleep 30", &["--approval-timeout-ms", "800"]);
    let started = Instant::now();
    let (code, _, stderr) = run(&home, &["--", "printf", "x"]);
    assert_eq!(code, Some(126));
    assert!(stderr.contains("no approver answered"), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(10));

    // ask always on an allowlisted command, askFallback allowlist: it runs.
    let home = TestHome::new();
    home.write_approvals(&policy("always", "allowlist", None));
    let _bridge = start(
        &home,
        &[
            "--approver-command",
            "sleep 30",
            "--approval-timeout-ms",
            "800",
        ],
    );
    let (code, stdout, stderr) = run(&home, &["--json", "--", "echo", "fell-back"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["payload"]["decision"], "ask-fallback", "{v}");
    assert_eq!(v["payload"]["stdout"], "fell-back\n");
}

#[test]
fn the_policy_approver_command_is_used_and_the_flag_wins() {
    let home = TestHome::new();
    home.write_approvals(&policy("on-miss", "deny", Some("echo allow-once")));
    let bridge = start(&home, &[]);
    let (code, stdout, _) = run(&home, &["--", "printf", "from-policy"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "from-policy"));
    drop(bridge);

    let _bridge = start(&home, &["--approver-command", "echo deny"]);
    let (code, _, stderr) = run(&home, &["--", "printf", "x"]);
    assert_eq!(code, Some(126), "{stderr}");
    assert!(stderr.contains("user denied"), "{stderr}");
}

/// Live (non-zombie) processes whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            members.push(pid);
        }
    }
    members
}

#[test]
fn a_requester_that_disconnects_withdraws_its_approval_and_the_hook_is_killed() {
    let home = TestHome::new();
    let pid_file = home.path().join("hook.pid");
    let hook = format!("echo $$ > '{}'; sleep 30", pid_file.display());
    let _bridge = bridge_with_hook(&home, &hook, &[]);
    let mut requester = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "printf", "x"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("node-host");
    let deadline = Instant::now() + Duration::from_secs(20);
    let pgid = loop {
        if let Some(pgid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|text| text.trim().parse::<u32>().ok())
        {
            break pgid;
        }
        assert!(Instant::now() < deadline, "the hook never started");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        !group_members(pgid).is_empty(),
        "the hook should be running"
    );
    requester.kill().expect("kill node-host");
    requester.wait().expect("reap node-host");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !group_members(pgid).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the hook's group outlived its withdrawn approval: {:?}",
            group_members(pgid)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
