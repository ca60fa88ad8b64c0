//! pytest. Options from pytest 9.2.0's own parser (every option string
//! of `_pytest.config`'s argparse parser, hidden spellings such as
//! `--junitxml` and `--collectonly` included), read by argparse as pytest
//! sets it up ([`Grammar::Argparse`]): long names exact (`allow_abbrev` is
//! off), `--opt=v` or `--opt v`, short bundles (`-xq`) and attached values
//! (`-knot slow`), options anywhere until `--`, and `@FILE` read as more
//! arguments, which is asked.
//!
//! Running the project's tests, with its own conftest.py files, its own
//! settings and the plugins installed for it, is pytest's job. Asked: a
//! plugin or module named on the command line (`-p NAME`, `--pdbcls`, a
//! warning category with a module path, `--pyargs`), the debugger (which
//! runs Python statements read from stdin), settings overridden or read
//! from elsewhere (`-o`, `-c FILE`, `--rootdir`, `--confcutdir` above the
//! tree), the session's output sent to a pastebin, reports and logs
//! written outside the tree, and `--basetemp`, whose directory pytest
//! empties and removes first, wherever it is. The everyday options of
//! pytest-cov and pytest-xdist (`--cov`, `-n 4`) have tables of their own;
//! other plugins' options are unknown and asked by name.

use crate::policy::specs::types::{
    CodeIn, Effect,
    Effect::{LoadsCode, LoadsCodeIf, OtherTree, SetsConfig, Uploads, WritesFile},
    Grammar, Operands, Opt, Spec, flag, ids, loads, location, optional, value,
};

const REPORT: &str = "writes a report at the path it names";

const OPTS: &[Opt] = &[
    value(&["--assert"]),
    value(&["--basetemp"]).does(SetsConfig(
        "empties and removes the directory it names, with everything in it, before the tests use it",
    )),
    flag(&["--cache-clear"]),
    optional(&["--cache-show"]),
    value(&["--capture"]),
    value(&["--code-highlight"]),
    flag(&["--collect-in-virtualenv"]),
    flag(&["--collectonly", "--collect-only", "--co"]),
    value(&["--color"]),
    value(&["--confcutdir"]).does(OtherTree(
        "loads conftest.py files from every directory below the one it names, which can be above the working tree",
    )),
    value(&["-c", "--config-file"]).does(OtherTree(
        "reads its settings (extra options, plugins, import paths) from this file",
    )),
    flag(&["--continue-on-collection-errors"]),
    optional(&["--debug"]).does(WritesFile(
        "writes a debug log (argparse also takes the next word as its file name)",
    )),
    value(&["--deselect"]),
    flag(&["--disable-plugin-autoload"]),
    flag(&["--disable-warnings", "--disable-pytest-warnings"]),
    flag(&["--doctest-continue-on-failure"]),
    value(&["--doctest-glob"]),
    flag(&["--doctest-ignore-import-errors"]),
    flag(&["--doctest-modules"]),
    value(&["--doctest-report"]),
    value(&["--durations"]),
    value(&["--durations-min"]),
    flag(&["-x", "--exitfirst"]),
    flag(&["--ff", "--failed-first"]),
    flag(&["--fixtures", "--funcargs"]),
    flag(&["--fixtures-per-test"]),
    flag(&["--force-short-summary"]),
    flag(&["--fulltrace", "--full-trace"]),
    flag(&["-h", "--help"]),
    value(&["--ignore"]),
    value(&["--ignore-glob"]),
    value(&["--import-mode"]),
    value(&["--junitprefix", "--junit-prefix"]),
    value(&["--junitxml", "--junit-xml"]).does(WritesFile(REPORT)),
    value(&["-k"]),
    flag(&["--keepduplicates", "--keep-duplicates"]),
    flag(&["--lf", "--last-failed"]),
    value(&["--lfnf", "--last-failed-no-failures"]),
    value(&["--log-auto-indent"]),
    value(&["--log-cli-date-format"]),
    value(&["--log-cli-format"]),
    value(&["--log-cli-level"]),
    value(&["--log-date-format"]),
    value(&["--log-disable"]),
    value(&["--log-file"]).does(WritesFile("writes the log at the path it names")),
    value(&["--log-file-date-format"]),
    value(&["--log-file-format"]),
    value(&["--log-file-level"]),
    value(&["--log-file-mode"]),
    value(&["--log-format"]),
    value(&["--log-level"]),
    value(&["-m"]),
    flag(&["--markers"]),
    value(&["--max-warnings"]),
    value(&["--maxfail"]),
    flag(&["--nf", "--new-first"]),
    flag(&["--no-fold-skipped"]),
    flag(&["--no-header"]),
    flag(&["--no-showlocals"]),
    flag(&["--no-summary"]),
    flag(&["--noconftest"]),
    value(&["-o", "--override-ini"]).does(SetsConfig(
        "overrides a setting, which can add options (addopts), plugins (required_plugins), import paths (pythonpath) or files it writes (cache_dir, log_file)",
    )),
    value(&["-p"]).does(LoadsCodeIf(
        CodeIn::PluginUnlessNo,
        "imports the module it names as a plugin before the tests, whatever module that is (`-p no:NAME`, which turns a plugin off, is fine)",
    )),
    value(&["--pastebin"]).does(Uploads(
        "sends the test session's output to the bpaste.net pastebin",
    )),
    flag(&["--pdb"]).does(DEBUGGER),
    value(&["--pdbcls"]).does(LoadsCode(
        "imports the debugger class's module and runs the debugger, which runs Python statements read from stdin",
    )),
    flag(&["--pyargs"]).does(LoadsCode(
        "imports the installed packages the operands name and runs their tests, not the project's",
    )),
    value(&["-W", "--pythonwarnings"]).does(LoadsCodeIf(
        CodeIn::WarningCategory,
        "a warning category with a module path imports that module before the tests",
    )),
    flag(&["-q", "--quiet"]),
    value(&["-r", "--report-chars"]),
    value(&["--rootdir"]).does(OtherTree(
        "takes another directory as the root, with its own conftest.py files and settings",
    )),
    flag(&["--runxfail"]),
    flag(&["-s"]),
    flag(&["--setuponly", "--setup-only"]),
    flag(&["--setupplan", "--setup-plan"]),
    flag(&["--setupshow", "--setup-show"]),
    value(&["--show-capture"]),
    flag(&["-l", "--showlocals"]),
    flag(&["--strict"]),
    flag(&["--strict-config"]),
    flag(&["--strict-markers"]),
    flag(&["--sw", "--stepwise"]),
    flag(&["--sw-reset", "--stepwise-reset"]),
    flag(&["--sw-skip", "--stepwise-skip"]),
    value(&["--tb"]),
    flag(&["--trace"]).does(DEBUGGER),
    flag(&["--traceconfig", "--trace-config"]),
    flag(&["-v", "--verbose"]),
    value(&["--verbosity"]),
    flag(&["-V", "--version"]),
    flag(&["--xfail-tb"]),
];

/// pytest-cov's options (7.1.0, checked by the conformance test against
/// the plugin loaded into pytest's parser): measuring coverage is the test
/// run's job. `--cov-report TYPE[:DEST]` prints a report or writes one in
/// the working directory; its `DEST` is judged as a write (helper H28:
/// `--cov-report=term-missing` was asked as unknown). `--cov-config` (a
/// coverage config can load plugins) is left unknown, so it is asked.
const COV: &[Opt] = &[
    optional(&["--cov"]),
    flag(&["--cov-append"]),
    flag(&["--cov-branch"]),
    value(&["--cov-context"]),
    value(&["--cov-fail-under"]),
    value(&["--cov-precision"]),
    value(&["--cov-report"]).does(Effect::ReportDest(
        &["skip-covered"],
        "writes a coverage report to the file or directory after the colon",
    )),
    flag(&["--cov-reset"]),
    flag(&["--no-cov"]),
    flag(&["--no-cov-on-fail"]),
];

/// pytest-xdist's options that spread the run over local workers (3.8.0,
/// checked like pytest-cov's). `--tx`, `--px`, `-d` and the rsync options,
/// which start workers elsewhere, are left unknown, so they are asked, and
/// so is `-f`/`--looponfail` (its `xdist.looponfail` plugin reruns the
/// tests on every change, forever).
const XDIST: &[Opt] = &[
    value(&["--dist"]),
    flag(&["--loadscope-reorder"]),
    value(&["--max-worker-restart"]),
    value(&["--maxprocesses"]),
    value(&["--maxschedchunk"]),
    flag(&["--no-loadscope-reorder"]),
    value(&["-n", "--numprocesses"]),
    value(&["--testrunuid"]),
];

const DEBUGGER: Effect =
    LoadsCode("starts the Python debugger, which runs Python statements read from stdin");

/// `pytest`, `py.test`, and Debian's `pytest-3`.
pub(crate) const PYTEST: Spec = Spec {
    family: "pytest",
    names: &["pytest", "py.test", "pytest-3"],
    ids: ids!("pytest"),
    grammar: Grammar::Argparse { from_file: true },
    // pytest's own table first: the conformance test compares it alone.
    opts: &[OPTS, COV, XDIST],
    subs: &[],
    checked_with: "pytest 9.2.0, pytest-cov 7.1.0, pytest-xdist 3.8.0 (from pip)",
    operands: Operands::Plain,
    env: &[
        loads(
            "PYTEST_ADDOPTS",
            "pytest reads more command-line options from it",
        ),
        location(
            "PYTEST_DEBUG_TEMPROOT",
            "where pytest makes and removes its temporary directories",
        ),
        loads(
            "PYTEST_PLUGINS",
            "pytest imports the modules it names as plugins",
        ),
    ],
};
