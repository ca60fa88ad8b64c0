//! The red-team corpus of issue 11 (`tests/red-team/broad-allowlist.txt`)
//! against the real `node-host explain --batch`, with an allowlist as broad
//! as a user's `/usr/bin/*`: every program the corpus names is allowlisted.
//!
//! Hermetic: each program word of the corpus is a stand-in executable in
//! the test home's `bin/`, the only directory on `PATH` and in the
//! allowlist, so the decision depends on names and arguments only (the
//! policy judges a program by its name), never on what this host has
//! installed. The working directory is a project with a `.git` and links an
//! earlier request could have made: `link-to-token` to the approvals file,
//! `home` to the home directory and `tmplink` to the temporary directory,
//! and a nested repository `other`.
//!
//! A line `ask|CMD` must not be auto-allowed (ask or deny); `allow|CMD` is
//! an everyday command that must stay allowed (a false refusal makes users
//! turn the guardrail off). A failure lists every line that disagrees.

use approvals_tests::{TestHome, workspace_root};

/// One corpus line: whether it must stay allowed, and the shell text.
struct Case {
    allow: bool,
    shell: String,
}

fn corpus() -> Vec<Case> {
    let path = workspace_root().join("tests/red-team/broad-allowlist.txt");
    let text = std::fs::read_to_string(&path).expect("read the red-team corpus");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (label, shell) = l.split_once('|').expect("LABEL|COMMAND");
            assert!(
                label == "ask" || label == "allow",
                "unknown label {label:?}"
            );
            Case {
                allow: label == "allow",
                shell: shell.to_owned(),
            }
        })
        .collect()
}

fn project(home: &TestHome) -> std::path::PathBuf {
    let proj = home.path().join("proj");
    // `other` is a nested repository (a clone made earlier).
    for dir in [".git/hooks", "src", "build", "sub", "other/.git"] {
        std::fs::create_dir_all(proj.join(dir)).expect("mkdir");
    }
    for (file, text) in [
        ("README.md", "hi\n"),
        ("Makefile", "all:\n\techo hi\n"),
        (
            "package.json",
            "{\"scripts\": {\"build\": \"tsc\", \"test\": \"jest\"}}\n",
        ),
        ("src/main.rs", "fn main() {}\n"),
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("x", "x\n"),
    ] {
        std::fs::write(proj.join(file), text).expect("write");
    }
    std::os::unix::fs::symlink(home.approvals(), proj.join("link-to-token")).expect("link");
    std::os::unix::fs::symlink(home.path(), proj.join("home")).expect("link");
    std::os::unix::fs::symlink(std::env::temp_dir(), proj.join("tmplink")).expect("link");
    // A PATH directory and a key in the home the links lead to.
    std::fs::create_dir_all(home.path().join(".local/bin")).expect("mkdir");
    std::fs::create_dir_all(home.path().join(".ssh")).expect("mkdir");
    std::fs::write(home.path().join(".ssh/id_rsa"), "key\n").expect("write");
    proj
}

#[test]
fn a_broad_allowlist_asks_every_red_team_command_and_allows_everyday_ones() {
    let cases = corpus();
    assert!(cases.len() >= 300, "the corpus shrank to {}", cases.len());
    let home = TestHome::new();
    let cwd = project(&home);
    let shells: Vec<&str> = cases.iter().map(|c| c.shell.as_str()).collect();
    let got = home.broad_allowlist_decisions(&shells, &cwd);
    assert_eq!(got.len(), cases.len(), "one decision per line");
    let wrong: Vec<String> = cases
        .iter()
        .zip(&got)
        .filter(|(case, v)| (v["decision"] == "allow") != case.allow)
        .map(|(case, v)| {
            format!(
                "{} {:?}: {} {}",
                if case.allow { "allow" } else { "ask" },
                case.shell,
                v["decision"],
                v["reason"]["message"]
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} lines disagree:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
