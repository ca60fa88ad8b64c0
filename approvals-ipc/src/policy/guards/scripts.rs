//! Program-specific inspections behind `Inspect` guards: sed scripts, awk
//! programs, git config keys and command-running subcommands, curl data
//! values, make variable overrides and PowerShell command parameters.
//!
//! Each returns what it found, or `None`. The sed and awk readers are
//! conservative: anything they cannot follow is reported, so an unusual
//! script is shown to a human rather than trusted.

use super::parse::{Invocation, OptName};
use super::types::Inspection;

/// Runs the inspection `which` names on `inv`: what it found, or `None`.
pub(crate) fn inspect(which: Inspection, inv: &Invocation<'_>) -> Option<String> {
    match which {
        Inspection::AwkProgram => awk_program(inv),
        Inspection::CurlFileData => curl_file_data(inv),
        Inspection::GitConfig => git_config(inv),
        Inspection::GitRunsCommand => git_runs_command(inv),
        Inspection::MakeAssignment => make_assignment(inv),
        Inspection::PwshCommand => pwsh_command(inv),
        Inspection::SedScripts => sed_scripts(inv),
    }
}

/// Config keys (lowercase; `*` at either end is a wildcard) that make git
/// run a program or load config from elsewhere, each with why.
pub(crate) const GIT_CONFIG_KEYS: &[(&str, &str)] = &[
    ("*.askpass", "runs a password program"),
    ("*.browser", "runs a browser program"),
    ("*.cmd", "names a command"),
    ("*.command", "names a command"),
    ("*.driver", "names a merge driver command"),
    ("*.editor", "runs an editor program"),
    ("*.external", "runs an external diff program"),
    ("*.fsmonitor", "runs a file-system monitor program"),
    ("*.gitproxy", "runs a proxy program"),
    ("*.helper", "runs a credential helper program"),
    ("*.hookspath", "runs hooks from another directory"),
    ("*.packobjectshook", "runs a hook program"),
    ("*.pager", "runs a pager program"),
    ("*.path", "loads config from another file"),
    ("*.program", "runs a program"),
    ("*.receivepack", "runs a program on the remote"),
    ("*.sshcommand", "runs an ssh program"),
    ("*.templatedir", "copies hooks from another directory"),
    ("*.textconv", "runs a conversion program"),
    ("*.uploadpack", "runs a program on the remote"),
    ("alias.*", "an alias starting with `!` runs a shell command"),
    ("filter.*", "clean/smudge filters run programs"),
    ("includeif.*", "loads config from another file"),
    ("pager.*", "runs a pager program"),
];

/// `git config` that writes a key naming a program, or opens an editor.
pub(crate) fn git_config(inv: &Invocation<'_>) -> Option<String> {
    if inv.subcommand != Some("config") {
        return None;
    }
    if let Some(o) = inv
        .sub_opts
        .iter()
        .find(|o| o.name == OptName::Short('e') || is_prefix_of(o.name, "edit"))
    {
        return Some(format!("config {} (opens an editor)", o.token));
    }
    inv.sub_operands.iter().find_map(|key| {
        let lower = key.to_ascii_lowercase();
        GIT_CONFIG_KEYS
            .iter()
            .find(|(pat, _)| key_matches(pat, &lower))
            .map(|(_, why)| format!("config {key} ({why})"))
    })
}

fn is_prefix_of(name: OptName<'_>, long: &str) -> bool {
    matches!(name, OptName::Long(t) if !t.is_empty() && long.starts_with(t))
}

fn key_matches(pattern: &str, key: &str) -> bool {
    if let Some(suffix) = pattern.strip_prefix('*') {
        key.ends_with(suffix) && key.len() > suffix.len()
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        key.starts_with(prefix)
    } else {
        key == pattern
    }
}

/// Subcommands that run a command they are given, and `ext::` transports.
pub(crate) fn git_runs_command(inv: &Invocation<'_>) -> Option<String> {
    if let Some(url) = inv
        .args
        .iter()
        .find(|a| a.starts_with("ext::") || a.starts_with("fd::"))
    {
        return Some(format!("{url} (a transport that runs a command)"));
    }
    let sub = inv.subcommand?;
    let first = inv.sub_operands.first().copied();
    match (sub, first) {
        ("bisect", Some("run")) | ("submodule", Some("foreach")) => {
            Some(format!("{sub} {}", first?))
        }
        ("filter-branch", _) | ("mergetool", _) | ("instaweb", _) => Some(sub.to_owned()),
        _ => None,
    }
}

/// curl data options whose value reads a file (`@file`, `name=<file`).
pub(crate) fn curl_file_data(inv: &Invocation<'_>) -> Option<String> {
    const AT_START: &[&str] = &["--data", "--data-ascii", "--data-binary", "--json", "-d"];
    const ANYWHERE: &[&str] = &["--data-urlencode", "--form", "-F"];
    inv.opts.iter().find_map(|o| {
        let v = o.value?;
        let reads = (o.name.is_any(AT_START) && v.starts_with('@'))
            || (o.name.is_any(ANYWHERE) && v.contains(['@', '<']));
        reads.then(|| o.shown())
    })
}

/// `make NAME=value`: a variable override on the command line.
pub(crate) fn make_assignment(inv: &Invocation<'_>) -> Option<String> {
    inv.operands
        .iter()
        .find(|a| {
            a.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && !name.contains('/') && !name.starts_with('-')
            })
        })
        .map(|a| (*a).to_owned())
}

/// PowerShell `-Command`/`-EncodedCommand` (any case, any prefix), a
/// command-position operand, or code on stdin.
pub(crate) fn pwsh_command(inv: &Invocation<'_>) -> Option<String> {
    let mut file_given = false;
    for (i, arg) in inv.args.iter().enumerate() {
        let Some(name) = arg.strip_prefix('-').or_else(|| arg.strip_prefix('/')) else {
            // A bare operand before -File is a command (Windows PowerShell)
            // or a script path (pwsh); either way it is shown to a human.
            return (!file_given).then(|| arg.to_owned());
        };
        let name = name.trim_start_matches('-').to_ascii_lowercase();
        if name.is_empty() {
            return Some(arg.to_owned());
        }
        if "command".starts_with(&name) || "encodedcommand".starts_with(&name) || name == "ec" {
            return Some(arg.to_owned());
        }
        if "file".starts_with(&name) {
            file_given = true;
            if inv.args.get(i + 1).is_some_and(|v| v == "-") {
                return Some(format!("{arg} -"));
            }
        }
    }
    None
}

/// sed scripts given by `-e`/`--expression`, or the first operand.
pub(crate) fn sed_scripts(inv: &Invocation<'_>) -> Option<String> {
    let mut scripts: Vec<&str> = inv
        .opts
        .iter()
        .filter(|o| o.name.is_any(&["--expression", "-e"]))
        .filter_map(|o| o.value)
        .collect();
    let has_file = inv.opts.iter().any(|o| o.name.is_any(&["--file", "-f"]));
    if scripts.is_empty() && !has_file {
        scripts.extend(inv.operands.first());
    }
    scripts
        .into_iter()
        .find_map(|s| sed::dangerous(s).map(|why| format!("script `{s}` {why}")))
}

/// awk program text (`-e`/`--source` values and the first operand).
pub(crate) fn awk_program(inv: &Invocation<'_>) -> Option<String> {
    let sources = inv
        .opts
        .iter()
        .filter(|o| o.name.is_any(&["--source", "-e"]))
        .filter_map(|o| o.value);
    sources
        .chain(inv.operands.first().copied())
        .find_map(|p| awk::dangerous(p).map(|why| format!("program `{p}` {why}")))
}

mod sed {
    //! A conservative reader of sed scripts: finds `e`, `w`, `W` commands
    //! and the `e`/`w` flags of `s`, and gives up (reports) on anything it
    //! does not know.

    /// Why the script is dangerous or unreadable, or `None`.
    pub(super) fn dangerous(script: &str) -> Option<&'static str> {
        let s: Vec<char> = script.chars().collect();
        let mut i = 0;
        loop {
            while i < s.len() && (s[i].is_whitespace() || s[i] == ';' || s[i] == '}') {
                i += 1;
            }
            if i >= s.len() {
                return None;
            }
            let Some(next) = address(&s, i) else {
                return Some(UNREADABLE);
            };
            i = next;
            while i < s.len() && (s[i].is_whitespace() || s[i] == '!') {
                i += 1;
            }
            let Some(&cmd) = s.get(i) else {
                return Some("ends after an address");
            };
            i += 1;
            match cmd {
                '{' => {}
                'e' => return Some("uses the `e` command, which runs a shell command"),
                'w' | 'W' => return Some("uses the `w` command, which writes a file"),
                's' => match substitute(&s, i) {
                    Some(next) => i = next,
                    None => return Some(S_FLAGS),
                },
                'y' => match delimited(&s, i, 2) {
                    Some(next) => i = next,
                    None => return Some(UNREADABLE),
                },
                // Text and file names run to the end of the line.
                'a' | 'i' | 'c' | 'r' | 'R' => i = to_end_of_line(&s, i),
                // GNU ends labels at `;` as well.
                ':' | 'b' | 't' | 'T' => {
                    while i < s.len() && !matches!(s[i], ';' | '\n') {
                        i += 1;
                    }
                }
                '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z'
                | 'F' => {}
                'q' | 'Q' | 'l' | 'L' => {
                    while i < s.len() && s[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                '#' => i = to_end_of_line(&s, i),
                _ => return Some("has a command this reader does not know"),
            }
        }
    }

    const S_FLAGS: &str =
        "uses an `s` command with the `e` or `w` flag, or one this reader cannot follow";
    const UNREADABLE: &str = "has syntax this reader cannot follow";

    /// Parses `s/re/repl/flags` from the delimiter at `i`; the index after
    /// the flags, or `None` when a flag runs or writes, or is unknown.
    fn substitute(s: &[char], i: usize) -> Option<usize> {
        let mut j = delimited(s, i, 2)?;
        while j < s.len() && !matches!(s[j], ';' | '\n' | '}') {
            match s[j] {
                'g' | 'p' | 'i' | 'I' | 'm' | 'M' | ' ' | '\t' => {}
                c if c.is_ascii_digit() => {}
                _ => return None,
            }
            j += 1;
        }
        Some(j)
    }

    /// Skips `n` delimited parts starting at the delimiter at `i`.
    fn delimited(s: &[char], i: usize, n: usize) -> Option<usize> {
        let delim = *s.get(i)?;
        if delim == '\\' || delim == '\n' {
            return None;
        }
        let mut j = i + 1;
        for _ in 0..n {
            loop {
                let c = *s.get(j)?;
                j += 1;
                if c == '\\' {
                    s.get(j)?;
                    j += 1;
                } else if c == delim {
                    break;
                }
            }
        }
        Some(j)
    }

    /// Skips an address (`N`, `$`, `/re/`, `\cREc`, `first~step`, `a,b`).
    fn address(s: &[char], mut i: usize) -> Option<usize> {
        for part in 0..2 {
            match s.get(i) {
                Some('/') => i = delimited(s, i, 1)?,
                Some('\\') => i = delimited(s, i + 1, 1)?,
                Some('$') => i += 1,
                Some(c) if c.is_ascii_digit() || (part == 1 && (*c == '+' || *c == '~')) => {
                    i += 1;
                    while s.get(i).is_some_and(|c| c.is_ascii_digit() || *c == '~') {
                        i += 1;
                    }
                }
                _ => return Some(i),
            }
            while s.get(i).is_some_and(|c| matches!(c, 'I' | 'M')) {
                i += 1;
            }
            if s.get(i) != Some(&',') {
                return Some(i);
            }
            i += 1;
        }
        Some(i)
    }

    fn to_end_of_line(s: &[char], mut i: usize) -> usize {
        while i < s.len() && s[i] != '\n' {
            i += 1;
        }
        i
    }
}

mod awk {
    //! A conservative scan of awk program text: strings are skipped, regex
    //! literals are skipped where a regex can start, and any `system`,
    //! single `|`, `>` inside a print statement, `ENVIRON` or `@` directive
    //! is reported.

    /// Why the program is dangerous, or `None`.
    pub(super) fn dangerous(program: &str) -> Option<&'static str> {
        let s: Vec<char> = program.chars().collect();
        let mut i = 0;
        let mut in_print = false;
        let mut prev = '\n';
        while i < s.len() {
            let c = s[i];
            match c {
                '"' => {
                    let Some(next) = skip_quoted(&s, i, '"') else {
                        return Some("has an unterminated string");
                    };
                    i = next;
                    prev = 'a';
                    continue;
                }
                '/' if regex_can_start(prev) => {
                    let Some(next) = skip_quoted(&s, i, '/') else {
                        return Some("has an unterminated regex");
                    };
                    i = next;
                    prev = 'a';
                    continue;
                }
                '#' => {
                    while i < s.len() && s[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '@' => return Some("uses an `@` directive (`@load`, `@include`)"),
                '|' if s.get(i + 1) == Some(&'|') => {
                    i += 2;
                    prev = '|';
                    continue;
                }
                '|' => return Some("pipes to or from a command"),
                '>' if in_print => return Some("redirects output to a file"),
                ';' | '\n' | '{' | '}' => in_print = false,
                _ => {}
            }
            if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
                let word: String = s[start..i].iter().collect();
                match word.as_str() {
                    "system" => return Some("calls system()"),
                    "ENVIRON" => return Some("reads the environment (ENVIRON)"),
                    "print" | "printf" => in_print = true,
                    _ => {}
                }
                prev = 'a';
                continue;
            }
            if !c.is_whitespace() {
                prev = c;
            }
            i += 1;
        }
        None
    }

    /// A `/` starts a regex after these (or at the start), else it divides.
    fn regex_can_start(prev: char) -> bool {
        matches!(
            prev,
            '\n' | '(' | ',' | '~' | '!' | '{' | ';' | '&' | '|' | '=' | '}'
        )
    }

    /// The index after the closing `quote`; `None` if unterminated.
    fn skip_quoted(s: &[char], i: usize, quote: char) -> Option<usize> {
        let mut j = i + 1;
        loop {
            match *s.get(j)? {
                '\\' => j += 2,
                c if c == quote => return Some(j + 1),
                _ => j += 1,
            }
        }
    }
}
