//! The network and archive program specs against the installed programs:
//! every option a program's own help lists is a spelling its spec knows
//! (curl, rsync, zip, ssh, scp, cargo, pip, docker). A program that is not
//! installed is skipped with a note (`.ci/run` installs curl,
//! openssh-client, rsync, zip and unzip on a fresh machine); cargo, pip and
//! docker, which follow their own release trains, are compared only at the
//! version their spec was checked with.

use std::collections::BTreeSet;
use std::process::Command;

use approvals_ipc::policy::specs::Spec;

mod spec_support;
use spec_support::spec;

/// The output (stdout and stderr) of `program args`, or `None` when it is
/// not installed.
fn run(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Some(text)
}

/// Whether `program --version` reports the version `spec.checked_with`
/// names (its first word made of digits and dots), noting a skip if not.
fn at_checked_version(program: &str, spec: &Spec) -> bool {
    let version = spec
        .checked_with
        .split([' ', '(', ')'])
        .find(|w| w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .expect("checked_with names a version");
    let same = run(program, &["--version"]).is_some_and(|v| v.contains(version));
    if !same {
        eprintln!("{program} is not at {version}, which its spec was checked with: skipped");
    }
    same
}

/// Every spelling of `spec` before its subcommands, or of the subcommand
/// `sub`.
fn spellings(spec: &'static Spec, sub: Option<&str>) -> BTreeSet<&'static str> {
    let tables = match sub {
        None => spec.opts,
        Some(name) => {
            spec.subs
                .iter()
                .find(|s| s.names.contains(&name))
                .unwrap_or_else(|| panic!("{}: no subcommand {name}", spec.family))
                .opts
        }
    };
    tables
        .iter()
        .flat_map(|t| t.iter())
        .flat_map(|o| o.names.iter().copied())
        .collect()
}

/// The option names on the option lines of a help text: lines indented at
/// most eight spaces that start with `-`, the names before the
/// description (two spaces), without their values.
fn listed(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent > 8 || !trimmed.starts_with('-') {
            continue;
        }
        let head = trimmed.split("  ").next().unwrap_or("");
        for part in head.split([',', ' ', '/']) {
            let name: String = part
                .chars()
                .take_while(|c| !matches!(c, '=' | '[' | '<'))
                .collect();
            let name = name.trim_end_matches("...");
            let well_formed = name.len() > 1
                && name.starts_with('-')
                && name != "--"
                && name[1..]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-.#:@?_".contains(c));
            if well_formed {
                out.insert(name.to_owned());
            }
        }
    }
    out
}

/// Asserts every name in `listed` is known, `known` deciding.
fn assert_known(what: &str, listed: &BTreeSet<String>, known: impl Fn(&str) -> bool) {
    let missing: Vec<&String> = listed.iter().filter(|n| !known(n)).collect();
    assert!(
        missing.is_empty(),
        "{what}: options the program lists but the spec lacks: {missing:?}"
    );
    assert!(!listed.is_empty(), "{what}: no options read from its help");
}

#[test]
fn curl_spec_knows_every_option_curl_lists() {
    let Some(help) = run("curl", &["--help", "all"]) else {
        eprintln!("curl not installed: skipped");
        return;
    };
    let known = spellings(spec("curl"), None);
    // curl's help names boolean options by their `--no-` form.
    assert_known("curl", &listed(&help), |n| {
        known.contains(n)
            || n.strip_prefix("--no-")
                .is_some_and(|b| known.contains(format!("--{b}").as_str()))
    });
}

#[test]
fn rsync_spec_knows_every_option_rsync_lists() {
    let Some(help) = run("rsync", &["--help"]) else {
        eprintln!("rsync not installed: skipped");
        return;
    };
    // Debian's archive moved on from 3.2.7 (a fresh machine gets 3.5.0,
    // with new options the spec asks about as unknown): compared only at
    // the version the spec was checked with.
    if !at_checked_version("rsync", spec("rsync")) {
        return;
    }
    let known = spellings(spec("rsync"), None);
    let mut names = listed(&help);
    names.remove("--no-OPTION");
    assert_known("rsync", &names, |n| known.contains(n));
}

#[test]
fn zip_spec_knows_every_option_in_zips_own_table() {
    let Some(table) = run("zip", &["-so"]) else {
        eprintln!("zip not installed: skipped");
        return;
    };
    let known = spellings(spec("zip"), None);
    let mut names = BTreeSet::new();
    for line in table.lines().skip(3) {
        let short = line.get(1..4).unwrap_or("").trim();
        let long = line.get(5..24).unwrap_or("").trim();
        // `-mm` is "not used": zip's table keeps the letters, the spec asks.
        if !short.is_empty() && short != "mm" {
            names.insert(format!("-{short}"));
        }
        if !long.is_empty() {
            names.insert(format!("--{long}"));
        }
    }
    assert_known("zip", &names, |n| known.contains(n));
}

/// The letters of an OpenBSD usage text: `[-46Aa]` flags and `[-B arg]`
/// options.
fn usage_letters(usage: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for group in usage.split('[').skip(1) {
        let group = group.split(']').next().unwrap_or("");
        let Some(body) = group.strip_prefix('-') else {
            continue;
        };
        match body.split_once(' ') {
            Some((letter, _)) => {
                out.insert(format!("-{letter}"));
            }
            None => out.extend(body.chars().map(|c| format!("-{c}"))),
        }
    }
    out
}

#[test]
fn ssh_and_scp_specs_know_every_letter_of_their_usage() {
    for family in ["ssh", "scp"] {
        let Some(usage) = run(family, &[]) else {
            eprintln!("{family} not installed: skipped");
            return;
        };
        let known = spellings(spec(family), None);
        assert_known(family, &usage_letters(&usage), |n| known.contains(n));
    }
}

#[test]
fn cargo_spec_knows_every_option_of_every_subcommand() {
    let Some(global) = run("cargo", &["--help"]) else {
        eprintln!("cargo not installed: skipped");
        return;
    };
    let cargo = spec("cargo");
    if !at_checked_version("cargo", cargo) {
        return;
    }
    let known = spellings(cargo, None);
    assert_known("cargo", &listed(&global), |n| known.contains(n));
    for sub in cargo.subs {
        let name = sub.names[0];
        let Some(help) = run("cargo", &[name, "--help"]) else {
            continue;
        };
        let known = spellings(cargo, Some(name));
        // cargo-clippy's help lists the lint options that go after `--`.
        let names: BTreeSet<String> = listed(&help)
            .into_iter()
            .filter(|n| {
                name != "clippy"
                    || !matches!(
                        n.as_str(),
                        "-W" | "-A" | "-D" | "-F" | "--warn" | "--allow" | "--deny" | "--forbid"
                    )
            })
            .collect();
        assert_known(&format!("cargo {name}"), &names, |n| known.contains(n));
    }
}

#[test]
fn pip_spec_knows_every_option_of_every_command() {
    let Some(global) = run("pip", &["--help"]) else {
        eprintln!("pip not installed: skipped");
        return;
    };
    let pip = spec("pip");
    if !at_checked_version("pip", pip) {
        return;
    }
    let known = spellings(pip, None);
    assert_known("pip", &listed(&global), |n| known.contains(n));
    for sub in pip.subs {
        let name = sub.names[0];
        let Some(help) = run("pip", &[name, "--help"]) else {
            continue;
        };
        let known = spellings(pip, Some(name));
        assert_known(&format!("pip {name}"), &listed(&help), |n| {
            known.contains(n)
        });
    }
}

#[test]
fn docker_spec_knows_every_option_of_every_command() {
    let Some(global) = run("docker", &["--help"]) else {
        eprintln!("docker not installed: skipped");
        return;
    };
    let docker = spec("docker");
    if !at_checked_version("docker", docker) {
        return;
    }
    let known = spellings(docker, None);
    assert_known("docker", &listed(&global), |n| known.contains(n));
    for sub in docker.subs {
        let name = sub.names[0];
        let Some(help) = run("docker", &[name, "--help"]) else {
            continue;
        };
        // A management command the spec keeps to its read-only
        // subcommands (`docker network ls`): each against its own help.
        for nested in sub.subs {
            let Some(help) = run("docker", &[name, nested.names[0], "--help"]) else {
                continue;
            };
            let known: BTreeSet<&str> = nested
                .opts
                .iter()
                .flat_map(|t| t.iter())
                .flat_map(|o| o.names.iter().copied())
                .collect();
            for alias in nested.names {
                if *alias != nested.names[0] && !help.contains(&format!("docker {name} {alias}")) {
                    panic!("docker {name} {alias}: not an alias docker lists");
                }
            }
            // A command with no options (`docker context show`) lists
            // none: nothing to compare, as for the commands below.
            let names = listed(&help);
            if names.is_empty() {
                continue;
            }
            assert_known(&format!("docker {name} {}", nested.names[0]), &names, |n| {
                known.contains(n)
            });
        }
        // Whether options end at the first operand (cobra's
        // `SetInterspersed(false)`): an unknown option after an operand is
        // refused by pflag only where options may follow operands. Parsed
        // before the daemon is asked; DOCKER_HOST names none, so a daemon
        // this host runs never sees the probe.
        let probe = Command::new("docker")
            .args([name, "x", "--frobnicate"])
            .env("DOCKER_HOST", "unix:///nonexistent/docker.sock")
            .output();
        if let Ok(probe) = probe {
            let mut out = String::from_utf8_lossy(&probe.stdout).into_owned();
            out.push_str(&String::from_utf8_lossy(&probe.stderr));
            let interspersed = out.contains("unknown flag: --frobnicate");
            assert_eq!(
                sub.operand_ends_options, !interspersed,
                "docker {name}: options end at the first operand? the spec says {}, docker: {out}",
                sub.operand_ends_options
            );
        }
        let known = spellings(docker, Some(name));
        let names = listed(&help);
        if names.is_empty() {
            continue;
        }
        assert_known(&format!("docker {name}"), &names, |n| known.contains(n));
    }
}
