//! What a program does with its operands, judged by its spec's
//! [`Operands`] role and the [`Mode`]s its options switch on (DESIGN.md
//! section 6, Program specs). Options are not the only way to name a file
//! a program writes: `cp a ~/.bashrc`, `git clone URL ../elsewhere`, `tar
//! -cf ~/.profile src` and `scp host:x .git/hooks/` write through an
//! operand, and an archive or a recursive copy writes names the prompt
//! never shows. Writes are judged as option values are
//! ([`risky_write`]); names chosen by an archive or a whole copied tree are
//! asked where they could replace the working directory's own build files
//! or a repository's config and hooks.

use std::path::Path;

use super::effects::Shown;
use super::effects::{EXECUTED, METADATA_DIRS, remote, risky_write};
use super::families::jq;
use super::grammar::Reading;
use super::types::{Copying, Effect, Mode, Operands, Sources, Spec};
use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::{normalize, outside};

/// Appends the hits of `reading`'s operands, read by `roles`, to `out`.
pub(super) fn hits(
    spec: &Spec,
    roles: Operands,
    shown: Shown<'_>,
    reading: &Reading<'_>,
    cwd: &Path,
    out: &mut Vec<GuardHit>,
) {
    let judge = Judge {
        spec,
        shown,
        cwd,
        reading,
    };
    if judge.mode(Mode::WritesArchive) {
        for used in &reading.uses {
            if let (Effect::FileOrRemote(_), Some(path)) = (used.opt.effect, used.value)
                && !remote(path)
            {
                judge.written(path, "writes the archive", out);
            }
        }
    }
    match roles {
        Operands::Plain => {}
        Operands::Written(why) => {
            for operand in &reading.operands {
                judge.written(operand, why, out);
            }
        }
        Operands::Attributes(why) => {
            for operand in &reading.operands {
                judge.changed(operand, why, out);
            }
        }
        Operands::WrittenAt(at, why) => {
            if let Some(operand) = reading.operands.get(at) {
                judge.written(operand, why, out);
            }
        }
        Operands::Fills(at, why) => {
            if let Some(dir) = filled_dir(reading, at) {
                judge.written(dir, why, out);
            }
        }
        Operands::Destination(copying) => {
            let before = out.len();
            judge.destination(copying, out);
            // One reason is enough: a link asked for where it is written
            // needs no second one for what it points to.
            let links = copying.links || judge.mode(Mode::Links) || judge.mode(Mode::Symbolic);
            if out.len() == before && links {
                judge.links(out);
            }
        }
        Operands::Assignments { keys, written } => {
            for operand in &reading.operands {
                match operand.split_once('=') {
                    Some((key, path)) if written.contains(&key) => {
                        judge.written(path, "writes this file", out);
                    }
                    Some((key, _)) if keys.contains(&key) => {}
                    _ => out.push(GuardHit {
                        id: spec.ids.unknown_option,
                        reason: format!(
                            "{shown} {operand}: an operand this spec does not know, so what it does is not checked"
                        ),
                    }),
                }
            }
        }
        Operands::SetsEnv(why) => {
            for operand in &reading.operands {
                let Some((name, value)) = env_assignment(operand) else {
                    continue;
                };
                if let Err(not_inert) = crate::policy::env::check_inert(name, value) {
                    out.push(GuardHit {
                        id: spec.ids.loads_code,
                        reason: format!(
                            "{shown} {operand}: {why}, and {name} is not known to be inert: {not_inert}"
                        ),
                    });
                }
            }
        }
        Operands::Installs(sources, why) => {
            // `go run PKG ARGS…`: the words after the package are the
            // program's own.
            let packages = match sources {
                Sources::Go => reading.operands.get(..1).unwrap_or_default(),
                Sources::Npm | Sources::Pip => &reading.operands[..],
            };
            for operand in packages {
                if let Some(from) = super::effects::elsewhere(sources, cwd, operand) {
                    out.push(GuardHit {
                        id: spec.ids.loads_code,
                        reason: format!("{shown} {operand}: {why} ({operand} is {from})"),
                    });
                }
            }
        }
        Operands::Dirs(why) => {
            for operand in &reading.operands {
                if outside(cwd, operand) {
                    out.push(GuardHit {
                        id: spec.ids.other_tree,
                        reason: format!("{shown} {operand}: {why} (outside the working directory)"),
                    });
                }
            }
        }
        Operands::PrintsEnv => {
            if reading.operands.is_empty() {
                out.push(GuardHit {
                    id: crate::policy::secrets::ENVIRONMENT_ID,
                    reason: format!(
                        "{shown}: prints every environment variable, and the environment holds tokens and keys (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, …) that would go back to the agent; name the variables to print (printenv HOME PATH)"
                    ),
                });
            }
            for name in &reading.operands {
                if !crate::policy::env::holds_no_secret(name) {
                    out.push(GuardHit {
                        id: crate::policy::secrets::ENVIRONMENT_ID,
                        reason: format!(
                            "{shown} {name}: prints {name}, which is not known to hold no secret, and its value would go back to the agent"
                        ),
                    });
                }
            }
        }
        Operands::Saved(why) => {
            for operand in &reading.operands {
                out.push(GuardHit {
                    id: spec.ids.sets_config,
                    reason: format!("{shown} {operand}: {why}"),
                });
            }
        }
        Operands::ChangesSystemUnless(prefix, why) => {
            for operand in reading.operands.iter().filter(|o| !o.starts_with(prefix)) {
                out.push(GuardHit {
                    id: spec.ids.sets_config,
                    reason: format!("{shown} {operand}: {why}"),
                });
            }
        }
        Operands::JqProgram => {
            // With `-f` the first operand is the program's file, asked as
            // code the prompt does not show.
            let from_file = reading
                .uses
                .iter()
                .any(|u| u.opt.names.contains(&"--from-file"));
            if let Some(program) = reading.operands.first().filter(|_| !from_file)
                && let Some(what) = jq::reads_beyond_input(program)
            {
                out.push(GuardHit {
                    id: spec.ids.loads_code,
                    reason: format!("{shown} {program}: the jq program {what}"),
                });
            }
        }
        Operands::Downloads {
            dir_options,
            output_options,
            tree_options,
        } => {
            let used = |names: &'static [&'static str]| {
                reading
                    .uses
                    .iter()
                    .filter(move |u| u.opt.names.iter().any(|n| names.contains(n)))
            };
            if used(output_options).next().is_some() {
                return;
            }
            let whole_path = used(tree_options).next().is_some();
            let dir = used(dir_options).filter_map(|u| u.value).next_back();
            for url in &reading.operands {
                let Some(name) = downloaded_name(url, whole_path) else {
                    continue;
                };
                let path = match dir {
                    Some(dir) => format!("{}/{name}", dir.trim_end_matches('/')),
                    None => name,
                };
                judge.written(
                    &path,
                    "saves the download under a name taken from the URL",
                    out,
                );
            }
        }
        Operands::Archive {
            extracts_by_default,
            dir_options,
        } => {
            // unzip's archive is its first operand: without one it only
            // prints its usage.
            let by_default = extracts_by_default && !reading.operands.is_empty();
            let extracts =
                (by_default || judge.mode(Mode::Extracts)) && !judge.mode(Mode::WritesNothing);
            if !extracts {
                return;
            }
            let mut dirs = reading
                .uses
                .iter()
                .filter(|u| u.opt.names.iter().any(|n| dir_options.contains(n)))
                .peekable();
            const WHY: &str = "extracts the names the archive chooses";
            if dirs.peek().is_none() {
                judge.unseen(".", WHY, out);
            }
            for used in dirs {
                // The option's own effect judged the directory as a place;
                // what is left is what lands in it.
                if let Some(dir) = used.value {
                    judge.unseen_inside(dir, WHY, out);
                }
            }
        }
    }
}

/// The file name wget gives the download of `url`: the last segment of
/// its path, percent-decoded (`%2ebashrc` is `.bashrc`), with the query
/// kept after a `?`; with `whole_path`, the path itself (`-x -nH` keeps
/// `.git/hooks/x`). `None` when the URL's path ends in `/` or is empty
/// (wget writes `index.html`), or the operand has no scheme.
fn downloaded_name(url: &str, whole_path: bool) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let rest = rest.split('#').next().unwrap_or_default();
    let (path, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    let (_, path) = path.split_once('/')?;
    let name = if whole_path {
        path
    } else {
        path.rsplit('/').next().unwrap_or_default()
    };
    if name.is_empty() || name.ends_with('/') {
        return None;
    }
    let mut name = percent_decoded(name);
    if let Some(query) = query {
        name.push('?');
        name.push_str(query);
    }
    Some(name)
}

/// `text` with `%XX` escapes decoded (lossily, as a path would be read);
/// a `%` not followed by two hex digits stays.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |at: usize| bytes.get(at).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'%'));
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The variable an operand sets, as rake's `/^(\w+)=(.*)$/m` reads it:
/// the first line of the word (`^` matches after every newline) that
/// starts with a name of ASCII letters, digits and `_` and an `=`; the
/// value is everything after that `=`, later lines included.
fn env_assignment(operand: &str) -> Option<(&str, &str)> {
    let starts = std::iter::once(0).chain(operand.match_indices('\n').map(|(at, _)| at + 1));
    starts.into_iter().find_map(|start| {
        let line = &operand[start..];
        let (name, value) = line.split_once('=')?;
        let word = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        word.then_some((name, value))
    })
}

/// The directories `reading` fills with names the prompt does not show,
/// relative to `cwd` as written: a clone, what an archive extracts into, a
/// directory copied whole. An archive or a clone can hold a symbolic link
/// to anywhere, and a copied tree keeps the links it had; what a later part
/// of the same command writes or reads inside one is not known until this
/// part has run (`policy::filled_trees`). A reading with a problem fills
/// nothing: it is asked already.
pub(super) fn filled<'a>(
    spec: &Spec,
    roles: Operands,
    reading: &Reading<'a>,
    cwd: &Path,
) -> Vec<String> {
    if reading.problem.is_some() {
        return Vec::new();
    }
    let judge = Judge {
        spec,
        shown: Shown {
            program: "",
            path: &[],
        },
        cwd,
        reading,
    };
    match roles {
        Operands::Fills(at, _) => filled_dir(reading, at)
            .map(str::to_owned)
            .into_iter()
            .collect(),
        Operands::Archive {
            extracts_by_default,
            dir_options,
        } => {
            let by_default = extracts_by_default && !reading.operands.is_empty();
            if !(by_default || judge.mode(Mode::Extracts)) || judge.mode(Mode::WritesNothing) {
                return Vec::new();
            }
            let dirs: Vec<String> = reading
                .uses
                .iter()
                .filter(|u| u.opt.names.iter().any(|n| dir_options.contains(n)))
                .filter_map(|u| u.value.map(str::to_owned))
                .collect();
            if dirs.is_empty() {
                vec![".".to_owned()]
            } else {
                dirs
            }
        }
        Operands::Destination(copying) => {
            let [sources @ .., dest] = reading.operands.as_slice() else {
                return Vec::new();
            };
            let recursive = copying.recursive || judge.mode(Mode::Recursive);
            if sources.is_empty() || !recursive || (copying.remote && remote(dest)) {
                return Vec::new();
            }
            let into_dir = dest.ends_with('/') || cwd.join(dest).is_dir();
            if !into_dir {
                return vec![(*dest).to_owned()];
            }
            sources
                .iter()
                .map(|source| {
                    let path = if copying.remote {
                        remote_path(source)
                    } else {
                        source
                    };
                    match copied_name(path, copying.trailing_slash_is_contents) {
                        Some(name) => format!("{}/{name}", dest.trim_end_matches('/')),
                        None => (*dest).to_owned(),
                    }
                })
                .collect()
        }
        Operands::Plain
        | Operands::Written(_)
        | Operands::Attributes(_)
        | Operands::WrittenAt(..)
        | Operands::Assignments { .. }
        | Operands::SetsEnv(_)
        | Operands::ChangesSystemUnless(..)
        | Operands::Saved(_)
        | Operands::PrintsEnv
        | Operands::Downloads { .. }
        | Operands::JqProgram
        | Operands::Installs(..)
        | Operands::Dirs(_) => Vec::new(),
    }
}

/// The directory a [`Operands::Fills`] program fills: the operand at
/// `at`, else the one git names after the source (`…/repo.git` → `repo`).
fn filled_dir<'a>(reading: &Reading<'a>, at: usize) -> Option<&'a str> {
    reading.operands.get(at).copied().or_else(|| {
        reading
            .operands
            .first()
            .and_then(|source| clone_name(source))
    })
}

/// The directory git (and gh) names a clone of `source` after, as git's
/// `guess_dir_name` does: the last component of the path, without a
/// trailing `/`, `/.git`, `.git` or `.bundle`.
pub(crate) fn clone_name(source: &str) -> Option<&str> {
    let trimmed = source.trim_end_matches('/');
    let trimmed = trimmed
        .strip_suffix("/.git")
        .unwrap_or(trimmed)
        .trim_end_matches('/');
    let trimmed = trimmed
        .strip_suffix(".git")
        .or_else(|| trimmed.strip_suffix(".bundle"))
        .unwrap_or(trimmed);
    let name = trimmed.rsplit(['/', ':']).next().unwrap_or(trimmed);
    (!matches!(name, "" | "." | "..")).then_some(name)
}

/// One reading being judged.
struct Judge<'r, 'a> {
    spec: &'r Spec,
    shown: Shown<'r>,
    cwd: &'r Path,
    reading: &'r Reading<'a>,
}

impl Judge<'_, '_> {
    /// Whether an option (not turned off) switches `mode` on.
    fn mode(&self, mode: Mode) -> bool {
        self.reading
            .uses
            .iter()
            .any(|u| !u.negated && u.opt.effect == Effect::Mode(mode))
    }

    /// Asks when writing `path` is a risky write; whether it asked.
    fn written(&self, path: &str, why: &str, out: &mut Vec<GuardHit>) -> bool {
        if path == "-" {
            return false;
        }
        let Some(place) = risky_write(self.cwd, path) else {
            return false;
        };
        out.push(GuardHit {
            id: self.spec.ids.writes_file,
            reason: format!("{} {path}: {why} ({place})", self.shown),
        });
        true
    }

    /// Asks when changing `path`'s mode or owner is risky: a risky write,
    /// but for a file other tools run, whose contents stay the same.
    fn changed(&self, path: &str, why: &str, out: &mut Vec<GuardHit>) {
        match risky_write(self.cwd, path) {
            None | Some(EXECUTED) => {}
            Some(place) => out.push(GuardHit {
                id: self.spec.ids.writes_file,
                reason: format!("{} {path}: {why} ({place})", self.shown),
            }),
        }
    }

    /// Asks when names the prompt does not show are written into `dir`:
    /// the working directory itself, a repository's top directory, or
    /// anywhere a written file would already be asked.
    fn unseen(&self, dir: &str, why: &str, out: &mut Vec<GuardHit>) {
        let place = if outside(self.cwd, dir) {
            "outside the working directory"
        } else if let Some(place) = risky_write(self.cwd, dir) {
            place
        } else {
            return self.unseen_inside(dir, why, out);
        };
        out.push(GuardHit {
            id: self.spec.ids.writes_file,
            reason: format!("{} {dir}: {why} {place}", self.shown),
        });
    }

    /// Asks when names the prompt does not show land in `dir` (judged as
    /// a place already): the working directory itself or a repository's
    /// top directory.
    fn unseen_inside(&self, dir: &str, why: &str, out: &mut Vec<GuardHit>) {
        let place = if normalize(&self.cwd.join(dir)) == normalize(self.cwd) {
            "into the working directory itself, where they can replace its build files, .envrc or repository metadata"
        } else if METADATA_DIRS
            .iter()
            .any(|m| std::fs::symlink_metadata(self.cwd.join(dir).join(m)).is_ok())
        {
            "into a repository's top directory, where they can replace its config and hooks"
        } else {
            return;
        };
        out.push(GuardHit {
            id: self.spec.ids.writes_file,
            reason: format!("{} {dir}: {why} {place}", self.shown),
        });
    }

    /// Asks for each link to a file outside the working tree: a path
    /// inside it through which later writes (a `cp` onto a hard link, a
    /// write under a symlinked directory made earlier in the same command)
    /// reach that file. A hard link's source is a path from here; a
    /// symbolic link's is resolved from the link's directory (from here
    /// with `--relative`).
    fn links(&self, out: &mut Vec<GuardHit>) {
        let (sources, link_dir) = match self.reading.operands.as_slice() {
            [] => return,
            [only] => (std::slice::from_ref(only), "."),
            [sources @ .., dest] => {
                let into_dir = dest.ends_with('/') || self.cwd.join(dest).is_dir();
                let dir = if into_dir {
                    *dest
                } else {
                    Path::new(dest)
                        .parent()
                        .and_then(Path::to_str)
                        .filter(|p| !p.is_empty())
                        .unwrap_or(".")
                };
                (sources, dir)
            }
        };
        let symbolic = self.mode(Mode::Symbolic);
        let relative = self
            .reading
            .uses
            .iter()
            .any(|u| u.opt.names.contains(&"--relative"));
        for source in sources {
            let leaves = if symbolic && !source.starts_with('/') {
                let from_link = format!("{}/{source}", link_dir.trim_end_matches('/'));
                outside(self.cwd, &from_link) || (relative && outside(self.cwd, source))
            } else {
                outside(self.cwd, source)
            };
            if leaves {
                out.push(GuardHit {
                    id: self.spec.ids.writes_file,
                    reason: format!(
                        "{} {source}: makes a link to a file outside the working directory, through which later writes reach it",
                        self.shown
                    ),
                });
            }
        }
    }

    /// Judges a copy's destination: with two or more operands the last is
    /// written, or each source's name inside it when it is a directory.
    fn destination(&self, copying: Copying, out: &mut Vec<GuardHit>) {
        let [sources @ .., dest] = self.reading.operands.as_slice() else {
            return;
        };
        if sources.is_empty() || (copying.remote && remote(dest)) {
            return;
        }
        let recursive = copying.recursive || self.mode(Mode::Recursive);
        const WHY: &str = "copies a whole directory, with names the prompt does not show,";
        let into_dir = dest.ends_with('/') || self.cwd.join(dest).is_dir();
        if !into_dir {
            if !self.written(dest, copying.why, out) && recursive {
                self.unseen_inside(dest, WHY, out);
            }
            return;
        }
        for source in sources {
            let path = if copying.remote {
                remote_path(source)
            } else {
                source
            };
            let target = match copied_name(path, copying.trailing_slash_is_contents) {
                Some(name) => format!("{}/{name}", dest.trim_end_matches('/')),
                None => (*dest).to_owned(),
            };
            if !self.written(&target, copying.why, out) && recursive {
                self.unseen_inside(&target, WHY, out);
            }
        }
    }
}

/// The path part of a `host:path` operand, or the operand.
fn remote_path(operand: &str) -> &str {
    if remote(operand) {
        operand.split_once(':').map_or(operand, |(_, path)| path)
    } else {
        operand
    }
}

/// The name a copied `source` gets inside a destination directory, or
/// `None` when its contents land in the directory itself (`dir/.`, `.`,
/// `/`, and with rsync's rule `dir/`).
fn copied_name(source: &str, trailing_slash_is_contents: bool) -> Option<&str> {
    if trailing_slash_is_contents && source.ends_with('/') {
        return None;
    }
    let trimmed = source.trim_end_matches('/');
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    (!matches!(name, "" | "." | "..")).then_some(name)
}
