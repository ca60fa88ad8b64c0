//! rustup. Options and subcommands from rustup 1.29.0's `rustup [<cmd>
//! [<sub>]] --help`, the aliases and hidden commands probed with `--help`
//! (`rustup toolchain add`, `rustup up`, `rustup dump-testament`). clap:
//! long names exact (no abbreviation, of options or commands: tried),
//! `--opt=v` or `--opt v`, short bundles, options anywhere after their
//! command until `--`; a command's options are not taken after its
//! subcommand. A leading `+toolchain` is removed before this reading (the
//! guards see `rustup +nightly show` as `rustup show`); anywhere else it is
//! an unknown subcommand, asked.
//!
//! Installing and updating toolchains, components and targets from the
//! official channels is rustup's job, as is showing what is installed.
//! Asked: `rustup run` (also refused as a semantic wrapper before any spec
//! is read), a toolchain linked from a chosen directory (which every later
//! cargo then loads), changing the default or a directory's override
//! toolchain (`rustup default`, `rustup override set|unset`, `--override`:
//! which compiler every later cargo runs), `rustup set`, replacing,
//! uninstalling or migrating rustup itself (`rustup self …`), and `rustup
//! doc` and `rustup man`, which run a browser and man.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, PrintsInstead, RunsProgram, SetsConfig},
    Grammar, Opt, Spec, Sub, flag, group, ids, location, sub, value,
};

const DEFAULT: &str =
    "changes the default toolchain: which compiler every later cargo and rustc run";
const OVERRIDE: &str = "changes a directory's toolchain override: which compiler every later cargo and rustc run there";
const LINK: &str =
    "links a toolchain to a directory, whose compiler every cargo and rustc using it then runs";
const RUN: &str = "runs any command with a toolchain's directory first on PATH and its environment set, so the command does not resolve as checked";
const DOC: &str = "opens the documentation in a web browser, a program the environment names";
const MAN: &str = "runs man, and with it a pager, on a toolchain's manual pages";
const SELF_UPDATE: &str = "replaces rustup itself with a downloaded build";
const SELF_UNINSTALL: &str = "removes rustup and every toolchain";
const UPGRADE_DATA: &str = "rewrites rustup's settings and toolchain data";
const SET: &str = "changes rustup's settings (profile, default host, self-update, auto-install)";

const INSTALL_OPTS: &[Opt] = &[
    value(&["--profile"]),
    value(&["-c", "--component"]),
    value(&["-t", "--target"]),
    flag(&["--no-self-update"]),
    flag(&["--no-update"]),
    flag(&["--force"]),
    flag(&["--allow-downgrade"]),
    flag(&["--force-non-host"]),
    flag(&["--override"]).does(SetsConfig(OVERRIDE)),
    flag(&["-h", "--help"]),
];

const HELP: &[Opt] = &[flag(&["-h", "--help"])];

const TOOLCHAIN_LIST_OPTS: &[Opt] = &[
    flag(&["-v", "--verbose"]),
    flag(&["-q", "--quiet"]),
    flag(&["-h", "--help"]),
];

const DEFAULT_OPTS: &[Opt] = &[flag(&["--force-non-host"]), flag(&["-h", "--help"])];

const SHOW_OPTS: &[Opt] = &[flag(&["-v", "--verbose"]), flag(&["-h", "--help"])];

const UPDATE_OPTS: &[Opt] = &[
    flag(&["--no-self-update"]),
    flag(&["--force"]),
    flag(&["--force-non-host"]),
    flag(&["-h", "--help"]),
];

const CHECK_OPTS: &[Opt] = &[flag(&["--no-self-update"]), flag(&["-h", "--help"])];

const LIST_OPTS: &[Opt] = &[
    value(&["--toolchain"]),
    flag(&["--installed"]),
    flag(&["-q", "--quiet"]),
    flag(&["-h", "--help"]),
];

const TOOLCHAIN_OPTS: &[Opt] = &[value(&["--toolchain"]), flag(&["-h", "--help"])];

const COMPONENT_ADD_OPTS: &[Opt] = &[
    value(&["--toolchain"]),
    value(&["--target"]),
    flag(&["-h", "--help"]),
];

const OVERRIDE_SET_OPTS: &[Opt] = &[value(&["--path"]), flag(&["-h", "--help"])];

const OVERRIDE_UNSET_OPTS: &[Opt] = &[
    value(&["--path"]),
    flag(&["--nonexistent"]),
    flag(&["-h", "--help"]),
];

const RUN_OPTS: &[Opt] = &[flag(&["--install"]), flag(&["-h", "--help"])];

const DOC_OPTS: &[Opt] = &[
    flag(&["--path"]).does(PrintsInstead(
        "prints where the documentation is and opens no browser (helper H28's sweep)",
    )),
    value(&["--toolchain"]),
    flag(&["--alloc"]),
    flag(&["--book"]),
    flag(&["--cargo"]),
    flag(&["--clippy"]),
    flag(&["--core"]),
    flag(&["--edition-guide"]),
    flag(&["--embedded-book"]),
    flag(&["--error-codes"]),
    flag(&["--nomicon"]),
    flag(&["--proc_macro"]),
    flag(&["--reference"]),
    flag(&["--releases"]),
    flag(&["--rust-by-example"]),
    flag(&["--rustc"]),
    flag(&["--rustc-docs"]),
    flag(&["--rustdoc"]),
    flag(&["--std"]),
    flag(&["--style-guide"]),
    flag(&["--test"]),
    flag(&["--unstable-book"]),
    flag(&["-h", "--help"]),
];

const SELF_UNINSTALL_OPTS: &[Opt] = &[
    flag(&["-y"]),
    flag(&["--no-modify-path"]),
    flag(&["-h", "--help"]),
];

const ROOT_OPTS: &[Opt] = &[
    flag(&["-v", "--verbose"]),
    flag(&["-q", "--quiet"]),
    flag(&["-h", "--help"]),
    flag(&["-V", "--version"]),
];

const TOOLCHAIN_SUBS: &[Sub] = &[
    sub(&["list"], &[TOOLCHAIN_LIST_OPTS]),
    sub(&["install", "add"], &[INSTALL_OPTS]),
    sub(&["uninstall", "remove", "rm"], &[HELP]),
    sub(&["link"], &[HELP]).does(LoadsCode(LINK)),
];

const SHOW_SUBS: &[Sub] = &[
    sub(&["active-toolchain"], &[SHOW_OPTS]),
    sub(&["home"], &[HELP]),
    sub(&["profile"], &[HELP]),
];

const TARGET_SUBS: &[Sub] = &[
    sub(&["list"], &[LIST_OPTS]),
    sub(&["add", "install"], &[TOOLCHAIN_OPTS]),
    sub(&["remove", "uninstall", "rm"], &[TOOLCHAIN_OPTS]),
];

const COMPONENT_SUBS: &[Sub] = &[
    sub(&["list"], &[LIST_OPTS]),
    sub(&["add"], &[COMPONENT_ADD_OPTS]),
    sub(&["remove", "uninstall", "rm"], &[COMPONENT_ADD_OPTS]),
];

const OVERRIDE_SUBS: &[Sub] = &[
    sub(&["list"], &[HELP]),
    sub(&["set", "add"], &[OVERRIDE_SET_OPTS]).does(SetsConfig(OVERRIDE)),
    sub(&["unset", "remove", "rm"], &[OVERRIDE_UNSET_OPTS]).does(SetsConfig(OVERRIDE)),
];

const SELF_SUBS: &[Sub] = &[
    sub(&["update"], &[HELP]).does(LoadsCode(SELF_UPDATE)),
    sub(&["uninstall"], &[SELF_UNINSTALL_OPTS]).does(SetsConfig(SELF_UNINSTALL)),
    sub(&["upgrade-data"], &[HELP]).does(SetsConfig(UPGRADE_DATA)),
];

const SET_SUBS: &[Sub] = &[
    sub(&["default-host"], &[HELP]),
    sub(&["profile"], &[HELP]),
    sub(&["auto-self-update"], &[HELP]),
    sub(&["auto-install"], &[HELP]),
];

const SUBS: &[Sub] = &[
    sub(&["install", "add"], &[INSTALL_OPTS]),
    sub(&["uninstall", "remove", "rm"], &[HELP]),
    group(&["toolchain"], &[HELP], TOOLCHAIN_SUBS),
    // `rustup default` alone prints the default toolchain.
    sub(&["default"], &[DEFAULT_OPTS]).operands(Operands::Saved(DEFAULT)),
    group(&["show"], &[SHOW_OPTS], SHOW_SUBS),
    sub(&["update", "up", "upgrade"], &[UPDATE_OPTS]),
    sub(&["check"], &[CHECK_OPTS]),
    group(&["target"], &[HELP], TARGET_SUBS),
    group(&["component"], &[HELP], COMPONENT_SUBS),
    group(&["override"], &[HELP], OVERRIDE_SUBS),
    sub(&["run"], &[RUN_OPTS]).does(RunsProgram(RUN)),
    sub(&["which"], &[TOOLCHAIN_OPTS]),
    sub(&["doc", "docs"], &[DOC_OPTS]).does(RunsProgram(DOC)),
    sub(&["man"], &[TOOLCHAIN_OPTS]).does(RunsProgram(MAN)),
    group(&["self"], &[HELP], SELF_SUBS),
    group(&["set"], &[HELP], SET_SUBS).does(SetsConfig(SET)),
    sub(&["completions"], &[HELP]),
    sub(&["dump-testament"], &[HELP]),
    sub(&["help"], &[]),
];

/// The options before the command.
const GLOBAL: &[&[Opt]] = &[ROOT_OPTS];

/// rustup, invoked by its own name (its proxies are cargo, rustc …).
pub(crate) static RUSTUP: Spec = Spec {
    family: "rustup",
    names: &["rustup"],
    ids: ids!("rustup"),
    grammar: Grammar::Clap,
    opts: GLOBAL,
    subs: SUBS,
    checked_with: "rustup 1.29.0",
    operands: Operands::Plain,
    env: &[location(
        "RUSTUP_*",
        "rustup's settings: where it downloads toolchains and itself from (RUSTUP_DIST_SERVER, RUSTUP_UPDATE_ROOT), its home and the toolchain every proxy runs",
    )],
};
