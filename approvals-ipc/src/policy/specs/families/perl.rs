//! perl. Switches from perl 5.36's `perl -h` and perlrun, checked by
//! `tests/interp_spec_conformance.rs`. perl's switch parser
//! ([`Interp::Perl`]): switches bundle (`-lane`); `-e`/`-E`/`-I` take the
//! rest of the word or the next word; `-M`/`-m` take the rest of the word
//! only; `-0`/`-l` take the octal (`-0x…`: hex) digits stuck to them and
//! the letters after those are switches again (`-l0e`); `-C`, `-d`, `-D`,
//! `-F`, `-i`, `-x` and `-V` take whatever is stuck to them; `--help` and
//! `--version` are exact; `--` ends the switches; the first operand is the
//! program file and every word after it is the program's.
//!
//! Running the program file is perl's job; the older guards still ask
//! about `-e`, code on stdin and `/dev/stdin`, and read a `-M` value as
//! code. Inline code, loading a module before the program (`-M`, `-m`,
//! `-d:Mod`), a `-F` pattern (pasted into perl code as written), an `@INC`
//! directory or a working directory outside the working tree (a module the
//! program loads could come from it), editing files in place and a program
//! looked up on `PATH` are asked; a switch the spec does not know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    ByValue,
    Effect::{LoadsCode, OtherTree, RunsProgram, WritesFile},
    Grammar, Interp, Opt, Spec, flag, ids, loads, optional, value,
};

const INLINE: &str = "runs perl code given on the command line";
const MODULE: &str =
    "loads a module before the program (`use MODULE`): code the prompt does not show";

const PERL_OPTS: &[Opt] = &[
    optional(&["-0"]),
    flag(&["-a"]),
    optional(&["-C"]),
    flag(&["-c"]),
    optional(&["-d"]).does(LoadsCode(
        "runs the program under the debugger or a Devel:: module of the caller's choosing",
    )),
    optional(&["-D"]),
    value(&["-e"]).does(LoadsCode(INLINE)),
    value(&["-E"]).does(LoadsCode(INLINE)),
    flag(&["-f"]),
    // Not in 5.36's `-h`: perlrun's `-g`, the same as `-0777`.
    flag(&["-g"]),
    optional(&["-F"]).does(LoadsCode(
        "its split pattern is pasted into the perl code run for each line",
    )),
    flag(&["-h", "--help"]),
    // `-i` alone edits in place; a value names the backup ([`BY_VALUE`]).
    optional(&["-i"]).does(WritesFile("edits the files it reads in place")),
    value(&["-I"]).does(OtherTree(
        "searches another directory first for the modules the program loads",
    )),
    optional(&["-l"]),
    value(&["-m"]).does(LoadsCode(MODULE)),
    value(&["-M"]).does(LoadsCode(MODULE)),
    flag(&["-n"]),
    flag(&["-p"]),
    flag(&["-s"]),
    flag(&["-S"]).does(RunsProgram(
        "runs a program file looked up on PATH, which the allowlist did not judge",
    )),
    flag(&["-t"]),
    flag(&["-T"]),
    flag(&["-u"]),
    flag(&["-U"]),
    flag(&["-v", "--version"]),
    optional(&["-V"]),
    flag(&["-w"]),
    flag(&["-W"]),
    // `-xDIR` changes to DIR before running ([`BY_VALUE`]).
    optional(&["-x"]),
    flag(&["-X"]),
];

/// Any value at all.
fn any(_: &str) -> bool {
    true
}

/// Options judged by their value ([`ByValue`]).
pub(crate) const BY_VALUE: &[ByValue] = &[
    ByValue {
        // A backup name does not make in-place editing any less a write of
        // the files it reads; one with a `/` writes elsewhere as well.
        names: &["-i"],
        when: any,
        opt: flag(&["-i"]).does(WritesFile(
            "edits the files it reads in place, with backups named by the value",
        )),
    },
    ByValue {
        names: &["-x"],
        when: any,
        opt: optional(&["-x"]).does(OtherTree(
            "changes to another directory before running the program",
        )),
    },
];

/// `perl`, `perl5.36` (by family).
pub(crate) const PERL: Spec = Spec {
    family: "perl",
    names: &["perl"],
    ids: ids!("perl"),
    grammar: Grammar::Interpreter(Interp::Perl),
    opts: &[PERL_OPTS],
    subs: &[],
    checked_with: "perl 5.36.0",
    operands: Operands::Plain,
    env: &[
        loads("PERL5LIB", "perl loads modules from here"),
        loads("PERL5OPT", "perl takes switches from here, including -M"),
        loads("PERLLIB", "perl loads modules from here"),
    ],
};
