//! `node-host run` end to end: the real binaries, a real bridge on a real
//! socket in a private home, real commands.

use std::process::Stdio;
use std::time::{Duration, Instant};

use approvals_tests::status::{NOT_FOUND, UNREACHABLE, USAGE};
use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

fn policy(ask_fallback: &str) -> Value {
    json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": ask_fallback},
        "agents": {"main": {"allowlist": [
            {"pattern": real_path("ls")}, {"pattern": real_path("printf")}, {"pattern": real_path("echo")},
            {"pattern": real_path("sleep")}, {"pattern": real_path("true")}
        ]}}
    })
}

fn run(home: &TestHome, args: &[&str]) -> (Option<i32>, String, String) {
    let out = output(home.command("node-host").arg("run").args(args));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn allowed_commands_print_their_output_and_exit_with_their_status_through_the_bridge() {
    let home = TestHome::new();
    let _bridge = Bridge::start(&home, &[]);
    // The bridge created the file; give it our allowlist, keeping its token.
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(home.approvals()).expect("read")).expect("json");
    file["defaults"] = policy("deny")["defaults"].clone();
    file["agents"] = policy("deny")["agents"].clone();
    home.write_approvals(&file);

    let (code, stdout, _) = run(
        &home,
        &["--exec-host", "bridge", "--", "printf", "%s|", "a b", "c"],
    );
    assert_eq!((code, stdout.as_str()), (Some(0), "a b|c|"));
    let (code, _, stderr) = run(
        &home,
        &["--exec-host", "bridge", "--", "ls", "/nonexistent-dir"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("nonexistent-dir"));

    let (code, _, stderr) = run(&home, &["--exec-host", "bridge", "--", "id"]);
    assert_eq!(code, Some(126));
    // After the `node-host: waiting for approval …` line, the refusal.
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("SYSTEM_RUN_DENIED: "), "{stderr}");

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
    assert_eq!(code, Some(124), "{stderr}");

    let (code, stdout, _) = run(
        &home,
        &[
            "--exec-host",
            "bridge",
            "--json",
            "--",
            "ls",
            "/nonexistent-dir",
        ],
    );
    assert_eq!(code, Some(2));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["ok"], true);
    assert_eq!(v["payload"]["exitCode"], 2);
    assert_eq!(v["payload"]["success"], false);

    // A blocked environment override is refused, not dropped.
    let (code, _, stderr) = run(
        &home,
        &[
            "--exec-host",
            "bridge",
            "--env",
            "LD_PRELOAD=/tmp/x.so",
            "--",
            "true",
        ],
    );
    assert_eq!(code, Some(126));
    assert!(stderr.contains("LD_PRELOAD"), "{stderr}");
}

#[test]
fn shell_plans_print_what_the_shell_would() {
    let home = TestHome::new();
    home.write_approvals(&policy("deny"));
    let script = "printf 'a b\\n' | tr a-z A-Z && echo done; ls /nonexistent-dir 2>/dev/null || echo fallback";
    let (code, stdout, stderr) = run(&home, &["--exec-host", "local", "--shell", script]);
    let sh = output(std::process::Command::new("/bin/sh").args(["-c", script]));
    assert_eq!(code, sh.status.code(), "{stderr}");
    assert_eq!(stdout, String::from_utf8_lossy(&sh.stdout));
}

#[test]
fn text_the_policy_did_not_understand_never_reaches_a_shell_without_approval() {
    let home = TestHome::new();
    home.write_approvals(&policy("deny"));
    let marker = home.path().join("marker");
    let script = format!("echo \"$(touch {})\"", marker.display());
    let (code, _, stderr) = run(&home, &["--exec-host", "local", "--shell", &script]);
    assert_eq!(code, Some(126), "{stderr}");
    assert!(!marker.exists(), "the substitution must not have run");
}

#[test]
fn a_program_that_does_not_resolve_is_not_found() {
    let home = TestHome::new();
    home.write_approvals(&json!({"version": 1, "defaults": {"security": "full", "ask": "off"}}));
    let (code, _, stderr) = run(&home, &["--exec-host", "local", "--", "no-such-tool-xyz"]);
    assert_eq!(code, Some(NOT_FOUND), "{stderr}");
    assert!(
        stderr.contains("no-such-tool-xyz: command not found"),
        "{stderr}"
    );
}

#[test]
fn bridge_mode_fails_closed_without_a_bridge_and_auto_falls_back_to_local() {
    let home = TestHome::new();
    home.write_approvals(&policy("deny"));
    let (code, _, stderr) = run(&home, &["--exec-host", "bridge", "--", "echo", "hi"]);
    assert_eq!(code, Some(UNREACHABLE));
    assert!(stderr.contains("COMPANION_UNAVAILABLE"), "{stderr}");
    let (code, stdout, _) = run(&home, &["--", "echo", "hi"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "hi\n"));
}

#[test]
fn killing_the_bridge_mid_request_gives_a_clear_error() {
    let home = TestHome::new();
    let bridge = Bridge::start(&home, &[]);
    let mut file: Value =
        serde_json::from_slice(&std::fs::read(home.approvals()).expect("read")).expect("json");
    file["agents"] = policy("deny")["agents"].clone();
    home.write_approvals(&file);
    let started = Instant::now();
    let client = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "sleep", "5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node-host");
    std::thread::sleep(Duration::from_millis(700));
    bridge.signal("-KILL");
    let out = client.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(UNREACHABLE), "{stderr}");
    assert!(stderr.contains("closed the connection"), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(30), "no hang");
    drop(bridge);
}

#[test]
fn usage_errors_exit_with_the_usage_status() {
    let home = TestHome::new();
    let (code, _, _) = run(&home, &[]);
    assert_eq!(code, Some(USAGE));
    let (code, _, _) = run(&home, &["--env", "NOEQUALS", "--", "true"]);
    assert_eq!(code, Some(USAGE));
    // `--help` teaches the exit statuses, the ones scripts rely on pinned.
    let help = output(home.command("node-host").arg("--help"));
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8_lossy(&help.stdout);
    for row in [
        "Exit status:",
        "  64 ",
        "  66 ",
        "  69 ",
        "  124 ",
        "  126 ",
        "  127 ",
    ] {
        assert!(help.contains(row), "{row:?} missing from --help: {help}");
    }
}

#[test]
fn find_exec_runs_the_checked_reader_and_never_an_unchecked_deleter() {
    let home = TestHome::new();
    let mut file = policy("deny");
    for name in ["find", "grep", "rm"] {
        file["agents"]["main"]["allowlist"]
            .as_array_mut()
            .unwrap()
            .push(json!({"pattern": real_path(name)}));
    }
    home.write_approvals(&file);
    let tree = home.path().join("tree");
    std::fs::create_dir_all(tree.join("src")).unwrap();
    std::fs::write(tree.join("src/a.txt"), "needle\n").unwrap();
    std::fs::write(tree.join("src/b.txt"), "hay\n").unwrap();
    let root = tree.to_string_lossy().into_owned();

    // find runs grep, which was checked as a segment of its own.
    let script = format!("find {root} -name '*.txt' -exec grep -l needle {{}} +");
    let (code, stdout, stderr) = run(&home, &["--exec-host", "local", "--shell", &script]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, format!("{root}/src/a.txt\n"));

    // rm through find may delete anything under the tree, .git included:
    // asked, and with nobody to ask, refused before anything runs.
    let script = format!("find {root} -name '*.txt' -exec rm {{}} +");
    let (code, _, stderr) = run(&home, &["--exec-host", "local", "--shell", &script]);
    assert_eq!(code, Some(126), "{stderr}");
    assert!(tree.join("src/a.txt").exists(), "nothing may have run");
}

#[test]
fn an_allowlisted_reader_cannot_hand_the_socket_token_or_a_key_to_the_agent() {
    let home = TestHome::new();
    let mut file = policy("deny");
    for name in ["cat", "cp"] {
        file["agents"]["main"]["allowlist"]
            .as_array_mut()
            .unwrap()
            .push(json!({"pattern": real_path(name)}));
    }
    file["socket"] = json!({"token": "secret-token-for-this-test"});
    home.write_approvals(&file);
    let ssh = home.path().join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "PRIVATE KEY\n").unwrap();
    std::fs::write(ssh.join("id_ed25519.pub"), "ssh-ed25519 AAAA\n").unwrap();
    let approvals = home.approvals().to_string_lossy().into_owned();
    let key = ssh.join("id_ed25519").to_string_lossy().into_owned();
    let copy = home.path().join("copy").to_string_lossy().into_owned();
    for argv in [
        vec!["cat", approvals.as_str()],
        vec!["cat", key.as_str()],
        vec!["cp", key.as_str(), copy.as_str()],
    ] {
        let mut args = vec!["--exec-host", "local", "--"];
        args.extend(argv.iter().copied());
        let (code, stdout, stderr) = run(&home, &args);
        assert_eq!(code, Some(126), "{argv:?}: {stderr}");
        // The refusal names the protected path it saw.
        assert!(stderr.contains(argv[1]), "{argv:?}: {stderr}");
        let v = home.explain(&[&["--"][..], &argv].concat());
        let ids: Vec<&str> = v["analysis"]["segments"][0]["guards"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|g| g["id"].as_str())
            .collect();
        assert_eq!(ids, ["secrets.path"], "{argv:?}");
        assert!(!stdout.contains("secret-token") && !stdout.contains("PRIVATE"));
    }
    assert!(!home.path().join("copy").exists());
    // The public half stays readable.
    let public = ssh.join("id_ed25519.pub").to_string_lossy().into_owned();
    let (code, stdout, stderr) = run(&home, &["--exec-host", "local", "--", "cat", &public]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "ssh-ed25519 AAAA\n");
}

#[test]
fn stdin_from_a_file_runs_through_the_executor_and_reads_the_checked_file() {
    let home = TestHome::new();
    home.write_approvals(&policy("deny"));
    let proj = home.path().join("proj");
    std::fs::create_dir_all(proj.join("sub")).unwrap();
    std::fs::write(proj.join("in.txt"), "hello\n").unwrap();
    std::fs::write(proj.join("sub/in.txt"), "from sub\n").unwrap();
    // A name a shell re-reading the text unquoted would run as a command.
    std::fs::write(proj.join("a b;touch pwned"), "tricky\n").unwrap();
    let cwd = proj.to_string_lossy().into_owned();
    let shell = |script: &str| {
        run(
            &home,
            &["--exec-host", "local", "--cwd", &cwd, "--shell", script],
        )
    };
    // tr and wc are default safe bins: no allowlist entry, the file read.
    for (script, want) in [
        ("tr a-z A-Z < in.txt", "HELLO\n"),
        ("tr a-z A-Z 0<in.txt", "HELLO\n"),
        ("tr a-z A-Z < 'a b;touch pwned'", "TRICKY\n"),
        ("cd sub && tr a-z A-Z < in.txt", "FROM SUB\n"),
        ("echo ignored | tr a-z A-Z < in.txt", "HELLO\n"),
        ("wc -c < /dev/null", "0\n"),
    ] {
        let (code, stdout, stderr) = shell(script);
        assert_eq!(code, Some(0), "{script}: {stderr}");
        assert_eq!(stdout, want, "{script}");
        // What bash does with the same text, in the same directory.
        let sh = output(
            std::process::Command::new("/bin/bash")
                .args(["-c", script])
                .current_dir(&proj),
        );
        assert_eq!(stdout, String::from_utf8_lossy(&sh.stdout), "{script}");
        assert!(
            !proj.join("pwned").exists(),
            "{script}: text re-read by a shell"
        );
    }
    // What cat may not read, a device or a missing file: asked, and with
    // nobody to ask (askFallback deny), refused with nothing read.
    let ssh = home.path().join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_rsa"), "PRIVATE KEY\n").unwrap();
    std::os::unix::fs::symlink(ssh.join("id_rsa"), proj.join("key")).unwrap();
    for script in [
        "tr a-z A-Z < ~/.ssh/id_rsa",
        "tr a-z A-Z < key",
        "tr a-z A-Z < /dev/zero",
        "tr a-z A-Z < missing.txt",
    ] {
        let (code, stdout, stderr) = shell(script);
        assert_eq!(code, Some(126), "{script}: {stderr}");
        assert!(!stdout.contains("PRIVATE"), "{script}");
    }
}
