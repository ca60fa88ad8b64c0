//! Reads an argv the way the program's own parser does, by its spec:
//! getopt_long's prefix abbreviation and permutation, git's exact global
//! options and per-subcommand parse-options with `--no-` negation, clap's
//! exact names; tar's old-style first-word bundle. Anything the spec does not know stops the reading with a
//! [`Problem`], which the decision asks about: never a guess.

mod interp;

use super::index::{self, Index};
use super::types::{Arity, Grammar, Opt, Spec, Sub};

/// One option as the program will see it.
#[derive(Debug, Clone, Copy)]
pub struct Use<'a> {
    /// The spec row it resolved to.
    pub opt: &'static Opt,
    /// Its value, if it took one.
    pub value: Option<&'a str>,
    /// The word it came from, for the reason shown to the human.
    pub token: &'a str,
    /// `--no-…`: the option turned off, which has no effect of its own.
    pub negated: bool,
    /// Read before the subcommand of a program that has subcommands.
    pub global: bool,
}

impl<'a> Reading<'a> {
    /// Records subcommand `sub`, written `word`, as the innermost one read.
    fn enter(&mut self, sub: &'static Sub, word: &'a str) {
        self.sub = Some(sub);
        self.sub_word = Some(word);
        self.path.push((sub, word));
    }
}

impl<'a> Use<'a> {
    /// An option used as itself, after the subcommand if there is one.
    fn new(opt: &'static Opt, value: Option<&'a str>, token: &'a str) -> Self {
        Use {
            opt,
            value,
            token,
            negated: false,
            global: false,
        }
    }
}

/// Why a reading stopped: the program would read this argv in a way the
/// spec cannot vouch for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem<'a> {
    /// An option no row of the spec has.
    UnknownOption(&'a str),
    /// A long-option prefix that more than one row has.
    Ambiguous(&'a str, Vec<&'static str>),
    /// A required value is missing at the end of argv.
    MissingValue(&'a str),
    /// A value given to an option that takes none (`--all=x`).
    UnexpectedValue(&'a str),
    /// A subcommand the spec does not know.
    UnknownSubcommand(&'a str),
    /// An `@FILE` word that argparse replaces by the arguments in FILE
    /// ([`Grammar::Argparse`]).
    ArgsFromFile(&'a str),
}

/// What the program will do with its argv, as far as the spec says.
#[derive(Debug, Default)]
pub struct Reading<'a> {
    /// Every option, in order, global and subcommand alike.
    pub uses: Vec<Use<'a>>,
    /// Operands after option parsing (after the subcommand, if any).
    pub operands: Vec<&'a str>,
    /// The subcommand, when the spec has them and one was given.
    pub sub: Option<&'static Sub>,
    /// The subcommand as written.
    pub sub_word: Option<&'a str>,
    /// Every subcommand read, outermost first, with the word it was
    /// written as (`gh pr view`: `pr`, then `view`); the last is `sub`.
    pub path: Vec<(&'static Sub, &'a str)>,
    /// The operands after the `--` that ended the subcommand's options
    /// (also in `operands`), which [`Sub::passes`] judges.
    pub passed: Vec<&'a str>,
    /// The command lines of find's command predicates, in order.
    pub commands: Vec<CommandLine<'a>>,
    /// Set when the reading could not be completed.
    pub problem: Option<Problem<'a>>,
}

/// A command line inside another program's argv (`find … -exec grep x {} +`),
/// by the indexes of its words in the args read, so a caller can check it
/// as a command of its own and rewrite what runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine<'a> {
    /// The predicate that runs it (`-exec`, `-execdir`, `-ok`, `-okdir`).
    pub predicate: &'a str,
    /// The command's words, its program first, without the terminator.
    pub words: std::ops::Range<usize>,
}

/// How long names are matched in one region of argv.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    /// Exactly (git's global options, clap).
    Exact,
    /// Exactly, else by unambiguous prefix (getopt_long).
    Prefix,
    /// Prefix, plus git's `--no-` negation both ways (parse-options).
    Negatable,
    /// curl: exact, else `--no-` and an exact flag's name, else prefix; no
    /// `=` values; `-#` is a letter.
    Curl,
    /// zip: prefix long names; two-letter short options; `-` after an
    /// option turns it off.
    Zip,
    /// unzip: no long names; two-letter short options; `--` ends nothing.
    Unzip,
    /// Go's flag package: `-name` or `--name`, exact, one word each.
    Go,
    /// Perl's Getopt::Long: prefix long names, plus `+name`.
    PerlLong,
    /// tree's: exact long names; a short letter's value is the next word
    /// not yet taken, never the rest of its own word.
    NextWords,
}

/// git's two other spellings of `git help`, as `git.c` reads them: a
/// global `--help` or `-h` ends the global options and is the `help`
/// command, given the words after it (`git --help log -w`); a subcommand
/// followed at once by `--help` is `git help SUBCOMMAND` with the words
/// after (`git log --help -w`). Either way `-w` opens a web browser.
/// Returns the subcommand word to read as help's operand, if any, and the
/// words help's options are read from; `None` when neither applies.
fn git_help<'a>(
    spec: &Spec,
    reading: &Reading<'a>,
    rest: &'a [String],
) -> Option<(Option<&'a String>, &'a [String])> {
    if spec.grammar != Grammar::Git {
        return None;
    }
    if reading
        .uses
        .iter()
        .any(|used| used.value.is_none() && matches!(used.token, "--help" | "-h"))
    {
        return Some((None, rest));
    }
    match rest {
        [sub, help, after @ ..] if help == "--help" => Some((Some(sub), after)),
        _ => None,
    }
}

/// Reads `args` (argv without argv[0]) by `spec`.
pub fn read<'a>(spec: &'static Spec, args: &'a [String]) -> Reading<'a> {
    let mut reading = Reading::default();
    if spec.grammar == Grammar::Npm {
        npm(spec, &index::of(spec), args, &mut reading);
        return reading;
    }
    if spec.grammar == Grammar::Find {
        find(spec, args, &mut reading);
        return reading;
    }
    if spec.grammar == Grammar::Verbatim {
        reading.operands = args.iter().map(String::as_str).collect();
        return reading;
    }
    if let Grammar::Interpreter(lang) = spec.grammar {
        interp::read(lang, &index::of(spec).global, args, &mut reading);
        return reading;
    }
    if let Grammar::Argparse { from_file: true } = spec.grammar
        && let Some(word) = args.iter().find(|w| w.len() > 1 && w.starts_with('@'))
    {
        reading.problem = Some(Problem::ArgsFromFile(word));
        return reading;
    }
    if let Grammar::GetoptLong {
        early,
        rest,
        integers,
    } = spec.grammar
    {
        getopt_long(&index::of(spec).global, early, rest, args, &mut reading);
        integer_values(integers, &mut reading);
        return reading;
    }
    let (global, permute) = match spec.grammar {
        Grammar::Getopt { permute } => (Match::Prefix, permute),
        Grammar::Tar => (Match::Prefix, true),
        Grammar::Git | Grammar::Ssh => (Match::Exact, false),
        Grammar::Clap | Grammar::Argparse { .. } => (Match::Exact, true),
        Grammar::Curl => (Match::Curl, true),
        Grammar::InfoZip { zip: true } => (Match::Zip, true),
        Grammar::InfoZip { zip: false } => (Match::Unzip, true),
        Grammar::GoFlag { .. } => (Match::Go, false),
        Grammar::Npm | Grammar::Find => (Match::Prefix, true),
        Grammar::PackageManager { .. } => (Match::Exact, false),
        Grammar::NextWordValues => (Match::NextWords, true),
        // Read above.
        Grammar::Interpreter(_) | Grammar::GetoptLong { .. } | Grammar::Verbatim => {
            (Match::Exact, false)
        }
    };
    let has_subs = !spec.subs.is_empty();
    let index = index::of(spec);
    let args = match spec.grammar {
        Grammar::Tar => old_style(&index.global, args, &mut reading),
        _ => args,
    };
    if reading.problem.is_some() {
        return reading;
    }
    let (mut rest, ended) = region(
        &index.global,
        global,
        permute && !has_subs,
        args,
        &mut reading,
    );
    if spec.grammar == Grammar::Ssh && reading.problem.is_none() && !ended {
        // ssh reads options again after the destination, unless `--`
        // ended them before it.
        if let Some((destination, after)) = rest.split_first() {
            reading.operands.push(destination);
            rest = region(&index.global, global, false, after, &mut reading).0;
        }
    }
    if reading.problem.is_some() || !has_subs {
        reading.operands.extend(rest.iter().map(String::as_str));
        return reading;
    }
    // rustup takes its `+toolchain` after its global flags too (`rustup -v
    // +stable show`); a toolchain by path (`+/tmp/x`) is left to be asked.
    let rest = match rest.split_first() {
        Some((toolchain, after))
            if spec.family == "rustup"
                && toolchain.starts_with('+')
                && !toolchain.contains('/') =>
        {
            after
        }
        _ => rest,
    };
    let (word, after) = match git_help(spec, &reading, rest) {
        Some((operand, after)) => {
            reading.operands.extend(operand.map(String::as_str));
            ("help", after)
        }
        None => match rest.split_first() {
            Some((word, after)) => (word.as_str(), after),
            None => {
                if let Grammar::PackageManager { commander, .. } = spec.grammar {
                    package_manager_values(&mut reading, commander);
                }
                return reading;
            }
        },
    };
    let found = index.sub_names.get(word).copied();
    if found.is_none()
        && let Grammar::PackageManager {
            unknown: Some(fallback),
            commander,
            ..
        } = spec.grammar
        && let Some(sub) = spec.subs.iter().find(|s| s.names.contains(&fallback))
    {
        // `yarn build --watch` is `yarn run build --watch`.
        reading.enter(sub, word);
        reading.operands.extend(rest.iter().map(String::as_str));
        package_manager_values(&mut reading, commander);
        return reading;
    }
    let (Some(mut position), Some(sub_index)) = (found, found.and_then(|p| index.subs.get(p)))
    else {
        reading.problem = Some(Problem::UnknownSubcommand(word));
        return reading;
    };
    let mut sub = &spec.subs[position];
    for used in &mut reading.uses {
        used.global = true;
    }
    reading.enter(sub, word);
    let sub_match = match spec.grammar {
        Grammar::Git => Match::Negatable,
        Grammar::Getopt { .. } | Grammar::Tar | Grammar::Npm | Grammar::Find => Match::Prefix,
        Grammar::Clap
        | Grammar::Argparse { .. }
        | Grammar::Ssh
        | Grammar::PackageManager { .. } => Match::Exact,
        Grammar::Curl => Match::Curl,
        Grammar::InfoZip { zip: true } => Match::Zip,
        Grammar::InfoZip { zip: false } => Match::Unzip,
        Grammar::GoFlag { .. } => Match::Go,
        Grammar::NextWordValues => Match::NextWords,
        Grammar::Interpreter(_) | Grammar::GetoptLong { .. } | Grammar::Verbatim => Match::Exact,
    };
    // Down the subcommand groups (`gh pr view`): a group's options until
    // its first operand, which names its subcommand.
    let (mut level, mut sub_index, mut after) = (&*index, sub_index, after);
    while !sub.subs.is_empty() {
        let (rest, ended) = region(sub_index, sub_match, false, after, &mut reading);
        if reading.problem.is_some() {
            return reading;
        }
        if ended {
            // cobra and clap take no `--` before a subcommand (`gh pr --
            // view` is an error): not read as one.
            reading.problem = Some(Problem::UnknownSubcommand("--"));
            return reading;
        }
        let Some((word, next)) = rest.split_first() else {
            return reading;
        };
        let Some(nested) = level.nested.get(position) else {
            reading.problem = Some(Problem::UnknownSubcommand(word));
            return reading;
        };
        let found = nested.sub_names.get(word.as_str()).copied();
        let (Some(p), Some(i), Some(s)) = (
            found,
            found.and_then(|p| nested.subs.get(p)),
            found.and_then(|p| sub.subs.get(p)),
        ) else {
            reading.problem = Some(Problem::UnknownSubcommand(word));
            return reading;
        };
        reading.enter(s, word);
        (level, position, sub_index, sub, after) = (nested, p, i, s, next);
    }
    let sub_permute = match spec.grammar {
        Grammar::GoFlag { permuting } => sub.names.iter().any(|n| permuting.contains(n)),
        Grammar::PackageManager { scripts, .. } => !sub.names.iter().any(|n| scripts.contains(n)),
        _ => !sub.operand_ends_options,
    };
    if let Grammar::PackageManager {
        verbatim,
        commander,
        ..
    } = spec.grammar
    {
        let rest = if sub.names.iter().any(|n| verbatim.contains(n)) {
            after
        } else {
            region(sub_index, sub_match, sub_permute, after, &mut reading).0
        };
        reading.operands.extend(rest.iter().map(String::as_str));
        package_manager_values(&mut reading, commander);
        return reading;
    }
    let (rest, ended) = region(sub_index, sub_match, sub_permute, after, &mut reading);
    reading.operands.extend(rest.iter().map(String::as_str));
    if ended {
        reading.passed.extend(rest.iter().map(String::as_str));
    }
    reading
}

/// Perl's Getopt::Long ([`Grammar::GetoptLong`]): the program's own pass
/// over argv first, which takes every `early` word out wherever it stands
/// (after `--` and `rest` too) and hands the words after the first `rest`
/// to what it runs; then getopt_long's reading, with permutation, of the
/// runs of words left between those taken out. A value-taking option at
/// the end of one run does not take its value from the next (the program
/// would): the reading stops there, asked.
fn getopt_long<'a>(
    index: &Index,
    early: &[&str],
    rest: &str,
    args: &'a [String],
    reading: &mut Reading<'a>,
) {
    let mut runs: Vec<&'a [String]> = Vec::new();
    let mut handed: Vec<&'a str> = Vec::new();
    let (mut start, mut handing, mut i) = (0, false, 0);
    while let Some(word) = args.get(i) {
        let tok = word.as_str();
        let (name, attached) = match tok.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (tok, None),
        };
        let row = early
            .contains(&name)
            .then(|| name.strip_prefix("--").and_then(|long| index.exact(long)))
            .flatten()
            .map(|(_, row)| row)
            .filter(|row| attached.is_none() || row.arity == Arity::Required);
        if let Some(opt) = row {
            if !handing {
                runs.push(&args[start..i]);
            }
            let value = match (opt.arity, attached) {
                (Arity::Required, None) => match following(args, &mut i, 1, tok) {
                    Ok(value) => Some(value),
                    Err(problem) => {
                        reading.problem = Some(problem);
                        return;
                    }
                },
                (_, attached) => attached,
            };
            reading.uses.push(Use::new(opt, value, tok));
            start = i + 1;
        } else if handing {
            handed.push(tok);
        } else if tok == rest {
            runs.push(&args[start..i]);
            handing = true;
        }
        i += 1;
    }
    if !handing {
        runs.push(&args[start..]);
    }
    let mut ended = false;
    for run in runs {
        if ended {
            reading.operands.extend(run.iter().map(String::as_str));
            continue;
        }
        let (left, end) = region(index, Match::PerlLong, true, run, reading);
        if reading.problem.is_some() {
            return;
        }
        reading.operands.extend(left.iter().map(String::as_str));
        ended = end;
    }
    reading.operands.extend(handed);
}

/// [`Grammar::GetoptLong`]'s integer options: a value that is not all
/// digits is read differently by Getopt::Long (`-j4e` is `-j4 -e`; the
/// `-e` of `--jobs -e` is an option of its own), so the reading stops
/// there, asked.
fn integer_values(integers: &[&str], reading: &mut Reading<'_>) {
    if reading.problem.is_some() {
        return;
    }
    let odd = reading.uses.iter().find(|u| {
        u.opt.names.iter().any(|n| integers.contains(n))
            && !u
                .value
                .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    });
    if let Some(used) = odd {
        reading.problem = Some(Problem::MissingValue(used.token));
    }
}

/// Getopt::Long's `+NAME`, `tokens[*i]`: the name after `+` as a whole,
/// one letter or long, exact or by unambiguous prefix, its value the next
/// word (advancing `*i`); `=` is part of the name.
fn plus_option<'a>(
    index: &Index,
    tokens: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<(), Problem<'a>> {
    let tok = tokens[*i].as_str();
    let name = &tok[1..];
    let mut letters = name.chars();
    let letter = match (letters.next(), letters.next()) {
        (Some(c), None) => index.short(c),
        _ => None,
    };
    let opt = match letter {
        Some(opt) => opt,
        None => match long(index, Match::Prefix, name) {
            Ok((opt, _)) => opt,
            Err(candidates) if candidates.is_empty() => return Err(Problem::UnknownOption(tok)),
            Err(candidates) => return Err(Problem::Ambiguous(tok, candidates)),
        },
    };
    let value = match opt.arity {
        Arity::Flag => None,
        Arity::Required => Some(following(tokens, i, 1, tok)?),
        // Not in any table read this way: asked rather than guessed.
        Arity::Optional | Arity::Pair => return Err(Problem::UnknownOption(tok)),
    };
    reading.uses.push(Use::new(opt, value, tok));
    Ok(())
}

/// [`Grammar::PackageManager`]: a value taken from the next word that
/// starts with `-` (clap refuses it; commander takes it or not by the
/// option), and with `commander` a value-taking letter inside a bundle or
/// with its value attached (commander reads `-Sx` as `-S -x`), are read
/// differently by the program: the reading stops there, asked.
fn package_manager_values(reading: &mut Reading<'_>, commander: bool) {
    if reading.problem.is_some() {
        return;
    }
    for used in &reading.uses {
        let Some(value) = used.value else {
            continue;
        };
        let start = used.token.as_ptr() as usize;
        let at = value.as_ptr() as usize;
        let attached = at >= start && at <= start + used.token.len();
        let short_word = !used.token.starts_with("--");
        if (!attached && value.len() > 1 && value.starts_with('-'))
            || (commander && short_word && (attached || used.token.len() > 2))
        {
            reading.problem = Some(Problem::MissingValue(used.token));
            return;
        }
    }
}

/// npm's nopt ([`Grammar::Npm`]): config keys anywhere, read from the
/// spec's own tables; the first other word is the command.
fn npm<'a>(
    spec: &'static Spec,
    index: &index::SpecIndex,
    args: &'a [String],
    reading: &mut Reading<'a>,
) {
    let mut i = 0;
    while let Some(tok) = args.get(i) {
        let tok = tok.as_str();
        i += 1;
        if tok.len() >= 2 && tok.bytes().all(|b| b == b'-') {
            // nopt: any run of two or more dashes ends the options.
            reading
                .operands
                .extend(args[i..].iter().map(String::as_str));
            return;
        }
        if tok.len() < 2 || !tok.starts_with('-') {
            // A command with its own commands (`npm pkg get`): its first
            // operand names one, exactly; an unknown one is asked.
            if let Some(sub) = reading.sub.filter(|s| !s.subs.is_empty())
                && reading.operands.is_empty()
                && reading.path.len() == 1
            {
                let Some(nested) = sub.subs.iter().find(|s| s.names.contains(&tok)) else {
                    reading.problem = Some(Problem::UnknownSubcommand(tok));
                    return;
                };
                reading.enter(nested, tok);
                continue;
            }
            if reading.sub_word.is_some() || spec.subs.is_empty() {
                reading.operands.push(tok);
                continue;
            }
            let found = index.sub_names.get(tok).copied();
            let Some(position) = found else {
                reading.problem = Some(Problem::UnknownSubcommand(tok));
                return;
            };
            reading.enter(&spec.subs[position], tok);
            continue;
        }
        if let Err(problem) = npm_option(&index.global, tok, args, &mut i, reading) {
            reading.problem = Some(problem);
            return;
        }
    }
}

/// Reads one npm option word, `tok`, whose following words start at
/// `args[*i]` (advanced past any value taken), the way nopt does.
fn npm_option<'a>(
    index: &Index,
    tok: &'a str,
    args: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<(), Problem<'a>> {
    let (written, attached) = match tok.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (tok, None),
    };
    let body = written.trim_start_matches('-');
    if body.is_empty() {
        return Err(Problem::UnknownOption(tok));
    }
    let global = reading.sub_word.is_none();
    // A key or shorthand spelled exactly, else a word of one-letter
    // shorthands (nopt expands `-gD` and `--gl` alike).
    let mut rows: Vec<&'static Opt> = Vec::new();
    let mut negations = 0;
    if let Some((_, row)) = index.exact(body) {
        rows.push(row);
    } else if let Some(letters) = body
        .chars()
        .map(|c| index.letter(c).filter(|_| c != '#'))
        .collect::<Option<Vec<_>>>()
    {
        rows = letters;
    } else {
        let mut name = body;
        while name.len() >= 3 && name[..3].eq_ignore_ascii_case("no-") {
            name = &name[3..];
            negations += 1;
        }
        if negations > 1 || name.is_empty() {
            // nopt reads `--no-no-key` as the key set to true, which for a
            // key with a value is no value the spec can judge.
            return Err(Problem::UnknownOption(tok));
        }
        let row = match index.exact(name) {
            Some((_, row)) => row,
            None => {
                let mut hits: Vec<index::LongHit> = Vec::new();
                index.starting_with(name, false, &mut hits);
                let mut found: Vec<(&'static Opt, &'static str)> = Vec::new();
                for (_, row, l, _) in hits {
                    if !found.iter().any(|(f, _)| f.same_row(row)) {
                        found.push((row, l));
                    }
                }
                match found.as_slice() {
                    [(row, _)] => *row,
                    [] => return Err(Problem::UnknownOption(tok)),
                    _ => {
                        return Err(Problem::Ambiguous(
                            tok,
                            found.iter().map(|(_, l)| *l).collect(),
                        ));
                    }
                }
            }
        };
        rows.push(row);
    }
    let Some((last, firsts)) = rows.split_last() else {
        return Err(Problem::UnknownOption(tok));
    };
    for opt in firsts {
        if opt.arity != Arity::Flag {
            // nopt hands the next expanded option to it as its value.
            return Err(Problem::MissingValue(tok));
        }
        reading.uses.push(Use {
            opt,
            value: None,
            token: tok,
            negated: false,
            global,
        });
    }
    let negated = negations == 1;
    let (value, on) = if last.arity == Arity::Flag || negated {
        // A boolean: `=true`/`=false`, or a following `true`/`false`.
        let given = match attached {
            Some(v) => Some(v),
            None => match args.get(*i).map(String::as_str) {
                Some(v @ ("true" | "false")) => {
                    *i += 1;
                    Some(v)
                }
                _ => None,
            },
        };
        let on = match given {
            None => true,
            Some("true") => true,
            Some("false") => false,
            // nopt leaves any other `=value` as an operand (`--save=exec`
            // is the command `exec`).
            Some(_) => return Err(Problem::UnexpectedValue(tok)),
        };
        let on = on != negated;
        if on && last.arity != Arity::Flag {
            // `--no-key=false`: the key set to true, not a value.
            return Err(Problem::UnexpectedValue(tok));
        }
        (None, on)
    } else {
        let value = match attached {
            Some(v) => v,
            None => {
                let Some(next) = args.get(*i).map(String::as_str) else {
                    return Err(Problem::MissingValue(tok));
                };
                if next.len() > 1 && next.starts_with('-') {
                    // nopt takes it as the value or reads it as an option,
                    // by the key's type: asked rather than guessed.
                    return Err(Problem::MissingValue(tok));
                }
                *i += 1;
                next
            }
        };
        (Some(value), true)
    };
    reading.uses.push(Use {
        opt: last,
        value,
        token: tok,
        negated: !on,
        global,
    });
    Ok(())
}

/// find's predicates that take a command line rather than one word.
pub const FIND_COMMANDS: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];

/// GNU find ([`Grammar::Find`]): leading options, start points (the
/// operands), then the expression, every word of which is a row spelled
/// exactly. A command predicate's use has the command's first word as its
/// value (the command is the words after its token, up to `;` or `{} +`);
/// `-fprintf FILE FORMAT` has FILE as its value, the path it writes.
fn find<'a>(spec: &'static Spec, args: &'a [String], reading: &mut Reading<'a>) {
    let row = |name: &str| -> Option<&'static Opt> {
        spec.opts
            .iter()
            .flat_map(|t| t.iter())
            .find(|o| o.names.contains(&name))
    };
    let mut i = 0;
    // Leading options, one per word: `-HL` is an unknown predicate.
    while let Some(tok) = args.get(i).map(String::as_str) {
        let opt = match tok {
            "--" => {
                i += 1;
                break;
            }
            "-H" | "-L" | "-P" | "-D" => row(tok),
            _ if tok.len() > 2
                && tok.starts_with("-O")
                && tok[2..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                row("-O")
            }
            _ => break,
        };
        let Some(opt) = opt else {
            reading.problem = Some(Problem::UnknownOption(tok));
            return;
        };
        let value = if tok == "-D" {
            match following(args, &mut i, 1, tok) {
                Ok(v) => Some(v),
                Err(problem) => {
                    reading.problem = Some(problem);
                    return;
                }
            }
        } else {
            None
        };
        reading.uses.push(Use::new(opt, value, tok));
        i += 1;
    }
    while let Some(tok) = args.get(i).map(String::as_str) {
        if tok.starts_with('-') || tok == "(" || tok == "!" {
            break;
        }
        reading.operands.push(tok);
        i += 1;
    }
    while let Some(tok) = args.get(i).map(String::as_str) {
        let Some(opt) =
            row(tok).filter(|_| tok != "-O" && !matches!(tok, "-H" | "-L" | "-P" | "-D"))
        else {
            reading.problem = Some(Problem::UnknownOption(tok));
            return;
        };
        if FIND_COMMANDS.contains(&tok) {
            // The command: at least one word, then `;`, or `+` after `{}`.
            let start = i + 1;
            let end = (start..args.len())
                .find(|&j| args[j] == ";" || (args[j] == "+" && j > start && args[j - 1] == "{}"));
            match end {
                Some(end) if end > start => {
                    reading
                        .uses
                        .push(Use::new(opt, Some(args[start].as_str()), tok));
                    // `{} +` ends the command, but `{}` is one of its words.
                    reading.commands.push(CommandLine {
                        predicate: tok,
                        words: start..end,
                    });
                    i = end + 1;
                }
                _ => {
                    reading.problem = Some(Problem::MissingValue(tok));
                    return;
                }
            }
            continue;
        }
        let value = match opt.arity {
            Arity::Flag | Arity::Optional => Ok(None),
            Arity::Required => following(args, &mut i, 1, tok).map(Some),
            Arity::Pair => following(args, &mut i, 2, tok).map(|_| Some(args[i - 1].as_str())),
        };
        match value {
            Ok(value) => reading.uses.push(Use::new(opt, value, tok)),
            Err(problem) => {
                reading.problem = Some(problem);
                return;
            }
        }
        i += 1;
    }
}

/// tar's old style: when the first word has no leading dash, each of its
/// letters is a short option, and each letter that takes a value takes the
/// next word after the bundle, in order (`tar cvfT a.tar list src`: `-f
/// a.tar -T list`). Returns the words left for the ordinary reading.
fn old_style<'a>(index: &Index, args: &'a [String], reading: &mut Reading<'a>) -> &'a [String] {
    let Some((bundle, mut rest)) = args.split_first() else {
        return args;
    };
    if bundle.is_empty() || bundle.starts_with('-') {
        return args;
    }
    for c in bundle.chars() {
        let Some(opt) = short(index, c, true) else {
            reading.problem = Some(Problem::UnknownOption(bundle));
            return &[];
        };
        let value = match opt.arity {
            Arity::Flag | Arity::Optional => None,
            // No short option takes two words; read as one, so a missing
            // word is never assumed.
            Arity::Required | Arity::Pair => {
                let Some((v, after)) = rest.split_first() else {
                    reading.problem = Some(Problem::MissingValue(bundle));
                    return &[];
                };
                rest = after;
                Some(v.as_str())
            }
        };
        reading.uses.push(Use::new(opt, value, bundle));
    }
    rest
}

/// Reads options from `tokens` into `reading` until `--`, the end, or (when
/// not permuting) the first operand. Returns the words left as operands
/// (after `--`, or from the first operand on when not permuting), and
/// whether a `--` ended the options; operands met while permuting are
/// pushed on `reading.operands` directly.
fn region<'a>(
    index: &Index,
    how: Match,
    permute: bool,
    tokens: &'a [String],
    reading: &mut Reading<'a>,
) -> (&'a [String], bool) {
    let mut i = 0;
    while let Some(tok) = tokens.get(i) {
        let tok = tok.as_str();
        if tok == "--" && how == Match::Unzip {
            // unzip reads `--` as a negation of nothing and goes on.
            i += 1;
            continue;
        }
        if tok == "--"
            || (how == Match::Negatable && tok == "--end-of-options")
            || (how == Match::Go && matches!(tok, "-args" | "--args"))
        {
            return (&tokens[i + 1..], true);
        }
        if how == Match::PerlLong && tok.len() > 1 && tok.starts_with('+') {
            if let Err(problem) = plus_option(index, tokens, &mut i, reading) {
                return stop(reading, problem);
            }
            i += 1;
            continue;
        }
        if how == Match::Go && tok.len() > 1 && tok.starts_with('-') {
            if let Err(problem) = go_flag(index, tokens, &mut i, reading) {
                return stop(reading, problem);
            }
            i += 1;
            continue;
        }
        if let Some(body) = tok.strip_prefix("--") {
            let (name, attached) = match body.split_once('=') {
                Some((n, v)) if how != Match::Curl => (n, Some(v)),
                _ => (body, None),
            };
            let (opt, negated) = match long(index, how, name) {
                Ok(found) => found,
                Err(candidates) => {
                    return stop(
                        reading,
                        if candidates.is_empty() {
                            Problem::UnknownOption(tok)
                        } else {
                            Problem::Ambiguous(tok, candidates)
                        },
                    );
                }
            };
            let arity = if negated { Arity::Flag } else { opt.arity };
            let value = match (arity, attached) {
                (Arity::Flag | Arity::Pair, Some(_)) => {
                    return stop(reading, Problem::UnexpectedValue(tok));
                }
                (Arity::Pair, None) => match following(tokens, &mut i, 2, tok) {
                    Ok(v) => Some(v),
                    Err(problem) => return stop(reading, problem),
                },
                (Arity::Required, None) => match following(tokens, &mut i, 1, tok) {
                    Ok(v) => Some(v),
                    Err(problem) => return stop(reading, problem),
                },
                (_, attached) => attached,
            };
            reading.uses.push(Use {
                negated,
                ..Use::new(opt, value, tok)
            });
        } else if tok.len() > 1 && tok.starts_with('-') && matches!(how, Match::Zip | Match::Unzip)
        {
            if let Err(problem) = info_zip_cluster(index, how, tokens, &mut i, reading) {
                return stop(reading, problem);
            }
        } else if tok.len() > 1 && tok.starts_with('-') && how == Match::NextWords {
            // Each value-taking letter takes the next word not yet taken.
            for c in tok[1..].chars() {
                let Some(opt) = short(index, c, true) else {
                    return stop(reading, Problem::UnknownOption(tok));
                };
                let value = match opt.arity {
                    Arity::Flag => None,
                    Arity::Optional | Arity::Required | Arity::Pair => {
                        i += 1;
                        match tokens.get(i) {
                            Some(v) => Some(v.as_str()),
                            None => return stop(reading, Problem::MissingValue(tok)),
                        }
                    }
                };
                reading.uses.push(Use::new(opt, value, tok));
            }
        } else if tok.len() > 1 && tok.starts_with('-') {
            let cluster = &tok[1..];
            for (pos, c) in cluster.char_indices() {
                let Some(opt) = short(index, c, how != Match::Curl) else {
                    return stop(reading, Problem::UnknownOption(tok));
                };
                let rest = &cluster[pos + c.len_utf8()..];
                let value = match opt.arity {
                    Arity::Flag => None,
                    Arity::Optional => Some(rest).filter(|r| !r.is_empty()),
                    // clap and pflag read `-o=v` as `-o v`; judging the value
                    // without the `=` only ever asks more.
                    Arity::Required | Arity::Pair if !rest.is_empty() && how == Match::Exact => {
                        Some(rest.strip_prefix('=').unwrap_or(rest))
                    }
                    Arity::Required | Arity::Pair if !rest.is_empty() => Some(rest),
                    Arity::Required | Arity::Pair => match following(tokens, &mut i, 1, tok) {
                        Ok(v) => Some(v),
                        Err(problem) => return stop(reading, problem),
                    },
                };
                reading.uses.push(Use::new(opt, value, tok));
                if opt.arity != Arity::Flag {
                    break;
                }
            }
        } else if permute {
            reading.operands.push(tok);
        } else {
            return (&tokens[i..], false);
        }
        i += 1;
    }
    (&[], false)
}

/// Ends a region on `problem`: nothing after it is read.
fn stop<'a>(reading: &mut Reading<'a>, problem: Problem<'a>) -> (&'a [String], bool) {
    reading.problem = Some(problem);
    (&[], false)
}

/// The word `skip` words after `tokens[*i]`, advancing `*i` to it: an
/// option's value. A missing one is a problem with `tok`.
fn following<'a>(
    tokens: &'a [String],
    i: &mut usize,
    skip: usize,
    tok: &'a str,
) -> Result<&'a str, Problem<'a>> {
    *i += skip;
    tokens
        .get(*i)
        .map(String::as_str)
        .ok_or(Problem::MissingValue(tok))
}

/// Reads one Go flag word, `tokens[*i]`, into `reading`: `-name` or
/// `--name`, exact, with `=value`, or the next word (advancing `*i`) when
/// the flag takes a value.
fn go_flag<'a>(
    index: &Index,
    tokens: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<(), Problem<'a>> {
    let tok = tokens[*i].as_str();
    let body = tok.strip_prefix("--").unwrap_or(&tok[1..]);
    let (name, attached) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    if name.is_empty() || name.starts_with('-') {
        return Err(Problem::UnknownOption(tok));
    }
    let Some(opt) = index
        .rows()
        .find(|o| o.names.iter().any(|n| n.strip_prefix('-') == Some(name)))
    else {
        return Err(Problem::UnknownOption(tok));
    };
    let value = match (opt.arity, attached) {
        // A boolean flag's `=true`/`=false` says whether it is on.
        (Arity::Flag, Some(v)) => {
            let on = match v {
                "true" | "1" | "t" | "T" | "TRUE" | "True" => true,
                "false" | "0" | "f" | "F" | "FALSE" | "False" => false,
                _ => return Err(Problem::UnexpectedValue(tok)),
            };
            reading.uses.push(Use {
                negated: !on,
                ..Use::new(opt, None, tok)
            });
            return Ok(());
        }
        (Arity::Flag, None) => None,
        (_, Some(v)) => Some(v),
        (_, None) => Some(following(tokens, i, 1, tok)?),
    };
    reading.uses.push(Use::new(opt, value, tok));
    Ok(())
}

/// Reads one Info-ZIP option word, `tokens[*i]`, into `reading`: at each
/// place the longest short name that matches (two letters, else one), a
/// value taking the rest of the word without one leading `=`, or the next
/// word (advancing `*i`); zip's `-` after an option turns that option off.
fn info_zip_cluster<'a>(
    index: &Index,
    how: Match,
    tokens: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<(), Problem<'a>> {
    let tok = tokens[*i].as_str();
    let mut rest = &tok[1..];
    while let Some(c) = rest.chars().next() {
        if c == '-' && how == Match::Zip {
            // Turns off the option before it; an option that cannot be
            // turned off is an error zip stops at.
            match reading.uses.last_mut() {
                Some(last) if std::ptr::eq(last.token, tok) && last.value.is_none() => {
                    last.negated = true;
                }
                _ => return Err(Problem::UnknownOption(tok)),
            }
            rest = &rest[1..];
            continue;
        }
        let two: Option<&'static Opt> = rest.get(..2).and_then(|pair| {
            index.rows().find(|o| {
                o.names
                    .iter()
                    .any(|n| n.get(1..) == Some(pair) && n.len() == 3)
            })
        });
        let (opt, len) = match two {
            Some(o) => (o, 2),
            None => match short(index, c, false) {
                Some(o) => (o, c.len_utf8()),
                None => return Err(Problem::UnknownOption(tok)),
            },
        };
        rest = &rest[len..];
        let value = match opt.arity {
            Arity::Flag => None,
            Arity::Optional | Arity::Required | Arity::Pair if !rest.is_empty() => {
                let v = rest.strip_prefix('=').unwrap_or(rest);
                rest = "";
                Some(v)
            }
            Arity::Optional => None,
            // No Info-ZIP option takes two words; read as one.
            Arity::Required | Arity::Pair => Some(following(tokens, i, 1, tok)?),
        };
        reading.uses.push(Use::new(opt, value, tok));
    }
    Ok(())
}

/// The row a short letter names; with `digits`, a digit matches a `-#`
/// row (which is otherwise the letter `#`).
fn short(index: &Index, c: char, digits: bool) -> Option<&'static Opt> {
    if digits {
        index.short(c)
    } else {
        index.letter(c)
    }
}

/// The row a long name (without `--`) resolves to and whether it was
/// negated, or the candidates when it does not resolve to exactly one row
/// (empty: unknown). Equal to scanning the rows in table order: an exact
/// spelling wins (the first row that has it), then git's exact negations,
/// then the rows any spelling of which the name abbreviates.
fn long(index: &Index, how: Match, name: &str) -> Result<(&'static Opt, bool), Vec<&'static str>> {
    if name.is_empty() {
        return Err(Vec::new());
    }
    if let Some((_, row)) = index.exact(name) {
        return Ok((row, false));
    }
    let negatable = how == Match::Negatable;
    if negatable {
        // `--no-foo` for `--foo`, and `--foo` for `--no-foo`: the first row.
        let negated = name.strip_prefix("no-").and_then(|n| index.exact(n));
        let positive = index.exact(&format!("no-{name}"));
        let first = match (negated, positive) {
            (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        if let Some((_, row)) = first {
            return Ok((row, true));
        }
    }
    if matches!(how, Match::Exact | Match::Unzip | Match::NextWords) {
        return Err(Vec::new());
    }
    if how == Match::Curl
        && let Some(flag) = name.strip_prefix("no-")
    {
        // curl turns off a flag named exactly; `--no-` with a prefix, or
        // with an option that takes a value, is an error.
        return match index.exact(flag) {
            Some((_, row)) if row.arity == Arity::Flag => Ok((row, true)),
            _ => Err(Vec::new()),
        };
    }
    let mut hits: Vec<index::LongHit> = Vec::new();
    index.starting_with(name, false, &mut hits);
    if negatable {
        if let Some(n) = name.strip_prefix("no-").filter(|n| !n.is_empty()) {
            index.starting_with(n, true, &mut hits);
        }
        let mut positive = Vec::new();
        index.starting_with("no-", true, &mut positive);
        hits.extend(
            positive
                .into_iter()
                .filter(|(_, _, l, _)| l.strip_prefix("no-").is_some_and(|p| p.starts_with(name))),
        );
    }
    // Table order; for one spelling, the plain abbreviation before a negation.
    hits.sort_by_key(|(position, _, _, negated)| (*position, *negated));
    let mut found: Vec<(&'static Opt, bool, &'static str)> = Vec::new();
    for (_, row, l, negated) in hits {
        if !found.iter().any(|(f, _, _)| f.same_row(row)) {
            found.push((row, negated, l));
        }
    }
    match found.as_slice() {
        [(o, negated, _)] => Ok((o, *negated)),
        _ => Err(found.iter().map(|(_, _, l)| *l).collect()),
    }
}

#[cfg(test)]
mod index_tests {
    //! The index answers exactly what a scan of the rows in table order
    //! answers, for every spelling of every spec, each prefix of it, and
    //! their `no-` forms.

    use super::{Index, Match, Opt, long, short};
    use crate::policy::specs::all;

    fn rows(tables: &'static [&'static [Opt]]) -> impl Iterator<Item = &'static Opt> {
        tables.iter().flat_map(|t| t.iter())
    }

    fn scan_short(tables: &'static [&'static [Opt]], c: char) -> Option<&'static Opt> {
        rows(tables).find(|o| {
            o.names.iter().any(|n| {
                let mut it = n.chars();
                it.next() == Some('-')
                    && match it.next() {
                        Some('#') => c.is_ascii_digit(),
                        Some(l) => l == c,
                        None => false,
                    }
                    && it.next().is_none()
            })
        })
    }

    type Found = Result<(&'static Opt, bool), Vec<&'static str>>;

    fn scan_long(tables: &'static [&'static [Opt]], how: Match, name: &str) -> Found {
        if name.is_empty() {
            return Err(Vec::new());
        }
        let longs = || {
            rows(tables).flat_map(|o| {
                o.names
                    .iter()
                    .filter_map(move |n| n.strip_prefix("--").map(|l| (o, l)))
            })
        };
        if let Some((o, _)) = longs().find(|(_, l)| *l == name) {
            return Ok((o, false));
        }
        let negatable = how == Match::Negatable;
        if negatable
            && let Some((o, _)) = longs().find(|(_, l)| {
                name.strip_prefix("no-") == Some(*l) || l.strip_prefix("no-") == Some(name)
            })
        {
            return Ok((o, true));
        }
        if how == Match::Exact {
            return Err(Vec::new());
        }
        let mut found: Vec<(&'static Opt, bool, &'static str)> = Vec::new();
        for (o, l) in longs() {
            let hit = if l.starts_with(name) {
                Some(false)
            } else if negatable
                && (name
                    .strip_prefix("no-")
                    .is_some_and(|n| !n.is_empty() && l.starts_with(n))
                    || l.strip_prefix("no-").is_some_and(|p| p.starts_with(name)))
            {
                Some(true)
            } else {
                None
            };
            if let Some(negated) = hit
                && !found.iter().any(|(f, _, _)| f.same_row(o))
            {
                found.push((o, negated, l));
            }
        }
        match found.as_slice() {
            [(o, negated, _)] => Ok((o, *negated)),
            _ => Err(found.iter().map(|(_, _, l)| *l).collect()),
        }
    }

    fn same(a: &Found, b: &Found) -> bool {
        match (a, b) {
            (Ok((x, n)), Ok((y, m))) => x.same_row(y) && n == m,
            (Err(x), Err(y)) => x == y,
            _ => false,
        }
    }

    #[test]
    fn the_index_answers_what_a_scan_in_table_order_answers() {
        let mut checked = 0;
        for spec in all() {
            let mut sets = vec![spec.opts];
            let mut subs: Vec<&'static crate::policy::specs::Sub> = spec.subs.iter().collect();
            while let Some(sub) = subs.pop() {
                sets.push(sub.opts);
                subs.extend(sub.subs);
            }
            for tables in sets {
                let index = Index::build(tables);
                let mut names: Vec<String> = vec!["no-".into(), "n".into(), "zz".into()];
                for row in rows(tables) {
                    for n in row.names {
                        if let Some(l) = n.strip_prefix("--") {
                            for end in 1..=l.len() {
                                names.push(l[..end].to_owned());
                                names.push(format!("no-{}", &l[..end]));
                            }
                        }
                    }
                }
                for name in &names {
                    for how in [Match::Exact, Match::Prefix, Match::Negatable] {
                        let want = scan_long(tables, how, name);
                        let got = long(&index, how, name);
                        assert!(
                            same(&want, &got),
                            "{} --{name} {how:?}: {want:?} vs {got:?}",
                            spec.family
                        );
                        checked += 1;
                    }
                }
                for c in ('!'..='~').chain(['é']) {
                    let (want, got) = (scan_short(tables, c), short(&index, c, true));
                    assert!(
                        want.map(|w| w as *const Opt) == got.map(|g| g as *const Opt),
                        "{} -{c}",
                        spec.family
                    );
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
