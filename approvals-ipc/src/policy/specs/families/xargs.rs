//! GNU xargs (findutils 4.9): `getopt_long` with a `+` option string, so
//! options stop at the first operand, the command it runs; the rest are
//! that command's initial arguments. Rows from `xargs --help`, checked by
//! `tests/spec_conformance.rs`.
//!
//! xargs appends words read from its input to the command, which the
//! policy cannot see (a word like `--pre=sh` becomes an option of the
//! target): it stays a semantic wrapper, never auto-allowed, whatever its
//! options (the programs table and the `xargs.always` guard). The spec
//! reads its options so the command it would run can be named, and names
//! an option it does not know.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, ReadsFile},
    Grammar, Opt, Spec, flag, ids, optional, value,
};

const XARGS_OPTS: &[Opt] = &[
    flag(&["-0", "--null"]),
    value(&["-a", "--arg-file"]).does(ReadsFile),
    value(&["-d", "--delimiter"]),
    value(&["-E"]),
    optional(&["-e", "--eof"]),
    value(&["-I"]),
    optional(&["-i", "--replace"]),
    value(&["-L"]),
    // `--max-lines` is `-l`, whose value is optional (`--max-lines 1`
    // runs the command `1`), although the help shows `=MAX-LINES`.
    optional(&["-l", "--max-lines"]),
    value(&["-n", "--max-args"]),
    flag(&["-o", "--open-tty"]),
    value(&["-P", "--max-procs"]),
    flag(&["-p", "--interactive"]),
    value(&["--process-slot-var"]).does(LoadsCode(
        "sets an environment variable it names in every command it runs",
    )),
    flag(&["-r", "--no-run-if-empty"]),
    value(&["-s", "--max-chars"]),
    flag(&["--show-limits"]),
    flag(&["-t", "--verbose"]),
    flag(&["-x", "--exit"]),
    flag(&["--help"]),
    flag(&["--version"]),
];

/// GNU xargs.
pub(crate) const XARGS: Spec = Spec {
    family: "xargs",
    names: &["xargs", "gxargs"],
    ids: ids!("xargs"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[XARGS_OPTS],
    subs: &[],
    checked_with: "findutils 4.9.0 (Debian bookworm)",
    operands: Operands::Plain,
    env: &[],
};
