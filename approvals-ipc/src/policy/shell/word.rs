//! One shell word to the literal string the program would receive.
//!
//! Decides the text of a word after quote removal, from the pieces
//! `brush_parser::word::parse` finds in the AST's raw word (never from a
//! `Display` round trip). Allows unquoted text, single quotes, double quotes
//! without expansions, backslash escapes and a leading `~` or `~/` (expanded
//! to the given home). Refuses every expansion (parameter, command,
//! arithmetic), ANSI-C and locale quoting, unquoted glob characters, brace
//! expansion and every other tilde form, so the string we return is exactly
//! what bash would pass. Upholds DESIGN.md invariant 3 and, through the plan,
//! invariant 4.

use brush_parser::ParserOptions;
use brush_parser::word::{Parameter, ParameterExpr, WordPiece, WordPieceWithSource};

use super::ShellRefusal;

/// A character of the word with whether it was quoted (quoting makes glob,
/// brace and tilde characters literal).
#[derive(Clone, Copy)]
struct Ch {
    c: char,
    quoted: bool,
}

/// What a word is expanded against.
pub(super) struct WordContext<'a> {
    /// The parser options the script was parsed with.
    pub options: &'a ParserOptions,
    /// The home directory for a leading `~`, if known.
    pub home: Option<&'a str>,
    /// Variables whose `$NAME` is their value: the request's inert
    /// environment overrides, which the shell runs with.
    pub vars: Option<&'a std::collections::BTreeMap<String, String>>,
}

/// The literal value of the raw word `raw`, or why it is not literal.
pub(super) fn literal(raw: &str, ctx: &WordContext<'_>) -> Result<String, ShellRefusal> {
    if is_plain(raw) || is_lone_bracket(raw) {
        // Nothing in it quotes, expands, globs or escapes: the word is its
        // own literal, and the word parser would return it unchanged.
        return Ok(raw.to_owned());
    }
    parsed_literal(raw, ctx)
}

/// The value of a `NAME=value` prefix: as [`literal`], except that an
/// unquoted `*`, `?` or `[` stays itself. The shell performs no pathname
/// expansion on an assignment (POSIX 2.9.1; bash and dash agree), so
/// `DEBUG=app:* npm start` passes `app:*`. Every expansion, brace form and
/// tilde form [`literal`] refuses is still refused, and the value must
/// then fit its variable's row of the inert list (`policy/env.rs`).
pub(super) fn assignment_value(raw: &str, ctx: &WordContext<'_>) -> Result<String, ShellRefusal> {
    if is_plain(raw) {
        return Ok(raw.to_owned());
    }
    let chars = parsed_chars(raw, ctx)?;
    Ok(chars.iter().map(|ch| ch.c).collect())
}

/// An argument word: its literal text, and the pattern bash would expand
/// when it has unquoted glob characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Argument {
    /// The word after quote removal: what bash passes when no file matches.
    pub text: String,
    /// The glob, quoted glob characters escaped with a backslash, if any.
    pub glob: Option<String>,
}

/// An argument word, which unlike [`literal`] may hold an unquoted glob,
/// expanded later against the working directory it runs in.
pub(super) fn argument(raw: &str, ctx: &WordContext<'_>) -> Result<Argument, ShellRefusal> {
    if is_plain(raw) || is_lone_bracket(raw) {
        return Ok(Argument {
            text: raw.to_owned(),
            glob: None,
        });
    }
    let chars = parsed_chars(raw, ctx)?;
    let glob = chars
        .iter()
        .any(|ch| !ch.quoted && matches!(ch.c, '*' | '?' | '['))
        .then(|| {
            let mut pattern = String::with_capacity(chars.len() + 4);
            for ch in &chars {
                if ch.quoted && matches!(ch.c, '*' | '?' | '[' | ']' | '\\') {
                    pattern.push('\\');
                }
                pattern.push(ch.c);
            }
            pattern
        });
    Ok(Argument {
        text: chars.iter().map(|ch| ch.c).collect(),
        glob,
    })
}

/// [`literal`] through brush's word parser, for words that need it.
fn parsed_literal(raw: &str, ctx: &WordContext<'_>) -> Result<String, ShellRefusal> {
    let chars = parsed_chars(raw, ctx)?;
    refuse_globs(raw, &chars)?;
    Ok(chars.iter().map(|ch| ch.c).collect())
}

/// The characters of a word after quote removal, `~` and `$HOME`
/// expansion, with whether each was quoted; brace expansion refused.
fn parsed_chars(raw: &str, ctx: &WordContext<'_>) -> Result<Vec<Ch>, ShellRefusal> {
    let pieces = brush_parser::word::parse(raw, ctx.options).map_err(|e| ShellRefusal::Parse {
        message: e.to_string(),
    })?;
    let mut chars = Vec::with_capacity(raw.len());
    for piece in &pieces {
        push_piece(raw, piece, false, ctx, &mut chars)?;
    }
    refuse_brace_expansion(raw, &chars)?;
    expand_tilde(raw, chars, ctx.home)
}

/// Whether every byte of `raw` stands for itself in every POSIX shell
/// context a command word can be in: ASCII letters, digits and
/// `_ - . / : = + , @ %`. Quotes, `\\`, `$`, backquotes, glob and brace
/// characters, `~`, `#`, `!`, `^`, whitespace and anything non-ASCII take
/// the full parse.
fn is_plain(raw: &str) -> bool {
    !raw.is_empty()
        && raw.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'-' | b'.' | b'/' | b':' | b'=' | b'+' | b',' | b'@' | b'%'
                )
        })
}

/// Whether `raw` is the word `[` alone (the `test` command of `[ -d x ]`).
/// An unquoted `[` opens a bracket expression only when a `]` closes it in
/// the same word; alone it matches itself, so bash's pathname expansion
/// yields `[` whatever the directory holds (a file named `[` included).
fn is_lone_bracket(raw: &str) -> bool {
    raw == "["
}

/// Appends the literal characters of one piece, or refuses the piece.
fn push_piece(
    raw: &str,
    piece: &WordPieceWithSource,
    in_double_quotes: bool,
    ctx: &WordContext<'_>,
    out: &mut Vec<Ch>,
) -> Result<(), ShellRefusal> {
    // The indices come from the same string; fall back to the whole word.
    let text = || {
        raw.get(piece.start_index..piece.end_index)
            .unwrap_or(raw)
            .to_owned()
    };
    match &piece.piece {
        WordPiece::Text(s) => {
            if let Some(c) = s.chars().find(|c| matches!(c, '$' | '`')) {
                // brush leaves a lone `$` (and text it does not understand,
                // such as `${ cmd; }`) as plain text: never literal here.
                return Err(if c == '$' {
                    ShellRefusal::ParameterExpansion { text: text() }
                } else {
                    ShellRefusal::BacktickSubstitution { text: text() }
                });
            }
            out.extend(s.chars().map(|c| Ch {
                c,
                quoted: in_double_quotes,
            }));
        }
        WordPiece::SingleQuotedText(s) if !in_double_quotes => {
            out.extend(s.chars().map(|c| Ch { c, quoted: true }));
        }
        WordPiece::EscapeSequence(s) => {
            let mut escaped = s.chars();
            let escaped = match (escaped.next(), escaped.next(), escaped.next()) {
                (Some('\\'), Some(c), None) if c != '\n' => c,
                _ => {
                    return Err(ShellRefusal::Parse {
                        message: format!("unexpected escape sequence {s:?}"),
                    });
                }
            };
            out.push(Ch {
                c: escaped,
                quoted: true,
            });
        }
        WordPiece::DoubleQuotedSequence(inner) if !in_double_quotes => {
            for inner_piece in inner {
                push_piece(raw, inner_piece, true, ctx, out)?;
            }
        }
        WordPiece::SingleQuotedText(_) | WordPiece::DoubleQuotedSequence(_) => {
            return Err(ShellRefusal::Parse {
                message: format!("unexpected nested quoting in {raw:?}"),
            });
        }
        WordPiece::AnsiCQuotedText(_) => return Err(ShellRefusal::AnsiCQuoting { text: text() }),
        WordPiece::GettextDoubleQuotedSequence(_) => {
            return Err(ShellRefusal::LocaleQuoting { text: text() });
        }
        // Tilde pieces are disabled in the parser options; we expand a
        // leading `~` ourselves and refuse the rest.
        WordPiece::TildeExpansion(_) => {
            return Err(ShellRefusal::Tilde {
                word: raw.to_owned(),
            });
        }
        WordPiece::ParameterExpansion(ParameterExpr::Parameter {
            parameter: Parameter::Named(name),
            indirect: false,
        }) if known_value(name, ctx).is_some_and(|v| in_double_quotes || splits_to_itself(v)) => {
            // `$HOME` is the home a leading `~` names, an inert override is
            // what the request sets; unquoted, the value must survive word
            // splitting and globbing unchanged.
            let value = known_value(name, ctx).unwrap_or_default();
            out.extend(value.chars().map(|c| Ch { c, quoted: true }));
        }
        WordPiece::ParameterExpansion(_) => {
            return Err(ShellRefusal::ParameterExpansion { text: text() });
        }
        WordPiece::CommandSubstitution(_) => {
            return Err(ShellRefusal::CommandSubstitution { text: text() });
        }
        WordPiece::BackquotedCommandSubstitution(_) => {
            return Err(ShellRefusal::BacktickSubstitution { text: text() });
        }
        WordPiece::ArithmeticExpression(_) => {
            return Err(ShellRefusal::ArithmeticExpansion { text: text() });
        }
    }
    Ok(())
}

/// The value `$name` has for certain: the home for `HOME`, else the
/// request's inert override of that name.
fn known_value<'a>(name: &str, ctx: &WordContext<'a>) -> Option<&'a str> {
    if name == "HOME" {
        return ctx.home;
    }
    ctx.vars.and_then(|v| v.get(name)).map(String::as_str)
}

/// Whether an unquoted expansion of `value` is `value` as one word: no
/// default-IFS character to split at, no glob character to expand.
fn splits_to_itself(value: &str) -> bool {
    !value.is_empty()
        && !value
            .chars()
            .any(|c| matches!(c, ' ' | '\t' | '\n' | '*' | '?' | '['))
}

/// Refuses an unquoted `*`, `?` or `[`: bash would replace the word with
/// matching file names, and a file name can be a flag.
fn refuse_globs(raw: &str, chars: &[Ch]) -> Result<(), ShellRefusal> {
    match chars
        .iter()
        .find(|ch| !ch.quoted && matches!(ch.c, '*' | '?' | '['))
    {
        Some(ch) => Err(ShellRefusal::Glob {
            word: raw.to_owned(),
            ch: ch.c,
        }),
        None => Ok(()),
    }
}

/// Refuses a word bash could brace-expand: an unquoted `{`, later an
/// unquoted `,` or `..`, later an unquoted `}`. This is wider than bash's
/// rule (which also needs balance and valid sequence ends), never narrower;
/// `{}` and `@{u}` stay literal.
fn refuse_brace_expansion(raw: &str, chars: &[Ch]) -> Result<(), ShellRefusal> {
    let unquoted = |i: usize, c: char| chars.get(i).is_some_and(|ch| !ch.quoted && ch.c == c);
    let Some(open) = (0..chars.len()).find(|&i| unquoted(i, '{')) else {
        return Ok(());
    };
    let Some(close) = (open..chars.len()).rev().find(|&i| unquoted(i, '}')) else {
        return Ok(());
    };
    let separator =
        (open + 1..close).any(|i| unquoted(i, ',') || (unquoted(i, '.') && unquoted(i + 1, '.')));
    if separator {
        return Err(ShellRefusal::BraceExpansion {
            word: raw.to_owned(),
        });
    }
    Ok(())
}

/// Expands a leading unquoted `~` or `~/` to `home`; refuses `~user`, `~+`,
/// `~-`, `~N` and an unquoted `~` after an unquoted `=` or `:` (where bash
/// expands it in assignment-like words). A `~` elsewhere (`HEAD~1`) is
/// literal in bash and stays literal.
fn expand_tilde(raw: &str, chars: Vec<Ch>, home: Option<&str>) -> Result<Vec<Ch>, ShellRefusal> {
    let refuse = || ShellRefusal::Tilde {
        word: raw.to_owned(),
    };
    let after_separator = chars.windows(2).any(|pair| {
        matches!(pair, [sep, tilde] if !sep.quoted && matches!(sep.c, '=' | ':')
            && !tilde.quoted && tilde.c == '~')
    });
    if after_separator {
        return Err(refuse());
    }
    let leading = matches!(
        chars.first(),
        Some(Ch {
            c: '~',
            quoted: false
        })
    );
    if !leading {
        return Ok(chars);
    }
    // The tilde prefix runs to the first unquoted `/`; only an empty one
    // (`~` or `~/...`) names the home directory.
    let prefix_end = chars
        .iter()
        .position(|ch| !ch.quoted && ch.c == '/')
        .unwrap_or(chars.len());
    if prefix_end != 1 {
        return Err(refuse());
    }
    let Some(home) = home else {
        return Err(ShellRefusal::TildeWithoutHome {
            word: raw.to_owned(),
        });
    };
    let mut expanded: Vec<Ch> = home.chars().map(|c| Ch { c, quoted: true }).collect();
    expanded.extend(chars.into_iter().skip(1));
    Ok(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(raw: &str) -> Result<String, &'static str> {
        let options = super::super::parser_options();
        let ctx = WordContext {
            options: &options,
            home: Some("/home/u"),
            vars: None,
        };
        literal(raw, &ctx).map_err(|e| e.code())
    }

    proptest::proptest! {
        /// The fast path for plain words agrees with the full parse.
        #[test]
        fn plain_words_are_their_own_literal(raw in "[A-Za-z0-9_./:=+,@%-]{1,24}") {
            let options = super::super::parser_options();
            let ctx = WordContext { options: &options, home: Some("/home/u"), vars: None };
            proptest::prop_assert!(is_plain(&raw));
            let parsed = parsed_literal(&raw, &ctx).map_err(|e| e.code());
            proptest::prop_assert_eq!(parsed, Ok(raw.clone()));
        }
    }

    #[test]
    fn words_that_quote_expand_or_glob_are_not_plain() {
        for raw in [
            "", "a b", "'a'", "\\a", "$x", "`x`", "*", "a?", "[a]", "{a,b}", "~", "~/x", "#", "!",
            "^", "é", "a\tb",
        ] {
            assert!(!is_plain(raw), "{raw:?}");
        }
    }

    #[test]
    fn literal_words_lose_their_quotes() {
        let cases = [
            ("abc", "abc"),
            ("'a b'", "a b"),
            ("\"a b\"", "a b"),
            ("a\\ b", "a b"),
            ("\"a\\\"b\\\\c\\$d\\`e\\x\"", "a\"b\\c$d`e\\x"),
            ("'*'", "*"),
            ("\\*", "*"),
            ("'$(id)'", "$(id)"),
            ("\"\\$(id)\"", "$(id)"),
            ("''", ""),
            ("a'b'\"c\"d", "abcd"),
            ("{}", "{}"),
            ("HEAD@{1}", "HEAD@{1}"),
            ("'{a,b}'", "{a,b}"),
            ("{a\\,b}", "{a,b}"),
            ("HEAD~1", "HEAD~1"),
            ("~", "/home/u"),
            ("~/x", "/home/u/x"),
            ("'~'/x", "~/x"),
            ("\\~", "~"),
            ("--x='~'", "--x=~"),
            ("héllo", "héllo"),
        ];
        for (raw, want) in cases {
            assert_eq!(lit(raw), Ok(want.to_owned()), "{raw}");
        }
    }

    #[test]
    fn expansions_and_globs_are_refused_by_construct() {
        let cases = [
            ("$X", "parameter-expansion"),
            ("\"$X\"", "parameter-expansion"),
            ("${X}", "parameter-expansion"),
            ("$", "parameter-expansion"),
            ("\"a$\"", "parameter-expansion"),
            ("$(id)", "command-substitution"),
            ("\"$(id)\"", "command-substitution"),
            ("`id`", "backtick-substitution"),
            ("\"`id`\"", "backtick-substitution"),
            ("$((1+2))", "arithmetic-expansion"),
            ("$[1+2]", "arithmetic-expansion"),
            ("$'a'", "ansi-c-quoting"),
            ("$\"a\"", "locale-quoting"),
            ("*", "glob"),
            ("a?", "glob"),
            ("[ab]", "glob"),
            ("{a,b}", "brace-expansion"),
            ("{1..3}", "brace-expansion"),
            ("x{a',',b}", "brace-expansion"),
            ("~root", "tilde"),
            ("~+", "tilde"),
            ("~-", "tilde"),
            ("~'x'", "tilde"),
            ("a=~/x", "tilde"),
            ("a:~/x", "tilde"),
        ];
        for (raw, code) in cases {
            assert_eq!(lit(raw), Err(code), "{raw}");
        }
    }

    #[test]
    fn an_assignment_value_is_never_globbed_and_still_refuses_every_expansion() {
        let options = super::super::parser_options();
        let ctx = WordContext {
            options: &options,
            home: Some("/home/u"),
            vars: None,
        };
        let value = |raw: &str| assignment_value(raw, &ctx).map_err(|e| e.code());
        for (raw, text) in [
            ("app:*", "app:*"),
            ("a?b", "a?b"),
            ("[a-z]*", "[a-z]*"),
            ("'x*'", "x*"),
            ("~/x", "/home/u/x"),
        ] {
            assert_eq!(value(raw), Ok(text.to_owned()), "{raw}");
        }
        for (raw, code) in [
            ("$X", "parameter-expansion"),
            ("app:$(id)", "command-substitution"),
            ("`id`", "backtick-substitution"),
            ("{a,b}", "brace-expansion"),
            ("a:~/x", "tilde"),
            ("$'a'", "ansi-c-quoting"),
        ] {
            assert_eq!(value(raw), Err(code), "{raw}");
        }
    }

    #[test]
    fn the_test_command_bracket_alone_is_literal_and_a_bracket_expression_still_globs() {
        // `[ -d x ]`: a lone `[` matches only itself, so bash passes `[`.
        assert_eq!(lit("["), Ok("[".to_owned()));
        let options = super::super::parser_options();
        let ctx = WordContext {
            options: &options,
            home: Some("/home/u"),
            vars: None,
        };
        assert_eq!(argument("[", &ctx).map(|a| a.glob), Ok(None));
        // Anything more is a pattern (or may close one): still refused as a
        // command word and expanded (or refused) as an argument.
        for raw in ["[a]", "[[", "[a", "[*", "x[", "[]"] {
            assert_eq!(lit(raw), Err("glob"), "{raw}");
            assert!(argument(raw, &ctx).is_ok_and(|a| a.glob.is_some()), "{raw}");
        }
    }

    #[test]
    fn a_known_value_is_used_only_where_bash_would_pass_it_as_one_word() {
        let options = super::super::parser_options();
        let vars: std::collections::BTreeMap<String, String> = [
            ("SPACED", "a b"),
            ("EMPTY", ""),
            ("GLOB", "express:*"),
            ("PLAIN", "test"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let ctx = WordContext {
            options: &options,
            home: Some("/home/my user"),
            vars: Some(&vars),
        };
        let lit = |raw: &str| literal(raw, &ctx).map_err(|e| e.code());
        assert_eq!(lit("$PLAIN"), Ok("test".to_owned()));
        assert_eq!(lit("${PLAIN}-x"), Ok("test-x".to_owned()));
        // Quoted, any value is one word.
        assert_eq!(lit("\"$SPACED\""), Ok("a b".to_owned()));
        assert_eq!(lit("\"$EMPTY\""), Ok(String::new()));
        assert_eq!(lit("\"$GLOB\""), Ok("express:*".to_owned()));
        assert_eq!(lit("\"$HOME\"/x"), Ok("/home/my user/x".to_owned()));
        // Unquoted, bash would split, drop or glob it: refused.
        for raw in ["$SPACED", "$EMPTY", "$GLOB", "$HOME", "${HOME}/x", "$UNSET"] {
            assert_eq!(lit(raw), Err("parameter-expansion"), "{raw}");
        }
    }

    #[test]
    fn leading_tilde_without_home_is_refused() {
        let options = super::super::parser_options();
        let ctx = WordContext {
            options: &options,
            home: None,
            vars: None,
        };
        let err = literal("~/x", &ctx).map(|_| ()).map_err(|e| e.code());
        assert_eq!(err, Err("tilde-without-home"));
    }
}
