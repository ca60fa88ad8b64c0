//! `ui-bridge approvals list|resolve|answer` end to end: the real binaries,
//! a real bridge, a real `node-host run` waiting for a person, and answers
//! sent from other processes over the control API (DESIGN.md section 7:
//! unique prefixes of 4+ characters, first answer wins, later answers get
//! `NOT_FOUND`).

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use approvals_tests::status::{REFUSED, UNREACHABLE, USAGE};
use approvals_tests::{Bridge, TestHome, finish_within, output};
use serde_json::{Value, json};

/// A running `ui-bridge serve` whose policy asks about everything (an
/// answer has 20 s); killed when dropped.
fn start_bridge(home: &TestHome) -> Bridge {
    let bridge = Bridge::start(home, &["--approval-timeout-ms", "20000"]);
    // The bridge created the file; ask about everything, keeping its token.
    let mut file: Value = home.read_approvals();
    file["defaults"] = json!({"security": "allowlist", "ask": "on-miss", "askFallback": "deny"});
    file["agents"] = json!({"main": {"allowlist": []}});
    home.write_approvals(&file);
    bridge
}

/// `node-host run --exec-host bridge -- id`, waiting for an answer.
fn run_id(home: &TestHome) -> Child {
    home.command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "id"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host")
}

fn approvals(home: &TestHome, args: &[&str]) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.arg("approvals").args(args);
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Polls `approvals list --json` until `n` approvals are pending; their ids, oldest first.
fn wait_pending(home: &TestHome, n: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let out = output(&mut approvals(home, &["list", "--json"]));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let list: Value = serde_json::from_slice(&out.stdout).expect("list is json");
        let ids: Vec<String> = list
            .as_array()
            .expect("an array")
            .iter()
            .map(|a| a["id"].as_str().expect("id").to_owned())
            .collect();
        if ids.len() == n {
            return ids;
        }
        assert!(
            Instant::now() < deadline,
            "never saw {n} pending approvals: {list}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for a child with a bound, so a broken answer fails instead of hanging.
fn finish(child: Child) -> Output {
    finish_within(child, Duration::from_secs(30))
}

#[test]
fn resolving_with_a_four_character_prefix_runs_the_command() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let node = run_id(&home);
    let id = wait_pending(&home, 1).remove(0);
    let table = output(&mut approvals(&home, &["list"]));
    let table = text(&table.stdout);
    assert!(table.starts_with("ID "), "{table}");
    // The table shows the short id, the four characters people type.
    assert!(
        table.contains(&id[..4]) && table.contains("main"),
        "{table}"
    );

    let out = output(&mut approvals(&home, &["resolve", &id[..4], "once"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("allow-once {id}")));
    let ran = finish(node);
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
    assert!(
        text(&ran.stdout).starts_with("uid="),
        "{}",
        text(&ran.stdout)
    );
    assert!(wait_pending(&home, 0).is_empty());
}

#[test]
fn resolving_deny_refuses_the_command_with_126() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let node = run_id(&home);
    let ids = wait_pending(&home, 1);
    let out = output(&mut approvals(
        &home,
        &["resolve", &ids[0], "deny", "--approver", "alice"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ran = finish(node);
    assert_eq!(ran.status.code(), Some(126), "{}", text(&ran.stderr));
    assert!(ran.stdout.is_empty(), "nothing ran: {}", text(&ran.stdout));
}

#[test]
fn two_approvers_answering_at_once_exactly_one_wins() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let node = run_id(&home);
    let ids = wait_pending(&home, 1);
    let approve = format!("/approve {} once", ids[0]);
    let first = approvals(&home, &["resolve", &ids[0], "once", "--approver", "alice"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start resolve");
    let second = approvals(&home, &["answer", &approve, "--approver", "bob"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start answer");
    let outs = [finish(first), finish(second)];
    let winners = outs.iter().filter(|o| o.status.success()).count();
    assert_eq!(winners, 1, "exactly one answer wins: {outs:?}");
    let loser = outs.iter().find(|o| !o.status.success()).expect("a loser");
    assert_eq!(loser.status.code(), Some(REFUSED));
    assert!(
        text(&loser.stderr).contains("not found"),
        "{}",
        text(&loser.stderr)
    );
    let ran = finish(node);
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
    // A late answer after the race is NOT_FOUND too.
    let late = output(&mut approvals(&home, &["resolve", &ids[0], "deny"]));
    assert_eq!(late.status.code(), Some(REFUSED));
    assert!(text(&late.stderr).contains("approval not found"));
}

#[test]
fn short_ids_of_requests_made_together_differ_and_short_prefixes_are_refused() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let nodes = [run_id(&home), run_id(&home)];
    let ids = wait_pending(&home, 2);
    // Ids are random and a new one never starts with a pending one's first
    // four characters: four characters name each of them.
    assert_ne!(ids[0][..4], ids[1][..4]);
    let short = output(&mut approvals(&home, &["resolve", &ids[0][..3], "once"]));
    assert_eq!(short.status.code(), Some(REFUSED));
    assert!(text(&short.stderr).contains("too short"));
    assert_eq!(wait_pending(&home, 2), ids, "nothing was answered");
    for id in &ids {
        let out = output(&mut approvals(&home, &["resolve", &id[..4], "reject"]));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    for node in nodes {
        assert_eq!(finish(node).status.code(), Some(126));
    }
}

#[test]
fn chat_text_for_another_bot_is_refused_and_ours_is_applied() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let node = run_id(&home);
    let ids = wait_pending(&home, 1);
    let other = format!("/approve@otherbot {} once", ids[0]);
    let out = output(&mut approvals(&home, &["answer", &other]));
    assert_eq!(out.status.code(), Some(REFUSED));
    assert!(
        text(&out.stderr).contains("different bot"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(wait_pending(&home, 1), ids, "still pending");
    let deny = format!("/deny {}", &ids[0][..13]);
    let out = output(&mut approvals(&home, &["answer", &deny]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(finish(node).status.code(), Some(126));
}

#[test]
fn without_a_running_bridge_every_subcommand_is_refused_clearly() {
    let home = TestHome::new();
    let bridge = start_bridge(&home);
    drop(bridge);
    for args in [
        &["list"][..],
        &["list", "--json"],
        &["resolve", "0190abcd", "once"],
        &["answer", "/deny 0190abcd"],
    ] {
        let out = output(&mut approvals(&home, args));
        assert_eq!(out.status.code(), Some(UNREACHABLE), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("no ui-bridge is running"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    let token = {
        let file: Value = home.read_approvals();
        file["socket"]["token"].as_str().expect("token").to_owned()
    };
    let out = output(&mut approvals(&home, &["list"]));
    assert!(!text(&out.stderr).contains(&token) && !text(&out.stdout).contains(&token));
}

#[test]
fn usage_errors_exit_with_the_usage_status_and_help_has_examples() {
    let home = TestHome::new();
    let bad = output(&mut approvals(&home, &["resolve", "0190abcd", "maybe"]));
    assert_eq!(bad.status.code(), Some(USAGE));
    let help = output(&mut approvals(&home, &["--help"]));
    assert!(text(&help.stdout).contains("ui-bridge approvals resolve 0199a3f2 once"));
    let help = output(home.command("ui-bridge").arg("--help"));
    assert!(text(&help.stdout).contains("Exit status:\n  0 "));
    assert!(text(&help.stdout).contains("\n  126  refused"));
}

#[test]
fn cancelling_an_agent_denies_all_its_pending_approvals_and_only_its() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let main_a = run_id(&home);
    let main_b = run_id(&home);
    let other = home
        .command("node-host")
        .args([
            "run",
            "--exec-host",
            "bridge",
            "--agent",
            "other",
            "--",
            "id",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host");
    wait_pending(&home, 3);
    let out = output(&mut approvals(
        &home,
        &["cancel-agent", "main", "--reason", "session ended"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("cancelled 2"),
        "{}",
        text(&out.stdout)
    );
    for node in [main_a, main_b] {
        let ran = finish(node);
        assert_eq!(ran.status.code(), Some(126), "{}", text(&ran.stderr));
        assert!(ran.stdout.is_empty(), "nothing ran");
    }
    // The other agent's approval is still pending; answer it.
    let left = wait_pending(&home, 1);
    let out = output(&mut approvals(&home, &["resolve", &left[0], "once"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ran = finish(other);
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
}

#[test]
fn with_approvers_listed_only_they_may_answer() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let mut file: Value = home.read_approvals();
    file["defaults"]["approvers"] = json!(["alice"]);
    home.write_approvals(&file);
    let node = run_id(&home);
    let ids = wait_pending(&home, 1);
    let out = output(&mut approvals(
        &home,
        &["resolve", &ids[0], "once", "--approver", "mallory"],
    ));
    assert_eq!(out.status.code(), Some(REFUSED), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("not one of the approvers"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(wait_pending(&home, 1), ids, "still pending");
    let out = output(&mut approvals(
        &home,
        &["resolve", &ids[0], "once", "--approver", "alice"],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let ran = finish(node);
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
}

#[test]
fn an_unparsable_approvals_file_is_reported_once() {
    let home = TestHome::new();
    std::fs::create_dir_all(home.state_dir()).expect("state dir");
    std::fs::write(home.approvals(), "{\"version\": 1,\n  \"defaults\": [\n").expect("write");
    let out = output(&mut approvals(&home, &["list"]));
    let stderr = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("cannot use approvals file"), "{stderr}");
    let file = home.approvals().display().to_string();
    assert_eq!(
        stderr.matches("cannot parse").count(),
        1,
        "the parse error is printed more than once:\n{stderr}"
    );
    assert!(stderr.contains(&file), "{stderr}");
}

#[test]
fn list_shows_the_bridges_escapes_once() {
    let home = TestHome::new();
    let _bridge = start_bridge(&home);
    let node = home
        .command("node-host")
        .args([
            "run",
            "--exec-host",
            "bridge",
            "--",
            "echo",
            "zero\u{200b}width",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host");
    let ids = wait_pending(&home, 1);
    let out = output(&mut approvals(&home, &["list"]));
    let table = text(&out.stdout);
    assert!(table.contains(r"zero\u{200B}width"), "{table}");
    assert!(!table.contains(r"\\u{200B}"), "escaped twice:\n{table}");
    assert!(
        !table.contains('\u{200b}'),
        "the raw character reached the terminal"
    );
    let out = output(&mut approvals(&home, &["resolve", &ids[0], "deny"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(finish(node).status.code(), Some(126));
}
