//! ruby. Options from ruby 3.1's `ruby --help` and `ruby -h`, checked by
//! `tests/interp_spec_conformance.rs`. ruby's option parser
//! ([`Interp::Ruby`]): switches bundle (`-wrjson`); `-e`, `-r`, `-I`, `-C`
//! and `-E` take the rest of the word or the next word; `-0` takes the
//! octal digits stuck to it, `-W` one level digit or `:category`, `-K` one
//! letter, and the letters after those are switches again; `-i`, `-x` and
//! `-F` take whatever is stuck to them; long options are matched exactly,
//! with `=v` or the next word when they take a value, plus
//! `--enable-FEATURE` and `--disable-FEATURE`; `--` ends the options; the
//! first operand is the script and every word after it is the script's.
//!
//! Running the script is ruby's job; the older guards still ask about
//! `-e`, code on stdin and `/dev/stdin`. Inline code, requiring a library
//! before the script (`-r`), a load-path directory or a working directory
//! outside the working tree (`-C` and `-xDIR` change directory before the
//! script is found, so `-C /tmp/x a.rb` runs `/tmp/x/a.rb`), editing files
//! in place, a script looked up on `PATH`, and compiler flags for MJIT are
//! asked; an option the spec does not know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    ByValue,
    Effect::{LoadsCode, OtherTree, RunsProgram, WritesFile},
    Grammar, Interp, Opt, Spec, flag, ids, loads, optional, value,
};

const RUBY_OPTS: &[Opt] = &[
    optional(&["-0"]),
    flag(&["-a"]),
    flag(&["-c"]),
    // `-X` is an unlisted old spelling of `-C` ruby 3.1 still takes.
    value(&["-C", "-X"]).does(OtherTree(
        "changes to another directory before finding and running the script",
    )),
    flag(&["-d", "--debug"]),
    value(&["-e"]).does(LoadsCode("runs ruby code given on the command line")),
    value(&["-E", "--encoding"]),
    // A regular expression for `-a`'s split; ruby does not run it as code.
    optional(&["-F"]),
    flag(&["-h", "--help"]),
    // `-i` alone edits in place; a value names the backup ([`BY_VALUE`]).
    optional(&["-i"]).does(WritesFile("edits the files it reads in place")),
    value(&["-I"]).does(OtherTree(
        "searches another directory first for the libraries the script loads",
    )),
    // Not in the help: the source encoding letter (`-Ku`).
    optional(&["-K"]),
    flag(&["-l"]),
    flag(&["-n"]),
    flag(&["-p"]),
    value(&["-r"]).does(LoadsCode(
        "requires a library before the script: code the prompt does not show",
    )),
    flag(&["-s"]),
    flag(&["-S"]).does(RunsProgram(
        "runs a script looked up on PATH, which the allowlist did not judge",
    )),
    // Not in the help (ruby 3.1 still takes it): prints the source encoding table.
    flag(&["-U"]),
    flag(&["-v"]),
    flag(&["-w"]),
    optional(&["-W"]),
    // `-xDIR` changes to DIR before the script is found ([`BY_VALUE`]).
    optional(&["-x"]),
    // Not in the help: the parser's debug trace.
    flag(&["-y", "--yydebug"]),
    flag(&["--jit"]),
    flag(&["--mjit"]),
    flag(&["--yjit"]),
    flag(&["--copyright"]),
    value(&["--dump"]),
    // Features: gems, error_highlight, did_you_mean, rubyopt,
    // frozen-string-literal, mjit, yjit (RUBYOPT itself is stripped from
    // what children inherit); also `--enable-FEATURE`.
    value(&["--enable"]),
    value(&["--disable"]),
    value(&["--external-encoding"]),
    value(&["--internal-encoding"]),
    value(&["--backtrace-limit"]),
    flag(&["--verbose"]),
    flag(&["--version"]),
    flag(&["--mjit-warnings"]),
    // `=FLAGS` adds C compiler flags ([`BY_VALUE`]).
    optional(&["--mjit-debug"]),
    flag(&["--mjit-wait"]),
    flag(&["--mjit-save-temps"]),
    optional(&["--mjit-verbose"]),
    optional(&["--mjit-max-cache"]),
    optional(&["--mjit-min-calls"]),
    optional(&["--yjit-exec-mem-size"]),
    optional(&["--yjit-call-threshold"]),
    optional(&["--yjit-max-versions"]),
    flag(&["--yjit-greedy-versioning"]),
];

/// Any value at all.
fn any(_: &str) -> bool {
    true
}

/// Options judged by their value ([`ByValue`]).
pub(crate) const BY_VALUE: &[ByValue] = &[
    ByValue {
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
            "changes to another directory before finding and running the script",
        )),
    },
    ByValue {
        names: &["--mjit-debug"],
        when: any,
        opt: optional(&["--mjit-debug"]).does(RunsProgram(
            "passes flags of the caller's choosing to the C compiler MJIT runs",
        )),
    },
];

/// `ruby`, `ruby3.1` (by family).
pub(crate) const RUBY: Spec = Spec {
    family: "ruby",
    names: &["ruby"],
    ids: ids!("ruby"),
    grammar: Grammar::Interpreter(Interp::Ruby),
    opts: &[RUBY_OPTS],
    subs: &[],
    checked_with: "ruby 3.1.2",
    operands: Operands::Plain,
    env: &[
        loads("RUBYLIB", "ruby loads libraries from here"),
        loads("RUBYOPT", "ruby takes options from here, including -r"),
    ],
};
