use super::*;

fn m(patterns: &[&str]) -> PathMatcher {
    PathMatcher::compile(patterns.iter().copied(), Some(Path::new("/home/u")), false).0
}

macro_rules! matches {
    ($($name:ident: $patterns:expr, $path:expr => $expected:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(m(&$patterns).match_path(Path::new($path)), $expected);
        }
    )*};
}

matches! {
    exact_path_matches: ["/usr/bin/git"], "/usr/bin/git" => Some(0);
    exact_path_does_not_match_other: ["/usr/bin/git"], "/usr/bin/gitk" => None;
    star_stays_in_one_component: ["/usr/bin/*"], "/usr/bin/x/y" => None;
    star_matches_a_component: ["/usr/bin/*"], "/usr/bin/git" => Some(0);
    double_star_crosses_components: ["/opt/**/bin/tool"], "/opt/a/b/bin/tool" => Some(0);
    double_star_matches_zero_components: ["/opt/**/bin/tool"], "/opt/bin/tool" => Some(0);
    question_mark_is_one_char: ["/usr/bin/python?"], "/usr/bin/python3" => Some(0);
    question_mark_is_not_a_separator: ["/usr/bin?git"], "/usr/bin/git" => None;
    tilde_is_home: ["~/bin/*"], "/home/u/bin/tool" => Some(0);
    bare_name_never_matches: ["git"], "/usr/bin/git" => None;
    lone_star_matches_anything: ["*"], "/any/thing" => Some(0);
    first_entry_wins: ["/usr/bin/*", "/usr/bin/git"], "/usr/bin/git" => Some(0);
    later_exact_entry_found: ["/opt/x", "/usr/bin/git"], "/usr/bin/git" => Some(1);
    brackets_are_literal: ["/opt/[ab]/tool"], "/opt/a/tool" => None;
    brackets_match_themselves: ["/opt/[ab]/*"], "/opt/[ab]/tool" => Some(0);
    braces_are_literal: ["/opt/{a,b}/*"], "/opt/a/tool" => None;
    case_sensitive_on_linux: ["/usr/bin/Git"], "/usr/bin/git" => None;
}

#[test]
fn case_insensitive_mode_folds_case() {
    let (m, _) = PathMatcher::compile(["/usr/bin/Git", "/Opt/*"], None, true);
    assert_eq!(m.match_path(Path::new("/usr/bin/git")), Some(0));
    assert_eq!(m.match_path(Path::new("/opt/x")), Some(1));
}

#[test]
fn bare_names_and_unexpandable_tilde_warn() {
    let (_, warnings) = PathMatcher::compile(["git", "~/x"], None, false);
    assert_eq!(warnings.len(), 2);
    assert!(warnings[0].contains("bare names never match"));
    assert!(warnings[1].contains("no home directory"));
}

#[test]
fn literal_pattern_matches_its_canonical_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("python3.11");
    std::fs::write(&target, "").unwrap();
    let link = dir.path().join("python3");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let real = std::fs::canonicalize(&target).unwrap();
    let (m, _) = PathMatcher::compile([link.to_str().unwrap()], None, false);
    assert_eq!(m.match_path(&real), Some(0));
}

#[test]
fn markers_match_by_digest_and_node_markers_count() {
    let m = m(&[
        "=command:7d10fced96b38c84",
        "=node-command:0011223344556677",
    ]);
    assert_eq!(m.match_marker("=command:7d10fced96b38c84"), Some(0));
    assert_eq!(m.match_marker("=command:0011223344556677"), Some(1));
    assert_eq!(m.match_path(Path::new("/usr/bin/echo")), None);
}

#[test]
fn ten_thousand_entries_still_find_the_last_one() {
    let patterns: Vec<String> = (0..10_000).map(|i| format!("/opt/tool{i}/bin/*")).collect();
    let (m, w) = PathMatcher::compile(patterns.iter().map(String::as_str), None, false);
    assert!(w.is_empty());
    assert_eq!(m.match_path(Path::new("/opt/tool9999/bin/x")), Some(9999));
    assert_eq!(m.match_path(Path::new("/opt/tool10000/bin/x")), None);
}

#[test]
fn match_path_where_skips_entries_it_does_not_accept_in_every_index() {
    // Two exact entries on one path, a glob and a lone `*`: each is found
    // only when accepted, lowest accepted index first.
    let matcher = m(&["/usr/bin/tool", "/usr/bin/tool", "/usr/bin/t*", "*"]);
    let path = Path::new("/usr/bin/tool");
    assert_eq!(matcher.match_path_where(path, |_| true), Some(0));
    assert_eq!(matcher.match_path_where(path, |i| i != 0), Some(1));
    assert_eq!(matcher.match_path_where(path, |i| i >= 2), Some(2));
    assert_eq!(matcher.match_path_where(path, |i| i == 3), Some(3));
    assert_eq!(matcher.match_path_where(path, |_| false), None);
    let globs = m(&["/usr/bin/t*", "/usr/bin/*"]);
    assert_eq!(globs.match_path_where(path, |i| i == 1), Some(1));
}

#[test]
fn name_matches_uses_the_allowlist_glob_rules_on_one_component() {
    assert!(name_matches("cargo", "cargo"));
    assert!(!name_matches("cargo", "rustc"));
    assert!(!name_matches("cargo", "cargo-clippy"));
    assert!(name_matches("cargo*", "cargo-clippy"));
    assert!(name_matches("rust?", "rustc"));
    assert!(!name_matches("rust?", "rustup"));
    assert!(name_matches("*", "anything"));
    assert!(name_matches("**", "anything"));
    // Brackets are literal, as in allowlist patterns.
    assert!(!name_matches("[r]ustc", "rustc"));
}
