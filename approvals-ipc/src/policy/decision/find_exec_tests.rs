//! `find … -exec COMMAND` (DESIGN.md section 6, issue 11): the command is
//! a segment of its own, checked like any other (allowlist, guards,
//! denylist), and find is made to run the program that was checked. Each
//! test is named by what it stops or keeps working.

use std::os::unix::fs::symlink;

use serde_json::json;

use super::tests::{compiled, guard_ids, real};
use super::*;
use crate::policy::plan::PlannedCommand;

fn policy(allow: &[&str], extra: serde_json::Value) -> CompiledPolicy {
    let entries: Vec<_> = allow.iter().map(|p| json!({"pattern": real(p)})).collect();
    let mut agent = json!({"allowlist": entries});
    if let (Some(agent), Some(extra)) = (agent.as_object_mut(), extra.as_object()) {
        agent.extend(extra.clone());
    }
    compiled(json!({"version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": agent}}))
}

fn run(c: &CompiledPolicy, dir: &Path, argv: &[&str]) -> Evaluation {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    c.evaluate(&argv, dir, &Default::default())
}

/// The argv find is planned to run with.
fn planned_find_argv(e: &Evaluation) -> Vec<String> {
    let plan = e.checked_plan().expect("a checked plan");
    match &plan.steps()[0].pipeline[0] {
        PlannedCommand::Exec(exec) => exec.argv.to_vec(),
        PlannedCommand::Cd { .. } => panic!("not an exec"),
    }
}

#[test]
fn find_exec_of_an_allowlisted_reader_is_allowed_and_runs_the_checked_program() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "grep"], json!({}));
    let e = run(
        &c,
        dir.path(),
        &[
            "find", ".", "-name", "*.rs", "-exec", "grep", "-l", "TODO", "{}", "+",
        ],
    );
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let segments = &e.analysis.segments;
    assert_eq!(segments.len(), 2);
    assert_eq!(segments[0].run_by, None);
    assert_eq!(segments[1].run_by, Some(0));
    assert_eq!(*segments[1].argv, ["grep", "-l", "TODO", "./.git/{}"]);
    // find runs grep by the real path the allowlist matched, never by a
    // name looked up again on find's PATH.
    let argv = planned_find_argv(&e);
    assert_eq!(argv[5], real("grep"));
    assert_eq!(argv[..5], ["find", ".", "-name", "*.rs", "-exec"]);
    assert_eq!(argv[6..], ["-l", "TODO", "{}", "+"]);
}

#[test]
fn find_exec_of_a_program_the_allowlist_does_not_cover_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find"], json!({}));
    let e = run(
        &c,
        dir.path(),
        &["find", ".", "-exec", "grep", "x", "{}", ";"],
    );
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(e.analysis.segments[0].miss, None);
    let miss = e.analysis.segments[1].miss.as_ref().map(Miss::code);
    assert_eq!(miss, Some("not-allowlisted"));
}

#[test]
fn find_exec_that_writes_or_deletes_what_find_hands_over_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "rm", "sed", "grep"], json!({}));
    for argv in [
        &["find", ".", "-name", "*.o", "-exec", "rm", "{}", "+"][..],
        &["find", ".", "-exec", "sed", "-i", "s/a/b/", "{}", ";"],
        // The second command line is judged as well as the first.
        &[
            "find", ".", "-exec", "grep", "-q", "x", "{}", ";", "-exec", "rm", "{}", ";",
        ],
    ] {
        let e = run(&c, dir.path(), argv);
        assert_eq!(e.decision, Verdict::Ask, "{argv:?}");
        assert!(
            e.analysis
                .segments
                .iter()
                .skip(1)
                .any(|s| !s.guards.is_empty()),
            "{argv:?}: {:?}",
            guard_ids(&e)
        );
    }
}

#[test]
fn find_exec_of_a_command_with_an_option_its_spec_does_not_know_is_asked_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "grep"], json!({}));
    let e = run(
        &c,
        dir.path(),
        &["find", ".", "-exec", "grep", "--frobnicate", "x", "{}", ";"],
    );
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(guard_ids(&e), ["grep.unknown-option"]);
}

#[test]
fn a_denylisted_program_run_by_find_is_denied() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(
        &["find", "shred"],
        json!({"denylist": [{"pattern": real("shred")}]}),
    );
    let e = run(&c, dir.path(), &["find", ".", "-exec", "shred", "{}", ";"]);
    assert_eq!(e.decision, Verdict::Deny, "{:?}", e.reason);
}

#[test]
fn find_exec_of_shells_interpreters_wrappers_and_execdir_stays_asked() {
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "sh", "python3", "env", "grep"], json!({}));
    for argv in [
        &["find", ".", "-exec", "sh", "-c", "id", ";"][..],
        &["find", ".", "-exec", "python3", "{}", ";"],
        &["find", ".", "-exec", "env", "grep", "x", "{}", ";"],
        &["find", ".", "-execdir", "grep", "x", "{}", ";"],
        &["find", ".", "-exec", "grep", "-f", "{}", "x", ";"],
    ] {
        let e = run(&c, dir.path(), argv);
        assert_eq!(e.decision, Verdict::Ask, "{argv:?}");
        assert_eq!(e.analysis.segments.len(), 1, "{argv:?}");
        assert_eq!(guard_ids(&e), ["find.runs-program"], "{argv:?}");
    }
}

#[test]
fn a_shell_linked_under_a_readers_name_is_not_run_by_find() {
    // `./grep` is a link to the shell: checked as `grep` it would pass,
    // but find would run the shell.
    let dir = tempfile::tempdir().unwrap();
    symlink(real("sh"), dir.path().join("grep")).unwrap();
    let c = policy(&["find", "grep", "sh"], json!({}));
    let e = run(&c, dir.path(), &["find", ".", "-exec", "./grep", "{}", ";"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(guard_ids(&e), ["find.runs-program"]);
}

#[test]
fn find_exec_of_a_program_with_no_spec_given_what_find_hands_over_is_asked() {
    // od has no spec: nothing says it only reads what find hands over,
    // which may be a file in .git.
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "od"], json!({}));
    let e = run(&c, dir.path(), &["find", ".", "-exec", "od", "{}", "+"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(guard_ids(&e), ["unknown.sensitive-path"]);
    // file's spec says it only reads what it names.
    let c = policy(&["find", "file"], json!({}));
    let e = run(&c, dir.path(), &["find", ".", "-exec", "file", "{}", "+"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", guard_ids(&e));
    // stat's spec says it only looks at what it names.
    let c = policy(&["find", "stat"], json!({}));
    let e = run(&c, dir.path(), &["find", ".", "-exec", "stat", "{}", "+"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", guard_ids(&e));
}

#[test]
fn find_exec_handing_over_a_tree_that_holds_keys_or_the_token_is_asked() {
    // `{}` is any file under the start point: under `/` or the home
    // directory, that includes ~/.ssh and the approvals file.
    let dir = tempfile::tempdir().unwrap();
    let c = policy(&["find", "cat", "grep"], json!({}));
    for argv in [
        &["find", "/", "-name", "*.pem", "-exec", "cat", "{}", "+"][..],
        &[
            "find",
            "/home/test",
            "-exec",
            "grep",
            "-H",
            "token",
            "{}",
            "+",
        ],
        &["find", "/home/test/.clawdbot", "-exec", "cat", "{}", ";"],
    ] {
        let e = run(&c, dir.path(), argv);
        assert_eq!(e.decision, Verdict::Ask, "{argv:?}");
        assert!(guard_ids(&e).contains(&"secrets.path"), "{argv:?}");
    }
    let e = run(&c, dir.path(), &["find", ".", "-exec", "cat", "{}", "+"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn find_following_links_to_a_directory_above_the_secrets_is_asked() {
    // A link planted in the tree (by a clone, an archive) to `/`: with
    // `-L` or `-follow`, `{}` may be any file there, the approvals file
    // and ~/.ssh included.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("vendor")).unwrap();
    symlink("/", dir.path().join("vendor/up")).unwrap();
    let c = policy(&["find", "cat"], json!({}));
    for argv in [
        &["find", "-L", ".", "-type", "f", "-exec", "cat", "{}", "+"][..],
        &["find", ".", "-follow", "-exec", "cat", "{}", ";"],
    ] {
        let e = run(&c, dir.path(), argv);
        assert_eq!(e.decision, Verdict::Ask, "{argv:?}");
        assert!(guard_ids(&e).contains(&"secrets.path"), "{argv:?}");
    }
    let e = run(
        &c,
        dir.path(),
        &["find", ".", "-type", "f", "-exec", "cat", "{}", "+"],
    );
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn find_start_point_through_a_link_out_of_the_tree_to_the_home_is_asked() {
    // `home` → the home directory, made by an earlier request (or planted
    // by a clone): `find home/ -exec cat {} +` hands ~/.ssh to cat, though
    // no argument names it. Found by the H29 sweep.
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(proj.join("src")).unwrap();
    std::fs::write(proj.join("src/main.rs"), "fn main() {}\n").unwrap();
    symlink("/home/test", proj.join("home")).unwrap();
    symlink("/", proj.join("root")).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    symlink(elsewhere.path(), proj.join("vendor")).unwrap();
    let c = policy(&["find", "cat", "grep", "wc"], json!({}));
    for argv in [
        &["find", "home/", "-exec", "cat", "{}", "+"][..],
        &["find", "home", "-exec", "cat", "{}", "+"],
        &["find", "home", "-name", "id_rsa", "-exec", "cat", "{}", ";"],
        &[
            "find", "home/", "-type", "f", "-exec", "grep", "-l", "token", "{}", "+",
        ],
        &["find", "root", "-exec", "cat", "{}", "+"],
        &["find", "src", "home", "-exec", "wc", "-l", "{}", "+"],
    ] {
        let e = run(&c, &proj, argv);
        assert_eq!(e.decision, Verdict::Ask, "{argv:?}");
        assert!(
            guard_ids(&e).contains(&"secrets.path"),
            "{argv:?}: {:?}",
            guard_ids(&e)
        );
    }
    // A start point inside the tree, or through a link to a directory
    // that holds no protected path, is find's everyday job.
    for argv in [
        &[
            "find", "src", "-name", "*.rs", "-exec", "wc", "-l", "{}", "+",
        ][..],
        &[
            "find", ".", "-name", "*.rs", "-exec", "grep", "-l", "TODO", "{}", "+",
        ],
        &["find", "vendor", "-exec", "cat", "{}", "+"],
    ] {
        let e = run(&c, &proj, argv);
        assert_eq!(e.decision, Verdict::Allow, "{argv:?}: {:?}", guard_ids(&e));
    }
}
