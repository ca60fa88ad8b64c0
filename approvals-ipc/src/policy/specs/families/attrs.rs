//! GNU coreutils that change files through their operands or options
//! beyond the ones in `fileutils.rs`, or run a program: install, dd, chmod,
//! chown, chgrp, chcon, truncate, shred, unlink, link, mkfifo, mknod, uniq,
//! shuf, split, csplit, ptx, mktemp and date. Options from coreutils 9.1's
//! `--help` (`scripts/spec-skeleton`), checked by
//! `tests/spec_conformance.rs`. Without a spec, an entry that trusts one
//! of these trusted `chmod 777 ~/.ssh`, `dd of=~/.bashrc`, `split
//! --filter=sh` and `install x /usr/local/bin/y`. A path they change inside
//! the working tree is their job; outside it, in a tool's metadata or in a
//! file other tools run, it is asked, as for cp and tee.

use crate::policy::specs::types::Effect::{ReadsFile, RunsProgram, SetsConfig, WritesFile};
use crate::policy::specs::types::{
    Copying, Grammar, Operands, Opt, Spec, flag, ids, optional, value,
};

const GNU: Grammar = Grammar::Getopt { permute: true };
const COMMON: &[Opt] = &[flag(&["--help"]), flag(&["--version"])];
const V91: &str = "GNU coreutils 9.1";

/// A `--reference=RFILE` option: copies RFILE's mode, owner or size.
const REFERENCE: Opt = value(&["--reference"]).does(ReadsFile);

const INSTALL_OPTS: &[Opt] = &[
    optional(&["--backup"]),
    flag(&["-b"]),
    flag(&["-c"]),
    flag(&["-C", "--compare"]),
    flag(&["-d", "--directory"]),
    flag(&["-D"]),
    value(&["-g", "--group"]),
    value(&["-m", "--mode"]),
    value(&["-o", "--owner"]),
    flag(&["-p", "--preserve-timestamps"]),
    flag(&["-s", "--strip"]),
    value(&["--strip-program"]).does(RunsProgram(
        "strips the installed binaries with this program",
    )),
    value(&["-S", "--suffix"]),
    value(&["-t", "--target-directory"]).does(WritesFile("installs into this directory")),
    flag(&["-T", "--no-target-directory"]),
    flag(&["-v", "--verbose"]),
    flag(&["--preserve-context"]),
    flag(&["-Z"]),
    optional(&["--context"]),
];

/// `install`: copies files or creates directories, with a mode and owner.
/// With `-d` every operand is a directory it creates, without it the last
/// is where the others go: every operand is judged as written, which asks
/// about a source outside the working tree too (over-asking, never under).
pub(crate) const INSTALL: Spec = Spec {
    family: "install",
    names: &["install", "ginstall"],
    ids: ids!("install"),
    grammar: GNU,
    opts: &[INSTALL_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("installs a file or creates a directory here"),
    env: &[],
};

/// `dd`: no options but `--help` and `--version`; its operands are
/// `KEY=VALUE`, and `of=` names the file it writes.
pub(crate) const DD: Spec = Spec {
    family: "dd",
    names: &["dd"],
    ids: ids!("dd"),
    grammar: GNU,
    opts: &[COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Assignments {
        keys: &[
            "bs", "cbs", "conv", "count", "ibs", "if", "iflag", "iseek", "obs", "of", "oflag",
            "oseek", "seek", "skip", "status",
        ],
        written: &["of"],
    },
    env: &[],
};

const CHMOD_OPTS: &[Opt] = &[
    flag(&["-c", "--changes"]),
    flag(&["-f", "--silent", "--quiet"]),
    flag(&["-v", "--verbose"]),
    flag(&["--no-preserve-root"]),
    flag(&["--preserve-root"]),
    REFERENCE,
    flag(&["-R", "--recursive"]),
];

/// `chmod MODE FILE…`: every operand is judged as a file it changes (the
/// mode too: a word like `755` or `u+x` is a harmless name in the working
/// tree). A mode spelled like an option (`chmod -x f`) is an unknown
/// option: asked.
pub(crate) const CHMOD: Spec = Spec {
    family: "chmod",
    names: &["chmod"],
    ids: ids!("chmod"),
    grammar: GNU,
    opts: &[CHMOD_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Attributes("changes this file's permissions"),
    env: &[],
};

/// Options chown and chgrp share.
const OWNER_OPTS: &[Opt] = &[
    flag(&["-c", "--changes"]),
    flag(&["-f", "--silent", "--quiet"]),
    flag(&["-v", "--verbose"]),
    flag(&["--dereference"]),
    flag(&["-h", "--no-dereference"]),
    flag(&["--no-preserve-root"]),
    flag(&["--preserve-root"]),
    REFERENCE,
    flag(&["-R", "--recursive"]),
    flag(&["-H"]),
    flag(&["-L"]),
    flag(&["-P"]),
];

/// `chown OWNER FILE…`.
pub(crate) const CHOWN: Spec = Spec {
    family: "chown",
    names: &["chown"],
    ids: ids!("chown"),
    grammar: GNU,
    opts: &[OWNER_OPTS, &[value(&["--from"])], COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Attributes("changes this file's owner"),
    env: &[],
};

/// `chgrp GROUP FILE…`.
pub(crate) const CHGRP: Spec = Spec {
    family: "chgrp",
    names: &["chgrp"],
    ids: ids!("chgrp"),
    grammar: GNU,
    opts: &[OWNER_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Attributes("changes this file's group"),
    env: &[],
};

const CHCON_OPTS: &[Opt] = &[
    flag(&["--dereference"]),
    flag(&["-h", "--no-dereference"]),
    value(&["-u", "--user"]),
    value(&["-r", "--role"]),
    value(&["-t", "--type"]),
    value(&["-l", "--range"]),
    flag(&["--no-preserve-root"]),
    flag(&["--preserve-root"]),
    REFERENCE,
    flag(&["-R", "--recursive"]),
    flag(&["-v", "--verbose"]),
    flag(&["-H"]),
    flag(&["-L"]),
    flag(&["-P"]),
];

/// `chcon CONTEXT FILE…`.
pub(crate) const CHCON: Spec = Spec {
    family: "chcon",
    names: &["chcon"],
    ids: ids!("chcon"),
    grammar: GNU,
    opts: &[CHCON_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Attributes("changes this file's SELinux context"),
    env: &[],
};

const TRUNCATE_OPTS: &[Opt] = &[
    flag(&["-c", "--no-create"]),
    flag(&["-o", "--io-blocks"]),
    value(&["-r", "--reference"]).does(ReadsFile),
    value(&["-s", "--size"]),
];

/// `truncate`: every operand is a file it cuts or extends.
pub(crate) const TRUNCATE: Spec = Spec {
    family: "truncate",
    names: &["truncate"],
    ids: ids!("truncate"),
    grammar: GNU,
    opts: &[TRUNCATE_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("changes this file's size"),
    env: &[],
};

const SHRED_OPTS: &[Opt] = &[
    flag(&["-f", "--force"]),
    value(&["-n", "--iterations"]),
    value(&["--random-source"]).does(ReadsFile),
    value(&["-s", "--size"]),
    flag(&["-u"]),
    optional(&["--remove"]),
    flag(&["-v", "--verbose"]),
    flag(&["-x", "--exact"]),
    flag(&["-z", "--zero"]),
];

/// `shred`: every operand is a file it overwrites.
pub(crate) const SHRED: Spec = Spec {
    family: "shred",
    names: &["shred"],
    ids: ids!("shred"),
    grammar: GNU,
    opts: &[SHRED_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("overwrites this file's contents"),
    env: &[],
};

/// `unlink FILE`.
pub(crate) const UNLINK: Spec = Spec {
    family: "unlink",
    names: &["unlink"],
    ids: ids!("unlink"),
    grammar: GNU,
    opts: &[COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("removes this file"),
    env: &[],
};

/// `link FILE1 FILE2`: a hard link, through which writes reach FILE1.
pub(crate) const LINK: Spec = Spec {
    family: "link",
    names: &["link"],
    ids: ids!("link"),
    grammar: GNU,
    opts: &[COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Destination(Copying {
        why: "makes a link here",
        remote: false,
        trailing_slash_is_contents: false,
        recursive: false,
        links: true,
    }),
    env: &[],
};

const MKNOD_OPTS: &[Opt] = &[
    value(&["-m", "--mode"]),
    flag(&["-Z"]),
    optional(&["--context"]),
];

/// `mkfifo NAME…`.
pub(crate) const MKFIFO: Spec = Spec {
    family: "mkfifo",
    names: &["mkfifo"],
    ids: ids!("mkfifo"),
    grammar: GNU,
    opts: &[MKNOD_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("creates this named pipe"),
    env: &[],
};

/// `mknod NAME TYPE [MAJOR MINOR]`: the type and numbers are judged as
/// names in the working tree, which they harmlessly are.
pub(crate) const MKNOD: Spec = Spec {
    family: "mknod",
    names: &["mknod"],
    ids: ids!("mknod"),
    grammar: GNU,
    opts: &[MKNOD_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("creates this special file"),
    env: &[],
};

const UNIQ_OPTS: &[Opt] = &[
    flag(&["-c", "--count"]),
    flag(&["-d", "--repeated"]),
    flag(&["-D"]),
    optional(&["--all-repeated"]),
    value(&["-f", "--skip-fields"]),
    optional(&["--group"]),
    flag(&["-i", "--ignore-case"]),
    value(&["-s", "--skip-chars"]),
    flag(&["-u", "--unique"]),
    flag(&["-z", "--zero-terminated"]),
    value(&["-w", "--check-chars"]),
];

/// `uniq [INPUT [OUTPUT]]`: the second operand is written.
pub(crate) const UNIQ: Spec = Spec {
    family: "uniq",
    names: &["uniq"],
    ids: ids!("uniq"),
    grammar: GNU,
    opts: &[UNIQ_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::WrittenAt(1, "writes its output to this file"),
    env: &[],
};

const SHUF_OPTS: &[Opt] = &[
    flag(&["-e", "--echo"]),
    value(&["-i", "--input-range"]),
    value(&["-n", "--head-count"]),
    value(&["-o", "--output"]).does(WritesFile("writes its output to this file")),
    value(&["--random-source"]).does(ReadsFile),
    flag(&["-r", "--repeat"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `shuf`.
pub(crate) const SHUF: Spec = Spec {
    family: "shuf",
    names: &["shuf"],
    ids: ids!("shuf"),
    grammar: GNU,
    opts: &[SHUF_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const SPLIT_OPTS: &[Opt] = &[
    value(&["-a", "--suffix-length"]),
    value(&["--additional-suffix"]),
    value(&["-b", "--bytes"]),
    value(&["-C", "--line-bytes"]),
    flag(&["-d"]),
    optional(&["--numeric-suffixes"]),
    flag(&["-x"]),
    optional(&["--hex-suffixes"]),
    flag(&["-e", "--elide-empty-files"]),
    value(&["--filter"]).does(RunsProgram("pipes each piece into this shell command")),
    value(&["-l", "--lines"]),
    value(&["-n", "--number"]),
    value(&["-t", "--separator"]),
    flag(&["-u", "--unbuffered"]),
    flag(&["--verbose"]),
];

/// `split [INPUT [PREFIX]]`: the pieces are written as PREFIXaa, PREFIXab …
pub(crate) const SPLIT: Spec = Spec {
    family: "split",
    names: &["split"],
    ids: ids!("split"),
    grammar: GNU,
    opts: &[SPLIT_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::WrittenAt(1, "writes the pieces under this name prefix"),
    env: &[],
};

const CSPLIT_OPTS: &[Opt] = &[
    value(&["-b", "--suffix-format"]),
    value(&["-f", "--prefix"]).does(WritesFile("writes the pieces under this name prefix")),
    flag(&["-k", "--keep-files"]),
    flag(&["--suppress-matched"]),
    value(&["-n", "--digits"]),
    flag(&["-s", "--quiet", "--silent"]),
    flag(&["-z", "--elide-empty-files"]),
];

/// `csplit FILE PATTERN…`: the pieces go to `xx00`… here, or under `-f`.
pub(crate) const CSPLIT: Spec = Spec {
    family: "csplit",
    names: &["csplit"],
    ids: ids!("csplit"),
    grammar: GNU,
    opts: &[CSPLIT_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const PTX_OPTS: &[Opt] = &[
    flag(&["-A", "--auto-reference"]),
    flag(&["-G", "--traditional"]),
    value(&["-F", "--flag-truncation"]),
    value(&["-M", "--macro-name"]),
    flag(&["-O"]),
    value(&["--format"]),
    flag(&["-R", "--right-side-refs"]),
    value(&["-S", "--sentence-regexp"]),
    flag(&["-T"]),
    value(&["-W", "--word-regexp"]),
    value(&["-b", "--break-file"]).does(ReadsFile),
    flag(&["-f", "--ignore-case"]),
    value(&["-g", "--gap-size"]),
    value(&["-i", "--ignore-file"]).does(ReadsFile),
    value(&["-o", "--only-file"]).does(ReadsFile),
    flag(&["-r", "--references"]),
    flag(&["-t", "--typeset-mode"]),
    value(&["-w", "--width"]),
];

/// `ptx`: with `-G` the second operand is the output file; without it
/// every operand is an input, but the second is judged as written either
/// way (over-asking, never under).
pub(crate) const PTX: Spec = Spec {
    family: "ptx",
    names: &["ptx"],
    ids: ids!("ptx"),
    grammar: GNU,
    opts: &[PTX_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::WrittenAt(1, "writes its output to this file (with -G)"),
    env: &[],
};

const MKTEMP_OPTS: &[Opt] = &[
    flag(&["-d", "--directory"]),
    flag(&["-u", "--dry-run"]),
    flag(&["-q", "--quiet"]),
    value(&["--suffix"]),
    value(&["-p"]).does(WritesFile("creates the file in this directory")),
    optional(&["--tmpdir"]).does(WritesFile("creates the file in this directory")),
    flag(&["-t"]),
];

/// `mktemp [TEMPLATE]`: creates a file from the template, in the directory
/// its path names (or `$TMPDIR`, `/tmp`, its job).
pub(crate) const MKTEMP: Spec = Spec {
    family: "mktemp",
    names: &["mktemp"],
    ids: ids!("mktemp"),
    grammar: GNU,
    opts: &[MKTEMP_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Written("creates a file from this template"),
    env: &[],
};

const DATE_OPTS: &[Opt] = &[
    value(&["-d", "--date"]),
    flag(&["--debug"]),
    value(&["-f", "--file"]).does(ReadsFile),
    optional(&["-I", "--iso-8601"]),
    flag(&["--resolution"]),
    // `--rfc-2822` and `--rfc-822` are old spellings, not in `--help`.
    flag(&["-R", "--rfc-email", "--rfc-2822", "--rfc-822"]),
    value(&["--rfc-3339"]),
    value(&["-r", "--reference"]).does(ReadsFile),
    value(&["-s", "--set"]).does(SetsConfig("sets the system clock")),
    // `--uct` is an old spelling date.c still takes, not in `--help`.
    flag(&["-u", "--utc", "--universal", "--uct"]),
];

/// `date [+FORMAT]`: an operand without `+` is a time it sets the clock to.
pub(crate) const DATE: Spec = Spec {
    family: "date",
    names: &["date"],
    ids: ids!("date"),
    grammar: GNU,
    opts: &[DATE_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::ChangesSystemUnless("+", "sets the system clock to this time"),
    env: &[],
};
