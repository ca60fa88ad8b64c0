//! `node-host approvals get|allow|revoke|set` end to end: the real binary on
//! a real approvals file in a private home.
//!
//! Pins DESIGN.md invariants 6 (a malformed file refuses every edit and is
//! never overwritten), 7 (concurrent writers lose nothing; a writer killed
//! at any moment leaves a file that loads) and 9 (the token never leaves the
//! file).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use approvals_ipc::approvals::{ApprovalsStore, sha256_hex};
use approvals_tests::status::{FILE_ERROR, REFUSED, USAGE};
use approvals_tests::{TestHome, allowlist_patterns, output};
use serde_json::{Value, json};

/// A token no output may ever contain.
const TOKEN: &str = "dG9rZW4tdGhhdC1tdXN0LW5ldmVyLWxlYWs";

fn approvals(home: &TestHome, args: &[&str]) -> Output {
    output(home.command("node-host").arg("approvals").args(args))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_exit(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: stdout {} stderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

fn get_json(home: &TestHome) -> Value {
    let out = approvals(home, &["get", "--json"]);
    assert_exit(&out, 0, "get --json");
    serde_json::from_slice(&out.stdout).expect("get --json prints one JSON object")
}

fn policy_with_token() -> Value {
    json!({
        "version": 1,
        "socket": {"path": "/tmp/keep-this.sock", "token": TOKEN},
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [
            {"pattern": "/usr/bin/git", "lastUsedCommand": "git log", "lastUsedAt": 1}
        ]}},
        "futureField": {"kept": true}
    })
}

#[test]
fn get_never_shows_the_token_and_its_hash_is_sha256_of_the_file() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let bytes = std::fs::read(home.approvals()).unwrap();
    for args in [&["get"][..], &["get", "--json"][..]] {
        let out = approvals(&home, args);
        assert_exit(&out, 0, "get");
        for stream in [&out.stdout, &out.stderr] {
            assert!(!text(stream).contains(TOKEN), "{args:?} leaked the token");
        }
        assert!(
            text(&out.stdout).contains(&sha256_hex(&bytes)),
            "{args:?} shows the hash"
        );
    }
    let got = get_json(&home);
    assert_eq!(got["hash"], json!(sha256_hex(&bytes)));
    assert_eq!(got["exists"], json!(true));
    assert_eq!(got["path"], json!(home.approvals()));
    assert_eq!(
        got["file"]["socket"],
        json!({"path": "/tmp/keep-this.sock"})
    );
    assert_eq!(got["file"]["futureField"], json!({"kept": true}));
    assert_eq!(std::fs::read(home.approvals()).unwrap(), bytes, "get wrote");
}

#[test]
fn get_never_shows_a_token_the_cli_generated() {
    let home = TestHome::new();
    assert_exit(&approvals(&home, &["allow", "/usr/bin/env"]), 0, "allow");
    let token = home.read_approvals()["socket"]["token"]
        .as_str()
        .expect("allow created a token")
        .to_owned();
    assert!(token.len() >= 32);
    for args in [&["get"][..], &["get", "--json"][..]] {
        let out = approvals(&home, args);
        assert!(!text(&out.stdout).contains(&token) && !text(&out.stderr).contains(&token));
    }
}

#[test]
fn get_of_a_missing_file_reports_it_and_creates_nothing() {
    let home = TestHome::new();
    let got = get_json(&home);
    assert_eq!(got["exists"], json!(false));
    assert_eq!(got["hash"], json!(sha256_hex(b"")));
    assert!(!home.approvals().exists());
}

#[test]
fn allow_then_revoke_round_trips_for_one_agent() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let allow = approvals(&home, &["allow", "/opt/tool/bin/x", "--agent", "ops"]);
    assert_exit(&allow, 0, "allow");
    let file = home.read_approvals();
    assert_eq!(allowlist_patterns(&file, "ops"), ["/opt/tool/bin/x"]);
    assert_eq!(
        file["agents"]["ops"]["allowlist"][0]["source"],
        json!("cli")
    );
    assert_eq!(file["socket"]["token"], json!(TOKEN), "token kept");
    assert_eq!(file["futureField"], json!({"kept": true}), "unknown kept");
    assert_eq!(
        allowlist_patterns(&get_json(&home)["file"], "ops"),
        ["/opt/tool/bin/x"]
    );

    let again = approvals(&home, &["allow", "/opt/tool/bin/x", "--agent", "ops"]);
    assert_exit(&again, 0, "allow twice");
    assert_eq!(
        allowlist_patterns(&home.read_approvals(), "ops").len(),
        1,
        "no duplicate"
    );

    // Another agent's entry is not revoked by naming the wrong agent.
    let wrong = approvals(&home, &["revoke", "/opt/tool/bin/x"]);
    assert_exit(&wrong, REFUSED, "revoke from main");
    assert!(text(&wrong.stderr).contains("ops"), "hint names the holder");

    assert_exit(
        &approvals(&home, &["revoke", "/opt/tool/bin/x", "--agent", "ops"]),
        0,
        "revoke",
    );
    assert!(allowlist_patterns(&home.read_approvals(), "ops").is_empty());
    assert_eq!(
        allowlist_patterns(&home.read_approvals(), "main"),
        ["/usr/bin/git"]
    );
}

#[test]
fn revoke_of_an_absent_entry_is_refused_and_changes_nothing() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    assert_exit(&approvals(&home, &["allow", "/usr/bin/env"]), 0, "allow");
    let before = std::fs::read(home.approvals()).unwrap();
    let out = approvals(&home, &["revoke", "/usr/bin/absent"]);
    assert_exit(&out, REFUSED, "revoke absent");
    assert!(text(&out.stderr).contains("no allowlist entry"));
    assert_eq!(std::fs::read(home.approvals()).unwrap(), before);

    let missing = TestHome::new();
    assert_exit(
        &approvals(&missing, &["revoke", "/usr/bin/git"]),
        REFUSED,
        "no file",
    );
    assert!(!missing.approvals().exists(), "revoke created the file");
}

#[test]
fn allow_refuses_bare_names_and_names_the_path_to_use() {
    let home = TestHome::new();
    let out = approvals(&home, &["allow", "true"]);
    assert_exit(&out, USAGE, "allow true");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bare names never match"), "{stderr}");
    let real = std::fs::canonicalize(approvals_tests::real_path("true")).unwrap();
    assert!(
        stderr.contains(&format!("node-host approvals allow {}", real.display())),
        "{stderr}"
    );
    assert!(!home.approvals().exists(), "nothing was saved");
    let out = approvals(&home, &["allow", "/usr/bin/git"]);
    assert!(
        !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn get_json_output_feeds_back_into_set() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let got = approvals(&home, &["get", "--json"]);
    assert_exit(&got, 0, "get --json");
    let mut value: serde_json::Value = serde_json::from_slice(&got.stdout).unwrap();
    value["file"]["defaults"]["ask"] = serde_json::json!("always");
    let edited = home.path().join("edited.json");
    std::fs::write(&edited, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let set = approvals(&home, &["set", edited.to_str().unwrap()]);
    assert_exit(&set, 0, "set get-output");
    assert_eq!(home.read_approvals()["defaults"]["ask"], "always");
    assert_eq!(
        home.read_approvals()["socket"]["token"],
        TOKEN,
        "token kept"
    );
    // The same output again is stale now: its hash is the old file's.
    let again = approvals(&home, &["set", edited.to_str().unwrap()]);
    assert_exit(&again, REFUSED, "stale get-output");
}

#[test]
fn edits_refuse_blank_and_invisible_patterns() {
    let home = TestHome::new();
    for pattern in ["", "   ", "/usr/bin/g\u{200b}it", "/usr/bin/\u{202e}tig"] {
        let out = approvals(&home, &["allow", pattern]);
        assert_exit(&out, USAGE, pattern);
    }
    assert!(!home.approvals().exists());
}

#[test]
fn set_with_a_stale_base_hash_is_refused_and_changes_nothing() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let base = get_json(&home)["hash"].as_str().unwrap().to_owned();
    // Someone edits the file after `get`.
    assert_exit(&approvals(&home, &["allow", "/usr/bin/env"]), 0, "allow");
    let before = std::fs::read(home.approvals()).unwrap();
    let new_policy = home.path().join("policy.json");
    std::fs::write(
        &new_policy,
        r#"{"version":1,"defaults":{"security":"full"}}"#,
    )
    .unwrap();
    let out = approvals(
        &home,
        &["set", new_policy.to_str().unwrap(), "--base-hash", &base],
    );
    assert_exit(&out, REFUSED, "stale set");
    assert!(text(&out.stderr).contains("changed since it was read"));
    assert_eq!(std::fs::read(home.approvals()).unwrap(), before);
}

#[test]
fn set_with_the_current_hash_applies_and_keeps_socket_and_token() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let base = get_json(&home)["hash"].as_str().unwrap().to_owned();
    let new_policy = home.path().join("policy.json");
    let wanted = json!({
        "version": 1,
        "socket": {"path": "/tmp/evil.sock", "token": "attacker-chosen-token-value-xyz12"},
        "defaults": {"security": "deny", "ask": "always"},
        "agents": {"ops": {"allowlist": ["/usr/bin/make"]}}
    });
    std::fs::write(&new_policy, wanted.to_string()).unwrap();
    let out = approvals(
        &home,
        &["set", new_policy.to_str().unwrap(), "--base-hash", &base],
    );
    assert_exit(&out, 0, "set");
    let file = home.read_approvals();
    assert_eq!(
        file["socket"],
        json!({"path": "/tmp/keep-this.sock", "token": TOKEN})
    );
    assert_eq!(
        file["defaults"],
        json!({"security": "deny", "ask": "always"})
    );
    assert_eq!(allowlist_patterns(&file, "ops"), ["/usr/bin/make"]);
    assert!(file["agents"].get("main").is_none(), "replaced, not merged");
    let bytes = std::fs::read(home.approvals()).unwrap();
    assert_eq!(text(&out.stdout).trim(), sha256_hex(&bytes));
    assert!(!text(&out.stdout).contains(TOKEN) && !text(&out.stderr).contains(TOKEN));
}

#[test]
fn set_refuses_unreadable_input_and_malformed_hashes_as_usage_errors() {
    let home = TestHome::new();
    home.write_approvals(&policy_with_token());
    let before = std::fs::read(home.approvals()).unwrap();
    let base = sha256_hex(&before);
    let bad_json = home.path().join("bad.json");
    std::fs::write(&bad_json, "{ nope").unwrap();
    let cases: [(&[&str], i32); 4] = [
        (
            &["set", "/nonexistent/policy.json", "--base-hash", &base],
            FILE_ERROR,
        ),
        (
            &["set", bad_json.to_str().unwrap(), "--base-hash", &base],
            FILE_ERROR,
        ),
        (
            &["set", bad_json.to_str().unwrap(), "--base-hash", "abc"],
            USAGE,
        ),
        (&["set", bad_json.to_str().unwrap()], USAGE),
    ];
    for (args, code) in cases {
        assert_exit(&approvals(&home, args), code, &format!("{args:?}"));
    }
    assert_eq!(std::fs::read(home.approvals()).unwrap(), before);
}

#[test]
fn a_malformed_file_refuses_every_edit_and_stays_byte_for_byte() {
    let home = TestHome::new();
    home.write_approvals(&json!({}));
    let broken = b"{\"version\": 1, \"agents\": {\"main\": {\"allowlist\": [\n";
    std::fs::write(home.approvals(), broken).unwrap();
    let new_policy = home.path().join("policy.json");
    std::fs::write(&new_policy, r#"{"version":1}"#).unwrap();
    let policy = new_policy.to_str().unwrap();
    let hash = sha256_hex(broken);
    let stale = sha256_hex(b"something else");
    let cases: [(&[&str], i32); 6] = [
        (&["get"], FILE_ERROR),
        (&["allow", "/usr/bin/git"], FILE_ERROR),
        (&["allow", "/usr/bin/git", "--agent", "*"], FILE_ERROR),
        (&["revoke", "/usr/bin/git"], FILE_ERROR),
        (&["set", policy, "--base-hash", &hash], FILE_ERROR),
        (&["set", policy, "--base-hash", &stale], REFUSED),
    ];
    for (args, code) in cases {
        let out = approvals(&home, args);
        assert_exit(&out, code, &format!("{args:?}"));
        assert_eq!(
            std::fs::read(home.approvals()).unwrap(),
            broken,
            "{args:?} changed a malformed file"
        );
    }
    let out = approvals(&home, &["allow", "/usr/bin/git"]);
    assert!(
        text(&out.stderr).contains("cannot parse"),
        "names the parse error: {}",
        text(&out.stderr)
    );
}

#[test]
fn concurrent_writers_never_lose_an_entry() {
    let home = TestHome::new();
    let bin = approvals_tests::bin("node-host");
    let spawn = |prefix: &str| {
        let script = format!(
            "i=1; while [ $i -le 200 ]; do \"$NH\" approvals allow /opt/{prefix}$i/bin/x || exit 1; i=$((i+1)); done"
        );
        Command::new("sh")
            .env("NH", &bin)
            .env("HOME", home.path())
            .env("CLAWDBOT_STATE_DIR", home.state_dir())
            .env_remove("RUST_LOG")
            .args(["-c", &script])
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn writer loop")
    };
    let mut a = spawn("a");
    let mut b = spawn("b");
    assert!(a.wait().unwrap().success(), "writer a failed");
    assert!(b.wait().unwrap().success(), "writer b failed");
    let mut got = allowlist_patterns(&home.read_approvals(), "main");
    got.sort();
    let mut want: Vec<String> = (1..=200)
        .flat_map(|i| [format!("/opt/a{i}/bin/x"), format!("/opt/b{i}/bin/x")])
        .collect();
    want.sort();
    assert_eq!(got, want);
}

/// A small deterministic generator; the seed is printed so a failure can be
/// replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every name in the state directory is the file, its lock, or an
/// abandoned temp file (`.exec-approvals.json.*`), which never has the
/// file's name.
fn assert_only_known_names(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name == "exec-approvals.json"
                || name == "exec-approvals.json.lock"
                || name.starts_with(".exec-approvals.json."),
            "unexpected file {name} in the state directory"
        );
    }
}

#[test]
fn a_writer_killed_at_any_moment_leaves_a_file_that_loads() {
    let home = TestHome::new();
    assert_exit(&approvals(&home, &["allow", "/opt/seed/bin/x"]), 0, "seed");
    let store = ApprovalsStore::open(home.approvals());
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("crash test seed {seed}");
    let mut rng = XorShift(seed);
    let mut completed = vec!["/opt/seed/bin/x".to_owned()];
    let mut killed_mid_run = 0;
    for round in 0..100 {
        let pattern = format!("/opt/c{round}/bin/x");
        let mut child = home
            .command("node-host")
            .args(["approvals", "allow", &pattern])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.next() % 20_000));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.success() {
            completed.push(pattern);
        } else {
            killed_mid_run += 1;
        }
        let snapshot = store
            .load()
            .unwrap_or_else(|err| panic!("round {round} (seed {seed}): {err}"));
        let present: Vec<&str> = snapshot.file.agents["main"]
            .allowlist
            .iter()
            .map(|e| e.pattern.as_str())
            .collect();
        for done in &completed {
            assert!(
                present.contains(&done.as_str()),
                "round {round}: lost {done}"
            );
        }
        assert_only_known_names(&home.state_dir());
    }
    eprintln!("{killed_mid_run} of 100 writers were killed before they finished");
    // Leftover temp files never stop the next writer.
    assert_exit(
        &approvals(&home, &["allow", "/opt/after/bin/x"]),
        0,
        "after",
    );
    assert!(
        allowlist_patterns(&home.read_approvals(), "main").contains(&"/opt/after/bin/x".to_owned())
    );
}

#[test]
fn help_teaches_with_examples() {
    let home = TestHome::new();
    for sub in ["get", "allow", "revoke", "set"] {
        let out = output(home.command("node-host").args(["approvals", sub, "--help"]));
        assert_exit(&out, 0, sub);
        assert!(
            text(&out.stdout).contains(&format!("node-host approvals {sub}")),
            "{sub} --help has an example"
        );
    }
}

#[test]
fn set_on_a_missing_file_takes_the_hash_of_no_bytes_and_creates_a_token() {
    let home = TestHome::new();
    let new_policy = home.path().join("policy.json");
    std::fs::write(
        &new_policy,
        r#"{"version":1,"defaults":{"security":"deny"}}"#,
    )
    .unwrap();
    let policy = new_policy.to_str().unwrap();
    let wrong = sha256_hex(b"x");
    assert_exit(
        &approvals(&home, &["set", policy, "--base-hash", &wrong]),
        REFUSED,
        "stale",
    );
    assert!(!home.approvals().exists());
    let empty = sha256_hex(b"");
    assert_exit(
        &approvals(&home, &["set", policy, "--base-hash", &empty]),
        0,
        "set",
    );
    let file = home.read_approvals();
    assert_eq!(file["defaults"], json!({"security": "deny"}));
    assert!(
        file["socket"]["token"]
            .as_str()
            .is_some_and(|t| t.len() >= 32)
    );
}
