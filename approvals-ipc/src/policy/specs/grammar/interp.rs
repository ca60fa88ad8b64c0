//! Interpreters' own option parsers ([`Grammar::Interpreter`]): options
//! come before the script, the first operand is the script (or, after
//! inline code or python's `-m`, the first word of its argv), and every
//! word after it is the script's, never the interpreter's.
//!
//! [`Grammar::Interpreter`]: super::Grammar::Interpreter

use super::{Problem, Reading, Use, following};
use crate::policy::specs::families::{node, perl, python, ruby};
use crate::policy::specs::index::Index;
use crate::policy::specs::types::{Arity, ByValue, Interp, Opt};

/// Reads `args` by `lang`'s rules and `index` (the spec's options).
pub(super) fn read<'a>(lang: Interp, index: &Index, args: &'a [String], reading: &mut Reading<'a>) {
    let mut i = 0;
    while let Some(tok) = args.get(i) {
        let tok = tok.as_str();
        if tok == "--" {
            reading
                .operands
                .extend(args[i + 1..].iter().map(String::as_str));
            return;
        }
        if tok.len() < 2 || !tok.starts_with('-') {
            // The script (or `-`, stdin): everything from here is its.
            reading
                .operands
                .extend(args[i..].iter().map(String::as_str));
            return;
        }
        let read = if let Some(body) = tok.strip_prefix("--") {
            long(lang, index, tok, body, args, &mut i, reading)
        } else {
            short(lang, index, tok, args, &mut i, reading)
        };
        match read {
            Err(problem) => {
                reading.problem = Some(problem);
                return;
            }
            Ok(Ends::Options) => {
                // python's `-c CODE` / `-m MODULE`: the rest is its argv.
                reading
                    .operands
                    .extend(args[i + 1..].iter().map(String::as_str));
                return;
            }
            Ok(Ends::Nothing) => {}
        }
        i += 1;
    }
}

/// Whether an option ended the interpreter's options.
enum Ends {
    Nothing,
    Options,
}

/// The options `lang` judges by value.
fn by_value(lang: Interp) -> &'static [ByValue] {
    match lang {
        Interp::Python => python::BY_VALUE,
        Interp::Perl => perl::BY_VALUE,
        Interp::Ruby => ruby::BY_VALUE,
        Interp::Node => node::BY_VALUE,
    }
}

/// Records a use of `opt` with `value`, judged as a [`ByValue`] row when
/// its value calls for one (a row that takes no value drops it).
fn push<'a>(
    lang: Interp,
    opt: &'static Opt,
    value: Option<&'a str>,
    tok: &'a str,
    reading: &mut Reading<'a>,
) -> Ends {
    let refined = value.and_then(|v| {
        by_value(lang)
            .iter()
            .find(|b| b.names == opt.names && (b.when)(v))
            .map(|b| &b.opt)
    });
    let (opt, value) = match refined {
        Some(row) if row.arity == Arity::Flag => (row, None),
        Some(row) => (row, value),
        None => (opt, value),
    };
    reading.uses.push(Use::new(opt, value, tok));
    let ends = lang == Interp::Python && opt.names.iter().any(|n| matches!(*n, "-c" | "-m"));
    if ends { Ends::Options } else { Ends::Nothing }
}

/// One `--name` word (`body` is without the dashes).
fn long<'a>(
    lang: Interp,
    index: &Index,
    tok: &'a str,
    body: &'a str,
    args: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<Ends, Problem<'a>> {
    let unknown = || Problem::UnknownOption(tok);
    match lang {
        // The whole word is the name (no `=`); a value is the next word.
        Interp::Python | Interp::Perl => {
            let (_, opt) = index.exact(body).ok_or_else(unknown)?;
            let value = match opt.arity {
                Arity::Flag => None,
                _ => Some(following(args, i, 1, tok)?),
            };
            Ok(push(lang, opt, value, tok, reading))
        }
        Interp::Ruby => {
            let (name, attached) = split_value(body);
            let (opt, attached) = match index.exact(name) {
                Some((_, opt)) => (opt, attached),
                None => {
                    // `--enable-FEATURE`, `--disable-FEATURE`.
                    let (switch, feature) = name
                        .strip_prefix("enable-")
                        .map(|f| ("enable", f))
                        .or_else(|| name.strip_prefix("disable-").map(|f| ("disable", f)))
                        .filter(|(_, f)| !f.is_empty() && attached.is_none())
                        .ok_or_else(unknown)?;
                    let (_, opt) = index.exact(switch).ok_or_else(unknown)?;
                    (opt, Some(feature))
                }
            };
            let value = match (opt.arity, attached) {
                (Arity::Flag, Some(_)) => return Err(Problem::UnexpectedValue(tok)),
                (Arity::Required | Arity::Pair, None) => Some(following(args, i, 1, tok)?),
                (_, attached) => attached,
            };
            Ok(push(lang, opt, value, tok, reading))
        }
        Interp::Node => {
            let (name, attached) = split_value(body);
            let name = name.replace('_', "-");
            let (opt, negated) = node_long(index, &name).ok_or_else(unknown)?;
            let value = match (opt.arity, attached) {
                (Arity::Flag, Some(_)) => return Err(Problem::UnexpectedValue(tok)),
                (Arity::Flag, None) => None,
                (_, Some(v)) => Some(v),
                (Arity::Optional, None) if opt.names.contains(&"--print") => node_code(args, i),
                (Arity::Optional, None) => None,
                (Arity::Required | Arity::Pair, None) => Some(node_value(args, i, tok)?),
            };
            if negated {
                reading.uses.push(Use {
                    negated: true,
                    ..Use::new(opt, None, tok)
                });
                return Ok(Ends::Nothing);
            }
            Ok(push(lang, opt, value, tok, reading))
        }
    }
}

/// `name=value` split at the first `=`.
fn split_value(body: &str) -> (&str, Option<&str>) {
    match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    }
}

/// node's row for a long name (normalized, without `--`), and whether it
/// was turned off: exact; else `no-NAME` for a boolean NAME not itself
/// spelled `no-…`; else NAME for a listed boolean `no-NAME`.
fn node_long(index: &Index, name: &str) -> Option<(&'static Opt, bool)> {
    if let Some((_, opt)) = index.exact(name) {
        return Some((opt, false));
    }
    if let Some(positive) = name.strip_prefix("no-")
        && !positive.starts_with("no-")
        && let Some((_, opt)) = index.exact(positive)
    {
        return (opt.arity == Arity::Flag).then_some((opt, true));
    }
    let (_, opt) = index.exact(&format!("no-{name}"))?;
    (opt.arity == Arity::Flag).then_some((opt, true))
}

/// node's value for an option that requires one: the next word, which
/// node refuses when it starts with `-`.
fn node_value<'a>(args: &'a [String], i: &mut usize, tok: &'a str) -> Result<&'a str, Problem<'a>> {
    match args.get(*i + 1) {
        Some(next) if next.starts_with('-') => Err(Problem::MissingValue(tok)),
        _ => following(args, i, 1, tok),
    }
}

/// `-p`/`--print`'s code: the next word unless it starts with `-`.
fn node_code<'a>(args: &'a [String], i: &mut usize) -> Option<&'a str> {
    let next = args.get(*i + 1).filter(|n| !n.starts_with('-'))?;
    *i += 1;
    Some(next.as_str())
}

/// One word of short options.
fn short<'a>(
    lang: Interp,
    index: &Index,
    tok: &'a str,
    args: &'a [String],
    i: &mut usize,
    reading: &mut Reading<'a>,
) -> Result<Ends, Problem<'a>> {
    let unknown = || Problem::UnknownOption(tok);
    if lang == Interp::Node {
        // One option per word; `-pe` is node's alias for `--print --eval`.
        if tok == "-pe" {
            let print = index.letter('p').ok_or_else(unknown)?;
            let eval = index.letter('e').ok_or_else(unknown)?;
            reading.uses.push(Use::new(print, None, tok));
            let code = node_value(args, i, tok)?;
            return Ok(push(lang, eval, Some(code), tok, reading));
        }
        let mut letters = tok[1..].chars();
        let (Some(c), None) = (letters.next(), letters.next()) else {
            return Err(unknown());
        };
        let opt = index.letter(c).ok_or_else(unknown)?;
        let value = match opt.arity {
            Arity::Flag => None,
            Arity::Optional => node_code(args, i),
            Arity::Required | Arity::Pair => Some(node_value(args, i, tok)?),
        };
        return Ok(push(lang, opt, value, tok, reading));
    }
    let mut rest = &tok[1..];
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        let opt = index.letter(c).filter(|_| c != '#').ok_or_else(unknown)?;
        match opt.arity {
            Arity::Flag => {
                if let Ends::Options = push(lang, opt, None, tok, reading) {
                    return Ok(Ends::Options);
                }
            }
            Arity::Required | Arity::Pair => {
                let value = if !rest.is_empty() {
                    rest
                } else if lang == Interp::Perl && matches!(c, 'M' | 'm') {
                    // perl: "Missing argument to -M".
                    return Err(Problem::MissingValue(tok));
                } else {
                    following(args, i, 1, tok)?
                };
                return Ok(push(lang, opt, Some(value), tok, reading));
            }
            Arity::Optional => {
                let len = stuck(lang, c, rest);
                let (value, after) = rest.split_at(len);
                push(
                    lang,
                    opt,
                    Some(value).filter(|v| !v.is_empty()),
                    tok,
                    reading,
                );
                rest = after;
            }
        }
    }
    Ok(Ends::Nothing)
}

/// How much of `rest` an optional-value letter `c` takes; the letters
/// after that are options again.
fn stuck(lang: Interp, c: char, rest: &str) -> usize {
    let run = |s: &str, ok: fn(char) -> bool| s.find(|ch: char| !ok(ch)).unwrap_or(s.len());
    let octal = |ch: char| ch.is_digit(8);
    match (lang, c) {
        // `-0x1FF` or octal digits.
        (Interp::Perl, '0') => match rest.strip_prefix(['x', 'X']) {
            Some(hex) => 1 + run(hex, |ch| ch.is_ascii_hexdigit()),
            None => run(rest, octal),
        },
        (Interp::Perl, 'l') | (Interp::Ruby, '0') => run(rest, octal),
        // ruby's `-W`: one level digit, or `:category` to the end.
        (Interp::Ruby, 'W') if rest.starts_with(':') => rest.len(),
        (Interp::Ruby, 'W') => run(rest, |ch| ch.is_ascii_digit()).min(1),
        // ruby's `-K`: one encoding letter.
        (Interp::Ruby, 'K') => rest.chars().next().map_or(0, char::len_utf8),
        _ => rest.len(),
    }
}
