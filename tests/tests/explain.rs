//! `node-host explain` end to end: the real binary, a real approvals file in
//! a private home, real executables on this host.
//!
//! Every bypass class of reference/openclaw.md section 10 that applies to
//! POSIX has a row here, beside the benign commands that must stay allowed:
//! a suite that passed by denying everything would fail the allow rows.

use std::path::Path;

use approvals_tests::status::{FILE_ERROR, USAGE};
use approvals_tests::{TestHome, output, real_path};
use serde_json::{Value, json};

fn policy(security: &str, ask: &str) -> Value {
    json!({
        "version": 1,
        "defaults": {"security": security, "ask": ask, "askFallback": "deny"},
        "agents": {
            "main": {"allowlist": [
                {"pattern": real_path("ls")}, {"pattern": real_path("make")}, {"pattern": real_path("echo")},
                {"pattern": real_path("cat")}, {"pattern": real_path("git")}, {"pattern": real_path("find")},
                {"pattern": real_path("sed")}, {"pattern": real_path("printf")}
            ]}
        }
    })
}

fn decision_of(home: &TestHome, args: &[&str]) -> (String, Value) {
    let v = home.explain(args);
    (v["decision"].as_str().unwrap_or("?").to_owned(), v)
}

fn shell(script: &str) -> Vec<&str> {
    vec!["--shell", script]
}

fn argv<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["--"];
    v.extend_from_slice(words);
    v
}

const ALLOWED_SHELL: &[&str] = &[
    "ls -la",
    "ls -la && echo done",
    "git status; git log --oneline -5",
    "git status || echo failed",
    "cat README | head -n 5",
    "ls | wc -l",
    "cd src && make",
    "cd src && cd .. && ls",
    "echo 'hello world' \"quoted args\"",
    "LANG=C ls",
    "ls 2>&1 | tr a-z A-Z",
    "ls >/dev/null 2>&1",
    "cat <<'EOF'\nhello $(id) `id` $HOME\nEOF",
    "cat <<EOF\nplain text\nEOF",
    "echo a\necho b",
    "printf '%s\\n' a b | sort",
    "ls ~/",
    "ls \\\n  -la",
    "echo \"\\$(not a substitution)\"",
    "git commit -m 'two words'",
    "echo héllo 日本",
];

#[test]
fn benign_commands_are_allowed() {
    let home = TestHome::new();
    let mut p = policy("allowlist", "on-miss");
    p["agents"]["main"]["safeBins"] = json!(["cut", "head", "sort", "tail", "tr", "uniq", "wc"]);
    home.write_approvals(&p);
    for script in ALLOWED_SHELL {
        let (d, v) = decision_of(&home, &shell(script));
        assert_eq!(d, "allow", "{script:?} should be allowed: {v:#}");
    }
    for words in [
        &["ls", "-la"][..],
        &["/usr/bin/ls"],
        &["git", "commit", "-m", "two words"],
        &["env", "ls"],
        &["nice", "-n", "5", "ls"],
        &["timeout", "5", "ls"],
        &["head", "-n", "3"],
        &["wc", "-l"],
        &["bash", "-lc", "git status && ls"],
    ] {
        let (d, v) = decision_of(&home, &argv(words));
        assert_eq!(d, "allow", "{words:?} should be allowed: {v:#}");
    }
}

/// Scripts the analysis must not understand, each a bypass class or a
/// construct DESIGN.md section 6 lists.
const NOT_UNDERSTOOD: &[&str] = &[
    // openclaw.md section 10, class 1: substitution inside double quotes.
    "echo \"output: $(whoami)\"",
    "echo \"`id`\"",
    // class 2 and 20: expansion in safe-bin arguments (the ones we can
    // expand exactly are expanded, then checked: see below).
    "head $SECRET/.ssh/id_rsa",
    "head -c${IFS}16${IFS}${OPENCLAW_CONFIG_PATH}",
    // class 8: a line continuation building `$(`.
    "echo \"ok $\\\n(id -u)\"",
    // classes 10 and 11: unquoted heredoc bodies.
    "cat <<EOF\n$(id)\nEOF",
    "cat <<EOF\n$OPENAI_API_KEY\nEOF",
    "cat <<EOF\n$OPENAI_API_\\\nKEY\nEOF",
    // class 17: positional carriers.
    "ls $0 \"$@\"",
    // constructs
    "ls > out.txt",
    "ls >> out.txt",
    // `< FILE` is a read, as `cat FILE` (stdin_from_a_file_is_judged_…);
    // other input forms and a second stdin are not understood.
    "cat <> /etc/passwd",
    "cat 3< /etc/passwd",
    "cat < /etc/passwd < /etc/hostname",
    "ls &",
    "(ls)",
    "{ ls; }",
    "! ls",
    "if true; then ls; fi",
    "for f in a; do ls; done",
    "f() { ls; }; f",
    "ls <(echo x)",
    "echo $'\\x41'",
    "echo {a,b}",
    "echo $((1+2))",
    "echo ${SECRET}",
    "eval ls",
    "source ./x",
    ". ./x",
    "alias ls=rm",
    "hash -p /tmp/x ls",
    "trap 'id' EXIT",
    "FOO=bar ls",
    "GIT_DIR=/tmp/x git status",
    "PAGER='sh -c id' git log",
    "LD_PRELOAD=/tmp/x.so ls",
    "cd /tmp; ls",
    "cd /tmp || ls",
    "ls [[:alpha:]]*",
    "*.sh",
    "exec -a name ls",
    "command -p ls",
    "builtin -x ls",
    "ls | sh",
    "ls && bash -c 'ls || ls'",
    "sh -c \"sh -c 'ls'\"",
    "echo ${ id; }",
    // invisible and confusable characters (class 24)
    "echo a\u{200b}b",
    "ls\u{202e}",
    "echo\u{00a0}hi",
    "\u{0455}udo ls",
    "echo \u{3164}",
];

#[test]
fn globs_and_home_are_expanded_then_checked_and_shown() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let dir = tempfile::tempdir().expect("tempdir");
    for f in ["a.txt", "b.txt", "secret.key"] {
        std::fs::write(dir.path().join(f), "").expect("write");
    }
    let cwd = dir.path().to_str().expect("utf-8");
    let explain = |script: &str| home.explain(&["--cwd", cwd, "--shell", script]);

    let v = explain("ls *.txt");
    assert_eq!(v["decision"], "allow", "{v:#}");
    assert_eq!(
        v["analysis"]["segments"][0]["argv"],
        json!(["ls", "a.txt", "b.txt"])
    );
    // No match: the word as bash passes it.
    let v = explain("ls [xy].md");
    assert_eq!(
        v["analysis"]["segments"][0]["argv"],
        json!(["ls", "[xy].md"])
    );
    // openclaw classes 2 and 20: the safe bin sees the expanded paths.
    let v = explain("tail *");
    assert_eq!(v["decision"], "ask", "{v:#}");
    assert_eq!(v["analysis"]["ok"], true, "{v:#}");
    assert_eq!(v["reason"]["detail"], "safe-bin-usage", "{v:#}");
    let v = explain("head $HOME/.ssh/id_rsa");
    assert_eq!(v["decision"], "ask", "{v:#}");
    let argv = v["analysis"]["segments"][0]["argv"].to_string();
    assert!(
        argv.contains("/.ssh/id_rsa") && !argv.contains('$'),
        "{v:#}"
    );
}

#[test]
fn stdin_from_a_file_is_judged_as_a_read_and_shown() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let dir = tempfile::tempdir().expect("tempdir");
    let real = dir.path().canonicalize().expect("real dir");
    std::fs::write(real.join("a.txt"), "x\n").expect("write");
    let cwd = real.to_str().expect("utf-8");
    let v = home.explain(&["--cwd", cwd, "--shell", "cat < a.txt"]);
    assert_eq!(v["decision"], "allow", "{v:#}");
    let file = real.join("a.txt");
    assert_eq!(
        v["analysis"]["segments"][0]["stdinFile"],
        json!(file.to_str()),
        "{v:#}"
    );
    // The text a person reads names the file the command is fed.
    let out =
        output(
            home.command("node-host")
                .args(["explain", "--cwd", cwd, "--shell", "cat < a.txt"]),
        );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cat < a.txt"), "{text}");
    assert!(
        text.contains(&format!("stdin from:   {}", file.display())),
        "{text}"
    );
    // What cat may not read, a device or a missing file, asks.
    for (script, code, detail) in [
        (
            "cat < ~/.clawdbot/exec-approvals.json",
            "argument-guard",
            "secrets.path",
        ),
        (
            "cat < /dev/tcp/evil.example/80",
            "not-understood",
            "input-file",
        ),
        ("cat < missing.txt", "not-understood", "input-file"),
        ("cat < *.txt", "not-understood", "glob"),
    ] {
        let v = home.explain(&["--cwd", cwd, "--shell", script]);
        assert_eq!(v["decision"], "ask", "{script}: {v:#}");
        assert_eq!(v["reason"]["code"], code, "{script}: {v:#}");
        assert_eq!(v["reason"]["detail"], detail, "{script}: {v:#}");
    }
}

#[test]
fn constructs_and_bypasses_are_never_auto_allowed() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    for script in NOT_UNDERSTOOD {
        let v = home.explain(&shell(script));
        assert_eq!(
            v["decision"], "ask",
            "{script:?} must not be auto-allowed: {v:#}"
        );
        assert_eq!(
            v["analysis"]["ok"], false,
            "{script:?} must not be understood: {v:#}"
        );
        assert!(
            v["analysis"]["reason"]["code"].is_string()
                && v["analysis"]["reason"]["message"].is_string(),
            "{script:?} needs a reason with a code: {v:#}"
        );
        assert_eq!(v["reason"]["code"], "not-understood", "{v:#}");
        assert_eq!(
            v["reason"]["detail"], v["analysis"]["reason"]["code"],
            "the verdict names the analysis refusal: {v:#}"
        );
    }
}

#[test]
fn semantic_wrappers_and_guarded_arguments_ask() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    for words in [
        &["sudo", "ls"][..],
        &["env", "-S", "sh -c 'echo pwned'", "tr"],
        &["env", "FOO=1", "ls"],
        &["xargs", "ls"],
        &["setsid", "ls"],
        &["sh", "-c", "$0 \"$@\"", "xargs", "sh", "-c", "id"],
        &["bash", "-c", "ls", "extra"],
        &["/usr/bin/ls "],
        &["id"],
    ] {
        let (d, v) = decision_of(&home, &argv(words));
        assert_eq!(d, "ask", "{words:?}: {v:#}");
    }
    for (words, guard) in [
        (&["git", "-c", "core.pager=sh -c id", "log"][..], "git"),
        (
            &["git", "fetch", "--upload-pack=touch /tmp/x", "origin"],
            "git",
        ),
        (&["find", ".", "-execdir", "rm", "{}", ";"], "find"),
        (&["find", ".", "-delete"], "find"),
        (&["sed", "-i", "s/a/b/", "Makefile"], "sed"),
        (&["sed", "1e id"], "sed"),
        (&["git", "-C", "/", "status"], "git"),
        (&["make", "--eval=x:", "x"], "make"),
    ] {
        let v = home.explain(&argv(words));
        assert_eq!(v["decision"], "ask", "{words:?}: {v:#}");
        let guards = &v["analysis"]["segments"][0]["guards"];
        assert!(
            guards.as_array().is_some_and(|g| !g.is_empty()),
            "{words:?} should be guarded ({guard}): {v:#}"
        );
    }
}

#[test]
fn git_config_reads_and_inert_overrides_are_not_guarded() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    for (words, expected) in [
        (&["git", "config", "--get", "core.pager"][..], "allow"),
        (&["git", "config", "--list", "--show-origin"], "allow"),
        (&["git", "-c", "color.ui=always", "log"], "allow"),
        (
            &["git", "-c", "user.name=X", "-c", "user.email=Y", "status"],
            "allow",
        ),
        (&["git", "config", "core.pager", "sh"], "ask"),
        (&["git", "config", "core.pager", "--get"], "ask"),
        (&["git", "config", "--file", "/etc/x", "--list"], "ask"),
        (&["git", "-c", "core.sshCommand=sh", "fetch"], "ask"),
        (&["git", "-c", "some.unknown=x", "log"], "ask"),
        (&["git", "--config-env=color.ui=TERM", "log"], "ask"),
    ] {
        let (d, v) = decision_of(&home, &argv(words));
        assert_eq!(d, expected, "{words:?}: {v:#}");
    }
}

#[test]
fn safe_bins_read_stdin_only() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    for (words, expected) in [
        (&["head", "-n", "5"][..], "allow"),
        (&["head", "-5"], "allow"),
        (&["tail", "-n", "+2"], "allow"),
        (&["cut", "-d:", "-f1"], "allow"),
        (&["tr", "a-z", "A-Z"], "allow"),
        (&["tr", "-d", "[:space:]"], "allow"),
        (&["tr", "-cd", "[:alnum:]"], "allow"),
        (&["tr", "${IFS}", "x"], "ask"),
        (&["head", "*"], "ask"),
        (&["uniq", "-c"], "allow"),
        (&["wc", "-l"], "allow"),
        (&["head", "/etc/passwd"], "ask"),
        (&["head", "--bytes=5", "/etc/shadow"], "ask"),
        (&["wc", "--files0-from=list"], "ask"),
        // not in the default list (openclaw.md section 10, classes 5, 6, 19)
        (&["sort", "-o", "/etc/x"], "ask"),
        (&["sort", "--compress-prog=sh"], "ask"),
        (&["grep", "-r", "secret", "/"], "ask"),
        (&["jq", "-n", "env"], "ask"),
    ] {
        let (d, v) = decision_of(&home, &argv(words));
        assert_eq!(d, expected, "{words:?}: {v:#}");
    }
}

#[test]
fn safe_bin_profiles_refuse_dangerous_flags_when_enabled() {
    let home = TestHome::new();
    let mut p = policy("allowlist", "on-miss");
    p["defaults"]["safeBins"] = json!(["sort", "grep", "jq", "head"]);
    home.write_approvals(&p);
    for (words, expected) in [
        (&["sort", "-rn"][..], "allow"),
        (&["sort", "-o", "/etc/x"], "ask"),
        (&["sort", "--compress-prog=sh"], "ask"),
        (&["sort", "--compress-program", "sh"], "ask"),
        (&["grep", "-i", "-e", "foo"], "allow"),
        (&["grep", "-r", "secret"], "ask"),
        (&["grep", "-f", "/etc/shadow"], "ask"),
        // Class 9: the pattern operand is not a file; its regex is not a glob.
        (&["grep", "-i", "foo"], "allow"),
        (&["grep", "-E", "^(a|b).*$"], "allow"),
        (&["grep", "foo", "notes.txt"], "ask"),
        (&["grep", "-e", "foo", "notes.txt"], "ask"),
        (&["grep", "$HOME"], "ask"),
        (&["jq", ".name"], "allow"),
        (&["jq", "-n", "env"], "ask"),
        (&["jq", "$ENV.HOME"], "ask"),
        (&["jq", "-n", "input"], "ask"),
    ] {
        let (d, v) = decision_of(&home, &argv(words));
        assert_eq!(d, expected, "{words:?}: {v:#}");
    }
}

#[test]
fn a_link_cannot_borrow_a_trusted_name() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let link = home.path().join("ls");
    std::os::unix::fs::symlink(real_path("id"), &link).expect("symlink");
    let (d, v) = decision_of(&home, &argv(&[link.to_str().expect("utf-8")]));
    assert_eq!(d, "ask", "{v:#}");
    assert_eq!(
        v["analysis"]["segments"][0]["realPath"],
        json!(real_path("id"))
    );
    // A safe-bin name outside the trusted directories is not safe.
    let fake_head = home.path().join("head");
    std::os::unix::fs::symlink(real_path("cat"), &fake_head).expect("symlink");
    let (d, v) = decision_of(&home, &argv(&["./head", "-n", "1"]));
    assert_eq!(
        d, "allow",
        "cat is allowlisted, so ./head → cat is allowed: {v:#}"
    );
    let copy = home.path().join("tail");
    std::fs::copy(real_path("tail"), &copy).expect("copy");
    let (d, v) = decision_of(&home, &argv(&["./tail", "-n", "1"]));
    assert_eq!(
        d, "ask",
        "a tail outside /bin and /usr/bin is not a safe bin: {v:#}"
    );
}

#[test]
fn ask_off_turns_misses_into_denials_and_security_deny_refuses_everything() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "off"));
    let (d, v) = decision_of(&home, &argv(&["id"]));
    assert_eq!(d, "deny");
    assert_eq!(v["reason"]["code"], "allowlist-miss", "{v:#}");
    assert_eq!(v["reason"]["detail"], "not-allowlisted", "{v:#}");
    assert_eq!(
        v["analysis"]["segments"][0]["miss"]["code"], "not-allowlisted",
        "{v:#}"
    );
    let (d, _) = decision_of(&home, &shell("echo \"$(id)\""));
    assert_eq!(d, "deny");
    let (d, _) = decision_of(&home, &argv(&["ls"]));
    assert_eq!(d, "allow");

    home.write_approvals(&policy("deny", "on-miss"));
    let v = home.explain(&argv(&["ls"]));
    assert_eq!(v["decision"], "deny");
    assert_eq!(
        v["reason"],
        json!({"code": "security-deny", "message": "security=deny"})
    );
    assert_eq!(v["allowedDecisions"], json!([]));
}

#[test]
fn ask_always_asks_even_for_allowlisted_commands_without_allow_always() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "always"));
    let v = home.explain(&argv(&["ls"]));
    assert_eq!(v["decision"], "ask");
    assert_eq!(v["allowedDecisions"], json!(["allow-once", "deny"]));
}

#[test]
fn full_security_allows_unless_denylisted() {
    let home = TestHome::new();
    let mut p = policy("full", "off");
    p["defaults"]["denylist"] = json!([
        {"pattern": real_path("id"), "reason": "no identity probing"},
        {"commandPattern": "rm -rf /", "reason": "never wipe the disk"}
    ]);
    home.write_approvals(&p);
    let (d, _) = decision_of(&home, &shell("echo ok"));
    assert_eq!(d, "allow");
    // Not understood while a denylist is set: it could run a denied
    // program, and with `ask: off` nobody can be asked (issue 9, hole 1).
    let (d, v) = decision_of(&home, &shell("echo \"$(whoami)\""));
    assert_eq!(d, "deny", "{v}");
    let (d, v) = decision_of(&home, &argv(&["id"]));
    assert_eq!(d, "deny");
    assert_eq!(v["reason"]["code"], "denylist");
    assert_eq!(v["reason"]["message"], "denylist: no identity probing");
    let (d, v) = decision_of(&home, &argv(&["rm", "-rf", "/"]));
    assert_eq!(d, "deny");
    assert_eq!(v["risk"]["level"], "critical");
}

#[test]
fn json_shape_is_stable() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let v = home.explain(&["--cwd", "/tmp", "--shell", "ls -la | wc -l"]);
    let ls = real_path("ls");
    let wc = std::fs::canonicalize("/usr/bin/wc").expect("wc");
    assert_eq!(
        v,
        json!({
            "decision": "allow",
            "reason": null,
            "allowedDecisions": [],
            "policy": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
            "analysis": {"ok": true, "reason": null, "segments": [
                {"argv": ["ls", "-la"], "resolvedPath": v["analysis"]["segments"][0]["resolvedPath"],
                 "realPath": ls, "satisfiedBy": "allowlist", "guards": []},
                {"argv": ["wc", "-l"], "resolvedPath": v["analysis"]["segments"][1]["resolvedPath"],
                 "realPath": wc.to_str(), "satisfiedBy": "safe-bin", "guards": []}
            ]},
            "risk": {"level": "low", "reasons": []},
            "approvalsFile": {
                "path": home.approvals().display().to_string(),
                "source": "CLAWDBOT_STATE_DIR",
                "why": "CLAWDBOT_STATE_DIR is set"
            },
            "policySources": {
                "security": "defaults.security",
                "ask": "defaults.ask",
                "askFallback": "defaults.askFallback"
            }
        })
    );
}

#[test]
fn batch_mode_matches_single_runs() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let cases = [
        json!({"argv": ["ls", "-la"]}),
        json!({"shell": "echo \"$(id)\""}),
        json!({"argv": ["id"], "agent": "other"}),
        json!({"shell": "cd src && make", "cwd": "/tmp"}),
    ];
    let lines = home.explain_batch(&cases, |_| {});
    assert_eq!(lines.len(), cases.len());
    assert_eq!(lines[0], home.explain(&argv(&["ls", "-la"])));
    assert_eq!(lines[1], home.explain(&shell("echo \"$(id)\"")));
    assert_eq!(lines[2], home.explain(&["--agent", "other", "--", "id"]));
    assert_eq!(
        lines[3],
        home.explain(&["--cwd", "/tmp", "--shell", "cd src && make"])
    );
}

#[test]
fn malformed_file_fails_closed_naming_file_line_and_column() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let path = home.approvals();
    std::fs::write(&path, "{\n  \"version\": 1,\n  \"agents\": {,}\n}\n").expect("write");
    let before = std::fs::read(&path).expect("read");
    let out = output(home.command("node-host").args(["explain", "--", "ls"]));
    assert_eq!(out.status.code(), Some(FILE_ERROR));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(path.to_str().expect("utf-8")), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("column"), "{err}");
    assert_eq!(
        std::fs::read(&path).expect("read"),
        before,
        "never overwritten"
    );
}

#[test]
fn usage_errors_exit_with_the_usage_status() {
    let home = TestHome::new();
    let out = output(home.command("node-host").arg("explain"));
    assert_eq!(out.status.code(), Some(USAGE));
    let out = output(
        home.command("node-host")
            .args(["explain", "--shell", "ls", "--", "ls"]),
    );
    assert_eq!(out.status.code(), Some(USAGE));
}

#[test]
fn missing_file_means_built_in_deny() {
    let home = TestHome::new();
    let v = home.explain(&argv(&["ls"]));
    assert_eq!(v["decision"], "deny");
    assert_eq!(v["policy"]["security"], "deny");
    assert!(
        !Path::new(&home.approvals()).exists(),
        "explain never creates the file"
    );
}

#[test]
fn a_shell_or_safe_bin_under_another_name_is_not_trusted() {
    let home = TestHome::new();
    // Trust everything in the system bin directory, as a broad policy might.
    let bin_dir = std::path::Path::new(&real_path("ls"))
        .parent()
        .expect("a directory")
        .to_string_lossy()
        .into_owned();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": format!("{bin_dir}/*")}]}}
    }));
    // `bash -c` is unwrapped and its script analysed; a link named `x` to
    // bash would skip that and match the broad glob.
    let (d, v) = decision_of(&home, &argv(&["bash", "-c", "echo \"$(id)\""]));
    assert_eq!(d, "ask", "{v:#}");
    std::os::unix::fs::symlink(real_path("bash"), home.path().join("x")).expect("symlink");
    let (d, v) = decision_of(&home, &argv(&["./x", "-c", "echo \"$(id)\""]));
    assert_eq!(d, "ask", "a disguised shell must not be allowed: {v:#}");
    assert_eq!(v["analysis"]["ok"], false, "{v:#}");
    let link = home.path().join("e");
    std::os::unix::fs::symlink(real_path("env"), &link).expect("symlink");
    let (d, v) = decision_of(&home, &argv(&["./e", "sh", "-c", "id"]));
    assert_eq!(d, "ask", "a disguised wrapper must not be allowed: {v:#}");

    // A link named like a safe bin is judged by what it runs.
    let strict = TestHome::new();
    strict.write_approvals(&policy("allowlist", "on-miss"));
    let mut p = policy("allowlist", "on-miss");
    p["agents"]["main"]["allowlist"] = json!([]);
    strict.write_approvals(&p);
    std::os::unix::fs::symlink(real_path("cat"), strict.path().join("head")).expect("symlink");
    let (d, v) = decision_of(&strict, &argv(&["./head", "-n", "/etc/shadow"]));
    assert_eq!(d, "ask", "cat behind a head link is not a safe bin: {v:#}");
    assert_eq!(v["analysis"]["segments"][0]["satisfiedBy"], Value::Null);
}

/// Issue 11, class 6: `explain --env NAME=VALUE` decides a request's
/// environment overrides as the exec host does.
#[test]
fn explain_env_shows_the_decision_for_environment_overrides() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    // Everyday overrides of an allowlisted program stay allowed.
    let (d, v) = decision_of(
        &home,
        &[
            "--env",
            "NODE_ENV=test",
            "--env",
            "RUST_BACKTRACE=1",
            "--",
            "ls",
        ],
    );
    assert_eq!(d, "allow", "{v}");
    // One that is not inert is asked, with its own code, and allow-always
    // (which keeps the argv, not the environment) is not offered.
    for env in ["GIT_AUTHOR_NAME=x", "LC_ALL=/tmp/evil", "NODE_ENV=$(id)"] {
        let (d, v) = decision_of(&home, &["--env", env, "--", "ls"]);
        assert_eq!(d, "ask", "{env}: {v}");
        assert_eq!(v["reason"]["code"], "not-understood", "{env}: {v}");
        assert_eq!(v["reason"]["detail"], "env-override", "{env}: {v}");
        assert_eq!(v["analysis"]["reason"]["code"], "env-override", "{env}");
        assert_eq!(
            v["allowedDecisions"],
            json!(["allow-once", "deny"]),
            "{env}"
        );
        let name = env.split('=').next().unwrap_or_default();
        assert!(
            v["reason"]["message"].as_str().unwrap_or("").contains(name),
            "{v}"
        );
    }
    // Blocked and override-only keys are refused by the host before the
    // policy: explain shows that refusal.
    for env in [
        "TAR_OPTIONS=--to-command=sh",
        "LD_PRELOAD=/tmp/x.so",
        "PATH=/tmp",
        "CARGO_HOME=/tmp/evil",
    ] {
        let (d, v) = decision_of(&home, &["--env", env, "--", "ls"]);
        assert_eq!(d, "deny", "{env}: {v}");
        assert_eq!(v["reason"]["code"], "env-override-rejected", "{env}: {v}");
        assert_eq!(v["allowedDecisions"], json!([]), "{env}");
    }
    // The text rendering names the code too.
    let out =
        output(
            home.command("node-host")
                .args(["explain", "--env", "TAR_OPTIONS=x", "--", "ls"]),
        );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[env-override-rejected]"), "{text}");
    let out = output(
        home.command("node-host")
            .args(["explain", "--env", "FOO=1", "--", "ls"]),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[env-override]"), "{text}");
    assert!(text.contains("env:      FOO=1"), "{text}");
    // A malformed --env is a usage error.
    let out = output(
        home.command("node-host")
            .args(["explain", "--env", "NOEQUALS", "--", "ls"]),
    );
    assert_eq!(out.status.code(), Some(USAGE));
}

#[test]
fn explain_env_in_batch_matches_single_runs() {
    let home = TestHome::new();
    home.write_approvals(&policy("allowlist", "on-miss"));
    let cases = [
        json!({"argv": ["ls"], "env": {"LANG": "C.UTF-8"}}),
        json!({"argv": ["ls"], "env": {"GIT_DIR": "/tmp/evil"}}),
        json!({"shell": "ls", "env": {"FOO": "bar"}}),
    ];
    let lines = home.explain_batch(&cases, |_| {});
    assert_eq!(lines.len(), cases.len());
    assert_eq!(
        lines[0],
        home.explain(&["--env", "LANG=C.UTF-8", "--", "ls"])
    );
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(
        lines[1],
        home.explain(&["--env", "GIT_DIR=/tmp/evil", "--", "ls"])
    );
    assert_eq!(lines[1]["reason"]["code"], "env-override-rejected");
    assert_eq!(
        lines[2],
        home.explain(&["--env", "FOO=bar", "--shell", "ls"])
    );
    assert_eq!(lines[2]["reason"]["detail"], "env-override");
}
