//! erb, Ruby's template runner. Switches from erb 2.2.3's `erb --help`
//! (`libexec/erb`, `ERB::Main`), checked by
//! `tests/frontend_spec_conformance.rs`. erb's own parser, read as clap's
//! ([`Grammar::Clap`]: exact long names, `--opt=v` or `--opt v`, short
//! bundles), which is stricter where the two differ: erb stops reading
//! switches at the first word that is neither a switch nor `NAME=value`
//! (a template variable) where the spec reads on, refuses a value given to
//! a long switch that takes none only by ignoring it, and after a letter
//! that takes a value stuck to it reads that value again as switches
//! (`-rjson` requires `json`, then fails on `-j`); each of those a
//! spec reading differs on is a use it asks about or one erb refuses.
//!
//! Running the templates the caller names is erb's job, as running a
//! script is ruby's. Requiring a library first (`-r`) is asked; a switch
//! the spec does not know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{Effect::LoadsCode, Grammar, Opt, Spec, flag, ids, loads, value};

const ERB_OPTS: &[Opt] = &[
    flag(&["-x"]),
    flag(&["-n"]),
    flag(&["-v"]),
    flag(&["-d", "--debug"]),
    value(&["-r"]).does(LoadsCode(
        "requires a library before the template: code the prompt does not show",
    )),
    // Deprecated safe level, `0` or `1`.
    value(&["-S"]),
    value(&["-E", "--encoding"]),
    flag(&["-U"]),
    // `0`, `1`, `2` or `-`.
    value(&["-T"]),
    flag(&["-P"]),
    flag(&["--version"]),
    flag(&["--help"]),
];

/// `erb`, `erb3.1` (by family).
pub(crate) const ERB: Spec = Spec {
    family: "erb",
    names: &["erb"],
    ids: ids!("erb"),
    grammar: Grammar::Clap,
    opts: &[ERB_OPTS],
    subs: &[],
    checked_with: "erb 2.2.3 (ruby 3.1.2)",
    operands: Operands::Plain,
    env: &[
        loads(
            "RUBYGEMS_GEMDEPS",
            "RubyGems loads this Gemfile (Ruby code) before the program starts",
        ),
        loads("RUBYLIB", "ruby loads libraries from here"),
        loads("RUBYOPT", "ruby takes options from here, including -r"),
    ],
};
