//! GNU sed. Options from sed 4.9's `--help` (`scripts/spec-skeleton`),
//! checked by `tests/spec_conformance.rs`. Editing its operand files in
//! place (`-i`) inside the tree is sed's job; the older `sed.in-place`
//! guard judges each edited file as a write; the script's own `e`, `r` and `w` commands are inspected by the
//! older `sed.script` guard. The options themselves only read.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::loads;
use crate::policy::specs::types::{
    Effect::{Mode, ReadsFile},
    Grammar,
    Mode::EditsInPlace,
    Opt, Spec, flag, ids, optional, value,
};

const SED_OPTS: &[Opt] = &[
    flag(&["-n", "--quiet", "--silent"]),
    flag(&["--debug"]),
    value(&["-e", "--expression"]),
    value(&["-f", "--file"]).does(ReadsFile),
    flag(&["--follow-symlinks"]),
    optional(&["-i", "--in-place"]).does(Mode(EditsInPlace)),
    value(&["-l", "--line-length"]),
    flag(&["--posix"]),
    flag(&["-E", "-r", "--regexp-extended"]),
    flag(&["-s", "--separate"]),
    flag(&["--sandbox"]),
    flag(&["-u", "--unbuffered"]),
    flag(&["-z", "--null-data"]),
    // Not in `--help` on GNU/Linux but accepted everywhere (a no-op there).
    flag(&["-b", "--binary"]),
    flag(&["--help"]),
    flag(&["--version"]),
];

/// `sed`.
pub(crate) const SED: Spec = Spec {
    family: "sed",
    names: &["sed", "gsed"],
    ids: ids!("sed"),
    grammar: Grammar::Getopt { permute: true },
    opts: &[SED_OPTS],
    subs: &[],
    checked_with: "GNU sed 4.9",
    operands: Operands::Plain,
    env: &[loads(
        "POSIXLY_CORRECT",
        "changes how options are read, and what some commands do",
    )],
};
