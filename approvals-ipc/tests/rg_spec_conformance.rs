//! The ripgrep spec (`specs/families/rg.rs`) against the installed `rg`,
//! run in an empty scratch directory with stdin from `/dev/null` and
//! `RIPGREP_CONFIG_PATH` removed.
//!
//! 1. **Help.** Every option line of `rg --help` (`-A, --after-context
//!    <NUM>`, `--binary`) is a row of the spec with the same short letter
//!    and arity (a `<VALUE>` takes a value), and every long name of the
//!    spec is in the help or accepted by the probe below.
//! 2. **Hidden spellings.** ripgrep 13 accepts `--no-X` negations (and
//!    their positives) it does not list. For every listed `--X` the probe
//!    tries `--no-X`, for every `--no-X` it tries `--X`, plus every `--no-…`
//!    the help mentions: each one ripgrep accepts must be a row with the
//!    probed arity, and each one it refuses must not.
//! 3. **Short letters.** Every printable letter is probed: those ripgrep
//!    accepts must be rows with the probed arity, those it refuses not.
//! 4. **No abbreviations.** For every long name of the spec, the name
//!    without its last letter (when that is no name of the spec) must be
//!    refused by ripgrep and read as a problem by the spec.
//!
//! The probe is `rg -e x NAME`: clap says "wasn't expected" for an unknown
//! option and "requires a value" / "were provided" for a value missing at
//! the end; otherwise it is a flag (ripgrep then searches an empty stdin).
//! A missing `rg` is reported with a SKIP line and the test returns.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use approvals_ipc::policy::specs::grammar::read;
use approvals_ipc::policy::specs::{self, Arity, Opt, Spec};

fn spec() -> &'static Spec {
    specs::all()
        .iter()
        .copied()
        .find(|s| s.family == "rg")
        .expect("an rg spec")
}

fn rg(dir: &Path, args: &[&str]) -> Option<(bool, String, String)> {
    let out = Command::new("rg")
        .args(args)
        .current_dir(dir)
        .env_remove("RIPGREP_CONFIG_PATH")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// What ripgrep makes of one option word: `None` when it refuses it.
fn probe(dir: &Path, name: &str) -> Option<Arity> {
    let (_, _, err) = rg(dir, &["-e", "x", name]).expect("rg runs");
    if err.contains("wasn't expected") {
        None
    } else if err.contains("requires a value") || err.contains("were provided") {
        Some(Arity::Required)
    } else {
        Some(Arity::Flag)
    }
}

fn row(spec: &'static Spec, name: &str) -> Option<&'static Opt> {
    spec.opts
        .iter()
        .flat_map(|t| t.iter())
        .find(|o| o.names.contains(&name))
}

/// `--long` -> (short letter, arity) of each option line of `rg --help`.
fn help_rows(help: &str) -> BTreeMap<String, (Option<String>, Arity)> {
    let line = regex::Regex::new(r"^ {4,8}(?:(-.), )?(--[a-z0-9-]+)( <)?").expect("regex");
    help.lines()
        .filter_map(|l| line.captures(l))
        .map(|c| {
            let arity = if c.get(3).is_some() {
                Arity::Required
            } else {
                Arity::Flag
            };
            (
                c[2].to_owned(),
                (c.get(1).map(|s| s.as_str().to_owned()), arity),
            )
        })
        .collect()
}

#[test]
fn the_rg_spec_matches_the_installed_ripgrep() {
    let dir = tempfile::tempdir().expect("tempdir");
    let Some((true, version, _)) = rg(dir.path(), &["--version"]) else {
        eprintln!("SKIP rg_spec_conformance: rg is not installed");
        return;
    };
    let spec = spec();
    eprintln!(
        "{}; spec checked with {}",
        version.lines().next().unwrap_or(""),
        spec.checked_with
    );
    let (_, help, _) = rg(dir.path(), &["--help"]).expect("rg --help");
    let listed = help_rows(&help);
    assert!(
        listed.len() > 90,
        "rg --help lists {} options",
        listed.len()
    );
    let mut problems = Vec::new();

    for (long, (short, arity)) in &listed {
        match row(spec, long) {
            None => problems.push(format!("{long}: in rg --help, not in the spec")),
            Some(r) => {
                if r.arity != *arity {
                    problems.push(format!("{long}: spec {:?}, help {arity:?}", r.arity));
                }
                if let Some(s) = short
                    && !r.names.contains(&s.as_str())
                {
                    problems.push(format!("{long}: help gives {s}, the spec does not"));
                }
            }
        }
    }

    let mut candidates: Vec<String> = Vec::new();
    for long in listed.keys() {
        let body = &long[2..];
        candidates.push(match body.strip_prefix("no-") {
            Some(positive) => format!("--{positive}"),
            None => format!("--no-{body}"),
        });
    }
    let mentioned = regex::Regex::new(r"--no-[a-z0-9-]+[a-z0-9]").expect("regex");
    candidates.extend(mentioned.find_iter(&help).map(|m| m.as_str().to_owned()));
    for row_ in spec.opts.iter().flat_map(|t| t.iter()) {
        candidates.extend(
            row_.names
                .iter()
                .filter(|n| n.starts_with("--"))
                .map(|n| (*n).to_owned()),
        );
    }
    candidates.sort();
    candidates.dedup();
    let mut probed = 0;
    for name in candidates.iter().filter(|n| !listed.contains_key(*n)) {
        probed += 1;
        match (probe(dir.path(), name), row(spec, name)) {
            (None, Some(_)) => problems.push(format!("{name}: in the spec, refused by rg")),
            (Some(a), None) => {
                problems.push(format!("{name}: rg takes it ({a:?}), the spec lacks it"))
            }
            (Some(a), Some(r)) if r.arity != a => {
                problems.push(format!("{name}: spec {:?}, rg {a:?}", r.arity));
            }
            _ => {}
        }
    }

    let mut letters = 0;
    for c in ('!'..='~').filter(|c| *c != '-') {
        let name = format!("-{c}");
        letters += 1;
        match (probe(dir.path(), &name), row(spec, &name)) {
            (None, Some(_)) => problems.push(format!("{name}: in the spec, refused by rg")),
            (Some(a), None) => {
                problems.push(format!("{name}: rg takes it ({a:?}), the spec lacks it"))
            }
            // `-e x -e` ends in clap's own "requires" only for some
            // letters; the help's arity was compared above.
            _ => {}
        }
    }

    let mut abbreviations = 0;
    for row_ in spec.opts.iter().flat_map(|t| t.iter()) {
        for name in row_.names.iter().filter(|n| n.starts_with("--")) {
            let prefix = &name[..name.len() - 1];
            if prefix.len() < 3 || row(spec, prefix).is_some() {
                continue;
            }
            abbreviations += 1;
            if probe(dir.path(), prefix).is_some() {
                problems.push(format!("{prefix}: rg takes this abbreviation of {name}"));
            }
            let args = vec![prefix.to_owned(), "x".to_owned()];
            if read(spec, &args).problem.is_none() {
                problems.push(format!(
                    "{prefix}: the spec reads this abbreviation of {name}"
                ));
            }
        }
    }
    eprintln!(
        "rg: {} help options compared, {probed} hidden spellings probed, {letters} letters probed, {abbreviations} abbreviations probed",
        listed.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
