//! `python -m MODULE ARGS`: which modules are python's own job, as a
//! positive table. A module whose job is the program's (tests, formatters,
//! linters, type checkers, building, compiling, printing what it reads) is
//! allowed; one that runs code from its arguments or stdin, serves the
//! network, writes or extracts archives, opens a browser, installs or
//! uploads is asked with its row's reason; a module the table does not know
//! is asked and named, unless it resolves to a `.py` file inside the working
//! tree (`python -m mypkg.tool` with `./mypkg/tool.py`), which python runs as
//! it runs a script operand. Modules whose own argv decides (`zipfile -l`
//! reads, `zipfile -e` writes) are read by a small judge per module; a
//! module that is a spec'd program (`pip`, `uv`) is judged by that spec.
//!
//! The table is consulted before the working tree: `python -m runpy`
//! runs the frozen runpy even beside a `./runpy.py`, so a planted file never
//! turns an asked row into an allowed one. Upholds DESIGN.md section 6
//! (Program specs: unknown means ask).

use std::path::Path;

use super::effects::risky_write;
use super::grammar::Reading;
use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::outside;

/// What a module asked for does, which names its guard id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Runs python code given in its arguments or read from stdin.
    RunsCode,
    /// Listens on the network.
    Serves,
    /// Writes or extracts files.
    Writes,
    /// Opens a web browser, a program the environment names.
    Browser,
    /// Installs into the environment.
    Installs,
    /// Uploads to an index.
    Uploads,
}

impl Kind {
    /// The guard id of a module asked for this.
    fn id(self) -> &'static str {
        match self {
            Kind::RunsCode => "python.module-code",
            Kind::Serves => "python.module-serves",
            Kind::Writes => "python.module-writes",
            Kind::Browser => "python.module-browser",
            Kind::Installs => "python.module-installs",
            Kind::Uploads => "python.module-uploads",
        }
    }
}

/// The guard id of a module the table does not know.
pub(super) const UNKNOWN_MODULE: &str = "python.unknown-module";

/// A module's verdict from its own argv: `(kind, why)` when asked.
type Judge = fn(&[&str], &Path, usize) -> Option<(Kind, String)>;

/// How the table decides one module.
#[derive(Clone, Copy)]
pub(super) enum Job {
    /// The program's own job: allowed whatever its arguments.
    Own,
    /// Asked, for this.
    Asked(Kind),
    /// Decided by the module's own argv (the words after its name).
    Argv(Judge),
    /// A program with a spec of its own, which judges the words after it.
    Program(&'static str),
}

/// One row: a module python runs with `-m`, what it does and why.
pub(super) struct Module {
    /// The module name as `-m` takes it.
    pub name: &'static str,
    /// How it is decided.
    pub job: Job,
    /// What it does: the reason shown when it is asked, and the record of
    /// why an allowed row is the program's own job.
    pub why: &'static str,
}

const fn row(name: &'static str, job: Job, why: &'static str) -> Module {
    Module { name, job, why }
}

/// Every module the table knows, sorted by name (tested). Rows from
/// CPython 3.11's runnable modules (`python3 -m MODULE -h`) and the
/// third-party tools agents run through `python -m`.
pub(super) const MODULES: &[Module] = &[
    row(
        "antigravity",
        Job::Asked(Kind::Browser),
        "opens a web page in the browser, a program the environment names",
    ),
    row("ast", Job::Own, "prints the syntax tree of a file"),
    row(
        "asyncio",
        Job::Asked(Kind::RunsCode),
        "starts an asyncio prompt that runs python code read from stdin",
    ),
    row("base64", Job::Own, "encodes or decodes a file to stdout"),
    row("black", Job::Own, "formats the project's files"),
    row(
        "build",
        Job::Own,
        "builds the project's sdist and wheel with its own build backend",
    ),
    row("cProfile", Job::Argv(profile), PROFILE),
    row("calendar", Job::Own, "prints a calendar"),
    row(
        "code",
        Job::Asked(Kind::RunsCode),
        "an interactive interpreter that runs python code read from stdin",
    ),
    row(
        "compileall",
        Job::Own,
        "compiles the sources named to bytecode beside them",
    ),
    row("coverage", Job::Argv(coverage), COVERAGE),
    row("dis", Job::Own, "disassembles a file"),
    row(
        "doctest",
        Job::Own,
        "runs the examples in the files named, as a test runner does",
    ),
    row(
        "ensurepip",
        Job::Asked(Kind::Installs),
        "installs pip into the environment, whose code every later python loads",
    ),
    row("filecmp", Job::Own, "compares directories"),
    row("flake8", Job::Own, "lints the project's files"),
    row(
        "gzip",
        Job::Asked(Kind::Writes),
        "compresses or decompresses the files named into new files",
    ),
    row(
        "http.server",
        Job::Asked(Kind::Serves),
        "serves a directory over HTTP to the network",
    ),
    row(
        "idlelib",
        Job::Asked(Kind::RunsCode),
        "IDLE runs python code from its arguments (-c, -r) and its shell",
    ),
    row(
        "isort",
        Job::Own,
        "sorts the imports of the project's files",
    ),
    row("json", Job::Argv(json_tool), JSON_TOOL),
    row("json.tool", Job::Argv(json_tool), JSON_TOOL),
    row("mimetypes", Job::Own, "prints the type of a file name"),
    row(
        "mypy",
        Job::Own,
        "type-checks the project with its own config and plugins",
    ),
    row(
        "pdb",
        Job::Asked(Kind::RunsCode),
        "a debugger whose commands (-c, or read from stdin) run python code",
    ),
    row(
        "pickle",
        Job::Asked(Kind::RunsCode),
        "unpickles the files named, which calls any function they name",
    ),
    row(
        "pickletools",
        Job::Own,
        "disassembles a pickle without loading it",
    ),
    row("pip", Job::Program("pip"), "pip, judged by its own spec"),
    row("pip3", Job::Program("pip"), "pip, judged by its own spec"),
    row("platform", Job::Own, "prints the platform"),
    row("profile", Job::Argv(profile), PROFILE),
    row(
        "py_compile",
        Job::Own,
        "compiles the files named to bytecode",
    ),
    row("pycodestyle", Job::Own, "checks the project's style"),
    row(
        "pydoc",
        Job::Asked(Kind::Serves),
        "serves documentation over HTTP (-b, -p), writes HTML (-w), or imports the module it documents, running its code",
    ),
    row("pyflakes", Job::Own, "lints the project's files"),
    row("pylint", Job::Argv(pylint), PYLINT),
    row(
        "pytest",
        Job::Program("pytest"),
        "pytest, judged by its own spec",
    ),
    row("ruff", Job::Own, "lints or formats the project's files"),
    row(
        "runpy",
        Job::Asked(Kind::RunsCode),
        "runs the module its first argument names, which this table then never sees",
    ),
    row("site", Job::Own, "prints python's search path"),
    row(
        "smtpd",
        Job::Asked(Kind::Serves),
        "runs an SMTP server on the network",
    ),
    row("sysconfig", Job::Own, "prints the build configuration"),
    row(
        "tabnanny",
        Job::Own,
        "checks the files named for bad indentation",
    ),
    row("tarfile", Job::Argv(tarfile), TARFILE),
    row("this", Job::Own, "prints the Zen of Python"),
    row(
        "timeit",
        Job::Asked(Kind::RunsCode),
        "runs python statements given in its arguments (`-m timeit STMT`, `-s SETUP`)",
    ),
    row("tokenize", Job::Own, "prints the tokens of a file"),
    row(
        "trace",
        Job::Asked(Kind::RunsCode),
        "runs a module or script chosen in its arguments (--module) and writes coverage files where told",
    ),
    row("twine", Job::Argv(twine), TWINE),
    row("unittest", Job::Own, "runs the project's tests"),
    row("uuid", Job::Own, "prints a new UUID"),
    row("uv", Job::Program("uv"), "uv, judged by its own spec"),
    row("venv", Job::Argv(venv), VENV),
    row(
        "webbrowser",
        Job::Asked(Kind::Browser),
        "opens a URL in a web browser, a program the environment names",
    ),
    row(
        "xmlrpc.server",
        Job::Asked(Kind::Serves),
        "runs an XML-RPC server on the network",
    ),
    row(
        "zipapp",
        Job::Asked(Kind::Writes),
        "writes an executable archive whose entry point the arguments choose",
    ),
    row("zipfile", Job::Argv(zipfile), ZIPFILE),
];

const PROFILE: &str = "profiles the script named (own job); -m runs a module, judged as `python -m` is; -o writes the profile where told";
const COVERAGE: &str = "measures the project's tests; `coverage run -m MODULE` is judged as `python -m MODULE`; an option of `coverage run` the table does not know is asked";
const JSON_TOOL: &str = "pretty-prints JSON; a second operand is the file it writes";
const PYLINT: &str = "lints the project's files; --init-hook runs python code given in the argument and --load-plugins imports the modules it names";
const TARFILE: &str = "lists (-l) or tests (-t) an archive; -e extracts and -c creates files";
const TWINE: &str = "checks distributions (`twine check`); every other command uploads to an index, where everyone who installs the package runs its code";
const VENV: &str = "creates a virtual environment in the directories named";
const ZIPFILE: &str = "lists (-l) or tests (-t) an archive; -e extracts and -c creates files";

/// How many modules deep `coverage run -m` and `cProfile -m` are followed.
const MAX_DEPTH: usize = 4;

/// The row for `name`, by exact name.
pub(super) fn row_of(name: &str) -> Option<&'static Module> {
    MODULES
        .binary_search_by(|m| m.name.cmp(name))
        .ok()
        .map(|i| &MODULES[i])
}

/// The guards `python … -m MODULE ARGS` trips, as `reading` (python's own
/// reading of argv) has it, for `program` (as invoked) in `cwd`; nothing
/// when no `-m` was read.
pub(super) fn hits(program: &str, reading: &Reading<'_>, cwd: &Path) -> Vec<GuardHit> {
    let Some(module) = reading
        .uses
        .iter()
        .find(|u| u.opt.names.contains(&"-m"))
        .and_then(|u| u.value)
    else {
        return Vec::new();
    };
    // `-I` and `-P` keep the working directory off sys.path: a module
    // there is then not what runs.
    let isolated = reading
        .uses
        .iter()
        .any(|u| u.opt.names.iter().any(|n| matches!(*n, "-I" | "-P")));
    let shown = format!("{program} -m {module}");
    module_hits(&shown, module, &reading.operands, cwd, isolated, 0)
}

/// Console scripts that run a module of the table as `python -m MODULE`
/// would (`pylint ARGS` is `python -m pylint ARGS`), by executable name,
/// with that module. Only the modules whose row asks or reads their argv:
/// an own-job row (`black`, `ruff`) would add nothing.
const SCRIPTS: &[(&str, &str)] = &[
    ("coverage", "coverage"),
    ("pdb", "pdb"),
    ("pdb3", "pdb"),
    ("pylint", "pylint"),
    ("twine", "twine"),
];

/// The guards of `program` when it is a console script of a module the
/// table judges (`pylint --init-hook=CODE`): the module's row decides, as
/// for `python -m`. A console script imports its module from the
/// installed packages, never from the working directory. Empty for any
/// other program.
pub(super) fn script_hits(program: &str, args: &[String], cwd: &Path) -> Vec<GuardHit> {
    let Some((_, module)) = SCRIPTS.iter().find(|(name, _)| *name == program) else {
        return Vec::new();
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    module_hits(program, module, &args, cwd, true, 0)
}

/// The guards of running `module` with `args`, shown as `shown`.
fn module_hits(
    shown: &str,
    module: &str,
    args: &[&str],
    cwd: &Path,
    isolated: bool,
    depth: usize,
) -> Vec<GuardHit> {
    let asked = |kind: Kind, why: &str| {
        vec![GuardHit {
            id: kind.id(),
            reason: format!("{shown}: {why}"),
        }]
    };
    if depth > MAX_DEPTH {
        return asked(
            Kind::RunsCode,
            "modules run by modules nested deeper than the table follows",
        );
    }
    let Some(row) = row_of(module) else {
        if !isolated && in_working_tree(module, cwd) {
            return Vec::new();
        }
        // `python3 -m evilmod` is shown as `python3 -m`, the brief form
        // the other unknown-option reasons take.
        let runner = shown.strip_suffix(module).map_or(shown, str::trim_end);
        return vec![GuardHit {
            id: UNKNOWN_MODULE,
            reason: format!(
                "unknown module {module} for {runner}: a module the table does not know may run code from its arguments, so it is asked (a module inside the working tree, ./{}.py, runs as a script would)",
                module.replace('.', "/")
            ),
        }];
    };
    match row.job {
        Job::Own => Vec::new(),
        Job::Asked(kind) => asked(kind, row.why),
        Job::Argv(judge) => match judge(args, cwd, depth) {
            Some((kind, why)) => asked(kind, &why),
            None => Vec::new(),
        },
        Job::Program(name) => {
            let rest: Vec<String> = args.iter().map(|w| (*w).to_owned()).collect();
            super::check(name, &rest, cwd).unwrap_or_default()
        }
    }
}

/// Whether `module` names a `.py` file (or a package's `__main__.py`)
/// inside `cwd`, through no link that leaves it: what `python -m` finds
/// first on sys.path, whose first entry is the working directory.
///
/// A top-level package must be a regular one (its `__init__.py` in the
/// tree): a directory without one is only a namespace portion, which a
/// regular package of that name installed later on sys.path beats, so
/// `./IPython/__main__.py` alone would run the installed IPython. Below a
/// regular package, python looks only in that package's directory.
fn in_working_tree(module: &str, cwd: &Path) -> bool {
    let identifier = |part: &str| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !module.split('.').all(identifier) {
        return false;
    }
    let in_tree = |file: &str| !outside(cwd, file) && cwd.join(file).is_file();
    let top = module.split('.').next().unwrap_or(module);
    if module.contains('.') && !in_tree(&format!("{top}/__init__.py")) {
        return false;
    }
    let base = module.replace('.', "/");
    in_tree(&format!("{base}.py"))
        || (in_tree(&format!("{base}/__init__.py")) && in_tree(&format!("{base}/__main__.py")))
}

/// `python -m zipfile`: only `-l FILE` and `-t FILE` leave files alone.
fn zipfile(args: &[&str], _cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    match args {
        [op, _] if matches!(*op, "-l" | "--list" | "-t" | "--test") => None,
        _ => Some((Kind::Writes, ZIPFILE.to_owned())),
    }
}

/// `python -m tarfile`: `-l FILE` or `-t FILE`, with `-v`, leave files
/// alone; anything else (`-e`, `-c`, an option not read here) is asked.
fn tarfile(args: &[&str], _cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    let mut reads = 0;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match *word {
            "-v" | "--verbose" => {}
            "-l" | "--list" | "-t" | "--test" if words.next().is_some() => reads += 1,
            _ => return Some((Kind::Writes, TARFILE.to_owned())),
        }
    }
    (reads != 1).then(|| (Kind::Writes, TARFILE.to_owned()))
}

/// `python -m json.tool [options] [INFILE [OUTFILE]]` (3.11): the outfile
/// is a write, judged as any write is; an option not read here is asked.
fn json_tool(args: &[&str], cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match *word {
            "--sort-keys" | "--no-ensure-ascii" | "--json-lines" | "--tab" | "--no-indent"
            | "--compact" | "-h" | "--help" | "-" => {
                if *word == "-" {
                    operands.push(*word);
                }
            }
            "--indent" => {
                words.next();
            }
            w if w.starts_with("--indent=") => {}
            w if w.starts_with('-') => {
                return Some((
                    Kind::Writes,
                    format!("option {w} is not one json.tool's row reads; {JSON_TOOL}"),
                ));
            }
            w => operands.push(w),
        }
    }
    match operands.as_slice() {
        [] | [_] => None,
        [_, out] => risky_write(cwd, out)
            .map(|place| (Kind::Writes, format!("writes its output {out} ({place})"))),
        _ => Some((
            Kind::Writes,
            format!("more operands than it takes; {JSON_TOOL}"),
        )),
    }
}

/// `python -m venv [options] DIR…`: a directory outside the tree (or in
/// a tool's metadata) is asked; an option not read here is asked.
fn venv(args: &[&str], cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match *word {
            "--system-site-packages"
            | "--symlinks"
            | "--copies"
            | "--clear"
            | "--upgrade"
            | "--without-pip"
            | "--upgrade-deps"
            | "-h"
            | "--help" => {}
            "--prompt" => {
                words.next();
            }
            w if w.starts_with("--prompt=") => {}
            w if w.starts_with('-') => {
                return Some((
                    Kind::Writes,
                    format!("option {w} is not one venv's row reads; {VENV}"),
                ));
            }
            dir => {
                if let Some(place) = risky_write(cwd, dir) {
                    return Some((Kind::Writes, format!("creates {dir} ({place})")));
                }
            }
        }
    }
    None
}

/// `python -m pylint`: argparse takes any unambiguous prefix of a long
/// option, so a word that could be `--init-hook` or `--load-plugins` is
/// asked.
fn pylint(args: &[&str], cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    if let Some(rc) = outside_rcfile(args, cwd) {
        return Some((Kind::RunsCode, format!("--rcfile {rc}: {OUTSIDE_RCFILE}")));
    }
    let code = args
        .iter()
        .take_while(|w| **w != "--")
        .map(|w| w.split_once('=').map_or(*w, |(name, _)| name))
        .find(|name| {
            name.len() >= 3
                && name.starts_with("--")
                && ["--init-hook", "--load-plugins"]
                    .iter()
                    .any(|full| full.starts_with(name))
        })?;
    Some((Kind::RunsCode, format!("{code}: {PYLINT}")))
}

/// Why an rcfile from outside the tree is asked.
const OUTSIDE_RCFILE: &str = "a settings file from outside the working tree, whose init-hook or plugins run Python code the prompt does not show";

/// The value of the first `--rcfile` (or an argparse prefix of it, at
/// least `--rc`; as `--rcfile=V` or `--rcfile V`) that names a file
/// outside `cwd`: pylint's and coverage's rcfile runs code (an
/// `init-hook`, plugins). Found by the H25 sweep (`pylint
/// --rcfile=/tmp/evil.rc src`).
fn outside_rcfile<'a>(args: &[&'a str], cwd: &Path) -> Option<&'a str> {
    let mut words = args.iter().take_while(|w| **w != "--");
    while let Some(word) = words.next() {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (*word, None),
        };
        if name.len() < 4 || !"--rcfile".starts_with(name) {
            continue;
        }
        let value = value.or_else(|| words.next().copied())?;
        if outside(cwd, value) {
            return Some(value);
        }
    }
    None
}

/// `python -m twine`: `check` is read-only; the rest upload.
fn twine(args: &[&str], _cwd: &Path, _depth: usize) -> Option<(Kind, String)> {
    match args.iter().find(|w| !w.starts_with('-')) {
        Some(&"check") | None => None,
        Some(_) => Some((Kind::Uploads, TWINE.to_owned())),
    }
}

/// `python -m coverage`: reports and housekeeping are its job; `run`
/// runs a script (its job) or, with `-m`, a module judged by this table.
fn coverage(args: &[&str], cwd: &Path, depth: usize) -> Option<(Kind, String)> {
    if let Some(rc) = outside_rcfile(args, cwd) {
        return Some((Kind::RunsCode, format!("--rcfile {rc}: {OUTSIDE_RCFILE}")));
    }
    let (command, rest) = args.split_first()?;
    match *command {
        "run" => {}
        "report" | "html" | "xml" | "json" | "lcov" | "erase" | "combine" | "debug"
        | "annotate" | "help" | "--version" | "--help" | "-h" => return None,
        other => {
            return Some((
                Kind::RunsCode,
                format!("command {other} is not one coverage's row reads; {COVERAGE}"),
            ));
        }
    }
    const FLAGS: &[&str] = &[
        "-a",
        "--append",
        "--branch",
        "-L",
        "--pylib",
        "-p",
        "--parallel-mode",
        "--timid",
    ];
    const VALUED: &[&str] = &[
        "--concurrency=",
        "--context=",
        "--data-file=",
        "--include=",
        "--omit=",
        "--rcfile=",
        "--source=",
        "--debug=",
    ];
    let mut module = false;
    for (i, word) in rest.iter().enumerate() {
        if *word == "-m" || *word == "--module" {
            module = true;
        } else if FLAGS.contains(word) || VALUED.iter().any(|v| word.starts_with(v)) {
        } else if word.starts_with('-') {
            return Some((
                Kind::RunsCode,
                format!(
                    "coverage run option {word} is not in its row (write valued options as --name=value); {COVERAGE}"
                ),
            ));
        } else if module {
            let shown = format!("coverage run -m {word}");
            let hits = module_hits(&shown, word, &rest[i + 1..], cwd, false, depth + 1);
            return nested(hits);
        } else {
            return None;
        }
    }
    None
}

/// `python -m cProfile|profile [-o FILE] [-s SORT] (-m MODULE | SCRIPT)
/// ARGS` (optparse, options up to the first operand).
fn profile(args: &[&str], cwd: &Path, depth: usize) -> Option<(Kind, String)> {
    let mut module = false;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let out = match *word {
            "-m" => {
                module = true;
                None
            }
            "-o" | "--outfile" | "-s" | "--sort" => {
                i += 1;
                let value = args.get(i).copied().unwrap_or("");
                matches!(*word, "-o" | "--outfile").then_some(value)
            }
            w if w.starts_with("--outfile=") => w.strip_prefix("--outfile="),
            w if w.starts_with("--sort=") => None,
            w if w.starts_with("-o") && w.len() > 2 => w.get(2..),
            w if w.starts_with("-s") && w.len() > 2 => None,
            w if w.starts_with('-') => {
                return Some((
                    Kind::RunsCode,
                    format!("option {w} is not one the profiler's row reads; {PROFILE}"),
                ));
            }
            operand => {
                if !module {
                    return None;
                }
                let shown = format!("profiler -m {operand}");
                return nested(module_hits(
                    &shown,
                    operand,
                    &args[i + 1..],
                    cwd,
                    false,
                    depth + 1,
                ));
            }
        };
        if let Some(path) = out
            && let Some(place) = risky_write(cwd, path)
        {
            return Some((Kind::Writes, format!("writes the profile {path} ({place})")));
        }
        i += 1;
    }
    None
}

/// The first of a nested module's hits as a module verdict (the nested
/// reason already names the module chain).
fn nested(hits: Vec<GuardHit>) -> Option<(Kind, String)> {
    let first = hits.into_iter().next()?;
    Some((Kind::RunsCode, first.reason))
}
