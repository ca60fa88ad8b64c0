//! Denylist `commandPattern`: a command written as words, matched against
//! each parsed segment rather than against raw text.
//!
//! A regex over command text is beaten by spelling: `rm -r -f`, `rm -fr`,
//! `rm  -rf`, `rm -r"f"` and `'rm' -rf` all run the same program with the
//! same options (issue 9, hole 4). So a pattern is parsed into
//!
//! - a **program**: the first word, compared with the segment's argv[0] and
//!   its real path by file name (or as a whole when it holds a `/`);
//! - **options**: every short-option bundle is split (`-rf` is `-r` and
//!   `-f`), and every option of the pattern must be set somewhere in the
//!   segment, in any order, bundled or not; a long option `--force` is also
//!   set by `--force=…` and by an abbreviation such as `--for`;
//! - **words**: the other words, which must appear among the segment's
//!   arguments in the same order (others may come between).
//!
//! Words are split on whitespace; single or double quotes keep a word with
//! spaces together and are removed. A pattern holding regex or shell syntax
//! (`\ ^ $ | ( ) [ ] { } * ? + ; & < >` or a backtick), an unclosed quote,
//! an invisible character, or no program is not parsed: the caller then
//! fails closed (DESIGN.md invariant 3).

use std::path::Path;

/// Why a `commandPattern` could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandPatternError {
    /// The pattern holds no word.
    #[error("the pattern is empty")]
    Empty,
    /// The pattern holds regex or shell syntax, so it was probably written
    /// as a regex; words cannot say what it meant.
    #[error("{0:?} is regex or shell syntax; write the command as plain words")]
    Syntax(char),
    /// A quote is never closed.
    #[error("a quote is not closed")]
    UnclosedQuote,
    /// An invisible, format or control character.
    #[error("{0}")]
    Unicode(#[from] crate::policy::unicode::UnicodeRefusal),
    /// The first word is an option, so there is no program.
    #[error("the first word {0:?} is an option, not a program")]
    NoProgram(String),
}

/// Characters that make a pattern unparsable: regex and shell syntax.
const SYNTAX: &[char] = &[
    '\\', '^', '$', '|', '(', ')', '[', ']', '{', '}', '*', '?', '+', ';', '&', '<', '>', '`',
];

/// A parsed `commandPattern`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    program: String,
    short: Vec<char>,
    long: Vec<String>,
    words: Vec<String>,
}

impl CommandPattern {
    /// Parses `text`; see the module documentation for the rules.
    pub fn parse(text: &str) -> Result<Self, CommandPatternError> {
        crate::policy::unicode::check_text(text)?;
        if let Some(c) = text.chars().find(|c| SYNTAX.contains(c)) {
            return Err(CommandPatternError::Syntax(c));
        }
        let mut words = split_words(text)?.into_iter();
        let program = words.next().ok_or(CommandPatternError::Empty)?;
        if program.starts_with('-') {
            return Err(CommandPatternError::NoProgram(program));
        }
        let mut pattern = Self {
            program,
            short: Vec::new(),
            long: Vec::new(),
            words: Vec::new(),
        };
        let mut options_ended = false;
        for word in words {
            if options_ended {
                pattern.words.push(word);
            } else if word == "--" {
                options_ended = true;
            } else {
                match classify(&word) {
                    Arg::Short(flags) => pattern.short.extend(flags.chars()),
                    Arg::Long(name) if !name.contains('=') => pattern.long.push(name.to_owned()),
                    Arg::Long(_) | Arg::Word => pattern.words.push(word.clone()),
                }
            }
        }
        Ok(pattern)
    }

    /// Whether a segment (its argv after wrappers, and the real path argv[0]
    /// resolved to) matches.
    pub fn matches(&self, argv: &[String], real: Option<&Path>) -> bool {
        let Some((first, args)) = argv.split_first() else {
            return false;
        };
        if !self.program_matches(first, real) {
            return false;
        }
        let mut short = Vec::new();
        let mut long = Vec::new();
        for arg in args {
            if arg == "--" {
                break;
            }
            match classify(arg) {
                Arg::Short(flags) => short.extend(flags.chars()),
                Arg::Long(name) => long.push(name.split('=').next().unwrap_or(name)),
                Arg::Word => {}
            }
        }
        let options = self.short.iter().all(|c| short.contains(c))
            && self.long.iter().all(|want| {
                long.iter()
                    .any(|have| !have.is_empty() && want.starts_with(have))
            });
        options && in_order(&self.words, args)
    }

    fn program_matches(&self, first: &str, real: Option<&Path>) -> bool {
        if self.program.contains('/') {
            return first == self.program
                || real.is_some_and(|r| r.to_str() == Some(self.program.as_str()));
        }
        let name = |word: &str| word.rsplit('/').next().unwrap_or(word).to_owned();
        name(first) == self.program
            || real
                .and_then(|r| r.file_name())
                .and_then(|n| n.to_str())
                .is_some_and(|n| n == self.program)
    }
}

enum Arg<'a> {
    /// `-abc`: the flags `abc`.
    Short(&'a str),
    /// `--name` or `--name=value`: everything after `--`.
    Long(&'a str),
    /// Anything else, including `-`.
    Word,
}

/// Classifies one word; `--` itself ends the options and is handled by the
/// callers before this is asked.
fn classify(arg: &str) -> Arg<'_> {
    match arg.strip_prefix("--") {
        Some(name) => Arg::Long(name),
        None => match arg.strip_prefix('-') {
            Some(flags) if !flags.is_empty() => Arg::Short(flags),
            _ => Arg::Word,
        },
    }
}

/// Whether `wanted` appears in `args` in order, others allowed between.
fn in_order(wanted: &[String], args: &[String]) -> bool {
    let mut args = args.iter();
    wanted.iter().all(|w| args.any(|a| a == w))
}

/// Splits on whitespace; quotes group and are removed.
fn split_words(text: &str) -> Result<Vec<String>, CommandPatternError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.get_or_insert_with(String::new).push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            None if c.is_whitespace() => words.extend(word.take()),
            None => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(CommandPatternError::UnclosedQuote);
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests;
