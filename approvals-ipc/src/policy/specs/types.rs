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
    /// files then apply: asked when it leaves the working tree.
    OtherTree(&'static str),
    /// Names a local file, or with a `host:` before any `/` a file on
    /// another host, reached by running a remote shell (tar's `-f
    /// host:a.tar` runs rsh): asked when remote.
    FileOrRemote(&'static str),
    /// Runs the program its value names when the value is a path (has a
    /// `/`: `uv --python ./python`); a bare name or a version (`3.12`) is
    /// looked up by the program itself, its job: asked only as a path.
    RunsProgramAtPath(&'static str),
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
    /// Its own subcommands (`gh pr view`, `rustup toolchain install`):
    /// when not empty, the first operand after it names one, an unknown one
    /// is asked, and its options are read by that one's tables (which list
    /// the parent's options the program also takes there).
    pub subs: &'static [Sub],
    /// What the words after a `--` do when it hands them to another
    /// program (`gh repo clone R -- --upload-pack=x` passes them to `git
    /// clone` as options): judged whenever such words are given.
    pub passes: Effect,
}

/// A subcommand whose options are the concatenation of `opts` tables.
pub const fn sub(names: &'static [&'static str], opts: &'static [&'static [Opt]]) -> Sub {
    Sub {
        names,
        effect: Effect::Inert,
        opts,
        subs: &[],
        passes: Effect::Inert,
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
        subs,
        passes: Effect::Inert,
    }
}

impl Sub {
    /// The same subcommand with `effect`.
    pub const fn does(self, effect: Effect) -> Sub {
        Sub { effect, ..self }
    }

    /// The same subcommand, handing the words after `--` on with `effect`.
    pub const fn passes(self, passes: Effect) -> Sub {
        Sub { passes, ..self }
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
