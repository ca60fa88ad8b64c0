//! The built-in safe-bin profiles: for each stdin filter, every flag GNU
//! coreutils, GNU grep or jq 1.6/1.7 knows, sorted into allowed, value-taking
//! and denied.
//!
//! Listing every real long option matters for abbreviation: a prefix is
//! resolved against this list, so an option missing here could make us resolve
//! `--de` to an allowed flag while the binary runs a different one. Options
//! with an *optional* value (`uniq --group[=METHOD]`, `grep --color[=WHEN]`,
//! `sort --check[=quiet]`) are listed as no-value flags, so `--flag=value`
//! is refused: fail closed. Denied flags carry the reason they are denied.
//! Upholds DESIGN.md section 6 (Safe bins) and invariant 3.

/// A flag a profile refuses, with why.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Denied {
    /// The spelling, `-x` or `--long`.
    pub flag: &'static str,
    /// Why the flag breaks the stdin-only promise.
    pub reason: &'static str,
}

/// One built-in profile as const data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Builtin {
    /// The executable's basename.
    pub bin: &'static str,
    /// Fewest positional operands.
    pub min_positional: usize,
    /// Most positional operands.
    pub max_positional: usize,
    /// Flags that take no value.
    pub flags: &'static [&'static str],
    /// Flags that take a value (attached, after `=`, or the next token).
    pub value_flags: &'static [&'static str],
    /// Flags that are refused.
    pub denied: &'static [Denied],
    /// Why this bin is a filter at all, and what its positionals are.
    pub reason: &'static str,
}

const fn d(flag: &'static str, reason: &'static str) -> Denied {
    Denied { flag, reason }
}

const READS_FILE_LIST: &str = "reads the names of files to open from a file";
const FOLLOW: &str = "follows a file forever instead of reading stdin";

/// Built-in profiles, sorted by bin.
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        bin: "cut",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--complement",
            "--help",
            "--only-delimited",
            "--version",
            "--zero-terminated",
            "-n",
            "-s",
            "-z",
        ],
        value_flags: &[
            "--bytes",
            "--characters",
            "--delimiter",
            "--fields",
            "--output-delimiter",
            "-b",
            "-c",
            "-d",
            "-f",
        ],
        denied: &[],
        reason: "selects columns of stdin; any operand would be a file",
    },
    Builtin {
        bin: "grep",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--basic-regexp",
            "--binary",
            "--byte-offset",
            "--color",
            "--colour",
            "--count",
            "--extended-regexp",
            "--files-with-matches",
            "--files-without-match",
            "--fixed-strings",
            "--help",
            "--ignore-case",
            "--initial-tab",
            "--invert-match",
            "--line-buffered",
            "--line-number",
            "--line-regexp",
            "--no-filename",
            "--no-group-separator",
            "--no-ignore-case",
            "--no-messages",
            "--null",
            "--null-data",
            "--only-matching",
            "--perl-regexp",
            "--quiet",
            "--silent",
            "--text",
            "--version",
            "--with-filename",
            "--word-regexp",
            "-E",
            "-F",
            "-G",
            "-H",
            "-I",
            "-L",
            "-P",
            "-T",
            "-U",
            "-V",
            "-Z",
            "-a",
            "-b",
            "-c",
            "-h",
            "-i",
            "-l",
            "-n",
            "-o",
            "-q",
            "-s",
            "-v",
            "-w",
            "-x",
            "-y",
            "-z",
        ],
        value_flags: &[
            "--after-context",
            "--before-context",
            "--binary-files",
            "--context",
            "--devices",
            "--group-separator",
            "--label",
            "--max-count",
            "--regexp",
            "-A",
            "-B",
            "-C",
            "-D",
            "-e",
            "-m",
        ],
        denied: &[
            d(
                "--dereference-recursive",
                "reads every file under a directory",
            ),
            d("--directories", "can make grep recurse into directories"),
            d("--exclude", "only meaningful when grep reads files"),
            d("--exclude-dir", "only meaningful when grep reads files"),
            d("--exclude-from", "reads a file of patterns"),
            d("--file", "reads patterns from a file"),
            d("--include", "only meaningful when grep reads files"),
            d("--recursive", "reads every file under a directory"),
            d("-R", "reads every file under a directory"),
            d("-d", "can make grep recurse into directories"),
            d("-f", "reads patterns from a file"),
            d("-r", "reads every file under a directory"),
        ],
        reason: "filters stdin; the pattern is the first operand, or comes through -e \
                 (then every operand is a file), so no other operand may be given",
    },
    Builtin {
        bin: "head",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--help",
            "--quiet",
            "--silent",
            "--verbose",
            "--version",
            "--zero-terminated",
            "-q",
            "-v",
            "-z",
        ],
        value_flags: &["--bytes", "--lines", "-c", "-n"],
        denied: &[],
        reason: "prints the start of stdin; any operand would be a file",
    },
    Builtin {
        bin: "jq",
        min_positional: 0,
        max_positional: 1,
        flags: &[
            "--ascii-output",
            "--color-output",
            "--compact-output",
            "--exit-status",
            "--help",
            "--join-output",
            "--monochrome-output",
            "--null-input",
            "--raw-input",
            "--raw-output",
            "--raw-output0",
            "--seq",
            "--slurp",
            "--sort-keys",
            "--stream",
            "--stream-errors",
            "--tab",
            "--unbuffered",
            "--version",
            "-C",
            "-M",
            "-R",
            "-S",
            "-V",
            "-a",
            "-c",
            "-e",
            "-h",
            "-j",
            "-n",
            "-r",
            "-s",
        ],
        value_flags: &["--arg", "--argjson", "--indent"],
        denied: &[
            d("--argfile", "reads a file into a variable"),
            d("--args", "turns operands into strings the filter can read"),
            d("--from-file", "reads the filter from a file"),
            d(
                "--jsonargs",
                "turns operands into values the filter can read",
            ),
            d("--library-path", "loads jq modules from a directory"),
            d("--rawfile", "reads a file into a variable"),
            d("--run-tests", "reads and runs a test file"),
            d("--slurpfile", "reads a file into a variable"),
            d("-L", "loads jq modules from a directory"),
            d("-f", "reads the filter from a file"),
        ],
        reason: "filters JSON on stdin; the one operand is the filter, checked by the jq gate",
    },
    Builtin {
        bin: "sort",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--check",
            "--debug",
            "--dictionary-order",
            "--general-numeric-sort",
            "--help",
            "--human-numeric-sort",
            "--ignore-case",
            "--ignore-leading-blanks",
            "--ignore-nonprinting",
            "--merge",
            "--month-sort",
            "--numeric-sort",
            "--random-sort",
            "--reverse",
            "--stable",
            "--unique",
            "--version",
            "--version-sort",
            "--zero-terminated",
            "-C",
            "-M",
            "-R",
            "-V",
            "-b",
            "-c",
            "-d",
            "-f",
            "-g",
            "-h",
            "-i",
            "-m",
            "-n",
            "-r",
            "-s",
            "-u",
            "-z",
        ],
        value_flags: &[
            "--batch-size",
            "--buffer-size",
            "--field-separator",
            "--key",
            "--parallel",
            "--sort",
            "-S",
            "-k",
            "-t",
        ],
        denied: &[
            d(
                "--compress-program",
                "runs a program of the caller's choosing",
            ),
            d("--files0-from", READS_FILE_LIST),
            d("--output", "writes the result to a file"),
            d("--random-source", "reads a file"),
            d(
                "--temporary-directory",
                "writes temporary files to a chosen directory",
            ),
            d("-T", "writes temporary files to a chosen directory"),
            d("-o", "writes the result to a file"),
        ],
        reason: "sorts stdin; any operand would be a file",
    },
    Builtin {
        bin: "tail",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--help",
            "--quiet",
            "--silent",
            "--verbose",
            "--version",
            "--zero-terminated",
            "-q",
            "-v",
            "-z",
        ],
        value_flags: &[
            "--bytes",
            "--lines",
            "--max-unchanged-stats",
            "--pid",
            "--sleep-interval",
            "-c",
            "-n",
            "-s",
        ],
        denied: &[
            d("--follow", FOLLOW),
            d("--retry", "keeps reopening a file by name"),
            d("-F", FOLLOW),
            d("-f", FOLLOW),
        ],
        reason: "prints the end of stdin; any operand would be a file",
    },
    Builtin {
        bin: "tr",
        min_positional: 1,
        max_positional: 2,
        flags: &[
            "--complement",
            "--delete",
            "--help",
            "--squeeze-repeats",
            "--truncate-set1",
            "--version",
            "-C",
            "-c",
            "-d",
            "-s",
            "-t",
        ],
        value_flags: &[],
        denied: &[],
        reason: "translates stdin; its operands are character sets (`[:upper:]`, `a-z`), \
                 never files",
    },
    Builtin {
        bin: "uniq",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--all-repeated",
            "--count",
            "--group",
            "--help",
            "--ignore-case",
            "--repeated",
            "--unique",
            "--version",
            "--zero-terminated",
            "-D",
            "-c",
            "-d",
            "-i",
            "-u",
            "-z",
        ],
        value_flags: &[
            "--check-chars",
            "--skip-chars",
            "--skip-fields",
            "-f",
            "-s",
            "-w",
        ],
        denied: &[],
        reason: "folds repeated lines of stdin; an operand would be an input or output file",
    },
    Builtin {
        bin: "wc",
        min_positional: 0,
        max_positional: 0,
        flags: &[
            "--bytes",
            "--chars",
            "--help",
            "--lines",
            "--max-line-length",
            "--version",
            "--words",
            "-L",
            "-c",
            "-l",
            "-m",
            "-w",
        ],
        value_flags: &["--total"],
        denied: &[d("--files0-from", READS_FILE_LIST)],
        reason: "counts stdin; any operand would be a file",
    },
];

/// Bins whose GNU parser accepts `-NUM` as a count, with why it is harmless.
pub(crate) const NUMERIC_SHORTHAND: &[(&str, &str)] = &[
    ("grep", "`-NUM` is `--context=NUM`"),
    ("head", "`-NUM` is `--lines=NUM`"),
    ("tail", "`-NUM` is `--lines=NUM`"),
    ("uniq", "`-NUM` is `--skip-fields=NUM`"),
];

/// Bins whose first operand is a pattern, not a file, unless one of the
/// listed flags (after abbreviation) gave the pattern, with why. The
/// pattern's regex characters are not globs: our executor runs argv without
/// a shell, and the analysis already refused unquoted globs.
pub(crate) const PATTERN_OPERAND: &[(&str, &[&str], &str)] = &[(
    "grep",
    &["--file", "--regexp", "-e", "-f"],
    "GNU grep takes its first operand as the pattern unless -e/--regexp or \
     -f/--file gave one; then every operand is a file",
)];

/// Value flags whose value is a pattern (regex), per bin, with why.
pub(crate) const PATTERN_VALUE_FLAGS: &[(&str, &str, &str)] = &[
    ("grep", "--regexp", "the value is a regular expression"),
    ("grep", "-e", "the value is a regular expression"),
];

/// Bins whose operands are character sets (`[:upper:]`, `a-z`), never
/// files, with why.
pub(crate) const SET_OPERANDS: &[(&str, &str)] = &[(
    "tr",
    "tr reads stdin only; its operands are sets such as `[:upper:]` and `a-z`",
)];

/// Flags that consume two tokens, per bin, with why.
pub(crate) const TWO_VALUE_FLAGS: &[(&str, &str, &str)] = &[
    ("jq", "--arg", "`--arg NAME VALUE` binds a string variable"),
    (
        "jq",
        "--argjson",
        "`--argjson NAME JSON` binds a JSON variable",
    ),
];

/// The built-in row for `bin`, if any.
pub(crate) fn builtin(bin: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.bin == bin)
}
