//! GNU coreutils that agents use to look at files: ls, cat, head, tail, wc,
//! sort. Options from coreutils 9.1's `--help` (`scripts/spec-skeleton`),
//! checked by `tests/spec_conformance.rs`. All inert but sort's output,
//! temporary directory and compressor.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{ReadsFile, ReadsNames, RunsProgram, WritesFile},
    Grammar, Opt, Spec, flag, ids, optional, value,
};

const GNU: Grammar = Grammar::Getopt { permute: true };
const COMMON: &[Opt] = &[flag(&["--help"]), flag(&["--version"])];

const LS_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    flag(&["-A", "--almost-all"]),
    flag(&["--author"]),
    flag(&["-b", "--escape"]),
    value(&["--block-size"]),
    flag(&["-B", "--ignore-backups"]),
    flag(&["-c"]),
    flag(&["-C"]),
    optional(&["--color"]),
    flag(&["-d", "--directory"]),
    flag(&["-D", "--dired"]),
    flag(&["-f"]),
    flag(&["-F"]),
    optional(&["--classify"]),
    flag(&["--file-type"]),
    value(&["--format"]),
    flag(&["--full-time"]),
    flag(&["-g"]),
    flag(&["--group-directories-first"]),
    flag(&["-G", "--no-group"]),
    flag(&["-h", "--human-readable"]),
    flag(&["--si"]),
    flag(&["-H", "--dereference-command-line"]),
    flag(&["--dereference-command-line-symlink-to-dir"]),
    value(&["--hide"]),
    optional(&["--hyperlink"]),
    value(&["--indicator-style"]),
    flag(&["-i", "--inode"]),
    value(&["-I", "--ignore"]),
    flag(&["-k", "--kibibytes"]),
    flag(&["-l"]),
    flag(&["-L", "--dereference"]),
    flag(&["-m"]),
    flag(&["-n", "--numeric-uid-gid"]),
    flag(&["-N", "--literal"]),
    flag(&["-o"]),
    flag(&["-p"]),
    flag(&["-q", "--hide-control-chars"]),
    flag(&["--show-control-chars"]),
    flag(&["-Q", "--quote-name"]),
    value(&["--quoting-style"]),
    flag(&["-r", "--reverse"]),
    flag(&["-R", "--recursive"]),
    flag(&["-s", "--size"]),
    flag(&["-S"]),
    value(&["--sort"]),
    value(&["--time"]),
    value(&["--time-style"]),
    flag(&["-t"]),
    value(&["-T", "--tabsize"]),
    flag(&["-u"]),
    flag(&["-U"]),
    flag(&["-v"]),
    value(&["-w", "--width"]),
    flag(&["-x"]),
    flag(&["-X"]),
    flag(&["-Z", "--context"]),
    flag(&["--zero"]),
    flag(&["-1"]),
];

/// `ls`.
pub(crate) const LS: Spec = Spec {
    family: "ls",
    names: &["ls"],
    ids: ids!("ls"),
    grammar: GNU,
    opts: &[LS_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};

const CAT_OPTS: &[Opt] = &[
    flag(&["-A", "--show-all"]),
    flag(&["-b", "--number-nonblank"]),
    flag(&["-e"]),
    flag(&["-E", "--show-ends"]),
    flag(&["-n", "--number"]),
    flag(&["-s", "--squeeze-blank"]),
    flag(&["-t"]),
    flag(&["-T", "--show-tabs"]),
    flag(&["-u"]),
    flag(&["-v", "--show-nonprinting"]),
];

/// `cat`.
pub(crate) const CAT: Spec = Spec {
    family: "cat",
    names: &["cat"],
    ids: ids!("cat"),
    grammar: GNU,
    opts: &[CAT_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};

const HEAD_OPTS: &[Opt] = &[
    flag(&["-#"]),
    value(&["-c", "--bytes"]),
    value(&["-n", "--lines"]),
    flag(&["-q", "--quiet", "--silent"]),
    flag(&["-v", "--verbose"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `head`.
pub(crate) const HEAD: Spec = Spec {
    family: "head",
    names: &["head"],
    ids: ids!("head"),
    grammar: GNU,
    opts: &[HEAD_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};

const TAIL_OPTS: &[Opt] = &[
    flag(&["-#"]),
    value(&["-c", "--bytes"]),
    flag(&["-f"]),
    optional(&["--follow"]),
    flag(&["-F"]),
    value(&["-n", "--lines"]),
    value(&["--max-unchanged-stats"]),
    value(&["--pid"]),
    flag(&["-q", "--quiet", "--silent"]),
    flag(&["--retry"]),
    value(&["-s", "--sleep-interval"]),
    flag(&["-v", "--verbose"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `tail`.
pub(crate) const TAIL: Spec = Spec {
    family: "tail",
    names: &["tail"],
    ids: ids!("tail"),
    grammar: GNU,
    opts: &[TAIL_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};

const WC_OPTS: &[Opt] = &[
    flag(&["-c", "--bytes"]),
    flag(&["-m", "--chars"]),
    flag(&["-l", "--lines"]),
    value(&["--files0-from"]).does(ReadsFile),
    flag(&["-L", "--max-line-length"]),
    flag(&["-w", "--words"]),
];

/// `wc`.
pub(crate) const WC: Spec = Spec {
    family: "wc",
    names: &["wc"],
    ids: ids!("wc"),
    grammar: GNU,
    opts: &[WC_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};

const SORT_OPTS: &[Opt] = &[
    flag(&["-b", "--ignore-leading-blanks"]),
    flag(&["-d", "--dictionary-order"]),
    flag(&["-f", "--ignore-case"]),
    flag(&["-g", "--general-numeric-sort"]),
    flag(&["-i", "--ignore-nonprinting"]),
    flag(&["-M", "--month-sort"]),
    flag(&["-h", "--human-numeric-sort"]),
    flag(&["-n", "--numeric-sort"]),
    flag(&["-R", "--random-sort"]),
    value(&["--random-source"]).does(ReadsFile),
    flag(&["-r", "--reverse"]),
    value(&["--sort"]),
    flag(&["-V", "--version-sort"]),
    value(&["--batch-size"]),
    flag(&["-c"]),
    optional(&["--check"]),
    flag(&["-C"]),
    value(&["--compress-program"]).does(RunsProgram(
        "runs a compression program of the caller's choosing on temporary files",
    )),
    flag(&["--debug"]),
    value(&["--files0-from"]).does(ReadsNames(
        "sorts the files named in a list the prompt does not show, so a protected path among them is not checked",
    )),
    value(&["-k", "--key"]),
    flag(&["-m", "--merge"]),
    value(&["-o", "--output"]).does(WritesFile("writes the sorted output to a file")),
    flag(&["-s", "--stable"]),
    value(&["-S", "--buffer-size"]),
    value(&["-t", "--field-separator"]),
    value(&["-T", "--temporary-directory"])
        .does(WritesFile("writes temporary files in a chosen directory")),
    value(&["--parallel"]),
    flag(&["-u", "--unique"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `sort`.
pub(crate) const SORT: Spec = Spec {
    family: "sort",
    names: &["sort", "gsort"],
    ids: ids!("sort"),
    grammar: GNU,
    opts: &[SORT_OPTS, COMMON],
    subs: &[],
    checked_with: "GNU coreutils 9.1",
    operands: Operands::Plain,
    env: &[],
};
