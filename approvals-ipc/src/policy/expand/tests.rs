//! Glob expansion against real directories, compared with bash itself.

use std::path::Path;
use std::process::Command;

use super::{GlobError, MAX_MATCHES, expand};

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for f in [
        "a.rs",
        "b.rs",
        "c.txt",
        ".hidden.rs",
        "-rf",
        "--output=x",
        "sub/d.rs",
        "sub/e.md",
        "sub/.f.rs",
        "x y.rs",
        "star*.rs",
        "other/g.rs",
    ] {
        let path = dir.path().join(f);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }
    dir
}

fn ours(pattern: &str, written: &str, cwd: &Path) -> Vec<String> {
    expand(pattern, written, cwd).expect("expands")
}

/// What bash passes for `word` (as written in a script) in `cwd`, with
/// byte order collation so the order is comparable.
fn bash(word: &str, cwd: &Path) -> Vec<String> {
    let out = Command::new("bash")
        .args(["-c", &format!("printf '%s\\0' {word}")])
        .current_dir(cwd)
        .env("LC_ALL", "C")
        .output()
        .expect("bash runs");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn globs_expand_as_bash_expands_them() {
    let dir = tree();
    // (word as written in a script, its pattern, its text after quote removal)
    for (word, pattern, text) in [
        ("*.rs", "*.rs", "*.rs"),
        ("sub/*", "sub/*", "sub/*"),
        ("*/*.rs", "*/*.rs", "*/*.rs"),
        ("?.rs", "?.rs", "?.rs"),
        ("[ab].rs", "[ab].rs", "[ab].rs"),
        ("[!a].rs", "[!a].rs", "[!a].rs"),
        (".*.rs", ".*.rs", ".*.rs"),
        ("sub/.*", "sub/.*", "sub/.*"),
        ("*.none", "*.none", "*.none"),
        ("nodir/*", "nodir/*", "nodir/*"),
        ("-*", "-*", "-*"),
        ("'star*'*", "star\\**", "star**"),
        ("*/", "*/", "*/"),
        ("**/*.rs", "**/*.rs", "**/*.rs"),
        ("x\\ *", "x *", "x *"),
    ] {
        let want = bash(word, dir.path());
        assert_eq!(ours(pattern, text, dir.path()), want, "{word}");
    }
}

#[test]
fn a_name_that_starts_with_a_dash_is_expanded_into_an_option() {
    let dir = tree();
    let words = ours("*", "*", dir.path());
    assert!(words.contains(&"-rf".to_owned()), "{words:?}");
    assert!(words.contains(&"--output=x".to_owned()), "{words:?}");
}

#[test]
fn absolute_globs_expand_from_the_root() {
    let dir = tree();
    let base = dir.path().to_str().expect("utf-8");
    let words = ours(&format!("{base}/sub/*.rs"), "w", Path::new("/"));
    assert_eq!(words, [format!("{base}/sub/d.rs")]);
}

#[test]
fn posix_classes_and_bad_patterns_are_refused() {
    let dir = tree();
    for pattern in ["[[:alpha:]]*", "[", "a[b"] {
        assert!(
            matches!(
                expand(pattern, "w", dir.path()),
                Err(GlobError::Invalid { .. })
            ),
            "{pattern}"
        );
    }
}

#[test]
fn too_many_matches_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..=MAX_MATCHES {
        std::fs::write(dir.path().join(format!("f{i}")), "").expect("write");
    }
    assert!(matches!(
        expand("f*", "f*", dir.path()),
        Err(GlobError::TooMany { .. })
    ));
}

/// Through the whole policy: the expanded argv is what is checked, shown
/// and planned.
mod through_the_policy {
    use std::path::Path;

    use serde_json::json;

    use crate::policy::decision::tests::compiled;
    use crate::policy::plan::PlannedCommand;
    use crate::policy::{CompiledPolicy, Evaluation, Verdict};

    fn allow(programs: &[&str]) -> CompiledPolicy {
        let entries: Vec<_> = programs
            .iter()
            .map(|p| {
                let real = std::fs::canonicalize(p).expect("program exists");
                json!({"pattern": real})
            })
            .collect();
        compiled(json!({
            "version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss"},
            "agents": {"main": {"allowlist": entries}}
        }))
    }

    fn script(c: &CompiledPolicy, text: &str, cwd: &Path) -> Evaluation {
        let argv = ["sh".to_owned(), "-c".to_owned(), text.to_owned()];
        c.evaluate(&argv, cwd, &Default::default())
    }

    #[test]
    fn an_unquoted_glob_over_source_files_is_expanded_and_allowed() {
        let dir = super::tree();
        let c = allow(&["/usr/bin/wc"]);
        let e = script(&c, "wc -l *.rs", dir.path());
        assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
        assert_eq!(
            *e.analysis.segments[0].argv,
            ["wc", "-l", "a.rs", "b.rs", "star*.rs", "x y.rs"]
        );
        let plan = e.checked_plan().expect("a plan");
        let PlannedCommand::Exec(exec) = &plan.steps()[0].pipeline[0] else {
            panic!("{plan:?}");
        };
        assert_eq!(
            *exec.argv,
            ["wc", "-l", "a.rs", "b.rs", "star*.rs", "x y.rs"],
            "what runs is what was checked"
        );
    }

    #[test]
    fn a_file_named_like_an_option_is_checked_as_the_option_it_becomes() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("--compress-program=sh"), "").expect("write");
        std::fs::write(dir.path().join("data"), "").expect("write");
        let c = allow(&["/usr/bin/sort"]);
        let e = script(&c, "sort *", dir.path());
        assert_eq!(e.decision, Verdict::Ask);
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["sort.runs-program"]);
    }

    #[test]
    fn a_glob_that_cannot_be_expanded_exactly_is_not_allowed() {
        let dir = super::tree();
        let c = allow(&["/usr/bin/ls"]);
        let e = script(&c, "ls [[:alpha:]]*", dir.path());
        assert_eq!(e.decision, Verdict::Ask);
        assert!(!e.analysis.ok);
    }

    #[test]
    fn home_is_substituted_like_a_leading_tilde() {
        let c = allow(&["/usr/bin/ls"]);
        let e = script(&c, "ls $HOME \"${HOME}/x y\"", Path::new("/tmp"));
        assert_eq!(
            *e.analysis.segments[0].argv,
            ["ls", "/home/test", "/home/test/x y"]
        );
        assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    }
}
