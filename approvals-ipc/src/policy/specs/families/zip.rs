//! Info-ZIP's zip and unzip. zip's options from zip 3.0's `zip -so` (its
//! own option table: short names of one or two letters, long names, which
//! take values); unzip's from UnZip 6.00's `unzip -hh`, each tried on the
//! installed program (this build rejects the VMS, Acorn and charset ones,
//! left out). Both read argv with Info-ZIP's own parser
//! ([`Grammar::InfoZip`]): `-TT` is one option, `-sv1` is `-sv -1`, zip
//! abbreviates long names (`--unzip` is `--unzip-command`).
//!
//! Archiving and extracting are their job; zip's test command (`-TT`) runs
//! any command line; its log, temporary directory and output file, and
//! unzip's extraction directory, are asked outside the working tree; unzip's
//! `-:` lets members climb out of it with `../`, so it is asked.

use crate::policy::specs::types::Mode::WritesNothing;
use crate::policy::specs::types::Operands;
use crate::policy::specs::types::loads;
use crate::policy::specs::types::{
    Effect::{Mode, RunsProgram, WritesFile},
    Grammar, Opt, Spec, flag, ids, value,
};

const ZIP_OPTS: &[Opt] = &[
    flag(&["-0", "--store"]),
    flag(&["-1", "--compress-1"]),
    flag(&["-2", "--compress-2"]),
    flag(&["-3", "--compress-3"]),
    flag(&["-4", "--compress-4"]),
    flag(&["-5", "--compress-5"]),
    flag(&["-6", "--compress-6"]),
    flag(&["-7", "--compress-7"]),
    flag(&["-8", "--compress-8"]),
    flag(&["-9", "--compress-9"]),
    flag(&["-A", "--adjust-sfx"]),
    value(&["-b", "--temp-path"]).does(WritesFile("writes the temporary archive into a directory")),
    flag(&["-c", "--entry-comments"]),
    flag(&["-d", "--delete"]),
    flag(&["-db", "--display-bytes"]),
    flag(&["-dc", "--display-counts"]),
    flag(&["-dd", "--display-dots"]),
    flag(&["-dg", "--display-globaldots"]),
    value(&["-ds", "--dot-size"]),
    flag(&["-du", "--display-usize"]),
    flag(&["-dv", "--display-volume"]),
    flag(&["-D", "--no-dir-entries"]),
    flag(&["-DF", "--difference-archive"]),
    flag(&["-e", "--encrypt"]),
    flag(&["-F", "--fix"]),
    flag(&["-FF", "--fixfix"]),
    flag(&["-FI", "--fifo"]),
    flag(&["-FS", "--filesync"]),
    flag(&["-f", "--freshen"]),
    flag(&["-fd", "--force-descriptors"]),
    flag(&["-fz", "--force-zip64"]),
    flag(&["-g", "--grow"]),
    flag(&["-h", "--help"]),
    flag(&["-H"]),
    flag(&["-?"]),
    flag(&["-h2", "--more-help"]),
    value(&["-i", "--include"]),
    flag(&["-j", "--junk-paths"]),
    flag(&["-J", "--junk-sfx"]),
    flag(&["-k", "--DOS-names"]),
    flag(&["-l", "--to-crlf"]),
    flag(&["-ll", "--from-crlf"]),
    value(&["-lf", "--logfile-path"]).does(WritesFile("writes zip's log")),
    flag(&["-la", "--log-append"]),
    flag(&["-li", "--log-info"]),
    flag(&["-L", "--license"]),
    flag(&["-m", "--move"]),
    flag(&["-MM", "--must-match"]),
    value(&["-n", "--suffixes"]),
    flag(&["-nw", "--no-wild"]),
    flag(&["-o", "--latest-time"]),
    value(&["-O", "--output-file"]).does(WritesFile("writes the archive to another file")),
    flag(&["-p", "--paths"]),
    value(&["-P", "--password"]),
    flag(&["-q", "--quiet"]),
    flag(&["-r", "--recurse-paths"]),
    flag(&["-R", "--recurse-patterns"]),
    flag(&["-RE", "--regex"]),
    value(&["-s", "--split-size"]),
    flag(&["-sp", "--split-pause"]),
    flag(&["-sv", "--split-verbose"]),
    flag(&["-sb", "--split-bell"]),
    flag(&["-sc", "--show-command"]),
    flag(&["-sd", "--show-debug"]),
    flag(&["-sf", "--show-files"]),
    flag(&["-so", "--show-options"]),
    flag(&["-su", "--show-unicode"]),
    flag(&["-sU", "--show-just-unicode"]),
    value(&["-t", "--from-date"]),
    value(&["-tt", "--before-date"]),
    flag(&["-T", "--test"]),
    value(&["-TT", "--unzip-command"]).does(RunsProgram(
        "runs the given command line to test the archive",
    )),
    flag(&["-u", "--update"]),
    flag(&["-U", "--copy-entries"]),
    value(&["-UN", "--unicode"]),
    flag(&["-v", "--verbose"]),
    flag(&["--version"]),
    flag(&["-ws", "--wild-stop-dirs"]),
    value(&["-x", "--exclude"]),
    flag(&["-X", "--strip-extra"]),
    flag(&["-y", "--symlinks"]),
    flag(&["-z", "--archive-comment"]),
    value(&["-Z", "--compression-method"]),
    flag(&["-@", "--names-stdin"]),
];

/// `zip`.
pub(crate) const ZIP: Spec = Spec {
    family: "zip",
    names: &["zip"],
    ids: ids!("zip"),
    grammar: Grammar::InfoZip { zip: true },
    opts: &[ZIP_OPTS],
    subs: &[],
    checked_with: "Info-ZIP zip 3.0 (Debian 12)",
    operands: Operands::WrittenAt(0, "writes the archive"),
    env: &[loads("ZIPOPT", "adds options, such as -TT, to every zip")],
};

const UNZIP_OPTS: &[Opt] = &[
    flag(&["-:"]).does(WritesFile(
        "extracts members whose names climb out of the directory with ../",
    )),
    flag(&["-^"]),
    flag(&["-a"]),
    flag(&["-B"]),
    flag(&["-b"]),
    flag(&["-C"]),
    flag(&["-c"]).does(Mode(WritesNothing)),
    value(&["-d"]).does(WritesFile("extracts into a directory")),
    flag(&["-D"]),
    flag(&["-F"]),
    flag(&["-f"]),
    flag(&["-h"]),
    flag(&["-j"]),
    flag(&["-K"]),
    flag(&["-L"]),
    flag(&["-l"]).does(Mode(WritesNothing)),
    flag(&["-M"]),
    flag(&["-n"]),
    flag(&["-o"]),
    value(&["-P"]),
    flag(&["-p"]).does(Mode(WritesNothing)),
    flag(&["-q"]),
    flag(&["-T"]),
    flag(&["-t"]).does(Mode(WritesNothing)),
    flag(&["-U"]),
    flag(&["-u"]),
    flag(&["-V"]),
    flag(&["-v"]).does(Mode(WritesNothing)),
    flag(&["-W"]),
    flag(&["-X"]),
    // Patterns to exclude follow, as operands.
    flag(&["-x"]),
    flag(&["-z"]).does(Mode(WritesNothing)),
];

/// `unzip`. Its `-Z` (zipinfo mode, another option table) is left out, so
/// asked.
pub(crate) const UNZIP: Spec = Spec {
    family: "unzip",
    names: &["unzip"],
    ids: ids!("unzip"),
    grammar: Grammar::InfoZip { zip: false },
    opts: &[UNZIP_OPTS],
    subs: &[],
    checked_with: "Info-ZIP UnZip 6.00 (Debian 6.0-28)",
    operands: Operands::Archive {
        extracts_by_default: true,
        dir_options: &["-d"],
    },
    env: &[
        loads("UNZIP", "adds options to every unzip"),
        loads("UNZIPOPT", "adds options to every unzip"),
    ],
};
