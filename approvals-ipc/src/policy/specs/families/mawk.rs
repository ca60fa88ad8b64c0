//! mawk 1.3.4. Its own parser, close to getopt without bundles: every
//! option takes a value, attached (`-F:`, `-vx=1`, `-Wv`) or the next word;
//! options end at the first operand (the program text) or `--`; long options
//! are refused (`not an option: --version`). Options from `mawk -W usage`,
//! checked by `tests/spec_conformance.rs`.
//!
//! Its family is `mawk`, apart from the `awk` spec (gawk's options), so
//! its ids are `mawk.*`; the older `awk.*` guards judge mawk too (the
//! program text, `-W`). `-W` takes implementation options, abbreviated,
//! among them `exec FILE`, which runs a program file and ends the options:
//! every `-W` is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{Effect::LoadsCode, Grammar, Opt, Spec, ids, value};

const MAWK_OPTS: &[Opt] = &[
    value(&["-f"]).does(LoadsCode(
        "runs awk code from a file the prompt does not show",
    )),
    value(&["-F"]),
    value(&["-v"]),
    value(&["-W"]).does(LoadsCode(
        "passes an implementation option, such as `-W exec FILE`, which runs a program file",
    )),
];

/// `mawk`.
pub(crate) const MAWK: Spec = Spec {
    family: "mawk",
    names: &["mawk"],
    ids: ids!("mawk"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[MAWK_OPTS],
    subs: &[],
    checked_with: "mawk 1.3.4 20200120",
    operands: Operands::Plain,
    env: &[],
};
