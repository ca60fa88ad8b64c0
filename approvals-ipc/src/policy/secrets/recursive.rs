//! Programs that read every file under a directory they are given.
//!
//! `grep -r token ~`, `cp -r ~ backup`, `tar czf x.tgz ~` and `rg -uu key /`
//! never name `~/.clawdbot` or `~/.ssh`, yet read them, and what they find
//! or copy goes back to the agent. For the programs below, each operand
//! (or the working directory, when a recursive search is given none) is a
//! root whose whole tree is read; a root at or above a protected path is
//! asked ([`Secrets::under`]). The options are matched on the spec's
//! reading, so abbreviations (`--recur`) and bundles (`-rn`) count.
//!
//! Some of them also follow the links they meet in the tree (`grep -R`,
//! `rg -L`, `find -L`, `tar -h`, `cp -rL`, `rsync -L`, `zip -r` unless
//! `-y`, `diff -r`, `scp -r`): a link anywhere under the root that leads
//! to a protected path or above one (`home` → `~`, planted by a clone or an
//! archive) takes the read there, though no argument names it. The tree is
//! walked for such links ([`Secrets::link_out`]), up to [`MAX_NAMES`]
//! names; a larger tree is asked, since it cannot be checked.

use std::path::{Path, PathBuf};

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

/// When a program reading a whole tree follows the links it meets there.
enum Follows {
    /// Unless one of these options is used (zip without `-y`, diff without
    /// `--no-dereference`; scp -r always).
    Unless(&'static [&'static str]),
    /// When one of these options is used (`grep -R`, `tar -h`).
    With(&'static [&'static str]),
}

/// The programs, by spec family, whether their first operand is a pattern
/// rather than a path (unless `-e` or `-f` gave the pattern), and when they
/// follow links inside the tree. tar archives what it is given, whole; rg
/// searches trees by default (hidden files included under `-uu`, `-.`;
/// asked either way). Checked with GNU grep 3.8, ripgrep 13, GNU tar 1.34,
/// coreutils 9.1, rsync 3.2, zip 3.0, diffutils 3.8, OpenSSH 9.2.
const RECURSIVE: &[(&str, Recurses, bool, Follows)] = &[
    (
        "cp",
        Recurses::With(&["-r", "-a"]),
        false,
        Follows::With(&["-L"]),
    ),
    (
        "diff",
        Recurses::With(&["-r"]),
        false,
        Follows::Unless(&["--no-dereference"]),
    ),
    (
        "grep",
        Recurses::With(&["-r", "-R"]),
        true,
        Follows::With(&["-R"]),
    ),
    ("rg", Recurses::Always, true, Follows::With(&["-L"])),
    (
        "rsync",
        Recurses::With(&["-r", "-a"]),
        false,
        Follows::With(&["-L", "-k", "--copy-unsafe-links"]),
    ),
    ("scp", Recurses::With(&["-r"]), false, Follows::Unless(&[])),
    ("tar", Recurses::Always, false, Follows::With(&["-h"])),
    (
        "zip",
        Recurses::With(&["-r", "-R"]),
        false,
        Follows::Unless(&["-y"]),
    ),
];

/// How many names [`Secrets::link_out`] looks at before it gives up and
/// asks: enough for a project's sources, not for a home directory.
pub(super) const MAX_NAMES: usize = 20_000;

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
        let (_, recurses, pattern_first, follows) = RECURSIVE
            .iter()
            .find(|(family, _, _, _)| *family == spec.family)?;
        let args = argv.get(1..)?;
        let reading = grammar::read(spec, args);
        let uses_any = |names: &[&str]| {
            reading
                .uses
                .iter()
                .any(|used| !used.negated && used.opt.names.iter().any(|n| names.contains(n)))
        };
        // `rgrep` is Debian's `exec grep -r "$@"`: recursive by its name.
        let recursive_by_name = crate::policy::programs::executable_name(program) == "rgrep";
        let recursive = recursive_by_name
            || match recurses {
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
        let follows = match follows {
            Follows::With(names) => uses_any(names),
            Follows::Unless(names) => !uses_any(names),
        };
        let judge = |root: &Path| self.read_tree(root, follows);
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
            return judge(cwd);
        }
        roots.into_iter().find_map(|root| judge(&root))
    }

    /// The hit when a program that reads every file under `root` (absolute)
    /// reaches a protected path: `root` is at or above one as spelled, or
    /// where a link on it leads (`home/` with `home` → `~`), or, when the
    /// program follows links (`follows`), a link inside the tree leads to
    /// one. The one judgement of a whole-tree read, shared by the recursive
    /// programs above and find's start points (`find home/ -exec cat {} +`
    /// hands every file under `~` to cat; found by the H29 sweep).
    pub fn read_tree(&self, root: &Path, follows: bool) -> Option<GuardHit> {
        self.under(root)
            .or_else(|| self.under(&links::linked(root, false)?))
            .or_else(|| follows.then(|| self.link_out(root)).flatten())
    }

    /// The hit when the tree under `root`, read by a program that follows
    /// links, holds a link leading to a protected path or a directory above
    /// one, or is too large to look through ([`MAX_NAMES`]). Links to
    /// directories are followed in turn, each real directory once.
    pub fn link_out(&self, root: &Path) -> Option<GuardHit> {
        let mut stack: Vec<PathBuf> = vec![root.to_path_buf()];
        let mut seen: foldhash::HashSet<PathBuf> = foldhash::HashSet::default();
        let mut names = 0usize;
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                names += 1;
                if names > MAX_NAMES {
                    return Some(GuardHit {
                        id: super::ID,
                        reason: format!(
                            "the command follows links under {}, and that tree holds more than {MAX_NAMES} names, too many to check for a link to a protected path",
                            root.display()
                        ),
                    });
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_symlink()
                    && let Ok(real) = std::fs::canonicalize(&path)
                {
                    if let Some(row) = self.under(&real) {
                        return Some(GuardHit {
                            id: super::ID,
                            reason: format!(
                                "the command follows links, and {} leads to {}: {}",
                                path.display(),
                                real.display(),
                                row.reason
                            ),
                        });
                    }
                    if real.is_dir() && seen.insert(real.clone()) {
                        stack.push(real);
                    }
                }
            }
        }
        None
    }
}
