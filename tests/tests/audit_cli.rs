//! `ui-bridge audit tail|query|verify` end to end: records written with the
//! library's `AuditLog`, read back by the real binary.
//!
//! Pins DESIGN.md section 9: a changed line is found and named, filters
//! select exactly the matching records, and agent-controlled text reaches
//! the terminal escaped.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use approvals_tests::status::{FILE_ERROR, USAGE};
use approvals_tests::{TestHome, output};
use serde_json::{Value, json};
use ui_bridge::audit::{
    AuditDecision, AuditEvent, AuditLog, AuditRecord, AuditRisk, GENESIS_PREV, LogOptions,
    RiskLevel, line_hash, now_ms,
};

fn record(agent: &str, decision: AuditDecision, risk: RiskLevel, command: &str) -> AuditRecord {
    AuditRecord {
        agent_id: Some(agent.to_owned()),
        decision: Some(decision),
        risk: Some(AuditRisk {
            level: risk,
            reasons: Vec::new(),
        }),
        command_text: Some(command.to_owned()),
        ..AuditRecord::new(AuditEvent::Decision)
    }
}

/// Five records: (agent, decision, risk) = main allow low, ops deny high,
/// main deny critical, ops allow-once medium, main allow low.
fn five_records(path: &Path) {
    let log = AuditLog::open(path).expect("open log");
    let rows = [
        ("main", AuditDecision::Allow, RiskLevel::Low, "git status"),
        ("ops", AuditDecision::Deny, RiskLevel::High, "curl x | sh"),
        ("main", AuditDecision::Deny, RiskLevel::Critical, "rm -rf /"),
        ("ops", AuditDecision::AllowOnce, RiskLevel::Medium, "make"),
        ("main", AuditDecision::Allow, RiskLevel::Low, "ls"),
    ];
    for (agent, decision, risk, command) in rows {
        log.append(record(agent, decision, risk, command))
            .expect("append");
    }
}

fn log_path(home: &TestHome) -> PathBuf {
    home.state_dir().join("exec-audit.jsonl")
}

fn audit(home: &TestHome, args: &[&str]) -> Output {
    output(home.command("ui-bridge").arg("audit").args(args))
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

/// The `seq` of every JSON line printed.
fn seqs(out: &Output) -> Vec<u64> {
    text(&out.stdout)
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("one JSON object per line");
            value["seq"].as_u64().expect("seq")
        })
        .collect()
}

#[test]
fn verify_accepts_an_intact_log_in_the_default_location() {
    let home = TestHome::new();
    five_records(&log_path(&home));
    let out = audit(&home, &["verify"]);
    assert_exit(&out, 0, "verify");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("ok:") && stdout.contains("5 record(s)"),
        "{stdout}"
    );
}

#[test]
fn verify_names_the_line_whose_byte_was_changed() {
    // (what the edit does, the byte to change on line 3, its replacement)
    let cases: [(&str, &str, &str); 3] = [
        (
            "still valid JSON",
            "\"agentId\":\"main\"",
            "\"agentId\":\"mbin\"",
        ),
        ("no longer JSON", "{\"v\"", "[\"v\""),
        ("sequence number", "\"seq\":3", "\"seq\":8"),
    ];
    for (what, from, to) in cases {
        let home = TestHome::new();
        let path = log_path(&home);
        five_records(&path);
        let original = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = original.lines().map(str::to_owned).collect();
        assert!(lines[2].contains(from), "{what}: {}", lines[2]);
        lines[2] = lines[2].replacen(from, to, 1);
        assert_eq!(lines[2].len(), original.lines().nth(2).unwrap().len());
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let out = audit(&home, &["verify"]);
        assert_exit(&out, FILE_ERROR, what);
        assert!(
            text(&out.stderr).contains("first broken line: 3"),
            "{what}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn verify_reports_a_truncated_last_line() {
    let home = TestHome::new();
    let path = log_path(&home);
    five_records(&path);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let out = audit(&home, &["verify", "--audit", path.to_str().unwrap()]);
    assert_exit(&out, FILE_ERROR, "truncated");
    assert!(text(&out.stderr).contains("first broken line: 5"));
}

#[test]
fn verify_of_a_missing_log_is_a_file_error_with_a_hint() {
    let home = TestHome::new();
    let out = audit(&home, &["verify"]);
    assert_exit(&out, FILE_ERROR, "missing");
    assert!(
        text(&out.stderr).contains("no audit log at"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn query_filters_select_exactly_the_matching_records() {
    let home = TestHome::new();
    five_records(&log_path(&home));
    let cases: [(&[&str], &[u64]); 7] = [
        (&[], &[1, 2, 3, 4, 5]),
        (&["--agent", "ops"], &[2, 4]),
        (&["--decision", "deny"], &[2, 3]),
        (&["--agent", "main", "--decision", "deny"], &[3]),
        (&["--risk", "high"], &[2, 3]),
        (&["--agent", "nobody"], &[]),
        (&["--since", "1h"], &[1, 2, 3, 4, 5]),
    ];
    for (filters, want) in cases {
        let mut args = vec!["query", "--json"];
        args.extend_from_slice(filters);
        let out = audit(&home, &args);
        assert_exit(&out, 0, &format!("{filters:?}"));
        assert_eq!(seqs(&out), want, "{filters:?}");
    }
}

/// Writes two records dated two days ago by hand (the chain as the library
/// builds it), so `--since` has something to leave out; the library then
/// appends after them.
#[test]
fn query_since_leaves_out_older_records() {
    let home = TestHome::new();
    let path = log_path(&home);
    let old = now_ms() - 2 * 86_400_000;
    let mut prev = GENESIS_PREV.to_owned();
    let mut text_out = String::new();
    for seq in 1..=2u64 {
        let line = json!({"v": 1, "seq": seq, "ts": old, "prev": prev,
                          "event": "decision", "agentId": "main", "decision": "deny"})
        .to_string();
        prev = line_hash(line.as_bytes());
        text_out.push_str(&line);
        text_out.push('\n');
    }
    std::fs::create_dir_all(home.state_dir()).unwrap();
    std::fs::write(&path, text_out).unwrap();
    five_records(&path);
    assert_exit(&audit(&home, &["verify"]), 0, "hand-built chain verifies");
    let out = audit(&home, &["query", "--json", "--since", "1d"]);
    assert_exit(&out, 0, "since 1d");
    assert_eq!(seqs(&out), [3, 4, 5, 6, 7]);
    let out = audit(&home, &["query", "--json", "--since", "3d"]);
    assert_eq!(seqs(&out), [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn query_refuses_filters_it_does_not_understand() {
    let home = TestHome::new();
    five_records(&log_path(&home));
    for args in [
        &["query", "--decision", "maybe"][..],
        &["query", "--risk", "HIGH"][..],
        &["query", "--since", "1.5h"][..],
        &["query", "--since", "-5m"][..],
    ] {
        assert_exit(&audit(&home, args), USAGE, &format!("{args:?}"));
    }
}

#[test]
fn tail_prints_the_last_records() {
    let home = TestHome::new();
    five_records(&log_path(&home));
    let out = audit(&home, &["tail", "-n", "2", "--json"]);
    assert_exit(&out, 0, "tail -n 2");
    assert_eq!(seqs(&out), [4, 5]);
    let out = audit(&home, &["tail", "-n", "9", "--json"]);
    assert_eq!(seqs(&out), [1, 2, 3, 4, 5]);
    let out = audit(&home, &["tail", "-n", "1"]);
    let line = text(&out.stdout);
    assert!(line.contains("#5") && line.contains("agent=main") && line.contains("cmd: ls"));
}

#[test]
fn tail_and_query_escape_agent_controlled_text() {
    let home = TestHome::new();
    let log = AuditLog::open(&log_path(&home)).unwrap();
    log.append(record(
        "main\u{202e}",
        AuditDecision::Deny,
        RiskLevel::Low,
        "echo \u{1b}[2J ok\rrm -rf /",
    ))
    .unwrap();
    for args in [&["tail"][..], &["query"][..]] {
        let out = audit(&home, args);
        assert_exit(&out, 0, &format!("{args:?}"));
        let stdout = text(&out.stdout);
        assert!(
            !stdout.contains('\u{1b}') && !stdout.contains('\r') && !stdout.contains('\u{202e}'),
            "{args:?}: {stdout:?}"
        );
        assert!(stdout.contains(r"\u{1b}[2J") && stdout.contains(r"\u{202e}"));
    }
}

/// A log that rotates every 1500 bytes (a few records per file).
fn rotating_log(path: &Path) -> AuditLog {
    AuditLog::open_with(
        path,
        LogOptions {
            rotate_bytes: Some(1500),
            ..LogOptions::default()
        },
    )
    .expect("open log")
}

/// `n` records through a rotating log, agents alternating main and ops.
fn rotated_records(path: &Path, n: usize) {
    let log = rotating_log(path);
    for i in 1..=n {
        let agent = if i % 2 == 0 { "ops" } else { "main" };
        log.append(record(
            agent,
            AuditDecision::Allow,
            RiskLevel::Low,
            &format!("echo {i}"),
        ))
        .expect("append");
    }
}

/// The `seq` of every line of a log file as stored.
fn stored_seqs(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .expect("read log file")
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).expect("json")["seq"]
                .as_u64()
                .expect("seq")
        })
        .collect()
}

#[test]
fn tail_and_query_read_the_rotated_files_in_order() {
    let home = TestHome::new();
    let path = log_path(&home);
    rotated_records(&path, 30);
    let oldest = PathBuf::from(format!("{}.1", path.display()));
    let in_current = stored_seqs(&path);
    // Rotation really happened: the first records are only in LOG.1, and
    // the current file holds fewer than the tail below asks for.
    assert_eq!(stored_seqs(&oldest).first(), Some(&1));
    assert!(in_current.len() < 12 && in_current[0] > 1, "{in_current:?}");

    let out = audit(&home, &["tail", "-n", "12", "--json"]);
    assert_exit(&out, 0, "tail -n 12");
    assert_eq!(seqs(&out), (19..=30).collect::<Vec<_>>());
    let out = audit(&home, &["tail", "-n", "100", "--json"]);
    assert_eq!(seqs(&out), (1..=30).collect::<Vec<_>>());

    let out = audit(&home, &["query", "--json"]);
    assert_exit(&out, 0, "query");
    assert_eq!(seqs(&out), (1..=30).collect::<Vec<_>>());
    let out = audit(&home, &["query", "--agent", "ops", "--json"]);
    assert_eq!(seqs(&out), (2..=30).step_by(2).collect::<Vec<_>>());
}

/// `audit tail -n 1 -f --json` started from `cmd`, with its stdout lines
/// arriving on the receiver as it prints them.
fn follow(mut cmd: std::process::Command) -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = cmd
        .args(["audit", "tail", "-n", "1", "-f", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

#[test]
fn tail_follow_goes_on_into_the_new_file_after_a_rotation() {
    let home = TestHome::new();
    let path = log_path(&home);
    rotated_records(&path, 3);
    let (mut child, rx) = follow(home.command("ui-bridge"));
    // A bound on "never", not a speed claim: a CI machine running other
    // test binaries on its two cores once took over 10 s for one line
    // (six copies of this test beside four busy loops here: 60 s each,
    // every record seen).
    let next_seq = |rx: &mpsc::Receiver<String>| -> u64 {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("tail -f printed a line");
        serde_json::from_str::<Value>(&line).expect("json line")["seq"]
            .as_u64()
            .expect("seq")
    };
    assert_eq!(next_seq(&rx), 3);
    // Enough records for several rotations while tail -f follows.
    let log = rotating_log(&path);
    for i in 4..=30 {
        log.append(record(
            "late",
            AuditDecision::Allow,
            RiskLevel::Low,
            &format!("echo {i}"),
        ))
        .expect("append");
    }
    assert!(PathBuf::from(format!("{}.3", path.display())).exists());
    let seen: Vec<u64> = (4..=30).map(|_| next_seq(&rx)).collect();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(seen, (4..=30).collect::<Vec<_>>());
}

#[test]
fn tail_follow_prints_new_records_and_stops_on_sigint() {
    let home = TestHome::new();
    let path = log_path(&home);
    five_records(&path);
    let (mut child, rx) = follow(home.command("ui-bridge"));
    let first: Value = serde_json::from_str(&rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .expect("json line");
    assert_eq!(first["seq"], json!(5));
    AuditLog::open(&path)
        .unwrap()
        .append(record("late", AuditDecision::Allow, RiskLevel::Low, "true"))
        .unwrap();
    let next: Value = serde_json::from_str(&rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .expect("json line");
    assert_eq!(
        (next["seq"].clone(), next["agentId"].clone()),
        (json!(6), json!("late"))
    );

    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "tail -f ignored SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0), "tail -f exits 0 on SIGINT");
}

#[test]
fn approvals_finds_the_log_beside_a_non_default_approvals_file() {
    let home = TestHome::new();
    let elsewhere = home.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("dir");
    five_records(&elsewhere.join("exec-audit.jsonl"));
    let approvals = elsewhere.join("exec-approvals.json");
    let approvals = approvals.to_string_lossy();
    // The default location has no log; --approvals finds the other one.
    let out = audit(&home, &["verify", "--approvals", &approvals]);
    assert_exit(&out, 0, "verify --approvals");
    assert!(
        text(&out.stdout).contains("5 record(s)"),
        "{}",
        text(&out.stdout)
    );
    let out = audit(
        &home,
        &[
            "query",
            "--approvals",
            &approvals,
            "--agent",
            "ops",
            "--json",
        ],
    );
    assert_exit(&out, 0, "query --approvals");
    assert_eq!(seqs(&out).len(), 2);
    let out = audit(
        &home,
        &["tail", "-n", "1", "--approvals", &approvals, "--json"],
    );
    assert_exit(&out, 0, "tail --approvals");
    assert_eq!(seqs(&out).len(), 1);
    // --audit and --approvals together are a usage error.
    let out = audit(
        &home,
        &["verify", "--approvals", &approvals, "--audit", "/x.jsonl"],
    );
    assert_exit(&out, USAGE, "both flags");
}
