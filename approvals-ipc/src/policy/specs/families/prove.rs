//! prove, the TAP harness's front end. Options from Test::Harness 3.44's
//! `prove --help` (App::Prove's `process_args`), checked by
//! `tests/frontend_spec_conformance.rs`. prove first takes `--rc FILE`,
//! `--rc=FILE` and `--norc` out of every word, wherever it stands (after
//! `--` and `::` too), reads `~/.proverc` and `./.proverc` unless told
//! `--norc`, and hands the words after `::` to the tests; what is left goes
//! through Getopt::Long with `bundling` and `pass_through`
//! ([`Grammar::GetoptLong`]): long options by unambiguous prefix (an
//! ambiguous or unknown one is passed through as a test name, which the
//! spec asks about instead), `--opt=v` or `--opt v`, short bundles,
//! permutation, and `+NAME` for any option (`+exec CMD`, `+e CMD`);
//! `-j`'s value is digits (`-j4e CMD` is `-j4 -e CMD`).
//!
//! Running the tests the caller names, and the working tree's own
//! `.proverc`, is prove's job, as running a script is perl's. A command
//! line that runs every test (`--exec`), modules, plugins, a harness, a
//! formatter or a source handler loaded by name, an rc file of options, a
//! library directory outside the working tree, and an archive or state
//! file written outside it are asked; an option the spec does not know is
//! asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, OtherTree, RunsProgram, WritesFile},
    Grammar, Opt, Spec, flag, ids, loads, value,
};

const CLASS: &str = "loads a Perl class named on the command line: code the prompt does not show";

const PROVE_OPTS: &[Opt] = &[
    flag(&["-v", "--verbose"]),
    flag(&["-f", "--failures"]),
    flag(&["-o", "--comments"]),
    // `lib` and `blib/lib` of the working directory: the project's own.
    flag(&["-l", "--lib"]),
    flag(&["-b", "--blib"]),
    flag(&["-s", "--shuffle"]),
    flag(&["-c", "--color", "--colour"]),
    flag(&["--nocolor", "--no-color", "--nocolour", "--no-colour"]),
    flag(&["--count"]),
    flag(&["--nocount", "--no-count"]),
    flag(&["-D", "--dry"]),
    value(&["--ext"]),
    value(&["--harness"]).does(LoadsCode(CLASS)),
    flag(&["--ignore-exit"]),
    value(&["--source"]).does(LoadsCode(
        "loads a TAP source handler class named on the command line: code the prompt does not show",
    )),
    value(&["--formatter"]).does(LoadsCode(CLASS)),
    flag(&["-r", "--recurse"]),
    flag(&["--reverse"]),
    flag(&["-p", "--parse"]),
    flag(&["-q", "--quiet"]),
    flag(&["-Q", "--QUIET"]),
    value(&["-e", "--exec"]).does(RunsProgram(
        "runs every test through a command line of the caller's choosing",
    )),
    flag(&["-m", "--merge"]),
    value(&["-I"]).does(OtherTree(
        "searches another directory first for the modules the tests load",
    )),
    value(&["-M"]).does(LoadsCode(
        "loads a module into every test (`-MMODULE`): code the prompt does not show",
    )),
    value(&["-P"]).does(LoadsCode(
        "loads an App::Prove plugin named on the command line: code the prompt does not show",
    )),
    // `save`, `failed`, `slow`…: which tests to run and whether to write
    // `.prove` in the working directory.
    value(&["--state"]),
    value(&["--statefile"]).does(WritesFile("keeps prove's state in this file")),
    flag(&["--directives"]),
    flag(&["-h", "--help", "-?"]),
    flag(&["-H", "--man"]),
    flag(&["-V", "--version"]),
    value(&["-a", "--archive"]).does(WritesFile("writes the TAP of every test to this archive")),
    value(&["-j", "--jobs"]),
    flag(&["--timer"]),
    flag(&["-T"]),
    flag(&["-t"]),
    flag(&["-W"]),
    flag(&["-w"]),
    flag(&["--normalize"]),
    value(&["--rules"]),
    value(&["--tapversion"]),
    flag(&["--trap"]),
    // Taken out of argv before Getopt::Long runs ([`EARLY`]).
    value(&["--rc"]).does(LoadsCode(
        "reads more options from a file (an rc file can name `--exec`, plugins, modules)",
    )),
    flag(&["--norc"]),
];

/// The spellings prove takes out of argv before Getopt::Long reads it.
const EARLY: &[&str] = &["--rc", "--norc"];

/// `prove`.
pub(crate) const PROVE: Spec = Spec {
    family: "prove",
    names: &["prove"],
    ids: ids!("prove"),
    grammar: Grammar::GetoptLong {
        early: EARLY,
        rest: "::",
        integers: &["-j", "--jobs"],
    },
    opts: &[PROVE_OPTS],
    subs: &[],
    checked_with: "Test::Harness 3.44 (perl 5.36.0)",
    operands: Operands::Plain,
    env: &[
        loads(
            "HARNESS_OPTIONS",
            "prove takes options from here, including formatter classes and an archive to write",
        ),
        loads("HARNESS_PERL", "the tests are run by this program"),
        loads(
            "HARNESS_PERL_SWITCHES",
            "the tests' perl takes switches from here, including -M",
        ),
        loads("HARNESS_SUBCLASS", "prove loads this harness class"),
        loads(
            "PERL_TEST_HARNESS_DUMP_TAP",
            "prove writes the TAP of every test under this directory",
        ),
        loads("PERL5LIB", "perl loads modules from here"),
        loads("PERL5OPT", "perl takes switches from here, including -M"),
    ],
};
