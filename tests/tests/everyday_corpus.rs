//! The everyday-command corpus of issue 11 class 9
//! (`tests/red-team/everyday-agent-commands.txt`): commands an AI coding
//! agent really sends, against the real `node-host explain --batch` with an
//! allowlist that trusts every program they name. A guardrail that asks
//! for these is switched off by its users, so a refusal of an `allow|`
//! line is a bug; an `ask|` line is asked on purpose (DESIGN.md section 6)
//! and must stay asked; a `todo|` line is a known false refusal, printed
//! but not asserted.
//!
//! Hermetic: each program word of the corpus is a stand-in executable in
//! the test home's `bin/`, the only directory on `PATH` and in the
//! allowlist, so the decision depends on names and arguments only, never
//! on what this host has installed. The working directory is a small
//! project (a `.git`, `src/*.rs`, `Cargo.toml`, `package.json` with
//! scripts, a `Makefile`, `tests/`).

use std::path::PathBuf;

use approvals_tests::{TestHome, workspace_root};

/// What a corpus line expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// Must be auto-allowed.
    Allow,
    /// Must not be auto-allowed.
    Ask,
    /// A known false refusal: reported, not asserted.
    Todo,
}

/// One corpus line.
struct Case {
    label: Label,
    shell: String,
}

fn corpus() -> Vec<Case> {
    let path = workspace_root().join("tests/red-team/everyday-agent-commands.txt");
    let text = std::fs::read_to_string(&path).expect("read the everyday corpus");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (label, shell) = l.split_once('|').expect("LABEL|COMMAND");
            let label = match label {
                "allow" => Label::Allow,
                "ask" => Label::Ask,
                "todo" => Label::Todo,
                other => panic!("unknown label {other:?}"),
            };
            // A heredoc's lines are written with `\n` on one corpus line.
            let shell = if shell.contains("<<") {
                shell.replace("\\n", "\n")
            } else {
                shell.to_owned()
            };
            Case { label, shell }
        })
        .collect()
}

fn project(home: &TestHome) -> PathBuf {
    let proj = home.path().join("proj");
    for dir in [
        ".git/hooks",
        "src",
        "tests",
        "scripts",
        "build",
        "docs",
        "node_modules/.bin",
        "target/debug",
    ] {
        std::fs::create_dir_all(proj.join(dir)).expect("mkdir");
    }
    for (file, text) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".gitignore", "target\n"),
        ("README.md", "# demo\n"),
        ("Makefile", "all:\n\techo hi\n"),
        ("Cargo.toml", "[package]\nname = \"demo\"\n"),
        (
            "package.json",
            r#"{"name":"demo","scripts":{"test":"node test.js","build":"tsc","lint":"eslint .","dev":"node index.js","start":"node index.js","format":"prettier --write ."}}"#,
        ),
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib.rs", "// TODO\n"),
        ("tests/it.rs", "\n"),
        ("tests/test_x.py", "\n"),
        ("scripts/build.sh", "echo ok\n"),
        ("data.csv", "a,b\n"),
        ("a.txt", "x\n"),
        ("b.txt", "y\n"),
        ("index.js", "\n"),
        ("main.py", "\n"),
    ] {
        std::fs::write(proj.join(file), text).expect("write");
    }
    proj
}

#[test]
fn everyday_agent_commands_are_allowed_and_the_asked_ones_stay_asked() {
    let cases = corpus();
    assert!(cases.len() >= 400, "the corpus shrank to {}", cases.len());
    let home = TestHome::new();
    let cwd = project(&home);
    let shells: Vec<&str> = cases.iter().map(|c| c.shell.as_str()).collect();
    let got = home.broad_allowlist_decisions(&shells, &cwd);
    assert_eq!(got.len(), cases.len(), "one decision per line");
    let mut wrong = Vec::new();
    for (case, v) in cases.iter().zip(&got) {
        let allowed = v["decision"] == "allow";
        let line = format!(
            "{:?} {:?}: {} {}",
            case.label, case.shell, v["decision"], v["reason"]["message"]
        );
        match case.label {
            Label::Allow if !allowed => wrong.push(line),
            Label::Ask if allowed => wrong.push(line),
            Label::Todo => eprintln!("todo (known false refusal): {line}"),
            _ => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} lines disagree:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
