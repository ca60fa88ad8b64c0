//! Best-effort reading of a command the analysis did not understand: which
//! programs it would most likely run, for the denylist and the risk rules.
//!
//! The analysis refuses whole commands (an invisible character, a `$VAR`, a
//! `sudo`), and a refused command has no segments. Without this module such
//! a command would skip the denylist under `security: full` and show "risk:
//! low" (issue 9, holes 1 and 2). Salvage never allows anything: it only
//! finds more reasons to deny or to warn. It removes invisible and format
//! characters, looks through privilege and dispatch wrappers, and splits
//! shell text naively (quotes removed, split on `;`, `&&`, `||`, `|`, `&`,
//! newlines, parentheses, braces, `$(` and backticks), following `sh -c`
//! scripts up to [`MAX_DEPTH`] shells deep. Upholds DESIGN.md invariant 3:
//! the decision still treats the command as not understood.

use crate::policy::{programs, risk, unicode};

/// How many nested `sh -c` scripts are followed.
pub const MAX_DEPTH: usize = 3;

/// What could be read from a command: its likely pipelines, each a list of
/// argv, wrappers both kept and looked through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Salvage {
    /// Pipelines, each the argv of its commands, for the risk rules.
    pub pipelines: Vec<Vec<Vec<String>>>,
    /// The first invisible or format character removed, if any.
    pub hidden: Option<char>,
}

impl Salvage {
    /// Every command read, wrappers kept and looked through, in order.
    pub fn commands(&self) -> impl Iterator<Item = &Vec<String>> {
        self.pipelines.iter().flatten()
    }
}

/// Reads `argv` as best it can; see the module documentation.
pub fn salvage(argv: &[String]) -> Salvage {
    let mut hidden = None;
    let cleaned: Vec<String> = argv
        .iter()
        .map(|word| {
            let (kept, removed) = unicode::strip_refused(word);
            hidden = hidden.or(removed);
            kept
        })
        .collect();
    let mut out = Salvage {
        pipelines: Vec::new(),
        hidden,
    };
    read_pipeline(vec![cleaned], 0, &mut out.pipelines);
    out
}

/// Adds `pipeline` with every wrapper layer of each command spelled out,
/// then follows the scripts of any shell in it.
fn read_pipeline(pipeline: Vec<Vec<String>>, depth: usize, out: &mut Vec<Vec<Vec<String>>>) {
    let mut expanded = Vec::with_capacity(pipeline.len());
    let mut scripts = Vec::new();
    for argv in pipeline.into_iter().filter(|argv| !argv.is_empty()) {
        for layer in risk::wrapper_layers(&argv) {
            if programs::is_shell(risk::base_name(&layer[0])) {
                scripts.extend(layer[1..].iter().filter(|a| !a.starts_with('-')).cloned());
            }
            expanded.push(layer);
        }
    }
    if !expanded.is_empty() {
        out.push(expanded);
    }
    if depth >= MAX_DEPTH {
        return;
    }
    for script in scripts {
        for pipeline in split_text(&script) {
            read_pipeline(pipeline, depth + 1, out);
        }
    }
}

/// Splits shell text into pipelines of words, naively: quotes and
/// backslashes are removed as the shell would, every operator ends a
/// command, and `$(…)`, backticks, `(`, `)`, `{`, `}` end a pipeline (the
/// commands inside a substitution, even in double quotes, are read as
/// commands of their own). Never fails.
pub fn split_text(text: &str) -> Vec<Vec<Vec<String>>> {
    let mut lexer = Lexer::default();
    let mut chars = text.chars().peekable();
    let mut quote = Quote::None;
    // Open substitutions: the character that closes each and the quoting
    // to return to after it.
    let mut open: Vec<(char, Quote)> = Vec::new();
    while let Some(c) = chars.next() {
        match quote {
            Quote::Single => match c {
                '\'' => quote = Quote::None,
                _ => lexer.push(c),
            },
            Quote::Double => match c {
                '"' => quote = Quote::None,
                '\\' => match chars.next() {
                    Some(n @ ('$' | '`' | '"' | '\\')) => lexer.push(n),
                    Some('\n') | None => {}
                    Some(n) => {
                        lexer.push('\\');
                        lexer.push(n);
                    }
                },
                '`' => {
                    open.push(('`', Quote::Double));
                    quote = Quote::None;
                    lexer.enter_substitution();
                }
                '$' if chars.peek() == Some(&'(') => {
                    chars.next();
                    open.push((')', Quote::Double));
                    quote = Quote::None;
                    lexer.enter_substitution();
                }
                _ => lexer.push(c),
            },
            Quote::None => match c {
                '\'' => {
                    lexer.start_word();
                    quote = Quote::Single;
                }
                '"' => {
                    lexer.start_word();
                    quote = Quote::Double;
                }
                '\\' => match chars.next() {
                    Some('\n') | None => {}
                    Some(n) => lexer.push(n),
                },
                '$' if chars.peek() == Some(&'(') => {
                    chars.next();
                    open.push((')', Quote::None));
                    lexer.enter_substitution();
                }
                '$' if chars.peek() == Some(&'{') => {
                    // `${NAME}` stays one word.
                    lexer.push(c);
                    for n in chars.by_ref() {
                        lexer.push(n);
                        if n == '}' {
                            break;
                        }
                    }
                }
                ')' | '`' if open.last().is_some_and(|(closer, _)| *closer == c) => {
                    if let Some((_, resume)) = open.pop() {
                        quote = resume;
                    }
                    lexer.end_pipeline();
                }
                '`' => {
                    open.push(('`', Quote::None));
                    lexer.enter_substitution();
                }
                '|' if chars.peek() == Some(&'|') => {
                    chars.next();
                    lexer.end_pipeline();
                }
                '|' => lexer.end_command(),
                ';' | '&' | '\n' | '(' | ')' | '{' | '}' => lexer.end_pipeline(),
                '<' | '>' => lexer.end_word(),
                c if c.is_whitespace() => lexer.end_word(),
                _ => lexer.push(c),
            },
        }
    }
    lexer.finish()
}

#[derive(Clone, Copy)]
enum Quote {
    None,
    Single,
    Double,
}

/// The words, commands and pipelines read so far.
#[derive(Default)]
struct Lexer {
    word: Option<String>,
    command: Vec<String>,
    pipeline: Vec<Vec<String>>,
    pipelines: Vec<Vec<Vec<String>>>,
}

impl Lexer {
    fn start_word(&mut self) {
        self.word.get_or_insert_with(String::new);
    }

    fn push(&mut self, c: char) {
        self.word.get_or_insert_with(String::new).push(c);
    }

    /// Ends the pipeline before a substitution; an opening quote with
    /// nothing in it yet is not a word.
    fn enter_substitution(&mut self) {
        if self.word.as_deref() == Some("") {
            self.word = None;
        }
        self.end_pipeline();
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            self.command.push(word);
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        if !self.command.is_empty() {
            self.pipeline.push(std::mem::take(&mut self.command));
        }
    }

    fn end_pipeline(&mut self) {
        self.end_command();
        if !self.pipeline.is_empty() {
            self.pipelines.push(std::mem::take(&mut self.pipeline));
        }
    }

    fn finish(mut self) -> Vec<Vec<Vec<String>>> {
        self.end_pipeline();
        self.pipelines
    }
}

#[cfg(test)]
mod tests;
