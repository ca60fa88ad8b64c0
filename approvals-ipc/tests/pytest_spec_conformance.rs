//! The pytest spec against the installed pytest. pytest builds its command
//! line with argparse, so the test asks that parser itself (through
//! `python3`): every option string it has is a spelling of the spec, with
//! the same arity (argparse's `nargs`: none is a required value, `0` a
//! flag, `?` an optional one), every spelling of the spec is one it has,
//! and the parser is set up as [`Grammar::Argparse`] reads it (no
//! abbreviations, `@FILE` read as arguments). Then the real `pytest` is
//! run on an abbreviation, which it must refuse.
//!
//! The plugins whose options have tables of their own (pytest-cov and
//! pytest-xdist) are loaded into the same parser: each option they add
//! and the spec tables has the plugin's arity, and those the spec leaves
//! unknown (so asked) are the ones listed here, on purpose.
//!
//! pytest and its plugins are compared only at the versions the spec was
//! checked with (`.ci/run` installs them from pip); otherwise, or without
//! them, the test prints a SKIP line.

use std::collections::BTreeMap;
use std::process::Command;

use approvals_ipc::policy::specs::{Arity, Grammar};

mod spec_support;
use spec_support::{spec, text};

/// Prints the version, the parser's settings, then `OPTION NARGS` for
/// every option string of pytest's parser.
const DUMP: &str = r#"
import sys
import pytest
from _pytest.config import _prepareconfig
config = _prepareconfig(sys.argv[1:])
parser = config._parser.optparser
print("version", pytest.__version__)
print("allow_abbrev", parser.allow_abbrev)
print("fromfile", parser.fromfile_prefix_chars)
for action in parser._actions:
    for name in action.option_strings:
        print("option", name, action.nargs)
for name, dist in config.pluginmanager.list_plugin_distinfo():
    print("plugin", dist.project_name, dist.version)
"#;

/// Options of pytest-cov and pytest-xdist the spec leaves unknown, so that
/// they are asked: configs at any path, workers started
/// elsewhere (`--tx`, `--px`, `-d`, rsync). (`-f`/`--looponfail` is
/// xdist's other plugin, `xdist.looponfail`, not loaded here: unknown.)
const PLUGIN_OPTIONS_ASKED: &[&str] = &[
    "--cov-config",
    "--px",
    "--rsyncdir",
    "--rsyncignore",
    "--tx",
    "-d",
];

/// The dump of pytest's parser with `args` (plugins to load): its version,
/// settings, options and arities, and the versions of the plugins loaded.
struct Dump {
    version: String,
    settings: BTreeMap<String, String>,
    options: BTreeMap<String, Arity>,
    plugins: BTreeMap<String, String>,
}

/// `None` (after a SKIP line) when python3 or pytest cannot be run.
fn dump(args: &[&str]) -> Option<Dump> {
    let Ok(out) = Command::new("python3")
        .args(["-c", DUMP])
        .args(args)
        .env("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        .env_remove("PYTEST_ADDOPTS")
        .current_dir(std::env::temp_dir())
        .output()
    else {
        eprintln!("SKIP pytest_spec_conformance: python3 is not installed");
        return None;
    };
    let dump = text(&out);
    if !out.status.success() {
        eprintln!("SKIP pytest_spec_conformance: pytest {args:?} cannot be loaded ({dump})");
        return None;
    }
    let mut read = Dump {
        version: String::new(),
        settings: BTreeMap::new(),
        options: BTreeMap::new(),
        plugins: BTreeMap::new(),
    };
    for line in dump.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["version", v] => read.version = (*v).to_owned(),
            ["option", name, nargs] => {
                let arity = match *nargs {
                    "None" => Arity::Required,
                    "0" => Arity::Flag,
                    "?" => Arity::Optional,
                    other => panic!("{name}: nargs {other} is not one the spec can say"),
                };
                read.options.insert((*name).to_owned(), arity);
            }
            ["plugin", name, version] => {
                read.plugins
                    .insert((*name).to_owned(), (*version).to_owned());
            }
            [key, value] => {
                read.settings.insert((*key).to_owned(), (*value).to_owned());
            }
            _ => {}
        }
    }
    Some(read)
}

#[test]
fn pytest_spec_knows_every_option_of_pytests_parser() {
    let pytest = spec("pytest");
    let Some(Dump {
        version,
        settings,
        options: program,
        ..
    }) = dump(&[])
    else {
        return;
    };
    if !pytest.checked_with.contains(&format!("pytest {version},")) {
        eprintln!(
            "SKIP pytest_spec_conformance: pytest is at {version}, not the version its spec was checked with ({})",
            pytest.checked_with
        );
        return;
    }
    assert_eq!(
        settings.get("allow_abbrev").map(String::as_str),
        Some("False")
    );
    assert_eq!(
        pytest.grammar,
        Grammar::Argparse {
            from_file: settings.get("fromfile").map(String::as_str) == Some("@")
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
        match spec_rows.get(name.as_str()) {
            None => wrong.push(format!("pytest has {name}, the spec lacks it")),
            Some(a) if a != arity => wrong.push(format!(
                "{name}: pytest's arity {arity:?}, the spec's {a:?}"
            )),
            Some(_) => {}
        }
    }
    for name in spec_rows.keys() {
        if !program.contains_key(*name) {
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

#[test]
fn pytest_spec_tables_the_options_pytest_cov_and_xdist_add_with_their_arities() {
    let pytest = spec("pytest");
    let (Some(base), Some(with)) = (dump(&[]), dump(&["-p", "pytest_cov", "-p", "xdist"])) else {
        return;
    };
    for (plugin, version) in &with.plugins {
        if !pytest.checked_with.contains(&format!("{plugin} {version}")) {
            eprintln!(
                "SKIP pytest_spec_conformance: {plugin} is at {version}, not the version the spec was checked with ({})",
                pytest.checked_with
            );
            return;
        }
    }
    for plugin in ["pytest-cov", "pytest-xdist"] {
        if !with.plugins.contains_key(plugin) {
            eprintln!("SKIP pytest_spec_conformance: {plugin} is not installed");
            return;
        }
    }
    let added: BTreeMap<&str, Arity> = with
        .options
        .iter()
        .filter(|(name, _)| !base.options.contains_key(*name))
        .map(|(name, arity)| (name.as_str(), *arity))
        .collect();
    // The plugins' tables, after pytest's own.
    let spec_rows: BTreeMap<&str, Arity> = pytest.opts[1..]
        .iter()
        .flat_map(|t| t.iter())
        .flat_map(|o| o.names.iter().map(move |n| (*n, o.arity)))
        .collect();
    let mut wrong = Vec::new();
    for (name, arity) in &spec_rows {
        match added.get(name) {
            None => wrong.push(format!("the spec has {name}, no plugin adds it")),
            Some(a) if a != arity => wrong.push(format!(
                "{name}: the plugin's arity {a:?}, the spec's {arity:?}"
            )),
            Some(_) => {}
        }
    }
    for name in added.keys() {
        if !spec_rows.contains_key(name) && !PLUGIN_OPTIONS_ASKED.contains(name) {
            wrong.push(format!(
                "a plugin adds {name}: table it or list it as asked on purpose"
            ));
        }
    }
    for name in PLUGIN_OPTIONS_ASKED {
        if !added.contains_key(name) {
            wrong.push(format!("{name} is listed as asked, but no plugin adds it"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the pytest spec disagrees with its plugins:\n{}",
        wrong.join("\n")
    );
}
