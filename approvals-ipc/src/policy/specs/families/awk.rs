//! GNU awk, also under the name `awk`. Options from gawk 5.2's `--help`
//! (`scripts/spec-skeleton`), checked by `tests/spec_conformance.rs`. gawk's
//! getopt string starts with `+`: options end at the program text, no
//! permutation. Program files, includes, extensions and the debugger load
//! code the prompt does not show; the dump, profile and pretty-print files
//! are written. The program text itself is inspected by the older
//! `awk.program` guard. mawk has its own spec (`mawk.rs`); when `awk` is
//! mawk, this spec still reads its argv safely: mawk's options (`-f`, `-F`,
//! `-v`, `-W`) have the same arity here, and `-W` is asked. BWK awk
//! (`nawk`, `original-awk`) is left to the older `awk.*` guards.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::location;
use crate::policy::specs::types::{
    Effect::{LoadsCode, WritesFile},
    Grammar, Opt, Spec, flag, ids, optional, value,
};

const AWK_OPTS: &[Opt] = &[
    value(&["-f", "--file"]).does(LoadsCode(
        "runs awk code from a file the prompt does not show",
    )),
    value(&["-F", "--field-separator"]),
    value(&["-v", "--assign"]),
    flag(&["-b", "--characters-as-bytes"]),
    flag(&["-c", "--traditional"]),
    flag(&["-C", "--copyright"]),
    optional(&["-d", "--dump-variables"]).does(WritesFile("writes a dump of awk's variables")),
    optional(&["-D", "--debug"]).does(LoadsCode(
        "runs gawk's debugger, whose commands evaluate awk code",
    )),
    value(&["-e", "--source"]),
    value(&["-E", "--exec"]).does(LoadsCode(
        "runs awk code from a file the prompt does not show",
    )),
    flag(&["-g", "--gen-pot"]),
    flag(&["-h", "--help"]),
    value(&["-i", "--include"]).does(LoadsCode("includes an awk source file")),
    flag(&["-I", "--trace"]),
    value(&["-l", "--load"]).does(LoadsCode("loads a shared library into awk")),
    optional(&["-L", "--lint"]),
    flag(&["-M", "--bignum"]),
    flag(&["-N", "--use-lc-numeric"]),
    flag(&["-n", "--non-decimal-data"]),
    optional(&["-o", "--pretty-print"]).does(WritesFile("writes the pretty-printed program")),
    flag(&["-O", "--optimize"]),
    optional(&["-p", "--profile"]).does(WritesFile("writes an execution profile")),
    flag(&["-P", "--posix"]),
    flag(&["-r", "--re-interval"]),
    flag(&["-s", "--no-optimize"]),
    flag(&["-S", "--sandbox"]),
    flag(&["-t", "--lint-old"]),
    flag(&["-V", "--version"]),
    // `-W name` is `--name` to gawk and an implementation option to other
    // awks (mawk's `-W exec FILE` runs a program file).
    value(&["-W"]).does(LoadsCode(
        "passes an implementation option such as mawk's `-W exec`",
    )),
    // Not in `--help`: gawk 5.2 takes it to say GAWK_PERSIST_FILE replaced
    // it. (Its hidden `--nostalgia` is left unknown, and so asked: gawk
    // names no option when refusing a value given to it, so no probe could
    // check it.)
    optional(&["--persist"]),
];

/// `awk` when it is gawk.
pub(crate) const AWK: Spec = Spec {
    family: "awk",
    // gawk first: the conformance test reads the first name's `--help`,
    // and `awk` may be mawk.
    names: &["gawk", "awk"],
    ids: ids!("awk"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[AWK_OPTS],
    subs: &[],
    checked_with: "GNU awk 5.2.1",
    operands: Operands::Plain,
    env: &[
        location("AWKLIBPATH", "gawk loads extensions from these directories"),
        location(
            "AWKPATH",
            "gawk finds -f and @include files in these directories",
        ),
    ],
};
