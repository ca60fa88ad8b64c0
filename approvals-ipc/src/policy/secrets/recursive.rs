//! Programs that read every file under a directory they are given.
//!
//! `grep -r token ~`, `cp -r ~ backup`, `tar czf x.tgz ~` and `rg -uu key /`
//! never name `~/.clawdbot` or `~/.ssh`, yet read them, and what they find
//! or copy goes back to the agent. For the programs below, each operand
//! (or the working directory, when a recursive search is given none) is a
//! root whose whole tree is read; a root at or above a protected path is
//! asked ([`Secrets::under`]). The options are matched on the spec's
//! reading, so abbreviations (`--recur`) and bundles (`-rn`) count.

use super::{Secrets, Site, links};
use crate::policy::guards::GuardHit;
use crate::policy::specs::{self, grammar};

/// When a program reads whole trees.
enum Recurses {
    /// Always (rg, tar).
    Always,
    /// When one of these options is used (any spelling of its row).
    With(&'static [&'static str]),
}

/// The programs, by spec family, and whether their first operand is a
/// pattern rather than a path (unless `-e` or `-f` gave the pattern). tar
/// archives what it is given, whole; rg searches trees by default (hidden
/// files included under `-uu`, `-.`; asked either way).
const RECURSIVE: &[(&str, Recurses, bool)] = &[
    ("cp", Recurses::With(&["-r", "-a"]), false),
    ("diff", Recurses::With(&["-r"]), false),
    ("grep", Recurses::With(&["-r", "-R"]), true),
    ("rg", Recurses::Always, true),
    ("rsync", Recurses::With(&["-r", "-a"]), false),
    ("scp", Recurses::With(&["-r"]), false),
    ("tar", Recurses::Always, false),
    ("zip", Recurses::With(&["-r", "-R"]), false),
];

/// The options that give grep or rg its pattern, so that every operand is
/// a path.
const PATTERN_OPTIONS: &[&str] = &["-e", "-f"];

/// The option, by spec family, whose value names a directory the operands
/// are read from (tar's `-C DIR`, each applying to the operands after it:
/// all are tried). grep's and diff's `-C` is a number of context lines.
const DIRECTORY_OPTIONS: &[(&str, &str)] = &[("tar", "-C")];

impl Secrets {
    /// The hit when `program` (argv[0] of `argv`, run at `site`) reads the
    /// whole tree under a directory at or above a protected path, as
    /// spelled or where a link on the way leads (`grep -r x home` with
    /// `home` → `~`).
    pub fn read_recursively(
        &self,
        program: &str,
        argv: &[String],
        site: &Site<'_>,
    ) -> Option<GuardHit> {
        let cwd = site.real_cwd();
        let spec = specs::lookup(program)?;
        let (_, recurses, pattern_first) = RECURSIVE
            .iter()
            .find(|(family, _, _)| *family == spec.family)?;
        let args = argv.get(1..)?;
        let reading = grammar::read(spec, args);
        let uses_any = |names: &[&str]| {
            reading
                .uses
                .iter()
                .any(|used| !used.negated && used.opt.names.iter().any(|n| names.contains(n)))
        };
        let recursive = match recurses {
            Recurses::Always => true,
            // grep's `-d recurse` / `--directories=recurse` is `-r`.
            Recurses::With(names) => {
                uses_any(names)
                    || reading.uses.iter().any(|used| {
                        used.opt.names.contains(&"--directories")
                            && used
                                .value
                                .is_some_and(|v| "recurse".starts_with(v) && !v.is_empty())
                    })
            }
        };
        if !recursive {
            return None;
        }
        let bases: Vec<std::path::PathBuf> = std::iter::once(cwd.to_path_buf())
            .chain(
                reading
                    .uses
                    .iter()
                    .filter(|used| {
                        DIRECTORY_OPTIONS.iter().any(|(family, name)| {
                            *family == spec.family && used.opt.names.contains(name)
                        })
                    })
                    .filter_map(|used| used.value)
                    .map(|dir| cwd.join(dir)),
            )
            .collect();
        let paths = match reading.operands.split_first() {
            Some((_, rest)) if *pattern_first && !uses_any(PATTERN_OPTIONS) => rest,
            _ => &reading.operands[..],
        };
        // The directory options' own values are roots too (`tar -C ~ -c .`).
        let roots = bases.iter().skip(1).cloned().chain(
            bases
                .iter()
                .flat_map(|base| paths.iter().map(move |path| base.join(path))),
        );
        let mut roots = roots.peekable();
        if roots.peek().is_none() {
            // `grep -r x` and `rg x` with no path search the working directory.
            return self.under(cwd);
        }
        roots.into_iter().find_map(|root| {
            self.under(&root)
                .or_else(|| self.under(&links::linked(&root, false)?))
        })
    }
}
