//! pip. Options from pip 23.2.1's own option parsers, hidden spellings
//! included (`--log-file`, `--pypi-url`, `--source-dir`, …), read from
//! `pip._internal` for the general parser and every command's. pip parses
//! with Python's optparse: long options by unambiguous prefix (an exact
//! name wins), `--opt=v` or `--opt v`, short bundles; the general options
//! stop at the command, whose parser takes them again with its own, options
//! anywhere until `--` ([`Grammar::Getopt`] with subcommands). optparse
//! also calls two spellings of one option ambiguous where this spec
//! resolves them; pip then stops, so nothing runs.
//!
//! Installing packages from the configured index, running their build
//! backends, is pip's job; another index or link source, a host trusted
//! without TLS, another interpreter, build-backend settings, writes
//! outside the working tree and changing pip's config are asked; so is a
//! package named by a URL, a VCS or a path outside the tree (operands and
//! `-e`, [`Sources::Pip`]), and a `-r`/`-c` file outside the tree (pip
//! reads `--index-url`, `-f` and more requirements files from inside it).

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::loads;
use crate::policy::specs::types::{
    Effect::{
        Installs, LoadsCode, Network, OtherTree, ReadsFile, RunsProgram, SetsConfig, WritesFile,
    },
    Grammar, Opt, Sources, Spec, Sub, flag, ids, sub, value,
};

const INDEX: &str =
    "installs from another package index or link source, whose packages run their build code";
const TRUSTS: &str =
    "trusts a host without TLS checks, so anyone on the way can serve the code pip installs";
const REQUIREMENTS: &str = "reads requirements from another directory; a requirements file can name other indexes, URLs and more requirements files";
const INSTALLS_FROM: &str = "installs a package from there, whose build code then runs";
const INSTALLS: &str = "installs packages into another directory";
const BACKEND: &str = "passes settings to the build backend, which can change what it runs";

const GENERAL: &[Opt] = &[
    flag(&["-h", "--help"]),
    flag(&["--debug"]),
    flag(&["--isolated"]),
    flag(&["--require-virtualenv", "--require-venv"]),
    value(&["--python"]).does(RunsProgram("runs pip under another Python interpreter")),
    flag(&["-v", "--verbose"]),
    flag(&["-V", "--version"]),
    flag(&["-q", "--quiet"]),
    value(&["--log", "--log-file", "--local-log"]).does(WritesFile("writes pip's log")),
    flag(&["--no-input"]),
    value(&["--keyring-provider"]),
    value(&["--proxy"]).does(Network),
    value(&["--retries"]),
    value(&["--timeout", "--default-timeout"]),
    value(&["--exists-action"]),
    value(&["--trusted-host"]).does(LoadsCode(TRUSTS)),
    value(&["--cert"]).does(ReadsFile),
    value(&["--client-cert"]).does(ReadsFile),
    value(&["--cache-dir"]).does(WritesFile("writes pip's cache into a directory")),
    flag(&["--no-cache-dir"]),
    flag(&["--disable-pip-version-check"]),
    flag(&["--no-color"]),
    flag(&["--no-python-version-warning"]),
    value(&["--use-feature"]),
    value(&["--use-deprecated"]),
];

const INSTALL_OPTS: &[Opt] = &[
    value(&["-r", "--requirement"]).does(OtherTree(REQUIREMENTS)),
    value(&["-c", "--constraint"]).does(OtherTree(REQUIREMENTS)),
    flag(&["--no-deps", "--no-dependencies"]),
    flag(&["--pre"]),
    value(&["-e", "--editable"]).does(Installs(Sources::Pip, INSTALLS_FROM)),
    flag(&["--dry-run"]),
    value(&["-t", "--target"]).does(WritesFile(INSTALLS)),
    value(&["--platform"]),
    value(&["--python-version"]),
    value(&["--implementation"]),
    value(&["--abi"]),
    flag(&["--user"]),
    flag(&["--no-user"]),
    value(&["--root"]).does(WritesFile(INSTALLS)),
    value(&["--prefix"]).does(WritesFile(INSTALLS)),
    value(&["--src", "--source", "--source-dir", "--source-directory"])
        .does(WritesFile("checks out editable packages into a directory")),
    flag(&["-U", "--upgrade"]),
    value(&["--upgrade-strategy"]),
    flag(&["--force-reinstall"]),
    flag(&["-I", "--ignore-installed"]),
    flag(&["--ignore-requires-python"]),
    flag(&["--no-build-isolation"]),
    flag(&["--use-pep517"]),
    flag(&["--no-use-pep517"]),
    flag(&["--check-build-dependencies"]),
    flag(&["--break-system-packages"]),
    value(&["-C", "--config-settings"]).does(SetsConfig(BACKEND)),
    value(&["--global-option"]).does(SetsConfig(BACKEND)),
    flag(&["--compile"]),
    flag(&["--no-compile"]),
    flag(&["--no-warn-script-location"]),
    flag(&["--no-warn-conflicts"]),
    value(&["--no-binary"]),
    value(&["--only-binary"]),
    flag(&["--prefer-binary"]),
    flag(&["--require-hashes"]),
    value(&["--progress-bar"]),
    value(&["--root-user-action"]),
    value(&["--report"]).does(WritesFile("writes an installation report")),
    flag(&["--no-clean"]),
    value(&["-i", "--index-url", "--pypi-url"]).does(LoadsCode(INDEX)),
    value(&["--extra-index-url"]).does(LoadsCode(INDEX)),
    flag(&["--no-index"]),
    value(&["-f", "--find-links"]).does(LoadsCode(INDEX)),
];

const DOWNLOAD_OPTS: &[Opt] = &[
    value(&["-c", "--constraint"]).does(OtherTree(REQUIREMENTS)),
    value(&["-r", "--requirement"]).does(OtherTree(REQUIREMENTS)),
    flag(&["--no-deps", "--no-dependencies"]),
    value(&["--global-option"]).does(SetsConfig(BACKEND)),
    value(&["--no-binary"]),
    value(&["--only-binary"]),
    flag(&["--prefer-binary"]),
    value(&["--src", "--source", "--source-dir", "--source-directory"])
        .does(WritesFile("checks out editable packages into a directory")),
    flag(&["--pre"]),
    flag(&["--require-hashes"]),
    value(&["--progress-bar"]),
    flag(&["--no-build-isolation"]),
    flag(&["--use-pep517"]),
    flag(&["--no-use-pep517"]),
    flag(&["--check-build-dependencies"]),
    flag(&["--ignore-requires-python"]),
    value(&[
        "-d",
        "--dest",
        "--destination-dir",
        "--destination-directory",
    ])
    .does(WritesFile("downloads into a directory")),
    value(&["--platform"]),
    value(&["--python-version"]),
    value(&["--implementation"]),
    value(&["--abi"]),
    flag(&["--no-clean"]),
    value(&["-i", "--index-url", "--pypi-url"]).does(LoadsCode(INDEX)),
    value(&["--extra-index-url"]).does(LoadsCode(INDEX)),
    flag(&["--no-index"]),
    value(&["-f", "--find-links"]).does(LoadsCode(INDEX)),
];

const UNINSTALL_OPTS: &[Opt] = &[
    value(&["-r", "--requirement"]).does(OtherTree(REQUIREMENTS)),
    flag(&["-y", "--yes"]),
    value(&["--root-user-action"]),
    flag(&["--break-system-packages"]),
];

const FREEZE_OPTS: &[Opt] = &[
    value(&["-r", "--requirement"]).does(OtherTree(REQUIREMENTS)),
    flag(&["-l", "--local"]),
    flag(&["--user"]),
    value(&["--path"]).does(ReadsFile),
    flag(&["--all"]),
    flag(&["--exclude-editable"]),
    value(&["--exclude"]),
];

const INSPECT_OPTS: &[Opt] = &[
    flag(&["--local"]),
    flag(&["--user"]),
    value(&["--path"]).does(ReadsFile),
];

const LIST_OPTS: &[Opt] = &[
    flag(&["-o", "--outdated"]),
    flag(&["-u", "--uptodate"]),
    flag(&["-e", "--editable"]),
    flag(&["-l", "--local"]),
    flag(&["--user"]),
    value(&["--path"]).does(ReadsFile),
    flag(&["--pre"]),
    value(&["--format"]),
    flag(&["--not-required"]),
    flag(&["--exclude-editable"]),
    flag(&["--include-editable"]),
    value(&["--exclude"]),
    value(&["-i", "--index-url", "--pypi-url"]).does(LoadsCode(INDEX)),
    value(&["--extra-index-url"]).does(LoadsCode(INDEX)),
    flag(&["--no-index"]),
    value(&["-f", "--find-links"]).does(LoadsCode(INDEX)),
];

const SHOW_OPTS: &[Opt] = &[flag(&["-f", "--files"])];

const CHECK_OPTS: &[Opt] = &[];

const CONFIG_OPTS: &[Opt] = &[
    value(&["--editor"]),
    flag(&["--global"]),
    flag(&["--user"]),
    flag(&["--site"]),
];

const SEARCH_OPTS: &[Opt] = &[value(&["-i", "--index"])];

const CACHE_OPTS: &[Opt] = &[value(&["--format"])];

const INDEX_OPTS: &[Opt] = &[
    value(&["--platform"]),
    value(&["--python-version"]),
    value(&["--implementation"]),
    value(&["--abi"]),
    flag(&["--ignore-requires-python"]),
    flag(&["--pre"]),
    value(&["--no-binary"]),
    value(&["--only-binary"]),
    value(&["-i", "--index-url", "--pypi-url"]).does(LoadsCode(INDEX)),
    value(&["--extra-index-url"]).does(LoadsCode(INDEX)),
    flag(&["--no-index"]),
    value(&["-f", "--find-links"]).does(LoadsCode(INDEX)),
];

const WHEEL_OPTS: &[Opt] = &[
    value(&["-w", "--wheel-dir"]).does(WritesFile("writes wheels into a directory")),
    value(&["--no-binary"]),
    value(&["--only-binary"]),
    flag(&["--prefer-binary"]),
    flag(&["--no-build-isolation"]),
    flag(&["--use-pep517"]),
    flag(&["--no-use-pep517"]),
    flag(&["--check-build-dependencies"]),
    value(&["-c", "--constraint"]).does(OtherTree(REQUIREMENTS)),
    value(&["-e", "--editable"]).does(Installs(Sources::Pip, INSTALLS_FROM)),
    value(&["-r", "--requirement"]).does(OtherTree(REQUIREMENTS)),
    value(&["--src", "--source", "--source-dir", "--source-directory"])
        .does(WritesFile("checks out editable packages into a directory")),
    flag(&["--ignore-requires-python"]),
    flag(&["--no-deps", "--no-dependencies"]),
    value(&["--progress-bar"]),
    flag(&["--no-verify"]),
    value(&["-C", "--config-settings"]).does(SetsConfig(BACKEND)),
    value(&["--build-option"]).does(SetsConfig(BACKEND)),
    value(&["--global-option"]).does(SetsConfig(BACKEND)),
    flag(&["--pre"]),
    flag(&["--require-hashes"]),
    flag(&["--no-clean"]),
    value(&["-i", "--index-url", "--pypi-url"]).does(LoadsCode(INDEX)),
    value(&["--extra-index-url"]).does(LoadsCode(INDEX)),
    flag(&["--no-index"]),
    value(&["-f", "--find-links"]).does(LoadsCode(INDEX)),
];

const HASH_OPTS: &[Opt] = &[value(&["-a", "--algorithm"])];

const COMPLETION_OPTS: &[Opt] = &[
    flag(&["-b", "--bash"]),
    flag(&["-z", "--zsh"]),
    flag(&["-f", "--fish"]),
    flag(&["-p", "--powershell"]),
];

const DEBUG_OPTS: &[Opt] = &[
    value(&["--platform"]),
    value(&["--python-version"]),
    value(&["--implementation"]),
    value(&["--abi"]),
];

const HELP_OPTS: &[Opt] = &[];

const SUBS: &[Sub] = &[
    sub(&["cache"], &[CACHE_OPTS, GENERAL]),
    sub(&["check"], &[CHECK_OPTS, GENERAL]),
    sub(&["completion"], &[COMPLETION_OPTS, GENERAL]),
    sub(&["config"], &[CONFIG_OPTS, GENERAL]).does(SetsConfig(
        "changes pip's configuration, which names the indexes and options of every later install",
    )),
    sub(&["debug"], &[DEBUG_OPTS, GENERAL]),
    sub(&["download"], &[DOWNLOAD_OPTS, GENERAL])
        .operands(Operands::Installs(Sources::Pip, INSTALLS_FROM)),
    sub(&["freeze"], &[FREEZE_OPTS, GENERAL]),
    sub(&["hash"], &[HASH_OPTS, GENERAL]),
    sub(&["help"], &[HELP_OPTS, GENERAL]),
    sub(&["index"], &[INDEX_OPTS, GENERAL]),
    sub(&["inspect"], &[INSPECT_OPTS, GENERAL]),
    sub(&["install"], &[INSTALL_OPTS, GENERAL])
        .operands(Operands::Installs(Sources::Pip, INSTALLS_FROM)),
    sub(&["list"], &[LIST_OPTS, GENERAL]),
    sub(&["search"], &[SEARCH_OPTS, GENERAL]),
    sub(&["show"], &[SHOW_OPTS, GENERAL]),
    sub(&["uninstall"], &[UNINSTALL_OPTS, GENERAL]),
    sub(&["wheel"], &[WHEEL_OPTS, GENERAL])
        .operands(Operands::Installs(Sources::Pip, INSTALLS_FROM)),
];

/// `pip`.
pub(crate) const PIP: Spec = Spec {
    family: "pip",
    names: &["pip", "pip3"],
    ids: ids!("pip"),
    grammar: Grammar::Getopt { permute: true },
    opts: &[GENERAL],
    subs: SUBS,
    checked_with: "pip 23.2.1 (Python 3.11)",
    operands: Operands::Plain,
    env: &[
        loads("PIP_*", "sets any pip option, such as --index-url"),
        loads("PIP_CONFIG_FILE", "pip reads its options from this file"),
    ],
};
