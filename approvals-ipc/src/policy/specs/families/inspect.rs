//! Programs that only print their words or look at the paths they are
//! given, and never write, run or load anything: echo, printf, test and
//! `[` (every word is text, [`Grammar::Verbatim`]), and the GNU coreutils
//! basename, dirname, realpath, readlink, stat, du and df (options from
//! coreutils 9.1's `--help`, `scripts/spec-skeleton`, checked by
//! `tests/spec_conformance.rs`), file (which reads the start of each file
//! to name its type) and tree (which lists names, as `ls -R` does).
//!
//! Without a spec, a program is asked whenever it is given a path where a
//! write would matter (`guards/unknown.rs`), since whether it writes there
//! is not known: `echo $HOME`, `test -d .git`, `du -sh .git` and `realpath
//! ~` were asked although none of these programs can write a file. A spec
//! says what they do with their words: nothing but print or inspect them.
//! Credential stores stay protected whatever the program (`secrets.rs`).
//! The few options that do more are asked: `file -z` runs decompressors,
//! `file -m` loads a list of magic files and `-f` a list of names, `file
//! -C` and `tree -o` write a file, `tree -R` writes one into every
//! directory, `tree --fromfile` prints the lines of the files it is given.

use crate::policy::specs::types::Effect::{
    LoadsCode, ReadsFile, ReadsNames, RunsProgram, WritesFile,
};
use crate::policy::specs::types::{Grammar, Operands, Opt, Spec, flag, ids, optional, value};

const GNU: Grammar = Grammar::Getopt { permute: true };
const COMMON: &[Opt] = &[flag(&["--help"]), flag(&["--version"])];
const V91: &str = "GNU coreutils 9.1";

/// `echo`: its words are printed (`-n`, `-e`, `-E` change how); a word
/// it does not take as an option is printed too (`echo --frob`).
pub(crate) const ECHO: Spec = Spec {
    family: "echo",
    names: &["echo"],
    ids: ids!("echo"),
    grammar: Grammar::Verbatim,
    opts: &[],
    subs: &[],
    checked_with: "GNU coreutils 9.1 (echo reads no file and writes only its output)",
    operands: Operands::Plain,
    env: &[],
};

/// `env` with no command: it prints the environment. `env` with options,
/// assignments or a command never gets here: it is read as a wrapper
/// (`policy/wrappers.rs`), so every word here is a name to judge.
pub(crate) const ENV: Spec = Spec {
    family: "env",
    names: &["env"],
    ids: ids!("env"),
    grammar: Grammar::Verbatim,
    opts: &[],
    subs: &[],
    checked_with: "GNU coreutils 9.1 (with no command env prints the environment)",
    operands: Operands::PrintsEnv,
    env: &[],
};

/// `printenv [NAME]…`: prints the values of the variables named, or all
/// of them. Its getopt string starts with `+`: options end at the first
/// name (`printenv HOME --null` prints two variables).
pub(crate) const PRINTENV: Spec = Spec {
    family: "printenv",
    names: &["printenv"],
    ids: ids!("printenv"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[COMMON, &[flag(&["-0", "--null"])]],
    subs: &[],
    checked_with: V91,
    operands: Operands::PrintsEnv,
    env: &[],
};

/// `printf`: a format and its arguments, printed; GNU printf takes no
/// option but `--help` and `--version` (it has no `-v`: that is bash's
/// builtin, which our executor never runs).
pub(crate) const PRINTF: Spec = Spec {
    family: "printf",
    names: &["printf"],
    ids: ids!("printf"),
    grammar: Grammar::Verbatim,
    opts: &[],
    subs: &[],
    checked_with: "GNU coreutils 9.1 (printf reads no file and writes only its output)",
    operands: Operands::Plain,
    env: &[],
};

/// `test` and `[`: an expression of operators and operands (`-d .git`,
/// `-n x`, `a = b`) whose only effect is the exit status; it looks at the
/// paths it names and opens none for writing.
pub(crate) const TEST: Spec = Spec {
    family: "test",
    names: &["[", "test"],
    ids: ids!("test"),
    grammar: Grammar::Verbatim,
    opts: &[],
    subs: &[],
    checked_with: "GNU coreutils 9.1 (test only looks at what it names)",
    operands: Operands::Plain,
    env: &[],
};

const BASENAME_OPTS: &[Opt] = &[
    flag(&["-a", "--multiple"]),
    value(&["-s", "--suffix"]),
    flag(&["-z", "--zero"]),
];

/// `basename`: prints the last part of each name; opens nothing. Its
/// options stop at the first operand (`basename x --version` prints `x`).
pub(crate) const BASENAME: Spec = Spec {
    family: "basename",
    names: &["basename"],
    ids: ids!("basename"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[BASENAME_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const DIRNAME_OPTS: &[Opt] = &[flag(&["-z", "--zero"])];

/// `dirname`: prints each name without its last part; opens nothing.
pub(crate) const DIRNAME: Spec = Spec {
    family: "dirname",
    names: &["dirname"],
    ids: ids!("dirname"),
    grammar: GNU,
    opts: &[DIRNAME_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const REALPATH_OPTS: &[Opt] = &[
    flag(&["-e", "--canonicalize-existing"]),
    flag(&["-m", "--canonicalize-missing"]),
    flag(&["-L", "--logical"]),
    flag(&["-P", "--physical"]),
    flag(&["-q", "--quiet"]),
    value(&["--relative-to"]),
    value(&["--relative-base"]),
    flag(&["-s", "--strip", "--no-symlinks"]),
    flag(&["-z", "--zero"]),
];

/// `realpath`: prints each name resolved; reads only links.
pub(crate) const REALPATH: Spec = Spec {
    family: "realpath",
    names: &["realpath"],
    ids: ids!("realpath"),
    grammar: GNU,
    opts: &[REALPATH_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const READLINK_OPTS: &[Opt] = &[
    flag(&["-f", "--canonicalize"]),
    flag(&["-e", "--canonicalize-existing"]),
    flag(&["-m", "--canonicalize-missing"]),
    flag(&["-n", "--no-newline"]),
    flag(&["-q", "--quiet"]),
    flag(&["-s", "--silent"]),
    flag(&["-v", "--verbose"]),
    flag(&["-z", "--zero"]),
];

/// `readlink`: prints where each link leads; reads only links.
pub(crate) const READLINK: Spec = Spec {
    family: "readlink",
    names: &["readlink"],
    ids: ids!("readlink"),
    grammar: GNU,
    opts: &[READLINK_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const STAT_OPTS: &[Opt] = &[
    flag(&["-L", "--dereference"]),
    flag(&["-f", "--file-system"]),
    value(&["--cached"]),
    value(&["-c", "--format"]),
    value(&["--printf"]),
    flag(&["-t", "--terse"]),
];

/// `stat`: prints what the file system says about each name.
pub(crate) const STAT: Spec = Spec {
    family: "stat",
    names: &["stat"],
    ids: ids!("stat"),
    grammar: GNU,
    opts: &[STAT_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const DU_OPTS: &[Opt] = &[
    flag(&["-0", "--null"]),
    flag(&["-a", "--all"]),
    flag(&["--apparent-size"]),
    value(&["-B", "--block-size"]),
    flag(&["-b", "--bytes"]),
    flag(&["-c", "--total"]),
    flag(&["-D", "--dereference-args"]),
    value(&["-d", "--max-depth"]),
    value(&["--files0-from"]).does(ReadsFile),
    flag(&["-H"]),
    flag(&["-h", "--human-readable"]),
    flag(&["--inodes"]),
    flag(&["-k"]),
    flag(&["-L", "--dereference"]),
    flag(&["-l", "--count-links"]),
    flag(&["-m"]),
    flag(&["-P", "--no-dereference"]),
    flag(&["-S", "--separate-dirs"]),
    flag(&["--si"]),
    flag(&["-s", "--summarize"]),
    value(&["-t", "--threshold"]),
    optional(&["--time"]),
    value(&["--time-style"]),
    value(&["-X", "--exclude-from"]).does(ReadsFile),
    value(&["--exclude"]),
    flag(&["-x", "--one-file-system"]),
];

/// `du`: prints how much space each name takes.
pub(crate) const DU: Spec = Spec {
    family: "du",
    names: &["du"],
    ids: ids!("du"),
    grammar: GNU,
    opts: &[DU_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

const DF_OPTS: &[Opt] = &[
    flag(&["-a", "--all"]),
    value(&["-B", "--block-size"]),
    flag(&["-h", "--human-readable"]),
    flag(&["-H", "--si"]),
    flag(&["-i", "--inodes"]),
    flag(&["-k"]),
    flag(&["-l", "--local"]),
    flag(&["--no-sync"]),
    optional(&["--output"]),
    flag(&["-P", "--portability"]),
    flag(&["--sync"]),
    flag(&["--total"]),
    value(&["-t", "--type"]),
    flag(&["-T", "--print-type"]),
    value(&["-x", "--exclude-type"]),
    flag(&["-v"]),
];

/// `df`: prints the free space of the file systems holding each name
/// (`--output` picks columns, it writes no file).
pub(crate) const DF: Spec = Spec {
    family: "df",
    names: &["df"],
    ids: ids!("df"),
    grammar: GNU,
    opts: &[DF_OPTS, COMMON],
    subs: &[],
    checked_with: V91,
    operands: Operands::Plain,
    env: &[],
};

/// Why `file -z` is asked, as ripgrep's `-z` is.
const DECOMPRESSES: &str = "looks inside compressed files, running a decompressor found on PATH for formats libmagic cannot read itself";

const FILE_OPTS: &[Opt] = &[
    flag(&["-v", "--version"]),
    value(&["-m", "--magic-file"]).does(LoadsCode(
        "reads magic rules from a colon-separated list of files, which the check of protected paths does not split, and prints what it cannot parse",
    )),
    flag(&["-z", "--uncompress"]).does(RunsProgram(DECOMPRESSES)),
    flag(&["-Z", "--uncompress-noreport"]).does(RunsProgram(DECOMPRESSES)),
    flag(&["-b", "--brief"]),
    flag(&["-c", "--checking-printout"]),
    value(&["-e", "--exclude"]),
    value(&["--exclude-quiet"]),
    value(&["-f", "--files-from"]).does(ReadsNames(
        "reads the names of the files to examine from a file or stdin, which the prompt does not show",
    )),
    value(&["-F", "--separator"]),
    flag(&["-i", "--mime"]),
    flag(&["--apple"]),
    flag(&["--extension"]),
    flag(&["--mime-type"]),
    flag(&["--mime-encoding"]),
    flag(&["-k", "--keep-going"]),
    flag(&["-l", "--list"]),
    flag(&["-L", "--dereference"]),
    flag(&["-h", "--no-dereference"]),
    flag(&["-n", "--no-buffer"]),
    flag(&["-N", "--no-pad"]),
    flag(&["-0", "--print0"]),
    flag(&["-p", "--preserve-date"]),
    value(&["-P", "--parameter"]),
    flag(&["-r", "--raw"]),
    flag(&["-s", "--special-files"]),
    flag(&["-S", "--no-sandbox"]),
    flag(&["-C", "--compile"]).does(WritesFile(
        "compiles the magic file into a .mgc file named after it in the working directory",
    )),
    flag(&["-d", "--debug"]),
    flag(&["-E"]),
];

/// `file`: reads the start of each file it is given and prints its type.
/// Options from file 5.44's `--help` (`-E` from its manual page and usage
/// line), checked by `tests/spec_conformance.rs`.
pub(crate) const FILE: Spec = Spec {
    family: "file",
    names: &["file"],
    ids: ids!("file"),
    grammar: GNU,
    opts: &[FILE_OPTS, &[flag(&["--help"])]],
    subs: &[],
    checked_with: "file 5.44",
    operands: Operands::Plain,
    env: &[],
};

/// Why tree's HTML options that write into every directory are asked.
const TREE_RERUN: &str = "with -H and -o, writes an 00Tree.html into every directory it lists";

const TREE_OPTS: &[Opt] = &[
    flag(&["-a"]),
    flag(&["-d"]),
    flag(&["-l"]),
    flag(&["-f"]),
    flag(&["-x"]),
    value(&["-L"]),
    flag(&["-R"]).does(WritesFile(TREE_RERUN)),
    value(&["-P"]),
    value(&["-I"]),
    flag(&["--gitignore"]),
    value(&["--gitfile"]).does(ReadsFile),
    flag(&["--ignore-case"]),
    flag(&["--matchdirs"]),
    flag(&["--metafirst"]),
    flag(&["--prune"]),
    flag(&["--info"]),
    value(&["--infofile"]).does(ReadsFile),
    flag(&["--noreport"]),
    value(&["--charset"]),
    value(&["--filelimit"]),
    value(&["-o"]).does(WritesFile("writes the listing to this file")),
    flag(&["-q"]),
    flag(&["-N"]),
    flag(&["-Q"]),
    flag(&["-p"]),
    flag(&["-u"]),
    flag(&["-g"]),
    flag(&["-s"]),
    flag(&["-h"]),
    flag(&["--si"]),
    flag(&["--du"]),
    flag(&["-D"]),
    value(&["--timefmt"]),
    flag(&["-F"]),
    flag(&["--inodes"]),
    flag(&["--device"]),
    flag(&["-v"]),
    flag(&["-t"]),
    flag(&["-c"]),
    flag(&["-U"]),
    flag(&["-r"]),
    flag(&["--dirsfirst"]),
    flag(&["--filesfirst"]),
    value(&["--sort"]),
    flag(&["-i"]),
    flag(&["-A"]),
    flag(&["-S"]),
    flag(&["-n"]),
    flag(&["-C"]),
    flag(&["-X"]),
    flag(&["-J"]),
    value(&["-H"]),
    value(&["-T"]),
    flag(&["--nolinks"]),
    value(&["--hintro"]).does(ReadsFile),
    value(&["--houtro"]).does(ReadsFile),
    flag(&["--fromfile"]).does(ReadsNames(
        "lists the paths written in the files it is given (or stdin) instead of the directories, printing those files' lines",
    )),
    flag(&["--fflinks"]),
    flag(&["--version"]),
    flag(&["--help"]),
];

/// `tree`: lists the names under each directory it is given, as `ls -R`
/// does (names, never contents: `tree ~` is judged as `ls ~` is, and a
/// credential store it names is still asked by `secrets.rs`). Options from
/// tree 2.1.0's `--help`, read by its own parser
/// ([`Grammar::NextWordValues`]), checked by `tests/spec_conformance.rs`.
pub(crate) const TREE: Spec = Spec {
    family: "tree",
    names: &["tree"],
    ids: ids!("tree"),
    grammar: Grammar::NextWordValues,
    opts: &[TREE_OPTS],
    subs: &[],
    checked_with: "tree 2.1.0",
    operands: Operands::Plain,
    env: &[],
};
