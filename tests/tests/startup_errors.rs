//! Start-up failures of both binaries, end to end: the real `node-host
//! serve`, `node-host service install` and `ui-bridge serve`, started with
//! something missing or wrong. Each must exit with the documented code
//! (README.md, "Exit codes") and say, in its error, which file, directory or
//! address it looked at and what to do about it. The assertions match the
//! stable parts (the path, the flag, the fix command), not the prose.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use approvals_tests::{TestHome, output, status};
use serde_json::json;

/// A gateway address nothing listens on: the node never gets that far, or
/// retries it harmlessly.
const NO_GATEWAY: &str = "ws://127.0.0.1:9";

/// Runs `cmd` to its end: the exit code and stderr.
fn outcome(cmd: &mut Command) -> (Option<i32>, String) {
    let out = output(cmd.stdin(Stdio::null()));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A minimal valid policy, so only the thing under test is wrong.
fn policy(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off"}
    }));
}

fn serve(home: &TestHome) -> Command {
    let mut cmd = home.command("node-host");
    cmd.args(["serve", "--gateway", NO_GATEWAY]);
    cmd
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn serve_without_its_token_file_says_which_file_why_and_how_to_create_it() {
    let home = TestHome::new();
    policy(&home);
    let token = home.state_dir().join("gateway.token");
    let (code, stderr) = outcome(serve(&home).arg("--token-file").arg(&token));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    let token = shown(&token);
    assert!(
        stderr.contains(&format!("no gateway token file at {token}")),
        "{stderr}"
    );
    // Why it is needed, and the exact command that creates it.
    assert!(stderr.contains("gateway.auth.token"), "{stderr}");
    assert!(
        stderr.contains(&format!("hint: install -m 600 /dev/null {token}")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("--token-file {token}")),
        "{stderr}"
    );
    // Nothing was started: no identity was made for a node that cannot join.
    assert!(!home.state_dir().join("node").exists(), "{stderr}");
}

#[test]
fn serve_with_an_empty_token_file_refuses_and_names_it() {
    let home = TestHome::new();
    policy(&home);
    let token = home.path().join("gw.token");
    std::fs::write(&token, "\n").expect("write");
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let (code, stderr) = outcome(serve(&home).arg("--token-file").arg(&token));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(
        stderr.contains(&format!("{} (--token-file) is empty", shown(&token))),
        "{stderr}"
    );
    assert!(stderr.contains("hint: install -m 600"), "{stderr}");
}

#[test]
fn serve_with_a_bad_gateway_url_is_a_usage_error() {
    let home = TestHome::new();
    policy(&home);
    let (code, stderr) =
        outcome(
            home.command("node-host")
                .args(["serve", "--gateway", "http://gw.example.net"]),
        );
    assert_eq!(code, Some(status::USAGE), "{stderr}");
    assert!(stderr.contains("\"http://gw.example.net\""), "{stderr}");
    assert!(stderr.contains("hint: use"), "{stderr}");
}

#[test]
fn serve_refuses_a_corrupt_approvals_file_at_start_and_names_it() {
    let home = TestHome::new();
    policy(&home);
    std::fs::write(home.approvals(), "{\"version\": 1,,}\n").expect("write");
    let (code, stderr) = outcome(&mut serve(&home));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot parse {}", shown(&home.approvals()))),
        "{stderr}"
    );
    assert!(stderr.contains("line 1, column"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
}

#[test]
fn serve_with_a_state_directory_it_cannot_create_names_it() {
    let home = TestHome::new();
    policy(&home);
    let blocker = home.path().join("a-file");
    std::fs::write(&blocker, "").expect("write");
    let state = blocker.join("node");
    let (code, stderr) = outcome(serve(&home).arg("--state-dir").arg(&state));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(stderr.contains(&shown(&state)), "{stderr}");
    assert!(stderr.contains("--state-dir"), "{stderr}");
}

/// Spawns `cmd` with stderr in a file; waits until it holds `needle`, then
/// kills the process; the whole stderr.
fn stderr_once_it_says(mut cmd: Command, home: &TestHome, needle: &str) -> String {
    let log = home.path().join("serve.log");
    let file = std::fs::File::create(&log).expect("log file");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(file)
        .spawn()
        .expect("start");
    let deadline = Instant::now() + Duration::from_secs(30);
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains(needle) {
            break text;
        }
        if let Ok(Some(exit)) = child.try_wait() {
            panic!("exited ({exit}) without saying {needle:?}:\n{text}");
        }
        assert!(Instant::now() < deadline, "never said {needle:?}:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = child.kill();
    let _ = child.wait();
    text
}

#[test]
fn serve_without_any_credential_or_approvals_file_starts_and_says_what_is_missing() {
    let home = TestHome::new();
    let text = stderr_once_it_says(serve(&home), &home, "node-host serving");
    let tokens = home.state_dir().join("node").join("device-tokens.json");
    assert!(text.contains("no gateway token"), "{text}");
    assert!(text.contains(&shown(&tokens)), "{text}");
    assert!(text.contains("--token-file"), "{text}");
    assert!(
        text.contains(&format!(
            "no approvals file at {}",
            shown(&home.approvals())
        )),
        "{text}"
    );
    assert!(text.contains("node-host approvals allow"), "{text}");
    // A log, not a terminal: no colour codes in the journal.
    assert!(!text.contains('\u{1b}'), "{text:?}");
}

#[test]
fn the_token_files_hint_works_as_printed_where_no_directory_exists_yet() {
    // A fresh machine: no bridge ever ran, so ~/.clawdbot is not there,
    // and the path has a space a shell would split.
    let home = TestHome::new();
    let units = home.path().join("units");
    let dir = home.path().join("new state");
    let token = dir.join("gateway.token");
    let install = || {
        outcome(
            home.command("node-host")
                .args(["service", "install", "--gateway", NO_GATEWAY, "--unit-dir"])
                .arg(&units)
                .arg("--token-file")
                .arg(&token),
        )
    };
    let (code, stderr) = install();
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    let hint = stderr
        .lines()
        .find_map(|line| line.strip_prefix("hint: "))
        .and_then(|hint| hint.split_once(", then pass --token-file "))
        .map(|(command, _)| command.to_owned())
        .unwrap_or_else(|| panic!("no hint with a command: {stderr}"));
    let ran = output(
        Command::new("sh")
            .args(["-c", &hint])
            .env("TOKEN", "shared-token-from-the-gateway"),
    );
    assert!(ran.status.success(), "{hint}: {ran:?}");
    assert_eq!(
        std::fs::read_to_string(&token).expect("the hint made the file"),
        "shared-token-from-the-gateway\n"
    );
    let mode = |path: &Path| std::fs::metadata(path).expect("stat").permissions().mode() & 0o777;
    assert_eq!(mode(&token), 0o600, "{hint}");
    assert_eq!(mode(&dir), 0o700, "{hint}");
    let (code, stderr) = install();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(units.join("node-host.service").exists());
}

#[test]
fn service_install_refuses_a_token_file_that_is_missing() {
    let home = TestHome::new();
    policy(&home);
    let units = home.path().join("units");
    let token = home.state_dir().join("gateway.token");
    let (code, stderr) = outcome(
        home.command("node-host")
            .args(["service", "install", "--gateway", NO_GATEWAY, "--unit-dir"])
            .arg(&units)
            .arg("--token-file")
            .arg(&token),
    );
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(
        stderr.contains(&format!("no gateway token file at {}", shown(&token))),
        "{stderr}"
    );
    assert!(stderr.contains("hint: install -m 600"), "{stderr}");
    assert!(!units.join("node-host.service").exists());
}

fn bridge(home: &TestHome) -> Command {
    let mut cmd = home.command("ui-bridge");
    cmd.arg("serve");
    cmd
}

#[test]
fn bridge_refuses_a_corrupt_approvals_file_and_names_it() {
    let home = TestHome::new();
    policy(&home);
    std::fs::write(home.approvals(), "{\"version\": 1, \"defaults\": [}\n").expect("write");
    let (code, stderr) = outcome(&mut bridge(&home));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot parse {}", shown(&home.approvals()))),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(
        !home.state_dir().join("exec-approvals.sock").exists(),
        "a socket was left behind"
    );
}

#[test]
fn bridge_refuses_a_socket_directory_others_can_enter_and_says_the_chmod() {
    let home = TestHome::new();
    policy(&home);
    let dir = home.path().join("sockets");
    std::fs::create_dir(&dir).expect("mkdir");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let (code, stderr) = outcome(bridge(&home).arg("--socket").arg(dir.join("b.sock")));
    assert_eq!(code, Some(status::FILE_ERROR), "{stderr}");
    assert!(
        stderr.contains(&format!("socket directory {}", shown(&dir))),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("hint: chmod 700 {}", shown(&dir))),
        "{stderr}"
    );
}

#[test]
fn bridge_with_its_web_port_taken_names_the_address_where_it_came_from_and_the_fix() {
    let home = TestHome::new();
    policy(&home);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let (code, stderr) = outcome(bridge(&home).args(["--web", &addr]));
    assert_eq!(code, Some(status::USAGE), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot listen for the web page on {addr} (from --web)"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("--web 127.0.0.1:0"), "{stderr}");
    // The OS's words once, not repeated after the hint.
    let error_text = stderr
        .lines()
        .filter(|line| line.starts_with("error:") || line.starts_with("hint:"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        error_text.matches("(os error").count(),
        1,
        "the cause is printed more than once:\n{stderr}"
    );
    assert!(
        !home.state_dir().join("exec-approvals.sock").exists(),
        "a socket was left behind"
    );

    // From the file: the message names the file, since every start fails.
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "web": addr}
    }));
    let (code, stderr) = outcome(&mut bridge(&home));
    assert_eq!(code, Some(status::USAGE), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "(from defaults.web in {})",
            shown(&home.approvals())
        )),
        "{stderr}"
    );
    drop(taken);
}

#[test]
fn bridge_with_a_missing_hook_in_the_file_names_the_file_and_the_program() {
    let home = TestHome::new();
    let hook = home.path().join("no-such-hook");
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "approverCommand": hook.display().to_string()}
    }));
    let (code, stderr) = outcome(&mut bridge(&home));
    assert_eq!(code, Some(status::USAGE), "{stderr}");
    let first = stderr
        .lines()
        .find(|line| line.starts_with("error:"))
        .unwrap_or_default();
    // One line names where the hook came from and which program is missing.
    assert!(
        first.contains(&format!(
            "defaults.approverCommand in {}",
            shown(&home.approvals())
        )),
        "{stderr}"
    );
    assert!(first.contains(&shown(&hook)), "{stderr}");
    assert!(first.contains("does not exist"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
}
