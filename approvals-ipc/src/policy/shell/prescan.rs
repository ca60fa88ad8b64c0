//! Checks on the raw script and its tokens for what the parser gets wrong.
//!
//! Decides nothing on its own; it only refuses, before the AST is trusted:
//! the bash 5.3 function substitution `${ cmd; }` / `${| cmd; }`, which the
//! parser reads as plain text (crates.md section 2, pitfall (b)), anywhere in
//! the script and also when built by a line continuation; a `!` in command
//! position, because the parser folds `! !` into "no negation"; and an I/O
//! number too large for the parser's own integer parse. Upholds DESIGN.md
//! invariant 3.

use brush_parser::Token;

use super::ShellRefusal;

/// How much text to show from the start of a function substitution.
const SHOWN_CHARS: usize = 40;

/// Refuses `${` followed by a space, tab, newline, `|` or `\`, after joining
/// line continuations (wider than bash 5.3's rule, never narrower).
pub(super) fn refuse_function_substitution(script: &str) -> Result<(), ShellRefusal> {
    // The two previous significant characters, with their byte indices.
    let mut before_last: Option<(usize, char)> = None;
    let mut last: Option<(usize, char)> = None;
    let mut chars = script.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|(_, next)| *next == '\n') {
            // A line continuation vanishes before bash reads further.
            chars.next();
            continue;
        }
        if let (Some((start, '$')), Some((_, '{'))) = (before_last, last)
            && matches!(c, ' ' | '\t' | '\n' | '|' | '\\')
        {
            return Err(ShellRefusal::FunctionSubstitution {
                text: script
                    .get(start..)
                    .unwrap_or(script)
                    .chars()
                    .take(SHOWN_CHARS)
                    .collect(),
            });
        }
        before_last = last;
        last = Some((i, c));
    }
    Ok(())
}

/// Refuses a `!` word where a command starts, and an I/O number the parser
/// cannot hold.
pub(super) fn refuse_unsafe_tokens(tokens: &[Token]) -> Result<(), ShellRefusal> {
    let mut command_start = true;
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Operator(op, _) => {
                command_start = !is_redirection(op);
            }
            Token::Word(word, _) => {
                if command_start && word == "!" {
                    return Err(ShellRefusal::Negation);
                }
                let before_redirect =
                    matches!(tokens.get(i + 1), Some(Token::Operator(op, _)) if is_redirection(op));
                if before_redirect
                    && !word.is_empty()
                    && word.chars().all(|c| c.is_ascii_digit())
                    && word.parse::<i32>().is_err()
                {
                    return Err(ShellRefusal::Redirection {
                        text: format!("{word}>"),
                    });
                }
                command_start = false;
            }
        }
    }
    Ok(())
}

/// Whether an operator token starts a redirection (its next word is a target).
fn is_redirection(op: &str) -> bool {
    op.starts_with(['<', '>']) || op.starts_with("&>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_function_substitution_forms() {
        for script in [
            "echo ${ id; }",
            "echo ${\tid; }",
            "echo ${\nid; }",
            "echo ${| REPLY=x; }",
            "echo '${ id; }'",
            "echo $\\\n{ id; }",
            "echo ${\\\n id; }",
            "echo $\\\n{\\\n id; }",
            "é${ id; }",
        ] {
            let got = refuse_function_substitution(script).map_err(|e| e.code());
            assert_eq!(got, Err("function-substitution"), "{script:?}");
        }
    }

    #[test]
    fn allows_ordinary_braces_and_parameters_here() {
        for script in ["echo ${X}", "echo {a,b}", "echo $ {", "echo '{ x }'"] {
            assert_eq!(refuse_function_substitution(script), Ok(()), "{script:?}");
        }
    }
}
