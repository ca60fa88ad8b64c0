//! One simple command of the AST to a [`SimpleCommand`].
//!
//! Decides the literal assignments, argv and I/O of a command from its
//! prefix, command word and suffix, in source order. Refuses array and
//! append assignments, assignment-only commands, commands without a command
//! word, process substitutions, a command word that is a reserved word, a
//! refused builtin ([`super::builtins`]) or holds a non-ASCII lookalike, and
//! whatever [`super::word`] and [`super::redirect`] refuse. Upholds DESIGN.md
//! invariant 3.

use brush_parser::ast::{self, AssignmentName, AssignmentValue, CommandPrefixOrSuffixItem};

use super::builtins::{refused_builtin, reserved_word};
use super::redirect::Io;
use super::word::{WordContext, argument, assignment_value, literal};
use super::{GlobWord, ShellRefusal, SimpleCommand};
use crate::policy::unicode::check_command_word;

/// The literal form of `cmd`, or why it has none.
pub(super) fn simple_command(
    cmd: &ast::SimpleCommand,
    ctx: &WordContext<'_>,
) -> Result<SimpleCommand, ShellRefusal> {
    let mut assignments = Vec::new();
    let mut argv = Args::default();
    let mut io = Io::default();

    for item in cmd.prefix.iter().flat_map(|p| p.0.iter()) {
        match item {
            CommandPrefixOrSuffixItem::AssignmentWord(assignment, word) => {
                assignments.push(prefix_assignment(assignment, word, ctx)?);
            }
            // The grammar puts no plain word before the command word; if one
            // shows up, the order of argv would be a guess.
            CommandPrefixOrSuffixItem::Word(word) => {
                return Err(ShellRefusal::Parse {
                    message: format!("unexpected word before the command word: {}", word.value),
                });
            }
            _ => apply_item(item, &mut argv, &mut io, ctx)?,
        }
    }
    if let Some(word) = &cmd.word_or_name {
        // The command word is never globbed into a program name.
        argv.words.push(literal(&word.value, ctx)?);
    }
    for item in cmd.suffix.iter().flat_map(|s| s.0.iter()) {
        apply_item(item, &mut argv, &mut io, ctx)?;
    }

    let Args { words: argv, globs } = argv;
    check_command_word_of(&argv, &assignments, cmd)?;
    Ok(SimpleCommand {
        assignments,
        argv,
        globs,
        stdin: io.stdin,
        stdout: io.stdout,
        stderr: io.stderr,
    })
}

/// The argv being built, with its words that hold globs.
#[derive(Default)]
struct Args {
    words: Vec<String>,
    globs: Vec<GlobWord>,
}

impl Args {
    /// Appends an argument word, noting its glob.
    fn push_argument(&mut self, raw: &str, ctx: &WordContext<'_>) -> Result<(), ShellRefusal> {
        let arg = argument(raw, ctx)?;
        if let Some(pattern) = arg.glob {
            if self.words.is_empty() {
                return Err(ShellRefusal::Glob {
                    word: raw.to_owned(),
                    ch: '*',
                });
            }
            self.globs.push(GlobWord {
                index: self.words.len(),
                pattern,
            });
        }
        self.words.push(arg.text);
        Ok(())
    }
}

/// Applies a word, redirection or (argument-position) assignment item.
fn apply_item(
    item: &CommandPrefixOrSuffixItem,
    argv: &mut Args,
    io: &mut Io,
    ctx: &WordContext<'_>,
) -> Result<(), ShellRefusal> {
    match item {
        CommandPrefixOrSuffixItem::IoRedirect(redirect) => io.apply(redirect, ctx),
        CommandPrefixOrSuffixItem::Word(word) => argv.push_argument(&word.value, ctx),
        // After the command word, `a=b` is an ordinary argument; its raw word
        // is the token as written. An array form's word is rebuilt by the
        // parser, so it is refused rather than trusted.
        CommandPrefixOrSuffixItem::AssignmentWord(assignment, word) => match assignment.value {
            AssignmentValue::Scalar(_) => argv.push_argument(&word.value, ctx),
            AssignmentValue::Array(_) => Err(ShellRefusal::ComplexAssignment {
                text: word.value.clone(),
            }),
        },
        CommandPrefixOrSuffixItem::ProcessSubstitution(kind, _) => {
            let op = match kind {
                ast::ProcessSubstitutionKind::Read => "<",
                ast::ProcessSubstitutionKind::Write => ">",
            };
            Err(ShellRefusal::ProcessSubstitution {
                text: format!("{op}(...)"),
            })
        }
    }
}

/// `NAME=value` before the command word, with a literal value.
fn prefix_assignment(
    assignment: &ast::Assignment,
    word: &ast::Word,
    ctx: &WordContext<'_>,
) -> Result<(String, String), ShellRefusal> {
    match (&assignment.name, &assignment.value, assignment.append) {
        (AssignmentName::VariableName(name), AssignmentValue::Scalar(value), false) => {
            Ok((name.clone(), assignment_value(&value.value, ctx)?))
        }
        _ => Err(ShellRefusal::ComplexAssignment {
            text: word.value.clone(),
        }),
    }
}

/// Refuses a missing, reserved, builtin or lookalike command word.
fn check_command_word_of(
    argv: &[String],
    assignments: &[(String, String)],
    cmd: &ast::SimpleCommand,
) -> Result<(), ShellRefusal> {
    let Some(word) = argv.first() else {
        return Err(match (assignments.first(), first_assignment_text(cmd)) {
            (Some(_), Some(text)) => ShellRefusal::AssignmentOnly { text },
            _ => ShellRefusal::EmptyCommand,
        });
    };
    if word.is_empty() {
        return Err(ShellRefusal::EmptyCommand);
    }
    match word.as_str() {
        "!" => return Err(ShellRefusal::Negation),
        "time" => return Err(ShellRefusal::Time),
        _ => {}
    }
    if reserved_word(word).is_some() {
        return Err(ShellRefusal::ReservedWord { word: word.clone() });
    }
    if let Some(reason) = refused_builtin(word) {
        return Err(ShellRefusal::Builtin {
            name: word.clone(),
            reason,
        });
    }
    check_command_word(word).map_err(|refusal| ShellRefusal::NonAsciiCommandWord {
        word: word.clone(),
        refusal,
    })
}

/// The first prefix assignment as written, for messages.
fn first_assignment_text(cmd: &ast::SimpleCommand) -> Option<String> {
    cmd.prefix
        .iter()
        .flat_map(|p| p.0.iter())
        .find_map(|item| match item {
            CommandPrefixOrSuffixItem::AssignmentWord(_, word) => Some(word.value.clone()),
            _ => None,
        })
}
