//! CPython. Options from Python 3.11's `python3 --help` (and `--help-all`),
//! checked by `tests/interp_spec_conformance.rs`. CPython's own getopt
//! ([`Interp::Python`]): short options bundle (`-Bu`), `-W`/`-X` take the
//! rest of the word or the next word, `-c CODE` and `-m MODULE` end the
//! options (the words after them are the code's or module's argv), the
//! long options are matched exactly with their value in the next word
//! (`--check-hash-based-pycs=always` is refused), and the first operand is
//! the script, whose words are never read as python's options.
//!
//! Running the script is python's job; which modules `-m` may run is the
//! positive table of `specs/python_modules.rs` (`-m pytest` allowed, `-m
//! timeit` asked, an unknown module asked). The older guards still ask
//! about `-c`, code on stdin, `/dev/stdin` and URL scripts. Inline code,
//! the interactive prompt after the script (code
//! read from stdin), a warning category that imports a module and a
//! bytecode cache kept elsewhere are asked; an option the spec does not
//! know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    ByValue, Effect::LoadsCode, Grammar, Interp, Opt, Spec, flag, ids, loads, location, value,
};

const INLINE: &str = "runs python code given on the command line";

const PYTHON_OPTS: &[Opt] = &[
    flag(&["-b"]),
    flag(&["-B"]),
    value(&["-c"]).does(LoadsCode(INLINE)),
    flag(&["-d"]),
    flag(&["-E"]),
    flag(&["-h", "-?", "--help"]),
    flag(&["-i"]).does(LoadsCode(
        "enters the interactive prompt after the script, running code read from stdin",
    )),
    flag(&["-I"]),
    // The module is judged by the table of `specs/python_modules.rs`.
    value(&["-m"]),
    flag(&["-O"]),
    flag(&["-P"]),
    flag(&["-q"]),
    // Not in the help: no-ops CPython 3.11 still takes (hash randomization
    // is always on; `-t` was Python 2's tab warning).
    flag(&["-R"]),
    flag(&["-t"]),
    flag(&["-s"]),
    flag(&["-S"]),
    flag(&["-u"]),
    flag(&["-v"]),
    flag(&["-V", "--version"]),
    // `action:message:category:module:lineno`; a category with a dot is
    // imported ([`BY_VALUE`]).
    value(&["-W"]),
    flag(&["-x"]),
    // Any `-X name[=value]` is accepted (unknown names land in
    // `sys._xoptions`); `pycache_prefix` is judged by [`BY_VALUE`].
    value(&["-X"]),
    value(&["--check-hash-based-pycs"]),
    flag(&["--help-env"]),
    flag(&["--help-xoptions"]),
    flag(&["--help-all"]),
];

/// Whether a `-W` filter's category (its third field) names a module,
/// which the warnings machinery imports to find the class.
fn imports_category(filter: &str) -> bool {
    filter.split(':').nth(2).is_some_and(|c| c.contains('.'))
}

/// Whether a `-X` option moves the bytecode cache.
fn moves_pycache(option: &str) -> bool {
    option.trim_start().starts_with("pycache_prefix")
}

/// Options judged by their value ([`ByValue`]).
pub(crate) const BY_VALUE: &[ByValue] = &[
    ByValue {
        names: &["-W"],
        when: imports_category,
        opt: value(&["-W"]).does(LoadsCode(
            "a warning category with a module path imports that module before the script",
        )),
    },
    ByValue {
        names: &["-X"],
        when: moves_pycache,
        opt: value(&["-X"]).does(LoadsCode(
            "keeps compiled bytecode in a directory of the caller's choosing and loads it from there",
        )),
    },
];

/// `python`, `python3`, `python3.11` (by family).
pub(crate) const PYTHON: Spec = Spec {
    family: "python",
    // python3 first: the conformance test reads the first name's `--help`.
    names: &["python3", "python"],
    ids: ids!("python"),
    grammar: Grammar::Interpreter(Interp::Python),
    opts: &[PYTHON_OPTS],
    subs: &[],
    checked_with: "CPython 3.11.7",
    operands: Operands::Plain,
    env: &[
        loads(
            "PYTHONBREAKPOINT",
            "breakpoint() imports and calls the callable named here, such as os.system",
        ),
        loads(
            "PYTHONINSPECT",
            "python reads more code from stdin at an interactive prompt after the script",
        ),
        loads("PYTHONPATH", "python imports modules from here"),
        location(
            "PYTHONPYCACHEPREFIX",
            "python loads compiled bytecode from this tree instead of __pycache__",
        ),
        loads(
            "PYTHONSAFEPATH",
            "keeps the working directory off sys.path, so `python -m NAME` runs an installed module instead of ./NAME.py",
        ),
        loads(
            "PYTHONSTARTUP",
            "python runs this file at the interactive prompt",
        ),
        loads(
            "PYTHONWARNINGS",
            "python imports the warning categories named here",
        ),
    ],
};
