//! Heredoc bodies to the literal text a command reads on stdin.
//!
//! Decides the body bash would feed: a quoted delimiter (`<<'EOF'`,
//! `<<"EOF"`, `<<\EOF`) keeps the body as written; an unquoted one gets
//! bash's backslash processing (`\$`, `` \` ``, `\\`, and `\<newline>`
//! joining lines). Refuses any unescaped `$` or backtick in an unquoted body
//! (command substitution, parameter expansion: openclaw.md classes 10 and
//! 11), odd delimiters, and a line continuation where the parser and bash
//! could disagree on where the body ends (bash joins lines before looking for
//! the delimiter; the parser does not). Upholds DESIGN.md invariant 3.

use brush_parser::ast::IoHereDocument;

use super::ShellRefusal;

/// How much of a body to show in a refusal.
const SHOWN_CHARS: usize = 40;

/// The literal body of `doc`, or why it is not literal.
pub(super) fn body(doc: &IoHereDocument) -> Result<String, ShellRefusal> {
    let tag = doc.here_end.value.as_str();
    let plain_tag = !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '\'' | '"' | '\\'));
    if !plain_tag {
        return Err(ShellRefusal::Redirection {
            text: format!("<<{tag}"),
        });
    }
    let raw = doc.doc.value.as_str();
    if !doc.requires_expansion {
        return Ok(raw.to_owned());
    }
    unquoted_body(raw, tag, doc.remove_tabs)
}

/// Applies bash's unquoted-heredoc backslash rules to `raw`, refusing
/// expansions and ambiguous continuations.
fn unquoted_body(raw: &str, delimiter: &str, remove_tabs: bool) -> Result<String, ShellRefusal> {
    let mut out = String::with_capacity(raw.len());
    // Start of the current logical line in `out`, to compare joined lines
    // with the delimiter.
    let mut line_start = 0;
    let mut joined = false;
    let mut chars = raw.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => match chars.peek().map(|(_, next)| *next) {
                Some(next @ ('$' | '`' | '\\')) => {
                    chars.next();
                    out.push(next);
                }
                Some('\n') => {
                    chars.next();
                    if remove_tabs {
                        return Err(ShellRefusal::HeredocContinuation {
                            reason: "bash keeps the tabs of a joined line in a <<- heredoc",
                        });
                    }
                    if chars.peek().is_none() {
                        return Err(ShellRefusal::HeredocContinuation {
                            reason: "bash joins the delimiter line to the body",
                        });
                    }
                    joined = true;
                }
                _ => out.push('\\'),
            },
            '$' | '`' => {
                return Err(ShellRefusal::HeredocExpansion {
                    text: raw
                        .get(i..)
                        .unwrap_or(raw)
                        .chars()
                        .take(SHOWN_CHARS)
                        .collect(),
                });
            }
            '\n' => {
                if joined && out.get(line_start..) == Some(delimiter) {
                    return Err(ShellRefusal::HeredocContinuation {
                        reason: "a joined line equals the delimiter, so bash ends the body early",
                    });
                }
                out.push('\n');
                line_start = out.len();
                joined = false;
            }
            _ => out.push(c),
        }
    }
    if joined && out.get(line_start..) == Some(delimiter) {
        return Err(ShellRefusal::HeredocContinuation {
            reason: "a joined line equals the delimiter, so bash ends the body early",
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_body_processes_backslashes_like_bash() {
        let cases = [
            ("plain\n", "plain\n"),
            (
                "a \\$HOME \\` \\\\ \\x \"q\" 'q'\n",
                "a $HOME ` \\ \\x \"q\" 'q'\n",
            ),
            ("foo\\\nbar\n", "foobar\n"),
            ("a\\\\\nb\n", "a\\\nb\n"),
        ];
        for (raw, want) in cases {
            assert_eq!(
                unquoted_body(raw, "EOF", false),
                Ok(want.to_owned()),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn unquoted_body_refuses_expansions_and_ambiguous_continuations() {
        let cases = [
            ("$(id)\n", false, "heredoc-expansion"),
            ("$HOME\n", false, "heredoc-expansion"),
            ("`id`\n", false, "heredoc-expansion"),
            ("\\\\$x\n", false, "heredoc-expansion"),
            ("$OPENAI_API_\\\nKEY\n", false, "heredoc-expansion"),
            ("foo\\\n", false, "heredoc-continuation"),
            ("EO\\\nF\nrest\n", false, "heredoc-continuation"),
            ("a\\\nb\n", true, "heredoc-continuation"),
        ];
        for (raw, tabs, code) in cases {
            let got = unquoted_body(raw, "EOF", tabs).map_err(|e| e.code());
            assert_eq!(got, Err(code), "{raw:?}");
        }
    }
}
