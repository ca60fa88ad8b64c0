//! Every program spec, one file per family, and the index by executable
//! name that [`lookup`](super::lookup) reads. A name belongs to one spec
//! (tested), so the order of [`ALL`] never decides anything.

mod awk;
mod cargo;
mod coreutils;
mod curl;
mod diff;
mod docker;
mod gh;
mod git;
mod go;
mod grep;
mod jq;
mod make;
mod mawk;
mod npm;
mod pip;
mod rsync;
mod rustup;
mod sed;
pub(super) mod ssh;
mod tar;
mod uv;
mod wget;
mod zip;

use super::types::Spec;

/// Every spec, sorted by family.
pub(crate) static ALL: &[&Spec] = &[
    &awk::AWK,
    &cargo::CARGO,
    &coreutils::CAT,
    &curl::CURL,
    &diff::DIFF,
    &docker::DOCKER,
    &gh::GH,
    &git::GIT,
    &go::GO,
    &grep::GREP,
    &coreutils::HEAD,
    &jq::JQ,
    &coreutils::LS,
    &make::MAKE,
    &mawk::MAWK,
    &npm::NPM,
    &pip::PIP,
    &rsync::RSYNC,
    &rustup::RUSTUP,
    &ssh::SCP,
    &sed::SED,
    &coreutils::SORT,
    &ssh::SSH,
    &coreutils::TAIL,
    &tar::TAR,
    &zip::UNZIP,
    &uv::UV,
    &coreutils::WC,
    &wget::WGET,
    &zip::ZIP,
];

/// The spec whose names include `name` exactly.
pub(crate) fn by_name(name: &str) -> Option<&'static Spec> {
    INDEX.get(name).copied()
}

/// [`ALL`] by each executable name, built once.
static INDEX: std::sync::LazyLock<foldhash::HashMap<&'static str, &'static Spec>> =
    std::sync::LazyLock::new(|| {
        let mut index = foldhash::HashMap::default();
        for spec in ALL {
            for name in spec.names {
                index.entry(*name).or_insert(*spec);
            }
        }
        index
    });
