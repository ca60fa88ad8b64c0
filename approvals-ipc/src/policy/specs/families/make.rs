//! GNU make. Options from make 4.3's `--help` (`scripts/spec-skeleton`),
//! checked by `tests/spec_conformance.rs`. Running the makefile's recipes is
//! make's job; `--eval` and `-I` add make code the prompt does not show,
//! `-C` runs another directory's makefile, and so does `-f` naming a
//! makefile outside the working tree (one inside it is the project's own;
//! the older `make.makefile-stdin` guard asks about `-f -`). Variable
//! operands are inspected by the older `make.variable-override`.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::loads;
use crate::policy::specs::types::{
    Effect::{LoadsCode, OtherTree, PrintsEnv},
    Grammar, Opt, Spec, flag, ids, optional, value,
};

const MAKE_OPTS: &[Opt] = &[
    flag(&["-b"]),
    flag(&["-m"]),
    flag(&["-B", "--always-make"]),
    value(&["-C", "--directory"]).does(OtherTree("runs the makefile of another directory")),
    flag(&["-d"]),
    optional(&["--debug"]),
    flag(&["-e", "--environment-overrides"]),
    value(&["-E", "--eval"]).does(LoadsCode("evaluates make code given on the command line")),
    value(&["-f", "--file", "--makefile"]).does(OtherTree(
        "runs the recipes of a makefile from another directory",
    )),
    flag(&["-h", "--help"]),
    flag(&["-i", "--ignore-errors"]),
    value(&["-I", "--include-dir"]).does(LoadsCode(
        "searches a directory for the makefiles `include` loads",
    )),
    // `-j 4` also works: make takes a following all-digit word itself,
    // which the spec reads as an operand (a target), equally inert.
    optional(&["-j", "--jobs"]),
    flag(&["-k", "--keep-going"]),
    optional(&["-l", "--load-average", "--max-load"]),
    flag(&["-L", "--check-symlink-times"]),
    flag(&["-n", "--just-print", "--dry-run", "--recon"]),
    value(&["-o", "--old-file", "--assume-old"]),
    optional(&["-O", "--output-sync"]),
    // Found by the H29 sweep: the data base holds every environment
    // variable as a make variable, values and all.
    flag(&["-p", "--print-data-base"]).does(PrintsEnv(
        "prints make's data base, in which every environment variable is a make variable, with its value",
    )),
    flag(&["-q", "--question"]),
    flag(&["-r", "--no-builtin-rules"]),
    flag(&["-R", "--no-builtin-variables"]),
    flag(&["-s", "--silent", "--quiet"]),
    flag(&["--no-silent"]),
    flag(&["-S", "--no-keep-going", "--stop"]),
    flag(&["-t", "--touch"]),
    flag(&["--trace"]),
    flag(&["-v", "--version"]),
    flag(&["-w", "--print-directory"]),
    flag(&["--no-print-directory"]),
    value(&["-W", "--what-if", "--new-file", "--assume-new"]),
    flag(&["--warn-undefined-variables"]),
    // Not in `--help`: the jobserver's pipe, which make passes to sub-makes
    // in MAKEFLAGS. Known so that `--j` reads as ambiguous, as make says.
    value(&["--jobserver-auth"]),
    value(&["--jobserver-fds"]),
    // The mutex of `--output-sync`, also passed to sub-makes.
    value(&["--sync-mutex"]),
];

/// `make`.
pub(crate) const MAKE: Spec = Spec {
    family: "make",
    names: &["make", "gmake", "remake"],
    ids: ids!("make"),
    grammar: Grammar::Getopt { permute: true },
    opts: &[MAKE_OPTS],
    subs: &[],
    checked_with: "GNU make 4.3",
    operands: Operands::Plain,
    env: &[
        loads("GNUMAKEFLAGS", "adds options to every make"),
        loads("MAKEFILES", "make reads these makefiles first"),
        loads("MAKEFLAGS", "adds options and variables to every make"),
        loads("MFLAGS", "adds options to make"),
    ],
};
