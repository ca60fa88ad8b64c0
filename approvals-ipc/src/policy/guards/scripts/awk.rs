//! A tokenizer and statement reader for awk programs (POSIX awk, gawk,
//! mawk): strings, regex literals told from division by what precedes
//! them (as gawk's grammar does), bracket expressions inside regexes,
//! comments and backslash-newline continuations.
//!
//! It decides whether a program runs a command (`system()`, `| getline`,
//! `print | cmd`, `|&`), reads a file the prompt does not name as an
//! operand (`getline < file`, changing `ARGV`/`ARGC`), writes a file
//! (`print > file`, `printf >> file`), loads code (`@load`, `@include`,
//! an `@f()` indirect call that can reach `system`), or reads the
//! environment (`ENVIRON`, or `SYMTAB`, which reaches it): a secret in the
//! agent's environment should not be printed without a human seeing it.
//! `>` is a redirection only at the top level of a `print`/`printf`
//! statement (`print $1 > 5` writes the file `5`); anywhere else, and inside
//! parentheses in a print (`print (a > b)`), it compares. A character the
//! tokenizer does not know, or an unterminated string or regex, is not
//! understood, and the guard fires.
//!
//! Regexes are read twice: with bracket expressions (`/[/]/`, as gawk and
//! mawk do) and without (as older awks do); the first reading must be
//! understood, the second is followed only to find a dangerous construct.

/// One token; only what the checks need to tell apart.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// A name: variable, function, keyword or builtin.
    Name(String),
    /// A number, string or regex literal.
    Literal,
    /// The string literal `"/dev/stdout"` or `"/dev/stderr"`: gawk and mawk
    /// write those to their own streams without opening a file, and other
    /// awks open the process's own stream by that name.
    OwnStream,
    /// An operator or punctuation, longest match.
    Op(&'static str),
    /// An unescaped newline (a statement may end there).
    Newline,
    /// `@`: a directive or an indirect function call.
    At,
}

/// Multi-character operators first, so the longest one matches.
const OPS: &[&str] = &[
    "**=", "&&", "||", "|&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=",
    "/=", "%=", "^=", "**", "(", ")", "[", "]", "{", "}", ";", ",", "!", "?", ":", "$", "+", "-",
    "*", "/", "%", "^", "=", "<", ">", "|", "~",
];

/// Keywords after which an expression (so a regex) can start.
const EXPRESSION_AFTER: &[&str] = &[
    "case", "do", "else", "exit", "in", "print", "printf", "return",
];

/// Why `program` is dangerous or not understood, or `None`.
pub(super) fn dangerous(program: &str) -> Option<String> {
    match tokens(program, true) {
        Ok(toks) => {
            if let Some(what) = check(&toks) {
                return Some(what.to_owned());
            }
        }
        Err(why) => return Some(format!("is not understood ({why}), so it is shown")),
    }
    dangerous_only_without_brackets(program)
}

/// Only a dangerous construct, never "not understood": for text that may
/// be a file name rather than a program (an operand after `-e`).
pub(super) fn dangerous_if_program(program: &str) -> Option<String> {
    if let Some(what) = tokens(program, true).ok().as_deref().and_then(check) {
        return Some(what.to_owned());
    }
    dangerous_only_without_brackets(program)
}

fn dangerous_only_without_brackets(program: &str) -> Option<String> {
    let toks = tokens(program, false).ok()?;
    check(&toks).map(|what| format!("{what} (if `[` in a regex is not a bracket expression)"))
}

/// Splits `program` into tokens; why not, when it cannot.
fn tokens(program: &str, brackets: bool) -> Result<Vec<Tok>, &'static str> {
    let s: Vec<char> = program.chars().collect();
    let mut out: Vec<Tok> = Vec::new();
    // For each open `(`: whether it holds an `if`/`while`/`for` condition,
    // after whose `)` a statement (so a regex) starts.
    let mut parens: Vec<bool> = Vec::new();
    let mut after_condition = false;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        match c {
            ' ' | '\t' | '\r' => i += 1,
            '\\' if s.get(i + 1) == Some(&'\n') => i += 2,
            '\\' if s.get(i + 1) == Some(&'\r') && s.get(i + 2) == Some(&'\n') => i += 3,
            '\n' => {
                out.push(Tok::Newline);
                i += 1;
            }
            '#' => {
                while s.get(i).is_some_and(|c| *c != '\n') {
                    i += 1;
                }
            }
            '"' => {
                let start = i;
                i = skip_string(&s, i)?;
                let text: String = s.get(start..i).unwrap_or_default().iter().collect();
                out.push(
                    if matches!(text.as_str(), "\"/dev/stdout\"" | "\"/dev/stderr\"") {
                        Tok::OwnStream
                    } else {
                        Tok::Literal
                    },
                );
            }
            '/' if regex_can_start(out.last(), after_condition) => {
                i = skip_regex(&s, i, brackets)?;
                out.push(Tok::Literal);
            }
            '@' => {
                out.push(Tok::At);
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let start = i;
                while s
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
                {
                    i += 1;
                }
                out.push(Tok::Name(s[start..i].iter().collect()));
            }
            c if c.is_ascii_digit()
                || (c == '.' && s.get(i + 1).is_some_and(char::is_ascii_digit)) =>
            {
                while let Some(&d) = s.get(i) {
                    let exponent_sign = matches!(d, '+' | '-') && matches!(s[i - 1], 'e' | 'E');
                    if d.is_ascii_alphanumeric() || d == '.' || exponent_sign {
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push(Tok::Literal);
            }
            _ => {
                let rest: String = s[i..s.len().min(i + 3)].iter().collect();
                let op = OPS
                    .iter()
                    .find(|op| rest.starts_with(**op))
                    .ok_or("a character awk does not use outside strings")?;
                match *op {
                    "(" => parens.push(matches!(
                        out.last(),
                        Some(Tok::Name(n)) if matches!(n.as_str(), "if" | "while" | "for")
                    )),
                    ")" => after_condition = parens.pop().unwrap_or(false),
                    _ => {}
                }
                out.push(Tok::Op(op));
                i += op.chars().count();
            }
        }
    }
    Ok(out)
}

/// A `/` starts a regex unless what precedes it ends an operand; a `)`
/// closing an `if`/`while`/`for` condition starts a statement
/// (`if (x) /re/`, as gawk reads it).
fn regex_can_start(prev: Option<&Tok>, after_condition: bool) -> bool {
    match prev {
        None | Some(Tok::Newline | Tok::At) => true,
        Some(Tok::Literal | Tok::OwnStream) => false,
        Some(Tok::Name(n)) => EXPRESSION_AFTER.contains(&n.as_str()),
        Some(Tok::Op(")")) => after_condition,
        Some(Tok::Op(op)) => !matches!(*op, "]" | "++" | "--" | "$"),
    }
}

/// The index after a string's closing quote.
fn skip_string(s: &[char], i: usize) -> Result<usize, &'static str> {
    let mut j = i + 1;
    loop {
        match s.get(j) {
            None | Some('\n') => return Err("an unterminated string"),
            Some('\\') => j += 2,
            Some('"') => return Ok(j + 1),
            Some(_) => j += 1,
        }
    }
}

/// The index after a regex literal's closing `/`; with `brackets`, a `/`
/// inside `[...]` does not close it.
fn skip_regex(s: &[char], i: usize, brackets: bool) -> Result<usize, &'static str> {
    const OPEN: &str = "an unterminated regex";
    let mut j = i + 1;
    loop {
        match s.get(j) {
            None | Some('\n') => return Err(OPEN),
            Some('\\') => j += 2,
            Some('/') => return Ok(j + 1),
            Some('[') if brackets => {
                j += 1;
                if s.get(j) == Some(&'^') {
                    j += 1;
                }
                if s.get(j) == Some(&']') {
                    j += 1;
                }
                loop {
                    match s.get(j) {
                        None | Some('\n') => return Err(OPEN),
                        Some(']') => break,
                        Some('[') if matches!(s.get(j + 1), Some(':' | '.' | '=')) => {
                            let close = [s[j + 1], ']'];
                            j += 2;
                            while s.get(j..j + 2).is_some_and(|w| w != close) {
                                if s.get(j) == Some(&'\n') {
                                    return Err(OPEN);
                                }
                                j += 1;
                            }
                            j += 2;
                        }
                        Some('\\') => j += 2,
                        Some(_) => j += 1,
                    }
                }
                j += 1;
            }
            Some(_) => j += 1,
        }
    }
}

/// Calls that assign to their last arguments (an `ARGV` element there
/// changes which files awk reads).
const ASSIGNING_CALLS: &[&str] = &["getline", "gsub", "patsplit", "split", "sub"];

/// The first dangerous construct in `toks`, in words.
fn check(toks: &[Tok]) -> Option<&'static str> {
    let mut depth = 0usize;
    // The depth a print/printf statement started at, while in one.
    let mut print_at: Option<usize> = None;
    // Depths inside an assigning call's parentheses.
    let mut assigning: Vec<usize> = Vec::new();
    for (k, tok) in toks.iter().enumerate() {
        let prev = k.checked_sub(1).and_then(|p| toks.get(p));
        let next = toks.get(k + 1);
        match tok {
            Tok::At => {
                return Some(
                    "uses an `@` directive or indirect call (`@load`, `@include`, `@f()`), which can load code or call system()",
                );
            }
            Tok::Name(n) => match n.as_str() {
                "system" => return Some("calls system(), which runs a shell command"),
                "ENVIRON" => return Some("reads the environment (ENVIRON), where secrets live"),
                "SYMTAB" => {
                    return Some("reaches any variable by name (SYMTAB), ENVIRON included");
                }
                "print" | "printf" => print_at = print_at.or(Some(depth)),
                "getline" => {
                    if getline_reads_file(&toks[k + 1..]) {
                        return Some("reads a file with `getline <`");
                    }
                    if lvalue_names(&toks[k + 1..], &["ARGC", "ARGV"]) {
                        return Some("changes ARGV or ARGC, which name the files awk reads");
                    }
                }
                "ARGV" | "ARGC"
                    if changes_argv(n, prev, &toks[k + 1..]) || !assigning.is_empty() =>
                {
                    return Some("changes ARGV or ARGC, which name the files awk reads");
                }
                name if ASSIGNING_CALLS.contains(&name) && next == Some(&Tok::Op("(")) => {
                    assigning.push(depth + 1);
                }
                _ => {}
            },
            Tok::Op(op) => match *op {
                "|" | "|&" => return Some("pipes to or from a command"),
                ">" | ">>" if print_at == Some(depth) => {
                    // `print > "/dev/stderr"` ending the statement writes
                    // to awk's own stream; anything after the name (a
                    // concatenation) makes another name.
                    let own_stream = next == Some(&Tok::OwnStream)
                        && matches!(
                            toks.get(k + 2),
                            None | Some(Tok::Newline | Tok::Op(";" | "}"))
                        );
                    if !own_stream {
                        return Some("redirects print output to a file");
                    }
                }
                "(" | "[" => depth += 1,
                ")" | "]" => {
                    assigning.retain(|d| *d != depth);
                    depth = depth.saturating_sub(1);
                    if print_at.is_some_and(|p| p > depth) {
                        print_at = None;
                    }
                }
                ";" => print_at = None,
                "{" | "}" => {
                    print_at = None;
                    depth = 0;
                    assigning.clear();
                }
                _ => {}
            },
            Tok::Newline => {
                let continues = matches!(prev, Some(Tok::Op("," | "&&" | "||" | "{")))
                    || matches!(prev, Some(Tok::Name(n)) if n == "do" || n == "else");
                if !continues && print_at == Some(depth) {
                    print_at = None;
                }
            }
            Tok::Literal | Tok::OwnStream => {}
        }
    }
    None
}

/// After `getline`: an optional lvalue, then `<`?
fn getline_reads_file(rest: &[Tok]) -> bool {
    let after = skip_lvalue(rest);
    rest.get(after) == Some(&Tok::Op("<"))
}

/// Whether the lvalue after `getline` is one of `names`.
fn lvalue_names(rest: &[Tok], names: &[&str]) -> bool {
    matches!(rest.first(), Some(Tok::Name(n)) if names.contains(&n.as_str()))
}

/// How many tokens an optional lvalue at the start of `rest` takes: a
/// name with an optional subscript, or `$` and what it applies to.
fn skip_lvalue(rest: &[Tok]) -> usize {
    let mut k = 0;
    match rest.first() {
        Some(Tok::Name(n)) if !is_keyword(n) => {
            k = 1;
            if rest.get(1) == Some(&Tok::Op("[")) {
                k = 1 + balanced(&rest[1..]);
            }
        }
        Some(Tok::Op("$")) => {
            while rest.get(k) == Some(&Tok::Op("$")) {
                k += 1;
            }
            while matches!(rest.get(k), Some(Tok::Op("++" | "--" | "-" | "+" | "!"))) {
                k += 1;
            }
            match rest.get(k) {
                Some(Tok::Op("(")) => k += balanced(&rest[k..]),
                Some(Tok::Name(_)) => {
                    k += 1;
                    if rest.get(k) == Some(&Tok::Op("[")) {
                        k += balanced(&rest[k..]);
                    }
                }
                Some(Tok::Literal | Tok::OwnStream) => k += 1,
                _ => {}
            }
        }
        _ => {}
    }
    k
}

/// Tokens from an opening `(`/`[` through its match (all, if unmatched).
fn balanced(rest: &[Tok]) -> usize {
    let mut depth = 0usize;
    for (k, t) in rest.iter().enumerate() {
        match t {
            Tok::Op("(" | "[") => depth += 1,
            Tok::Op(")" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    rest.len()
}

/// `ARGV[...]`/`ARGC` assigned or incremented, or `ARGV` passed whole
/// (`split(s, ARGV)`); `k in ARGV` only reads it.
fn changes_argv(name: &str, prev: Option<&Tok>, rest: &[Tok]) -> bool {
    if matches!(prev, Some(Tok::Op("++" | "--"))) {
        return true;
    }
    let subscripted = rest.first() == Some(&Tok::Op("["));
    if name == "ARGV" && !subscripted {
        return !matches!(prev, Some(Tok::Name(n)) if n == "in");
    }
    let after = if subscripted { balanced(rest) } else { 0 };
    matches!(
        rest.get(after),
        Some(Tok::Op(
            "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "^=" | "**=" | "++" | "--"
        ))
    )
}

fn is_keyword(n: &str) -> bool {
    matches!(
        n,
        "BEGIN"
            | "END"
            | "BEGINFILE"
            | "ENDFILE"
            | "break"
            | "case"
            | "continue"
            | "default"
            | "delete"
            | "do"
            | "else"
            | "exit"
            | "for"
            | "func"
            | "function"
            | "getline"
            | "if"
            | "in"
            | "next"
            | "nextfile"
            | "print"
            | "printf"
            | "return"
            | "switch"
            | "while"
    )
}
