//! Program-specific inspections behind `Inspect` guards: sed scripts, awk
//! programs, git config keys and command-running subcommands, curl data
//! values, make variable overrides and PowerShell command parameters.
//!
//! Each returns what it found, or `None`. The sed reader (`sed.rs`, GNU sed
//! 4.9's grammar) and the awk reader (`awk.rs`, a tokenizer for POSIX awk,
//! gawk and mawk) are conservative: anything they cannot follow is
//! reported, so an unusual script is shown to a human rather than trusted.
//! `approvals-ipc/tests/script_conformance.rs` holds them to the real
//! programs' sandbox modes.

use super::parse::{Invocation, OptName};
use super::types::{Inspection, Layout};
use crate::policy::env;
use crate::policy::specs::effects::risky_write;

mod awk;
mod cmake;
pub(crate) mod git;
mod sed;

/// Runs the inspection `which` names on `inv`: what it found, or `None`.
pub(crate) fn inspect(which: Inspection, inv: &Invocation<'_>) -> Option<String> {
    match which {
        Inspection::AnyOption => inv.opts.first().map(|o| o.shown()),
        Inspection::ArgPrefix(prefixes) => inv
            .args
            .iter()
            .find(|a| prefixes.iter().any(|p| a.starts_with(p)))
            .cloned(),
        Inspection::AwkProgram => awk_program(inv),
        Inspection::CmakeVariable => cmake::cmake_variable(inv),
        Inspection::CompilerDriver => compiler_driver(inv),
        Inspection::CurlFileData => curl_file_data(inv),
        Inspection::CurlUrlScheme => curl_url_scheme(inv),
        Inspection::GitConfig => git::git_config(inv),
        Inspection::GitConfigOverride => git::config_override(inv),
        Inspection::GitRunsCommand => git_runs_command(inv),
        Inspection::DashedOutsideCwd(names) => dashed_outside(inv, names),
        Inspection::ExactLong(names) => exact_long(inv, names),
        Inspection::LongOnly(names) => long_only(inv, names),
        Inspection::MakeAssignment => make_assignment(inv),
        Inspection::PwshCommand => pwsh_command(inv),
        Inspection::ResponseFile => response_file(inv),
        Inspection::PerlModuleCode => perl_module_code(inv),
        Inspection::PhpIniCode => php_ini_code(inv),
        Inspection::ScriptSource => script_source(inv),
        Inspection::RustcCodegen => rustc_codegen(inv),
        Inspection::EnvsubstFormat => envsubst_format(inv),
        Inspection::ExprNames(names, subs) => expr_names(inv, names, subs),
        Inspection::PsEnvironment => ps_environment(inv),
        Inspection::SedScripts => sed_scripts(inv),
        Inspection::SedInPlace => sed_in_place(inv),
        Inspection::WordIgnoringCase(words) => inv
            .args
            .iter()
            .find(|a| words.iter().any(|w| a.eq_ignore_ascii_case(w)))
            .cloned(),
        Inspection::MoreOperandsThan(n) => (inv.operands.len() > n).then(|| inv.operands.join(" ")),
        Inspection::OperandContains(parts) => inv
            .operands
            .iter()
            .find(|o| parts.iter().any(|p| o.contains(p)))
            .map(|o| (*o).to_owned()),
        Inspection::UnlessOpt(names) => {
            (!inv.global_opts().any(|o| o.name.is_exactly_any(names))).then(String::new)
        }
        Inspection::StdinCommands => inv
            .stdin_is_input
            .then(|| "with commands on stdin".to_owned()),
    }
}

/// Compiler-driver arguments that run or load a program of the caller's
/// choosing: gcc's and clang's `-wrapper` (runs each tool under a program),
/// `-fplugin`/`-fpass-plugin`/`-Xclang -load` (load a shared library),
/// `-B`/`--ld-path`/`-fuse-ld=PATH` (where the tools it runs are found),
/// `-specs` (a spec file can name any command), `@file` (more arguments
/// from a file the prompt does not show), and linker plugins passed through
/// `-Wl,`/`-Xlinker`.
const COMPILER_RUNS: &[&str] = &[
    "--ld-path",
    "--specs",
    "-B",
    "-fpass-plugin",
    "-fplugin",
    "-specs",
    "-wrapper",
];

/// The first compiler-driver argument in [`COMPILER_RUNS`], an `@file`, a
/// `-fuse-ld=` with a path, `-Xclang -load`, or a linker plugin.
fn compiler_driver(inv: &Invocation<'_>) -> Option<String> {
    let mut previous = "";
    for arg in inv.args {
        let arg = arg.as_str();
        let runs = COMPILER_RUNS.iter().any(|o| arg.starts_with(o))
            || (arg.starts_with('@') && arg.len() > 1)
            || arg
                .strip_prefix("-fuse-ld=")
                .is_some_and(|v| v.contains('/'))
            || (previous == "-Xclang" && arg.starts_with("-load"))
            || ((arg.starts_with("-Wl,") || previous == "-Xlinker") && arg.contains("plugin"));
        if runs {
            return Some(arg.to_owned());
        }
        previous = arg;
    }
    None
}

/// The first option among `names` in a `getopt_long_only` argv: one dash
/// or two, the name before any `=`, exact or an abbreviation of at least
/// three letters (the program takes any unambiguous prefix; a shorter one
/// would also match options that are not guarded). A word that is an
/// option's value is read as an option too: over-guarding, never under.
fn long_only(inv: &Invocation<'_>, names: &[&str]) -> Option<String> {
    first_dashed(inv, |name, _| {
        names
            .iter()
            .any(|guarded| name == *guarded || (name.len() >= 3 && guarded.starts_with(name)))
    })
}

/// The first option among `names`, spelled with one dash or two, its name
/// before any `=` exactly one of them (the program does not abbreviate); a
/// name listed with a trailing `=` only with a value (`-pdflatex=CMD`, not
/// the flag `-pdflatex`).
fn exact_long(inv: &Invocation<'_>, names: &[&str]) -> Option<String> {
    first_dashed(inv, |name, valued| {
        names.iter().any(|n| match n.strip_suffix('=') {
            Some(n) => valued && n == name,
            None => *n == name,
        })
    })
}

/// The first word before `--` spelled with one dash or two whose name
/// (before any `=`) and whether it has an `=value` satisfy `wanted`.
fn first_dashed(inv: &Invocation<'_>, wanted: impl Fn(&str, bool) -> bool) -> Option<String> {
    inv.args
        .iter()
        .take_while(|arg| *arg != "--")
        .find(|arg| {
            let Some(body) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
                return false;
            };
            match body.split_once('=') {
                Some((name, _)) => wanted(name, true),
                None => wanted(body, false),
            }
        })
        .cloned()
}

/// The first Go-`flag` option among `names` (one dash or two, exact,
/// `=VALUE` or the next word) whose value is outside the working tree.
/// terraform reads `-chdir` only as `-chdir=DIR` before the subcommand;
/// any spelling anywhere is read here: over-guarding, never under.
fn dashed_outside(inv: &Invocation<'_>, names: &[&str]) -> Option<String> {
    let mut args = inv.args.iter().take_while(|a| *a != "--");
    while let Some(arg) = args.next() {
        let Some(body) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
            continue;
        };
        let (name, value) = match body.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (body, None),
        };
        if !names.contains(&name) {
            continue;
        }
        let (value, shown) = match value {
            Some(value) => (value, arg.clone()),
            None => match args.next() {
                Some(next) => (next.clone(), format!("{arg} {next}")),
                None => continue,
            },
        };
        if super::parse::outside(inv.cwd, &value) {
            return Some(format!("{shown} (outside the working directory)"));
        }
    }
    None
}

/// rustc's and rustdoc's codegen keys that name a program to run, or
/// arguments handed to one (`-C link-arg=-fuse-ld=/tmp/x`), or code to load
/// (`-C llvm-args=-load=…`): `rustc -C linker=sh x.rs` runs `sh` as the
/// linker, whatever compiles.
const RUSTC_RUNS: &[&str] = &[
    "link-arg",
    "link-args",
    "linker",
    "linker-flavor",
    "llvm-args",
    "passes",
    "pre-link-arg",
    "pre-link-args",
];

/// The first `-C`/`--codegen` option whose key is in [`RUSTC_RUNS`] (or
/// cannot be read: no value).
fn rustc_codegen(inv: &Invocation<'_>) -> Option<String> {
    inv.opts
        .iter()
        .filter(|o| match o.name {
            OptName::Short(c) => c == 'C',
            OptName::Long(name) => !name.is_empty() && "codegen".starts_with(name),
        })
        .find(|o| {
            o.value.is_none_or(|v| {
                let key = v.split_once('=').map_or(v, |(key, _)| key);
                RUSTC_RUNS.contains(&key.replace('_', "-").as_str())
            })
        })
        .map(|o| o.shown())
}

/// What envsubst would print of the environment: with `-v` only names;
/// with a SHELL-FORMAT operand, the variables it names (`'$HOME $USER'`)
/// unless each is known to hold no secret; with none, every `$NAME` of
/// its input, which the prompt does not show (`echo '$GITHUB_TOKEN' |
/// envsubst`). Found by the H29 sweep.
fn envsubst_format(inv: &Invocation<'_>) -> Option<String> {
    if inv.opts.iter().any(|o| {
        o.name
            .is_any(&["--variables", "-v", "--help", "--version", "-h", "-V"])
    }) {
        return None;
    }
    let Some(format) = inv.operands.first() else {
        return Some("with no SHELL-FORMAT (every $NAME its input holds)".to_owned());
    };
    shell_format_names(format)
        .find(|name| !crate::policy::env::holds_no_secret(name))
        .map(|name| format!("{format} (${name})"))
}

/// The variable names of a SHELL-FORMAT: each `$NAME` and `${NAME}`.
fn shell_format_names(format: &str) -> impl Iterator<Item = &str> {
    format.split('$').skip(1).filter_map(|rest| {
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        Some(&rest[..end]).filter(|name| !name.is_empty())
    })
}

/// The first option value or operand that uses one of `names` as an
/// identifier not after a `.` (a key: `yq '.env' x.yml`). With
/// `Some(subs)`, operands after the expression (the first operand that is
/// not one of `subs`) that are existing files of the working directory are
/// data and not looked into (`yq .a env`); the expression itself always
/// is, whatever files exist (`touch env && yq -n env`).
fn expr_names(inv: &Invocation<'_>, names: &[&str], subs: Option<&[&str]>) -> Option<String> {
    let mut expression_seen = false;
    let operands = inv.operands.iter().filter(|operand| {
        let data = subs.is_some()
            && expression_seen
            && std::fs::symlink_metadata(inv.cwd.join(operand)).is_ok();
        expression_seen |= subs.is_some_and(|subs| !subs.contains(operand));
        !data
    });
    inv.opts
        .iter()
        .filter_map(|o| o.value)
        .chain(operands.copied())
        .find(|text| uses_name(text, names))
        .map(str::to_owned)
}

/// Whether `text` uses one of `names` as an identifier (letters, digits,
/// `_`) that does not follow a `.`.
fn uses_name(text: &str, names: &[&str]) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut before = None;
    let mut rest = text;
    while let Some(start) = rest.find(ident) {
        let prev = rest[..start].chars().next_back().or(before);
        let tail = &rest[start..];
        let end = tail.find(|c: char| !ident(c)).unwrap_or(tail.len());
        if prev != Some('.') && names.contains(&&tail[..end]) {
            return true;
        }
        before = tail[..end].chars().next_back();
        rest = &tail[end..];
    }
    false
}

/// ps's BSD letters that take a value (the next word, or the rest of the
/// bundle): `O`/`o` a format, `p`/`q` pids, `t` a terminal, `U` a user,
/// `k` a sort order (procps-ng 4.0, `ps --help all`).
const PS_BSD_VALUES: &str = "OopqtUk";

/// procps's UNIX and GNU options that take a value, as the next word or
/// attached (`-opid`, `--format=pid`); the format ones are listed apart.
const PS_VALUES: &[&str] = &[
    "--cols",
    "--columns",
    "--context",
    "--group",
    "--Group",
    "--lines",
    "--pid",
    "--ppid",
    "--quick-pid",
    "--rows",
    "--sid",
    "--sort",
    "--tty",
    "--user",
    "--User",
    "--width",
    "-C",
    "-G",
    "-g",
    "-p",
    "-q",
    "-s",
    "-t",
    "-U",
    "-u",
];

/// ps's options whose value is a format (a list of columns).
const PS_FORMATS: &[&str] = &["--format", "-O", "-o"];

/// `ps e`, `ps auxeww`, `ps -ef e`: a bundle of BSD letters (a word with
/// no dash) holding `e`, which appends each process's environment to its
/// command line; or an `environ` column in a format (`ps -o environ`,
/// `ps o pid,environ`; procps 4.0.2 prints `-` there, later ones may not).
/// Every process of the user is shown, the agent's host and the user's
/// shells among them, with whatever tokens their environments hold. Found
/// by the H29 sweep; the words are read here, not through the guard
/// parser, since ps mixes three option syntaxes.
fn ps_environment(inv: &Invocation<'_>) -> Option<String> {
    let columns = |format: &str| {
        format
            .split([',', ' '])
            .map(|c| c.split_once('=').map_or(c, |(name, _)| name))
            .any(|c| c.starts_with("env"))
    };
    let mut words = inv.args.iter();
    while let Some(word) = words.next() {
        if let Some(long) = word.strip_prefix("--") {
            let (name, attached) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            let name = format!("--{name}");
            let takes = |names: &[&str]| names.contains(&name.as_str());
            if takes(PS_FORMATS) || takes(PS_VALUES) {
                let value = attached.or_else(|| words.next().map(String::as_str));
                if takes(PS_FORMATS) && value.is_some_and(columns) {
                    return Some(word.clone());
                }
            }
            continue;
        }
        let (dashed, letters) = match word.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, word.as_str()),
        };
        for (at, letter) in letters.char_indices() {
            let flag = format!("-{letter}");
            let format = if dashed {
                PS_FORMATS.contains(&flag.as_str())
            } else {
                "Oo".contains(letter)
            };
            let takes = format
                || if dashed {
                    PS_VALUES.contains(&flag.as_str())
                } else {
                    PS_BSD_VALUES.contains(letter)
                };
            if takes {
                let rest = &letters[at + letter.len_utf8()..];
                let value = if rest.is_empty() {
                    words.next().map(String::as_str)
                } else {
                    Some(rest)
                };
                if format && value.is_some_and(columns) {
                    return Some(word.clone());
                }
                break;
            }
            if !dashed && letter == 'e' {
                return Some(word.clone());
            }
        }
    }
    None
}

/// The first `@file` argument (a response file of more arguments).
fn response_file(inv: &Invocation<'_>) -> Option<String> {
    inv.args
        .iter()
        .take_while(|arg| *arg != "--")
        .find(|arg| arg.len() > 1 && arg.starts_with('@'))
        .cloned()
}

/// Config keys (lowercase; `*` at either end is a wildcard) known to make
/// git run a program, load config or code from elsewhere, or write files,
/// each with why. Only for the reason shown: whether a key is guarded is
/// decided by the positive list `git::INERT_KEYS` (unknown keys are
/// guarded too).
pub(crate) const GIT_CONFIG_KEYS: &[(&str, &str)] = &[
    ("*.alternaterefscommand", "runs a command"),
    ("*.askpass", "runs a password program"),
    ("*.browser", "runs a browser program"),
    ("*.cmd", "names a command"),
    ("*.command", "names a command"),
    ("*.defaultkeycommand", "runs a key program"),
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
    ("*.sendmailcmd", "runs a mail program"),
    ("*.smtpserver", "an absolute path is a mail program it runs"),
    ("*.sshcommand", "runs an ssh program"),
    ("*.templatedir", "copies hooks from another directory"),
    ("*.textconv", "runs a conversion program"),
    ("*.update", "`!command` runs a command on submodule update"),
    ("*.uploadpack", "runs a program on the remote"),
    ("*.worktree", "points git at another work tree"),
    ("alias.*", "an alias starting with `!` runs a shell command"),
    ("filter.*", "clean/smudge filters run programs"),
    ("includeif.*", "loads config from another file"),
    ("interactive.difffilter", "runs a filter program"),
    ("pager.*", "runs a pager program"),
    (
        "protocol.*",
        "allows transports that run commands (`ext::`)",
    ),
    (
        "safe.directory",
        "trusts repositories of other users, whose config runs programs",
    ),
    ("ssh.variant", "changes how the ssh program is run"),
    ("trace2.*", "writes trace files"),
    (
        "url.*",
        "rewrites URLs, also into transports that run commands",
    ),
];

pub(crate) fn key_matches(pattern: &str, key: &str) -> bool {
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

/// URL schemes whose use is curl's job: fetching from or sending to the
/// host the URL names, over the protocol it says.
const PLAIN_SCHEMES: &[&str] = &["ftp", "ftps", "http", "https", "scp", "sftp", "ws", "wss"];

/// A curl URL (an operand or a `--url` value) whose scheme is not in
/// [`PLAIN_SCHEMES`], matched without case as curl does, or a
/// `--proto-default` naming another scheme. curl takes the letters before
/// the first `:/` as the scheme (`file:/etc/passwd` reads a file, while
/// `localhost:8080/x` has none); `file:` reads a local file
/// (`file://localhost/…`, `%2e` escapes: a path the check of protected
/// paths does not read), `gopher:`, `dict:` and `telnet:` send raw bytes
/// to any service (a local Redis, a daemon on localhost), and a glob
/// (`{file,http}:/…`) can make any of them.
pub(crate) fn curl_url_scheme(inv: &Invocation<'_>) -> Option<String> {
    let plain = |scheme: &str| PLAIN_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme));
    let default = inv
        .opts
        .iter()
        .filter(|o| o.name.is_any(&["--proto-default"]))
        .find_map(|o| o.value.filter(|v| !plain(v)));
    if let Some(scheme) = default {
        return Some(format!(
            "--proto-default {scheme} (URLs without a scheme are {scheme}: URLs)"
        ));
    }
    let urls = inv.operands.iter().copied().chain(
        inv.opts
            .iter()
            .filter(|o| o.name.is_any(&["--url"]))
            .filter_map(|o| o.value),
    );
    urls.into_iter().find_map(|url| {
        let (scheme, _) = url.split_once(":/")?;
        (!plain(scheme)).then(|| format!("{url} (a {scheme}: URL)"))
    })
}

/// perl `-MName`, `-M-Name`, `-MName=a,b`: a module and its import list;
/// anything else in the value (`;`, quotes, parentheses, spaces) is code
/// perl compiles as `use Name …;` text.
pub(crate) fn perl_module_code(inv: &Invocation<'_>) -> Option<String> {
    let module_name = |v: &str| {
        let v = v.strip_prefix('-').unwrap_or(v);
        let (name, list) = v.split_once('=').unwrap_or((v, ""));
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':')
            && list
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b',' | b'.'))
    };
    inv.opts.iter().find_map(|o| {
        let code = o.name.is_any(&["-M", "-m"]) && !o.value.is_some_and(module_name);
        code.then(|| o.shown())
    })
}

/// php `-d key=value` with a key that loads code: `auto_prepend_file`,
/// `auto_append_file`, `extension`, `zend_extension`, `include_path`.
pub(crate) fn php_ini_code(inv: &Invocation<'_>) -> Option<String> {
    const LOADS: &[&str] = &[
        "auto_append_file",
        "auto_prepend_file",
        "extension",
        "extension_dir",
        "include_path",
        "zend_extension",
    ];
    inv.opts.iter().find_map(|o| {
        let key = o.value?.split_once('=').map_or(o.value?, |(k, _)| k);
        let loads = o.name.is_any(&["-d", "--define"])
            && LOADS.contains(&key.trim().to_ascii_lowercase().as_str());
        loads.then(|| o.shown())
    })
}

/// The script an interpreter runs, when it is stdin under a path name or
/// a URL: the first operand (after `run` for deno and bun).
pub(crate) fn script_source(inv: &Invocation<'_>) -> Option<String> {
    const STDIN: &[&str] = &["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];
    let script = match inv.operands.first() {
        Some(&"run") if inv.spec.layout != Layout::OptionsFirst => inv.operands.get(1),
        first => first,
    }?;
    let lower = script.to_ascii_lowercase();
    if STDIN.contains(script) || script.starts_with("/dev/fd/") {
        Some(format!("{script} (code read from stdin)"))
    } else if ["data:", "http://", "https://", "file://"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        Some(format!(
            "{script} (code from a URL the prompt does not show)"
        ))
    } else {
        None
    }
}

/// Variables GNU make itself reads, whatever their value: which shell
/// runs recipes, more options or makefiles, where prerequisites are found.
const MAKE_OWN_VARIABLES: &[&str] = &[
    "CURDIR",
    "GNUMAKEFLAGS",
    "MAKE",
    "MAKECMDGOALS",
    "MAKEFILES",
    "MAKEFILE_LIST",
    "MAKEFLAGS",
    "MAKELEVEL",
    "MAKEOVERRIDES",
    "MAKESHELL",
    "MAKE_TERMERR",
    "MAKE_TERMOUT",
    "MFLAGS",
    "SHELL",
    "SUFFIXES",
    "VPATH",
];

/// `make NAME=value`: a variable override on the command line, unless it
/// is one that cannot change what runs. make exports a command-line
/// variable to every recipe, so it is judged first as an environment
/// variable would be ([`env::check_inert`]: `LANG=C` is fine, `GIT_DIR=`,
/// `PYTHONPATH=` or `BASH_ENV=` never are). A variable no table knows is
/// fine only with a number for its value (`V=1`, `VERBOSE=1`, `DEBUG=0`):
/// used as a command, a number runs nothing, and used in a path it names
/// a file inside the tree. make's own variables (`SHELL`, `MAKEFLAGS`,
/// `.SHELLFLAGS`, any name with a dot) always ask.
pub(crate) fn make_assignment(inv: &Invocation<'_>) -> Option<String> {
    inv.operands
        .iter()
        .find(|a| {
            a.split_once('=').is_some_and(|(name, value)| {
                !name.is_empty()
                    && !name.contains('/')
                    && !name.starts_with('-')
                    && !inert_make_variable(name, value)
            })
        })
        .map(|a| (*a).to_owned())
}

/// Whether `make NAME=VALUE` cannot change what make runs.
fn inert_make_variable(name: &str, value: &str) -> bool {
    let plain_name = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !plain_name || MAKE_OWN_VARIABLES.contains(&name) {
        return false;
    }
    match env::check_inert(name, value) {
        Ok(()) => true,
        Err(env::NotInert::Unlisted) => {
            !value.is_empty() && value.len() <= 9 && value.bytes().all(|b| b.is_ascii_digit())
        }
        Err(_) => false,
    }
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

/// sed scripts given by `-e`/`--expression` (joined by newlines, as GNU
/// sed joins them), or the first operand when there is neither `-e` nor
/// `-f`. `--sandbox` (any unambiguous prefix) makes sed itself refuse
/// `e`/`r`/`w`, so only a script the reader cannot follow fires then.
pub(crate) fn sed_scripts(inv: &Invocation<'_>) -> Option<String> {
    let expressions: Vec<&str> = inv
        .opts
        .iter()
        .filter(|o| o.name.is_any(&["--expression", "-e"]))
        .filter_map(|o| o.value)
        .collect();
    let has_file = inv.opts.iter().any(|o| o.name.is_any(&["--file", "-f"]));
    let sandbox = inv
        .opts
        .iter()
        .any(|o| matches!(o.name, OptName::Long(t) if t.len() >= 2 && "sandbox".starts_with(t)));
    let script = if !expressions.is_empty() {
        expressions.join("\n")
    } else if has_file {
        return None;
    } else {
        (*inv.operands.first()?).to_owned()
    };
    sed::dangerous(&script, sandbox).map(|why| format!("script `{script}` {why}"))
}

/// `sed -i`: each file it edits is judged as a write (`sed -i s/a/b/
/// src/lib.rs` edits the tree, which is sed's job; `.git/config`,
/// `Makefile`, `~/.bashrc` or a file through a link out of the tree are
/// asked). The backup suffix may hold a `/` (GNU sed puts the backup
/// where `-i'/tmp/*'` points): asked. No file named: asked.
pub(crate) fn sed_in_place(inv: &Invocation<'_>) -> Option<String> {
    let in_place = inv
        .opts
        .iter()
        .find(|o| o.name.is_any(&["--in-place", "-i"]))?;
    // The suffix: `--in-place=SUF`, or the rest of a short cluster after
    // its `i` (the guard parser splits `-i.bak` into letters).
    let suffix_has_slash = in_place.value.is_some_and(|v| v.contains('/'))
        || inv.args.iter().take_while(|a| *a != "--").any(|a| {
            !a.starts_with("--")
                && a.starts_with('-')
                && a.split_once('i')
                    .is_some_and(|(_, rest)| rest.contains('/'))
        });
    if suffix_has_slash {
        return Some(format!(
            "{} (a backup suffix with a `/` puts the backup where it points)",
            in_place.shown()
        ));
    }
    let script_given = inv
        .opts
        .iter()
        .any(|o| o.name.is_any(&["--expression", "-e", "--file", "-f"]));
    let files = if script_given {
        &inv.operands[..]
    } else {
        inv.operands.get(1..).unwrap_or_default()
    };
    if files.is_empty() {
        return Some(format!("{} (no file named)", in_place.shown()));
    }
    files.iter().find_map(|file| {
        risky_write(inv.cwd, file).map(|place| format!("{} {file} ({place})", in_place.shown()))
    })
}

/// awk program text: the `-e`/`--source` values (joined by newlines,
/// as gawk reads them as one program), else the first operand. With a
/// source option (or `-f`, guarded on its own) the first operand is a file
/// name to gawk, but an awk that does not know `-e` runs it: it fires only
/// if it reads as a dangerous program.
pub(crate) fn awk_program(inv: &Invocation<'_>) -> Option<String> {
    let sources: Vec<&str> = inv
        .opts
        .iter()
        .filter(|o| o.name.is_any(&["--source", "-e"]))
        .filter_map(|o| o.value)
        .collect();
    let program_given = !sources.is_empty()
        || inv
            .opts
            .iter()
            .any(|o| o.name.is_any(&["--exec", "--file", "-E", "-f"]));
    if !sources.is_empty() {
        let program = sources.join("\n");
        if let Some(why) = awk::dangerous(&program) {
            return Some(format!("program `{program}` {why}"));
        }
    }
    let operand = inv.operands.first()?;
    let why = if program_given {
        awk::dangerous_if_program(operand)
    } else {
        awk::dangerous(operand)
    };
    why.map(|why| format!("program `{operand}` {why}"))
}
