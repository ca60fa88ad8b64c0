//! A reader of sed scripts that follows GNU sed 4.9's parser (`compile.c`)
//! command by command: addresses (`N`, `$`, `/re/`, `\cREc`, `first~step`,
//! `addr,+N`, `addr,~N`, `0,/re/`, `!`), blocks, separators, comments,
//! labels, `s` and `y` with any delimiter and bracket expressions, the text
//! of `a`/`i`/`c`, and every command letter GNU sed knows.
//!
//! It decides whether a script runs a command (`e`, `s///e`), writes a file
//! (`w`, `W`, `s///w`) or reads one (`r`, `R`): exactly the commands
//! `sed --sandbox` refuses. A script it cannot follow (an unknown command,
//! an unterminated `s`, an unmatched brace) is reported as not understood,
//! so the guard fires: it never guesses.
//!
//! Labels are read four ways, because seds disagree on where a label ends:
//! GNU 4.9 ends it at a blank, `;`, `}`, `#` or newline (so
//! `:a e echo hi` runs `echo hi`), newer GNU sed also at a Unicode blank
//! (U+3000), POSIX-leaning seds at `;` or newline, BSD seds only at a
//! newline. The GNU reading must be understood; the
//! other two are followed only to find a dangerous command they would see.

/// What stopped the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// A command that runs, writes or reads: what it does, in words.
    Danger(&'static str),
    /// Syntax the reader cannot follow (GNU sed refuses most of it too).
    Unreadable(&'static str),
}

/// Where a label (`:a`, `b a`, `t a`, `T a`) ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Labels {
    /// GNU sed 4.9: at a blank, `;`, `}`, `#` or newline.
    Gnu,
    /// Newer GNU sed (`c32isblank`): also at any Unicode blank.
    UnicodeBlank,
    /// At `;` or a newline.
    Semicolon,
    /// Only at a newline.
    Line,
}

/// Why `script` is dangerous or not understood, or `None` when every
/// command in it is known and none runs, writes or reads a file.
/// `sandbox` is `--sandbox`: GNU sed then refuses the whole script at the
/// first `e`/`r`/`w`, so those are harmless; an unreadable script still
/// fires.
pub(super) fn dangerous(script: &str, sandbox: bool) -> Option<String> {
    let s: Vec<char> = script.chars().collect();
    match read(&s, Labels::Gnu) {
        Ok(()) => {}
        Err(Stop::Danger(what)) => return (!sandbox).then(|| what.to_owned()),
        Err(Stop::Unreadable(why)) => {
            return Some(format!("is not understood ({why}), so it is shown"));
        }
    }
    if sandbox {
        return None;
    }
    [
        (Labels::UnicodeBlank, "if labels end at a Unicode blank"),
        (Labels::Semicolon, "if labels end only at `;` or a newline"),
        (Labels::Line, "if labels end only at a newline"),
    ]
    .into_iter()
    .find_map(|(labels, reading)| match read(&s, labels) {
        Err(Stop::Danger(what)) => Some(format!("{what} ({reading}, as in other seds)")),
        _ => None,
    })
}

/// Reads the whole script the way `labels` says; the first stop, if any.
fn read(s: &[char], labels: Labels) -> Result<(), Stop> {
    let mut r = Reader {
        s,
        i: 0,
        labels,
        depth: 0,
    };
    r.program()
}

/// An address's kind, as far as the checks on it need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Addr {
    /// A line number (`0` matters: only `0,/re/` and `0r` accept it).
    Num(u64),
    /// `first~step`, `$`, or a `+N`/`~N` that GNU treats as no address.
    Other,
    /// `/re/` or `\cREc`.
    Regex,
    /// `+N` or `~N`, valid only as the second address.
    Step,
}

struct Reader<'a> {
    s: &'a [char],
    i: usize,
    labels: Labels,
    depth: usize,
}

const fn unreadable(why: &'static str) -> Stop {
    Stop::Unreadable(why)
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    /// Skips blanks (space, tab; any Unicode blank in that reading), never
    /// newlines: GNU's `in_nonblank`.
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            let blank = matches!(c, ' ' | '\t')
                || (self.labels == Labels::UnicodeBlank && unicode_blank(c));
            if !blank {
                break;
            }
            self.i += 1;
        }
    }

    /// Reads digits; their value (saturating).
    fn integer(&mut self) -> u64 {
        let mut n: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.i += 1;
        }
        n
    }

    fn program(&mut self) -> Result<(), Stop> {
        loop {
            while self.peek().is_some_and(|c| {
                matches!(c, ';' | ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
                    || (self.labels == Labels::UnicodeBlank && c.is_whitespace())
            }) {
                self.i += 1;
            }
            let Some(mut ch) = self.next() else {
                break;
            };
            let mut first = None;
            let mut second = None;
            if let Some(a1) = self.address(ch)? {
                if a1 == Addr::Step {
                    return Err(unreadable("`+N` or `~N` as the first address"));
                }
                first = Some(a1);
                self.skip_blanks();
                ch = self
                    .next()
                    .ok_or(unreadable("an address without a command"))?;
                if ch == ',' {
                    self.skip_blanks();
                    let c2 = self.next().ok_or(unreadable("unexpected `,`"))?;
                    second = Some(self.address(c2)?.ok_or(unreadable("unexpected `,`"))?);
                    self.skip_blanks();
                    ch = self
                        .next()
                        .ok_or(unreadable("an address without a command"))?;
                }
                if first == Some(Addr::Num(0))
                    && ((second.is_none() && ch != 'r') || second.is_some_and(|a| a != Addr::Regex))
                {
                    return Err(unreadable("line address 0 outside `0,/re/`"));
                }
            }
            if ch == '!' {
                self.skip_blanks();
                ch = self.next().ok_or(unreadable("`!` without a command"))?;
                if ch == '!' {
                    return Err(unreadable("multiple `!`s"));
                }
            }
            self.command(ch, first.is_some(), second.is_some())?;
        }
        if self.depth > 0 {
            return Err(unreadable("an unmatched `{`"));
        }
        Ok(())
    }

    /// Reads an address starting with `ch` (already consumed); `None`
    /// (nothing more consumed) when `ch` does not start one.
    fn address(&mut self, ch: char) -> Result<Option<Addr>, Stop> {
        match ch {
            '/' | '\\' => {
                let delim = if ch == '\\' {
                    self.next()
                        .ok_or(unreadable("an unterminated address regex"))?
                } else {
                    '/'
                };
                self.delimited(delim, true)?;
                loop {
                    self.skip_blanks();
                    if matches!(self.peek(), Some('I' | 'M')) {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                Ok(Some(Addr::Regex))
            }
            '0'..='9' => {
                self.i -= 1;
                let n = self.integer();
                self.skip_blanks();
                if self.peek() == Some('~') {
                    self.i += 1;
                    self.skip_blanks();
                    if self.integer() > 0 {
                        return Ok(Some(Addr::Other));
                    }
                }
                Ok(Some(Addr::Num(n)))
            }
            '+' | '~' => {
                self.skip_blanks();
                let step = self.integer();
                Ok(Some(if step == 0 { Addr::Other } else { Addr::Step }))
            }
            '$' => Ok(Some(Addr::Other)),
            _ => Ok(None),
        }
    }

    /// One command, its letter `ch` already consumed.
    fn command(&mut self, ch: char, has_addr: bool, two_addrs: bool) -> Result<(), Stop> {
        match ch {
            '#' => {
                if has_addr {
                    return Err(unreadable("comments don't accept addresses"));
                }
                while self.next().is_some_and(|c| c != '\n') {}
            }
            'v' => {
                self.label();
            }
            '{' => self.depth += 1,
            '}' => {
                if self.depth == 0 {
                    return Err(unreadable("an unexpected `}`"));
                }
                if has_addr {
                    return Err(unreadable("`}` doesn't want any addresses"));
                }
                self.end_of_command()?;
                self.depth -= 1;
            }
            'e' => {
                return Err(Stop::Danger(
                    "uses the `e` command, which runs a shell command",
                ));
            }
            'a' | 'i' | 'c' => {
                self.skip_blanks();
                match self.peek() {
                    None => return Err(unreadable("expected `\\` after `a`, `c` or `i`")),
                    // `a\` then text: the character after the backslash
                    // (a newline, or GNU's one-liner text) starts it.
                    Some('\\') => self.i = (self.i + 2).min(self.s.len()),
                    Some(_) => {}
                }
                self.text();
            }
            ':' => {
                if has_addr {
                    return Err(unreadable("`:` doesn't want any addresses"));
                }
                if self.label().is_empty() {
                    return Err(unreadable("`:` lacks a label"));
                }
            }
            'b' | 't' | 'T' => {
                self.label();
            }
            'q' | 'Q' | 'l' => {
                if two_addrs && ch != 'l' {
                    return Err(unreadable("`q` and `Q` take one address"));
                }
                self.skip_blanks();
                self.integer();
                self.end_of_command()?;
            }
            '=' | 'd' | 'D' | 'F' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z' => {
                self.end_of_command()?;
            }
            'r' => return Err(Stop::Danger("uses the `r` command, which reads a file")),
            'R' => return Err(Stop::Danger("uses the `R` command, which reads a file")),
            'w' | 'W' => self.written("uses the `w` command, which writes a file")?,
            's' => self.substitute()?,
            'y' => {
                let delim = self
                    .next()
                    .ok_or(unreadable("an unterminated `y` command"))?;
                self.delimited(delim, false)?;
                self.delimited(delim, false)?;
                self.end_of_command()?;
            }
            _ => return Err(unreadable("an unknown command")),
        }
        Ok(())
    }

    /// The file name of `w`, `W` or `s///w`: the rest of the line, after
    /// blanks (GNU's `read_filename`). GNU sed writes `/dev/stdout` and
    /// `/dev/stderr` to its own streams without opening a file (and a
    /// POSIX sed opens the process's own stream by that name), so those
    /// two are not a write; any other name, `;` and all, is `what`.
    fn written(&mut self, what: &'static str) -> Result<(), Stop> {
        self.skip_blanks();
        let start = self.i;
        while self.peek().is_some_and(|c| c != '\n') {
            self.i += 1;
        }
        let name: String = self
            .s
            .get(start..self.i)
            .unwrap_or_default()
            .iter()
            .collect();
        if matches!(name.as_str(), "/dev/stdout" | "/dev/stderr") {
            Ok(())
        } else {
            Err(Stop::Danger(what))
        }
    }

    /// `s` after its letter: the two parts, then the flags.
    fn substitute(&mut self) -> Result<(), Stop> {
        let delim = self
            .next()
            .ok_or(unreadable("an unterminated `s` command"))?;
        self.delimited(delim, true)?;
        self.delimited(delim, false)?;
        let (mut eval, mut print, mut global, mut number) = (false, false, false, false);
        loop {
            self.skip_blanks();
            match self.peek() {
                None | Some('}' | '#') => break,
                Some('\n' | ';') => {
                    self.i += 1;
                    break;
                }
                Some(c) => {
                    self.i += 1;
                    match c {
                        'i' | 'I' | 'm' | 'M' => {}
                        'e' => eval = true,
                        'p' if !print => print = true,
                        'g' if !global => global = true,
                        'w' => {
                            self.written("uses the `w` flag of `s`, which writes a file")?;
                            break;
                        }
                        '0'..='9' if !number => {
                            self.i -= 1;
                            if self.integer() == 0 {
                                return Err(unreadable("an `s` number flag of zero"));
                            }
                            number = true;
                        }
                        '\r' if self.peek() == Some('\n') => {
                            self.i += 1;
                            break;
                        }
                        _ => return Err(unreadable("an unknown or repeated `s` flag")),
                    }
                }
            }
        }
        if eval {
            return Err(Stop::Danger(
                "uses the `e` flag of `s`, which runs the pattern space as a shell command",
            ));
        }
        Ok(())
    }

    /// One part of `s`, `y` or an address regex, up to and including the
    /// delimiter; a regex part skips bracket expressions as GNU does.
    fn delimited(&mut self, delim: char, regex: bool) -> Result<(), Stop> {
        if !delim.is_ascii() || delim == '\n' {
            return Err(unreadable("a delimiter GNU sed does not accept"));
        }
        loop {
            let c = self
                .next()
                .ok_or(unreadable("an unterminated `s`, `y` or regex"))?;
            if c == delim {
                return Ok(());
            }
            match c {
                '\n' => return Err(unreadable("an unterminated `s`, `y` or regex")),
                '\\' => {
                    self.next()
                        .ok_or(unreadable("an unterminated `s`, `y` or regex"))?;
                }
                '[' if regex => self.bracket()?,
                _ => {}
            }
        }
    }

    /// A bracket expression after its `[`, through its `]` (GNU's
    /// `snarf_char_class`): the delimiter does not end the regex inside it.
    fn bracket(&mut self) -> Result<(), Stop> {
        const OPEN: Stop = Stop::Unreadable("an unterminated bracket expression");
        let mut ch = self.next();
        if ch == Some('^') {
            ch = self.next();
        }
        if ch == Some(']') {
            ch = self.next();
        }
        // 0: plain; 1: after `[`; 2: after `[.` `[:` `[=`; 3: after the
        // closing `.` `:` `=`.
        let mut state = 0u8;
        let mut opener = ' ';
        loop {
            match ch {
                None | Some('\n') => return Err(OPEN),
                Some(c @ ('.' | ':' | '=')) if state == 1 => {
                    opener = c;
                    state = 2;
                    ch = self.next();
                    continue;
                }
                Some(c @ ('.' | ':' | '=')) if state == 2 && c == opener => {
                    state = 3;
                    ch = self.next();
                    continue;
                }
                Some('[') => {
                    if state == 0 {
                        state = 1;
                    }
                    ch = self.next();
                    continue;
                }
                Some(']') if state <= 1 => return Ok(()),
                Some(']') if state == 3 => state = 0,
                Some(_) => {}
            }
            state &= !1;
            ch = self.next();
        }
    }

    /// GNU's `read_end_of_cmd`: blanks, then `}` or `#` (left for the
    /// next command), `;`, a newline or the end.
    fn end_of_command(&mut self) -> Result<(), Stop> {
        self.skip_blanks();
        match self.peek() {
            None | Some('}' | '#') => Ok(()),
            Some(';' | '\n') => {
                self.i += 1;
                Ok(())
            }
            Some(_) => Err(unreadable("extra characters after a command")),
        }
    }

    /// A label, ending where this reading says; the terminator is left.
    fn label(&mut self) -> String {
        self.skip_blanks();
        let mut label = String::new();
        while let Some(c) = self.peek() {
            let ends = match self.labels {
                Labels::Gnu => matches!(c, '\n' | ' ' | '\t' | ';' | '}' | '#'),
                Labels::UnicodeBlank => unicode_blank(c) || matches!(c, '\n' | ';' | '}' | '#'),
                Labels::Semicolon => matches!(c, '\n' | ';'),
                Labels::Line => c == '\n',
            };
            if ends {
                break;
            }
            label.push(c);
            self.i += 1;
        }
        label
    }

    /// The text of `a`, `i`, `c`: data up to an unescaped newline.
    fn text(&mut self) {
        while let Some(c) = self.next() {
            match c {
                '\n' => return,
                '\\' => {
                    self.next();
                }
                _ => {}
            }
        }
    }
}

/// A blank as `c32isblank` may see it: a tab or a space separator (a
/// superset of glibc's, which leaves out the no-break spaces); never a
/// line break or `\r`.
fn unicode_blank(c: char) -> bool {
    c == '\t' || (c.is_whitespace() && !c.is_control() && !matches!(c, '\u{2028}' | '\u{2029}'))
}
