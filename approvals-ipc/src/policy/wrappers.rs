//! Dispatch wrappers and shell wrappers: which leading words hand the real
//! work to another command, and whether that hand-off can be seen through.
//!
//! Transparent wrappers (`env` without options, `nice`, `nohup`, `stdbuf`,
//! `timeout`, `time`, and `command`/`builtin`/`exec` without options) are
//! unwrapped so the target is what gets checked; the plan then runs the
//! target alone. Semantic wrappers (`sudo`, `env -S`, `setsid`, `xargs`, …)
//! change what runs and are never auto-allowed (openclaw.md section 10,
//! classes 7, 16 and 18), except in the few forms that wrap nothing and
//! only print ([`LISTING_FORMS`]: `crontab -l`, `tmux ls`). Shell wrappers (`sh -c SCRIPT`) are recognised
//! only in forms whose every flag is understood. Which programs are
//! shells and wrappers, and why, is the [`programs`] table; this module
//! holds only how each transparent wrapper's options are read.

use thiserror::Error;

use crate::policy::programs::{self, Kind};

/// Why a wrapper could not be seen through.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WrapperRefusal {
    /// A wrapper that changes what runs or how.
    #[error("{name} is a wrapper that changes what runs ({reason}); it is never auto-allowed")]
    Semantic {
        /// The wrapper word.
        name: String,
        /// Why it is semantic.
        reason: &'static str,
    },
    /// A transparent wrapper used with an option we do not understand.
    #[error(
        "{name} with option {option:?} is not auto-allowed{}",
        option_hint(name, option)
    )]
    Option {
        /// The wrapper word.
        name: String,
        /// The option that made it opaque.
        option: String,
    },
    /// A shell invoked in a way the analysis does not understand.
    #[error("shell {name} invoked with {detail}; only `{name} [-lexuv] -c SCRIPT` is analysed")]
    Shell {
        /// The shell word.
        name: String,
        /// What was not understood.
        detail: String,
    },
    /// Wrappers nested deeper than the analysis follows.
    #[error("more than {MAX_WRAPPERS} nested wrappers are not auto-allowed")]
    TooDeep,
}

/// What a person can write instead of a wrapper option that has a plain
/// equivalent: `command -v NAME` (a lookup by the shell, which our executor
/// never runs) prints what `which NAME` prints.
fn option_hint(name: &str, option: &str) -> &'static str {
    match (name, option) {
        ("command", "-v" | "-V") => {
            "\nhint: `command -v` is a lookup by the shell, which the executor does not run; `which NAME` prints the same path"
        }
        _ => "",
    }
}

/// How many wrappers are unwrapped before giving up.
pub const MAX_WRAPPERS: usize = 4;

/// What the leading words of an argv turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwrapped<'a> {
    /// The target command starts at this index of the argv; the names of the
    /// transparent wrappers removed before it are listed.
    Target {
        /// Index of the target's argv[0].
        start: usize,
        /// The wrappers removed, outermost first.
        wrappers: Vec<&'static str>,
    },
    /// A POSIX shell with an inline script.
    Shell {
        /// The shell word as written.
        shell: &'a str,
        /// The script text.
        script: &'a str,
        /// The transparent wrappers removed before the shell.
        wrappers: Vec<&'static str>,
    },
}

/// Unwraps transparent wrappers and recognises shell wrappers; refuses
/// semantic wrappers and options it does not understand.
pub fn unwrap(argv: &[String]) -> Result<Unwrapped<'_>, WrapperRefusal> {
    let mut start = 0;
    let mut wrappers = Vec::new();
    loop {
        let Some(word) = argv.get(start) else {
            // Only reachable for an empty argv; callers refuse that earlier.
            return Ok(Unwrapped::Target { start, wrappers });
        };
        let name = basename(word);
        let rest = &argv[start + 1..];
        // Refusing a word goes by its family; seeing through one needs its
        // exact name (table names are lowercase, without `.exe`). One
        // lookup serves both: this runs for every word of every segment.
        let found = programs::program(name);
        let exact = found.filter(|p| p.name == name);
        if let Some(runner) = exact.filter(|p| p.is(Kind::AppletRunner)) {
            let applet = rest.first().map(|a| basename(a));
            if applet
                .and_then(programs::program_exact)
                .is_some_and(|p| p.is(Kind::PosixShell))
            {
                return shell(argv, start + 1, wrappers);
            }
            return Err(WrapperRefusal::Semantic {
                name: name.to_owned(),
                reason: runner.reason,
            });
        }
        if found.is_some_and(|p| p.name == "rustup") && rustup_runs(rest) {
            return Err(WrapperRefusal::Semantic {
                name: format!("{name} run"),
                reason: RUSTUP_RUN,
            });
        }
        if exact.is_some_and(|p| p.is(Kind::SemanticWrapper)) && only_lists(name, rest) {
            // `crontab -l`: the program wraps nothing; it is the target.
            return Ok(Unwrapped::Target { start, wrappers });
        }
        if let Some(wrapper) = found.filter(|p| p.is(Kind::SemanticWrapper)) {
            return Err(WrapperRefusal::Semantic {
                // xargs is named with the command it would run.
                name: crate::policy::specs::wrapped_command(name, rest)
                    .unwrap_or_else(|| name.to_owned()),
                reason: wrapper.reason,
            });
        }
        if exact.is_some_and(|p| p.is(Kind::PosixShell)) {
            return shell(argv, start, wrappers);
        }
        let Some(wrapper) = exact.filter(|p| p.is(Kind::TransparentWrapper)) else {
            return Ok(Unwrapped::Target { start, wrappers });
        };
        let skip = match name {
            "env" => env_options(rest)?,
            "nice" => nice_options(rest)?,
            "nohup" => usize::from(rest.first().is_some_and(|a| a == "--")),
            "stdbuf" => stdbuf_options(rest)?,
            "timeout" => timeout_options(rest)?,
            "time" => time_options(rest)?,
            "command" | "builtin" | "exec" => plain_builtin_options(name, rest)?,
            // A transparent wrapper whose options this module cannot read
            // is not seen through (a table test keeps this unreachable).
            _ => return Err(option_error(name, rest.first().map_or("", String::as_str))),
        };
        if rest.len() <= skip {
            // `env` or `nice` alone: the wrapper is the program itself.
            return Ok(Unwrapped::Target { start, wrappers });
        }
        if wrappers.len() == MAX_WRAPPERS {
            return Err(WrapperRefusal::TooDeep);
        }
        wrappers.push(wrapper.name);
        start += 1 + skip;
    }
}

/// The whole argv (after the program) of a semantic wrapper's forms that
/// wrap no command and only print what is scheduled or running, each with
/// why (helper H28's sweep: `crontab -l` on a server was asked as a
/// wrapper). Matched exactly: another option (`crontab -l -u root`, `tmux
/// -L sock ls`) or another word is the wrapper again.
pub const LISTING_FORMS: &[(&str, &[&str], &str)] = &[
    (
        "crontab",
        &["-l"],
        "prints the user's own crontab; installs nothing",
    ),
    (
        "screen",
        &["-list"],
        "lists the user's screen sessions; starts none",
    ),
    (
        "screen",
        &["-ls"],
        "lists the user's screen sessions; starts none",
    ),
    (
        "tmux",
        &["list-sessions"],
        "lists the running server's sessions; starts no server and reads no config",
    ),
    (
        "tmux",
        &["ls"],
        "lists the running server's sessions; starts no server and reads no config",
    ),
];

/// Whether `rest` is one of `name`'s [`LISTING_FORMS`], exactly.
fn only_lists(name: &str, rest: &[String]) -> bool {
    LISTING_FORMS
        .iter()
        .any(|(program, form, _)| *program == name && rest.iter().eq(form.iter()))
}

/// Why `rustup run` is a semantic wrapper.
pub const RUSTUP_RUN: &str = "runs any command with a toolchain's directory first on PATH and its environment set, so the command does not resolve as checked";

/// Whether rustup's arguments make it `rustup run TOOLCHAIN COMMAND …`:
/// past its flag-only global options and a `+toolchain`, which rustup's
/// clap takes in any order before the command (`rustup -v +stable run`,
/// tried with rustup 1.29), the first word is `run` or a prefix of it
/// (over-refusing an abbreviation rustup may not accept, never missing one
/// it does).
fn rustup_runs(rest: &[String]) -> bool {
    rest.iter()
        .find(|a| !a.starts_with('-') && !a.starts_with('+'))
        .is_some_and(|a| !a.is_empty() && "run".starts_with(a.as_str()))
}

/// Whether a program name is a shell of any kind (by [`programs::family`]),
/// for allow-always and the analysis's renamed-program check.
pub fn is_shell(name: &str) -> bool {
    programs::is_shell(name)
}

/// Whether a program name is a wrapper of either kind (by
/// [`programs::family`]), for allow-always and the renamed-program check.
pub fn is_wrapper(name: &str) -> bool {
    programs::is_wrapper(name)
}

/// The last path component of a command word.
pub fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn shell<'a>(
    argv: &'a [String],
    start: usize,
    wrappers: Vec<&'static str>,
) -> Result<Unwrapped<'a>, WrapperRefusal> {
    let name = basename(&argv[start]);
    let refuse = |detail: String| WrapperRefusal::Shell {
        name: name.to_owned(),
        detail,
    };
    let mut i = start + 1;
    let mut inline = false;
    while let Some(arg) = argv.get(i) {
        match arg.as_str() {
            "--" => {
                i += 1;
                break;
            }
            "--login" | "--noprofile" | "--norc" | "--posix" => {}
            "-o" | "+o" => {
                let option = argv.get(i + 1).map(String::as_str).unwrap_or("");
                if !matches!(option, "pipefail" | "errexit" | "nounset") {
                    return Err(refuse(format!("option {arg} {option:?}")));
                }
                i += 1;
            }
            a if a.starts_with("--") => return Err(refuse(format!("option {a:?}"))),
            a if a.starts_with('-') && a.len() > 1 => {
                for letter in a[1..].chars() {
                    match letter {
                        'c' => inline = true,
                        'l' | 'e' | 'u' | 'x' | 'v' => {}
                        _ => return Err(refuse(format!("option {a:?}"))),
                    }
                }
            }
            _ => break,
        }
        i += 1;
    }
    if !inline {
        return Err(refuse(match argv.get(i) {
            Some(file) => format!("a script file {file:?}"),
            None => "no -c script (it would read commands from stdin)".to_owned(),
        }));
    }
    let Some(script) = argv.get(i) else {
        return Err(refuse("-c but no script".to_owned()));
    };
    if argv.len() > i + 1 {
        return Err(refuse(
            "arguments after the script (they become $0, $1, … for the script)".to_owned(),
        ));
    }
    Ok(Unwrapped::Shell {
        shell: &argv[start],
        script,
        wrappers,
    })
}

fn option_error(name: &str, option: &str) -> WrapperRefusal {
    WrapperRefusal::Option {
        name: name.to_owned(),
        option: option.to_owned(),
    }
}

fn env_options(rest: &[String]) -> Result<usize, WrapperRefusal> {
    match rest.first().map(String::as_str) {
        Some("--") => Ok(1),
        Some(a) if a.starts_with('-') => Err(WrapperRefusal::Semantic {
            name: "env".to_owned(),
            reason: "env with options can split strings, clear or unset the environment",
        }),
        Some(a) if a.contains('=') => Err(WrapperRefusal::Semantic {
            name: "env".to_owned(),
            reason: "env with assignments changes the environment of the command",
        }),
        _ => Ok(0),
    }
}

fn nice_options(rest: &[String]) -> Result<usize, WrapperRefusal> {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let a = a.as_str();
        if a == "--" {
            return Ok(i + 1);
        } else if a == "-n" || a == "--adjustment" {
            i += 2;
            continue;
        } else if is_signed_number(a.strip_prefix("-n").unwrap_or(""))
            || is_signed_number(a.strip_prefix("--adjustment=").unwrap_or(""))
            || (a.starts_with('-') && is_signed_number(&a[1..]))
        {
        } else if a.starts_with('-') {
            return Err(option_error("nice", a));
        } else {
            break;
        }
        i += 1;
    }
    Ok(i)
}

fn stdbuf_options(rest: &[String]) -> Result<usize, WrapperRefusal> {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let a = a.as_str();
        if a == "--" {
            return Ok(i + 1);
        } else if matches!(a, "-i" | "-o" | "-e" | "--input" | "--output" | "--error") {
            i += 2;
            continue;
        } else if ["-i", "-o", "-e", "--input=", "--output=", "--error="]
            .iter()
            .any(|p| a.starts_with(p))
        {
        } else if a.starts_with('-') {
            return Err(option_error("stdbuf", a));
        } else {
            break;
        }
        i += 1;
    }
    Ok(i)
}

fn timeout_options(rest: &[String]) -> Result<usize, WrapperRefusal> {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        let a = a.as_str();
        if a == "--" {
            i += 1;
            break;
        } else if matches!(a, "-s" | "-k" | "--signal" | "--kill-after") {
            i += 2;
            continue;
        } else if matches!(a, "--preserve-status" | "--foreground" | "-v" | "--verbose")
            || a.starts_with("--signal=")
            || a.starts_with("--kill-after=")
            || (a.len() > 2 && (a.starts_with("-s") || a.starts_with("-k")))
        {
        } else if a.starts_with('-') {
            return Err(option_error("timeout", a));
        } else {
            break;
        }
        i += 1;
    }
    // The duration operand.
    Ok(i + 1)
}

fn time_options(rest: &[String]) -> Result<usize, WrapperRefusal> {
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        match a.as_str() {
            "--" => return Ok(i + 1),
            "-p" | "--portability" | "-v" | "--verbose" => {}
            a if a.starts_with('-') => return Err(option_error("time", a)),
            _ => break,
        }
        i += 1;
    }
    Ok(i)
}

fn plain_builtin_options(name: &str, rest: &[String]) -> Result<usize, WrapperRefusal> {
    match rest.first().map(String::as_str) {
        Some("--") => Ok(1),
        Some(a) if a.starts_with('-') && a.len() > 1 => Err(option_error(name, a)),
        _ => Ok(0),
    }
}

fn is_signed_number(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests;
