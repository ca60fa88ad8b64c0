//! CMake variables set on the command line (`-D NAME[:TYPE]=VALUE`) that
//! make cmake or the build it writes run a program, or load CMake code,
//! of the caller's choosing.
//!
//! `CMAKE_*` variables are decided by a positive list: a variable not on
//! it is asked (`CMAKE_C_COMPILER`, `CMAKE_TOOLCHAIN_FILE`,
//! `CMAKE_MODULE_PATH`, `CMAKE_CXX_FLAGS` with `-wrapper` …), except the
//! compiler and linker launchers, which may be a compiler cache named
//! bare. A project's own variables are its own code's business, unless
//! their name says they hold a program (`Python3_EXECUTABLE`) or where a
//! package's CMake code is loaded from (`Foo_DIR`, `Foo_ROOT`): those are
//! asked when they name a program at all, or code outside the tree.
//! Where `CMAKE_*` variables load code or write outputs
//! (`CMAKE_MODULE_PATH`, `CMAKE_INSTALL_PREFIX`, `CMAKE_TOOLCHAIN_FILE`)
//! is asked only outside the tree, as `--toolchain` is.

use crate::policy::guards::parse::{self, Invocation};

/// `CMAKE_*` variables whose every value only chooses how the project is
/// built from its own code, each with why.
const INERT: &[(&str, &str)] = &[
    ("CMAKE_BUILD_TYPE", "names a build configuration"),
    ("CMAKE_COLOR_DIAGNOSTICS", "colours the compiler's messages"),
    ("CMAKE_CONFIGURATION_TYPES", "names build configurations"),
    (
        "CMAKE_CUDA_ARCHITECTURES",
        "names GPU architectures to build for",
    ),
    (
        "CMAKE_CXX_EXTENSIONS",
        "turns GNU language extensions on or off",
    ),
    ("CMAKE_CXX_STANDARD", "a language standard level"),
    (
        "CMAKE_CXX_STANDARD_REQUIRED",
        "whether the standard level is required",
    ),
    (
        "CMAKE_C_EXTENSIONS",
        "turns GNU language extensions on or off",
    ),
    ("CMAKE_C_STANDARD", "a language standard level"),
    (
        "CMAKE_C_STANDARD_REQUIRED",
        "whether the standard level is required",
    ),
    (
        "CMAKE_EXPORT_COMPILE_COMMANDS",
        "writes compile_commands.json into the build directory",
    ),
    (
        "CMAKE_INTERPROCEDURAL_OPTIMIZATION",
        "turns link-time optimisation on or off",
    ),
    ("CMAKE_MESSAGE_LOG_LEVEL", "how much cmake prints"),
    (
        "CMAKE_POSITION_INDEPENDENT_CODE",
        "builds position-independent code",
    ),
    ("CMAKE_UNITY_BUILD", "compiles sources in batches"),
    ("CMAKE_VERBOSE_MAKEFILE", "prints the build's commands"),
];

/// `CMAKE_*` variables naming where code is loaded from or outputs are
/// written: the project's own business inside the working tree, asked
/// when a value leaves it, each with why.
const TREE_PATHS: &[(&str, &str)] = &[
    (
        "CMAKE_ARCHIVE_OUTPUT_DIRECTORY",
        "where the build writes static libraries",
    ),
    (
        "CMAKE_FIND_ROOT_PATH",
        "roots find_package searches, whose config files are CMake code",
    ),
    (
        "CMAKE_INSTALL_PREFIX",
        "where `make install` writes programs and libraries (`~/.local` puts them on PATH)",
    ),
    (
        "CMAKE_LIBRARY_OUTPUT_DIRECTORY",
        "where the build writes shared libraries",
    ),
    (
        "CMAKE_MODULE_PATH",
        "directories include() and find_package load CMake code from",
    ),
    (
        "CMAKE_PREFIX_PATH",
        "prefixes find_package searches, whose config files are CMake code",
    ),
    (
        "CMAKE_RUNTIME_OUTPUT_DIRECTORY",
        "where the build writes programs",
    ),
    (
        "CMAKE_TOOLCHAIN_FILE",
        "CMake code run first, as `--toolchain` names it",
    ),
];

/// Compiler caches: a launcher by one of these bare names (found on the
/// host's PATH, which a request cannot change) only caches what the
/// compiler it is handed produces. distcc and icecc are not here: they send
/// the sources to other hosts their own configuration names.
const COMPILER_CACHES: &[&str] = &["ccache", "sccache"];

/// Endings of a variable name (upper-cased) that hold a program the build
/// runs: asked whatever the value.
const PROGRAM_SUFFIXES: &[&str] = &[
    "_COMMAND",
    "_COMPILER",
    "_EXECUTABLE",
    "_LAUNCHER",
    "_PROGRAM",
];

/// Endings of a variable name (upper-cased) that say where a package's
/// CMake code is loaded from (`find_package` reads `<Name>Config.cmake`
/// there): asked when the value leaves the working tree.
const CODE_DIR_SUFFIXES: &[&str] = &["_DIR", "_MODULE_PATH", "_PREFIX_PATH", "_ROOT"];

/// The first `-D` definition (`-DNAME=V`, `-D NAME=V`, `-DNAME:TYPE=V`)
/// of `inv` that names a program to run or code to load.
pub(crate) fn cmake_variable(inv: &Invocation<'_>) -> Option<String> {
    let mut args = inv.args.iter().take_while(|a| *a != "--");
    while let Some(arg) = args.next() {
        let definition = match arg.strip_prefix("-D") {
            Some("") => match args.next() {
                Some(next) => next.as_str(),
                None => break,
            },
            Some(rest) => rest,
            None => continue,
        };
        if runs_or_loads(inv, definition) {
            return Some(arg_shown(arg, definition));
        }
    }
    None
}

/// The definition as the human should see it.
fn arg_shown(arg: &str, definition: &str) -> String {
    if arg == "-D" {
        format!("-D {definition}")
    } else {
        arg.to_owned()
    }
}

/// Whether `NAME[:TYPE]=VALUE` names a program to run or code to load.
/// A definition without `=` is an error cmake reports; nothing runs.
fn runs_or_loads(inv: &Invocation<'_>, definition: &str) -> bool {
    let Some((left, value)) = definition.split_once('=') else {
        return false;
    };
    let name = left.split_once(':').map_or(left, |(n, _)| n);
    let upper = name.to_ascii_uppercase();
    if upper.ends_with("_COMPILER_LAUNCHER") || upper.ends_with("_LINKER_LAUNCHER") {
        return !COMPILER_CACHES.contains(&value);
    }
    let leaves = || {
        value
            .split(';')
            .any(|dir| dir.contains(':') || parse::outside(inv.cwd, dir))
    };
    if name.starts_with("CMAKE_") {
        if TREE_PATHS.iter().any(|(path, _)| *path == name) {
            return leaves();
        }
        return !INERT.iter().any(|(inert, _)| *inert == name);
    }
    if PROGRAM_SUFFIXES.iter().any(|s| upper.ends_with(s)) {
        return true;
    }
    CODE_DIR_SUFFIXES.iter().any(|s| upper.ends_with(s)) && leaves()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_unique_and_explained() {
        for table in [INERT, TREE_PATHS] {
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(table.iter().all(|(_, why)| !why.is_empty()));
        }
        for table in [COMPILER_CACHES, PROGRAM_SUFFIXES, CODE_DIR_SUFFIXES] {
            assert!(table.windows(2).all(|w| w[0] < w[1]), "{table:?}");
        }
    }
}
