//! Reads an argv the way the guarded program would, conservatively: options
//! (short clusters letter by letter, long options with `=value` or a separate
//! value), operands, and the subcommand. When unsure whether a token is a
//! value, it is left to be inspected as an option, so a guard can only fire
//! more often, never less.

use std::path::{Component, Path, PathBuf};

use super::types::{Layout, ProgramSpec};

/// An option's name as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OptName<'a> {
    /// One letter of a short cluster.
    Short(char),
    /// A long option's name without `--` and without `=value`.
    Long(&'a str),
}

/// One option and its value, if it took one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opt<'a> {
    /// The option.
    pub name: OptName<'a>,
    /// Its value: attached, after `=`, or the next token.
    pub value: Option<&'a str>,
    /// The token it came from, for the reason shown to the human.
    pub token: &'a str,
}

impl Opt<'_> {
    /// The option as the human should see it.
    pub fn shown(&self) -> String {
        match (self.name, self.value) {
            (OptName::Short(c), Some(v)) => format!("-{c} {v}"),
            (OptName::Long(_), Some(v)) if !self.token.contains('=') => {
                format!("{} {v}", self.token)
            }
            _ => self.token.to_owned(),
        }
    }
}

/// A parsed invocation of a known program.
pub(crate) struct Invocation<'a> {
    /// The program's family spec.
    pub spec: &'static ProgramSpec,
    /// argv[1..] (after a multi-call binary's applet).
    pub args: &'a [String],
    /// Options: global ones for git, every option elsewhere.
    pub opts: Vec<Opt<'a>>,
    /// Operands; for git, the subcommand and everything after it.
    pub operands: Vec<&'a str>,
    /// The subcommand, for programs that have one.
    pub subcommand: Option<&'a str>,
    /// Options after git's subcommand.
    pub sub_opts: Vec<Opt<'a>>,
    /// Operands after git's subcommand.
    pub sub_operands: Vec<&'a str>,
    /// The working directory.
    pub cwd: &'a Path,
    /// Whether stdin carries data.
    pub stdin_is_input: bool,
}

impl<'a> Invocation<'a> {
    /// Parses `args` by `spec`'s layout.
    pub fn parse(
        spec: &'static ProgramSpec,
        args: &'a [String],
        cwd: &'a Path,
        stdin_is_input: bool,
    ) -> Self {
        let mut inv = Invocation {
            spec,
            args,
            opts: Vec::new(),
            operands: Vec::new(),
            subcommand: None,
            sub_opts: Vec::new(),
            sub_operands: Vec::new(),
            cwd,
            stdin_is_input,
        };
        let tokens: Vec<&'a str> = args.iter().map(String::as_str).collect();
        match spec.layout {
            Layout::Permuted => region(spec, &tokens, false, &mut inv.opts, &mut inv.operands),
            Layout::OptionsFirst => region(spec, &tokens, true, &mut inv.opts, &mut inv.operands),
            Layout::SubcommandAnywhere => {
                region(spec, &tokens, false, &mut inv.opts, &mut inv.operands);
                inv.subcommand = inv.operands.first().copied();
            }
            Layout::GlobalThenSubcommand => {
                region(spec, &tokens, true, &mut inv.opts, &mut inv.operands);
                if let Some((sub, rest)) = inv.operands.split_first() {
                    inv.subcommand = Some(sub);
                    let rest = rest.to_vec();
                    region(spec, &rest, false, &mut inv.sub_opts, &mut inv.sub_operands);
                }
            }
            Layout::OldStyleBundle => {
                let mut start = 0;
                if let Some(first) = tokens.first().filter(|t| !t.starts_with('-')) {
                    start = 1;
                    for c in first.chars() {
                        let value = spec.value_shorts.contains(c).then(|| {
                            start += 1;
                            tokens.get(start - 1).copied()
                        });
                        inv.opts.push(Opt {
                            name: OptName::Short(c),
                            value: value.flatten(),
                            token: first,
                        });
                    }
                }
                let rest = tokens.get(start..).unwrap_or(&[]);
                region(spec, rest, false, &mut inv.opts, &mut inv.operands);
            }
        }
        inv
    }

    /// The options guards of the `Opt` kind look at.
    pub fn global_opts(&self) -> impl Iterator<Item = &Opt<'a>> {
        self.opts.iter()
    }
}

/// Parses one region of tokens into options and operands.
fn region<'a>(
    spec: &ProgramSpec,
    tokens: &[&'a str],
    stop_at_operand: bool,
    opts: &mut Vec<Opt<'a>>,
    operands: &mut Vec<&'a str>,
) {
    let mut i = 0;
    while i < tokens.len() {
        let tok = tokens[i];
        if tok == "--" {
            operands.extend(&tokens[i + 1..]);
            return;
        }
        if let Some(body) = tok.strip_prefix("--") {
            let (name, mut value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            if value.is_none() && takes_long_value(spec, name) {
                value = tokens.get(i + 1).copied();
                i += 1;
            }
            opts.push(Opt {
                name: OptName::Long(name),
                value,
                token: tok,
            });
        } else if tok.len() > 1 && tok.starts_with('-') {
            let cluster = &tok[1..];
            for (pos, c) in cluster.char_indices() {
                if spec.value_shorts.contains(c) {
                    let rest = &cluster[pos + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        tokens.get(i).copied()
                    } else {
                        Some(rest)
                    };
                    opts.push(Opt {
                        name: OptName::Short(c),
                        value,
                        token: tok,
                    });
                    if stop_at_operand && OptName::Short(c).is_any(spec.ending_opts) {
                        operands.extend(tokens.get(i + 1..).unwrap_or_default());
                        return;
                    }
                    break;
                }
                opts.push(Opt {
                    name: OptName::Short(c),
                    value: None,
                    token: tok,
                });
            }
        } else {
            operands.push(tok);
            if stop_at_operand {
                operands.extend(&tokens[i + 1..]);
                return;
            }
        }
        i += 1;
    }
}

/// A long option takes a separate value when it is, or abbreviates, a
/// value-taking option of the spec.
fn takes_long_value(spec: &ProgramSpec, name: &str) -> bool {
    !name.is_empty()
        && spec
            .value_longs
            .iter()
            .filter_map(|l| l.strip_prefix("--"))
            .any(|l| l.starts_with(name))
}

/// Whether an output option's value names no file: `-` (standard output)
/// or the null device, which discards what is written to it.
pub(crate) fn is_output_stream(value: &str) -> bool {
    value == "-" || value == crate::policy::specs::effects::NULL_DEVICE
}

/// True when `dir`, taken relative to `cwd`, is not `cwd` or below it:
/// lexically, or once symbolic links are resolved (a link inside the tree
/// can point out of it). `~` and a relative `cwd` count as outside.
pub(crate) fn outside(cwd: &Path, dir: &str) -> bool {
    if dir.starts_with('~') || !cwd.is_absolute() {
        return true;
    }
    let (Some(base), Some(target)) = (normalize(cwd), normalize(&cwd.join(dir))) else {
        return true;
    };
    !target.starts_with(&base) || leaves_through_links(&base, &target)
}

/// Whether `dir` (relative to `cwd`, inside it) is in another repository
/// for a program that reads `markers` (`.git` for git): it, or a directory
/// between `cwd` and it, holds one of them of its own (a nested clone, or a
/// `.git` an archive planted), whose config and hooks would then apply.
/// `cwd`'s own markers do not count; no markers, nothing to look at.
pub(crate) fn enters_other_repository(cwd: &Path, dir: &str, markers: &[&str]) -> bool {
    if markers.is_empty() {
        return false;
    }
    let (Some(base), Some(target)) = (normalize(cwd), normalize(&cwd.join(dir))) else {
        return true;
    };
    let Ok(below) = target.strip_prefix(&base) else {
        return true;
    };
    let mut path = base.clone();
    for component in below.components() {
        path.push(component);
        if markers
            .iter()
            .any(|marker| std::fs::symlink_metadata(path.join(marker)).is_ok())
        {
            return true;
        }
    }
    false
}

/// Whether `target` (lexically inside `base`) resolves outside `base`'s
/// real path: its longest existing ancestor is resolved, the rest appended.
pub(crate) fn leaves_through_links(base: &Path, target: &Path) -> bool {
    // Only a link between `base` and `target` can lead out: look at those
    // components first (one lstat each), resolve paths only if one is a link.
    let Ok(below) = target.strip_prefix(base) else {
        return true;
    };
    let mut path = base.to_path_buf();
    let mut link = false;
    for component in below.components() {
        path.push(component);
        match std::fs::symlink_metadata(&path) {
            // (Taking every component for a link only costs the two
            // `canonicalize` calls below: the answer is the same, so a
            // mutant that does so survives.)
            Ok(meta) if meta.file_type().is_symlink() => {
                link = true;
                break;
            }
            Ok(_) => {}
            // Nothing further exists, so nothing further is a link.
            Err(_) => break,
        }
    }
    if !link {
        return false;
    }
    let Ok(real_base) = std::fs::canonicalize(base) else {
        return false;
    };
    let mut existing = target;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let real: PathBuf = real.join(rest.iter().rev().collect::<PathBuf>());
            return !real.starts_with(&real_base);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return false,
        }
    }
}

/// Lexical normalization of an absolute path; `None` if `..` climbs above `/`.
pub(crate) fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::RootDir => out.push("/"),
            Component::CurDir => {}
            Component::Normal(p) => out.push(p),
            Component::ParentDir => {
                if !out.pop() || out.as_os_str().is_empty() {
                    return None;
                }
            }
            Component::Prefix(_) => return None,
        }
    }
    Some(out)
}
