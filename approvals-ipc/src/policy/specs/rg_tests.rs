//! The ripgrep spec, named by the attack or the false refusal it stops.
//! ripgrep reads argv with clap 2: exact long names, `--opt=v` or `--opt
//! v`, short bundles, options anywhere until `--`.

use super::tests::{ids, reasons};

const NONE: [&str; 0] = [];

#[test]
fn everyday_ripgrep_searches_trip_nothing() {
    for argv in [
        &["rg", "-n", "TODO", "src"][..],
        &["rg", "--files", "-g", "*.rs"],
        &["rg", "--files", "--glob=*.rs"],
        &["rg", "-uuu", "foo"],
        &["rg", "-i", "-w", "fn main", "--type", "rust"],
        &["rg", "-tpy", "-C3", "import"],
        &["rg", "foo", "src", "-l"],
        &["rg", "-e", "--pre", "src"],
        &["rg", "-f", "patterns.txt", "--ignore-file", ".myignore"],
        &["rg", "--json", "-S", "x"],
        &["rg", "-.", "--no-ignore-vcs", "x"],
        &["rg", "--no-pre", "x"],
        &["rg", "--no-search-zip", "x"],
        &["rg", "--sort", "path", "--max-count=1", "x"],
        &["rg", "--type-add", "web:*.{html,css}", "-tweb", "x"],
        &["rg", "--", "--pre", "src"],
        &["ripgrep", "-n", "x"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn a_preprocessor_program_is_asked_however_it_is_spelled() {
    for argv in [
        &["rg", "--pre=sh", "x"][..],
        &["rg", "--pre", "sh", "x"],
        &["rg", "x", "src", "--pre", "/tmp/evil"],
        &["rg", "--pre-glob", "*", "--pre", "sh", "x"],
        // A later `--no-pre` turns it off, but the `--pre` is still shown.
        &["rg", "--pre", "sh", "--no-pre", "x"],
    ] {
        assert_eq!(ids(argv), ["rg.runs-program"], "{argv:?}");
    }
    let why = reasons(&["rg", "--pre", "sh", "x"]);
    assert!(
        why[0].starts_with("rg --pre sh: runs a preprocessor"),
        "{why:?}"
    );
}

#[test]
fn decompressors_found_on_path_are_asked() {
    for argv in [
        &["rg", "-z", "x"][..],
        &["rg", "--search-zip", "x"],
        &["rg", "-iz", "x"],
        &["rg", "x", "logs", "-nz"],
    ] {
        assert_eq!(ids(argv), ["rg.runs-program"], "{argv:?}");
    }
}

#[test]
fn an_abbreviated_or_unknown_option_is_asked() {
    // clap 2 takes no abbreviation: `--pr` is an error to ripgrep 13, and
    // an unknown option to the spec, never `--pre`.
    assert_eq!(ids(&["rg", "--pr=sh", "x"]), ["rg.unknown-option"]);
    assert_eq!(
        ids(&["rg", "--hostname-bin=sh", "x"]),
        ["rg.unknown-option"]
    );
    assert_eq!(ids(&["rg", "-nY", "x"]), ["rg.unknown-option"]);
    let why = reasons(&["rg", "--frobnicate", "x"]);
    assert!(why[0].contains("unknown option --frobnicate"), "{why:?}");
}

#[test]
fn a_value_that_looks_like_an_option_is_the_value() {
    // ripgrep takes the next word whatever it looks like (`rg --glob
    // --pre sh x` globs for `--pre`): the spec reads it the same.
    assert_eq!(ids(&["rg", "--glob", "--pre", "sh", "x"]), NONE);
    assert_eq!(ids(&["rg", "-g", "--pre=sh", "x"]), NONE);
}

#[test]
fn a_short_option_s_attached_value_is_its_value() {
    // `-e--pre` is the pattern `--pre`; `-j4z` is `-j 4z`, not `-z`.
    assert_eq!(ids(&["rg", "-e--pre", "x"]), NONE);
    assert_eq!(ids(&["rg", "-j4z", "x"]), NONE);
}
