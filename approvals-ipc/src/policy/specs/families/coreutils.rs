//! GNU coreutils that agents use to look at files: ls, cat, head, tail, wc,
//! sort, and the column, number, checksum and encoding filters (cut, paste,
//! nl, fold, expand, unexpand, comm, md5sum and sha*sum, base64 and base32),
//! which only print what they read. Options from coreutils 9.1's
//! `--help` (`scripts/spec-skeleton`), checked by `tests/spec_conformance.rs`.
//! All inert but sort's output, temporary directory and compressor. Without
//! a spec a filter given a path in a system directory the user can write
//! (`cut -d: -f1 /etc/passwd` as root) was asked, since whether it writes
//! there was not known.

use crate::policy::specs::types::{
    Effect::{ReadsFile, ReadsNames, RunsProgram, WritesFile},
    Grammar, Opt, Spec, flag, ids, optional, value,
};
use crate::policy::specs::types::{Ids, Operands};

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

/// A spec of a GNU filter that only prints what it reads: its operands are
/// files it reads, its options (its own and `--help`, `--version`) inert.
const fn filter(
    family: &'static str,
    ids: Ids,
    names: &'static [&'static str],
    opts: &'static [&'static [Opt]],
) -> Spec {
    Spec {
        family,
        names,
        ids,
        grammar: GNU,
        opts,
        subs: &[],
        checked_with: "GNU coreutils 9.1",
        operands: Operands::Plain,
        env: &[],
    }
}

const CUT_OPTS: &[Opt] = &[
    value(&["-b", "--bytes"]),
    value(&["-c", "--characters"]),
    value(&["-d", "--delimiter"]),
    value(&["-f", "--fields"]),
    flag(&["-n"]),
    flag(&["--complement"]),
    flag(&["-s", "--only-delimited"]),
    value(&["--output-delimiter"]),
    flag(&["-z", "--zero-terminated"]),
    // cut's help lists the range `-M` (up to field M) where options go;
    // cut refuses it as an option, so reading it as a flag allows only a
    // command that fails.
    flag(&["-M"]),
];

/// `cut`: prints the chosen fields of the files it reads.
pub(crate) const CUT: Spec = filter("cut", ids!("cut"), &["cut"], &[CUT_OPTS, COMMON]);

const PASTE_OPTS: &[Opt] = &[
    value(&["-d", "--delimiters"]),
    flag(&["-s", "--serial"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `paste`: prints the lines of the files it reads side by side.
pub(crate) const PASTE: Spec = filter("paste", ids!("paste"), &["paste"], &[PASTE_OPTS, COMMON]);

const NL_OPTS: &[Opt] = &[
    value(&["-b", "--body-numbering"]),
    value(&["-d", "--section-delimiter"]),
    value(&["-f", "--footer-numbering"]),
    value(&["-h", "--header-numbering"]),
    value(&["-i", "--line-increment"]),
    value(&["-l", "--join-blank-lines"]),
    value(&["-n", "--number-format"]),
    flag(&["-p", "--no-renumber"]),
    value(&["-s", "--number-separator"]),
    value(&["-v", "--starting-line-number"]),
    value(&["-w", "--number-width"]),
];

/// `nl`: prints the files it reads with line numbers.
pub(crate) const NL: Spec = filter("nl", ids!("nl"), &["nl"], &[NL_OPTS, COMMON]);

const FOLD_OPTS: &[Opt] = &[
    flag(&["-b", "--bytes"]),
    flag(&["-s", "--spaces"]),
    value(&["-w", "--width"]),
];

/// `fold`: prints the files it reads wrapped at a width.
pub(crate) const FOLD: Spec = filter("fold", ids!("fold"), &["fold"], &[FOLD_OPTS, COMMON]);

const EXPAND_OPTS: &[Opt] = &[flag(&["-i", "--initial"]), value(&["-t", "--tabs"])];

/// `expand`: prints the files it reads with tabs turned into spaces.
pub(crate) const EXPAND: Spec = filter(
    "expand",
    ids!("expand"),
    &["expand"],
    &[EXPAND_OPTS, COMMON],
);

const UNEXPAND_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    flag(&["--first-only"]),
    value(&["-t", "--tabs"]),
];

/// `unexpand`: prints the files it reads with spaces turned into tabs.
pub(crate) const UNEXPAND: Spec = filter(
    "unexpand",
    ids!("unexpand"),
    &["unexpand"],
    &[UNEXPAND_OPTS, COMMON],
);

const COMM_OPTS: &[Opt] = &[
    flag(&["-1"]),
    flag(&["-2"]),
    flag(&["-3"]),
    flag(&["--check-order"]),
    flag(&["--nocheck-order"]),
    value(&["--output-delimiter"]),
    flag(&["--total"]),
    flag(&["-z", "--zero-terminated"]),
];

/// `comm`: prints the lines two sorted files share or do not.
pub(crate) const COMM: Spec = filter("comm", ids!("comm"), &["comm"], &[COMM_OPTS, COMMON]);

const CHECKSUM_OPTS: &[Opt] = &[
    flag(&["-b", "--binary"]),
    // `-c` reads the files a list names, but prints only each name and
    // whether its digest matched, never a byte of the file.
    flag(&["-c", "--check"]),
    flag(&["--tag"]),
    flag(&["-t", "--text"]),
    flag(&["-z", "--zero"]),
    flag(&["--ignore-missing"]),
    flag(&["--quiet"]),
    flag(&["--status"]),
    flag(&["--strict"]),
    flag(&["-w", "--warn"]),
];

/// `md5sum` and the `sha*sum` programs, which share its options: print
/// the digest of each file they read.
pub(crate) const CHECKSUM: Spec = filter(
    "md5sum",
    ids!("md5sum"),
    &[
        "md5sum",
        "sha1sum",
        "sha224sum",
        "sha256sum",
        "sha384sum",
        "sha512sum",
    ],
    &[CHECKSUM_OPTS, COMMON],
);

const BASE64_OPTS: &[Opt] = &[
    flag(&["-d", "--decode"]),
    flag(&["-i", "--ignore-garbage"]),
    value(&["-w", "--wrap"]),
];

/// `base64` and `base32`: print the files they read encoded or decoded.
pub(crate) const BASE64: Spec = filter(
    "base64",
    ids!("base64"),
    &["base64", "base32"],
    &[BASE64_OPTS, COMMON],
);
