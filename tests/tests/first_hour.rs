//! The first hour of a new user, end to end (issue 13, node side): what
//! `node-host run` says on stderr, its exit codes and their hints, short
//! approval ids with several requests pending, and where the approvals file
//! is found (OpenClaw's `~/.openclaw` included). Real binaries, a real
//! bridge on a real socket, private temp homes.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use approvals_ipc::approvals::PathSource;
use approvals_tests::status::{FILE_ERROR, REFUSED, TIMED_OUT, UNREACHABLE};
use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `node-host run ARGS` in `home`: (exit code, stdout, stderr).
fn run(home: &TestHome, args: &[&str]) -> (Option<i32>, String, String) {
    let out = output(
        home.command("node-host")
            .arg("run")
            .args(args)
            .stdin(Stdio::null()),
    );
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The `node-host:` progress lines of a stderr text.
fn progress_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("node-host: "))
        .collect()
}

/// A bridge whose policy allows `true` and `sleep` and asks about the rest;
/// answers wait up to 30 s.
fn asking_bridge(home: &TestHome) -> Bridge {
    let bridge = Bridge::start(home, &["--approval-timeout-ms", "30000"]);
    let mut file = home.read_approvals();
    file["defaults"] = json!({"security": "allowlist", "ask": "on-miss", "askFallback": "deny"});
    file["agents"] = json!({"main": {"allowlist": [
        {"pattern": real_path("true")}, {"pattern": real_path("sleep")}
    ]}});
    home.write_approvals(&file);
    bridge
}

#[test]
fn a_first_run_without_a_file_or_bridge_says_why_everything_is_denied() {
    let home = TestHome::new();
    let (code, stdout, stderr) = run(&home, &["--", "true"]);
    assert_eq!(code, Some(REFUSED), "{stderr}");
    assert_eq!(stdout, "");
    let lines = progress_lines(&stderr);
    let approvals = home.approvals().display().to_string();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the embedded exec host is used")),
        "{stderr}"
    );
    let no_file = lines
        .iter()
        .find(|l| l.contains("no approvals file at"))
        .unwrap_or_else(|| panic!("no missing-file line: {stderr}"));
    assert!(no_file.contains(&approvals), "{no_file}");
    assert!(no_file.contains("denies everything"), "{no_file}");
    assert!(no_file.contains("./scripts/start"), "{no_file}");
    assert!(stderr.contains("SYSTEM_RUN_DISABLED: security=deny"));

    // --quiet keeps the refusal and drops the progress lines.
    let (code, _, stderr) = run(&home, &["--quiet", "--", "true"]);
    assert_eq!(code, Some(REFUSED));
    assert!(progress_lines(&stderr).is_empty(), "{stderr}");
    assert!(stderr.contains("SYSTEM_RUN_DISABLED: security=deny"));
}

#[test]
fn run_shows_the_files_load_warnings() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "sometimes"}
    }));
    let (code, stdout, stderr) = run(&home, &["--exec-host", "local", "--", "true"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "");
    let warning = progress_lines(&stderr)
        .into_iter()
        .find(|l| l.starts_with("node-host: warning: "))
        .unwrap_or_else(|| panic!("no warning line: {stderr}"));
    assert!(warning.contains("defaults.ask"), "{warning}");
    assert!(
        warning.contains(&home.approvals().display().to_string()),
        "{warning}"
    );
    assert!(!stderr.contains("no approvals file"), "{stderr}");
}

/// A `node-host run --exec-host bridge -- ARGV` whose stderr lines arrive on
/// the returned channel as they are written.
fn spawn_run(home: &TestHome, argv: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--"])
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The next stderr line containing `needle`; a bound so a broken client
/// fails instead of hanging.
fn line_with(rx: &mpsc::Receiver<String>, needle: &str) -> String {
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.contains(needle) => return line,
            Ok(_) => {}
            Err(error) => panic!("no stderr line with {needle:?}: {error}"),
        }
    }
}

/// The short id of a `waiting for approval <id> …` line.
fn short_id_of(line: &str) -> String {
    line.split("waiting for approval ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no id in {line}"))
        .to_owned()
}

fn approvals(home: &TestHome, args: &[&str]) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.arg("approvals").args(args);
    cmd
}

#[test]
fn several_pending_requests_each_say_their_short_id_and_it_answers_them() {
    let home = TestHome::new();
    let bridge = asking_bridge(&home);
    let socket = bridge.socket.display().to_string();
    let commands: [&[&str]; 3] = [&["id"], &["uname"], &["whoami"]];
    let mut runs: Vec<(Child, String)> = Vec::new();
    for argv in commands {
        let (child, rx) = spawn_run(&home, argv);
        let line = line_with(&rx, "waiting for approval");
        assert!(line.starts_with("node-host: "), "{line}");
        assert!(line.contains(&socket), "names the bridge's socket: {line}");
        assert!(line.contains(" UTC "), "says until when: {line}");
        assert!(
            line.contains("ui-bridge approvals resolve"),
            "says how to answer: {line}"
        );
        runs.push((child, short_id_of(&line)));
    }
    // Typable, distinct, and what `approvals list` shows.
    let list = output(&mut approvals(&home, &["list"]));
    assert_eq!(list.status.code(), Some(0), "{}", text(&list.stderr));
    let table = text(&list.stdout);
    let listed = output(&mut approvals(&home, &["list", "--json"]));
    let listed: Value = serde_json::from_slice(&listed.stdout).expect("list json");
    for (_, short) in &runs {
        assert_eq!(short.len(), 4, "{short}");
        assert!(table.contains(short.as_str()), "{short} not in {table}");
        let entry = listed
            .as_array()
            .expect("array")
            .iter()
            .find(|a| a["shortId"] == short.as_str())
            .unwrap_or_else(|| panic!("{short} not in {listed}"));
        assert!(
            entry["id"]
                .as_str()
                .expect("id")
                .starts_with(short.as_str())
        );
    }
    let mut shorts: Vec<&String> = runs.iter().map(|(_, s)| s).collect();
    shorts.sort();
    shorts.dedup();
    assert_eq!(shorts.len(), 3);
    // Each short id answers its own request.
    let answers = ["deny", "once", "deny"];
    for ((_, short), answer) in runs.iter().zip(answers) {
        let out = output(&mut approvals(&home, &["resolve", short, answer]));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let codes: Vec<Option<i32>> = runs
        .into_iter()
        .map(|(child, _)| child.wait_with_output().expect("wait").status.code())
        .collect();
    assert_eq!(codes, [Some(REFUSED), Some(0), Some(REFUSED)]);
    drop(bridge);
}

#[test]
fn each_outcome_has_its_exit_code_and_a_hint_naming_what_to_check() {
    let home = TestHome::new();
    let bridge = asking_bridge(&home);
    let socket = bridge.socket.display().to_string();
    let approvals_file = home.approvals().display().to_string();

    // Timed out: the command ran out of time.
    let (code, _, stderr) = run(
        &home,
        &[
            "--exec-host",
            "bridge",
            "--timeout-ms",
            "300",
            "--",
            "sleep",
            "30",
        ],
    );
    assert_eq!(code, Some(TIMED_OUT), "{stderr}");

    // Auth failure: a client whose approvals file holds another token.
    let other = home.path().join("other");
    std::fs::create_dir(&other).expect("mkdir");
    set_mode(&other, 0o700);
    let mut file = home.read_approvals();
    file["socket"]["token"] = json!("not-the-bridges-token-000000000000");
    let other_file = other.join("exec-approvals.json");
    std::fs::write(&other_file, file.to_string()).expect("write");
    set_mode(&other_file, 0o600);
    let (code, _, stderr) = run(
        &home,
        &[
            "--approvals",
            &other_file.display().to_string(),
            "--socket",
            &socket,
            "--",
            "true",
        ],
    );
    assert_eq!(code, Some(UNREACHABLE), "{stderr}");
    let hint = stderr
        .lines()
        .find(|l| l.starts_with("hint: "))
        .unwrap_or_else(|| panic!("no hint: {stderr}"));
    assert!(
        hint.contains(&other_file.display().to_string()),
        "names the token file the client used: {hint}"
    );
    assert!(hint.contains(&socket), "names the bridge: {hint}");
    assert!(hint.contains("socket.token"), "{hint}");

    // Unreachable: the file has a token, but no bridge answers any more.
    drop(bridge);
    let (code, _, stderr) = run(&home, &["--exec-host", "bridge", "--", "true"]);
    assert_eq!(code, Some(UNREACHABLE), "{stderr}");
    assert!(stderr.contains("COMPANION_UNAVAILABLE"), "{stderr}");
    let hint = stderr
        .lines()
        .find(|l| l.starts_with("hint: "))
        .unwrap_or_else(|| panic!("no hint: {stderr}"));
    assert!(hint.contains(&socket), "names the socket: {hint}");

    // Refused by the policy, without a bridge (auto falls back).
    let (code, _, stderr) = run(&home, &["--", "id"]);
    assert_eq!(code, Some(REFUSED), "{stderr}");

    // Unusable file: the embedded host and the bridge path alike.
    std::fs::write(home.approvals(), "{ not json").expect("write");
    for mode in ["local", "bridge", "auto"] {
        let (code, _, stderr) = run(&home, &["--exec-host", mode, "--", "true"]);
        assert_eq!(code, Some(FILE_ERROR), "{mode}: {stderr}");
        let hint = stderr
            .lines()
            .rfind(|l| l.starts_with("hint: "))
            .unwrap_or_else(|| panic!("{mode}: no hint: {stderr}"));
        assert!(hint.contains(&approvals_file), "{mode}: {stderr}");
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A node-host command in `home` with no state directory variable set.
fn bare(home: &TestHome) -> Command {
    let mut cmd = home.command("node-host");
    cmd.env_remove("CLAWDBOT_STATE_DIR")
        .env_remove("OPENCLAW_STATE_DIR");
    cmd
}

/// The approvals file `explain --json` says it used, and its source word.
fn file_in_use(mut cmd: Command) -> (PathBuf, String) {
    let out = output(cmd.args(["explain", "--json", "--", "true"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: Value = serde_json::from_slice(&out.stdout).expect("json");
    let file = &value["approvalsFile"];
    assert!(
        file["why"].as_str().is_some_and(|w| !w.is_empty()),
        "{value}"
    );
    (
        PathBuf::from(file["path"].as_str().expect("path")),
        file["source"].as_str().expect("source").to_owned(),
    )
}

fn write_policy(path: &Path) {
    let dir = path.parent().expect("dir");
    std::fs::create_dir_all(dir).expect("mkdir");
    set_mode(dir, 0o700);
    std::fs::write(path, r#"{"version":1}"#).expect("write");
    set_mode(path, 0o600);
}

#[test]
fn the_approvals_file_is_found_in_openclaws_order() {
    let home = TestHome::new();
    let claw = home.path().join(".clawdbot/exec-approvals.json");
    let open = home.path().join(".openclaw/exec-approvals.json");

    // Nothing yet: ~/.clawdbot, created on first write.
    assert_eq!(file_in_use(bare(&home)), (claw.clone(), "default".into()));

    // Only OpenClaw's file exists: it is the one used, and edited in place.
    write_policy(&open);
    assert_eq!(
        file_in_use(bare(&home)),
        (open.clone(), "existing-openclaw".into())
    );
    let allowed = output(bare(&home).args(["approvals", "allow", &real_path("true")]));
    assert_eq!(allowed.status.code(), Some(0), "{}", text(&allowed.stderr));
    assert!(
        std::fs::read_to_string(&open)
            .expect("read")
            .contains(&real_path("true"))
    );
    assert!(!claw.exists(), "no second file was created beside it");

    // An existing ~/.clawdbot file comes first.
    write_policy(&claw);
    assert_eq!(
        file_in_use(bare(&home)),
        (claw.clone(), "existing-clawdbot".into())
    );

    // The variables win over both, CLAWDBOT_STATE_DIR first.
    let oc_dir = home.path().join("oc-state");
    let cb_dir = home.path().join("cb-state");
    let mut cmd = bare(&home);
    cmd.env("OPENCLAW_STATE_DIR", &oc_dir);
    assert_eq!(
        file_in_use(cmd),
        (
            oc_dir.join("exec-approvals.json"),
            "OPENCLAW_STATE_DIR".into()
        )
    );
    let mut cmd = bare(&home);
    cmd.env("OPENCLAW_STATE_DIR", &oc_dir)
        .env("CLAWDBOT_STATE_DIR", &cb_dir);
    assert_eq!(
        file_in_use(cmd),
        (
            cb_dir.join("exec-approvals.json"),
            "CLAWDBOT_STATE_DIR".into()
        )
    );

    // And --approvals wins over everything.
    let given = home.path().join("given.json");
    let mut cmd = bare(&home);
    cmd.env("CLAWDBOT_STATE_DIR", &cb_dir)
        .args(["explain", "--approvals"])
        .arg(&given);
    let out = output(cmd.args(["--json", "--", "true"]));
    let value: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(value["approvalsFile"]["path"], given.display().to_string());
    assert_eq!(value["approvalsFile"]["source"], "flag");
}

#[test]
fn explain_names_the_file_and_where_each_policy_value_came_from() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist"},
        "agents": {"main": {"ask": "always"}}
    }));
    let out = output(home.command("node-host").args(["explain", "--", "true"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let file_line = format!(
        "file:     {} (CLAWDBOT_STATE_DIR is set)",
        home.approvals().display()
    );
    assert!(stdout.contains(&file_line), "{stdout}");
    assert!(
        stdout.contains(
            "sources:  security from defaults.security, ask from agents.main.ask, askFallback from built-in"
        ),
        "{stdout}"
    );
}

/// The line `ui-bridge serve ARGS` prints once ready, from a bridge
/// started by `cmd` (which is killed once the line is read).
fn serving_line(mut cmd: Command, args: &[&std::ffi::OsStr]) -> String {
    let mut child = cmd
        .args(["serve", "--approval-timeout-ms", "1500"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ui-bridge");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let line = loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(line) if line.starts_with("ui-bridge: serving ") => break line,
            Ok(line) => seen.push(line),
            Err(err) => panic!("no `serving` line ({err}); stderr so far: {seen:?}"),
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    line
}

/// A ui-bridge command in `home` with no state directory variable set.
fn bare_bridge(home: &TestHome) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.env_remove("CLAWDBOT_STATE_DIR")
        .env_remove("OPENCLAW_STATE_DIR");
    cmd
}

/// The end of the `serving` line for `file` chosen because of `source`.
fn serves(file: &Path, source: PathSource) -> String {
    format!("(approvals {}: {})", file.display(), source.why())
}

#[test]
fn serve_says_which_approvals_file_it_uses_and_why() {
    let home = TestHome::new();
    let claw = home.path().join(".clawdbot/exec-approvals.json");
    let check = |cmd: Command, file: &Path, source: PathSource| {
        let line = serving_line(cmd, &[]);
        assert!(line.ends_with(&serves(file, source)), "{source:?}: {line}");
    };

    // A fresh home: the default, which the bridge then creates.
    check(bare_bridge(&home), &claw, PathSource::DefaultClawdbot);
    assert!(claw.exists());
    check(bare_bridge(&home), &claw, PathSource::ExistingClawdbot);

    let oc_dir = home.path().join("oc-state");
    let mut cmd = bare_bridge(&home);
    cmd.env("OPENCLAW_STATE_DIR", &oc_dir);
    check(
        cmd,
        &oc_dir.join("exec-approvals.json"),
        PathSource::OpenclawStateDir,
    );
    let cb_dir = home.path().join("cb-state");
    let mut cmd = bare_bridge(&home);
    cmd.env("OPENCLAW_STATE_DIR", &oc_dir)
        .env("CLAWDBOT_STATE_DIR", &cb_dir);
    check(
        cmd,
        &cb_dir.join("exec-approvals.json"),
        PathSource::ClawdbotStateDir,
    );
    let given = home.path().join("given/exec-approvals.json");
    write_policy(&given);
    let mut cmd = bare_bridge(&home);
    cmd.env("CLAWDBOT_STATE_DIR", &cb_dir);
    let line = serving_line(cmd, &["--approvals".as_ref(), given.as_os_str()]);
    assert!(line.ends_with(&serves(&given, PathSource::Flag)), "{line}");

    // Only OpenClaw's file: that one, not a new one beside it.
    let other = TestHome::new();
    let open = other.path().join(".openclaw/exec-approvals.json");
    write_policy(&open);
    check(bare_bridge(&other), &open, PathSource::ExistingOpenclaw);
    assert!(!other.path().join(".clawdbot/exec-approvals.json").exists());
}

#[test]
fn doctor_says_which_approvals_file_it_checks_and_why() {
    let home = TestHome::new();
    let open = home.path().join(".openclaw/exec-approvals.json");
    write_policy(&open);
    for binary in ["ui-bridge", "node-host"] {
        // An OpenClaw user's file, found in ~/.openclaw.
        let command = || {
            if binary == "node-host" {
                bare(&home)
            } else {
                bare_bridge(&home)
            }
        };
        let out = output(command().args(["doctor", "--json"]));
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{binary} doctor --json ({e}): {}", text(&out.stderr)));
        assert_eq!(
            report["approvalsFile"],
            json!({
                "path": open.display().to_string(),
                "source": "existing-openclaw",
                "why": PathSource::ExistingOpenclaw.why(),
            }),
            "{binary}: {report}"
        );
        let out = output(command().arg("doctor"));
        let first = text(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        assert_eq!(
            first,
            format!(
                "doctor: checking {} ({})",
                open.display(),
                PathSource::ExistingOpenclaw.why()
            ),
            "{binary}"
        );
    }
    // --approvals wins, and says so.
    let given = home.path().join("given.json");
    let out = output(
        bare_bridge(&home)
            .args(["doctor", "--json", "--approvals"])
            .arg(&given),
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["approvalsFile"]["source"], "flag", "{report}");
    assert_eq!(report["approvalsFile"]["path"], given.display().to_string());
}
