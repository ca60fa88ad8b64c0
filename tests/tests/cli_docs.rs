//! The committed man pages (`docs/man/`) and shell completions
//! (`contrib/completions/`) are what the binaries generate now: a flag
//! added, renamed or re-documented without regenerating them fails here.
//!
//! Regenerate with `scripts/gen-docs` (it runs `BIN man --out docs/man`
//! and `BIN completions SHELL` for both binaries) and commit the result.
//!
//! Also: every `--help` keeps its examples one per line (they were once
//! reflowed into a single line that could not be copied).

use std::collections::BTreeMap;
use std::path::Path;

use approvals_tests::{TestHome, output, workspace_root};

const REGENERATE: &str = "run scripts/gen-docs and commit the result";

/// The files in `dir` whose names start with `prefix`, by name.
fn files(dir: &Path, prefix: &str) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.starts_with(prefix).then(|| {
                let text = std::fs::read_to_string(entry.path()).expect("read page");
                (name, text)
            })
        })
        .collect()
}

#[test]
fn committed_man_pages_match_the_command_lines() {
    for bin in ["ui-bridge", "node-host"] {
        let home = TestHome::new();
        let out_dir = home.path().join("man");
        let out = output(home.command(bin).arg("man").arg("--out").arg(&out_dir));
        assert!(out.status.success(), "{bin} man failed: {out:?}");
        let generated = files(&out_dir, bin);
        assert!(
            generated.contains_key(&format!("{bin}.1"))
                && generated.contains_key(&format!("{bin}-doctor.1")),
            "{bin} man wrote {:?}",
            generated.keys()
        );
        let committed = files(&workspace_root().join("docs/man"), bin);
        assert_eq!(
            committed.keys().collect::<Vec<_>>(),
            generated.keys().collect::<Vec<_>>(),
            "docs/man has other pages than `{bin} man` writes: {REGENERATE}"
        );
        for (name, text) in &generated {
            assert!(
                committed.get(name) == Some(text),
                "docs/man/{name} differs from what `{bin} man` writes: {REGENERATE}"
            );
        }
    }
}

#[test]
fn committed_completions_match_the_command_lines() {
    for bin in ["ui-bridge", "node-host"] {
        for (shell, file) in [
            ("bash", format!("{bin}.bash")),
            ("zsh", format!("_{bin}")),
            ("fish", format!("{bin}.fish")),
        ] {
            let home = TestHome::new();
            let out = output(home.command(bin).args(["completions", shell]));
            assert!(out.status.success(), "{bin} completions {shell}: {out:?}");
            let generated = String::from_utf8(out.stdout).expect("utf-8");
            assert!(
                generated.contains("doctor"),
                "{bin} completions {shell} lists the subcommands"
            );
            let path = workspace_root().join("contrib/completions").join(&file);
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == generated,
                "contrib/completions/{file} differs from `{bin} completions {shell}`: {REGENERATE}"
            );
        }
    }
}

/// `BIN PATH… --help`, as text.
fn help(home: &TestHome, bin: &str, path: &[String]) -> String {
    let out = output(home.command(bin).args(path).arg("--help"));
    assert!(out.status.success(), "{bin} {path:?} --help: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a `--help` lists under `Commands:`, without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter(|line| line.starts_with("  ") && !line[2..].starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The lines of the `Examples:` block of a `--help`.
fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|line| *line != "Examples:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .collect()
}

#[test]
fn every_help_keeps_its_examples_one_per_line() {
    let home = TestHome::new();
    for bin in ["ui-bridge", "node-host"] {
        let mut queue = vec![Vec::<String>::new()];
        let mut with_examples = Vec::new();
        while let Some(path) = queue.pop() {
            let text = help(&home, bin, &path);
            for sub in subcommands(&text) {
                let mut next = path.clone();
                next.push(sub);
                queue.push(next);
            }
            let lines = examples(&text);
            for line in &lines {
                let invocations = line.split_whitespace().filter(|word| *word == bin).count();
                assert!(
                    line.starts_with("  ") && !line[2..].starts_with(' ') && invocations <= 1,
                    "{bin} {} --help: examples run together: {line:?}",
                    path.join(" ")
                );
            }
            if !lines.is_empty() {
                with_examples.push((path.join(" "), lines.len()));
            }
        }
        if bin == "node-host" {
            // The two the issue found squashed onto one line.
            for (command, at_least) in [("explain", 3), ("run", 3)] {
                assert!(
                    with_examples
                        .iter()
                        .any(|(path, n)| path == command && *n >= at_least),
                    "node-host {command} --help has no examples block: {with_examples:?}"
                );
            }
        }
    }
}
