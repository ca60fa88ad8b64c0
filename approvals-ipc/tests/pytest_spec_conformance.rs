//! The pytest spec against the installed pytest. pytest builds its command
//! line with argparse, so the test asks that parser itself (through
//! `python3`): every option string it has is a spelling of the spec, with
//! the same arity (argparse's `nargs`: none is a required value, `0` a
//! flag, `?` an optional one), every spelling of the spec is one it has,
//! and the parser is set up as [`Grammar::Argparse`] reads it (no
//! abbreviations, `@FILE` read as arguments). Then the real `pytest` is
//! run on an abbreviation, which it must refuse.
//!
//! pytest is compared only at the version its spec was checked with
//! (`.ci/run` installs that version from pip); otherwise, or without
//! pytest, the test prints a SKIP line.

use std::collections::BTreeMap;
use std::process::Command;

use approvals_ipc::policy::specs::{Arity, Grammar};

mod spec_support;
use spec_support::{spec, text};

/// Prints the version, the parser's settings, then `OPTION NARGS` for
/// every option string of pytest's parser.
const DUMP: &str = r#"
import pytest
from _pytest.config import _prepareconfig
config = _prepareconfig([])
parser = config._parser.optparser
print("version", pytest.__version__)
print("allow_abbrev", parser.allow_abbrev)
print("fromfile", parser.fromfile_prefix_chars)
for action in parser._actions:
    for name in action.option_strings:
        print("option", name, action.nargs)
"#;

#[test]
fn pytest_spec_knows_every_option_of_pytests_parser() {
    let pytest = spec("pytest");
    let Ok(out) = Command::new("python3")
        .args(["-c", DUMP])
        .env("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        .env_remove("PYTEST_ADDOPTS")
        .current_dir(std::env::temp_dir())
        .output()
    else {
        eprintln!("SKIP pytest_spec_conformance: python3 is not installed");
        return;
    };
    let dump = text(&out);
    if !out.status.success() {
        eprintln!("SKIP pytest_spec_conformance: pytest is not installed ({dump})");
        return;
    }
    let mut version = "";
    let mut settings = BTreeMap::new();
    let mut program: BTreeMap<&str, Arity> = BTreeMap::new();
    for line in dump.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["version", v] => version = v,
            ["option", name, nargs] => {
                let arity = match *nargs {
                    "None" => Arity::Required,
                    "0" => Arity::Flag,
                    "?" => Arity::Optional,
                    other => panic!("{name}: nargs {other} is not one the spec can say"),
                };
                program.insert(name, arity);
            }
            [key, value] => {
                settings.insert(*key, *value);
            }
            _ => {}
        }
    }
    if !pytest.checked_with.contains(&format!("pytest {version} ")) {
        eprintln!(
            "SKIP pytest_spec_conformance: pytest is at {version}, not the version its spec was checked with ({})",
            pytest.checked_with
        );
        return;
    }
    assert_eq!(settings.get("allow_abbrev"), Some(&"False"));
    assert_eq!(
        pytest.grammar,
        Grammar::Argparse {
            from_file: settings.get("fromfile") == Some(&"@")
        }
    );
    // The first table is pytest's own; the others are plugins' (pytest-cov,
    // pytest-xdist), which the dump does not load.
    let spec_rows: BTreeMap<&str, Arity> = pytest.opts[..1]
        .iter()
        .flat_map(|t| t.iter())
        .flat_map(|o| o.names.iter().map(move |n| (*n, o.arity)))
        .collect();
    let mut wrong = Vec::new();
    for (name, arity) in &program {
        match spec_rows.get(name) {
            None => wrong.push(format!("pytest has {name}, the spec lacks it")),
            Some(a) if a != arity => wrong.push(format!(
                "{name}: pytest's arity {arity:?}, the spec's {a:?}"
            )),
            Some(_) => {}
        }
    }
    for name in spec_rows.keys() {
        if !program.contains_key(name) {
            wrong.push(format!("the spec has {name}, pytest does not"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the pytest spec disagrees with pytest:\n{}",
        wrong.join("\n")
    );
    assert!(program.len() > 80, "pytest's parser read: {program:?}");
    // The real program refuses an abbreviation, as the grammar says.
    let dir = tempfile::tempdir().expect("a scratch directory");
    let refused = Command::new("pytest")
        .args(["--collect-onl", "-p", "no:cacheprovider"])
        .current_dir(dir.path())
        .env("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        .output()
        .expect("run pytest");
    assert!(
        text(&refused).contains("unrecognized arguments: --collect-onl"),
        "pytest took an abbreviation: {}",
        text(&refused)
    );
}
