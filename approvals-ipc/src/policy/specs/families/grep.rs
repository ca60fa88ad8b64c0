//! GNU grep. Options from grep 3.8's `--help` (`scripts/spec-skeleton`), checked by
//! `tests/spec_conformance.rs`. Reading pattern and exclude files is what grep
//! does; nothing in grep runs or writes anything.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::loads;
use crate::policy::specs::types::{
    Effect::ReadsFile, Grammar, Opt, Spec, flag, ids, optional, value,
};

const GREP_OPTS: &[Opt] = &[
    flag(&["-E", "--extended-regexp"]),
    // `--fixed-regexp` is an old spelling grep 3.8 still takes, unlisted.
    flag(&["-F", "--fixed-strings", "--fixed-regexp"]),
    flag(&["-G", "--basic-regexp"]),
    flag(&["-P", "--perl-regexp"]),
    value(&["-e", "--regexp"]),
    value(&["-f", "--file"]).does(ReadsFile),
    flag(&["-i", "--ignore-case"]),
    flag(&["--no-ignore-case"]),
    flag(&["-w", "--word-regexp"]),
    flag(&["-x", "--line-regexp"]),
    flag(&["-z", "--null-data"]),
    flag(&["-s", "--no-messages"]),
    flag(&["-v", "--invert-match"]),
    flag(&["-V", "--version"]),
    flag(&["--help"]),
    value(&["-m", "--max-count"]),
    flag(&["-b", "--byte-offset"]),
    flag(&["-n", "--line-number"]),
    flag(&["--line-buffered"]),
    flag(&["-H", "--with-filename"]),
    flag(&["-h", "--no-filename"]),
    value(&["--label"]),
    flag(&["-o", "--only-matching"]),
    flag(&["-q", "--quiet", "--silent"]),
    value(&["--binary-files"]),
    flag(&["-a", "--text"]),
    flag(&["-I"]),
    value(&["-d", "--directories"]),
    value(&["-D", "--devices"]),
    flag(&["-r", "--recursive"]),
    flag(&["-R", "--dereference-recursive"]),
    value(&["--include"]),
    value(&["--exclude"]),
    value(&["--exclude-from"]).does(ReadsFile),
    value(&["--exclude-dir"]),
    flag(&["-L", "--files-without-match"]),
    flag(&["-l", "--files-with-matches"]),
    flag(&["-c", "--count"]),
    flag(&["-T", "--initial-tab"]),
    flag(&["-Z", "--null"]),
    value(&["-B", "--before-context"]),
    value(&["-A", "--after-context"]),
    value(&["-C", "--context"]),
    flag(&["-#"]),
    value(&["--group-separator"]),
    flag(&["--no-group-separator"]),
    optional(&["--color", "--colour"]),
    flag(&["-U", "--binary"]),
];

/// `grep`.
pub(crate) const GREP: Spec = Spec {
    family: "grep",
    // grep first: the conformance test reads the first name's `--help`.
    names: &["grep", "egrep", "fgrep", "ggrep", "rgrep"],
    ids: ids!("grep"),
    grammar: Grammar::Getopt { permute: true },
    opts: &[GREP_OPTS],
    subs: &[],
    checked_with: "GNU grep 3.8",
    operands: Operands::Plain,
    env: &[loads(
        "GREP_OPTIONS",
        "older greps add these options to every run",
    )],
};
