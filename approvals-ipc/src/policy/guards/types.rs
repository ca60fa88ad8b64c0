//! The shapes of the guard data, shared by the table that holds it and the
//! code that reads it: how a program lays out its arguments, what a guard
//! fires on, and which program-specific inspection to run.
//!
//! Kept apart so the data (`table`) depends only on these types, never on
//! the parser or the inspections that use it: the guard table can be read,
//! and changed, without the code behind it.

/// How a program's arguments are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Options anywhere (GNU permutation) until `--`.
    Permuted,
    /// Options until the first operand; the rest belongs to a script.
    OptionsFirst,
    /// Global options, then a subcommand with its own options (git).
    GlobalThenSubcommand,
    /// Options anywhere; the first operand is a subcommand (npm, pnpm).
    SubcommandAnywhere,
    /// Like `Permuted`, but a first argument without `-` is a bundle of
    /// short options (`tar xzf`).
    OldStyleBundle,
}

/// One program family.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProgramSpec {
    /// The family's name, used as the prefix of its guard ids.
    pub family: &'static str,
    /// Executable names of the family (`gawk`, `mawk` …).
    pub names: &'static [&'static str],
    /// Also accept `name` followed by a version (`python3.11`, `perl5.36`).
    pub versioned: bool,
    /// How arguments are laid out.
    pub layout: Layout,
    /// Short options that take a value (attached or the next token).
    pub value_shorts: &'static str,
    /// Long options that take a value (after `=` or the next token).
    pub value_longs: &'static [&'static str],
    /// Options that name the code to run, so stdin is data, not code.
    pub program_opts: &'static [&'static str],
    /// Options after which the program reads no more options of its own
    /// (python's `-c CODE` and `-m MODULE`): the words after their value
    /// are the code's or module's argv, not the program's options.
    pub ending_opts: &'static [&'static str],
    /// Long options of the program that are also a prefix of a guarded
    /// one: spelled exactly, the program reads them as themselves (an
    /// exact match wins over an abbreviation in `getopt_long` and GnuPG's
    /// parser), so `gpg --export` is no `--export-secret-keys`.
    pub exact_longs: &'static [&'static str],
}

/// The query forms of a manager program (`systemctl status`): the verbs
/// that only print, and the options that only choose what or how they
/// print. Anything else changes the system, runs elsewhere or is unknown.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Queries {
    /// Subcommands that only print what they are asked about. With no
    /// subcommand at all, systemd's managers run a listing or a status
    /// (`systemctl` lists units, `hostnamectl` shows its status).
    pub verbs: &'static [&'static str],
    /// Options (`-x`, `--long`) that only change what is printed, spelled
    /// exactly: an abbreviation, or an option not listed, fires.
    pub opts: &'static [&'static str],
}

/// What makes a guard fire.
#[derive(Clone, Copy)]
pub(crate) enum Trigger {
    /// Any use of the program.
    Always,
    /// One of these options (`-x` letters in clusters, `--long` by prefix).
    Opt(&'static [&'static str]),
    /// One of these options with a directory value outside cwd.
    OptOutsideCwd(&'static [&'static str]),
    /// One of these options whose value names paths after `KIND=` inside
    /// a comma-separated list (rustc's `--emit=link=../x`, `--extern
    /// name=../x.rlib`, `-L dependency=/tmp`, `-C incremental=/tmp`): any
    /// path outside cwd fires. A part with no `=` is the path itself, and
    /// a name with no `/` (`--target x86_64-unknown-linux-musl`, `--emit
    /// asm`) is read inside cwd, so it does not.
    OptPathsOutsideCwd(&'static [&'static str]),
    /// One of these options, unless its value sends the output nowhere a
    /// file is written: `-` (standard output) or `/dev/null`. An option
    /// without a value (`curl -O`) always fires.
    OptWritesFile(&'static [&'static str]),
    /// An operand outside the working directory, once one of these
    /// options or subcommands turns writing on (none listed: always): a
    /// formatter or a fixer rewrites the files it is given in place
    /// (`prettier --write ../x.js`, `ruff format /elsewhere`, `isort
    /// DIR`). Found by the H25 sweep.
    RewritesOperandOutsideCwd(&'static [&'static str]),
    /// One of these options with one of these values.
    OptValueIs(&'static [&'static str], &'static [&'static str]),
    /// One of these options, unless its value is one of these (a module
    /// that runs nothing it is given: `ansible -m ping`).
    OptValueIsNot(&'static [&'static str], &'static [&'static str]),
    /// An option of these subcommands (empty: any subcommand).
    SubOpt(&'static [&'static str], &'static [&'static str]),
    /// The subcommand is one of these.
    Subcommand(&'static [&'static str]),
    /// An argument is exactly one of these words (find's expression).
    Word(&'static [&'static str]),
    /// An argument is exactly one of the second words, after an argument
    /// that is exactly one of the first (`kubectl config set`, wherever
    /// options put the two words).
    WordAfter(&'static [&'static str], &'static [&'static str]),
    /// Any use but a query: a verb not in [`Queries::verbs`] (none is a
    /// query), or an option not in [`Queries::opts`].
    /// Fails closed: an unknown verb or option is taken for a change.
    UnlessQuery(&'static Queries),
    /// An interpreter reading its program from stdin.
    CodeOnStdin,
    /// A program-specific inspection, run by `scripts::inspect`.
    Inspect(Inspection),
}

/// The program-specific inspections an `Inspect` guard can run; each is a
/// function in `scripts`, chosen by `scripts::inspect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inspection {
    /// Any option before the first operand: a program whose options we do
    /// not read one by one (a shell of another language).
    AnyOption,
    /// An argument starting with one of these (the JVM's
    /// `-agentpath:LIB`, `-XX:OnError=CMD`, and the same passed on with
    /// `-J`).
    ArgPrefix(&'static [&'static str]),
    /// An awk program that can run commands, read or write files, or read
    /// the environment.
    AwkProgram,
    /// A CMake `-D NAME[:TYPE]=VALUE` whose variable names a program to
    /// run or code to load (`scripts::cmake_variable`).
    CmakeVariable,
    /// A compiler driver told to run or load a program of the caller's
    /// choosing (`-wrapper`, `-fplugin=`, `-B`, `-specs=`, `@file`).
    CompilerDriver,
    /// A curl data option that reads a local file (`-d @file`).
    CurlFileData,
    /// A curl URL whose scheme is not a plain fetch (`file:` reads a local
    /// file under a spelling the path checks do not read; `gopher:`,
    /// `dict:`, `telnet:` send raw bytes to any service).
    CurlUrlScheme,
    /// `git config` writing a key that is not inert, editing config, or
    /// working on a file it is given.
    GitConfig,
    /// `git -c KEY=VALUE` with a key that is not inert.
    GitConfigOverride,
    /// A git subcommand that runs a command it is given.
    GitRunsCommand,
    /// An option of a program that reads long options with one dash or two
    /// (`getopt_long_only`: ld's `-plugin`, TeX's `-shell-escape`) whose
    /// name is one of these, or an abbreviation of one (three letters or
    /// more), with or without `=value`.
    LongOnly(&'static [&'static str]),
    /// An option of a program that reads long options with one dash or two
    /// and never abbreviates them (latexmk's `-e`, `-pdflatex=CMD`): the
    /// name before any `=` is exactly one of these; a name written with a
    /// trailing `=` matches only when the argument has a value.
    ExactLong(&'static [&'static str]),
    /// A make variable override that can replace the commands make runs.
    MakeAssignment,
    /// A Go-`flag`-style option (`-name=VALUE`, `--name=VALUE`, or
    /// `-name VALUE`) among these names, exactly, whose value is a
    /// directory outside the working tree (`terraform -chdir=/elsewhere`).
    DashedOutsideCwd(&'static [&'static str]),
    /// PowerShell given a command or encoded command to run.
    PwshCommand,
    /// An `@file` argument: more arguments read from a file the prompt
    /// does not show.
    ResponseFile,
    /// A perl `-M`/`-m` whose value is more than a module name and its
    /// import list (`-M'POSIX;system(q(id))'`).
    PerlModuleCode,
    /// A php `-d` setting that loads a file before or after the script
    /// (`auto_prepend_file`, `auto_append_file`) or an extension.
    PhpIniCode,
    /// The script operand of an interpreter is stdin under a path name
    /// (`/dev/stdin`, `/dev/fd/0`) or a URL (`data:`, `http(s)://`).
    ScriptSource,
    /// A rustc or rustdoc codegen option (`-C KEY=VALUE`, `--codegen`)
    /// whose key names a program to run or arguments for it (`linker`,
    /// `link-arg`, `llvm-args` …).
    RustcCodegen,
    /// envsubst printing environment variables: with no SHELL-FORMAT it
    /// substitutes every `$NAME` its input holds; with one, those it
    /// names that are not known to hold no secret.
    EnvsubstFormat,
    /// An operand or option value that uses one of these names as an
    /// identifier, not as a `.key` (yq's `env(NAME)`, `strenv`, `$ENV`;
    /// Miller's `ENV`, `system`). With `Some(words)`, the first operand
    /// that is not one of `words` (yq's `e`, `eval`) is the expression,
    /// and an existing file after it is data, not looked into
    /// (`yq .a env.yml`); with `None`, every operand is looked into.
    ExprNames(&'static [&'static str], Option<&'static [&'static str]>),
    /// ps showing processes' environments: the BSD letter `e` in a
    /// bundle of letters (`ps e`, `ps auxe`, `ps -ef e`), or an `environ`
    /// column in a format (`ps -o pid,environ`).
    PsEnvironment,
    /// A sed script that can run commands, or read or write files.
    SedScripts,
    /// `sed -i` editing a file where a write matters (outside the tree,
    /// in a tool's metadata, a file other tools run), or keeping a backup
    /// where its suffix points (`-i'/tmp/*'`).
    SedInPlace,
    /// An argument equal to one of these words in any letter case: a
    /// command word of a program that reads commands case-insensitively
    /// (`redis-cli CONFIG SET`). Every argument is read, not only the
    /// first operand: a value of an option the table does not list must
    /// not hide the command (over-guarding, never under). Found by the
    /// H30 sweep.
    WordIgnoringCase(&'static [&'static str]),
    /// More operands than this: a program that only prints with its first
    /// few operands and changes the system with more (`ifconfig eth0`
    /// prints, `ifconfig eth0 down` changes). Found by the H30 sweep.
    MoreOperandsThan(usize),
    /// An operand containing one of these (`sysctl name=value` writes a
    /// kernel setting without `-w`). Found by the H30 sweep.
    OperandContains(&'static [&'static str]),
    /// None of these options: the program's default action, without one
    /// of its query options, is the one that changes the system (`nginx`
    /// alone starts the server, `nginx -t` tests the config). Found by the
    /// H30 sweep.
    UnlessOpt(&'static [&'static str]),
    /// Stdin carries data (a pipe or a heredoc) into a program that reads
    /// its own commands from stdin whatever its operands (`ftp HOST`).
    StdinCommands,
}

/// One built-in guard.
pub(crate) struct Guard {
    /// `family.construct`, stable, shown in audit records.
    pub id: &'static str,
    /// What triggers it.
    pub trigger: Trigger,
    /// Why it escalates to a human, shown in the prompt.
    pub reason: &'static str,
}
