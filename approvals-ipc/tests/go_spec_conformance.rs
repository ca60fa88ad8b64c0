//! The go spec against the installed go. Go's `flag` package prints no
//! option table, so the program itself is asked: every command `go help`
//! lists is a subcommand the spec knows (and every group's commands, `go
//! mod edit`, `go work use`); at each command, every flag named in its
//! `go help` text (with `go help build` for the commands that take the
//! build flags and `go help testflag` for `go test`) and every flag the
//! spec has is probed as `go CMD -FLAG -h`:
//!
//! - `flag provided but not defined` means go refuses it;
//! - the usage printed for `-h` means the flag took no value;
//! - anything else means the flag took `-h` as its value.
//!
//! A flag go takes must be in the spec with the same arity, a flag the
//! spec has must be one go takes, and a flag one letter short is refused
//! (go matches flag names exactly). `go test` hands every flag it does not
//! know to the test binary, so there a probe cannot tell an unknown flag
//! from a known one: only the flags its help lists on their own lines are
//! compared, and no abbreviation is probed (the spec asks them as unknown). Probes run in an empty directory with
//! no `go.mod`, `GOFLAGS` cleared, no proxy and no toolchain download, so
//! none of them builds, fetches or runs anything.
//!
//! go is compared only at the version its spec was checked with (`.ci/run`
//! installs Debian's `golang-go`); otherwise the test prints a SKIP line.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use approvals_ipc::policy::specs::{Arity, Opt, Spec, Sub};

mod spec_support;
use spec_support::{spec, text};

/// What go does with one flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probed {
    /// `flag provided but not defined`.
    Refused,
    /// A boolean: `-h` after it printed the usage.
    Flag,
    /// It took `-h` as its value.
    Value,
}

/// A scratch directory with nothing go could build, and go's own state
/// kept inside it.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new() -> Scratch {
        Scratch(tempfile::tempdir().expect("a scratch directory"))
    }

    fn go(&self, args: &[&str]) -> Option<String> {
        let dir = self.0.path();
        let out = Command::new("go")
            .args(args)
            .current_dir(dir)
            .env("GOFLAGS", "")
            .env("GOPROXY", "off")
            .env("GOTOOLCHAIN", "local")
            .env("GO111MODULE", "on")
            .env("GOPATH", dir.join(".gopath"))
            .env("GOCACHE", dir.join(".gocache"))
            .env("GOENV", "off")
            .env("GOWORK", "off")
            .output()
            .ok()?;
        Some(text(&out))
    }

    fn probe(&self, path: &[&str], flag: &str) -> Probed {
        let mut args = path.to_vec();
        args.extend([flag, "-h"]);
        let out = self.go(&args).unwrap_or_default();
        if out.contains("flag provided but not defined") {
            Probed::Refused
        } else if out.contains("invalid value \"-h\"")
            || out.contains("invalid boolean value \"-h\"")
        {
            // go's flag package names the value it could not parse: the
            // flag took `-h`.
            Probed::Value
        } else if out.contains("usage: go ") || out.contains("Usage of [go] ") {
            Probed::Flag
        } else {
            Probed::Value
        }
    }
}

/// Every `-name` word in a help text: after a space, a tab, `[`, `(` or
/// `|`, lowercase letters, digits and dots, as go spells flags.
fn named(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = help.as_bytes();
    for (i, _) in help.match_indices('-') {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        if !matches!(before, Some(b' ' | b'\t' | b'[' | b'(' | b'|')) {
            continue;
        }
        let name: String = help[i + 1..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '.')
            .collect();
        let name = name.trim_end_matches('.');
        if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            out.insert(format!("-{name}"));
        }
    }
    out
}

/// The flags a help text lists on lines of their own: a tab, then
/// `-name`, then a value word or nothing.
fn listed(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|l| l.strip_prefix('\t'))
        .filter(|l| l.starts_with('-'))
        .flat_map(|l| named(&format!(" {l}")).into_iter().take(1))
        .collect()
}

/// The commands a `go help` text lists under "The commands are:".
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("The commands are:"))
        .skip(1)
        .take_while(|l| !l.starts_with("Use \"go help"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .collect()
}

fn rows(tables: &'static [&'static [Opt]]) -> impl Iterator<Item = &'static Opt> {
    tables.iter().flat_map(|t| t.iter())
}

/// The spec's row for `-name` at this command.
fn row(tables: &'static [&'static [Opt]], name: &str) -> Option<&'static Opt> {
    rows(tables).find(|o| o.names.contains(&name))
}

/// Compares one command (`path`, as typed after `go`) with its spec rows,
/// recording each disagreement in `wrong`.
fn compare(scratch: &Scratch, path: &[&str], sub: &'static Sub, wrong: &mut Vec<String>) {
    let shown = format!("go {}", path.join(" "));
    let Some(help) = scratch.go(&[&["help"], path].concat()) else {
        wrong.push(format!("{shown}: cannot run"));
        return;
    };
    // `go test` takes any flag (for the test binary): only the lines
    // that list a flag are read there.
    let hands_on = path == ["test"];
    let read = |text: &str| {
        if hands_on { listed(text) } else { named(text) }
    };
    let mut candidates = read(&help);
    let takes_build_flags = help.contains("[build flags]") || help.contains("build/test flags");
    if takes_build_flags && let Some(build) = scratch.go(&["help", "build"]) {
        candidates.extend(read(&build));
    }
    if hands_on && let Some(testflag) = scratch.go(&["help", "testflag"]) {
        candidates.extend(read(&testflag));
    }
    // Flags of other programs the help names: `go help test` tells of
    // the test binary's `-test.v`, `go help build` of the compiler's.
    candidates.retain(|n| !n.contains('.') && n != "-h" && n != "-help");
    for name in rows(sub.opts).flat_map(|o| o.names.iter()) {
        candidates.insert((*name).to_owned());
    }
    let mut taken = 0;
    for name in &candidates {
        // `go test -args` hands the rest to the test binary: read by
        // the grammar, never probed as a flag.
        if name == "-args" {
            continue;
        }
        let probed = scratch.probe(path, name);
        let spec = row(sub.opts, name);
        match (probed, spec) {
            (Probed::Refused, None) => {}
            (Probed::Refused, Some(_)) => {
                wrong.push(format!("{shown}: the spec has {name}, go refuses it"));
            }
            (_, None) => wrong.push(format!("{shown}: go takes {name}, the spec lacks it")),
            (probed, Some(opt)) => {
                taken += 1;
                let spec_value = opt.arity != Arity::Flag;
                if spec_value != (probed == Probed::Value) {
                    wrong.push(format!(
                        "{shown}: {name} takes a value: go {}, spec {spec_value}",
                        probed == Probed::Value
                    ));
                }
            }
        }
    }
    // One name a letter short per command: go refuses it.
    if let Some(long) = rows(sub.opts)
        .filter(|_| !hands_on)
        .flat_map(|o| o.names.iter())
        .find(|n| n.len() > 3 && row(sub.opts, &n[..n.len() - 1]).is_none())
    {
        let short = &long[..long.len() - 1];
        if scratch.probe(path, short) != Probed::Refused {
            wrong.push(format!(
                "{shown}: go takes the abbreviation {short} of {long}"
            ));
        }
    }
    // The same flag spelled with two dashes is the same flag.
    if let Some(flag) = rows(sub.opts)
        .filter(|o| o.arity == Arity::Flag)
        .flat_map(|o| o.names.iter())
        .next()
        && scratch.probe(path, &format!("-{flag}")) != Probed::Flag
    {
        wrong.push(format!("{shown}: go refuses -{flag}"));
    }
    eprintln!("{shown}: {taken} flags compared");
    if sub.subs.is_empty() {
        return;
    }
    let listed = commands(&help);
    for name in &listed {
        if !sub.subs.iter().any(|s| s.names.contains(&name.as_str())) {
            wrong.push(format!("{shown}: go lists {name}, the spec lacks it"));
        }
    }
    for nested in sub.subs {
        let name = nested.names[0];
        if !listed.iter().any(|l| l == name) {
            wrong.push(format!("{shown}: the spec has {name}, go does not list it"));
            continue;
        }
        compare(scratch, &[path, &[name]].concat(), nested, wrong);
    }
}

/// Whether the installed go is the one the spec was checked with.
fn at_checked_version(scratch: &Scratch, spec: &Spec) -> bool {
    let Some(version) = scratch.go(&["version"]) else {
        eprintln!("SKIP go_spec_conformance: go is not installed");
        return false;
    };
    let checked = spec
        .checked_with
        .split([' ', '(', ')'])
        .find(|w| w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .expect("checked_with names a version");
    if !version.contains(&format!("go{checked} ")) {
        eprintln!(
            "SKIP go_spec_conformance: go is at {}, not at {checked}, which its spec was checked with",
            version.trim()
        );
        return false;
    }
    true
}

#[test]
fn go_spec_knows_every_command_and_flag_go_takes() {
    let scratch = Scratch::new();
    let go = spec("go");
    if !at_checked_version(&scratch, go) {
        return;
    }
    assert!(go.opts.is_empty(), "go takes no flags before its command");
    let help = scratch.go(&["help"]).expect("go help");
    let listed = commands(&help);
    assert!(listed.len() > 10, "go help lists its commands: {listed:?}");
    let mut wrong = Vec::new();
    for name in &listed {
        if !go.subs.iter().any(|s| s.names.contains(&name.as_str())) {
            wrong.push(format!("go lists {name}, the spec lacks it"));
        }
    }
    for sub in go.subs {
        let name = sub.names[0];
        // `go help` is the one command the list leaves out.
        if name == "help" {
            continue;
        }
        if !listed.iter().any(|l| l == name) {
            wrong.push(format!("the spec has go {name}, go does not list it"));
            continue;
        }
        compare(&scratch, &[name], sub, &mut wrong);
    }
    assert!(
        !Path::new(&scratch.0.path().join("-h")).exists(),
        "a probe wrote a file named -h"
    );
    assert!(
        wrong.is_empty(),
        "the go spec disagrees with go:\n{}",
        wrong.join("\n")
    );
}
