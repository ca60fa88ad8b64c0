//! Program specs against the installed programs (DESIGN.md section 6,
//! Program specs).
//!
//! For every spec whose grammar is `getopt_long` (`Grammar::Getopt`, and
//! `Grammar::Tar`, which is argp) and whose first name is installed:
//!
//! 1. **Option list.** `PROG --help` (mawk: `mawk -W usage`), with
//!    `LC_ALL=C` and `COLUMNS=200`, is read by the rules
//!    `scripts/spec-skeleton` follows too, which cover the GNU help layouts
//!    generically: several short spellings before one long (`-E, -r,
//!    --regexp-extended`), a gap after the comma (wget's `-V,  --version`),
//!    gawk's tab-separated columns (`-f progfile\t\t--file=progfile`),
//!    `[=ARG]` optional, `=ARG` required, `-xARG` / `-x ARG` / `-x [ARG]`
//!    after a short, an upper-case ` ARG` after a long (diff's `--label
//!    LABEL`), a long shown bare and with a value (sort's `--check,
//!    --check=quiet`: optional), `-NUM` (the `-#` row), diff's
//!    `--GTYPE-group-format` templates, and wget's `-nv` (the letter `n`
//!    with a value). Any difference fails, all listed at once: a long option
//!    of the help the spec lacks, a long option of the spec the help lacks
//!    (unless [`NOT_IN_HELP`] says why the program takes it anyway, which
//!    the probes below then check), a long option whose arity differs
//!    (unless [`ARITY`] says why), a short letter of the help the spec
//!    lacks.
//!
//! 2. **Abbreviations.** For every long spelling of the spec, the shortest
//!    prefix our parser (`grammar::read`) resolves to that same row is given
//!    to the real program, in an empty temporary directory as the working
//!    directory, stdin from `/dev/null`, under `timeout`, in a form that
//!    makes `getopt_long` stop with a message naming the option it resolved,
//!    so the program never does its work:
//!    - a flag as `--PREFIX=x`: "option '--NAME' doesn't allow an argument"
//!      (wget: "--NAME: Invalid boolean 'x'");
//!    - a required value as a bare `--PREFIX` at the end of argv: "option
//!      '--NAME' requires an argument";
//!    - an optional value as `--PREFIX --help` (no value, so the program
//!      cannot refuse one): getopt cannot be made to name it, so it must not
//!      be refused as ambiguous or unrecognized, and the run must end in the
//!      help (exit 0) or name the option.
//!
//!    gawk prints its own messages, naming the short letter (`option
//!    requires an argument -- e`) and printing only the usage for an
//!    ambiguous or unknown option: a message naming a short letter of the
//!    row counts as naming the row. The probe fails when the program calls
//!    the prefix ambiguous or unrecognized, or names another option.
//!
//! 3. **Short values.** Every short letter the spec says takes a value is
//!    given alone (`PROG -x`): the program must say it requires an argument.
//!
//! 4. **Permutation.** `PROG x --version` must print the version exactly
//!    when the spec says options and operands interleave.
//!
//! 5. **Hidden options.** `PROG --L=x --help` for every letter `L`: when the
//!    program calls `--L` ambiguous it lists every long option starting with
//!    `L`, hidden ones included (diff's `--inhibit-hunk-merge`, wget's
//!    `--no-NAME` forms). Each must be in the spec, or our parser would read
//!    a prefix the program reads as ambiguous or as another option.
//!
//! The probes may write in their scratch directory (gawk's `--profile
//! --help` opens `awkprof.out` before printing the help), never elsewhere:
//! every value they give is `x` or nothing, and every path is relative.
//!
//! Three more tests cover the other grammars: jq's own parser (exact long
//! names, two-word options), tar's old-style first-word bundle, and tree's
//! own parser (its help's option table, bundles whose letters take the
//! following words in order), each against the installed program.
//!
//! A program that is not installed is reported (`SKIP spec conformance:
//! PROG not installed`) and listed on the last line; it is not counted as
//! checked. `.ci/run` installs every program specced here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use approvals_ipc::policy::specs::grammar::read;
use approvals_ipc::policy::specs::{Arity, Grammar, Opt, Spec, all};

/// Long options a spec knows although `--help` does not list them, with
/// why: each is checked by the abbreviation probe like any other.
const NOT_IN_HELP: &[(&str, &str, &str)] = &[
    (
        "stat",
        "--format",
        "listed as `-c  --format=FORMAT` (two spaces, no comma), which the help reader does not split; `stat --form=%s x` prints the size",
    ),
    (
        "rmdir",
        "--path",
        "an old spelling of --parents that coreutils 9.1 still takes (found by the abbreviation probe)",
    ),
    (
        "date",
        "--rfc-2822",
        "an old spelling of --rfc-email that coreutils 9.1 still takes (found by the hidden-option sweep)",
    ),
    (
        "date",
        "--rfc-822",
        "an old spelling of --rfc-email that coreutils 9.1 still takes (found by the hidden-option sweep)",
    ),
    (
        "date",
        "--uct",
        "an old spelling of --utc that coreutils 9.1 still takes (found by the abbreviation probe)",
    ),
    (
        "diff",
        "--binary",
        "an old option diffutils 3.8 takes but lists only on systems with text-mode files",
    ),
    (
        "diff",
        "--forward-ed",
        "the long form of the obsolete `-f`, still accepted",
    ),
    (
        "diff",
        "--inhibit-hunk-merge",
        "an undocumented option diffutils 3.8 accepts",
    ),
    (
        "diff",
        "--sdiff-merge-assist",
        "the internal option sdiff passes to diff",
    ),
    (
        "grep",
        "--fixed-regexp",
        "the old spelling of --fixed-strings, still accepted",
    ),
    (
        "gawk",
        "--persist",
        "gawk 5.2 accepts it to say GAWK_PERSIST_FILE replaced it",
    ),
    (
        "make",
        "--jobserver-auth",
        "the jobserver's pipe, which make passes to sub-makes in MAKEFLAGS",
    ),
    (
        "make",
        "--jobserver-fds",
        "the older name of --jobserver-auth, still accepted",
    ),
    (
        "make",
        "--sync-mutex",
        "the --output-sync mutex, which make passes to sub-makes",
    ),
    (
        "tar",
        "--program-name",
        "argp's hidden option setting the program name in messages",
    ),
    ("wget", "--cache", "the positive form of --no-cache"),
    (
        "wget",
        "--check-certificate",
        "the positive form of --no-check-certificate",
    ),
    ("wget", "--clobber", "the positive form of --no-clobber"),
    ("wget", "--cookies", "the positive form of --no-cookies"),
    (
        "wget",
        "--directories",
        "the positive form of --no-directories",
    ),
    ("wget", "--dns-cache", "the positive form of --no-dns-cache"),
    (
        "wget",
        "--dont-remove-listing",
        "an old spelling of --no-remove-listing",
    ),
    (
        "wget",
        "--host-directories",
        "the positive form of --no-host-directories",
    ),
    ("wget", "--hsts", "the positive form of --no-hsts"),
    (
        "wget",
        "--html-extension",
        "the old name of --adjust-extension",
    ),
    (
        "wget",
        "--htmlify",
        "an internal switch of HTML link conversion",
    ),
    (
        "wget",
        "--http-keep-alive",
        "the positive form of --no-http-keep-alive",
    ),
    (
        "wget",
        "--if-modified-since",
        "the positive form of --no-if-modified-since",
    ),
    ("wget", "--iri", "the positive form of --no-iri"),
    (
        "wget",
        "--keep-badhash",
        "a Metalink option wget 1.21 accepts unlisted",
    ),
    ("wget", "--netrc", "the positive form of --no-netrc"),
    ("wget", "--parent", "the positive form of --no-parent"),
    (
        "wget",
        "--passive-ftp",
        "the positive form of --no-passive-ftp",
    ),
    ("wget", "--proxy", "the positive form of --no-proxy"),
    (
        "wget",
        "--remove-listing",
        "the positive form of --no-remove-listing",
    ),
    (
        "wget",
        "--retry-on-host-error",
        "unlisted in wget 1.21.3's help, accepted",
    ),
    (
        "wget",
        "--use-server-timestamps",
        "the positive form of --no-use-server-timestamps",
    ),
    (
        "wget",
        "--warc-compression",
        "the positive form of --no-warc-compression",
    ),
    (
        "wget",
        "--warc-digests",
        "the positive form of --no-warc-digests",
    ),
    (
        "wget",
        "--warc-keep-log",
        "the positive form of --no-warc-keep-log",
    ),
    ("wget", "--dot-style", "an old option wget still accepts"),
    (
        "wget",
        "--egd-file",
        "an entropy-source option wget still accepts",
    ),
    (
        "wget",
        "--http-passwd",
        "the old spelling of --http-password",
    ),
    (
        "wget",
        "--proxy-passwd",
        "the old spelling of --proxy-password",
    ),
    (
        "wget",
        "--proxy__compat",
        "the internal name of the old --proxy=on|off",
    ),
    (
        "wget",
        "--random-file",
        "an entropy-source option wget still accepts",
    ),
    (
        "wget",
        "--no-*",
        "wget takes --no-NAME for every boolean option; the help lists a few",
    ),
    ("wget", "--no", "the long form of -n (`--no=vc` is -nv -nc)"),
    (
        "sed",
        "--binary",
        "listed only on systems with text-mode files, accepted everywhere",
    ),
];

/// The arguments that print a program's option list, when not `--help`.
const HELP_ARGS: &[(&str, &[&str])] = &[("mawk", &["-W", "usage"])];

/// Long options whose arity the help shows wrongly, with why.
const ARITY: &[(&str, &str, &str)] = &[
    (
        "file",
        "--parameter",
        "the help shows `-P, --parameter` and a table of names; file says `option requires an argument -- 'P'`",
    ),
    (
        "xargs",
        "--max-lines",
        "the help shows --max-lines=MAX-LINES; xargs reads it as -l, whose value is optional",
    ),
    (
        "wget",
        "--backups",
        "the help shows --backups=N; wget also takes it bare",
    ),
    (
        "wget",
        "--max-redirect",
        "the help omits its NUMBER; wget says it requires an argument",
    ),
    (
        "wget",
        "--hsts-file",
        "the help omits its FILE; wget says it requires an argument",
    ),
];

/// One option line of a `--help`.
#[derive(Debug, Default)]
struct HelpRow {
    /// Long names without `--`, each with the arity its own spelling shows.
    longs: Vec<(String, Arity)>,
    /// Short letters.
    shorts: Vec<char>,
}

/// The option spellings of one help line: the text up to the description,
/// continuing past a gap that follows a comma, or a tab before another
/// `-` column (gawk).
fn spelling_columns(line: &str) -> Option<Vec<&str>> {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    if !(1..=8).contains(&indent) {
        return None;
    }
    let mut rest = &line[indent..];
    if !rest.starts_with('-') || rest.len() < 2 || rest.as_bytes()[1].is_ascii_whitespace() {
        return None;
    }
    let mut out = Vec::new();
    loop {
        let Some((start, end)) = gap(rest) else {
            out.push(rest);
            return Some(out);
        };
        let column = &rest[..start];
        out.push(column);
        let next = &rest[end..];
        let tabbed = rest[start..end].contains('\t');
        if column.trim_end().ends_with(',') || (tabbed && next.starts_with('-')) {
            rest = next;
        } else {
            return Some(out);
        }
    }
}

/// The first run of a tab or of two or more spaces in `s`.
fn gap(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let tab = b[i] == b'\t';
        let spaces = b[i] == b' ' && b.get(i + 1) == Some(&b' ');
        if tab || spaces {
            let mut j = i;
            while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                j += 1;
            }
            return Some((i, j));
        }
        i += 1;
    }
    None
}

/// The options of one spelling such as `--file=FILE`, `-i[SUFFIX]`,
/// `-C DIR`, `-nv`.
fn spelling(part: &str, row: &mut HelpRow) {
    let part = part.trim();
    let (dashes, body) = if let Some(b) = part.strip_prefix("--") {
        (2, b)
    } else if let Some(b) = part.strip_prefix('-') {
        (1, b)
    } else {
        return;
    };
    let end = body
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_alphanumeric() || c == '_' || (i > 0 && c == '-') || (i == 0 && c == '?'))
        })
        .map_or(body.len(), |(i, _)| i);
    let (name, sep) = body.split_at(end);
    if name.is_empty() {
        return;
    }
    // After a short, ` ARG`; after a long, only an upper-case ` ARG`
    // (diff's `--label LABEL`), as a description may follow one space.
    let spaced = sep.strip_prefix(' ').and_then(|a| a.chars().next());
    let spaced_value = match spaced {
        Some(c) if dashes == 1 => c != '-',
        Some(c) => c.is_ascii_uppercase(),
        None => false,
    };
    let arity = if sep.starts_with("[=") || sep.starts_with('[') || sep.starts_with(" [") {
        Arity::Optional
    } else if sep.starts_with('=') || spaced_value {
        Arity::Required
    } else {
        Arity::Flag
    };
    if dashes == 2 {
        // diff's `--GTYPE-group-format=GFMT` and `--LTYPE-line-format=LFMT`.
        let types: &[&str] = if name.starts_with("GTYPE-") {
            &["old", "new", "unchanged", "changed"]
        } else if name.starts_with("LTYPE-") {
            &["old", "new", "unchanged"]
        } else {
            &[""]
        };
        for t in types {
            let name = match name.split_once('-') {
                Some((_, rest)) if !t.is_empty() => format!("{t}-{rest}"),
                _ => name.to_owned(),
            };
            row.longs.push((name, arity));
        }
    } else if name == "NUM" {
        // `-NUM`: any digit (the spec's `-#`).
        row.shorts.push('#');
    } else if let Some(c) = name.chars().next() {
        // `-nv`: the letter `n` with a value (wget).
        row.shorts.push(c);
    }
}

/// Every option line of a `--help` text.
fn help_rows(text: &str) -> Vec<HelpRow> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let Some(columns) = spelling_columns(line) else {
            continue;
        };
        let mut row = HelpRow::default();
        for column in columns {
            for part in column.split(',') {
                spelling(part, &mut row);
            }
        }
        if !row.longs.is_empty() || !row.shorts.is_empty() {
            rows.push(row);
        }
    }
    rows
}

/// Every row of a spec's option tables.
fn spec_rows(spec: &'static Spec) -> impl Iterator<Item = &'static Opt> {
    spec.opts.iter().flat_map(|t| t.iter())
}

/// The spec's long names (without `--`) with their rows.
fn spec_longs(spec: &'static Spec) -> Vec<(&'static str, &'static Opt)> {
    spec_rows(spec)
        .flat_map(|o| {
            o.names
                .iter()
                .filter_map(move |n| n.strip_prefix("--").map(|l| (l, o)))
        })
        .collect()
}

/// The spec's short letters (`#` for the `-#` digit row).
fn spec_shorts(spec: &'static Spec) -> Vec<char> {
    spec_rows(spec)
        .flat_map(|o| o.names.iter())
        .filter(|n| n.len() == 2 && !n.starts_with("--"))
        .filter_map(|n| n.chars().nth(1))
        .collect()
}

/// `program` on `PATH`, if installed.
fn installed(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Runs `program args` in `dir` with the C locale, no input and a timeout;
/// returns the exit code (`None` when killed) and stdout plus stderr.
fn run(program: &Path, args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let out = Command::new("timeout")
        .arg("10")
        .arg(program)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env("COLUMNS", "200")
        .env_remove("POSIXLY_CORRECT")
        .stdin(Stdio::null())
        .output()
        .expect("run timeout(1)");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// The differences between `spec` and the help text of its program.
fn list_differences(spec: &'static Spec, program: &str, help: &str) -> Vec<String> {
    let mut diffs = Vec::new();
    let rows = help_rows(help);
    let longs = spec_longs(spec);
    let shorts = spec_shorts(spec);
    // sort's `--check, --check=diagnose-first`: shown both bare and with a
    // value, the value is optional.
    let mut arities: std::collections::BTreeMap<&str, Arity> = Default::default();
    for (name, arity) in rows.iter().flat_map(|r| r.longs.iter()) {
        let merged = match arities.get(name.as_str()) {
            None => *arity,
            Some(seen) if seen == arity => *arity,
            Some(_) => Arity::Optional,
        };
        arities.insert(name, merged);
    }
    let mut listed = std::collections::HashSet::new();
    for row in &rows {
        for c in &row.shorts {
            if !shorts.contains(c) {
                diffs.push(format!("-{c} is in the help, not in the spec"));
            }
        }
    }
    for (name, arity) in &arities {
        let name = *name;
        {
            listed.insert(name);
            match longs.iter().find(|(l, _)| *l == name) {
                None => diffs.push(format!("--{name} is in the help, not in the spec")),
                Some((_, opt)) => {
                    let excused = ARITY
                        .iter()
                        .any(|(p, l, _)| *p == program && l.strip_prefix("--") == Some(name));
                    if opt.arity != *arity && !excused {
                        diffs.push(format!(
                            "--{name}: the help shows {arity:?}, the spec says {:?}",
                            opt.arity
                        ));
                    }
                }
            }
        }
    }
    for (name, _) in &longs {
        let excused = NOT_IN_HELP.iter().any(|(p, l, _)| {
            *p == program
                && match l.strip_suffix('*') {
                    Some(stem) => format!("--{name}").starts_with(stem),
                    None => l.strip_prefix("--") == Some(*name),
                }
        });
        if !listed.contains(name) && !excused {
            diffs.push(format!(
                "--{name} is in the spec, not in the help (list it in NOT_IN_HELP with why, after probing)"
            ));
        }
    }
    diffs
}

/// The shortest prefix of `long` that our parser reads as `row`.
fn shortest_prefix(spec: &'static Spec, long: &str, row: &'static Opt) -> String {
    for len in 1..=long.len() {
        let prefix = &long[..len];
        let word = match row.arity {
            Arity::Flag => format!("--{prefix}"),
            Arity::Required | Arity::Optional | Arity::Pair => format!("--{prefix}=x"),
        };
        let args = [word];
        let reading = read(spec, &args);
        if reading.problem.is_none() && reading.uses.first().is_some_and(|u| u.opt.same_row(row)) {
            return prefix.to_owned();
        }
    }
    panic!(
        "{}: --{long} does not resolve to its own row in our parser",
        spec.family
    );
}

/// Whether `text` names `--long` as a whole option name.
fn names_long(text: &str, long: &str) -> bool {
    let needle = format!("--{long}");
    text.match_indices(&needle).any(|(i, _)| {
        let after = text[i + needle.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Whether `text` names one of `row`'s spellings: a long name, or gawk's
/// `-- x` for a short letter.
fn names_row(text: &str, row: &Opt) -> bool {
    row.names.iter().any(|n| match n.strip_prefix("--") {
        Some(long) => names_long(text, long),
        None => n
            .strip_prefix('-')
            .is_some_and(|c| text.contains(&format!("-- {c}\n"))),
    })
}

/// The probe of one long spelling, `Err(why)` when the program reads its
/// shortest prefix otherwise.
fn probe(
    spec: &'static Spec,
    path: &Path,
    dir: &Path,
    long: &str,
    row: &'static Opt,
) -> Result<(), String> {
    let prefix = shortest_prefix(spec, long, row);
    let (args, expect) = match row.arity {
        Arity::Flag => (vec![format!("--{prefix}=x")], "a refused value naming it"),
        Arity::Required | Arity::Pair => (vec![format!("--{prefix}")], "a missing value naming it"),
        Arity::Optional => (vec![format!("--{prefix}"), "--help".to_owned()], "the help"),
    };
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, text) = run(path, &argv, dir);
    let lower = text.to_lowercase();
    let refused = [
        "ambiguous",
        "unrecognized",
        "unknown option",
        "invalid option",
    ]
    .iter()
    .any(|w| lower.contains(w));
    let named = names_row(&text, row);
    let ok = !refused
        && match row.arity {
            Arity::Flag | Arity::Required | Arity::Pair => named,
            Arity::Optional => named || code == Some(0),
        };
    if ok {
        return Ok(());
    }
    let first: String = text.lines().take(2).collect::<Vec<_>>().join(" / ");
    Err(format!(
        "--{long}: our parser reads `{}` as it, the program does not ({expect} expected; exit {code:?}): {first}",
        argv.join(" ")
    ))
}

/// Every short letter the spec says takes a value, alone at the end of
/// argv: the program must say it requires an argument (and so stop). A
/// letter the spec reads as taking a value that the program reads as a
/// flag would hide the next word from the spec, so this is the direction
/// that matters.
fn probe_required_shorts(spec: &'static Spec, path: &Path, dir: &Path) -> Vec<String> {
    let mut diffs = Vec::new();
    for row in spec_rows(spec).filter(|o| o.arity == Arity::Required) {
        for name in row.names.iter().filter(|n| n.len() == 2 && **n != "-#") {
            let Some(letter) = name.chars().nth(1) else {
                continue;
            };
            let (_, text) = run(path, &[name], dir);
            let quoted = format!("-- '{letter}'");
            let bare = format!("-- {letter}\n");
            let named = text.contains(&quoted) || text.contains(&bare);
            // mawk: "option -f lacks argument".
            let lacks = text.contains(&format!("option {name} lacks argument"));
            let asks = lacks || (text.contains("requires an argument") && named);
            if !asks {
                let first = text.lines().next().unwrap_or("");
                diffs.push(format!(
                    "{name}: the spec says it takes a value, the program alone says {first:?}"
                ));
            }
        }
    }
    diffs
}

/// Whether options after an operand are still options, as the spec says:
/// `PROG x --version` prints the version (first line as `PROG --version`)
/// exactly when the program permutes. Specs without `--version` are not
/// checked. A spec that says "no permutation" for a program that permutes
/// would miss every option after the first operand.
fn probe_permutation(spec: &'static Spec, path: &Path, dir: &Path) -> Vec<String> {
    let permute = match spec.grammar {
        Grammar::Getopt { permute } => permute,
        Grammar::Tar => true,
        // Other parser families have their own conformance tests.
        _ => return Vec::new(),
    };
    if !spec_longs(spec).iter().any(|(l, _)| *l == "version") {
        return Vec::new();
    }
    let (_, version) = run(path, &["--version"], dir);
    let (_, after) = run(path, &["x", "--version"], dir);
    let first = |t: &str| t.lines().next().unwrap_or("").to_owned();
    let permuted = !version.is_empty() && first(&after) == first(&version);
    if permuted == permute {
        return Vec::new();
    }
    vec![format!(
        "the spec says permute: {permute}, but `x --version` {}",
        if permuted {
            "prints the version"
        } else {
            "does not print the version"
        }
    )]
}

/// The long options (without `--`) the program lists when it calls a
/// one-letter prefix ambiguous: `PROG --L=x --help` for every letter, which
/// ends in an error or the help whatever `--L` resolves to.
fn accepted_longs(path: &Path, dir: &Path) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    for letter in 'a'..='z' {
        let word = format!("--{letter}=x");
        let (_, text) = run(path, &[&word, "--help"], dir);
        let Some((_, list)) = text.split_once("possibilities:") else {
            continue;
        };
        let list = list.lines().next().unwrap_or("");
        for quoted in list.split('\'').skip(1).step_by(2) {
            if let Some(name) = quoted.strip_prefix("--") {
                found.insert(name.to_owned());
            }
        }
    }
    found
}

/// A fresh empty directory for the probes.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// Specs read like getopt_long whose programs print another help layout,
/// with the suite that compares them instead.
const OTHER_SUITES: &[(&str, &str)] = &[
    (
        "perldoc",
        "frontend_spec_conformance.rs (its own single-letter parser; `-h`, not `--help`)",
    ),
    (
        "pip",
        "spec_net_conformance.rs (optparse abbreviates like getopt_long; its help is Python's)",
    ),
    (
        "rake",
        "frontend_spec_conformance.rs (Ruby's OptionParser, read as getopt_long; its help is OptionParser's)",
    ),
    (
        "scp",
        "spec_net_conformance.rs (OpenBSD getopt: short options only, a usage line for help)",
    ),
];

#[test]
fn getopt_specs_match_the_installed_programs_help_and_abbreviations() {
    let mut failures = String::new();
    let mut checked = Vec::new();
    let mut skipped = Vec::new();
    for spec in all() {
        if !matches!(spec.grammar, Grammar::Getopt { .. } | Grammar::Tar) {
            continue;
        }
        if let Some((_, suite)) = OTHER_SUITES.iter().find(|(f, _)| *f == spec.family) {
            eprintln!("spec conformance: {} is checked by {suite}", spec.family);
            continue;
        }
        let program = spec.names[0];
        let Some(path) = installed(program) else {
            eprintln!("SKIP spec conformance: {program} not installed");
            skipped.push(program);
            continue;
        };
        let dir = scratch();
        let help_args = HELP_ARGS
            .iter()
            .find(|(p, _)| *p == program)
            .map_or(&["--help"][..], |(_, a)| a);
        let (_, help) = run(&path, help_args, dir.path());
        let mut diffs = list_differences(spec, program, &help);
        if help_rows(&help).is_empty() {
            diffs.push(format!(
                "no option found in `{program} {}`",
                help_args.join(" ")
            ));
        }
        let longs = spec_longs(spec);
        for name in accepted_longs(&path, dir.path()) {
            if !longs.iter().any(|(l, _)| *l == name) {
                diffs.push(format!(
                    "--{name}: the program lists it among the options a one-letter prefix may mean, the spec does not know it"
                ));
            }
        }
        for (long, row) in spec_longs(spec) {
            if let Err(why) = probe(spec, &path, dir.path(), long, row) {
                diffs.push(why);
            }
        }
        diffs.extend(probe_required_shorts(spec, &path, dir.path()));
        diffs.extend(probe_permutation(spec, &path, dir.path()));
        if diffs.is_empty() {
            checked.push(program);
        } else {
            let _ = writeln!(
                failures,
                "\n{program} (spec checked with {}):\n  {}",
                spec.checked_with,
                diffs.join("\n  ")
            );
        }
    }
    eprintln!(
        "spec conformance: checked {}; skipped (not installed) {}",
        if checked.is_empty() {
            "none".to_owned()
        } else {
            checked.join(", ")
        },
        if skipped.is_empty() {
            "none".to_owned()
        } else {
            skipped.join(", ")
        },
    );
    assert!(
        failures.is_empty(),
        "specs differ from the programs:{failures}"
    );
}

#[test]
fn the_help_reader_handles_gnu_layouts() {
    let help = "  -E, -r, --regexp-extended\n  -V,  --version   show\n\t-f progfile\t\t--file=progfile\n  -i[SUFFIX], --in-place[=SUFFIX]\n  -j [N], --jobs[=N]   jobs\n  -nv, --no-verbose   quiet\n      --exclude-caches-under exclude\n  -C DIRECTORY, --directory=DIRECTORY\n  -?, --help   help\n";
    let rows = help_rows(help);
    type Shown = (Vec<char>, Vec<(String, Arity)>);
    let shown: Vec<Shown> = rows.into_iter().map(|r| (r.shorts, r.longs)).collect();
    let long = |n: &str, a| (n.to_owned(), a);
    assert_eq!(
        shown,
        vec![
            (vec!['E', 'r'], vec![long("regexp-extended", Arity::Flag)]),
            (vec!['V'], vec![long("version", Arity::Flag)]),
            (vec!['f'], vec![long("file", Arity::Required)]),
            (vec!['i'], vec![long("in-place", Arity::Optional)]),
            (vec!['j'], vec![long("jobs", Arity::Optional)]),
            (vec!['n'], vec![long("no-verbose", Arity::Flag)]),
            (vec![], vec![long("exclude-caches-under", Arity::Flag)]),
            (vec!['C'], vec![long("directory", Arity::Required)]),
            (vec!['?'], vec![long("help", Arity::Flag)]),
        ]
    );
}

/// jq 1.6 has its own parser (the spec's grammar is clap's: exact long
/// names). Every spelling of the spec is run as the last word of `jq -n 1
/// …`: a flag must be accepted, a value option must say it "takes" a
/// parameter; one letter less of each long spelling must be an unknown
/// option (no abbreviations) unless it is another option; every option `jq --help` shows must be in the
/// spec.
#[test]
fn the_jq_spec_matches_the_installed_jq() {
    let Some(spec) = all().iter().copied().find(|s| s.family == "jq") else {
        panic!("no jq spec");
    };
    let Some(path) = installed("jq") else {
        eprintln!("SKIP spec conformance: jq not installed");
        eprintln!("spec conformance: checked none; skipped (not installed) jq");
        return;
    };
    let dir = scratch();
    let mut diffs = Vec::new();
    for row in spec_rows(spec) {
        for name in row.names {
            let (_, text) = run(&path, &["-n", "1", name], dir.path());
            let unknown = text.contains("Unknown option");
            let takes = text.contains("takes");
            let ok = match row.arity {
                Arity::Flag => !unknown && !takes,
                Arity::Required | Arity::Optional => !unknown && takes,
                Arity::Pair => !unknown && text.contains("takes two parameters"),
            };
            if !ok {
                let first = text.lines().next().unwrap_or("");
                diffs.push(format!("{name} ({:?}): jq says {first:?}", row.arity));
            }
            if let Some(long) = name.strip_prefix("--") {
                let shorter = format!("--{}", &long[..long.len() - 1]);
                // `--args` less a letter is `--arg`, an option of its own.
                if spec_longs(spec).iter().any(|(l, _)| shorter[2..] == **l) {
                    continue;
                }
                let (_, text) = run(&path, &["-n", "1", &shorter], dir.path());
                if !text.contains("Unknown option") {
                    diffs.push(format!("jq reads {shorter} as an abbreviation"));
                }
            }
        }
    }
    let (_, help) = run(&path, &["--help"], dir.path());
    let longs = spec_longs(spec);
    let shorts = spec_shorts(spec);
    for row in help_rows(&help) {
        for (name, _) in &row.longs {
            if !longs.iter().any(|(l, _)| l == name) {
                diffs.push(format!("--{name} is in the help, not in the spec"));
            }
        }
        for c in &row.shorts {
            if !shorts.contains(c) {
                diffs.push(format!("-{c} is in the help, not in the spec"));
            }
        }
    }
    eprintln!("spec conformance: checked jq; skipped (not installed) none");
    assert!(
        diffs.is_empty(),
        "jq differs from its spec:\n  {}",
        diffs.join("\n  ")
    );
}

/// tar's old style (`Grammar::Tar`): the value-taking letters of a first
/// word without a dash take the following words in order. Checked with the
/// installed tar in a scratch directory: `tar tXf excl a.tar` lists the
/// archive (`-X excl -f a.tar`), `tar tfX excl a.tar` fails (`-f excl`, not
/// an archive), and our parser gives the same values.
#[test]
fn tar_old_style_bundles_take_values_in_order_as_tar_does() {
    let Some(spec) = all().iter().copied().find(|s| s.family == "tar") else {
        panic!("no tar spec");
    };
    let Some(path) = installed("tar") else {
        eprintln!("SKIP spec conformance: tar not installed");
        return;
    };
    let dir = scratch();
    std::fs::write(dir.path().join("excl"), "").expect("write excl");
    let (code, text) = run(&path, &["cf", "a.tar", "excl"], dir.path());
    assert_eq!(code, Some(0), "tar cf: {text}");
    let value_of = |words: &[&str], letter: &str| -> Option<String> {
        let args: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        let reading = read(spec, &args);
        assert!(
            reading.problem.is_none(),
            "{words:?}: {:?}",
            reading.problem
        );
        reading
            .uses
            .iter()
            .find(|u| u.opt.names.contains(&letter))
            .and_then(|u| u.value.map(str::to_owned))
    };
    let listed = ["tXf", "excl", "a.tar"];
    assert_eq!(value_of(&listed, "-f").as_deref(), Some("a.tar"));
    assert_eq!(value_of(&listed, "-X").as_deref(), Some("excl"));
    let (code, text) = run(&path, &listed, dir.path());
    assert_eq!(code, Some(0), "tar {listed:?}: {text}");
    let swapped = ["tfX", "excl", "a.tar"];
    assert_eq!(value_of(&swapped, "-f").as_deref(), Some("excl"));
    let (code, text) = run(&path, &swapped, dir.path());
    assert_ne!(
        code,
        Some(0),
        "tar {swapped:?} read excl as the archive: {text}"
    );
}

/// tree's spec against the installed tree, whose help is no GNU table and
/// whose parser is its own ([`Grammar::NextWordValues`]):
///
/// 1. Every option line of `tree --help` (`  -L level      Descend…`,
///    `  --gitfile X   …`, `  --filelimit # …`) is a row of the spec with
///    the same arity (a value is the word after the spelling when a column
///    gap, `#` or `<…>` marks it), and every row of the spec is in the help.
/// 2. tree reads a bundle's value letters from the following words in
///    order (`-oL out.txt 1 d` writes `out.txt`), as the spec does; `-L1`
///    is refused by both; long options are exact (`--norep` is refused by
///    both); options may follow the directory.
#[test]
fn the_tree_spec_matches_the_installed_tree() {
    let Some(spec) = all().iter().copied().find(|s| s.family == "tree") else {
        panic!("no tree spec");
    };
    assert_eq!(spec.grammar, Grammar::NextWordValues);
    let Some(path) = installed("tree") else {
        eprintln!("SKIP spec conformance: tree not installed");
        return;
    };
    let dir = scratch();
    let (_, help) = run(&path, &["--help"], dir.path());
    let mut listed = Vec::new();
    for line in help.lines() {
        let Some(body) = line.strip_prefix("  -") else {
            continue;
        };
        let body = format!("-{body}");
        let Some((spelling, rest)) = body.split_once(' ') else {
            continue;
        };
        // `--` ends options; `------- Listing options -------` heads a section.
        if spelling.chars().all(|c| c == '-') {
            continue;
        }
        let word = rest.split(' ').next().unwrap_or("");
        let after = rest.get(word.len()..).unwrap_or("");
        let takes =
            !word.is_empty() && (word == "#" || word.starts_with('<') || after.starts_with("  "));
        listed.push((spelling.to_owned(), takes));
    }
    assert!(listed.len() > 40, "tree --help: {help}");
    let mut failures = Vec::new();
    let rows: Vec<&Opt> = spec.opts.iter().flat_map(|t| t.iter()).collect();
    for (spelling, takes) in &listed {
        match rows.iter().find(|o| o.names.contains(&spelling.as_str())) {
            None => failures.push(format!("{spelling}: in the help, not in the spec")),
            Some(row) if (row.arity != Arity::Flag) != *takes => failures.push(format!(
                "{spelling}: takes a value in the help: {takes}, spec: {:?}",
                row.arity
            )),
            Some(_) => {}
        }
    }
    for row in &rows {
        for name in row.names {
            if !listed.iter().any(|(s, _)| s == name) {
                failures.push(format!("{name}: in the spec, not in the help"));
            }
        }
    }
    std::fs::create_dir(dir.path().join("d")).expect("mkdir d");
    std::fs::write(dir.path().join("d/f"), "").expect("write d/f");
    let reading = |words: &[&str]| {
        let args: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        let r = read(spec, &args);
        let values: Vec<(String, Option<String>)> = r
            .uses
            .iter()
            .map(|u| (u.opt.names[0].to_owned(), u.value.map(str::to_owned)))
            .collect();
        (r.problem.is_none(), values, r.operands.len())
    };
    let bundle = ["-oL", "out.txt", "1", "d"];
    let (code, text) = run(&path, &bundle, dir.path());
    if code != Some(0) || !dir.path().join("out.txt").is_file() {
        failures.push(format!("tree {bundle:?} did not write out.txt: {text}"));
    }
    let (ok, values, operands) = reading(&bundle);
    let want = vec![
        ("-o".to_owned(), Some("out.txt".to_owned())),
        ("-L".to_owned(), Some("1".to_owned())),
    ];
    if !ok || values != want || operands != 1 {
        failures.push(format!(
            "spec reads {bundle:?} as {values:?}, {operands} operands"
        ));
    }
    for refused in [&["-L1", "d"][..], &["--norep", "d"]] {
        let (code, _) = run(&path, refused, dir.path());
        if code == Some(0) {
            failures.push(format!("tree {refused:?} was accepted"));
        }
        if reading(refused).0 {
            failures.push(format!("the spec reads {refused:?} without a problem"));
        }
    }
    let after = ["d", "--noreport", "--charset=ascii"];
    let (code, text) = run(&path, &after, dir.path());
    let (ok, values, _) = reading(&after);
    if code != Some(0) || text.contains("directories") || !ok || values.len() != 2 {
        failures.push(format!("tree {after:?}: {text}; spec reads {values:?}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
