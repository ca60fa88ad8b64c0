//! Every program spec, one file per family, and the index by executable
//! name that [`lookup`](super::lookup) reads. A name belongs to one spec
//! (tested), so the order of [`ALL`] never decides anything.

mod awk;
mod coreutils;
mod diff;
mod git;
mod grep;
mod jq;
mod make;
mod mawk;
mod sed;
mod tar;
mod wget;

use super::types::Spec;

/// Every spec, sorted by family.
pub(crate) const ALL: &[&Spec] = &[
    &awk::AWK,
    &coreutils::CAT,
    &diff::DIFF,
    &git::GIT,
    &grep::GREP,
    &coreutils::HEAD,
    &jq::JQ,
    &coreutils::LS,
    &make::MAKE,
    &mawk::MAWK,
    &sed::SED,
    &coreutils::SORT,
    &coreutils::TAIL,
    &tar::TAR,
    &coreutils::WC,
    &wget::WGET,
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
