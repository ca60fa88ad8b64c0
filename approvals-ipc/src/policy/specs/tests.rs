//! Spec engine tests, named by the attack or the false refusal they stop.

use std::path::Path;

use super::{Grammar, all, check, lookup};

/// The working directory every spec test judges in.
pub(super) const CWD: &str = "/work/project";

/// The guard ids `argv` (program first) trips in [`CWD`].
pub(super) fn ids(argv: &[&str]) -> Vec<&'static str> {
    ids_in(Path::new(CWD), argv)
}

/// The guard ids `argv` (program first) trips in the directory `cwd`.
pub(super) fn ids_in(cwd: &Path, argv: &[&str]) -> Vec<&'static str> {
    let (program, args) = argv.split_first().expect("argv");
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    check(program, &args, cwd)
        .expect("a spec'd program")
        .iter()
        .map(|h| h.id)
        .collect()
}

/// The reasons of the guards `argv` trips in [`CWD`].
pub(super) fn reasons(argv: &[&str]) -> Vec<String> {
    let (program, args) = argv.split_first().expect("argv");
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    check(program, &args, Path::new(CWD))
        .expect("a spec'd program")
        .into_iter()
        .map(|h| h.reason)
        .collect()
}

#[test]
fn everyday_use_of_spec_d_programs_trips_nothing() {
    for argv in [
        &["ls", "-la", "src"][..],
        &["ls", "--color=auto", "-1"],
        &["cat", "-n", "README.md"],
        &["head", "-5", "Cargo.toml"],
        &["head", "-n", "20", "a", "b"],
        &["tail", "-n", "+3", "log.txt"],
        &["tail", "-f", "log.txt"],
        &["wc", "-l", "a.rs", "b.rs"],
        &["sort", "-k2", "-t,", "-u", "data.csv"],
        &["sort", "-o", "sorted.txt", "data.csv"],
        &["sort", "-o", "-", "data.csv"],
        &["diff", "-u", "a", "b"],
        &["diff", "-U3", "--label", "old", "a", "b"],
        &["grep", "-rn", "--include=*.rs", "fn main", "src"],
        &["grep", "-e", "--not-an-option", "file"],
        &["grep", "--color", "auto", "file"],
        &["grep", "-C3", "-5", "x", "f"],
        &["ls", "--", "--not-an-option"],
        &["grep", "--ignore", "x", "f"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn an_unknown_long_option_is_asked_and_named() {
    assert_eq!(ids(&["ls", "--frobnicate"]), ["ls.unknown-option"]);
    let why = reasons(&["ls", "-l", "--frobnicate", "x"]);
    assert!(
        why[0].starts_with("unknown option --frobnicate for ls"),
        "{why:?}"
    );
}

#[test]
fn an_unknown_short_option_in_a_bundle_is_asked() {
    assert_eq!(ids(&["cat", "-nY", "f"]), ["cat.unknown-option"]);
}

#[test]
fn an_ambiguous_prefix_is_asked_not_guessed() {
    // `--co` is `--color` or `--context` to ls.
    let why = reasons(&["ls", "--co"]);
    assert!(why[0].contains("ambiguous option --co"), "{why:?}");
    assert!(
        why[0].contains("--color") && why[0].contains("--context"),
        "{why:?}"
    );
}

#[test]
fn aliases_of_one_option_are_not_ambiguous() {
    // grep's `--col` abbreviates both spellings of one option.
    assert_eq!(ids(&["grep", "--col=never", "x", "f"]), Vec::<&str>::new());
}

#[test]
fn an_abbreviated_long_option_is_judged_as_the_option_it_abbreviates() {
    assert_eq!(ids(&["sort", "--compress=sh", "f"]), ["sort.runs-program"]);
    assert_eq!(
        ids(&["sort", "--out", "/etc/cron.d/x", "f"]),
        ["sort.writes-file"]
    );
}

#[test]
fn an_exact_name_wins_over_a_longer_option_it_prefixes() {
    // `--check` is exact even though no other row starts with it; `--si` is
    // exact though ls has no `--size` long... both resolve, nothing trips.
    assert_eq!(ids(&["ls", "--si"]), Vec::<&str>::new());
    assert_eq!(ids(&["sort", "--check", "f"]), Vec::<&str>::new());
}

#[test]
fn a_value_attached_to_a_short_option_in_a_bundle_is_read() {
    assert_eq!(ids(&["sort", "-uo/tmp/x", "f"]), ["sort.writes-file"]);
    assert_eq!(ids(&["sort", "-uo", "/tmp/x", "f"]), ["sort.writes-file"]);
}

#[test]
fn an_option_after_operands_is_still_an_option() {
    assert_eq!(
        ids(&["sort", "f", "--compress-program=sh"]),
        ["sort.runs-program"]
    );
}

#[test]
fn a_write_into_vcs_metadata_or_a_run_file_is_asked_even_inside_the_tree() {
    let why = reasons(&["sort", "-o", ".git/hooks/pre-commit", "f"]);
    assert!(why[0].contains("metadata"), "{why:?}");
    let why = reasons(&["sort", "-o", "Makefile", "f"]);
    assert!(why[0].contains("other tools run"), "{why:?}");
    let why = reasons(&["sort", "--output=../x", "f"]);
    assert!(why[0].contains("outside the working directory"), "{why:?}");
}

#[test]
fn a_value_given_to_a_flag_or_a_missing_value_is_asked() {
    assert_eq!(ids(&["ls", "--all=yes"]), ["ls.unknown-option"]);
    assert_eq!(ids(&["sort", "-o"]), ["sort.unknown-option"]);
}

#[test]
fn clap_and_git_only_grammars_do_not_apply_to_gnu_programs() {
    // GNU getopt has no `--no-` negation: `--no-all` is unknown to ls.
    assert_eq!(ids(&["ls", "--no-all"]), ["ls.unknown-option"]);
}

#[test]
fn specs_are_found_by_name_and_by_versioned_name() {
    assert_eq!(lookup("/usr/bin/grep").map(|s| s.family), Some("grep"));
    assert_eq!(lookup("egrep").map(|s| s.family), Some("grep"));
    assert!(lookup("definitely-not-a-program").is_none());
}

#[test]
fn every_name_belongs_to_one_spec_and_every_row_is_well_formed() {
    let mut names = std::collections::HashSet::new();
    for spec in all() {
        for name in spec.names {
            assert!(names.insert(*name), "{name} is in two specs");
        }
        assert!(spec.ids.unknown_option.starts_with(spec.family));
        let mut spellings = std::collections::HashSet::new();
        let tables = spec
            .opts
            .iter()
            .chain(spec.subs.iter().flat_map(|s| s.opts.iter()));
        for row in tables.flat_map(|t| t.iter()) {
            assert!(
                !row.names.is_empty(),
                "{}: a row without a name",
                spec.family
            );
            for n in row.names {
                if spec.grammar == Grammar::Find {
                    // find's words: one-dash predicates and `!`, `(`, `,`.
                    assert!(!n.is_empty() && !n.contains(char::is_whitespace));
                    continue;
                }
                assert!(n.starts_with('-') && n.len() > 1, "{}: {n}", spec.family);
                let two_letters = matches!(spec.grammar, Grammar::InfoZip { .. })
                    && n.len() == 3
                    && !n.starts_with("--");
                let go_flag =
                    matches!(spec.grammar, Grammar::GoFlag { .. }) && !n.starts_with("--");
                if n.len() == 2 || two_letters || go_flag {
                    continue;
                }
                assert!(
                    n.starts_with("--"),
                    "{}: {n} is neither -x nor --long",
                    spec.family
                );
            }
        }
        for row in spec.opts.iter().flat_map(|t| t.iter()) {
            for n in row.names {
                assert!(spellings.insert(*n), "{}: {n} twice", spec.family);
            }
        }
    }
}

#[test]
fn all_is_sorted_by_family() {
    let families: Vec<&str> = all().iter().map(|s| s.family).collect();
    let mut sorted = families.clone();
    sorted.sort_unstable();
    assert_eq!(families, sorted);
}

#[test]
fn a_reason_shows_the_option_as_written_with_its_value_once() {
    let why = reasons(&["sort", "--output=/tmp/x", "f"]);
    assert!(why[0].starts_with("sort --output=/tmp/x: "), "{why:?}");
    let why = reasons(&["sort", "-o", "/tmp/x", "f"]);
    assert!(why[0].starts_with("sort -o /tmp/x: "), "{why:?}");
    let why = reasons(&["sort", "-o/tmp/x", "f"]);
    assert!(why[0].starts_with("sort -o/tmp/x: "), "{why:?}");
}
