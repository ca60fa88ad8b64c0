//! The shapes of program specs: how a program parses its argv, its
//! subcommands, and each option's arity and effect.
//!
//! Kept apart from the parser and the decision so that a family file
//! (`families/*.rs`) depends only on these types: a spec is data a reviewer
//! can read and a conformance test can compare with the real program.

/// How a program reads its argv: which parser family it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// GNU `getopt_long`: any unambiguous prefix of a long option, an exact
    /// match winning; optional values only after `=`; short bundles; with
    /// `permute`, options and operands interleave until `--`.
    Getopt {
        /// Options may follow operands (GNU permutation).
        permute: bool,
    },
    /// GNU tar: argp, which is `getopt_long` with permutation, plus tar's
    /// old style: a first word without a dash is a bundle of short letters
    /// (`tar xzf a.tgz`) whose value-taking letters take the words after
    /// the bundle, in order (`tar xIf sh a.tar` is `-I sh -f a.tar`).
    Tar,
    /// git: global options matched exactly and stopping at the subcommand,
    /// whose options go through parse-options (unambiguous prefixes,
    /// `--no-` negation, permutation, `--end-of-options`).
    Git,
    /// clap: long options matched exactly, `--opt=v` or `--opt v`, short
    /// bundles, permutation. popt (rsync) reads argv the same way.
    Clap,
    /// curl's own parser (`tool_getparam.c`): a long option is its exact
    /// name, else `--no-NAME` for an exact NAME that takes no value (turned
    /// off), else any unambiguous prefix; no `--opt=v` (the whole word is
    /// the name), values are the next word; short bundles with attached or
    /// next-word values; `-#` is the letter `#`; permutation until `--`.
    Curl,
    /// OpenSSH's BSD `getopt`: short options only, no permutation, but the
    /// first operand (the destination) is followed by a second round of
    /// options before the remote command (`ssh host -oX=y cmd`), unless a
    /// `--` came before the destination.
    Ssh,
    /// Info-ZIP's zip and unzip: short options of one or two letters, the
    /// longest matching first (`-TT` is not `-T -T`; `-sv1` is `-sv -1`),
    /// bundled, a value taking the rest of its word (one leading `=`
    /// dropped) or the next word; options anywhere. zip: long options by
    /// unambiguous prefix with `=` or the next word, a `-` after an option
    /// turns it off (`-la-`), `--` ends options. unzip: no long options, a
    /// `-` inside a word negates what follows (asked), `--` ends nothing.
    InfoZip {
        /// zip (true) or unzip (false).
        zip: bool,
    },
    /// Go's `flag` package (the go command): every option is one word,
    /// `-name` or `--name`, matched exactly, its value after `=` or (unless
    /// it takes none) the next word; no bundles; options stop at the first
    /// operand, `--`, or `-args`, except in the subcommands listed, whose
    /// options may follow their operands (`go test ./... -exec x`). Rows
    /// are spelled `-name`.
    GoFlag {
        /// Subcommands whose options and operands interleave.
        permuting: &'static [&'static str],
    },
    /// npm's nopt: every option is a config key, read before and after
    /// the command from the spec's own tables (subcommands have none); the
    /// leading dashes do not matter (`-registry` is `--registry`); a word
    /// that is a key or a shorthand exactly is that, else a word of
    /// one-letter shorthands is a bundle (`-gD`, `--gl`), else `--no-`
    /// turns off the key that follows, which may be any unique prefix of a
    /// key; a boolean takes `=true`/`=false` or a following
    /// `true`/`false`; a key with a value takes `=v` or the next word. The
    /// command is the first other word; the rest are operands, and `--`
    /// ends options. What nopt would read differently (a value that looks
    /// like an option, `--no-no-`, a boolean given another value) is asked.
    Npm,
    /// GNU find's own parser: leading `-H -L -P -D LIST -ON`, then start
    /// points (words up to the first that starts with `-` or is `(` or
    /// `!`), then an expression whose every word is a predicate or
    /// operator spelled exactly, followed by its fixed number of words;
    /// `-exec`, `-execdir`, `-ok` and `-okdir` take a command line ending
    /// at `;`, or at a `+` right after `{}`.
    Find,
    /// A JavaScript package manager other than npm (pnpm 12's clap, yarn
    /// classic's commander): long names exactly, `--opt=v` or `--opt v`,
    /// short bundles; global options before the command, which is the first
    /// other word, and again after it (each subcommand's table lists them).
    /// A value read from the next word that starts with `-` is asked
    /// (clap refuses it, commander takes or leaves it by the option).
    PackageManager {
        /// Subcommands whose options stop at their first operand: the words
        /// from there on are a script's or a command's (`pnpm run build
        /// --watch`, `pnpm exec eslint --fix`).
        scripts: &'static [&'static str],
        /// Subcommands that read no options at all: every word after them
        /// is the script's (`pnpm test --watch`, `yarn node -e`).
        verbatim: &'static [&'static str],
        /// The subcommand an unknown command word is read as, the word its
        /// first operand and the rest verbatim (yarn runs `yarn build` as
        /// `yarn run build`); `None`: an unknown command is asked.
        unknown: Option<&'static str>,
        /// commander 2 splits every `-abc` into `-a -b -c`, so a letter
        /// that takes a value is never given one in its own word: such a
        /// word is asked rather than read as clap would.
        commander: bool,
    },
    /// Perl's Getopt::Long configured with `bundling` (prove): read as
    /// [`Grammar::Getopt`] with permutation (long options by unambiguous
    /// prefix with `=v` or the next word, even one starting with `-`; short
    /// bundles; `--` ends options), plus Getopt::Long's `+NAME` (any
    /// spelling, long or one letter, exact or by unambiguous prefix, its
    /// value the next word), after the program's own pass over argv: each
    /// word spelled exactly as one of `early` is taken out first, wherever
    /// it stands, even after `--` or `rest` (prove's `--rc FILE`,
    /// `--rc=FILE`, `--norc`), and the words after the first `rest`
    /// (prove's `::`) are handed to what the program runs, never read as
    /// options.
    GetoptLong {
        /// Spellings the program takes out of argv before parsing; their
        /// rows (and arity) are in the spec's tables.
        early: &'static [&'static str],
        /// The word after which the rest are the children's arguments.
        rest: &'static str,
        /// Spellings of integer options (`=i`), whose value must be
        /// digits: Getopt::Long reads `-j4e` as `-j4 -e` and leaves the
        /// `-e` of `--jobs -e` to be read as an option, so any other value
        /// is asked.
        integers: &'static [&'static str],
    },
    /// Python's argparse as pytest configures it (`allow_abbrev=False`):
    /// read as [`Grammar::Clap`] (long options exact, `--opt=v` or `--opt
    /// v`, short bundles and attached values, options anywhere until
    /// `--`). With `from_file` (`fromfile_prefix_chars="@"`) argparse
    /// first replaces every word that starts with `@`, wherever it stands
    /// (a value, after `--`), by the lines of that file: such a word is
    /// asked, since the arguments it brings are not on the prompt.
    Argparse {
        /// Whether `@FILE` words are read as more arguments.
        from_file: bool,
    },
    /// An interpreter (python, perl, ruby, node): options before the
    /// script, read by that interpreter's own rules (`grammar/interp.rs`);
    /// the first operand is the script and every word after it is the
    /// script's, never the interpreter's.
    Interpreter(Interp),
    /// tree's own parser: short letters bundle (`-aL`), and each letter
    /// that takes a value takes the next word not yet taken, in order,
    /// never the rest of its own word (`tree -oL out 2` is `-o out -L 2`;
    /// `-L2` is `-L` and an unknown `-2`); long options exact, their value
    /// after `=` or in the next word; options and operands interleave
    /// until `--`.
    NextWordValues,
    /// No options at all: every word is text the program prints or an
    /// operand of the expression it evaluates (echo, printf, test, `[`),
    /// so no word is read as an option that could be unknown. Only for
    /// programs that neither write, run nor load anything whatever their
    /// words say.
    Verbatim,
}

/// Which interpreter's option rules a [`Grammar::Interpreter`] spec follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interp {
    /// CPython's getopt: short bundles, `-c`/`-m` end the options, a few
    /// long options matched exactly with their value in the next word.
    Python,
    /// perl's switch parser: bundles, letters with a value stuck to them
    /// (`-i.bak`, `-0777`, `-Mstrict`), `--help`/`--version` exactly.
    Perl,
    /// ruby's: bundles like perl's, long options exact with `=v` or the
    /// next word, `--enable-FEATURE`/`--disable-FEATURE`.
    Ruby,
    /// node's: every option one word, exact (no abbreviation, no short
    /// bundles), `_` read as `-` in names, `--no-` turning a boolean off.
    Node,
}

/// An interpreter's option judged by its value: when `names` is used with
/// a value `when` accepts, the use is judged as `opt` instead of its row
/// (python's `-W` imports a module only when its category names one).
#[derive(Debug, Clone, Copy)]
pub struct ByValue {
    /// The spellings, as in the option's row.
    pub names: &'static [&'static str],
    /// Whether a value makes the use this row.
    pub when: fn(&str) -> bool,
    /// The row the use is judged as.
    pub opt: Opt,
}

/// How many values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    /// None: `--all`, `-a`.
    Flag,
    /// One, required: `--file=F`, `--file F`, `-fF`, `-f F`.
    Required,
    /// One, optional, only attached: `--color=WHEN`, `-O'cmd'`.
    Optional,
    /// Two, the next two words, never attached: jq's `--arg NAME VALUE`,
    /// `--rawfile NAME FILE`. The second word is the value effects judge.
    Pair,
}

/// What an option or subcommand does beyond the program's plain job. The
/// decision reads effects, not names: two spellings of one effect are
/// judged alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Changes only what is shown or how the work is done.
    Inert,
    /// Reads a file it names; reading is what these programs do.
    ReadsFile,
    /// Talks to the network, which is the program's job (`git fetch`).
    Network,
    /// Writes a file at a path it names: asked when the path leaves the
    /// working tree, enters VCS metadata, or is a file other tools run.
    WritesFile(&'static str),
    /// Runs a program or a command line it is given: asked.
    RunsProgram(&'static str),
    /// Loads code, a plugin or options from somewhere the prompt does not
    /// show: asked.
    LoadsCode(&'static str),
    /// Sends the contents of a local file over the network: asked.
    Uploads(&'static str),
    /// Sends a local file when the value names one (curl's `-d @file`,
    /// `-F name=<file`): asked then, as [`Effect::Uploads`]; a literal
    /// value is the program's network job.
    UploadsIf(FileRef, &'static str),
    /// Sets configuration that can name programs or files: asked.
    SetsConfig(&'static str),
    /// Sets one config key from a `KEY=VALUE` value: allowed when the key
    /// is on that program's list of inert keys, asked otherwise.
    SetsConfigKey(Keys, &'static str),
    /// Works in another directory or repository, whose own config and
    /// files then apply: asked when it leaves the working tree or enters
    /// another repository inside it.
    OtherTree(&'static str),
    /// Changes what the program does with its archive or operands (tar's
    /// `-c` writes the archive, `-x` extracts; cp's `-r` copies whole
    /// trees): nothing on its own, read by [`Operands`].
    Mode(Mode),
    /// Names a local file, or with a `host:` before any `/` a file on
    /// another host, reached by running a remote shell (tar's `-f
    /// host:a.tar` runs rsh): asked when remote.
    FileOrRemote(&'static str),
    /// Loads the code its value names, unless [`CodeIn`] says the value
    /// names none (pytest's `-p no:NAME` turns a plugin off).
    LoadsCodeIf(CodeIn, &'static str),
    /// Runs the program its value names when the value is a path (has a
    /// `/`: `uv --python ./python`); a bare name or a version (`3.12`) is
    /// looked up by the program itself, its job: asked only as a path.
    RunsProgramAtPath(&'static str),
    /// A format string that may name files it writes: curl's `-w
    /// %output{FILE}` (and `%output{>>FILE}`, which appends) sends the rest
    /// of the output there (curl 8.3+). Each named file is judged as
    /// [`Effect::WritesFile`]; the rest of the format is inert, and an
    /// `@file` it reads is a read. Found by the H25 sweep (`curl -w
    /// '%output{~/.bashrc}…' URL`).
    FormatWrites(&'static str),
    /// Reads the names of the files it reads from a file or stdin (`sort
    /// --files0-from`, `tar -T`, `rsync --files-from`): neither the prompt
    /// nor the check of protected paths sees them, so a list naming the
    /// approvals file or a key hands its contents over unseen. Asked (as
    /// the family's `loads-code`: what it loads is its list of inputs).
    ReadsNames(&'static str),
    /// Names a package to install or run, spelled as [`Sources`] reads
    /// it (pip's `-e SPEC`): a name from the configured index is the
    /// program's job; a URL, a VCS or a path outside the working tree is
    /// code from elsewhere: asked.
    Installs(Sources, &'static str),
    /// A container mount `SOURCE:TARGET[:OPTIONS]` (docker's `-v`): a
    /// source that is a host path (has a `/`, or starts with `.` or `~`) is judged
    /// as [`Effect::OtherTree`]; a volume name or a bare container path
    /// is the program's job.
    Mounts(&'static str),
    /// Asked when the value is one of these words exactly (docker's
    /// `--network host` shares the host's network namespace, `--network
    /// mynet` does not).
    AskedWhen(&'static [&'static str], &'static str),
    /// A report spelled `TYPE[:DEST]` (pytest-cov's `--cov-report
    /// html:out`): DEST, unless it is one of these modifier words
    /// (`term-missing:skip-covered`), is a file or directory written,
    /// judged as [`Effect::WritesFile`]; a type alone prints, or writes its
    /// default file in the working directory, the program's job.
    ReportDest(&'static [&'static str], &'static str),
    /// A list of another program's flags (go's `-ldflags '-s -w'`):
    /// allowed when every word is one of the [`KnownWords`], asked as
    /// [`Effect::SetsConfig`] otherwise, and also when the list has a
    /// quote (the program splits quoted words its own way) or starts
    /// with a word that is no flag. go's `PATTERN=FLAGS` (`all=-N -l`) is
    /// read as its flags where [`KnownWords::package_pattern`] says so:
    /// the pattern only chooses the packages.
    SetsConfigUnless(KnownWords, &'static str),
    /// The subcommand only prints, instead of doing its job (`cargo install
    /// --list` lists what is installed, `rustup doc --path` prints where
    /// the docs are): the subcommand's own effect is not judged, every
    /// other option's still is. The reason says what it prints.
    PrintsInstead(&'static str),
    /// Prints the environment, or part of it the prompt cannot name (`make
    /// -p` prints every variable as a make variable): the host's tokens
    /// and keys would go back to the agent. Always asked, as
    /// `secrets.environment`, like `env` itself (docs/security.md row 25).
    PrintsEnv(&'static str),
    /// Hands a variable of the host's environment to a program the agent
    /// controls (docker's `-e NAME`, with no `=value`, copies the host's
    /// NAME into the container): asked as `secrets.environment` unless
    /// the variable is known to hold no secret; `NAME=value` is a literal.
    CopiesEnv(&'static str),
    /// Reads code, settings or lines it may print from the file its value
    /// names (cargo's `--target x.json` names a linker, docker's
    /// `--env-file`, rsync's `--files-from`): the project's own file inside
    /// the working tree is the program's job; one outside it (lexically or
    /// through a link) is asked. A name with no `/` (a target triple) is
    /// read inside the tree, so it stays allowed.
    LoadsFromOutside(&'static str),
    /// An rsync filter rule (`-f`, `--filter`): a merge rule (`merge FILE`,
    /// `. FILE`, `dir-merge FILE`, `: FILE`, with modifiers) reads more
    /// rules from FILE, and rsync prints a line it cannot parse, so FILE
    /// is judged as [`Effect::LoadsFromOutside`]; any other rule is inert.
    FilterRule(&'static str),
}

/// The words of a flag list that are known to be inert, for
/// [`Effect::SetsConfigUnless`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownWords {
    /// Flags that stand alone (`-s`, `-w`).
    pub flags: &'static [&'static str],
    /// Flags whose value is the next word or follows a `=` (`-X
    /// main.version=1.0`, `-X=main.version=1.0`).
    pub with_value: &'static [&'static str],
    /// Whether go's `PATTERN=FLAGS` form (`all=-N -l`) is read as its
    /// flags; when false, a leading pattern is asked (`-ldflags`, whose
    /// corpus line from H28 keeps `all=-s` asked).
    pub package_pattern: bool,
}

/// How a package manager reads a package it is told to install or run,
/// which decides whether it comes from the configured index (the
/// program's job) or from somewhere the prompt names (a URL, a VCS, a
/// path outside the working tree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sources {
    /// npm, pnpm, yarn: `name`, `@scope/name`, `name@range` are the
    /// registry's; anything with a `:` (`git+https:`, `github:`,
    /// `file:`), an `owner/repo` GitHub shorthand, or a path (`./x`,
    /// `../x`, `/x`, `~/x`) outside the tree is not.
    Npm,
    /// pip, uv: a requirement name (with extras, versions, markers) is the
    /// index's; a URL (`://`, `git+`, `name @ url`) or a path (with a `/`
    /// or starting with `.`) outside the tree is not.
    Pip,
    /// go: a package path is the module's own; `path@version` downloads
    /// a module and runs it; a relative path outside the tree is another
    /// module.
    Go,
}

/// A mode an option switches on, which decides how the program's archive
/// and operands are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Rewrites its operand files in place (sed's `-i`): judged by the
    /// `sed.in-place` guard file by file, and a write for
    /// `cwd_config::writes_moved_out` after a `cd` out of the tree.
    EditsInPlace,
    /// The archive named by a [`Effect::FileOrRemote`] option is written
    /// (tar's `-c`, `-r`, `-u`, `-A`, `--delete`).
    WritesArchive,
    /// Members are extracted (tar's `-x`).
    Extracts,
    /// Lists, tests or prints members; nothing is written (unzip's `-l`,
    /// `-t`, `-p`).
    WritesNothing,
    /// Copies directories whole, writing names the prompt does not show
    /// (`cp -r`, `rsync -a`, `scp -r`).
    Recursive,
    /// Makes links to the sources instead of copies (`cp -l`, `cp -s`).
    Links,
    /// The links are symbolic (`ln -s`, `cp -s`): a relative source is
    /// resolved from the link's directory, not the working directory
    /// (unless `--relative` says it is given from here).
    Symbolic,
}

/// What a program does with its operands beyond reading them. Writes are
/// judged as [`Effect::WritesFile`] values are; names an archive or a
/// recursive copy chooses are asked where they could replace a
/// repository's metadata or the working directory's own build files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    /// Files to read, patterns, URLs: the program's job.
    Plain,
    /// Every operand is a path it writes, creates or removes (touch,
    /// mkdir, rm, tee).
    Written(&'static str),
    /// Every operand is a path whose mode, owner or context it changes
    /// (chmod, chown): judged as a write, except that a file other tools
    /// run (`Makefile`, `*.sh`) is not at risk from its mode changing;
    /// one outside the tree or in a tool's metadata (`chmod +x
    /// .git/hooks/pre-commit` turns a hook on) still is.
    Attributes(&'static str),
    /// The operand at this position (from 0) is a path it writes (`git
    /// clone URL DIR`, `zip ARCHIVE FILES`).
    WrittenAt(usize, &'static str),
    /// The operand at this position (from 0) is a directory it creates and
    /// fills with names the prompt does not show (`git clone URL DIR`);
    /// without it, the directory is named after the first operand, as git
    /// names a clone. Judged as a write of that directory; later parts of
    /// the same command that reach into it are asked
    /// (`policy::filled_trees`).
    Fills(usize, &'static str),
    /// With two or more operands the last is where the others go: written
    /// as it is, or inside it when it is a directory (cp, mv, scp, rsync).
    Destination(Copying),
    /// Every operand is `KEY=VALUE` (dd): the value of a key in `written`
    /// is a path it writes; an operand whose key is not in `keys`, or that
    /// has no `=`, is one the spec does not know, and is asked.
    Assignments {
        /// Every key the program takes.
        keys: &'static [&'static str],
        /// The keys whose value is a file it writes.
        written: &'static [&'static str],
    },
    /// An operand `NAME=value` (NAME of letters, digits and `_`, at the
    /// start of the word or of any line in it, as rake's `/^(\w+)=(.*)$/m`)
    /// sets an environment variable for the program and everything it
    /// runs: judged as a `NAME=value` prefix of the command would be (inert
    /// variables are fine, any other is asked); other operands are plain.
    SetsEnv(&'static str),
    /// Every operand names an environment variable the program prints
    /// (`printenv HOME`); with none it prints them all (`env`, `printenv`).
    /// The environment holds tokens and keys (`GITHUB_TOKEN`,
    /// `AWS_SECRET_ACCESS_KEY`) whose values would go back to the agent, as
    /// a credential file would: printing it all, or a name not known to
    /// hold no secret ([`crate::policy::env::holds_no_secret`]), is asked.
    PrintsEnv,
    /// Every operand is a value the program saves as a setting (`rustup
    /// default stable`): asked as setting config; with no operand it only
    /// prints the setting (`rustup default`).
    Saved(&'static str),
    /// An operand that does not start with `prefix` changes the system
    /// (`date 0101…` sets the clock; `date +%s` only prints): asked.
    ChangesSystemUnless(&'static str, &'static str),
    /// The first operand is a jq program (the filter), the others are files
    /// it reads: the program is asked when it reads beyond its input, the
    /// environment (`env`, `$ENV`) or modules and data files from disk
    /// (`import`, `include`: `import "/home/u/.clawdbot/exec-approvals" as
    /// $t` reads the approvals file, a path no operand shows).
    JqProgram,
    /// Every operand is a URL the program saves under a name taken from it
    /// (wget: the last segment of the URL's path) in the working directory
    /// or the directory one of `dir_options` names, unless one of
    /// `output_options` names the file (judged as an option value then);
    /// with one of `tree_options` (`-x`, `-r`) it saves the URL's whole
    /// path. The name is judged as a written path: `wget URL/Makefile`
    /// replaces the working directory's build file.
    Downloads {
        /// Options naming the directory the files land in (`-P`).
        dir_options: &'static [&'static str],
        /// Options naming the output file itself (`-O`).
        output_options: &'static [&'static str],
        /// Options that keep the URL's directories (`-x`, `-r`, `-m`).
        tree_options: &'static [&'static str],
    },
    /// Every operand is a package to install or run, judged as
    /// [`Effect::Installs`] judges an option's value.
    Installs(Sources, &'static str),
    /// Every operand is a directory the program works in or sends whole
    /// (`docker build CONTEXT`, `go work use DIR`): judged as
    /// [`Effect::OtherTree`] judges an option's value.
    Dirs(&'static str),
    /// An archive program: extracts into the working directory (or the
    /// directory one of `dir_options` names) when `extracts_by_default` or
    /// [`Mode::Extracts`], unless [`Mode::WritesNothing`].
    Archive {
        /// unzip extracts unless told to list; tar only with `-x`.
        extracts_by_default: bool,
        /// The options that name the extraction directory (`-C`, `-d`).
        dir_options: &'static [&'static str],
    },
}

/// How a copying program names what it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copying {
    /// Why the destination matters, shown in the reason.
    pub why: &'static str,
    /// A `host:path` operand is on another host (scp, rsync), not a local
    /// path with a colon in it (cp).
    pub remote: bool,
    /// A source ending in `/` copies its contents, not itself (rsync).
    pub trailing_slash_is_contents: bool,
    /// Moves directories whole without being told to (mv), as
    /// [`Mode::Recursive`] does for the others.
    pub recursive: bool,
    /// Makes links to the sources instead of copies (ln, link), as
    /// [`Mode::Links`] does for the others: a link to a file outside the
    /// working tree is a path inside it through which later writes reach
    /// that file, so it is judged as a write there.
    pub links: bool,
}

/// Which values of a [`Effect::LoadsCodeIf`] option name code to load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeIn {
    /// A plugin or module name, unless it is `no:NAME`, which turns the
    /// plugin NAME off (pytest's `-p`).
    PluginUnlessNo,
    /// A warning filter `action:message:category:module:lineno` whose
    /// category has a module path, which the warnings machinery imports
    /// to find the class (python's and pytest's `-W`).
    WarningCategory,
}

impl CodeIn {
    /// Whether `value` names code to load.
    pub fn loads(self, value: &str) -> bool {
        match self {
            CodeIn::PluginUnlessNo => !value.starts_with("no:"),
            CodeIn::WarningCategory => value.split(':').nth(2).is_some_and(|c| c.contains('.')),
        }
    }
}

/// How a value names a local file to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileRef {
    /// The value starts with `@` (`-d @file`, `-H @file`, `@-` for stdin).
    AtStart,
    /// An `@` or `<` anywhere (`--data-urlencode name@file`, `-F f=<file`).
    AtOrLtAnywhere,
}

/// Whose config keys a [`Effect::SetsConfigKey`] sets, which picks the list
/// of inert keys that judges them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// git's (`guards::scripts::git::INERT_KEYS`): the key is the text
    /// before `=`.
    Git,
    /// ssh's `-o` config lines (`families::ssh::INERT_KEYS`): the key is
    /// the first word, ended by whitespace or `=`, compared without case.
    Ssh,
}

/// One option: its spellings, arity and effect.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Every spelling: `-x` letters and `--long` names. A `-#` spelling
    /// stands for any digit (`head -5`, `grep -3`).
    pub names: &'static [&'static str],
    /// Whether and how it takes a value.
    pub arity: Arity,
    /// What it does.
    pub effect: Effect,
}

/// An inert option without a value.
pub const fn flag(names: &'static [&'static str]) -> Opt {
    Opt {
        names,
        arity: Arity::Flag,
        effect: Effect::Inert,
    }
}

/// An inert option with a required value.
pub const fn value(names: &'static [&'static str]) -> Opt {
    Opt {
        names,
        arity: Arity::Required,
        effect: Effect::Inert,
    }
}

/// An inert long option taking the next two words.
pub const fn pair(names: &'static [&'static str]) -> Opt {
    Opt {
        names,
        arity: Arity::Pair,
        effect: Effect::Inert,
    }
}

/// An inert option with an optional, attached value.
pub const fn optional(names: &'static [&'static str]) -> Opt {
    Opt {
        names,
        arity: Arity::Optional,
        effect: Effect::Inert,
    }
}

impl Opt {
    /// Whether `other` is this row: the same spellings. Compared by value,
    /// since a `const` table may be copied to several addresses (another
    /// crate's copy of a spec is a different address, the same row).
    pub fn same_row(&self, other: &Opt) -> bool {
        std::ptr::eq(self, other) || self.names == other.names
    }

    /// The same option with `effect`.
    pub const fn does(self, effect: Effect) -> Opt {
        Opt { effect, ..self }
    }
}

/// One subcommand: its names and its own options.
#[derive(Debug, Clone, Copy)]
pub struct Sub {
    /// The name and its aliases.
    pub names: &'static [&'static str],
    /// What the subcommand itself does beyond the program's job.
    pub effect: Effect,
    /// Its options (git: parse-options; the spec's global options are not
    /// accepted after the subcommand).
    pub opts: &'static [&'static [Opt]],
    /// What it does with its operands.
    pub operands: Operands,
    /// Its own subcommands (`gh pr view`, `rustup toolchain install`):
    /// when not empty, the first operand after it names one, an unknown one
    /// is asked, and its options are read by that one's tables (which list
    /// the parent's options the program also takes there).
    pub subs: &'static [Sub],
    /// What the words after a `--` do when it hands them to another
    /// program (`gh repo clone R -- --upload-pack=x` passes them to `git
    /// clone` as options): judged whenever such words are given.
    pub passes: Effect,
    /// Spellings of options whose effect this subcommand does not have:
    /// there they only choose where it looks (npm's `-g`, which installs
    /// into the global prefix, only lists it for `npm ls -g`). Not judged
    /// under this subcommand.
    pub looks_only: &'static [&'static str],
    /// Whether its options end at its first operand, as cobra's
    /// `SetInterspersed(false)` makes them (`docker run IMAGE CMD -x`: `-x`
    /// is the container command's, not docker's). Otherwise they may
    /// follow operands, as the grammar says.
    pub operand_ends_options: bool,
}

/// A subcommand whose options are the concatenation of `opts` tables.
pub const fn sub(names: &'static [&'static str], opts: &'static [&'static [Opt]]) -> Sub {
    Sub {
        names,
        effect: Effect::Inert,
        opts,
        operands: Operands::Plain,
        subs: &[],
        passes: Effect::Inert,
        looks_only: &[],
        operand_ends_options: false,
    }
}

/// A subcommand group (`gh pr`): options read before its subcommand, and
/// its subcommands.
pub const fn group(
    names: &'static [&'static str],
    opts: &'static [&'static [Opt]],
    subs: &'static [Sub],
) -> Sub {
    Sub {
        names,
        effect: Effect::Inert,
        opts,
        operands: Operands::Plain,
        subs,
        passes: Effect::Inert,
        looks_only: &[],
        operand_ends_options: false,
    }
}

impl Sub {
    /// The same subcommand with `effect`.
    pub const fn does(self, effect: Effect) -> Sub {
        Sub { effect, ..self }
    }

    /// The same subcommand with `operands`.
    pub const fn operands(self, operands: Operands) -> Sub {
        Sub { operands, ..self }
    }

    /// The same subcommand, where the options spelled `names` only choose
    /// where it looks.
    pub const fn looks_only(self, names: &'static [&'static str]) -> Sub {
        Sub {
            looks_only: names,
            ..self
        }
    }

    /// The same subcommand, handing the words after `--` on with `effect`.
    pub const fn passes(self, passes: Effect) -> Sub {
        Sub { passes, ..self }
    }

    /// The same subcommand, whose options end at its first operand.
    pub const fn operand_ends_options(self) -> Sub {
        Sub {
            operand_ends_options: true,
            ..self
        }
    }
}

/// Guard ids of one family, built by [`ids!`] so every id is a literal
/// `family.effect`.
#[derive(Debug, Clone, Copy)]
pub struct Ids {
    /// An option the spec does not know.
    pub unknown_option: &'static str,
    /// A subcommand the spec does not know.
    pub unknown_subcommand: &'static str,
    /// [`Effect::WritesFile`].
    pub writes_file: &'static str,
    /// [`Effect::RunsProgram`].
    pub runs_program: &'static str,
    /// [`Effect::LoadsCode`].
    pub loads_code: &'static str,
    /// [`Effect::Uploads`].
    pub uploads: &'static str,
    /// [`Effect::SetsConfig`].
    pub sets_config: &'static str,
    /// [`Effect::OtherTree`].
    pub other_tree: &'static str,
}

/// The [`Ids`] of a family, from its name literal.
macro_rules! ids {
    ($family:literal) => {
        $crate::policy::specs::types::Ids {
            unknown_option: concat!($family, ".unknown-option"),
            unknown_subcommand: concat!($family, ".unknown-subcommand"),
            writes_file: concat!($family, ".writes-file"),
            runs_program: concat!($family, ".runs-program"),
            loads_code: concat!($family, ".loads-code"),
            uploads: concat!($family, ".uploads"),
            sets_config: concat!($family, ".sets-config"),
            other_tree: concat!($family, ".other-tree"),
        }
    };
}
pub(crate) use ids;

/// One program family's spec.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The family name, the prefix of its guard ids.
    pub family: &'static str,
    /// Executable names of the family.
    pub names: &'static [&'static str],
    /// The guard ids, `family.*`.
    pub ids: Ids,
    /// The parser family.
    pub grammar: Grammar,
    /// Options before a subcommand, or every option when there are no
    /// subcommands; the concatenation of these tables.
    pub opts: &'static [&'static [Opt]],
    /// Subcommands; empty when the program has none. When not empty, a
    /// missing subcommand is fine and an unknown one is asked.
    pub subs: &'static [Sub],
    /// The package the program comes from and the version its option list
    /// was checked against, for the conformance tests' messages.
    pub checked_with: &'static str,
    /// Environment variables the program reads that load code, options or
    /// config, or move where it finds them: the environment tables
    /// (`policy/env.rs`) read these as well as their own.
    pub env: &'static [EnvVar],
    /// What it does with its operands when it has no subcommands.
    pub operands: Operands,
}

/// What an environment variable a program reads does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvKind {
    /// Loads code or options: stripped from the environment children
    /// inherit and refused as a request's override.
    Blocked,
    /// Moves a home or config location: kept when inherited (the user's
    /// own setup), refused as a request's override.
    Location,
}

/// One environment variable a program reads.
#[derive(Debug, Clone, Copy)]
pub struct EnvVar {
    /// The upper-case name, or a prefix ending in `*` (`PIP_*`).
    pub name: &'static str,
    /// What it does.
    pub kind: EnvKind,
    /// Why, shown when it is stripped or refused.
    pub why: &'static str,
}

/// A variable that loads code or options.
pub const fn loads(name: &'static str, why: &'static str) -> EnvVar {
    EnvVar {
        name,
        kind: EnvKind::Blocked,
        why,
    }
}

/// A variable that moves a home or config location.
pub const fn location(name: &'static str, why: &'static str) -> EnvVar {
    EnvVar {
        name,
        kind: EnvKind::Location,
        why,
    }
}
