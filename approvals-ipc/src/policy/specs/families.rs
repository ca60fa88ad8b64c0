//! Every program spec, one file per family, and the index by executable
//! name that [`lookup`](super::lookup) reads. A name belongs to one spec
//! (tested), so the order of [`ALL`] never decides anything.

mod cargo;
mod coreutils;
mod curl;
mod diff;
mod docker;
mod go;
mod grep;
mod pip;
mod rsync;
pub(super) mod ssh;
mod zip;

use super::types::Spec;

/// Every spec, sorted by family.
pub(crate) const ALL: &[&Spec] = &[
    &cargo::CARGO,
    &coreutils::CAT,
    &curl::CURL,
    &diff::DIFF,
    &docker::DOCKER,
    &go::GO,
    &grep::GREP,
    &coreutils::HEAD,
    &coreutils::LS,
    &pip::PIP,
    &rsync::RSYNC,
    &ssh::SCP,
    &coreutils::SORT,
    &ssh::SSH,
    &coreutils::TAIL,
    &zip::UNZIP,
    &coreutils::WC,
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
