//! Every program spec, one file per family, and the index by executable
//! name that [`lookup`](super::lookup) reads. A name belongs to one spec
//! (tested), so the order of [`ALL`] never decides anything.

mod attrs;
mod awk;
mod cargo;
mod coreutils;
mod curl;
mod diff;
mod docker;
mod erb;
mod fileutils;
pub(crate) mod find;
mod gh;
mod git;
mod go;
mod grep;
mod inspect;
pub(crate) mod jq;
mod make;
mod mawk;
pub(super) mod node;
mod npm;
pub(super) mod perl;
mod perldoc;
mod pip;
mod pnpm;
mod prove;
mod pytest;
pub(super) mod python;
mod rake;
mod rg;
mod rsync;
pub(super) mod ruby;
mod rustup;
mod sed;
pub(super) mod ssh;
mod tar;
mod uv;
mod wget;
pub(crate) mod xargs;
mod yarn;
mod zip;

use super::types::Spec;

/// Every spec, sorted by family.
pub(crate) static ALL: &[&Spec] = &[
    &awk::AWK,
    &coreutils::BASE64,
    &inspect::BASENAME,
    &cargo::CARGO,
    &coreutils::CAT,
    &attrs::CHCON,
    &attrs::CHGRP,
    &attrs::CHMOD,
    &attrs::CHOWN,
    &coreutils::COMM,
    &fileutils::CP,
    &attrs::CSPLIT,
    &curl::CURL,
    &coreutils::CUT,
    &attrs::DATE,
    &attrs::DD,
    &inspect::DF,
    &diff::DIFF,
    &inspect::DIRNAME,
    &docker::DOCKER,
    &inspect::DU,
    &inspect::ECHO,
    &inspect::ENV,
    &erb::ERB,
    &coreutils::EXPAND,
    &inspect::FILE,
    &find::FIND,
    &coreutils::FOLD,
    &gh::GH,
    &git::GIT,
    &go::GO,
    &grep::GREP,
    &coreutils::HEAD,
    &attrs::INSTALL,
    &jq::JQ,
    &attrs::LINK,
    &fileutils::LN,
    &coreutils::LS,
    &make::MAKE,
    &mawk::MAWK,
    &coreutils::CHECKSUM,
    &fileutils::MKDIR,
    &attrs::MKFIFO,
    &attrs::MKNOD,
    &attrs::MKTEMP,
    &fileutils::MV,
    &coreutils::NL,
    &node::NODE,
    &npm::NPM,
    &coreutils::PASTE,
    &perl::PERL,
    &perldoc::PERLDOC,
    &pip::PIP,
    &pnpm::PNPM,
    &inspect::PRINTENV,
    &inspect::PRINTF,
    &prove::PROVE,
    &attrs::PTX,
    &pytest::PYTEST,
    &python::PYTHON,
    &rake::RAKE,
    &inspect::READLINK,
    &inspect::REALPATH,
    &rg::RG,
    &fileutils::RM,
    &fileutils::RMDIR,
    &rsync::RSYNC,
    &ruby::RUBY,
    &rustup::RUSTUP,
    &ssh::SCP,
    &sed::SED,
    &attrs::SHRED,
    &attrs::SHUF,
    &coreutils::SORT,
    &attrs::SPLIT,
    &ssh::SSH,
    &inspect::STAT,
    &coreutils::TAIL,
    &tar::TAR,
    &fileutils::TEE,
    &inspect::TEST,
    &fileutils::TOUCH,
    &inspect::TREE,
    &attrs::TRUNCATE,
    &coreutils::UNEXPAND,
    &attrs::UNIQ,
    &attrs::UNLINK,
    &zip::UNZIP,
    &uv::UV,
    &coreutils::WC,
    &wget::WGET,
    &xargs::XARGS,
    &yarn::YARN,
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
