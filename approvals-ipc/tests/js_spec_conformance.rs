//! The pnpm and yarn specs (`specs/families/pnpm.rs`, `yarn.rs`) against
//! the installed programs, in a private home and an empty scratch project.
//!
//! - Every command `PROG --help` lists (with pnpm's aliases, yarn's
//!   `a / b` spellings) is a subcommand of the spec, and every subcommand
//!   name of the spec is one of them (yarn also keeps `dedupe`, `lockfile`
//!   and `prune`, which `yarn --help` does not list).
//! - Every option `PROG --help` and `PROG <command> --help` list is a row
//!   of the spec's global table or of that subcommand's tables, with the
//!   same arity: `<V>` a value, pnpm's `[=<V>]` an attached optional
//!   value, yarn's `[V]` a value (the spec asks when none follows).
//! - Abbreviations: pnpm refuses `--regis` (of `--registry`). yarn's
//!   commander 2 matches names exactly (`Command.optionFor`), which the
//!   spec's exact reading mirrors; yarn ignores an unknown option, so no
//!   exit status tells.
//!
//! A missing program is reported with a SKIP line (npm installs both with
//! `npm i -g pnpm yarn`), never passed silently.

use std::path::Path;
use std::process::Command;

use approvals_ipc::policy::specs::{Arity, Opt, Spec, Sub};

mod spec_support;
use spec_support::spec;

fn run(program: &str, home: &Path, args: &[&str]) -> Option<(bool, String, String)> {
    let out = Command::new(program)
        .args(args)
        .current_dir(home)
        .env("HOME", home)
        .env("COLUMNS", "400")
        .env("NO_COLOR", "1")
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"name":"p","version":"1.0.0","license":"MIT"}"#,
    )
    .expect("package.json");
    dir
}

fn rows<'a>(tables: &'a [&'static [Opt]]) -> impl Iterator<Item = &'static Opt> + 'a {
    tables.iter().flat_map(|t| t.iter())
}

/// The arity of the first row spelled `name` in `tables`.
fn arity(tables: &[&'static [Opt]], name: &str) -> Option<Arity> {
    rows(tables)
        .find(|o| o.names.contains(&name))
        .map(|o| o.arity)
}

/// `(names, arity)` of each option line: pnpm's clap layout
/// (`  -C, --dir <DIR>`, `      --color[=<COLOR>]`) or yarn's commander
/// layout (`    -s, --silent  text`, `    --prod, --production [prod]`).
fn options(help: &str, yarn: bool) -> Vec<(Vec<String>, Arity)> {
    let line = if yarn {
        regex::Regex::new(
            r"^    ((?:-[a-zA-Z], )?--[a-z-]+(?:, --[a-z-]+)?)(?: ([<\[])\S*)?(?:\s{2,}.*)?$",
        )
    } else {
        regex::Regex::new(
            r"^  ((?:-., )?|    )(--[A-Za-z0-9.-]+)(\[=<[^>]+>\])?( <[^>]+>(?:\.\.\.)?)?\s*$",
        )
    }
    .expect("regex");
    let section = help
        .split_once("Options:")
        .map_or("", |(_, rest)| rest.split("Commands:").next().unwrap_or(""));
    let mut out = Vec::new();
    for l in section.lines() {
        let Some(c) = line.captures(l.trim_end()) else {
            continue;
        };
        if yarn {
            let names = c[1].split(", ").map(str::to_owned).collect();
            let arity = if c.get(2).is_some() {
                Arity::Required
            } else {
                Arity::Flag
            };
            out.push((names, arity));
        } else {
            let mut names: Vec<String> = Vec::new();
            let short = c[1].trim().trim_end_matches(',');
            if !short.is_empty() {
                names.push(short.to_owned());
            }
            names.push(c[2].to_owned());
            let arity = if c.get(3).is_some() {
                Arity::Optional
            } else if c.get(4).is_some() {
                Arity::Required
            } else {
                Arity::Flag
            };
            out.push((names, arity));
        }
    }
    out
}

/// Command names and aliases `PROG --help` lists.
fn commands(help: &str, yarn: bool) -> Vec<Vec<String>> {
    let section = help.split_once("Commands:").map_or("", |(_, r)| r);
    let section = section.split("Options:").next().unwrap_or("");
    let mut out = Vec::new();
    if yarn {
        for l in section.lines() {
            if let Some(c) = l.trim().strip_prefix("- ") {
                out.push(c.split(" / ").map(|s| s.trim().to_owned()).collect());
            }
        }
    } else {
        let line = regex::Regex::new(r"^  ([a-z-]+)\s+(.*)$").expect("regex");
        let alias = regex::Regex::new(r"\[alias(?:es)?: ([^\]]+)\]\s*$").expect("regex");
        for l in section.lines() {
            let Some(c) = line.captures(l) else { continue };
            let mut names = vec![c[1].to_owned()];
            if let Some(a) = alias.captures(&c[2]) {
                names.extend(a[1].split(", ").map(str::to_owned));
            }
            out.push(names);
        }
    }
    out
}

fn find_sub(spec: &'static Spec, name: &str) -> Option<&'static Sub> {
    spec.subs.iter().find(|s| s.names.contains(&name))
}

fn compare(program: &str, family: &str, yarn: bool, extra_subs: &[&str]) {
    let home = scratch();
    let Some((true, version, _)) = run(program, home.path(), &["--version"]) else {
        eprintln!("SKIP js_spec_conformance: {program} is not installed (npm i -g pnpm yarn)");
        return;
    };
    let spec = spec(family);
    eprintln!(
        "{program} {}; spec checked with {}",
        version.trim(),
        spec.checked_with
    );
    let (_, help, _) = run(program, home.path(), &["--help"]).expect("help");
    let mut problems = Vec::new();
    let mut compared = 0;
    let listed = commands(&help, yarn);
    assert!(
        listed.len() > 30,
        "{program} --help lists {} commands",
        listed.len()
    );
    for names in &listed {
        for n in names {
            match find_sub(spec, n) {
                None => problems.push(format!("{program} {n}: a command the spec lacks")),
                Some(s) if s.names[0] != names[0] => {
                    problems.push(format!(
                        "{program} {n}: the spec has it under {}",
                        s.names[0]
                    ));
                }
                _ => {}
            }
        }
    }
    for sub in spec.subs {
        for n in sub.names {
            let known = listed.iter().any(|l| l.iter().any(|x| x == n)) || extra_subs.contains(n);
            if !known {
                problems.push(format!("{program} {n}: in the spec, not in --help"));
            }
        }
    }
    let global = options(&help, yarn);
    assert!(
        global.len() > 30,
        "{program} --help lists {} options",
        global.len()
    );
    for (names, want) in &global {
        compared += 1;
        for n in names {
            match arity(spec.opts, n) {
                None => problems.push(format!("{program} {n}: a global option the spec lacks")),
                Some(got) if got != *want => {
                    problems.push(format!("{program} {n}: spec {got:?}, help {want:?}"));
                }
                _ => {}
            }
        }
    }
    for names in &listed {
        let name = &names[0];
        let Some(sub) = find_sub(spec, name) else {
            continue;
        };
        let (_, text, _) = run(program, home.path(), &[name, "--help"]).expect("help");
        for (spellings, want) in options(&text, yarn) {
            compared += 1;
            for n in &spellings {
                match arity(sub.opts, n) {
                    None => {
                        problems.push(format!("{program} {name} {n}: an option the spec lacks"))
                    }
                    Some(got) if got != want => {
                        problems.push(format!("{program} {name} {n}: spec {got:?}, help {want:?}"));
                    }
                    _ => {}
                }
            }
        }
    }
    // No abbreviation: `--regis` is an error, not `--registry`.
    let (ok, _, _) = run(
        program,
        home.path(),
        &["--regis=http://127.0.0.1:9/", "--version"],
    )
    .expect("runs");
    let abbreviated_ok = ok && !yarn;
    if abbreviated_ok {
        problems.push(format!("{program} takes --regis"));
    }
    eprintln!(
        "{program}: {} commands, {compared} options compared",
        listed.iter().map(Vec::len).sum::<usize>()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_pnpm_spec_matches_the_installed_pnpm() {
    compare("pnpm", "pnpm", false, &[]);
}

#[test]
fn the_yarn_spec_matches_the_installed_yarn() {
    compare("yarn", "yarn", true, &["dedupe", "lockfile", "prune"]);
}
