//! perldoc. Switches from Pod::Perldoc 3.2801's `perldoc -h` and the
//! `opt_*` methods its parser calls, checked by
//! `tests/frontend_spec_conformance.rs`. perldoc's own parser
//! (`Pod::Perldoc::GetOptsOO`, read as getopt_long without permutation,
//! [`Grammar::Getopt`]): single letters, bundled; a letter with an
//! `opt_X_with` method takes the rest of its word or else the next word,
//! whatever it starts with; the switches end at the first word that does
//! not start with `-` and at `--`. It also takes `--X` and `--X=v` for any
//! letter or method name; the spec knows no long spelling, so those are
//! asked.
//!
//! Showing documentation is perldoc's job, from modules, programs, files
//! (`-F`) or an http(s) URL. A formatter class loaded by name (`-M`,
//! `-o`), a formatter option (`-w`: a method called with the caller's
//! value), the formatter program run instead of groff (`-n`), a
//! translation language (`-L`, pasted into a string perldoc evaluates as
//! perl code after upper-casing it: `` -L 'X;BEGIN{`\151\144`}' `` runs
//! `id`, checked by the conformance test) and an output file
//! outside the working tree (`-d`) are asked; a switch the spec does not
//! know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, RunsProgram, SetsConfig, WritesFile},
    Grammar, Opt, Spec, flag, ids, loads, value,
};

const PERLDOC_OPTS: &[Opt] = &[
    // Searches: the value is a function, variable, API name or question
    // pattern (`-q` matches it as a regular expression, which perl does
    // not let run code from a runtime string).
    value(&["-a"]),
    value(&["-d"]).does(WritesFile("writes the formatted page to this file")),
    flag(&["-D"]),
    value(&["-f"]),
    flag(&["-F"]),
    flag(&["-h"]),
    flag(&["-i"]),
    flag(&["-l"]),
    value(&["-L"]).does(LoadsCode(
        "pastes the value into perl code it evaluates (`require POD2::LANG`), which can run anything",
    )),
    flag(&["-m"]),
    value(&["-M"]).does(LoadsCode(
        "loads the formatter classes the value names: code the prompt does not show",
    )),
    value(&["-n"]).does(RunsProgram(
        "runs a formatter program of the caller's choosing instead of groff",
    )),
    value(&["-o"]).does(LoadsCode(
        "loads a formatter class chosen by the value (Pod::Perldoc::To…, Pod::Simple::…, Pod::…)",
    )),
    value(&["-q"]),
    flag(&["-r"]),
    flag(&["-t"]),
    flag(&["-T"]),
    flag(&["-u"]),
    flag(&["-U"]),
    value(&["-v"]),
    flag(&["-V"]),
    value(&["-w"]).does(SetsConfig(
        "sets a formatter option: a method of the formatter called with the caller's value",
    )),
    flag(&["-X"]),
];

/// `perldoc`.
pub(crate) const PERLDOC: Spec = Spec {
    family: "perldoc",
    names: &["perldoc"],
    ids: ids!("perldoc"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[PERLDOC_OPTS],
    subs: &[],
    checked_with: "Pod::Perldoc 3.2801 (perl-doc 5.36.0)",
    operands: Operands::Plain,
    env: &[
        loads(
            "PERLDOC",
            "perldoc takes switches from here, including -M and -n",
        ),
        loads("PERLDOC_PAGER", "perldoc runs this program as the pager"),
        loads(
            "PERLDOC_POD2",
            "perldoc pastes this language into perl code it evaluates, as -L",
        ),
        loads(
            "PERLDOC_SRC_PAGER",
            "perldoc runs this program as the pager for source",
        ),
        loads("PERL5LIB", "perl loads modules from here"),
        loads("PERL5OPT", "perl takes switches from here, including -M"),
    ],
};
