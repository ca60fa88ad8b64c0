//! cargo. Options from cargo 1.95.0's `cargo --help` and each subcommand's
//! `--help` (clap: long names exact, `--opt=v` or `--opt v`, short
//! bundles, options anywhere until `--`), and cargo-clippy's and
//! cargo-fmt's own lists. The global options marked global in cargo's
//! parser (`-v`, `-q`, `--color`, `--config`, `-Z`, `-h`, `--locked`,
//! `--offline`, `--frozen`) are also taken after the subcommand; `-C`,
//! `--list`, `--explain` and `-V` are not (tried). Subcommands not listed
//! (plugins such as `cargo nextest`, aliases from config) are asked: they
//! run whatever program or command line they name.
//!
//! Building, testing and running the workspace's own code is cargo's job
//! (build scripts included). Setting config (`--config`, `-Z`), working on
//! another package (`-C`, `--manifest-path` outside the tree), writing
//! build output outside it, installing a crate, publishing, and passing
//! arguments to rustc are asked, as are `--open` (a browser), `cargo new`,
//! `init` and `vendor` writing outside the tree, and `cargo uninstall`.

use crate::policy::specs::types::Operands::{self, WrittenAt};
use crate::policy::specs::types::{
    Effect::{
        LoadsCode, LoadsFromOutside, OtherTree, PrintsInstead, RunsProgram, SetsConfig, Uploads,
        WritesFile,
    },
    Grammar, Opt, Spec, Sub, flag, ids, optional, sub, value,
};
use crate::policy::specs::types::{loads, location};

/// Target selection, shared by the build commands.
const TARGETS: &[Opt] = &[
    flag(&["--lib"]),
    flag(&["--bins"]),
    optional(&["--bin"]),
    flag(&["--examples"]),
    optional(&["--example"]),
    flag(&["--tests"]),
    optional(&["--test"]),
    flag(&["--benches"]),
    optional(&["--bench"]),
    flag(&["--all-targets"]),
];

/// Feature selection, shared by the build commands.
const FEATURES: &[Opt] = &[
    value(&["-F", "--features"]),
    flag(&["--all-features"]),
    flag(&["--no-default-features"]),
];

/// Compilation options, shared by the build commands.
const COMPILE: &[Opt] = &[
    value(&["-j", "--jobs"]),
    flag(&["--keep-going"]),
    flag(&["-r", "--release"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    flag(&["--unit-graph"]),
    flag(&["--timings"]),
];

/// Manifest options, shared by the build commands.
const MANIFEST_OPTS: &[Opt] = &[
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
    flag(&["--ignore-rust-version"]),
];

// Found by the H29 sweep: `--target ../x.json` is a custom target spec,
// which names the linker, its arguments and pre-link commands cargo runs;
// a target triple, or the project's own spec file, is cargo's job. clap
// gives `--target` an optional value but takes the next word for it, so
// it is read as taking one (a bare `--target`, which lists, is asked).
const TARGET_SPEC: &str = "builds for a custom target spec file, which names the linker and the arguments rustc runs it with";
const OPENS: &str = "opens the documentation in a browser, which BROWSER or the desktop names";
const NEW_PACKAGE: &str = "creates a package (and a git repository) in this directory";
const CONFIG: &str = "sets any cargo config value, including build.rustc-wrapper and target.<triple>.runner, which run programs";
const UNSTABLE: &str =
    "turns on unstable cargo features, which can change what runs (-Zscript runs a file)";
const ELSEWHERE: &str = "runs cargo in another directory, whose config and build scripts apply";
const MANIFEST: &str = "works on another package, whose config and build scripts apply";
const TARGET_DIR: &str = "writes (or, for clean, deletes) build output in a directory";
const FETCHES: &str =
    "builds and installs a crate from a source the prompt names, running its build script";

const GLOBAL: &[Opt] = &[
    flag(&["-V", "--version"]),
    flag(&["--list"]),
    value(&["--explain"]),
    flag(&["-v", "--verbose"]),
    flag(&["-q", "--quiet"]),
    value(&["--color"]),
    value(&["-C"]).does(OtherTree(ELSEWHERE)),
    flag(&["--locked"]),
    flag(&["--offline"]),
    flag(&["--frozen"]),
    value(&["--config"]).does(SetsConfig(CONFIG)),
    value(&["-Z"]).does(SetsConfig(UNSTABLE)),
    flag(&["-h", "--help"]),
];

/// The global options cargo also takes after a subcommand.
const EVERYWHERE: &[Opt] = &[
    flag(&["-v", "--verbose"]),
    flag(&["-q", "--quiet"]),
    value(&["--color"]),
    flag(&["--locked"]),
    flag(&["--offline"]),
    flag(&["--frozen"]),
    value(&["--config"]).does(SetsConfig(CONFIG)),
    value(&["-Z"]).does(SetsConfig(UNSTABLE)),
    flag(&["-h", "--help"]),
];

const ADD: &[Opt] = &[
    flag(&["--no-default-features"]),
    flag(&["--default-features"]),
    value(&["-F", "--features"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    flag(&["--public"]),
    flag(&["--no-public"]),
    value(&["--rename"]),
    flag(&["-n", "--dry-run"]),
    optional(&["-p", "--package"]),
    value(&["--path"]).does(OtherTree(
        "adds a path dependency, whose build script the next build runs",
    )),
    value(&["--base"]),
    value(&["--git"]).does(LoadsCode(
        "adds a git dependency, whose build script the next build runs",
    )),
    value(&["--branch"]),
    value(&["--tag"]),
    value(&["--rev"]),
    value(&["--registry"]),
    flag(&["--dev"]),
    flag(&["--build"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
];

const BENCH: &[Opt] = &[
    flag(&["--no-run"]),
    flag(&["--no-fail-fast"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    value(&["-j", "--jobs"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    flag(&["--unit-graph"]),
    flag(&["--timings"]),
];

const BUILD: &[Opt] = &[
    flag(&["--future-incompat-report"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    value(&["--artifact-dir"]).does(WritesFile(TARGET_DIR)),
];

const CHECK: &[Opt] = &[
    flag(&["--future-incompat-report"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
];

const CLEAN: &[Opt] = &[
    flag(&["--doc"]),
    flag(&["-n", "--dry-run"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    flag(&["-r", "--release"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const CLIPPY: &[Opt] = &[
    flag(&["--future-incompat-report"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    flag(&["--fix"]),
    flag(&["--no-deps"]),
    optional(&["--explain"]),
    flag(&["-V", "--version"]),
    // `cargo clippy --fix` runs `cargo fix` and hands it the options it
    // does not know; these four (cargo-clippy 0.1.9x, not in its `--help`)
    // only let the fixes land in a tree with uncommitted, staged or
    // broken code, as for `cargo fix`.
    flag(&["--allow-dirty"]),
    flag(&["--allow-no-vcs"]),
    flag(&["--allow-staged"]),
    flag(&["--broken-code"]),
];

const DOC: &[Opt] = &[
    flag(&["--open"]).does(RunsProgram(OPENS)),
    flag(&["--no-deps"]),
    flag(&["--document-private-items"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    flag(&["--lib"]),
    flag(&["--bins"]),
    optional(&["--bin"]),
    flag(&["--examples"]),
    optional(&["--example"]),
];

const FETCH: &[Opt] = &[
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const FIX: &[Opt] = &[
    flag(&["--edition"]),
    flag(&["--edition-idioms"]),
    flag(&["--broken-code"]),
    flag(&["--allow-no-vcs"]),
    flag(&["--allow-dirty"]),
    flag(&["--allow-staged"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    value(&["-j", "--jobs"]),
    flag(&["--keep-going"]),
    flag(&["-r", "--release"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    flag(&["--timings"]),
];

const FMT: &[Opt] = &[
    flag(&["--version"]),
    value(&["-p", "--package"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
    value(&["--message-format"]),
    flag(&["--all"]),
    flag(&["--check"]),
];

const GENERATE_LOCKFILE: &[Opt] = &[value(&["--publish-time"])];

const HELP: &[Opt] = &[];

const INFO: &[Opt] = &[value(&["--index"]), value(&["--registry"])];

const INIT: &[Opt] = &[
    value(&["--vcs"]),
    flag(&["--bin"]),
    flag(&["--lib"]),
    value(&["--edition"]),
    value(&["--name"]),
    value(&["--registry"]),
];

const INSTALL: &[Opt] = &[
    value(&["--version"]),
    value(&["--index"]).does(LoadsCode(FETCHES)),
    value(&["--registry"]).does(LoadsCode(FETCHES)),
    value(&["--git"]).does(LoadsCode(FETCHES)),
    value(&["--branch"]),
    value(&["--tag"]),
    value(&["--rev"]),
    value(&["--path"]).does(LoadsCode(FETCHES)),
    value(&["--root"]).does(WritesFile("installs binaries under another root")),
    flag(&["-f", "--force"]),
    flag(&["-n", "--dry-run"]),
    flag(&["--no-track"]),
    flag(&["--list"]).does(PrintsInstead(
        "lists the installed crates and installs nothing (helper H28's sweep)",
    )),
    value(&["--message-format"]),
    flag(&["--debug"]),
    flag(&["--ignore-rust-version"]),
    optional(&["--bin"]),
    flag(&["--bins"]),
    optional(&["--example"]),
    flag(&["--examples"]),
    value(&["-j", "--jobs"]),
    flag(&["--keep-going"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    flag(&["--timings"]),
];

const LOCATE_PROJECT: &[Opt] = &[
    flag(&["--workspace"]),
    value(&["--message-format"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const METADATA: &[Opt] = &[
    value(&["--filter-platform"]),
    flag(&["--no-deps"]),
    value(&["--format-version"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const NEW: &[Opt] = &[
    value(&["--vcs"]),
    flag(&["--bin"]),
    flag(&["--lib"]),
    value(&["--edition"]),
    value(&["--name"]),
    value(&["--registry"]),
];

const PACKAGE: &[Opt] = &[
    value(&["--index"]),
    value(&["--registry"]),
    flag(&["-l", "--list"]),
    flag(&["--no-verify"]),
    flag(&["--no-metadata"]),
    flag(&["--allow-dirty"]),
    flag(&["--exclude-lockfile"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    value(&["-j", "--jobs"]),
    flag(&["--keep-going"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const PKGID: &[Opt] = &[
    optional(&["-p", "--package"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const PUBLISH: &[Opt] = &[
    flag(&["-n", "--dry-run"]),
    value(&["--index"]),
    value(&["--registry"]),
    flag(&["--no-verify"]),
    flag(&["--allow-dirty"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    value(&["-j", "--jobs"]),
    flag(&["--keep-going"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const REMOVE: &[Opt] = &[
    flag(&["-n", "--dry-run"]),
    flag(&["--dev"]),
    flag(&["--build"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    optional(&["-p", "--package"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const RUN: &[Opt] = &[
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    optional(&["--bin"]),
    optional(&["--example"]),
];

const RUSTC: &[Opt] = &[
    value(&["--print"]),
    value(&["--crate-type"]),
    flag(&["--future-incompat-report"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
];

const RUSTDOC: &[Opt] = &[
    flag(&["--open"]).does(RunsProgram(OPENS)),
    value(&["--message-format"]),
    value(&["--output-format"]),
    optional(&["-p", "--package"]),
];

const SEARCH: &[Opt] = &[
    value(&["--limit"]),
    value(&["--index"]),
    value(&["--registry"]),
];

const TEST: &[Opt] = &[
    flag(&["--no-run"]),
    flag(&["--no-fail-fast"]),
    flag(&["--future-incompat-report"]),
    value(&["--message-format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    flag(&["--all"]),
    flag(&["--doc"]),
    value(&["-j", "--jobs"]),
    flag(&["-r", "--release"]),
    value(&["--profile"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--target-dir"]).does(WritesFile(TARGET_DIR)),
    flag(&["--unit-graph"]),
    flag(&["--timings"]),
];

const TREE: &[Opt] = &[
    value(&["-e", "--edges"]),
    optional(&["-i", "--invert"]),
    value(&["--prune"]),
    value(&["--depth"]),
    value(&["--prefix"]),
    flag(&["--no-dedupe"]),
    flag(&["-d", "--duplicates"]),
    value(&["--charset"]),
    value(&["-f", "--format"]),
    optional(&["-p", "--package"]),
    flag(&["--workspace"]),
    value(&["--exclude"]),
    value(&["--target"]).does(LoadsFromOutside(TARGET_SPEC)),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const UNINSTALL: &[Opt] = &[
    value(&["--root"]),
    optional(&["-p", "--package"]),
    value(&["--bin"]),
];

const UPDATE: &[Opt] = &[
    // Hidden, still accepted (tried): the old spellings.
    optional(&["-p", "--package"]),
    flag(&["--aggressive"]),
    flag(&["-n", "--dry-run"]),
    flag(&["--recursive"]),
    value(&["--precise"]),
    flag(&["-b", "--breaking"]),
    flag(&["-w", "--workspace"]),
];

const VENDOR: &[Opt] = &[
    flag(&["--no-delete"]),
    value(&["-s", "--sync"]),
    flag(&["--respect-source-config"]),
    flag(&["--versioned-dirs"]),
    value(&["--manifest-path"]).does(OtherTree(MANIFEST)),
];

const VERIFY_PROJECT: &[Opt] = &[value(&["--manifest-path"]).does(OtherTree(MANIFEST))];

const VERSION: &[Opt] = &[];

const SUBS: &[Sub] = &[
    sub(&["add"], &[ADD, MANIFEST_OPTS, EVERYWHERE]),
    sub(
        &["bench"],
        &[BENCH, TARGETS, FEATURES, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(
        &["build", "b"],
        &[BUILD, TARGETS, FEATURES, COMPILE, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(
        &["check", "c"],
        &[CHECK, TARGETS, FEATURES, COMPILE, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(&["clean"], &[CLEAN, EVERYWHERE]),
    sub(
        &["clippy"],
        &[
            CLIPPY,
            TARGETS,
            FEATURES,
            COMPILE,
            MANIFEST_OPTS,
            EVERYWHERE,
        ],
    ),
    sub(
        &["doc", "d"],
        &[DOC, FEATURES, COMPILE, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(&["fetch"], &[FETCH, EVERYWHERE]),
    sub(
        &["fix"],
        &[FIX, TARGETS, FEATURES, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(&["fmt"], &[FMT, EVERYWHERE]),
    sub(
        &["generate-lockfile"],
        &[GENERATE_LOCKFILE, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(&["help"], &[HELP, EVERYWHERE]),
    sub(&["info"], &[INFO, EVERYWHERE]),
    sub(&["init"], &[INIT, EVERYWHERE]).operands(WrittenAt(0, NEW_PACKAGE)),
    sub(&["install"], &[INSTALL, FEATURES, EVERYWHERE]).does(LoadsCode(
        "builds a crate, running its build script, and installs its binaries onto PATH",
    )),
    sub(&["locate-project"], &[LOCATE_PROJECT, EVERYWHERE]),
    sub(&["metadata"], &[METADATA, FEATURES, EVERYWHERE]),
    sub(&["new"], &[NEW, EVERYWHERE]).operands(WrittenAt(0, NEW_PACKAGE)),
    sub(&["package"], &[PACKAGE, FEATURES, EVERYWHERE]),
    sub(&["pkgid"], &[PKGID, EVERYWHERE]),
    sub(&["publish"], &[PUBLISH, FEATURES, EVERYWHERE])
        .does(Uploads("uploads the package to a registry")),
    sub(&["remove", "rm"], &[REMOVE, EVERYWHERE]),
    sub(
        &["run", "r"],
        &[RUN, FEATURES, COMPILE, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(
        &["rustc"],
        &[RUSTC, TARGETS, FEATURES, COMPILE, MANIFEST_OPTS, EVERYWHERE],
    )
    .does(RunsProgram(
        "passes its arguments to rustc, which can name a linker or a plugin to run",
    )),
    sub(
        &["rustdoc"],
        &[
            RUSTDOC,
            TARGETS,
            FEATURES,
            COMPILE,
            MANIFEST_OPTS,
            EVERYWHERE,
        ],
    )
    .does(RunsProgram(
        "passes its arguments to rustdoc, which can name a linker or a plugin to run",
    )),
    sub(&["search"], &[SEARCH, EVERYWHERE]),
    sub(
        &["test", "t"],
        &[TEST, TARGETS, FEATURES, MANIFEST_OPTS, EVERYWHERE],
    ),
    sub(&["tree"], &[TREE, FEATURES, EVERYWHERE]),
    sub(&["uninstall"], &[UNINSTALL, EVERYWHERE]).does(WritesFile(
        "removes installed binaries from cargo's bin directory, which is on PATH",
    )),
    sub(&["update"], &[UPDATE, MANIFEST_OPTS, EVERYWHERE]),
    sub(&["vendor"], &[VENDOR, EVERYWHERE]).operands(WrittenAt(
        0,
        "writes every dependency's sources into this directory",
    )),
    sub(&["verify-project"], &[VERIFY_PROJECT, EVERYWHERE]),
    sub(&["version"], &[VERSION, EVERYWHERE]),
];

/// `cargo`.
pub(crate) const CARGO: Spec = Spec {
    family: "cargo",
    names: &["cargo"],
    ids: ids!("cargo"),
    grammar: Grammar::Clap,
    opts: &[GLOBAL],
    subs: SUBS,
    checked_with: "cargo 1.95.0 (rustup)",
    operands: Operands::Plain,
    env: &[
        loads(
            "CARGO_ALIAS_*",
            "defines cargo subcommands from the environment",
        ),
        loads("CARGO_BUILD_*", "sets build config, such as rustc-wrapper"),
        location(
            "CARGO_HOME",
            "cargo reads its config and binaries from this directory",
        ),
        loads("CARGO_REGISTRIES_*", "points cargo at other registries"),
        loads("RUSTC", "cargo runs this compiler"),
        loads(
            "RUSTC_WORKSPACE_WRAPPER",
            "cargo runs every workspace compile through this program",
        ),
        loads(
            "RUSTC_WRAPPER",
            "cargo runs every compile through this program",
        ),
        loads(
            "RUSTDOCFLAGS",
            "passes flags, which can load plugins, to rustdoc",
        ),
        loads(
            "RUSTFLAGS",
            "passes flags, which can load plugins, to rustc",
        ),
        location(
            "RUSTUP_HOME",
            "rustup reads its toolchains from this directory",
        ),
        location("RUSTUP_TOOLCHAIN", "picks the toolchain every proxy runs"),
    ],
};
