//! rake. Options from rake 13.0.6's `rake --help` (`standard_rake_options`
//! in `rake/application.rb`), checked by
//! `tests/frontend_spec_conformance.rs`. rake reads argv with Ruby's
//! OptionParser, read here as getopt_long with permutation
//! ([`Grammar::Getopt`]), which is stricter wherever the two differ:
//! OptionParser also completes a long name case-insensitively, word by
//! word (`--d-r`) and with `_` for `-`, resolves a prefix several names
//! share to the shortest when it prefixes the others (`--exec` is
//! `--execute`), and reads a short letter it does not know as the long
//! option it starts (`-l DIR` is `--libdir`): the spec asks about each of
//! those. Its `[VALUE]` options (`-C`, `-D`, `-f`, `-j`, `-T`, `-W`,
//! `--job-stats`) take the next word too unless it starts with `-`; the
//! spec reads that word as an operand, and `-C`/`-f` without an attached
//! value as naming a place it cannot see (asked).
//!
//! Running the Rakefile of the working directory (and its `rakelib/`)
//! and its tasks is rake's job, as running a makefile is make's. Ruby
//! code on the command line (`-e`, `-p`, `-E`), a library required first,
//! the global rakefiles in `~/.rake` (`-g`), a Rakefile, rakelib, library
//! path or working directory outside the working tree, and an operand
//! `NAME=value` setting a variable that is not inert (rake puts it in the
//! environment of everything its tasks run: `RUBYOPT=-r…`) are asked; an
//! option the spec does not know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, OtherTree},
    Grammar, Opt, Spec, flag, ids, loads, location, optional, value,
};

const INLINE: &str = "runs ruby code given on the command line";

const RAKE_OPTS: &[Opt] = &[
    flag(&["-A", "--all"]),
    // `stdout` or `stderr`, anything else an error.
    optional(&["--backtrace"]),
    flag(&["-B", "--build-all"]),
    flag(&["--comments"]),
    optional(&["-D", "--describe"]),
    optional(&["-C", "--directory"]).does(OtherTree(
        "changes to another directory and runs the Rakefile there",
    )),
    flag(&["-n", "--dry-run"]),
    value(&["-e", "--execute"]).does(LoadsCode(INLINE)),
    value(&["-p", "--execute-print"]).does(LoadsCode(INLINE)),
    value(&["-E", "--execute-continue"]).does(LoadsCode(INLINE)),
    optional(&["-j", "--jobs"]),
    optional(&["--job-stats"]),
    value(&["-I", "--libdir"]).does(OtherTree(
        "searches another directory first for the libraries the Rakefile loads",
    )),
    flag(&["-m", "--multitask"]),
    flag(&["-N", "--no-search", "--nosearch"]),
    flag(&["-P", "--prereqs"]),
    flag(&["-q", "--quiet"]),
    optional(&["-f", "--rakefile"]).does(OtherTree("runs a Rakefile named on the command line")),
    value(&["-R", "--rakelibdir", "--rakelib"])
        .does(OtherTree("loads every .rake file of another directory")),
    value(&["-r", "--require"]).does(LoadsCode(
        "requires a library before the Rakefile: code the prompt does not show",
    )),
    flag(&["--rules"]),
    flag(&["-s", "--silent"]),
    value(&["--suppress-backtrace"]),
    flag(&["-g", "--system"]).does(LoadsCode(
        "loads the global rakefiles in ~/.rake, outside the working tree",
    )),
    flag(&["-G", "--no-system", "--nosystem"]),
    optional(&["-T", "--tasks"]),
    optional(&["-t", "--trace"]),
    flag(&["-v", "--verbose"]),
    flag(&["-V", "--version"]),
    optional(&["-W", "--where"]),
    flag(&["-X", "--no-deprecation-warnings"]),
    flag(&["-h", "-H", "--help"]),
];

/// `rake`, `rake3.1` (by family).
pub(crate) const RAKE: Spec = Spec {
    family: "rake",
    names: &["rake"],
    ids: ids!("rake"),
    grammar: Grammar::Getopt { permute: true },
    opts: &[RAKE_OPTS],
    subs: &[],
    checked_with: "rake 13.0.6 (ruby 3.1.2)",
    operands: Operands::SetsEnv(
        "rake sets this variable in the environment of the Rakefile and everything its tasks run",
    ),
    env: &[
        loads(
            "RAKEOPT",
            "rake takes options from here, including -r and -e",
        ),
        location(
            "RAKE_SYSTEM",
            "rake loads every .rake file here when no Rakefile is found or -g is given",
        ),
        loads(
            "RUBYGEMS_GEMDEPS",
            "RubyGems loads this Gemfile (Ruby code) before the program starts",
        ),
        loads("RUBYLIB", "ruby loads libraries from here"),
        loads("RUBYOPT", "ruby takes options from here, including -r"),
    ],
};
