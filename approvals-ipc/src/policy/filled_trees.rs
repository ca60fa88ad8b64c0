//! Trees an earlier part of a command fills with names the prompt does not
//! show, and the later parts that reach into them.
//!
//! Each segment's paths are judged where they stand when the request is
//! checked. `tar -xf a.tar -C vendor && cp x vendor/lib/y` writes through
//! whatever `vendor/lib` is once the archive is out, and an archive, a
//! clone or a copied tree can hold a symbolic link to anywhere (`lib ->
//! ~/.ssh`): nothing that is on disk at check time says where such a path
//! leads. So a later segment that names a path inside such a tree, or runs
//! in one (`git clone URL r && cd r && make`), is asked. Upholds DESIGN.md
//! section 6 (Program specs: writes outside the working tree are asked).

use std::path::{Path, PathBuf};

use crate::policy::analysis::Segment;
use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::normalize;
use crate::policy::{specs, wrappers};

/// The guard id of a segment that reaches into a filled tree.
pub const ID: &str = "command.filled-tree";

/// For each segment, in order, the hits for the paths it names (or the
/// directory it runs in) inside a tree an earlier segment fills.
pub fn reached(segments: &[Segment]) -> Vec<Vec<GuardHit>> {
    let mut filled: Vec<(PathBuf, String)> = Vec::new();
    let mut out = Vec::with_capacity(segments.len());
    for segment in segments {
        out.push(reaches(segment, &filled));
        let name = name(segment);
        let args = segment.argv.get(1..).unwrap_or(&[]);
        for tree in specs::filled_trees(name, args, &segment.cwd) {
            // Filling the directory it runs in is asked where it happens
            // (specs::operands, "into the working directory itself").
            if *tree != *segment.cwd && !filled.iter().any(|(t, _)| *t == tree) {
                filled.push((tree, crate::policy::quote::join(&segment.argv)));
            }
        }
    }
    out
}

/// The hits of one segment against the trees filled before it.
fn reaches(segment: &Segment, filled: &[(PathBuf, String)]) -> Vec<GuardHit> {
    if filled.is_empty() {
        return Vec::new();
    }
    let name = wrappers::basename(segment.argv.first().map_or("", String::as_str));
    let inside = |path: &Path| filled.iter().find(|(tree, _)| path.starts_with(tree));
    let mut hits = Vec::new();
    if let Some((tree, by)) = inside(&segment.cwd) {
        hits.push(GuardHit {
            id: ID,
            reason: format!(
                "{name} runs in {}, inside {} that `{by}` fills earlier in this command with files the prompt does not show",
                segment.cwd.display(),
                tree.display()
            ),
        });
    }
    for word in segment.argv.iter().skip(1) {
        // `--file=PATH` names PATH. A word that is no path (`-n`, `~`)
        // names a file of the working directory, never inside a tree.
        let path = word
            .split_once('=')
            .map_or(word.as_str(), |(_, value)| value);
        if path.is_empty() {
            continue;
        }
        let Some(target) = normalize(&segment.cwd.join(path)) else {
            continue;
        };
        if let Some((tree, by)) = inside(&target) {
            hits.push(GuardHit {
                id: ID,
                reason: format!(
                    "{name} {word}: inside {} that `{by}` fills earlier in this command; an archive, a clone or a copied tree can hold a link that leads anywhere, so where this path goes is not known until then",
                    tree.display()
                ),
            });
        }
    }
    hits
}

/// The name the segment's spec is looked up by: the file that runs, or
/// the name it is invoked as when that file has no spec (a multi-call
/// binary: busybox invoked as `tar`).
fn name(segment: &Segment) -> &str {
    let invoked = wrappers::basename(segment.argv.first().map_or("", String::as_str));
    segment
        .resolution
        .real
        .as_deref()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .filter(|real| specs::lookup(real).is_some())
        .unwrap_or(invoked)
}

#[cfg(test)]
mod tests;
