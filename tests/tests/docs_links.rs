//! The documentation links only to files in the repository: every relative
//! Markdown link of README.md, CONTRIBUTING.md, BENCHMARKS.md and docs/*.md
//! names a file or directory that exists, inside the checkout (a user
//! reading a clone, or the copies the `.deb` ships, follows them), and no
//! link is an absolute path on the machine that wrote it.

use std::path::{Component, Path, PathBuf};

use approvals_tests::workspace_root;

/// The Markdown files checked, relative to the workspace root.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let dir = root.join("docs");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| PathBuf::from("docs").join(path.file_name().expect("a name")))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// The targets of the inline links `[text](target)` in `text`, with the
/// line each is on; code spans and fenced blocks are skipped.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `](x)` inside backticks is not a link.
        let mut outside = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                outside.push_str(part);
            }
        }
        let mut rest = outside.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            targets.push((n + 1, target.to_owned()));
            rest = &after[end..];
        }
    }
    targets
}

/// `path` without `.` and `..`, or `None` when `..` climbs above its start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(name) => out.push(name),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[test]
fn every_relative_link_names_a_file_in_the_repository() {
    let root = workspace_root();
    let mut checked = 0;
    let mut broken = Vec::new();
    for doc in documents(&root) {
        let text = std::fs::read_to_string(root.join(&doc))
            .unwrap_or_else(|e| panic!("read {}: {e}", doc.display()));
        let dir = doc.parent().unwrap_or(Path::new(""));
        for (line, target) in link_targets(&text) {
            let file = target.split('#').next().unwrap_or_default();
            if target.starts_with("https://")
                || target.starts_with("http://")
                || target.starts_with("mailto:")
                || file.is_empty()
            {
                continue;
            }
            checked += 1;
            let inside = normalise(&dir.join(file));
            match inside {
                Some(path) if root.join(&path).exists() => {}
                Some(path) => broken.push(format!(
                    "{}:{line}: {target} (no {})",
                    doc.display(),
                    path.display()
                )),
                None => broken.push(format!(
                    "{}:{line}: {target} leaves the repository",
                    doc.display()
                )),
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_parser_sees_links_and_skips_code() {
    let text = "see [a](docs/a.md#x) and `[b](nowhere)`\n```\n[c](nor-here)\n```\n[d](../up)";
    assert_eq!(
        link_targets(text),
        vec![(1, "docs/a.md#x".to_owned()), (5, "../up".to_owned())]
    );
    assert_eq!(
        normalise(Path::new("docs/../README.md")),
        Some("README.md".into())
    );
    assert_eq!(normalise(Path::new("../outside")), None);
    assert_eq!(normalise(Path::new("/etc/passwd")), None);
}
