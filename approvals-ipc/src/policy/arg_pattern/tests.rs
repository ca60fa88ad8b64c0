use std::path::Path;

use super::{ArgEntries, ArgRule, compile_regex, join_args};

fn rule<'a>(index: usize, pattern: &'a str, regex: &'a str) -> ArgRule<'a> {
    ArgRule {
        index,
        pattern,
        regex: Some(regex),
        prefix: None,
    }
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn arguments_are_joined_with_nul_and_a_trailing_nul() {
    assert_eq!(join_args(&owned(&["status", "-s"])), "status\0-s\0");
    assert_eq!(join_args(&[]), "");
}

#[test]
fn javascript_nul_escapes_mean_the_separator() {
    let re = compile_regex(r"^status\0$").expect("compiles");
    assert!(re.is_match("status\0"));
    assert!(!re.is_match("status\0-s\0"));
    // `\\0` is a backslash then `0`; `\01` is not the NUL escape.
    assert!(compile_regex(r"a\\0").expect("compiles").is_match("a\\0"));
    assert!(compile_regex(r"\01").is_err());
    assert!(compile_regex("x\\").is_err());
    assert!(compile_regex(r"\d\0").expect("compiles").is_match("7\0"));
}

#[test]
fn an_entry_matches_only_when_path_and_arguments_match() {
    let (entries, warnings) = ArgEntries::compile(
        [
            rule(3, "/usr/bin/git", r"^(status|log)\0"),
            rule(5, "/usr/bin/*", "^--version\0$"),
            rule(7, "=command:0123456789abcdef", "^x\0$"),
        ],
        None,
        false,
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    let git = Path::new("/usr/bin/git");
    assert_eq!(entries.match_path(git, &owned(&["status"])), Some(3));
    assert_eq!(entries.match_path(git, &owned(&["log", "-1"])), Some(3));
    assert_eq!(entries.match_path(git, &owned(&["push"])), None);
    assert_eq!(entries.match_path(git, &owned(&["--version"])), Some(5));
    assert_eq!(entries.match_path(git, &owned(&["x", "status"])), None);
    assert_eq!(
        entries.match_path(Path::new("/bin/git"), &owned(&["status"])),
        None
    );
    assert_eq!(
        entries.match_marker("=command:0123456789abcdef", &owned(&["x"])),
        Some(7)
    );
    assert_eq!(
        entries.match_marker("=command:0123456789abcdef", &owned(&["y"])),
        None
    );
    assert_eq!(
        entries.match_marker("=command:ffffffffffffffff", &owned(&["x"])),
        None
    );
    assert!(!entries.is_empty());
    assert!(ArgEntries::default().is_empty());
}

#[test]
fn an_invalid_regex_never_matches_and_warns() {
    let (entries, warnings) =
        ArgEntries::compile([rule(0, "/usr/bin/git", "(?=status)")], None, false);
    assert_eq!(
        entries.match_path(Path::new("/usr/bin/git"), &owned(&["status"])),
        None
    );
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("never matches"), "{warnings:?}");
}

#[test]
fn a_prefix_rule_matches_only_arguments_that_start_with_its_exact_words() {
    let diff = owned(&["diff"]);
    let (entries, warnings) = ArgEntries::compile(
        [ArgRule {
            index: 2,
            pattern: "/usr/bin/git",
            regex: None,
            prefix: Some(&diff),
        }],
        None,
        false,
    );
    assert!(warnings.is_empty());
    let git = Path::new("/usr/bin/git");
    assert_eq!(entries.match_path(git, &owned(&["diff"])), Some(2));
    assert_eq!(
        entries.match_path(git, &owned(&["diff", "--stat"])),
        Some(2)
    );
    for args in [
        &[][..],
        &["dif"],
        &["diff-tree"],
        &["-c", "x=y", "diff"],
        &["--no-pager", "diff"],
        &["push"],
    ] {
        assert_eq!(entries.match_path(git, &owned(args)), None, "{args:?}");
    }
    assert!(entries.has_prefix(2));
    assert!(!entries.has_prefix(1));
}

#[test]
fn a_prefix_and_a_pattern_on_one_entry_must_both_match() {
    let log = owned(&["log"]);
    let (entries, _) = ArgEntries::compile(
        [ArgRule {
            index: 0,
            pattern: "/usr/bin/git",
            regex: Some(r"--oneline\0"),
            prefix: Some(&log),
        }],
        None,
        false,
    );
    let git = Path::new("/usr/bin/git");
    assert_eq!(
        entries.match_path(git, &owned(&["log", "--oneline"])),
        Some(0)
    );
    assert_eq!(entries.match_path(git, &owned(&["log"])), None);
    assert_eq!(
        entries.match_path(git, &owned(&["show", "--oneline"])),
        None
    );
}
