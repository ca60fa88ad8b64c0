//! GNU find (findutils 4.9): its own grammar ([`Grammar::Find`]), not
//! getopt. Leading options (`-H -L -P -D LIST -ON`), then start points,
//! then an expression of options, tests, operators and actions, each a
//! whole word with a fixed number of following words. Rows from `find
//! --help` and findutils' parser table, every arity probed by
//! `tests/find_spec_conformance.rs`.
//!
//! Reading files and matching names is find's job. Asked: `-delete`,
//! `-ok`/`-okdir` (they read the answer from the terminal), writing a
//! file (`-fprint*`, `-fls`) where a write matters, and any predicate the
//! spec does not know. `-exec`/`-execdir` run a command line: asked here;
//! the analysis reads a plain `-exec` command as a segment of its own and
//! waives this for it (`policy::find_exec`).

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{ReadsFile, RunsProgram, WritesFile},
    Grammar, Opt, Spec, flag, ids, pair, value,
};

/// Why a command `-exec` runs is asked.
pub(crate) const EXEC: &str = "runs a command line for each match";

/// The options before the start points.
const LEADING: &[Opt] = &[
    flag(&["-H"]),
    flag(&["-L"]),
    flag(&["-P"]),
    // `-D LIST` takes the next word; `-DLIST` is an unknown predicate.
    value(&["-D"]),
    // `-O3`: the level is always attached (read by the grammar).
    flag(&["-O"]),
];

/// Operators: no value, nothing done.
const OPERATORS: &[Opt] = &[
    flag(&["!", "-not"]),
    flag(&["(", ")"]),
    flag(&[","]),
    flag(&["-a", "-and"]),
    flag(&["-o", "-or"]),
];

/// Options of the expression (positional and normal), always true.
const OPTIONS: &[Opt] = &[
    flag(&["-d", "-depth"]),
    flag(&["-daystart"]),
    // Start points from a file, or stdin with `-`: find reads it.
    // The starting points come from a list the prompt does not show:
    // listing names is harmless, but a command find runs on them cannot be
    // checked (`policy::find_exec` leaves such a line to `find.runs-program`).
    value(&["-files0-from"]).does(ReadsFile),
    flag(&["-follow"]),
    flag(&["-help", "--help"]),
    flag(&["-ignore_readdir_race"]),
    value(&["-maxdepth"]),
    value(&["-mindepth"]),
    flag(&["-mount", "-xdev"]),
    flag(&["-noignore_readdir_race"]),
    flag(&["-noleaf"]),
    flag(&["-nowarn"]),
    value(&["-regextype"]),
    flag(&["-version", "--version"]),
    flag(&["-warn"]),
];

/// Tests: each true or false for a file, nothing done.
const TESTS: &[Opt] = &[
    value(&["-amin"]),
    value(&["-anewer"]),
    value(&["-atime"]),
    value(&["-cmin"]),
    value(&["-cnewer"]),
    value(&["-context"]),
    value(&["-ctime"]),
    flag(&["-empty"]),
    flag(&["-executable"]),
    flag(&["-false"]),
    value(&["-fstype"]),
    value(&["-gid"]),
    value(&["-group"]),
    value(&["-ilname"]),
    value(&["-iname"]),
    value(&["-inum"]),
    value(&["-ipath"]),
    value(&["-iregex"]),
    value(&["-iwholename"]),
    value(&["-links"]),
    value(&["-lname"]),
    value(&["-mmin"]),
    value(&["-mtime"]),
    value(&["-name"]),
    value(&["-newer"]),
    // `-newerXY REF`: X one of `aBcm`, Y one of `aBcmt`.
    value(&[
        "-neweraa", "-neweraB", "-newerac", "-neweram", "-newerat", "-newerBa", "-newerBB",
        "-newerBc", "-newerBm", "-newerBt", "-newerca", "-newercB", "-newercc", "-newercm",
        "-newerct", "-newerma", "-newermB", "-newermc", "-newermm", "-newermt",
    ]),
    flag(&["-nogroup"]),
    flag(&["-nouser"]),
    value(&["-path"]),
    value(&["-perm"]),
    flag(&["-readable"]),
    value(&["-regex"]),
    value(&["-samefile"]),
    value(&["-size"]),
    flag(&["-true"]),
    value(&["-type"]),
    value(&["-uid"]),
    value(&["-used"]),
    value(&["-user"]),
    value(&["-wholename"]),
    flag(&["-writable"]),
    value(&["-xtype"]),
];

/// Actions.
const ACTIONS: &[Opt] = &[
    // No path of its own: judged as a write the prompt does not show.
    flag(&["-delete"]).does(WritesFile("deletes every match")),
    // A command line up to `;`, or `{} +` (read by the grammar).
    value(&["-exec", "-execdir"]).does(RunsProgram(EXEC)),
    value(&["-ok", "-okdir"]).does(RunsProgram(
        "runs a command line for each match after asking on the terminal",
    )),
    value(&["-fls"]).does(WritesFile("writes a listing of the matches to a file")),
    value(&["-fprint", "-fprint0"]).does(WritesFile("writes the matches to a file")),
    // `-fprintf FILE FORMAT`: the grammar judges FILE, the first word.
    pair(&["-fprintf"]).does(WritesFile("writes the matches to a file")),
    flag(&["-ls"]),
    flag(&["-print"]),
    flag(&["-print0"]),
    value(&["-printf"]),
    flag(&["-prune"]),
    flag(&["-quit"]),
];

/// GNU find.
pub(crate) const FIND: Spec = Spec {
    family: "find",
    names: &["find", "gfind"],
    ids: ids!("find"),
    grammar: Grammar::Find,
    opts: &[LEADING, OPERATORS, OPTIONS, TESTS, ACTIONS],
    subs: &[],
    checked_with: "findutils 4.9.0 (Debian bookworm)",
    operands: Operands::Plain,
    env: &[],
};
