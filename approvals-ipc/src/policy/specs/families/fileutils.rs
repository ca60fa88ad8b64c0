//! GNU coreutils that write, move or remove the files their operands name:
//! cp, mv, ln, tee, touch, mkdir, rm, rmdir. Options from coreutils 9.1's
//! `--help` (`scripts/spec-skeleton`), checked by `tests/spec_conformance.rs`.
//! Working on files inside the working tree is their job; an operand (or
//! `-t DIR`) outside it, inside a tool's metadata (`.git/hooks`) or naming
//! a file other tools run (`Makefile`, `.envrc`) is asked, and a whole
//! directory copied or moved into the working directory itself is asked
//! ([`Operands`]).

use crate::policy::specs::types::Effect::{Mode, ReadsFile, WritesFile};
use crate::policy::specs::types::Mode::{Links, Recursive, Symbolic};
use crate::policy::specs::types::{
    Copying, Grammar, Operands, Opt, Spec, flag, ids, optional, value,
};

const GNU: Grammar = Grammar::Getopt { permute: true };
const COMMON: &[Opt] = &[flag(&["--help"]), flag(&["--version"])];

/// `-t DIR`: every operand is a source, written into DIR.
const TARGET_DIRECTORY: Opt =
    value(&["-t", "--target-directory"]).does(WritesFile("writes into this directory"));

/// Options cp, mv and ln share.
const BACKUPS: &[Opt] = &[
    optional(&["--backup"]),
    flag(&["-b"]),
    flag(&["-f", "--force"]),
    flag(&["-i", "--interactive"]),
    value(&["-S", "--suffix"]),
    TARGET_DIRECTORY,
    flag(&["-T", "--no-target-directory"]),
    flag(&["-v", "--verbose"]),
];

const CP_OPTS: &[Opt] = &[
    flag(&["-a", "--archive"]).does(Mode(Recursive)),
    flag(&["--attributes-only"]),
    flag(&["--copy-contents"]),
    flag(&["-d"]),
    flag(&["-H"]),
    flag(&["-l", "--link"]).does(Mode(Links)),
    flag(&["-L", "--dereference"]),
    flag(&["-n", "--no-clobber"]),
    flag(&["-P", "--no-dereference"]),
    flag(&["-p"]),
    optional(&["--preserve"]),
    value(&["--no-preserve"]),
    // `--parents` writes DEST/SOURCE-PATH, which the destination check
    // (DEST/SOURCE-NAME) does not see: asked.
    flag(&["--parents"]).does(WritesFile(
        "recreates each source's whole path inside the destination",
    )),
    flag(&["-R", "-r", "--recursive"]).does(Mode(Recursive)),
    optional(&["--reflink"]),
    flag(&["--remove-destination"]),
    value(&["--sparse"]),
    flag(&["--strip-trailing-slashes"]),
    // `-s` makes symbolic links, which is also `Links`: read by both.
    flag(&["-s", "--symbolic-link"]).does(Mode(Symbolic)),
    flag(&["-u", "--update"]),
    flag(&["-x", "--one-file-system"]),
    flag(&["-Z"]),
    optional(&["--context"]),
];

const COPY: Copying = Copying {
    why: "copies files here",
    remote: false,
    trailing_slash_is_contents: false,
    recursive: false,
    links: false,
};

/// `cp`.
pub(crate) const CP: Spec = Spec {
    family: "cp",
    names: &["cp"],
    ids: ids!("cp"),
    grammar: GNU,
    opts: &[CP_OPTS, BACKUPS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Destination(COPY),
    env: &[],
};

const MV_OPTS: &[Opt] = &[
    flag(&["-n", "--no-clobber"]),
    flag(&["--strip-trailing-slashes"]),
    flag(&["-u", "--update"]),
    flag(&["-Z", "--context"]),
];

/// `mv`: moves directories whole.
pub(crate) const MV: Spec = Spec {
    family: "mv",
    names: &["mv"],
    ids: ids!("mv"),
    grammar: GNU,
    opts: &[MV_OPTS, BACKUPS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Destination(Copying {
        why: "moves files here",
        recursive: true,
        ..COPY
    }),
    env: &[],
};

const LN_OPTS: &[Opt] = &[
    flag(&["-d", "-F", "--directory"]),
    flag(&["-L", "--logical"]),
    flag(&["-n", "--no-dereference"]),
    flag(&["-P", "--physical"]),
    flag(&["-r", "--relative"]),
    flag(&["-s", "--symbolic"]).does(Mode(Symbolic)),
];

/// `ln`: the link is written where the last operand says.
pub(crate) const LN: Spec = Spec {
    family: "ln",
    names: &["ln"],
    ids: ids!("ln"),
    grammar: GNU,
    opts: &[LN_OPTS, BACKUPS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Destination(Copying {
        why: "makes a link here",
        links: true,
        ..COPY
    }),
    env: &[],
};

const TEE_OPTS: &[Opt] = &[
    flag(&["-a", "--append"]),
    flag(&["-i", "--ignore-interrupts"]),
    flag(&["-p"]),
    optional(&["--output-error"]),
];

/// `tee`: every operand is a file it writes.
pub(crate) const TEE: Spec = Spec {
    family: "tee",
    names: &["tee"],
    ids: ids!("tee"),
    grammar: GNU,
    opts: &[TEE_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Written("writes its input to this file"),
    env: &[],
};

const TOUCH_OPTS: &[Opt] = &[
    flag(&["-a"]),
    flag(&["-c", "--no-create"]),
    value(&["-d", "--date"]),
    flag(&["-f"]),
    flag(&["-h", "--no-dereference"]),
    flag(&["-m"]),
    value(&["-r", "--reference"]).does(ReadsFile),
    value(&["-t"]),
    value(&["--time"]),
];

/// `touch`.
pub(crate) const TOUCH: Spec = Spec {
    family: "touch",
    names: &["touch"],
    ids: ids!("touch"),
    grammar: GNU,
    opts: &[TOUCH_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Written("creates this file or changes its times"),
    env: &[],
};

const MKDIR_OPTS: &[Opt] = &[
    value(&["-m", "--mode"]),
    flag(&["-p", "--parents"]),
    flag(&["-v", "--verbose"]),
    flag(&["-Z"]),
    optional(&["--context"]),
];

/// `mkdir`.
pub(crate) const MKDIR: Spec = Spec {
    family: "mkdir",
    names: &["mkdir"],
    ids: ids!("mkdir"),
    grammar: GNU,
    opts: &[MKDIR_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Written("creates this directory"),
    env: &[],
};

const RM_OPTS: &[Opt] = &[
    flag(&["-f", "--force"]),
    flag(&["-i"]),
    flag(&["-I"]),
    optional(&["--interactive"]),
    flag(&["--one-file-system"]),
    flag(&["--no-preserve-root"]),
    optional(&["--preserve-root"]),
    flag(&["-r", "-R", "--recursive"]),
    flag(&["-d", "--dir"]),
    flag(&["-v", "--verbose"]),
];

/// `rm`.
pub(crate) const RM: Spec = Spec {
    family: "rm",
    names: &["rm"],
    ids: ids!("rm"),
    grammar: GNU,
    opts: &[RM_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Written("removes this file"),
    env: &[],
};

const RMDIR_OPTS: &[Opt] = &[
    flag(&["--ignore-fail-on-non-empty"]),
    // `--path` is an old spelling rmdir 9.1 still takes, unlisted.
    flag(&["-p", "--parents", "--path"]),
    flag(&["-v", "--verbose"]),
];

/// `rmdir`.
pub(crate) const RMDIR: Spec = Spec {
    family: "rmdir",
    names: &["rmdir"],
    ids: ids!("rmdir"),
    grammar: GNU,
    opts: &[RMDIR_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Written("removes this directory"),
    env: &[],
};
