//! The pytest spec, named by the attack or the false refusal it stops.

use super::tests::{ids, reasons};

const NONE: Vec<&str> = Vec::new();

#[test]
fn everyday_pytest_trips_nothing() {
    for argv in [
        &["pytest"][..],
        &["pytest", "-x", "-q"],
        &["pytest", "-xvs", "tests/test_api.py::test_get"],
        &["pytest", "tests/", "-k", "not slow", "--tb=short"],
        &["pytest", "-knot slow", "-m", "unit and not network"],
        &["pytest", "--lf", "-rA", "--maxfail=3", "--durations=10"],
        &["pytest", "--co", "-q"],
        &["pytest", "--collect-only", "--no-header"],
        &["pytest", "-p", "no:cacheprovider", "-p", "no:randomly"],
        &["pytest", "-W", "error", "-W", "ignore::DeprecationWarning"],
        &["pytest", "--junitxml=reports/junit.xml"],
        &["pytest", "--log-file", "test.log", "--log-level=DEBUG"],
        &["pytest", "-c", "pytest.ini", "--doctest-modules", "src"],
        &["pytest", "--", "-odd-name.py"],
        &["py.test", "-q"],
        &["pytest-3", "-q"],
        &["python3", "-m", "pytest", "-q", "-k", "not slow", "tests/"],
        // pytest-cov and pytest-xdist, the plugins agents use most.
        &["pytest", "--cov=src", "--cov-branch", "-n", "4", "tests/"],
        &[
            "python3",
            "-m",
            "pytest",
            "--cov",
            "--no-cov-on-fail",
            "-nauto",
        ],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn pytest_plugins_and_modules_named_on_the_command_line_are_asked() {
    let table: &[&[&str]] = &[
        &["pytest", "-p", "evil_plugin"],
        &["pytest", "-pevil_plugin"],
        &["pytest", "-qpevil"],
        &["pytest", "-p", "antigravity", "-q"],
        &["pytest", "-W", "error::evil.Warning"],
        &["pytest", "--pythonwarnings=ignore::evil.module.Warning"],
        &["pytest", "--pdbcls=evil:Debugger"],
        &["pytest", "--pyargs", "os"],
        &["python3", "-m", "pytest", "-p", "evil"],
    ];
    for argv in table {
        assert_eq!(ids(argv), ["pytest.loads-code"], "{argv:?}");
    }
}

#[test]
fn pytest_debugger_reading_statements_from_stdin_is_asked() {
    for argv in [&["pytest", "--pdb"][..], &["pytest", "--trace", "-x"]] {
        assert_eq!(ids(argv), ["pytest.loads-code"], "{argv:?}");
    }
    assert!(reasons(&["pytest", "--pdb"])[0].contains("read from stdin"));
}

#[test]
fn pytest_basetemp_which_pytest_empties_is_asked_even_inside_the_tree() {
    for argv in [
        &["pytest", "--basetemp=/home/user"][..],
        &["pytest", "--basetemp", "src"],
        &["pytest", "--basetemp=."],
    ] {
        assert_eq!(ids(argv), ["pytest.sets-config"], "{argv:?}");
    }
    assert!(reasons(&["pytest", "--basetemp=src"])[0].contains("empties and removes"));
}

#[test]
fn pytest_settings_from_elsewhere_or_overridden_are_asked() {
    assert_eq!(
        ids(&["pytest", "-o", "addopts=-p evil"]),
        ["pytest.sets-config"]
    );
    assert_eq!(
        ids(&["pytest", "--override-ini=pythonpath=/tmp/evil"]),
        ["pytest.sets-config"]
    );
    assert_eq!(
        ids(&["pytest", "-c", "/tmp/evil.ini"]),
        ["pytest.other-tree"]
    );
    assert_eq!(ids(&["pytest", "--rootdir=/tmp"]), ["pytest.other-tree"]);
    assert_eq!(ids(&["pytest", "--confcutdir=/"]), ["pytest.other-tree"]);
}

#[test]
fn pytest_arguments_read_from_a_file_are_asked_wherever_the_word_stands() {
    for argv in [
        &["pytest", "@args.txt"][..],
        &["pytest", "-k", "@args.txt"],
        &["pytest", "--", "@args.txt"],
    ] {
        assert_eq!(ids(argv), ["pytest.loads-code"], "{argv:?}");
    }
    assert!(reasons(&["pytest", "@args.txt"])[0].contains("args.txt"));
}

#[test]
fn pytest_output_sent_away_or_written_outside_the_tree_is_asked() {
    assert_eq!(ids(&["pytest", "--pastebin=all"]), ["pytest.uploads"]);
    assert_eq!(
        ids(&["pytest", "--junitxml=/tmp/elsewhere.xml"]),
        ["pytest.writes-file"]
    );
    assert_eq!(
        ids(&["pytest", "--log-file=.git/hooks/pre-commit"]),
        ["pytest.writes-file"]
    );
    // argparse takes the word after a bare `--debug` as its file name.
    assert_eq!(
        ids(&["pytest", "--debug", "tests/test_a.py"]),
        ["pytest.writes-file"]
    );
}

#[test]
fn pytest_never_abbreviates_and_plugin_options_are_asked_by_name() {
    // pytest turns argparse's abbreviations off: `--basetem` is refused
    // by pytest, and asked here as unknown.
    assert_eq!(ids(&["pytest", "--basetem=/x"]), ["pytest.unknown-option"]);
    assert_eq!(ids(&["pytest", "--co=x"]), ["pytest.unknown-option"]);
    assert_eq!(
        ids(&["pytest", "--tx", "ssh=host//python=python3"]),
        ["pytest.unknown-option"]
    );
    // `--cov-report` is tabled since helper H28: its destination is a
    // write (`pytest_cov_report_types_print_and_a_destination_is_a_write`).
    assert_eq!(
        ids(&["pytest", "--cov-report=html:/tmp/x"]),
        ["pytest.writes-file"]
    );
    // xdist's workers elsewhere and its rerun-forever loop stay unknown,
    // while its local scheduling options are tabled.
    for remote in [
        &["pytest", "--px", "ssh=h"][..],
        &["pytest", "-d"],
        &["pytest", "-f"],
    ] {
        assert_eq!(ids(remote), ["pytest.unknown-option"], "{remote:?}");
    }
    assert!(
        ids(&[
            "pytest",
            "-n",
            "4",
            "--maxschedchunk",
            "2",
            "--no-loadscope-reorder"
        ])
        .is_empty()
    );
}

/// Helper H28's sweep: `pytest --cov=src --cov-report=term-missing` was
/// asked as an unknown option. A report type prints (`term`,
/// `term-missing:skip-covered`) or writes its default file in the working
/// directory (`html`, `xml`); a destination after the colon is judged as
/// any write is, so one outside the tree, in `.git` or in a file other
/// tools run is asked.
#[test]
fn pytest_cov_report_types_print_and_a_destination_is_a_write() {
    for argv in [
        &["pytest", "--cov=src", "--cov-report=term-missing"][..],
        &[
            "pytest",
            "--cov",
            "--cov-report",
            "term-missing:skip-covered",
        ],
        &["pytest", "--cov-report=html", "--cov-report=xml"],
        &["pytest", "--cov-report=xml:build/coverage.xml"],
        &["pytest", "--cov-report", "html:htmlcov", "tests/"],
        &["pytest", "--cov-report="],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["pytest", "--cov-report=html:/tmp/x"][..],
        &["pytest", "--cov-report", "xml:../coverage.xml"],
        &["pytest", "--cov-report=json:.git/hooks/pre-commit"],
        &["pytest", "--cov-report=annotate:~/.config"],
        &["pytest", "--cov-report=markdown:Makefile"],
    ] {
        assert_eq!(ids(argv), ["pytest.writes-file"], "{argv:?}");
    }
    // `skip-covered` is the only modifier word: any other is a path.
    assert_eq!(
        ids(&["pytest", "--cov-report=term:/tmp/x"]),
        ["pytest.writes-file"]
    );
}
