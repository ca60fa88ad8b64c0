//! The specs with nested subcommands (gh, rustup, uv) against the
//! installed programs: at every command and subcommand the program's own
//! `--help` lists, the spec knows every subcommand listed and exactly the
//! options listed (FLAGS and INHERITED FLAGS for gh; every `… options:`
//! heading for clap's rustup and uv), each with the same arity (a value
//! word after the name: `string`, `<PATH>`); every alias or hidden command
//! the spec adds, and every option spelling the help does not list (uv's
//! hidden `--requirement` for `--requirements`), is one the program
//! accepts; and one abbreviation of a long
//! option per command is probed, which the program must refuse (cobra and
//! clap match long names exactly).
//!
//! The programs follow their own release trains: each is compared only at
//! the version its spec was checked with (`.ci/run` installs gh from
//! Debian and uv from pip; rustup comes with the toolchain). A program not
//! installed, or at another version, is reported with a SKIP line.

use std::collections::BTreeSet;
use std::process::Command;

use approvals_ipc::policy::specs::{Arity, Opt, Sub};

mod spec_support;
use spec_support::spec;

/// Which help format a program prints.
#[derive(Clone, Copy, PartialEq)]
enum Format {
    /// cobra, as gh prints it.
    Cobra,
    /// clap.
    Clap,
}

/// What one `--help` lists: subcommands and (option spellings, takes a
/// value).
struct Listed {
    subs: Vec<String>,
    opts: Vec<(Vec<String>, bool)>,
}

fn output(program: &str, args: &[&str]) -> Option<(bool, String)> {
    let out = Command::new(program)
        .args(args)
        .env("GH_NO_UPDATE_NOTIFIER", "1")
        .env(
            "GH_CONFIG_DIR",
            std::env::temp_dir().join("subs-conformance-gh"),
        )
        .env("NO_COLOR", "1")
        .output()
        .ok()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Some((out.status.success(), text))
}

fn parse(format: Format, help: &str) -> Listed {
    let mut listed = Listed {
        subs: Vec::new(),
        opts: Vec::new(),
    };
    let mut section = String::new();
    for line in help.lines() {
        if !line.is_empty() && !line.starts_with(' ') {
            section = line.trim().to_owned();
            continue;
        }
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let is_commands = match format {
            Format::Cobra => section.ends_with("COMMANDS"),
            Format::Clap => section == "Commands:",
        };
        if is_commands && indent == 2 {
            let name = match format {
                Format::Cobra => trimmed.split(':').next().filter(|_| trimmed.contains(':')),
                Format::Clap => trimmed.split_whitespace().next(),
            };
            if let Some(name) = name.filter(|n| *n != "help") {
                listed.subs.push(name.to_owned());
            }
            continue;
        }
        let is_options = match format {
            Format::Cobra => section == "FLAGS" || section == "INHERITED FLAGS",
            Format::Clap => section.ends_with("ptions:"),
        };
        if !is_options || indent > 8 || !trimmed.starts_with('-') {
            continue;
        }
        let head = trimmed.split("  ").next().unwrap_or("");
        let mut names = Vec::new();
        let mut value = false;
        for word in head.split([',', ' ']).filter(|w| !w.is_empty()) {
            if word.starts_with('-') && names.len() < 2 && !value {
                names.push(word.trim_end_matches("...").to_owned());
            } else {
                value = true;
            }
        }
        listed.opts.push((names, value));
    }
    listed
}

fn rows(tables: &'static [&'static [Opt]]) -> impl Iterator<Item = &'static Opt> {
    tables.iter().flat_map(|t| t.iter())
}

/// Counts of what was compared.
#[derive(Default)]
struct Counts {
    commands: usize,
    options: usize,
    probes: usize,
    failures: Vec<String>,
}

fn compare(
    program: &str,
    format: Format,
    path: &[&'static str],
    tables: &'static [&'static [Opt]],
    subs: &'static [Sub],
    counts: &mut Counts,
) {
    let mut args: Vec<&str> = path.to_vec();
    args.push("--help");
    let Some((_, help)) = output(program, &args) else {
        counts
            .failures
            .push(format!("{program} {path:?}: cannot run"));
        return;
    };
    let listed = parse(format, &help);
    counts.commands += 1;
    let shown = format!("{program} {}", path.join(" "));
    // Options: the same spellings, each with the same arity.
    let mut known: BTreeSet<&str> = BTreeSet::new();
    for row in rows(tables) {
        known.extend(row.names.iter().copied());
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (names, value) in &listed.opts {
        counts.options += 1;
        for name in names {
            seen.insert(name.clone());
            match rows(tables).find(|o| o.names.contains(&name.as_str())) {
                None => counts.failures.push(format!(
                    "{shown}: {name} is listed, the spec does not know it"
                )),
                Some(row) => {
                    let takes = row.arity != Arity::Flag;
                    if takes != *value {
                        counts.failures.push(format!(
                            "{shown}: {name} takes a value: program {value}, spec {takes}"
                        ));
                    }
                }
            }
        }
    }
    for name in known {
        if seen.contains(name) {
            continue;
        }
        // A hidden spelling the spec adds: the program must take it.
        let mut args: Vec<&str> = path.to_vec();
        args.push(name);
        args.push("--help");
        counts.probes += 1;
        let refused = output(program, &args).is_none_or(|(_, text)| {
            text.contains("unknown flag")
                || text.contains("unknown shorthand")
                || text.contains("unexpected argument")
        });
        if refused {
            counts.failures.push(format!(
                "{shown}: the spec has {name}, which the help does not list and the program refuses"
            ));
        }
    }
    // One abbreviation per command: refused by the program.
    if let Some(long) = rows(tables)
        .flat_map(|o| o.names.iter())
        .filter_map(|n| n.strip_prefix("--"))
        .find(|l| l.len() > 4 && *l != "help")
    {
        let prefix = format!("--{}", &long[..long.len() - 1]);
        if !rows(tables).any(|o| o.names.contains(&prefix.as_str())) {
            let mut args: Vec<&str> = path.to_vec();
            args.push(&prefix);
            args.push("--help");
            counts.probes += 1;
            if let Some((ok, text)) = output(program, &args)
                && (ok || !(text.contains("unknown flag") || text.contains("unexpected argument")))
            {
                counts.failures.push(format!(
                    "{shown}: {prefix} was not refused as unknown: {}",
                    text.lines().next().unwrap_or("")
                ));
            }
        }
    }
    // Subcommands: every listed one is known.
    for name in &listed.subs {
        if !subs.iter().any(|s| s.names.contains(&name.as_str())) {
            counts.failures.push(format!(
                "{shown}: subcommand {name} is listed, the spec does not know it"
            ));
        }
    }
    for sub in subs {
        let Some(primary) = sub.names.first() else {
            continue;
        };
        // Aliases and hidden commands the spec adds: the program takes them.
        for name in sub.names {
            if listed.subs.iter().any(|l| l == name) || *name == "help" {
                continue;
            }
            let mut args: Vec<&str> = path.to_vec();
            args.push(name);
            args.push("--help");
            counts.probes += 1;
            let accepted = output(program, &args).is_some_and(|(ok, text)| {
                ok && !text.contains("unknown command") && !text.contains("unrecognized")
            });
            if !accepted {
                counts.failures.push(format!(
                    "{shown}: {name} is in the spec, the program refuses it"
                ));
            }
        }
        if listed.subs.iter().any(|l| l == primary) {
            let mut next = path.to_vec();
            next.push(primary);
            compare(program, format, &next, sub.opts, sub.subs, counts);
        }
    }
}

/// The program to run for `family`, when installed at the version its
/// spec was checked with.
fn installed(family: &str, program: &str) -> Option<()> {
    let spec = spec(family);
    let version = spec
        .checked_with
        .split([' ', '(', ')'])
        .find(|w| w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .expect("checked_with names a version");
    match output(program, &["--version"]) {
        None => {
            eprintln!("SKIP subs_spec_conformance: {program} is not installed");
            None
        }
        Some((_, v)) if !v.contains(version) => {
            eprintln!(
                "SKIP subs_spec_conformance: {program} is not at {version}, which its spec was checked with"
            );
            None
        }
        Some(_) => Some(()),
    }
}

fn conforms(family: &str, program: &str, format: Format) {
    if installed(family, program).is_none() {
        return;
    }
    let spec = spec(family);
    let mut counts = Counts::default();
    compare(program, format, &[], spec.opts, spec.subs, &mut counts);
    eprintln!(
        "{family}: {} commands, {} options compared, {} abbreviations and aliases probed",
        counts.commands, counts.options, counts.probes
    );
    assert!(
        counts.failures.is_empty(),
        "{family}:\n{}",
        counts.failures.join("\n")
    );
    assert!(
        counts.commands > 10,
        "{family}: only {} commands",
        counts.commands
    );
}

#[test]
fn gh_spec_matches_gh() {
    conforms("gh", "gh", Format::Cobra);
}

#[test]
fn rustup_spec_matches_rustup() {
    let home = std::env::var("HOME").unwrap_or_default();
    let rustup = format!("{home}/.cargo/bin/rustup");
    let program = if std::path::Path::new(&rustup).exists() {
        rustup.as_str()
    } else {
        "rustup"
    };
    conforms("rustup", program, Format::Clap);
}

#[test]
fn uv_spec_matches_uv() {
    conforms("uv", "uv", Format::Clap);
}
