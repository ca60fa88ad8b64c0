//! Multi-call identity (issue 11, class 7): one file that acts as many
//! programs by the name it is invoked as (rustup and its proxies, busybox,
//! toybox, coreutils) is identified by its real path *and* that name. An
//! allowlist entry covers it only under the entry's own name; `rustup run`
//! is a semantic wrapper; `+toolchain` does not hide what follows it; and
//! allow-always never keeps the shared real path.
//!
//! Each test builds a fake multi-call binary in a temporary directory: an
//! executable file named like the real one (`rustup`, `busybox`) with
//! symbolic links named like its personalities, since the identity rule
//! keys on the programs table's names.

use std::os::unix::fs::{PermissionsExt, symlink};

use serde_json::json;

use super::tests::compiled;
use super::*;
use crate::policy::HostContext;

/// A temporary directory (canonical) holding an executable `real` and a
/// link to it under each of `links`.
fn multi_call(real: &str, links: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(tmp.path()).unwrap();
    let file = dir.join(real);
    std::fs::write(&file, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    for link in links {
        symlink(&file, dir.join(link)).unwrap();
    }
    (tmp, dir)
}

fn allowlist(patterns: &[String]) -> CompiledPolicy {
    let entries: Vec<_> = patterns.iter().map(|p| json!({"pattern": p})).collect();
    compiled(json!({"version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny",
                     "allowAlwaysScope": "executable"},
        "agents": {"main": {"allowlist": entries}}}))
}

fn at(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

fn run(c: &CompiledPolicy, dir: &Path, argv: &[String]) -> Evaluation {
    c.evaluate(argv, dir, &Default::default())
}

fn argv(dir: &Path, name: &str, args: &[&str]) -> Vec<String> {
    std::iter::once(at(dir, name))
        .chain(args.iter().map(|a| (*a).to_owned()))
        .collect()
}

fn miss_code(e: &Evaluation) -> Option<&'static str> {
    e.analysis.segments.first()?.miss.as_ref().map(Miss::code)
}

#[test]
fn allowlisting_cargo_does_not_allow_rustc_through_the_same_binary() {
    let (_tmp, dir) = multi_call("rustup", &["cargo", "rustc", "cargo-clippy"]);
    let c = allowlist(&[at(&dir, "cargo")]);

    let e = run(&c, &dir, &argv(&dir, "cargo", &["build"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);

    // Same real file, other names: not covered, and explain says why.
    for name in ["rustc", "rustup", "cargo-clippy"] {
        let e = run(&c, &dir, &argv(&dir, name, &["--version"]));
        assert_eq!(e.decision, Verdict::Ask, "{name}");
        assert_eq!(miss_code(&e), Some("multi-call-name"), "{name}");
        assert_eq!(
            e.reason.as_ref().and_then(Reason::detail_code),
            Some("multi-call-name"),
            "{name}"
        );
    }

    // An entry naming the real file covers only `rustup` itself.
    let c = allowlist(&[at(&dir, "rustup")]);
    let e = run(&c, &dir, &argv(&dir, "rustup", &["show"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let e = run(&c, &dir, &argv(&dir, "cargo", &["build"]));
    assert_eq!(miss_code(&e), Some("multi-call-name"));

    // Two entries over the same real file: each covers its own name.
    let c = allowlist(&[at(&dir, "cargo"), at(&dir, "rustc")]);
    for name in ["cargo", "rustc"] {
        let e = run(&c, &dir, &argv(&dir, name, &["--version"]));
        assert_eq!(e.decision, Verdict::Allow, "{name}: {:?}", e.reason);
    }
    let e = run(&c, &dir, &argv(&dir, "rustup", &["show"]));
    assert_eq!(e.decision, Verdict::Ask);

    // A glob entry matches the real path as ever, and the invoked name
    // must also match its last component: `rust*` covers the real
    // `rustup` as `rustc` or `rustup`, never as `cargo`.
    let c = allowlist(&[format!("{}/rust*", dir.display())]);
    for name in ["rustc", "rustup"] {
        let e = run(&c, &dir, &argv(&dir, name, &[]));
        assert_eq!(e.decision, Verdict::Allow, "{name}: {:?}", e.reason);
    }
    let e = run(&c, &dir, &argv(&dir, "cargo", &[]));
    assert_eq!(miss_code(&e), Some("multi-call-name"));

    // A plain program's links are unaffected: the real path decides.
    let (_tmp2, plain) = multi_call("tool", &["alias"]);
    let c = allowlist(&[at(&plain, "tool")]);
    let e = run(&c, &plain, &argv(&plain, "alias", &[]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn allowlisting_cargo_does_not_allow_rustup_run_bash() {
    let (_tmp, dir) = multi_call("rustup", &["cargo"]);
    // Even an entry for rustup itself: `rustup run` runs any command.
    let c = allowlist(&[at(&dir, "cargo"), at(&dir, "rustup")]);
    for args in [
        &["run", "stable", "bash", "-c", "id"][..],
        &["+nightly", "run", "stable", "bash"],
        &["-v", "run", "nightly", "sh"],
        &["ru", "stable", "bash"],
    ] {
        let e = run(&c, &dir, &argv(&dir, "rustup", args));
        assert_eq!(e.decision, Verdict::Ask, "{args:?}");
        let code = e.analysis.reason.as_ref().map(Refusal::code);
        assert_eq!(code, Some("semantic-wrapper"), "{args:?}");
        assert!(
            !e.allowed_decisions.contains(&ApprovalDecision::AllowAlways)
                || e.persist_patterns() != [at(&dir, "rustup")],
            "{args:?}"
        );
    }
    // Other rustup subcommands are rustup's own.
    let e = run(&c, &dir, &argv(&dir, "rustup", &["show"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    // And through a bare `rustup` word wherever it is found.
    let words: Vec<String> = ["rustup", "run", "stable", "bash"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let e = run(&c, &dir, &words);
    assert_ne!(e.decision, Verdict::Allow);
}

#[test]
fn busybox_applet_link_allows_only_its_applet() {
    for runner in ["busybox", "toybox"] {
        let (_tmp, dir) = multi_call(runner, &["ls", "cat", "sh", "env", "awk"]);
        let c = allowlist(&[at(&dir, "ls")]);
        let e = run(&c, &dir, &argv(&dir, "ls", &["-l"]));
        assert_eq!(e.decision, Verdict::Allow, "{runner}: {:?}", e.reason);

        // Guarded as the applet it is, not as `busybox ARG…` (which would
        // read `find` as the applet here): ls's spec, not find's guards.
        let e = run(&c, &dir, &argv(&dir, "ls", &["find", "-exec"]));
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["ls.unknown-option"], "{runner}");
        let e = run(&c, &dir, &argv(&dir, "ls", &["find", "exec"]));
        assert_eq!(e.decision, Verdict::Allow, "{runner}: {:?}", e.reason);

        let awk = allowlist(&[at(&dir, "awk")]);
        let e = run(&awk, &dir, &argv(&dir, "awk", &["BEGIN{system(\"id\")}"]));
        assert_eq!(e.decision, Verdict::Ask, "{runner}");
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["awk.program"], "{runner}");

        let e = run(&c, &dir, &argv(&dir, "cat", &["/etc/passwd"]));
        assert_eq!(e.decision, Verdict::Ask, "{runner}");
        assert_eq!(miss_code(&e), Some("multi-call-name"), "{runner}");

        // The runner itself runs any applet: still a semantic wrapper.
        let e = run(&c, &dir, &argv(&dir, runner, &["cat", "/etc/passwd"]));
        assert_eq!(e.decision, Verdict::Ask, "{runner}");

        // Applets named like shells or wrappers are never judged as plain
        // applets: `env` stays a disguised program, `sh` a shell.
        let e = run(&c, &dir, &argv(&dir, "env", &[]));
        assert_eq!(e.decision, Verdict::Ask, "{runner}");
        let code = e.analysis.reason.as_ref().map(Refusal::code);
        assert_eq!(code, Some("disguised-program"), "{runner}");
        let e = run(&c, &dir, &argv(&dir, "sh", &["x"]));
        assert_eq!(e.decision, Verdict::Ask, "{runner}");
        assert!(e.analysis.reason.is_some(), "{runner}");
    }
}

#[test]
fn cargo_plus_toolchain_is_still_guarded() {
    let (_tmp, dir) = multi_call("rustup", &["cargo"]);
    let c = allowlist(&[at(&dir, "cargo")]);
    let e = run(&c, &dir, &argv(&dir, "cargo", &["+nightly", "build"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    for args in [
        &["--config", "build.rustc-wrapper='/tmp/x'", "build"][..],
        &[
            "+nightly",
            "--config",
            "build.rustc-wrapper='/tmp/x'",
            "build",
        ],
    ] {
        let e = run(&c, &dir, &argv(&dir, "cargo", args));
        assert_eq!(e.decision, Verdict::Ask, "{args:?}");
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        // The cargo spec's `--config` and the older table guard.
        assert_eq!(ids, ["cargo.sets-config", "cargo.config"], "{args:?}");
        assert_eq!(
            e.analysis.segments[0].miss, None,
            "allowlisted under its own name: a guard, not a multi-call miss"
        );
    }
}

#[test]
fn allow_always_on_a_multi_call_binary_keeps_the_exact_command_not_the_shared_file() {
    let (_tmp, dir) = multi_call("rustup", &["cargo", "rustc"]);
    let c = allowlist(&[]);
    let e = run(&c, &dir, &argv(&dir, "rustc", &["--version"]));
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(
        e.analysis.segments[0].miss.as_ref().map(Miss::code),
        Some("not-allowlisted"),
        "no entry matches the file at all: not a multi-call name miss"
    );
    assert!(e.allowed_decisions.contains(&ApprovalDecision::AllowAlways));
    let kept = e.persist_patterns().to_vec();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].starts_with("=command:"), "{kept:?}");

    // What was kept covers that command again, and nothing else the
    // shared file can be.
    let c = allowlist(&kept);
    let e = run(&c, &dir, &argv(&dir, "rustc", &["--version"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    for (name, args) in [("cargo", &["--version"]), ("rustup", &["--version"])] {
        let e = run(&c, &dir, &argv(&dir, name, args));
        assert_eq!(e.decision, Verdict::Ask, "{name}");
    }
}

#[test]
fn a_multi_call_skill_is_trusted_only_under_the_name_it_was_given() {
    let (_tmp, dir) = multi_call("rustup", &["cargo", "rustc"]);
    let text = serde_json::to_vec(&json!({"version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "autoAllowSkills": true}}))
    .unwrap();
    let file = crate::approvals::ApprovalsFile::parse(&text, Path::new("test.json"))
        .unwrap()
        .file;
    let host = HostContext {
        path: Some(dir.clone().into_os_string()),
        home: Some(PathBuf::from("/home/test")),
        state_dirs: Vec::new(),
    };
    let c = CompiledPolicy::compile(file.resolve(Some("main")), &host)
        .with_skill_bins([dir.join("cargo")]);
    let words = |w: &[&str]| -> Vec<String> { w.iter().map(|s| (*s).to_owned()).collect() };
    let e = run(&c, &dir, &words(&["cargo", "build"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let e = run(&c, &dir, &words(&["rustc", "--version"]));
    assert_eq!(e.decision, Verdict::Ask);
    // Two names given for the one file: each is trusted, nothing else.
    let c = c.with_skill_bins([dir.join("cargo"), dir.join("rustc"), dir.join("cargo")]);
    for name in ["cargo", "rustc"] {
        let e = run(&c, &dir, &words(&[name, "--version"]));
        assert_eq!(e.decision, Verdict::Allow, "{name}: {:?}", e.reason);
    }
}

#[test]
fn an_entry_names_a_multi_call_invocation_by_its_last_component_only() {
    assert!(entry_names("~/.cargo/bin/cargo", "cargo"));
    assert!(!entry_names("~/.cargo/bin/cargo", "rustc"));
    assert!(entry_names(" /opt/rust/bin/rust* ", "rustc"));
    assert!(!entry_names("/opt/rust/bin/rust*", "cargo"));
    assert!(entry_names("*", "rustc"));
    // No last component: names nothing, so it never allows.
    assert!(!entry_names("/opt/rust/bin/", "cargo"));
    assert!(!entry_names("~", "cargo"));
    // `~` is the home directory, not a program's name, even one called `~`.
    assert!(!entry_names("~", "~"));
    assert!(!entry_names("/opt/", ""));
    assert!(!entry_names("", "cargo"));
}

#[test]
fn a_shell_request_entry_for_one_busybox_shell_does_not_cover_another() {
    let (_tmp, dir) = multi_call("busybox", &["ash", "sh", "hush"]);
    let c = compiled(json!({"version": 1,
    "defaults": {"security": "allowlist", "ask": "on-miss"},
    "agents": {"main": {"allowlist": [
        {"pattern": at(&dir, "ash"), "argPattern": "^-c\\0echo ok\\0$"}
    ]}}}));
    let e = run(&c, &dir, &argv(&dir, "ash", &["-c", "echo ok"]));
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    // `sh` is the same file: the entry names `ash` only.
    let e = run(&c, &dir, &argv(&dir, "sh", &["-c", "echo ok"]));
    assert_eq!(e.decision, Verdict::Ask);
    // busybox's `hush` is a shell too, never judged as a plain applet.
    let e = run(&c, &dir, &argv(&dir, "hush", &["-c", "echo ok"]));
    assert_eq!(e.decision, Verdict::Ask);
    assert!(e.analysis.reason.is_some());
}
