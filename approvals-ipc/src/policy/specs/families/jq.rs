//! jq 1.6. Its own parser (`main.c`), not getopt: long options are matched
//! exactly (`--raw` is refused), short flags bundle (`-rn`), options and
//! operands interleave, `--` ends options. The clap grammar reads argv the
//! same way. `-f` is a flag in 1.6 (the program file is then the first
//! operand), and `-L DIR` (also `-LDIR`, never in a bundle) adds a module
//! search directory from which `import`/`include` load jq code. Checked by
//! `tests/spec_conformance.rs` against the installed jq, whose `--help`
//! lists only some options. (jq 1.7 adds options, `--library-path` among
//! them: unknown here, so asked.)
//!
//! `--arg`, `--argjson`, `--slurpfile`, `--rawfile` and `--argfile` take the
//! next two words (a name and a value or file), whatever they look like:
//! `--arg x -L` sets `$x` to `-L`.
//!
//! The program (the first operand, `Operands::JqProgram`) is read word by
//! word ([`reads_beyond_input`]): reading the environment and importing
//! modules or data files by path are asked; `-f` reads the program from a
//! file the prompt does not show and is asked as code.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, ReadsFile},
    Grammar, Opt, Spec, flag, ids, pair, value,
};

const JQ_OPTS: &[Opt] = &[
    flag(&["-c", "--compact-output"]),
    flag(&["-n", "--null-input"]),
    flag(&["-e", "--exit-status"]),
    flag(&["-s", "--slurp"]),
    flag(&["-r", "--raw-output"]),
    flag(&["-j", "--join-output"]),
    flag(&["-a", "--ascii-output"]),
    flag(&["-R", "--raw-input"]),
    flag(&["-C", "--color-output"]),
    flag(&["-M", "--monochrome-output"]),
    flag(&["-S", "--sort-keys"]),
    flag(&["--tab"]),
    value(&["--indent"]),
    flag(&["--seq"]),
    flag(&["--stream"]),
    flag(&["--unbuffered"]),
    flag(&["-f", "--from-file"]).does(LoadsCode(
        "reads the jq program from a file the prompt does not show, which can read the environment or import files",
    )),
    value(&["-L"]).does(LoadsCode(
        "adds a module directory from which `import` and `include` load jq code",
    )),
    pair(&["--arg"]),
    pair(&["--argjson"]),
    pair(&["--slurpfile"]).does(ReadsFile),
    pair(&["--rawfile"]).does(ReadsFile),
    pair(&["--argfile"]).does(ReadsFile),
    flag(&["--args"]),
    flag(&["--jsonargs"]),
    flag(&["--debug-dump-disasm"]),
    flag(&["--debug-trace"]),
    // Runs the jq test file named next; the words after it are its own, but
    // the spec reads them as options, so nothing after it is missed.
    flag(&["--run-tests"]).does(ReadsFile),
    flag(&["-h", "--help"]),
    flag(&["-V", "--version"]),
];

/// `jq`.
pub(crate) const JQ: Spec = Spec {
    family: "jq",
    names: &["jq", "gojq", "jaq"],
    ids: ids!("jq"),
    grammar: Grammar::Clap,
    opts: &[JQ_OPTS],
    subs: &[],
    checked_with: "jq 1.6",
    operands: Operands::JqProgram,
    env: &[],
};

/// Identifiers a jq program reaches beyond its input with, each with what
/// it does. Sorted.
const BEYOND_INPUT: &[(&str, &str)] = &[
    ("ENV", "reads the environment (`$ENV`), where secrets live"),
    ("env", "reads the environment (`env`), where secrets live"),
    (
        "import",
        "imports a module or a data file from disk, by any path, which no operand shows",
    ),
    (
        "include",
        "includes a module from disk, by any path, which no operand shows",
    ),
    ("modulemeta", "reads a module's metadata from disk"),
];

/// What `program` does beyond its input, or `None`. A word scan, as the
/// safe-bin gate does (a string can hold code: `"\(env)"`), except that
/// a name right after `.` is a field (`.env`, `.a.import`) and one right
/// after `$` a variable (`$env`; only `$ENV` is the environment), never
/// the builtin.
pub(crate) fn reads_beyond_input(program: &str) -> Option<&'static str> {
    let mut rest = program;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        let before = rest.get(..start).and_then(|b| b.chars().next_back());
        let word_and_after = rest.get(start..).unwrap_or_default();
        let len = word_and_after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(word_and_after.len());
        let word = word_and_after.get(..len).unwrap_or_default();
        // After `$` a name is a variable: only `$ENV` is the environment
        // (`$env` is the caller's own, `--arg env prod`).
        let counts = match before {
            Some('.') => false,
            Some('$') => word == "ENV",
            _ => true,
        };
        if counts && let Some((_, what)) = BEYOND_INPUT.iter().find(|(name, _)| *name == word) {
            return Some(what);
        }
        rest = word_and_after.get(len..).unwrap_or_default();
    }
    None
}
