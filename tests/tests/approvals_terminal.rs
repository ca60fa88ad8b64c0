//! The terminal approver end to end: the real `ui-bridge serve` in a real
//! pseudo-terminal (tmux), real `node-host run` requests from the test, keys
//! sent as a person would type them, and the screen read back.
//!
//! Skipped, with a printed reason, when tmux is not installed.

use std::process::{Child, Stdio};

use approvals_tests::screen::{Screen, tmux_available};
use approvals_tests::{TestHome, allowlist_patterns, output, real_path};
use serde_json::{Value, json};

/// The line the prompt shows once keys answer.
const KEYS_LINE: &str = "[o] allow once";

/// A policy that asks about everything except `true`.
fn asking_policy(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("true")}]}}
    }));
}

/// `node-host run --exec-host bridge -- ARGV`, in the background.
fn request(home: &TestHome, argv: &[&str]) -> Child {
    home.command("node-host")
        .args(["run", "--exec-host", "bridge", "--"])
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host")
}

fn finish(child: Child) -> (Option<i32>, String, String) {
    let out = child.wait_with_output().expect("wait for node-host");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn patterns(home: &TestHome) -> Vec<String> {
    allowlist_patterns(&home.read_approvals(), "main")
}

fn explain_decision(home: &TestHome, argv: &[&str]) -> String {
    let out = output(
        home.command("node-host")
            .args(["explain", "--json", "--"])
            .args(argv),
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("explain --json");
    v["decision"].as_str().unwrap_or("?").to_owned()
}

/// Asks about `argv`, waits for its prompt, presses `key`; node-host's result.
fn ask_and_press(
    home: &TestHome,
    screen: &Screen,
    argv: &[&str],
    shown: &str,
    key: &str,
) -> (Option<i32>, String, String) {
    let child = request(home, argv);
    screen.wait_for(&[shown, KEYS_LINE]);
    screen.press(key);
    finish(child)
}

#[test]
fn allow_once_runs_the_command_and_its_output_comes_back() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let before = patterns(&home);
    let (code, stdout, stderr) = ask_and_press(
        &home,
        &screen,
        &["printf", "%s-once", "allowed"],
        "printf %s-once allowed",
        "o",
    );
    assert_eq!(
        (code, stdout.as_str()),
        (Some(0), "allowed-once"),
        "{stderr}"
    );
    assert_eq!(patterns(&home), before, "allow-once persists nothing");
    // Back on the normal screen, the answer is recorded in one line.
    screen.wait_for(&["terminal: allow-once printf %s-once allowed"]);
}

#[test]
fn deny_refuses_with_user_denied() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let marker = home.path().join("denied-marker");
    let marker = marker.to_string_lossy();
    let (code, _, stderr) = ask_and_press(&home, &screen, &["touch", &marker], "touch", "d");
    assert_eq!(code, Some(126), "{stderr}");
    assert!(stderr.contains("user denied"), "{stderr}");
    assert!(!home.path().join("denied-marker").exists());
}

#[test]
fn allow_always_persists_the_real_path_and_git_runs_unasked_afterwards() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let git = real_path("git");
    assert_eq!(explain_decision(&home, &["git", "log"]), "ask");
    let (code, _, stderr) = ask_and_press(&home, &screen, &["git", "status"], "git status", "a");
    // Outside a repository git exits 128: it ran, which is what counts.
    assert!(!stderr.contains("SYSTEM_RUN_DENIED"), "{code:?} {stderr}");
    assert!(patterns(&home).contains(&git), "{:?}", patterns(&home));
    assert_eq!(explain_decision(&home, &["git", "log"]), "allow");
    // And it runs without a prompt.
    let (code, stdout, _) = finish(request(&home, &["git", "--version"]));
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("git version"), "{stdout}");
}

#[test]
fn allow_always_of_a_shell_script_allows_that_script_only() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let (_, _, stderr) = ask_and_press(
        &home,
        &screen,
        &["bash", "-c", "git status"],
        "git status",
        "a",
    );
    assert!(!stderr.contains("SYSTEM_RUN_DENIED"), "{stderr}");
    let saved = patterns(&home);
    assert!(
        !saved.contains(&real_path("bash")),
        "a shell must never be allowlisted by path: {saved:?}"
    );
    assert_eq!(
        explain_decision(&home, &["bash", "-c", "git status"]),
        "allow"
    );
    assert_eq!(explain_decision(&home, &["bash", "-c", "id"]), "ask");
}

#[test]
fn invisible_characters_are_shown_escaped() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    for (text, shown) in [
        ("zero\u{200b}width", "zero\\u{200B}width"),
        ("bidi\u{202e}txt.exe", "bidi\\u{202E}txt.exe"),
    ] {
        let child = request(&home, &["echo", text]);
        let pane = screen.wait_for(&[shown, KEYS_LINE]);
        assert!(!pane.contains(text), "the raw character reached the screen");
        screen.press("d");
        let (code, _, _) = finish(child);
        assert_eq!(code, Some(126));
    }
}

#[test]
fn other_approvals_wait_in_a_visible_queue() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let first = request(&home, &["echo", "first-in-line"]);
    screen.wait_for(&["command:  echo first-in-line"]);
    let second = request(&home, &["echo", "second-in-line"]);
    screen.wait_for(&["1 more waiting:", "second-in-line"]);
    let third = request(&home, &["echo", "third-in-line"]);
    let pane = screen.wait_for(&["2 more waiting:", "second-in-line", "third-in-line"]);
    assert!(pane.contains("command:  echo first-in-line"), "{pane}");
    // Answered oldest first.
    screen.wait_for(&[KEYS_LINE]);
    screen.press("o");
    screen.wait_for(&["command:  echo second-in-line", KEYS_LINE]);
    screen.press("d");
    screen.wait_for(&["command:  echo third-in-line", KEYS_LINE]);
    screen.press("o");
    assert_eq!(finish(first).1, "first-in-line\n");
    assert_eq!(finish(second).0, Some(126));
    assert_eq!(finish(third).1, "third-in-line\n");
}

#[test]
fn allow_always_is_ignored_with_a_note_when_not_offered() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "always", "askFallback": "deny"},
        "agents": {"main": {"allowlist": []}}
    }));
    let screen = Screen::start_bridge(&home, "");
    let child = request(&home, &["echo", "asked-always"]);
    screen.wait_for(&["echo asked-always", KEYS_LINE, "allow always not offered"]);
    screen.press("a");
    screen.wait_for(&["note: allow always is not offered"]);
    screen.press("d");
    assert_eq!(finish(child).0, Some(126));
    assert!(patterns(&home).is_empty());
}

#[test]
fn ctrl_c_denies_restores_the_terminal_and_stops_the_bridge() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let child = request(&home, &["echo", "interrupted"]);
    screen.wait_for(&["echo interrupted", KEYS_LINE]);
    screen.press("C-c");
    let (code, _, stderr) = finish(child);
    assert_eq!(code, Some(126), "{stderr}");
    let pane = screen.wait_for(&["bridge-exited=0"]);
    let mode = screen.wait_for(&["icanon"]);
    assert!(!mode.contains("-icanon"), "terminal left raw:\n{pane}");
}

#[test]
fn node_host_with_the_embedded_host_asks_at_its_own_terminal() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::spawn(
        &home,
        "node-host",
        "run --exec-host local -- printf '%s\\n' asked-locally",
    );
    screen.wait_for(&["command:  printf", "asked-locally", KEYS_LINE]);
    screen.press("o");
    let pane = screen.wait_for(&["node-host-exited=0", "icanon"]);
    // The prompt is gone and the command's output printed after it.
    assert!(pane.contains("\nasked-locally\n"), "{pane}");
    assert!(!pane.contains("-icanon"), "terminal left raw:\n{pane}");
    assert!(!pane.contains(KEYS_LINE), "{pane}");
}

/// A shell command of eight segments: too much for a 60x15 screen in full.
const EIGHT_STEPS: &str = "echo step-one && echo step-two && echo step-three && \
    echo step-four && echo step-five && echo step-six && echo step-seven && \
    echo step-eight-is-last";

#[test]
fn a_60x15_pane_keeps_the_id_countdown_command_and_keys_and_the_keys_work() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge_sized(&home, "", (60, 15));
    let child = request(&home, &["bash", "-c", EIGHT_STEPS]);
    // The whole command, each word whole, the id and countdown, and the keys.
    let pane = screen.wait_for(&[
        "== approval requested (",
        "expires in ",
        "command:  bash -c",
        "step-one",
        "step-eight-is-last",
        KEYS_LINE,
        "[d] deny",
    ]);
    assert!(
        pane.lines().count() <= 15,
        "more rows than the pane:\n{pane}"
    );
    for line in pane.lines() {
        assert!(
            line.chars().count() <= 60,
            "{line:?} is wider than the pane"
        );
        // Never cut inside a word: every step word shows whole.
        assert!(!line.ends_with("step-"), "{line:?} was cut mid-word");
    }
    // The segments are folded, and `e` unfolds them; `j` scrolls to them,
    // one row per key (each waited for, so no two keys arrive as one).
    screen.wait_for(&["0 above", "e: full segments"]);
    screen.press("e");
    screen.wait_for(&["e: fold segments"]);
    let mut scrolled = 0;
    while !screen.capture().contains("  resolved: ") {
        scrolled += 1;
        assert!(scrolled < 30, "scrolling never reached the segments");
        screen.press("j");
        screen.wait_for(&[&format!("-- {scrolled} above")]);
    }
    // The keys still answer: the waiting `node-host run` gets the outcome.
    screen.press("o");
    let (code, stdout, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("step-one\n"), "{stdout}");
    assert!(stdout.ends_with("step-eight-is-last\n"), "{stdout}");
}

#[test]
fn a_60x15_pane_keeps_the_command_and_keys_while_log_lines_arrive_and_cuts_them_after() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge_sized(&home, "", (60, 15));
    let child = request(&home, &["bash", "-c", EIGHT_STEPS]);
    screen.wait_for(&["command:  bash -c", KEYS_LINE]);
    // Other requests arrive and go away while the prompt shows: each one
    // logs `approval requested` and `approval cancelled` (long lines with
    // ids) at once, concurrently with the prompt.
    for round in 0..3 {
        let marker = format!("concurrent-request-{round}");
        let mut extra = request(&home, &["printf", "%s", &marker]);
        // The narrow prompt folds the queue to a count.
        screen.wait_for(&["1 more"]);
        let _ = extra.kill();
        let _ = extra.wait();
        // Gone from the queue, so both of its log lines have been written.
        let deadline = std::time::Instant::now() + approvals_tests::screen::SCREEN_WAIT;
        while screen.capture().contains("1 more") {
            assert!(
                std::time::Instant::now() < deadline,
                "{marker} never left the queue"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        // The command and the keys are still on the screen, and no log
        // line landed in the prompt.
        let pane = screen.capture();
        assert!(pane.contains("command:  bash -c"), "round {round}:\n{pane}");
        assert!(pane.contains(KEYS_LINE), "round {round}:\n{pane}");
        assert!(pane.contains("[d] deny"), "round {round}:\n{pane}");
        assert!(
            !pane.contains(" INFO ") && !pane.contains("timeout_ms"),
            "a log line was drawn into the prompt (round {round}):\n{pane}"
        );
        assert!(pane.lines().count() <= 15, "{pane}");
    }
    // The keys still answer.
    screen.press("o");
    let (code, stdout, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.ends_with("step-eight-is-last\n"), "{stdout}");
    // The held lines come out after the prompt, on the normal screen, each
    // cut to the pane's width with an ellipsis instead of wrapping (the
    // capture joins wrapped rows, so a wrapped line would be wider).
    let pane = screen.wait_for(&[
        "INFO approval requested",
        "INFO approval cancelled",
        "terminal: allow",
    ]);
    let logged: Vec<&str> = pane
        .lines()
        .filter(|line| line.contains(" INFO ") || line.starts_with("terminal: "))
        .collect();
    assert!(logged.len() >= 7, "{pane}");
    for line in &logged {
        assert!(
            line.chars().count() <= 60,
            "{line:?} is wider than the pane:\n{pane}"
        );
    }
    assert!(
        logged
            .iter()
            .any(|line| line.contains("INFO approval") && line.ends_with('…')),
        "long log lines are cut with an ellipsis:\n{pane}"
    );
    // The answered line is cut too; the audit log keeps the whole command.
    let answered = logged
        .iter()
        .find(|line| line.starts_with("terminal: allow-once bash -c"))
        .unwrap_or_else(|| panic!("no answered line:\n{pane}"));
    assert!(answered.ends_with('…'), "{answered:?}");
    let audit = home.state_dir().join("exec-audit.jsonl");
    let deadline = std::time::Instant::now() + approvals_tests::screen::SCREEN_WAIT;
    while !std::fs::read_to_string(&audit)
        .unwrap_or_default()
        .contains("step-eight-is-last")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the audit log never held the whole command"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_resized_terminal_is_redrawn_at_its_new_size() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let child = request(&home, &["bash", "-c", EIGHT_STEPS]);
    // Roomy: every segment in full.
    screen.wait_for(&["segment 8: [echo] [step-eight-is-last]", KEYS_LINE]);
    screen.resize((60, 15));
    let pane = screen.wait_for(&["e: full segments", KEYS_LINE]);
    assert!(pane.contains("step-eight-is-last"), "{pane}");
    screen.press("d");
    let (code, _, stderr) = finish(child);
    assert_eq!(code, Some(126), "{stderr}");
    assert!(stderr.contains("user denied"), "{stderr}");
}

#[test]
fn log_lines_written_while_the_prompt_shows_appear_after_it() {
    if !tmux_available() {
        return;
    }
    let home = TestHome::new();
    asking_policy(&home);
    let screen = Screen::start_bridge(&home, "");
    let (code, _, stderr) = ask_and_press(
        &home,
        &screen,
        &["printf", "%s", "logged"],
        "printf %s logged",
        "o",
    );
    assert_eq!(code, Some(0), "{stderr}");
    // The answer is logged while the prompt is still drawn: held, then
    // written on the normal screen (not lost on the alternate one).
    let pane = screen.wait_for(&["terminal: allow-once printf %s logged", "approval answered"]);
    assert_eq!(
        pane.matches("approval answered").count(),
        1,
        "logged more than once:\n{pane}"
    );
}
