//! Programs the engine knows nothing about, given a path where a write
//! would run code, reach credentials or change the system.
//!
//! A spec says which options write which files; a program with no spec, no
//! guard family and no row in the programs table has no such knowledge
//! (`gcc -o ~/.bashrc`, `zstd -o ~/.ssh/authorized_keys`, `qemu-img create
//! ~/.profile`, `objcopy x .git/hooks/pre-commit`). Whether such a program
//! writes a path it is given is not known, so a path where a write would
//! matter is asked: a dot-file or dot-directory of the home directory
//! (shell start-up files, `~/.ssh`, `~/.config/autostart`, `~/.local/bin`),
//! `~/bin`, a file other tools run, a tool's metadata inside the tree, and a
//! system directory this user can write. Everyday paths (inside the tree,
//! `/tmp`, `/usr/include` for a non-root user) stay allowed, except as the
//! value of an output option (`-o`, `-out`, `--output`): that names the
//! file the program writes, so outside the tree it is asked wherever it is
//! (`openssl genrsa -out /tmp/x`, helper H30's sweep). Upholds
//! DESIGN.md section 6 (unknown means ask) as far as a program with no spec
//! allows.

use std::path::{Component, Path};

use super::GuardHit;
use super::parse::{is_output_stream, normalize, outside};
use crate::policy::secrets::links;
use crate::policy::specs::effects::{METADATA_DIRS, executed_file};

/// The guard id.
pub(crate) const ID: &str = "unknown.sensitive-path";

/// System directories whose files other programs run or read as config:
/// asked when this user can write there (root, or a loosened system).
const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/etc",
    "/lib",
    "/lib64",
    "/opt",
    "/sbin",
    "/usr",
    "/var/spool",
];

/// File names other tools run when they find them, wherever they are.
const RUN_FILES: &[&str] = &[
    ".bash_login",
    ".bash_logout",
    ".bash_profile",
    ".bashrc",
    ".envrc",
    ".profile",
    ".zprofile",
    ".zshenv",
    ".zshrc",
    "authorized_keys",
];

/// Options that name the file a program with no spec writes, in the
/// spellings such programs use (`gcc -o`, `openssl -out`, `gpg --output`,
/// `sdiff -o`, `eslint --output-file`).
const OUTPUT_OPTS: &[&str] = &[
    "--out",
    "--out-file",
    "--outfile",
    "--output",
    "--output-file",
    "-o",
    "-out",
    "-outfile",
    "-output",
];

/// The hit for the first argument of `program` that names a sensitive path.
pub(crate) fn check(program: &str, args: &[String], cwd: &Path) -> Option<GuardHit> {
    let home = std::env::home_dir();
    let hit = |arg: &str, place: &str| GuardHit {
        id: ID,
        reason: format!(
            "{program} {arg}: {place}; {program} has no spec, so whether it writes there is not known"
        ),
    };
    let real_cwd = links::real_dir(cwd);
    args.iter()
        .find_map(|arg| {
            let path = candidate(arg)?;
            let target = normalize(&cwd.join(path))?;
            // A link in the tree (`home` -> ~) leads the write where the
            // spelling does not show: judged at its real path too.
            let place = sensitive(&target, cwd, home.as_deref()).or_else(|| {
                let real = links::linked(&target, false)?;
                sensitive(&real, &real_cwd, home.as_deref())
            })?;
            Some(hit(arg, place))
        })
        .or_else(|| {
            // An output option names the file the program writes, so a
            // value outside the working tree is a write there (`openssl
            // genrsa -out /tmp/x`, `openssl req -out ../x`): the key rule,
            // not only the sensitive paths above. Found by the H30 sweep.
            output_values(args)
                .find(|value| outside(cwd, value) && !names_a_stream(value))
                .map(|value| {
                    hit(
                        value,
                        "the value of an output option is a file outside the working directory",
                    )
                })
        })
        .or_else(|| {
            output_values(args)
                .find(|value| !outside(cwd, value) && executed_file(value))
                .map(|value| {
                    hit(
                        value,
                        "the value of an output option names a file other tools run (a Makefile, package.json, a CI workflow, a hook)",
                    )
                })
        })
}

/// Whether an output option's value writes no file of its own: standard
/// output or error, or the null device.
fn names_a_stream(value: &str) -> bool {
    is_output_stream(value)
        || matches!(
            value,
            "/dev/stdout" | "/dev/stderr" | "/dev/fd/1" | "/dev/fd/2"
        )
}

/// The values of [`OUTPUT_OPTS`] in `args`: `-o FILE`, `--output=FILE`,
/// `-oFILE`.
fn output_values(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter().enumerate().filter_map(|(i, arg)| {
        if OUTPUT_OPTS.contains(&arg.as_str()) {
            return args.get(i + 1).map(String::as_str);
        }
        if let Some((name, value)) = arg.split_once('=')
            && OUTPUT_OPTS.contains(&name)
        {
            return Some(value);
        }
        // `-oFILE` (a word starting `--` never starts `-o`).
        arg.strip_prefix("-o").filter(|v| !v.is_empty())
    })
}

/// The path an argument may name: the word, an option's `=value`, or a
/// short option's attached value (`-o/home/u/.bashrc`). Only words that
/// look like paths: a bare name is a file in the working directory.
fn candidate(arg: &str) -> Option<&str> {
    let path = if let Some(long) = arg.strip_prefix("--") {
        long.split_once('=')?.1
    } else if let Some(short) = arg.strip_prefix('-') {
        short.get(1..).filter(|v| !v.is_empty())?
    } else {
        arg.split_once('=').map_or(arg, |(_, value)| value)
    };
    (path.contains('/') || path.starts_with('.')).then_some(path)
}

/// Why writing `target` would matter, if it would.
fn sensitive(target: &Path, cwd: &Path, home: Option<&Path>) -> Option<&'static str> {
    let names: Vec<&str> = target
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => n.to_str(),
            _ => None,
        })
        .collect();
    if names.iter().any(|n| METADATA_DIRS.contains(n)) {
        return Some("a path in a tool's metadata directory, whose config and hooks run code");
    }
    if target.starts_with(cwd) {
        return None;
    }
    if names.last().is_some_and(|n| RUN_FILES.contains(n)) {
        return Some("a file that shells or ssh read at start-up, outside the working directory");
    }
    if let Some(below) = home.and_then(|h| target.strip_prefix(h).ok()) {
        match below.components().next() {
            // `gpgtar -C ~`, `dpkg-deb -x a.deb ~`: a program that fills a
            // directory chooses the names, start-up dot-files among them.
            None => {
                return Some(
                    "the home directory itself, where a program that writes into a directory can plant start-up dot-files",
                );
            }
            Some(Component::Normal(first))
                if first.to_str().is_some_and(|f| f.starts_with('.')) =>
            {
                return Some(
                    "a dot-file or dot-directory of the home directory, where shells, ssh and the desktop read config and start programs",
                );
            }
            Some(Component::Normal(first)) if first == "bin" => {
                return Some("the home directory's bin, whose programs run by name");
            }
            _ => return None,
        }
    }
    let system = SYSTEM_DIRS.iter().any(|d| target.starts_with(d));
    (system && writable(target)).then_some("a system directory this user can write")
}

/// Whether this user can write `target`, or create it in its nearest
/// existing ancestor.
fn writable(target: &Path) -> bool {
    let existing = target
        .ancestors()
        .find(|p| std::fs::symlink_metadata(p).is_ok())
        .unwrap_or(Path::new("/"));
    nix::unistd::access(existing, nix::unistd::AccessFlags::W_OK).is_ok()
}

#[cfg(test)]
mod tests;
