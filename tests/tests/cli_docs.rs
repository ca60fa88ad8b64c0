//! The committed man pages (`docs/man/`) and shell completions
//! (`contrib/completions/`) are what the binaries generate now: a flag
//! added, renamed or re-documented without regenerating them fails here.
//!
//! Regenerate with `scripts/gen-docs` (it runs `BIN man --out docs/man`
//! and `BIN completions SHELL` for both binaries) and commit the result.

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
